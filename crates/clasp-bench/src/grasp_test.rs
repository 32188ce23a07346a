//! The physics test of grasps (`--grasp-test`): GraspIt's Barrett on GraspIt's mug and
//! ClaspHand on its mug, random candidates (seed 2026) closed by the batch, then each tested
//! in six directions with the default settings, on one thread and on every core, and at each
//! persistence margin: grasps tested a second. Checked: all give the same answers, bit for
//! bit. The target is 20 a second on one core. Then the Panda gripper as dex-urdf
//! ships it plans GraspIt's mug and glass at the planner's defaults, every grasp put through
//! the test: checked, at least 5 distinct grasps of each that hold (issue 53; the release
//! build's, since a debug build's dynamics check fails on a mug pinched between two jaws while
//! the contact solve does not finish, issue 54).

use std::path::Path;
use std::time::Instant;

use clasp_core::{
    BatchQuality, BodyId, BodyKind, BodyType, ContactSolver, Element, GraspTrial, HoldSettings,
    HoldTest, MoveError, Persistence, PlanProgress, PlanSettings, Pose, RobotId, SolverStats,
    World, WrenchSpaceKind, grasp_candidates,
};
use clasp_io::{Disk, load_body, load_robot};
use serde_json::{Value, json};

use crate::{check::Checks, dynamics::time_split, hand_tests};

/// The target, grasps tested a second on one core.
const TARGET_ON_ONE_CORE: f64 = 20.0;

pub fn run(quick: bool, library: Option<&Path>, checks: &mut Checks) -> Value {
    let hands = hand_tests::run(quick, library, checks);
    let count = if quick { 6 } else { 40 };
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut scenes = vec![(
        "ClaspHand on its mug",
        ours.join("robots/ClaspHand/ClaspHand.xml"),
        ours.join("objects/clasp_mug.xml"),
    )];
    match library {
        Some(library) => scenes.insert(
            0,
            (
                "Barrett on GraspIt's mug",
                library.join("robots/Barrett/Barrett.xml"),
                library.join("objects/mug.xml"),
            ),
        ),
        None => println!("\ngrasp test of the Barrett skipped: GraspIt's model library not found"),
    }
    let mut rows: Vec<Value> = scenes
        .iter()
        .map(|(name, hand, object)| match grasps(hand, object, count) {
            Some((mut world, trials)) => {
                // Newton's method (the default) first, the sweeps beside it.
                world.set_contact_solver(ContactSolver::Newton);
                run_scene(name, &world, &trials, quick, checks)
            }
            None => {
                checks.expect(false, || {
                    format!("{name}: the hand and the object did not load")
                });
                Value::Null
            }
        })
        .collect();
    rows.extend(gripper_plans(library, checks));
    json!({ "every_hand": hands, "scenes": rows })
}

