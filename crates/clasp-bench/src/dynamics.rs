//! The dynamics benchmark (`--dynamics`): steps a second on one thread for three scenes of the
//! dynamics issue — five boxes stacked on a table, GraspIt's mug dropped on a table, GraspIt's
//! glass standing on its table — with MuJoCo's on the same scenes beside them in the same run.
//!
//! Each scene is written to a folder (meshes as OBJ in each body's frame, poses, masses,
//! inertias, friction, the time step and the steps to time) and `mujoco/mujoco_bench.py` builds
//! the same scene in MuJoCo and times it. MuJoCo collides meshes as convex hulls, so it runs
//! each scene with every mesh as its hull and, for the mug and the glass, as CoACD's convex
//! decomposition too (`--full`: the decomposition's own time is counted and shown). Clasp runs
//! on the exact meshes with nothing precomputed beyond their trees.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clasp_core::{BodyKind, ContactSolver, Persistence, StepTimers, World};
use clasp_io::{
    Disk,
    drops::{box_stack, plain_table, turned_above_floor},
    load_body, load_world,
};
use nalgebra::{UnitQuaternion, Vector3};
use serde_json::{Value, json};

use crate::check::Checks;
use crate::export::{matrix, write_obj};

/// One scene to time: its world, the simulated seconds before timing starts (to settle) and
/// the steps timed.
struct Scene {
    name: &'static str,
    world: World,
    settle: f64,
    steps: usize,
}

pub fn run(quick: bool, library: Option<&Path>, checks: &mut Checks) -> Value {
    let steps = if quick { 300 } else { 2000 };
    let mut scenes = vec![Scene {
        name: "five-box stack",
        world: box_stack(),
        settle: 0.1,
        steps,
    }];
    match library {
        Some(library) => scenes.extend(graspit_scenes(library, steps)),
        None => println!("\nGraspIt's library not found: the mug and glass scenes are skipped"),
    }
    let folder = std::env::temp_dir().join(format!("clasp-dynamics-{}", std::process::id()));
    println!(
        "\ndynamics, one thread, {} steps of 1 ms timed (Clasp on the exact meshes):",
        steps
    );
    println!("  scene              triangles   Clasp steps/s   with GraspIt's LCP");
    let mut rows = Vec::new();
    for scene in &mut scenes {
        let triangles: usize = scene
            .world
            .free_bodies()
            .map(|(_, b)| b.mesh().triangles().len())
            .sum();
        if let Err(e) = export(scene, &folder) {
            checks.expect(false, || format!("{}: {e}", scene.name));
            continue;
        }
        let timed = time_clasp(scene, ContactSolver::Newton, scene.steps, None);
        checks.expect(timed.is_ok(), || {
            format!(
                "{}: {}",
                scene.name,
                timed.as_ref().err().cloned().unwrap_or_default()
            )
        });
        // GraspIt's LCP, for the measurement that chose a solver on the primal: slower by
        // far, so fewer steps; where Lemke's algorithm gives up, it says so.
        let lcp = time_clasp(scene, ContactSolver::Lcp, scene.steps.min(LCP_STEPS), None);
        let lcp_text = match &lcp {
            Ok(lcp) => format!("{:.0}", lcp.rate),
            Err(_) => "failed".into(),
        };
        println!(
            "  {:<18} {:>9}   {:>13.0}   {lcp_text:>18}",
            scene.name,
            triangles,
            timed.as_ref().map_or(0.0, |t| t.rate)
        );
        if let Ok(t) = &timed {
            println!("    where a step's time goes: {}", t.split);
            println!("    {}", t.solves);
        }
        // The sweeps beside Newton's method, the default.
        let sweeps = time_clasp(scene, ContactSolver::PerContact, scene.steps, None);
        match &sweeps {
            Ok(n) => println!(
                "    with the sweeps instead: {:.0} steps/s; {}",
                n.rate,
                n.solves.replace("iterations", "sweeps")
            ),
            Err(e) => println!("    with the sweeps instead: {e}"),
        }
        let (timed, lcp_failure) = (timed.ok().map(|t| t.rate), lcp.as_ref().err());
        let margins = margin_sweep(scene, quick);
        rows.push(json!({
            "scene": scene.name,
            "margins": margins,
            "triangles": triangles,
            "clasp_steps_per_second": timed,
            "lcp_steps_per_second": lcp.as_ref().ok().map(|t| t.rate),
            "lcp_failure": lcp_failure,
            "sweeps_steps_per_second": sweeps.as_ref().ok().map(|t| t.rate),
        }));
    }
    let mujoco = run_mujoco(&folder, quick);
    if let Some(figures) = &mujoco {
        print_beside(&rows, figures);
    }
    let _ = std::fs::remove_dir_all(&folder);
    json!({ "steps": steps, "scenes": rows, "mujoco": mujoco })
}

