//! Auto-grasps of Clasp's own hand and of GraspIt's Barrett hand on a sphere and on a mug:
//! approach along the approach direction, close every finger, and check that each finger rests
//! on the object with a contact and that nothing interpenetrates (the brute-force reference
//! engine judges), and the grasp quality of what they hold.
//!
//! The Barrett tests need GraspIt's model library in `../shared/graspit-models`; without it they
//! say so and pass.

use std::path::{Path, PathBuf};

use clasp_core::{
    BodyId, ContactOptions, Element, Pose, Quality, Robot, RobotId, World, WrenchSpaceKind,
};
use clasp_io::{Disk, load_body, load_robot};
use std::f64::consts::FRAC_PI_2;

use nalgebra::{UnitQuaternion, Vector3};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn graspit(relative: &str) -> Option<PathBuf> {
    Some(clasp_io::fixtures::graspit_models()?.join(relative))
}

/// A world of one object at the origin and one robot whose approach direction points at the
/// object's centre from `distance` mm away along -x.
fn scene(object: &Path, robot: &Path, distance: f64) -> World {
    let mut body =
        load_body(&Disk, object, clasp_core::BodyKind::Graspable).unwrap_or_else(|e| panic!("{e}"));
    let (lo, hi) = body.mesh().bounding_box();
    let centre = nalgebra::center(&lo, &hi);
    body = body.at(Pose::translation(-centre.x, -centre.y, -centre.z));
    let mut hand = load_robot(&Disk, robot).unwrap_or_else(|e| panic!("{e}"));
    hand.set_pose(facing_origin(&hand, distance));
    World::new(vec![body], vec![hand])
}

/// The palm pose that puts the approach direction's reference point `distance` mm from the
/// origin along -x, pointing along +x.
fn facing_origin(hand: &Robot, distance: f64) -> Pose {
    let approach = hand.approach.clone();
    let (reference, direction) = approach
        .map_or((nalgebra::Point3::origin(), Vector3::z_axis()), |a| {
            (a.reference, a.direction)
        });
    let rotation = UnitQuaternion::rotation_between_axis(&direction, &Vector3::x_axis())
        .unwrap_or_else(|| {
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::PI)
        });
    let at = nalgebra::Point3::new(-distance, 0.0, 0.0) - rotation * reference.coords;
    Pose::from_parts(at.coords.into(), rotation)
}

/// Approaches, grasps, checks every finger touches and nothing interpenetrates, lets go; gives
/// the grasp's L1 quality while it held.
fn assert_grasped(world: &mut World, name: &str) -> Quality {
    let (quality, after_approach) = grasp_checked(world, name);
    // Auto Open lets go: only what touched after the approach still touches.
    world.auto_open(RobotId::from_index(0)).unwrap();
    let touching = touching_object(world);
    assert!(
        touching.iter().all(|id| after_approach.contains(id)),
        "{name}: after Auto Open {touching:?} touch, after the approach only {after_approach:?}"
    );
    quality
}

/// Approaches and auto-grasps as [`assert_grasped`] does, and keeps the grasp.
fn assert_grasped_keeping(world: &mut World, name: &str) -> Quality {
    grasp_checked(world, name).0
}

/// Approaches and auto-grasps: every finger touches the object and nothing interpenetrates.
/// The quality, and the bodies that touched the object after the approach.
fn grasp_checked(world: &mut World, name: &str) -> (Quality, Vec<BodyId>) {
    let approach = world
        .approach_to_contact(RobotId::from_index(0), 400.0)
        .unwrap();
    println!("{name}: approach {approach:?}");
    let after_approach = touching_object(world);
    let grasp = world.auto_grasp(RobotId::from_index(0)).unwrap();
    println!(
        "{name}: grasp {grasp:?}, DOFs {:?}",
        world.robot(RobotId::from_index(0)).unwrap().dof_values()
    );
    let threshold = world.settings().contact_threshold;
    for (chain, links) in world
        .robot(RobotId::from_index(0))
        .unwrap()
        .chains()
        .iter()
        .enumerate()
    {
        let touching: usize = (0..links.links.len())
            .map(|link| {
                world
                    .contacts_of(BodyId::Link {
                        robot: RobotId::from_index(0),
                        chain,
                        link,
                    })
                    .filter(|c| c.other == BodyId::Free(0))
                    .count()
            })
            .sum();
        println!("{name}: chain {chain}: {touching} contacts on the object");
        assert!(
            touching > 0,
            "{name}: finger {chain} does not touch the object"
        );
    }
    for c in world.contacts() {
        assert!(c.separation >= 0.0 && c.separation < threshold);
    }
    assert_robot_contacts_are_one_list(world, name);
    let overlaps = clasp_io::fixtures::interpenetrating(world);
    assert!(
        overlaps.is_empty(),
        "{name}: interpenetrating: {overlaps:?}"
    );
    (grasp_quality(world, name), after_approach)
}

