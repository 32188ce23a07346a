//! Grasp → Test Grasp: the physics test of the grasp the current hand has on the object
//! (`World::test_grasp`: the hand squeezes, gravity pulls the object along +x, −x, +y, −y, +z,
//! −z in turn). It runs on a worker thread on a copy of the world, so the window keeps
//! drawing; the answer is listed per direction (held or not, how far the object moved and
//! turned), logged, and each direction's path of the object's centre drawn, green where it
//! held and red where it let go.

use bevy::{prelude::*, tasks::AsyncComputeTaskPool};
use clasp_core::{HoldSettings, HoldTest};

use crate::{
    commands::grasping_robot,
    convert,
    editor::{Document, Editor, GraspTest},
    systems::ClaspSystems,
};

/// The axis names of the six pulls, in the test's order.
pub const DIRECTION_NAMES: [&str; 6] = ["+x", "−x", "+y", "−y", "+z", "−z"];

impl Editor<'_> {
    /// Starts the physics test of the current hand's grasp of the grasped object.
    pub fn start_grasp_test(&mut self) {
        let world = &self.doc.world;
        let (Some(robot), Some(object)) = (
            grasping_robot(world, &self.selection),
            world.grasped_object(),
        ) else {
            self.error("testing a grasp needs a hand and a graspable object");
            return;
        };
        if self.grasp_test.running() {
            return;
        }
        let world = world.clone();
        let task = AsyncComputeTaskPool::get()
            .spawn(async move { world.test_grasp(robot, object, &HoldSettings::default()) });
        self.grasp_test.begin(task);
        self.grasp_test.result = None;
        self.info("testing the grasp: gravity along each axis in turn…");
    }
}

/// One line per direction: "+x: moved 3.20 mm, turned 4.10°: held".
pub fn direction_lines(test: &HoldTest) -> Vec<String> {
    test.directions
        .iter()
        .zip(DIRECTION_NAMES)
        .map(|(d, name)| {
            format!(
                "{name}: moved {:.2} mm, turned {:.2}°: {}",
                d.displacement,
                d.rotation.to_degrees(),
                if d.held { "held" } else { "let go" }
            )
        })
        .collect()
}

/// Takes a finished test's answer into the log and onto the screen.
fn finish_grasp_test(mut editor: Editor) {
    if !editor.grasp_test.running() {
        return;
    }
    let Some(result) = editor.grasp_test.take_finished() else {
        return;
    };
    match result {
        Ok(test) => {
            for line in direction_lines(&test) {
                editor.info(line);
            }
            let failed = test.directions.iter().filter(|d| !d.held).count();
            editor.info(match failed {
                0 => "the grasp holds in all six directions".to_owned(),
                n => format!("the grasp lets go in {n} of six directions"),
            });
            editor.grasp_test.result = Some(test);
        }
        Err(e) => editor.error(format!("the grasp test failed: {e}")),
    }
}

/// Each direction's path of the object's centre: green where it held, red where it let go.
fn draw_paths(test: Res<GraspTest>, document: Res<Document>, mut gizmos: Gizmos) {
    let Some(result) = &test.result else {
        return;
    };
    // A test of another world (one opened since) is not drawn on this one.
    if document.world.grasped_object().is_none() {
        return;
    }
    for direction in &result.directions {
        let color = match direction.held {
            true => Color::srgb(0.1, 0.8, 0.2),
            false => Color::srgb(0.9, 0.15, 0.1),
        };
        gizmos.linestrip(direction.path.iter().map(convert::point), color);
    }
}

pub struct GraspTestPlugin;

impl Plugin for GraspTestPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, finish_grasp_test.in_set(ClaspSystems::Requests))
            .add_systems(Update, draw_paths.in_set(ClaspSystems::View));
    }
}
