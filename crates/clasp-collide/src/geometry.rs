//! A mesh with its tree: what every query runs on. Built once, then shared behind an `Arc` by
//! every body, clone and thread that uses the shape.

use std::sync::{Mutex, OnceLock};

use nalgebra::{Isometry3, Vector3};

use crate::{
    bvh::{BoundingVolume, BvTree, Child},
    graspit_tree::GraspItTree,
    mesh::TriMesh,
    oriented_box::{point_box_distance_squared, ray_meets_box},
    point_tree::PointTree,
    triangle::{Point, Triangle},
};

/// The ball about the centre of the mesh's box that reaches its farthest vertex: as tight as
/// the box's half-diagonal or tighter (a sphere's own radius for a sphere).
fn enclosing_ball(mesh: &TriMesh) -> (Point, f64) {
    let (lo, hi) = mesh.bounding_box();
    let centre = nalgebra::center(&lo, &hi);
    let radius = mesh
        .vertices()
        .iter()
        .map(|v| (v - centre).norm_squared())
        .fold(0.0, f64::max)
        .sqrt();
    (centre, radius)
}

/// A validated mesh and the bounding-volume tree over its triangles.
#[derive(Debug, Clone)]
pub struct Geometry {
    mesh: TriMesh,
    tree: BvTree,
    /// A ball holding every vertex: centre (mesh frame) and radius.
    ball: (Point, f64),
    /// The tree for closest points, built when first asked for.
    points: OnceLock<PointTree>,
    /// GraspIt's own tree, for its contacts in its order; built when first asked for.
    graspit: OnceLock<GraspItTree>,
    /// The last point asked for its farthest vertex, and how far that is.
    farthest: LastFarthest,
}

/// [`Geometry::farthest_vertex_distance`]'s last answer: a grasp's quality asks it for the
/// object's centre of gravity at every frame of a drag, and the same point gets the same
/// answer without a pass over every vertex (50,000 of them on a 99k-triangle sphere).
#[derive(Debug, Default)]
struct LastFarthest(Mutex<Option<(Point, f64)>>);

impl LastFarthest {
    fn get(&self) -> Option<(Point, f64)> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, answer: (Point, f64)) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(answer);
    }
}

impl Clone for LastFarthest {
    fn clone(&self) -> Self {
        Self(Mutex::new(self.get()))
    }
}

/// Two geometries are equal when their meshes and trees are, whether or not either has been
/// asked for closest points yet.
impl PartialEq for Geometry {
    fn eq(&self, other: &Self) -> bool {
        (&self.mesh, &self.tree, self.ball) == (&other.mesh, &other.tree, other.ball)
    }
}

impl Geometry {
    /// Builds the tree of oriented boxes.
    pub fn new(mesh: TriMesh) -> Self {
        Self::with_bounding_volume(mesh, BoundingVolume::Obb)
    }

    pub fn with_bounding_volume(mesh: TriMesh, kind: BoundingVolume) -> Self {
        let tree = BvTree::build(&mesh, kind);
        let ball = enclosing_ball(&mesh);
        Self {
            mesh,
            tree,
            ball,
            points: OnceLock::new(),
            graspit: OnceLock::new(),
            farthest: LastFarthest::default(),
        }
    }

    /// How far the vertex farthest from `from` (mesh frame) is from it: GraspIt's maximum
    /// radius of an object about its centre of gravity, which scales a grasp's torques.
    pub fn farthest_vertex_distance(&self, from: &Point) -> f64 {
        if let Some((last, distance)) = self.farthest.get()
            && last == *from
        {
            return distance;
        }
        let distance = self
            .mesh
            .vertices()
            .iter()
            .map(|v| (v - from).norm())
            .fold(0.0, f64::max);
        self.farthest.set((*from, distance));
        distance
    }

    /// A ball holding the whole mesh, in its frame: centre and radius. Computed once, for the
    /// cheapest of distance bounds (the gap between two balls).
    pub fn bounding_ball(&self) -> (Point, f64) {
        self.ball
    }

