//! Conservative advancement: each sub-step as long as no pair can close more than 90 % of a
//! certified lower bound on its gap (or the minimum step, where the gap is smaller), with the
//! engine asked only about the pairs whose cheap bounds do not clear the step, and only as much
//! as the step needs (a cut-off, a seed, a relative error, or just "is it that close?").

use std::f64::consts::FRAC_PI_4;

use clasp_collide::Gap;
use nalgebra::Point3;

use super::{
    Motion, MoveOutcome, MoveQueries, Mover, Overlap, Pair, Run, Tracked,
    gaps::{Ball, Known, PairBalls},
    overlap::overlap_depth,
    path::Path,
    placed,
};
use crate::{ids::BodyId, pose::Pose};

/// The most sub-steps one move takes; a move this long stops where it got to.
const MAX_SUBSTEPS: usize = 100_000;
/// The share of a gap a sub-step may close.
const ADVANCE_SHARE: f64 = 0.9;
/// A sub-step needs a lower bound on a gap, not the gap: its distance queries may give up pairs
/// of nodes that could beat their best by no more than this share, which is far cheaper between
/// bodies a few millimetres apart and costs a step at most a third of its length (measured:
/// 0.25, 0.5 and 1 gave 213, 253 and 273 grasps a second of ClaspHand on its mug).
const RELATIVE_ERROR: f64 = 0.5;
/// A pair whose bound does not clear a sub-step is asked whether its gap is at least this many
/// times what the sub-step needs: more than the step needs, so that the answer also clears the
/// next few steps (and the next frames of a drag), and not so much more that proving it means
/// descending far into the trees.
const CUTOFF_REACH: f64 = 4.0;

impl Motion<'_, '_> {
    /// Moves the whole mover (a body, or a robot by its palm) toward `target`, stopping at the
    /// first contact; its origin travels straight.
    pub fn move_to(&mut self, target: Pose) -> MoveOutcome {
        self.move_about(target, Point3::origin())
    }

    /// [`Self::move_to`] with `pivot` (a point in the mover's own frame) travelling straight
    /// and the mover turning about it.
    pub fn move_about(&mut self, target: Pose, pivot: Point3<f64>) -> MoveOutcome {
        let from = match &self.mover {
            Mover::Body { body, .. } => body.pose,
            Mover::Robot { robot, .. } => robot.pose(),
        };
        let moving = self.mover_ids();
        let path = Path::Rigid {
            from,
            to: target,
            pivot,
        };
        self.run(&path, &moving, false)
    }

    /// Moves the mover's `moving` bodies along `path` until the end or the first contact.
    pub(super) fn run(&mut self, path: &Path, moving: &[BodyId], with_own: bool) -> MoveOutcome {
        let mut run = Run {
            free: Vec::new(),
            overlaps: Vec::new(),
        };
        for pair in self.pairs(moving, with_own) {
            let (a, b) = self.pair_parts(pair, moving);
            let balls = PairBalls(Ball::of(a.body), Ball::of(b.body));
            let poses = (a.body.pose, b.body.pose);
            let recalled = match self.rules.queries {
                MoveQueries::Bounded => self
                    .memory
                    .recall((a.id, &a.body.geometry), (b.id, &b.body.geometry)),
                MoveQueries::Exact => None,
            };
            let known = recalled.unwrap_or(Known::nothing(poses));
            // A pair certified apart needs no collision test to start.
            let apart = known.bound_at(&balls, (&poses.0, &poses.1)) > 0.0;
            if apart || !self.rules.engine.collide(placed(a.body), placed(b.body)) {
                run.free.push(Tracked { pair, balls, known });
            } else {
                let depth = overlap_depth(self.rules.engine, a.body, b.body);
                run.overlaps.push(Overlap { pair, balls, depth });
            }
        }
        let outcome = self.advance(path, moving, &mut run);
        self.remember(&run, moving);
        outcome
    }

    /// Leaves what this move learnt of each gap to the next move.
    fn remember(&mut self, run: &Run, moving: &[BodyId]) {
        if self.rules.queries == MoveQueries::Exact {
            return;
        }
        let facts: Vec<_> = run
            .free
            .iter()
            .map(|tracked| {
                let (a, b) = self.pair_parts(tracked.pair, moving);
                let side = |p: super::Part| (p.id, p.body.geometry.clone());
                (side(a), side(b), tracked.known)
            })
            .collect();
        for ((a, ga), (b, gb), known) in facts {
            self.memory.keep((a, &ga), (b, &gb), known);
        }
    }

