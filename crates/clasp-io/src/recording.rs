//! Clasp's own recording file (`.clasprec`): one JSON document that names the world the run
//! started from (a world file written beside it) and lists the run's moments at full
//! precision, so a moment put back into that world stands exactly where the run had it.
//!
//! ```json
//! { "clasp_recording": 1, "world": "run.clasprec.xml", "graspit_root": null,
//!   "bodies": ["mug", …], "robots": ["Barrett", …],
//!   "moments": [ { "time": 0.0, "poses": [[x, y, z, qw, qx, qy, qz], …],
//!                  "velocities": [[vx, vy, vz, wx, wy, wz], …],
//!                  "robots": [ { "dofs": […], "breakaway": [[null, 0.3], …] } ],
//!                  "contacts": [[body, other, px, py, pz, nx, ny, nz, ix, iy, iz], …] } ] }
//! ```

use std::path::{Path, PathBuf};

use clasp_core::{Moment, Pose, Posture, RecordedContact, Recording, Velocity, World};
use nalgebra::{Point3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde_json::{Value, json};

use crate::{
    error::LoadError,
    error::SaveError,
    moment_numbers::{contact_numbers, pose_numbers, velocity_numbers},
    rrd::save_rrd,
    source::{FileSource, read},
    world::{load::load_world, save::save_world},
};

/// The file format's version; a file of another is refused.
const VERSION: u64 = 1;

/// The world file written beside a recording: its name with `.xml` added.
pub fn recording_world_path(recording: &Path) -> PathBuf {
    let mut name = recording.as_os_str().to_owned();
    name.push(".xml");
    PathBuf::from(name)
}

/// The two kinds of recording file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordingKind {
    /// rerun's `.rrd`.
    Rerun,
    /// Clasp's own `.clasprec`.
    Clasp,
}

/// The kind of recording a file's extension names; refused for any other: a recording is a
/// `.rrd` (rerun) or a `.clasprec` (Clasp's own) file.
pub fn recording_kind(path: &Path) -> Result<RecordingKind, SaveError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("rrd") => Ok(RecordingKind::Rerun),
        Some("clasprec") => Ok(RecordingKind::Clasp),
        _ => Err(SaveError::new(
            path,
            "a recording is a .rrd file (rerun) or a .clasprec file (Clasp's app)",
        )),
    }
}

/// Writes `recording` of a run that began in `start` in the format its file's extension
/// names: `.clasprec` ([`save_recording`]) or `.rrd` ([`save_rrd`], with `python`).
pub fn save_any_recording(
    recording: &Recording,
    start: &World,
    path: &Path,
    graspit_root: Option<&Path>,
    python: &Path,
) -> Result<(), SaveError> {
    match recording_kind(path)? {
        RecordingKind::Rerun => save_rrd(recording, start, path, python),
        RecordingKind::Clasp => save_recording(recording, start, path, graspit_root),
    }
}

