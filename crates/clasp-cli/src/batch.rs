//! `batch`: a grasp dataset's batch from the command line, the Rust twin of Python's
//! `World.grasp_batch`: an object and a hand, `N` candidates drawn from a seed round the
//! object, all tried in parallel (each on a clone of the hand in its own domain), scored with
//! epsilon and volume, and where asked (always for a parallel gripper, whose two jaws are
//! never force closure) labelled by the physics test. Built and drawn exactly as
//! `clasp.dataset` builds them, so the two give the same grasps to the bit, and the time of
//! the batch alone is reported beside them.

use std::{fmt::Write as _, path::Path, time::Instant};

use clasp_core::{
    BatchGrasp, BatchQuality, Body, BodyId, BodyKind, HoldSettings, Robot, RobotId, World,
    grasp_candidates,
};
use clasp_io::{Disk, MeshReading, MeshUnits};
use serde_json::json;

use crate::{
    mesh_args::units_line,
    output::{Failure, Format, one_line, world_error},
    pool::thread_pool,
    render::pose_row,
    stepping::SteppingArgs,
};

/// What `batch` runs.
#[derive(Debug, Clone)]
pub struct BatchRequest<'a> {
    pub object: &'a Path,
    /// How a bare mesh object is read.
    pub reading: MeshReading,
    pub hand: &'a Path,
    pub grasps: usize,
    pub seed: u64,
    /// 0: every core.
    pub threads: usize,
    /// The physics test that labels each grasp; a parallel gripper's are labelled by Clasp's
    /// own test where this is `None`.
    pub test: Option<HoldSettings>,
    /// How the test's dynamics steps.
    pub stepping: SteppingArgs,
}

pub fn batch(request: &BatchRequest, format: Format) -> Result<String, Failure> {
    let (body, units) = load_object(request.object, request.reading, &|line| eprintln!("{line}"))?;
    let hand = load_hand(request.hand)?;
    batch_of(request, body, units.as_ref(), hand, format)
}

/// The hand `batch` grasps with.
pub(crate) fn load_hand(file: &Path) -> Result<Robot, Failure> {
    clasp_io::load_any_robot(&Disk, file).map_err(|e| one_line(&e))
}

/// The object as `batch` grasps it, with how a bare mesh was read; what it says on the way
/// (the units chosen, an inertia repaired) goes to `say`.
pub(crate) fn load_object(
    file: &Path,
    reading: MeshReading,
    say: &dyn Fn(String),
) -> Result<(Body, Option<MeshUnits>), Failure> {
    let (body, units) = clasp_io::load_any_body(&Disk, file, BodyKind::Graspable, reading)
        .map_err(|e| one_line(&e))?;
    if let Some(units) = &units {
        say(units_line(units));
    }
    if let Some(warning) = clasp_io::repaired_inertia_warning(&body) {
        say(crate::world_file::warning_line(&warning));
    }
    Ok((body, units))
}

/// The batch of `body`, loaded from `request.object`, by `hand`, loaded from `request.hand`.
pub(crate) fn batch_of(
    request: &BatchRequest,
    body: Body,
    units: Option<&MeshUnits>,
    hand: Robot,
    format: Format,
) -> Result<String, Failure> {
    let mut world = World::default();
    let object = world.add_body(body);
    let robot = world.add_robot(hand);
    request.stepping.apply(&mut world, request.object)?;
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
    let test = match hand.parallel_jaws() {
        Some(_) => Some(request.test.unwrap_or_default()),
        None => request.test,
    };
    let held =
        test.map(|settings| pool.install(|| held(&world, robot, object, &grasps, &settings)));
    let seconds = started.elapsed().as_secs_f64();
    let rate = grasps.len() as f64 / seconds;
    Ok(match format {
        Format::Json => json!({
            "object": request.object.display().to_string(),
            "object_units": units.map(|u| u.unit.symbol()),
            "object_scale": units.map(|u| u.unit.millimetres()),
            "hand": hand.name,
            "dof_names": hand.dofs.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(),
            "grasps": grasps.len(),
            "seed": request.seed,
            "threads": pool.current_num_threads(),
            "seconds": seconds,
            "grasps_per_second": rate,
            "held": held.as_ref().map(|h| h.iter().filter(|&&h| h).count()),
            "results": grasps
                .iter()
                .enumerate()
                .map(|(k, g)| grasp_json(g, held.as_ref().map(|h| h[k])))
                .collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let closures = grasps.iter().filter(|g| closure(g)).count();
            let mut text = String::new();
            for (k, g) in grasps.iter().enumerate() {
                let label = match held.as_ref().map(|h| h[k]) {
                    Some(true) => ", held",
                    Some(false) => ", not held",
                    None => "",
                };
                let _ = writeln!(
                    text,
                    "grasp {k}: {} contacts, {}{label}",
                    g.trial.contacts.len(),
                    match g.trial.quality.as_ref().and_then(|q| q.epsilon) {
                        Some(eps) => format!("force closure, epsilon {eps:.4}"),
                        None => "not force closure".to_owned(),
                    }
                );
            }
            let held = held
                .map(|h| format!(", {} held", h.iter().filter(|&&h| h).count()))
                .unwrap_or_default();
            let _ = write!(
                text,
                "{} grasps ({closures} force-closure{held}) in {seconds:.3} s on {} threads: {rate:.1} grasps/s",
                grasps.len(),
                pool.current_num_threads()
            );
            text
        }
    })
}

fn closure(g: &BatchGrasp) -> bool {
    g.trial.force_closure()
}

/// Whether each grasp held in the physics test. A grasp that touches the object with fewer
/// than two of the hand's bodies cannot hold it against pulls six ways, and is not run.
fn held(
    world: &World,
    robot: RobotId,
    object: BodyId,
    grasps: &[BatchGrasp],
    settings: &HoldSettings,
) -> Vec<bool> {
    let tried: Vec<usize> = (0..grasps.len())
        .filter(|&k| grasps[k].trial.bodies_touching() >= 2)
        .collect();
    let trials: Vec<_> = tried.iter().map(|&k| grasps[k].trial.clone()).collect();
    let tests = world.test_grasps(robot, object, &trials, settings);
    let mut held = vec![false; grasps.len()];
    for (&k, test) in tried.iter().zip(tests) {
        held[k] = test.is_ok_and(|t| t.held);
    }
    held
}

fn grasp_json(g: &BatchGrasp, held: Option<bool>) -> serde_json::Value {
    json!({
        "palm": pose_row(&g.trial.palm),
        "dofs": g.trial.dof_values,
        "contacts": g.trial.contacts.len(),
        "force_closure": closure(g),
        "epsilon": g.trial.quality.as_ref().and_then(|q| q.epsilon),
        "volume": g.trial.quality.as_ref().and_then(|q| q.volume),
        "held": held,
        "seconds": g.seconds,
    })
}
