//! What each query of the fast engine does at the walk's steps: a private visitor per query
//! (crossing, contacts, near pairs, closest, near), and the reach that the queries within a
//! distance share.

use nalgebra::{Isometry3, Matrix3, Vector3};

use super::walk::Visitor;
use crate::{
    engine::{MeshContact, TrianglePair},
    oriented_box::{
        OrientedBox, box_triangle_distance_squared, boxes_distance_squared, boxes_overlap,
    },
    triangle::{
        Point, Triangle, closest_points_apart, push_triangle_contacts, separation_bound,
        triangle_closest_points, triangles_intersect,
    },
};

/// Lower bounds computed another way than the exact triangle routines are trusted only with this
/// much slack, so that pruning never drops a pair the exact routines would keep.
pub(super) fn with_slack(threshold: f64) -> f64 {
    threshold * (1.0 + 1e-9) + 1e-12
}

/// Stops at the first pair of triangles that cross or touch.
#[derive(Default)]
pub(super) struct Crossing {
    pub(super) found: bool,
}

impl Visitor for Crossing {
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        boxes_overlap(&a.half, &b.half, r, t).then_some(0.0)
    }
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        (box_triangle_distance_squared(bv, triangle, f64::MIN_POSITIVE) == 0.0).then_some(0.0)
    }
    fn triangle_pair(&self, _: &Triangle, _: &Triangle) -> Option<f64> {
        Some(0.0)
    }
    fn still_worth(&self, _: f64) -> bool {
        true
    }
    fn triangles(&mut self, _: u32, _: u32, ta: &Triangle, tb: &Triangle, _: bool) {
        self.found = triangles_intersect(ta, tb);
    }
    fn finished(&self) -> bool {
        self.found
    }
}

/// A query that opens every pair of nodes and triangles that may lie within its reach, and
/// takes each triangle pair that does.
trait WithinReach {
    fn reach(&self) -> &Reach;
    fn take(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool);
    fn done(&self) -> bool;
}

impl<T: WithinReach> Visitor for T {
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        self.reach().boxes(a, b, r, t)
    }
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        self.reach().box_triangle(bv, triangle)
    }
    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64> {
        self.reach().triangle_pair(ta, tb)
    }
    fn still_worth(&self, _: f64) -> bool {
        true
    }
    fn triangles(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        self.take(i, j, ta, tb, apart);
    }
    fn finished(&self) -> bool {
        self.done()
    }
}

/// How close a query looks: the bounds of node and triangle pairs it opens, with slack
/// ([`with_slack`]), so that it never drops a pair the exact routines would keep; and the least
/// bound of what it passed over, which every pair left out lies at least as far apart as.
#[derive(Clone)]
pub(super) struct Reach {
    distance: f64,
    squared: f64,
    /// The least squared bound of the node and triangle pairs passed over.
    passed_over: std::cell::Cell<f64>,
}

impl Reach {
    pub(super) fn new(distance: f64) -> Self {
        let distance = with_slack(distance);
        Self {
            distance,
            squared: distance * distance,
            passed_over: std::cell::Cell::new(f64::INFINITY),
        }
    }

    /// `squared`, if within the reach; else noted as passed over.
    fn bound(&self, squared: f64) -> Option<f64> {
        if squared < self.squared {
            return Some(squared);
        }
        self.passed_over.set(self.passed_over.get().min(squared));
        None
    }

    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        self.bound(boxes_distance_squared(&a.half, &b.half, r, t, self.squared))
    }

    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        self.bound(box_triangle_distance_squared(bv, triangle, self.squared))
    }

    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64> {
        let gap = separation_bound(ta, tb, self.distance);
        if gap < self.distance {
            return Some(gap * gap);
        }
        self.bound(gap * gap)
    }

    /// Every pair passed over lies at least this far apart (mm): the least bound passed over,
    /// trusted only with the slack the pruning allows it; at least `asked`.
    pub(super) fn complete_within(&self, asked: f64) -> f64 {
        let passed_over = self.passed_over.get().sqrt();
        ((passed_over - 1e-12) / (1.0 + 1e-9)).max(asked)
    }
}

/// A close triangle pair's contacts (`i` of A, `j` of B, both in A's frame) appended to
/// `found`, `points` the scratch space; false where the triangles cross. What a search and a
/// search among kept pairs both do, so that they agree to the bit.
#[allow(clippy::too_many_arguments)]
pub(super) fn push_pair_contacts(
    (i, j): (u32, u32),
    ta: &Triangle,
    tb: &Triangle,
    threshold: f64,
    moved: &Isometry3<f64>,
    points: &mut Vec<(Point, Point)>,
    found: &mut Vec<MeshContact>,
) -> bool {
    points.clear();
    if !push_triangle_contacts(ta, tb, threshold, points) {
        return false;
    }
    for (pa, pb) in points.iter() {
        found.extend(MeshContact::from_points_in_a(
            i as usize, j as usize, pa, pb, moved,
        ));
    }
    true
}

