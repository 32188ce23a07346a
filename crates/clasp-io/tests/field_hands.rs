//! The field's hands as dex-urdf ships them (`../shared/hands`), grasping GraspIt's objects
//! with nothing added to their files: a batch of candidates and the planner at its defaults.
//! Every hand and object's figures are in docs/benchmarks.md ("The field's hands").

use clasp_core::{
    BatchGrasp, BatchQuality, BodyId, ContactOptions, GraspCandidate, HoldSettings, PlanProgress,
    PlanSettings, PlannedGrasp, Robot, RobotId, World, WrenchSpaceKind,
};
use clasp_io::{Disk, load_urdf};

fn hand(file: &str) -> Option<Robot> {
    let hands = clasp_io::fixtures::field_hands()?;
    Some(load_urdf(&Disk, &hands.join(file)).unwrap())
}

/// A world of one field hand and one of GraspIt's objects.
fn hand_and_object(hand_file: &str, object: &str) -> Option<World> {
    let hand = hand(hand_file)?;
    let models = clasp_io::fixtures::graspit_models()?;
    let (body, _) = clasp_io::load_any_body(
        &Disk,
        &models.join("objects").join(object),
        clasp_core::BodyKind::Graspable,
        Default::default(),
    )
    .unwrap();
    let mut world = World::default();
    world.add_body(body);
    world.add_robot(hand);
    Some(world)
}

/// `count` batch candidates (seed 0) of a field hand on one of GraspIt's objects and the
/// grasps they end in, as `clasp-cli batch` makes them.
fn batch(
    hand_file: &str,
    object: &str,
    count: usize,
) -> Option<(Vec<GraspCandidate>, Vec<BatchGrasp>)> {
    let world = hand_and_object(hand_file, object)?;
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let hand = world.find_robot(robot).unwrap();
    let candidates = clasp_core::grasp_candidates(&world, hand, object, count, 0).unwrap();
    let grasps = world
        .grasp_batch(robot, object, &candidates, BatchQuality::default())
        .unwrap();
    Some((candidates, grasps))
}

/// Force-closure grasps of `count` batch candidates ([`batch`]).
fn force_closures(hand_file: &str, object: &str, count: usize) -> Option<usize> {
    let (_, grasps) = batch(hand_file, object, count)?;
    Some(grasps.iter().filter(|g| g.trial.force_closure()).count())
}

/// The Allegro as dex-urdf ships it closes round GraspIt's mug: 0 force-closure grasps of 20
/// before its palm's facing and its DOFs' senses were worked out; 161 of 200 (80 %) now
/// (docs/benchmarks.md). Here 40 candidates, at least a quarter force closure (32 measured).
/// Every hand and object of the issue is checked at 200 by `clasp-bench --grasp-test`.
/// Every URDF of `../shared/hands`, as dex-urdf ships it.
const SHARED_HANDS: [&str; 8] = [
    "allegro_hand/allegro_hand_right.urdf",
    "allegro_hand/allegro_hand_left.urdf",
    "leap_hand/leap_hand_right.urdf",
    "inspire_hand/inspire_hand_right.urdf",
    "inspire_hand/inspire_hand_left.urdf",
    "ability_hand/ability_hand_right.urdf",
    "ability_hand/ability_hand_left.urdf",
    PANDA,
];

#[test]
fn every_hand_of_the_shared_folder_loads_names_its_dofs_by_joint_and_closes_something() {
    for file in SHARED_HANDS {
        let Some(robot) = hand(file) else {
            return;
        };
        let inferred = robot.infer_hand();
        assert_eq!(inferred.roles.len(), robot.dofs.len(), "{file}");
        // Each DOF is named by its URDF joint, each name once.
        let text =
            std::fs::read_to_string(clasp_io::fixtures::field_hands().unwrap().join(file)).unwrap();
        let mut names: Vec<&str> = robot.dofs.iter().map(|d| d.name.as_str()).collect();
        for name in &names {
            assert!(text.contains(&format!("name=\"{name}\"")), "{file}: {name}");
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), robot.dofs.len(), "{file}");
        assert!(
            inferred.roles.iter().any(|r| r.default_velocity() != 0.0),
            "{file}: no DOF closes"
        );
        assert!(robot.approach.is_some(), "{file}");
    }
}

