//! A hand's contacts on an object as point and soft contacts, checked against the closed forms
//! of the contact models (graspit-spec §4.3–4.4), and the quality of what they push.

use clasp_collide::shapes;
use clasp_core::{
    Body, BodyId, BodyKind, ContactModel, ContactOptions, Pose, Robot, RobotId, TriMesh, World,
    WrenchSpaceKind, soft,
};

const SOFT: f64 = 1.5e6;

fn sphere(radius: f64) -> TriMesh {
    shapes::bumpy_sphere(radius, 4, |_| 0.0)
}

/// A robot that is only a palm: `shape` with the hand's pose.
fn palm_robot(shape: TriMesh, pose: Pose) -> Robot {
    let palm = Body::from_mesh("palm", BodyKind::Palm, shape);
    let mut robot = Robot::new("paddle".into(), palm, vec![], vec![], None);
    robot.set_pose(pose);
    robot
}

/// An object and the hand, the world's contacts found (`World::new` finds them).
fn world(object: Body, hand: Robot) -> World {
    World::new(vec![object], vec![hand])
}

fn object(shape: TriMesh, at: [f64; 3], youngs: Option<f64>) -> Body {
    let mut body = Body::from_mesh("object", BodyKind::Graspable, shape);
    body = body.at(Pose::translation(at[0], at[1], at[2]));
    body.youngs = youngs;
    body
}

/// A flat plate whose top face is z = 0.
fn plate() -> TriMesh {
    shapes::cuboid([-30.0, -30.0, -10.0], [30.0, 30.0, 0.0])
}

/// The mattress model's torsion radius for relative radius `r` (mm) both ways, at 5 N.
fn torsion_formula(r: f64) -> f64 {
    let (n, h, e, r) = (5.0, 0.003, SOFT, r / 1000.0);
    let delta = (n * h / (e * std::f64::consts::PI * r)).sqrt();
    let a = (2.0 * delta * r).sqrt();
    8.0 * a / 15.0 * 1000.0
}

fn the_soft_contact(world: &World) -> clasp_core::SoftContact {
    let grasp = world
        .grasp(
            RobotId::from_index(0),
            BodyId::Free(0),
            &ContactOptions::default(),
        )
        .unwrap();
    assert_eq!(
        grasp.contacts.len(),
        1,
        "nearby contacts merge into one patch"
    );
    match &grasp.contacts[0].model {
        ContactModel::Soft(soft) => (**soft).clone(),
        other => panic!("not a soft contact: {other:?}"),
    }
}

#[test]
fn a_soft_sphere_on_a_plate_has_the_formulas_torsional_friction() {
    for radius in [10.0, 15.0] {
        let ball = object(sphere(radius), [0.0, 0.0, radius + 0.05], Some(SOFT));
        let w = world(ball, palm_robot(plate(), Pose::identity()));
        let soft = the_soft_contact(&w);
        for r in soft.relative_radii {
            assert!(
                (r / radius - 1.0).abs() < 0.06,
                "R {radius}: relative radius {r}"
            );
        }
        let expected = torsion_formula(radius);
        let found = soft.area.torsion_radius;
        assert!(
            (found / expected - 1.0).abs() < 0.04,
            "R {radius}: torsion radius {found} mm, formula {expected} mm"
        );
        assert_eq!(soft.patch.len(), soft::PATCH_SIDE * soft::PATCH_SIDE);
        assert!(
            soft.other_patch.iter().all(|p| p.z.abs() < 1e-9),
            "a flat patch"
        );
    }
}

#[test]
fn a_soft_sphere_on_a_rigid_sphere_takes_their_relative_radius() {
    let (r1, r2) = (10.0, 15.0);
    let ball = object(sphere(r1), [0.0, 0.0, r1 + 0.05], Some(SOFT));
    let hand = palm_robot(sphere(r2), Pose::translation(0.0, 0.0, -r2));
    let soft = the_soft_contact(&world(ball, hand));
    let expected = r1 * r2 / (r1 + r2);
    for r in soft.relative_radii {
        assert!((r / expected - 1.0).abs() < 0.06, "{r} vs {expected}");
    }
    let torsion = soft.area.torsion_radius;
    assert!((torsion / torsion_formula(expected) - 1.0).abs() < 0.04);
}

#[test]
fn soft_contacts_twist_rigid_ones_do_not() {
    let rigid = world(
        object(sphere(10.0), [0.0, 0.0, 10.05], None),
        palm_robot(plate(), Pose::identity()),
    );
    let grasp = rigid
        .grasp(
            RobotId::from_index(0),
            BodyId::Free(0),
            &ContactOptions::default(),
        )
        .unwrap();
    assert!(!grasp.contacts.is_empty());
    for c in &grasp.contacts {
        assert_eq!(c.model, ContactModel::Point);
        assert_eq!(c.wrenches.len(), 8);
        // A contact under the ball pushes up: unit normal force along +z; friction in the
        // plate's plane; the torque about the centre is r × f / max radius, r = (0, 0, −R).
        for w in &c.wrenches {
            assert!((w[2] - 1.0).abs() < 1e-3, "unit normal force: {w:?}");
            let tangential = w[0].hypot(w[1]);
            assert!((tangential - c.friction).abs() < 1e-3);
            let lever = -10.0 / grasp.max_radius;
            assert!((w[3] - -lever * w[1]).abs() < 1e-2 && (w[4] - lever * w[0]).abs() < 1e-2);
            assert!(w[5].abs() < 1e-2, "no twist about the normal");
        }
    }
    let soft = world(
        object(sphere(10.0), [0.0, 0.0, 10.05], Some(SOFT)),
        palm_robot(plate(), Pose::identity()),
    );
    let grasp = soft
        .grasp(
            RobotId::from_index(0),
            BodyId::Free(0),
            &ContactOptions::default(),
        )
        .unwrap();
    let twist = grasp.contacts[0]
        .wrenches
        .iter()
        .map(|w| w[5].abs())
        .fold(0.0, f64::max);
    assert!(twist > 0.01, "a soft contact resists twisting: {twist}");
    // With soft contacts switched off the same contact is a point contact again.
    let options = ContactOptions {
        soft_contacts: false,
        ..ContactOptions::default()
    };
    let grasp = soft
        .grasp(RobotId::from_index(0), BodyId::Free(0), &options)
        .unwrap();
    assert!(
        grasp
            .contacts
            .iter()
            .all(|c| c.model == ContactModel::Point)
    );
}

