//! The app's per-frame simulation work while a hand is dragged against a large object, headless:
//! what the desktop app does each frame of a drag, without Bevy's own work (input, ECS views,
//! rendering). One frame is one pointer step: `Editor::drag_element_to` (the core moves the hand
//! toward where the pointer says and stops it at contact, the contacts are found again and the
//! grasp's epsilon quality is evaluated), then `markers::marker_geometry` (the contact markers'
//! mesh). Target: p99 under 4 ms on ClaspHand against a 100k-triangle object.
//!
//! Two scripts of 600 frames each, one drag each (`begin_drag` first, `end_drag` last, neither
//! timed): the whole hand dragged from 30 mm away onto a 40 mm sphere, pressed in, slid round
//! it and rolled; then one finger's DOF dragged closed onto the sphere. Built only with the
//! `app` feature (it builds Bevy): `cargo run --release -p clasp-bench --features app --
//! --app-frame`.

use std::hint::black_box;
use std::time::Instant;

use clasp_app::{Editor, markers::marker_geometry};
use clasp_collide::{TriMesh, shapes::subdivided_box};
use clasp_core::{Body, BodyId, BodyKind, Element, Pose};
use nalgebra::{Point3, Translation3, Unit, UnitQuaternion, Vector3};
use serde_json::{Value, json};

use crate::check::Checks;
use crate::timing::percentile;

/// The object's radius, mm.
const RADIUS: f64 = 40.0;
/// Cells along each edge of the cube that is blown up into the sphere: 6 · 91² · 2 = 99,372
/// triangles.
const CELLS: usize = 91;
/// How far the hand starts from the object, mm.
const START_GAP: f64 = 30.0;
const FRAMES: usize = 600;
const TARGET_P99_MS: f64 = 4.0;

/// A sphere of [`RADIUS`] about the origin: a finely subdivided cube with every vertex pushed
/// out onto the sphere, so the triangles are of much the same size everywhere.
pub fn sphere_mesh() -> TriMesh {
    let cube = subdivided_box([-1.0; 3], [1.0; 3], CELLS);
    let vertices = cube
        .vertices()
        .iter()
        .map(|v| Point3::from(v.coords.normalize() * RADIUS))
        .collect();
    TriMesh::new(vertices, cube.triangles().to_vec()).expect("a cube's triangles on a sphere")
}

/// The default scene with the mug deleted and the sphere in its place, on the hand's approach
/// line, [`START_GAP`] from where the hand would first touch it.
struct Scene {
    editor: Editor,
    object: BodyId,
    /// The sphere's centre.
    centre: Point3<f64>,
    /// The hand's approach direction, world.
    approach: Vector3<f64>,
}

fn translation(p: Point3<f64>) -> Pose {
    Pose::from_parts(Translation3::from(p.coords), UnitQuaternion::identity())
}

fn scene(mesh: &TriMesh) -> Scene {
    let mut editor = clasp_app::open_scene(&[]);
    // The mug goes, as a user deletes it.
    let mug = editor
        .world
        .grasped_object()
        .expect("the default scene has its mug");
    editor.click_body(mug, false);
    editor.delete_selection();
    let robot = &editor.world.robots[0];
    let palm = robot.pose();
    let (reference, direction) = robot
        .approach
        .as_ref()
        .map_or((Point3::origin(), Vector3::z()), |a| {
            (a.reference, a.direction.into_inner())
        });
    let (reference, approach) = (palm * reference, palm.rotation * direction);
    let far = RADIUS + 200.0;
    let mut body = Body::from_mesh("sphere_100k", BodyKind::Graspable, mesh.clone());
    body.pose = translation(reference + approach * far);
    let object = editor.world.add_body(body);
    let BodyId::Free(index) = object else {
        unreachable!("a body added to the world is free")
    };
    // Where would the hand first touch it? A copy of the world approaches until it does.
    let mut probe = editor.world.clone();
    let outcome = probe
        .approach_to_contact(0, 2.0 * far)
        .expect("the hand can approach");
    assert!(!outcome.completed, "the hand meets the sphere on its way");
    let travel = (probe.robots[0].pose().translation.vector - palm.translation.vector).norm();
    let centre = reference + approach * (far - travel + START_GAP);
    editor
        .world
        .set_pose(Element::Body(index), translation(centre))
        .expect("a finite pose");
    editor.forget_history();
    Scene {
        editor,
        object,
        centre,
        approach,
    }
}

/// What one frame did.
struct Frame {
    ns: f64,
    /// The move stopped at contact (the app's "touches" and magenta dragger).
    held: bool,
    /// The object had contacts after the frame.
    touching: bool,
    cones: usize,
    patches: usize,
}

/// One timed frame: the drag step, then the contact markers.
fn frame(editor: &mut Editor, object: BodyId, step: impl FnOnce(&mut Editor)) -> Frame {
    let start = Instant::now();
    step(editor);
    let markers = marker_geometry(editor);
    let ns = start.elapsed().as_nanos() as f64;
    black_box(&markers);
    Frame {
        ns,
        held: editor.touching.is_some(),
        touching: editor.world.contacts_of(object).next().is_some(),
        cones: markers.cones,
        patches: markers.patches,
    }
}

