//! A hand mounted on an arm (GraspIt's `<connection>`), in a world built from GraspIt's model
//! library: the Puma 560 on its stand, the Barrett on its mount piece at the end of the arm's
//! chain, a dinner table, and the mug. The hand follows the arm's DOF and base moves, an arm
//! move that would push the hand into the table stops at contact, Auto Grasp closes the hand
//! and leaves the arm, and the world saves and loads with the same poses, connection and
//! camera.

use std::f64::consts::FRAC_PI_2;
use std::path::{Path, PathBuf};

use clasp_core::{BodyId, BodyKind, Camera, Connection, Element, Pose, RobotId, World};
use clasp_io::{Disk, load_body, load_robot, load_world, save_world};
use nalgebra::{Point3, UnitQuaternion, Vector3};

const ARM: RobotId = RobotId::from_index(0);
const HAND: RobotId = RobotId::from_index(1);
/// The Puma with its forearm level and its wrist turned down: the hand points at the floor.
const ARM_DOWN: [f64; 6] = [0.0, 0.0, -FRAC_PI_2, 0.0, -FRAC_PI_2, 0.0];
/// From the Puma's last link frame to the Barrett's palm: the mount piece (116 mm below the
/// palm frame) sits on the flange (59 mm along the last link's z).
const MOUNT_OFFSET: f64 = 175.0;
/// The table top, with the table on the floor under the Puma's stand.
const TABLE_TOP: f64 = -1303.0 + 820.0;

fn models() -> Option<PathBuf> {
    clasp_io::fixtures::graspit_models()
}

/// The Puma on its stand, the Barrett mounted on it pointing down 260 mm above the table top,
/// the table, and a camera.
fn arm_world(models: &Path) -> World {
    // The stand's top and the Puma's base meet in one plane: the stand sits 1 mm lower.
    let stand = load_body(
        &Disk,
        &models.join("obstacles/puma_stand.xml"),
        BodyKind::Obstacle,
    )
    .unwrap()
    .at(Pose::translation(0.0, 0.0, -1.0));
    let table = load_body(
        &Disk,
        &models.join("obstacles/dinner_table.xml"),
        BodyKind::Obstacle,
    )
    .unwrap()
    .at(Pose::translation(500.0, -600.0, -1303.0));
    let mut arm = load_robot(&Disk, &models.join("robots/Puma560/Puma560.xml")).unwrap();
    arm.set_dof_values(&ARM_DOWN).unwrap();
    let hand = load_robot(&Disk, &models.join("robots/Barrett/Barrett.xml")).unwrap();
    let mut world = World::new(vec![stand, table], vec![arm, hand]);
    let mount_file = models.join("robots/Barrett/iv/barrettmount.xml");
    let mount = load_body(&Disk, &mount_file, BodyKind::Link).unwrap();
    let connection = Connection {
        parent_robot: ARM,
        parent_chain: 0,
        child_robot: HAND,
        mount: Some(mount_file),
        offset: Pose::translation(0.0, 0.0, MOUNT_OFFSET),
    };
    world.connect(connection, Some(mount)).unwrap();
    world.camera = Some(Camera {
        position: Point3::new(2500.0, -2500.0, 1000.0),
        orientation: UnitQuaternion::from_euler_angles(1.1, 0.0, 0.8),
        focal_distance: 3000.0,
    });
    world
}

/// Where the hand's palm must be: at the end of the arm's chain, times the mount offset.
fn assert_hand_on_arm(world: &World) {
    let end = world.robot(ARM).unwrap().chain_end(0).unwrap();
    let want = end * Pose::translation(0.0, 0.0, MOUNT_OFFSET);
    let palm = world.robot(HAND).unwrap().pose();
    let gap = (palm.translation.vector - want.translation.vector).norm();
    assert!(gap < 1e-9, "the palm is {gap} mm off the end of the arm");
    assert!(palm.rotation.angle_to(&want.rotation) < 1e-9);
    let mount = world.robot(HAND).unwrap().mount().unwrap().pose();
    assert_eq!(mount, palm, "the mount piece is fixed to the palm");
}

/// No two bodies that the rules check interpenetrate: the brute-force engine judges.
fn assert_nothing_overlaps(world: &World) {
    let overlaps = clasp_io::fixtures::interpenetrating(world);
    assert!(overlaps.is_empty(), "interpenetrating: {overlaps:?}");
}