#[test]
fn the_allegro_closes_round_graspit_s_mug() {
    let Some(closures) = force_closures("allegro_hand/allegro_hand_right.urdf", "mug.xml", 40)
    else {
        return;
    };
    println!("Allegro on the mug: {closures} force-closure grasps of 40");
    assert!(closures >= 10, "{closures} of 40");
}

/// A batch's aims start the Allegro as a hand is held to grasp: its fingers' abductions where
/// they stand, its thumb's twist drawn over its range, its thumb turned halfway toward the
/// fingers (the DOF GraspIt's human hand leaves out of Auto Grasp).
#[test]
fn the_allegro_s_aims_start_its_thumb_turned_toward_the_fingers() {
    let Some(allegro) = hand("allegro_hand/allegro_hand_right.urdf") else {
        return;
    };
    assert_eq!(allegro.thumb_opposition(), Some(12));
    let aims = clasp_core::draw_aims(&allegro, 50, 0);
    let values = |d: usize| aims.iter().map(move |a| a.dofs[d]);
    for abduction in [0, 4, 8] {
        assert!(values(abduction).all(|v| v == allegro.dof_values()[abduction]));
    }
    let (lo, hi) = allegro.dof_limits(12);
    let halfway = (allegro.dof_values()[12] + hi) / 2.0;
    assert!(values(12).all(|v| v == halfway) && lo < halfway);
    let (lo, hi) = allegro.dof_limits(13);
    let twists: Vec<f64> = values(13).collect();
    assert!(twists.iter().all(|&v| (lo..=hi).contains(&v)));
    let spanned = twists.iter().cloned().fold(f64::NAN, f64::max)
        - twists.iter().cloned().fold(f64::NAN, f64::min);
    assert!(spanned > 0.8 * (hi - lo), "{twists:?}");
}

/// The planner at its defaults finds distinct force-closure grasps for a URDF hand, on the
/// virtual contacts and eigengrasps worked out from its kinematics (it refused before: no
/// virtual contacts). Measured: 10 of 10 for the Allegro on the mug.
#[test]
fn the_planner_plans_the_allegro_round_graspit_s_mug() {
    let Some(world) = hand_and_object("allegro_hand/allegro_hand_right.urdf", "mug.xml") else {
        return;
    };
    let plan = world
        .plan(
            RobotId::from_index(0),
            BodyId::Free(0),
            &PlanSettings::default(),
            &PlanProgress::default(),
        )
        .unwrap();
    let closures = plan.grasps.iter().filter(|g| g.force_closure()).count();
    println!(
        "Allegro on the mug: {closures} force-closure grasps of {}",
        plan.grasps.len()
    );
    assert!(closures >= 5, "{closures} force-closure grasps");
}

/// Issue 55: the Allegro's tested plan of the mug. Closed kinematically, each finger stopped
/// where it first touched, its grasps mostly fail the test on the squeeze's shove alone (6 of
/// 164 tested held before); a grasp that failed with the object still between its fingers is
/// tried again where its squeeze settled it. Those grasps come back held, the hand clear of
/// the object (the brute-force judge), scored where they stand, and holding when tested again
/// on their own.
#[test]
fn the_allegro_s_tested_plan_holds_where_its_squeezes_settled() {
    let Some(world) = hand_and_object("allegro_hand/allegro_hand_right.urdf", "mug.xml") else {
        return;
    };
    let (robot, object) = (RobotId::from_index(0), BodyId::Free(0));
    let test = HoldSettings::default();
    let settings = PlanSettings {
        grasps: 4,
        test: Some(test),
        ..PlanSettings::default()
    };
    let plan = world
        .plan(robot, object, &settings, &PlanProgress::default())
        .unwrap();
    let settled: Vec<&PlannedGrasp> = plan.grasps.iter().filter(|g| g.settled).collect();
    println!(
        "Allegro on the mug, tested: {:?} held of {}, {} of them settled; {} closed, {} tested, {} settled grasps tested, {:.1} s",
        plan.held(),
        plan.grasps.len(),
        settled.len(),
        plan.closed,
        plan.tested,
        plan.settled_tested,
        plan.seconds
    );
    assert_eq!(plan.held(), Some(4), "{:?}", plan.why_short_of_held(4));
    assert!(!settled.is_empty() && settled.len() <= plan.settled_tested);
    for g in settled {
        let mut placed = world.clone();
        placed.put_grasp(robot, &g.grasp).unwrap();
        let overlaps = clasp_io::fixtures::interpenetrating(&placed);
        assert!(
            overlaps.is_empty(),
            "a settled grasp interpenetrates: {overlaps:?}"
        );
        let there = placed
            .grasp(robot, object, &ContactOptions::default())
            .unwrap()
            .quality(WrenchSpaceKind::L1)
            .unwrap();
        assert_eq!(there.force_closure, g.force_closure());
        assert_eq!(g.held(), Some(true));
        let again = world.test_grasps(robot, object, std::slice::from_ref(&g.grasp), &test);
        assert!(again[0].as_ref().unwrap().held);
    }
}

