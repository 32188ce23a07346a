//! Exact-arithmetic-free but careful f64 routines on single triangles: closest points,
//! intersection by separating axes, distance, and the contact points of a close pair.

use nalgebra::{Point3, Vector3};

pub type Point = Point3<f64>;

/// A triangle by its three corners.
pub type Triangle = [Point; 3];

/// The point of a triangle closest to `p`, found by the Voronoi region `p` lies in (Ericson,
/// Real-Time Collision Detection, 5.1.5).
pub fn closest_point_on_triangle(p: &Point, [a, b, c]: &Triangle) -> Point {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The closest points of segments `p1q1` and `p2q2`.
pub fn closest_points_on_segments(
    p1: &Point,
    q1: &Point,
    p2: &Point,
    q2: &Point,
) -> (Point, Point) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    // Our meshes have no zero-length edges, but a guard keeps the arithmetic finite anyway.
    if a <= f64::MIN_POSITIVE && e <= f64::MIN_POSITIVE {
        return (*p1, *p2);
    }
    let (s, t) = if a <= f64::MIN_POSITIVE {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(&r);
        if e <= f64::MIN_POSITIVE {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            // Parallel segments: any s works; take the start and let t and the clamps settle it.
            let mut s = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (p1 + d1 * s, p2 + d2 * t)
}

fn interval(t: &Triangle, axis: &Vector3<f64>) -> (f64, f64) {
    let d = t.map(|p| p.coords.dot(axis));
    (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
}

/// Whether two triangles share at least one point (touching counts), by the 17 candidate
/// separating axes: both normals, the 9 edge–edge cross products, and the 6 in-plane edge
/// normals that separate coplanar triangles.
pub fn triangles_intersect(t1: &Triangle, t2: &Triangle) -> bool {
    let edges = |t: &Triangle| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (e1, e2) = (edges(t1), edges(t2));
    let (n1, n2) = (e1[0].cross(&e1[1]), e2[0].cross(&e2[1]));
    let separates = |axis: &Vector3<f64>| {
        let (lo1, hi1) = interval(t1, axis);
        let (lo2, hi2) = interval(t2, axis);
        hi1 < lo2 || hi2 < lo1
    };
    // The normals first: most pairs that meet in a tree traversal are parted by a plane.
    if separates(&n1) || separates(&n2) {
        return false;
    }
    for a in &e1 {
        for b in &e2 {
            if separates(&a.cross(b)) {
                return false;
            }
        }
    }
    !(e1.iter().any(|e| separates(&e.cross(&n1))) || e2.iter().any(|e| separates(&e.cross(&n2))))
}

/// The closest points of two triangles that do not intersect, or `None` where they do.
pub fn triangle_closest_points(t1: &Triangle, t2: &Triangle) -> Option<(Point, Point)> {
    (!triangles_intersect(t1, t2)).then(|| closest_points_apart(t1, t2))
}

/// The closest points of two triangles known not to intersect: the nearest of each corner to
/// the other triangle and of each pair of edges.
pub fn closest_points_apart(t1: &Triangle, t2: &Triangle) -> (Point, Point) {
    let mut best = (t1[0], t2[0]);
    let mut best_squared = f64::INFINITY;
    let mut offer = |p: Point, q: Point| {
        let squared = (p - q).norm_squared();
        if squared < best_squared {
            best_squared = squared;
            best = (p, q);
        }
    };
    for p in t1 {
        offer(*p, closest_point_on_triangle(p, t2));
    }
    for p in t2 {
        offer(closest_point_on_triangle(p, t1), *p);
    }
    for i in 0..3 {
        for j in 0..3 {
            let (p, q) =
                closest_points_on_segments(&t1[i], &t1[(i + 1) % 3], &t2[j], &t2[(j + 1) % 3]);
            offer(p, q);
        }
    }
    best
}

/// Every point pair of two non-intersecting triangles closer than `threshold`, as GraspIt finds
/// them: vertices of `t2` against the face of `t1`; vertices of `t1` against the face of `t2`
/// unless the closest point is a vertex of `t2` (already found); edge pairs unless a closest
/// point is an edge's end (already found). `None` where the triangles intersect.
pub fn triangle_contacts(
    t1: &Triangle,
    t2: &Triangle,
    threshold: f64,
) -> Option<Vec<(Point, Point)>> {
    let mut out = Vec::new();
    push_triangle_contacts(t1, t2, threshold, &mut out).then_some(out)
}

/// [`triangle_contacts`] appending to `out`, without allocating; false where the triangles
/// intersect (then nothing is appended).
pub fn push_triangle_contacts(
    t1: &Triangle,
    t2: &Triangle,
    threshold: f64,
    out: &mut Vec<(Point, Point)>,
) -> bool {
    if triangles_intersect(t1, t2) {
        return false;
    }
    let limit = threshold * threshold;
    let close = |a: &Point, b: &Point| (a - b).norm_squared() < limit;
    for p in t2 {
        let q = closest_point_on_triangle(p, t1);
        if close(&q, p) {
            out.push((q, *p));
        }
    }
    for p in t1 {
        let q = closest_point_on_triangle(p, t2);
        if close(p, &q) && !t2.contains(&q) {
            out.push((*p, q));
        }
    }
    for i in 0..3 {
        let (a0, a1) = (t1[i], t1[(i + 1) % 3]);
        for j in 0..3 {
            let (b0, b1) = (t2[j], t2[(j + 1) % 3]);
            let (p, q) = closest_points_on_segments(&a0, &a1, &b0, &b1);
            if close(&p, &q) && p != a0 && p != a1 && q != b0 && q != b1 {
                out.push((p, q));
            }
        }
    }
    true
}

/// A lower bound on the distance between two triangles: the widest gap between their shadows
/// on either one's normal or on either one's in-plane edge normals. The normals alone part
/// triangles that face each other; the edge normals part triangles side by side in nearly one
/// plane, which is what two curved surfaces near contact mostly offer a tree traversal. A
/// fraction of the cost of the exact closest points, and it settles most such pairs.
///
/// The edge normals are tried only while the normals leave the bound below `enough` (what the
/// caller prunes at).
pub fn separation_bound(t1: &Triangle, t2: &Triangle, enough: f64) -> f64 {
    let edges = |t: &Triangle| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (e1, e2) = (edges(t1), edges(t2));
    let (n1, n2) = (e1[0].cross(&e1[1]), e2[0].cross(&e2[1]));
    let gap = |axis: &Vector3<f64>, length: f64| {
        let (lo1, hi1) = interval(t1, axis);
        let (lo2, hi2) = interval(t2, axis);
        (lo2 - hi1).max(lo1 - hi2) / length
    };
    let (l1, l2) = (n1.norm(), n2.norm());
    if l1 == 0.0 || l2 == 0.0 {
        return 0.0;
    }
    let widest = gap(&n1, l1).max(gap(&n2, l2)).max(0.0);
    if widest >= enough {
        return widest;
    }
    let in_plane = |e: &[Vector3<f64>; 3], n: &Vector3<f64>, l: f64| {
        e.iter()
            .map(|edge| gap(&edge.cross(n), edge.norm() * l))
            .fold(0.0, f64::max)
    };
    widest
        .max(in_plane(&e1, &n1, l1))
        .max(in_plane(&e2, &n2, l2))
}

/// A lower bound on the distance between two triangles from their two planes: how far the
/// other triangle lies wholly on one side of each. Cheap, and it settles most far pairs.
pub fn plane_gap(t1: &Triangle, t2: &Triangle) -> f64 {
    let one_side = |t: &Triangle, other: &Triangle| {
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        let d = other.map(|p| (p - t[0]).dot(&n));
        let below = -d[0].max(d[1]).max(d[2]);
        let above = d[0].min(d[1]).min(d[2]);
        above.max(below).max(0.0) / n.norm()
    };
    one_side(t1, t2).max(one_side(t2, t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point {
        Point::new(x, y, z)
    }

    fn unit() -> Triangle {
        [p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0)]
    }

    fn assert_near(got: Point, want: Point) {
        assert!((got - want).norm() < 1e-12, "got {got}, want {want}");
    }

    #[test]
    fn closest_point_in_each_voronoi_region() {
        let t = unit();
        assert_near(
            closest_point_on_triangle(&p(0.2, 0.2, 5.0), &t),
            p(0.2, 0.2, 0.0),
        );
        assert_near(
            closest_point_on_triangle(&p(-1.0, -1.0, 0.0), &t),
            p(0.0, 0.0, 0.0),
        );
        assert_near(
            closest_point_on_triangle(&p(0.5, -2.0, 1.0), &t),
            p(0.5, 0.0, 0.0),
        );
        assert_near(
            closest_point_on_triangle(&p(2.0, 2.0, 0.0), &t),
            p(0.5, 0.5, 0.0),
        );
        assert_near(
            closest_point_on_triangle(&p(3.0, -1.0, 0.0), &t),
            p(1.0, 0.0, 0.0),
        );
    }

    #[test]
    fn closest_points_of_crossing_and_parallel_segments() {
        let (a, b) = closest_points_on_segments(
            &p(-1.0, 0.0, 0.0),
            &p(1.0, 0.0, 0.0),
            &p(0.0, -1.0, 2.0),
            &p(0.0, 1.0, 2.0),
        );
        assert_eq!((a, b), (p(0.0, 0.0, 0.0), p(0.0, 0.0, 2.0)));
        let (a, b) = closest_points_on_segments(
            &p(0.0, 0.0, 0.0),
            &p(1.0, 0.0, 0.0),
            &p(2.0, 1.0, 0.0),
            &p(3.0, 1.0, 0.0),
        );
        assert_eq!((a, b), (p(1.0, 0.0, 0.0), p(2.0, 1.0, 0.0)));
    }

    #[test]
    fn intersection_cases() {
        let t = unit();
        let shifted = |dz: f64| t.map(|q| q + Vector3::new(0.1, 0.1, dz));
        assert!(!triangles_intersect(&t, &shifted(0.01)), "parallel, apart");
        assert!(
            triangles_intersect(&t, &shifted(0.0)),
            "coplanar, overlapping"
        );
        let far_in_plane = t.map(|q| q + Vector3::new(5.0, 0.0, 0.0));
        assert!(!triangles_intersect(&t, &far_in_plane), "coplanar, apart");
        let piercing = [p(0.2, 0.2, -1.0), p(0.3, 0.2, 1.0), p(0.2, 0.3, 1.0)];
        assert!(triangles_intersect(&t, &piercing));
        let touching_at_a_vertex = [p(1.0, 0.0, 0.0), p(2.0, 0.0, 1.0), p(2.0, 1.0, 1.0)];
        assert!(
            triangles_intersect(&t, &touching_at_a_vertex),
            "touching counts"
        );
    }

    #[test]
    fn distance_and_contacts_of_a_close_parallel_pair() {
        let t = unit();
        let above = t.map(|q| q + Vector3::new(0.0, 0.0, 0.05));
        let (a, b) = triangle_closest_points(&t, &above).unwrap();
        assert!(((a - b).norm() - 0.05).abs() < 1e-12);
        // Face to face: each corner of the upper triangle lies over the lower one.
        let contacts = triangle_contacts(&t, &above, 0.1).unwrap();
        assert_eq!(contacts.len(), 3, "{contacts:?}");
        assert!(triangle_contacts(&t, &above, 0.04).unwrap().is_empty());
        assert!(
            triangle_contacts(&t, &t, 0.1).is_none(),
            "intersecting pairs have no contacts"
        );
        assert!(triangle_closest_points(&t, &t).is_none());
    }

    #[test]
    fn the_separation_bound_never_exceeds_the_distance_and_parts_side_by_side_triangles() {
        // A small deterministic stream of triangles near one another.
        let mut random = clasp_random::SplitMix64::new(12345);
        let mut next = move || random.range(-2.0, 2.0);
        let mut parted = 0;
        for _ in 0..2000 {
            let mut triangle = || [(); 3].map(|_| p(next(), next(), next() * 0.3));
            let (t1, t2) = (triangle(), triangle());
            let bound = separation_bound(&t1, &t2, f64::INFINITY);
            match triangle_closest_points(&t1, &t2) {
                Some((a, b)) => {
                    assert!(bound <= (a - b).norm() + 1e-12, "{t1:?} {t2:?}");
                    parted += usize::from(bound > 0.0);
                }
                None => assert_eq!(bound, 0.0),
            }
        }
        assert!(parted > 100, "the bound parts too few pairs: {parted}");
        // Side by side in one plane, 0.5 apart: the normals see no gap, an edge normal does.
        let right = unit().map(|q| q + Vector3::new(1.5, 0.0, 0.0));
        let bound = separation_bound(&unit(), &right, f64::INFINITY);
        assert!((bound - 0.5).abs() < 1e-12, "{bound}");
    }
}
