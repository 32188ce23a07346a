//! Domains after GraspIt's threads: the shared world is domain 0; each domain holds robots and
//! bodies of its own, which meet the world and each other but never another domain's. Grasps
//! run in parallel domains give exactly what the same grasp gives alone.

mod common;

use clasp_core::{BodyId, BodyKind, Element, Pose, Robot, RobotId, World};
use common::{body, check_contact_api, cube, hand};
use rayon::prelude::*;

/// A cube on a slab: the shared scene.
fn scene() -> (Vec<clasp_core::Body>, World) {
    let object = body("object", cube(6.0), [-10.0, 0.0, -4.0 + 0.04]);
    let slab = clasp_core::Body::from_mesh(
        "slab",
        BodyKind::Obstacle,
        clasp_collide::shapes::cuboid([-60.0, -60.0, -30.0], [60.0, 60.0, -10.0]),
    );
    let bodies = vec![object, slab];
    (bodies.clone(), World::new(bodies, Vec::new()))
}

/// The hand `k`-th of several: all at the same place around the object, turned a little.
fn placed_hand(k: usize) -> Robot {
    let mut hand = hand();
    let turn =
        nalgebra::UnitQuaternion::from_axis_angle(&nalgebra::Vector3::z_axis(), 0.01 * k as f64);
    hand.set_pose(Pose::from_parts(
        nalgebra::Translation3::new(-40.0, 0.0, 0.0),
        turn,
    ));
    hand
}

/// Where the hand touches the object, from the object's side.
fn hand_contacts(contacts: &[clasp_core::Contact]) -> Vec<nalgebra::Point3<f64>> {
    contacts
        .iter()
        .filter(|c| c.body == BodyId::Free(0) && c.other.robot().is_some())
        .map(|c| c.point)
        .collect()
}

#[test]
fn domains_grasp_in_parallel_exactly_as_alone_and_never_meet() {
    let (bodies, world) = scene();
    let count = 8;
    let mut domains: Vec<_> = (1..=count)
        .map(|k| {
            let mut domain = world.domain(k as u32).unwrap();
            let hand = domain.add_robot(placed_hand(k));
            assert_eq!(hand.index(), 0, "numbered after the world's robots (none)");
            domain
        })
        .collect();
    // All eight hands overlap each other in space, yet no domain sees another's.
    let closed = [-1.2, 1.2];
    let endings: Vec<(Vec<f64>, Vec<_>)> = domains
        .par_iter_mut()
        .map(|domain| {
            domain
                .move_dofs_to(RobotId::from_index(0), &closed)
                .unwrap();
            check_contact_api(domain.contacts(), "domain");
            let dofs = domain
                .robot(RobotId::from_index(0))
                .unwrap()
                .dof_values()
                .to_vec();
            (dofs, hand_contacts(domain.contacts()))
        })
        .collect();
    for (k, (dofs, points)) in endings.iter().enumerate() {
        assert!(!points.is_empty(), "domain {} grasps the object", k + 1);
        let mut alone = World::new(bodies.clone(), vec![placed_hand(k + 1)]);
        alone.move_dofs_to(RobotId::from_index(0), &closed).unwrap();
        let alone_dofs = alone.robot(RobotId::from_index(0)).unwrap().dof_values();
        assert_eq!(dofs, alone_dofs, "domain {} and alone", k + 1);
        assert_eq!(
            points,
            &hand_contacts(alone.contacts()),
            "domain {} and alone",
            k + 1
        );
    }
    // The world never moved, and holds no contact of a domain's hand.
    assert_eq!(world.robots().count(), 0);
    assert!(world.contacts().iter().all(|c| c.body.robot().is_none()));
}