fn arm_dofs(world: &World) -> Vec<f64> {
    world.robot(ARM).unwrap().dof_values().to_vec()
}

fn with(values: &[f64], dof: usize, value: f64) -> Vec<f64> {
    let mut changed = values.to_vec();
    changed[dof] = value;
    changed
}

#[test]
fn the_hand_follows_the_arms_dof_and_base_moves() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    assert_hand_on_arm(&world);
    assert_nothing_overlaps(&world);
    // The wrist turns: the hand turns with it.
    let before = world.robot(HAND).unwrap().pose();
    let outcome = world.move_dofs_to(ARM, &with(&ARM_DOWN, 5, 1.0)).unwrap();
    assert!(outcome.completed, "{outcome:?}");
    assert_hand_on_arm(&world);
    let turned = world
        .robot(HAND)
        .unwrap()
        .pose()
        .rotation
        .angle_to(&before.rotation);
    assert!((turned - 1.0).abs() < 1e-9, "the hand turned {turned} rad");
    // The arm's base moves up 100 mm: the hand rises with it.
    let up = Pose::translation(0.0, 0.0, 100.0) * world.robot(ARM).unwrap().pose();
    let palm_before = world.robot(HAND).unwrap().pose().translation.vector;
    assert!(world.move_to(Element::Robot(ARM), up).unwrap().completed);
    assert_hand_on_arm(&world);
    let rise = world.robot(HAND).unwrap().pose().translation.vector - palm_before;
    assert!((rise - Vector3::new(0.0, 0.0, 100.0)).norm() < 1e-9);
    // The hand alone cannot be put anywhere: the arm carries it.
    assert!(
        world
            .move_to(Element::Robot(HAND), Pose::identity())
            .is_err()
    );
    assert!(
        world
            .set_pose(Element::Robot(HAND), Pose::identity())
            .is_err()
    );
    // The user who picks the hand moves the assembly.
    assert_eq!(world.assembly_of(Element::Robot(HAND)), Element::Robot(ARM));
    assert!(
        world
            .element_bodies(Element::Robot(ARM))
            .contains(&BodyId::Mount { robot: HAND })
    );
}

#[test]
fn an_arm_move_that_would_push_the_hand_into_the_table_stops_at_contact() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    // Lowering the shoulder swings the hand down through the table top.
    let outcome = world.move_dofs_to(ARM, &with(&ARM_DOWN, 1, -0.6)).unwrap();
    assert!(!outcome.completed, "the arm went through the table");
    let table = BodyId::Free(1);
    assert!(
        outcome
            .stopped_by
            .iter()
            .all(|&(mover, other)| mover.robot() == Some(HAND) && other == table),
        "the hand and the table stop the arm: {:?}",
        outcome.stopped_by
    );
    let shoulder = arm_dofs(&world)[1];
    assert!(
        shoulder < -0.05 && shoulder > -0.6,
        "the shoulder stopped at {shoulder}"
    );
    assert_hand_on_arm(&world);
    assert_nothing_overlaps(&world);
    assert!(
        world
            .contacts()
            .iter()
            .any(|c| c.body.robot() == Some(HAND) && c.other == table),
        "the hand touches the table"
    );
}

#[test]
fn auto_grasp_closes_the_mounted_hand_on_the_mug_and_leaves_the_arm() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    // The mug on the table, under where the hand comes when the shoulder lowers it (the wrist
    // turning back as much, so that the hand keeps pointing down).
    let lowered = with(&with(&ARM_DOWN, 1, -0.25), 4, -FRAC_PI_2 + 0.25);
    world.set_dof_values(ARM, &lowered).unwrap();
    let palm = world.robot(HAND).unwrap().pose().translation.vector;
    world.set_dof_values(ARM, &ARM_DOWN).unwrap();
    let mug = load_body(&Disk, &models.join("objects/mug.xml"), BodyKind::Graspable).unwrap();
    let (lo, hi) = mug.mesh().bounding_box();
    let centre = nalgebra::center(&lo, &hi);
    let at = Pose::translation(palm.x - centre.x, palm.y - centre.y, TABLE_TOP - lo.z + 0.5);
    let mug = world.add_body(mug.at(at));
    assert_eq!(
        world.current_hand(),
        Some(HAND),
        "the hand grasps, not the arm"
    );
    // The arm lowers the hand onto the mug, then the hand closes.
    let outcome = world.move_dofs_to(ARM, &lowered).unwrap();
    assert!(!outcome.completed, "the hand stops on the mug");
    let arm_before = arm_dofs(&world);
    world.auto_grasp(world.current_hand().unwrap()).unwrap();
    assert_eq!(arm_dofs(&world), arm_before, "Auto Grasp leaves the arm");
    let hand = world.robot(HAND).unwrap();
    assert!(
        hand.dof_values()[1..].iter().all(|&v| v > 0.1),
        "{:?}",
        hand.dof_values()
    );
    let mut fingers_on_mug: Vec<usize> = world
        .contacts_of(mug)
        .filter_map(|c| match c.other {
            BodyId::Link {
                robot: HAND, chain, ..
            } => Some(chain),
            _ => None,
        })
        .collect();
    fingers_on_mug.sort();
    fingers_on_mug.dedup();
    assert_eq!(fingers_on_mug, [0, 1, 2], "every finger touches the mug");
    assert_hand_on_arm(&world);
    assert_nothing_overlaps(&world);
}

