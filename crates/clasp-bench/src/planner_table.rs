//! The planner where grasps are made (part of `--planner-only` and of every quick and full
//! run): each of five objects of GraspIt's library standing on GraspIt's table as it would
//! rest there (the mug, flask and glass upright, the phone and the book lying flat), planned
//! with the Barrett and with the Schunk hand at the planner's defaults (the quick run: 2,500
//! steps a search). Reported: the distinct force-closure grasps among the grasps returned
//! (target ≥ 5 each, at the defaults). Checked: every grasp returned, put in place, leaves the
//! hand in nothing, as the brute-force reference engine judges.

use std::path::Path;

use clasp_core::{BodyId, BodyKind, Element, PlanProgress, PlanSettings, Pose, RobotId, World};
use clasp_io::{Disk, load_body, load_robot};
use nalgebra::{UnitQuaternion, Vector3};
use serde_json::{Value, json};

use crate::check::Checks;

/// Each object, and the turn (about x, then y, radians) that stands it as it rests on a table.
const OBJECTS: [(&str, [f64; 2]); 5] = [
    ("mug", [0.0, 0.0]),
    ("flask", [0.0, 0.0]),
    ("glass", [std::f64::consts::FRAC_PI_2, 0.0]),
    ("phone", [0.0, 0.0]),
    ("book", [0.0, -std::f64::consts::FRAC_PI_2]),
];

const HANDS: [&str; 2] = ["Barrett/Barrett.xml", "Schunk/Schunk.xml"];

/// The target: distinct force-closure grasps of each object on the table.
const TARGET: usize = 5;

pub fn run(library: &Path, quick: bool, checks: &mut Checks) -> Value {
    let settings = PlanSettings {
        steps: if quick {
            2_500
        } else {
            PlanSettings::default().steps
        },
        ..PlanSettings::default()
    };
    println!(
        "\ngrasp planner on a table ({} steps a search, defaults otherwise): force-closure grasps of those returned",
        settings.steps
    );
    let mut rows = Vec::new();
    for (object, turn) in OBJECTS {
        for hand in HANDS {
            let Some(world) = scene(library, object, turn, hand) else {
                checks.expect(false, || {
                    format!("planner on a table: {object} did not load")
                });
                continue;
            };
            rows.push(measure(&world, object, hand, &settings, checks));
        }
    }
    Value::Array(rows)
}

fn measure(
    world: &World,
    object: &str,
    hand: &str,
    settings: &PlanSettings,
    checks: &mut Checks,
) -> Value {
    let robot = RobotId::from_index(0);
    let Ok(plan) = world.plan(robot, BodyId::Free(1), settings, &PlanProgress::default()) else {
        checks.expect(false, || {
            format!("planner on a table, {object}: the plan failed")
        });
        return Value::Null;
    };
    let closures = plan.grasps.iter().filter(|g| g.force_closure()).count();
    for (k, g) in plan.grasps.iter().enumerate() {
        let mut placed = world.clone();
        let put = placed.put_grasp(robot, &g.grasp);
        let overlaps = clasp_io::fixtures::interpenetrating(&placed);
        checks.expect(put.is_ok() && overlaps.is_empty(), || {
            format!("planner on a table, {object} with {hand}: grasp {k} leaves {overlaps:?}")
        });
    }
    let name = hand.split('/').next().unwrap_or(hand);
    let met = if closures >= TARGET { "met" } else { "NOT met" };
    println!(
        "  {object:<6} {name:<8} {closures:>2} of {} force closure ({:.1} s; target ≥ {TARGET}: {met})",
        plan.grasps.len(),
        plan.seconds
    );
    json!({
        "object": object,
        "hand": name,
        "grasps": plan.grasps.len(),
        "force_closure_grasps": closures,
        "seconds": plan.seconds,
    })
}

/// GraspIt's table, its top at z = 0, the object resting on it 0.5 mm up, and the hand
/// 600 mm above.
fn scene(library: &Path, object: &str, [about_x, about_y]: [f64; 2], hand: &str) -> Option<World> {
    let table = load_body(
        &Disk,
        &library.join("obstacles/table.xml"),
        BodyKind::Obstacle,
    )
    .ok()?
    .at(Pose::translation(0.0, -559.1, 515.938));
    let body = load_body(
        &Disk,
        &library.join(format!("objects/{object}.xml")),
        BodyKind::Graspable,
    )
    .ok()?;
    let turn = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), about_y)
        * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), about_x);
    let lowest = body
        .mesh()
        .vertices()
        .iter()
        .map(|v| (turn * v).z)
        .fold(f64::INFINITY, f64::min);
    let standing = Pose::from_parts(Vector3::new(0.0, 0.0, 0.5 - lowest).into(), turn);
    let robot = load_robot(&Disk, &library.join("robots").join(hand)).ok()?;
    let mut world = World::new(vec![table, body.at(standing)], vec![robot]);
    world
        .set_pose(
            Element::Robot(RobotId::from_index(0)),
            Pose::translation(0.0, 0.0, 600.0),
        )
        .ok()?;
    Some(world)
}
