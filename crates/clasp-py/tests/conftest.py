"""Shared fixtures: the repository's models, GraspIt's model library (skipped with a reason when
absent; under CI, where it must be, its absence fails), and the Rust CLI to compare with."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
MODELS = REPO / "models"
GRASPIT = REPO.parent / "shared" / "graspit-models"


@pytest.fixture(scope="session")
def models() -> Path:
    return MODELS


# Lines of GraspIt's own files a copy of its library was found changed in (clasp_io's
# fixtures::AS_SHIPPED says the same): the file, the line as found, the line as GraspIt ships it.
AS_SHIPPED = [("objects/mug.xml", "<material>frictionless</material>", "<material>glass</material>")]


@pytest.fixture(scope="session")
def graspit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """GraspIt's model library; where a file of the copy here differs from the one GraspIt ships,
    read as GraspIt ships it, through a folder of links (the tests' expectations were made so)."""
    if not GRASPIT.is_dir():
        assert "CI" not in os.environ, f"CI must not skip: GraspIt's model library is not at {GRASPIT}"
        pytest.skip(f"GraspIt's model library is not at {GRASPIT}")
    changed = {}
    for file, found, shipped in AS_SHIPPED:
        text = (GRASPIT / file).read_text()
        if found in text:
            changed[Path(file)] = text.replace(found, shipped)
            print(f"NOTE: {GRASPIT / file} differs from GraspIt's own file; the tests read it as shipped")
    if not changed:
        return GRASPIT
    overlay = tmp_path_factory.mktemp("graspit-as-shipped")
    _link_all_but(GRASPIT, overlay, changed)
    return overlay


def _link_all_but(library: Path, overlay: Path, changed: dict) -> None:
    """Links every entry of `library` into `overlay`, but writes the changed files' texts."""
    folders = [Path()]
    while folders:
        folder = folders.pop()
        (overlay / folder).mkdir(parents=True, exist_ok=True)
        for entry in (library / folder).iterdir():
            path = folder / entry.name
            if path in changed:
                (overlay / path).write_text(changed[path])
            elif entry.is_dir() and any(c.is_relative_to(path) for c in changed):
                folders.append(path)
            else:
                (overlay / path).symlink_to(entry)


@pytest.fixture(scope="session")
def clasp_cli() -> Path:
    """The clasp-cli binary of this checkout, brought up to date (a no-op after `cargo test`)."""
    subprocess.run(["cargo", "build", "-q", "-p", "clasp-cli"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "clasp-cli"