#[test]
fn the_arm_and_hand_world_saves_and_loads_as_it_was() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    world.move_dofs_to(ARM, &with(&ARM_DOWN, 0, 0.3)).unwrap();
    world.move_dofs_to(HAND, &[0.5, 0.4, 0.3, 0.2]).unwrap();
    let dir = std::env::temp_dir().join(format!("clasp-arm-hand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("arm_and_hand.xml");
    save_world(&world, &file, Some(&models)).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("<mountFilename>robots/Barrett/iv/barrettmount.xml</mountFilename>"));
    let loaded = load_world(&Disk, &file, Some(&models)).unwrap();
    assert_eq!(loaded.connections().len(), 1);
    let (a, b) = (&world.connections()[0], &loaded.connections()[0]);
    assert_eq!(
        (a.parent_robot, a.parent_chain, a.child_robot),
        (b.parent_robot, b.parent_chain, b.child_robot)
    );
    assert!((a.offset.translation.vector - b.offset.translation.vector).norm() < 1e-9);
    for id in world.body_ids() {
        let (x, y) = (
            world.body(id).unwrap().pose(),
            loaded.body(id).unwrap().pose(),
        );
        let gap = (x.translation.vector - y.translation.vector).norm();
        assert!(
            gap < 1e-6 && x.rotation.angle_to(&y.rotation) < 1e-9,
            "{id:?} moved {gap} mm"
        );
    }
    assert_eq!(world.body_ids(), loaded.body_ids());
    let (c, d) = (world.camera.unwrap(), loaded.camera.unwrap());
    assert!(
        (c.position - d.position).norm() < 1e-6 && c.orientation.angle_to(&d.orientation) < 1e-6
    );
    assert_eq!(loaded.current_hand(), Some(HAND));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_hand_carried_by_an_arm_cannot_have_a_free_base() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    let refused = world.set_free_base(HAND, true);
    assert!(
        matches!(refused, Err(clasp_core::MoveError::Carried { robot, by }) if robot == HAND && by == ARM),
        "{refused:?}"
    );
    assert!(!world.robot(HAND).unwrap().has_free_base());
    // The arm itself may float.
    world.set_free_base(ARM, true).unwrap();
    assert!(world.robot(ARM).unwrap().has_free_base());
}

/// The arm and its hand in the dynamics, each driven towards `arm` and `hand` (DOF values).
fn driven(world: &mut World, arm: &[f64], hand: &[f64]) {
    world.drive_robot(ARM, arm).unwrap();
    world.drive_robot(HAND, hand).unwrap();
}

/// The centre of gravity of the arm, the hand and its mount piece together.
fn assembly_centre(world: &World) -> nalgebra::Point3<f64> {
    let (mut weighted, mut mass) = (Vector3::zeros(), 0.0);
    for robot in [ARM, HAND] {
        for body in world.robot(robot).unwrap().bodies() {
            weighted += body.world_cog().coords * body.mass.mass;
            mass += body.mass.mass;
        }
    }
    nalgebra::Point3::from(weighted / mass)
}

#[test]
fn the_arm_holds_its_hand_up_under_gravity() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    let hand = world.robot(HAND).unwrap().dof_values().to_vec();
    driven(&mut world, &ARM_DOWN, &hand);
    let palm = world.robot(HAND).unwrap().pose();
    world.simulate(0.3).unwrap();
    let sag =
        (world.robot(HAND).unwrap().pose().translation.vector - palm.translation.vector).norm();
    println!("the palm moved {sag:.4} mm in 0.3 s");
    assert!(sag < 0.5, "the arm let its hand sag {sag} mm");
    assert_hand_on_arm(&world);
    assert_nothing_overlaps(&world);
}