/// The Panda plans GraspIt's mug and glass at the planner's defaults; checked: at least
/// [`GRIPPER_PLAN_HELD`] distinct grasps of each hold.
fn gripper_plans(library: Option<&Path>, checks: &mut Checks) -> Vec<Value> {
    let (Some(library), Some(hands)) = (library, clasp_io::fixtures::field_hands()) else {
        println!(
            "
the Panda's plans skipped: GraspIt's models or the field's hands not found"
        );
        return Vec::new();
    };
    let panda = hands.join("panda_gripper/panda_gripper_glb.urdf");
    ["mug", "glass"]
        .iter()
        .map(|object| {
            let name = format!("Panda plans GraspIt's {object}");
            let file = library.join("objects").join(format!("{object}.xml"));
            let planned = gripper_plan(&panda, &file);
            let held = planned.as_ref().map_or(0, |(held, _, _)| *held);
            checks.expect(held >= GRIPPER_PLAN_HELD, || {
                format!("{name}: {held} distinct grasps held ({planned:?}), fewer than {GRIPPER_PLAN_HELD}")
            });
            let (grasps, seconds) = planned.map_or((0, 0.0), |(_, g, s)| (g, s));
            println!("
{name} at the planner's defaults: {held} of {grasps} grasps held, {seconds:.2} s");
            json!({ "scene": name, "grasps": grasps, "held": held, "seconds": seconds })
        })
        .collect()
}

/// Distinct grasps a plan returns that hold, of how many.
const GRIPPER_PLAN_HELD: usize = 5;

/// The gripper's plan of the object at the defaults: grasps held, grasps, seconds.
fn gripper_plan(hand: &Path, object: &Path) -> Result<(usize, usize, f64), String> {
    let (object, _) =
        clasp_io::load_any_body(&Disk, object, BodyKind::Graspable, Default::default())
            .map_err(|e| e.to_string())?;
    let hand = clasp_io::load_urdf(&Disk, hand).map_err(|e| e.to_string())?;
    let world = World::new(vec![object], vec![hand]);
    let plan = world
        .plan(
            RobotId::from_index(0),
            BodyId::Free(0),
            &PlanSettings::default(),
            &PlanProgress::default(),
        )
        .map_err(|e| e.to_string())?;
    let held = plan
        .grasps
        .iter()
        .filter(|g| g.held() == Some(true))
        .count();
    Ok((held, plan.grasps.len(), plan.seconds))
}

/// The six-direction test of `trials` on one thread and on every core, and at each
/// persistence margin.
fn run_scene(
    name: &str,
    world: &World,
    trials: &[GraspTrial],
    quick: bool,
    checks: &mut Checks,
) -> Value {
    let count = trials.len();
    let settings = HoldSettings::default();
    let timed = |threads: usize| time_tests(world, trials, &settings, threads);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (one, one_seconds) = timed(1);
    let (all, all_seconds) = timed(cores);
    checks.expect(one == all, || {
        format!("{name}: the tests differ between 1 thread and all")
    });
    let held = one
        .iter()
        .filter(|t| t.as_ref().is_ok_and(|t| t.held))
        .count();
    let (one_rate, all_rate) = (count as f64 / one_seconds, count as f64 / all_seconds);
    // What limits the labels: steps whose contact solve ran out of sweeps unsettled.
    let mut solves = SolverStats::default();
    for direction in one.iter().flatten().flat_map(|t| &t.directions) {
        solves.add(&direction.solves);
    }
    let (steps, unsettled) = (solves.steps, solves.unsettled);
    println!(
        "\ngrasp test, {name}, {count} grasps, six directions of {} s each:",
        settings.seconds
    );
    println!(
        "  1 thread {one_rate:.2} grasps/s, {cores} threads {all_rate:.2} grasps/s ({:.2}×); {held} held (target {TARGET_ON_ONE_CORE} a second on one core: {})",
        all_rate / one_rate,
        if one_rate >= TARGET_ON_ONE_CORE {
            "met"
        } else {
            "not met"
        }
    );
    println!("  {}", settled_line(&solves));
    let sweeps = sweeps_beside(world, trials, &settings, &one);
    let two_ms = time_step_beside(world, trials, &one, one_rate);
    if let Some(split) = trials.first().and_then(|t| step_split(world, t)) {
        println!(
            "  where a step's time goes (the first grasp squeezed under gravity for 0.5 s): {split}"
        );
    }
    let margins = margin_sweep(world, trials, &one, &settings, quick, checks);
    json!({
        "scene": name,
        "margins": margins,
        "grasps": count,
        "held": held,
        "steps": steps,
        "unsettled_steps": unsettled,
        "relaxed_steps": solves.relaxed,
        "held_fast": solves.held_fast,
        "iterations_median": solves.sweeps_percentile(0.5),
        "iterations_p99": solves.sweeps_percentile(0.99),
        "sweeps": sweeps,
        "two_ms": two_ms,
        "one_thread_per_second": one_rate,
        "threads": cores,
        "all_threads_per_second": all_rate,
    })
}

/// The same tests on one thread with the contacts solved by the sweeps (RaiSim's, one contact
/// at a time: `ContactSolver::PerContact`): their rate, how their solves ended,
/// and how many labels differ from Newton's method's.
fn sweeps_beside(
    world: &World,
    trials: &[GraspTrial],
    settings: &HoldSettings,
    newton: &[Result<HoldTest, MoveError>],
) -> Value {
    let mut world = world.clone();
    world.set_contact_solver(ContactSolver::PerContact);
    let (tests, seconds) = time_tests(&world, trials, settings, 1);
    let mut solves = SolverStats::default();
    for direction in tests.iter().flatten().flat_map(|t| &t.directions) {
        solves.add(&direction.solves);
    }
    let label = |t: &Result<HoldTest, MoveError>| t.as_ref().ok().map(|t| t.held);
    let differ = tests
        .iter()
        .zip(newton)
        .filter(|(a, b)| label(a) != label(b))
        .count();
    let rate = trials.len() as f64 / seconds;
    println!(
        "  with the sweeps instead: 1 thread {rate:.2} grasps/s; {differ} of {} labels differ from Newton's method's",
        trials.len()
    );
    println!(
        "    {}",
        settled_line(&solves).replace("iterations", "sweeps")
    );
    json!({
        "one_thread_per_second": rate,
        "labels_differing": differ,
        "unsettled_steps": solves.unsettled,
        "sweeps_median": solves.sweeps_percentile(0.5),
        "sweeps_p99": solves.sweeps_percentile(0.99),
    })
}

/// The same tests on one thread at a 2 ms time step (the `clasp-2ms` preset): their rate
/// beside the 1 ms test's, and each label that differs with how far the object went at
/// each step (the largest displacement and turn of its six pulls): the figures to judge the
/// change by (an answer on the edge of the 20 mm / 15° bounds, or one far from them).
fn time_step_beside(
    world: &World,
    trials: &[GraspTrial],
    one_ms: &[Result<HoldTest, MoveError>],
    one_ms_rate: f64,
) -> Value {
    let settings = HoldSettings::preset("clasp-2ms").expect("the 2 ms preset");
    let (tests, seconds) = time_tests(world, trials, &settings, 1);
    let rate = trials.len() as f64 / seconds;
    let farthest = |t: &HoldTest| {
        let turned = t.directions.iter().map(|d| d.rotation).fold(0.0, f64::max);
        (t.most_moved(), turned.to_degrees())
    };
    let (mut changes, mut lines) = (Vec::new(), Vec::new());
    for (k, (a, b)) in one_ms.iter().zip(&tests).enumerate() {
        let (Ok(a), Ok(b)) = (a, b) else { continue };
        if a.held == b.held {
            continue;
        }
        let ((moved_a, turned_a), (moved_b, turned_b)) = (farthest(a), farthest(b));
        changes.push(json!({
            "grasp": k, "held_1ms": a.held, "held_2ms": b.held,
            "moved_1ms": moved_a, "turned_1ms": turned_a, "moved_2ms": moved_b, "turned_2ms": turned_b,
        }));
        lines.push(format!(
            "    grasp {k}: 1 ms {} (moved {moved_a:.1} mm, turned {turned_a:.1}°), 2 ms {} ({moved_b:.1} mm, {turned_b:.1}°)",
            if a.held { "held" } else { "dropped" },
            if b.held { "held" } else { "dropped" },
        ));
    }
    println!(
        "  at 2 ms a step (clasp-2ms): 1 thread {rate:.2} grasps/s ({:.2}× the 1 ms test's); {} of {} labels differ",
        rate / one_ms_rate,
        changes.len(),
        trials.len()
    );
    for line in lines {
        println!("{line}");
    }
    json!({ "one_thread_per_second": rate, "labels_differing": changes })
}

/// How the steps' contact solves ended, against the targets: settled within their
/// iterations in ≥ 99.9 % of steps, and the iterations' median and 99th percentile beside
/// MuJoCo's Newton's (~3 and ≤ 20); the steps Newton's method solved on the convex
/// relaxation, where it had any.
pub fn settled_line(solves: &SolverStats) -> String {
    let settled = 100.0 * (1.0 - solves.unsettled as f64 / solves.steps.max(1) as f64);
    let relaxed = match solves.relaxed {
        0 => String::new(),
        n => format!("; {n} on the convex relaxation (sliding contacts that jam)"),
    };
    let held = match solves.held_fast {
        0 => String::new(),
        n => format!("; {n} times a body free to move could not and was held fast"),
    };
    format!(
        "{} of {} steps' contact solves settled ({settled:.1} %, target 99.9 %: {}); iterations median {}, p99 {} (MuJoCo's Newton: ~3, ≤ 20){relaxed}{held}",
        solves.steps - solves.unsettled,
        solves.steps,
        if settled >= 99.9 { "met" } else { "not met" },
        solves.sweeps_percentile(0.5),
        solves.sweeps_percentile(0.99),
    )
}

/// The hand far above the object and `count` of its grasps (seed 2026), closed by the batch.
fn grasps(hand: &Path, object: &Path, count: usize) -> Option<(World, Vec<GraspTrial>)> {
    let object = load_body(&Disk, object, BodyKind::Graspable).ok()?;
    let hand = load_robot(&Disk, hand).ok()?;
    let mut world = World::new(vec![object], vec![hand]);
    let robot = RobotId::from_index(0);
    world
        .set_pose(Element::Robot(robot), Pose::translation(0.0, 0.0, 1000.0))
        .ok()?;
    let hand = world.robot(robot)?.clone();
    let candidates = grasp_candidates(&world, &hand, BodyId::Free(0), count, 2026).ok()?;
    let quality = BatchQuality {
        wrench_space: WrenchSpaceKind::L1,
        volume: false,
    };
    let batch = world
        .grasp_batch(robot, BodyId::Free(0), &candidates, quality)
        .ok()?;
    Some((world, batch.into_iter().map(|g| g.trial).collect()))
}

/// The tests of `trials` on a pool of `threads`, and the seconds they took.
fn time_tests(
    world: &World,
    trials: &[GraspTrial],
    settings: &HoldSettings,
    threads: usize,
) -> (Vec<Result<HoldTest, MoveError>>, f64) {
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let started = Instant::now();
    let tests = pool.install(|| world.test_grasps(robot, object, trials, settings));
    (tests, started.elapsed().as_secs_f64())
}

/// The same tests on one thread at each persistence margin (0: every pair searched in full
/// every step): the tests a second, and a check that every margin gives the very same answers
/// as the default's run.
fn margin_sweep(
    world: &World,
    trials: &[GraspTrial],
    expected: &[Result<HoldTest, MoveError>],
    settings: &HoldSettings,
    quick: bool,
    checks: &mut Checks,
) -> Value {
    let margins: &[f64] = if quick {
        &[0.0]
    } else {
        &[0.0, 0.1, 0.25, 0.5, 1.0, 2.0]
    };
    println!("  one thread at each persistence margin (mm beyond the threshold):");
    let mut rows = Vec::new();
    for &margin in margins {
        let mut world = world.clone();
        let persistence = Persistence {
            margin,
            checked: false,
        };
        world.set_persistence(persistence).expect("a good margin");
        let (tests, seconds) = time_tests(&world, trials, settings, 1);
        let rate = trials.len() as f64 / seconds;
        checks.expect(tests == expected, || {
            format!("the tests at margin {margin} mm differ from the default's")
        });
        println!("    {margin:>4} mm: {rate:.2} grasps/s");
        rows.push(json!({"margin": margin, "per_second": rate}));
    }
    Value::Array(rows)
}

/// Where a step of a grasp's test spends its time: the grasp put in place, each closing DOF
/// driven 0.1 rad further closed, the object free under gravity along −z for 0.5 s (the
/// test's own domains keep their timers to themselves).
pub(crate) fn step_split(world: &World, trial: &GraspTrial) -> Option<String> {
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let mut world = world.clone();
    world.put_grasp(robot, trial).ok()?;
    world.set_body_type(object, BodyType::Dynamic).ok()?;
    let hand = world.robot(robot)?;
    let targets = hand.squeezed_dof_values(0.1);
    world.drive_robot(robot, &targets).ok()?;
    let before = world.step_timers();
    world.simulate(0.5).ok()?;
    Some(time_split(&before, &world.step_timers()))
}
