//! The points a step's solve needs. The exact search finds every triangle pair within the
//! contact threshold: a box flat on a table, ~100 contacts for 6 degrees of freedom, which a
//! solve sweeping one contact at a time settles worst of all. Each body pair's contacts are
//! grouped into patches by their normals, and each patch is kept by the corners of its convex
//! hull (GraspIt's contact pruning; Bullet, PhysX and MuJoCo keep 4 to 8 points a patch too).
//! For a flat patch that is exact: a force anywhere in a convex patch makes a wrench that is a
//! convex combination of those it makes at the hull's corners, and a point inside cannot
//! approach while the corners do not. The exact contacts stay what moves, the quality and the
//! app's markers use; the step solves and reports the kept ones.
//!
//! Off unless asked for (`SolverSettings::corners_per_patch`), as measured: the search already
//! merges a flat face's contacts to its corners, and a curved patch (a mug's rim on a table,
//! every point a corner of its hull) cut to 8 loses points the body then turns onto.

use nalgebra::{Point2, Vector3};

use crate::contact::Contact;

/// Contacts of one pair whose normals lie within this angle of a patch's first (its cosine)
/// belong to that patch: 10°.
const SAME_PATCH: f64 = 0.984_807_753_012_208;

/// The contacts the solve keeps of `contacts` (both sides of each together, A's first): each
/// patch's hull corners, at most `corners` a patch; all of them where `corners` is `None`.
pub(super) fn keep_corners(contacts: Vec<Contact>, corners: Option<usize>) -> Vec<Contact> {
    let Some(corners) = corners else {
        return contacts;
    };
    let kept = kept_contacts(&contacts, corners.max(MIN_CORNERS));
    let mut sides: Vec<Option<[Contact; 2]>> = contacts
        .into_iter()
        .collect::<Vec<_>>()
        .chunks_exact(2)
        .map(|s| Some([s[0].clone(), s[1].clone()]))
        .collect();
    kept.into_iter()
        .filter_map(|k| sides[k].take())
        .flatten()
        .collect()
}

/// A patch keeps at least its hull's two ends and one more, so it can still hold a turn.
const MIN_CORNERS: usize = 3;

/// Which of `contacts` (both sides of each together, A's first: the `k`th contact is
/// `contacts[2k..2k + 2]`) the solve keeps, in their order.
fn kept_contacts(contacts: &[Contact], corners: usize) -> Vec<usize> {
    let mut patches: Vec<Patch> = Vec::new();
    for (k, sides) in contacts.chunks_exact(2).enumerate() {
        let c = &sides[0];
        let normal = c.normal.into_inner();
        let same = |p: &&mut Patch| {
            (p.body, p.other) == (c.body, c.other) && p.normal.dot(&normal) >= SAME_PATCH
        };
        match patches.iter_mut().find(same) {
            Some(patch) => patch.members.push(k),
            None => patches.push(Patch {
                body: c.body,
                other: c.other,
                normal,
                members: vec![k],
            }),
        }
    }
    let mut kept: Vec<usize> = patches
        .iter()
        .flat_map(|patch| patch.corners(contacts, corners))
        .collect();
    kept.sort_unstable();
    kept
}

/// One pair's contacts whose normals lie near its first's.
struct Patch {
    body: crate::ids::BodyId,
    other: crate::ids::BodyId,
    normal: Vector3<f64>,
    members: Vec<usize>,
}

impl Patch {
    /// The members that are its hull's corners in the plane across its normal, at most
    /// `most` of them (those spanning the most area); all of a small patch.
    fn corners(&self, contacts: &[Contact], most: usize) -> Vec<usize> {
        if self.members.len() <= most {
            return self.members.clone();
        }
        let across = self.normal.cross(&Vector3::x());
        let across = match across.norm() > 0.1 {
            true => across.normalize(),
            false => self.normal.cross(&Vector3::y()).normalize(),
        };
        let third = self.normal.cross(&across);
        let flat: Vec<(Point2<f64>, usize)> = self
            .members
            .iter()
            .map(|&k| {
                let p = contacts[2 * k].point.coords;
                (Point2::new(p.dot(&across), p.dot(&third)), k)
            })
            .collect();
        let mut hull = convex_hull(flat);
        while hull.len() > most {
            drop_least_area(&mut hull);
        }
        hull.into_iter().map(|(_, k)| k).collect()
    }
}