/// GraspIt's mug dropped from 5 mm, tipped 30° (it lands on its rim and rocks), on a
/// 600 × 600 × 20 mm table; GraspIt's glass on its table (`models/worlds/`).
fn graspit_scenes(library: &Path, steps: usize) -> Vec<Scene> {
    let mut scenes = Vec::new();
    if let Ok(mug) = load_body(&Disk, &library.join("objects/mug.xml"), BodyKind::Graspable) {
        let turn = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), 30f64.to_radians());
        let dropped = turned_above_floor(&mug, turn, 5.0).expect("a mesh");
        let world = World::new(vec![plain_table(), dropped], vec![]);
        scenes.push(Scene {
            name: "mug dropped",
            world,
            settle: 0.0,
            steps,
        });
    }
    let glass_world = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/worlds/graspit_glass_on_table.xml");
    if let Ok(world) = load_world(&Disk, &glass_world, Some(library)) {
        scenes.push(Scene {
            name: "glass on its table",
            world,
            settle: 0.05,
            steps,
        });
    }
    scenes
}

/// Steps GraspIt's LCP is timed over.
const LCP_STEPS: usize = 100;

/// Clasp's steps a second over `steps` steps of the scene (a copy: the scene stays as
/// exported) with `solver`, or why it stopped: a step refused, or bodies that interpenetrate.
fn time_clasp(
    scene: &Scene,
    solver: ContactSolver,
    steps: usize,
    persistence: Option<Persistence>,
) -> Result<Timed, String> {
    let mut world = scene.world.clone();
    world.set_contact_solver(solver);
    if let Some(persistence) = persistence {
        world
            .set_persistence(persistence)
            .map_err(|e| e.to_string())?;
    }
    world
        .simulate(scene.settle)
        .map_err(|e| format!("settling failed: {e}"))?;
    let (before, started) = (world.step_timers(), Instant::now());
    for _ in 0..steps {
        world.step().map_err(|e| format!("a step failed: {e}"))?;
    }
    let seconds = started.elapsed().as_secs_f64();
    if !world.overlapping_pairs().is_empty() {
        return Err("bodies interpenetrate after the run".into());
    }
    Ok(Timed {
        rate: steps as f64 / seconds,
        split: time_split(&before, &world.step_timers()),
        solves: crate::grasp_test::settled_line(world.solver_stats()),
    })
}

/// A run's steps a second, where its steps' time went and how their solves ended.
struct Timed {
    rate: f64,
    split: String,
    solves: String,
}

/// Where the steps between two readings of the timers spent their time, as shares: what
/// limits a figure, measured.
pub fn time_split(before: &StepTimers, after: &StepTimers) -> String {
    let total = (after.total - before.total).max(1e-12);
    let share = |x: f64, y: f64| 100.0 * (x - y) / total;
    let (search, build, solve, moves) = (
        share(after.search, before.search),
        share(after.build, before.build),
        share(after.solve, before.solve),
        share(after.moves, before.moves),
    );
    let step_us = 1e6 * total / (after.steps - before.steps).max(1) as f64;
    format!(
        "{step_us:.0} µs: search {search:.0} %, building the problem {build:.0} %, solve {solve:.0} %, moves {moves:.0} %, the rest {:.0} %",
        100.0 - search - build - solve - moves
    )
}

