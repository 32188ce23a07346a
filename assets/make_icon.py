"""Draws Clasp's window icon, assets/icon.png: a three-fingered hand closing on a mug, the app's
default scene seen from the side. Pure Python (no imaging library): each pixel is sampled 4×4
times against the shapes below and the samples are averaged, then written as an RGBA PNG.

    python3 assets/make_icon.py        # rewrites assets/icon.png
"""

import math
import struct
import zlib
from pathlib import Path

SIZE = 64
SAMPLES = 4
BACKGROUND = (38, 50, 56)  # the app's dark slate
MUG = (176, 190, 197)
HAND = (245, 166, 35)


def rounded_square(x, y, radius=0.18):
    """Inside the icon's rounded square (coordinates 0..1)."""
    cx, cy = min(max(x, radius), 1 - radius), min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def capsule(x, y, a, b, width):
    """Inside a thick segment from a to b."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    px, py = ax + t * dx, ay + t * dy
    return (x - px) ** 2 + (y - py) ** 2 <= (width / 2) ** 2


def mug(x, y):
    body = 0.36 <= x <= 0.64 and 0.48 <= y <= 0.84
    ring = 0.05 <= math.hypot(x - 0.66, y - 0.64) <= 0.11 and x > 0.64
    return body or ring


# The palm and three fingers, each two links bent toward the mug.
FINGERS = [
    [(0.24, 0.14), (0.76, 0.14)],
    [(0.28, 0.16), (0.22, 0.42), (0.33, 0.60)],
    [(0.72, 0.16), (0.80, 0.42), (0.69, 0.60)],
    [(0.50, 0.16), (0.50, 0.40)],
]


def hand(x, y):
    for joints in FINGERS:
        for a, b in zip(joints, joints[1:]):
            if capsule(x, y, a, b, 0.09):
                return True
    return False


def colour(x, y):
    if not rounded_square(x, y):
        return (0, 0, 0, 0)
    if hand(x, y):
        return HAND + (255,)
    if mug(x, y):
        return MUG + (255,)
    return BACKGROUND + (255,)


def pixel(i, j):
    total = [0, 0, 0, 0]
    for si in range(SAMPLES):
        for sj in range(SAMPLES):
            x = (j + (sj + 0.5) / SAMPLES) / SIZE
            y = (i + (si + 0.5) / SAMPLES) / SIZE
            c = colour(x, y)
            for k in range(4):
                total[k] += c[k]
    return bytes(round(t / SAMPLES**2) for t in total)


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    rows = [b"".join(pixel(i, j) for j in range(SIZE)) for i in range(SIZE)]
    out = Path(__file__).with_name("icon.png")
    out.write_bytes(png(SIZE, SIZE, rows))
    print(f"wrote {out} ({SIZE}×{SIZE})")
