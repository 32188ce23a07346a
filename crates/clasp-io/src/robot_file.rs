//! A robot from any file that describes one: GraspIt's robot XML, URDF, or MJCF (its first
//! robot), told apart by what the file holds. World files name robots through it, so a world's
//! `<robot><filename>` may be any of them.

use std::path::Path;

use clasp_core::Robot;

use crate::{
    error::LoadError,
    kind::FileKind,
    mjcf::read::read_mjcf,
    robot::load_robot,
    source::{FileSource, read},
    urdf::load_urdf,
    xml::parse_document,
};

/// Loads a robot from a GraspIt robot XML, a URDF or an MJCF file (the model's first robot).
pub fn load_any_robot(source: &dyn FileSource, path: &Path) -> Result<Robot, LoadError> {
    match FileKind::of(source, path)? {
        FileKind::Robot => load_robot(source, path),
        FileKind::Urdf => load_urdf(source, path),
        FileKind::Mjcf => {
            let root = parse_document(&read(source, path)?, path)?;
            let world = read_mjcf(source, path, &root)?;
            let robot = world.robots().next().map(|(_, robot)| robot.clone());
            robot.ok_or_else(|| {
                LoadError::new(
                    path,
                    None,
                    "this MuJoCo model has no robot (no body with hinge or slide joints)",
                )
            })
        }
        other => Err(LoadError::new(
            path,
            None,
            format!(
                "this is a {} file, not a robot (GraspIt robot XML, URDF or MJCF)",
                other.name()
            ),
        )),
    }
}
