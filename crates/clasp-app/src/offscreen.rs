//! `clasp --offscreen N`: the app's own frame, measured where there is no display. The app
//! runs as always — its scene, markers, gizmos and egui panels, drawn by Bevy's renderer —
//! but its cameras draw into an image instead of a window, with no window system at all (no
//! X server, no winit), and as fast as the GPU allows. After N frames it prints the frame
//! counter's figures (those of View → Frame rate: the first frames, which build pipelines and
//! upload meshes, left out), saves the last frame with `--screenshot`, and exits.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use bevy::{
    app::ScheduleRunnerPlugin,
    camera::RenderTarget,
    prelude::*,
    render::{
        render_resource::TextureFormat,
        view::screenshot::{Screenshot, ScreenshotCaptured},
    },
    window::ExitCondition,
    winit::WinitPlugin,
};

use crate::{
    capture::RunOptions, cli::Args, frame_rate::FrameTimes, opening::open_scene, plugin::install,
};

/// What an offscreen run does.
#[derive(Resource, Debug, Clone)]
struct Offscreen {
    frames: u64,
    size: (u32, u32),
    screenshot: Option<PathBuf>,
    /// The image the cameras draw into.
    target: Option<Handle<Image>>,
    /// Frames drawn so far.
    drawn: u64,
    /// Set when the last frame's picture was asked for; the run ends once it is saved.
    saving: bool,
}

/// Runs the app into an offscreen image for `frames` frames; prints the figures.
pub fn run_offscreen(args: &Args, frames: u64) -> ExitCode {
    let size = args.size.unwrap_or((1280, 800));
    let mut scene = open_scene(&args.files);
    if args.play {
        crate::editor::requests::edit(&mut scene, |editor| editor.play());
    }
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                // A window without a window system: egui and the camera lay out in it.
                primary_window: Some(Window {
                    resolution: size.into(),
                    ..default()
                }),
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            })
            .disable::<WinitPlugin>(),
    )
    // Winit's loop is gone: frames follow one another at once.
    .add_plugins(ScheduleRunnerPlugin::run_loop(Duration::ZERO));
    let options = RunOptions {
        screenshot: None,
        exit_after: None,
        state_out: args.state_out.clone(),
    };
    install(&mut app, scene, options);
    app.insert_resource(Offscreen {
        frames,
        size,
        screenshot: args.screenshot.clone(),
        target: None,
        drawn: 0,
        saving: false,
    })
    .add_systems(PostStartup, draw_into_an_image)
    .add_systems(Last, count_frames);
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Points every camera (the scene's and egui's) at one image of the run's size.
fn draw_into_an_image(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut offscreen: ResMut<Offscreen>,
    cameras: Query<Entity, With<Camera>>,
) {
    let (w, h) = offscreen.size;
    let image = Image::new_target_texture(w, h, TextureFormat::Rgba8UnormSrgb, None);
    let target = images.add(image);
    for camera in &cameras {
        commands
            .entity(camera)
            .insert(RenderTarget::Image(target.clone().into()));
    }
    offscreen.target = Some(target);
}

/// Counts the frames; after the last, prints the figures, saves the picture if asked, exits.
fn count_frames(
    mut commands: Commands,
    mut offscreen: ResMut<Offscreen>,
    times: Res<FrameTimes>,
    mut exit: MessageWriter<AppExit>,
) {
    offscreen.drawn += 1;
    if offscreen.drawn < offscreen.frames || offscreen.saving {
        return;
    }
    let (w, h) = offscreen.size;
    match times.rate() {
        Some(rate) => println!(
            "offscreen {w}x{h}: {} over {} frames (after {} drawn)",
            rate.summary(),
            rate.frames,
            offscreen.drawn
        ),
        None => println!(
            "offscreen {w}x{h}: too few frames for figures ({} drawn)",
            offscreen.drawn
        ),
    }
    let (Some(path), Some(target)) = (offscreen.screenshot.clone(), offscreen.target.clone())
    else {
        exit.write(AppExit::Success);
        return;
    };
    offscreen.saving = true;
    commands.spawn(Screenshot::image(target)).observe(
        move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            match crate::capture::save_png(&captured.image, &path) {
                Ok(()) => {
                    println!("saved the last frame to {}", path.display());
                    exit.write(AppExit::Success);
                }
                Err(e) => {
                    eprintln!("clasp: {}: {e}", path.display());
                    exit.write(AppExit::error());
                }
            }
        },
    );
}
