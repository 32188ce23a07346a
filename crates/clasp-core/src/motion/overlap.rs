//! The overlap rule: a pair already interpenetrating when a move starts (collisions switched
//! back on between bodies that pass into each other) may move any way that does not deepen
//! the overlap; once apart it is checked like any other pair.

use clasp_collide::{CollisionEngine, Placed};
use nalgebra::Vector3;

use super::{Motion, MoveOutcome, Run, Tracked, gaps::Known, path::Path, placed};
use crate::{body::Body, ids::BodyId, pose::Pose};

impl Motion<'_, '_> {
    /// Overlapping pairs may not get deeper; one that comes apart is checked like any other
    /// from then on. Stops the move at `t` (the last accepted point) if one deepens.
    pub(super) fn check_overlaps(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &mut Run,
        t: f64,
    ) -> Option<MoveOutcome> {
        let tolerance = self.rules.threshold / 2.0;
        let mut apart = Vec::new();
        for (k, overlap) in run.overlaps.iter().enumerate() {
            let (a, b) = self.pair_parts(overlap.pair, moving);
            if !self.rules.engine.collide(placed(a.body), placed(b.body)) {
                apart.push(k);
            } else if overlap_depth(self.rules.engine, a.body, b.body) > overlap.depth + tolerance {
                let stopped_by = vec![(a.id, b.id)];
                self.apply(path, t);
                return Some(MoveOutcome {
                    completed: false,
                    stopped_by,
                    blocked_by_overlap: true,
                });
            }
        }
        for k in apart.into_iter().rev() {
            let overlap = run.overlaps.remove(k);
            let poses = self.pair_poses(overlap.pair, moving);
            run.free.push(Tracked {
                pair: overlap.pair,
                balls: overlap.balls,
                known: Known::nothing(poses),
            });
        }
        None
    }
}

/// How deep two interpenetrating bodies are in each other: the deepest vertex of either inside
/// the other, measured to the other's surface. A vertex is inside when it lies behind the
/// triangle closest to it.
pub(super) fn overlap_depth(engine: &dyn CollisionEngine, a: &Body, b: &Body) -> f64 {
    vertex_depth(engine, a, b).max(vertex_depth(engine, b, a))
}

fn vertex_depth(engine: &dyn CollisionEngine, body: &Body, container: &Body) -> f64 {
    let (lo, hi) = container.mesh().bounding_box();
    let to_container = container.pose.inverse() * body.pose;
    let here = Placed::new(&container.geometry, Pose::identity());
    body.mesh()
        .vertices()
        .iter()
        .map(|v| to_container * v)
        .filter(|p| (0..3).all(|k| p[k] >= lo[k] && p[k] <= hi[k]))
        .map(|p| {
            let near = engine.point_distance(here, &p);
            let normal: Vector3<f64> = container.mesh().triangle_normal(near.triangle);
            if (p - near.closest).dot(&normal) < 0.0 {
                near.distance
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}
