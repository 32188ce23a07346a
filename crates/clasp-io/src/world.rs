//! GraspIt world XML: obstacles, graspable bodies and robots, each from a file (or, for bodies,
//! inline) and placed; robots mounted on robots; the saved camera. Loading and saving.

use std::{
    fmt::Write as _,
    path::{Component, Path, PathBuf},
};

use clasp_core::{
    Body, BodyKind, BodyType, Camera, CollisionGroups, Connection, DofKind, Material, Pose, Robot,
    RobotBody, RobotId, Velocity, World,
};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};

use crate::{
    FileSource, LoadError, LoadWarning,
    body::{body_from_element, load_body},
    body_edits::{body_edits_xml, inertia_text, read_body_edits},
    groups::{groups_xml, read_groups},
    robot::load_robot,
    source::read,
    transform::parse_transform,
    xml::{Element, fixed_numbers, number, parse_document, required},
};

/// The GraspIt root to resolve world files against: the one given (a `--graspit-root` flag),
/// else the `GRASPIT` environment variable when it is set and not empty.
pub fn graspit_root_or_env(given: Option<&Path>) -> Option<PathBuf> {
    given.map(Path::to_path_buf).or_else(|| {
        std::env::var_os("GRASPIT")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// How far outside its limits a saved DOF value may lie and still load, clamped, with a
/// warning (rad or mm): GraspIt writes DOF values with six significant digits and reads them
/// without checking, so a DOF saved at its limit can read a hair outside it.
pub const DOF_ROUNDING: f64 = 1e-4;

/// Loads a world file, its contacts found (as [`World::new`] does). A `<filename>` is looked up
/// under the GraspIt root first (when one is given), then beside the world file and in each
/// folder above it. What [`load_world_with_warnings`] would warn of is dropped.
pub fn load_world(
    source: &dyn FileSource,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<World, LoadError> {
    load_world_with_warnings(source, path, graspit_root).map(|(world, _)| world)
}

/// Loads a world file as [`load_world`] does, with what was read with a change: each DOF value
/// outside its limits by no more than [`DOF_ROUNDING`], clamped.
pub fn load_world_with_warnings(
    source: &dyn FileSource,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<(World, Vec<LoadWarning>), LoadError> {
    let root = parse_document(&read(source, path)?, path)?;
    if root.name == "mujoco" {
        return Ok((crate::mjcf::read_mjcf(source, path, &root)?, Vec::new()));
    }
    if root.name != "world" {
        return Err(LoadError::new(
            path,
            Some(root.line),
            format!(
                "this is not a world file: its root element is <{}>, not <world> (GraspIt) or <mujoco> (MuJoCo)",
                root.name
            ),
        ));
    }
    let loader = WorldLoader {
        source,
        path,
        graspit_root,
    };
    let (mut bodies, mut robots, mut connections, mut camera_seen, mut dynamics_seen) =
        (Vec::new(), Vec::new(), Vec::new(), None, None);
    let mut warnings = Vec::new();
    for element in &root.children {
        match element.name.as_str() {
            "obstacle" => bodies.push(loader.free_body(element, BodyKind::Obstacle)?),
            "graspableBody" => bodies.push(loader.free_body(element, BodyKind::Graspable)?),
            "robot" => robots.push(loader.robot(element, &mut warnings)?),
            // Checked once every robot is loaded: a connection may come before its robots.
            "connection" => connections.push(element),
            "camera" => camera_seen = Some(camera(element, path)?),
            "dynamics" => dynamics_seen = Some(element),
            // GraspIt ignores what it does not know; so does Clasp.
            _ => {}
        }
    }
    let connections = connections
        .into_iter()
        .map(|element| Ok((element.line, loader.connection(element, &robots)?)))
        .collect::<Result<Vec<_>, LoadError>>()?;
    let mut world = World::new(bodies, robots);
    for (line, connection) in connections {
        let mount = match &connection.mount {
            Some(file) => Some(load_body(source, file, BodyKind::Link)?),
            None => None,
        };
        world
            .connect(connection, mount)
            .map_err(|e| LoadError::new(path, Some(line), e.to_string()))?;
    }
    world.camera = camera_seen;
    if let Some(element) = dynamics_seen {
        read_dynamics(&mut world, element, path)?;
    }
    Ok((world, warnings))
}

/// A `<robot>` element's groups: `<collisionGroup>`/`<collisionMask>` for every body, then
/// `<bodyGroups body="palm">` or `<bodyGroups chain="0" link="1">` for one.
fn read_robot_groups(robot: &mut Robot, element: &Element, file: &Path) -> Result<(), LoadError> {
    let has_own =
        element.child("collisionGroup").is_some() || element.child("collisionMask").is_some();
    if has_own {
        for which in robot.parts() {
            let start = robot
                .body(which)
                .map_or(CollisionGroups::MOVABLE, Body::groups);
            robot.set_body_groups(which, read_groups(element, file, start)?);
        }
    }
    for one in element.children_named("bodyGroups") {
        let error = |message: &str| LoadError::new(file, Some(one.line), message);
        let which = match (
            one.attribute("body"),
            one.attribute("chain"),
            one.attribute("link"),
        ) {
            (Some("palm"), None, None) => RobotBody::Palm,
            (None, Some(chain), Some(link)) => RobotBody::Link {
                chain: chain
                    .trim()
                    .parse()
                    .map_err(|_| error("chain must be a number"))?,
                link: link
                    .trim()
                    .parse()
                    .map_err(|_| error("link must be a number"))?,
            },
            _ => {
                return Err(error(
                    "<bodyGroups> names body=\"palm\", or a chain and a link",
                ));
            }
        };
        let start = robot
            .body(which)
            .ok_or_else(|| error("the robot has no such body"))?
            .groups();
        robot.set_body_groups(which, read_groups(one, file, start)?);
    }
    Ok(())
}

/// A `<robot>`'s groups as [`read_robot_groups`] reads them: one `<bodyGroups>` for each body
/// not in RaiSim's default.
fn robot_groups_xml(robot: &Robot) -> String {
    let mut xml = String::new();
    for which in robot.parts() {
        let Some(groups) = robot.body(which).map(Body::groups) else {
            continue;
        };
        if groups == CollisionGroups::MOVABLE {
            continue;
        }
        let names = match which {
            RobotBody::Palm => "body=\"palm\"".to_owned(),
            RobotBody::Link { chain, link } => format!("chain=\"{chain}\" link=\"{link}\""),
            // The mount piece comes with the connection, after the robot's groups are read.
            RobotBody::Mount => continue,
        };
        let _ = writeln!(xml, "\t\t<bodyGroups {names}>");
        xml.push_str(&groups_xml(groups, "\t\t\t"));
        xml.push_str("\t\t</bodyGroups>\n");
    }
    xml
}

/// What every part of one world file is resolved against.
struct WorldLoader<'a> {
    source: &'a dyn FileSource,
    path: &'a Path,
    graspit_root: Option<&'a Path>,
}

impl WorldLoader<'_> {
    /// An obstacle or graspable body, from `<filename>` or an inline `<body>`, placed.
    fn free_body(&self, element: &Element, kind: BodyKind) -> Result<Body, LoadError> {
        let body = match element.child("body") {
            Some(inline) => self.inline_body(inline, kind)?,
            None => {
                let body = load_body(self.source, &self.resolve(element, "filename")?, kind)?;
                read_body_edits(body, element, self.path)?
            }
        };
        let groups = read_groups(element, self.path, body.groups())?;
        let mut body = body.at(placement(element, self.path)?).in_groups(groups);
        // Errors about where it stands (it starts inside another) point at its placement.
        let at = element.child("transform").map_or(element.line, |t| t.line);
        body.lines.placed = Some((self.path.to_path_buf(), at));
        read_motion(body, element, self.path)
    }

    /// An inline body's geometry is looked up, as GraspIt does, in the root's `models/objects`
    /// (or `models/obstacles`), then beside the world file and above it. Its name is its
    /// `<name>` (which Clasp writes and GraspIt ignores), else its geometry file's name.
    fn inline_body(&self, inline: &Element, kind: BodyKind) -> Result<Body, LoadError> {
        let models = match kind {
            BodyKind::Obstacle => "models/obstacles",
            _ => "models/objects",
        };
        let folders: Vec<PathBuf> = self
            .graspit_root
            .map(|r| r.join(models))
            .into_iter()
            .chain(self.local_folders())
            .collect();
        let mut body = body_from_element(self.source, self.path, inline, kind, &folders)?;
        if let Some(name) = inline.child("name").filter(|n| !n.text().is_empty()) {
            body.name = name.text().to_owned();
        }
        Ok(body)
    }

    fn robot(
        &self,
        element: &Element,
        warnings: &mut Vec<LoadWarning>,
    ) -> Result<Robot, LoadError> {
        let mut robot = load_robot(self.source, &self.resolve(element, "filename")?)?;
        if let Some(values) = element.child("dofValues") {
            let at_line = |message: String| LoadError::new(self.path, Some(values.line), message);
            let mut read = parse_dof_stream(&robot, values.text()).map_err(at_line)?;
            for message in clamp_rounded_dofs(&robot, &mut read.values) {
                warnings.push(LoadWarning {
                    file: self.path.to_path_buf(),
                    line: Some(values.line),
                    message,
                });
            }
            robot
                .set_dof_values(&read.values)
                .map_err(|e| at_line(e.to_string()))?;
            for (dof, states) in read.breakaway.iter().enumerate() {
                if !states.is_empty() {
                    robot
                        .set_breakaway(dof, states)
                        .map_err(|e| at_line(e.to_string()))?;
                }
            }
        }
        robot.set_pose(placement(element, self.path)?);
        read_robot_groups(&mut robot, element, self.path)?;
        Ok(robot)
    }

    /// A `<connection>`, its robot and chain indices checked against the loaded robots.
    fn connection(&self, element: &Element, robots: &[Robot]) -> Result<Connection, LoadError> {
        let error = |message: String| LoadError::new(self.path, Some(element.line), message);
        let parent_robot = index(required(element, "parentRobot", self.path)?, self.path)?;
        let parent_chain = index(required(element, "parentChain", self.path)?, self.path)?;
        let child_robot = index(required(element, "childRobot", self.path)?, self.path)?;
        for robot in [parent_robot, child_robot] {
            if robot >= robots.len() {
                return Err(error(format!(
                    "<connection> names robot {robot}, but the world has {} robots",
                    robots.len()
                )));
            }
        }
        if parent_robot == child_robot {
            return Err(error(format!(
                "<connection> mounts robot {child_robot} on itself"
            )));
        }
        let chains = robots[parent_robot].chains().len();
        if parent_chain >= chains {
            return Err(error(format!(
                "<connection> names chain {parent_chain} of robot {parent_robot}, which has {chains} chains"
            )));
        }
        let mount = match element.child("mountFilename") {
            Some(m) if !m.text().is_empty() => Some(self.resolve(element, "mountFilename")?),
            _ => None,
        };
        Ok(Connection {
            parent_robot: RobotId::from_index(parent_robot),
            parent_chain,
            child_robot: RobotId::from_index(child_robot),
            mount,
            offset: placement(element, self.path)?,
        })
    }

    /// The world file's folder and each folder above it (`..` taken lexically first, so that
    /// `a/b/../c` climbs through `a`, not `a/b`).
    fn local_folders(&self) -> Vec<PathBuf> {
        let folder = lexical(self.path.parent().unwrap_or(Path::new("")));
        folder.ancestors().map(Path::to_path_buf).collect()
    }

    /// Finds the file the child `tag` names, or says every place that was tried.
    fn resolve(&self, element: &Element, tag: &str) -> Result<PathBuf, LoadError> {
        let name = required(element, tag, self.path)?;
        let relative = Path::new(name.text());
        let folders = self
            .graspit_root
            .map(Path::to_path_buf)
            .into_iter()
            .chain(self.local_folders());
        let tried: Vec<PathBuf> = folders.map(|folder| folder.join(relative)).collect();
        tried
            .iter()
            .find(|p| self.source.is_file(p))
            .cloned()
            .ok_or_else(|| {
                let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
                LoadError::new(
                    self.path,
                    Some(name.line),
                    format!(
                        "cannot find \"{}\"; tried {}",
                        name.text(),
                        places.join(", ")
                    ),
                )
            })
    }
}

fn placement(element: &Element, file: &Path) -> Result<Pose, LoadError> {
    match element.child("transform") {
        Some(t) => parse_transform(t, file),
        None => Ok(Pose::identity()),
    }
}

/// A robot or chain index: a whole number, not negative.
fn index(element: &Element, file: &Path) -> Result<usize, LoadError> {
    element.text().parse().map_err(|_| {
        LoadError::new(
            file,
            Some(element.line),
            format!(
                "<{}> holds \"{}\", which is not an index (0, 1, 2, ...)",
                element.name,
                element.text()
            ),
        )
    })
}

/// Clasp's extension `<dynamics>`: `<gravity>x y z</gravity>` (mm/s²) and
/// `<timeStep>seconds</timeStep>`, each optional; a bad value names the file and its line.
fn read_dynamics(world: &mut World, element: &Element, file: &Path) -> Result<(), LoadError> {
    let refused = |at: &Element, e: clasp_core::MoveError| {
        LoadError::new(file, Some(at.line), format!("<{}>: {e}", at.name))
    };
    if let Some(gravity) = element.child("gravity") {
        let [x, y, z] = fixed_numbers::<3>(gravity, file)?;
        world
            .set_gravity(nalgebra::Vector3::new(x, y, z))
            .map_err(|e| refused(gravity, e))?;
    }
    if let Some(step) = element.child("timeStep") {
        world
            .set_time_step(number(step, file)?)
            .map_err(|e| refused(step, e))?;
    }
    Ok(())
}

/// Clasp's extensions to a free body: `<bodyType>static|dynamic|kinematic</bodyType>` (by
/// default an obstacle is static, a graspable body dynamic) and `<velocity>vx vy vz wx wy
/// wz</velocity>` (mm/s and rad/s, world axes), which a static body cannot have.
fn read_motion(body: Body, element: &Element, file: &Path) -> Result<Body, LoadError> {
    let body = match element.child("bodyType") {
        None => body,
        Some(t) => {
            let name = t.text().trim();
            let body_type = BodyType::from_name(name).ok_or_else(|| {
                let message = format!("<bodyType> is static, dynamic or kinematic, not \"{name}\"");
                LoadError::new(file, Some(t.line), message)
            })?;
            body.of_type(body_type)
        }
    };
    let Some(v) = element.child("velocity") else {
        return Ok(body);
    };
    let [x, y, z, wx, wy, wz] = fixed_numbers::<6>(v, file)?;
    if body.is_static() {
        let message =
            "<velocity>: a static body cannot move (give it <bodyType>kinematic</bodyType>)";
        return Err(LoadError::new(file, Some(v.line), message.to_owned()));
    }
    let velocity = Velocity::new(Vector3::new(x, y, z), Vector3::new(wx, wy, wz));
    Ok(body.moving(velocity))
}

/// A free body's `<bodyType>` and `<velocity>` where they are not the defaults.
fn motion_xml(body: &Body) -> String {
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
fn dynamics_xml(world: &World) -> String {
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

/// `<camera>`: position, orientation as `x y z w` (Inventor's order), focal distance.
fn camera(element: &Element, file: &Path) -> Result<Camera, LoadError> {
    let position = Point3::from(fixed_numbers::<3>(
        required(element, "position", file)?,
        file,
    )?);
    let orientation = required(element, "orientation", file)?;
    let [x, y, z, w] = fixed_numbers::<4>(orientation, file)?;
    let q = Quaternion::new(w, x, y, z);
    if q.norm() < 1e-9 {
        return Err(LoadError::new(
            file,
            Some(orientation.line),
            "<orientation> is a zero quaternion",
        ));
    }
    Ok(Camera {
        position,
        orientation: UnitQuaternion::from_quaternion(q),
        focal_distance: number(required(element, "focalDistance", file)?, file)?,
    })
}

/// Clamps each DOF value outside its limits by no more than [`DOF_ROUNDING`] into them, and
/// says so; a value further out is left for [`Robot::set_dof_values`] to refuse.
fn clamp_rounded_dofs(robot: &Robot, values: &mut [f64]) -> Vec<String> {
    let mut messages = Vec::new();
    for (dof, value) in values.iter_mut().enumerate() {
        let (min, max) = robot.dof_limits(dof);
        let clamped = value.clamp(min, max.max(min));
        let outside = (*value - clamped).abs();
        if outside > 0.0 && outside <= DOF_ROUNDING {
            messages.push(format!(
                "{}: DOF {dof} reads {value}, {outside:.1e} outside its limits [{min}, {max}] \
                 (six-digit rounding): clamped to {clamped}",
                robot.name
            ));
            *value = clamped;
        }
    }
    messages
}

/// A robot's DOF stream as read: each DOF's value, and for a breakaway DOF where each of its
/// joints broke away (`None` for one that follows its DOF).
struct DofStream {
    values: Vec<f64>,
    breakaway: Vec<Vec<Option<f64>>>,
}

/// Reads GraspIt's DOF stream: per DOF its value; a breakaway DOF then has, per joint it drives,
/// `0`, or `1` followed by the value at which that joint broke away.
fn parse_dof_stream(robot: &Robot, text: &str) -> Result<DofStream, String> {
    let mut tokens = text.split_whitespace();
    let mut next = |what: &str| -> Result<f64, String> {
        let token = tokens
            .next()
            .ok_or_else(|| format!("<dofValues> ends before {what}"))?;
        token
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("<dofValues> holds \"{token}\", which is not a finite number"))
    };
    let mut stream = DofStream {
        values: Vec::with_capacity(robot.dofs.len()),
        breakaway: Vec::with_capacity(robot.dofs.len()),
    };
    for (i, dof) in robot.dofs.iter().enumerate() {
        stream.values.push(next(&format!("the value of DOF {i}"))?);
        let mut states = Vec::new();
        if dof.kind == DofKind::Breakaway {
            for _ in robot.dof_joints(i) {
                let state = next(&format!("the breakaway state of DOF {i}"))?;
                states.push(match state {
                    0.0 => None,
                    1.0 => Some(next(&format!("the breakaway value of DOF {i}"))?),
                    _ => {
                        return Err(format!(
                            "a breakaway state of DOF {i} is {state}, not 0 or 1"
                        ));
                    }
                });
            }
        }
        stream.breakaway.push(states);
    }
    Ok(stream)
}

/// Why a world could not be saved.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", file.display())]
pub struct SaveError {
    pub file: PathBuf,
    pub message: String,
}

impl SaveError {
    pub fn new(file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            message: message.into(),
        }
    }
}

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
                xml.push_str(&body_edits_xml(body, file, "\t\t"));
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
fn transform_xml(pose: &Pose, indent: &str) -> String {
    let q = pose.rotation.quaternion();
    let t = pose.translation.vector;
    format!(
        "{indent}<transform>\n{indent}\t<fullTransform>({} {} {} {})[{} {} {}]</fullTransform>\n{indent}</transform>\n",
        q.w, q.i, q.j, q.k, t.x, t.y, t.z
    )
}

/// GraspIt's DOF stream: each value, and for a breakaway DOF a `0` (not broken away) per joint.
fn dof_stream(robot: &Robot) -> String {
    let mut parts = Vec::new();
    for (i, (dof, value)) in robot.dofs.iter().zip(robot.dof_values()).enumerate() {
        parts.push(value.to_string());
        if dof.kind == DofKind::Breakaway {
            for (chain, joint) in robot.dof_joints(i) {
                parts.push(match robot.breakaway(chain, joint) {
                    Some(at) => format!("1 {at}"),
                    None => "0".to_owned(),
                });
            }
        }
    }
    parts.join(" ")
}

fn camera_xml(camera: &Camera) -> String {
    let p = camera.position;
    let q = camera.orientation.quaternion();
    format!(
        "\t<camera>\n\t\t<position>{} {} {}</position>\n\t\t<orientation>{} {} {} {}</orientation>\n\t\t<focalDistance>{}</focalDistance>\n\t</camera>\n",
        p.x, p.y, p.z, q.i, q.j, q.k, q.w, camera.focal_distance
    )
}

/// An inline `<body>` with every property given, so that nothing is recomputed on loading.
fn inline_body(body: &Body, mesh_file: &Path) -> String {
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
fn off_text(body: &Body) -> String {
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
fn sibling(world_file: &Path, suffix: &str) -> PathBuf {
    let stem = world_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "world".into());
    world_file.with_file_name(format!("{stem}.{suffix}"))
}

fn escape(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

/// How a saved world names a file: relative to the GraspIt root when the file is under it,
/// else relative to the world's folder (with `..` as needed), with `/` between parts.
fn reference(file: &Path, world_folder: &Path, graspit_root: Option<&Path>) -> String {
    let file = absolute(file);
    let relative = match graspit_root.and_then(|root| file.strip_prefix(root).ok()) {
        Some(under_root) => under_root.to_path_buf(),
        None => relative_to(&file, world_folder),
    };
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// `file` as seen from `folder`; both absolute and normalized. Falls back to the absolute path
/// when they share no root (another drive).
fn relative_to(file: &Path, folder: &Path) -> PathBuf {
    let (a, b): (Vec<Component>, Vec<Component>) =
        (file.components().collect(), folder.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return file.to_path_buf();
    }
    let ups = std::iter::repeat_n(Component::ParentDir, b.len() - common);
    ups.chain(a[common..].iter().copied()).collect()
}

/// An absolute path with `.` and `..` removed lexically (symbolic links are kept as named).
fn absolute(path: &Path) -> PathBuf {
    lexical(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// Drops `.` and cancels each `..` against the folder before it; leading `..`s stay.
fn lexical(path: &Path) -> PathBuf {
    let mut parts: Vec<Component> = Vec::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            // Above the root is the root.
            Component::ParentDir if matches!(parts.last(), Some(Component::RootDir)) => {}
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Embedded;

    const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const BODY: &str = "<root><geometryFile>tri.off</geometryFile></root>";

    fn load(world: &'static str) -> Result<World, LoadError> {
        let files = Embedded::new([
            ("lib/models/objects/tri.xml", BODY),
            ("lib/models/objects/tri.off", TRIANGLE),
            ("scenes/w.xml", world),
        ]);
        load_world(&files, Path::new("scenes/w.xml"), Some(Path::new("lib")))
    }

    #[test]
    fn reads_and_refuses_clasps_dynamics_settings() {
        let world = load(
            "<world><dynamics><gravity>0 -9810 0</gravity><timeStep>0.002</timeStep>\
             </dynamics></world>",
        )
        .unwrap();
        assert_eq!(world.gravity(), nalgebra::Vector3::new(0.0, -9810.0, 0.0));
        assert_eq!(world.time_step(), 0.002);
        let err = load("<world><dynamics>\n<timeStep>0</timeStep></dynamics></world>").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err.to_string().contains("time step"), "{err}");
        let err = load("<world><dynamics><gravity>0 nan 0</gravity></dynamics></world>");
        assert!(err.is_err());
    }

    #[test]
    fn reads_and_writes_body_types_and_velocities() {
        let world = load(
            "<world><obstacle><filename>models/objects/tri.xml</filename>\
             <bodyType>kinematic</bodyType><velocity>1 2 3 0 0 0.5</velocity></obstacle>\
             <graspableBody><filename>models/objects/tri.xml</filename></graspableBody></world>",
        )
        .unwrap();
        let (_, pusher) = world.free_bodies().next().unwrap();
        assert_eq!(pusher.body_type(), BodyType::Kinematic);
        assert_eq!(pusher.velocity().linear, Vector3::new(1.0, 2.0, 3.0));
        assert_eq!(
            motion_xml(pusher),
            "\t\t<bodyType>kinematic</bodyType>\n\t\t<velocity>1 2 3 0 0 0.5</velocity>\n"
        );
        let (_, graspable) = world.free_bodies().nth(1).unwrap();
        assert_eq!(graspable.body_type(), BodyType::Dynamic);
        assert_eq!(motion_xml(graspable), "", "defaults are not written");
        let err = load(
            "<world><obstacle><filename>models/objects/tri.xml</filename>\n\
             <bodyType>floating</bodyType></obstacle></world>",
        )
        .unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err.to_string().contains("\"floating\""), "{err}");
        let err = load(
            "<world><obstacle><filename>models/objects/tri.xml</filename>\n\
             <velocity>1 0 0 0 0 0</velocity></obstacle></world>",
        )
        .unwrap_err();
        assert!(err.to_string().contains("static body cannot move"), "{err}");
        assert!(
            load(
                "<world><graspableBody><filename>models/objects/tri.xml</filename>\
             <velocity>1 0 nan 0 0 0</velocity></graspableBody></world>"
            )
            .is_err()
        );
    }

    #[test]
    fn reads_the_camera_in_inventor_quaternion_order() {
        let world = load(
            "<world><camera><position>1 2 3</position><orientation>0 0 1 1</orientation>\
             <focalDistance>250</focalDistance></camera></world>",
        )
        .unwrap();
        let camera = world.camera.unwrap();
        assert_eq!(camera.position, Point3::new(1.0, 2.0, 3.0));
        assert!((camera.orientation.angle() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!((camera.orientation.axis().unwrap().z - 1.0).abs() < 1e-12);
        assert_eq!(camera.focal_distance, 250.0);
        let err = load("<world>\n<camera><position>1 2</position></camera></world>").unwrap_err();
        assert!(err.message.contains("needs 3 numbers"), "{err}");
    }

    #[test]
    fn inline_bodies_find_their_geometry_under_the_root() {
        let world = load(
            "<world><obstacle><body><name>floor</name><mass>5</mass>\
             <geometryFile>tri.off</geometryFile></body></obstacle>\
             <graspableBody><body><geometryFile>tri.off</geometryFile></body></graspableBody></world>",
        );
        // Obstacles look in models/obstacles, which this library lacks.
        let err = world.unwrap_err();
        assert!(
            err.message
                .contains("lib/models/obstacles/tri.off, nor scenes/tri.off"),
            "{err}"
        );
        let world = load(
            "<world><graspableBody><body><name>floor</name><mass>5</mass>\
             <geometryFile>tri.off</geometryFile></body>\
             <transform><translation>0 0 7</translation></transform></graspableBody></world>",
        )
        .unwrap();
        let body = world.free_body(0).unwrap();
        assert_eq!((body.name.as_str(), body.mass.mass), ("floor", 5.0));
        assert_eq!(body.pose().translation.vector.z, 7.0);
        assert_eq!(body.source, None);
    }

    #[test]
    fn connections_need_existing_robots_and_chains() {
        let err = load(
            "<world>\n<connection><parentRobot>0</parentRobot><parentChain>0</parentChain>\
             <childRobot>1</childRobot></connection></world>",
        )
        .unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("the world has 0 robots"), "{err}");
        let err = load(
            "<world><connection><parentRobot>-1</parentRobot><parentChain>0</parentChain>\
             <childRobot>1</childRobot></connection></world>",
        )
        .unwrap_err();
        assert!(err.message.contains("not an index"), "{err}");
    }

    #[test]
    fn missing_files_list_every_place_tried() {
        let err = load("<world>\n<graspableBody><filename>models/objects/cup.xml</filename></graspableBody></world>")
            .unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(
            err.message.contains(
                "tried lib/models/objects/cup.xml, scenes/models/objects/cup.xml, models/objects/cup.xml"
            ),
            "{err}"
        );
        let world = load("<world><graspableBody><filename>models/objects/tri.xml</filename></graspableBody></world>").unwrap();
        assert_eq!(world.free_body(0).unwrap().name, "tri");
    }

    const HAND: &str = "<robot><palm>tri.xml</palm>\
        <dof type=\"b\"><defaultVelocity>1</defaultVelocity></dof>\
        <chain><joint type=\"Revolute\"><theta>d0</theta><d>0</d><a>10</a><alpha>0</alpha>\
        <minValue>0</minValue><maxValue>90</maxValue></joint>\
        <joint type=\"Revolute\"><theta>d0*0.5</theta><d>0</d><a>10</a><alpha>0</alpha>\
        <minValue>0</minValue><maxValue>90</maxValue></joint>\
        <link>tri.xml</link><link>tri.xml</link></chain></robot>";

    #[test]
    fn breakaway_dofs_read_and_write_one_state_per_joint() {
        let files = Embedded::new([
            ("hand/hand.xml", HAND),
            ("hand/iv/tri.xml", BODY),
            ("hand/iv/tri.off", TRIANGLE),
            // DOF 0 is 0.3; its first joint broke away at 0.25, its second did not.
            (
                "w.xml",
                "<world><robot><filename>hand/hand.xml</filename>\
                 <dofValues>0.3 1 0.25 0</dofValues></robot></world>",
            ),
            (
                "short.xml",
                "<world><robot><filename>hand/hand.xml</filename>\
                 <dofValues>0.3 1</dofValues></robot></world>",
            ),
        ]);
        let world = load_world(&files, Path::new("w.xml"), None).unwrap();
        let robot = world.robot(RobotId::from_index(0)).unwrap();
        assert_eq!(robot.dof_values(), &[0.3]);
        assert_eq!(robot.dof_joints(0), [(0, 0), (0, 1)]);
        assert_eq!(
            (robot.breakaway(0, 0), robot.breakaway(0, 1)),
            (Some(0.25), None)
        );
        assert_eq!(dof_stream(robot), "0.3 1 0.25 0");
        let err = load_world(&files, Path::new("short.xml"), None).unwrap_err();
        assert!(
            err.message
                .contains("ends before the breakaway value of DOF 0"),
            "{err}"
        );
    }

    #[test]
    fn references_are_relative_to_the_root_else_to_the_world() {
        let (root, folder) = (Path::new("/g"), Path::new("/home/me/worlds"));
        assert_eq!(
            reference(Path::new("/g/models/objects/mug.xml"), folder, Some(root)),
            "models/objects/mug.xml"
        );
        assert_eq!(
            reference(Path::new("/home/me/objects/cup.xml"), folder, Some(root)),
            "../objects/cup.xml"
        );
        assert_eq!(
            reference(Path::new("/home/me/worlds/a/../cup.xml"), folder, None),
            "cup.xml"
        );
        assert_eq!(
            lexical(Path::new("a/b/../../../c/./d")),
            Path::new("../c/d")
        );
        assert_eq!(lexical(Path::new("/../x")), Path::new("/x"));
    }
}
