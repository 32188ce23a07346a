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
pub mod files;
pub mod frame_rate;
pub mod grasp_test;
pub mod icon;
pub mod markers;
pub mod offscreen;
pub mod planning;
pub mod scene;
pub mod selection;
pub mod simulation;
pub mod systems;
pub mod timeline;
pub mod ui;

use std::process::ExitCode;

use bevy::{
    picking::mesh_picking::{MeshPickingPlugin, MeshPickingSettings},
    prelude::*,
};
use clasp_io::Disk;

pub use capture::RunOptions;
use clasp_core::World;
pub use cli::Args;
pub use editor::{Document, Editor, Log, edit};

/// A Bevy world that holds only the editor's resources, outside an app: what [`open_scene`]
/// returns and [`edit`] makes requests on.
pub type EditorWorld = bevy::ecs::world::World;

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
            ));
    }
}

/// The scene to open, as the editor's resources in a Bevy world of their own: the first FILE
/// (a world, or a body, robot or mesh to import into an empty world), or the default scene.
/// Problems go into the log, and the default scene opens instead of nothing. [`install`] moves
/// the resources into an app; tests and benchmarks make requests on them with [`edit`].
pub fn open_scene(files: &[std::path::PathBuf]) -> EditorWorld {
    let mut scene = editor_world(default_document());
    if let Some(first) = files.first() {
        if is_world_file(first) {
            edit(&mut scene, |editor| {
                if !editor.open_world(first) {
                    editor.error("the default scene opened instead");
                }
            });
        } else {
            let mut empty = editor_world(Document::new(World::default(), "new world", None));
            empty.insert_resource(scene.resource::<Log>().clone());
            if edit(&mut empty, |editor| {
                editor.import(first, files::import_kind_of(first))
            }) {
                scene = empty;
            } else {
                scene.insert_resource(empty.resource::<Log>().clone());
                edit(&mut scene, |editor| {
                    editor.error("the default scene opened instead")
                });
            }
        }
        for file in &files[1..] {
            edit(&mut scene, |editor| {
                editor.import(file, files::import_kind_of(file))
            });
        }
    }
    edit(&mut scene, |editor| editor.forget_history());
    scene
}

/// A Bevy world holding only an editor opened on `document`.
pub fn editor_world(document: Document) -> EditorWorld {
    let mut world = EditorWorld::new();
    editor::install_editor(&mut world, document);
    world
}

fn default_document() -> Document {
    match clasp_io::default_world() {
        Ok(world) => Document::new(world, "default scene", None),
        Err(e) => {
            // Only a broken build gets here: the files are compiled in and tested.
            let mut scene = editor_world(Document::new(World::default(), "empty world", None));
            edit(&mut scene, |editor| {
                editor.error(format!("the built-in scene did not load: {e}"))
            });
            scene.remove_resource::<Document>().expect("just installed")
        }
    }
}

fn is_world_file(path: &std::path::Path) -> bool {
    clasp_io::FileKind::of(&Disk, path).map_or(true, clasp_io::FileKind::is_world)
}

/// Puts the editor's resources from `scene` (see [`open_scene`]), the flags and Clasp's
/// plugins into an app.
pub fn install(app: &mut App, mut scene: EditorWorld, options: RunOptions) {
    editor::move_editor(&mut scene, app.world_mut());
    app.insert_resource(options).add_plugins(ClaspPlugin);
}

/// Runs the desktop app until its window closes or `--exit-after` ends it.
pub fn run(args: Args) -> ExitCode {
    if let Some(frames) = args.offscreen {
        return offscreen::run_offscreen(&args, frames);
    }
    let mut scene = open_scene(&args.files);
    if args.play {
        edit(&mut scene, |editor| editor.play());
    }
    for entry in scene.resource::<Log>().iter().filter(|e| e.error) {
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
            resolution: args.size.unwrap_or((1280, 800)).into(),
            present_mode: match args.no_vsync {
                true => bevy::window::PresentMode::AutoNoVsync,
                false => bevy::window::PresentMode::AutoVsync,
            },
            ..default()
        }),
        // The close button asks first where there are unsaved edits (`dialog::unsaved`).
        close_when_requested: false,
        ..default()
    }))
    // Here, not in `ClaspPlugin`: only an app with real windows has icons to set.
    .add_systems(Update, icon::set_window_icon);
    install(&mut app, scene, options);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