/// Writes `recording` of a run that began in `start` (the world as it stood before the first
/// step) as a `.clasprec` file, and `start` beside it as a GraspIt world file.
pub fn save_recording(
    recording: &Recording,
    start: &World,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<(), SaveError> {
    let error = |message: String| SaveError::new(path, message);
    let world_file = recording_world_path(path);
    save_world(start, &world_file, graspit_root)?;
    let document = json!({
        "clasp_recording": VERSION,
        "world": world_file.file_name().map(|n| n.to_string_lossy().into_owned()),
        "graspit_root": graspit_root.map(|r| std::path::absolute(r).unwrap_or(r.to_path_buf()).display().to_string()),
        "bodies": start.body_ids().into_iter().map(|id| start.body_name(id).name).collect::<Vec<_>>(),
        "robots": start.robots().map(|(_, r)| r.name.clone()).collect::<Vec<_>>(),
        "moments": recording.moments.iter().map(moment_json).collect::<Vec<_>>(),
    });
    std::fs::write(path, document.to_string())
        .map_err(|e| error(format!("cannot write the recording: {e}")))
}

/// Reads a `.clasprec` file: the world the run began in (loaded from the world file beside it,
/// against `graspit_root` or else the root the file names) and the run's moments, each checked
/// against that world. A damaged file or one of another world is refused, naming the file and
/// the moment.
pub fn load_recording(
    source: &dyn FileSource,
    path: &Path,
    graspit_root: Option<&Path>,
) -> Result<(World, Recording), LoadError> {
    let fail = |message: String| LoadError::new(path, None, message);
    let text = read(source, path)?;
    let document: Value = serde_json::from_str(&text).map_err(|e| {
        LoadError::new(
            path,
            Some(e.line()),
            format!("this is not a Clasp recording: {e}"),
        )
    })?;
    match document.get("clasp_recording").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(fail(format!(
                "recording format {v} is not known (this Clasp reads {VERSION})"
            )));
        }
        None => {
            return Err(fail(
                "this is not a Clasp recording: it has no \"clasp_recording\" version".into(),
            ));
        }
    }
    let world_name = document
        .get("world")
        .and_then(Value::as_str)
        .ok_or_else(|| fail("the recording names no world file".into()))?;
    let world_file = path.parent().unwrap_or(Path::new("")).join(world_name);
    let named_root = document
        .get("graspit_root")
        .and_then(Value::as_str)
        .map(PathBuf::from);
    let root = graspit_root.map(Path::to_path_buf).or(named_root);
    let world = load_world(source, &world_file, root.as_deref())?;
    check_names(&document, &world).map_err(fail)?;
    let moments = document
        .get("moments")
        .and_then(Value::as_array)
        .ok_or_else(|| fail("the recording has no \"moments\" list".into()))?;
    let shape = Shape::of(&world);
    let mut recording = Recording::default();
    for (k, value) in moments.iter().enumerate() {
        let moment =
            read_moment(value, &shape).map_err(|why| fail(format!("moment {k}: {why}")))?;
        if recording
            .moments
            .last()
            .is_some_and(|m| m.time > moment.time)
        {
            return Err(fail(format!(
                "moment {k} goes back in time ({} s)",
                moment.time
            )));
        }
        recording.moments.push(moment);
    }
    Ok((world, recording))
}

/// Refuses a world beside the recording whose bodies or robots are not the ones it names (a
/// world file replaced with another of as many bodies would put each pose on another body).
fn check_names(document: &Value, world: &World) -> Result<(), String> {
    let named = |key: &str| -> Result<Vec<String>, String> {
        let list = document.get(key).and_then(Value::as_array);
        let list = list.ok_or_else(|| format!("the recording has no \"{key}\" list"))?;
        Ok(list
            .iter()
            .map(|n| n.as_str().unwrap_or_default().to_owned())
            .collect())
    };
    let bodies: Vec<String> = world
        .body_ids()
        .into_iter()
        .map(|id| world.body_name(id).name)
        .collect();
    let robots: Vec<String> = world.robots().map(|(_, r)| r.name.clone()).collect();
    for (key, found) in [("bodies", bodies), ("robots", robots)] {
        let recorded = named(key)?;
        if recorded != found {
            return Err(format!(
                "the world beside it is not the recorded one: its {key} are {found:?}, the recording's {recorded:?}"
            ));
        }
    }
    Ok(())
}

/// What every moment of a world's recording has: how many bodies, and each robot's DOFs.
struct Shape {
    bodies: usize,
    dofs: Vec<usize>,
}

impl Shape {
    fn of(world: &World) -> Shape {
        Shape {
            bodies: world.body_ids().len(),
            dofs: world.robots().map(|(_, r)| r.dof_values().len()).collect(),
        }
    }
}

fn moment_json(moment: &Moment) -> Value {
    json!({
        "time": moment.time,
        "poses": moment.poses.iter().map(pose_numbers).collect::<Vec<_>>(),
        "velocities": moment.velocities.iter().map(velocity_numbers).collect::<Vec<_>>(),
        "robots": moment.robots.iter().map(|p| json!({"dofs": p.dofs, "breakaway": p.breakaway})).collect::<Vec<_>>(),
        "contacts": moment.contacts.iter().map(contact_numbers).collect::<Vec<_>>(),
    })
}

