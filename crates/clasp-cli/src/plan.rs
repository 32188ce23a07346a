//! `plan`: GraspIt's EigenGrasp planner from the command line: the world's current hand (or
//! `--robot`) plans grasps of the world's object, in independent seeded searches on the threads
//! asked for; prints each grasp found (best first) and the steps per second. A parallel
//! gripper's grasps are antipodal candidates, each labelled held or not by the physics test;
//! with `--test` every hand's are, and the planner closes states until those asked for hold.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use clasp_core::{
    Moment, PlanProgress, PlanSettings, PlannedGrasp, Recording, RobotId, StateShares, World,
};
use serde_json::json;

use crate::{
    output::{Failure, Format, world_error},
    pool::thread_pool,
    record::Playback,
    render::pose_row,
    world_file::{load, pick_robot},
};

/// What `plan` runs.
#[derive(Debug, Clone)]
pub struct PlanRequest {
    pub robot: Option<String>,
    pub settings: PlanSettings,
    /// 0: every core.
    pub threads: usize,
    /// Where to write each grasp found as a GraspIt world (`grasp-K.xml`, best first).
    pub save: Option<PathBuf>,
    /// The grasps found, a second apart, as a recording or video.
    pub playback: Playback,
}

pub fn plan(
    file: &Path,
    root: Option<&Path>,
    request: &PlanRequest,
    format: Format,
) -> Result<String, Failure> {
    request.playback.check()?;
    let world = load(file, root)?;
    let robot = pick_robot(&world, file, request.robot.as_deref())?;
    let object = world
        .grasped_object()
        .ok_or_else(|| world_error(file, "the world has no graspable body to plan for"))?;
    let pool = thread_pool(request.threads, file)?;
    let progress = PlanProgress::default();
    let plan = pool
        .install(|| world.plan(robot, object, &request.settings, &progress))
        .map_err(|e| world_error(file, e))?;
    if let Some(folder) = &request.save {
        save_grasps(&world, robot, &plan.grasps, folder, root)?;
    }
    let wrote = match request.playback.wanted() {
        true => {
            let recording =
                grasps_recording(&world, robot, &plan.grasps).map_err(|e| world_error(file, e))?;
            request.playback.write(&recording, &world, root)?
        }
        false => String::new(),
    };
    // Annealing steps a second, as GraspIt's planner counts them (closing the best excluded).
    let rate = plan.steps as f64 / plan.search_seconds;
    let hand = world.find_robot(robot).map_err(|e| world_error(file, e))?;
    let gripper = hand.parallel_jaws().is_some();
    let hand = &hand.name;
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": hand,
            "robot_index": robot.index(),
            "seed": request.settings.seed,
            "threads": pool.current_num_threads(),
            "search_energies": plan.search_energies.iter().map(|e| e.name()).collect::<Vec<_>>(),
            "steps": plan.steps,
            "evaluations": plan.evaluations,
            "seconds": plan.seconds,
            "search_seconds": plan.search_seconds,
            "steps_per_second": rate,
            "evaluations_per_second": plan.evaluations as f64 / plan.search_seconds,
            "shares": shares_json(&plan.shares),
            "grasps": plan.grasps.iter().map(grasp_json).collect::<Vec<_>>(),
            "held": plan.held(),
            "closed": plan.closed,
            "tested": plan.tested,
            "settled_tested": plan.settled_tested,
            "refined": plan.refined,
            "illegal_steps": plan.illegal_steps,
            "unreachable": plan.unreachable,
            "why_empty": plan.why_empty(),
            "why_short_of_held": plan.why_short_of_held(request.settings.grasps),
            "wrote": wrote.lines().collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = wrote.clone();
            if let Some(why) = plan.why_empty() {
                let _ = writeln!(text, "no grasp found: {why}");
            } else if let Some(why) = plan.why_short_of_held(request.settings.grasps) {
                let _ = writeln!(text, "{why}");
            } else if plan.unreachable > 0 {
                let _ = writeln!(
                    text,
                    "{} grasps left out: the arm carrying the hand cannot reach them",
                    plan.unreachable
                );
            }
            for (k, g) in plan.grasps.iter().enumerate() {
                let dofs: Vec<String> = g
                    .grasp
                    .dof_values
                    .iter()
                    .map(|v| format!("{v:.3}"))
                    .collect();
                let held = match (g.held(), g.settled) {
                    (Some(true), true) => ", held where its squeeze settled",
                    (Some(true), false) => ", held",
                    (Some(false), _) => ", not held",
                    (None, _) => "",
                };
                let _ = writeln!(
                    text,
                    "grasp {k}: {}{held}, energy {:.2}, {} contacts, DOFs {}",
                    match g.force_closure() {
                        true => format!("force closure, epsilon {:.4}", g.epsilon()),
                        false => "not force closure".to_owned(),
                    },
                    g.energy,
                    g.grasp.contacts.len(),
                    dofs.join(" ")
                );
            }
            let found = format!(
                "{hand}: {} grasps ({} force-closure{}) in {:.2} s",
                plan.grasps.len(),
                plan.grasps.iter().filter(|g| g.force_closure()).count(),
                plan.held().map_or(String::new(), |n| format!(", {n} held")),
                plan.seconds,
            );
            let threads = pool.current_num_threads();
            let _ = match gripper {
                true => write!(
                    text,
                    "{found}: {} antipodal candidates closed and tested on {threads} threads",
                    plan.evaluations
                ),
                false => write!(
                    text,
                    "{found}: {} steps ({rate:.0} a second), {} states on {threads} threads",
                    plan.steps, plan.evaluations
                ),
            };
            text
        }
    })
}