/// Clasp's steps a second on the scene at each persistence margin (mm beyond the contact
/// threshold; 0 searches every pair in full every step): what the default margin was chosen
/// by. Quick runs time margin 0 alone, beside the default above.
fn margin_sweep(scene: &Scene, quick: bool) -> Value {
    let margins: &[f64] = if quick {
        &[0.0]
    } else {
        &[0.0, 0.1, 0.25, 0.5, 1.0, 2.0]
    };
    let timed: Vec<String> = margins
        .iter()
        .map(|&margin| {
            let persistence = Persistence {
                margin,
                checked: false,
            };
            let rate = time_clasp(scene, ContactSolver::Newton, scene.steps, Some(persistence));
            (margin, rate.map_or(0.0, |t| t.rate))
        })
        .map(|(margin, rate)| format!("{margin} mm {rate:.0}"))
        .collect();
    println!(
        "    at each persistence margin, steps/s: {}",
        timed.join(", ")
    );
    json!(timed)
}

/// Writes `folder/<scene>/scene.json` and a mesh per body.
fn export(scene: &Scene, folder: &Path) -> Result<(), String> {
    let dir = folder.join(scene.name.replace(' ', "_"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    let world = &scene.world;
    let mut bodies = Vec::new();
    for (i, body) in world.free_bodies() {
        let mesh = dir.join(format!("{i}.obj"));
        write_obj(&mesh, body.mesh())?;
        let friction = body.material.static_friction(body.material);
        bodies.push(json!({
            "name": body.name,
            "dynamic": body.is_dynamic(),
            "mesh": mesh,
            "pose": matrix(&body.pose()),
            "mass": body.mass.mass,
            "cog": body.mass.cog.coords.as_slice(),
            "inertia": (body.mass.inertia * body.mass.mass).as_slice(),
            "friction": friction,
        }));
    }
    let g = world.gravity();
    let description = json!({
        "name": scene.name,
        "time_step": world.time_step(),
        "gravity": [g.x, g.y, g.z],
        "settle_seconds": scene.settle,
        "steps": scene.steps,
        "bodies": bodies,
    });
    let file = dir.join("scene.json");
    std::fs::write(&file, description.to_string())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// MuJoCo's figures from `mujoco/mujoco_bench.py`, or `None` (and how to get them) when Python
/// or MuJoCo is not there.
fn run_mujoco(folder: &Path, quick: bool) -> Option<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("mujoco/mujoco_bench.py");
    let out: PathBuf = folder.join("mujoco.json");
    let mut command = Command::new(python());
    command.arg(&script).arg(folder).arg("--json").arg(&out);
    if quick {
        command.arg("--no-decomposition");
    }
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(_) | Err(_) => {
            println!(
                "  MuJoCo not measured: pip install mujoco coacd trimesh, then run this again"
            );
            return None;
        }
    }
    let text = std::fs::read_to_string(&out).ok()?;
    serde_json::from_str(&text).ok()
}

/// The Python to run MuJoCo with: `CLASP_PYTHON` if set, else `python3`.
pub(crate) fn python() -> String {
    std::env::var("CLASP_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Clasp's and MuJoCo's steps a second per scene, with the ratio.
fn print_beside(rows: &[Value], mujoco: &Value) {
    println!(
        "\n  scene              Clasp steps/s   MuJoCo {} steps/s (Clasp ÷ MuJoCo)",
        mujoco["version"].as_str().unwrap_or("?")
    );
    for row in rows {
        let name = row["scene"].as_str().unwrap_or("");
        let clasp = row["clasp_steps_per_second"].as_f64().unwrap_or(0.0);
        let Some(theirs) = mujoco["scenes"]
            .as_array()
            .and_then(|s| s.iter().find(|m| m["scene"] == name))
        else {
            continue;
        };
        for (way, figures) in theirs["ways"].as_object().into_iter().flatten() {
            let rate = figures["steps_per_second"].as_f64().unwrap_or(0.0);
            let prepare = figures["prepare_seconds"].as_f64().unwrap_or(0.0);
            println!(
                "  {name:<18} {clasp:>13.0}   {way:<14} {rate:>9.0} ({:.2}×){}",
                clasp / rate,
                if prepare > 0.5 {
                    format!(", {prepare:.0} s to prepare")
                } else {
                    String::new()
                }
            );
        }
    }
}
