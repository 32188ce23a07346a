//! The end of a move that met something: GraspIt's `interpolateTo`, halving the last sub-step
//! until the gap is in (0, threshold/2). A probe only has to tell "colliding", "within
//! threshold/2" or "farther", which a distance query with threshold/2 as its cut-off answers
//! in one walk of the trees near the contact, seeded from the last answer.

use super::{
    Motion, MoveOutcome, MoveQueries, Run, advance::known_from, gaps::Known, path::Path, placed,
};
use crate::ids::BodyId;

/// Bisection halvings before settling on the last free point (GraspIt allows about 67).
const MAX_BISECTIONS: usize = 64;

/// Where a bisection probe finds the pairs it watches.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Probe {
    /// One of them collides (or touches).
    Colliding,
    /// None collides and one is closer than threshold/2.
    Within,
    /// All are at least threshold/2 apart.
    Farther,
}

impl Motion<'_, '_> {
    /// A sub-step from `lo` (free) to `hi` met the free pairs `hits`: bisect to a gap in
    /// (0, threshold/2), make sure no other pair collides there, and stop.
    pub(super) fn stop_between(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &mut Run,
        lo: f64,
        hi: f64,
        mut hits: Vec<usize>,
    ) -> MoveOutcome {
        let mut at = self.bisect(path, moving, run, lo, hi, &hits);
        loop {
            let more: Vec<usize> = (0..run.free.len())
                .filter(|k| !hits.contains(k) && self.may_collide(run, *k, moving))
                .collect();
            if more.is_empty() {
                break;
            }
            hits.extend(&more);
            at = self.bisect(path, moving, run, lo, at, &hits);
        }
        // The pairs that met: only those now within the threshold stopped the move; a pair
        // that would have collided later along the sub-step is still clear.
        let threshold = self.rules.threshold;
        let stopped_by = hits
            .iter()
            .map(|&k| (run.free[k].known, self.pair_parts(run.free[k].pair, moving)))
            .filter(
                |(known, (a, b))| match self.remembered(known, (&a.body.pose, &b.body.pose)) {
                    Some(gap) => gap < threshold,
                    None => self
                        .rules
                        .engine
                        .within(placed(a.body), placed(b.body), threshold),
                },
            )
            .map(|(_, (a, b))| (a.id, b.id))
            .collect();
        MoveOutcome {
            completed: false,
            stopped_by,
            blocked_by_overlap: false,
        }
    }

    /// Whether free pair `k` may collide now: not if what is known certifies a gap.
    fn may_collide(&self, run: &Run, k: usize, moving: &[BodyId]) -> bool {
        let tracked = &run.free[k];
        let (a, b) = self.pair_poses(tracked.pair, moving);
        tracked.known.bound_at(&tracked.balls, (&a, &b)) <= 0.0
            && self.pair_collides(tracked.pair, moving)
    }