/// Writes each grasp as the world with the robot put where the grasp left it:
/// `folder/grasp-K.xml`, K from 0, best first, each a GraspIt world file.
fn save_grasps(
    world: &World,
    robot: RobotId,
    grasps: &[PlannedGrasp],
    folder: &Path,
    root: Option<&Path>,
) -> Result<(), Failure> {
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    for (k, g) in grasps.iter().enumerate() {
        let file = folder.join(format!("grasp-{k}.xml"));
        let mut placed = world.clone();
        placed
            .put_grasp(robot, &g.grasp)
            .map_err(|e| world_error(&file, e))?;
        clasp_io::save_world(&placed, &file, root).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The grasps found, best first, one a second: the hand put where each left it.
fn grasps_recording(
    world: &World,
    robot: RobotId,
    grasps: &[PlannedGrasp],
) -> Result<Recording, clasp_core::MoveError> {
    let mut placed = world.clone();
    let mut recording = Recording::default();
    for (k, g) in grasps.iter().enumerate() {
        placed.put_grasp(robot, &g.grasp)?;
        recording.moments.push(Moment::of(&placed, k as f64));
    }
    Ok(recording)
}

fn grasp_json(g: &PlannedGrasp) -> serde_json::Value {
    let quality = g.grasp.quality.as_ref();
    json!({
        "energy": g.energy,
        "palm": pose_row(&g.grasp.palm),
        "dofs": g.grasp.dof_values,
        "breakaway": g.grasp.breakaway,
        "contacts": g.grasp.contacts.len(),
        "force_closure": g.force_closure(),
        "epsilon": quality.and_then(|q| q.epsilon),
        "volume": quality.and_then(|q| q.volume),
        "held": g.held(),
        "settled": g.settled,
        "test": g.test.as_ref().map(crate::grasp::test_json),
    })
}

/// Where the searches' time went: each share's seconds, summed over the searches.
fn shares_json(shares: &StateShares) -> serde_json::Value {
    shares
        .named()
        .iter()
        .map(|&(name, seconds)| (name.to_owned(), json!(seconds)))
        .collect::<serde_json::Map<_, _>>()
        .into()
}
