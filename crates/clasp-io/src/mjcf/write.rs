//! MuJoCo's MJCF, written: a world as MuJoCo 4 loads it, in SI units (m, kg, s; Clasp's mm and
//! g scaled), each mesh an OBJ file in a folder beside (`<stem>_meshes/`), in its body's frame.
//!
//! - An obstacle is a body fixed in the world; a graspable body has a free joint and its mass,
//!   centre and inertia; a robot's palm is fixed where it stands (the robot's base).
//! - Each joint is a body of its own, placed where its motion starts, with a hinge or slide
//!   joint along its axis moving by the joint value (the DOF's coupling ratio times the DOF;
//!   GraspIt's offset is in the body's placement); each link is a body inside its joint's.
//! - Joints that one DOF drives are held to the first of them by `<equality><joint>` with their
//!   ratio; each DOF has a position actuator on that first joint, its gain the DOF's Kp and its
//!   force its effort.
//! - A keyframe `clasp` holds the world as it stands: each free body's pose, each joint's
//!   value, and each actuator's control where its DOF is driven to (its target, or where it
//!   stands when it has none), so the hand holds its place or goes on as it was driven
//!   (`mj_resetDataKeyframe` puts MuJoCo there; `qpos0` is every DOF at zero).
//! - Each link and the link (or palm) before it in its chain do not collide (`<contact>
//!   <exclude>`), as in Clasp; MuJoCo would collide them, for joint bodies stand between.
//! - Each geom's friction is its material's against the generic material (MuJoCo takes the
//!   larger of two geoms'; Clasp's table holds a value per pair). Breakaway DOFs, collision
//!   rules and robots carried by robots (each is written with its own palm fixed) are left out.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use clasp_core::{Body, BodyKind, ChainParent, JointKind, Material, Pose, Robot, World};

use nalgebra::Matrix3;

use crate::error::SaveError;

/// MuJoCo's lengths are metres; Clasp's millimetres.
const METRES: f64 = 1e-3;
/// Kilograms from grams.
const KILOGRAMS: f64 = 1e-3;
/// kg·m² from g·mm²; also N·m from g·mm²/s² (a torque, Clasp's efforts and gains).
const KILOGRAM_METRES_SQUARED: f64 = 1e-9;
/// N from g·mm/s² (a prismatic DOF's effort).
const NEWTONS: f64 = 1e-6;
/// A joint's own body carries no link; MuJoCo wants every moving body to weigh something.
const JOINT_BODY_MASS: f64 = 1e-6;

