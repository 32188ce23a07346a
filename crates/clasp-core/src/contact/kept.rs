//! Triangle pairs kept through time (issue 42): a pair's full search keeps every triangle
//! pair within the contact threshold plus a margin; while neither body has moved, relative to
//! the other, farther than the margin allows, every triangle pair that can touch, cross or
//! come within the threshold is among those kept, and a query asked among them alone gets the
//! full search's answer to the bit. [`KeptEngine`] answers a step's moves so.

use nalgebra::Vector3;

use clasp_collide::{
    CollisionEngine, Gap, Geometry, Interpenetrating, MeshContact, NearTriangles, Placed,
    PointDistance, Separation, TrianglePair,
};

use crate::pose::Pose;

/// Contacts carried through time: a pair's full search keeps every triangle pair within the
/// contact threshold plus `margin`, and while neither body moves, relative to the other,
/// farther than the margin (bounded by the farthest any point of the body moves), the next
/// steps find the pair's contacts among those alone: no other triangle pair can have come
/// within the threshold, so they are the contacts a full search gives, to the bit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Persistence {
    /// Millimetres beyond the contact threshold; 0 searches every pair in full every step.
    pub margin: f64,
    /// Also search in full wherever the kept pairs were used, and count where the two differ
    /// ([`crate::SearchStats::differed`]): the tests' check, at the full search's cost.
    pub checked: bool,
}

/// The margin a step keeps triangle pairs within, beyond the contact threshold (mm); chosen by
/// measurement (docs/benchmarks.md, issue 42).
pub const DEFAULT_PERSISTENCE_MARGIN: f64 = 0.25;

impl Default for Persistence {
    fn default() -> Self {
        Self {
            margin: DEFAULT_PERSISTENCE_MARGIN,
            checked: false,
        }
    }
}

/// What a kept set allows for rounding (mm): the bound on the bodies' move, plus what a query
/// needs, must stay this far inside the reach.
const MOVE_ROUNDING: f64 = 1e-7;

/// The triangle pairs of two geometries (A, B) a full search kept, and where it found them.
#[derive(Debug, Clone)]
pub(crate) struct Kept {
    /// B in A's frame, then.
    pub relative: Pose,
    /// Every triangle pair closer than this (mm) then is kept: what was asked, or more where
    /// the search learnt that what it passed over lies farther.
    pub reach: f64,
    /// Sorted (A's triangle, B's), each with its distance then.
    pub pairs: Vec<TrianglePair>,
    pub gaps: Vec<f64>,
    /// The same, B's triangle first, for a query that asks B first.
    pub flipped: Vec<TrianglePair>,
    pub flipped_gaps: Vec<f64>,
}

impl Kept {
    /// Keeps what a full search found near, B standing at `relative` in A's frame.
    pub fn new(relative: Pose, near: NearTriangles) -> Self {
        let mut flipped: Vec<(TrianglePair, f64)> = near
            .pairs
            .iter()
            .zip(&near.gaps)
            .map(|(p, &gap)| (TrianglePair { a: p.b, b: p.a }, gap))
            .collect();
        flipped.sort_unstable_by_key(|(p, _)| (p.a, p.b));
        let (flipped, flipped_gaps) = flipped.into_iter().unzip();
        Kept {
            relative,
            reach: near.complete_within,
            pairs: near.pairs,
            gaps: near.gaps,
            flipped,
            flipped_gaps,
        }
    }

    /// Where every triangle pair now closer than `need` is among these, B (`moving`) standing
    /// at `relative` in A's frame (B has moved less than the reach less `need` since), the
    /// pairs that may now lie closer than `need`, in order (A's first, or with `flip` B's):
    /// those whose distance then, less how far B has moved since, is within it. The rest
    /// cannot take part in a query that needs no farther (a contact within `need`, a
    /// crossing), so it is asked among fewer pairs and answers the same, to the bit. `None`
    /// where the kept set no longer holds.
    pub fn among(
        &self,
        moving: &Geometry,
        relative: &Pose,
        need: f64,
        flip: bool,
    ) -> Option<Vec<TrianglePair>> {
        let within = moving.farthest_move(&self.relative, relative) + need + MOVE_ROUNDING;
        if within >= self.reach {
            return None;
        }
        let (pairs, gaps) = match flip {
            false => (&self.pairs, &self.gaps),
            true => (&self.flipped, &self.flipped_gaps),
        };
        let near = pairs.iter().zip(gaps).filter(|(_, gap)| **gap <= within);
        Some(near.map(|(p, _)| *p).collect())
    }
}

/// A kept set with the two geometries (A, B) it was kept for.
pub(crate) struct KeptFor<'a> {
    pub geometry: (&'a Geometry, &'a Geometry),
    pub kept: &'a Kept,
}