#[test]
fn an_arm_floating_in_space_answers_its_hands_fingers_about_their_centre_of_gravity() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    for obstacle in [0, 1] {
        world.remove_element(Element::Body(obstacle)).unwrap();
    }
    world.set_gravity(Vector3::zeros()).unwrap();
    let hand = world.robot(HAND).unwrap();
    let closed: Vec<f64> = (0..hand.dofs.len())
        .map(|dof| {
            let (min, max) = hand.dof_limits(dof);
            let closing = hand.dofs[dof].default_velocity.signum();
            (hand.dof_values()[dof] + closing * 0.6).clamp(min, max)
        })
        .collect();
    driven(&mut world, &ARM_DOWN, &closed);
    world.set_free_base(ARM, true).unwrap();
    let (base, centre) = (world.robot(ARM).unwrap().pose(), assembly_centre(&world));
    world.simulate(0.4).unwrap();
    let fingers = world.robot(HAND).unwrap().dof_values()[1];
    assert!(fingers > 0.3, "the fingers closed to {fingers} rad");
    let recoil =
        (world.robot(ARM).unwrap().pose().translation.vector - base.translation.vector).norm();
    let drift = (assembly_centre(&world) - centre).norm();
    println!("the arm's base moved {recoil:.4} mm, the centre of gravity {drift:.6} mm");
    // The hand's fingers push on the palm, the palm on the arm: the arm's base moves.
    assert!(
        recoil > 0.01,
        "the arm did not answer the fingers: {recoil} mm"
    );
    assert!(
        drift < 0.05 * recoil,
        "the centre of gravity moved {drift} mm"
    );
    assert_hand_on_arm(&world);
}

#[test]
fn an_arm_pressing_its_hand_on_the_table_feels_the_table_push_back() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    let hand = world.robot(HAND).unwrap().dof_values().to_vec();
    // Lowering the shoulder swings the hand down through the table top.
    driven(&mut world, &with(&ARM_DOWN, 1, -0.6), &hand);
    world.simulate(0.3).unwrap();
    let table = BodyId::Free(1);
    let pushed: f64 = world
        .contacts()
        .iter()
        .filter(|c| c.body.robot() == Some(HAND) && c.other == table)
        .map(|c| c.impulse.z)
        .sum();
    let shoulder = world.robot(ARM).unwrap().dof_velocities()[1];
    let hand_mass: f64 = world
        .robot(HAND)
        .unwrap()
        .bodies()
        .map(|b| b.mass.mass)
        .sum();
    let weight = hand_mass * clasp_core::EARTH_GRAVITY * world.time_step();
    println!(
        "the table pushes back with {pushed:.1} g·mm/s a step (the hand weighs {weight:.1}); \
         the shoulder turns at {shoulder:.5} rad/s"
    );
    // More than the hand's weight: the arm's push comes through the hand.
    assert!(pushed > 2.0 * weight, "the table holds only {pushed}");
    assert!(
        shoulder.abs() < 1e-3,
        "the arm goes on down at {shoulder} rad/s"
    );
    assert_hand_on_arm(&world);
    assert_nothing_overlaps(&world);
}

/// Arm postures spread over the Puma's range, for inverse kinematics to find again.
fn postures() -> Vec<[f64; 6]> {
    (0..12)
        .map(|i| {
            let t = i as f64 / 12.0;
            [
                -1.5 + 3.0 * t,
                -0.6 + 0.9 * (t * 7.0).sin().abs(),
                -FRAC_PI_2 - 0.8 * (t * 5.0).cos(),
                1.2 * (t * 3.0).sin(),
                -FRAC_PI_2 + 0.9 * (t * 11.0).cos(),
                2.0 * (t * 13.0).sin(),
            ]
        })
        .collect()
}

/// The arm world with the elbow bent: the palm 150 mm nearer the arm's base than `ARM_DOWN`
/// puts it, still pointing down (`ARM_DOWN` stretches the arm out level, at the edge of its
/// reach, where a palm moving down leaves the arm's reach at once).
fn bent_arm_world(models: &Path) -> World {
    let mut world = arm_world(models);
    let palm = world.robot(HAND).unwrap().pose();
    let inward = -palm.translation.vector.xy().normalize() * 150.0;
    let nearer = Pose::translation(inward.x, inward.y, 0.0) * palm;
    world.place_hand(HAND, nearer).unwrap();
    assert_nothing_overlaps(&world);
    world
}