const PANDA: &str = "panda_gripper/panda_gripper_glb.urdf";

/// The Panda's links collide as boxes and cylinders and are drawn by their glTF visual meshes
/// (`<visual>` GLB beside `<collision>` primitives): the app and the renderer draw those.
#[test]
fn the_panda_is_drawn_by_its_glb_meshes_and_collides_as_its_boxes() {
    let Some(panda) = hand(PANDA) else {
        return;
    };
    let bodies = std::iter::once(panda.palm())
        .chain(panda.chains().iter().map(|chain| &chain.links[0].body));
    for body in bodies {
        let visual = body.visual.as_ref().expect("a visual mesh");
        println!(
            "{}: {} collision triangles, {} drawn",
            body.name,
            body.mesh().triangles().len(),
            visual.triangles().len()
        );
        assert!(visual.triangles().len() > 10 * body.mesh().triangles().len());
        // The hand's visual mesh and its collision box span about the same space.
        let (vl, vh) = visual.bounding_box();
        let (cl, ch) = body.mesh().bounding_box();
        assert!((vh - vl).norm() < 2.0 * (ch - cl).norm(), "{}", body.name);
    }
}

/// The Panda gripper as dex-urdf ships it is found a parallel gripper: its two jaws close
/// along its palm's y, 80 mm apart when open, as Franka's hand opens.
#[test]
fn the_panda_is_a_parallel_gripper_opening_80_mm() {
    let Some(panda) = hand(PANDA) else {
        return;
    };
    let jaws = panda
        .parallel_jaws()
        .expect("the Panda is a parallel gripper");
    assert!((jaws.opening - 80.0).abs() < 1e-6, "{jaws:?}");
    assert!(jaws.closing.y.abs() > 1.0 - 1e-9, "{jaws:?}");
    let allegro = hand("allegro_hand/allegro_hand_right.urdf").unwrap();
    assert_eq!(allegro.parallel_jaws(), None);
}

/// The Panda's candidates are antipodal pairs on the mug, approached through to the pair;
/// both jaws close onto it (its mimic DOF closes downward and breaks away: one jaw only
/// touched before). Whether they hold is the physics test's to say, measured by the release
/// build's `clasp-cli batch` (docs/benchmarks.md: 2026-11-28, 30 of 40 held): in a debug
/// build the dynamics' check that a body moves as its velocity says fails on a mug pinched
/// between the jaws (the contact solve does not finish: issue 54).
#[test]
fn the_panda_closes_both_jaws_on_graspit_s_mug_by_antipodal_grasps() {
    let Some((candidates, grasps)) = batch(PANDA, "mug.xml", 12) else {
        return;
    };
    assert_eq!(candidates.len(), 12);
    assert!(candidates.iter().all(|c| c.through));
    let both_jaws = grasps
        .iter()
        .filter(|g| g.trial.bodies_touching() == 2)
        .count();
    println!("both jaws on the mug: {both_jaws} of 12");
    assert!(both_jaws >= 9, "{both_jaws} of 12");
}
