//! Bodies that start inside one another: a step refuses them, naming the pairs (the solver
//! has no contact between them to push them apart, so they would sink on through each other
//! or hang frozen), and [`World::resolve_overlaps`] separates them on request, each moved the
//! shortest way out.

use nalgebra::{Translation3, Vector3};

use clasp_collide::CollisionEngine;

use crate::{
    body::BodyType,
    ids::{BodyId, Element},
    world::{
        World,
        error::{BodyName, MoveError},
    },
};

/// Bisection halvings when finding how far a body must go to come out.
const HALVINGS: usize = 40;

/// One overlap resolved: the body moved, the one it was inside, and how far it went (mm,
/// world axes).
#[derive(Debug, Clone, PartialEq)]
pub struct Separated {
    pub moved: BodyId,
    pub from: BodyId,
    pub by: Vector3<f64>,
}

impl<E: CollisionEngine> World<E> {
    /// Separates every interpenetrating pair with a dynamic free body in it: that body (the
    /// second of two dynamic ones) moves along the shortest of the six axes' directions and
    /// the one from the other body's centre to its own that takes it out of everything, and
    /// comes to rest a quarter of the contact threshold from what it was inside. Returns what
    /// moved and how far. Refused, changing nothing, where a pair has no dynamic body or no
    /// way out within the two bodies' size.
    pub fn resolve_overlaps(&mut self) -> Result<Vec<Separated>, MoveError> {
        let start: Vec<_> = self.free_bodies().map(|(i, b)| (i, b.pose)).collect();
        let resolved = self.separate_all();
        if resolved.is_err() {
            for (i, pose) in start {
                let _ = self.set_pose(Element::Body(i), pose);
            }
        }
        resolved
    }

    fn separate_all(&mut self) -> Result<Vec<Separated>, MoveError> {
        let mut separated = Vec::new();
        // Each pass takes one body out; a body moved out of one may have gone into another.
        for _ in 0..4 * self.free_bodies().count().max(1) {
            let overlaps = self.overlapping_pairs();
            let Some(&(a, b)) = overlaps.first() else {
                return Ok(separated);
            };
            let dynamic = |id: BodyId| {
                self.body(id).is_some_and(|b| {
                    b.body_type() == BodyType::Dynamic && id.free_index().is_some()
                })
            };
            let (moved, from) = match (dynamic(a), dynamic(b)) {
                (_, true) => (b, a),
                (true, false) => (a, b),
                (false, false) => return Err(overlap_error(&overlaps, |id| self.body_name(id))),
            };
            let by = self
                .way_out(moved, from)
                .ok_or_else(|| overlap_error(&[(a, b)], |id| self.body_name(id)))?;
            separated.push(Separated { moved, from, by });
        }
        refuse_overlaps(&self.overlapping_pairs(), |id| self.body_name(id)).map(|_| separated)
    }

    /// Moves `moved` (a free body) the shortest way out of everything it is in, trying the six
    /// axes' directions and the one away from `from`'s centre; returns the move.
    fn way_out(&mut self, moved: BodyId, from: BodyId) -> Option<Vector3<f64>> {
        let i = moved.free_index()?;
        let body = self.body(moved)?;
        let other = self.body(from)?;
        let start = body.pose;
        let reach = 2.0 * (body.geometry.bounding_ball().1 + other.geometry.bounding_ball().1);
        let away = (body.world_cog() - other.world_cog()).try_normalize(1e-9);
        let axes = [Vector3::x(), Vector3::y(), Vector3::z()];
        let directions = axes
            .iter()
            .flat_map(|a| [*a, -*a])
            .chain(away)
            .collect::<Vec<_>>();
        let margin = 0.25 * self.settings.contact_threshold;
        let mut best: Option<Vector3<f64>> = None;
        for direction in directions {
            let limit = best.map_or(reach, |b| b.norm());
            if let Some(out) = self.distance_out(i, &start, &direction, limit) {
                let by = direction * (out + margin);
                if best.is_none_or(|b| by.norm() < b.norm()) {
                    best = Some(by);
                }
            }
        }
        let by = best?;
        let _ = self.set_pose(Element::Body(i), Translation3::from(by) * start);
        // The margin must not put it into something else.
        if self
            .overlapping_pairs()
            .iter()
            .any(|&(a, b)| a == moved || b == moved)
        {
            let _ = self.set_pose(Element::Body(i), start);
            return None;
        }
        Some(by)
    }

    /// How far free body `i` must go from `start` along `direction` to overlap nothing, up to
    /// `limit` mm; `None` if not within it. Leaves the body at `start`.
    fn distance_out(
        &mut self,
        i: usize,
        start: &crate::pose::Pose,
        direction: &Vector3<f64>,
        limit: f64,
    ) -> Option<f64> {
        let id = BodyId::Free(i);
        let overlaps_at = |world: &mut Self, s: f64| {
            let _ = world.set_pose(Element::Body(i), Translation3::from(direction * s) * start);
            world.overlaps_of(id)
        };
        let found = if overlaps_at(self, limit) {
            None
        } else {
            let (mut inside, mut out) = (0.0, limit);
            for _ in 0..HALVINGS {
                let mid = 0.5 * (inside + out);
                if overlaps_at(self, mid) {
                    inside = mid;
                } else {
                    out = mid;
                }
            }
            Some(out)
        };
        let _ = self.set_pose(Element::Body(i), *start);
        found
    }

    /// Whether a body interpenetrates anything its checked pairs name.
    fn overlaps_of(&self, id: BodyId) -> bool {
        self.overlapping_pairs()
            .iter()
            .any(|&(a, b)| a == id || b == id)
    }
}

/// The checked pairs that interpenetrate, as a refusal naming them; `Ok` where none do.
pub(crate) fn refuse_overlaps(
    pairs: &[(BodyId, BodyId)],
    name: impl Fn(BodyId) -> BodyName,
) -> Result<(), MoveError> {
    match pairs.is_empty() {
        true => Ok(()),
        false => Err(overlap_error(pairs, name)),
    }
}

/// The refusal naming interpenetrating pairs by their bodies' names and files.
fn overlap_error(pairs: &[(BodyId, BodyId)], name: impl Fn(BodyId) -> BodyName) -> MoveError {
    let named = pairs.iter().map(|&(a, b)| (name(a), name(b))).collect();
    MoveError::StartsOverlapping(named)
}
