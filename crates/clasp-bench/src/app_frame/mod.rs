//! The app's per-frame simulation work while a hand is dragged against an object, headless:
//! what the desktop app does each frame of a drag, without Bevy's own work (input, ECS views,
//! rendering). One frame is one pointer step: `Editor::drag_element_to` or `drag_dof` (the core
//! moves the hand toward where the pointer says and stops it at contact, the contacts are found
//! again and the grasp's epsilon quality is evaluated), then `markers::marker_geometry` (the
//! contact markers' mesh).
//!
//! A matrix: scenes (ClaspHand and its mug, GraspIt's Barrett and GraspIt's mug when the model
//! library is there, ClaspHand against a 99k- and a 1M-triangle sphere) × two scripts of 600
//! frames (the whole hand dragged from 30 mm away onto the object, pressed in, slid round it
//! and rolled; one finger's DOF dragged closed onto it) × the bounded move and the exact move
//! it replaced, side by side in one run. The exact move stops a script after a minute; the
//! ratio is then taken over the frames both played. Every frame is checked: no enabled pair
//! may interpenetrate, and both moves must leave the hand within the contact threshold (and its
//! DOFs within 0.01) of each other. Built only with the `app` feature (it builds Bevy):
//! `cargo run --release -p clasp-bench --features app -- --app-frame --full` (without `--full`,
//! the quick form: the default scene alone, the exact move stopped after 10 s).

mod scenes;

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use clasp_app::{Document, Editor, edit, markers::marker_geometry};
use clasp_core::{BodyId, Element, MoveQueries, Pose, RobotId};
use serde_json::{Value, json};

use crate::check::Checks;
use crate::timing::percentile;
use scenes::{HandScript, Scene};

const FRAMES: usize = 600;
/// The exact move plays a script for at most this long (a quick run: the second figure).
const EXACT_BUDGET: Duration = Duration::from_secs(60);
const QUICK_EXACT_BUDGET: Duration = Duration::from_secs(10);

/// What one frame did, and where it left the hand.
struct Frame {
    ns: f64,
    /// The move stopped at contact (the app's "touches" and magenta dragger).
    held: bool,
    /// The object had contacts after the frame.
    touching: bool,
    palm: Pose,
    dofs: Vec<f64>,
}

/// What a script does to the editor at frame `f`.
type FrameStep = Box<dyn FnMut(&mut Editor, usize)>;

#[derive(Clone, Copy, PartialEq)]
enum Script {
    Hand,
    Dof,
}

/// One row of the matrix: how to build its scene and the p99 targets (ms) of its scripts.
struct Row {
    build: Box<dyn Fn() -> Scene>,
    hand_target: Option<f64>,
    dof_target: Option<f64>,
}

/// Every scene (a quick run: ClaspHand and its mug alone), both scripts, both moves; the checks
/// are that no frame leaves bodies passing into each other, that both moves end frames alike,
/// and that both drags end on the object.
pub fn run(library: Option<&Path>, quick: bool, checks: &mut Checks) -> Value {
    let budget = if quick {
        QUICK_EXACT_BUDGET
    } else {
        EXACT_BUDGET
    };
    println!(
        "\napp frame ({}, {} build): {FRAMES} frames a script; a frame is Editor::drag_element_to or drag_dof, then marker_geometry; \
         the exact move stops after {} s",
        if quick {
            "quick: the default scene"
        } else {
            "full"
        },
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        },
        budget.as_secs()
    );
    let mut rows = rows(library);
    if quick {
        rows.truncate(1);
    }
    let mut results = Vec::new();
    for row in rows {
        for script in [Script::Hand, Script::Dof] {
            let target = match script {
                Script::Hand => row.hand_target,
                Script::Dof => row.dof_target,
            };
            results.push(compare(&row, script, target, budget, checks));
        }
    }
    Value::Array(results)
}