#[test]
fn the_arm_puts_its_hands_palm_where_it_is_asked() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    for mut posture in postures() {
        let arm = world.robot(ARM).unwrap();
        for (dof, q) in posture.iter_mut().enumerate() {
            let (min, max) = arm.dof_limits(dof);
            *q = q.clamp(min, max);
        }
        world.set_dof_values(ARM, &posture).unwrap();
        let wanted = world.robot(HAND).unwrap().pose();
        world.set_dof_values(ARM, &ARM_DOWN).unwrap();
        world.place_hand(HAND, wanted).unwrap();
        let palm = world.robot(HAND).unwrap().pose();
        let (off, turned) = (
            (palm.translation.vector - wanted.translation.vector).norm(),
            palm.rotation.angle_to(&wanted.rotation),
        );
        assert!(
            off <= clasp_core::REACH_TOLERANCE.0 && turned <= clasp_core::REACH_TOLERANCE.1,
            "{posture:?}: the palm is {off} mm and {turned} rad off"
        );
        assert_hand_on_arm(&world);
        let arm = world.robot(ARM).unwrap();
        for (dof, &q) in arm.dof_values().iter().enumerate() {
            let (min, max) = arm.dof_limits(dof);
            assert!(
                min <= q && q <= max,
                "DOF {dof} at {q} outside [{min}, {max}]"
            );
        }
    }
}

#[test]
fn a_palm_beyond_the_arms_reach_is_refused_and_nothing_moves() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    let far = Pose::translation(5000.0, 0.0, 0.0) * world.robot(HAND).unwrap().pose();
    let refused = world.place_hand(HAND, far);
    println!("{}", refused.clone().unwrap_err());
    assert!(
        matches!(refused, Err(clasp_core::MoveError::OutOfReach { robot: HAND, distance, .. }) if distance > 3000.0),
        "{refused:?}"
    );
    assert_eq!(arm_dofs(&world), ARM_DOWN);
    let refused = world.move_hand_to(HAND, far);
    assert!(
        matches!(refused, Err(clasp_core::MoveError::OutOfReach { .. })),
        "{refused:?}"
    );
    assert_eq!(arm_dofs(&world), ARM_DOWN);
}

/// The ball the Puma cannot take the Barrett's wrist out of (what the planner searches within):
/// every posture drawn across the arm's limits keeps the palm inside it, the arm stretched out
/// comes within a hair of its edge (the ball is the Puma's reach, not a loose bound), and a
/// palm just beyond it is one the arm's own solver cannot reach either.
#[test]
fn the_arms_reach_ball_holds_every_posture_and_ends_where_the_arm_does() {
    let Some(models) = models() else { return };
    let mut world = arm_world(&models);
    let ball = world.reach_ball(HAND).expect("the Puma's reach is bounded");
    let arm = world.robot(ARM).unwrap().clone();
    let offset = Pose::translation(0.0, 0.0, MOUNT_OFFSET);
    let mut random = clasp_random::SplitMix64::new(7);
    let mut farthest: f64 = 0.0;
    for _ in 0..5000 {
        let values: Vec<f64> = (0..arm.dofs.len())
            .map(|dof| {
                let (min, max) = arm.dof_limits(dof);
                random.range(min, max)
            })
            .collect();
        let palm = arm.chain_end_at(0, &values).unwrap() * offset;
        assert!(ball.admits(&palm), "a posture the arm takes: {values:?}");
        farthest = farthest.max((palm * ball.wrist - ball.centre).norm());
    }
    println!(
        "reach ball: radius {:.1} mm, the farthest of the postures drawn {farthest:.1} mm",
        ball.radius
    );
    assert!(
        farthest > 0.99 * ball.radius,
        "{farthest} of {}",
        ball.radius
    );
    // The palm moved so that its wrist lies 5 mm beyond the ball, straight out from its centre.
    let palm = world.robot(HAND).unwrap().pose();
    let out = (palm * ball.wrist - ball.centre).normalize();
    let wrist = ball.centre + out * (ball.radius + 5.0);
    let shift = wrist - palm * ball.wrist;
    let beyond = Pose::translation(shift.x, shift.y, shift.z) * palm;
    assert!(!ball.admits(&beyond));
    assert!(
        world.place_hand(HAND, beyond).is_err(),
        "the arm reached it"
    );
    assert_eq!(arm_dofs(&world), ARM_DOWN);
}

