"""The Python API as a user meets it: the hand-written type stub holds against the built
module (mypy's stubtest, which also fails when the stub lacks a method), and docs/python.md
names every public name of the package."""

from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import clasp
import clasp.dataset
import clasp.ray

REPO = Path(__file__).resolve().parents[3]
PACKAGE = Path(clasp.__file__).parent


def stubtest(env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "clasp._clasp"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO.parent,  # not the repository, whose crates/ holds no importable clasp
    )


def test_the_stub_matches_the_module():
    run = stubtest()
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_stub_check_fails_when_a_method_is_missing(tmp_path: Path):
    # The installed package again, its stub lacking one method, found first by mypy.
    copy = tmp_path / "clasp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    stub = (copy / "_clasp.pyi").read_text()
    lines = stub.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if "def body_mass(" in line)
    assert lines[start + 1].strip().startswith('"""')
    (copy / "_clasp.pyi").write_text("".join(lines[:start] + lines[start + 2 :]))
    run = stubtest({**os.environ, "MYPYPATH": str(tmp_path)})
    assert run.returncode != 0
    assert "clasp._clasp.World.body_mass is not present in stub" in run.stdout, run.stdout


def public_names() -> set[str]:
    """The package's names (`__all__` of `clasp`, `clasp.dataset` and `clasp.ray`) and each
    public class's own methods and attributes."""
    names = set()
    for module in (clasp, clasp.dataset, clasp.ray):
        for name in module.__all__:
            names.add(name)
            value = getattr(module, name)
            if inspect.isclass(value) and not issubclass(value, BaseException):
                names |= {n for n in vars(value) if not n.startswith("_")}
    return names


def test_docs_name_every_public_name():
    doc = (REPO / "docs" / "python.md").read_text()
    # A name counts where it is written as code: in an example, or inline as `name`,
    # `name(...)`, `World.name`, `a.b.name`.
    examples = re.findall(r"```.*?```", doc, flags=re.S)
    inline = re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", doc, flags=re.S))
    spans = examples + inline
    documented = {word for span in spans for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span)}
    missing = sorted(public_names() - documented)
    assert not missing, f"docs/python.md does not name: {', '.join(missing)}"
