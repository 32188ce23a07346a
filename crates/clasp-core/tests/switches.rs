//! Toggle Collision with GraspIt's semantics (gui-notes §1.6), the button's state, robots' own
//! collision rules, and clone domains.

use std::sync::Arc;

mod common;

use clasp_core::{BodyId, CollisionRule, Domain, Element, Pose, Robot, RobotBody, RobotId, World};
use common::{body, cube, hand};
use rayon::prelude::*;

/// Bodies A, B, C (A and B touching) and the hand, far from them.
fn world() -> World {
    let mut hand = hand();
    hand.set_pose(Pose::translation(0.0, 0.0, 200.0));
    World::new(
        vec![
            body("A", cube(5.0), [0.0, 0.0, 0.0]),
            body("B", cube(5.0), [10.05, 0.0, 0.0]),
            body("C", cube(5.0), [0.0, 50.0, 0.0]),
        ],
        vec![hand],
    )
}

const A: Element = Element::Body(0);
const B: Element = Element::Body(1);
const C: Element = Element::Body(2);
const HAND: Element = Element::Robot(RobotId::from_index(0));

fn checked(world: &World, a: BodyId, b: BodyId) -> bool {
    world.checked_pairs().contains(&(a.min(b), a.max(b)))
}

const PALM: BodyId = BodyId::Palm {
    robot: RobotId::from_index(0),
};
const BA: BodyId = BodyId::Free(0);
const BB: BodyId = BodyId::Free(1);
const BC: BodyId = BodyId::Free(2);

#[test]
fn nothing_selected_switches_the_whole_world() {
    let mut world = world();
    assert!(world.collisions_on(&[]));
    assert!(!world.contacts().is_empty());
    assert!(!world.toggle_collisions(&[]));
    assert!(!world.collisions_on(&[]));
    assert!(world.checked_pairs().is_empty());
    assert!(world.contacts().is_empty(), "contacts go with the switch");
    // A body's own button still reads its own switch.
    assert!(world.collisions_on(&[A]));
    assert!(world.toggle_collisions(&[]));
    assert!(checked(&world, BA, BB) && !world.contacts().is_empty());
}

#[test]
fn one_element_is_switched_against_everything() {
    let mut world = world();
    assert!(!world.toggle_collisions(&[A]));
    assert!(!world.collisions_on(&[A]));
    assert!(world.collisions_on(&[]) && world.collisions_on(&[B]));
    assert!(!checked(&world, BA, BB) && !checked(&world, BA, BC) && !checked(&world, BA, PALM));
    assert!(checked(&world, BB, BC));
    assert!(world.contacts().is_empty());
    // The robot is one element: all its bodies go off together.
    world.toggle_collisions(&[HAND]);
    assert!(!world.collisions_on(&[HAND]));
    for id in world.element_bodies(HAND) {
        assert!(
            !checked(&world, id, BB) && !checked(&world, id, BC),
            "{id:?}"
        );
    }
    assert!(world.toggle_collisions(&[HAND]));
    assert!(checked(&world, PALM, BB));
}

#[test]
fn two_elements_switch_that_pair_only() {
    let mut world = world();
    assert!(world.collisions_on(&[A, B]));
    assert!(!world.toggle_collisions(&[A, B]));
    assert!(!world.collisions_on(&[A, B]) && !world.collisions_on(&[B, A]));
    assert!(world.collisions_on(&[A]) && world.collisions_on(&[A, C]));
    assert!(!checked(&world, BA, BB) && checked(&world, BA, BC) && checked(&world, BB, BC));
    assert!(
        world.contacts().is_empty(),
        "A and B touched; that pair is off"
    );
    // A body and a robot: every pair of the body with the robot's bodies.
    world.toggle_collisions(&[C, HAND]);
    for id in world.element_bodies(HAND) {
        assert!(
            !checked(&world, BC, id) && checked(&world, BA, id),
            "{id:?}"
        );
    }
    assert!(!world.collisions_on(&[HAND, C]));
    assert!(world.toggle_collisions(&[A, B]));
    assert!(checked(&world, BA, BB) && !world.contacts().is_empty());
}

