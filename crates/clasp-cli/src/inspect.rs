//! `inspect`: one JSON summary per file (geometry, GraspIt body, robot or world, URDF, virtual
//! contacts) on stdout, each failure one line on stderr, and a warning for each body whose mass
//! properties came from an open mesh; with `--write-settings`, a URDF or MJCF hand's settings
//! file written beside it.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use clasp_core::{Body, BodyKind};
use clasp_io::{Disk, FileKind, LoadError, MeshReading};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use crate::{mesh_args::units_line, output::one_line, summary, world_file};

/// How `inspect` runs.
pub(crate) struct Inspection {
    /// A progress bar on stderr.
    pub progress: bool,
    /// A URDF or MJCF hand's settings file written beside it.
    pub write_settings: bool,
    /// How a bare mesh is read.
    pub reading: MeshReading,
}

/// Inspects every file, even after failures; fails when any file did.
pub(crate) fn inspect_all(files: &[PathBuf], how: &Inspection, root: Option<&Path>) -> ExitCode {
    let bar = if how.progress {
        let bar = ProgressBar::new(files.len() as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut failed = false;
    for file in files {
        bar.set_message(file.display().to_string());
        // Lines go out while the bar is lifted, so the two never interleave.
        let inspected =
            inspect(file, how.reading, root).and_then(|found| match how.write_settings {
                true => Ok((found, Some(settings(file)?))),
                false => Ok((found, None)),
            });
        match inspected {
            Ok(((value, warnings), wrote)) => bar.suspend(|| {
                println!("{value}");
                for warning in warnings {
                    eprintln!("{warning}");
                }
                if let Some(path) = wrote {
                    eprintln!("wrote {}", path.display());
                }
            }),
            Err(error) => {
                failed = true;
                bar.suspend(|| eprintln!("{}", one_line(&error)));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes the settings file of the hand `file` holds beside it, and says where.
fn settings(file: &Path) -> Result<PathBuf, LoadError> {
    let not_a_hand = || {
        LoadError::new(
            file,
            None,
            "--write-settings: only a URDF or MJCF hand has a settings file",
        )
    };
    match FileKind::of(&Disk, file)? {
        FileKind::Urdf | FileKind::Mjcf => {}
        _ => return Err(not_a_hand()),
    }
    let robot = clasp_io::load_any_robot(&Disk, file)?;
    let wrote = clasp_io::save_hand_settings(&robot, file)
        .map_err(|e| LoadError::new(&e.file, None, e.message))?;
    // What the kinematics could not settle is said as the file is written, as it says it.
    for doubt in robot.infer_hand().doubts {
        eprintln!("{}: not sure: {doubt}", file.display());
    }
    Ok(wrote)
}

/// One file's summary, and the lines to say with it: how a bare mesh was read, and a warning
/// per body whose mass came from an open mesh.
fn inspect(
    file: &Path,
    reading: MeshReading,
    root: Option<&Path>,
) -> Result<(Value, Vec<String>), LoadError> {
    let kind = FileKind::of(&Disk, file)?;
    let mut notes = Vec::new();
    let (details, open) = match kind {
        FileKind::Geometry => {
            let (mesh, units) = clasp_io::read_mesh(&Disk, file, reading)?;
            notes.push(units_line(&units));
            let mut details = summary::mesh(&mesh.mesh);
            summary::extend(&mut details, summary::mesh_units(&units));
            (details, Vec::new())
        }
        FileKind::Body => {
            let body = clasp_io::load_body(&Disk, file, BodyKind::Graspable)?;
            if let Some(warning) = clasp_io::repaired_inertia_warning(&body) {
                world_file::say_warning(&warning);
            }
            (summary::body(&body), open_meshes([&body]))
        }
        FileKind::Robot => {
            let robot = clasp_io::load_robot(&Disk, file)?;
            (summary::robot(&robot), open_meshes(robot.bodies()))
        }
        FileKind::Urdf => {
            let robot = clasp_io::load_urdf(&Disk, file)?;
            (summary::robot(&robot), open_meshes(robot.bodies()))
        }
        FileKind::World | FileKind::Mjcf => {
            let world = world_file::load_saying_warnings(file, root)?;
            let bodies = world.body_ids().into_iter().filter_map(|id| world.body(id));
            (summary::world(&world), open_meshes(bodies))
        }
        FileKind::VirtualContacts => {
            let contacts = clasp_io::load_virtual_contacts(&Disk, file)?;
            (summary::virtual_contacts(&contacts), Vec::new())
        }
    };
    let mut value = json!({ "file": file.display().to_string(), "kind": kind.name() });
    summary::extend(&mut value, details);
    notes.extend(open.iter().map(|name| {
        format!(
            "{}: warning: body \"{name}\" has an open mesh, so its mass properties are only a thin-shell estimate",
            file.display()
        )
    }));
    Ok((value, notes))
}

/// The names of bodies whose mass properties were estimated from an open mesh.
fn open_meshes<'a>(bodies: impl IntoIterator<Item = &'a Body>) -> Vec<String> {
    bodies
        .into_iter()
        .filter(|b| b.mass.open_mesh_estimate)
        .map(|b| b.name.clone())
        .collect()
}
