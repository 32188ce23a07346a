//! The grasp planner, after GraspIt's EigenGrasp planner (`SimAnnPlanner`, Ciocarlie and Allen
//! 2009): simulated annealing over the hand's pose round the object and its eigengrasp
//! amplitudes, scored by how close its virtual contacts come to the object (or by the quality
//! they would make); several independent searches in parallel, each on its own copy of the
//! hand; the best states of each auto-grasped in a domain of their own and scored; the best
//! grasps kept, no two alike. Seeded: the same seed gives the same grasps, on any number of
//! threads.

mod anneal;
pub(crate) mod search;

use std::{
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Instant,
};

use clasp_collide::CollisionEngine;
use rayon::prelude::*;

use clasp_random::SplitMix64;

use crate::{
    contact::filter::Part,
    grasp::{
        batch::{BatchQuality, GraspCandidate},
        hold::HoldTest,
        hold_settings::HoldSettings,
        quality::WrenchSpaceKind,
        trial::{GraspTrial, TrialPlan},
    },
    ids::{BodyId, RobotId},
    pose::Pose,
    robot::Robot,
    world::{
        World,
        error::MoveError,
        layers::{self, Layer},
    },
};
pub use anneal::Annealing;
use search::{Against, Check, Energy, Scored, Space};

/// What a planning run does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanSettings {
    /// Annealing steps of each search, each counted from GraspIt's step 30,000 (by default
    /// four searches of 17,500: 70,000 in all, where GraspIt's default run counts its steps
    /// from 30,000 to 70,000, 40,000 steps).
    pub steps: u64,
    /// How many grasps to return. The kept states are closed best energy first until this
    /// many distinct force-closure grasps are found, so a plan asking for fewer answers sooner.
    pub grasps: usize,
    pub energy: Energy,
    pub seed: u64,
    /// Independent searches, run in parallel on rayon's threads.
    pub searches: usize,
    /// How far each of a search's best states may approach before it closes (mm; GraspIt's
    /// guided planner: 30).
    pub approach: f64,
    /// For a hand an arm carries: keep only the grasps its arm reaches, arm and hand in
    /// nothing there ([`World::arm_reaches`]). No effect on a hand nothing carries.
    pub only_reachable: bool,
    /// The annealing's schedule (GraspIt's by default).
    pub annealing: Annealing,
    /// GraspIt's guided planner: child searches from the best states found (none by default).
    pub guided: Option<Guided>,
}

/// GraspIt's guided planner, after the searches: each of the best `children` states found
/// (distinct, best first; GraspIt queues 20) seeds a child search of `child_steps` steps
/// (GraspIt: 200) on GraspIt's strict annealing schedule, with its neighbours drawn near the
/// seed (confidences 0.65 for the palm, 0.5 for the posture, read as jumps that much
/// shorter) and scored by GraspIt's strict auto-grasp energy: the hand approaches up to 30 mm
/// and closes, −(30 × volume + 100 × epsilon), 10⁸ for a grasp of no quality. What the
/// children keep is closed and scored with the rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Guided {
    pub children: usize,
    pub child_steps: u64,
}

impl Default for Guided {
    fn default() -> Self {
        Self {
            children: 20,
            child_steps: 200,
        }
    }
}

/// How far a child's strict energy lets the hand approach before closing (GraspIt's 30 mm).
const CHILD_APPROACH: f64 = 30.0;

/// A child's confidence in its seed: palm, posture.
const CHILD_CONFIDENCE: [f64; 2] = [0.65, 0.5];

impl Default for PlanSettings {
    fn default() -> Self {
        Self {
            steps: 17_500,
            grasps: 10,
            energy: Energy::Contact,
            seed: 0,
            searches: 4,
            approach: 30.0,
            only_reachable: true,
            annealing: Annealing::default(),
            guided: None,
        }
    }
}

/// The states each search keeps, and how far apart two must be. GraspIt lists its 20 best for
/// the user to close; every kept state is closed here, and with a hundred a search a thin
/// object on a table (GraspIt's glass) still yields force-closure grasps once the hand's own
/// links count as obstacles.
const BEST_PER_SEARCH: usize = 100;

