//! The fast engine against the brute-force reference on random meshes and poses: apart,
//! near contact, touching, coplanar, nested, open meshes with slivers and degenerate triangles.
//! Both must agree on collide, on distance (1e-6 relative + 1e-9 mm) and on the set of triangle
//! pairs that yield contacts.

use std::sync::Arc;

use clasp_collide::{
    CollisionEngine, FastEngine, Gap, Geometry, Interpenetrating, MeshContact, Placed,
    ReferenceEngine, Separation, TriMesh, TrianglePair,
    shapes::{bumpy_sphere, capsule, cuboid, gentle_bumps, subdivided_box, torus},
    triangle::triangle_closest_points,
};
use clasp_random::SplitMix64;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// Random shapes and poses from Clasp's one seeded generator, so failures replay.
struct Random(SplitMix64);

impl Random {
    fn new(seed: u64) -> Self {
        Random(SplitMix64::new(seed))
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0.range(lo, hi)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    fn vector(&mut self, scale: f64) -> Vector3<f64> {
        Vector3::new(
            self.range(-scale, scale),
            self.range(-scale, scale),
            self.range(-scale, scale),
        )
    }

    fn rotation(&mut self) -> UnitQuaternion<f64> {
        UnitQuaternion::from_scaled_axis(self.vector(std::f64::consts::PI))
    }

    fn pose(&mut self, reach: f64) -> Isometry3<f64> {
        Isometry3::from_parts(Translation3::from(self.vector(reach)), self.rotation())
    }
}

/// A random closed shape about 10–30 mm across, 12 to 400 triangles.
fn closed_shape(rng: &mut Random) -> TriMesh {
    match rng.below(4) {
        0 => {
            let (r, h) = (rng.range(5.0, 15.0), rng.range(0.5, 3.0));
            bumpy_sphere(r, 1 + rng.below(2) as u32, gentle_bumps(h))
        }
        1 => {
            let hi = [
                rng.range(3.0, 20.0),
                rng.range(3.0, 20.0),
                rng.range(3.0, 20.0),
            ];
            subdivided_box([0.0; 3], hi, 1 + rng.below(3))
        }
        2 => torus(rng.range(8.0, 12.0), rng.range(2.0, 5.0), 10, 6),
        _ => capsule(rng.range(3.0, 8.0), rng.range(5.0, 20.0), 8 + rng.below(8)),
    }
}

/// A random open triangle soup with slivers and degenerate triangles (which the mesh drops).
fn soup(rng: &mut Random) -> TriMesh {
    let mut vertices: Vec<Point3<f64>> = (0..30).map(|_| Point3::from(rng.vector(10.0))).collect();
    let mut triangles = Vec::new();
    for _ in 0..40 {
        let t = [0, 1, 2].map(|_| rng.below(vertices.len()) as u32);
        triangles.push(t);
    }
    // Slivers: a corner a hair off the opposite edge.
    for _ in 0..5 {
        let (a, b) = (vertices[rng.below(30)], vertices[rng.below(30)]);
        let off = Point3::from((a.coords + b.coords) / 2.0) + rng.vector(1e-6);
        vertices.push(off);
        let i = vertices.len() as u32 - 1;
        vertices.push(a);
        vertices.push(b);
        triangles.push([i + 1, i + 2, i]);
    }
    // Degenerate ones: a repeated corner, and three points on a line.
    triangles.push([3, 3, 4]);
    let start = vertices.len() as u32;
    vertices.extend([0.0, 1.0, 3.0].map(|x| Point3::new(x, 2.0, -1.0)));
    triangles.push([start, start + 1, start + 2]);
    let mesh = TriMesh::new(vertices, triangles).unwrap();
    assert!(mesh.dropped_degenerate() >= 2);
    mesh
}

fn random_mesh(rng: &mut Random) -> TriMesh {
    if rng.below(4) == 0 {
        soup(rng)
    } else {
        closed_shape(rng)
    }
}

/// Runs every pair query on both engines and demands the same answers.
fn assert_agree(a: Placed, b: Placed, threshold: f64, case: &str) -> Option<Separation> {
    let (fast, reference) = (FastEngine, ReferenceEngine);
    assert_eq!(
        fast.collide(a, b),
        reference.collide(a, b),
        "collide, {case}"
    );
    assert_eq!(
        fast.collide(b, a),
        reference.collide(b, a),
        "collide reversed, {case}"
    );
    let distance = match (fast.distance(a, b), reference.distance(a, b)) {
        (Ok(f), Ok(r)) => {
            let allowed = 1e-6 * r.distance + 1e-9;
            assert!(
                (f.distance - r.distance).abs() <= allowed,
                "distance {} vs {}, {case}",
                f.distance,
                r.distance
            );
            // The closest points really are that far apart.
            let gap = (a.pose * f.point_a - b.pose * f.point_b).norm();
            assert!((gap - f.distance).abs() <= 1e-9 * (1.0 + gap), "{case}");
            Some(r)
        }
        (Err(Interpenetrating), Err(Interpenetrating)) => None,
        (f, r) => panic!("distance {f:?} vs {r:?}, {case}"),
    };
    assert_bounded_queries_agree(a, b, distance.as_ref(), case);
    match (
        fast.contacts(a, b, threshold),
        reference.contacts(a, b, threshold),
    ) {
        (Ok(f), Ok(r)) => assert_same_contacts(&f, &r, case),
        (Err(Interpenetrating), Err(Interpenetrating)) => {}
        (f, r) => panic!("contacts {f:?} vs {r:?}, {case}"),
    }
    distance
}

/// The cut-off distance (with no seed, a seed far off and the true closest triangles) and the
/// tolerance query against the reference distance `exact` (`None`: they interpenetrate), at
/// cut-offs and tolerances on either side of it.
fn assert_bounded_queries_agree(a: Placed, b: Placed, exact: Option<&Separation>, case: &str) {
    let fast = FastEngine;
    let Some(exact) = exact else {
        assert_eq!(
            fast.distance_below(a, b, 1.0, None, 0.0),
            Err(Interpenetrating),
            "{case}"
        );
        assert!(fast.within(a, b, 1e-3), "within, {case}");
        return;
    };
    let d = exact.distance;
    let seeds = [
        None,
        Some(TrianglePair { a: 0, b: 0 }),
        Some(exact.triangles),
    ];
    for cutoff in [
        0.5 * d,
        d * (1.0 - 1e-6),
        d * (1.0 + 1e-6) + 1e-9,
        2.0 * d + 0.1,
    ] {
        for (seed, error) in seeds.into_iter().flat_map(|s| [(s, 0.0), (s, 0.25)]) {
            let label = format!("cut-off {cutoff} of {d}, seed {seed:?}, error {error}, {case}");
            let slack = 1.0 + error;
            match fast.distance_below(a, b, cutoff, seed, error) {
                Ok(Gap::Closer(s)) => {
                    assert!(s.distance < cutoff, "{label}");
                    // A real pair of points, no farther than 1 + ε times the closest.
                    assert!(s.distance >= d * (1.0 - 1e-6) - 1e-9, "{label}");
                    assert!(s.distance <= d * slack * (1.0 + 1e-6) + 1e-9, "{label}");
                    let gap = (a.pose * s.point_a - b.pose * s.point_b).norm();
                    assert!((gap - s.distance).abs() <= 1e-9 * (1.0 + gap), "{label}");
                }
                Ok(Gap::AtLeast(bound)) => {
                    assert!((bound - cutoff / slack).abs() <= 1e-12 * cutoff, "{label}");
                    assert!(d >= bound * (1.0 - 1e-6) - 1e-9, "{label}")
                }
                Err(e) => panic!("{e}, {label}"),
            }
        }
    }
    for tolerance in [0.5 * d, 2.0 * d + 1e-6] {
        if (tolerance - d).abs() > 1e-6 * d + 1e-9 {
            assert_eq!(
                fast.within(a, b, tolerance),
                d < tolerance,
                "within {tolerance}, {case}"
            );
            assert_eq!(
                ReferenceEngine.within(a, b, tolerance),
                d < tolerance,
                "reference within {tolerance}, {case}"
            );
        }
    }
}

fn assert_same_contacts(fast: &[MeshContact], reference: &[MeshContact], case: &str) {
    let pairs = |c: &[MeshContact]| {
        let mut p: Vec<(usize, usize)> = c.iter().map(|c| (c.triangle_a, c.triangle_b)).collect();
        p.dedup();
        p
    };
    assert_eq!(
        pairs(fast),
        pairs(reference),
        "contact triangle pairs, {case}"
    );
    assert_eq!(fast.len(), reference.len(), "{case}");
    for (f, r) in fast.iter().zip(reference) {
        assert!(
            (f.point_a - r.point_a).norm() < 1e-9 && (f.point_b - r.point_b).norm() < 1e-9,
            "{f:?} vs {r:?}, {case}"
        );
        assert!((f.normal_a.norm() - 1.0).abs() < 1e-12, "{case}");
    }
}

/// Moves `b` along the line of the closest points so that the gap becomes `target`.
fn closer(a: Placed, b_pose: Isometry3<f64>, s: &Separation, target: f64) -> Isometry3<f64> {
    let (pa, pb) = (a.pose * s.point_a, b_pose * s.point_b);
    let direction = (pa - pb) / s.distance;
    Translation3::from(direction * (s.distance - target)) * b_pose
}

#[test]
fn random_pairs_apart_near_and_touching_agree() {
    let mut rng = Random::new(7);
    let mut near = 0;
    for case in 0..150 {
        let (ma, mb) = (random_mesh(&mut rng), random_mesh(&mut rng));
        let (ga, gb) = (Geometry::new(ma), Geometry::new(mb));
        let pose_a = rng.pose(5.0);
        let pose_b = rng.pose(30.0);
        let a = Placed::new(&ga, pose_a);
        let threshold = [0.1, 0.5, 2.0][case % 3];
        let label = format!("case {case}");
        let Some(s) = assert_agree(a, Placed::new(&gb, pose_b), threshold, &label) else {
            continue;
        };
        // Bring it to just inside the threshold, then to touching.
        for target in [threshold * 0.5, 0.0] {
            let moved = closer(a, pose_b, &s, target);
            let label = format!("case {case} at {target}");
            if assert_agree(a, Placed::new(&gb, moved), threshold, &label).is_some() {
                near += 1;
            }
        }
    }
    assert!(
        near > 50,
        "the near-contact cases must really be near: {near}"
    );
}

#[test]
fn coplanar_faces_touching_and_close_agree() {
    let mut rng = Random::new(11);
    for case in 0..40 {
        let n = 1 + rng.below(3);
        let lower = Geometry::new(subdivided_box([0.0; 3], [10.0, 10.0, 10.0], n));
        let upper = Geometry::new(subdivided_box([0.0; 3], [6.0, 4.0, 3.0], 1 + rng.below(3)));
        let a = Placed::new(&lower, Isometry3::identity());
        // Exactly on the face, or 0.05 mm above it, turned about z and shifted in the plane with
        // a corner over the face, so that the two faces overlap.
        let gap = [0.0, 0.05][case % 2];
        let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), [0.0, 0.3, 1.2][case % 3]);
        let shift = Translation3::new(rng.range(1.0, 9.0), rng.range(1.0, 9.0), 10.0 + gap);
        let b = Placed::new(&upper, Isometry3::from_parts(shift, turn));
        assert_agree(a, b, 0.1, &format!("coplanar case {case}"));
        let found = FastEngine.contacts(a, b, 0.1);
        match gap {
            0.0 => assert_eq!(
                found,
                Err(Interpenetrating),
                "touching faces collide, case {case}"
            ),
            _ => assert!(!found.unwrap().is_empty(), "close faces have contacts"),
        }
    }
}