    /// Halves [lo, hi] until the pairs `watched` are within threshold/2 and none collides;
    /// settles on the last free point if it never gets there. Leaves the mover there and
    /// returns t.
    ///
    /// A pair already within threshold/2 at `lo` (a body resting on one vertex) says nothing by
    /// its gap about where the collision at `hi` begins (another vertex, up to a sub-step
    /// away): it is bisected on collision alone until no point moves more than threshold/2
    /// between `lo` and `hi`, so the move stops with whatever was about to collide within
    /// the threshold too, where the contacts find it. Stopping at `lo` instead froze a body
    /// on one vertex with its next vertex up to a minimum step away, for ever.
    fn bisect(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &mut Run,
        lo: f64,
        hi: f64,
        watched: &[usize],
    ) -> f64 {
        let (mut lo, mut hi) = (lo, hi);
        self.apply(path, lo);
        let touching = self.probe(run, watched, moving) == Probe::Within;
        let band = self.rules.threshold / 2.0;
        if touching {
            // Held at contact (a finger dragged on into what it touches), the halving below
            // would probe collisions all the way down to `near`; where `near` collides already
            // `lo` is the answer, for one probe. Where it is free the halving goes on from it.
            let near = self.nearest_span(path, moving, run, watched, (lo, hi), band);
            let at_lo: Vec<Known> = watched.iter().map(|&k| run.free[k].known).collect();
            self.apply(path, near);
            match self.probe(run, watched, moving) {
                Probe::Colliding => {
                    // Back at `lo`, what the probe there measured holds again: the move's
                    // end needs no query to say which pairs stopped it, nor the next move
                    // to start.
                    for (&k, known) in watched.iter().zip(at_lo) {
                        run.free[k].known = known;
                    }
                    self.apply(path, lo);
                    return lo;
                }
                Probe::Within | Probe::Farther => lo = near,
            }
        }
        for _ in 0..MAX_BISECTIONS {
            if touching && self.closing_over(path, moving, run, watched, (lo, hi)) < band {
                break;
            }
            let mid = 0.5 * (lo + hi);
            self.apply(path, mid);
            match self.probe(run, watched, moving) {
                Probe::Within if !touching => return mid,
                Probe::Colliding => hi = mid,
                Probe::Within | Probe::Farther => lo = mid,
            }
        }
        self.apply(path, lo);
        lo
    }

    /// The farthest of `hi` and its halvings toward `lo` over which the pairs `watched` close
    /// in less than `band`: what the halving on collision alone would reach, found without a
    /// collision query.
    fn nearest_span(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &Run,
        watched: &[usize],
        (lo, hi): (f64, f64),
        band: f64,
    ) -> f64 {
        let mut near = hi;
        for _ in 0..MAX_BISECTIONS {
            if self.closing_over(path, moving, run, watched, (lo, near)) < band {
                break;
            }
            near = 0.5 * (lo + near);
        }
        near
    }

    /// How far the pairs `watched` may close in between path points `lo` and `hi` (the most
    /// of them); leaves the mover at `hi`.
    fn closing_over(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &Run,
        watched: &[usize],
        (lo, hi): (f64, f64),
    ) -> f64 {
        self.apply(path, lo);
        let then: Vec<_> = watched
            .iter()
            .map(|&k| self.pair_poses(run.free[k].pair, moving))
            .collect();
        self.apply(path, hi);
        watched
            .iter()
            .zip(&then)
            .map(|(&k, (a, b))| {
                let (na, nb) = self.pair_poses(run.free[k].pair, moving);
                run.free[k].balls.closing((a, b), (&na, &nb))
            })
            .fold(0.0, f64::max)
    }

    /// Where the watched pairs are now; what each answer says of a gap is kept.
    fn probe(&self, run: &mut Run, watched: &[usize], moving: &[BodyId]) -> Probe {
        let band = self.rules.threshold / 2.0;
        let mut within = false;
        for &k in watched {
            let tracked = &mut run.free[k];
            let (a, b) = self.pair_parts(tracked.pair, moving);
            let poses = (a.body.pose, b.body.pose);
            let gap = match self.remembered(&tracked.known, (&poses.0, &poses.1)) {
                Some(gap) => gap,
                None => {
                    let (cutoff, seed) = match self.rules.queries {
                        MoveQueries::Bounded => (band, tracked.known.seed),
                        MoveQueries::Exact => (f64::INFINITY, None),
                    };
                    let answer = self.rules.engine.distance_below(
                        placed(a.body),
                        placed(b.body),
                        cutoff,
                        seed,
                        0.0,
                    );
                    tracked.known = known_from(answer, 0.0, poses, tracked.known);
                    tracked.known.bound
                }
            };
            if gap <= 0.0 {
                return Probe::Colliding;
            }
            within |= gap < band;
        }
        if within {
            Probe::Within
        } else {
            Probe::Farther
        }
    }
}
