//! The full drop harness: every object of GraspIt's library that loads, dropped from seeded
//! random turns 20–80 mm onto GraspIt's table, each judged by independent means (see
//! `clasp_io::drops`). Prints one line a drop and the tally; exits 1 if any drop froze, gained
//! energy, passed into the table or failed.
//!
//! `cargo run --release -p clasp-io --example drop_library -- [--per-object N] [--seconds S]
//! [--seed K] [--library DIR] [--sweeps]` (`--sweeps`: contacts solved one at a time,
//! `ContactSolver::PerContact`, measured beside the default, Newton's method)

use std::path::PathBuf;
use std::sync::Mutex;

use clasp_io::drops::{Verdict, drop_world, graspit_table, judge, library_objects, random_drops};

fn main() {
    let (mut per_object, mut seconds, mut seed) = (5usize, 3.0f64, 2026u64);
    let mut library: Option<PathBuf> = None;
    let mut sweeps = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs a value")))
        };
        match arg.as_str() {
            "--per-object" => per_object = value().parse().unwrap_or_else(|_| usage("a count")),
            "--seconds" => seconds = value().parse().unwrap_or_else(|_| usage("seconds")),
            "--seed" => seed = value().parse().unwrap_or_else(|_| usage("a seed")),
            "--library" => library = Some(value().into()),
            "--sweeps" => sweeps = true,
            _ => usage(&format!("unknown argument {arg}")),
        }
    }
    let Some(models) = library.or_else(clasp_io::fixtures::graspit_models) else {
        usage("no GraspIt library: give one with --library DIR");
    };
    let objects = library_objects(&models);
    let table = graspit_table(&models).unwrap_or_else(|| usage("GraspIt's table does not load"));
    let drops = random_drops(&objects, per_object, seed);
    println!(
        "{} objects load; {} drops of {seconds} s",
        objects.len(),
        drops.len()
    );
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..std::thread::available_parallelism().map_or(1, |n| n.get()) {
            scope.spawn(|| {
                loop {
                    let k = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some(drop) = drops.get(k) else { break };
                    let object = &objects.iter().find(|(n, _)| *n == drop.object).unwrap().1;
                    let ending = match drop_world(&table, object, drop) {
                        Some(mut world) => {
                            if sweeps {
                                world.set_contact_solver(clasp_core::ContactSolver::PerContact);
                            }
                            judge(world, seconds)
                        }
                        None => continue,
                    };
                    println!(
                        "{k:4} {:40} {:>9.3} mm/s {:>8.3} mm/0.1 s  {:?}",
                        drop.object, ending.speed, ending.travel, ending.verdict
                    );
                    results.lock().unwrap().push(ending);
                }
            });
        }
    });
    let endings = results.into_inner().unwrap();
    let (steps, unsettled, relaxed) = endings.iter().fold((0, 0, 0), |(s, u, r), e| {
        (s + e.steps, u + e.unsettled_steps, r + e.relaxed_steps)
    });
    let results: Vec<Verdict> = endings.into_iter().map(|e| e.verdict).collect();
    let count = |f: fn(&Verdict) -> bool| results.iter().filter(|v| f(v)).count();
    let bad = count(|v| !matches!(v, Verdict::Rest | Verdict::Moving));
    println!(
        "{} drops: {} at rest, {} moving, {} frozen, {} gained energy, {} interpenetrating, {} failed",
        results.len(),
        count(|v| *v == Verdict::Rest),
        count(|v| *v == Verdict::Moving),
        count(|v| matches!(v, Verdict::Frozen { .. })),
        count(|v| matches!(v, Verdict::GainedEnergy { .. })),
        count(|v| matches!(v, Verdict::Interpenetrating { .. })),
        count(|v| matches!(v, Verdict::Failed(_))),
    );
    println!(
        "{unsettled} of {steps} steps' contact solves ran out of iterations before they settled; {relaxed} solved on the convex relaxation"
    );
    std::process::exit(i32::from(bad > 0));
}

fn usage(why: &str) -> ! {
    eprintln!("drop_library: {why}");
    eprintln!(
        "usage: drop_library [--per-object N] [--seconds S] [--seed K] [--library DIR] [--sweeps]"
    );
    std::process::exit(2);
}
