//! The JSON summary of each kind of file.

use clasp_core::{Body, HandApproach, Pose, Robot, RobotBody, TriMesh, VirtualContacts, World};
use serde_json::{Value, json};

/// Triangles, vertices, bounding box and closedness of a mesh.
pub fn mesh(mesh: &TriMesh) -> Value {
    let (min, max) = if mesh.vertices().is_empty() {
        ([0.0; 3], [0.0; 3])
    } else {
        let (lo, hi) = mesh.bounding_box();
        ([lo.x, lo.y, lo.z], [hi.x, hi.y, hi.z])
    };
    json!({
        "triangles": mesh.triangles().len(),
        "vertices": mesh.vertices().len(),
        "bounding_box": { "min": min, "max": max },
        "closed": mesh.is_closed(),
    })
}

/// How a bare mesh was read: its unit (and what chose it), its up axis, its size in mm.
pub fn mesh_units(units: &clasp_io::MeshUnits) -> Value {
    let chosen_by = match units.unit_source {
        clasp_io::UnitSource::Given => "given",
        clasp_io::UnitSource::Format => "format",
        clasp_io::UnitSource::Size => "size",
    };
    json!({
        "units": units.unit.symbol(),
        "units_chosen_by": chosen_by,
        "up": units.up.name(),
        "across_mm": units.across_mm(),
    })
}

/// A body: its mesh, material, mass properties and stiffness.
pub fn body(body: &Body) -> Value {
    let mut value = mesh(body.mesh());
    let m = &body.mass;
    let inertia: Vec<[f64; 3]> = (0..3)
        .map(|r| [m.inertia[(r, 0)], m.inertia[(r, 1)], m.inertia[(r, 2)]])
        .collect();
    extend(
        &mut value,
        json!({
            "name": body.name,
            "material": body.material.name(),
            "mass": m.mass,
            "cog": [m.cog.x, m.cog.y, m.cog.z],
            "inertia_per_unit_mass": inertia,
            "youngs": body.youngs,
            "open_mesh_estimate": m.open_mesh_estimate,
            "inertia_repair": m.inertia_repair,
            "collision_group": body.groups().group(),
            "collision_mask": clasp_io::mask_text(body.groups().mask()),
        }),
    );
    value
}

/// A robot: DOFs with kinds, defaults and limits; chains with their joints and links.
pub fn robot(robot: &Robot) -> Value {
    let dofs: Vec<Value> = robot
        .dofs
        .iter()
        .enumerate()
        .map(|(i, dof)| {
            let (min, max) = robot.dof_limits(i);
            json!({
                "name": dof.name,
                "kind": lower(dof.kind),
                "default_value": dof.default_value,
                "default_velocity": dof.default_velocity,
                "limits": [finite_or_null(min), finite_or_null(max)],
            })
        })
        .collect();
    let chains: Vec<Value> = robot
        .chains()
        .iter()
        .map(|chain| {
            let joints: Vec<Value> = chain
                .joints
                .iter()
                .map(|j| {
                    json!({
                        "kind": lower(j.kind),
                        "dof": j.coupling.dof,
                        "ratio": j.coupling.ratio,
                        "offset": j.coupling.offset,
                        "limits": [finite_or_null(j.min), finite_or_null(j.max)],
                    })
                })
                .collect();
            let links: Vec<&str> = chain.links.iter().map(|l| l.body.name.as_str()).collect();
            let parent = chain
                .parent
                .map(|p| json!({ "chain": p.chain, "joint": p.joint }));
            json!({ "joints": joints, "links": links, "parent": parent })
        })
        .collect();
    let links: Vec<&str> = robot.bodies().map(|b| b.name.as_str()).collect();
    let triangles: usize = robot.bodies().map(|b| b.mesh().triangles().len()).sum();
    json!({
        "name": robot.name,
        "dofs": dofs,
        "chains": chains,
        "links": links,
        "triangles": triangles,
        "approach": robot.approach.as_ref().map(approach),
        "inferred": inferred(robot),
        "eigengrasps": eigengrasps(robot),
        "virtual_contacts": robot.virtual_contacts.as_ref().map(virtual_contacts),
    })
}

/// Where a hand's palm faces: the reference point and the direction, in the palm's frame.
fn approach(approach: &HandApproach) -> Value {
    let (r, d) = (approach.reference, approach.direction);
    json!({ "reference": [r.x, r.y, r.z], "direction": [d.x, d.y, d.z] })
}