#[test]
fn nested_shapes_collide_inside_closed_meshes_only() {
    let mut rng = Random::new(5);
    let ball = Geometry::new(bumpy_sphere(50.0, 2, gentle_bumps(3.0)));
    let open_ball = {
        let m = ball.mesh();
        let kept = m.triangles()[1..].to_vec();
        Geometry::new(TriMesh::new(m.vertices().to_vec(), kept).unwrap())
    };
    assert!(!open_ball.mesh().is_closed());
    for case in 0..40 {
        let inner = Geometry::new(closed_shape(&mut rng));
        let pose = Isometry3::from_parts(Translation3::from(rng.vector(8.0)), rng.rotation());
        let label = format!("nested case {case}");
        let outer = Placed::new(&ball, Isometry3::identity());
        let small = Placed::new(&inner, pose);
        assert_agree(outer, small, 0.1, &label);
        assert!(
            FastEngine.collide(outer, small),
            "{label}: inside a closed mesh"
        );
        assert!(FastEngine.collide(small, outer), "{label}: either order");
        let open = Placed::new(&open_ball, Isometry3::identity());
        assert_agree(open, small, 0.1, &label);
        assert!(
            !FastEngine.collide(open, small),
            "{label}: an open mesh has no inside"
        );
    }
}

#[test]
fn point_distance_and_region_agree() {
    let mut rng = Random::new(3);
    for case in 0..60 {
        let geometry = Geometry::new(random_mesh(&mut rng));
        let body = Placed::new(&geometry, rng.pose(5.0));
        let point = Point3::from(rng.vector(25.0));
        let (f, r) = (
            FastEngine.point_distance(body, &point),
            ReferenceEngine.point_distance(body, &point),
        );
        assert!(
            (f.distance - r.distance).abs() <= 1e-9 * (1.0 + r.distance),
            "case {case}"
        );
        assert!(((f.closest - point).norm() - f.distance).abs() < 1e-9);

        let local = body.pose.inverse_transform_point(&point);
        let normal = rng.vector(1.0).normalize();
        let radius = rng.range(0.5, 1.5) * r.distance + 1.0;
        let fast_region = FastEngine.region(body, &local, &normal, radius);
        let reference_region = ReferenceEngine.region(body, &local, &normal, radius);
        assert_eq!(fast_region, reference_region, "region, case {case}");
    }
}

