"""CoACD's convex parts for an exported model's hand: MuJoCo collides a mesh as its convex
hull, and its users model a hand that is not convex as convex parts. Shared by the comparison
scripts (`pip install coacd`)."""

import hashlib
import re
import sys
from pathlib import Path

import numpy as np

# The comparison scripts' shared OBJ reader, one folder up.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from obj_file import read_obj  # noqa: E402


class Decomposer:
    """Rewrites an exported model so that MuJoCo collides each of the hand's meshes as CoACD's
    convex parts; each mesh (by its contents) is decomposed once."""

    def __init__(self):
        import coacd

        coacd.set_log_level("error")
        self.coacd = coacd
        self.parts = {}

    def decompose(self, obj):
        key = hashlib.sha1(obj.read_bytes()).hexdigest()
        if key not in self.parts:
            mesh = self.coacd.Mesh(*read_obj(obj))
            self.parts[key] = [(np.asarray(v), np.asarray(f)) for v, f in self.coacd.run_coacd(mesh)]
        return self.parts[key]

    def rewrite(self, path):
        """The hand's geoms (every mesh geom but the free object's) replaced by their parts."""
        text = path.read_text()
        folder = path.parent / f"{path.stem}_meshes"
        object_mesh = re.search(r'<freejoint/>.*?mesh="(m\d+)"', text).group(1)
        assets, geoms = [], {}
        for name, file in re.findall(r'<mesh name="(m\d+)" file="([^"]+)"', text):
            if name == object_mesh:
                continue
            pieces = []
            for k, (v, f) in enumerate(self.decompose(folder / file)):
                part = f"{name}_p{k}"
                lines = [f"v {a} {b} {c}" for a, b, c in v] + [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in f]
                (folder / f"{part}.obj").write_text("\n".join(lines) + "\n")
                assets.append(f'<mesh name="{part}" file="{part}.obj" scale="0.001 0.001 0.001"/>')
                pieces.append(part)
            geoms[name] = pieces
        for name, pieces in geoms.items():
            pattern = re.compile(rf'<geom type="mesh" mesh="{name}"([^/]*)/>')
            text = pattern.sub(lambda m: "".join(f'<geom type="mesh" mesh="{p}"{m.group(1)}/>' for p in pieces), text)
        text = text.replace("  </asset>", "    " + "\n    ".join(assets) + "\n  </asset>", 1)
        path.write_text(text)
