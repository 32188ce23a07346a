//! The held-against-force-closure table of docs/benchmarks.md: GraspIt's Barrett on GraspIt's
//! mug (as GraspIt ships it), N random candidates (seed 2026) closed by the batch, each tested
//! in six directions with the default settings. Prints the 2×2 table, and with `--labels FILE`
//! writes each grasp's force closure and label, one line a grasp, to compare two builds.
//!
//! `--time-step S` runs the tests at another step (the grasps are made the same).
//!
//! Then each disagreement classified by what the test saw: force closure judged again where
//! the squeeze left hand and object (GraspIt's label judges the grasp before it), the squeeze's
//! normal force against the weight (friction can hold the weight only if μ·ΣN ≥ m·g), and
//! whether the fingers still touch the object.
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
    let mut kinds: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
    for k in (0..count).filter(|&k| closure[k] != held[k]) {
        let Ok(test) = &tests[k] else { continue };
        let kind = disagreement(&world, &trials[k], test, closure[k]);
        kinds.entry(kind).or_default().push(k);
    }
    println!("disagreements by kind (the first grasps of each):");
    for (kind, grasps) in &kinds {
        let first: Vec<String> = grasps.iter().take(6).map(|k| k.to_string()).collect();
        println!("  {:4}  {kind} ({})", grasps.len(), first.join(", "));
    }
    if let Some(file) = labels {
        let lines: Vec<String> = (0..count)
            .map(|k| format!("{k} {} {}", closure[k], held[k]))
            .collect();
        std::fs::write(file, lines.join("\n") + "\n").unwrap();
    }
}

/// Within this share of the test's bounds, the squeeze alone has taken the object to them.
const EDGE: f64 = 0.15;

/// An object faster than this (mm/s) as the squeeze ends is on its way out of the hand.
const LEAVING_SPEED: f64 = 50.0;

/// Why a grasp's force closure and its held label disagree, from where the squeeze left hand
/// and object: the first that applies.
fn disagreement(
    world: &World,
    trial: &clasp_core::GraspTrial,
    test: &clasp_core::HoldTest,
    closure: bool,
) -> &'static str {
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let squeezed = squeezed_closure(world, trial, test).unwrap_or(false);
    let squeeze = &test.squeeze;
    let touching = squeeze.fingers.iter().filter(|f| f.on_object).count();
    let weight = world.body(object).map_or(0.0, |b| b.mass.mass) * clasp_core::EARTH_GRAVITY;
    let friction = world
        .robot(robot)
        .map(|r| r.bodies().map(|b| b.material).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|m| m.static_friction(world.body(object).map_or(m, |b| b.material)))
        .fold(0.0, f64::max);
    let start = test.directions.first().and_then(|d| d.path.first());
    let squeeze_moved = start.is_some_and(|start| {
        let settings = HoldSettings::default();
        let moved = (test.squeeze_end.centre - start.centre).norm() / settings.max_displacement;
        let turned = test
            .squeeze_end
            .object
            .rotation
            .angle_to(&start.object.rotation)
            / settings.max_rotation;
        moved.max(turned) > 1.0 - EDGE
    });
    // The object's speed as the pulls begin: from the first interval after the squeeze.
    let leaving = test.directions.first().is_some_and(|d| {
        let at = d.path.iter().position(|f| *f == test.squeeze_end);
        at.and_then(|n| {
            d.path
                .get(n + 1)
                .map(|next| (next.centre - test.squeeze_end.centre).norm())
        })
        .is_some_and(|moved| moved / clasp_core::HOLD_PATH_INTERVAL > LEAVING_SPEED)
    });
    match closure {
        true if squeeze_moved => {
            "force closure, not held: the squeeze itself moved the object to the bounds (the test measures from the grasp)"
        }
        true if leaving => {
            "force closure, not held: the squeeze launched the object out of the hand (moving ≥ 50 mm/s as it ends)"
        }
        true if touching == 0 => {
            "force closure, not held: the squeeze pushed the object off the fingers"
        }
        true if !squeezed => {
            "force closure, not held: the squeeze lost force closure (the object moved in the hand)"
        }
        true if friction * squeeze.normal_force < weight => {
            "force closure, not held: too little squeeze force (μ·ΣN < m·g)"
        }
        true => {
            "force closure, not held: still closure after the squeeze and normal force enough for the weight, yet a pull slid or turned it past the bounds"
        }
        false if squeezed => {
            "held without force closure: the squeeze made it (GraspIt judges before the squeeze)"
        }
        false if touching < squeeze.fingers.len() => {
            "held without force closure: caged (no closure after the squeeze; a finger off the object)"
        }
        false => {
            "held without force closure: held by the squeeze's contacts though they are not force closure (caged)"
        }
    }
}

/// Whether the grasp is force closure where the squeeze left it: the hand's DOFs and the
/// object's pose at the squeeze's end, put in a copy of the world.
fn squeezed_closure(
    world: &World,
    trial: &clasp_core::GraspTrial,
    test: &clasp_core::HoldTest,
) -> Option<bool> {
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let frame = &test.squeeze_end;
    let mut copy = world.clone();
    copy.put_grasp(robot, trial).ok()?;
    copy.set_pose(object.element(), frame.object).ok()?;
    // The dynamics may press a DOF a hair past its limit; the kinematics refuses that.
    let dofs = copy.robot(robot)?.within_limits(&frame.dofs);
    copy.set_dof_values(robot, &dofs).ok()?;
    let options = copy.settings().contact_options;
    let grasp = copy.grasp(robot, object, &options).ok()?;
    let quality = grasp.quality(WrenchSpaceKind::L1).ok()?;
    Some(quality.force_closure && quality.epsilon.is_some_and(|e| e > 0.0))
}