/// The closest point within a cutoff: the same distance as the brute force below it, nothing
/// at or beyond it (nor for a cutoff of zero or less), on random meshes and on a finely
/// tessellated torus (thousands of triangles, many levels of the tree), near and far.
#[test]
fn point_distance_below_agrees_and_stops_at_the_cutoff() {
    let mut rng = Random::new(11);
    let torus = Geometry::new(torus(30.0, 10.0, 64, 32));
    for case in 0..120 {
        let random = Geometry::new(random_mesh(&mut rng));
        let geometry = if case % 2 == 0 { &torus } else { &random };
        let body = Placed::new(geometry, rng.pose(5.0));
        let point = Point3::from(rng.vector(if case % 3 == 0 { 80.0 } else { 45.0 }));
        let exact = ReferenceEngine.point_distance(body, &point);
        for factor in [0.0, 0.5, 0.999, 1.001, 2.0, f64::INFINITY] {
            let cutoff = factor * exact.distance;
            let below = FastEngine.point_distance_below(body, &point, cutoff);
            let label = format!("case {case}, cutoff {factor} × the distance");
            match below {
                Some(near) => {
                    assert!(factor > 1.0, "{label}: found at {}", near.distance);
                    assert!(
                        (near.distance - exact.distance).abs() <= 1e-9 * (1.0 + exact.distance),
                        "{label}"
                    );
                    assert!(((near.closest - point).norm() - near.distance).abs() < 1e-9);
                }
                None => assert!(factor < 1.0, "{label}: nothing found"),
            }
        }
        assert_eq!(
            FastEngine.point_distance_below(body, &point, -1.0),
            None,
            "case {case}"
        );
    }
}