impl KeptFor<'_> {
    /// The pairs to ask for `x` then `y` where they still hold for `need`: A's and B's, or
    /// flipped; of those, the ones that may now lie within `need` ([`Kept::among`]).
    fn pairs_for(&self, x: &Placed, y: &Placed, need: f64) -> Option<Vec<TrianglePair>> {
        let (a, b) = self.geometry;
        let is = |g: &Geometry, p: &Placed| std::ptr::eq(g, p.geometry);
        let among = |first: &Placed, second: &Placed, flip: bool| {
            let relative = first.pose.inv_mul(&second.pose);
            self.kept.among(b, &relative, need, flip)
        };
        if is(a, x) && is(b, y) {
            return among(x, y, false);
        }
        if is(a, y) && is(b, x) {
            return among(y, x, true);
        }
        None
    }
}

/// An engine that asks collision, proximity and contact queries among the triangle pairs
/// kept for the two geometries where those still hold, and its own full searches elsewhere:
/// the same answers either way. What a kept set says depends on the geometries and where one
/// stands relative to the other alone, so it serves any two bodies of those shapes.
pub(crate) struct KeptEngine<'a> {
    pub engine: &'a dyn CollisionEngine,
    pub kept: Vec<KeptFor<'a>>,
}

impl KeptEngine<'_> {
    fn among(&self, a: &Placed, b: &Placed, need: f64) -> Option<Vec<TrianglePair>> {
        self.kept.iter().find_map(|k| k.pairs_for(a, b, need))
    }
}

impl CollisionEngine for KeptEngine<'_> {
    fn collide(&self, a: Placed, b: Placed) -> bool {
        match self.among(&a, &b, 0.0) {
            Some(pairs) => self.engine.collide_among(a, b, &pairs),
            None => self.engine.collide(a, b),
        }
    }

    fn within(&self, a: Placed, b: Placed, tolerance: f64) -> bool {
        if let Some(pairs) = self.among(&a, &b, tolerance) {
            return self.engine.within_among(a, b, tolerance, &pairs);
        }
        // Asked farther than the kept pairs reach: a kept pair that is within the tolerance
        // says yes as the full search would; only a no needs the full search.
        let some_kept = self.among(&a, &b, 0.0);
        some_kept.is_some_and(|pairs| self.engine.within_among(a, b, tolerance, &pairs))
            || self.engine.within(a, b, tolerance)
    }

    fn contacts(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
    ) -> Result<Vec<MeshContact>, Interpenetrating> {
        match self.among(&a, &b, threshold) {
            Some(pairs) => self.engine.contacts_among(a, b, threshold, &pairs),
            None => self.engine.contacts(a, b, threshold),
        }
    }

    fn distance(&self, a: Placed, b: Placed) -> Result<Separation, Interpenetrating> {
        self.engine.distance(a, b)
    }

    fn distance_below(
        &self,
        a: Placed,
        b: Placed,
        cutoff: f64,
        seed: Option<TrianglePair>,
        relative_error: f64,
    ) -> Result<Gap, Interpenetrating> {
        self.engine
            .distance_below(a, b, cutoff, seed, relative_error)
    }

    fn point_distance(
        &self,
        body: Placed,
        point: &clasp_collide::triangle::Point,
    ) -> PointDistance {
        self.engine.point_distance(body, point)
    }

    fn point_distance_below(
        &self,
        body: Placed,
        point: &clasp_collide::triangle::Point,
        cutoff: f64,
    ) -> Option<PointDistance> {
        self.engine.point_distance_below(body, point, cutoff)
    }

    fn region(
        &self,
        body: Placed,
        point: &clasp_collide::triangle::Point,
        normal: &Vector3<f64>,
        radius: f64,
    ) -> Vec<clasp_collide::triangle::Point> {
        self.engine.region(body, point, normal, radius)
    }

    fn near_triangles(&self, a: Placed, b: Placed, reach: f64) -> Option<NearTriangles> {
        self.engine.near_triangles(a, b, reach)
    }

    fn contacts_among(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
        pairs: &[TrianglePair],
    ) -> Result<Vec<MeshContact>, Interpenetrating> {
        self.engine.contacts_among(a, b, threshold, pairs)
    }

    fn collide_among(&self, a: Placed, b: Placed, pairs: &[TrianglePair]) -> bool {
        self.engine.collide_among(a, b, pairs)
    }

    fn within_among(&self, a: Placed, b: Placed, tolerance: f64, pairs: &[TrianglePair]) -> bool {
        self.engine.within_among(a, b, tolerance, pairs)
    }
}
