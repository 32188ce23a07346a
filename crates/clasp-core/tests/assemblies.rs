//! Robots mounted on robots: where a carried robot stands, what its carrier's moves do to it,
//! and which mounts are refused.

mod common;

use clasp_core::{BodyId, BodyKind, Connection, Element, MoveError, Pose, RobotId, World};
use common::{body, cube, hand};

const ARM: RobotId = RobotId::from_index(0);
const CARRIED: RobotId = RobotId::from_index(1);

fn offset() -> Pose {
    Pose::translation(30.0, 0.0, 0.0)
}

/// Two of the test hands, the second mounted 30 mm beyond the end of the first's chain 0 on
/// a cube for a mount piece.
fn mounted() -> World {
    let mut second = hand();
    second.set_pose(Pose::translation(0.0, 300.0, 0.0));
    let mut world = World::new(Vec::new(), vec![hand(), second]);
    let mount = body("mount", cube(4.0), [0.0; 3]);
    let connection = Connection {
        parent_robot: ARM,
        parent_chain: 0,
        child_robot: CARRIED,
        mount: None,
        offset: offset(),
    };
    world.connect(connection, Some(mount)).unwrap();
    world
}

fn assert_on_the_chain_end(world: &World) {
    let end = world.robot(ARM).unwrap().chain_end(0).unwrap();
    let palm = world.robot(CARRIED).unwrap().pose();
    let want = end * offset();
    assert!((palm.translation.vector - want.translation.vector).norm() < 1e-9);
    assert!(palm.rotation.angle_to(&want.rotation) < 1e-9);
    assert_eq!(world.robot(CARRIED).unwrap().mount().unwrap().pose(), palm);
}

#[test]
fn a_mounted_robot_stands_on_its_carriers_chain_end_with_its_mount_piece() {
    let world = mounted();
    assert_on_the_chain_end(&world);
    assert_eq!(world.carrier(CARRIED).unwrap().parent_robot, ARM);
    assert_eq!(world.assembly_root(CARRIED), ARM);
    assert_eq!(world.carried(ARM), [CARRIED]);
    let mount = BodyId::Mount { robot: CARRIED };
    assert_eq!(world.body(mount).unwrap().kind, BodyKind::Graspable);
    assert!(world.body_ids().contains(&mount));
    // GraspIt's rules: the chain's last link meets neither the palm nor the mount piece, and
    // the mount piece does not meet the palm it is fixed to.
    let last = BodyId::Link {
        robot: ARM,
        chain: 0,
        link: 1,
    };
    let palm = BodyId::Palm { robot: CARRIED };
    let checked = world.checked_pairs();
    for pair in [(last, palm), (last, mount), (palm, mount)] {
        assert!(
            !checked.contains(&pair) && !checked.contains(&(pair.1, pair.0)),
            "{pair:?}"
        );
    }
    assert!(world.overlapping_pairs().is_empty());
}

#[test]
fn the_carriers_dof_moves_carry_the_robot_and_stop_when_it_touches() {
    let mut world = mounted();
    // Free space: the chain turns (both its joints by the DOF), the carried robot with it.
    assert!(world.move_dofs_to(ARM, &[0.3, 0.0]).unwrap().completed);
    assert_on_the_chain_end(&world);
    assert!((world.robot(CARRIED).unwrap().pose().rotation.angle() - 0.6).abs() < 1e-9);
    // An obstacle in the carried robot's way stops the chain carrying it; the other finger
    // of the carrier goes on.
    world.move_dofs_to(ARM, &[0.0, 0.0]).unwrap();
    let end = world.robot(CARRIED).unwrap().pose().translation.vector;
    let obstacle = world.add_body(body("post", cube(5.0), [end.x - 10.0, end.y + 50.0, 0.0]));
    let outcome = world.move_dofs_to(ARM, &[1.2, 0.2]).unwrap();
    assert!(!outcome.completed);
    assert!(
        outcome
            .stopped_by
            .iter()
            .all(|&(a, b)| a.robot() == Some(CARRIED) && b == obstacle),
        "{:?}",
        outcome.stopped_by
    );
    let dofs = world.robot(ARM).unwrap().dof_values().to_vec();
    assert!(
        dofs[0] > 0.05 && dofs[0] < 1.2,
        "the chain stopped at {}",
        dofs[0]
    );
    assert!((dofs[1] - 0.2).abs() < 1e-12, "the other finger went on");
    assert_on_the_chain_end(&world);
    assert!(world.overlapping_pairs().is_empty());
    assert!(
        world
            .contacts_of(obstacle)
            .any(|c| c.other.robot() == Some(CARRIED))
    );
}

#[test]
fn moving_the_carrier_moves_the_assembly_and_the_carried_robot_alone_is_refused() {
    let mut world = mounted();
    let target = Pose::translation(0.0, 0.0, 50.0);
    assert!(
        world
            .move_to(Element::Robot(ARM), target)
            .unwrap()
            .completed
    );
    assert_on_the_chain_end(&world);
    let refused = world.move_to(Element::Robot(CARRIED), Pose::identity());
    assert_eq!(
        refused,
        Err(MoveError::Carried {
            robot: CARRIED,
            by: ARM
        })
    );
    assert_eq!(
        world.assembly_of(Element::Robot(CARRIED)),
        Element::Robot(ARM)
    );
    assert_eq!(world.element_bodies(Element::Robot(ARM)).len(), 5 + 6);
    // The carried robot's own DOFs still move.
    assert!(world.move_dofs_to(CARRIED, &[0.1, -0.1]).unwrap().completed);
    assert_on_the_chain_end(&world);
}

#[test]
fn impossible_mounts_are_refused_and_change_nothing() {
    let mut world = mounted();
    let mut connect = |parent, chain, child| {
        let connection = Connection {
            parent_robot: parent,
            parent_chain: chain,
            child_robot: child,
            mount: None,
            offset: Pose::identity(),
        };
        world.connect(connection, None)
    };
    assert!(
        matches!(
            connect(CARRIED, 0, ARM),
            Err(MoveError::BadConnection { .. })
        ),
        "a circle"
    );
    assert!(
        matches!(
            connect(ARM, 1, CARRIED),
            Err(MoveError::BadConnection { .. })
        ),
        "twice"
    );
    assert!(
        matches!(
            connect(ARM, 7, CARRIED),
            Err(MoveError::BadConnection { .. })
        ),
        "no chain"
    );
    assert!(
        matches!(connect(ARM, 0, ARM), Err(MoveError::BadConnection { .. })),
        "itself"
    );
    let nobody = RobotId::from_index(9);
    assert_eq!(connect(ARM, 0, nobody), Err(MoveError::NoSuchRobot(nobody)));
    assert_eq!(world.connections().len(), 1);
}

#[test]
fn removing_the_carrier_leaves_the_carried_robot_free_without_its_mount() {
    let mut world = mounted();
    let palm = world.robot(CARRIED).unwrap().pose();
    world.remove_element(Element::Robot(ARM)).unwrap();
    assert!(world.connections().is_empty());
    let robot = world.robot(CARRIED).unwrap();
    assert_eq!(robot.pose(), palm);
    assert!(robot.mount().is_none());
    assert!(
        world
            .move_to(Element::Robot(CARRIED), Pose::identity())
            .is_ok()
    );
}
