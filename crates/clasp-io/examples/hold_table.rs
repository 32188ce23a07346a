//! The held-against-force-closure table of docs/benchmarks.md: GraspIt's Barrett on GraspIt's
//! mug (as GraspIt ships it), N random candidates (seed 2026) closed by the batch, each tested
//! in six directions with the default settings. Prints the 2×2 table, and with `--labels FILE`
//! writes each grasp's force closure and label, one line a grasp, to compare two builds.
//!
//! `--time-step S` runs the tests at another step (the grasps are made the same).
//!
//! `cargo run --release -p clasp-io --example hold_table -- [--grasps 500] [--labels FILE] [--show K,K] [--time-step S]`

use clasp_core::{
    BatchQuality, BodyId, BodyKind, Element, HoldSettings, Pose, RobotId, World, WrenchSpaceKind,
    grasp_candidates,
};
use clasp_io::{Disk, load_body, load_robot};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut count, mut labels) = (500usize, None::<String>);
    let mut time_step = None::<f64>;
    let mut show: Vec<usize> = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--grasps" => count = args.next().and_then(|n| n.parse().ok()).expect("a count"),
            "--labels" => labels = args.next(),
            "--time-step" => time_step = args.next().and_then(|s| s.parse().ok()),
            // Grasps whose six directions to print (comma-separated indices).
            "--show" => {
                let list = args.next().expect("indices");
                show = list.split(',').filter_map(|k| k.parse().ok()).collect();
            }
            _ => panic!(
                "usage: hold_table [--grasps N] [--labels FILE] [--show K,K...] [--time-step S]"
            ),
        }
    }
    let library = clasp_io::fixtures::graspit_models().expect("GraspIt's model library");
    let mug = load_body(&Disk, &library.join("objects/mug.xml"), BodyKind::Graspable).unwrap();
    let hand = load_robot(&Disk, &library.join("robots/Barrett/Barrett.xml")).unwrap();
    let mut world = World::new(vec![mug], vec![hand]);
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    world
        .set_pose(Element::Robot(robot), Pose::translation(0.0, 0.0, 1000.0))
        .unwrap();
    let barrett = world.robot(robot).unwrap().clone();
    let candidates = grasp_candidates(&world, &barrett, object, count, 2026).unwrap();
    let quality = BatchQuality {
        wrench_space: WrenchSpaceKind::L1,
        volume: false,
    };
    let batch = world
        .grasp_batch(robot, object, &candidates, quality)
        .unwrap();
    let closure: Vec<bool> = batch
        .iter()
        .map(|g| {
            g.trial
                .quality
                .as_ref()
                .is_some_and(|q| q.force_closure && q.epsilon.is_some_and(|e| e > 0.0))
        })
        .collect();
    let trials: Vec<_> = batch.into_iter().map(|g| g.trial).collect();
    if let Some(seconds) = time_step {
        world
            .set_time_step(seconds)
            .expect("a time step of 1e-6 to 0.1 s");
    }
    if !show.is_empty() {
        // Only those grasps, each direction printed.
        let picked: Vec<_> = show.iter().map(|&k| trials[k].clone()).collect();
        let tests = world.test_grasps(robot, object, &picked, &HoldSettings::default());
        for (k, test) in show.iter().zip(tests) {
            let Ok(test) = test else { continue };
            for d in &test.directions {
                println!(
                    "grasp {k} pulled {:?}: moved {:.2} mm, turned {:.2}°, {:.2} mm/s at the end, rested {}, held {}",
                    (d.gravity / d.gravity.norm()).as_slice(),
                    d.displacement,
                    d.rotation.to_degrees(),
                    d.speed,
                    d.rested,
                    d.held
                );
            }
        }
        return;
    }
    let started = std::time::Instant::now();
    let tests = world.test_grasps(robot, object, &trials, &HoldSettings::default());
    let held: Vec<bool> = tests
        .iter()
        .map(|t| t.as_ref().is_ok_and(|t| t.held))
        .collect();
    let cell = |c: bool, h: bool| {
        (0..count)
            .filter(|&k| closure[k] == c && held[k] == h)
            .count()
    };
    println!(
        "{count} grasps tested in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    println!("| | held | not held |\n|---|---:|---:|");
    println!(
        "| force-closure (ε > 0) | {} | {} |",
        cell(true, true),
        cell(true, false)
    );
    println!(
        "| not force-closure | {} | {} |",
        cell(false, true),
        cell(false, false)
    );
    if let Some(file) = labels {
        let lines: Vec<String> = (0..count)
            .map(|k| format!("{k} {} {}", closure[k], held[k]))
            .collect();
        std::fs::write(file, lines.join("\n") + "\n").unwrap();
    }
}
