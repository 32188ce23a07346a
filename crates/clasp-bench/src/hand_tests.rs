//! Every hand's physics test as a user meets it (`--grasp-test`): each hand of
//! `../shared/hands`, GraspIt's Barrett and ClaspHand on GraspIt's mug, candidates (seed 0)
//! closed by the batch and each tested with the default settings on one thread, as
//! `clasp-cli batch --test --threads 1` does. A row gives the tests a second, where a step's
//! time goes, and MuJoCo beside it on the same grasps in the same run
//! (`mujoco/grasp_tests.py`): each grasp's world exported by `save_mjcf` with its actuators
//! driven to the squeeze's targets, the same squeeze and six pulls, the same time step and the
//! same end rules (a pull ends once the object is past the bounds, or once hand and object have
//! rested five path intervals). MuJoCo collides each mesh as its convex hull, or with `--full`
//! as CoACD's convex parts, the way its users model a hand. The targets (10 tests a
//! second for a dexterous hand, 30 for the Barrett and ClaspHand, 100 for the Panda, and no
//! slower than MuJoCo) are printed met or not; they are never checked, as no figure of time is.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clasp_core::{
    BatchQuality, BodyId, BodyKind, GraspTrial, HoldSettings, HoldTest, MoveError, RobotId, World,
    grasp_candidates,
};
use clasp_io::{Disk, load_any_body, load_any_robot};
use serde_json::{Value, json};

use crate::{check::Checks, dynamics::python, grasp_test::step_split};

/// A hand of the table: its name, its file, and its target in tests a second on one thread.
struct Hand {
    name: &'static str,
    file: PathBuf,
    target: f64,
}

/// The targets, tests a second on one thread.
const DEXTEROUS_TARGET: f64 = 10.0;
const GRASPIT_TARGET: f64 = 30.0;
const GRIPPER_TARGET: f64 = 100.0;

/// The field's hands as `../shared/hands` ships them.
const FIELD_HANDS: [(&str, &str, f64); 5] = [
    ("LEAP", "leap_hand/leap_hand_right.urdf", DEXTEROUS_TARGET),
    (
        "Allegro",
        "allegro_hand/allegro_hand_right.urdf",
        DEXTEROUS_TARGET,
    ),
    (
        "Inspire",
        "inspire_hand/inspire_hand_right.urdf",
        DEXTEROUS_TARGET,
    ),
    (
        "Ability",
        "ability_hand/ability_hand_right.urdf",
        DEXTEROUS_TARGET,
    ),
    (
        "Panda",
        "panda_gripper/panda_gripper_glb.urdf",
        GRIPPER_TARGET,
    ),
];

/// One hand's measured row.
struct Measured {
    hand: &'static str,
    target: f64,
    tests: Vec<Result<HoldTest, MoveError>>,
    seconds: f64,
    split: Option<String>,
    exported: Vec<PathBuf>,
}

pub fn run(quick: bool, library: Option<&Path>, checks: &mut Checks) -> Value {
    let Some(library) = library else {
        println!("\nevery hand's test skipped: GraspIt's model library (its mug) not found");
        return Value::Null;
    };
    let count = if quick { 2 } else { 10 };
    let folder = tempfile_folder();
    let mug = library.join("objects/mug.xml");
    println!(
        "\nEvery hand's physics test on GraspIt's mug, {count} batch grasps each (seed 0), one thread, beside MuJoCo on the same grasps"
    );
    let mut measured = Vec::new();
    for hand in hands(library) {
        match measure(&hand, &mug, count, &folder) {
            Ok(row) => measured.push(row),
            Err(e) => checks.expect(false, || format!("{}'s test on the mug: {e}", hand.name)),
        }
    }
    let mujoco = run_mujoco(&folder, &measured, !quick);
    let rows = measured
        .iter()
        .map(|m| print_row(m, mujoco.as_ref()))
        .collect();
    let _ = std::fs::remove_dir_all(&folder);
    Value::Array(rows)
}

