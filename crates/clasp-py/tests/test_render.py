"""Pictures from Python: `World.render` (RGB, depth, body mask) and `World.point_cloud`, checked
against the bodies' own meshes; bad cameras refused."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import clasp
from clasp import BodyId

MUG = BodyId.free(0)


def surface_distance(points, triangles):
    """Each point's distance to the nearest of the triangles (T, 3, 3): to the plane where it
    projects inside a triangle, else to the nearest edge."""
    a, b, c = (triangles[None, :, k] for k in range(3))
    p = points[:, None, :]
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    height = np.einsum("ptk,ptk->pt", p - a, n)
    q = p - height[..., None] * n
    inside = np.ones(height.shape, bool)
    for u, v in ((a, b), (b, c), (c, a)):
        inside &= np.einsum("ptk,ptk->pt", np.cross(v - u, q - u), n) >= 0
    best = np.where(inside, np.abs(height), np.inf)
    for u, v in ((a, b), (b, c), (c, a)):
        t = np.clip(np.einsum("ptk,ptk->pt", p - u, v - u) / np.einsum("ptk,ptk->pt", v - u, v - u), 0, 1)
        best = np.minimum(best, np.linalg.norm(p - (u + t[..., None] * (v - u)), axis=-1))
    return best.min(axis=1)


@pytest.fixture(scope="module")
def world():
    return clasp.World.default_scene()


def test_render_gives_colour_depth_and_mask_of_the_right_shapes(world):
    images = world.render(width=320, height=240, look_from=(1.0, -0.3, 0.4))
    assert images["rgb"].shape == (240, 320, 3) and images["rgb"].dtype == np.uint8
    assert images["depth"].shape == (240, 320) and images["depth"].dtype == np.float32
    assert images["segmentation"].shape == (240, 320) and images["segmentation"].dtype == np.int32
    assert images["bodies"] == world.body_ids
    seen = images["segmentation"] >= 0
    # Nothing is seen exactly where the depth is infinite.
    assert np.array_equal(seen, np.isfinite(images["depth"]))
    mug = images["bodies"].index(MUG)
    assert (images["segmentation"] == mug).sum() > 5000
    # The background is the app's, the bodies are lit.
    assert tuple(images["rgb"][0, 0]) == (33, 36, 43)
    assert images["rgb"][seen].mean() > 60
    k = images["intrinsics"]
    assert k[0, 2] == 160 and k[1, 2] == 120 and k[0, 0] == pytest.approx(120 / np.tan(np.radians(22.5)))
    again = world.render(width=320, height=240, look_from=(1.0, -0.3, 0.4))
    for key in ("rgb", "depth", "segmentation"):
        assert again[key].tobytes() == images[key].tobytes()


def test_the_point_cloud_lies_on_the_bodies(world):
    cloud = world.point_cloud(width=320, height=240, look_from=(0.2, -1.0, 0.5))
    points, index, bodies = cloud["points"], cloud["segmentation"], cloud["bodies"]
    assert len(points) > 5000 and points.shape[1] == 3
    rng = np.random.default_rng(0)
    for b in np.unique(index):
        mine = points[index == b]
        mine = mine[rng.choice(len(mine), size=min(100, len(mine)), replace=False)]
        vertices, faces = world.body_mesh(bodies[b])
        pose = world.body_pose(bodies[b])
        distance = surface_distance(mine, (vertices @ pose[:3, :3].T + pose[:3, 3])[faces])
        assert distance.max() < 1.0, f"{world.body_name(bodies[b])}: {distance.max()} mm off"
    # The camera frame's cloud is the same points seen from the camera.
    local = world.point_cloud(width=320, height=240, look_from=(0.2, -1.0, 0.5), frame="camera")
    camera = local["camera"]
    back = local["points"] @ camera[:3, :3].T + camera[:3, 3]
    assert np.allclose(back, points, atol=1e-9)
    assert (local["points"][:, 2] > 0).all()


def test_a_camera_pose_is_taken_as_given(world):
    # From 400 mm along −y, level with the mug's middle, looking along +y; image down along −z.
    vertices, _ = world.body_mesh(MUG)
    middle = (world.body_pose(MUG) @ np.append(vertices.mean(axis=0), 1.0))[:3]
    camera = np.array([[1, 0, 0, middle[0]], [0, 0, 1, middle[1] - 400], [0, -1, 0, middle[2]], [0, 0, 0, 1]], dtype=float)
    images = world.render(camera=camera, width=200, height=200)
    assert np.allclose(images["camera"], camera, atol=1e-12)
    centre = images["segmentation"][100, 100]
    assert images["bodies"][centre] == MUG


def test_bad_cameras_are_refused(world):
    for width, height in ((0, 240), (320, 0), (16385, 10)):
        with pytest.raises(ValueError, match="pixels"):
            world.render(width=width, height=height)
    nan = np.eye(4)
    nan[0, 3] = np.nan
    with pytest.raises(ValueError):
        world.render(camera=nan)
    with pytest.raises(ValueError, match="fov|field of view"):
        world.render(fov=0.0)
    with pytest.raises(ValueError, match="frame"):
        world.point_cloud(frame="robot")
    # A camera in the mug's wall.
    vertices, _ = world.body_mesh(MUG)
    pose = world.body_pose(MUG)
    wall = vertices[np.argmax(vertices[:, 0])] @ pose[:3, :3].T + pose[:3, 3]
    for depth in np.linspace(0.2, 3.0, 15):
        inside = np.eye(4)
        inside[:3, 3] = wall - np.array([depth, 0.0, 0.0])
        try:
            world.render(camera=inside, width=64, height=64)
        except ValueError as error:
            assert "inside clasp_mug" in str(error)
            break
    else:
        pytest.fail("no point of the mug's wall was refused")


def test_a_render_with_no_display_prints_nothing_on_stderr():
    unset = ("XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY", "NODEVICE_SELECT")
    quiet = {k: v for k, v in os.environ.items() if k not in unset}
    script = "import clasp; clasp.World.default_scene().render(width=64, height=48)"
    run = subprocess.run([sys.executable, "-c", script], env=quiet, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
