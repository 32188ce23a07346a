//! What a planning run is asked to do: its searches and their schedule, the energy they
//! minimise, how many grasps it returns, and the guided planner's child searches.

use super::{anneal::Annealing, search::PlanEnergy};
use crate::grasp::hold_settings::HoldSettings;

/// What a planning run does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanSettings {
    /// Annealing steps of each search, each counted from GraspIt's step 30,000. By default
    /// four searches of 10,000: 40,000 in all, GraspIt's default run's budget (it counts its
    /// steps from 30,000 to 70,000). Four of 17,500 (70,000) found no more grasps as a rule on
    /// GraspIt's objects alone or on its table (one more in three cells, fewer in one), and
    /// on an arm took 14–17 s where these take 7–9 (docs/benchmarks.md).
    pub steps: u64,
    /// How many grasps to return. The kept states are closed best energy first until this
    /// many distinct force-closure grasps are found (with [`test`](Self::test): this many
    /// held), so a plan asking for fewer answers sooner.
    pub grasps: usize,
    pub energy: PlanEnergy,
    pub seed: u64,
    /// Independent searches, run in parallel on rayon's threads.
    pub searches: usize,
    /// How far each of a search's best states may approach before it closes (mm; GraspIt's
    /// guided planner: 30).
    pub approach: f64,
    /// For a hand an arm carries: keep only the grasps its arm reaches, arm and hand in
    /// nothing there ([`World::arm_reaches`](crate::world::World::arm_reaches)). No effect on a hand nothing carries.
    pub only_reachable: bool,
    /// The annealing's schedule (GraspIt's by default).
    pub annealing: Annealing,
    /// Read the virtual contacts' distances to the object from a grid of its closest points
    /// (within a millimetre; near the surface, and on objects of few triangles, asked exactly)
    /// instead of asking the collision engine state by state, GraspIt's way: 18–25 % more
    /// states a second on GraspIt's curved objects. Off by default: the searches then follow
    /// other paths, and on the Allegro's plans with the physics test fewer grasps held (glass
    /// 1 of 10 where exact gives 9; mug 3 against 6). Collisions and closing are exact either
    /// way.
    pub distance_grid: bool,
    /// GraspIt's guided planner: child searches from the best states found (none by default).
    pub guided: Option<GuidedPlanning>,
    /// The physics test each grasp closed is put through (a parallel gripper's always are, by
    /// Clasp's own test where none is given): the plan then closes states until it has
    /// [`grasps`](Self::grasps) distinct grasps that hold, or none are left, and returns
    /// those that hold first. `None`: force closure alone judges a grasp.
    pub test: Option<HoldSettings>,
}

/// GraspIt's guided planner, after the searches: each of the best `children` states found
/// (distinct, best first; GraspIt queues 20) seeds a child search of `child_steps` steps
/// (GraspIt: 200) on GraspIt's strict annealing schedule, with its neighbours drawn near the
/// seed (confidences 0.65 for the palm, 0.5 for the posture, read as jumps that much
/// shorter) and scored by GraspIt's strict auto-grasp energy: the hand approaches up to 30 mm
/// and closes, −(30 × volume + 100 × epsilon), 10⁸ for a grasp of no quality. What the
/// children keep is closed and scored with the rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuidedPlanning {
    pub children: usize,
    pub child_steps: u64,
}

impl Default for GuidedPlanning {
    fn default() -> Self {
        Self {
            children: 20,
            child_steps: 200,
        }
    }
}

impl Default for PlanSettings {
    fn default() -> Self {
        Self {
            steps: 10_000,
            grasps: 10,
            energy: PlanEnergy::Mixed,
            seed: 0,
            searches: 4,
            approach: 30.0,
            only_reachable: true,
            annealing: Annealing::default(),
            distance_grid: false,
            guided: None,
            test: None,
        }
    }
}