/// The table's hands: the field's where `../shared/hands` is there, then GraspIt's Barrett and
/// ClaspHand.
fn hands(library: &Path) -> Vec<Hand> {
    let mut hands = Vec::new();
    match clasp_io::fixtures::field_hands() {
        Some(shared) => hands.extend(FIELD_HANDS.iter().map(|&(name, file, target)| Hand {
            name,
            file: shared.join(file),
            target,
        })),
        None => println!("(the field's hands skipped: ../shared/hands not found)"),
    }
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    hands.push(Hand {
        name: "Barrett",
        file: library.join("robots/Barrett/Barrett.xml"),
        target: GRASPIT_TARGET,
    });
    hands.push(Hand {
        name: "ClaspHand",
        file: ours.join("robots/ClaspHand/ClaspHand.xml"),
        target: GRASPIT_TARGET,
    });
    hands
}

/// A folder of its own for the exported worlds.
fn tempfile_folder() -> PathBuf {
    let folder = std::env::temp_dir().join(format!("clasp-hand-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&folder);
    folder
}

/// The hand's batch grasps of the mug, tested on one thread and timed, and each exported for
/// MuJoCo.
fn measure(hand: &Hand, mug: &Path, count: usize, folder: &Path) -> Result<Measured, String> {
    let (world, trials) = batch_grasps(&hand.file, mug, count)?;
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let settings = HoldSettings::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let tests = pool.install(|| world.test_grasps(robot, object, &trials, &settings));
    let seconds = started.elapsed().as_secs_f64();
    let split = trials.first().and_then(|t| step_split(&world, t));
    let mut exported = Vec::new();
    for (k, trial) in trials.iter().enumerate() {
        let path = folder.join(format!("{}_{k}.xml", hand.name));
        export_squeezed(&world, trial, &settings, &path)?;
        exported.push(path);
    }
    Ok(Measured {
        hand: hand.name,
        target: hand.target,
        tests,
        seconds,
        split,
        exported,
    })
}

/// The hand and the mug, and `count` of the hand's candidates (seed 0) closed by the batch.
fn batch_grasps(hand: &Path, mug: &Path, count: usize) -> Result<(World, Vec<GraspTrial>), String> {
    let (body, _) = load_any_body(&Disk, mug, BodyKind::Graspable, Default::default())
        .map_err(|e| e.to_string())?;
    let robot = load_any_robot(&Disk, hand).map_err(|e| e.to_string())?;
    let world = World::new(vec![body], vec![robot]);
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let hand = world.find_robot(robot).map_err(|e| e.to_string())?;
    let candidates = grasp_candidates(&world, hand, object, count, 0).map_err(|e| e.to_string())?;
    let batch = world
        .grasp_batch(robot, object, &candidates, BatchQuality::default())
        .map_err(|e| e.to_string())?;
    Ok((world, batch.into_iter().map(|g| g.trial).collect()))
}

/// The grasp's world as MJCF, its actuators driven to the squeeze's targets (the keyframe's
/// controls), for MuJoCo's side of the same test.
fn export_squeezed(
    world: &World,
    trial: &GraspTrial,
    settings: &HoldSettings,
    path: &Path,
) -> Result<(), String> {
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let mut world = world.clone();
    world.put_grasp(robot, trial).map_err(|e| e.to_string())?;
    let targets = world
        .squeeze_targets(robot, object, settings)
        .map_err(|e| e.to_string())?;
    world
        .drive_robot(robot, &targets)
        .map_err(|e| e.to_string())?;
    clasp_io::save_mjcf(&world, path).map_err(|e| e.to_string())?;
    Ok(())
}

/// MuJoCo's tests of every exported grasp (`mujoco/grasp_tests.py`), or `None` (and how to
/// get them) when Python or MuJoCo is not there.
fn run_mujoco(folder: &Path, measured: &[Measured], coacd: bool) -> Option<Value> {
    let settings = HoldSettings::default();
    let scenes: Vec<Value> = measured
        .iter()
        .map(|m| json!({ "hand": m.hand, "files": m.exported }))
        .collect();
    let plan = json!({
        "squeeze_seconds": settings.squeeze_seconds,
        "seconds": settings.seconds,
        "gravity": settings.gravity * 1e-3,
        "max_mm": settings.max_displacement,
        "max_radians": settings.max_rotation,
        "interval": clasp_core::HOLD_PATH_INTERVAL,
        "scenes": scenes,
    });
    let plan_file = folder.join("plan.json");
    let out = folder.join("mujoco.json");
    std::fs::write(&plan_file, plan.to_string()).ok()?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("mujoco/grasp_tests.py");
    let mut command = Command::new(python());
    command.arg(&script).arg(&plan_file).arg("--json").arg(&out);
    if coacd {
        command.arg("--coacd");
    }
    let ran = command.status().ok().filter(|s| s.success());
    let read = ran.and_then(|_| std::fs::read_to_string(&out).ok());
    let figures = read.and_then(|text| serde_json::from_str::<Value>(&text).ok());
    if figures.is_none() {
        println!(
            "  MuJoCo not measured: pip install mujoco (and coacd for --full), then run this again"
        );
    }
    figures
}

/// Prints one hand's row (MuJoCo's beside where measured); its JSON.
fn print_row(m: &Measured, mujoco: Option<&Value>) -> Value {
    let grasps = m.tests.len();
    let rate = grasps as f64 / m.seconds.max(1e-12);
    let labels: Vec<Option<bool>> = m
        .tests
        .iter()
        .map(|t| t.as_ref().ok().map(|t| t.held))
        .collect();
    let held = labels.iter().filter(|l| **l == Some(true)).count();
    let steps: usize = m.tests.iter().flatten().map(|t| t.steps).sum();
    let step_us = 1e6 * m.seconds / steps.max(1) as f64;
    let theirs = mujoco.and_then(|f| f["scenes"].as_array()?.iter().find(|s| s["hand"] == m.hand));
    let their_rate = theirs.and_then(|s| Some(grasps as f64 / s["seconds"].as_f64()?));
    let agree = theirs.and_then(|s| {
        let held = s["held"].as_array()?;
        Some(
            labels
                .iter()
                .zip(held)
                .filter(|(ours, theirs)| ours.map(Value::Bool).as_ref() == Some(*theirs))
                .count(),
        )
    });
    let met = |ok: bool| if ok { "met" } else { "NOT MET" };
    let their_steps = theirs.and_then(|s| s["steps"].as_u64());
    let beside = match (their_rate, agree, their_steps) {
        (Some(r), Some(a), Some(n)) => format!(
            "\n  {:<10} MuJoCo {r:>6.1} tests a second, {} steps a test at {:.0} µs; Clasp at {:.3}× its speed (no slower: {}); {a} of {grasps} labels agree",
            "",
            n as usize / grasps.max(1),
            1e6 * grasps as f64 / r / n.max(1) as f64,
            rate / r,
            met(rate >= r)
        ),
        _ => String::new(),
    };
    println!(
        "  {:<10} {rate:>6.2} tests a second (target {}: {}), {} steps a test at {step_us:.0} µs, {held} of {grasps} held{beside}",
        m.hand,
        m.target,
        met(rate >= m.target),
        steps / grasps.max(1),
    );
    if let Some(split) = &m.split {
        println!("  {:<10} a step squeezing under gravity: {split}", "");
    }
    json!({
        "hand": m.hand,
        "grasps": grasps,
        "held": held,
        "per_second": rate,
        "steps": steps,
        "target": m.target,
        "split": m.split,
        "mujoco_per_second": their_rate,
        "labels_agreeing": agree,
        "mujoco": theirs,
    })
}
