//! Clasp's desktop app: the core world as an ECS resource, shown and driven through Bevy.
//!
//! Data flows one way each frame: input → request → core → ECS view.

pub mod camera;
pub mod capture;
pub mod cli;
pub mod commands;
pub mod convert;
pub mod dialog;
pub mod dragger;
pub mod editor;
pub mod embedded;
pub mod files;
pub mod markers;
pub mod scene;
pub mod selection;
pub mod systems;
pub mod ui;

use std::process::ExitCode;

use bevy::{
    picking::mesh_picking::{MeshPickingPlugin, MeshPickingSettings},
    prelude::*,
};
use clasp_io::Disk;

pub use capture::RunOptions;
pub use cli::Args;
pub use editor::Editor;

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
                capture::CapturePlugin,
                dialog::DialogPlugin,
                commands::CommandsPlugin,
                markers::MarkersPlugin,
                dragger::DraggerPlugin,
            ));
    }
}

/// The scene to open: the first FILE (a world, or a body, robot or mesh to import into an
/// empty world), or the default scene. Problems go into the log, and the default scene opens
/// instead of nothing.
pub fn open_scene(files: &[std::path::PathBuf]) -> Editor {
    let mut editor = default_editor();
    if let Some(first) = files.first() {
        if is_world_file(first) {
            if !editor.open_world(first) {
                editor.error("the default scene opened instead");
            }
        } else {
            let log = std::mem::take(&mut editor.log);
            let empty = Editor::new(clasp_core::World::default(), "new world", None);
            let default = std::mem::replace(&mut editor, empty);
            editor.log = log;
            if !editor.import(first, files::import_kind_of(first)) {
                let log = std::mem::take(&mut editor.log);
                editor = default;
                editor.log = log;
                editor.error("the default scene opened instead");
            }
        }
        for file in &files[1..] {
            editor.import(file, files::import_kind_of(file));
        }
    }
    editor.forget_history();
    editor
}

fn default_editor() -> Editor {
    match embedded::default_world() {
        Ok(world) => Editor::new(world, "default scene", None),
        Err(e) => {
            // Only a broken build gets here: the files are compiled in and tested.
            let mut editor = Editor::new(clasp_core::World::default(), "empty world", None);
            editor.error(format!("the built-in scene did not load: {e}"));
            editor
        }
    }
}

fn is_world_file(path: &std::path::Path) -> bool {
    matches!(
        clasp_io::FileKind::of(&Disk, path),
        Ok(clasp_io::FileKind::World) | Err(_)
    )
}

/// Puts the editor, the flags and Clasp's plugins into an app.
pub fn install(app: &mut App, editor: Editor, options: RunOptions) {
    app.insert_resource(editor)
        .insert_resource(options)
        .add_plugins(ClaspPlugin);
}

/// Runs the desktop app until its window closes or `--exit-after` ends it.
pub fn run(args: Args) -> ExitCode {
    let editor = open_scene(&args.files);
    for entry in editor.log.iter().filter(|e| e.error) {
        eprintln!("clasp: {}", entry.text);
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
    install(&mut app, editor, options);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
