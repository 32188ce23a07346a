//! The field's dexterous hands as dex-urdf ships them (`../shared/hands`) on GraspIt's mug,
//! glass and flask (`--field-hands`), issue 53's acceptance: a batch of 200 candidates (seed 0,
//! as `clasp-cli batch --grasps 200` draws them) at least 25 % force closure, and the planner at
//! its defaults at least 5 distinct force-closure grasps. The hand and object pairs still short
//! of 25 % are listed in [`BELOW_TARGET`]: printed NOT MET, and checked not to fall below what
//! they were measured at, so that no change lowers them unseen.

use std::path::Path;
use std::time::Instant;

use clasp_core::{
    BatchQuality, BodyId, BodyKind, HoldSettings, PlanProgress, PlanSettings, RobotId, World,
    grasp_candidates,
};
use clasp_io::{Disk, load_urdf};
use serde_json::{Value, json};

use crate::check::Checks;

/// The candidates of each batch, as the issue counts them.
const CANDIDATES: usize = 200;

/// The target: this share of a batch force closure.
const TARGET_SHARE: f64 = 0.25;

/// Distinct force-closure grasps the planner must find at its defaults.
const PLANNED: usize = 5;

const HANDS: [(&str, &str); 5] = [
    ("Allegro right", "allegro_hand/allegro_hand_right.urdf"),
    ("Allegro left", "allegro_hand/allegro_hand_left.urdf"),
    ("LEAP", "leap_hand/leap_hand_right.urdf"),
    ("Inspire", "inspire_hand/inspire_hand_right.urdf"),
    ("Ability", "ability_hand/ability_hand_right.urdf"),
];

const OBJECTS: [&str; 3] = ["mug", "glass", "flask"];

/// Hand and object pairs short of the target, with the force-closure grasps of 200 measured
/// when they were listed (2026-11-28): too small a hand for the flask's 136 mm base and the
/// glass's 104 mm bowl, closing mostly round the base's rim.
const BELOW_TARGET: [(&str, &str, usize); 3] = [
    ("Inspire", "flask", 29),
    ("Ability", "glass", 46),
    ("Ability", "flask", 20),
];

pub fn run(_quick: bool, library: Option<&Path>, checks: &mut Checks) -> Value {
    let (Some(library), Some(hands)) = (library, clasp_io::fixtures::field_hands()) else {
        println!("\nthe field's hands skipped: GraspIt's models or the field's hands not found");
        return Value::Null;
    };
    println!(
        "\nThe field's hands on GraspIt's objects: force closure of {CANDIDATES} batch candidates, and of the planner's grasps at its defaults"
    );
    println!(
        "{:<14} {:<6} {:>12} {:>8} {:>10} {:>8}",
        "hand", "object", "batch FC", "s", "plan FC", "s"
    );
    let mut rows = Vec::new();
    for (name, file) in HANDS {
        for object in OBJECTS {
            let world = match hand_and_object(&hands.join(file), &library.join("objects"), object) {
                Ok(world) => world,
                Err(e) => {
                    checks.expect(false, || format!("{name} and the {object}: {e}"));
                    continue;
                }
            };
            rows.push(measure(name, object, &world, checks));
        }
    }
    match std::env::var_os(DEX_URDF) {
        Some(folder) => rows.extend(dex_urdf_rows(Path::new(&folder), &hands, library, checks)),
        None => println!(
            "(every hand of dex-urdf: set {DEX_URDF} to its robots/hands folder, fetched from github.com/dexsuite/dex-urdf)"
        ),
    }
    Value::Array(rows)
}

/// Where `--field-hands` finds every hand dex-urdf ships (its `robots/hands` folder), when set.
const DEX_URDF: &str = "CLASP_DEX_URDF";

/// Candidates of each dex-urdf row, as the issue counts them.
const DEX_CANDIDATES: usize = 40;

