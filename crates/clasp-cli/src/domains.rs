//! `domains`: GraspIt's multi-threaded grasp evaluation. The world file's bodies are the shared
//! domain 0 (a table and a glass, say); the hand is loaded once from its file and each of N
//! domains holds a clone of it (sharing its geometry), aimed at the world's object from its
//! own side; every domain approaches and closes its hand, all at once on the threads asked
//! for. With `--check`, each grasp runs again alone, one after another, and must give the same
//! answer to the last bit.

use std::{fmt::Write as _, path::Path, time::Instant};

use clasp_core::{GraspTrial, MoveError, Robot, TrialPlan, WrenchSpaceKind};
use clasp_io::Disk;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::{
    output::{Failure, Format, one_line, world_error},
    pool::thread_pool,
    world_file::load,
};

/// What `domains` runs.
#[derive(Debug, Clone)]
pub struct DomainsRequest<'a> {
    pub hand: &'a Path,
    pub count: usize,
    pub threads: usize,
    pub check: bool,
}

/// How far from the object's centre each hand starts, mm.
const START_DISTANCE: f64 = 300.0;

pub fn domains(
    file: &Path,
    root: Option<&Path>,
    request: &DomainsRequest,
    format: Format,
) -> Result<String, Failure> {
    let world = load(file, root)?;
    let object = world
        .grasped_object()
        .ok_or_else(|| world_error(file, "the world has no graspable body to grasp"))?;
    let hand = clasp_io::load_robot(&Disk, request.hand).map_err(|e| one_line(&e))?;
    let (lo, hi) = world
        .body(object)
        .map_or(Default::default(), |b| b.mesh().bounding_box());
    let centre = world
        .body(object)
        .map_or(lo, |b| b.pose() * nalgebra::center(&lo, &hi));
    let open = hand.dof_values().to_vec();
    let plans: Vec<TrialPlan> = hand
        .poses_round(centre, request.count, START_DISTANCE)
        .into_iter()
        .map(|palm| TrialPlan {
            palm,
            open: &open,
            approach: 2.0 * START_DISTANCE,
            through: false,
            object,
            quality: Some(WrenchSpaceKind::L1),
            volume: false,
        })
        .collect();
    let pool = thread_pool(request.threads, file)?;
    let trial = |(k, plan): (usize, &TrialPlan)| world.trial_in_domain(k as u32 + 1, &hand, plan);
    let started = Instant::now();
    let parallel: Vec<GraspTrial> = pool
        .install(|| {
            plans
                .par_iter()
                .enumerate()
                .map(trial)
                .collect::<Result<_, _>>()
        })
        .map_err(|e| world_error(file, e))?;
    let seconds = started.elapsed().as_secs_f64();
    let identical: Option<Vec<bool>> = request
        .check
        .then(|| {
            plans
                .iter()
                .enumerate()
                .zip(&parallel)
                .map(|(planned, done)| Ok(trial(planned)? == *done))
                .collect::<Result<_, MoveError>>()
        })
        .transpose()
        .map_err(|e| world_error(file, e))?;
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "hand": hand.name,
            "domains": request.count,
            "threads": request.threads,
            "seconds": seconds,
            "grasps": parallel.iter().enumerate().map(|(k, e)| grasp_json(k, e, identical.as_deref())).collect::<Vec<_>>(),
            "identical_to_alone": identical.as_ref().map(|all| all.iter().all(|&same| same)),
        })
        .to_string(),
        Format::Text => text(&hand, request, seconds, &parallel, identical.as_deref()),
    })
}

fn grasp_json(k: usize, e: &GraspTrial, identical: Option<&[bool]>) -> Value {
    let t = e.palm.translation.vector;
    json!({
        "domain": k + 1,
        "palm": [t.x, t.y, t.z],
        "dof_values": e.dof_values,
        "contacts": e.contacts.len(),
        "force_closure": e.quality.as_ref().is_some_and(|q| q.force_closure),
        "epsilon": e.quality.as_ref().and_then(|q| q.epsilon),
        "identical_to_alone": identical.map(|all| all[k]),
    })
}

fn text(
    hand: &Robot,
    request: &DomainsRequest,
    seconds: f64,
    done: &[GraspTrial],
    identical: Option<&[bool]>,
) -> String {
    let mut text = String::new();
    for (k, e) in done.iter().enumerate() {
        let values: Vec<String> = e.dof_values.iter().map(|v| format!("{v:.4}")).collect();
        let _ = writeln!(
            text,
            "domain {}: {} contacts, {}, DOFs {}{}",
            k + 1,
            e.contacts.len(),
            match e.quality.as_ref().and_then(|q| q.epsilon) {
                Some(eps) => format!("force closure, epsilon {eps:.4}"),
                None => "not force closure".to_owned(),
            },
            values.join(" "),
            match identical.map(|all| all[k]) {
                Some(true) => ", identical alone",
                Some(false) => ", DIFFERENT alone",
                None => "",
            }
        );
    }
    let _ = write!(
        text,
        "{} grasps by {} in {} domains on {} threads in {seconds:.3} s",
        done.len(),
        hand.name,
        request.count,
        request.threads
    );
    text
}
