//! Moves that stop at contact, Toggle Collision and contacts, on small scenes built in code.

mod common;

use clasp_collide::shapes;
use clasp_core::{Body, BodyId, BodyKind, BodyType, Element, Material, Pose, TriMesh, World};
use nalgebra::{UnitQuaternion, Vector3};

fn body(name: &str, kind: BodyKind, mesh: TriMesh, at: [f64; 3]) -> Body {
    let mut body = Body::from_mesh(name, kind, mesh);
    body = body.at(Pose::translation(at[0], at[1], at[2]));
    body
}

fn cube(half: f64) -> TriMesh {
    shapes::cuboid([-half; 3], [half; 3])
}

/// A 20 mm cube at the origin (obstacle) and a 10 mm cube 40 mm along x.
fn two_cubes() -> World {
    World::new(
        vec![
            body("block", BodyKind::Obstacle, cube(10.0), [0.0, 0.0, 0.0]),
            body("cube", BodyKind::Graspable, cube(5.0), [40.0, 0.0, 0.0]),
        ],
        Vec::new(),
    )
}

fn gap(world: &World, a: BodyId, b: BodyId) -> Option<f64> {
    common::reference_distance(world.body(a).unwrap(), world.body(b).unwrap())
}

const BLOCK: BodyId = BodyId::Free(0);
const CUBE: BodyId = BodyId::Free(1);

#[test]
fn a_body_moved_into_another_stops_just_short_with_contacts() {
    let mut world = two_cubes();
    let threshold = world.settings().contact_threshold;
    let outcome = world
        .move_to(Element::Body(1), Pose::translation(-40.0, 0.0, 0.0))
        .unwrap();
    assert!(!outcome.completed);
    assert_eq!(outcome.stopped_by, vec![(CUBE, BLOCK)]);
    let g = gap(&world, CUBE, BLOCK).expect("no interpenetration");
    assert!(g > 0.0 && g < threshold / 2.0, "gap {g}");
    let x = world.free_body(1).unwrap().pose().translation.x;
    assert!((x - 15.0).abs() < threshold, "stopped at x = {x}");
    let on_cube: Vec<_> = world.contacts_of(CUBE).collect();
    assert!(
        on_cube.len() >= 3,
        "a face contact has its corners: {}",
        on_cube.len()
    );
    for c in &on_cube {
        assert_eq!(c.other, BLOCK);
        assert!(c.separation >= 0.0 && c.separation < threshold);
        // The normal points to object A, the block (the smaller id); into the cube is the
        // other way.
        assert!(!c.is_object_a);
        assert!(c.normal.x < -0.99, "normal {:?}", c.normal);
        assert!(c.inward().x > 0.99, "inward {:?}", c.inward());
        assert!((c.frame.rotation * Vector3::z() - c.normal.into_inner()).norm() < 1e-9);
        let inward_z = c.inward_frame().rotation * Vector3::z();
        assert!((inward_z - c.inward().into_inner()).norm() < 1e-9);
        assert_eq!(
            c.static_friction,
            Material::Generic.static_friction(Material::Generic)
        );
        // The cube is dynamic: sliding faster than 1 mm/s uses kinetic friction.
        assert_eq!(
            (c.body_type, c.other_type),
            (BodyType::Dynamic, BodyType::Static)
        );
        assert_eq!(c.friction(0.5), c.static_friction);
        assert_eq!(
            c.friction(2.0),
            Material::Generic.kinetic_friction(Material::Generic)
        );
    }
    assert_eq!(world.contacts_of(BLOCK).count(), on_cube.len());
}

#[test]
fn with_the_pair_switched_off_a_body_passes_through() {
    let mut world = two_cubes();
    assert!(world.collisions_on(&[Element::Body(0), Element::Body(1)]));
    assert!(!world.toggle_collisions(&[Element::Body(0), Element::Body(1)]));
    let outcome = world
        .move_to(Element::Body(1), Pose::translation(-40.0, 0.0, 0.0))
        .unwrap();
    assert!(outcome.completed);
    assert_eq!(world.free_body(1).unwrap().pose().translation.x, -40.0);
    assert!(world.contacts().is_empty());
}

#[test]
fn a_body_in_an_existing_overlap_can_move_out_but_not_deeper() {
    let mut world = two_cubes();
    world.toggle_collisions(&[]);
    world
        .move_to(Element::Body(1), Pose::translation(13.0, 0.0, 0.0))
        .unwrap();
    world.toggle_collisions(&[]);
    assert_eq!(world.overlapping_pairs(), vec![(BLOCK, CUBE)]);
    // Deeper: refused.
    let deeper = world
        .move_to(Element::Body(1), Pose::translation(5.0, 0.0, 0.0))
        .unwrap();
    assert!(deeper.blocked_by_overlap);
    assert!(world.free_body(1).unwrap().pose().translation.x >= 13.0 - 1.0);
    // Sideways along the face: allowed.
    let sideways = world
        .move_to(Element::Body(1), Pose::translation(13.0, 3.0, 0.0))
        .unwrap();
    assert!(sideways.completed, "{sideways:?}");
    // Out: allowed, and coming back it stops at contact again.
    let out = world
        .move_to(Element::Body(1), Pose::translation(40.0, 3.0, 0.0))
        .unwrap();
    assert!(out.completed);
    assert!(world.overlapping_pairs().is_empty());
    let back = world
        .move_to(Element::Body(1), Pose::translation(0.0, 3.0, 0.0))
        .unwrap();
    assert!(!back.completed);
    assert!(gap(&world, CUBE, BLOCK).is_some());
}

/// A 0.2 mm plate and a 1 mm cube: together thicker than the world's minimum step (1 mm), so
/// no sub-step can jump across, from any distance.
#[test]
fn a_long_move_does_not_tunnel_through_a_thin_plate() {
    for start in [500.0, 3.7, 1.55, 1.05, 0.95, 0.6] {
        let plate = shapes::cuboid([-0.1, -50.0, -50.0], [0.1, 50.0, 50.0]);
        let bead = cube(0.5);
        let mut world = World::new(
            vec![
                body("plate", BodyKind::Obstacle, plate, [0.0, 0.0, 0.0]),
                body("bead", BodyKind::Graspable, bead, [0.6 + start, 0.0, 0.0]),
            ],
            Vec::new(),
        );
        let outcome = world
            .move_to(Element::Body(1), Pose::translation(-500.0, 0.0, 0.0))
            .unwrap();
        assert!(!outcome.completed, "from {start}");
        let g = gap(&world, CUBE, BLOCK).unwrap();
        assert!(g > 0.0 && g < 0.05, "from {start}: gap {g}");
        assert!(world.free_body(1).unwrap().pose().translation.x > 0.0);
    }
}

#[test]
fn rotations_stop_at_contact_too() {
    let mut world = World::new(
        vec![
            body("block", BodyKind::Obstacle, cube(10.0), [0.0, 0.0, 0.0]),
            body(
                "bar",
                BodyKind::Graspable,
                shapes::cuboid([-30.0, -2.0, -2.0], [30.0, 2.0, 2.0]),
                [0.0, 0.0, 20.0],
            ),
        ],
        Vec::new(),
    );
    // Turning the bar about y through 90° would sweep it into the block.
    let turned = Pose::from_parts(
        nalgebra::Translation3::new(0.0, 0.0, 20.0),
        UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 1.5),
    );
    let outcome = world.move_to(Element::Body(1), turned).unwrap();
    assert!(!outcome.completed);
    let g = gap(&world, CUBE, BLOCK).unwrap();
    assert!(g > 0.0 && g < 0.05, "gap {g}");
}
