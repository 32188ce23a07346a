//! Writing a world as GraspIt world XML, every number at full precision, with what Clasp
//! adds (edits of bodies from files, body types and motions, dynamics settings) only where it
//! differs from what the files and defaults give.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use clasp_core::{
    Body, BodyKind, BodyType, Camera, CollisionGroups, Material, Pose, RobotId, Velocity, World,
};

use super::{
    dof_stream::dof_stream,
    paths::{absolute, escape, reference},
    robot_bodies::{robot_body_edits_xml, robot_groups_xml},
};
use crate::{
    body::load_body,
    body_edits::{body_edits_xml, inertia_text},
    error::SaveError,
    groups::groups_xml,
    source::Disk,
};

/// Saves a world as GraspIt world XML. Bodies and robots refer to the files they were loaded
/// from, relative to the GraspIt root when under it, else relative to the saved file's folder;
/// a free body with no file (inline or built in code) is written inline, its mesh as an OFF file
/// beside the world (`<world stem>.<index>.off`); what was changed of a body from a file (its
/// name, material, mass, centre, inertia, Young's modulus) is written beside its `<filename>`,
/// and of a robot's body beside the robot's. Poses, DOF values and every number keep full
/// precision, so loading the file gives the same world.
pub fn save_world(
    world: &World,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<(), SaveError> {
    let error = |message: String| SaveError::new(path, message);
    let folder = absolute(path.parent().unwrap_or(Path::new("")));
    let root = graspit_root.map(absolute);
    let refer = |file: &Path| escape(&reference(file, &folder, root.as_deref()));
    let mut xml = String::from("<?xml version=\"1.0\" ?>\n<world>\n");
    for (i, body) in world.free_bodies() {
        let tag = match body.kind {
            BodyKind::Obstacle => "obstacle",
            _ => "graspableBody",
        };
        let _ = writeln!(xml, "\t<{tag}>");
        match &body.source {
            Some(file) => {
                let _ = writeln!(xml, "\t\t<filename>{}</filename>", refer(file));
                // What the file gives is read again, to write only what was changed.
                let as_loaded = load_body(&Disk, file, body.kind).ok();
                xml.push_str(&body_edits_xml(body, as_loaded.as_ref(), "\t\t"));
            }
            None => {
                let mesh_file = sibling(path, &format!("{i}.off"));
                std::fs::write(&mesh_file, off_text(body))
                    .map_err(|e| error(format!("cannot write {}: {e}", mesh_file.display())))?;
                xml.push_str(&inline_body(body, &mesh_file));
            }
        }
        xml.push_str(&transform_xml(&body.pose(), "\t\t"));
        if body.groups() != CollisionGroups::default_for(body.kind == BodyKind::Obstacle) {
            xml.push_str(&groups_xml(body.groups(), "\t\t"));
        }
        xml.push_str(&motion_xml(body));
        let _ = writeln!(xml, "\t</{tag}>");
    }
    for (_, robot) in world.robots() {
        let file = robot.source.as_deref().ok_or_else(|| {
            error(format!(
                "robot \"{}\" was not loaded from a file, so the world cannot refer to it",
                robot.name
            ))
        })?;
        let _ = writeln!(xml, "\t<robot>\n\t\t<filename>{}</filename>", refer(file));
        let _ = writeln!(xml, "\t\t<dofValues>{}</dofValues>", dof_stream(robot));
        xml.push_str(&transform_xml(&robot.pose(), "\t\t"));
        xml.push_str(&robot_groups_xml(robot));
        xml.push_str(&robot_body_edits_xml(robot));
        xml.push_str("\t</robot>\n");
    }
    // Robots are written in order without the removed ones, so connections name their places.
    let place = |robot: RobotId| world.robots().position(|(r, _)| r == robot);
    for c in world.connections() {
        let (Some(parent), Some(child)) = (place(c.parent_robot), place(c.child_robot)) else {
            continue;
        };
        let _ = writeln!(
            xml,
            "\t<connection>\n\t\t<parentRobot>{parent}</parentRobot>\n\t\t<parentChain>{}</parentChain>\n\t\t<childRobot>{child}</childRobot>",
            c.parent_chain
        );
        if let Some(mount) = &c.mount {
            let _ = writeln!(xml, "\t\t<mountFilename>{}</mountFilename>", refer(mount));
        }
        xml.push_str(&transform_xml(&c.offset, "\t\t"));
        xml.push_str("\t</connection>\n");
    }
    if let Some(camera) = &world.camera {
        xml.push_str(&camera_xml(camera));
    }
    xml.push_str(&dynamics_xml(world));
    xml.push_str("</world>\n");
    std::fs::write(path, xml).map_err(|e| error(format!("cannot write the file: {e}")))
}

/// `<transform><fullTransform>(w x y z)[x y z]</fullTransform></transform>`; Rust prints the
/// shortest text that reads back as the same f64, so nothing is lost.
pub(super) fn transform_xml(pose: &Pose, indent: &str) -> String {
    let q = pose.rotation.quaternion();
    let t = pose.translation.vector;
    format!(
        "{indent}<transform>\n{indent}\t<fullTransform>({} {} {} {})[{} {} {}]</fullTransform>\n{indent}</transform>\n",
        q.w, q.i, q.j, q.k, t.x, t.y, t.z
    )
}

pub(super) fn camera_xml(camera: &Camera) -> String {
    let p = camera.position;
    let q = camera.orientation.quaternion();
    format!(
        "\t<camera>\n\t\t<position>{} {} {}</position>\n\t\t<orientation>{} {} {} {}</orientation>\n\t\t<focalDistance>{}</focalDistance>\n\t</camera>\n",
        p.x, p.y, p.z, q.i, q.j, q.k, q.w, camera.focal_distance
    )
}

/// An inline `<body>` with every property given, so that nothing is recomputed on loading.
pub(super) fn inline_body(body: &Body, mesh_file: &Path) -> String {
    let m = &body.mass;
    let mut xml = format!("\t\t<body>\n\t\t\t<name>{}</name>\n", escape(&body.name));
    // GraspIt knows no "generic"; leaving the material out reads back as generic.
    if body.material != Material::Generic {
        let _ = writeln!(xml, "\t\t\t<material>{}</material>", body.material);
    }
    let _ = writeln!(
        xml,
        "\t\t\t<mass>{}</mass>\n\t\t\t<cog>{} {} {}</cog>\n\t\t\t<inertia_matrix>{}</inertia_matrix>",
        m.mass,
        m.cog.x,
        m.cog.y,
        m.cog.z,
        inertia_text(body)
    );
    if let Some(youngs) = body.youngs {
        let _ = writeln!(xml, "\t\t\t<youngs>{youngs}</youngs>");
    }
    if let Some(c) = body.compliance {
        let _ = writeln!(
            xml,
            "\t\t\t<normalCompliance>{}</normalCompliance>\n\t\t\t<shearCompliance>{}</shearCompliance>",
            c.normal, c.shear
        );
    }
    let name = mesh_file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let _ = writeln!(
        xml,
        "\t\t\t<geometryFile type=\"off\">{}</geometryFile>\n\t\t</body>",
        escape(&name)
    );
    xml
}

/// The body's mesh as OFF text, coordinates at full precision.
pub(super) fn off_text(body: &Body) -> String {
    let (vertices, triangles) = (body.mesh().vertices(), body.mesh().triangles());
    let mut text = format!("OFF\n{} {} 0\n", vertices.len(), triangles.len());
    for v in vertices {
        let _ = writeln!(text, "{} {} {}", v.x, v.y, v.z);
    }
    for [a, b, c] in triangles {
        let _ = writeln!(text, "3 {a} {b} {c}");
    }
    text
}

/// `dir/stem.suffix` for a world file `dir/stem.xml`.
pub(super) fn sibling(world_file: &Path, suffix: &str) -> PathBuf {
    let stem = world_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "world".into());
    world_file.with_file_name(format!("{stem}.{suffix}"))
}

