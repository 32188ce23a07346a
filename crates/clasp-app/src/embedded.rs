//! The default scene and every file it needs, compiled in so `clasp` runs from any folder.

use std::path::Path;

use clasp_core::World;
use clasp_io::{Embedded, LoadError, load_world};

pub const DEFAULT_WORLD: &str = "models/worlds/default.xml";

macro_rules! embed {
    ($($path:literal),* $(,)?) => {
        [$(($path, include_str!(concat!("../../../", $path)))),*]
    };
}

pub fn default_scene_files() -> Embedded {
    Embedded::new(embed![
        "models/worlds/default.xml",
        "models/objects/clasp_mug.xml",
        "models/objects/clasp_mug.off",
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

/// The built-in scene, from the embedded copy of `models/`.
pub fn default_world() -> Result<World, LoadError> {
    load_world(&default_scene_files(), Path::new(DEFAULT_WORLD), None)
}

#[cfg(test)]
mod tests {
    use clasp_core::BodyKind;

    use super::*;

    #[test]
    fn the_default_scene_loads_from_the_embedded_files() {
        let world = default_world().unwrap();
        assert_eq!(world.free_bodies().count(), 1);
        assert_eq!(world.free_body(0).unwrap().name, "clasp_mug");
        assert_eq!(world.free_body(0).unwrap().kind, BodyKind::Graspable);
        assert_eq!(world.robots().count(), 1);
        assert_eq!(world.robot(0).unwrap().name, "ClaspHand");
        assert_eq!(world.body_ids().len(), 1 + 1 + 8);
    }
}