/// The pointer's path for the hand drag, as palm poses: frames 0–149 approach at 0.4 mm a frame
/// (60 mm, twice the gap), 150–299 press on 0.1 mm a frame, 300–449 slide round the sphere from
/// where the press left the hand (0.4° a frame about an axis across the approach through the
/// sphere's centre, which keeps the hand's distance to the sphere), 450–599 roll 10° about the
/// line from the sphere's centre along the approach.
struct HandScript {
    start: Pose,
    approach: Vector3<f64>,
    across: Unit<Vector3<f64>>,
    centre: Point3<f64>,
    /// Where the hand stood after the press: the slide starts from there.
    pressed: Option<Pose>,
}

impl HandScript {
    fn target(&mut self, f: usize, now: Pose) -> Pose {
        let along = |mm: f64| Translation3::from(self.approach * mm);
        let about = |axis: Unit<Vector3<f64>>, angle: f64| {
            let c = Translation3::from(self.centre.coords);
            c * UnitQuaternion::from_axis_angle(&axis, angle) * c.inverse()
        };
        match f {
            0..150 => along(0.4 * f as f64) * self.start,
            150..300 => along(60.0 + 0.1 * (f - 150) as f64) * self.start,
            _ => {
                let pressed = *self.pressed.get_or_insert(now);
                let angle = 0.4f64.to_radians() * (f.min(449) - 299) as f64;
                let slide = about(self.across, angle);
                let slid = slide * pressed;
                if f < 450 {
                    return slid;
                }
                let approach = Unit::new_normalize(slide.rotation * self.approach);
                let roll = 10f64.to_radians() * (f - 449) as f64 / 150.0;
                about(approach, roll) * slid
            }
        }
    }
}

/// A unit vector across `v`.
fn across(v: &Vector3<f64>) -> Unit<Vector3<f64>> {
    let helper = if v.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::z()
    };
    Unit::new_normalize(v.cross(&helper))
}

fn hand_drag(mesh: &TriMesh, checks: &mut Checks) -> Vec<Frame> {
    let Scene {
        mut editor,
        object,
        centre,
        approach,
    } = scene(mesh);
    let start = editor.world.robots[0].pose();
    let mut script = HandScript {
        start,
        approach,
        across: across(&approach),
        centre,
        pressed: None,
    };
    editor.begin_drag("move");
    let mut frames = Vec::with_capacity(FRAMES);
    let mut overlaps = 0;
    for f in 0..FRAMES {
        let now = editor.world.robots[0].pose();
        let target = script.target(f, now);
        frames.push(frame(&mut editor, object, |e| {
            e.drag_element_to(Element::Robot(0), target);
        }));
        overlaps += usize::from(!editor.world.overlapping_pairs().is_empty());
    }
    editor.end_drag();
    let end = editor.world.robots[0].pose();
    checks.expect(overlaps == 0, || {
        format!("app frame, hand drag: {overlaps} frames left bodies passing into each other")
    });
    let touching = frames.iter().filter(|f| f.touching).count();
    checks.expect(touching > FRAMES / 3, || {
        format!(
            "app frame, hand drag: the sphere was touched in only {touching} of {FRAMES} frames"
        )
    });
    checks.expect(editor.can_undo() == Some("move"), || {
        "app frame, hand drag: the drag is not one undo step".into()
    });
    println!(
        "  hand travelled {:.1} mm and turned {:.1}°",
        (end.translation.vector - start.translation.vector).norm(),
        (start.rotation.inverse() * end.rotation)
            .angle()
            .to_degrees()
    );
    frames
}