#[test]
fn a_domains_own_bodies_meet_its_robots_and_the_world_and_domain_zero_is_refused() {
    let (_, world) = scene();
    assert!(world.domain(0).is_err());
    let mut domain = world.domain(3).unwrap();
    let hand = domain.add_robot(placed_hand(0));
    // A second cube of the domain's own, in the hand's way.
    let block = domain.add_body(body("block", cube(3.0), [-10.0, 30.0, 0.0]));
    assert_eq!(block, BodyId::Free(2), "numbered after the world's bodies");
    assert_eq!(domain.body(block).unwrap().name, "block");
    assert_eq!(domain.body(BodyId::Free(0)).unwrap().name, "object");
    // The block moved down meets the world's slab.
    let outcome = domain
        .move_to(Element::Body(2), Pose::translation(-10.0, 30.0, -40.0))
        .unwrap();
    assert!(!outcome.completed && outcome.stopped_by == [(block, BodyId::Free(1))]);
    // The world's bodies are not the domain's to move.
    assert!(domain.move_to(Element::Body(0), Pose::identity()).is_err());
    assert!(
        domain
            .auto_grasp(RobotId::from_index(hand.index() + 1))
            .is_err()
    );
    check_contact_api(domain.contacts(), "own bodies");
}

/// A batch of grasp candidates round the object, tried in parallel, gives what each candidate
/// gives tried alone in the world, to the bit; the same seed gives the same candidates.
#[test]
fn a_grasp_batch_equals_its_grasps_one_by_one() {
    let (_, mut world) = scene();
    let robot = world.add_robot(placed_hand(0));
    let object = BodyId::Free(0);
    let hand = world.robot(robot).unwrap().clone();
    let candidates = clasp_core::grasp_candidates(&world, &hand, object, 12, 7).unwrap();
    assert_eq!(
        candidates,
        clasp_core::grasp_candidates(&world, &hand, object, 12, 7).unwrap()
    );
    assert_ne!(
        candidates,
        clasp_core::grasp_candidates(&world, &hand, object, 12, 8).unwrap()
    );
    let quality = clasp_core::BatchQuality::default();
    let batch = world
        .grasp_batch(robot, object, &candidates, quality)
        .unwrap();
    assert_eq!(batch.len(), 12);
    let mut touched = 0;
    for (candidate, grasp) in candidates.iter().zip(&batch) {
        let mut alone = world.clone();
        alone
            .set_pose(Element::Robot(robot), candidate.palm)
            .unwrap();
        alone.set_dof_values(robot, &candidate.dofs).unwrap();
        alone
            .approach_to_contact(robot, candidate.approach)
            .unwrap();
        alone.close_on(robot, object).unwrap();
        let r = alone.robot(robot).unwrap();
        assert_eq!(grasp.trial.palm, r.pose());
        assert_eq!(grasp.trial.dof_values, r.dof_values());
        let on_object: Vec<_> = alone
            .contacts_of(object)
            .filter(|c| c.other.robot() == Some(robot))
            .map(|c| c.point)
            .collect();
        let batch_points: Vec<_> = grasp.trial.contacts.iter().map(|c| c.point).collect();
        assert_eq!(batch_points, on_object);
        touched += usize::from(!on_object.is_empty());
        assert!(grasp.seconds > 0.0);

        // The grasp put back in the world is the hand the trial left.
        let mut put = world.clone();
        put.put_grasp(robot, &grasp.trial).unwrap();
        let r_put = put.robot(robot).unwrap();
        assert_eq!(
            (r_put.pose(), r_put.dof_values()),
            (r.pose(), r.dof_values())
        );
        assert_eq!(r_put.breakaway_states(), r.breakaway_states());
    }
    assert!(touched > 0, "some candidates reach the object");
}

/// A grasp that cannot be put in place (a DOF value beyond its limit) is refused and leaves
/// the robot where it was, palm included.
#[test]
fn a_grasp_refused_changes_nothing() {
    let (_, mut world) = scene();
    let robot = world.add_robot(placed_hand(0));
    let before = world.robot(robot).unwrap().clone();
    let mut trial = clasp_core::GraspTrial {
        palm: Pose::translation(5.0, 6.0, 7.0),
        dof_values: vec![1.0e3; before.dofs.len()],
        breakaway: Vec::new(),
        contacts: Vec::new(),
        quality: None,
    };
    assert!(world.put_grasp(robot, &trial).is_err());
    assert_eq!(world.robot(robot).unwrap().pose(), before.pose());
    assert_eq!(
        world.robot(robot).unwrap().dof_values(),
        before.dof_values()
    );
    trial.dof_values = before.dof_values().to_vec();
    world.put_grasp(robot, &trial).unwrap();
    assert_eq!(world.robot(robot).unwrap().pose(), trial.palm);
}