    /// Whether a ball (its centre in this geometry's frame) misses the box round the whole
    /// mesh: then nothing in the ball crosses the surface, lies inside the mesh or holds it.
    /// A cheaper first look than two trees for a long or flat body, which its own ball fits
    /// loosely (a table, an arm's link).
    pub fn ball_misses(&self, centre: &Point, radius: f64) -> bool {
        match self.tree().root() {
            Some(Child::Node(root)) => {
                point_box_distance_squared(&self.tree().node(root).bv, centre) > radius * radius
            }
            _ => false,
        }
    }

    /// How far any point of this geometry moves between two of its poses, at most: its
    /// ball's centre's move plus the ball's radius times the chord of the turn. What a search
    /// kept for a margin needs to know it still holds.
    pub fn farthest_move(&self, from: &Isometry3<f64>, to: &Isometry3<f64>) -> f64 {
        let (centre, radius) = self.ball;
        let shift = (to * centre - from * centre).norm();
        // The chord 2 sin(θ/2) from the turn's quaternion: exact for the smallest turns, whose
        // angle through acos rounds to zero.
        let turn = from.rotation.inverse() * to.rotation;
        shift + radius * 2.0 * turn.imag().norm()
    }

    /// The tree for closest points, built on first use.
    pub(crate) fn point_tree(&self) -> &PointTree {
        self.points.get_or_init(|| PointTree::build(&self.mesh))
    }

    /// GraspIt's tree of this mesh ([`crate::contacts_in_graspit_order`]), built on first use.
    pub(crate) fn graspit_tree(&self) -> &GraspItTree {
        self.graspit.get_or_init(|| GraspItTree::build(&self.mesh))
    }

    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }

    pub fn tree(&self) -> &BvTree {
        &self.tree
    }

    pub(crate) fn triangle(&self, index: u32) -> Triangle {
        self.mesh.triangle_points(index as usize)
    }

    /// How many times the surface winds round `p` (mesh frame): ±1 inside a closed mesh, 0
    /// outside. Counted as signed crossings of a ray; a ray that grazes an edge, a corner or a
    /// face's plane is ambiguous, and another direction is tried. `None` if every one is.
    /// Whether a point (mesh frame) lies inside the mesh: a closed mesh whose surface winds
    /// round it. An open mesh holds nothing.
    pub fn contains(&self, p: &Point) -> bool {
        self.mesh.is_closed() && self.winding_number(p).is_some_and(|w| w != 0)
    }

    pub(crate) fn winding_number(&self, p: &Point) -> Option<i32> {
        RAY_DIRECTIONS
            .iter()
            .find_map(|d| self.signed_crossings(p, &Vector3::from(*d).normalize()))
    }

    fn signed_crossings(&self, origin: &Point, direction: &Vector3<f64>) -> Option<i32> {
        let mut total = 0;
        let mut stack: Vec<Child> = self.tree.root().into_iter().collect();
        while let Some(child) = stack.pop() {
            match child {
                Child::Triangle(t) => total += ray_crossing(&self.triangle(t), origin, direction)?,
                Child::Node(i) => {
                    let node = self.tree.node(i);
                    if ray_meets_box(&node.bv, origin, direction) {
                        stack.extend(node.children());
                    }
                }
            }
        }
        Some(total)
    }
}

/// Directions with no simple ratios between their components, so that a ray along one rarely
/// meets an edge of a mesh built on a grid.
const RAY_DIRECTIONS: [[f64; 3]; 6] = [
    [0.5773, 0.6123, 0.5401],
    [-0.3111, 0.8412, -0.4423],
    [0.7011, -0.3333, 0.6234],
    [-0.6661, -0.5557, 0.4971],
    [0.1234, -0.9123, -0.3896],
    [0.9411, 0.2718, -0.2011],
];

