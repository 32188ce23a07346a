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


@pytest.fixture(scope="session")
def graspit() -> Path:
    """GraspIt's model library."""
    if not GRASPIT.is_dir():
        assert "CI" not in os.environ, f"CI must not skip: GraspIt's model library is not at {GRASPIT}"
        pytest.skip(f"GraspIt's model library is not at {GRASPIT}")
    return GRASPIT


@pytest.fixture(scope="session")
def clasp_cli() -> Path:
    """The clasp-cli binary of this checkout, brought up to date (a no-op after `cargo test`)."""
    subprocess.run(["cargo", "build", "-q", "-p", "clasp-cli"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "clasp-cli"
