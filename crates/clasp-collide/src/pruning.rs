//! Contact post-processing as GraspIt does it (graspit-spec §1.5), without its bugs: duplicates
//! within 3 mm on both bodies merged, then each group of contacts sharing a normal cut down to
//! the corners of its convex hull. Interior contacts of a flat patch add nothing to the wrench
//! space, and a hand on a box face would otherwise bring hundreds of them.

use nalgebra::{Point2, Vector3};

use crate::engine::MeshContact;

/// Contacts closer than this on both bodies (millimetres) are one contact.
pub const DUPLICATE_DISTANCE: f64 = 3.0;
/// Contacts whose normals' dot product exceeds `1 − NORMAL_TOLERANCE` share a normal.
pub const NORMAL_TOLERANCE: f64 = 1e-3;
/// Inside a group, a contact this close (squared millimetres, as GraspIt compares) to one already
/// kept is dropped.
pub const GROUP_DISTANCE_SQUARED: f64 = 0.1;
/// Points this close to a line (millimetres) count as on it.
pub const COLINEAR_TOLERANCE: f64 = 0.1;

/// Duplicates removed, then each same-normal group reduced to its hull's corners. The result
/// keeps the order contacts came in. A group whose hull cannot be formed is kept whole.
pub fn prune_contacts(contacts: &[MeshContact]) -> Vec<MeshContact> {
    prune_contacts_within(contacts, DUPLICATE_DISTANCE)
}

/// [`prune_contacts`] with another duplicate distance (mm).
pub fn prune_contacts_within(
    contacts: &[MeshContact],
    duplicate_distance: f64,
) -> Vec<MeshContact> {
    prune_contacts_exactly(contacts, duplicate_distance, NORMAL_TOLERANCE, |_, _| false)
}

