//! Where tests find GraspIt's model library: `../shared/graspit-models` beside the workspace.
//! A checkout without it skips those tests, saying so; under CI (`CI` set, as `.ci/run` does),
//! where it must be, its absence fails the test instead, so a CI that lost it cannot pass
//! quietly. One place for every crate's tests, with the brute-force judge of what
//! interpenetrates that they share.

use std::path::{Path, PathBuf};

use clasp_collide::{CollisionEngine, Placed, ReferenceEngine};
use clasp_core::{BodyId, World};

/// GraspIt's model library, or `None` after printing why the caller skips. Panics under CI.
/// Where a file of the library here differs from the one GraspIt ships ([`AS_SHIPPED`]), the
/// tests read the library as GraspIt ships it, through a folder of links beside it, and say
/// so: their expectations (and the GraspIt readings they compare with) were made with it.
pub fn graspit_models() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/graspit-models");
    match root.canonicalize() {
        Ok(root) if root.is_dir() => {
            // Laid out once a test process: its tests run side by side.
            static LAID_OUT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
            Some(LAID_OUT.get_or_init(|| as_shipped(root)).clone())
        }
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

/// Lines of GraspIt's own files that a copy of its library was found changed in: the file,
/// the line as found, the line as GraspIt ships it. (The copy at `../shared/graspit-models`
/// on 2026-11-27 had GraspIt's mug made frictionless; GraspIt's `models/objects/mug.xml`
/// gives glass, and every recorded grasp of the mug was made with it.)
pub const AS_SHIPPED: [(&str, &str, &str); 1] = [(
    "objects/mug.xml",
    "<material>frictionless</material>",
    "<material>glass</material>",
)];

/// `library`, or where it differs from GraspIt's own files, a folder beside the temporary
/// files that links to every entry of it but the changed files, which it holds as shipped.
fn as_shipped(library: PathBuf) -> PathBuf {
    let changed: Vec<(&str, String)> = AS_SHIPPED
        .iter()
        .filter_map(|(file, found, shipped)| {
            let text = std::fs::read_to_string(library.join(file)).ok()?;
            text.contains(found)
                .then(|| (*file, text.replace(found, shipped)))
        })
        .collect();
    if changed.is_empty() {
        return library;
    }
    let overlay =
        std::env::temp_dir().join(format!("clasp-graspit-as-shipped-{}", std::process::id()));
    for (file, _) in &changed {
        println!(
            "NOTE: {} differs from GraspIt's own file; the tests read it as GraspIt ships it",
            library.join(file).display()
        );
    }
    match link_all_but(&library, &overlay, &changed) {
        Ok(()) => overlay,
        Err(e) => panic!(
            "cannot lay out GraspIt's library as shipped at {}: {e}",
            overlay.display()
        ),
    }
}

/// Links every file of `library` into `overlay` (folders made anew), but writes the `changed`
/// files (paths under the library) with their given text.
fn link_all_but(library: &Path, overlay: &Path, changed: &[(&str, String)]) -> std::io::Result<()> {
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        std::fs::create_dir_all(overlay.join(&folder))?;
        for entry in std::fs::read_dir(library.join(&folder))? {
            let path = folder.join(entry?.file_name());
            let (from, to) = (library.join(&path), overlay.join(&path));
            if let Some((_, text)) = changed.iter().find(|(f, _)| Path::new(f) == path) {
                std::fs::write(&to, text)?;
            } else if from.is_dir() && changed.iter().any(|(f, _)| Path::new(f).starts_with(&path))
            {
                folders.push(path);
            } else if std::fs::symlink_metadata(&to).is_err() {
                std::os::unix::fs::symlink(&from, &to)?;
            }
        }
    }
    Ok(())
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
