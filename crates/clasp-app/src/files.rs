//! Loading what the File menu opens and imports, and placing imports beside the scene.

use std::path::Path;

use clasp_core::{Body, BodyKind, Recording, Robot, World, bounding_box};
use clasp_io::{Disk, FileKind, LoadError, LoadWarning, MeshReading, MeshUnits};
use nalgebra::{Point3, Vector3};

/// What an import adds: an object to grasp, an obstacle, or a robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    Object,
    Obstacle,
    Robot,
}

/// Space left between the scene and an import, mm.
const IMPORT_GAP: f64 = 20.0;

/// What an import file holds.
pub enum Loaded {
    /// A body, with how it was read where it came from a bare mesh file (to say in the log).
    Body(Box<Body>, Option<MeshUnits>),
    Robot(Box<Robot>),
}

/// GraspIt's root folder for `<filename>`s: `$GRASPIT` when set.
fn graspit_root() -> Option<std::path::PathBuf> {
    clasp_io::graspit_root_or_env(None)
}

/// A GraspIt world file or a MuJoCo model, with what was read with a change (a DOF a rounding outside its limits).
pub fn load_world_file(path: &Path) -> Result<(World, Vec<LoadWarning>), LoadError> {
    match FileKind::of(&Disk, path)? {
        kind if kind.is_world() => {
            clasp_io::load_world_with_warnings(&Disk, path, graspit_root().as_deref())
        }
        other => Err(LoadError::new(
            path,
            None,
            format!(
                "this is a {} file, not a world: import it instead",
                other.name()
            ),
        )),
    }
}

/// A body file, a robot file (GraspIt XML or URDF) or a bare mesh (read as `reading` says), as
/// `kind` asks.
pub fn load_import(
    path: &Path,
    kind: ImportKind,
    reading: MeshReading,
) -> Result<Loaded, LoadError> {
    match kind {
        ImportKind::Robot => Ok(Loaded::Robot(Box::new(clasp_io::load_any_robot(
            &Disk, path,
        )?))),
        _ => {
            let (body, units) = clasp_io::load_any_body(&Disk, path, body_kind(kind), reading)?;
            Ok(Loaded::Body(Box::new(body), units))
        }
    }
}

/// What a file given on the command line or dropped on the window imports as: robots as
/// robots, everything else as an object to grasp.
pub fn import_kind_of(path: &Path) -> ImportKind {
    match FileKind::of(&Disk, path) {
        Ok(FileKind::Robot | FileKind::Urdf) => ImportKind::Robot,
        _ => ImportKind::Object,
    }
}

fn body_kind(kind: ImportKind) -> BodyKind {
    match kind {
        ImportKind::Obstacle => BodyKind::Obstacle,
        _ => BodyKind::Graspable,
    }
}

/// The shift that puts an import just past the scene's +x side, centred on the scene in y and
/// resting at the height of its lowest point, so it starts out touching nothing.
pub fn place_beside(world: &World, loaded: &Loaded) -> Vector3<f64> {
    let Some((lo, hi)) = loaded_bounds(loaded) else {
        return Vector3::zeros();
    };
    let Some((scene_lo, scene_hi)) = world.bounding_box() else {
        return Vector3::zeros();
    };
    let target = Point3::new(
        scene_hi.x + IMPORT_GAP + (hi.x - lo.x) / 2.0,
        (scene_lo.y + scene_hi.y) / 2.0,
        scene_lo.z + (hi.z - lo.z) / 2.0,
    );
    target - nalgebra::center(&lo, &hi)
}

fn loaded_bounds(loaded: &Loaded) -> Option<(Point3<f64>, Point3<f64>)> {
    match loaded {
        Loaded::Body(body, _) => bounding_box([&**body]),
        Loaded::Robot(robot) => bounding_box(robot.bodies()),
    }
}

/// Whether a file is a recording (opened onto the timeline) rather than a world.
pub fn is_recording(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "clasprec")
}

/// Reads a `.clasprec` recording and the world it began in.
pub fn load_recording_file(path: &Path) -> Result<(World, Recording), LoadError> {
    let root = clasp_io::graspit_root_or_env(None);
    clasp_io::load_recording(&clasp_io::Disk, path, root.as_deref())
}