/// [`prune_contacts`] with another duplicate distance (mm) and normal tolerance. The dynamics
/// merges only what lies closer than a mesh's own features, so that a faceted body's next
/// vertex stays a contact, and groups only normals equal to rounding: a group's hull stands
/// for its inside only where all share one plane and one normal. GraspIt's tolerance (2.6°)
/// let an edge–edge contact tilted 2° hide the vertex a plane sliding at 450 mm/s was
/// sinking in at 16 mm/s. Two contacts that `apart` says are two stay two however close
/// (a vertex on an edge touches both faces).
pub fn prune_contacts_exactly(
    contacts: &[MeshContact],
    duplicate_distance: f64,
    normal_tolerance: f64,
    apart: impl Fn(&MeshContact, &MeshContact) -> bool,
) -> Vec<MeshContact> {
    let unique = remove_duplicates_unless(contacts, duplicate_distance, apart);
    let mut keep = vec![false; unique.len()];
    for group in normal_groups_within(&unique, normal_tolerance) {
        for i in hull_of_group(&unique, &group) {
            keep[i] = true;
        }
    }
    unique
        .into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Of contacts within `distance` of each other on both bodies, the one with the smallest
/// separation (the first of equals).
pub fn remove_duplicates(contacts: &[MeshContact], distance: f64) -> Vec<MeshContact> {
    remove_duplicates_unless(contacts, distance, |_, _| false)
}

/// [`remove_duplicates`], but two contacts that `apart` says are two are never one.
fn remove_duplicates_unless(
    contacts: &[MeshContact],
    distance: f64,
    apart: impl Fn(&MeshContact, &MeshContact) -> bool,
) -> Vec<MeshContact> {
    let limit = distance * distance;
    let duplicate = |x: &MeshContact, y: &MeshContact| {
        (x.point_a - y.point_a).norm_squared() <= limit
            && (x.point_b - y.point_b).norm_squared() <= limit
            && !apart(x, y)
    };
    let mut kept: Vec<MeshContact> = Vec::new();
    for c in contacts {
        match kept.iter_mut().find(|k| duplicate(k, c)) {
            Some(k) if c.separation < k.separation => *k = *c,
            Some(_) => {}
            None => kept.push(*c),
        }
    }
    kept
}

/// Indices of contacts grouped by normal (compared with each group's first), with contacts too
/// close to one already in their group left out.
pub(crate) fn normal_groups(contacts: &[MeshContact]) -> Vec<Vec<usize>> {
    normal_groups_within(contacts, NORMAL_TOLERANCE)
}

fn normal_groups_within(contacts: &[MeshContact], tolerance: f64) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, c) in contacts.iter().enumerate() {
        let same_normal =
            |g: &&mut Vec<usize>| contacts[g[0]].normal_a.dot(&c.normal_a) > 1.0 - tolerance;
        match groups.iter_mut().find(same_normal) {
            Some(group) => {
                let crowded = group.iter().any(|&k| {
                    (contacts[k].point_a - c.point_a).norm_squared() < GROUP_DISTANCE_SQUARED
                });
                if !crowded {
                    group.push(i);
                }
            }
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// The members of a group on the boundary of its convex hull (in the first body's frame): both
/// ends if the points lie on a line, the hull's corners otherwise. The whole group if no hull
/// can be formed.
fn hull_of_group(contacts: &[MeshContact], group: &[usize]) -> Vec<usize> {
    if group.len() < 3 {
        return group.to_vec();
    }
    let points: Vec<Vector3<f64>> = group.iter().map(|&i| contacts[i].point_a.coords).collect();
    let origin = points[0];
    let Some((axis, _)) = points
        .iter()
        .map(|p| p - origin)
        .map(|d| (d, d.norm()))
        .filter(|(_, n)| *n > 0.0)
        .max_by(|x, y| x.1.total_cmp(&y.1))
    else {
        return group.to_vec();
    };
    let axis = axis.normalize();
    let off_line = |p: &Vector3<f64>| (p - origin).cross(&axis).norm();
    let Some(farthest) = points
        .iter()
        .max_by(|x, y| off_line(x).total_cmp(&off_line(y)))
    else {
        return group.to_vec();
    };
    if off_line(farthest) <= COLINEAR_TOLERANCE {
        let along = |k: &usize| (points[*k] - origin).dot(&axis);
        let ends = (0..points.len()).collect::<Vec<_>>();
        let first = ends.iter().min_by(|x, y| along(x).total_cmp(&along(y)));
        let last = ends.iter().max_by(|x, y| along(x).total_cmp(&along(y)));
        return match (first, last) {
            (Some(&f), Some(&l)) if f != l => vec![group[f], group[l]],
            _ => group.to_vec(),
        };
    }
    let second = (farthest - origin - axis * (farthest - origin).dot(&axis)).normalize();
    let flat: Vec<Point2<f64>> = points
        .iter()
        .map(|p| Point2::new((p - origin).dot(&axis), (p - origin).dot(&second)))
        .collect();
    let corners = convex_hull(&flat);
    if corners.len() < 3 {
        return group.to_vec();
    }
    let mut kept: Vec<usize> = corners.into_iter().map(|k| group[k]).collect();
    kept.sort_unstable();
    kept
}

/// Indices of the corners of the convex hull of 2D points (Andrew's monotone chain); points on
/// an edge are not corners.
pub fn convex_hull(points: &[Point2<f64>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| {
        (points[i].x, points[i].y)
            .partial_cmp(&(points[j].x, points[j].y))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order.dedup_by(|i, j| points[*i] == points[*j]);
    if order.len() < 3 {
        return order;
    }
    // Counter-clockwise by more than rounding: points on an edge are not corners.
    let turn = |o: usize, a: usize, b: usize| {
        let (o, a, b) = (points[o], points[a], points[b]);
        let (u, v) = (a - o, b - o);
        u.perp(&v) - 1e-9 * u.norm() * v.norm()
    };
    let mut hull: Vec<usize> = Vec::with_capacity(order.len() * 2);
    for pass in [order.clone(), order.iter().rev().copied().collect()] {
        let start = hull.len();
        for i in pass {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2], hull[hull.len() - 1], i) <= 0.0
            {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;

    fn contact(x: f64, y: f64, separation: f64) -> MeshContact {
        MeshContact {
            triangle_a: 0,
            triangle_b: 0,
            point_a: Point3::new(x, y, 0.0),
            point_b: Point3::new(x, y, -separation),
            normal_a: Vector3::z(),
            separation,
        }
    }

    #[test]
    fn duplicates_keep_the_closest() {
        let found = remove_duplicates(
            &[
                contact(0.0, 0.0, 0.08),
                contact(1.0, 1.0, 0.02),
                contact(9.0, 0.0, 0.05),
            ],
            3.0,
        );
        assert_eq!(
            found,
            vec![contact(1.0, 1.0, 0.02), contact(9.0, 0.0, 0.05)]
        );
    }

    #[test]
    fn a_flat_patch_keeps_its_corners() {
        // A 5 × 5 grid of contacts 4 mm apart, all with one normal: the four corners remain.
        let grid: Vec<MeshContact> = (0..25)
            .map(|k| contact(4.0 * (k % 5) as f64, 4.0 * (k / 5) as f64, 0.05))
            .collect();
        let kept = prune_contacts(&grid);
        let corners: Vec<(f64, f64)> = kept.iter().map(|c| (c.point_a.x, c.point_a.y)).collect();
        assert_eq!(
            corners,
            vec![(0.0, 0.0), (16.0, 0.0), (0.0, 16.0), (16.0, 16.0)]
        );
    }

    #[test]
    fn a_line_keeps_its_ends_and_other_normals_stay_apart() {
        let mut line: Vec<MeshContact> =
            (0..5).map(|k| contact(4.0 * k as f64, 0.0, 0.05)).collect();
        let mut tilted = contact(8.0, 20.0, 0.05);
        tilted.normal_a = Vector3::new(0.0, 1.0, 1.0).normalize();
        line.push(tilted);
        let kept = prune_contacts(&line);
        let xs: Vec<f64> = kept.iter().map(|c| c.point_a.x).collect();
        assert_eq!(xs, vec![0.0, 16.0, 8.0]);
    }

    #[test]
    fn hull_corners_skip_points_on_edges() {
        let points: Vec<Point2<f64>> = [
            (0.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (2.0, 2.0),
            (0.0, 2.0),
            (1.0, 1.0),
        ]
        .iter()
        .map(|&(x, y)| Point2::new(x, y))
        .collect();
        let mut corners = convex_hull(&points);
        corners.sort();
        assert_eq!(corners, vec![0, 2, 3, 4]);
    }
}
