//! A parallel gripper's plan. Two jaws are never force closure and have no eigengrasps to
//! anneal over, so the planner does what the field's gripper pipelines do (ACRONYM, GraspGen):
//! antipodal candidates on the object, each closed and put through the physics test, round
//! after round, until enough distinct grasps hold or the candidates allowed are spent.

use std::{sync::atomic::Ordering, time::Instant};

use clasp_collide::CollisionEngine;

use super::{
    plan::{GraspPlan, PlannedGrasp},
    settings::PlanSettings,
    shares::StateShares,
    walk::PlanProgress,
};
use crate::{
    grasp::{
        antipodal::antipodal_candidates,
        batch::{BatchQuality, GraspCandidate},
        hold_settings::HoldSettings,
        quality::WrenchSpaceKind,
        trial::GraspTrial,
    },
    ids::{BodyId, RobotId},
    robot::jaws::ParallelJaws,
    world::{World, error::MoveError},
};

/// Candidates drawn in each round, for each grasp asked for: the Panda holds GraspIt's mug
/// and glass in two of three, so one round of two each mostly ends the plan.
const CANDIDATES_PER_GRASP: usize = 2;

/// The most rounds before the plan returns what it has: an object that offers the jaws
/// little (GraspIt's flask, held by its neck alone) is not sampled for ever.
const ROUNDS: u64 = 10;

/// One round's seed apart from the next (an odd constant, so rounds never repeat a seed).
const ROUND_SEED_STRIDE: u64 = 0x9E37_79B9_7F4A_7C15;

impl<E: CollisionEngine + Clone> World<E> {
    /// Plans grasps of `object` with the parallel gripper `robot` (its jaws: `jaws`): rounds of
    /// antipodal candidates ([`antipodal_candidates`]) from `settings.seed`, each closed and
    /// tested by the plan's physics test (`settings.test`; Clasp's own, [`HoldSettings::default`],
    /// where none is given), until `settings.grasps`
    /// distinct grasps hold or [`ROUNDS`] rounds are spent. Each grasp's energy is the most
    /// its object moved in the test (mm): the held ones first, then the rest, least moved
    /// first. `progress` counts candidates tried and may stop the run between rounds.
    pub(super) fn plan_jaws(
        &self,
        robot: RobotId,
        object: BodyId,
        jaws: &ParallelJaws,
        settings: &PlanSettings,
        progress: &PlanProgress,
    ) -> Result<GraspPlan, MoveError> {
        let started = Instant::now();
        let hand = self.find_robot(robot)?;
        let test = settings.test.unwrap_or_default();
        let quality = BatchQuality {
            wrench_space: WrenchSpaceKind::L1,
            volume: false,
        };
        let radius = self.object_radius(object)?;
        let per_round = (settings.grasps * CANDIDATES_PER_GRASP).max(1);
        let (mut grasps, mut drawn) = (Vec::<PlannedGrasp>::new(), 0u64);
        for round in 0..ROUNDS {
            let seed = settings
                .seed
                .wrapping_add(round.wrapping_mul(ROUND_SEED_STRIDE));
            let candidates = antipodal_candidates(self, hand, jaws, object, per_round, seed)?;
            drawn += candidates.len() as u64;
            progress
                .steps
                .fetch_add(candidates.len() as u64, Ordering::Relaxed);
            grasps.extend(self.close_and_test(robot, object, &candidates, quality, &test)?);
            let held = grasps.iter().filter(|g| g.held() == Some(true));
            let enough = super::distinct(held, radius) >= settings.grasps;
            // An object with no pair the jaws take gives none in any round.
            if enough || candidates.is_empty() || progress.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        let search_seconds = started.elapsed().as_secs_f64();
        let closed = grasps.len();
        let reach = super::Reach::new(self, robot, settings);
        let (grasps, unreachable) = self.best_distinct(robot, grasps, reach, settings, radius);
        Ok(GraspPlan {
            grasps,
            search_energies: Vec::new(),
            steps: drawn,
            evaluations: closed as u64,
            seconds: started.elapsed().as_secs_f64(),
            search_seconds,
            // No annealing states: the jaws' candidates are drawn, then closed and tested.
            shares: StateShares::default(),
            illegal_steps: 0,
            closed,
            tested: closed,
            settled_tested: 0,
            refined: 0,
            unreachable,
        })
    }

    /// Each candidate closed (as a batch closes it), then tested ([`World::test_grasps`]).
    fn close_and_test(
        &self,
        robot: RobotId,
        object: BodyId,
        candidates: &[GraspCandidate],
        quality: BatchQuality,
        test: &HoldSettings,
    ) -> Result<Vec<PlannedGrasp>, MoveError> {
        let closed = self.grasp_batch(robot, object, candidates, quality)?;
        let trials: Vec<GraspTrial> = closed.into_iter().map(|c| c.trial).collect();
        let tests = self.test_grasps(robot, object, &trials, test);
        trials
            .into_iter()
            .zip(tests)
            .zip(candidates)
            .map(|((grasp, tested), start)| {
                let tested = tested?;
                Ok(PlannedGrasp {
                    energy: tested.most_moved(),
                    pregrasp: (start.palm, start.dofs.clone()),
                    grasp,
                    test: Some(tested),
                    settled: false,
                })
            })
            .collect()
    }
}