fn rows(library: Option<&Path>) -> Vec<Row> {
    let mut rows = vec![Row {
        build: Box::new(scenes::default_scene),
        hand_target: Some(1.0),
        dof_target: Some(1.0),
    }];
    match library.map(scenes::barrett_scene) {
        Some(Ok(_)) => {
            let library = library.expect("checked").to_path_buf();
            rows.push(Row {
                build: Box::new(move || scenes::barrett_scene(&library).expect("loaded once")),
                hand_target: None,
                dof_target: None,
            })
        }
        Some(Err(e)) => println!("  the Barrett scene cannot load: {e}"),
        None => println!("  the Barrett scene skipped: GraspIt's model library not found"),
    }
    // 12·91² = 99,372 and 12·289² = 1,002,252 triangles.
    for (cells, hand, dof) in [(91, Some(4.0), Some(2.0)), (289, Some(8.0), None)] {
        let mesh = crate::scenes::sphere_mesh(cells);
        rows.push(Row {
            build: Box::new(move || scenes::sphere_scene(&mesh)),
            hand_target: hand,
            dof_target: dof,
        });
    }
    rows
}

/// Plays one script with both moves and reports them side by side.
fn compare(
    row: &Row,
    script: Script,
    target: Option<f64>,
    budget: Duration,
    checks: &mut Checks,
) -> Value {
    let bounded = play(&row.build, script, MoveQueries::Bounded, None, checks);
    let exact = play(&row.build, script, MoveQueries::Exact, Some(budget), checks);
    let name = &bounded.0;
    let (bounded, exact) = (bounded.1, exact.1);
    let label = format!("{name}, {} drag", script_name(script));
    check_alike(&bounded, &exact, &label, checks);
    let common = exact.len();
    let ms = |frames: &[Frame], q: f64| percentile(&ns(frames), q) / 1e6;
    let max = |frames: &[Frame]| ns(frames).into_iter().fold(0.0, f64::max) / 1e6;
    let p99 = ms(&bounded, 0.99);
    // The targets are for the release build; a debug run (CI's, so the mode cannot rot) only
    // checks what the frames do.
    let target = target.filter(|_| !cfg!(debug_assertions));
    let met = target.map(|t| p99 <= t);
    let held = bounded.iter().filter(|f| f.held).count();
    println!(
        "  {label}: bounded p50 {:.3} ms, p99 {p99:.3} ms, max {:.3} ms ({held} of {} frames held at contact); \
         exact p50 {:.3} ms, p99 {:.3} ms over {common} frames; speed-up over those frames p50 {:.1}×, p99 {:.1}×; target p99 ≤ {}",
        ms(&bounded, 0.5),
        max(&bounded),
        bounded.len(),
        ms(&exact, 0.5),
        ms(&exact, 0.99),
        ms(&exact, 0.5) / ms(&bounded[..common], 0.5),
        ms(&exact, 0.99) / ms(&bounded[..common], 0.99),
        target.map_or("(none)".to_string(), |t| format!(
            "{t} ms: {}",
            if p99 <= t { "met" } else { "NOT met" }
        )),
    );
    json!({
        "scene": name, "script": script_name(script), "frames": bounded.len(),
        "held_frames": held,
        "bounded": {"p50_ns": ms(&bounded, 0.5) * 1e6, "p99_ns": p99 * 1e6, "max_ns": max(&bounded) * 1e6},
        "exact": {"frames": common, "p50_ns": ms(&exact, 0.5) * 1e6, "p99_ns": ms(&exact, 0.99) * 1e6, "max_ns": max(&exact) * 1e6},
        "bounded_same_frames": {"p50_ns": ms(&bounded[..common], 0.5) * 1e6, "p99_ns": ms(&bounded[..common], 0.99) * 1e6},
        "target_p99_ms": target, "target_met": met,
    })
}

fn script_name(script: Script) -> &'static str {
    match script {
        Script::Hand => "hand",
        Script::Dof => "DOF",
    }
}

fn ns(frames: &[Frame]) -> Vec<f64> {
    frames.iter().map(|f| f.ns).collect()
}

