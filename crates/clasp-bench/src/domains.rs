//! GraspIt's multi-threading example: a table and a glass shared (domain 0), eight domains
//! each with its own Barrett aimed at the glass from its side, approaching and auto-grasping,
//! on one thread and on two. The two-thread run must give every grasp exactly as the serial
//! one did, and run at least 1.8 times as fast. Each run is short (tens of milliseconds), so
//! they alternate, many times, and the medians are compared.

use std::{path::Path, time::Instant};

use clasp_core::{GraspTrial, TrialPlan, WrenchSpaceKind};
use clasp_io::{Disk, load_robot, load_world};
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::check::Checks;

/// Domains per run, as the issue asks.
const DOMAINS: usize = 8;
/// Runs on each thread count.
const ROUNDS: usize = 25;
const TARGET_SPEEDUP: f64 = 1.8;

pub fn run(library: Option<&Path>, checks: &mut Checks) -> Value {
    let Some(library) = library else {
        println!("\nGraspIt's multi-threading example skipped: GraspIt's model library not found");
        return Value::Null;
    };
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/worlds/graspit_glass_on_table.xml");
    let loaded = load_world(&Disk, &file, Some(library)).map_err(|e| e.to_string());
    let hand = load_robot(&Disk, &library.join("robots/Barrett/Barrett.xml"));
    let (world, hand) = match (loaded, hand) {
        (Ok(world), Ok(hand)) => (world, hand),
        (Err(e), _) => return skipped(&e),
        (_, Err(e)) => return skipped(&e.to_string()),
    };
    let Some(object) = world.grasped_object() else {
        return skipped("the world has no glass");
    };
    let glass = world.body(object).expect("the grasped object is a body");
    let (lo, hi) = glass.mesh().bounding_box();
    let centre = glass.pose() * nalgebra::center(&lo, &hi);
    let open = hand.dof_values().to_vec();
    let plans: Vec<TrialPlan> = hand
        .poses_round(centre, DOMAINS, 300.0)
        .into_iter()
        .map(|palm| TrialPlan {
            palm,
            open: &open,
            approach: 600.0,
            through: false,
            object,
            quality: Some(WrenchSpaceKind::L1),
            volume: false,
        })
        .collect();
    // Each thread count keeps its pool, as a planner keeps its threads.
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .map(|threads| rayon::ThreadPoolBuilder::new().num_threads(threads).build())
        .into_iter()
        .collect::<Result<_, _>>()
        .expect("thread pools start");
    let evaluate = |threads: usize| -> (f64, Vec<Option<GraspTrial>>) {
        let pool = &pools[threads - 1];
        let started = Instant::now();
        let trials = pool.install(|| {
            plans
                .par_iter()
                .enumerate()
                .map(|(k, plan)| world.trial_in_domain(k as u32 + 1, &hand, plan).ok())
                .collect()
        });
        (started.elapsed().as_secs_f64(), trials)
    };
    let (mut serial, mut parallel) = (Vec::new(), Vec::new());
    let (_, first) = evaluate(1);
    let mut identical = true;
    for _ in 0..ROUNDS {
        let (one, a) = evaluate(1);
        let (two, b) = evaluate(2);
        identical &= a == first && b == first;
        serial.push(one);
        parallel.push(two);
    }
    let (one, two) = (median(&mut serial), median(&mut parallel));
    let speedup = one / two;
    let touching = first
        .iter()
        .flatten()
        .filter(|t| !t.contacts.is_empty())
        .count();
    println!(
        "\nGraspIt's multi-threading example (table and glass shared, {DOMAINS} Barretts in their own domains): \
         median of {ROUNDS} runs, 1 thread {:.2} ms, 2 threads {:.2} ms: {speedup:.2}× (target ≥ {TARGET_SPEEDUP}×: {}); \
         {touching} of {DOMAINS} touch the glass; answers identical on 1 and 2 threads: {identical}",
        one * 1e3,
        two * 1e3,
        if speedup >= TARGET_SPEEDUP {
            "met"
        } else {
            "NOT met"
        },
    );
    checks.expect(identical, || {
        "GraspIt's multi-threading example: two threads changed a grasp".into()
    });
    checks.expect(first.iter().all(Option::is_some), || {
        "GraspIt's multi-threading example: a grasp trial failed".into()
    });
    json!({
        "scene": "GraspIt's multi-threading example", "domains": DOMAINS, "rounds": ROUNDS,
        "seconds_one_thread": one, "seconds_two_threads": two, "speedup_two_threads": speedup,
        "target_speedup": TARGET_SPEEDUP, "identical": identical, "touching": touching,
    })
}

fn skipped(why: &str) -> Value {
    println!("\nGraspIt's multi-threading example skipped: {why}");
    Value::Null
}

fn median(seconds: &mut [f64]) -> f64 {
    seconds.sort_by(f64::total_cmp);
    seconds[seconds.len() / 2]
}
