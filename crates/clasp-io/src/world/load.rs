//! Reading a GraspIt world file: its bodies (each from a file, or inline) and robots, placed;
//! robots mounted on robots; the saved camera; Clasp's dynamics settings and body motions.

use std::path::{Path, PathBuf};

use clasp_core::{
    Body, BodyKind, BodyType, Camera, Connection, Pose, Robot, RobotId, Velocity, World,
};
use nalgebra::{Point3, Quaternion, UnitQuaternion, Vector3};

use super::{
    dof_stream::{clamp_rounded_dofs, parse_dof_stream},
    paths::lexical,
    robot_bodies::{read_robot_body_edits, read_robot_groups},
};
use crate::{
    body::{body_from_element, load_body},
    body_edits::read_body_edits,
    error::{LoadError, LoadWarning},
    groups::read_groups,
    robot_file::load_any_robot,
    source::{FileSource, read},
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
/// outside its limits by no more than [`DOF_ROUNDING`](crate::DOF_ROUNDING), clamped.
pub fn load_world_with_warnings(
    source: &dyn FileSource,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<(World, Vec<LoadWarning>), LoadError> {
    let root = parse_document(&read(source, path)?, path)?;
    if root.name == "mujoco" {
        return Ok((
            crate::mjcf::read::read_mjcf(source, path, &root)?,
            Vec::new(),
        ));
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
    warnings.extend(
        world
            .body_ids()
            .iter()
            .filter_map(|&id| world.body(id).and_then(repaired_inertia_warning)),
    );
    Ok((world, warnings))
}

/// The warning for a body whose file's inertia was repaired, naming the file and its line.
pub fn repaired_inertia_warning(body: &Body) -> Option<LoadWarning> {
    let repair = body.mass.inertia_repair.as_ref()?;
    Some(LoadWarning {
        file: body.source.clone().unwrap_or_default(),
        line: body.lines.inertia,
        message: format!("{}: {repair}", body.name),
    })
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
                let mut body = load_body(self.source, &self.resolve(element, "filename")?, kind)?;
                read_body_edits(&mut body, element, self.path)?;
                body
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
        let mut robot = load_any_robot(self.source, &self.resolve(element, "filename")?)?;
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
        read_robot_body_edits(&mut robot, element, self.path)?;
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

pub(super) fn placement(element: &Element, file: &Path) -> Result<Pose, LoadError> {
    match element.child("transform") {
        Some(t) => parse_transform(t, file),
        None => Ok(Pose::identity()),
    }
}

/// A robot or chain index: a whole number, not negative.
pub(super) fn index(element: &Element, file: &Path) -> Result<usize, LoadError> {
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
pub(super) fn read_dynamics(
    world: &mut World,
    element: &Element,
    file: &Path,
) -> Result<(), LoadError> {
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
pub(super) fn read_motion(body: Body, element: &Element, file: &Path) -> Result<Body, LoadError> {
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

/// `<camera>`: position, orientation as `x y z w` (Inventor's order), focal distance.
pub(super) fn camera(element: &Element, file: &Path) -> Result<Camera, LoadError> {
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