/// A free body's `<bodyType>` and `<velocity>` where they are not the defaults.
pub(super) fn motion_xml(body: &Body) -> String {
    let mut xml = String::new();
    if body.body_type() != BodyType::default_for(body.kind) {
        let _ = writeln!(xml, "\t\t<bodyType>{}</bodyType>", body.body_type().name());
    }
    let v = body.velocity();
    if v != Velocity::ZERO {
        let (l, a) = (v.linear, v.angular);
        let _ = writeln!(
            xml,
            "\t\t<velocity>{} {} {} {} {} {}</velocity>",
            l.x, l.y, l.z, a.x, a.y, a.z
        );
    }
    xml
}

/// `<dynamics>` for a world whose gravity or time step is not the default; nothing otherwise,
/// so a GraspIt world saves as GraspIt wrote it.
pub(super) fn dynamics_xml(world: &World) -> String {
    let defaults = clasp_core::DynamicsSettings::default();
    let (g, dt) = (world.gravity(), world.time_step());
    if g == defaults.gravity && dt == defaults.time_step {
        return String::new();
    }
    format!(
        "\t<dynamics>\n\t\t<gravity>{} {} {}</gravity>\n\t\t<timeStep>{dt}</timeStep>\n\t</dynamics>\n",
        g.x, g.y, g.z
    )
}
