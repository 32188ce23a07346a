//! Each link's Jacobians from its joints' axes and origins (`Robot::link_jacobians`, what the
//! dynamics moves hands by) against the finite differences of the forward kinematics that
//! stood in for them before: at 50 random postures of GraspIt's Barrett (coupled joints), its
//! Schunk hand, Clasp's hand tree (a wrist carrying a palm of branching fingers), and the Puma
//! 560 carrying the Barrett; and with a joint held in breakaway.

use clasp_core::{Connection, LinkJacobian, Pose, Robot, RobotId, World};
use clasp_io::{Disk, load_robot};
use clasp_random::SplitMix64;
use nalgebra::Matrix3xX;

const POSTURES: usize = 50;

fn robot(file: &str) -> Option<Robot> {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        println!("skipped: GraspIt's model library is not there");
        return None;
    };
    Some(load_robot(&Disk, &models.join("robots").join(file)).unwrap())
}

/// Each link's Jacobians by stepping each DOF by the kinematics' finite-difference step (up,
/// unless that leaves the DOF's range): what the dynamics used before.
fn by_differences(robot: &Robot) -> Vec<LinkJacobian> {
    let values = robot.dof_values();
    let cogs: Vec<_> = robot
        .chains()
        .iter()
        .flat_map(|c| c.links.iter().map(|l| l.body.mass.cog))
        .collect();
    let here = robot.link_poses_at(values);
    let mut links = vec![LinkJacobian::zeros(values.len()); cogs.len()];
    for dof in 0..values.len() {
        let (moved, step) = robot.nudged(values, dof);
        let there = robot.link_poses_at(&moved);
        for (l, link) in links.iter_mut().enumerate() {
            let linear = (there[l] * cogs[l] - here[l] * cogs[l]) / step;
            let angular = (there[l].rotation * here[l].rotation.inverse()).scaled_axis() / step;
            link.linear.set_column(dof, &linear);
            link.angular.set_column(dof, &angular);
        }
    }
    links
}

/// The largest difference between two Jacobians' columns, each against its own size (the
/// finite differences are first-order: off by step × curvature, ~1e-7 of a column here).
fn worst(analytic: &[LinkJacobian], differences: &[LinkJacobian]) -> f64 {
    let relative = |a: &Matrix3xX<f64>, b: &Matrix3xX<f64>| {
        a.column_iter()
            .zip(b.column_iter())
            .map(|(x, y)| (x - y).norm() / (1.0 + y.norm()))
            .fold(0.0, f64::max)
    };
    analytic
        .iter()
        .zip(differences)
        .map(|(a, d)| relative(&a.linear, &d.linear).max(relative(&a.angular, &d.angular)))
        .fold(0.0, f64::max)
}

/// DOF values drawn inside each DOF's range (a DOF without limits over a turn).
fn posture(robot: &Robot, random: &mut SplitMix64) -> Vec<f64> {
    (0..robot.dofs.len())
        .map(|dof| {
            let (lo, hi) = robot.dof_limits(dof);
            let (lo, hi) = (lo.max(-std::f64::consts::PI), hi.min(std::f64::consts::PI));
            random.range(lo, hi)
        })
        .collect()
}

fn check(robot: &mut Robot, random: &mut SplitMix64, name: &str) {
    let mut largest: f64 = 0.0;
    for _ in 0..POSTURES {
        let values = posture(robot, random);
        robot.set_dof_values(&values).unwrap();
        let analytic = robot.link_jacobians();
        assert_eq!(analytic.len(), by_differences(robot).len());
        largest = largest.max(worst(&analytic, &by_differences(robot)));
    }
    println!("{name}: largest difference {largest:.2e} of a column");
    assert!(largest < 1e-6, "{name}: {largest}");
}

#[test]
fn hands_jacobians_from_their_axes_equal_the_kinematics_differences() {
    let mut random = SplitMix64::new(2026);
    for file in ["Barrett/Barrett.xml", "Schunk/Schunk.xml"] {
        let Some(mut hand) = robot(file) else { return };
        // Somewhere off the origin, turned: the axes are the world's.
        hand.set_pose(
            Pose::translation(120.0, -40.0, 300.0)
                * Pose::from_parts(
                    nalgebra::Translation3::identity(),
                    nalgebra::UnitQuaternion::from_euler_angles(0.3, -0.7, 1.1),
                ),
        );
        check(&mut hand, &mut random, file);
    }
}

#[test]
fn a_hand_tree_s_jacobians_carry_its_wrist_into_every_finger() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models/robots/ClaspTreeHand/ClaspTreeHand.urdf");
    let mut hand = clasp_io::load_urdf(&Disk, &file).unwrap();
    hand.set_pose(Pose::translation(-30.0, 80.0, 10.0));
    check(&mut hand, &mut SplitMix64::new(53), "ClaspTreeHand");
}

#[test]
fn the_puma_and_the_barrett_it_carries_agree_at_random_postures() {
    let (Some(arm), Some(hand)) = (robot("Puma560/Puma560.xml"), robot("Barrett/Barrett.xml"))
    else {
        return;
    };
    let mut world = World::new(Vec::new(), vec![arm, hand]);
    let (arm, hand) = (RobotId::from_index(0), RobotId::from_index(1));
    let connection = Connection {
        parent_robot: arm,
        parent_chain: 0,
        child_robot: hand,
        mount: None,
        offset: Pose::translation(0.0, 0.0, 175.0),
    };
    world.connect(connection, None).unwrap();
    let mut random = SplitMix64::new(7);
    let mut largest: f64 = 0.0;
    for _ in 0..POSTURES {
        for id in [arm, hand] {
            let values = posture(world.robot(id).unwrap(), &mut random);
            world.set_dof_values(id, &values).unwrap();
        }
        // The hand stands where the arm carries it.
        for id in [arm, hand] {
            let robot = world.robot(id).unwrap();
            largest = largest.max(worst(&robot.link_jacobians(), &by_differences(robot)));
        }
    }
    println!("Puma560 + Barrett: largest difference {largest:.2e} of a column");
    assert!(largest < 1e-6, "{largest}");
}

#[test]
fn a_joint_held_in_breakaway_moves_with_its_dof_no_more() {
    let Some(mut barrett) = robot("Barrett/Barrett.xml") else {
        return;
    };
    // DOF 1 closes finger 1's two joints together; the first broke away at 0.8 and the DOF
    // went on to 1.0: the first stays, the second follows.
    let mut values = barrett.dof_values().to_vec();
    values[1] = 1.0;
    barrett.set_dof_values(&values).unwrap();
    let joints = barrett.dof_joints(1);
    assert_eq!(joints.len(), 2, "{joints:?}");
    barrett.set_breakaway(1, &[Some(0.8), None]).unwrap();
    let analytic = barrett.link_jacobians();
    assert!(worst(&analytic, &by_differences(&barrett)) < 1e-6);
    // Each link of that chain, by the joint that carries it: one carried by the held joint
    // (and those before it) no longer moves with DOF 1; one past the following joint does.
    let (chain, held) = joints[0];
    let first = barrett.chains()[..chain]
        .iter()
        .map(|c| c.links.len())
        .sum::<usize>();
    for (k, link) in barrett.chains()[chain].links.iter().enumerate() {
        let column = analytic[first + k].angular.column(1).norm();
        match link.frame {
            Some(j) if j >= joints[1].1 => assert!(column > 0.1, "link {k}: {column}"),
            Some(j) if j >= held => assert!(column == 0.0, "link {k}: {column}"),
            _ => {}
        }
    }
}
