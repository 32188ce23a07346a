//! The scene: bodies sharing geometry, clones that outlive their original, the filter deciding
//! which pairs the many-pair queries run, and those queries agreeing with one-pair calls.

use std::sync::Arc;

use clasp_collide::{
    BodyFilter, CollisionEngine, CollisionScene, FastEngine, Geometry, Interpenetrating,
    ReferenceEngine, SceneError,
    shapes::{bumpy_sphere, cuboid, gentle_bumps},
};
use nalgebra::{Isometry3, Point3};

fn ball() -> Arc<Geometry> {
    Arc::new(Geometry::new(bumpy_sphere(10.0, 2, gentle_bumps(0.5))))
}

fn at(x: f64) -> Isometry3<f64> {
    Isometry3::translation(x, 0.0, 0.0)
}

#[test]
fn clones_share_geometry_and_outlive_their_original() {
    let mut scene = CollisionScene::new(FastEngine);
    let shape = ball();
    let original = scene
        .add_body(shape.clone(), at(0.0), BodyFilter::MOVABLE)
        .unwrap();
    let table = scene
        .add_body(
            Arc::new(Geometry::new(cuboid([-50.0; 3], [50.0, 50.0, -11.0]))),
            Isometry3::identity(),
            BodyFilter::STATIC,
        )
        .unwrap();
    let copy = scene.clone_body(original, 1).unwrap();
    assert!(
        Arc::ptr_eq(scene.geometry(copy).unwrap(), &shape),
        "mesh and tree are shared"
    );
    drop(shape);
    scene.remove_body(original).unwrap();
    assert_eq!(
        scene.placed(original).err(),
        Some(SceneError::NoSuchBody(original))
    );
    // The clone still answers, from the geometry it shares.
    let pairs = scene.checked_pairs(1);
    assert_eq!(pairs, vec![(table, copy)]);
    let found = scene.distances(&pairs).unwrap();
    let gap = found[0].result.unwrap().distance;
    assert!(gap > 0.0 && gap < 2.0, "{gap}");
    assert_eq!(Arc::strong_count(scene.geometry(copy).unwrap()), 1);
}

#[test]
fn many_pair_queries_follow_the_filter_and_match_one_pair_calls() {
    let mut scene = CollisionScene::new(FastEngine);
    let shape = ball();
    // Five balls in a row, 19.5 mm apart: neighbours overlap (radius about 10).
    let bodies: Vec<usize> = (0..5)
        .map(|k| {
            scene
                .add_body(shape.clone(), at(19.5 * k as f64), BodyFilter::MOVABLE)
                .unwrap()
        })
        .collect();
    let pairs = scene.checked_pairs(0);
    assert_eq!(pairs.len(), 10);
    let colliding = scene.colliding_pairs(&pairs).unwrap();
    let one_by_one: Vec<_> = pairs
        .iter()
        .filter(|&&(a, b)| {
            ReferenceEngine.collide(scene.placed(a).unwrap(), scene.placed(b).unwrap())
        })
        .copied()
        .collect();
    assert_eq!(colliding, one_by_one);
    assert_eq!(colliding.len(), 4, "only neighbours touch");
    assert!(scene.any_collision(&pairs).unwrap());

    // Switching a pair off removes it from the checked pairs, and the rest stay.
    scene
        .filter_mut()
        .set_pair_enabled(bodies[0], bodies[1], false)
        .unwrap();
    let pairs = scene.checked_pairs(0);
    assert_eq!(scene.colliding_pairs(&pairs).unwrap().len(), 3);
    let involving = scene.checked_pairs_involving(0, &[bodies[4]]);
    assert_eq!(involving.len(), 4);
    let contacts = scene.contacts(&involving, 0.1).unwrap();
    assert_eq!(
        contacts.len(),
        1,
        "only the neighbour, and it interpenetrates"
    );
    assert_eq!(contacts[0].result, Err(Interpenetrating));

    // Moving the last ball away ends its collision.
    scene.set_pose(bodies[4], at(200.0)).unwrap();
    assert!(!scene.any_collision(&involving).unwrap());
    let far = scene
        .point_distances(&[(bodies[4], Point3::new(200.0, 0.0, 30.0))])
        .unwrap();
    assert!((far[0].distance - 20.0).abs() < 1.0, "{far:?}");
}

#[test]
fn bad_poses_and_bodies_are_refused_and_change_nothing() {
    let mut scene = CollisionScene::new(FastEngine);
    let body = scene
        .add_body(ball(), at(1.0), BodyFilter::MOVABLE)
        .unwrap();
    assert_eq!(
        scene.set_pose(body, at(f64::NAN)),
        Err(SceneError::NonFinitePose)
    );
    assert_eq!(scene.pose(body).unwrap(), at(1.0));
    assert_eq!(scene.set_pose(7, at(0.0)), Err(SceneError::NoSuchBody(7)));
    assert!(
        scene
            .add_body(ball(), at(f64::INFINITY), BodyFilter::MOVABLE)
            .is_err()
    );
    assert_eq!(
        scene.checked_pairs(0),
        vec![],
        "the refused body was not added"
    );
}

#[test]
fn a_body_without_triangles_meets_nothing_in_either_engine() {
    use clasp_collide::{
        CollisionEngine, FastEngine, Geometry, Placed, ReferenceEngine, TriMesh, shapes,
    };
    use nalgebra::{Isometry3, Point3, Vector3};
    let empty = Geometry::new(TriMesh::empty());
    let cube = Geometry::new(shapes::cuboid([-1.0; 3], [1.0; 3]));
    let at = Isometry3::identity();
    let engines: [&dyn CollisionEngine; 2] = [&FastEngine, &ReferenceEngine];
    for engine in engines {
        for (a, b) in [(&empty, &cube), (&cube, &empty), (&empty, &empty)] {
            let (a, b) = (Placed::new(a, at), Placed::new(b, at));
            assert!(!engine.collide(a, b));
            assert!(engine.contacts(a, b, 1.0).unwrap().is_empty());
            assert_eq!(engine.distance(a, b).unwrap().distance, f64::INFINITY);
        }
        let body = Placed::new(&empty, at);
        let far = engine.point_distance(body, &Point3::new(1.0, 2.0, 3.0));
        assert_eq!(far.distance, f64::INFINITY);
        assert!(
            engine
                .region(body, &Point3::origin(), &Vector3::z(), 5.0)
                .is_empty()
        );
    }
    assert_eq!(TriMesh::empty().bounding_box().0, Point3::origin());
}
