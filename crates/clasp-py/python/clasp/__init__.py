"""Clasp, a grasp simulator: worlds of triangle meshes and robot hands, moves that stop at
contact, contacts, GraspIt's grasp quality, and batches of grasps on every core or across a
Ray cluster (``clasp.ray``).

Units are millimetres, radians and grams. Poses are 4x4 numpy arrays (``pose`` and
``position_quaternion`` convert from and to a position and an ``x, y, z, w`` quaternion).

>>> import clasp
>>> world = clasp.World.default_scene()
>>> world.auto_grasp()          # the current hand closes until its fingers touch
>>> world.grasp_quality(metric="volume")
"""

from __future__ import annotations

import os

import numpy as np

# Where no Wayland session is, Mesa's Vulkan device-select layer asks for one anyway and
# libwayland prints "error: XDG_RUNTIME_DIR is invalid ..." twice on every render: turned off
# before the renderer opens Vulkan (clasp_render::quiet_device_select says why), unless set.
if not os.path.isdir(os.environ.get("XDG_RUNTIME_DIR", "")):
    os.environ.setdefault("NODEVICE_SELECT", "1")

from ._clasp import (
    DEFAULT_CONTACT_THRESHOLD,
    TEST_PRESETS,
    VIRTUAL_MAX_RADIUS,
    BodyId,
    Contact,
    MoveOutcome,
    Quality,
    World,
    grasp_candidates,
    objects_in,
)
from .errors import ClaspError, LoadError, MoveError, QualityError, SaveError

__all__ = [
    "DEFAULT_CONTACT_THRESHOLD",
    "TEST_PRESETS",
    "VIRTUAL_MAX_RADIUS",
    "BodyId",
    "ClaspError",
    "Contact",
    "LoadError",
    "MoveError",
    "MoveOutcome",
    "Quality",
    "QualityError",
    "SaveError",
    "World",
    "grasp_candidates",
    "objects_in",
    "pose",
    "position_quaternion",
]


def pose(position=(0.0, 0.0, 0.0), quaternion=(0.0, 0.0, 0.0, 1.0)) -> np.ndarray:
    """A 4x4 pose from a position (mm) and a unit quaternion ``x, y, z, w`` (normalised here)."""
    x, y, z, w = np.asarray(quaternion, dtype=float) / np.linalg.norm(quaternion)
    matrix = np.eye(4)
    matrix[:3, :3] = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    matrix[:3, 3] = position
    return matrix


def position_quaternion(matrix) -> tuple[np.ndarray, np.ndarray]:
    """A 4x4 pose's position (mm) and unit quaternion ``x, y, z, w`` (w >= 0)."""
    m = np.asarray(matrix, dtype=float)
    r = m[:3, :3]
    w = np.sqrt(max(0.0, 1.0 + r[0, 0] + r[1, 1] + r[2, 2])) / 2.0
    x = np.sqrt(max(0.0, 1.0 + r[0, 0] - r[1, 1] - r[2, 2])) / 2.0
    y = np.sqrt(max(0.0, 1.0 - r[0, 0] + r[1, 1] - r[2, 2])) / 2.0
    z = np.sqrt(max(0.0, 1.0 - r[0, 0] - r[1, 1] + r[2, 2])) / 2.0
    x = np.copysign(x, r[2, 1] - r[1, 2])
    y = np.copysign(y, r[0, 2] - r[2, 0])
    z = np.copysign(z, r[1, 0] - r[0, 1])
    quaternion = np.array([x, y, z, w])
    return m[:3, 3].copy(), quaternion / np.linalg.norm(quaternion)