fn read_moment(value: &Value, shape: &Shape) -> Result<Moment, String> {
    let time = value
        .get("time")
        .and_then(Value::as_f64)
        .filter(|t| t.is_finite())
        .ok_or("it has no finite \"time\"")?;
    let poses = list(value, "poses")?
        .iter()
        .map(|p| numbers::<7>(p).and_then(pose_of))
        .collect::<Result<Vec<_>, _>>()?;
    let velocities = list(value, "velocities")?
        .iter()
        .map(|v| {
            numbers::<6>(v).map(|[x, y, z, a, b, c]| {
                Velocity::new(Vector3::new(x, y, z), Vector3::new(a, b, c))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if poses.len() != shape.bodies || velocities.len() != shape.bodies {
        return Err(format!(
            "it places {} bodies and moves {}; the world has {}",
            poses.len(),
            velocities.len(),
            shape.bodies
        ));
    }
    let robots = list(value, "robots")?
        .iter()
        .map(read_posture)
        .collect::<Result<Vec<_>, _>>()?;
    let dofs: Vec<usize> = robots.iter().map(|p| p.dofs.len()).collect();
    if dofs != shape.dofs {
        return Err(format!(
            "its robots have {dofs:?} DOFs; the world's have {:?}",
            shape.dofs
        ));
    }
    let contacts = list(value, "contacts")?
        .iter()
        .map(|c| read_contact(c, shape.bodies))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Moment {
        time,
        poses,
        velocities,
        robots,
        contacts,
    })
}

fn list<'a>(value: &'a Value, key: &str) -> Result<&'a Vec<Value>, String> {
    value
        .get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("it has no \"{key}\" list"))
}

/// `N` finite numbers.
fn numbers<const N: usize>(value: &Value) -> Result<[f64; N], String> {
    let items = value.as_array().filter(|a| a.len() == N);
    let items = items.ok_or_else(|| format!("{value} is not a list of {N} numbers"))?;
    let mut out = [0.0; N];
    for (o, item) in out.iter_mut().zip(items) {
        *o = item
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{item} is not a finite number"))?;
    }
    Ok(out)
}

fn pose_of([x, y, z, w, i, j, k]: [f64; 7]) -> Result<Pose, String> {
    let q = Quaternion::new(w, i, j, k);
    if (q.norm() - 1.0).abs() > 1e-6 {
        return Err(format!("({w}, {i}, {j}, {k}) is not a unit quaternion"));
    }
    Ok(Pose::from_parts(
        Translation3::new(x, y, z),
        UnitQuaternion::new_unchecked(q),
    ))
}

fn read_posture(value: &Value) -> Result<Posture, String> {
    let dofs = list(value, "dofs")?
        .iter()
        .map(|d| {
            d.as_f64()
                .filter(|x| x.is_finite())
                .ok_or(format!("DOF value {d} is not a finite number"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let breakaway = list(value, "breakaway")?
        .iter()
        .map(|states| {
            let states = states
                .as_array()
                .ok_or(format!("breakaway {states} is not a list"))?;
            states
                .iter()
                .map(|s| match s {
                    Value::Null => Ok(None),
                    s => s
                        .as_f64()
                        .map(Some)
                        .ok_or(format!("breakaway {s} is not a number or null")),
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Posture { dofs, breakaway })
}

fn read_contact(value: &Value, bodies: usize) -> Result<RecordedContact, String> {
    let [a, b, px, py, pz, nx, ny, nz, ix, iy, iz] = numbers::<11>(value)?;
    let body = |x: f64| {
        (x.fract() == 0.0 && x >= 0.0 && (x as usize) < bodies)
            .then_some(x as usize)
            .ok_or(format!(
                "contact body {x} is not one of the {bodies} bodies"
            ))
    };
    Ok(RecordedContact {
        body: body(a)?,
        other: body(b)?,
        point: Point3::new(px, py, pz),
        normal: Vector3::new(nx, ny, nz),
        impulse: Vector3::new(ix, iy, iz),
    })
}
