//! `export`: load a world file and write it in another simulator's format: MuJoCo's MJCF
//! (`--mjcf OUT.xml`, meshes beside it).

use std::path::Path;

use crate::{
    output::{Failure, world_error},
    world_file::load,
};

/// Writes the world as MJCF at `out`; says what it wrote, and on stderr what it changed to make
/// the world MuJoCo's.
pub fn export_mjcf(file: &Path, root: Option<&Path>, out: &Path) -> Result<String, Failure> {
    let world = load(file, root)?;
    let changes = clasp_io::save_mjcf(&world, out).map_err(|e| world_error(out, e.message))?;
    for change in changes {
        eprintln!("clasp-cli: {}: {change}", out.display());
    }
    Ok(format!(
        "wrote {} ({} bodies, {} robots; meshes in {}_meshes)",
        out.display(),
        world.free_bodies().count(),
        world.robots().count(),
        out.file_stem().map_or("".into(), |s| s.to_string_lossy())
    ))
}