#[test]
fn region_keeps_the_vertices_of_triangles_facing_away() {
    let cube = Geometry::new(cuboid([0.0; 3], [10.0; 3]));
    let body = Placed::new(&cube, Isometry3::identity());
    // Near the middle of the top face, looking down: the top's two triangles, not the bottom's.
    let region = FastEngine.region(body, &Point3::new(5.0, 5.0, 10.5), &-Vector3::z(), 1.0);
    assert_eq!(region.len(), 4);
    assert!(region.iter().all(|p| p.z == 10.0));
    let facing = FastEngine.region(body, &Point3::new(5.0, 5.0, 10.5), &Vector3::z(), 1.0);
    assert!(
        facing.is_empty(),
        "triangles facing along the normal are left out"
    );
}

#[test]
fn boxes_apart_touching_and_overlapping() {
    let cube = Arc::new(Geometry::new(cuboid([0.0; 3], [10.0; 3])));
    let a = Placed::new(&cube, Isometry3::identity());
    for (gap, colliding) in [(0.05, false), (1.0, false), (0.0, true), (-0.5, true)] {
        let b = Placed::new(&cube, Isometry3::translation(0.0, 0.0, 10.0 + gap));
        for engine in [&FastEngine as &dyn CollisionEngine, &ReferenceEngine] {
            assert_eq!(engine.collide(a, b), colliding, "gap {gap}");
            match engine.distance(a, b) {
                Ok(s) => {
                    assert!((s.distance - gap).abs() < 1e-9, "gap {gap}: {s:?}");
                    assert!((s.point_a.z - 10.0).abs() < 1e-9 && s.point_b.z.abs() < 1e-9);
                }
                Err(Interpenetrating) => assert!(colliding, "gap {gap}"),
            }
        }
    }
}

