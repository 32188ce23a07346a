"""Writes a Clasp recording as rerun's .rrd: clasp-io runs this with the recording as JSON on
stdin and the output path as the one argument. Each body's mesh is logged once (static), its
pose on the `sim_time` timeline; the contacts' points, normals and force arrows at each moment.
Exit status 3: the rerun SDK is missing (pip install rerun-sdk)."""

import json
import sys

try:
    import numpy as np
    import rerun as rr
except ImportError as missing:
    print(f"writing .rrd needs the rerun SDK ({missing}): pip install rerun-sdk", file=sys.stderr)
    sys.exit(3)

TIMELINE = "sim_time"
NORMAL_LENGTH = 10.0  # mm drawn for a contact normal
MM_PER_NEWTON = 10.0  # mm drawn per newton of contact force


def main(out):
    run = json.load(sys.stdin)
    rec = rr.RecordingStream("clasp", recording_id=run["name"])
    rec.save(out)
    rec.log("world", rr.ViewCoordinates.RIGHT_HAND_Z_UP, static=True)
    times = np.asarray(run["times"], dtype=np.float64)
    index = [rr.TimeColumn(TIMELINE, duration=times)]
    for k, body in enumerate(run["bodies"]):
        rec.log(
            body["entity"],
            rr.Mesh3D(
                vertex_positions=np.asarray(body["vertices"], dtype=np.float32).reshape(-1, 3),
                triangle_indices=np.asarray(body["triangles"], dtype=np.uint32).reshape(-1, 3),
                albedo_factor=body["color"],
            ),
            static=True,
        )
        poses = np.asarray([moment[k] for moment in run["poses"]], dtype=np.float64).reshape(-1, 7)
        rec.send_columns(
            body["entity"],
            indexes=index,
            columns=rr.Transform3D.columns(
                translation=poses[:, 0:3],
                # Clasp writes (w, x, y, z); rerun takes (x, y, z, w).
                quaternion=poses[:, [4, 5, 6, 3]],
            ),
        )
    # A contact's force over the step that led to the moment: impulse (g·mm/s) / dt, in N.
    newtons_per_impulse = 1e-6 / run["time_step"]
    for time, contacts in zip(times, run["contacts"]):
        rec.set_time(TIMELINE, duration=time)
        c = np.asarray(contacts, dtype=np.float64).reshape(-1, 9)
        points, normals, forces = c[:, 0:3], c[:, 3:6], c[:, 6:9] * newtons_per_impulse
        rec.log("world/contacts/points", rr.Points3D(points, radii=0.5, colors=[255, 200, 0]))
        rec.log("world/contacts/normals", rr.Arrows3D(origins=points, vectors=normals * NORMAL_LENGTH, colors=[0, 200, 255]))
        rec.log("world/contacts/forces", rr.Arrows3D(origins=points, vectors=forces * MM_PER_NEWTON, colors=[255, 60, 60]))
    rec.flush()


if __name__ == "__main__":
    main(sys.argv[1])
