//! The desktop app in a real window.

use std::process::ExitCode;

use bevy::prelude::*;

use crate::{
    capture::RunOptions,
    cli::Args,
    editor::{requests::edit, resources::Log},
    icon, offscreen,
    opening::open_scene,
    plugin::install,
};

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