/// How many of the kept states are closed at a time (in parallel), best energy first: few at
/// first, so that a plan asking for one grasp answers soon, then twice as many each batch up to
/// the most, so that many threads have work. Never the thread count: one thread and many give
/// the same grasps.
const CLOSE_BATCH: (usize, usize) = (4, 64);

/// How many times a step with no legal neighbour is tried again before it counts as taken.
const STUCK_RETRIES: u32 = 100;
const SAME_STATE: f64 = 0.2;

/// A planned grasp: where the hand ended after closing, and how good the grasp is.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedGrasp {
    /// The state's energy before closing.
    pub energy: f64,
    /// The pose and DOFs the search found, before closing.
    pub pregrasp: (Pose, Vec<f64>),
    /// After approaching and closing: the palm, DOFs, contacts and quality (L1, with volume).
    pub grasp: GraspTrial,
}

impl PlannedGrasp {
    pub fn force_closure(&self) -> bool {
        self.grasp.quality.as_ref().is_some_and(|q| q.force_closure)
    }

    pub fn epsilon(&self) -> f64 {
        self.grasp
            .quality
            .as_ref()
            .and_then(|q| q.epsilon)
            .unwrap_or(-1.0)
    }
}

/// What a planning run found, and how much it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Best first: force-closure grasps by epsilon, then the others by energy.
    pub grasps: Vec<PlannedGrasp>,
    /// Annealing steps taken, over all searches (not a guided planner's children).
    pub steps: u64,
    /// States evaluated (placed, checked for collision and scored), over all searches (a
    /// guided planner's children too): what GraspIt's `timeTest` counts.
    pub evaluations: u64,
    /// The whole run, and the annealing alone (before the best states are closed).
    pub seconds: f64,
    pub search_seconds: f64,
    /// Steps in which every neighbour tried was illegal (the hand in the object, an obstacle or
    /// itself): each counts as a step taken, so a search that cannot move still ends
    /// (GraspIt's planner loops there: its issue #131).
    pub illegal_steps: u64,
    /// The search's best states closed and scored (best energy first, until enough distinct
    /// force-closure grasps were found).
    pub closed: usize,
    /// Of those, the distinct grasps left out because the arm carrying the hand cannot reach
    /// them ([`PlanSettings::only_reachable`]).
    pub unreachable: usize,
}

/// Progress a caller may watch — steps taken, the lowest energy found so far — and a flag to
/// stop early (what was found is kept).
#[derive(Debug, Default)]
pub struct PlanProgress {
    pub steps: AtomicU64,
    pub stop: AtomicBool,
    best: Mutex<Option<f64>>,
}

impl Plan {
    /// Why a plan found no grasp; `None` where it found one.
    pub fn why_empty(&self) -> Option<String> {
        if !self.grasps.is_empty() {
            return None;
        }
        Some(if self.closed == 0 {
            format!(
                "no legal state was found: in {} of {} steps every neighbour tried ({STUCK_RETRIES} times the annealing's attempts) put the hand in the object, an obstacle or itself",
                self.illegal_steps, self.steps
            )
        } else if self.unreachable > 0 {
            format!(
                "the arm carrying the hand reaches none of the {} grasps found (or only with the arm in something)",
                self.unreachable
            )
        } else {
            format!("none of the {} states closed made a grasp", self.closed)
        })
    }

