//! One annealing search, a walk through the search space: its steps, the best states it keeps,
//! and the progress a caller may watch.

use std::{
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Instant,
};

use clasp_random::SplitMix64;

use super::{
    anneal::Annealing,
    search::{Scored, Space},
    shares::StateShares,
};
use crate::{pose::Pose, robot::Robot};

/// The states each search keeps, and how far apart two must be. GraspIt lists its 20 best for
/// the user to close; every kept state is closed here, and with a hundred a search a thin
/// object on a table (GraspIt's glass) still yields force-closure grasps once the hand's own
/// links count as obstacles.
const BEST_PER_SEARCH: usize = 100;

/// How many times a step with no legal neighbour is tried again before it counts as taken.
pub(super) const STUCK_RETRIES: u32 = 100;
const SAME_STATE: f64 = 0.2;

/// Progress a caller may watch — steps taken, the lowest energy found so far — and a flag to
/// stop early (what was found is kept).
#[derive(Debug, Default)]
pub struct PlanProgress {
    pub steps: AtomicU64,
    pub stop: AtomicBool,
    best: Mutex<Option<f64>>,
}

impl PlanProgress {
    /// The lowest energy any search has kept so far.
    pub fn best_energy(&self) -> Option<f64> {
        *self.best.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn record(&self, energy: f64) {
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.is_none_or(|b| energy < b) {
            *best = Some(energy);
        }
    }
}

/// A search's kept state: its variables and energy.
#[derive(Debug, Clone)]
pub(super) struct Kept {
    pub(super) state: Vec<f64>,
    pub(super) energy: f64,
    /// Where the state puts the palm, kept to compare states without placing them again.
    pub(super) palm: Pose,
}

/// What one search did.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    pub(super) steps: u64,
    /// States evaluated.
    pub(super) evaluations: u64,
    /// Steps with no legal neighbour.
    pub(super) illegal: u64,
    /// Where its time went.
    pub(super) shares: StateShares,
}

/// One annealing search: where it starts, its schedule and steps, its seed, the domain it
/// closes hands in (for the auto-grasp energies), and whether its steps count in the progress.
pub(super) struct Search<'s> {
    pub(super) start: Vec<f64>,
    pub(super) annealing: &'s Annealing,
    pub(super) steps: u64,
    pub(super) seed: u64,
    pub(super) domain: u32,
    pub(super) counted: bool,
}

/// One annealing search: its best states, and what it did.
pub(super) fn anneal_search(
    space: &Space,
    hand: &Robot,
    search: &Search,
    progress: &PlanProgress,
) -> (Vec<Kept>, Counts) {
    let started = Instant::now();
    let (seed, domain) = (search.seed, search.domain);
    let mut random = SplitMix64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED);
    let mut hand = hand.clone();
    let mut state = search.start.clone();
    let mut energy = 1.0e8;
    let mut best: Vec<Kept> = Vec::new();
    let mut retries = 0;
    let mut counts = Counts::default();
    let annealing = search.annealing;
    let mut k = annealing.k0;
    let mut first_check = 0;
    while counts.steps < search.steps && !progress.stop.load(Ordering::Relaxed) {
        let t = annealing.neighbour_temperature(k);
        let below = annealing.acceptance_bound(energy, k, &mut random);
        let mut legal = None;
        for _ in 0..annealing.attempts {
            let next: Vec<f64> = state
                .iter()
                .zip(&space.variables)
                .map(|(&v, variable)| variable.neighbour(v, t, &mut random))
                .collect();
            counts.evaluations += 1;
            match space.evaluate(
                &mut hand,
                &next,
                below,
                &mut first_check,
                domain,
                &mut counts.shares,
            ) {
                Scored::Illegal => continue,
                Scored::NotBelow => legal = Some(None),
                Scored::Energy(e) => legal = Some(Some((next, e))),
            }
            break;
        }
        // No legal neighbour in all the attempts: the step is tried again, as GraspIt does;
        // but not for ever (GraspIt's issue #131): after STUCK_RETRIES tries it counts as
        // taken, so a search with nowhere legal to go ends.
        if legal.is_none() {
            retries += 1;
            if retries < STUCK_RETRIES {
                continue;
            }
            counts.illegal += 1;
        }
        retries = 0;
        if let Some(Some((next, next_energy))) = legal {
            state = next;
            energy = next_energy;
            let worst = best.last().map_or(1.0e5, |w| w.energy);
            if best.len() < BEST_PER_SEARCH || energy < worst {
                progress.record(energy);
                let kept = Kept {
                    palm: space.placement(&hand, &state).0,
                    state: state.clone(),
                    energy,
                };
                keep(space, &mut best, kept, BEST_PER_SEARCH);
            }
        }
        k += 1;
        counts.steps += 1;
        if search.counted && counts.steps % 1000 == 0 {
            progress.steps.fetch_add(1000, Ordering::Relaxed);
        }
    }
    if search.counted {
        progress
            .steps
            .fetch_add(counts.steps % 1000, Ordering::Relaxed);
    }
    counts.shares.close(started.elapsed().as_secs_f64());
    (best, counts)
}

/// The best `count` states the searches kept, distinct, best first: a guided planner's seeds.
pub(super) fn best_states(
    searches: &[(Vec<Kept>, Counts)],
    count: usize,
    space: &Space,
) -> Vec<Kept> {
    let mut seeds: Vec<Kept> = Vec::new();
    for (found, _) in searches {
        for k in found {
            keep(space, &mut seeds, k.clone(), count);
        }
    }
    seeds
}

impl Space<'_> {
    /// Whether two palms are the same state for the planner's lists.
    pub(super) fn same_state(&self, a: &Pose, b: &Pose) -> bool {
        self.distance(a, b) < SAME_STATE
    }
}

/// Adds a state to a best list: a state within `SAME_STATE` of one kept replaces it only if
/// lower; the list stays sorted by energy and at most `size` long.
pub(super) fn keep(space: &Space, list: &mut Vec<Kept>, kept: Kept, size: usize) {
    if let Some(i) = list
        .iter()
        .position(|other| space.same_state(&other.palm, &kept.palm))
    {
        if kept.energy < list[i].energy {
            list[i] = kept;
        } else {
            return;
        }
    } else {
        list.push(kept);
    }
    list.sort_by(|a, b| a.energy.total_cmp(&b.energy));
    list.truncate(size);
}