    fn advance(&mut self, path: &Path, moving: &[BodyId], run: &mut Run) -> MoveOutcome {
        let turn = self.path_turn(path);
        let mut t: f64 = 0.0;
        for _ in 0..MAX_SUBSTEPS {
            if t >= 1.0 {
                return MoveOutcome {
                    completed: true,
                    ..MoveOutcome::default()
                };
            }
            let step = self.substep(path, moving, run, t, turn);
            let hits: Vec<usize> = (0..run.free.len())
                .filter(|&k| step.closing[k] > ADVANCE_SHARE * step.bounds[k])
                .filter(|&k| self.pair_collides(run.free[k].pair, moving))
                .collect();
            if !hits.is_empty() {
                return self.stop_between(path, moving, run, t, step.next, hits);
            }
            if let Some(outcome) = self.check_overlaps(path, moving, run, t) {
                return outcome;
            }
            t = step.next;
        }
        MoveOutcome::default()
    }

    /// Chooses the next sub-step from `t` and leaves the mover there: as long as no pair
    /// closes more than 90 % of its gap, or the minimum step. A gap is known as a lower bound
    /// (the balls' gap, or what an earlier query leaves of it). While a pair's bound limits the
    /// step more than the minimum step does, the pair that limits it most is asked its
    /// distance (with a cut-off a few times what the step needs). Once the step is chosen, a
    /// pair that may still close more than its bound allows is asked only whether it is that
    /// close (a tolerance query); if it is, the step is the minimum step anyway and the pair
    /// is checked for collision at its end.
    fn substep(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &mut Run,
        t: f64,
        turn: f64,
    ) -> Step {
        let start = Start {
            free: run
                .free
                .iter()
                .map(|p| self.pair_poses(p.pair, moving))
                .collect(),
            overlaps: run
                .overlaps
                .iter()
                .map(|p| self.pair_poses(p.pair, moving))
                .collect(),
        };
        let mut bounds: Vec<f64> = run
            .free
            .iter()
            .zip(&start.free)
            .map(|(p, (a, b))| {
                let balls = p.balls.0.gap(a, &p.balls.1, b);
                balls.max(p.known.bound_at(&p.balls, (a, b)))
            })
            .collect();
        let mut asked = vec![false; bounds.len()];
        let mut dt = (1.0 - t).min(if turn > 0.0 { FRAC_PI_4 / turn } else { 1.0 });
        loop {
            self.apply(path, t + dt);
            let (free, overlapping) = self.closings(run, moving, &start);
            let ratio = |k: usize| free[k] / self.allowance(bounds[k]);
            let worst_overlap = overlapping.iter().map(|d| d / self.rules.min_step);
            let (mut worst, mut ask) = (worst_overlap.fold(0.0, f64::max), None);
            for (k, &was_asked) in asked.iter().enumerate() {
                if ratio(k) > worst {
                    worst = ratio(k);
                    ask = (!was_asked).then_some(k);
                }
            }
            if self.rules.queries == MoveQueries::Exact {
                // The move as it was: every pair whose bound does not clear the step is asked
                // its exact distance at once.
                let limiting: Vec<usize> = (0..bounds.len())
                    .filter(|&k| !asked[k] && free[k] > ADVANCE_SHARE * bounds[k])
                    .collect();
                if !limiting.is_empty() {
                    self.apply(path, t);
                    for k in limiting {
                        bounds[k] = self.ask_distance(&mut run.free[k], moving, f64::INFINITY);
                        asked[k] = true;
                    }
                    continue;
                }
            }
            // The pair that limits the step most is asked, if it has not been yet: its answer
            // may let the step be longer, or make it shorter, and then fewer pairs need asking.
            if let Some(k) = ask.filter(|_| worst > 1.0) {
                self.apply(path, t);
                bounds[k] = self.ask_distance(&mut run.free[k], moving, free[k] / ADVANCE_SHARE);
                asked[k] = true;
                continue;
            }
            if worst <= 1.0 || dt < 1e-12 {
                let close: Vec<usize> = (0..bounds.len())
                    .filter(|&k| !asked[k] && free[k] > ADVANCE_SHARE * bounds[k])
                    .collect();
                if !close.is_empty() {
                    self.apply(path, t);
                    for k in close {
                        let need = free[k] / ADVANCE_SHARE;
                        bounds[k] = self.ask_within(&mut run.free[k], moving, need, bounds[k]);
                    }
                    self.apply(path, t + dt);
                }
                return Step {
                    next: (t + dt).min(1.0),
                    closing: free,
                    bounds,
                };
            }
            dt *= 0.95 / worst;
        }
    }