    /// Ranks the grasps by the physics test (`World::test_grasp`, each on a copy of `world`
    /// with the grasp put in place, all in parallel): those that hold first, each group in
    /// the order it had. Returns each grasp's test, in the new order.
    pub fn rank_by_test(
        &mut self,
        world: &World,
        robot: RobotId,
        object: BodyId,
        settings: &HoldSettings,
    ) -> Result<Vec<HoldTest>, MoveError> {
        let trials: Vec<GraspTrial> = self.grasps.iter().map(|g| g.grasp.clone()).collect();
        let tests = world
            .test_grasps(robot, object, &trials, settings)
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let mut ranked: Vec<(PlannedGrasp, HoldTest)> = self.grasps.drain(..).zip(tests).collect();
        ranked.sort_by_key(|(_, test)| !test.held);
        let (grasps, tests) = ranked.into_iter().unzip();
        self.grasps = grasps;
        Ok(tests)
    }
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
struct Kept {
    state: Vec<f64>,
    energy: f64,
    /// Where the state puts the palm, kept to compare states without placing them again.
    palm: Pose,
}

impl<E: CollisionEngine + Clone> World<E> {
    /// Plans grasps of `object` with robot `robot` (which needs virtual contacts and is left
    /// where it is): `settings.searches` annealing searches from seeds `seed`, `seed + 1`, …,
    /// their best states auto-grasped and scored; the best `settings.grasps`, no two within
    /// GraspIt's state distance of 0.2. `progress` counts steps and may stop the run.
    pub fn plan(
        &self,
        robot: RobotId,
        object: BodyId,
        settings: &PlanSettings,
        progress: &PlanProgress,
    ) -> Result<Plan, MoveError> {
        let started = Instant::now();
        let hand = self.find_robot(robot)?;
        let closing = |domain: u32, palm: Pose, dofs: &[f64]| {
            self.close_in_domain(domain, robot, object, palm, dofs, 0.0)
        };
        let mut space = self.search_space(hand, robot, object, settings.energy)?;
        space.closing = Some(&closing);
        let count = settings.searches.max(1);
        let mut searches: Vec<(Vec<Kept>, Counts)> = (0..count)
            .into_par_iter()
            .map(|i| {
                let search = Search {
                    start: space.start(),
                    annealing: &settings.annealing,
                    steps: settings.steps,
                    seed: settings.seed + i as u64,
                    // Each search closes hands in a domain of its own.
                    domain: i as u32 + 1,
                    counted: true,
                };
                anneal_search(&space, hand, &search, progress)
            })
            .collect();
        if let Some(guided) = &settings.guided {
            let strict = |domain: u32, palm: Pose, dofs: &[f64]| {
                let energy =
                    self.close_in_domain(domain, robot, object, palm, dofs, CHILD_APPROACH);
                // GraspIt's strict auto-grasp energy: a grasp of no quality is no grasp.
                if energy == 0.0 { 1.0e8 } else { energy }
            };
            let child_space = space.child(&strict, CHILD_CONFIDENCE);
            let seeds = best_states(&searches, guided.children, &space);
            let strict_annealing = Annealing::strict();
            let children: Vec<(Vec<Kept>, Counts)> = seeds
                .into_par_iter()
                .enumerate()
                .map(|(c, seed)| {
                    let search = Search {
                        start: seed.state,
                        annealing: &strict_annealing,
                        steps: guided.child_steps,
                        seed: settings.seed + (count + c) as u64,
                        domain: (count + c) as u32 + 1,
                        counted: false,
                    };
                    anneal_search(&child_space, hand, &search, progress)
                })
                .collect();
            searches.extend(children);
        }
        let search_seconds = started.elapsed().as_secs_f64();
        // The searches' steps; a guided planner's children's are their own.
        let steps = searches[..count].iter().map(|s| s.1.steps).sum();
        let evaluations = searches.iter().map(|s| s.1.evaluations).sum();
        let illegal_steps = searches.iter().map(|s| s.1.illegal).sum();
        let mut kept: Vec<Kept> = Vec::new();
        for (found, _) in searches {
            for k in found {
                keep(&space, &mut kept, k, usize::MAX);
            }
        }
        kept.sort_by(|a, b| a.energy.total_cmp(&b.energy));
        // The kept states approached (at most `settings.approach` mm), closed and scored, each
        // on a clone in a domain of its own, best energy first, in batches of CLOSE_BATCH,
        // until `settings.grasps` distinct force-closure grasps are in hand (for a hand an arm
        // carries, all of them: which the arm reaches is known only after).
        let carried = settings.only_reachable && self.carrier(robot).is_some();
        let quality = BatchQuality {
            wrench_space: WrenchSpaceKind::L1,
            volume: true,
        };
        let mut grasps: Vec<PlannedGrasp> = Vec::with_capacity(kept.len());
        for batch in close_batches(&kept) {
            let candidates: Vec<GraspCandidate> = batch
                .iter()
                .map(|k| {
                    let (palm, dofs) = space.placement(hand, &k.state);
                    GraspCandidate {
                        palm,
                        dofs,
                        approach: settings.approach,
                    }
                })
                .collect();
            let closed = self.grasp_batch(robot, object, &candidates, quality)?;
            grasps.extend(
                batch
                    .iter()
                    .zip(candidates)
                    .zip(closed)
                    .map(|((k, start), closed)| PlannedGrasp {
                        energy: k.energy,
                        pregrasp: (start.palm, start.dofs),
                        grasp: closed.trial,
                    }),
            );
            if !carried && distinct_force_closures(&grasps, space.radius) >= settings.grasps {
                break;
            }
        }
        grasps.sort_by(|a, b| {
            b.force_closure()
                .cmp(&a.force_closure())
                .then(b.epsilon().total_cmp(&a.epsilon()))
                .then(a.energy.total_cmp(&b.energy))
        });
        let closed = grasps.len();
        let (mut distinct, mut unreachable) = (Vec::<PlannedGrasp>::new(), 0);
        for g in grasps {
            if distinct.len() >= settings.grasps
                || distinct.iter().any(|d| alike(d, &g, space.radius))
            {
                continue;
            }
            if settings.only_reachable && !self.arm_reaches(robot, &g.grasp) {
                unreachable += 1;
            } else {
                distinct.push(g);
            }
        }
        Ok(Plan {
            grasps: distinct,
            steps,
            evaluations,
            seconds: started.elapsed().as_secs_f64(),
            search_seconds,
            illegal_steps,
            closed,
            unreachable,
        })
    }
}

impl<E: CollisionEngine> World<E> {
    /// GraspIt's auto-grasp quality energy of robot `robot` closed from a palm pose and DOF
    /// values after an approach of at most `approach` mm (0: it closes where it is), on a
    /// clone in domain `number`; 0 where the trial cannot be made.
    fn close_in_domain(
        &self,
        number: u32,
        robot: RobotId,
        object: BodyId,
        palm: Pose,
        dofs: &[f64],
        approach: f64,
    ) -> f64 {
        let trial = || -> Result<GraspTrial, MoveError> {
            let mut domain = self.domain(number)?;
            let clone = domain.clone_robot(robot)?;
            let plan = TrialPlan {
                palm,
                open: dofs,
                approach,
                object,
                quality: Some(WrenchSpaceKind::L1),
                volume: true,
            };
            domain.grasp_trial(clone, &plan)
        };
        trial().map_or(0.0, |t| search::auto_grasp_energy(t.quality.as_ref()))
    }

