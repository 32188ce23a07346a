//! GraspIt world XML: obstacles, graspable bodies and robots, each from a file and placed.

use std::path::{Path, PathBuf};

use clasp_core::{BodyKind, DofKind, Robot, World};

use crate::{
    FileSource, LoadError,
    body::{load_body, read},
    robot::load_robot,
    transform::parse_transform,
    xml::{Element, parse_document, required},
};

/// Loads a world file. A `<filename>` is looked up under the GraspIt root first (when one is
/// given), then beside the world file and in each folder above it.
pub fn load_world(
    source: &dyn FileSource,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<World, LoadError> {
    let root = parse_document(&read(source, path)?, path)?;
    if root.name != "world" {
        return Err(LoadError::new(
            path,
            Some(root.line),
            format!(
                "this is not a GraspIt world file: its root element is <{}>, not <world>",
                root.name
            ),
        ));
    }
    let mut world = World::default();
    for element in &root.children {
        match element.name.as_str() {
            "obstacle" | "graspableBody" => {
                let kind = if element.name == "obstacle" {
                    BodyKind::Obstacle
                } else {
                    BodyKind::Graspable
                };
                let file = resolve(source, path, element, graspit_root)?;
                let mut body = load_body(source, &file, kind)?;
                body.pose = placement(element, path)?;
                world.bodies.push(body);
            }
            "robot" => {
                let file = resolve(source, path, element, graspit_root)?;
                let mut robot = load_robot(source, &file)?;
                if let Some(values) = element.child("dofValues") {
                    parse_dof_stream(&robot, values.text())
                        .and_then(|v| robot.set_dof_values(&v).map_err(|e| e.to_string()))
                        .map_err(|message| LoadError::new(path, Some(values.line), message))?;
                }
                robot.set_pose(placement(element, path)?);
                world.robots.push(robot);
            }
            // Cameras and arm connections are not modelled yet; they do not change the scene.
            _ => {}
        }
    }
    Ok(world)
}

fn placement(element: &Element, file: &Path) -> Result<clasp_core::Pose, LoadError> {
    match element.child("transform") {
        Some(t) => parse_transform(t, file),
        None => Ok(clasp_core::Pose::identity()),
    }
}

/// Finds the file a `<filename>` names, or says every place that was tried.
fn resolve(
    source: &dyn FileSource,
    world_file: &Path,
    element: &Element,
    graspit_root: Option<&Path>,
) -> Result<PathBuf, LoadError> {
    let name = required(element, "filename", world_file)?;
    let relative = Path::new(name.text());
    let folders = graspit_root
        .into_iter()
        .chain(world_file.parent().into_iter().flat_map(Path::ancestors));
    let tried: Vec<PathBuf> = folders.map(|folder| folder.join(relative)).collect();
    tried
        .iter()
        .find(|p| source.is_file(p))
        .cloned()
        .ok_or_else(|| {
            let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
            LoadError::new(
                world_file,
                Some(name.line),
                format!(
                    "cannot find \"{}\"; tried {}",
                    name.text(),
                    places.join(", ")
                ),
            )
        })
}

/// Reads GraspIt's DOF stream: per DOF its value; a breakaway DOF then has, per joint it drives,
/// `0`, or `1` followed by the value at which that joint broke away.
fn parse_dof_stream(robot: &Robot, text: &str) -> Result<Vec<f64>, String> {
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
    let mut values = Vec::with_capacity(robot.dofs.len());
    for (i, dof) in robot.dofs.iter().enumerate() {
        values.push(next(&format!("the value of DOF {i}"))?);
        if dof.kind == DofKind::Breakaway {
            let joints = robot
                .chains
                .iter()
                .flat_map(|c| &c.joints)
                .filter(|j| j.coupling.dof == i)
                .count();
            for _ in 0..joints {
                if next(&format!("the breakaway state of DOF {i}"))? != 0.0 {
                    next(&format!("the breakaway value of DOF {i}"))?;
                }
            }
        }
    }
    Ok(values)
}