    /// How far each free pair, then each overlapping pair, may have closed in since `start`.
    fn closings(&self, run: &Run, moving: &[BodyId], start: &Start) -> (Vec<f64>, Vec<f64>) {
        let closing = |pair: Pair, balls: &PairBalls, (a, b): &(Pose, Pose)| {
            let (na, nb) = self.pair_poses(pair, moving);
            balls.closing((a, b), (&na, &nb))
        };
        let free = run
            .free
            .iter()
            .zip(&start.free)
            .map(|(p, s)| closing(p.pair, &p.balls, s))
            .collect();
        let overlapping = run
            .overlaps
            .iter()
            .zip(&start.overlaps)
            .map(|(p, s)| closing(p.pair, &p.balls, s))
            .collect();
        (free, overlapping)
    }

    /// Asks the engine how far apart a pair is, as far as a step that needs `need` mm must
    /// know; keeps the answer and returns the bound it gives.
    fn ask_distance(&self, tracked: &mut Tracked, moving: &[BodyId], need: f64) -> f64 {
        let (a, b) = self.pair_parts(tracked.pair, moving);
        if let Some(gap) = self.remembered(&tracked.known, (&a.body.pose, &b.body.pose)) {
            return gap;
        }
        let (cutoff, seed, error) = match self.rules.queries {
            MoveQueries::Bounded => (CUTOFF_REACH * need, tracked.known.seed, RELATIVE_ERROR),
            MoveQueries::Exact => (f64::INFINITY, None, 0.0),
        };
        let (a_at, b_at) = (placed(a.body), placed(b.body));
        let gap = self
            .rules
            .engine
            .distance_below(a_at, b_at, cutoff, seed, error);
        tracked.known = known_from(gap, error, (a.body.pose, b.body.pose), tracked.known);
        tracked.known.bound
    }

    /// Asks the engine only whether a pair is closer than a few times `need`: if not, that is
    /// its new bound; if so, `bound` stands. (The exact move asks the distance.)
    fn ask_within(&self, tracked: &mut Tracked, moving: &[BodyId], need: f64, bound: f64) -> f64 {
        if self.rules.queries == MoveQueries::Exact {
            return self.ask_distance(tracked, moving, need);
        }
        let (a, b) = self.pair_parts(tracked.pair, moving);
        if let Some(gap) = self.remembered(&tracked.known, (&a.body.pose, &b.body.pose)) {
            return gap;
        }
        let cutoff = CUTOFF_REACH * need;
        if self
            .rules
            .engine
            .within(placed(a.body), placed(b.body), cutoff)
        {
            return bound;
        }
        tracked.known = Known {
            bound: cutoff,
            exact: false,
            poses: (a.body.pose, b.body.pose),
            seed: tracked.known.seed,
        };
        cutoff
    }

    /// The exact gap of a pair whose bodies have not moved since it was measured; never with
    /// the exact move, which asks again as it always did.
    pub(super) fn remembered(&self, known: &Known, now: (&Pose, &Pose)) -> Option<f64> {
        match self.rules.queries {
            MoveQueries::Bounded => known.exact_at(now),
            MoveQueries::Exact => None,
        }
    }

    fn allowance(&self, gap: f64) -> f64 {
        (ADVANCE_SHARE * gap).max(self.rules.min_step)
    }

    /// The poses of a pair's two bodies now.
    pub(super) fn pair_poses(&self, pair: Pair, moving: &[BodyId]) -> (Pose, Pose) {
        let (a, b) = self.pair_parts(pair, moving);
        (a.body.pose, b.body.pose)
    }

    pub(super) fn pair_collides(&self, pair: Pair, moving: &[BodyId]) -> bool {
        let (a, b) = self.pair_parts(pair, moving);
        self.rules.engine.collide(placed(a.body), placed(b.body))
    }
}

/// What an answer of the engine, asked with `relative_error`, says of a pair at `poses`; a
/// seed is kept until a better one.
pub(super) fn known_from(
    gap: Result<Gap, clasp_collide::Interpenetrating>,
    relative_error: f64,
    poses: (Pose, Pose),
    before: Known,
) -> Known {
    match gap {
        Ok(Gap::Closer(s)) => Known {
            bound: s.distance / (1.0 + relative_error),
            exact: relative_error == 0.0,
            poses,
            seed: Some(s.triangles),
        },
        Ok(Gap::AtLeast(bound)) => Known {
            bound,
            exact: false,
            poses,
            seed: before.seed,
        },
        Err(_) => Known {
            bound: 0.0,
            exact: true,
            poses,
            seed: before.seed,
        },
    }
}

/// The poses of each pair's bodies where a sub-step starts: free pairs, then overlapping ones.
struct Start {
    free: Vec<(Pose, Pose)>,
    overlaps: Vec<(Pose, Pose)>,
}

/// One sub-step chosen: where it ends, how far each free pair may close over it, and the
/// bound on each free pair's gap at its start.
pub(super) struct Step {
    pub next: f64,
    pub closing: Vec<f64>,
    pub bounds: Vec<f64>,
}
