//! What a planning run found: its grasps, best first, what it did, why it found none or
//! fewer that hold than asked.

use super::{search::PlanEnergy, shares::StateShares, walk::STUCK_RETRIES};
use crate::{
    grasp::{hold::HoldTest, trial::GraspTrial},
    pose::Pose,
};

/// A planned grasp: where the hand ended after closing, and how good the grasp is.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedGrasp {
    /// The state's energy before closing; for a parallel gripper's grasp, which no search
    /// scores, the most its object moved in the physics test (mm).
    pub energy: f64,
    /// The pose and DOFs the search found, before closing.
    pub pregrasp: (Pose, Vec<f64>),
    /// After approaching and closing: the palm, DOFs, contacts and quality (L1, with volume).
    pub grasp: GraspTrial,
    /// Its physics test, where one was run: always for a parallel gripper's grasps, for the
    /// others with [`PlanSettings::test`](super::settings::PlanSettings::test).
    pub test: Option<HoldTest>,
    /// Whether it is the grasp another's squeeze settled into (`settle.rs`), not a search's
    /// closing: tried where that grasp's test failed with the object still in the hand.
    pub settled: bool,
}

impl PlannedGrasp {
    pub fn force_closure(&self) -> bool {
        self.grasp.force_closure()
    }

    /// Whether it held in its physics test; `None` where none was run.
    pub fn held(&self) -> Option<bool> {
        self.test.as_ref().map(|t| t.held)
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
pub struct GraspPlan {
    /// Best first: force-closure grasps by epsilon, then the others by energy.
    pub grasps: Vec<PlannedGrasp>,
    /// The energy each search scored its states by ([`PlanEnergy::Mixed`] chooses per search,
    /// and by the scene); a guided planner's children, which close the hand, are not listed.
    /// Empty for a parallel gripper's plan, which has no searches.
    pub search_energies: Vec<PlanEnergy>,
    /// Annealing steps taken, over all searches (not a guided planner's children).
    pub steps: u64,
    /// States evaluated (placed, checked for collision and scored), over all searches (a
    /// guided planner's children too): what GraspIt's `timeTest` counts.
    pub evaluations: u64,
    /// The whole run, and the annealing alone (before the best states are closed).
    pub seconds: f64,
    pub search_seconds: f64,
    /// Where the searches' time went, share by share of a state.
    pub shares: StateShares,
    /// Steps in which every neighbour tried was illegal (the hand in the object, an obstacle or
    /// itself): each counts as a step taken, so a search that cannot move still ends
    /// (GraspIt's planner loops there: its issue #131).
    pub illegal_steps: u64,
    /// The search's best states closed and scored (best energy first, until enough distinct
    /// force-closure grasps were found, or with a test, enough that held).
    pub closed: usize,
    /// Of those, the grasps put through the physics test ([`PlanSettings::test`]; a
    /// parallel gripper's, every one).
    ///
    /// [`PlanSettings::test`]: super::settings::PlanSettings::test
    pub tested: usize,
    /// Of the tested grasps that failed with the object still in the hand, how many were
    /// tried again where their squeeze settled them (and put through the test too).
    pub settled_tested: usize,
    /// How many of its first kept states a plan short of its grasps refined with child
    /// searches that close the hand, GraspIt's guided planner's way (0: it was not short, was
    /// asked for the guided planner itself, or searched by closing the hand already).
    pub refined: usize,
    /// Of those, the distinct grasps left out because the arm carrying the hand cannot reach
    /// them ([`PlanSettings::only_reachable`](crate::PlanSettings::only_reachable)).
    pub unreachable: usize,
}

impl GraspPlan {
    /// Why a plan found no grasp; `None` where it found one.
    pub fn why_empty(&self) -> Option<String> {
        if !self.grasps.is_empty() {
            return None;
        }
        Some(if self.closed == 0 && self.illegal_steps == 0 {
            "no candidate was drawn (for a parallel gripper: no antipodal pair on the object fits its jaws with a clear way in)".to_owned()
        } else if self.closed == 0 {
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

    /// How many of the grasps held in their physics test; `None` where none was tested.
    pub fn held(&self) -> Option<usize> {
        let tested: Vec<bool> = self.grasps.iter().filter_map(|g| g.held()).collect();
        (!tested.is_empty()).then(|| tested.iter().filter(|&&h| h).count())
    }

    /// Why a tested plan returned fewer than `asked` grasps that hold; `None` where it did
    /// not, or tested none.
    pub fn why_short_of_held(&self, asked: usize) -> Option<String> {
        let held = self.held()?;
        (held < asked).then(|| {
            format!(
                "{held} of the {asked} grasps asked for held: the plan's budget ran out after {} grasps closed, {} of them tested, and {} more tried where their squeeze settled them",
                self.closed, self.tested, self.settled_tested
            )
        })
    }
}
