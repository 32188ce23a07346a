//! Clasp in a Bevy app: every plugin it adds, and the editor's resources moved in.

use bevy::{
    picking::mesh_picking::{MeshPickingPlugin, MeshPickingSettings},
    prelude::*,
};

use crate::{
    camera,
    capture::{self, RunOptions},
    commands, dialog, dragger, editor, frame_rate, grasp_test, markers,
    opening::EditorWorld,
    overlay, planning, scene, selection, simulation, systems, timeline, ui,
};

/// Everything Clasp adds to a Bevy app; the window and renderer come from the caller.
pub struct ClaspPlugin;

impl Plugin for ClaspPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(MeshPickingPlugin)
            // Only our camera casts rays, and only bodies are hit; egui's camera and gizmos are not.
            .insert_resource(MeshPickingSettings {
                require_markers: true,
                ..default()
            })
            .add_plugins((
                systems::SystemsPlugin,
                scene::ScenePlugin,
                camera::OrbitCameraPlugin,
                selection::SelectionPlugin,
                ui::UiPlugin,
                timeline::TimelinePlugin,
                capture::CapturePlugin,
                dialog::DialogPlugin,
                commands::CommandsPlugin,
                markers::MarkersPlugin,
                dragger::DraggerPlugin,
                planning::PlanningPlugin,
                simulation::SimulationPlugin,
                grasp_test::GraspTestPlugin,
                frame_rate::FrameRatePlugin,
            ))
            .add_plugins(overlay::OverlayPlugin);
    }
}

/// Puts the editor's resources from `scene` (see [`open_scene`](crate::opening::open_scene)), the flags and Clasp's
/// plugins into an app.
pub fn install(app: &mut App, mut scene: EditorWorld, options: RunOptions) {
    editor::requests::move_editor(&mut scene, app.world_mut());
    app.insert_resource(options).add_plugins(ClaspPlugin);
}