/// A robot cloned into a domain stands in for its original under the user's switches: with
/// the hand's collisions with the slab switched off in the world, the clone passes through
/// the slab as the original does; switched on, both stop on it.
#[test]
fn a_clone_obeys_its_originals_collision_switches() {
    let (bodies, _) = scene();
    let mut hand = placed_hand(0);
    hand.set_pose(Pose::translation(-40.0, 40.0, 0.0));
    let mut world = World::new(bodies, vec![hand]);
    let down = Pose::translation(-40.0, 40.0, -50.0);
    let through = |world: &World| {
        let mut alone = world.clone();
        let in_world = alone
            .move_to(Element::Robot(RobotId::from_index(0)), down)
            .unwrap();
        let mut domain = world.domain(1).unwrap();
        let clone = domain.clone_robot(RobotId::from_index(0)).unwrap();
        let in_domain = domain.move_to(Element::Robot(clone), down).unwrap();
        (in_world.completed, in_domain.completed)
    };
    assert_eq!(through(&world), (false, false), "the slab stops both");
    assert!(!world.toggle_collisions(&[Element::Robot(RobotId::from_index(0)), Element::Body(1)]));
    assert_eq!(
        through(&world),
        (true, true),
        "the switch lets both through"
    );
}

#[test]
fn a_domain_steps_its_own_copy_of_a_body_under_its_own_gravity_and_the_world_stays() {
    // The cube 6 mm above the slab in the world; each domain drops its own copy of it.
    let mut world = World::new(
        vec![
            body("object", cube(6.0), [0.0, 0.0, 2.0]),
            clasp_core::Body::from_mesh(
                "slab",
                BodyKind::Obstacle,
                clasp_collide::shapes::cuboid([-60.0, -60.0, -30.0], [60.0, 60.0, -10.0]),
            ),
        ],
        Vec::new(),
    );
    world.set_gravity(nalgebra::Vector3::zeros()).unwrap();
    let start = world.body(BodyId::Free(0)).unwrap().pose();
    let alone = {
        let mut alone = world.clone();
        alone
            .set_gravity(nalgebra::Vector3::new(0.0, 0.0, -9810.0))
            .unwrap();
        alone.simulate(0.3).unwrap();
        alone.body(BodyId::Free(0)).unwrap().pose()
    };
    let mut falling = world.domain(1).unwrap();
    let copy = falling.clone_body(BodyId::Free(0)).unwrap();
    assert_eq!(copy, BodyId::Free(2), "numbered after the world's bodies");
    falling
        .set_gravity(nalgebra::Vector3::new(0.0, 0.0, -9810.0))
        .unwrap();
    // The original is hidden from the domain: the copy falls through where it stood.
    assert!(falling.body(BodyId::Free(0)).is_none());
    assert_eq!(falling.simulate(0.3).unwrap(), 300);
    let landed = falling.body(copy).unwrap();
    // As the world alone would have it (to rounding: in the domain the slab is the pair's
    // first body), on the slab, resting, the step's contacts its own.
    let (pose, apart) = (landed.pose(), alone.inverse() * landed.pose());
    assert!(
        apart.translation.vector.norm() < 1e-6 && apart.rotation.angle() < 1e-9,
        "{pose:?} vs {alone:?}"
    );
    assert!((landed.world_cog().z + 4.0).abs() < 0.1 && landed.velocity().linear.norm() < 1.0);
    let on_slab: Vec<_> = falling
        .contacts_of(copy)
        .filter(|c| c.other == BodyId::Free(1))
        .collect();
    assert!(on_slab.len() >= 3);
    assert!(on_slab.iter().all(|c| c.index_in_contact_problem.is_some()));
    // A domain with no gravity of its own takes the world's: nothing moves.
    let mut floating = world.domain(2).unwrap();
    let still = floating.clone_body(BodyId::Free(0)).unwrap();
    floating.simulate(0.1).unwrap();
    assert_eq!(floating.body(still).unwrap().pose(), start);
    assert!(
        falling
            .set_gravity(nalgebra::Vector3::new(f64::NAN, 0.0, 0.0))
            .is_err()
    );
    // The world itself never moved.
    assert_eq!(world.body(BodyId::Free(0)).unwrap().pose(), start);
    world.step().unwrap();
    assert_eq!(world.body(BodyId::Free(0)).unwrap().pose(), start);
}