/// The hand brought up to touch the sphere, then a finger's DOF dragged from where it is to its
/// closing limit in 600 equal steps: it stops on the sphere and is held there.
fn dof_drag(mesh: &TriMesh, checks: &mut Checks) -> Vec<Frame> {
    let Scene {
        mut editor, object, ..
    } = scene(mesh);
    editor.approach(0, 2.0 * START_GAP);
    editor.forget_history();
    // The first finger DOF that, closed all the way, would meet the sphere.
    let robot = &editor.world.robots[0];
    let closing = |dof: usize| {
        let r = &editor.world.robots[0];
        let (lo, hi) = r.dof_limits(dof);
        if r.dofs[dof].default_velocity >= 0.0 {
            hi
        } else {
            lo
        }
    };
    let dof = (0..robot.dofs.len())
        .filter(|&d| robot.dofs[d].default_velocity != 0.0)
        .find(|&d| {
            let mut probe = editor.world.clone();
            let mut target = probe.robots[0].dof_values().to_vec();
            target[d] = closing(d);
            probe
                .move_dofs_to(0, &target)
                .is_ok_and(|o| o.stopped_by.iter().any(|&(_, b)| b == object))
        })
        .unwrap_or(1);
    let from = editor.world.robots[0].dof_values()[dof];
    let to = closing(dof);
    editor.begin_drag("joint drag");
    let mut frames = Vec::with_capacity(FRAMES);
    let mut overlaps = 0;
    for f in 0..FRAMES {
        let value = from + (to - from) * (f + 1) as f64 / FRAMES as f64;
        frames.push(frame(&mut editor, object, |e| {
            e.drag_dof(0, dof, value);
        }));
        overlaps += usize::from(!editor.world.overlapping_pairs().is_empty());
    }
    editor.end_drag();
    let reached = editor.world.robots[0].dof_values()[dof];
    checks.expect(overlaps == 0, || {
        format!("app frame, DOF drag: {overlaps} frames left bodies passing into each other")
    });
    let stopped_on_object =
        editor.world.contacts_of(object).next().is_some() && (reached - to).abs() > 1e-6;
    checks.expect(stopped_on_object, || {
        format!("app frame, DOF drag: DOF {dof} went to {reached} without stopping on the sphere")
    });
    println!(
        "  DOF {dof} dragged from {:.1}° toward {:.1}°, stopped at {:.1}°",
        from.to_degrees(),
        to.to_degrees(),
        reached.to_degrees()
    );
    frames
}

/// The hand script's four phases, 150 frames each.
const PHASES: [&str; 4] = ["approach", "press", "slide", "roll"];

fn report(name: &str, frames: &[Frame], phases: &[&str]) -> Value {
    let ns: Vec<f64> = frames.iter().map(|f| f.ns).collect();
    let (p50, p99) = (percentile(&ns, 0.5), percentile(&ns, 0.99));
    let max = ns.iter().copied().fold(0.0, f64::max);
    let held = frames.iter().filter(|f| f.held).count();
    let touching = frames.iter().filter(|f| f.touching).count();
    let held_ns: Vec<f64> = frames.iter().filter(|f| f.held).map(|f| f.ns).collect();
    let free_ns: Vec<f64> = frames.iter().filter(|f| !f.held).map(|f| f.ns).collect();
    let cones = frames.iter().map(|f| f.cones).max().unwrap_or(0);
    let patches = frames.iter().map(|f| f.patches).max().unwrap_or(0);
    let met = p99 < TARGET_P99_MS * 1e6;
    let ms = |ns: f64| ns / 1e6;
    println!(
        "  {name}: median {:.2} ms, p99 {:.2} ms, max {:.2} ms; held at contact {held}/{} ({:.0} %), object touched {touching}; at most {cones} cones, {patches} patches",
        ms(p50),
        ms(p99),
        ms(max),
        frames.len(),
        100.0 * held as f64 / frames.len() as f64,
    );
    println!(
        "    held frames median {:.2} ms, others {:.2} ms; p99 < {TARGET_P99_MS} ms: {}",
        ms(percentile(&held_ns, 0.5)),
        ms(percentile(&free_ns, 0.5)),
        if met { "met" } else { "NOT met" }
    );
    let mut by_phase = serde_json::Map::new();
    if !phases.is_empty() {
        let length = frames.len() / phases.len();
        let medians: Vec<String> = phases
            .iter()
            .zip(frames.chunks(length))
            .map(|(phase, chunk)| {
                let ns: Vec<f64> = chunk.iter().map(|f| f.ns).collect();
                let held = chunk.iter().filter(|f| f.held).count();
                by_phase.insert(
                    (*phase).into(),
                    json!({"median_ns": percentile(&ns, 0.5), "p99_ns": percentile(&ns, 0.99), "held_frames": held}),
                );
                format!(
                    "{phase} {:.1} ms ({held} held)",
                    ms(percentile(&ns, 0.5))
                )
            })
            .collect();
        println!("    median by phase: {}", medians.join(", "));
    }
    json!({
        "by_phase": by_phase,
        "frames": frames.len(), "median_ns": p50, "p99_ns": p99, "max_ns": max,
        "held_frames": held, "touching_frames": touching,
        "held_median_ns": percentile(&held_ns, 0.5), "free_median_ns": percentile(&free_ns, 0.5),
        "max_cones": cones, "max_patches": patches, "p99_target_met": met,
    })
}

/// Both scripts, timed; the checks are that no frame leaves bodies passing into each other and
/// that both drags end on the sphere.
pub fn run(checks: &mut Checks) -> Value {
    let mesh = sphere_mesh();
    println!(
        "\napp frame: ClaspHand against a {}-triangle sphere of radius {RADIUS} mm, {FRAMES} frames a script; \
         a frame is Editor::drag_element_to or drag_dof, then marker_geometry",
        mesh.triangles().len()
    );
    let hand = hand_drag(&mesh, checks);
    let hand = report("hand drag", &hand, &PHASES);
    let dof = dof_drag(&mesh, checks);
    let dof = report("DOF drag", &dof, &[]);
    json!({"object_triangles": mesh.triangles().len(), "hand_drag": hand, "dof_drag": dof})
}