    fn search_space<'w>(
        &'w self,
        hand: &Robot,
        robot: RobotId,
        object: BodyId,
        energy: Energy,
    ) -> Result<Space<'w>, MoveError> {
        let body = self.body(object).ok_or(MoveError::NoSuchBody(object))?;
        if hand.virtual_contacts_placed().is_empty() {
            return Err(MoveError::NoVirtualContacts(robot));
        }
        let eigen = hand.eigen_space()?;
        let zeros = vec![0.0; eigen.len()];
        let origin = eigen.dofs_for(&zeros, hand.dof_values())?;
        let limits: Vec<(f64, f64)> = (0..hand.dofs.len()).map(|d| hand.dof_limits(d)).collect();
        let (lo, hi) = body.mesh().bounding_box();
        let radius = (hi - lo).norm() / 2.0;
        Ok(Space {
            variables: Space::variables(hand, &eigen, &origin, radius),
            centre: body.pose() * nalgebra::center(&lo, &hi),
            radius,
            eigen,
            origin,
            limits,
            object: body,
            checks: self.hand_checks(robot, object),
            engine: &self.engine,
            energy,
            closing: None,
        })
    }

    /// The pairs the world's one rule checks between robot `robot`'s bodies and everything
    /// else, its own bodies included: switches, the robot's rules, groups and masks. Those
    /// with `object` come first, as most illegal states touch it.
    fn hand_checks(&self, robot: RobotId, object: BodyId) -> Vec<Check<'_>> {
        let of_hand = |part: &Part| {
            (part.id.robot() == Some(robot))
                .then(|| part.id.robot_body())
                .flatten()
        };
        let mut checks: Vec<Check> =
            layers::checked_pairs(&self.stage.switches, &Layer::empty(), &self.layer())
                .into_iter()
                .filter_map(|(a, b)| match (of_hand(&a), of_hand(&b)) {
                    (Some(x), Some(y)) => Some(Check {
                        part: x,
                        other: Against::Hand(y),
                    }),
                    (Some(x), None) => Some(Check {
                        part: x,
                        other: Against::World(b.id, b.body),
                    }),
                    (None, Some(y)) => Some(Check {
                        part: y,
                        other: Against::World(a.id, a.body),
                    }),
                    (None, None) => None,
                })
                .collect();
        checks.sort_by_key(|c| !matches!(c.other, Against::World(id, _) if id == object));
        checks
    }
}

