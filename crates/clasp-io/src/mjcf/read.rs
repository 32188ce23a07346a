//! MuJoCo's MJCF, read into a Clasp world.
//!
//! - Each top-level body whose subtree has hinge or slide joints is a robot: the body and the
//!   bodies fixed to it are the palm (a free joint on it is a floating base, placed where the
//!   body stands), each path of joints from it a chain; where a body has several
//!   movable children the first goes on and the others start branches on it, as in URDF.
//! - Any other top-level body with a free joint is a graspable body; one without joints, and
//!   each geom of `<worldbody>` itself, an obstacle. A body's fixed children join its mesh.
//! - Geoms that collide (`contype` or `conaffinity` not 0) make a body's mesh; a body with
//!   none uses the geoms it draws. Primitives are tessellated; a plane is a slab.
//! - Each hinge or slide joint is a DOF unless `<equality><joint>` holds it to another
//!   (`polycoef` of degree one): then it follows that joint's DOF. A position actuator on a
//!   DOF's joint gives its gain and its effort limit (`forcerange`).
//! - `<inertial>` gives a body's mass; a body with none has the mass its mesh implies.
//! - A keyframe named `clasp` (what `clasp-cli export --mjcf` writes) places free bodies and
//!   DOFs; `<option>` gives gravity and the time step.
//!
//! What would change a body's shape or motion and Clasp cannot honour (ball joints, free joints
//! below the top, connect and weld equalities, height fields) is an error naming its line.
//! Tendons, sensors, lights, cameras and contact settings are skipped.

use std::path::Path;

use clasp_collide::TriMesh;
use clasp_core::{
    Body, BodyKind, Chain, Coupling, Dof, DofKind, Joint, JointDynamics, JointFrame, JointKind,
    Link, Pose, Robot, World,
};
use nalgebra::{Matrix3, Point3, Translation3, Unit, UnitQuaternion, Vector3};

use super::{
    MM_PER_M,
    couplings::{Following, JointRecord, actuate, joint_couplings, qpos_to_clasp},
    document::{Document, Node, read_document},
    frames::placement,
    shapes::{Assets, collides},
};
use crate::{
    chain_tree::{Branch, chain_tree},
    error::LoadError,
    hand_settings::apply_hand_settings,
    si_units::{MassPart, si_mass_part},
    source::FileSource,
    xml::Element,
};

/// The name of the keyframe Clasp writes and reads back.
const CLASP_KEY: &str = "clasp";

/// Reads an MJCF model whose root element is `root` (already parsed from `path`).
pub(crate) fn read_mjcf(
    source: &dyn FileSource,
    path: &Path,
    root: &Element,
) -> Result<World, LoadError> {
    let document = read_document(source, path, root)?;
    let assets = Assets::read(&document)?;
    let key = document
        .keys
        .iter()
        .find(|k| k.attribute("name") == Some(CLASP_KEY));
    let key_values = match key {
        Some(k) => k.numbers("qpos")?.unwrap_or_default(),
        None => Vec::new(),
    };
    let mut reader = Reader {
        source,
        path,
        document: &document,
        assets,
        key: key.map(|k| (k, key_values)),
        slot: 0,
        robot_count: 0,
    };
    let (bodies, robots) = reader.top_level()?;
    if let Some((key, values)) = &reader.key
        && values.len() != reader.slot
    {
        return Err(key.error(format!(
            "keyframe \"{CLASP_KEY}\" has {} qpos values; the model has {}",
            values.len(),
            reader.slot
        )));
    }
    let mut world = World::new(bodies, robots);
    if let Some(option) = &document.option {
        read_option(&mut world, option)?;
    }
    Ok(world)
}

fn read_option(world: &mut World, option: &Node) -> Result<(), LoadError> {
    if let Some([x, y, z]) = option.array::<3>("gravity")? {
        world
            .set_gravity(Vector3::new(x, y, z) * MM_PER_M)
            .map_err(|e| option.error(e.to_string()))?;
    }
    if let Some(step) = option.number("timestep")? {
        world
            .set_time_step(step)
            .map_err(|e| option.error(e.to_string()))?;
    }
    Ok(())
}