/// Writes `world` as MJCF at `path`, its meshes in `<stem>_meshes/` beside it; returns what
/// was changed to make it MuJoCo's, a line each (an inertia MuJoCo would refuse, made
/// physical).
pub fn save_mjcf(world: &World, path: &Path) -> Result<Vec<String>, SaveError> {
    let error = |message: String| SaveError::new(path, message);
    let stem = path
        .file_stem()
        .map_or("world".into(), |s| s.to_string_lossy().into_owned());
    let folder = path
        .parent()
        .unwrap_or(Path::new(""))
        .join(format!("{stem}_meshes"));
    std::fs::create_dir_all(&folder)
        .map_err(|e| error(format!("cannot make {}: {e}", folder.display())))?;
    let mut writer = Writer {
        folder,
        assets: String::new(),
        equalities: String::new(),
        actuators: String::new(),
        controls: Vec::new(),
        exclusions: String::new(),
        meshes: 0,
        changes: Vec::new(),
    };
    let mut bodies = String::new();
    // The keyframe's qpos, in MuJoCo's order: joints as they come in the body tree.
    let mut qpos: Vec<f64> = Vec::new();
    for (i, body) in world.free_bodies() {
        let name = format!("body{i}_{}", clean(&body.name));
        bodies.push_str(&writer.free_body(&name, body)?);
        if body.kind != BodyKind::Obstacle {
            let (t, q) = (
                body.pose().translation.vector * METRES,
                body.pose().rotation,
            );
            qpos.extend([t.x, t.y, t.z, q.w, q.i, q.j, q.k]);
        }
    }
    for (id, robot) in world.robots() {
        bodies.push_str(&writer.robot(&format!("robot{}", id.index()), robot)?);
        qpos.extend(joint_values(robot));
    }
    let g = world.gravity() * METRES;
    let mut xml = format!(
        "<mujoco model=\"{}\">\n  <compiler angle=\"radian\" meshdir=\"{stem}_meshes\"/>\n  <option timestep=\"{}\" gravity=\"{} {} {}\"/>\n",
        clean(&stem),
        world.time_step(),
        g.x,
        g.y,
        g.z
    );
    let _ = write!(
        xml,
        "  <asset>\n{}  </asset>\n  <worldbody>\n{bodies}  </worldbody>\n",
        writer.assets
    );
    if !writer.exclusions.is_empty() {
        let _ = write!(xml, "  <contact>\n{}  </contact>\n", writer.exclusions);
    }
    if !writer.equalities.is_empty() {
        let _ = write!(xml, "  <equality>\n{}  </equality>\n", writer.equalities);
    }
    if !writer.actuators.is_empty() {
        let _ = write!(xml, "  <actuator>\n{}  </actuator>\n", writer.actuators);
    }
    if !qpos.is_empty() {
        let ctrl = match writer.controls.is_empty() {
            true => String::new(),
            false => format!(" ctrl=\"{}\"", numbers(&writer.controls)),
        };
        let _ = write!(
            xml,
            "  <keyframe>\n    <key name=\"clasp\" qpos=\"{}\"{ctrl}/>\n  </keyframe>\n",
            numbers(&qpos)
        );
    }
    xml.push_str("</mujoco>\n");
    std::fs::write(path, xml).map_err(|e| error(format!("cannot write the file: {e}")))?;
    Ok(writer.changes)
}

impl Writer {
    /// A body's mass, centre and inertia (SI), in its own frame; an inertia whose principal
    /// moments break the triangle inequality is made physical, and the change noted.
    fn inertial(&mut self, body: &Body) -> String {
        let m = body.mass.mass;
        if !(m.is_finite() && m > 0.0) {
            return String::new();
        }
        let mut inertia = body.mass.inertia * m * KILOGRAM_METRES_SQUARED;
        if let Some((physical, moments)) = physical_inertia(&inertia) {
            self.changes.push(format!(
                "{}: its inertia's principal moments {:.3e} {:.3e} {:.3e} kg·m² break A + B ≥ C, \
                 which every solid keeps and MuJoCo requires: the largest is lowered to the sum of \
                 the other two",
                body.name, moments[0], moments[1], moments[2]
            ));
            inertia = physical;
        }
        let cog = body.mass.cog.coords * METRES;
        format!(
            "<inertial pos=\"{} {} {}\" mass=\"{}\" fullinertia=\"{} {} {} {} {} {}\"/>",
            cog.x,
            cog.y,
            cog.z,
            m * KILOGRAMS,
            inertia[(0, 0)],
            inertia[(1, 1)],
            inertia[(2, 2)],
            inertia[(0, 1)],
            inertia[(0, 2)],
            inertia[(1, 2)]
        )
    }
}

/// How far inside the triangle inequality a mended inertia's largest moment is put, as a share
/// of the other two's sum: MuJoCo finds the moments again from the written decimals.
const INERTIA_MARGIN: f64 = 1e-6;

