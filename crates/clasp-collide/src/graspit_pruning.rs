//! GraspIt's contact pruning as GraspIt's own code does it, quirks included (graspit-spec §1.5
//! and Q6), for users who must reproduce GraspIt's contacts and the qualities it computes from
//! them. [`crate::pruning`] is the same pruning without the quirks, and Clasp's default. What
//! differs:
//!
//! * Of two duplicates GraspIt keeps the one with the smaller "distance" as its contact search
//!   records it: the squared distance between the two points each taken in its own body's
//!   frame (Q6), not their separation.
//! * GraspIt's colinearity test measures the cross product of two chords without dividing by
//!   the chord's length, so only short lines count as lines.
//! * A group that is not a line is projected onto the plane through its first contact, and
//!   only the contacts within 0.1 mm (each coordinate) of a corner of the projected hull are
//!   kept: a group that is not flat to 0.1 mm loses the corners that stand off the plane.
//! * Where the hull cannot be formed GraspIt loses the whole group (Q2).
//!
//! The pruning depends on the order of the contacts (of a chain of duplicates, which stays;
//! which contact opens a group): GraspIt's is its own tree walk's, which
//! [`crate::contacts_in_graspit_order`] reproduces.

use nalgebra::{Point2, Vector3};

use crate::{
    engine::MeshContact,
    pruning::{DUPLICATE_DISTANCE, convex_hull, normal_groups},
};

/// GraspIt's `my_resabs`: its tolerance for lines and for matching hull corners (mm).
const RESOLUTION: f64 = 0.1;

/// The contacts GraspIt's `removeContactDuplicates` and `compactContactSet` keep.
pub fn prune_contacts_as_graspit(contacts: &[MeshContact]) -> Vec<MeshContact> {
    let unique = remove_duplicates_as_graspit(contacts);
    normal_groups(&unique)
        .into_iter()
        .flat_map(|group| {
            let members: Vec<MeshContact> = group.iter().map(|&k| unique[k]).collect();
            if members.len() > 1 {
                perimeter_as_graspit(&members)
            } else {
                members
            }
        })
        .collect()
}

/// GraspIt's duplicate removal: each contact against every later one; of two within 3 mm on
/// both bodies, the one with the smaller mixed-frame distance stays (the earlier on a tie
/// goes).
fn remove_duplicates_as_graspit(contacts: &[MeshContact]) -> Vec<MeshContact> {
    let recorded = |c: &MeshContact| (c.point_a - c.point_b).norm_squared();
    let limit = DUPLICATE_DISTANCE * DUPLICATE_DISTANCE;
    let same = |x: &MeshContact, y: &MeshContact| {
        (x.point_a - y.point_a).norm_squared() <= limit
            && (x.point_b - y.point_b).norm_squared() <= limit
    };
    let mut list = contacts.to_vec();
    let mut i = 0;
    while i < list.len() {
        let mut goes = false;
        let mut j = i + 1;
        while j < list.len() {
            if !same(&list[i], &list[j]) {
                j += 1;
            } else if recorded(&list[i]) < recorded(&list[j]) {
                list.remove(j);
            } else {
                goes = true;
                break;
            }
        }
        if goes {
            list.remove(i);
        } else {
            i += 1;
        }
    }
    list
}

/// GraspIt's `replaceContactSetWithPerimeter` on a group of two or more contacts sharing a
/// normal: a line's two ends, else the contacts at the corners of the group's hull in the
/// plane through its first contact.
fn perimeter_as_graspit(set: &[MeshContact]) -> Vec<MeshContact> {
    let at = |k: usize| set[k].point_a.coords;
    let (mut end1, mut end2) = (0, 1);
    let (mut line, mut test) = (Vector3::zeros(), Vector3::zeros());
    let mut colinear = true;
    for k in 0..set.len() {
        line = at(end2) - at(end1);
        test = at(k) - at(end1);
        if test.cross(&line).norm() > RESOLUTION {
            colinear = false;
            break;
        }
        let along = test.dot(&line);
        if along < 0.0 {
            end1 = k;
        }
        if along > line.dot(&line) {
            end2 = k;
        }
    }
    if colinear {
        return vec![set[end1], set[end2]];
    }
    let normal = test.cross(&line).normalize();
    let origin = normal * at(0).dot(&normal);
    let axis1 = test.normalize();
    let axis2 = normal.cross(&axis1);
    let flat: Vec<Point2<f64>> = (0..set.len())
        .map(|k| Point2::new(at(k).dot(&axis1), at(k).dot(&axis2)))
        .collect();
    let corners = convex_hull(&flat);
    if corners.len() < 3 {
        return Vec::new();
    }
    let group_normal = set[0].normal_a;
    corners
        .into_iter()
        .filter_map(|k| {
            let corner = axis1 * flat[k].x + axis2 * flat[k].y + origin;
            set.iter().copied().find(|c| {
                (0..3).all(|i| {
                    (c.point_a[i] - corner[i]).abs() < RESOLUTION
                        && (c.normal_a[i] - group_normal[i]).abs() < RESOLUTION
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;

    fn contact(a: [f64; 3], b: [f64; 3]) -> MeshContact {
        let (point_a, point_b) = (Point3::from(a), Point3::from(b));
        MeshContact {
            triangle_a: 0,
            triangle_b: 0,
            point_a,
            point_b,
            normal_a: Vector3::z(),
            separation: (point_a - point_b).norm(),
        }
    }

    #[test]
    fn duplicates_keep_the_smaller_mixed_frame_distance() {
        // Both within 3 mm on both bodies; the first is nearer (0.05 apart in one frame), but
        // its points in their own frames lie farther apart than the second's.
        let first = contact([0.0, 0.0, 0.0], [0.5, 0.0, -0.05]);
        let second = contact([1.0, 0.0, 0.0], [1.1, 0.0, -0.1]);
        assert_eq!(remove_duplicates_as_graspit(&[first, second]), vec![second]);
        assert_eq!(remove_duplicates_as_graspit(&[second, first]), vec![second]);
    }

    #[test]
    fn a_group_off_its_first_contacts_plane_loses_those_corners() {
        // A square of contacts sharing a normal; the last corner stands 0.5 mm off the plane
        // the first three span: its projection matches no contact, so it is lost.
        let square = [
            [0.0, 0.0, 0.0],
            [10.0, 0.0, 0.0],
            [0.0, 10.0, 0.0],
            [10.0, 10.0, 0.5],
        ]
        .map(|p| contact(p, [p[0], p[1], p[2] - 0.1]));
        let kept = prune_contacts_as_graspit(&square);
        let mut corners: Vec<[f64; 3]> = kept.iter().map(|c| c.point_a.coords.into()).collect();
        corners.sort_by(|x, y| x.partial_cmp(y).unwrap());
        assert_eq!(corners.len(), 3, "{corners:?}");
        assert!(corners.iter().all(|p| p[2] == 0.0), "{corners:?}");
    }

    #[test]
    fn only_short_lines_count_as_lines() {
        // Three points 0.02 mm off a line: a line to Clasp's pruning (within 0.1 mm), but
        // GraspIt's unscaled cross product over 20 mm is 0.4, so it takes the hull's corners.
        let points = [[0.0, 0.0, 0.0], [20.0, 0.0, 0.0], [10.0, 0.02, 0.0]]
            .map(|p| contact(p, [p[0], p[1], p[2] - 0.1]));
        assert_eq!(crate::pruning::prune_contacts(&points).len(), 2);
        assert_eq!(prune_contacts_as_graspit(&points).len(), 3);
    }
}
