//! Property tests over random scenes and moves: with collisions on, no pair interpenetrates
//! after any move (the brute-force reference engine judges), every stored contact has a gap in
//! [0, threshold), and a move that stops leaves a gap in (0, threshold/2).

mod common;

use clasp_collide::{CollisionEngine, Placed, ReferenceEngine, shapes};
use clasp_core::{Body, BodyId, BodyKind, Element, MoveQueries, Pose, TriMesh, World};
use nalgebra::{Translation3, UnitQuaternion, Vector3};

/// A small permuted congruential generator: deterministic scenes from a seed.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let x = ((self.0 >> 18) ^ self.0) >> 27;
        let rot = (self.0 >> 59) as u32;
        let bits = (x as u32).rotate_right(rot);
        f64::from(bits) / f64::from(u32::MAX)
    }

    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    fn rotation(&mut self) -> UnitQuaternion<f64> {
        let axis = Vector3::new(
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        );
        let axis = nalgebra::Unit::try_new(axis, 1e-6).unwrap_or(Vector3::z_axis());
        UnitQuaternion::from_axis_angle(&axis, self.range(-3.0, 3.0))
    }

    fn pose(&mut self, spread: f64) -> Pose {
        let t = Translation3::new(
            self.range(-spread, spread),
            self.range(-spread, spread),
            self.range(-spread, spread),
        );
        Pose::from_parts(t, self.rotation())
    }
}

fn shape(rng: &mut Rng) -> TriMesh {
    match (rng.unit() * 4.0) as u32 {
        0 => {
            let (x, y, z) = (
                rng.range(1.0, 15.0),
                rng.range(0.3, 15.0),
                rng.range(1.0, 15.0),
            );
            shapes::cuboid([-x, -y, -z], [x, y, z])
        }
        1 => shapes::bumpy_sphere(rng.range(3.0, 12.0), 1, shapes::gentle_bumps(0.5)),
        2 => shapes::capsule(rng.range(1.0, 5.0), rng.range(5.0, 30.0), 8),
        _ => shapes::torus(rng.range(6.0, 12.0), rng.range(1.0, 3.0), 12, 6),
    }
}

fn collide(a: &Body, b: &Body) -> bool {
    ReferenceEngine.collide(
        Placed::new(a.geometry(), a.pose()),
        Placed::new(b.geometry(), b.pose()),
    )
}

/// Bodies at random poses, each placed where it overlaps none of the ones before.
fn random_scene(rng: &mut Rng, count: usize) -> World {
    let mut bodies: Vec<Body> = Vec::new();
    while bodies.len() < count {
        let kind = if bodies.len().is_multiple_of(3) {
            BodyKind::Obstacle
        } else {
            BodyKind::Graspable
        };
        let mut body = Body::from_mesh(format!("b{}", bodies.len()), kind, shape(rng));
        body = body.at(rng.pose(40.0));
        if bodies.iter().all(|other| !collide(&body, other)) {
            bodies.push(body);
        }
    }
    World::new(bodies, Vec::new())
}

fn check_world(world: &World, case: &str) {
    let threshold = world.settings().contact_threshold;
    let bodies: Vec<_> = world.free_bodies().map(|(_, b)| b).collect();
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            assert!(
                !collide(a, b),
                "{case}: {} and {} interpenetrate",
                a.name,
                b.name
            );
        }
    }
    common::check_contact_api(world.contacts(), case);
    for c in world.contacts() {
        assert!(
            c.separation >= 0.0 && c.separation < threshold,
            "{case}: contact gap {}",
            c.separation
        );
        let other = world.body(c.other).unwrap();
        let body = world.body(c.body).unwrap();
        let measured = common::reference_distance(body, other)
            .expect("bodies in contact do not interpenetrate");
        assert!(
            measured <= c.separation + 1e-9,
            "{case}: gap {measured} vs {}",
            c.separation
        );
    }
}

