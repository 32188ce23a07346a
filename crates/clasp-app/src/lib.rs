//! Clasp's desktop app: the core world as an ECS resource, shown and driven through Bevy.
//!
//! Data flows one way each frame: input → request → core → ECS view.

pub mod camera;
pub mod capture;
pub mod cli;
pub mod convert;
pub mod embedded;
pub mod scene;
pub mod selection;
pub mod ui;

use std::process::ExitCode;

use bevy::{
    picking::mesh_picking::{MeshPickingPlugin, MeshPickingSettings},
    prelude::*,
};
use clasp_io::Disk;

pub use capture::RunOptions;
pub use cli::Args;
pub use scene::{Notices, SceneWorld};

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
                scene::ScenePlugin,
                camera::OrbitCameraPlugin,
                selection::SelectionPlugin,
                ui::UiPlugin,
                capture::CapturePlugin,
            ));
    }
}

/// The scene to open: the first FILE as a world, or the default scene. Problems become notices,
/// and the default scene opens instead of nothing.
pub fn open_scene(files: &[std::path::PathBuf]) -> (SceneWorld, Vec<String>) {
    let mut notices = Vec::new();
    if let Some(file) = files.first() {
        let graspit_root = std::env::var_os("GRASPIT").map(std::path::PathBuf::from);
        match clasp_io::load_world(&Disk, file, graspit_root.as_deref()) {
            Ok(world) => {
                if files.len() > 1 {
                    notices.push(format!(
                        "opened {}; one world opens at a time, and importing the other files is not there yet",
                        file.display()
                    ));
                }
                let source = file.display().to_string();
                return (SceneWorld { world, source }, notices);
            }
            Err(e) => notices.push(format!("{e} (the default scene opened instead)")),
        }
    }
    let source = "default scene".to_string();
    match embedded::default_world() {
        Ok(world) => (SceneWorld { world, source }, notices),
        Err(e) => {
            // Only a broken build gets here: the files are compiled in and tested.
            notices.push(format!("the built-in scene did not load: {e}"));
            let world = clasp_core::World::default();
            (SceneWorld { world, source }, notices)
        }
    }
}

/// Puts the scene, the flags and Clasp's plugins into an app.
pub fn install(app: &mut App, scene: SceneWorld, options: RunOptions, notices: Vec<String>) {
    app.insert_resource(scene)
        .insert_resource(options)
        .insert_resource(Notices(notices))
        .add_plugins(ClaspPlugin);
}

/// Runs the desktop app until its window closes or `--exit-after` ends it.
pub fn run(args: Args) -> ExitCode {
    let (scene, notices) = open_scene(&args.files);
    for notice in &notices {
        eprintln!("clasp: {notice}");
    }
    let options = RunOptions {
        screenshot: args.screenshot,
        exit_after: args.exit_after,
        state_out: args.state_out,
    };
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Clasp".into(),
            resolution: (1280, 800).into(),
            ..default()
        }),
        ..default()
    }));
    install(&mut app, scene, options, notices);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
