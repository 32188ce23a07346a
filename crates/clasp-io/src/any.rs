//! Loading a body or a robot from whichever kind of file holds it, and the built-in default
//! scene: what the app imports, the CLI and the Python package load, written once.

use std::path::Path;

use clasp_core::{Body, BodyKind, World};

use crate::{
    body::load_body,
    error::LoadError,
    kind::FileKind,
    mesh_units::{MeshReading, MeshUnits, read_mesh},
    source::{Embedded, FileSource},
    world::load::load_world,
};

/// A body from a GraspIt body file (in its own units: GraspIt's millimetres times its
/// `geometryScaling`), or from a bare mesh file (named after the file, with the file's colour)
/// read as `reading` and the file decide, with what was decided to say; as `kind`. Any other
/// kind of file is refused, saying what it is.
pub fn load_any_body(
    source: &dyn FileSource,
    path: &Path,
    kind: BodyKind,
    reading: MeshReading,
) -> Result<(Body, Option<MeshUnits>), LoadError> {
    match FileKind::of(source, path)? {
        FileKind::Body => Ok((load_body(source, path, kind)?, None)),
        FileKind::Geometry => {
            let (mesh, units) = read_mesh(source, path, reading)?;
            let name = path
                .file_stem()
                .map_or("mesh".into(), |s| s.to_string_lossy().into_owned());
            let mut body = Body::from_mesh(name, kind, mesh.mesh);
            body.color = mesh.color;
            Ok((body, Some(units)))
        }
        other => Err(not_a(
            path,
            other,
            "a body (GraspIt body XML or a mesh file)",
        )),
    }
}

fn not_a(path: &Path, kind: FileKind, wanted: &str) -> LoadError {
    LoadError::new(
        path,
        None,
        format!("this is a {} file, not {wanted}", kind.name()),
    )
}

/// Where the default scene's world file sits among its embedded files.
pub const DEFAULT_WORLD: &str = "models/worlds/default.xml";

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        [$(($path, include_str!(concat!("../../../", $path)))),*]
    };
}

/// The default scene (Clasp's hand beside a mug) and every file it needs, compiled in so that
/// it loads from any folder.
pub fn default_scene_files() -> Embedded {
    Embedded::new(embed![
        "models/worlds/default.xml",
        "models/objects/clasp_mug.xml",
        "models/objects/clasp_mug.off",
        "models/obstacles/clasp_table.xml",
        "models/obstacles/clasp_table.off",
        "models/robots/ClaspHand/ClaspHand.xml",
        "models/robots/ClaspHand/iv/palm.xml",
        "models/robots/ClaspHand/iv/palm.off",
        "models/robots/ClaspHand/iv/knuckle.xml",
        "models/robots/ClaspHand/iv/knuckle.off",
        "models/robots/ClaspHand/iv/proximal.xml",
        "models/robots/ClaspHand/iv/proximal.off",
        "models/robots/ClaspHand/iv/distal.xml",
        "models/robots/ClaspHand/iv/distal.off",
    ])
}

/// The built-in default scene.
pub fn default_world() -> Result<World, LoadError> {
    load_world(&default_scene_files(), Path::new(DEFAULT_WORLD), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{robot_file::load_any_robot, source::Disk};
    use clasp_core::RobotId;

    #[test]
    fn the_default_scene_loads_from_the_embedded_files() {
        let world = default_world().unwrap();
        // The mug, and the table it stands on.
        assert_eq!(world.free_bodies().count(), 2);
        assert_eq!(world.free_body(0).unwrap().name, "clasp_mug");
        assert_eq!(world.free_body(0).unwrap().kind, BodyKind::Graspable);
        assert_eq!(world.free_body(1).unwrap().name, "clasp_table");
        assert_eq!(world.free_body(1).unwrap().kind, BodyKind::Obstacle);
        assert_eq!(world.robots().count(), 1);
        assert_eq!(
            world.robot(RobotId::from_index(0)).unwrap().name,
            "ClaspHand"
        );
        assert_eq!(world.body_ids().len(), 2 + 1 + 8);
    }

    #[test]
    fn bodies_and_robots_load_from_any_file_that_holds_them_and_nothing_else() {
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        let (mesh, units) = load_any_body(
            &Disk,
            &models.join("objects/clasp_mug.off"),
            BodyKind::Obstacle,
            MeshReading::default(),
        )
        .unwrap();
        assert_eq!(units.unwrap().unit, crate::LengthUnit::Millimetres);
        assert_eq!(
            (mesh.name.as_str(), mesh.kind),
            ("clasp_mug", BodyKind::Obstacle)
        );
        let body = load_any_body(
            &Disk,
            &models.join("objects/clasp_mug.xml"),
            BodyKind::Graspable,
            MeshReading::default(),
        );
        assert_eq!(body.unwrap().0.mesh().triangles(), mesh.mesh().triangles());
        let hand = models.join("robots/ClaspHand/ClaspHand.xml");
        assert_eq!(load_any_robot(&Disk, &hand).unwrap().name, "ClaspHand");
        let error =
            load_any_body(&Disk, &hand, BodyKind::Graspable, MeshReading::default()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("this is a robot file, not a body"),
            "{error}"
        );
        let error = load_any_robot(&Disk, &models.join("worlds/default.xml")).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("this is a world file, not a robot"),
            "{error}"
        );
    }
}