/// Where a symmetric inertia's largest principal moment exceeds the sum of the other two (no
/// solid has such), the inertia with that moment lowered to just under the sum, the axes kept,
/// and the moments as they were; `None` for an inertia that is physical already.
fn physical_inertia(inertia: &Matrix3<f64>) -> Option<(Matrix3<f64>, [f64; 3])> {
    let eigen = inertia.symmetric_eigen();
    let moments = eigen.eigenvalues;
    let largest = moments.imax();
    let others = moments.sum() - moments[largest];
    if moments[largest] <= others * (1.0 - INERTIA_MARGIN / 2.0) {
        return None;
    }
    let mut mended = moments;
    mended[largest] = others * (1.0 - INERTIA_MARGIN);
    let axes = eigen.eigenvectors;
    let physical = axes * Matrix3::from_diagonal(&mended) * axes.transpose();
    Some((physical, [moments[0], moments[1], moments[2]]))
}

/// What is written so far besides the bodies.
struct Writer {
    folder: PathBuf,
    assets: String,
    equalities: String,
    actuators: String,
    /// Each actuator's control for the keyframe, in the order they are written.
    controls: Vec<f64>,
    /// `<exclude>`s: each link with the link (or palm) before it in its chain, which Clasp does
    /// not collide and MuJoCo would (joint bodies stand between them).
    exclusions: String,
    meshes: usize,
    /// What was changed to make the world MuJoCo's, a line each.
    changes: Vec<String>,
}

impl Writer {
    /// A free body: fixed in the world (an obstacle) or free (anything else).
    fn free_body(&mut self, name: &str, body: &Body) -> Result<String, SaveError> {
        let joint = match body.kind {
            BodyKind::Obstacle => String::new(),
            _ => format!("<freejoint/>{}", self.inertial(body)),
        };
        let geom = self.geom(body)?;
        Ok(format!(
            "    <body name=\"{name}\" {}>{joint}{geom}</body>\n",
            placement(&body.pose())
        ))
    }

    /// A robot: its palm fixed where it stands, each chain a nest of joint bodies, and each
    /// branch nested in the joint body it starts on.
    fn robot(&mut self, name: &str, robot: &Robot) -> Result<String, SaveError> {
        let palm = robot.palm();
        // The palm's body is `_palm` unless a link has that name (a hand tree's root is often
        // a forearm, its palm a link carried by the wrist).
        let link_named_palm = robot
            .chains()
            .iter()
            .flat_map(|c| &c.links)
            .any(|l| clean(&l.body.name) == "palm");
        let root = match link_named_palm {
            true => format!("{name}_root"),
            false => format!("{name}_palm"),
        };
        let mut xml = format!(
            "    <body name=\"{root}\" {}>{}{}\n",
            placement(&palm.pose()),
            self.inertial(palm),
            self.geom(palm)?
        );
        let mut first_joint: Vec<Option<(String, f64)>> = vec![None; robot.dofs.len()];
        for (c, chain) in robot.chains().iter().enumerate() {
            if chain.parent.is_none() {
                let at = ChainStart {
                    chain: c,
                    pose: chain.base,
                    carrier: &root,
                };
                self.chain(name, robot, at, &mut first_joint, &mut xml)?;
            }
        }
        xml.push_str("    </body>\n");
        Ok(xml)
    }