/// Collects the point pairs of every triangle pair closer than the threshold.
pub(super) struct Contacts<'a> {
    pub(super) threshold: f64,
    pub(super) reach: Reach,
    pub(super) moved: &'a Isometry3<f64>,
    pub(super) found: Vec<MeshContact>,
    pub(super) points: Vec<(Point, Point)>,
    pub(super) crossing: bool,
}

impl WithinReach for Contacts<'_> {
    fn reach(&self) -> &Reach {
        &self.reach
    }
    fn take(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, _: bool) {
        let (points, found) = (&mut self.points, &mut self.found);
        if !push_pair_contacts((i, j), ta, tb, self.threshold, self.moved, points, found) {
            self.crossing = true;
        }
    }
    fn done(&self) -> bool {
        self.crossing
    }
}

/// Collects every triangle pair that may lie within the reach.
pub(super) struct NearPairs {
    pub(super) reach: Reach,
    /// Each pair with its distance (0 where it crosses).
    pub(super) pairs: Vec<(TrianglePair, f64)>,
}

impl WithinReach for NearPairs {
    fn reach(&self) -> &Reach {
        &self.reach
    }
    fn take(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        let closest = match apart {
            true => Some(closest_points_apart(ta, tb)),
            false => triangle_closest_points(ta, tb),
        };
        let gap = closest.map_or(0.0, |(pa, pb)| (pa - pb).norm());
        self.pairs.push((TrianglePair { a: i, b: j }, gap));
    }
    fn done(&self) -> bool {
        false
    }
}

/// Keeps the closest pair of points found so far, starting from a cut-off (or a seed's
/// distance); stops at a crossing.
pub(super) struct Closest {
    pub(super) best_squared: f64,
    pub(super) best: Option<(Point, Point, TrianglePair)>,
    pub(super) crossing: bool,
    /// 1 / (1 + ε)²: pairs that cannot beat the best by more than 1 + ε are given up.
    pub(super) shrink: f64,
}

impl Closest {
    fn bound(&self, squared: f64) -> Option<f64> {
        self.still_worth(squared).then_some(squared)
    }

    /// Takes a triangle pair's closest points if they beat the best so far; `apart` when the
    /// pair is known not to intersect, which spares the intersection test.
    pub(super) fn offer(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        let closest = if apart {
            Some(closest_points_apart(ta, tb))
        } else {
            triangle_closest_points(ta, tb)
        };
        match closest {
            None => self.crossing = true,
            Some((pa, pb)) => {
                let squared = (pa - pb).norm_squared();
                if squared < self.best_squared {
                    self.best_squared = squared;
                    self.best = Some((pa, pb, TrianglePair { a: i, b: j }));
                }
            }
        }
    }
}

impl Visitor for Closest {
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        self.bound(boxes_distance_squared(
            &a.half,
            &b.half,
            r,
            t,
            with_slack(self.best_squared),
        ))
    }
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        self.bound(box_triangle_distance_squared(
            bv,
            triangle,
            with_slack(self.best_squared),
        ))
    }
    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64> {
        let gap = separation_bound(ta, tb, with_slack(self.best_squared).sqrt());
        self.bound(gap * gap)
    }
    fn still_worth(&self, squared: f64) -> bool {
        // With slack, so a best of exactly zero still lets touching pairs through.
        squared < with_slack(self.best_squared * self.shrink)
    }
    fn triangles(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        self.offer(i, j, ta, tb, apart);
    }
    fn finished(&self) -> bool {
        self.crossing
    }
}

/// Stops at the first pair of triangles closer than the tolerance, or crossing.
pub(super) struct Near {
    pub(super) tolerance: f64,
    pub(super) reach: Reach,
    pub(super) found: bool,
}

impl WithinReach for Near {
    fn reach(&self) -> &Reach {
        &self.reach
    }
    fn take(&mut self, _: u32, _: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        let closest = if apart {
            Some(closest_points_apart(ta, tb))
        } else {
            triangle_closest_points(ta, tb)
        };
        self.found = closest
            .is_none_or(|(pa, pb)| (pa - pb).norm_squared() < self.tolerance * self.tolerance);
    }
    fn done(&self) -> bool {
        self.found
    }
}