/// What the hand's kinematics say of it, whatever its file says: the approach, each DOF's
/// role (`close+`, `close-`, `spread`, `wrist`), and what they could not settle.
fn inferred(robot: &Robot) -> Value {
    let inference = robot.infer_hand();
    let roles: Vec<&str> = inference.roles.iter().map(|role| role.name()).collect();
    json!({
        "approach": approach(&inference.approach),
        "roles": roles,
        "doubts": inference.doubts,
    })
}

/// A hand's virtual contacts: the robot they were written for, and each one's body, location,
/// normal (in that body's frame), friction and number of friction edges.
pub fn virtual_contacts(contacts: &VirtualContacts) -> Value {
    let listed: Vec<Value> = contacts
        .contacts
        .iter()
        .map(|c| {
            let body = match c.body {
                RobotBody::Palm => json!("palm"),
                RobotBody::Link { chain, link } => json!({ "chain": chain, "link": link }),
                RobotBody::Mount => json!("mount"),
            };
            json!({
                "body": body,
                "location": [c.location.x, c.location.y, c.location.z],
                "normal": [c.normal.x, c.normal.y, c.normal.z],
                "friction": c.friction,
                "friction_edges": c.friction_edges.len(),
            })
        })
        .collect();
    json!({
        "robot_name": contacts.robot_name,
        "count": listed.len(),
        "contacts": listed,
    })
}

/// A robot's eigengrasps: how many, whether from its file, each one's eigenvalue and DOF
/// values, and the amplitudes of its posture along them (`null`, with why, when the file does
/// not fit the robot).
fn eigengrasps(robot: &Robot) -> Value {
    let from_file = robot.eigen_grasps.is_some();
    let listed: Vec<Value> = robot
        .eigen_grasps
        .iter()
        .flat_map(|g| &g.grasps)
        .map(|g| json!({ "eigenvalue": g.eigenvalue, "dof_values": g.values }))
        .collect();
    let (amplitudes, problem) = match robot.eigen_amplitudes() {
        Ok(a) => (json!(a), Value::Null),
        Err(e) => (Value::Null, json!(e.to_string())),
    };
    json!({
        "from_file": from_file,
        "count": if from_file { listed.len() } else { robot.dofs.len() },
        "grasps": listed,
        "amplitudes": amplitudes,
        "problem": problem,
    })
}

/// A world: its bodies and robots with names, kinds and poses (each robot body's too).
pub fn world(world: &World) -> Value {
    let bodies: Vec<Value> = world
        .free_bodies()
        .map(|(_, b)| {
            let mut value =
                json!({ "name": b.name, "kind": b.kind.name(), "pose": pose(&b.pose()) });
            extend(&mut value, groups(b));
            value
        })
        .collect();
    let robots: Vec<Value> = world
        .robots()
        .map(|(_, r)| {
            let bodies: Vec<Value> = r
                .bodies()
                .map(|b| {
                    let mut value = json!({ "name": b.name, "pose": pose(&b.pose()) });
                    extend(&mut value, groups(b));
                    value
                })
                .collect();
            json!({
                "name": r.name,
                "kind": "robot",
                "pose": pose(&r.pose()),
                "dof_values": r.dof_values(),
                "eigen_amplitudes": r.eigen_amplitudes().ok(),
                "bodies": bodies,
            })
        })
        .collect();
    json!({
        "bodies": bodies,
        "robots": robots,
        "connections": world.connections().len(),
        "camera": world.camera.is_some(),
    })
}

/// A body's collision group and mask (RaiSim's).
pub fn groups(body: &Body) -> Value {
    json!({
        "collision_group": body.groups().group(),
        "collision_mask": clasp_io::mask_text(body.groups().mask()),
    })
}

fn pose(pose: &Pose) -> Value {
    let t = pose.translation.vector;
    let q = pose.rotation.quaternion();
    json!({ "translation": [t.x, t.y, t.z], "rotation_wxyz": [q.w, q.i, q.j, q.k] })
}

/// Copies `extra`'s fields into `value` (both objects).
pub fn extend(value: &mut Value, extra: Value) {
    if let (Value::Object(target), Value::Object(source)) = (value, extra) {
        target.extend(source);
    }
}

/// JSON has no infinity: an unlimited (continuous) joint's limit is null.
fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

fn lower(kind: impl std::fmt::Debug) -> String {
    format!("{kind:?}").to_lowercase()
}
