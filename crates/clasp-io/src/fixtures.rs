//! Where tests find GraspIt's model library: `../shared/graspit-models` beside the workspace.
//! A checkout without it skips those tests, saying so; under CI (`CI` set, as `.ci/run` does),
//! where it must be, its absence fails the test instead, so a CI that lost it cannot pass
//! quietly. One place for every crate's tests, with the brute-force judge of what
//! interpenetrates that they share.

use std::path::{Path, PathBuf};

use clasp_collide::{CollisionEngine, Placed, ReferenceEngine};
use clasp_core::{BodyId, World};

/// GraspIt's model library, or `None` after printing why the caller skips. Panics under CI.
pub fn graspit_models() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/graspit-models");
    match root.canonicalize() {
        Ok(root) if root.is_dir() => Some(root),
        _ => {
            skipped(&format!(
                "GraspIt's model library is not at {}",
                root.display()
            ));
            None
        }
    }
}

/// The field's URDF hands (`../shared/hands`: dex-urdf's Allegro, LEAP, Inspire, Ability and
/// Panda gripper), or `None` after printing why the caller skips. Panics under CI.
pub fn field_hands() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/hands");
    match root.canonicalize() {
        Ok(root) if root.is_dir() => Some(root),
        _ => {
            skipped(&format!("the field's hands are not at {}", root.display()));
            None
        }
    }
}

/// Says that a test skips and why; under CI, fails it instead.
pub fn skipped(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "CI must not skip: {why}");
    println!("SKIPPED: {why}");
}

/// The pairs the world's rules check that interpenetrate, as the brute-force reference engine
/// judges them (not the engine under test).
pub fn interpenetrating(world: &World) -> Vec<(String, String)> {
    world
        .checked_pairs()
        .into_iter()
        .filter_map(|(a, b): (BodyId, BodyId)| {
            let (x, y) = (world.body(a)?, world.body(b)?);
            let overlap = ReferenceEngine.collide(
                Placed::new(x.geometry(), x.pose()),
                Placed::new(y.geometry(), y.pose()),
            );
            overlap.then(|| (x.name.clone(), y.name.clone()))
        })
        .collect()
}
