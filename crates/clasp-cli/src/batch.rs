//! `batch`: a grasp dataset's batch from the command line, the Rust twin of Python's
//! `World.grasp_batch`: an object and a hand, `N` candidates drawn from a seed round the
//! object, all tried in parallel (each on a clone of the hand in its own domain), scored with
//! epsilon and volume. Built and drawn exactly as `clasp.dataset` builds them, so the two give
//! the same grasps to the bit, and the time of the batch alone is reported beside them.

use std::{fmt::Write as _, path::Path, time::Instant};

use clasp_core::{BatchGrasp, BatchQuality, BodyKind, World, grasp_candidates};
use clasp_io::Disk;
use serde_json::json;

use crate::{
    output::{Failure, Format, one_line, world_error},
    pool::thread_pool,
    render::pose_row,
};

/// What `batch` runs.
#[derive(Debug, Clone)]
pub struct BatchRequest<'a> {
    pub object: &'a Path,
    pub hand: &'a Path,
    pub grasps: usize,
    pub seed: u64,
    /// 0: every core.
    pub threads: usize,
}

pub fn batch(request: &BatchRequest, format: Format) -> Result<String, Failure> {
    let body = clasp_io::load_any_body(&Disk, request.object, BodyKind::Graspable)
        .map_err(|e| one_line(&e))?;
    let hand = clasp_io::load_any_robot(&Disk, request.hand).map_err(|e| one_line(&e))?;
    let mut world = World::default();
    let object = world.add_body(body);
    let robot = world.add_robot(hand);
    let hand = world
        .find_robot(robot)
        .map_err(|e| world_error(request.hand, e))?;
    let fail = |e| world_error(request.object, e);
    let candidates =
        grasp_candidates(&world, hand, object, request.grasps, request.seed).map_err(fail)?;
    let pool = thread_pool(request.threads, request.object)?;
    let started = Instant::now();
    let grasps = pool
        .install(|| world.grasp_batch(robot, object, &candidates, BatchQuality::default()))
        .map_err(fail)?;
    let seconds = started.elapsed().as_secs_f64();
    let rate = grasps.len() as f64 / seconds;
    Ok(match format {
        Format::Json => json!({
            "object": request.object.display().to_string(),
            "hand": hand.name,
            "grasps": grasps.len(),
            "seed": request.seed,
            "threads": pool.current_num_threads(),
            "seconds": seconds,
            "grasps_per_second": rate,
            "results": grasps.iter().map(grasp_json).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let closures = grasps.iter().filter(|g| closure(g)).count();
            let mut text = String::new();
            for (k, g) in grasps.iter().enumerate() {
                let _ = writeln!(
                    text,
                    "grasp {k}: {} contacts, {}",
                    g.trial.contacts.len(),
                    match g.trial.quality.as_ref().and_then(|q| q.epsilon) {
                        Some(eps) => format!("force closure, epsilon {eps:.4}"),
                        None => "not force closure".to_owned(),
                    }
                );
            }
            let _ = write!(
                text,
                "{} grasps ({closures} force-closure) in {seconds:.3} s on {} threads: {rate:.1} grasps/s",
                grasps.len(),
                pool.current_num_threads()
            );
            text
        }
    })
}

fn closure(g: &BatchGrasp) -> bool {
    g.trial.quality.as_ref().is_some_and(|q| q.force_closure)
}

fn grasp_json(g: &BatchGrasp) -> serde_json::Value {
    json!({
        "palm": pose_row(&g.trial.palm),
        "dofs": g.trial.dof_values,
        "contacts": g.trial.contacts.len(),
        "force_closure": closure(g),
        "epsilon": g.trial.quality.as_ref().and_then(|q| q.epsilon),
        "volume": g.trial.quality.as_ref().and_then(|q| q.volume),
        "seconds": g.seconds,
    })
}
