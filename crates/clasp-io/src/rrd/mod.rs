//! A recording as rerun's `.rrd`, written through rerun's Python SDK: Clasp hands the run to
//! `write_rrd.py` as JSON on stdin. The SDK, not the `rerun` crate, by build cost: the crate
//! 0.36.3 with only its `sdk` and `rrd` features is 394 crates (Arrow, tokio, tonic among
//! them; Clasp's whole workspace is 389 today, the CLI 131) and took 12 min 54 s to build in
//! release on this 2-core VM, which CI and every newcomer would pay; the SDK is one prebuilt
//! wheel (`pip install rerun-sdk`, seconds) that also reads the files back.
use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use clasp_core::{Recording, World};
use serde_json::{Value, json};

use crate::{
    error::SaveError,
    moment_numbers::{contact_numbers, pose_numbers},
};

/// The writer, run as `python -c SCRIPT OUT`.
const SCRIPT: &str = include_str!("write_rrd.py");

/// The exit status by which the script says the rerun SDK is missing.
const NO_SDK: i32 = 3;

/// The Python that writes `.rrd` files for the CLI and the app: `$CLASP_PYTHON`, else
/// `python3`.
pub fn rrd_python() -> PathBuf {
    std::env::var_os("CLASP_PYTHON")
        .filter(|p| !p.is_empty())
        .map_or_else(|| PathBuf::from("python3"), PathBuf::from)
}

/// Refuses, before a run, a Python that cannot write `.rrd` files (not there, or without the
/// rerun SDK), saying how to get one.
pub fn check_rrd_python(python: &Path, path: &Path) -> Result<(), SaveError> {
    let probe = Command::new(python)
        .args(["-c", "import numpy, rerun"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match probe {
        Ok(status) if status.success() => Ok(()),
        _ => Err(SaveError::new(
            path,
            format!(
                "writing .rrd needs a Python with the rerun SDK, and {} is not one: pip install rerun-sdk, set CLASP_PYTHON to a Python that has it, or record to a .clasprec file",
                python.display()
            ),
        )),
    }
}

/// Writes `recording` of a run in `world` (whose bodies it places) as an `.rrd` file, with
/// `python` (a Python that has `rerun-sdk`).
pub fn save_rrd(
    recording: &Recording,
    world: &World,
    path: &Path,
    python: &Path,
) -> Result<(), SaveError> {
    let error = |message: String| SaveError::new(path, message);
    let input = run_json(recording, world, path).to_string();
    let mut child = Command::new(python)
        .arg("-c")
        .arg(SCRIPT)
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            error(format!(
                "writing .rrd runs {} with the rerun SDK, which could not start: {e} (set CLASP_PYTHON to a Python with `pip install rerun-sdk`, or record to a .clasprec file)",
                python.display()
            ))
        })?;
    // A script that dies early closes its stdin: its own message says why, below.
    let _ = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(input.as_bytes()));
    let output = child
        .wait_with_output()
        .map_err(|e| error(format!("the .rrd writer failed: {e}")))?;
    let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
    match output.status.code() {
        Some(0) => Ok(()),
        Some(NO_SDK) => Err(error(format!(
            "{said} (with {}; set CLASP_PYTHON to another Python, or record to a .clasprec file)",
            python.display()
        ))),
        _ => Err(error(format!("the .rrd writer failed: {said}"))),
    }
}

/// What the script logs: each body's mesh in its own frame, its pose at each moment, and the
/// contacts (point, unit normal, impulse) at each.
fn run_json(recording: &Recording, world: &World, path: &Path) -> Value {
    let bodies: Vec<Value> = world
        .body_ids()
        .into_iter()
        .enumerate()
        .map(|(k, id)| {
            let Some(body) = world.body(id) else {
                return json!({"entity": format!("world/bodies/{k}"), "vertices": [], "triangles": [], "color": [0.5, 0.5, 0.5]});
            };
            let mesh = body.mesh();
            let vertices: Vec<f64> = mesh.vertices().iter().flat_map(|p| [p.x, p.y, p.z]).collect();
            let triangles: Vec<u32> = mesh.triangles().iter().flatten().copied().collect();
            json!({
                "entity": format!("world/bodies/{k}_{}", entity_name(&world.body_name(id).name)),
                "vertices": vertices,
                "triangles": triangles,
                "color": body.display_color(),
            })
        })
        .collect();
    let moments = &recording.moments;
    json!({
        "name": path.file_stem().map_or("clasp".into(), |s| s.to_string_lossy().into_owned()),
        "time_step": world.time_step(),
        "bodies": bodies,
        "times": moments.iter().map(|m| m.time).collect::<Vec<_>>(),
        "poses": moments.iter().map(|m| m.poses.iter().map(pose_numbers).collect::<Vec<_>>()).collect::<Vec<_>>(),
        // The script takes each contact's point, normal and impulse: its numbers after the bodies.
        "contacts": moments.iter().map(|m| m.contacts.iter().flat_map(|c| contact_numbers(c).split_off(2)).collect::<Vec<_>>()).collect::<Vec<_>>(),
    })
}

/// A body's name as one part of an entity path: letters, digits, `-` and `_` kept, the rest `_`.
fn entity_name(name: &str) -> String {
    name.chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                true => c,
                false => '_',
            },
        )
        .collect()
}
