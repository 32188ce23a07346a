//! An oriented box and the tests on it that prune the trees' walks: box against box (the
//! separating axes, a lower bound on their distance), against a triangle, a point and a ray.

use nalgebra::{Matrix3, Point3, Vector3};

/// The points `x` with `|axesᵀ·(x − center)| ≤ half` on each axis. The axes are the columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OrientedBox {
    pub axes: Matrix3<f64>,
    pub center: Vector3<f64>,
    pub half: Vector3<f64>,
}

/// A small margin on rotation entries, so boxes with parallel edges never look separated on an
/// edge–edge axis that is really zero (Gottschalk's RAPID uses the same trick).
const PARALLEL_EPSILON: f64 = 1e-9;

/// Box `b` as seen from box `a`: `b`'s axes in `a`'s axes, and `b`'s centre in `a`'s box
/// frame. `rotation` and `translation` take `b`'s mesh frame to `a`'s.
pub(crate) fn relative(
    a: &OrientedBox,
    b: &OrientedBox,
    rotation: &Matrix3<f64>,
    translation: &Vector3<f64>,
) -> (Matrix3<f64>, Vector3<f64>) {
    let at = a.axes.transpose();
    let r = at * (rotation * b.axes);
    let t = at * (rotation * b.center + translation - a.center);
    (r, t)
}

/// Whether two boxes overlap, by the 15 separating axes; `r`, `t` from [`relative`].
pub(crate) fn boxes_overlap(
    a: &Vector3<f64>,
    b: &Vector3<f64>,
    r: &Matrix3<f64>,
    t: &Vector3<f64>,
) -> bool {
    let abs = r.abs().add_scalar(PARALLEL_EPSILON);
    for i in 0..3 {
        let rb = b.dot(&abs.row(i).transpose());
        if t[i].abs() > a[i] + rb {
            return false;
        }
    }
    for j in 0..3 {
        let ra = a.dot(&abs.column(j).into_owned());
        if t.dot(&r.column(j).into_owned()).abs() > ra + b[j] {
            return false;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // Axis: a's axis i crossed with b's axis j.
            let distance = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
            let ra = a[i1] * abs[(i2, j)] + a[i2] * abs[(i1, j)];
            let rb = b[j1] * abs[(i, j2)] + b[j2] * abs[(i, j1)];
            if distance > ra + rb {
                return false;
            }
        }
    }
    true
}

/// A lower bound on the squared distance between two boxes: the gaps along either box's three
/// axes, which are orthonormal, so their squares add up; or the widest gap along one of the
/// nine edge–edge axes, which part boxes that face each other corner to corner. Zero when the
/// boxes may touch. The edge–edge axes are tried only while the bound is below `enough` (what
/// the caller prunes at).
pub(crate) fn boxes_distance_squared(
    a: &Vector3<f64>,
    b: &Vector3<f64>,
    r: &Matrix3<f64>,
    t: &Vector3<f64>,
    enough: f64,
) -> f64 {
    let abs = r.abs();
    let mut along_a = 0.0;
    let mut along_b = 0.0;
    for i in 0..3 {
        let gap = t[i].abs() - a[i] - b.dot(&abs.row(i).transpose());
        if gap > 0.0 {
            along_a += gap * gap;
        }
    }
    let tb = r.transpose() * t;
    for j in 0..3 {
        let gap = tb[j].abs() - b[j] - a.dot(&abs.column(j).into_owned());
        if gap > 0.0 {
            along_b += gap * gap;
        }
    }
    let mut widest = f64::max(along_a, along_b);
    if widest >= enough {
        return widest;
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // Axis: a's axis i crossed with b's axis j, of length sin(angle between them).
            let length_squared = 1.0 - r[(i, j)] * r[(i, j)];
            if length_squared < 1e-6 {
                continue;
            }
            let distance = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
            let ra = a[i1] * abs[(i2, j)] + a[i2] * abs[(i1, j)];
            let rb = b[j1] * abs[(i, j2)] + b[j2] * abs[(i, j1)];
            let gap = distance - ra - rb;
            if gap > 0.0 {
                widest = widest.max(gap * gap / length_squared);
            }
        }
    }
    widest
}

