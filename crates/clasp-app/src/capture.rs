//! What the command-line flags ask of a run: a screenshot (once the scene has rendered, or at
//! the end of an `--exit-after` run, so it shows what was done), a clean exit after a time, and
//! the world's state written as JSON on exit.

use std::path::{Path, PathBuf};

use bevy::{
    diagnostic::FrameCount,
    ecs::system::SystemParam,
    prelude::*,
    render::view::screenshot::{Capturing, Screenshot, ScreenshotCaptured},
};
use serde::Serialize;

use clasp_core::{BodyId, World};

use crate::{
    editor::{resources::Document, resources::QualityReport, resources::Selection},
    systems::ClaspSystems,
};

/// Frames to render before the screenshot: meshes and egui need a few to appear.
const FRAMES_BEFORE_SCREENSHOT: u32 = 20;
/// How long past `--exit-after` to wait for a screenshot that never comes before failing.
const SCREENSHOT_GRACE_SECONDS: f64 = 60.0;

#[derive(Resource, Debug, Clone, Default)]
pub struct RunOptions {
    pub screenshot: Option<PathBuf>,
    pub exit_after: Option<f64>,
    pub state_out: Option<PathBuf>,
}

#[derive(Resource, Debug, Default, Clone, PartialEq)]
enum ScreenshotState {
    #[default]
    NotTaken,
    Requested,
    Saved,
    Failed(String),
}

pub struct CapturePlugin;

impl Plugin for CapturePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ScreenshotState>()
            .init_resource::<ControlPositions>()
            .add_systems(
                Update,
                (request_screenshot, exit_when_done)
                    .chain()
                    .in_set(ClaspSystems::View),
            )
            .add_systems(Last, write_state);
    }
}

fn request_screenshot(
    mut commands: Commands,
    options: Res<RunOptions>,
    frames: Res<FrameCount>,
    time: Res<Time<Real>>,
    mut state: ResMut<ScreenshotState>,
) {
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    let time_up = options
        .exit_after
        .is_none_or(|after| time.elapsed_secs_f64() >= after);
    if *state != ScreenshotState::NotTaken || frames.0 < FRAMES_BEFORE_SCREENSHOT || !time_up {
        return;
    }
    *state = ScreenshotState::Requested;
    commands.spawn(Screenshot::primary_window()).observe(
        move |captured: On<ScreenshotCaptured>, mut state: ResMut<ScreenshotState>| {
            *state = match save_png(&captured.image, &path) {
                Ok(()) => {
                    info!("screenshot saved to {}", path.display());
                    ScreenshotState::Saved
                }
                Err(e) => {
                    error!("{e}");
                    ScreenshotState::Failed(e)
                }
            };
        },
    );
}

pub(crate) fn save_png(image: &Image, path: &Path) -> Result<(), String> {
    let pixels = image
        .clone()
        .try_into_dynamic()
        .map_err(|e| format!("cannot convert the screenshot: {e}"))?;
    // The alpha channel holds no coverage information for a window; drop it.
    pixels
        .to_rgb8()
        .save(path)
        .map_err(|e| format!("cannot save the screenshot to {}: {e}", path.display()))
}

fn exit_when_done(
    options: Res<RunOptions>,
    time: Res<Time<Real>>,
    state: Res<ScreenshotState>,
    capturing: Query<(), With<Capturing>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(after) = options.exit_after else {
        return;
    };
    let elapsed = time.elapsed_secs_f64();
    if elapsed < after {
        return;
    }
    let screenshot_pending = options.screenshot.is_some()
        && matches!(
            *state,
            ScreenshotState::NotTaken | ScreenshotState::Requested
        );
    match &*state {
        ScreenshotState::Failed(_) => {
            exit.write(AppExit::error());
        }
        _ if screenshot_pending || !capturing.is_empty() => {
            if elapsed > after + SCREENSHOT_GRACE_SECONDS {
                error!("the screenshot was never captured");
                exit.write(AppExit::error());
            }
        }
        _ => {
            exit.write(AppExit::Success);
        }
    }
}