#[test]
fn a_contact_on_a_soft_boxs_edge_falls_back_to_a_point_contact_and_says_why() {
    // A rigid ball touches the box's top edge from above and to the side.
    let cube = object(
        shapes::cuboid([-10.0; 3], [10.0; 3]),
        [0.0, 0.0, 0.0],
        Some(SOFT),
    );
    let direction = nalgebra::Vector3::new(1.0, 0.0, 0.6).normalize();
    let centre = nalgebra::Vector3::new(10.0, 0.0, 10.0) + direction * (5.05);
    let hand = palm_robot(sphere(5.0), Pose::translation(centre.x, centre.y, centre.z));
    let w = world(cube, hand);
    let grasp = w
        .grasp(
            RobotId::from_index(0),
            BodyId::Free(0),
            &ContactOptions::default(),
        )
        .unwrap();
    assert!(!grasp.contacts.is_empty(), "the ball touches the edge");
    for c in &grasp.contacts {
        match &c.model {
            ContactModel::PointFallback(reason) => {
                assert!(!reason.to_string().is_empty());
                assert_eq!(c.wrenches.len(), 8, "a point contact's pyramid");
            }
            other => panic!("an edge cannot be fitted: {other:?}"),
        }
    }
}

#[test]
fn grasps_are_refused_for_what_is_not_there() {
    let w = world(
        object(sphere(10.0), [0.0, 0.0, 10.05], None),
        palm_robot(plate(), Pose::identity()),
    );
    let options = ContactOptions::default();
    assert!(
        w.grasp(RobotId::from_index(1), BodyId::Free(0), &options)
            .is_err()
    );
    assert!(
        w.grasp(RobotId::from_index(0), BodyId::Free(3), &options)
            .is_err()
    );
    assert!(
        w.grasp(
            RobotId::from_index(0),
            BodyId::Palm {
                robot: RobotId::from_index(0)
            },
            &options
        )
        .is_err()
    );
    assert_eq!(w.grasped_object(), Some(BodyId::Free(0)));
    // One contact from below cannot hold the ball.
    let grasp = w
        .grasp(RobotId::from_index(0), BodyId::Free(0), &options)
        .unwrap();
    let quality = grasp.quality(WrenchSpaceKind::L1).unwrap();
    assert!(!quality.force_closure);
    assert!(quality.to_string().contains("not force-closure"));
}

/// Every contact of the world carries its wrench space, for every pair: a soft ball resting on
/// a rigid table (no hand anywhere) has a soft contact, fitted on both sides, and a rigid ball
/// beside it point contacts with GraspIt's 8-edge pyramid.
#[test]
fn every_pair_with_a_soft_body_has_soft_contacts_and_every_contact_its_edges() {
    // A table fine enough for a neighbourhood (a plate of two big triangles has too few points).
    let fine_plate = shapes::subdivided_box([-30.0, -30.0, -10.0], [30.0, 30.0, 0.0], 30);
    let table = Body::from_mesh("table", BodyKind::Obstacle, fine_plate);
    let soft_ball = object(sphere(10.0), [-15.0, 0.0, 10.05], Some(SOFT));
    let rigid_ball = object(sphere(8.0), [15.0, 0.0, 8.05], None);
    let w = World::new(vec![soft_ball, rigid_ball, table], vec![]);
    let (soft_id, rigid_id, table_id) = (BodyId::Free(0), BodyId::Free(1), BodyId::Free(2));
    let on_soft: Vec<_> = w.contacts_of(soft_id).collect();
    assert_eq!(on_soft.len(), 1, "nearby contacts merge into one patch");
    let ContactModel::Soft(soft) = &on_soft[0].model else {
        panic!(
            "the soft ball's contact with the table is soft: {:?}",
            on_soft[0].model
        );
    };
    assert_eq!(soft.patch.len(), soft::PATCH_SIDE * soft::PATCH_SIDE);
    assert!(on_soft[0].friction_edges.len() > 8, "a friction ellipsoid");
    // The table's side of the same contact sees the fits the other way round.
    let on_table = w
        .contacts_of(table_id)
        .find(|c| c.other == soft_id)
        .unwrap();
    let ContactModel::Soft(seen) = &on_table.model else {
        panic!("both sides are soft");
    };
    assert_eq!((seen.fit, seen.other_fit), (soft.other_fit, soft.fit));
    assert_eq!(on_table.friction_edges, on_soft[0].friction_edges);
    for c in w.contacts_of(rigid_id) {
        assert_eq!(c.model, ContactModel::Point);
        assert_eq!(c.friction_edges, soft::pyramid_edges(8));
    }
    assert!(w.contacts_of(rigid_id).next().is_some());
}