/// A lower bound on the squared distance between a box and a triangle in the same frame: the
/// gaps along the box's axes, or along the triangle's normal or one of its in-plane edge
/// normals. Zero when they may touch. The triangle's axes are tried only while the box's leave
/// the bound below `enough`.
pub(crate) fn box_triangle_distance_squared(
    bv: &OrientedBox,
    triangle: &[Point3<f64>; 3],
    enough: f64,
) -> f64 {
    let at = bv.axes.transpose();
    let q = triangle.map(|p| at * (p.coords - bv.center));
    let lo = q[0].inf(&q[1]).inf(&q[2]);
    let hi = q[0].sup(&q[1]).sup(&q[2]);
    let gaps = (lo - bv.half).sup(&(-bv.half - hi)).sup(&Vector3::zeros());
    let along_box = gaps.norm_squared();
    if along_box >= enough {
        return along_box;
    }
    let edges = [q[1] - q[0], q[2] - q[1], q[0] - q[2]];
    let normal = edges[0].cross(&edges[1]);
    let length = normal.norm();
    if length == 0.0 {
        return along_box;
    }
    // Along an axis, the box reaches `radius` either side of its centre (the origin here).
    let gap_along = |axis: &Vector3<f64>, axis_length: f64| {
        let d = q.map(|p| p.dot(axis));
        let (lo, hi) = (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]));
        let radius = axis.abs().dot(&bv.half);
        let gap = (lo - radius).max(-radius - hi) / axis_length;
        gap.max(0.0)
    };
    let mut widest = gap_along(&normal, length);
    for edge in &edges {
        widest = widest.max(gap_along(&edge.cross(&normal), edge.norm() * length));
    }
    f64::max(along_box, widest * widest)
}

/// The squared distance from a point to a box (exact, zero inside).
pub(crate) fn point_box_distance_squared(bv: &OrientedBox, p: &Point3<f64>) -> f64 {
    let q = bv.axes.transpose() * (p.coords - bv.center);
    (0..3)
        .map(|i| (q[i].abs() - bv.half[i]).max(0.0).powi(2))
        .sum()
}

/// Whether the ray `origin + s·direction`, `s ≥ 0`, meets a box.
pub(crate) fn ray_meets_box(
    bv: &OrientedBox,
    origin: &Point3<f64>,
    direction: &Vector3<f64>,
) -> bool {
    let at = bv.axes.transpose();
    let o = at * (origin.coords - bv.center);
    let d = at * direction;
    let (mut enter, mut leave) = (0.0_f64, f64::INFINITY);
    for i in 0..3 {
        if d[i].abs() < 1e-300 {
            if o[i].abs() > bv.half[i] {
                return false;
            }
            continue;
        }
        let s1 = (-bv.half[i] - o[i]) / d[i];
        let s2 = (bv.half[i] - o[i]) / d[i];
        enter = enter.max(s1.min(s2));
        leave = leave.min(s1.max(s2));
    }
    enter <= leave
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_tests_agree_on_simple_cases() {
        let unit = OrientedBox {
            axes: Matrix3::identity(),
            center: Vector3::zeros(),
            half: Vector3::repeat(1.0),
        };
        let shifted = |x: f64| OrientedBox {
            center: Vector3::new(x, 0.0, 0.0),
            ..unit
        };
        let (r, t) = relative(
            &unit,
            &shifted(2.5),
            &Matrix3::identity(),
            &Vector3::zeros(),
        );
        assert!(!boxes_overlap(&unit.half, &unit.half, &r, &t));
        assert!(
            (boxes_distance_squared(&unit.half, &unit.half, &r, &t, f64::INFINITY) - 0.25).abs()
                < 1e-12
        );
        let (r, t) = relative(
            &unit,
            &shifted(1.5),
            &Matrix3::identity(),
            &Vector3::zeros(),
        );
        assert!(boxes_overlap(&unit.half, &unit.half, &r, &t));
        assert_eq!(
            boxes_distance_squared(&unit.half, &unit.half, &r, &t, f64::INFINITY),
            0.0
        );
        assert!(
            (point_box_distance_squared(&unit, &Point3::new(2.0, 2.0, 0.0)) - 2.0).abs() < 1e-12
        );
        assert!(ray_meets_box(
            &unit,
            &Point3::new(-5.0, 0.5, 0.5),
            &Vector3::x()
        ));
        assert!(!ray_meets_box(
            &unit,
            &Point3::new(-5.0, 0.5, 0.5),
            &-Vector3::x()
        ));
        let triangle = [
            Point3::new(3.0, 0.0, 0.0),
            Point3::new(3.0, 1.0, 0.0),
            Point3::new(3.0, 0.0, 1.0),
        ];
        assert!(
            (box_triangle_distance_squared(&unit, &triangle, f64::INFINITY) - 4.0).abs() < 1e-12
        );
    }
}
