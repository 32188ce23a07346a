//! A parallel gripper's candidates as the field samples them (ACRONYM, GraspGen): a point on
//! the object's surface drawn by area, the ray from it straight into the object to where it
//! leaves on the far side, and the pair kept where the two faces meet the line between them
//! within the friction cone and the jaws open wider than the pair stands apart. The gripper
//! closes along that line, its jaws centred on the pair, approached along its palm's axis from
//! a direction drawn round the line.

use std::f64::consts::TAU;

use nalgebra::{Matrix3, Point3, Rotation3, Translation3, Unit, UnitQuaternion, Vector3};

use clasp_collide::{CollisionEngine, Placed, TriMesh};
use clasp_random::SplitMix64;

use super::batch::GraspCandidate;
use crate::{
    body::Body,
    ids::BodyId,
    pose::Pose,
    robot::{Robot, jaws::ParallelJaws},
    world::{World, error::MoveError},
};

/// A pair this much narrower than the jaws' opening, at least, leaves each jaw room to come
/// round the object without striking it (a share of the opening).
const JAW_ROOM: f64 = 0.1;

/// Surface points drawn for each candidate wanted, at most, before the sampler gives up on an
/// object with too few pairs the jaws take.
const DRAWS_PER_CANDIDATE: usize = 200;

/// Directions round a pair's line tried, evenly from a drawn one, for a way in that meets
/// nothing.
const APPROACHES_PER_PAIR: usize = 8;

/// The step (mm) along the way in at which the hand is checked clear of the object.
const WAY_STEP: f64 = 5.0;

/// One pair of points on the object, world frame: where the first jaw meets it, where the
/// second does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AntipodalPair {
    pub first: Point3<f64>,
    pub second: Point3<f64>,
}

/// `count` candidates for the parallel gripper `hand` (its jaws: `jaws`) on `object`, drawn
/// from `seed` (the same seed, the same candidates), each starting clear of the object and
/// approaching through to its grasp ([`GraspCandidate::through`]). Fewer where the object
/// offers too few pairs the jaws take (none for a frictionless one).
pub fn antipodal_candidates<E: CollisionEngine>(
    world: &World<E>,
    hand: &Robot,
    jaws: &ParallelJaws,
    object: BodyId,
    count: usize,
    seed: u64,
) -> Result<Vec<GraspCandidate>, MoveError> {
    let body = world.body(object).ok_or(MoveError::NoSuchBody(object))?;
    let surface = Surface::of(body);
    let friction = body.material.static_friction(hand.palm.material);
    let widest = jaws.opening * (1.0 - JAW_ROOM);
    let mut random = SplitMix64::new(seed);
    let (lo, hi) = body.mesh().bounding_box();
    // How far back along its approach the hand is clear of the object wherever it grasps.
    let way = (hi - lo).norm() + hand.reach();
    let approach = hand.approach_direction().into_inner();
    let mut candidates = Vec::with_capacity(count);
    for _ in 0..count * DRAWS_PER_CANDIDATE {
        if candidates.len() == count {
            break;
        }
        let Some(pair) = surface.antipodal_pair(widest, friction, &mut random) else {
            continue;
        };
        let first_turn = random.unit();
        let clear = (0..APPROACHES_PER_PAIR).find_map(|k| {
            let turn = (first_turn + k as f64 / APPROACHES_PER_PAIR as f64) * TAU;
            let grasp = jaws_pose(hand, jaws, &pair, across(&pair, turn));
            clear_way(world.engine(), hand, grasp, body, way).then_some(grasp)
        });
        if let Some(grasp) = clear {
            // Started as far back again as the jaws stand from the palm, the hand is clear.
            let standoff = way + jaws.centre.coords.norm();
            let back = Translation3::from(-(grasp.rotation * approach) * standoff);
            candidates.push(GraspCandidate {
                palm: back * grasp,
                dofs: hand.dof_values().to_vec(),
                approach: standoff,
                through: true,
            });
        }
    }
    Ok(candidates)
}

/// Whether the hand, as it stands but with its palm at `grasp`, and at every step back from
/// there along its approach for `way` mm, stays out of `object`.
fn clear_way<E: CollisionEngine>(
    engine: &E,
    hand: &Robot,
    grasp: Pose,
    object: &Body,
    way: f64,
) -> bool {
    let back = -(grasp.rotation * hand.approach_direction().into_inner());
    let steps = (way / WAY_STEP).ceil() as usize;
    let from_palm = hand.pose().inverse();
    let target = Placed::new(&object.geometry, object.pose);
    (0..=steps).all(|k| {
        let palm = Translation3::from(back * (k as f64 * WAY_STEP)) * grasp;
        hand.bodies().filter(|b| !b.mesh().is_empty()).all(|b| {
            let placed = Placed::new(&b.geometry, palm * from_palm * b.pose);
            !engine.collide(placed, target)
        })
    })
}

/// A body's surface, for drawing points on it by area.
pub struct Surface<'a> {
    body: &'a Body,
    /// The running sum of the triangles' areas.
    areas: Vec<f64>,
}

impl<'a> Surface<'a> {
    pub fn of(body: &'a Body) -> Self {
        let mesh = body.mesh();
        let mut sum = 0.0;
        let areas = (0..mesh.triangles().len())
            .map(|t| {
                let [a, b, c] = mesh.triangle_points(t);
                sum += (b - a).cross(&(c - a)).norm() / 2.0;
                sum
            })
            .collect();
        Self { body, areas }
    }