/// The hand's contacts as one list (RaiSim's `getContacts` of an articulated system): each seen
/// from the hand, every finger in it, and each of the object's contacts with the hand once.
fn assert_robot_contacts_are_one_list(world: &World, name: &str) {
    let robot = RobotId::from_index(0);
    let listed: Vec<_> = world.robot_contacts(robot).collect();
    assert!(
        listed.iter().all(|c| c.body.robot() == Some(robot)),
        "{name}"
    );
    let chains = world.robot(robot).unwrap().chains().len();
    for chain in 0..chains {
        let on_chain = |c: &&&clasp_core::Contact| matches!(c.body, BodyId::Link { chain: k, .. } if k == chain);
        assert!(listed.iter().any(|c| on_chain(&c)), "{name}: chain {chain}");
    }
    let from_object = world
        .contacts_of(BodyId::Free(0))
        .filter(|c| c.other.robot() == Some(robot))
        .count();
    let to_object = listed.iter().filter(|c| c.other == BodyId::Free(0)).count();
    assert_eq!(from_object, to_object, "{name}");
}

/// The L1 quality of the hand's grasp on the object, the same every time it is computed.
fn grasp_quality(world: &World, name: &str) -> Quality {
    let object = world.grasped_object().expect("a graspable object");
    let grasp = world
        .grasp(RobotId::from_index(0), object, &ContactOptions::default())
        .unwrap();
    let quality = grasp.quality_with_volume(WrenchSpaceKind::L1).unwrap();
    println!("{name}: {quality}");
    for c in &grasp.contacts {
        assert!(c.wrenches.iter().flatten().all(|x| x.is_finite()));
    }
    let again = world
        .grasp(RobotId::from_index(0), object, &ContactOptions::default())
        .unwrap();
    assert_eq!(
        again.quality_with_volume(WrenchSpaceKind::L1).unwrap(),
        quality
    );
    quality
}

/// The robot bodies touching the object.
fn touching_object(world: &World) -> Vec<BodyId> {
    world
        .contacts_of(BodyId::Free(0))
        .map(|c| c.other)
        .collect()
}

#[test]
fn clasp_hand_grasps_a_sphere_and_a_mug() {
    let models = workspace().join("models");
    let hand = models.join("robots/ClaspHand/ClaspHand.xml");
    for object in ["objects/clasp_sphere.xml", "objects/clasp_mug.xml"] {
        let mut world = scene(&models.join(object), &hand, 120.0);
        assert_grasped(&mut world, object);
    }
}

#[test]
fn barrett_grasps_a_sphere_and_graspits_mug() {
    let Some(hand) = graspit("robots/Barrett/Barrett.xml") else {
        return;
    };
    // GraspIt's own sphere has a radius of 8 mm, too small for the Barrett's power grasp from
    // the palm: its fingers close past it onto the palm. Clasp's 30 mm sphere stands in.
    let sphere = workspace().join("models/objects/clasp_sphere.xml");
    let mut world = scene(&sphere, &hand, 200.0);
    assert_grasped(&mut world, "Barrett on clasp_sphere");
    // The mug with the classic three-finger spread (60°: the fingers 120° apart).
    let mut world = scene(&graspit("objects/mug.xml").unwrap(), &hand, 200.0);
    let mut spread = world
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    spread[0] = std::f64::consts::FRAC_PI_3;
    world
        .set_dof_values(RobotId::from_index(0), &spread)
        .unwrap();
    let quality = assert_grasped(&mut world, "Barrett on GraspIt's mug");
    assert!(
        quality.force_closure,
        "the Barrett's grasp of the mug holds it"
    );
    assert!(quality.epsilon.unwrap() > 0.05, "{quality}");
}

