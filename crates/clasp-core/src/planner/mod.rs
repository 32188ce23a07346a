//! The grasp planner, after GraspIt's EigenGrasp planner (`SimAnnPlanner`, Ciocarlie and Allen
//! 2009): simulated annealing over the hand's pose round the object and its eigengrasp
//! amplitudes, scored by how close its virtual contacts come to the object (or by the quality
//! they would make); several independent searches in parallel, each on its own copy of the
//! hand; the best states of each auto-grasped in a domain of their own and scored; the best
//! grasps kept, no two alike. Seeded: the same seed gives the same grasps, on any number of
//! threads.

pub(crate) mod anneal;
mod distance_grid;
mod jaws;
pub(crate) mod plan;
pub(crate) mod search;
pub(crate) mod settings;
mod settle;
pub(crate) mod shares;
pub(crate) mod walk;

use std::{sync::Arc, time::Instant};

use clasp_collide::{CollisionEngine, Gap, Placed};
use rayon::prelude::*;

use crate::{
    body::Body,
    contact::filter::Part,
    grasp::{
        batch::{BatchQuality, GraspCandidate},
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
use anneal::Annealing;
use distance_grid::DistanceGrid;
use plan::{GraspPlan, PlannedGrasp};
use search::{Against, Check, PlanEnergy, Space};
use settings::{GuidedPlanning, PlanSettings};
use shares::StateShares;
use walk::{Counts, Kept, PlanProgress, Search, anneal_search, best_states, keep};

/// How far a child's strict energy lets the hand approach before closing (GraspIt's 30 mm).
const CHILD_APPROACH: f64 = 30.0;

/// A child's confidence in its seed: palm, posture.
const CHILD_CONFIDENCE: [f64; 2] = [0.65, 0.5];

/// How many of the kept states are closed at a time (in parallel), best energy first: few at
/// first, so that a plan asking for one grasp answers soon, then twice as many each batch up to
/// the most, so that many threads have work. Never the thread count: one thread and many give
/// the same grasps.
const CLOSE_BATCH: (usize, usize) = (4, 64);

/// How many of its first kept states a plan short of its grasps refines with child searches
/// that close the hand: on GraspIt's flask standing on its table, 5 took the Barrett's plan
/// from 3 force-closure grasps of 10 to 10 (docs/benchmarks.md).
const REFINED_STATES: usize = 5;

/// How many times a failed grasp is tried again where its squeeze settled it, each try from
/// the last one's squeeze.
const SETTLE_ROUNDS: usize = 3;

impl<E: CollisionEngine + Clone> World<E> {
    /// Plans grasps of `object` with robot `robot` (which needs virtual contacts and is left
    /// where it is): `settings.searches` annealing searches from seeds `seed`, `seed + 1`, …,
    /// their best states auto-grasped and scored; the best `settings.grasps`, no two within
    /// GraspIt's state distance of 0.2. `progress` counts steps and may stop the run. A
    /// parallel gripper plans as the field's gripper pipelines do instead (`plan_jaws`).
    pub fn plan(
        &self,
        robot: RobotId,
        object: BodyId,
        settings: &PlanSettings,
        progress: &PlanProgress,
    ) -> Result<GraspPlan, MoveError> {
        let started = Instant::now();
        let hand = self.find_robot(robot)?;
        if let Some(jaws) = hand.parallel_jaws() {
            return self.plan_jaws(robot, object, &jaws, settings, progress);
        }
        let closing = |domain: u32, palm: Pose, dofs: &[f64]| {
            self.close_in_domain(domain, robot, object, palm, dofs, 0.0)
        };
        let mut space = self.search_space(hand, robot, object, settings)?;
        space.closing = Some(&closing);
        let count = settings.searches.max(1);
        let crowded = crowded(&space, hand, object);
        let search_energies: Vec<PlanEnergy> = (0..count)
            .map(|i| settings.energy.of_search(i, crowded))
            .collect();
        let mut searches: Vec<(Vec<Kept>, Counts)> = (0..count)
            .into_par_iter()
            .map(|i| {
                let mut space = space.clone();
                space.energy = search_energies[i];
                let space = &space;
                let search = Search {
                    start: space.start(),
                    annealing: &settings.annealing,
                    steps: settings.steps,
                    seed: settings.seed + i as u64,
                    // Each search closes hands in a domain of its own.
                    domain: i as u32 + 1,
                    counted: true,
                };
                anneal_search(space, hand, &search, progress)
            })
            .collect();
        let planner = Planner {
            robot,
            object,
            hand,
            space: &space,
            settings,
            progress,
        };
        if let Some(guided) = &settings.guided {
            let seeds = best_states(&searches, guided.children, &space);
            searches.extend(self.children(&planner, seeds, guided.child_steps, count));
        }
        let search_seconds = started.elapsed().as_secs_f64();
        // The searches' steps; a guided planner's children's are their own.
        let steps = searches[..count].iter().map(|s| s.1.steps).sum();
        let mut evaluations: u64 = searches.iter().map(|s| s.1.evaluations).sum();
        let illegal_steps = searches.iter().map(|s| s.1.illegal).sum();
        let mut shares = StateShares::default();
        searches.iter().for_each(|s| shares.add(&s.1.shares));
        let kept = match settings.energy {
            PlanEnergy::Mixed => by_rank(&space, searches),
            _ => by_energy(&space, searches),
        };
        let mut closings = Closings {
            grasps: Vec::with_capacity(kept.len()),
            reach: Reach::new(self, robot, settings),
            tested: 0,
            settled_tested: 0,
        };
        let enough = self.close_states(&planner, &kept, &mut closings)?;
        // A plan short of its grasps once every kept state is closed refines the first of them
        // as GraspIt's guided planner does (a few child searches scored by closing the hand),
        // and closes what those keep: where the virtual contacts' energies lead the searches
        // to states that close badly (a flask standing on a table: its cone-shaped side), the
        // closing itself finds the grasps nearby.
        let mut refined = 0;
        let stopped = progress.stop.load(std::sync::atomic::Ordering::Relaxed);
        // (A guided plan has refined its states already, and an auto-grasp search scores by
        // closing the hand itself.)
        let refines = settings.guided.is_none() && settings.energy != PlanEnergy::AutoGrasp;
        if !enough && refines && !stopped {
            let seeds: Vec<Kept> = kept.iter().take(REFINED_STATES).cloned().collect();
            refined = seeds.len();
            let children = self.children(
                &planner,
                seeds,
                GuidedPlanning::default().child_steps,
                count,
            );
            children.iter().for_each(|c| shares.add(&c.1.shares));
            evaluations += children.iter().map(|c| c.1.evaluations).sum::<u64>();
            self.close_states(&planner, &by_energy(&space, children), &mut closings)?;
        }
        let closed = closings.grasps.iter().filter(|g| !g.settled).count();
        let (grasps, unreachable) = self.best_distinct(
            robot,
            closings.grasps,
            closings.reach,
            settings,
            space.radius,
        );
        Ok(GraspPlan {
            grasps,
            search_energies,
            steps,
            evaluations,
            seconds: started.elapsed().as_secs_f64(),
            search_seconds,
            shares,
            illegal_steps,
            closed,
            tested: closings.tested,
            settled_tested: closings.settled_tested,
            refined,
            unreachable,
        })
    }

    /// GraspIt's guided planner's children: a child search of `steps` steps on the strict
    /// schedule from each seed, scored by closing the hand (GraspIt's strict auto-grasp
    /// energy), its neighbours drawn near the seed. `after`: how many searches came before,
    /// for the children's seeds and domains.
    fn children(
        &self,
        planner: &Planner,
        seeds: Vec<Kept>,
        steps: u64,
        after: usize,
    ) -> Vec<(Vec<Kept>, Counts)> {
        let (robot, object) = (planner.robot, planner.object);
        let strict = |domain: u32, palm: Pose, dofs: &[f64]| {
            let energy = self.close_in_domain(domain, robot, object, palm, dofs, CHILD_APPROACH);
            // GraspIt's strict auto-grasp energy: a grasp of no quality is no grasp.
            if energy == 0.0 { 1.0e8 } else { energy }
        };
        let child_space = planner.space.child(&strict, CHILD_CONFIDENCE);
        let strict_annealing = Annealing::strict();
        seeds
            .into_par_iter()
            .enumerate()
            .map(|(c, seed)| {
                let search = Search {
                    start: seed.state,
                    annealing: &strict_annealing,
                    steps,
                    seed: planner.settings.seed + (after + c) as u64,
                    domain: (after + c) as u32 + 1,
                    counted: false,
                };
                anneal_search(&child_space, planner.hand, &search, planner.progress)
            })
            .collect()
    }

    /// Closes kept states into `closings` (approached at most `settings.approach` mm, closed
    /// and scored, each on a clone in a domain of its own, best first, in batches of
    /// CLOSE_BATCH) until `settings.grasps` distinct force-closure grasps are in hand, or with
    /// a test, that many distinct grasps that hold (for a hand an arm carries, grasps its arm
    /// reaches: asked once a grasp could count, and kept in `reach`). Returns whether enough
    /// are.
    fn close_states(
        &self,
        planner: &Planner,
        kept: &[Kept],
        closings: &mut Closings,
    ) -> Result<bool, MoveError> {
        let Planner {
            robot,
            object,
            hand,
            space,
            settings,
            ..
        } = *planner;
        let quality = BatchQuality {
            wrench_space: WrenchSpaceKind::L1,
            volume: true,
        };
        let Closings {
            grasps,
            reach,
            tested,
            settled_tested,
        } = closings;
        for batch in close_batches(kept) {
            let candidates: Vec<GraspCandidate> = batch
                .iter()
                .map(|k| {
                    let (palm, dofs) = space.placement(hand, &k.state);
                    GraspCandidate {
                        palm,
                        dofs,
                        approach: settings.approach,
                        through: false,
                    }
                })
                .collect();
            let closed = self.grasp_batch(robot, object, &candidates, quality)?;
            let first = grasps.len();
            grasps.extend(
                batch
                    .iter()
                    .zip(candidates)
                    .zip(closed)
                    .map(|((k, start), closed)| PlannedGrasp {
                        energy: k.energy,
                        pregrasp: (start.palm, start.dofs),
                        grasp: closed.trial,
                        test: None,
                        settled: false,
                    }),
            );
            if let Some(test) = &settings.test {
                *tested += self.test_planned(planner, test, grasps, first, reach);
                // Failed grasps tried where their squeezes settled them, round after round,
                // until enough hold.
                let mut from = first;
                for _ in 0..SETTLE_ROUNDS {
                    if self.enough(robot, grasps, reach, settings, space.radius) {
                        break;
                    }
                    let start = grasps.len();
                    *settled_tested += self.test_settled(planner, test, grasps, from, reach);
                    from = start;
                }
            }
            if self.enough(robot, grasps, reach, settings, space.radius) {
                return Ok(true);
            }
        }
        Ok(self.enough(robot, grasps, reach, settings, space.radius))
    }

    /// Puts each of `grasps` from `first` on that touches the object through the plan's
    /// physics test, in parallel (for a hand an arm carries, only those its arm reaches: a
    /// grasp it cannot reach is never returned). A grasp whose test cannot be run stays
    /// untested. Returns how many were tested.
    fn test_planned(
        &self,
        planner: &Planner,
        test: &HoldSettings,
        grasps: &mut [PlannedGrasp],
        first: usize,
        reach: &mut Reach,
    ) -> usize {
        let worth: Vec<usize> = (first..grasps.len())
            .filter(|&k| {
                !grasps[k].grasp.contacts.is_empty()
                    && reach.reaches(self, planner.robot, grasps, k)
            })
            .collect();
        let trials: Vec<GraspTrial> = worth.iter().map(|&k| grasps[k].grasp.clone()).collect();
        let tests = self.test_grasps(planner.robot, planner.object, &trials, test);
        for (&k, tested) in worth.iter().zip(tests) {
            grasps[k].test = tested.ok();
        }
        worth.len()
    }

    /// Each grasp from `first` on whose test failed with the object still in the hand, tried
    /// again where its squeeze settled it (`settle.rs`): added to `grasps` and tested.
    /// Returns how many were tested.
    fn test_settled(
        &self,
        planner: &Planner,
        test: &HoldSettings,
        grasps: &mut Vec<PlannedGrasp>,
        first: usize,
        reach: &mut Reach,
    ) -> usize {
        let settled: Vec<PlannedGrasp> = grasps[first..]
            .par_iter()
            .filter_map(|g| {
                let failed = g.test.as_ref().filter(|t| !t.held)?;
                let grasp = self.settled_grasp(planner.robot, planner.object, &g.grasp, failed)?;
                Some(PlannedGrasp {
                    energy: g.energy,
                    pregrasp: g.pregrasp.clone(),
                    grasp,
                    test: None,
                    settled: true,
                })
            })
            .collect();
        let start = grasps.len();
        grasps.extend(settled);
        self.test_planned(planner, test, grasps, start, reach)
    }
}

/// What a plan's searches and closings share: the robot and object, the hand as the searches
/// place it, the search space, the settings, and the progress a caller watches.
#[derive(Clone, Copy)]
struct Planner<'p> {
    robot: RobotId,
    object: BodyId,
    hand: &'p Robot,
    space: &'p Space<'p>,
    settings: &'p PlanSettings,
    progress: &'p PlanProgress,
}

/// The grasps closed so far, and what closing them asked.
struct Closings {
    grasps: Vec<PlannedGrasp>,
    reach: Reach,
    tested: usize,
    settled_tested: usize,
}

/// The states the searches kept, distinct, lowest energy first.
fn by_energy(space: &Space, searches: Vec<(Vec<Kept>, Counts)>) -> Vec<Kept> {
    let mut kept: Vec<Kept> = Vec::new();
    for (found, _) in searches {
        for k in found {
            keep(space, &mut kept, k, usize::MAX);
        }
    }
    kept.sort_by(|a, b| a.energy.total_cmp(&b.energy));
    kept
}

/// The states searches of different energies kept, distinct, taken in turn from each search
/// by its own ranking (each search's best, then each one's second, …): energies of two kinds
/// have no common scale.
fn by_rank(space: &Space, searches: Vec<(Vec<Kept>, Counts)>) -> Vec<Kept> {
    let mut lists: Vec<std::vec::IntoIter<Kept>> = searches
        .into_iter()
        .map(|(found, _)| found.into_iter())
        .collect();
    let mut kept: Vec<Kept> = Vec::new();
    loop {
        let round: Vec<Kept> = lists.iter_mut().filter_map(Iterator::next).collect();
        if round.is_empty() {
            return kept;
        }
        for k in round {
            if !kept.iter().any(|o| space.same_state(&o.palm, &k.palm)) {
                kept.push(k);
            }
        }
    }
}

impl<E: CollisionEngine + Clone> World<E> {
    /// Whether the grasps closed so far end the closing: `settings.grasps` distinct ones that
    /// held their test (with one), or that are force closure (without); for a hand an arm
    /// carries, ones its arm reaches.
    fn enough(
        &self,
        robot: RobotId,
        grasps: &[PlannedGrasp],
        reach: &mut Reach,
        settings: &PlanSettings,
        radius: f64,
    ) -> bool {
        let wanted = |g: &PlannedGrasp| match settings.test {
            Some(_) => g.held() == Some(true),
            None => g.force_closure(),
        };
        let mut distinct: Vec<&PlannedGrasp> = Vec::new();
        for (k, g) in grasps.iter().enumerate() {
            if wanted(g)
                && !distinct.iter().any(|d| alike(d, g, radius))
                && reach.reaches(self, robot, grasps, k)
            {
                distinct.push(g);
            }
        }
        distinct.len() >= settings.grasps
    }

    /// The best `settings.grasps` of `grasps`, no two alike: those that held in a physics
    /// test first, then force closure by epsilon, then by energy; for a hand an arm carries
    /// (with [`PlanSettings::only_reachable`]) only those its arm reaches, with how many it
    /// does not.
    fn best_distinct(
        &self,
        robot: RobotId,
        grasps: Vec<PlannedGrasp>,
        mut reach: Reach,
        settings: &PlanSettings,
        radius: f64,
    ) -> (Vec<PlannedGrasp>, usize) {
        let mut order: Vec<usize> = (0..grasps.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&grasps[a], &grasps[b]);
            (b.held() == Some(true))
                .cmp(&(a.held() == Some(true)))
                .then(b.force_closure().cmp(&a.force_closure()))
                .then(b.epsilon().total_cmp(&a.epsilon()))
                .then(a.energy.total_cmp(&b.energy))
        });
        let (mut best, mut unreachable) = (Vec::<&PlannedGrasp>::new(), 0);
        for k in order {
            let g = &grasps[k];
            if best.len() >= settings.grasps || best.iter().any(|d| alike(d, g, radius)) {
                continue;
            }
            if !reach.reaches(self, robot, &grasps, k) {
                unreachable += 1;
            } else {
                best.push(g);
            }
        }
        (best.into_iter().cloned().collect(), unreachable)
    }

    /// Half the diagonal of the object's bounding box: the scale of the planner's moves and
    /// of two grasps being alike.
    fn object_radius(&self, object: BodyId) -> Result<f64, MoveError> {
        let body = self.body(object).ok_or(MoveError::NoSuchBody(object))?;
        let (lo, hi) = body.mesh().bounding_box();
        Ok((hi - lo).norm() / 2.0)
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
                through: false,
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
        settings: &PlanSettings,
    ) -> Result<Space<'w>, MoveError> {
        let energy = settings.energy;
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
            grid: (settings.distance_grid && DistanceGrid::pays_for(body.geometry()))
                .then(|| Arc::new(DistanceGrid::new(body.geometry()))),
            reach: settings
                .only_reachable
                .then(|| self.reach_ball(robot))
                .flatten(),
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