#[test]
fn the_arm_moves_its_hand_along_a_straight_path() {
    let Some(models) = models() else { return };
    let mut world = bent_arm_world(&models);
    let start = world.robot(HAND).unwrap().pose();
    let target = Pose::translation(80.0, 60.0, 40.0) * start;
    let outcome = world.move_hand_to(HAND, target).unwrap();
    assert!(outcome.completed, "{outcome:?}");
    let palm = world.robot(HAND).unwrap().pose();
    let off = (palm.translation.vector - target.translation.vector).norm();
    assert!(
        off < 1e-3 && palm.rotation.angle_to(&target.rotation) < 1e-5,
        "{off} mm off"
    );
    assert_hand_on_arm(&world);
    assert_nothing_overlaps(&world);
}

/// The arm world with the mug on the table under the hand, 100 mm below the fingertips.
fn mug_under_the_hand(world: &mut World, models: &Path) -> BodyId {
    let palm = world.robot(HAND).unwrap().pose().translation.vector;
    let mug = load_body(&Disk, &models.join("objects/mug.xml"), BodyKind::Graspable).unwrap();
    let (lo, hi) = mug.mesh().bounding_box();
    let centre = nalgebra::center(&lo, &hi);
    let at = Pose::translation(palm.x - centre.x, palm.y - centre.y, TABLE_TOP - lo.z + 0.5);
    world.add_body(mug.at(at))
}

#[test]
fn a_mounted_hand_approaches_the_mug_by_its_arm_and_grasps_it() {
    let Some(models) = models() else { return };
    let mut world = bent_arm_world(&models);
    let mug = mug_under_the_hand(&mut world, &models);
    let before = arm_dofs(&world);
    let outcome = world.approach_to_contact(HAND, 400.0).unwrap();
    assert!(!outcome.completed, "the hand met nothing");
    assert!(
        outcome
            .stopped_by
            .iter()
            .all(|&(mover, other)| mover.robot() == Some(HAND) && other == mug),
        "{:?}",
        outcome.stopped_by
    );
    assert!(arm_dofs(&world) != before, "the arm moved the hand");
    assert_hand_on_arm(&world);
    world.auto_grasp(HAND).unwrap();
    let fingers: std::collections::BTreeSet<usize> = world
        .contacts_of(mug)
        .filter_map(|c| match c.other {
            BodyId::Link {
                robot: HAND, chain, ..
            } => Some(chain),
            _ => None,
        })
        .collect();
    assert_eq!(fingers.len(), 3, "fingers on the mug: {fingers:?}");
    assert_nothing_overlaps(&world);
}

#[test]
fn a_mounted_hand_that_meets_nothing_on_its_approach_stays_where_it_was() {
    let Some(models) = models() else { return };
    let mut world = bent_arm_world(&models);
    let before = arm_dofs(&world);
    let outcome = world.approach_to_contact(HAND, 50.0).unwrap();
    assert!(outcome.completed);
    assert_eq!(arm_dofs(&world), before);
}

#[test]
fn the_planner_keeps_only_grasps_the_arm_reaches_and_puts_them_in_place_by_the_arm() {
    let Some(models) = models() else { return };
    let mut world = bent_arm_world(&models);
    let mug = mug_under_the_hand(&mut world, &models);
    let settings = clasp_core::PlanSettings {
        steps: 2000,
        grasps: 5,
        ..clasp_core::PlanSettings::default()
    };
    let plan = world
        .plan(HAND, mug, &settings, &clasp_core::PlanProgress::default())
        .unwrap();
    assert!(!plan.grasps.is_empty(), "no grasp the arm reaches");
    for g in &plan.grasps {
        let mut placed = world.clone();
        placed.put_grasp(HAND, &g.grasp).unwrap();
        let palm = placed.robot(HAND).unwrap().pose();
        let off = (palm.translation.vector - g.grasp.palm.translation.vector).norm();
        assert!(
            off <= clasp_core::REACH_TOLERANCE.0,
            "the palm is {off} mm off"
        );
        assert_hand_on_arm(&placed);
        assert_nothing_overlaps(&placed);
    }
    println!(
        "{} grasps the arm reaches, {} force-closure",
        plan.grasps.len(),
        plan.grasps.iter().filter(|g| g.force_closure()).count()
    );
}