/// The state file: enough to check what a run showed and where everything ended up.
#[derive(Serialize, Debug)]
pub struct StateDump {
    /// When the file was written: seconds since 1970 on the system clock, for a script's
    /// stopwatch.
    pub written_at_unix: f64,
    pub source: String,
    pub bodies: Vec<BodyState>,
    pub robots: Vec<RobotState>,
    pub selection: Vec<String>,
    /// What the user picked, as the status bar names it: "clasp_mug", "robot allegro_hand".
    pub selected: Vec<String>,
    pub collisions: CollisionState,
    pub contacts: Vec<ContactState>,
    pub quality: QualityState,
    pub simulation: SimulationState,
    /// How fast the app drew its last frames (none before the first after the warm-up).
    pub frame_rate: Option<crate::frame_rate::FrameRate>,
    /// The 3D view, so that a script can find where a world point appears in the window.
    pub view: Option<ViewState>,
    /// Where the panels put some controls, for the same scripts.
    pub ui: ControlPositions,
    /// What the status bar says.
    pub status_bar: Option<crate::ui::StatusShown>,
    /// Which of the View menu's layers are drawn.
    pub shown: Option<ShownLayers>,
    /// What the inspector's Collisions section lists for the selection.
    pub inspector_collisions: Vec<String>,
}

/// The View menu's layers, on or off.
#[derive(Serialize, Debug)]
pub struct ShownLayers {
    pub contacts: bool,
    pub forces: bool,
    pub approach_and_closing: bool,
    pub transparent: bool,
}

/// The centres of controls a script may press, logical window pixels; the panels fill it in.
#[derive(Resource, Serialize, Debug, Default, Clone, PartialEq)]
pub struct ControlPositions {
    pub toggle_collision: Option<[f32; 2]>,
    /// The toolbar's Play / Pause button.
    pub play: Option<[f32; 2]>,
    pub import_object: Option<[f32; 2]>,
    pub view_menu: Option<[f32; 2]>,
    /// Only while the View menu is open.
    pub contact_threshold: Option<[f32; 2]>,
    /// The View menu's "Approach and closing" checkbox, only while the menu is open.
    pub approach_toggle: Option<[f32; 2]>,
    /// The planner window's Plan button, while the window is open and no plan runs.
    pub plan_button: Option<[f32; 2]>,
    /// The planner window's rows of grasps found.
    pub planned_grasps: Vec<[f32; 2]>,
}

/// The 3D view's camera: world (mm) to clip space, and the rectangle it draws into.
#[derive(Serialize, Debug)]
pub struct ViewState {
    /// Column-major 4×4 matrix from world coordinates to clip space.
    pub world_to_clip: [f32; 16],
    /// Left, top, right, bottom, in logical window pixels.
    pub viewport: [f32; 4],
    pub camera_position: [f32; 3],
}

/// The collision switches a user set, by body name.
#[derive(Serialize, Debug)]
pub struct CollisionState {
    pub world_on: bool,
    /// Bodies switched off against everything.
    pub bodies_off: Vec<String>,
    /// Pairs switched off against each other.
    pub pairs_off: Vec<[String; 2]>,
}

/// One side of a contact.
#[derive(Serialize, Debug)]
pub struct ContactState {
    pub body: String,
    pub other: String,
    /// Millimetres, world frame.
    pub position: [f64; 3],
    /// Unit, pointing into `body`.
    pub normal: [f64; 3],
    pub friction: f64,
    pub separation: f64,
    /// The impulse of the last step, from `other` on `body`, world frame, g·mm/s.
    pub impulse: [f64; 3],
}

/// Where the dynamics stands.
#[derive(Serialize, Debug, Default)]
pub struct SimulationState {
    pub playing: bool,
    /// Simulated seconds.
    pub time: f64,
    /// Simulated seconds per wall-clock second over the last second of play.
    pub real_time_factor: Option<f64>,
    /// The factor, the frame time and the run's wall-clock and simulated seconds since Play.
    pub meter: Option<crate::editor::simulation::RealTimeReading>,
}

/// The grasp quality of the current hand on the first graspable body (L1 wrench space).
#[derive(Serialize, Debug)]
pub struct QualityState {
    /// "computed", "no grasp" or "failed: …".
    pub status: String,
    pub force_closure: bool,
    pub epsilon: Option<f64>,
    pub volume: Option<f64>,
}

