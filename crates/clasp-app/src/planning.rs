//! Grasp → Plan: GraspIt's EigenGrasp planner from the app. The plan runs on a worker thread
//! on a copy of the world, so the window keeps drawing; the planner window shows its progress
//! and the lowest energy found so far, Stop ends it keeping what was found, and the grasps found
//! are listed for the user to step through: choosing one puts the hand there, one undo step.

use std::sync::{Arc, atomic::Ordering};

use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, block_on, poll_once},
};
use clasp_core::{MoveError, Plan, PlanProgress, PlanSettings, PlannedGrasp};

use crate::{editor::Editor, systems::ClaspSystems};

/// The planner's state: the settings the window edits, the run in progress, what was found.
#[derive(Resource, Default)]
pub struct Planning {
    pub settings: PlanSettings,
    job: Option<PlanJob>,
    /// The grasps of the last run, best first, and the robot they are for.
    pub found: Vec<PlannedGrasp>,
    pub robot: Option<usize>,
    /// The grasp last put in place, by its place in `found`.
    pub shown: Option<usize>,
    /// Wait for a run in the frame after it started: tests that replay a seed frame by frame
    /// need it to end on the same frame each run.
    pub wait: bool,
}

struct PlanJob {
    task: Task<Result<Plan, MoveError>>,
    progress: Arc<PlanProgress>,
    robot: usize,
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

    /// How far the run is (0 to 1), the lowest energy so far, and its seconds.
    pub fn progress(&self, now: f64) -> Option<(f32, Option<f64>, f64)> {
        let job = self.job.as_ref()?;
        let total = (self.settings.steps * self.settings.searches.max(1) as u64).max(1);
        let done = job.progress.steps.load(Ordering::Relaxed) as f32 / total as f32;
        Some((done.min(1.0), job.progress.best_energy(), now - job.started))
    }
}

impl Editor<'_> {
    /// Starts planning on a copy of the world: its current hand on its grasped object.
    pub fn start_plan(&mut self, now: f64) {
        let world = &self.doc.world;
        let (Some(robot), Some(object)) = (world.current_hand(), world.grasped_object()) else {
            self.error("planning needs a hand and a graspable object");
            return;
        };
        if self.planning.running() {
            return;
        }
        let world = world.clone();
        let settings = self.planning.settings;
        let progress = Arc::new(PlanProgress::default());
        let watched = progress.clone();
        let task = AsyncComputeTaskPool::get()
            .spawn(async move { world.plan(robot, object, &settings, &watched) });
        self.planning.job = Some(PlanJob {
            task,
            progress,
            robot,
            started: now,
        });
        self.info("planning grasps…");
    }

    /// Puts the hand where found grasp `k` left it (one undo step).
    pub fn show_planned(&mut self, k: usize) {
        let (Some(robot), Some(grasp)) = (self.planning.robot, self.planning.found.get(k)) else {
            return;
        };
        let grasp = grasp.grasp.clone();
        self.put_planned(robot, &grasp);
        self.planning.shown = Some(k);
    }

    /// Steps through the grasps found: the next (`forward`) or the previous one, wrapping.
    pub fn step_planned(&mut self, forward: bool) {
        let count = self.planning.found.len();
        if count == 0 {
            self.error("no planned grasps: plan first (Grasp → Plan…)");
            return;
        }
        let next = match (self.planning.shown, forward) {
            (None, _) => 0,
            (Some(k), true) => (k + 1) % count,
            (Some(k), false) => (k + count - 1) % count,
        };
        self.show_planned(next);
    }
}

/// Takes a finished run's grasps.
fn finish_plans(mut editor: Editor) {
    if !editor.planning.running() {
        return;
    }
    let planning = &mut editor.planning;
    let wait = planning.wait;
    let Some(job) = planning.job.as_mut() else {
        return;
    };
    let result = match wait {
        true => Some(block_on(&mut job.task)),
        false => block_on(poll_once(&mut job.task)),
    };
    let Some(result) = result else {
        return;
    };
    let robot = job.robot;
    planning.job = None;
    match result {
        Ok(plan) => {
            let closures = plan.grasps.iter().filter(|g| g.force_closure()).count();
            let planning = &mut editor.planning;
            planning.found = plan.grasps;
            planning.robot = Some(robot);
            planning.shown = None;
            let found = planning.found.len();
            editor.info(format!(
                "planned {found} grasps ({closures} force-closure) in {:.1} s, {} steps",
                plan.seconds, plan.steps
            ));
        }
        Err(e) => editor.error(format!("planning failed: {e}")),
    }
}

pub struct PlanningPlugin;

impl Plugin for PlanningPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Planning>()
            .add_systems(Update, finish_plans.in_set(ClaspSystems::Requests));
    }
}