#[test]
fn three_or_more_switch_each_and_the_button_is_off_only_when_all_are() {
    let mut world = world();
    world.toggle_collisions(&[A]);
    // A is off, B and C are on: the button reads on, and pressing it turns all three off.
    assert!(world.collisions_on(&[A, B, C]));
    assert!(!world.toggle_collisions(&[A, B, C]));
    for e in [A, B, C] {
        assert!(!world.collisions_on(&[e]));
    }
    assert!(world.collisions_on(&[HAND]));
    assert!(
        world.collisions_on(&[A, B, C, HAND]),
        "the hand is still on"
    );
    assert!(world.toggle_collisions(&[A, B, C]));
    assert!(checked(&world, BA, BB) && checked(&world, BA, BC));
}

#[test]
fn a_robots_own_links_follow_its_rules() {
    let mut world = world();
    let link = |chain, link| BodyId::Link {
        robot: RobotId::from_index(0),
        chain,
        link,
    };
    // Within a chain, and the palm with each chain's first link: never.
    assert!(!checked(&world, link(0, 0), link(0, 1)));
    assert!(!checked(&world, PALM, link(0, 0)) && !checked(&world, PALM, link(1, 0)));
    // Across chains, and the palm with a distal link: yes.
    assert!(checked(&world, link(0, 1), link(1, 1)) && checked(&world, PALM, link(1, 1)));
    // A file's disableCollision rule.
    let ruled = hand().with_collision_rules(vec![CollisionRule::Pair(
        RobotBody::Link { chain: 0, link: 1 },
        RobotBody::Link { chain: 1, link: 1 },
    )]);
    world.remove_element(HAND).unwrap();
    let ruled = world.add_robot(ruled);
    let link = |chain, link| BodyId::Link {
        robot: ruled,
        chain,
        link,
    };
    assert!(!checked(&world, link(0, 1), link(1, 1)));
    // Closing the fingers toward each other stops them at contact with each other.
    let mut world = World::new(Vec::new(), vec![hand()]);
    let outcome = world
        .move_dofs_to(RobotId::from_index(0), &[-1.2, 1.2])
        .unwrap();
    assert!(!outcome.completed, "{outcome:?}");
    let values = world
        .robot(RobotId::from_index(0))
        .unwrap()
        .dof_values()
        .to_vec();
    assert!(values[0] > -1.2 && values[1] < 1.2, "{values:?}");
    assert!(world.contacts().iter().any(|c| c.is_self_collision));
    let own: Vec<_> = world
        .contacts()
        .iter()
        .filter(|c| c.is_self_collision)
        .collect();
    assert_eq!(
        own.iter().filter(|c| c.skip).count() * 2,
        own.len(),
        "each counted once"
    );
    assert!(own.iter().all(|c| c.local_index.is_some()));
    common::check_contact_api(world.contacts(), "fingers closed on each other");
    // An impossible DOF value changes nothing.
    assert!(
        world
            .move_dofs_to(RobotId::from_index(0), &[f64::NAN, 0.0])
            .is_err()
    );
    assert!(
        world
            .move_dofs_to(RobotId::from_index(0), &[3.0, 0.0])
            .is_err()
    );
    assert_eq!(
        world.robot(RobotId::from_index(0)).unwrap().dof_values(),
        values.as_slice()
    );
}

#[test]
fn clones_in_their_own_domains_share_geometry_and_see_only_the_shared_scene() {
    let mut world = world();
    world
        .set_pose(HAND, Pose::translation(-60.0, 0.0, 0.0))
        .unwrap();
    let world = world;
    let mut clones = world.clone_domains(RobotId::from_index(0), 8).unwrap();
    let palm = &world
        .robot(RobotId::from_index(0))
        .unwrap()
        .palm()
        .geometry();
    // Each clone is its domain's own robot, numbered after the world's; the original is hidden.
    let clone_hand = RobotId::from_index(1);
    assert!(
        clones
            .iter()
            .all(|c| c.robot(RobotId::from_index(0)).is_none())
    );
    assert!(
        clones
            .iter()
            .all(|c| Arc::ptr_eq(c.robot(clone_hand).unwrap().palm().geometry(), palm))
    );
    assert!(
        clones[0].move_to(HAND, Pose::identity()).is_err(),
        "the world's robot stays put"
    );
    // Every clone at the same pose moves toward A at once; none meets another clone.
    let outcomes: Vec<_> = clones
        .par_iter_mut()
        .map(|clone| {
            clone
                .move_to(Element::Robot(clone_hand), Pose::translation(0.0, 0.0, 0.0))
                .unwrap()
        })
        .collect();
    for (clone, outcome) in clones.iter().zip(&outcomes) {
        assert!(!outcome.completed);
        assert!(
            outcome.stopped_by.iter().all(|&(_, b)| b == BA),
            "{outcome:?}"
        );
        let pose = |d: &Domain| d.robot(clone_hand).unwrap().pose();
        assert_eq!(pose(clone), pose(&clones[0]));
        assert!(
            clone
                .contacts()
                .iter()
                .all(|c| c.body == BA || c.other == BA)
        );
    }
    // The world itself did not move.
    assert_eq!(
        world.robot(RobotId::from_index(0)).unwrap().pose(),
        Pose::translation(-60.0, 0.0, 0.0)
    );
}