#[derive(Serialize, Debug)]
pub struct BodyState {
    pub name: String,
    pub kind: &'static str,
    pub robot: Option<String>,
    /// Millimetres, world frame.
    pub position: [f64; 3],
    /// Unit quaternion, w first as in GraspIt's files.
    pub orientation_wxyz: [f64; 4],
    /// How fast its centre moves (mm/s): what the dynamics left it.
    pub speed: f64,
}

#[derive(Serialize, Debug)]
pub struct RobotState {
    pub name: String,
    /// The DOF sliders' labels, as the inspector shows them.
    pub dof_labels: Vec<String>,
    /// Each DOF's whole name: its joint's (URDF, MJCF), or the joints it drives (GraspIt).
    pub dof_names: Vec<String>,
    /// Radians for revolute DOFs, millimetres for prismatic ones.
    pub dof_values: Vec<f64>,
}

pub fn state_dump(document: &Document, selection: &Selection) -> StateDump {
    let world = &document.world;
    let bodies = world
        .body_ids()
        .into_iter()
        .filter_map(|id| Some((id, world.body(id)?)))
        .map(|(id, body)| {
            let t = body.pose().translation.vector;
            let rotation = body.pose().rotation;
            let q = rotation.quaternion();
            BodyState {
                name: body.name.clone(),
                kind: body.kind.name(),
                robot: id
                    .robot()
                    .and_then(|r| world.robot(r))
                    .map(|r| r.name.clone()),
                position: [t.x, t.y, t.z],
                orientation_wxyz: [q.w, q.i, q.j, q.k],
                speed: body.velocity().linear.norm(),
            }
        })
        .collect();
    let robots = world
        .robots()
        .map(|(_, r)| RobotState {
            name: r.name.clone(),
            dof_labels: (0..r.dofs.len())
                .map(|dof| crate::ui::dof_label(r, dof))
                .collect(),
            dof_names: r.dofs.iter().map(|d| d.name.clone()).collect(),
            dof_values: r.dof_values().to_vec(),
        })
        .collect();
    let selected = selection
        .items(world)
        .into_iter()
        .map(|item| item.describe(world))
        .collect();
    let inspector_collisions = crate::editor::collision_state::collision_lines(world, selection);
    let selection = selection
        .iter()
        .filter_map(|&id| world.body(id))
        .map(|b| b.name.clone())
        .collect();
    StateDump {
        written_at_unix: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64()),
        source: document.source.clone(),
        bodies,
        robots,
        selection,
        selected,
        collisions: collision_state(world),
        contacts: contact_states(world),
        quality: quality_state(&document.quality),
        simulation: SimulationState::default(),
        frame_rate: None,
        view: None,
        ui: ControlPositions::default(),
        status_bar: None,
        shown: None,
        inspector_collisions,
    }
}

/// The view camera's state, if it has a viewport yet.
pub fn view_state(camera: &Camera, transform: &GlobalTransform) -> Option<ViewState> {
    let rect = camera.logical_viewport_rect()?;
    let world_to_clip = camera.clip_from_view() * transform.to_matrix().inverse();
    Some(ViewState {
        world_to_clip: world_to_clip.to_cols_array(),
        viewport: [rect.min.x, rect.min.y, rect.max.x, rect.max.y],
        camera_position: transform.translation().to_array(),
    })
}

fn body_name(world: &World, id: BodyId) -> String {
    world
        .body(id)
        .map_or_else(|| format!("{id:?}"), |b| b.name.clone())
}

fn collision_state(world: &World) -> CollisionState {
    let switches = world.switches();
    let ids = world.body_ids();
    let bodies_off = ids
        .iter()
        .filter(|&&id| !switches.body_on(id))
        .map(|&id| body_name(world, id))
        .collect();
    let mut pairs_off = Vec::new();
    for (i, &a) in ids.iter().enumerate() {
        for &b in &ids[i + 1..] {
            if !switches.pair_on(a, b) {
                pairs_off.push([body_name(world, a), body_name(world, b)]);
            }
        }
    }
    CollisionState {
        world_on: switches.world_on(),
        bodies_off,
        pairs_off,
    }
}

