"""The OBJ files Clasp writes (`clasp-bench --export`, `save_mjcf`), read for the comparison
scripts beside Coal and MuJoCo: one reader for all of them."""

from pathlib import Path

import numpy as np


def read_obj(path):
    """Vertices (n×3 float64) and triangles (m×3 int64, 0-based) of an OBJ with `v` and `f`
    lines: the two arrays Coal's `addVertices`/`addTriangles` and CoACD's `Mesh` take as they are."""
    vertices, faces = [], []
    for line in Path(path).read_text().splitlines():
        words = line.split()
        if words and words[0] == "v":
            vertices.append([float(w) for w in words[1:4]])
        elif words and words[0] == "f":
            faces.append([int(w.split("/")[0]) - 1 for w in words[1:4]])
    return np.array(vertices, dtype=np.float64), np.array(faces, dtype=np.int64)