/// The Barrett's finger DOFs are breakaway DOFs (graspit-spec §2.3): with the fingers side by
/// side (spread 0) closing round GraspIt's mug from the side opposite its handle, a proximal
/// link stops first and its distal link closes on, so the hand wraps the mug (force-closure). The joints that broke away are saved as GraspIt writes
/// them (`q`, then per joint `0` or `1 value`) and load back to the same poses.
#[test]
fn barrett_fingers_break_away_and_wrap_graspits_mug_side_by_side() {
    let Some(hand) = graspit("robots/Barrett/Barrett.xml") else {
        return;
    };
    let mut world = scene(&graspit("objects/mug.xml").unwrap(), &hand, 200.0);
    // The mug turned a quarter about its axis, the hand rolled a quarter about its approach,
    // so that the fingers close across the mug's axis.
    let quarter = |axis| {
        Pose::from_parts(
            Default::default(),
            UnitQuaternion::from_axis_angle(&axis, FRAC_PI_2),
        )
    };
    let mug = quarter(Vector3::z_axis()) * world.free_body(0).unwrap().pose();
    world.set_pose(Element::Body(0), mug).unwrap();
    let palm = quarter(Vector3::x_axis()) * world.robot(RobotId::from_index(0)).unwrap().pose();
    world
        .set_pose(Element::Robot(RobotId::from_index(0)), palm)
        .unwrap();
    let quality = assert_grasped_keeping(&mut world, "Barrett side by side on GraspIt's mug");
    let barrett = world.robot(RobotId::from_index(0)).unwrap();
    let mut broke = 0;
    for dof in 1..4 {
        let q = barrett.dof_values()[dof];
        for (chain, joint) in barrett.dof_joints(dof) {
            if let Some(at) = barrett.breakaway(chain, joint) {
                // The joint stopped at `at`; its DOF, and the joints after it, went on closing.
                assert!(
                    at < q - 0.1,
                    "DOF {dof} chain {chain} joint {joint}: {at} vs {q}"
                );
                let distal = barrett.chains()[chain].joints.len() - 1;
                assert!(joint < distal && barrett.breakaway(chain, distal).is_none());
                broke += 1;
            }
        }
    }
    assert!(
        broke > 0,
        "a proximal joint broke away: {:?}",
        barrett.dof_values()
    );
    assert!(
        quality.force_closure,
        "the Barrett wraps the mug: {quality}"
    );

    let dir = std::env::temp_dir().join(format!("clasp-breakaway-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrapped.xml");
    clasp_io::save_world(&world, &file, None).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let stream = text
        .split("<dofValues>")
        .nth(1)
        .unwrap()
        .split('<')
        .next()
        .unwrap();
    // Spread, then per finger DOF its value and a state per joint.
    let tokens: Vec<&str> = stream.split_whitespace().collect();
    assert_eq!(tokens.len(), 1 + 3 * 3 + broke, "{stream}");
    let ones = tokens.iter().filter(|t| **t == "1").count();
    assert_eq!(ones, broke, "the stream says: {stream}");
    let loaded = clasp_io::load_world(&Disk, &file, None).unwrap();
    let (a, b) = (
        world.robot(RobotId::from_index(0)).unwrap(),
        loaded.robot(RobotId::from_index(0)).unwrap(),
    );
    for (x, y) in a.bodies().zip(b.bodies()) {
        let gap = (x.pose().translation.vector - y.pose().translation.vector).norm();
        assert!(gap < 1e-6, "{} moved {gap} mm", x.name);
    }
    // A DOF set below where its joints broke away takes them along again: at zero the hand is
    // as it was loaded.
    world
        .set_dof_values(RobotId::from_index(0), &[0.0; 4])
        .unwrap();
    let fresh = load_robot(&Disk, &hand).unwrap();
    let reset = world.robot(RobotId::from_index(0)).unwrap();
    for (x, y) in reset.bodies().zip(fresh.bodies()) {
        let local = |robot: &Robot, body: &clasp_core::Body| robot.pose().inverse() * body.pose();
        let gap = local(reset, x).translation.vector - local(&fresh, y).translation.vector;
        assert!(gap.norm() < 1e-9, "{} is {gap} off", x.name);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Eigengrasps move a hand as GraspIt's sliders do: the amplitudes set are the amplitudes read
/// back while nothing is touched, and closing along the eigengrasps stops at contact like any
/// DOF move. The Barrett (a spread and a close-all eigengrasp) and the DLR hand (twelve DOFs)
/// of GraspIt's library.
#[test]
fn eigengrasp_amplitudes_move_the_barrett_and_the_dlr_hand_and_stop_at_contact() {
    let Some(barrett) = graspit("robots/Barrett/Barrett.xml") else {
        return;
    };
    let sphere = workspace().join("models/objects/clasp_sphere.xml");
    for hand in [barrett, graspit("robots/DLR/DLR.xml").unwrap()] {
        let name = hand.display().to_string();
        // Far from the sphere: the amplitudes go where they are asked.
        let mut world = scene(&sphere, &hand, 2000.0);
        let robot = world.robot(RobotId::from_index(0)).unwrap();
        assert!(
            robot.eigen_grasps.is_some(),
            "{name} has an eigengrasp file"
        );
        let space = robot.eigen_space().unwrap();
        let start = robot.eigen_amplitudes().unwrap();
        let dofs = robot.dof_values().to_vec();
        // The eigengrasp that closes the hand most: its +1 amplitude most along the DOFs'
        // closing velocities, taken in the direction that closes.
        let closing = |e: usize| {
            let mut one = start.clone();
            one[e] += 1.0;
            let moved = space.dofs_for(&one, &dofs).unwrap();
            let dofs_of = robot.dofs.iter().zip(moved.iter().zip(&dofs));
            dofs_of
                .map(|(dof, (m, d))| dof.default_velocity * (m - d))
                .sum::<f64>()
        };
        let close = (0..space.len())
            .max_by(|&a, &b| closing(a).abs().total_cmp(&closing(b).abs()))
            .unwrap();
        let (low, high) = space.amplitude_range(close, &dofs);
        let shut = if closing(close) > 0.0 { high } else { low };
        let mut asked = start.clone();
        asked[close] += 0.5 * (shut - start[close]);
        let outcome = world
            .move_eigen_amplitudes(RobotId::from_index(0), &asked)
            .unwrap();
        assert!(outcome.completed, "{name}: {outcome:?}");
        let read = world
            .robot(RobotId::from_index(0))
            .unwrap()
            .eigen_amplitudes()
            .unwrap();
        for (e, (r, a)) in read.iter().zip(&asked).enumerate() {
            assert!(
                (r - a).abs() < 1e-6,
                "{name}: amplitude {e} reads {r}, asked {a}"
            );
        }

        // Near the sphere: closing all the way along the eigengrasp stops at contact. (The
        // DLR hand's strict amplitude range, bounded by its first DOF to reach a limit, does
        // not close its fingers far enough to reach the sphere from its palm.)
        if !name.ends_with("Barrett.xml") {
            continue;
        }
        let mut world = scene(&sphere, &hand, 120.0);
        world
            .approach_to_contact(RobotId::from_index(0), 500.0)
            .unwrap();
        let mut asked = world
            .robot(RobotId::from_index(0))
            .unwrap()
            .eigen_amplitudes()
            .unwrap();
        asked[close] = shut;
        let outcome = world
            .move_eigen_amplitudes(RobotId::from_index(0), &asked)
            .unwrap();
        assert!(!outcome.completed, "{name}: the fingers meet the sphere");
        assert!(world.overlapping_pairs().is_empty(), "{name}");
    }
}

/// Quality on virtual contacts, as GraspIt's planner scores a posture with no object: the open,
/// flat Barrett and human hand push every way but one and hold nothing; closed 60 % of the way
/// their virtual contacts face each other and make a force-closure grasp. The quality is the
/// hand's own: carrying the hand elsewhere does not change it. (Turning it does, a little, in
/// GraspIt too: the torques are about the centre of the contacts' box in world axes.)
#[test]
fn virtual_contact_quality_of_the_barrett_and_the_human_hand() {
    let Some(barrett) = graspit("robots/Barrett/Barrett.xml") else {
        return;
    };
    let human = graspit("robots/HumanHand/HumanHand20DOF.xml").unwrap();
    for file in [barrett, human] {
        let name = file.display().to_string();
        let mut hand = load_robot(&Disk, &file).unwrap();
        let contacts = hand
            .virtual_contacts
            .clone()
            .expect("a virtual contact file");
        let wrenches = hand.virtual_wrenches();
        assert_eq!(wrenches.len(), contacts.contacts.len(), "{name}");
        for (w, c) in wrenches.iter().zip(&contacts.contacts) {
            assert_eq!(w.len(), c.friction_edges.len(), "{name}");
        }
        let open = hand.virtual_quality(WrenchSpaceKind::L1, false).unwrap();
        assert!(!open.force_closure, "{name} open: {open}");

        let closed: Vec<f64> = (0..hand.dofs.len())
            .map(|d| {
                let (lo, hi) = hand.dof_limits(d);
                let now = hand.dof_values()[d];
                match hand.dofs[d].default_velocity {
                    v if v > 0.0 => now + 0.6 * (hi - now),
                    v if v < 0.0 => now + 0.6 * (lo - now),
                    _ => now,
                }
            })
            .collect();
        hand.set_dof_values(&closed).unwrap();
        let held = hand.virtual_quality(WrenchSpaceKind::L1, true).unwrap();
        assert!(held.force_closure, "{name} closed: {held}");
        assert!(held.epsilon.unwrap() > 0.05, "{name} closed: {held}");

        hand.set_pose(Pose::translation(120.0, -45.0, 300.0) * hand.pose());
        let moved = hand.virtual_quality(WrenchSpaceKind::L1, true).unwrap();
        let (a, b) = (held.epsilon.unwrap(), moved.epsilon.unwrap());
        assert!((a - b).abs() < 1e-9, "{name}: {a} here, {b} there");
    }
}

/// Clasp's hand approached to its mug until it touches, fingers open.
fn clasp_hand_at_its_mug() -> (World, RobotId) {
    let models = workspace().join("models");
    let hand = models.join("robots/ClaspHand/ClaspHand.xml");
    let mut world = scene(&models.join("objects/clasp_mug.xml"), &hand, 120.0);
    let robot = RobotId::from_index(0);
    world.approach_to_contact(robot, 400.0).unwrap();
    (world, robot)
}

/// The physics test of a grasp: the hand squeezes and gravity pulls the object along each axis
/// direction in turn (DexGraspNet's test).
fn hold_test(world: &World) -> clasp_core::HoldTest {
    let settings = clasp_core::HoldSettings::default();
    let test = world
        .test_grasp(RobotId::from_index(0), BodyId::Free(0), &settings)
        .unwrap();
    for d in &test.directions {
        println!(
            "  pulled {:?}: moved {:.2} mm, turned {:.2}°, held {}",
            d.gravity.map(|g| g / settings.gravity).as_slice(),
            d.displacement,
            d.rotation.to_degrees(),
            d.held
        );
    }
    test
}

#[test]
fn clasp_hands_grasp_holds_the_mug_in_every_direction_and_an_open_hand_does_not() {
    let (mut world, robot) = clasp_hand_at_its_mug();
    world.auto_grasp(robot).unwrap();
    let closed = hold_test(&world);
    assert!(closed.held, "the closed hand holds: {closed:?}");
    assert_eq!(closed.directions.len(), 6);
    // The same grasp gives the same answer, to the bit, on one thread as on the pool.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let again = one.install(|| hold_test(&world));
    assert_eq!(again, closed);
    // A hand in the object cannot be tested: its moves would refuse to go deeper and hold it.
    let mut inside = world.clone();
    let palm = inside.robot(robot).unwrap().pose();
    inside.set_pose(clasp_core::Element::Body(0), palm).unwrap();
    let refused = inside.test_grasp(robot, BodyId::Free(0), &clasp_core::HoldSettings::default());
    assert!(
        matches!(refused, Err(clasp_core::MoveError::Interpenetrating(..))),
        "{refused:?}"
    );
    // Opened, the hand lets the mug fall wherever gravity does not press it into the palm.
    world.auto_open(robot).unwrap();
    let open = hold_test(&world);
    assert!(!open.held);
    let falls = open.directions.iter().filter(|d| !d.held).count();
    assert!(falls >= 4, "{falls} directions let it go: {open:?}");
    // A direction ends as soon as the mug is past the bounds: its path stops at the first
    // frame past them, before the pull's 0.5 s are up.
    let settings = clasp_core::HoldSettings::default();
    let full =
        ((settings.squeeze_seconds + settings.seconds) / clasp_core::HOLD_PATH_INTERVAL) as usize;
    for d in open.directions.iter().filter(|d| !d.held) {
        assert!(d.displacement > 20.0 || d.rotation > 15f64.to_radians());
        let start = &d.path[0];
        let past = |f: &clasp_core::HoldFrame| {
            (f.centre - start.centre).norm() > settings.max_displacement
                || f.object.rotation.angle_to(&start.object.rotation) > settings.max_rotation
        };
        assert!(d.path.len() < full, "{} frames of {full}", d.path.len());
        assert!(past(d.path.last().unwrap()));
        assert!(
            !d.path[..d.path.len() - 1].iter().any(past),
            "the first frame past"
        );
    }
}

/// The path intervals a test ran: the squeeze's, then each pull's after it (every pull's path
/// starts with the squeeze's).
fn intervals(test: &clasp_core::HoldTest) -> usize {
    let squeeze = |d: &clasp_core::DirectionHold| {
        d.path.iter().position(|f| *f == test.squeeze_end).unwrap() + 1
    };
    let first = squeeze(&test.directions[0]) - 1;
    first
        + test
            .directions
            .iter()
            .map(|d| d.path.len() - squeeze(d))
            .sum::<usize>()
}

#[test]
fn the_two_millisecond_preset_tests_the_same_grasp_in_half_the_steps() {
    let (mut world, robot) = clasp_hand_at_its_mug();
    world.auto_grasp(robot).unwrap();
    let preset = clasp_core::HoldSettings::preset("clasp-2ms").unwrap();
    assert_eq!(preset.time_step, Some(0.002));
    let fine = hold_test(&world);
    let coarse = world.test_grasp(robot, BodyId::Free(0), &preset).unwrap();
    assert!(fine.held && coarse.held, "{fine:?}\n{coarse:?}");
    // Every step is counted: ten of 1 ms, or five of 2 ms, to each 10 ms path interval.
    assert_eq!(fine.steps, 10 * intervals(&fine));
    assert_eq!(coarse.steps, 5 * intervals(&coarse));
    assert!(
        coarse.steps < fine.steps,
        "{} steps at 2 ms, {} at 1 ms",
        coarse.steps,
        fine.steps
    );
}

#[test]
fn dynamic_auto_grasp_closes_until_the_forces_on_the_mug_balance() {
    let (mut world, robot) = clasp_hand_at_its_mug();
    // Without gravity: the mug floats, and only the fingers push it.
    world.set_gravity(Vector3::zeros()).unwrap();
    let seconds = world.dynamic_auto_grasp(robot, 2.0).unwrap();
    println!(
        "settled in {seconds} s, DOFs {:?}",
        world.robot(robot).unwrap().dof_values()
    );
    assert!(seconds < 2.0, "the hand comes to rest");
    let mug = world.body(BodyId::Free(0)).unwrap();
    assert!(mug.velocity().linear.norm() < 1.0, "{:?}", mug.velocity());
    // Every finger presses on the mug, and the pushes balance: their sum is small against each.
    let on_mug: Vec<_> = world.contacts_of(BodyId::Free(0)).collect();
    let push = |c: &&clasp_core::Contact| {
        if c.is_object_a {
            c.world_impulse()
        } else {
            -c.world_impulse()
        }
    };
    let total: Vector3<f64> = on_mug.iter().map(push).sum();
    let largest = on_mug.iter().map(|c| push(c).norm()).fold(0.0, f64::max);
    assert!(largest > 0.0, "the fingers press");
    assert!(
        total.norm() < 0.05 * largest * on_mug.len() as f64,
        "{total} against {largest}"
    );
    let chains = world.robot(robot).unwrap().chains().len();
    for chain in 0..chains {
        let presses = on_mug.iter().any(|c| {
            matches!(c.other, BodyId::Link { chain: k, .. } if k == chain) && push(c).norm() > 0.0
        });
        assert!(presses, "finger {chain} presses on the mug");
    }
}

#[test]
fn graspits_lift_raises_the_mug_in_a_closed_hand_and_leaves_it_in_an_open_one() {
    let (mut world, robot) = clasp_hand_at_its_mug();
    world.auto_grasp(robot).unwrap();
    let settings = clasp_core::HoldSettings::default();
    let lift = world
        .lift_grasp(robot, BodyId::Free(0), 100.0, 200.0, &settings)
        .unwrap();
    println!("closed: {lift:?}");
    assert!(lift.held, "{lift:?}");
    assert!((lift.raised - 100.0).abs() < 5.0, "{lift:?}");
    world.auto_open(robot).unwrap();
    let lift = world
        .lift_grasp(robot, BodyId::Free(0), 100.0, 200.0, &settings)
        .unwrap();
    println!("open: {lift:?}");
    assert!(!lift.held && lift.raised < 50.0, "{lift:?}");
}

/// ClaspHand alone, 1 m above where its mug was, holding its DOFs, its base free.
fn free_hand() -> (World, RobotId) {
    let (mut world, robot) = clasp_hand_at_its_mug();
    world.remove_element(Element::Body(0)).unwrap();
    let palm = world.robot(robot).unwrap().pose();
    let raised = Pose::translation(0.0, 0.0, 1000.0) * palm;
    world.set_pose(Element::Robot(robot), raised).unwrap();
    let dofs = world.robot(robot).unwrap().dof_values().to_vec();
    world.drive_robot(robot, &dofs).unwrap();
    world.set_free_base(robot, true).unwrap();
    (world, robot)
}

/// The hand's centre of gravity: its palm's and links' centres weighted by their masses.
fn hand_centre(world: &World, robot: RobotId) -> nalgebra::Point3<f64> {
    let hand = world.robot(robot).unwrap();
    let bodies = std::iter::once(hand.palm()).chain(
        hand.chains()
            .iter()
            .flat_map(|c| c.links.iter().map(|l| &l.body)),
    );
    let (mut weighted, mut mass) = (Vector3::zeros(), 0.0);
    for body in bodies {
        weighted += body.world_cog().coords * body.mass.mass;
        mass += body.mass.mass;
    }
    nalgebra::Point3::from(weighted / mass)
}

#[test]
fn a_free_hand_falls_as_one_body() {
    let (mut world, robot) = free_hand();
    let start = world.robot(robot).unwrap().pose();
    let dofs = world.robot(robot).unwrap().dof_values().to_vec();
    let seconds = 0.2;
    world.simulate(seconds).unwrap();
    let hand = world.robot(robot).unwrap();
    let fell = start.translation.z - hand.pose().translation.z;
    let expected = 0.5 * clasp_core::EARTH_GRAVITY * seconds * seconds;
    println!("fell {fell:.2} mm in {seconds} s (free fall {expected:.2} mm)");
    assert!((fell - expected).abs() < 0.02 * expected, "fell {fell} mm");
    let sideways = (hand.pose().translation.vector.xy() - start.translation.vector.xy()).norm();
    assert!(sideways < 1e-6, "{sideways} mm sideways");
    // As one body: no finger moves against the palm, the palm does not turn.
    for (q, q0) in hand.dof_values().iter().zip(&dofs) {
        assert!((q - q0).abs() < 1e-4, "a DOF moved from {q0} to {q}");
    }
    assert!(hand.pose().rotation.angle_to(&start.rotation) < 1e-6);
}

#[test]
fn a_free_hand_closing_in_space_recoils_about_its_centre_of_gravity() {
    let (mut world, robot) = free_hand();
    world.set_gravity(Vector3::zeros()).unwrap();
    let hand = world.robot(robot).unwrap();
    let closed: Vec<f64> = (0..hand.dofs.len())
        .map(|dof| {
            let (min, max) = hand.dof_limits(dof);
            let closing = hand.dofs[dof].default_velocity.signum();
            (hand.dof_values()[dof] + closing * 0.6).clamp(min, max)
        })
        .collect();
    world.drive_robot(robot, &closed).unwrap();
    let (palm, centre) = (
        world.robot(robot).unwrap().pose(),
        hand_centre(&world, robot),
    );
    world.simulate(0.4).unwrap();
    let hand = world.robot(robot).unwrap();
    let recoil = (hand.pose().translation.vector - palm.translation.vector).norm();
    let drift = (hand_centre(&world, robot) - centre).norm();
    println!("palm moved {recoil:.3} mm, the centre of gravity {drift:.4} mm");
    assert!(recoil > 0.5, "the palm answers the fingers: {recoil} mm");
    assert!(
        drift < 0.05 * recoil,
        "the centre of gravity stays: {drift} mm"
    );
    // Released, it stops where it is, its base fixed again.
    world.release_robot(robot).unwrap();
    assert!(!world.robot(robot).unwrap().has_free_base());
}

#[test]
fn a_free_base_is_refused_for_a_robot_that_is_not_there() {
    let (mut world, _) = clasp_hand_at_its_mug();
    let missing = world.set_free_base(RobotId::from_index(7), true);
    assert!(
        matches!(missing, Err(clasp_core::MoveError::NoSuchRobot(_))),
        "{missing:?}"
    );
}

#[test]
fn a_free_hand_dropped_on_a_table_comes_to_rest_on_it() {
    let (mut world, robot) = free_hand();
    let lowest = {
        let hand = world.robot(robot).unwrap();
        let bodies = std::iter::once(hand.palm()).chain(
            hand.chains()
                .iter()
                .flat_map(|c| c.links.iter().map(|l| &l.body)),
        );
        bodies
            .flat_map(|b| b.mesh().vertices().iter().map(move |v| (b.pose() * v).z))
            .fold(f64::MAX, f64::min)
    };
    let top = lowest - 30.0;
    let table = clasp_core::Body::from_mesh(
        "table",
        clasp_core::BodyKind::Obstacle,
        clasp_collide::shapes::cuboid([-400.0, -400.0, top - 20.0], [400.0, 400.0, top]),
    );
    let table = world.add_body(table);
    let start = world.robot(robot).unwrap().pose();
    world.simulate(1.0).unwrap();
    let hand = world.robot(robot).unwrap();
    assert!(
        world.overlapping_pairs().is_empty(),
        "nothing passes into anything"
    );
    let speed = hand.base_velocity().linear.norm();
    let fell = lowest - top;
    println!("resting at {speed:.3} mm/s after a fall of {fell:.1} mm");
    assert!(speed < 5.0, "the hand rests on the table: {speed} mm/s");
    let on_table = |c: &&clasp_core::Contact| {
        let pair = [c.body, c.other];
        pair.contains(&table) && pair.iter().any(|b| b.robot() == Some(robot))
    };
    assert!(
        world.contacts().iter().any(|c| on_table(&c)),
        "it lies on the table"
    );
    let dropped = start.translation.z - hand.pose().translation.z;
    assert!(
        (dropped - fell).abs() < 1.0,
        "the palm came down {dropped} mm of {fell}"
    );
}

/// Each DOF's share of the contact forces on the hand's links (J(point)ᵀ·f summed over the
/// links' contacts, f the force on the link over the last step): at rest it balances what
/// each DOF's controller gives.
fn contact_efforts(world: &World, robot: RobotId) -> Vec<f64> {
    let hand = world.robot(robot).unwrap();
    let jacobians = hand.link_jacobians();
    let dt = world.time_step();
    let mut efforts = vec![0.0; hand.dofs.len()];
    for c in world.contacts() {
        let BodyId::Link {
            robot: r,
            chain,
            link,
        } = c.body
        else {
            continue;
        };
        if r != robot {
            continue;
        }
        let body = world.body(c.body).unwrap();
        let jacobian = &jacobians[hand.link_jacobian_index(chain, link)];
        let moves = jacobian.at_point(&(c.point - body.world_cog()));
        // The impulse is from B on A: the link's own side pushes the other way when it is B.
        let side = if c.is_object_a { 1.0 } else { -1.0 };
        let force = c.world_impulse() * (side / dt);
        for (dof, effort) in efforts.iter_mut().enumerate() {
            *effort += moves.column(dof).dot(&force);
        }
    }
    efforts
}

/// The squeeze presses (issue 43): the Barrett grasps Clasp's sphere, squeezes as the hold
/// test does, and its fingers press the ball with what their controllers give — every closing
/// DOF at its effort limit, the contact forces on its links balancing each DOF's effort within
/// 10 % — with no finger inside the ball or another finger (the brute-force judge). The hold
/// test reports the same efforts and force.
#[test]
fn the_barretts_squeeze_presses_the_sphere_with_its_dofs_efforts() {
    let Some(hand) = graspit("robots/Barrett/Barrett.xml") else {
        return;
    };
    let sphere = workspace().join("models/objects/clasp_sphere.xml");
    let mut world = scene(&sphere, &hand, 200.0);
    let robot = RobotId::from_index(0);
    world.approach_to_contact(robot, 400.0).unwrap();
    world.auto_grasp(robot).unwrap();
    let settings = clasp_core::HoldSettings::default();
    let test = world.test_grasp(robot, BodyId::Free(0), &settings).unwrap();
    world
        .set_body_type(BodyId::Free(0), clasp_core::BodyType::Dynamic)
        .unwrap();
    world.set_gravity(Vector3::zeros()).unwrap();
    let targets = world
        .robot(robot)
        .unwrap()
        .squeezed_dof_values(settings.squeeze);
    world.drive_robot(robot, &targets).unwrap();
    // The hold test's squeeze ends early once hand and object rest (below 1 mm/s); the world
    // goes span by span as it does, to where the squeeze ended (under Newton's method the
    // spread DOF still creeps there, at 10⁻⁶ mm/s, so a longer squeeze moves its effort).
    let spans = (settings.squeeze_seconds / clasp_core::HOLD_PATH_INTERVAL).round() as usize;
    let ended = |world: &World| {
        let object = world.body(BodyId::Free(0)).unwrap().pose();
        let end = &test.squeeze_end.object;
        (object.translation.vector - end.translation.vector).norm() < 1e-9
            && world.robot(robot).unwrap().dof_values() == test.squeeze_end.dofs.as_slice()
    };
    for _ in 0..spans {
        world.simulate(clasp_core::HOLD_PATH_INTERVAL).unwrap();
        if ended(&world) {
            break;
        }
    }
    assert!(
        ended(&world),
        "the world's squeeze reaches where the test's ended"
    );
    let given = world.dof_efforts(robot).unwrap();
    let taken = contact_efforts(&world, robot);
    let squeeze = &test.squeeze;
    println!(
        "efforts given {given:?}\n  limits {:?}\n  taken by the contacts {taken:?}",
        squeeze.effort_limits
    );
    println!(
        "normal force on the ball {:.2} N; fingers {:?}",
        squeeze.normal_force * 1e-6,
        squeeze.fingers
    );
    let hand = world.robot(robot).unwrap();
    for dof in 0..hand.dofs.len() {
        let closing = hand.dofs[dof].default_velocity != 0.0;
        assert!(
            (squeeze.dof_efforts[dof] - given[dof]).abs() <= 1e-6 * given[dof].abs().max(1.0),
            "DOF {dof}: the hold test reports {} where the world gives {}",
            squeeze.dof_efforts[dof],
            given[dof]
        );
        if !closing {
            continue;
        }
        let limit = squeeze.effort_limits[dof];
        assert!(
            (given[dof].abs() - limit).abs() <= 1e-6 * limit,
            "closing DOF {dof} presses with {} of its {limit}",
            given[dof]
        );
        assert!(
            (given[dof] + taken[dof]).abs() <= 0.1 * given[dof].abs(),
            "DOF {dof}: its controller gives {} and its links' contacts take {}",
            given[dof],
            taken[dof]
        );
    }
    assert!(
        squeeze.fingers.iter().all(|f| f.on_object),
        "{:?}",
        squeeze.fingers
    );
    assert!(squeeze.normal_force > 0.0);
    let overlaps = clasp_io::fixtures::interpenetrating(&world);
    assert!(
        overlaps.is_empty(),
        "interpenetrating after the squeeze: {overlaps:?}"
    );
}