fn contact_states(world: &World) -> Vec<ContactState> {
    world
        .contacts()
        .iter()
        .map(|c| ContactState {
            body: body_name(world, c.body),
            other: body_name(world, c.other),
            position: c.point.coords.into(),
            normal: c.normal.into_inner().into(),
            friction: c.static_friction,
            separation: c.separation,
            // Stored from B on A: the side on B is pushed the other way.
            impulse: match c.is_object_a {
                true => c.world_impulse(),
                false => -c.world_impulse(),
            }
            .into(),
        })
        .collect()
}

fn quality_state(report: &QualityReport) -> QualityState {
    match report {
        QualityReport::Computed(q) => QualityState {
            status: "computed".into(),
            force_closure: q.force_closure,
            epsilon: q.epsilon,
            volume: q.volume,
        },
        QualityReport::NoGrasp => QualityState {
            status: "no grasp".into(),
            force_closure: false,
            epsilon: None,
            volume: None,
        },
        QualityReport::Failed(reason) => QualityState {
            status: format!("failed: {reason}"),
            force_closure: false,
            epsilon: None,
            volume: None,
        },
    }
}

/// Seconds between writes of the state while the app runs, so a script driving it can read
/// what each step did.
const STATE_INTERVAL_SECONDS: f64 = 0.5;

/// Writes the state on exit, and every half second while running.
/// What the state file holds: the world, the view camera and the controls' positions.
#[derive(SystemParam)]
struct Shown<'w, 's> {
    document: Res<'w, Document>,
    selection: Res<'w, Selection>,
    cameras: Query<
        'w,
        's,
        (&'static Camera, &'static GlobalTransform),
        With<crate::camera::OrbitCamera>,
    >,
    controls: Res<'w, ControlPositions>,
    simulation: Res<'w, crate::editor::simulation::Simulation>,
    frames: Res<'w, crate::frame_rate::FrameTimes>,
    log: Res<'w, crate::editor::resources::Log>,
    view: Res<'w, crate::editor::resources::ViewSettings>,
}

fn write_state(
    mut exits: MessageReader<AppExit>,
    options: Res<RunOptions>,
    time: Res<Time<Real>>,
    shown: Shown,
    mut last_written: Local<Option<f64>>,
    mut done: Local<bool>,
) {
    let Shown {
        document,
        selection,
        cameras,
        controls,
        simulation,
        frames,
        log,
        view,
    } = shown;
    let Some(path) = &options.state_out else {
        return;
    };
    let exiting = exits.read().count() > 0;
    let now = time.elapsed_secs_f64();
    let due = last_written.is_none_or(|t| now - t >= STATE_INTERVAL_SECONDS);
    if *done || !(exiting || due) {
        return;
    }
    *last_written = Some(now);
    *done = exiting;
    let mut state = state_dump(&document, &selection);
    state.view = cameras.single().ok().and_then(|(c, t)| view_state(c, t));
    state.ui = controls.clone();
    state.shown = Some(ShownLayers {
        contacts: view.contacts_shown,
        forces: view.forces_shown,
        approach_and_closing: view.approach_shown,
        transparent: view.transparent,
    });
    state.status_bar = Some(crate::ui::status_shown(
        &document,
        &selection,
        &simulation,
        &log,
    ));
    state.frame_rate = frames.rate();
    let meter = simulation.meter.reading();
    state.simulation = SimulationState {
        playing: simulation.playing,
        time: simulation.time,
        real_time_factor: meter.map(|r| r.factor),
        meter,
    };
    // Written beside and renamed, so a reader never sees half a file.
    let partial = path.with_extension("partial");
    let result = serde_json::to_string_pretty(&state)
        .map_err(|e| e.to_string())
        .and_then(|json| std::fs::write(&partial, json + "\n").map_err(|e| e.to_string()))
        .and_then(|()| std::fs::rename(&partial, path).map_err(|e| e.to_string()));
    match result {
        Ok(()) if exiting => info!("state written to {}", path.display()),
        Ok(()) => {}
        Err(e) => error!("cannot write the state to {}: {e}", path.display()),
    }
}