/// +1 or −1 if the ray crosses the triangle (by the side it leaves through), 0 if it misses,
/// `None` if it comes too close to an edge or runs along the plane to decide.
fn ray_crossing([a, b, c]: &Triangle, origin: &Point, direction: &Vector3<f64>) -> Option<i32> {
    const EPS: f64 = 1e-9;
    let (e1, e2) = (b - a, c - a);
    let h = direction.cross(&e2);
    let det = e1.dot(&h);
    let scale = e1.norm() * e2.norm();
    let normal = e1.cross(&e2);
    if det.abs() <= EPS * scale {
        // Parallel: a miss unless the ray runs in the plane.
        let off_plane = (origin - a).dot(&normal).abs() / normal.norm();
        return if off_plane > EPS * (1.0 + e1.norm()) {
            Some(0)
        } else {
            None
        };
    }
    let s = origin - a;
    let u = s.dot(&h) / det;
    let q = s.cross(&e1);
    let v = direction.dot(&q) / det;
    let t = e2.dot(&q) / det;
    let w = 1.0 - u - v;
    let length = e1.norm().max(e2.norm());
    if t < -EPS * length || u < -EPS || v < -EPS || w < -EPS {
        return Some(0);
    }
    if t <= EPS * length || u <= EPS || v <= EPS || w <= EPS {
        return None;
    }
    Some(if direction.dot(&normal) > 0.0 { 1 } else { -1 })
}

/// A geometry at a pose in the world.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub geometry: &'a Geometry,
    pub pose: Isometry3<f64>,
}

impl<'a> Placed<'a> {
    pub fn new(geometry: &'a Geometry, pose: Isometry3<f64>) -> Self {
        Self { geometry, pose }
    }

    pub fn mesh(&self) -> &'a TriMesh {
        self.geometry.mesh()
    }
}

/// The pose taking `b`'s frame to `a`'s. Every query on a pair works in `a`'s frame and moves
/// `b`'s triangles there with this one transform, so the engines agree to the last bit.
pub(crate) fn b_in_a(a: &Placed, b: &Placed) -> Isometry3<f64> {
    a.pose.inv_mul(&b.pose)
}

/// Whether the first corner of `inner` lies inside the closed mesh `outer`. Given that the
/// surfaces do not cross, one corner decides for the whole of `inner`.
pub(crate) fn first_corner_inside(outer: &Placed, inner: &Placed) -> bool {
    if !outer.mesh().is_closed() || inner.mesh().is_empty() {
        return false;
    }
    let corner = inner.geometry.triangle(0)[0];
    let p = b_in_a(outer, inner) * corner;
    // Outside the root box is outside the mesh: the common case, and cheap.
    if let Some(Child::Node(root)) = outer.geometry.tree().root()
        && point_box_distance_squared(&outer.geometry.tree().node(root).bv, &p) > 0.0
    {
        return false;
    }
    outer.geometry.winding_number(&p).is_some_and(|w| w != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes::subdivided_box;

    #[test]
    fn the_farthest_vertex_is_found_again_for_each_new_point() {
        // A 2 × 4 × 6 box about the origin: its farthest corners from a point are known.
        let geometry = Geometry::new(subdivided_box([-1.0, -2.0, -3.0], [1.0, 2.0, 3.0], 2));
        let centre = Point::origin();
        let corner = (1.0f64 + 4.0 + 9.0).sqrt();
        assert_eq!(geometry.farthest_vertex_distance(&centre), corner);
        // Asked again, the same answer; from another point, that point's.
        assert_eq!(geometry.farthest_vertex_distance(&centre), corner);
        let off = Point::new(1.0, 0.0, 0.0);
        let far_corner = (4.0f64 + 4.0 + 9.0).sqrt();
        assert!((geometry.farthest_vertex_distance(&off) - far_corner).abs() < 1e-12);
        // A clone starts from its original's last answer and still answers each point anew.
        let copy = geometry.clone();
        assert_eq!(copy.farthest_vertex_distance(&centre), corner);
    }

    #[test]
    fn a_ball_misses_a_flat_body_its_own_ball_would_not() {
        // A table 2 m wide and 20 mm thick: its bounding ball reaches a metre above it.
        let table = Geometry::new(subdivided_box(
            [-1000.0, -1000.0, -20.0],
            [1000.0, 1000.0, 0.0],
            2,
        ));
        assert!(table.ball_misses(&Point::new(0.0, 0.0, 60.0), 50.0));
        // Touching the top, inside it, or round all of it: not missed.
        assert!(!table.ball_misses(&Point::new(0.0, 0.0, 50.0), 50.0));
        assert!(!table.ball_misses(&Point::new(0.0, 0.0, -10.0), 1.0));
        assert!(!table.ball_misses(&Point::origin(), 5000.0));
        // Beside it, off its edge.
        assert!(table.ball_misses(&Point::new(1100.0, 0.0, -10.0), 50.0));
    }
}
