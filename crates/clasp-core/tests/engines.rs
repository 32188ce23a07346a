//! One world on two engines: the fast tree-based engine (the default) and the brute-force
//! reference engine give the same moves, contacts and grasps.

mod common;

use clasp_core::{
    BodyId, BodyKind, Contact, ContactOptions, Element, FastEngine, Pose, ReferenceEngine, RobotId,
    World, WrenchSpaceKind,
};
use common::{body, check_contact_api, cube, hand};

/// A cube above an obstacle slab, to lower between the hand's open fingers.
fn scene() -> World {
    let mut hand = hand();
    hand.set_pose(Pose::translation(-40.0, 0.0, 0.0));
    let object = body("object", cube(6.0), [-10.0, 0.0, 10.0]);
    let slab = clasp_core::Body::from_mesh(
        "slab",
        BodyKind::Obstacle,
        clasp_collide::shapes::cuboid([-60.0, -60.0, -30.0], [60.0, 60.0, -10.0]),
    );
    World::new(vec![object, slab], vec![hand])
}

/// The contacts' pairs and how many each has.
fn pairs(contacts: &[Contact]) -> Vec<(BodyId, BodyId, usize)> {
    let mut found: Vec<(BodyId, BodyId, usize)> = Vec::new();
    for c in contacts {
        match found.last_mut() {
            Some((b, o, n)) if (*b, *o) == (c.body, c.other) => *n += 1,
            _ => found.push((c.body, c.other, 1)),
        }
    }
    found
}

fn poses_agree(a: Pose, b: Pose, threshold: f64, what: &str) {
    let apart = (a.translation.vector - b.translation.vector).norm();
    assert!(apart < threshold, "{what}: {apart} mm apart");
    assert!(a.rotation.angle_to(&b.rotation) < 1e-6, "{what}");
}

#[test]
fn moves_contacts_and_grasps_agree_on_both_engines() {
    let mut fast: World<FastEngine> = scene();
    let mut reference: World<ReferenceEngine> = scene().on_engine(ReferenceEngine);
    let threshold = fast.settings().contact_threshold;
    assert_eq!(fast.checked_pairs(), reference.checked_pairs());

    // The object moved down onto the slab stops at contact on both.
    let down = Pose::translation(-10.0, 0.0, -20.0);
    let a = fast.move_to(Element::Body(0), down).unwrap();
    let b = reference.move_to(Element::Body(0), down).unwrap();
    assert_eq!(a, b);
    assert!(!a.completed);
    let on_slab = fast.free_body(0).unwrap().pose();
    assert!((on_slab.translation.z + 4.0).abs() < threshold, "{on_slab}");
    poses_agree(
        on_slab,
        reference.free_body(0).unwrap().pose(),
        threshold,
        "object on the slab",
    );

    // The fingers close on the object: the same stops, DOFs and contacts.
    let closed = [-1.2, 1.2];
    let a = fast.move_dofs_to(RobotId::from_index(0), &closed).unwrap();
    let b = reference
        .move_dofs_to(RobotId::from_index(0), &closed)
        .unwrap();
    assert_eq!(a.stopped_by, b.stopped_by);
    assert!(
        a.stopped_by
            .iter()
            .any(|&(_, other)| other == BodyId::Free(0)),
        "the fingers close on the object: {a:?}"
    );
    let (da, db) = (
        fast.robot(RobotId::from_index(0)).unwrap().dof_values(),
        reference
            .robot(RobotId::from_index(0))
            .unwrap()
            .dof_values(),
    );
    for (x, y) in da.iter().zip(db) {
        assert!((x - y).abs() < 1e-3, "DOFs {da:?} vs {db:?}");
    }
    assert_eq!(pairs(fast.contacts()), pairs(reference.contacts()));
    check_contact_api(fast.contacts(), "fast");
    check_contact_api(reference.contacts(), "reference");

    // And the grasp's quality.
    let options = ContactOptions::default();
    let object = BodyId::Free(0);
    let qa = fast
        .grasp(RobotId::from_index(0), object, &options)
        .unwrap();
    let qb = reference
        .grasp(RobotId::from_index(0), object, &options)
        .unwrap();
    assert_eq!(qa.contacts.len(), qb.contacts.len());
    assert!(!qa.contacts.is_empty());
    let (ea, eb) = (
        qa.quality(WrenchSpaceKind::L1).unwrap(),
        qb.quality(WrenchSpaceKind::L1).unwrap(),
    );
    assert_eq!(ea.force_closure, eb.force_closure);
    match (ea.epsilon, eb.epsilon) {
        (Some(x), Some(y)) => assert!((x - y).abs() < 1e-3 * x.max(1e-3), "{x} vs {y}"),
        (x, y) => assert_eq!(x, y),
    }
}