    /// One chain as a nest of joint bodies, starting at `at` in the body it is written in.
    fn chain(
        &mut self,
        name: &str,
        robot: &Robot,
        at: ChainStart,
        first_joint: &mut [Option<(String, f64)>],
        xml: &mut String,
    ) -> Result<(), SaveError> {
        let (c, chain) = (at.chain, &robot.chains()[at.chain]);
        for link in chain.links.iter().filter(|l| l.frame.is_none()) {
            xml.push_str(&self.link(name, &at.pose, &link.body)?);
        }
        let mut parent = at.pose;
        let mut closing = String::new();
        let mut previous = at.carrier.to_owned();
        for (j, joint) in chain.joints.iter().enumerate() {
            let (before, axis, after) = joint.split();
            let joint_name = format!("{name}_c{c}_j{j}");
            let kind = match joint.kind {
                JointKind::Revolute => "hinge",
                JointKind::Prismatic => "slide",
            };
            let scale = joint_scale(joint.kind);
            let range = match joint.min.is_finite() && joint.max.is_finite() {
                true => format!(
                    " limited=\"true\" range=\"{} {}\"",
                    joint.min * scale,
                    joint.max * scale
                ),
                false => String::new(),
            };
            let _ = write!(
                xml,
                "<body name=\"{joint_name}\" {}><inertial pos=\"0 0 0\" mass=\"{JOINT_BODY_MASS}\" diaginertia=\"{m} {m} {m}\"/><joint name=\"{joint_name}\" type=\"{kind}\" axis=\"{} {} {}\"{range}/>",
                placement(&(parent * before)),
                axis.x,
                axis.y,
                axis.z,
                m = JOINT_BODY_MASS * 1e-6,
            );
            closing.push_str("</body>");
            for link in chain.links.iter().filter(|l| l.frame == Some(j)) {
                xml.push_str(&self.link(name, &after, &link.body)?);
                let body = format!("{name}_{}", clean(&link.body.name));
                let _ = writeln!(
                    self.exclusions,
                    "    <exclude body1=\"{previous}\" body2=\"{body}\"/>"
                );
                previous = body;
            }
            self.couple(robot, joint, &joint_name, first_joint, scale);
            for branch in branches_on(robot, c, j) {
                let at = ChainStart {
                    chain: branch,
                    pose: after * robot.chains()[branch].base,
                    carrier: &previous,
                };
                self.chain(name, robot, at, first_joint, xml)?;
            }
            parent = after;
        }
        xml.push_str(&closing);
        xml.push('\n');
        Ok(())
    }

    /// A link: a body at `at` in its joint's body, with its mass and its mesh.
    fn link(&mut self, robot: &str, at: &Pose, body: &Body) -> Result<String, SaveError> {
        Ok(format!(
            "<body name=\"{robot}_{}\" {}>{}{}</body>",
            clean(&body.name),
            placement(at),
            self.inertial(body),
            self.geom(body)?
        ))
    }

    /// Holds a joint to the first joint its DOF drives (or makes it that joint, with the DOF's
    /// actuator).
    fn couple(
        &mut self,
        robot: &Robot,
        joint: &clasp_core::Joint,
        name: &str,
        first_joint: &mut [Option<(String, f64)>],
        scale: f64,
    ) {
        let dof = joint.coupling.dof;
        match &first_joint[dof] {
            Some((first, ratio)) => {
                let _ = writeln!(
                    self.equalities,
                    "    <joint joint1=\"{name}\" joint2=\"{first}\" polycoef=\"0 {} 0 0 0\"/>",
                    joint.coupling.ratio / ratio
                );
            }
            None => {
                let d = &robot.dofs[dof];
                let (force, gain) = match joint.kind {
                    JointKind::Revolute => (KILOGRAM_METRES_SQUARED, KILOGRAM_METRES_SQUARED),
                    JointKind::Prismatic => (NEWTONS, NEWTONS / METRES),
                };
                let effort = d.max_effort * force;
                let driven_to = robot.dof_targets().unwrap_or(robot.dof_values())[dof];
                let mut control = joint.coupling.ratio * driven_to * scale;
                let range = match joint.min.is_finite() && joint.max.is_finite() {
                    true => {
                        let (low, high) = (joint.min * scale, joint.max * scale);
                        control = control.clamp(low.min(high), high.max(low));
                        format!(" ctrllimited=\"true\" ctrlrange=\"{low} {high}\"")
                    }
                    false => String::new(),
                };
                let _ = writeln!(
                    self.actuators,
                    "    <position name=\"{name}_dof{dof}\" joint=\"{name}\" kp=\"{}\" forcelimited=\"true\" forcerange=\"{} {effort}\"{range}/>",
                    d.kp * gain,
                    -effort
                );
                self.controls.push(control);
                first_joint[dof] = Some((name.to_owned(), joint.coupling.ratio));
            }
        }
    }

