//! Grasp evaluation throughput: clones of Clasp's hand, each in its own collision domain around
//! one shared scene (the hand's default world: a mug), placed at different poses around the
//! mug; each approaches along its approach direction and auto-grasps. Run on one thread and on
//! two, side by side; the target speed-up of two threads over one is 1.8×.

use std::{path::Path, time::Instant};

use clasp_core::{Domain, Pose, World};
use clasp_io::{Disk, load_world};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::scenes::Random;

/// The two-thread speed-up the issue asks for.
const TARGET_SPEEDUP: f64 = 1.8;

/// Evaluates `count` grasps on 1 and on 2 threads and prints both.
pub fn run(count: usize, rng: &mut Random) -> Value {
    let world_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/worlds/default.xml");
    let world = match load_world(&Disk, &world_file, None) {
        Ok(world) => world,
        Err(e) => {
            println!("\ngrasps: cannot load the default world: {e}");
            return Value::Null;
        }
    };
    let poses = poses_around_mug(&world, count, rng);
    println!(
        "\ngrasp evaluation: {count} grasps (approach + auto-grasp), ClaspHand clones around the mug"
    );
    let mut results = Vec::new();
    for threads in [1, 2] {
        let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() else {
            println!("  cannot start {threads} threads");
            return Value::Null;
        };
        let started = Instant::now();
        let touching = pool.install(|| evaluate(&world, &poses));
        let seconds = started.elapsed().as_secs_f64();

        println!(
            "  {threads} thread(s): {seconds:.2} s, {:.0} grasps/s; {touching} of {count} grasps touch the mug",
            count as f64 / seconds
        );
        results.push((threads, seconds, touching));
    }
    let speedup = results[0].1 / results[1].1;
    println!(
        "  speed-up of 2 threads over 1: {speedup:.2}× (target ≥ {TARGET_SPEEDUP}×, {} cores here)",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    json!({
        "grasps": count,
        "runs": results.iter().map(|(threads, seconds, touching)| json!({
            "threads": threads,
            "seconds": seconds,
            "grasps_per_second": count as f64 / seconds,
            "touching": touching,
        })).collect::<Vec<_>>(),
        "speedup": speedup,
        "target_speedup": TARGET_SPEEDUP,
    })
}

/// One clone per pose, each approaching and grasping in parallel; returns how many grasps end
/// with a finger on the mug.
fn evaluate(world: &World, poses: &[Pose]) -> usize {
    let Ok(clones) = world.clone_domains(0, poses.len()) else {
        return 0;
    };
    let open: Vec<f64> = world.robots[0].dof_values().to_vec();
    clones
        .into_par_iter()
        .zip(poses.par_iter())
        .map(|(mut clone, pose)| grasp(&mut clone, pose, &open))
        .filter(|&touched| touched)
        .count()
}

fn grasp(clone: &mut Domain, pose: &Pose, open: &[f64]) -> bool {
    if clone.set_pose(*pose).is_err() || clone.set_dof_values(open).is_err() {
        return false;
    }
    if clone.approach_to_contact(300.0).is_err() {
        return false;
    }
    clone.auto_grasp();
    clone
        .robot_contacts()
        .any(|c| c.other == clasp_core::BodyId::Free(0))
}

/// Palm poses 150 mm from the mug's centre in random directions, each pointing its approach
/// direction at the centre, turned about it at random.
fn poses_around_mug(world: &World, count: usize, rng: &mut Random) -> Vec<Pose> {
    let mug = &world.bodies[0];
    let (lo, hi) = mug.mesh().bounding_box();
    let centre = mug.pose * nalgebra::center(&lo, &hi);
    let hand = &world.robots[0];
    let (reference, direction) = hand
        .approach
        .as_ref()
        .map_or((Point3::origin(), Vector3::z_axis()), |a| {
            (a.reference, a.direction)
        });
    (0..count)
        .map(|_| {
            let towards = random_direction(rng);
            let aim =
                UnitQuaternion::rotation_between_axis(&direction, &towards).unwrap_or_else(|| {
                    UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
                });
            let roll =
                UnitQuaternion::from_axis_angle(&towards, rng.unit() * std::f64::consts::TAU);
            let rotation = roll * aim;
            let start = centre - towards.into_inner() * 150.0;
            let origin = start - rotation * reference.coords;
            Pose::from_parts(origin.coords.into(), rotation)
        })
        .collect()
}

fn random_direction(rng: &mut Random) -> nalgebra::Unit<Vector3<f64>> {
    loop {
        let v = Vector3::new(
            rng.unit() * 2.0 - 1.0,
            rng.unit() * 2.0 - 1.0,
            rng.unit() * 2.0 - 1.0,
        );
        if let Some(unit) = nalgebra::Unit::try_new(v, 0.1).filter(|_| v.norm() <= 1.0) {
            return unit;
        }
    }
}