/// dex-urdf's hands, each as its URDF of collision meshes (the Panda's only URDF draws glTF).
const DEX_HANDS: [(&str, &str); 14] = [
    ("Allegro right", "allegro_hand/allegro_hand_right.urdf"),
    ("Allegro left", "allegro_hand/allegro_hand_left.urdf"),
    ("LEAP right", "leap_hand/leap_hand_right.urdf"),
    ("LEAP left", "leap_hand/leap_hand_left.urdf"),
    ("Inspire right", "inspire_hand/inspire_hand_right.urdf"),
    ("Inspire left", "inspire_hand/inspire_hand_left.urdf"),
    ("Ability right", "ability_hand/ability_hand_right.urdf"),
    ("Ability left", "ability_hand/ability_hand_left.urdf"),
    ("Shadow right", "shadow_hand/shadow_hand_right.urdf"),
    ("Shadow left", "shadow_hand/shadow_hand_left.urdf"),
    ("Schunk SVH right", "schunk_hand/schunk_svh_hand_right.urdf"),
    ("Schunk SVH left", "schunk_hand/schunk_svh_hand_left.urdf"),
    ("Barrett", "barrett_hand/bhand_model.urdf"),
    ("D'Claw", "dclaw_gripper/dclaw_gripper.urdf"),
];

/// Every hand of dex-urdf on GraspIt's mug: a dexterous hand's force closures of 40 batch
/// candidates, a gripper's grasps held by the physics test; each at least 25 %, or listed in
/// [`DEX_BELOW_TARGET`] (printed NOT MET, and held to what it was measured at).
fn dex_urdf_rows(hands: &Path, shared: &Path, library: &Path, checks: &mut Checks) -> Vec<Value> {
    println!(
        "\nEvery hand of dex-urdf ({}) on GraspIt's mug: {DEX_CANDIDATES} batch candidates",
        hands.display()
    );
    println!("{:<18} {:>18} {:>8}", "hand", "force closure", "s");
    let mut rows = Vec::new();
    let gripper = [("Panda gripper", "panda_gripper/panda_gripper_glb.urdf")];
    for (name, file) in DEX_HANDS.iter().chain(&gripper) {
        // The Panda's URDF is a large file a fetched copy may lack: `../shared/hands` holds
        // it as dex-urdf ships it.
        let path = Some(hands.join(file))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| shared.join(file));
        let world = match hand_and_object(&path, &library.join("objects"), "mug") {
            Ok(world) => world,
            Err(e) => {
                checks.expect(false, || format!("dex-urdf's {name}: {e}"));
                continue;
            }
        };
        let (robot, body) = (RobotId::from_index(0), BodyId::Free(0));
        let started = Instant::now();
        let (counted, what) = dex_urdf_count(&world, robot, body);
        let seconds = started.elapsed().as_secs_f64();
        let share = counted as f64 / DEX_CANDIDATES as f64;
        let below = DEX_BELOW_TARGET.iter().find(|(h, _)| h == name);
        let verdict = match below {
            None => {
                checks.expect(share >= TARGET_SHARE, || {
                    format!("dex-urdf's {name} on the mug: {counted} of {DEX_CANDIDATES} {what}, under 25 %")
                });
                ""
            }
            Some(&(_, measured)) => {
                checks.expect(counted >= measured, || {
                    format!("dex-urdf's {name} on the mug: {counted} of {DEX_CANDIDATES} {what}, fewer than the {measured} measured")
                });
                "  NOT MET (25 %)"
            }
        };
        println!(
            "{name:<18} {counted:>4} {what:<6} ({:>3.0} %) {seconds:>6.1}{verdict}",
            100.0 * share
        );
        rows.push(json!({
            "hand": name, "object": "mug", "candidates": DEX_CANDIDATES, "counted": counted,
            "what": what, "seconds": seconds, "met": below.is_none(), "source": "dex-urdf",
        }));
    }
    rows
}

/// dex-urdf's hands short of the target on the mug, with what they scored of 40 when listed
/// (2026-12-02): the Schunk SVH left closes its thumb beside the fingers (its right twin, 14).
const DEX_BELOW_TARGET: [(&str, usize); 1] = [("Schunk SVH left", 6)];