    /// A pair on the surface (world frame) no wider apart than `widest`, each face within
    /// the friction cone (`friction`, μ) of the line between them: drawn from a point on the
    /// surface (by area) and the ray from it straight in; `None` where that draw gives none.
    pub fn antipodal_pair(
        &self,
        widest: f64,
        friction: f64,
        random: &mut SplitMix64,
    ) -> Option<AntipodalPair> {
        let mesh = self.body.mesh();
        let total = *self.areas.last().filter(|&&a| a > 0.0)?;
        let drawn = random.unit() * total;
        let triangle = self
            .areas
            .partition_point(|&a| a < drawn)
            .min(self.areas.len() - 1);
        let inward = Unit::try_new(-mesh.triangle_normal(triangle), 1e-12)?;
        let first = point_on(mesh, triangle, random);
        let (width, far) = first_exit(mesh, &first, &inward, triangle)?;
        // The far face's outward normal along the line (the near face's is against it).
        let far_facing = mesh.triangle_normal(far).normalize().dot(&inward);
        if width > widest || far_facing < friction.atan().cos() {
            return None;
        }
        let pose = self.body.pose();
        Some(AntipodalPair {
            first: pose * first,
            second: pose * (first + inward.into_inner() * width),
        })
    }
}

/// A point drawn uniformly on a triangle.
fn point_on(mesh: &TriMesh, triangle: usize, random: &mut SplitMix64) -> Point3<f64> {
    let [a, b, c] = mesh.triangle_points(triangle);
    let (mut u, mut v) = (random.unit(), random.unit());
    if u + v > 1.0 {
        (u, v) = (1.0 - u, 1.0 - v);
    }
    a + (b - a) * u + (c - a) * v
}

/// Where the ray from `from` along `direction` first meets another triangle of the mesh: how
/// far, and which triangle.
fn first_exit(
    mesh: &TriMesh,
    from: &Point3<f64>,
    direction: &Unit<Vector3<f64>>,
    own: usize,
) -> Option<(f64, usize)> {
    (0..mesh.triangles().len())
        .filter(|&t| t != own)
        .filter_map(|t| Some((ray_hits(&mesh.triangle_points(t), from, direction)?, t)))
        .filter(|&(distance, _)| distance > 1e-6)
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// How far along the ray it meets the triangle, if it does (Möller and Trumbore's test).
fn ray_hits(
    [a, b, c]: &[Point3<f64>; 3],
    from: &Point3<f64>,
    direction: &Vector3<f64>,
) -> Option<f64> {
    let (ab, ac) = (b - a, c - a);
    let p = direction.cross(&ac);
    let det = ab.dot(&p);
    if det.abs() < 1e-12 {
        return None;
    }
    let to_from = from - a;
    let u = to_from.dot(&p) / det;
    let q = to_from.cross(&ab);
    let v = direction.dot(&q) / det;
    if u < 0.0 || v < 0.0 || u + v > 1.0 {
        return None;
    }
    Some(ac.dot(&q) / det)
}

/// The direction square to the pair's line at `turn` radians round it: where the gripper
/// comes from.
fn across(pair: &AntipodalPair, turn: f64) -> Unit<Vector3<f64>> {
    let line = Unit::new_normalize(pair.second - pair.first);
    let helper = if line.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let u = line.cross(&helper).normalize();
    let w = line.cross(&u);
    Unit::new_normalize(u * turn.cos() + w * turn.sin())
}

/// The palm pose that closes the jaws along the pair's line, centred on it, approaching along
/// `approach`.
fn jaws_pose(
    hand: &Robot,
    jaws: &ParallelJaws,
    pair: &AntipodalPair,
    approach: Unit<Vector3<f64>>,
) -> Pose {
    let palm_approach = hand.approach_direction();
    // The palm's frame of (closing, approach square to it, their cross) onto the world's.
    let closing = jaws.closing.into_inner();
    let forward = (palm_approach.into_inner() - closing * closing.dot(&palm_approach)).normalize();
    let palm_frame = Matrix3::from_columns(&[closing, forward, closing.cross(&forward)]);
    let line = (pair.second - pair.first).normalize();
    let world_frame = Matrix3::from_columns(&[line, approach.into_inner(), line.cross(&approach)]);
    let rotation = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(
        world_frame * palm_frame.transpose(),
    ));
    let centre = nalgebra::center(&pair.first, &pair.second);
    let origin = centre - rotation * jaws.centre.coords;
    Pose::from_parts(Translation3::from(origin.coords), rotation)
}

#[cfg(test)]
mod tests {
    use clasp_collide::shapes::cuboid;

    use super::*;
    use crate::body::BodyKind;

    /// A 40 × 60 × 100 mm box: every pair runs straight across it between opposite faces
    /// (its faces are square to each other, so no cone lets a pair cross a corner), as wide
    /// as the box is that way; none where the jaws take less than its narrowest side.
    #[test]
    fn a_box_s_pairs_cross_it_between_opposite_faces() {
        let body = Body::from_mesh(
            "box",
            BodyKind::Graspable,
            cuboid([-20.0, -30.0, -50.0], [20.0, 30.0, 50.0]),
        );
        let surface = Surface::of(&body);
        let mut random = SplitMix64::new(7);
        let pairs: Vec<AntipodalPair> = (0..400)
            .filter_map(|_| surface.antipodal_pair(70.0, 0.5, &mut random))
            .collect();
        assert!(pairs.len() > 100, "{} pairs", pairs.len());
        for pair in &pairs {
            let across = pair.second - pair.first;
            let width = across.norm();
            let axis = across.iamax();
            assert!(
                width <= 70.0 && across[axis].abs() > width - 1e-9,
                "{pair:?}"
            );
            assert!((width - [40.0, 60.0][axis]).abs() < 1e-6, "{pair:?}");
        }
        let none = (0..400).filter_map(|_| surface.antipodal_pair(35.0, 0.5, &mut random));
        assert_eq!(none.count(), 0);
    }
}