/// Whether something the hand must not touch (a table, an arm, another body) lies within the
/// hand's length ([`Robot::reach`]) of the object: [`PlanEnergy::Mixed`]'s searches then all
/// take the energy that sees opposition.
fn crowded(space: &Space, hand: &Robot, object: BodyId) -> bool {
    let length = hand.reach();
    let mut near = space.checks.iter().filter_map(|check| match check.other {
        Against::World(id, body) if id != object => Some((id, body)),
        _ => None,
    });
    let mut asked: Vec<BodyId> = Vec::new();
    near.any(|(id, body)| {
        if asked.contains(&id) {
            return false;
        }
        asked.push(id);
        let gap =
            space
                .engine
                .distance_below(placed(space.object), placed(body), length, None, 0.0);
        // Bodies already in each other are as near as can be.
        !matches!(gap, Ok(Gap::AtLeast(_)))
    })
}

fn placed(body: &Body) -> Placed<'_> {
    Placed::new(body.geometry(), body.pose())
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

/// Whether the arm carrying the planning hand reaches each closed grasp, asked once a grasp
/// could count ([`World::arm_reaches`]: a world cloned and the arm's pose solved for), then
/// kept. A hand nothing carries, or a plan that keeps grasps out of reach, reaches all.
struct Reach {
    carried: bool,
    known: Vec<Option<bool>>,
}

impl Reach {
    /// For a plan of `settings` by robot `robot`: carried where its arm's reach is to count.
    fn new<E: CollisionEngine>(world: &World<E>, robot: RobotId, settings: &PlanSettings) -> Self {
        Reach {
            carried: settings.only_reachable && world.carrier(robot).is_some(),
            known: Vec::new(),
        }
    }

    fn reaches<E: CollisionEngine + Clone>(
        &mut self,
        world: &World<E>,
        robot: RobotId,
        grasps: &[PlannedGrasp],
        k: usize,
    ) -> bool {
        if !self.carried {
            return true;
        }
        if self.known.len() < grasps.len() {
            self.known.resize(grasps.len(), None);
        }
        *self.known[k].get_or_insert_with(|| world.arm_reaches(robot, &grasps[k].grasp))
    }
}

/// How many of the grasps are not alike.
fn distinct<'g>(grasps: impl Iterator<Item = &'g PlannedGrasp>, radius: f64) -> usize {
    let mut distinct: Vec<&PlannedGrasp> = Vec::new();
    for g in grasps {
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