    /// The body's mesh as an asset and a geom in its body's frame.
    fn geom(&mut self, body: &Body) -> Result<String, SaveError> {
        if body.mesh().triangles().is_empty() {
            return Ok(String::new());
        }
        let file = format!("{}.obj", self.meshes);
        self.meshes += 1;
        let path = self.folder.join(&file);
        std::fs::write(&path, obj_text(body))
            .map_err(|e| SaveError::new(&path, format!("cannot write the mesh: {e}")))?;
        let mesh = file.trim_end_matches(".obj").to_owned();
        let _ = writeln!(
            self.assets,
            "    <mesh name=\"m{mesh}\" file=\"{file}\" scale=\"{METRES} {METRES} {METRES}\"/>"
        );
        let mu = body.material.static_friction(Material::Generic);
        Ok(format!(
            "<geom type=\"mesh\" mesh=\"m{mesh}\" friction=\"{mu} 0.005 0.0001\" mass=\"0\"/>"
        ))
    }
}

/// Numbers as MJCF lists them, space-separated.
fn numbers(values: &[f64]) -> String {
    let values: Vec<String> = values.iter().map(f64::to_string).collect();
    values.join(" ")
}

/// MuJoCo's unit of a joint value per Clasp's: radians stay, millimetres become metres.
fn joint_scale(kind: JointKind) -> f64 {
    match kind {
        JointKind::Revolute => 1.0,
        JointKind::Prismatic => METRES,
    }
}

/// Each joint's value where the robot stands (in the order the joints are written, a branch
/// after the joint it starts on; a broken-away joint at the value it broke away at), SI.
fn joint_values(robot: &Robot) -> Vec<f64> {
    let dofs = robot.dof_values();
    let mut order = Vec::new();
    for c in (0..robot.chains().len()).filter(|&c| robot.chains()[c].parent.is_none()) {
        written_joints(robot, c, &mut order);
    }
    order
        .into_iter()
        .map(|(c, j)| {
            let joint = &robot.chains()[c].joints[j];
            let dof = dofs[joint.coupling.dof];
            let held = robot.breakaway(c, j).map_or(dof, |b| dof.min(b));
            joint.coupling.ratio * held * joint_scale(joint.kind)
        })
        .collect()
}

/// A chain's joints as (chain, joint) in the order they are written: each joint, then the
/// branches that start on it.
fn written_joints(robot: &Robot, chain: usize, order: &mut Vec<(usize, usize)>) {
    for j in 0..robot.chains()[chain].joints.len() {
        order.push((chain, j));
        for branch in branches_on(robot, chain, j) {
            written_joints(robot, branch, order);
        }
    }
}

/// The chains that start on joint `joint` of chain `chain`.
fn branches_on(robot: &Robot, chain: usize, joint: usize) -> Vec<usize> {
    let here = Some(ChainParent { chain, joint });
    (0..robot.chains().len())
        .filter(|&c| robot.chains()[c].parent == here)
        .collect()
}

/// Where a chain is written: its index, its start in the body it is written in, and the
/// body it starts on (which its first link never collides with).
struct ChainStart<'a> {
    chain: usize,
    pose: Pose,
    carrier: &'a str,
}

/// `pos` (m) and `quat` (w x y z) of a pose.
fn placement(pose: &Pose) -> String {
    let t = pose.translation.vector * METRES;
    let q = pose.rotation.quaternion();
    format!(
        "pos=\"{} {} {}\" quat=\"{} {} {} {}\"",
        t.x, t.y, t.z, q.w, q.i, q.j, q.k
    )
}

/// The body's mesh as OBJ text, its own frame, mm.
fn obj_text(body: &Body) -> String {
    let mut text = String::new();
    for v in body.mesh().vertices() {
        let _ = writeln!(text, "v {} {} {}", v.x, v.y, v.z);
    }
    for [a, b, c] in body.mesh().triangles() {
        let _ = writeln!(text, "f {} {} {}", a + 1, b + 1, c + 1);
    }
    text
}

/// A name MJCF takes: letters, digits and `_`.
fn clean(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}