/// What one search did.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    steps: u64,
    /// States evaluated.
    evaluations: u64,
    /// Steps with no legal neighbour.
    illegal: u64,
}

/// One annealing search: where it starts, its schedule and steps, its seed, the domain it
/// closes hands in (for the auto-grasp energies), and whether its steps count in the progress.
struct Search<'s> {
    start: Vec<f64>,
    annealing: &'s Annealing,
    steps: u64,
    seed: u64,
    domain: u32,
    counted: bool,
}

/// One annealing search: its best states, and what it did.
fn anneal_search(
    space: &Space,
    hand: &Robot,
    search: &Search,
    progress: &PlanProgress,
) -> (Vec<Kept>, Counts) {
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
            match space.evaluate(&mut hand, &next, below, &mut first_check, domain) {
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
    (best, counts)
}

/// The best `count` states the searches kept, distinct, best first: a guided planner's seeds.
fn best_states(searches: &[(Vec<Kept>, Counts)], count: usize, space: &Space) -> Vec<Kept> {
    let mut seeds: Vec<Kept> = Vec::new();
    for (found, _) in searches {
        for k in found {
            keep(space, &mut seeds, k.clone(), count);
        }
    }
    seeds
}

/// Adds a state to a best list: a state within `SAME_STATE` of one kept replaces it only if
/// lower; the list stays sorted by energy and at most `size` long.
fn keep(space: &Space, list: &mut Vec<Kept>, kept: Kept, size: usize) {
    if let Some(i) = list
        .iter()
        .position(|other| space.distance(&other.palm, &kept.palm) < SAME_STATE)
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

/// The kept states in the batches they are closed in ([`CLOSE_BATCH`]).
fn close_batches(kept: &[Kept]) -> impl Iterator<Item = &[Kept]> {
    let (first, most) = CLOSE_BATCH;
    let mut size = first;
    let mut rest = kept;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (batch, after) = rest.split_at(size.min(rest.len()));
        rest = after;
        size = (size * 2).min(most);
        Some(batch)
    })
}

/// How many of the grasps are force-closure, no two alike.
fn distinct_force_closures(grasps: &[PlannedGrasp], radius: f64) -> usize {
    let mut distinct: Vec<&PlannedGrasp> = Vec::new();
    for g in grasps.iter().filter(|g| g.force_closure()) {
        if !distinct.iter().any(|d| alike(d, g, radius)) {
            distinct.push(g);
        }
    }
    distinct.len()
}

/// Two closed grasps alike: palms within a tenth of the object's radius and 0.2 rad, DOFs
/// within 0.1.
fn alike(a: &PlannedGrasp, b: &PlannedGrasp, radius: f64) -> bool {
    let (pa, pb) = (a.grasp.palm, b.grasp.palm);
    let shift = (pa.translation.vector - pb.translation.vector).norm();
    let turn = pa.rotation.angle_to(&pb.rotation);
    let dofs = a.grasp.dof_values.iter().zip(&b.grasp.dof_values);
    let posture = dofs.map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    shift < 0.1 * radius && turn < 0.2 && posture < 0.1
}
