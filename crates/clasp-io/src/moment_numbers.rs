//! A recorded moment's values as plain numbers, as both recording files carry them: the
//! `.clasprec` document and the run handed to the `.rrd` writer.

use clasp_core::{Pose, RecordedContact, Velocity};

/// A pose as 7 numbers: the translation (mm), then the rotation's unit quaternion (w, x, y, z).
pub fn pose_numbers(pose: &Pose) -> [f64; 7] {
    let (t, q) = (pose.translation.vector, pose.rotation.quaternion());
    [t.x, t.y, t.z, q.w, q.i, q.j, q.k]
}

/// A velocity as 6 numbers: linear (mm/s), then angular (rad/s).
pub(crate) fn velocity_numbers(v: &Velocity) -> [f64; 6] {
    let (l, a) = (v.linear, v.angular);
    [l.x, l.y, l.z, a.x, a.y, a.z]
}

/// A contact as 11 numbers: its two bodies' places, the point, the normal, the impulse.
pub(crate) fn contact_numbers(c: &RecordedContact) -> Vec<f64> {
    let (p, n, i) = (c.point, c.normal, c.impulse);
    vec![
        c.body as f64,
        c.other as f64,
        p.x,
        p.y,
        p.z,
        n.x,
        n.y,
        n.z,
        i.x,
        i.y,
        i.z,
    ]
}