#[test]
fn random_moves_never_leave_an_enabled_pair_interpenetrating() {
    let cases: u64 = std::env::var("CLASP_MOVE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let mut stopped = 0;
    for seed in 0..cases {
        let mut rng = Rng(seed * 7919 + 1);
        let mut world = random_scene(&mut rng, 4);
        check_world(&world, &format!("seed {seed} start"));
        for step in 0..6 {
            let mover = (rng.unit() * 4.0) as usize % 4;
            let target = if rng.unit() < 0.5 {
                // Straight at another body: most of these stop at contact.
                let goal = world.free_body((mover + 1) % 4).unwrap().pose().translation;
                Pose::from_parts(
                    goal,
                    world.free_body(mover).unwrap().pose().rotation * rng.rotation(),
                )
            } else {
                rng.pose(50.0)
            };
            let outcome = world.move_to(Element::Body(mover), target).unwrap();
            let case = format!("seed {seed} step {step}");
            check_world(&world, &case);
            if !outcome.stopped_by.is_empty() {
                // The pair met first is within half the threshold; any other that stopped the
                // move with it is within the threshold and has contacts.
                stopped += 1;
                let threshold = world.settings().contact_threshold;
                let mut closest = f64::INFINITY;
                for &(a, b) in &outcome.stopped_by {
                    let gap =
                        common::reference_distance(world.body(a).unwrap(), world.body(b).unwrap())
                            .unwrap();
                    assert!(
                        gap > 0.0 && gap < threshold,
                        "{case}: stopped with gap {gap}"
                    );
                    assert!(
                        world.contacts_of(a).any(|c| c.other == b),
                        "{case}: no contact"
                    );
                    closest = closest.min(gap);
                }
                assert!(
                    closest < threshold / 2.0,
                    "{case}: stopped with gap {closest}"
                );
            }
        }
    }
    assert!(
        stopped > cases,
        "too few moves stopped at contact ({stopped}) to test much"
    );
}

#[test]
fn every_stored_contact_is_within_the_threshold_at_any_threshold() {
    let mut rng = Rng(99);
    let mut world = random_scene(&mut rng, 4);
    world
        .move_to(
            Element::Body(1),
            Pose::from_parts(
                world.free_body(0).unwrap().pose().translation,
                world.free_body(1).unwrap().pose().rotation,
            ),
        )
        .unwrap();
    for threshold in [0.1, 1.0, 5.0, 0.01] {
        world.set_contact_threshold(threshold).unwrap();
        check_world(&world, &format!("threshold {threshold}"));
    }
    assert!(world.set_contact_threshold(f64::NAN).is_err());
    assert!(world.set_contact_threshold(0.0).is_err());
    let _ = BodyId::Free(0);
}

/// The bounded move (cut-off distances, seeds, gaps remembered from move to move) against the
/// move that asks exact distances everywhere: on the same random moves, both complete or both
/// stop, the same pairs stop them, and they stop within a millimetre of each other. Moves come
/// as drags: a run of small steps toward another body, so what one move remembers serves the
/// next.
#[test]
fn bounded_moves_stop_where_exact_moves_stop() {
    let mut compared = 0;
    let mut stopped = 0;
    for seed in 0..12u64 {
        let mut rng = Rng(seed * 104_729 + 3);
        let mut bounded = random_scene(&mut rng, 4);
        let mut exact = bounded.clone();
        exact.set_move_queries(MoveQueries::Exact);
        for drag in 0..3 {
            let mover = (rng.unit() * 4.0) as usize % 4;
            let from = bounded.free_body(mover).unwrap().pose();
            let goal = bounded
                .free_body((mover + 1) % 4)
                .unwrap()
                .pose()
                .translation
                .vector;
            let turn = rng.rotation();
            for step in 1..=20 {
                let t = step as f64 / 20.0;
                let translation = from.translation.vector.lerp(&goal, t);
                let rotation = from.rotation.slerp(&(from.rotation * turn), t);
                let target = Pose::from_parts(translation.into(), rotation);
                let case = format!("seed {seed} drag {drag} step {step}");
                let b = bounded.move_to(Element::Body(mover), target).unwrap();
                let e = exact.move_to(Element::Body(mover), target).unwrap();
                check_world(&bounded, &case);
                assert_eq!(b.completed, e.completed, "{case}");
                let pairs = |o: &clasp_core::MoveOutcome| {
                    let mut p = o.stopped_by.clone();
                    p.sort();
                    p
                };
                assert_eq!(pairs(&b), pairs(&e), "{case}");
                let (pb, pe) = (
                    bounded.free_body(mover).unwrap().pose(),
                    exact.free_body(mover).unwrap().pose(),
                );
                let apart = (pb.translation.vector - pe.translation.vector).norm();
                assert!(apart < 1.0, "{case}: the stops are {apart} mm apart");
                stopped += usize::from(!b.completed);
                compared += 1;
                // Both go on from the same place.
                exact.set_pose(Element::Body(mover), pb).unwrap();
            }
        }
    }
    assert!(
        stopped > 20,
        "too few stops ({stopped} of {compared}) to compare much"
    );
}