#[test]
fn face_to_face_contacts_lie_on_both_faces_with_graspits_normal() {
    let cube = Geometry::new(cuboid([0.0; 3], [10.0; 3]));
    let a = Placed::new(&cube, Isometry3::translation(3.0, 2.0, 10.05));
    let b = Placed::new(&cube, Isometry3::identity());
    let found = FastEngine.contacts(a, b, 0.1).unwrap();
    assert!(!found.is_empty());
    for c in &found {
        assert!((c.separation - 0.05).abs() < 1e-9, "{c:?}");
        assert!(
            c.point_a.z.abs() < 1e-9 && (c.point_b.z - 10.0).abs() < 1e-9,
            "{c:?}"
        );
        assert!(
            (c.normal_a - Vector3::z()).norm() < 1e-9,
            "into the upper body: {c:?}"
        );
    }
    assert!(
        FastEngine.contacts(a, b, 0.04).unwrap().is_empty(),
        "the threshold is strict"
    );
}

#[test]
fn both_bounding_volumes_give_the_same_answers() {
    let mut rng = Random::new(23);
    for case in 0..30 {
        let (ma, mb) = (closed_shape(&mut rng), closed_shape(&mut rng));
        let (oa, ob) = (Geometry::new(ma.clone()), Geometry::new(mb.clone()));
        let aabb = clasp_collide::BoundingVolume::Aabb;
        let (xa, xb) = (
            Geometry::with_bounding_volume(ma, aabb),
            Geometry::with_bounding_volume(mb, aabb),
        );
        let (pa, pb) = (rng.pose(3.0), rng.pose(25.0));
        let obb = (Placed::new(&oa, pa), Placed::new(&ob, pb));
        let axis = (Placed::new(&xa, pa), Placed::new(&xb, pb));
        assert_eq!(
            FastEngine.collide(obb.0, obb.1),
            FastEngine.collide(axis.0, axis.1),
            "case {case}"
        );
        assert_eq!(
            FastEngine.contacts(obb.0, obb.1, 1.0),
            FastEngine.contacts(axis.0, axis.1, 1.0),
            "case {case}"
        );
    }
}

#[test]
fn the_farthest_move_bounds_every_vertex_and_is_tight_for_a_slide() {
    let mut rng = Random::new(23);
    for _ in 0..200 {
        let geometry = Geometry::new(closed_shape(&mut rng));
        let from = rng.pose(50.0);
        let scale = [1e-7, 1e-3, 0.1, 1.0][rng.below(4)];
        let to = Isometry3::from_parts(
            Translation3::from(from.translation.vector + rng.vector(scale)),
            UnitQuaternion::from_scaled_axis(rng.vector(scale * 0.05)) * from.rotation,
        );
        let bound = geometry.farthest_move(&from, &to);
        let farthest = geometry
            .mesh()
            .vertices()
            .iter()
            .map(|v| (to * v - from * v).norm())
            .fold(0.0, f64::max);
        assert!(
            farthest <= bound * (1.0 + 1e-9) + 1e-12,
            "{farthest} > {bound}"
        );
    }
    let geometry = Geometry::new(cuboid([0.0; 3], [10.0; 3]));
    let slid = Isometry3::translation(0.3, 0.4, 0.0);
    let bound = geometry.farthest_move(&Isometry3::identity(), &slid);
    assert!((bound - 0.5).abs() < 1e-12, "{bound}");
}

