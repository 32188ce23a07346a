//! Renderers: the core's values (contacts, grasp contacts and their models, bodies, touching
//! pairs, the outcomes of the approach and the auto-grasp, poses) as text or as JSON, for the
//! commands to print.

use std::fmt::Write as _;

use clasp_core::{BodyId, Contact, ContactModel, GraspContact, MoveOutcome, World};
use serde_json::{Value, json};

/// A pose as its 4×4 matrix's 16 numbers, row by row (how `batch` and `plan` print palms).
pub(crate) fn pose_row(pose: &clasp_core::Pose) -> Vec<f64> {
    let m = pose.to_homogeneous();
    (0..16).map(|k| m[(k / 4, k % 4)]).collect()
}

/// The lines saying what the approach and the auto-grasp did, each when it ran.
pub(crate) fn moves_text(
    world: &World,
    approached: Option<&(MoveOutcome, f64)>,
    grasped: Option<&MoveOutcome>,
) -> String {
    let mut text = String::new();
    if let Some((outcome, distance)) = approached {
        let _ = writeln!(
            text,
            "approach: {}",
            approach_line(world, outcome, *distance)
        );
    }
    if let Some(grasped) = grasped {
        let _ = writeln!(text, "grasp: {}", grasp_line(world, grasped));
    }
    text
}

pub(crate) fn approach_json(world: &World, (outcome, distance): &(MoveOutcome, f64)) -> Value {
    json!({
        "touched": !outcome.completed,
        "max_distance": distance,
        "stopped_by": pairs_json(world, &outcome.stopped_by),
        "blocked_by_overlap": outcome.blocked_by_overlap,
    })
}

fn model_json(model: &ContactModel) -> Value {
    match model {
        ContactModel::Point => json!({ "kind": "point" }),
        ContactModel::PointFallback(reason) => {
            json!({ "kind": "point_fallback", "reason": reason.to_string() })
        }
        ContactModel::Soft(soft) => json!({
            "kind": "soft",
            "torsion_radius": soft.area.torsion_radius,
            "relative_radii": soft.relative_radii,
            "merged": soft.merged,
        }),
    }
}

fn model_text(model: &ContactModel) -> String {
    match model {
        ContactModel::Point => "point contact".to_owned(),
        ContactModel::PointFallback(reason) => {
            format!("point contact (not soft: {reason})").replace(['\n', '\r'], " ")
        }
        ContactModel::Soft(soft) => {
            let merged = match soft.merged {
                0 => String::new(),
                n => format!(", {} merged into it", count(n, "contact")),
            };
            format!(
                "soft contact, torsion radius {:.3} mm{merged}",
                soft.area.torsion_radius
            )
        }
    }
}

/// A grasp's contact: the hand's body touching the object, the object-side point and normal,
/// the friction its wrenches use, its model and its wrenches (each fx, fy, fz, tx, ty, tz:
/// what the grasp's wrench space is built from).
pub(crate) fn grasp_contact_json(world: &World, c: &GraspContact) -> Value {
    let (p, n) = (c.contact.point, c.contact.inward().into_inner());
    json!({
        "body": body_json(world, c.contact.other),
        "point": [p.x, p.y, p.z],
        "normal": [n.x, n.y, n.z],
        "separation": c.contact.separation,
        "friction": c.friction,
        "model": model_json(&c.model),
        "wrenches": c.wrenches,
    })
}

pub(crate) fn grasp_contact_line(world: &World, c: &GraspContact) -> String {
    let p = c.contact.point;
    format!(
        "{}: point ({:.3}, {:.3}, {:.3}) mm, μ {:.3}, {}",
        body_text(world, c.contact.other),
        p.x,
        p.y,
        p.z,
        c.friction,
        model_text(&c.model)
    )
}

pub(crate) fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A body's id as a string: `body 0`, `robot 0 palm`, `robot 0 chain 1 link 2`.
fn id_string(id: BodyId) -> String {
    match id {
        BodyId::Free(i) => format!("body {i}"),
        BodyId::Palm { robot } => format!("robot {robot} palm"),
        BodyId::Link { robot, chain, link } => {
            format!("robot {robot} chain {chain} link {link}")
        }
        BodyId::Mount { robot } => format!("robot {robot} mount"),
    }
}

pub(crate) fn body_name(world: &World, id: BodyId) -> String {
    world
        .body(id)
        .map_or_else(|| "?".to_owned(), |b| b.name.clone())
}

fn robot_name(world: &World, id: BodyId) -> Option<String> {
    id.robot()
        .and_then(|r| world.robot(r))
        .map(|r| r.name.clone())
}