/// A dexterous hand's force closures of the batch, or a gripper's grasps held.
fn dex_urdf_count(world: &World, robot: RobotId, object: BodyId) -> (usize, &'static str) {
    let hand = world.find_robot(robot).expect("the world's hand");
    let Ok(candidates) = grasp_candidates(world, hand, object, DEX_CANDIDATES, 0) else {
        return (0, "none");
    };
    let grasps = world
        .grasp_batch(robot, object, &candidates, BatchQuality::default())
        .unwrap_or_default();
    if hand.parallel_jaws().is_none() {
        return (
            grasps.iter().filter(|g| g.trial.force_closure()).count(),
            "FC",
        );
    }
    let trials: Vec<_> = grasps.iter().map(|g| g.trial.clone()).collect();
    let tests = world.test_grasps(robot, object, &trials, &HoldSettings::default());
    (
        tests
            .iter()
            .filter(|t| t.as_ref().is_ok_and(|t| t.held))
            .count(),
        "held",
    )
}

fn hand_and_object(hand: &Path, objects: &Path, object: &str) -> Result<World, String> {
    let file = objects.join(format!("{object}.xml"));
    let (body, _) = clasp_io::load_any_body(&Disk, &file, BodyKind::Graspable, Default::default())
        .map_err(|e| e.to_string())?;
    let hand = load_urdf(&Disk, hand).map_err(|e| e.to_string())?;
    Ok(World::new(vec![body], vec![hand]))
}

/// One hand on one object: the batch's force closures and the plan's, checked.
fn measure(name: &str, object: &str, world: &World, checks: &mut Checks) -> Value {
    let (robot, body) = (RobotId::from_index(0), BodyId::Free(0));
    let started = Instant::now();
    let closures = batch_closures(world, robot, body);
    let batch_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let planned = plan_closures(world, robot, body);
    let plan_seconds = started.elapsed().as_secs_f64();
    let share = closures as f64 / CANDIDATES as f64;
    let below = BELOW_TARGET
        .iter()
        .find(|(h, o, _)| *h == name && *o == object);
    let verdict = match below {
        None => {
            checks.expect(share >= TARGET_SHARE, || {
                format!(
                    "{name} on the {object}: {closures} of {CANDIDATES} force closure, under 25 %"
                )
            });
            ""
        }
        Some(&(_, _, measured)) => {
            checks.expect(closures >= measured, || {
                format!("{name} on the {object}: {closures} of {CANDIDATES} force closure, fewer than the {measured} measured")
            });
            "  NOT MET (25 %)"
        }
    };
    checks.expect(planned >= PLANNED, || {
        format!("{name} on the {object}: the plan has {planned} force-closure grasps, fewer than {PLANNED}")
    });
    println!(
        "{name:<14} {object:<6} {:>5} ({:>3.0} %) {batch_seconds:>8.1} {planned:>7} of 10 {plan_seconds:>5.1}{verdict}",
        closures,
        100.0 * share
    );
    json!({
        "hand": name, "object": object, "candidates": CANDIDATES, "force_closure": closures,
        "batch_seconds": batch_seconds, "planned_force_closure": planned,
        "plan_seconds": plan_seconds, "met": below.is_none(),
    })
}

/// Force-closure grasps of the batch's candidates (seed 0), on every core.
fn batch_closures(world: &World, robot: RobotId, object: BodyId) -> usize {
    let hand = world.find_robot(robot).expect("the world's hand");
    let Ok(candidates) = grasp_candidates(world, hand, object, CANDIDATES, 0) else {
        return 0;
    };
    let grasps = world
        .grasp_batch(robot, object, &candidates, BatchQuality::default())
        .unwrap_or_default();
    grasps.iter().filter(|g| g.trial.force_closure()).count()
}

/// Distinct force-closure grasps of the planner at its defaults.
fn plan_closures(world: &World, robot: RobotId, object: BodyId) -> usize {
    let settings = PlanSettings::default();
    match world.plan(robot, object, &settings, &PlanProgress::default()) {
        Ok(plan) => plan.grasps.iter().filter(|g| g.force_closure()).count(),
        Err(_) => 0,
    }
}