/// What one element of a body holds, `<frame>`s unfolded: its joints, and its geoms and child
/// bodies with the poses the frames put them at.
#[derive(Default)]
struct Contents<'a> {
    joints: Vec<&'a Node>,
    geoms: Vec<(Pose, &'a Node)>,
    bodies: Vec<(Pose, &'a Node)>,
    inertial: Option<&'a Node>,
}

/// A body and the bodies fixed to it: its members (each with its pose in the group's frame)
/// and the bodies with joints that hang from it.
struct Group<'a> {
    members: Vec<(Pose, &'a Node)>,
    movable: Vec<(Pose, &'a Node)>,
}

struct Reader<'a> {
    source: &'a dyn FileSource,
    /// The model file (bodies name it as their source).
    path: &'a Path,
    document: &'a Document,
    assets: Assets<'a>,
    /// The `clasp` keyframe and its qpos.
    key: Option<(&'a Node, Vec<f64>)>,
    /// The next qpos index, as MuJoCo numbers them: joints in the order of the body tree.
    slot: usize,
    robot_count: usize,
}

impl<'a> Reader<'a> {
    fn top_level(&mut self) -> Result<(Vec<Body>, Vec<Robot>), LoadError> {
        let world = self.contents(&self.document.world, Pose::identity())?;
        let mut bodies = Vec::new();
        for (i, &(pose, geom)) in world.geoms.iter().enumerate() {
            let name = geom
                .attribute("name")
                .map_or_else(|| format!("world_geom{i}"), str::to_owned);
            // The body stands where its geom does, its mesh in the geom's frame.
            let (mesh, own) = self.assets.geom_mesh(self.source, geom, self.document)?;
            let color = self.assets.color(geom)?;
            let mut body = Body::from_mesh(name, BodyKind::Obstacle, mesh).at(pose * own);
            body.color = color;
            bodies.push(self.with_source(body));
        }
        self.robot_count = world
            .bodies
            .iter()
            .filter(|(_, b)| has_moving_joints(b))
            .count();
        let mut robots = Vec::new();
        for &(pose, node) in &world.bodies {
            if has_moving_joints(node) {
                robots.push(self.robot(node, pose)?);
            } else if let Some(body) = self.free_body(node, pose)? {
                bodies.push(body);
            }
        }
        Ok((bodies, robots))
    }

    fn with_source(&self, mut body: Body) -> Body {
        body.source = Some(self.path.to_path_buf());
        body
    }

    /// A body's contents, unfolding frames; `nodes` are its children.
    fn contents(&self, nodes: &'a [Node], at: Pose) -> Result<Contents<'a>, LoadError> {
        let mut contents = Contents::default();
        self.unfold(nodes, at, &mut contents)?;
        Ok(contents)
    }

    fn unfold(
        &self,
        nodes: &'a [Node],
        at: Pose,
        contents: &mut Contents<'a>,
    ) -> Result<(), LoadError> {
        let compiler = &self.document.compiler;
        for node in nodes {
            match node.tag.as_str() {
                "joint" | "freejoint" => contents.joints.push(node),
                "geom" => contents.geoms.push((at, node)),
                "body" => contents
                    .bodies
                    .push((at * placement(node, compiler)?, node)),
                "inertial" => contents.inertial = Some(node),
                "frame" => {
                    self.unfold(&node.children, at * placement(node, compiler)?, contents)?
                }
                "composite" | "flexcomp" | "replicate" | "attach" | "skin" => {
                    return Err(node.error(format!(
                        "<{}> is not something Clasp reads; expand it into bodies first",
                        node.tag
                    )));
                }
                // Sites, cameras, lights, plugins: nothing to touch.
                _ => {}
            }
        }
        Ok(())
    }

    /// A top-level body with no moving joints: a graspable body when it has a free joint, an
    /// obstacle when it has none; `None` when it has no geometry.
    fn free_body(&mut self, node: &'a Node, pose: Pose) -> Result<Option<Body>, LoadError> {
        let own = self.contents(&node.children, Pose::identity())?;
        let free = own.joints.iter().any(|j| is_free(j));
        let pose = if free { self.free_slots(pose) } else { pose };
        let group = self.group(node)?;
        let kind = if free {
            BodyKind::Graspable
        } else {
            BodyKind::Obstacle
        };
        let body = self.group_body(&group, kind, body_name(node, "body"))?;
        Ok(body.map(|b| b.at(pose)))
    }

    /// The pose a free joint's seven qpos values give (from the `clasp` key), or `pose`.
    fn free_slots(&mut self, pose: Pose) -> Pose {
        let first = self.slot;
        self.slot += 7;
        let Some((_, values)) = &self.key else {
            return pose;
        };
        let Some(&[x, y, z, w, i, j, k]) = values.get(first..first + 7) else {
            return pose; // The count is checked once the whole tree is read.
        };
        let rotation = UnitQuaternion::try_new(nalgebra::Quaternion::new(w, i, j, k), 1e-12)
            .unwrap_or(pose.rotation);
        Pose::from_parts(
            Translation3::from(Vector3::new(x, y, z) * MM_PER_M),
            rotation,
        )
    }

    /// The body and its descendants reached without crossing a joint.
    fn group(&self, node: &'a Node) -> Result<Group<'a>, LoadError> {
        let mut group = Group {
            members: Vec::new(),
            movable: Vec::new(),
        };
        self.gather(node, Pose::identity(), &mut group)?;
        Ok(group)
    }

    fn gather(&self, node: &'a Node, at: Pose, group: &mut Group<'a>) -> Result<(), LoadError> {
        group.members.push((at, node));
        for (pose, child) in self.contents(&node.children, Pose::identity())?.bodies {
            let joints = self.contents(&child.children, Pose::identity())?.joints;
            if let Some(free) = joints.iter().find(|j| is_free(j)) {
                return Err(free.error(
                    "a free joint in a body inside another body; MuJoCo allows them only in \
                     bodies of <worldbody>",
                ));
            }
            if joints.is_empty() {
                self.gather(child, at * pose, group)?;
            } else {
                group.movable.push((at * pose, child));
            }
        }
        Ok(())
    }

    /// The group's geometry as one body in the group's frame; `None` when it has none.
    fn group_body(
        &self,
        group: &Group<'a>,
        kind: BodyKind,
        name: String,
    ) -> Result<Option<Body>, LoadError> {
        let mut geoms = Vec::new();
        for &(pose, member) in &group.members {
            let own = self.contents(&member.children, pose)?;
            let colliding: Vec<(Pose, &Node)> = own
                .geoms
                .iter()
                .copied()
                .filter(|(_, g)| collides(g))
                .collect();
            geoms.extend(if colliding.is_empty() {
                own.geoms
            } else {
                colliding
            });
        }
        if geoms.is_empty() {
            return Ok(None);
        }
        let (mesh, color) = self.surface_of_geoms(&geoms)?;
        let mut body = Body::from_mesh(name, kind, mesh);
        body.color = color;
        if let Some(mass) = self.group_mass(group)? {
            body.mass = mass;
        }
        Ok(Some(self.with_source(body)))
    }

    /// The geoms' surfaces, each where its frame (`pose` in the body's, then its own placement)
    /// puts it, as one mesh.
    fn surface_of_geoms(
        &self,
        geoms: &[(Pose, &Node)],
    ) -> Result<(TriMesh, Option<[f32; 3]>), LoadError> {
        let mut vertices: Vec<Point3<f64>> = Vec::new();
        let mut triangles: Vec<[u32; 3]> = Vec::new();
        let mut color = None;
        for &(pose, geom) in geoms {
            let (part, own) = self.assets.geom_mesh(self.source, geom, self.document)?;
            let pose = pose * own;
            let first = vertices.len() as u32;
            vertices.extend(part.vertices().iter().map(|v| pose * v));
            triangles.extend(part.triangles().iter().map(|t| t.map(|i| i + first)));
            color = color.or(self.assets.color(geom)?);
        }
        let line_of = geoms.first().map(|(_, g)| *g);
        let mesh = TriMesh::new(vertices, triangles).map_err(|e| match line_of {
            Some(g) => g.error(e.to_string()),
            None => LoadError::new(self.path, None, e.to_string()),
        })?;
        Ok((mesh, color))
    }

    /// The members' `<inertial>`s summed (in the group's frame); `None` when none has one.
    fn group_mass(
        &self,
        group: &Group<'a>,
    ) -> Result<Option<clasp_core::MassProperties>, LoadError> {
        let mut parts = Vec::new();
        for &(pose, member) in &group.members {
            if let Some(inertial) = self.contents(&member.children, pose)?.inertial {
                parts.push(self.inertial(inertial, pose)?);
            }
        }
        Ok(clasp_core::MassProperties::of_parts(&parts))
    }

    /// One `<inertial>` in the group's frame: grams, its centre (mm), its inertia about that
    /// centre (g·mm²).
    fn inertial(&self, node: &Node, at: Pose) -> Result<MassPart, LoadError> {
        let frame = at * placement(node, &self.document.compiler)?;
        let mass = node
            .number("mass")?
            .ok_or_else(|| node.error("<inertial> has no mass, which is required"))?;
        if mass < 0.0 {
            return Err(node.error(format!("<inertial> mass {mass} is negative")));
        }
        let own = match (
            node.array::<3>("diaginertia")?,
            node.array::<6>("fullinertia")?,
        ) {
            (Some([a, b, c]), None) => Matrix3::from_diagonal(&Vector3::new(a, b, c)),
            (None, Some([xx, yy, zz, xy, xz, yz])) => {
                Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz)
            }
            _ => {
                return Err(node.error("<inertial> needs one of diaginertia and fullinertia"));
            }
        };
        // kg·m² to g·mm².
        Ok(si_mass_part(mass, frame, own))
    }

    /// A robot from a top-level body whose subtree has hinge or slide joints.
    fn robot(&mut self, node: &'a Node, pose: Pose) -> Result<Robot, LoadError> {
        let own = self.contents(&node.children, Pose::identity())?;
        let mut pose = pose;
        for joint in &own.joints {
            if is_free(joint) {
                pose = self.free_slots(pose);
            } else {
                return Err(joint.error(
                    "a joint on a robot's root body: Clasp's palm stands where it is placed \
                     (a free joint is allowed: the palm floats where the body stands)",
                ));
            }
        }
        let group = self.group(node)?;
        let palm_name = body_name(node, "palm");
        let palm = self
            .group_body(&group, BodyKind::Palm, palm_name.clone())?
            .unwrap_or_else(|| {
                self.with_source(Body::from_mesh(palm_name, BodyKind::Palm, TriMesh::empty()))
            });
        let mut records = Vec::new();
        let roots = group
            .movable
            .iter()
            .map(|&(base, first)| (first, base))
            .collect();
        let mut chains = chain_tree(roots, |first, base, index| {
            self.chain(first, base, index, &mut records)
        })?;
        // The joints in the body tree's order, MuJoCo's (a branch's come in the middle of the
        // chain it starts on), so that the DOFs and the keyframe's values follow it.
        // (The root's own joint, if any, is a free one, which the order leaves out.)
        let mut in_tree = Vec::with_capacity(records.len());
        joints_in_tree_order(node, &mut in_tree);
        records.sort_by_key(|r| in_tree.iter().position(|j| std::ptr::eq(*j, r.node)));
        let couplings = joint_couplings(self.document, &records)?;
        let dof_count = couplings.iter().filter(|c| c.own_dof).count();
        let mut dofs = vec![Dof::new(DofKind::Rigid, 1.0, 0.0); dof_count];
        for (record, following) in records.iter().zip(&couplings) {
            let joint = &mut chains[record.chain].joints[record.index];
            (joint.coupling, joint.min, joint.max) =
                (following.coupling, following.min, following.max);
            if following.own_dof {
                // MuJoCo's qpos0 is each joint at its `ref`.
                let dof = &mut dofs[following.coupling.dof];
                dof.default_value = following.reference;
                dof.name = record.node.attribute("name").map_or_else(
                    || format!("the joint at line {}", record.node.line),
                    str::to_owned,
                );
            }
        }
        actuate(self.document, &records, &couplings, &mut dofs)?;
        let name = if self.robot_count == 1 {
            self.document.model.clone()
        } else {
            body_name(node, "robot")
        };
        let mut robot = Robot::new(name, palm, dofs, chains, None);
        robot.source = Some(node.file.to_path_buf());
        // What a GraspIt robot file says and MJCF does not, from the kinematics.
        let inferred = robot.infer_hand();
        robot.apply_inference(&inferred);
        apply_hand_settings(self.source, self.path, &mut robot)?;
        robot.set_pose(pose);
        self.key_dofs(&mut robot, &records, &couplings)?;
        Ok(robot)
    }

    /// One chain from the body `first` (whose frame is `base` in the frame it starts on) to a
    /// leaf, following the first movable body where a body has several; the others start
    /// branches.
    fn chain(
        &self,
        first: &'a Node,
        base: Pose,
        chain_index: usize,
        records: &mut Vec<JointRecord<'a>>,
    ) -> Result<(Chain, Vec<Branch<&'a Node>>), LoadError> {
        let mut chain = Chain::from_palm(base, Vec::new(), Vec::new());
        let mut branches = Vec::new();
        let mut next = Some((Pose::identity(), first));
        while let Some((at, body)) = next {
            let joints = self.contents(&body.children, Pose::identity())?.joints;
            let group = self.group(body)?;
            let (tip, name) = self.link_frame(&group).unwrap_or((Pose::identity(), body));
            for (k, joint) in joints.iter().enumerate() {
                let kind = joint_kind(joint)?;
                let [x, y, z] = joint.array::<3>("pos")?.unwrap_or_default();
                let anchor = Translation3::from(Vector3::new(x, y, z) * MM_PER_M);
                let [ax, ay, az] = joint.array::<3>("axis")?.unwrap_or([0.0, 0.0, 1.0]);
                let axis = Unit::try_new(Vector3::new(ax, ay, az), 1e-12)
                    .ok_or_else(|| joint.error("<joint> axis has zero length"))?;
                // MuJoCo turns a body about each of its joints in turn, each through its anchor.
                let before = if k == 0 { at } else { Pose::identity() };
                let after = Pose::from_parts(anchor.inverse(), UnitQuaternion::identity());
                let last = k + 1 == joints.len();
                chain.joints.push(Joint {
                    kind,
                    coupling: Coupling {
                        dof: 0,
                        ratio: 1.0,
                        offset: 0.0,
                    },
                    frame: JointFrame::Axis {
                        origin: before * Pose::from_parts(anchor, UnitQuaternion::identity()),
                        axis,
                        tip: if last { after * tip } else { after },
                    },
                    min: f64::NEG_INFINITY,
                    max: f64::INFINITY,
                    dynamics: JointDynamics::default(),
                });
                records.push(JointRecord {
                    node: joint,
                    kind,
                    chain: chain_index,
                    index: chain.joints.len() - 1,
                });
            }
            let mut group = group;
            let inverse = tip.inverse();
            for (pose, _) in group.members.iter_mut().chain(group.movable.iter_mut()) {
                *pose = inverse * *pose;
            }
            if let Some(link) = self.group_body(&group, BodyKind::Link, body_name(name, "link"))? {
                chain.links.push(Link {
                    body: link,
                    frame: chain.joints.len().checked_sub(1),
                });
            }
            let mut movable = group.movable.into_iter();
            next = movable.next();
            let at = chain.joints.len().saturating_sub(1);
            branches.extend(movable.map(|(base, first)| Branch {
                first,
                base,
                on_joint: at,
            }));
        }
        Ok((chain, branches))
    }

    /// Where a link sits and whose name it takes: its body's, unless all of its group's geometry
    /// belongs to one fixed descendant, whose frame and name it takes (`None`: its own).
    fn link_frame(&self, group: &Group<'a>) -> Option<(Pose, &'a Node)> {
        let mut with_geometry = group
            .members
            .iter()
            .filter(|(_, member)| member.children.iter().any(|c| c.tag == "geom"));
        match (with_geometry.next(), with_geometry.next()) {
            (Some(&(pose, member)), None) => Some((pose, member)),
            _ => None,
        }
    }

    /// The `clasp` keyframe's values of the robot's joints: each DOF's from its own joint.
    fn key_dofs(
        &mut self,
        robot: &mut Robot,
        records: &[JointRecord<'a>],
        couplings: &[Following],
    ) -> Result<(), LoadError> {
        let first = self.slot;
        self.slot += records.len();
        let Some((key, values)) = &self.key else {
            return Ok(());
        };
        let Some(values) = values.get(first..first + records.len()) else {
            return Ok(()); // The count is checked once the whole tree is read.
        };
        let mut dofs = robot.dof_values().to_vec();
        for ((record, following), value) in records.iter().zip(couplings).zip(values) {
            if following.own_dof {
                dofs[following.coupling.dof] = value * qpos_to_clasp(record.kind);
            }
        }
        robot
            .set_dof_values(&dofs)
            .map_err(|e| key.error(format!("keyframe \"{CLASP_KEY}\": {e}")))
    }
}

/// A body's joints (its frames' among them), then its child bodies' in turn: MuJoCo's order of
/// qpos.
fn joints_in_tree_order<'a>(body: &'a Node, order: &mut Vec<&'a Node>) {
    let mut own = Vec::new();
    let mut children = Vec::new();
    sort_contents(body, &mut own, &mut children);
    order.extend(own.into_iter().filter(|j| !is_free(j)));
    for child in children {
        joints_in_tree_order(child, order);
    }
}

/// A body's joints and child bodies, looking inside its frames.
fn sort_contents<'a>(body: &'a Node, joints: &mut Vec<&'a Node>, children: &mut Vec<&'a Node>) {
    for child in &body.children {
        match child.tag.as_str() {
            "joint" | "freejoint" => joints.push(child),
            "body" => children.push(child),
            "frame" => sort_contents(child, joints, children),
            _ => {}
        }
    }
}

fn joint_kind(joint: &Node) -> Result<JointKind, LoadError> {
    match joint.attribute("type").unwrap_or("hinge") {
        "hinge" => Ok(JointKind::Revolute),
        "slide" => Ok(JointKind::Prismatic),
        other => Err(joint.error(format!(
            "a {other} joint below a robot's root; Clasp's robots have hinge and slide joints"
        ))),
    }
}

fn is_free(joint: &Node) -> bool {
    joint.tag == "freejoint" || joint.attribute("type") == Some("free")
}

/// Whether a body's subtree has a hinge, slide or ball joint (a ball joint is refused later).
fn has_moving_joints(body: &Node) -> bool {
    body.children.iter().any(|child| match child.tag.as_str() {
        "joint" => !is_free(child),
        "body" | "frame" => has_moving_joints(child),
        _ => false,
    })
}

fn body_name(node: &Node, fallback: &str) -> String {
    node.attribute("name")
        .map_or_else(|| format!("{fallback}{}", node.line), str::to_owned)
}