/// A body for a reader: its name, and for a robot's body the robot, chain and link.
fn body_text(world: &World, id: BodyId) -> String {
    let name = body_name(world, id);
    let robot = robot_name(world, id).unwrap_or_default();
    match id {
        BodyId::Free(_) => name,
        BodyId::Palm { .. } => format!("{name} ({robot} palm)"),
        BodyId::Link { chain, link, .. } => format!("{name} ({robot} chain {chain} link {link})"),
        BodyId::Mount { .. } => format!("{name} ({robot} mount)"),
    }
}

pub(crate) fn body_json(world: &World, id: BodyId) -> Value {
    let mut value = json!({ "id": id_string(id), "name": body_name(world, id) });
    if let Some(body) = world.body(id) {
        crate::summary::extend(&mut value, crate::summary::groups(body));
    }
    if let Some(robot) = robot_name(world, id) {
        value["robot"] = json!(robot);
    }
    if let BodyId::Link { chain, link, .. } = id {
        value["chain"] = json!(chain);
        value["link"] = json!(link);
    }
    value
}

/// Every field of RaiSim's contact API, as the side on `c.body` sees it.
pub(crate) fn contact_json(world: &World, c: &Contact) -> Value {
    let n = c.normal.into_inner();
    let w = c.world_impulse();
    let q = c.frame.rotation.quaternion();
    json!({
        "body": body_json(world, c.body),
        "other": body_json(world, c.other),
        "index": c.index,
        "pair_index": c.pair_index,
        "is_object_a": c.is_object_a,
        "point": [c.point.x, c.point.y, c.point.z],
        "other_point": [c.other_point.x, c.other_point.y, c.other_point.z],
        "normal": [n.x, n.y, n.z],
        "frame_rotation_wxyz": [q.w, q.i, q.j, q.k],
        "separation": c.separation,
        "depth": c.depth(),
        "triangle": c.triangle,
        "other_triangle": c.other_triangle,
        "local_index": c.local_index,
        "body_type": c.body_type.name(),
        "other_type": c.other_type.name(),
        "static_friction": c.static_friction,
        "kinetic_friction": c.kinetic_friction,
        "is_self_collision": c.is_self_collision,
        "skip": c.skip,
        "model": model_json(&c.model),
        "friction_edges": c.friction_edges,
        "impulse": [c.impulse.x, c.impulse.y, c.impulse.z],
        "world_impulse": [w.x, w.y, w.z],
        "inverse_inertia": c.inverse_inertia.transpose().as_slice(),
        "index_in_contact_problem": c.index_in_contact_problem,
    })
}

pub(crate) fn contact_line(world: &World, c: &Contact) -> String {
    let n = c.normal.into_inner();
    let p = c.point;
    let mut line = format!(
        "{} | {}: point ({:.3}, {:.3}, {:.3}) mm, normal ({:.4}, {:.4}, {:.4}), separation {:.4} mm, \
         μ static {:.3} kinetic {:.3}",
        body_text(world, c.body),
        body_text(world, c.other),
        p.x,
        p.y,
        p.z,
        n.x,
        n.y,
        n.z,
        c.separation,
        c.static_friction,
        c.kinetic_friction,
    );
    if c.is_self_collision {
        line.push_str(", self-collision");
    }
    line
}

pub(crate) fn pairs_json(world: &World, pairs: &[(BodyId, BodyId)]) -> Vec<Value> {
    pairs
        .iter()
        .map(|&(a, b)| json!([body_json(world, a), body_json(world, b)]))
        .collect()
}

fn pairs_text(world: &World, pairs: &[(BodyId, BodyId)]) -> String {
    pairs
        .iter()
        .map(|&(a, b)| format!("{} on {}", body_text(world, a), body_text(world, b)))
        .collect::<Vec<_>>()
        .join("; ")
}

fn approach_line(world: &World, outcome: &MoveOutcome, distance: f64) -> String {
    if outcome.completed {
        format!("touched nothing within {distance:.1} mm, so the hand went back")
    } else if outcome.stopped_by.is_empty() {
        "stopped without a touching pair".to_owned()
    } else {
        let overlap = if outcome.blocked_by_overlap {
            " (an overlap would have deepened)"
        } else {
            ""
        };
        format!(
            "touched: {}{overlap}",
            pairs_text(world, &outcome.stopped_by)
        )
    }
}

fn grasp_line(world: &World, outcome: &MoveOutcome) -> String {
    if outcome.stopped_by.is_empty() {
        "every finger reached its limit without touching anything".to_owned()
    } else {
        let overlap = if outcome.blocked_by_overlap {
            " (an overlap would have deepened)"
        } else {
            ""
        };
        format!(
            "stopped by {}{overlap}",
            pairs_text(world, &outcome.stopped_by)
        )
    }
}