#[test]
fn removing_a_body_renumbers_nothing_and_keeps_the_others_switches() {
    let mut world = world();
    world.toggle_collisions(&[B, C]); // the pair B–C off
    world.toggle_collisions(&[C]); // C off against everything
    world.remove_element(A).unwrap();
    assert_eq!(world.free_bodies().count(), 2);
    assert!(world.free_body(0).is_none(), "A's id names nothing now");
    assert_eq!(world.free_body(1).unwrap().name, "B", "B keeps its id");
    assert!(!world.switches().pair_on(BB, BC), "B–C stays off");
    assert!(!world.switches().body_on(BC), "C stays off");
    assert!(world.switches().body_on(BB));
    assert!(
        world
            .contacts()
            .iter()
            .all(|x| x.body != BA && x.other != BA)
    );
    assert!(world.remove_element(A).is_err(), "an id is removed once");
    assert!(world.remove_element(Element::Body(5)).is_err());
    let id = world.add_body(body("D", cube(5.0), [0.0, 10.05, 0.0]));
    assert_eq!(id, BodyId::Free(3), "a removed id is never given again");
}

#[test]
fn removing_a_robot_forgets_its_switches_and_adding_one_returns_its_index() {
    let mut world = world();
    world.toggle_collisions(&[HAND]);
    assert!(!world.switches().body_on(PALM));
    let hand = world.robot(RobotId::from_index(0)).unwrap().clone();
    world.remove_element(HAND).unwrap();
    assert_eq!(world.robots().count(), 0);
    assert!(
        world.switches().body_on(PALM),
        "the removed hand's switch is gone"
    );
    assert_eq!(world.add_robot(hand), RobotId::from_index(1));
    let id = world.add_body(body("D", cube(5.0), [0.0, 10.05, 0.0]));
    assert_eq!(id, BodyId::Free(3));
    assert!(
        world.contacts_of(id).next().is_some(),
        "the added body touches A at once"
    );
}

#[test]
fn joint_axes_are_where_the_links_turn() {
    let mut hand = hand();
    hand.set_pose(Pose::translation(3.0, -4.0, 50.0));
    let axes = hand.joint_axes(0);
    assert_eq!(axes.len(), 2);
    // The first joint turns about z at the chain's base, 5 mm along x from the palm and 10 along y.
    let (at, axis) = axes[0];
    assert!((axis.into_inner() - nalgebra::Vector3::z()).norm() < 1e-12);
    assert!((at - nalgebra::Point3::new(8.0, 6.0, 50.0)).norm() < 1e-12);
    // Turning DOF 0 keeps the proximal link (carried by the first joint alone) at its distance
    // from the first axis, and moves it.
    let proximal = RobotBody::Link { chain: 0, link: 0 };
    let tip = |robot: &Robot| robot.body(proximal).unwrap().pose() * nalgebra::Point3::origin();
    let start = tip(&hand);
    let before = (tip(&hand) - at).norm();
    hand.set_dof_values(&[0.7, 0.0]).unwrap();
    assert!(((tip(&hand) - at).norm() - before).abs() < 1e-9);
    assert!((tip(&hand) - start).norm() > 1.0);
    assert!(hand.joint_axes(7).is_empty());
    assert!(
        hand.dof_is_revolute(0) && hand.dof_is_revolute(1),
        "both fingers turn"
    );
}