/// Both moves leave the hand within the contact threshold (0.1 mm), and its DOFs within 0.01,
/// of each other in every frame both played.
fn check_alike(bounded: &[Frame], exact: &[Frame], label: &str, checks: &mut Checks) {
    let (mut palm, mut dofs) = (0.0_f64, 0.0_f64);
    for (b, e) in bounded.iter().zip(exact) {
        palm = palm.max((b.palm.translation.vector - e.palm.translation.vector).norm());
        let most = b.dofs.iter().zip(&e.dofs).map(|(x, y)| (x - y).abs());
        dofs = dofs.max(most.fold(0.0, f64::max));
    }
    println!("    bounded and exact moves: palms at most {palm:.4} mm apart, DOFs {dofs:.5}");
    let threshold = clasp_collide::DEFAULT_CONTACT_THRESHOLD;
    checks.expect(palm <= threshold && dofs <= 0.01, || {
        format!("app frame, {label}: the bounded and exact moves part by {palm:.3} mm, DOFs by {dofs:.4}")
    });
}

/// Plays a script on a fresh scene with one kind of move; stops early once `budget` is spent.
fn play(
    build: &dyn Fn() -> Scene,
    script: Script,
    queries: MoveQueries,
    budget: Option<Duration>,
    checks: &mut Checks,
) -> (String, Vec<Frame>) {
    let mut scene = build();
    scene
        .editor
        .resource_mut::<Document>()
        .world
        .set_move_queries(queries);
    let label = format!(
        "{}, {} drag, {queries:?} move",
        scene.name,
        script_name(script)
    );
    let started = Instant::now();
    let mut overlaps = 0;
    let mut frames = Vec::with_capacity(FRAMES);
    let mut step: FrameStep = match script {
        Script::Hand => {
            let mut hand = HandScript::new(&scene);
            Box::new(move |e: &mut Editor, f| {
                let target =
                    hand.target(f, e.doc.world.robot(RobotId::from_index(0)).unwrap().pose());
                e.drag_element_to(Element::Robot(RobotId::from_index(0)), target);
            })
        }
        Script::Dof => {
            let (dof, from, to) = scenes::dof_to_drag(&mut scene);
            Box::new(move |e: &mut Editor, f| {
                let value = from + (to - from) * (f + 1) as f64 / FRAMES as f64;
                e.drag_dof(RobotId::from_index(0), dof, value);
            })
        }
    };
    let object = scene.object;
    edit(&mut scene.editor, |editor| {
        editor.begin_drag("drag");
        for f in 0..FRAMES {
            frames.push(frame(editor, object, |e| step(e, f)));
            overlaps += usize::from(!editor.doc.world.overlapping_pairs().is_empty());
            if budget.is_some_and(|b| started.elapsed() > b) {
                break;
            }
        }
        editor.end_drag();
    });
    checks.expect(overlaps == 0, || {
        format!("app frame, {label}: {overlaps} frames left bodies passing into each other")
    });
    let touching = frames.iter().filter(|f| f.touching).count();
    checks.expect(frames.len() < FRAMES || touching > FRAMES / 10, || {
        format!("app frame, {label}: the object was touched in only {touching} of {FRAMES} frames")
    });
    (scene.name, frames)
}

/// One timed frame: the drag step, then the contact markers.
fn frame(editor: &mut Editor, object: BodyId, step: impl FnOnce(&mut Editor)) -> Frame {
    let start = Instant::now();
    step(editor);
    let markers = marker_geometry(&editor.doc.world, editor.view.cone_height);
    let ns = start.elapsed().as_nanos() as f64;
    black_box(&markers);
    Frame {
        ns,
        held: editor.doc.touching.is_some(),
        touching: editor.doc.world.contacts_of(object).next().is_some(),
        palm: editor
            .doc
            .world
            .robot(RobotId::from_index(0))
            .unwrap()
            .pose(),
        dofs: editor
            .doc
            .world
            .robot(RobotId::from_index(0))
            .unwrap()
            .dof_values()
            .to_vec(),
    }
}
