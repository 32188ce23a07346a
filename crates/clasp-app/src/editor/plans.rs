//! The grasp planner's state in the editor: the settings the planner window edits, the run in
//! progress on a worker thread, and the grasps found. What starts, finishes and shows a plan
//! is in `crate::planning`.

use std::sync::{Arc, atomic::Ordering};

use bevy::{
    prelude::*,
    tasks::{Task, block_on, poll_once},
};
use clasp_core::{GraspPlan, MoveError, PlanProgress, PlanSettings, PlannedGrasp, RobotId};

/// The planner's state: the settings the window edits, the run in progress, what was found.
#[derive(Resource, Default)]
pub struct Planning {
    pub settings: PlanSettings,
    job: Option<PlanJob>,
    /// The grasps of the last run, best first, and the robot they are for.
    pub found: Vec<PlannedGrasp>,
    pub robot: Option<RobotId>,
    /// The grasp last put in place, by its place in `found`.
    pub shown: Option<usize>,
    /// Wait for a run in the frame after it started: tests that replay a seed frame by frame
    /// need it to end on the same frame each run.
    pub wait: bool,
}

struct PlanJob {
    task: Task<Result<GraspPlan, MoveError>>,
    progress: Arc<PlanProgress>,
    robot: RobotId,
    /// When it started, on the app's clock, seconds.
    started: f64,
}

impl Planning {
    /// Ends the run early; the grasps found so far are closed and listed.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            job.progress.stop.store(true, Ordering::Relaxed);
        }
    }

    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Takes a run in progress: its task, its progress, the robot it plans for, and when it
    /// started on the app's clock.
    pub fn begin(
        &mut self,
        task: Task<Result<GraspPlan, MoveError>>,
        progress: Arc<PlanProgress>,
        robot: RobotId,
        now: f64,
    ) {
        self.job = Some(PlanJob {
            task,
            progress,
            robot,
            started: now,
        });
    }

    /// The run's answer and its robot once it has ended (waiting for it when `wait` is set),
    /// else None.
    pub fn take_finished(&mut self) -> Option<(RobotId, Result<GraspPlan, MoveError>)> {
        let job = self.job.as_mut()?;
        let result = match self.wait {
            true => Some(block_on(&mut job.task)),
            false => block_on(poll_once(&mut job.task)),
        }?;
        let robot = job.robot;
        self.job = None;
        Some((robot, result))
    }

    /// How far the run is (0 to 1), the lowest energy so far, and its seconds.
    pub fn progress(&self, now: f64) -> Option<(f32, Option<f64>, f64)> {
        let job = self.job.as_ref()?;
        let total = (self.settings.steps * self.settings.searches.max(1) as u64).max(1);
        let done = job.progress.steps.load(Ordering::Relaxed) as f32 / total as f32;
        Some((done.min(1.0), job.progress.best_energy(), now - job.started))
    }
}