/// The contacts found among the triangle pairs kept within a margin equal the full search's,
/// to the bit, while the bodies move relative to each other less than the margin: random
/// shapes brought near, touching and crossing, then nudged.
#[test]
fn contacts_among_kept_pairs_equal_the_full_search_within_the_margin() {
    let mut rng = Random::new(31);
    let fast = FastEngine;
    let (mut compared, mut touching, mut crossing, mut fewer) = (0, 0, 0, 0);
    for case in 0..120 {
        let (ga, gb) = (
            Geometry::new(random_mesh(&mut rng)),
            Geometry::new(random_mesh(&mut rng)),
        );
        let (pose_a, pose_b) = (rng.pose(5.0), rng.pose(30.0));
        let a = Placed::new(&ga, pose_a);
        let threshold = [0.1, 0.5][case % 2];
        let Ok(s) = fast.distance(a, Placed::new(&gb, pose_b)) else {
            continue;
        };
        let start = closer(a, pose_b, &s, threshold * rng.range(0.0, 2.0));
        let margin = [0.05, 0.5, 2.0][case % 3];
        let near = fast
            .near_triangles(a, Placed::new(&gb, start), threshold + margin)
            .unwrap();
        // What the walk learnt beyond the reach counts too: nudges up to it are compared, and
        // no pair left out lies closer (brute force).
        assert!(near.complete_within >= threshold + margin);
        let b_in_a = pose_a.inv_mul(&start);
        let left_out = (0..ga.mesh().triangles().len())
            .flat_map(|i| (0..gb.mesh().triangles().len()).map(move |j| (i, j)))
            .filter(|&(i, j)| {
                !near.pairs.contains(&TrianglePair {
                    a: i as u32,
                    b: j as u32,
                })
            })
            .map(|(i, j)| {
                let tb = gb.mesh().triangle_points(j).map(|p| b_in_a * p);
                triangle_closest_points(&ga.mesh().triangle_points(i), &tb)
                    .map_or(0.0, |(p, q)| (p - q).norm())
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            left_out >= near.complete_within * (1.0 - 1e-9),
            "case {case}: {left_out} < {}",
            near.complete_within
        );
        let (kept, margin) = (near.pairs, near.complete_within - threshold);
        let every = ga.mesh().triangles().len() * gb.mesh().triangles().len();
        fewer += usize::from(kept.len() < every);
        let relative = pose_a.inv_mul(&start);
        for nudge in 0..10 {
            let scale = margin * [0.1, 0.4, 0.9][nudge % 3];
            let moved_a = Isometry3::from_parts(
                Translation3::from(pose_a.translation.vector + rng.vector(scale * 0.3)),
                UnitQuaternion::from_scaled_axis(rng.vector(scale * 0.002)) * pose_a.rotation,
            );
            let moved_b = Isometry3::from_parts(
                Translation3::from(start.translation.vector + rng.vector(scale * 0.3)),
                UnitQuaternion::from_scaled_axis(rng.vector(scale * 0.002)) * start.rotation,
            );
            let (a1, b1) = (Placed::new(&ga, moved_a), Placed::new(&gb, moved_b));
            if gb.farthest_move(&relative, &moved_a.inv_mul(&moved_b)) >= margin {
                continue;
            }
            let full = fast.contacts(a1, b1, threshold);
            let among = fast.contacts_among(a1, b1, threshold, &kept);
            assert_eq!(among, full, "case {case}, nudge {nudge}");
            // Collision and proximity tests among the same pairs, either body first.
            let tolerance = threshold * 0.5;
            let flipped: Vec<TrianglePair> = kept
                .iter()
                .map(|p| TrianglePair { a: p.b, b: p.a })
                .collect();
            for (x, y, pairs) in [(a1, b1, &kept), (b1, a1, &flipped)] {
                let label = format!("case {case}, nudge {nudge}");
                assert_eq!(
                    fast.collide_among(x, y, pairs),
                    fast.collide(x, y),
                    "{label}"
                );
                let within = fast.within(x, y, tolerance);
                assert_eq!(fast.within_among(x, y, tolerance, pairs), within, "{label}");
            }
            compared += 1;
            match full {
                Ok(found) => touching += usize::from(!found.is_empty()),
                Err(Interpenetrating) => crossing += 1,
            }
        }
    }
    println!(
        "{compared} compared: {touching} touching, {crossing} crossing; {fewer} kept fewer than every pair"
    );
    assert!(compared > 500 && touching > 150 && crossing > 10 && fewer > 50);
}
