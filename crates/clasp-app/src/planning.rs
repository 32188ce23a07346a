//! Grasp → Plan: GraspIt's EigenGrasp planner from the app. The plan runs on a worker thread
//! on a copy of the world, so the window keeps drawing; the planner window shows its progress
//! and the lowest energy found so far, Stop ends it keeping what was found, and the grasps found
//! are listed for the user to step through: choosing one puts the hand there, one undo step.

use std::sync::Arc;

use bevy::{prelude::*, tasks::AsyncComputeTaskPool};
use clasp_core::{PlanEnergy, PlanProgress};

pub use crate::editor::plans::Planning;
use crate::{editor::requests::Editor, systems::ClaspSystems};

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
        self.planning.begin(task, progress, robot, now);
        self.info("planning grasps…");
    }

    /// Puts the hand where found grasp `k` left it (one undo step).
    pub fn show_planned(&mut self, k: usize) {
        let (Some(robot), Some(grasp)) = (self.planning.robot, self.planning.found.get(k)) else {
            return;
        };
        let (test, grasp) = (grasp.test.clone(), grasp.grasp.clone());
        self.end_grasp_playback();
        self.put_planned(robot, &grasp);
        self.planning.shown = Some(k);
        // A grasp the plan tested plays its test back on the timeline, as Grasp → Test Grasp
        // does, the Grasp test window listing it.
        if let (Some(test), Some(object)) = (test, self.doc.world.grasped_object()) {
            self.grasp_test.result = Some(test);
            self.grasp_test.subject = Some((robot, object));
            self.play_grasp_test();
        }
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
    let Some((robot, result)) = editor.planning.take_finished() else {
        return;
    };
    match result {
        Ok(plan) => {
            if let Some(why) = plan.why_empty() {
                editor.error(format!("the planner found no grasp: {why}"));
            }
            let asked = editor.planning.settings.grasps;
            if let Some(why) = plan.why_short_of_held(asked) {
                editor.info(why);
            }
            let held = plan.held().map_or(String::new(), |n| format!(", {n} held"));
            let closures = plan.grasps.iter().filter(|g| g.force_closure()).count();
            let planning = &mut editor.planning;
            planning.found = plan.grasps;
            planning.robot = Some(robot);
            planning.shown = None;
            let found = planning.found.len();
            let unreachable = match plan.unreachable {
                0 => String::new(),
                n => format!("; {n} left out, the arm cannot reach them"),
            };
            let energies = searched_by(&plan.search_energies);
            editor.info(format!(
                "planned {found} grasps ({closures} force-closure{held}) in {:.1} s, {} steps{energies}{unreachable}",
                plan.seconds, plan.steps
            ));
        }
        Err(e) => editor.error(format!("planning failed: {e}")),
    }
}

/// The energies the searches took, each once: the mixed energy takes only contact-quality
/// where a table or an arm lies by the object, and the user sees it did.
fn searched_by(energies: &[PlanEnergy]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for energy in energies {
        if !names.contains(&energy.name()) {
            names.push(energy.name());
        }
    }
    match names.is_empty() {
        true => String::new(),
        false => format!(", searched by {}", names.join(" and ")),
    }
}

pub struct PlanningPlugin;

impl Plugin for PlanningPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Planning>()
            .add_systems(Update, finish_plans.in_set(ClaspSystems::Requests));
    }
}