/// The corners of the points' convex hull, counter-clockwise (Andrew's monotone chain), points
/// on an edge left out; the two ends of points all in a line.
fn convex_hull(mut points: Vec<(Point2<f64>, usize)>) -> Vec<(Point2<f64>, usize)> {
    points.sort_by(|(p, i), (q, j)| {
        (p.x, p.y, i)
            .partial_cmp(&(q.x, q.y, j))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    if points.len() < 3 {
        return points;
    }
    let turn = |o: &Point2<f64>, a: &Point2<f64>, b: &Point2<f64>| (a - o).perp(&(b - o));
    let mut hull: Vec<(Point2<f64>, usize)> = Vec::with_capacity(points.len() + 1);
    for pass in [false, true] {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &(Point2<f64>, usize)>> = match pass {
            false => Box::new(points.iter()),
            true => Box::new(points.iter().rev()),
        };
        for &point in ordered {
            while hull.len() >= start + 2
                && turn(&hull[hull.len() - 2].0, &hull[hull.len() - 1].0, &point.0) <= 0.0
            {
                hull.pop();
            }
            hull.push(point);
        }
        hull.pop(); // the last is the next chain's first
    }
    hull
}

/// Drops the corner whose triangle with its two neighbours is smallest: the one the hull's
/// area misses least (Visvalingam and Whyatt's simplification).
fn drop_least_area(hull: &mut Vec<(Point2<f64>, usize)>) {
    let n = hull.len();
    let area = |i: usize| {
        let (a, b, c) = (hull[(i + n - 1) % n].0, hull[i].0, hull[(i + 1) % n].0);
        (b - a).perp(&(c - a)).abs()
    };
    let least = (0..n)
        .min_by(|&i, &j| area(i).total_cmp(&area(j)))
        .unwrap_or(0);
    hull.remove(least);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(xy: &[(f64, f64)]) -> Vec<(Point2<f64>, usize)> {
        xy.iter()
            .enumerate()
            .map(|(k, &(x, y))| (Point2::new(x, y), k))
            .collect()
    }

    fn indices(hull: &[(Point2<f64>, usize)]) -> Vec<usize> {
        let mut k: Vec<usize> = hull.iter().map(|(_, k)| *k).collect();
        k.sort_unstable();
        k
    }

    #[test]
    fn a_grid_keeps_its_four_corners() {
        let grid: Vec<(f64, f64)> = (0..25).map(|k| ((k % 5) as f64, (k / 5) as f64)).collect();
        assert_eq!(indices(&convex_hull(points(&grid))), vec![0, 4, 20, 24]);
    }

    #[test]
    fn points_in_a_line_keep_their_ends() {
        let line: Vec<(f64, f64)> = (0..6).map(|k| (k as f64, 2.0 * k as f64)).collect();
        assert_eq!(indices(&convex_hull(points(&line))), vec![0, 5]);
    }

    #[test]
    fn a_round_patch_keeps_the_corners_that_span_the_most() {
        // Twelve points on a circle, one nearly on the chord of its neighbours.
        let mut ring: Vec<(f64, f64)> = (0..12)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / 12.0;
                (a.cos(), a.sin())
            })
            .collect();
        ring[3] = (0.0, 0.87);
        let mut hull = convex_hull(points(&ring));
        assert_eq!(hull.len(), 12);
        drop_least_area(&mut hull);
        assert!(!indices(&hull).contains(&3), "{:?}", indices(&hull));
    }
}
