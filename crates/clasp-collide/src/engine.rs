//! The replaceable collision API, after GraspIt's `CollisionInterface`: the queries on one pair
//! of bodies, or on one body, that every engine answers the same way. The world that registers
//! bodies, applies the rules and runs many pairs at once is `clasp-core`'s, generic over the
//! engine.

use std::collections::BTreeSet;

use nalgebra::{Isometry3, Vector3};

use crate::{
    geometry::Placed,
    mesh::TriMesh,
    triangle::{Point, closest_point_on_triangle},
};

/// The contact threshold Clasp uses unless told otherwise, in millimetres.
pub const DEFAULT_CONTACT_THRESHOLD: f64 = 0.1;

/// Two bodies interpenetrate: their surfaces cross, or a closed one holds the other inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the bodies interpenetrate")]
pub struct Interpenetrating;

/// The closest points of two separate bodies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Separation {
    pub distance: f64,
    /// The closest point of the first body, in its own frame.
    pub point_a: Point,
    /// The closest point of the second body, in its own frame.
    pub point_b: Point,
    /// The triangles the closest points lie on: a good seed for the next query of the pair.
    pub triangles: TrianglePair,
}

/// One triangle of each body, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TrianglePair {
    pub a: u32,
    pub b: u32,
}

/// What a distance query with a cut-off learnt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gap {
    /// The bodies are closer than the cut-off: their closest points (within the query's
    /// relative error).
    Closer(Separation),
    /// The bodies are at least this far apart; the query stopped once it knew.
    AtLeast(f64),
}

impl Separation {
    /// Bodies without triangles are infinitely far from everything; `None` if both have some.
    pub(crate) fn with_empty(a: &Placed, b: &Placed) -> Option<Separation> {
        (a.mesh().is_empty() || b.mesh().is_empty()).then(|| Separation {
            distance: f64::INFINITY,
            point_a: Point::origin(),
            point_b: Point::origin(),
            triangles: TrianglePair::default(),
        })
    }
}

/// The triangle pairs of two bodies that may lie within a reach, from one walk of their trees.
#[derive(Debug, Clone, PartialEq)]
pub struct NearTriangles {
    /// Sorted by the first body's triangle, then the second's.
    pub pairs: Vec<TrianglePair>,
    /// Every triangle pair closer than this (mm) is among `pairs`: the reach asked for, or
    /// more where the walk learnt that what it passed over lies farther.
    pub complete_within: f64,
    /// Each pair's distance then (mm; 0 for a pair that crosses), in `pairs`' order: while
    /// the bodies have moved less than that since, relative to each other, less whatever a
    /// query needs, the pair cannot take part in its answer and is passed over.
    pub gaps: Vec<f64>,
}

/// A point pair of two bodies closer than the contact threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshContact {
    pub triangle_a: usize,
    pub triangle_b: usize,
    /// The point on the first body, in its own frame.
    pub point_a: Point,
    /// The point on the second body, in its own frame.
    pub point_b: Point,
    /// Unit vector from the second body's point to the first's, in the first body's frame:
    /// GraspIt's `b1_normal`, pointing into the first body. The second body's is its opposite.
    pub normal_a: Vector3<f64>,
    /// Distance between the two points, in millimetres.
    pub separation: f64,
}

/// The point of a body's surface closest to a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointDistance {
    pub distance: f64,
    /// The closest point of the surface, in the world.
    pub closest: Point,
    pub triangle: usize,
}

/// The queries every collision engine answers. Points and normals given to and returned by a
/// query on one body are in that body's frame unless a method says otherwise.
pub trait CollisionEngine: Send + Sync {
    /// Whether the bodies interpenetrate: the surfaces cross or touch, or one closed body holds
    /// the other inside.
    fn collide(&self, a: Placed, b: Placed) -> bool;

    /// Every point pair closer than `threshold` (millimetres, strict), GraspIt's way: vertex–face
    /// and edge–edge closest points of every close triangle pair.
    fn contacts(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
    ) -> Result<Vec<MeshContact>, Interpenetrating>;

    /// The triangle pairs of the two bodies that may lie closer than `reach` (millimetres),
    /// sorted: every pair closer is among them, and some a little farther may be. A pair's
    /// contacts are found among these again ([`Self::contacts_among`]) while neither body has
    /// moved, relative to the other, farther than the distance they are complete within less
    /// the contact threshold: then no other pair can have come within the threshold. `None`
    /// from an engine that cannot say, which then searches every time.
    fn near_triangles(&self, a: Placed, b: Placed, reach: f64) -> Option<NearTriangles> {
        let _ = (a, b, reach);
        None
    }

    /// [`Self::contacts`] found among the given triangle pairs (sorted) alone: the very same
    /// contacts, to the bit and in the same order, when `pairs` holds every triangle pair
    /// closer than `threshold` (which [`Self::near_triangles`] gives while the bodies stay
    /// within its margin). An engine that cannot narrow its search searches the whole pair.
    fn contacts_among(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
        pairs: &[TrianglePair],
    ) -> Result<Vec<MeshContact>, Interpenetrating> {
        let _ = pairs;
        self.contacts(a, b, threshold)
    }

    /// [`Self::collide`] decided among the given triangle pairs alone (of `a`, of `b`): the
    /// same answer when `pairs` holds every triangle pair that touches or crosses.
    fn collide_among(&self, a: Placed, b: Placed, pairs: &[TrianglePair]) -> bool {
        let _ = pairs;
        self.collide(a, b)
    }

    /// [`Self::within`] decided among the given triangle pairs alone: the same answer when
    /// `pairs` holds every triangle pair closer than `tolerance`.
    fn within_among(&self, a: Placed, b: Placed, tolerance: f64, pairs: &[TrianglePair]) -> bool {
        let _ = pairs;
        self.within(a, b, tolerance)
    }

    /// The minimum distance and the closest points.
    fn distance(&self, a: Placed, b: Placed) -> Result<Separation, Interpenetrating>;

    /// The distance if it is below `cutoff`, else only that it is not: what conservative
    /// advancement needs, which stops descending the trees once every remaining pair of nodes
    /// is at least `cutoff` apart. `seed` (the triangles of an earlier answer for this pair)
    /// starts the search from their distance, which prunes most of the traversal when the
    /// bodies have moved little since (PQP's and Coal's trick). A seed out of range is ignored.
    ///
    /// With a `relative_error` ε > 0 the walk also gives up pairs of nodes that could beat the
    /// best pair found by no more than a factor 1 + ε (Coal's and FCL's `rel_err`): a
    /// `Gap::Closer` is then a real pair of points at most 1 + ε times farther apart than the
    /// closest, and `Gap::AtLeast` says the distance is at least `cutoff / (1 + ε)`. A lower
    /// bound is all a move needs, and far apart it comes much cheaper this way. 0 is exact.
    fn distance_below(
        &self,
        a: Placed,
        b: Placed,
        cutoff: f64,
        seed: Option<TrianglePair>,
        relative_error: f64,
    ) -> Result<Gap, Interpenetrating> {
        let _ = seed;
        let separation = self.distance(a, b)?;
        let loosest = cutoff / (1.0 + relative_error);
        Ok(if separation.distance < loosest {
            Gap::Closer(separation)
        } else {
            Gap::AtLeast(loosest)
        })
    }

    /// Whether the bodies come closer than `tolerance` anywhere, or interpenetrate: PQP's
    /// tolerance query, which stops at the first pair of triangles closer than that.
    fn within(&self, a: Placed, b: Placed, tolerance: f64) -> bool {
        !self.distance(a, b).is_ok_and(|s| s.distance >= tolerance)
    }

    /// The distance from a world point to the body's surface, with the closest point (world).
    fn point_distance(&self, body: Placed, point: &Point) -> PointDistance;

    /// The distance from a world point to the body's surface if it is below `cutoff`, else
    /// `None`: for a caller that only needs the near points (a planner's energy that is already
    /// too high for the annealing to accept). A walk of the tree gives up every node at least
    /// `cutoff` away, so a far point costs almost nothing.
    fn point_distance_below(
        &self,
        body: Placed,
        point: &Point,
        cutoff: f64,
    ) -> Option<PointDistance> {
        Some(self.point_distance(body, point)).filter(|near| near.distance < cutoff)
    }

    /// The vertices of the triangles that come within `radius` of `point` and do not face along
    /// `normal` (normal · triangle normal ≤ 0), in the body's frame, each once, by index; what a
    /// soft contact fits its patch to. `point` and `normal` are in the body's frame.
    fn region(&self, body: Placed, point: &Point, normal: &Vector3<f64>, radius: f64)
    -> Vec<Point>;
}

impl MeshContact {
    /// A contact from a point pair found in the first body's frame, `b_in_a` taking the second
    /// body's frame there; `None` for a pair at zero distance, which has no direction (it cannot
    /// occur between triangles that do not touch).
    pub(crate) fn from_points_in_a(
        triangle_a: usize,
        triangle_b: usize,
        pa: &Point,
        pb: &Point,
        b_in_a: &Isometry3<f64>,
    ) -> Option<MeshContact> {
        let offset = pa - pb;
        let normal_a = offset.try_normalize(0.0)?;
        Some(MeshContact {
            triangle_a,
            triangle_b,
            point_a: *pa,
            point_b: b_in_a.inverse_transform_point(pb),
            normal_a,
            separation: offset.norm(),
        })
    }
}

/// The region query's rule for one triangle: it comes within `radius` of `point` and does not
/// face along `normal`. Both engines apply it; they differ only in which triangles they ask.
pub(crate) fn in_region(
    mesh: &TriMesh,
    triangle: usize,
    point: &Point,
    normal: &Vector3<f64>,
    radius: f64,
) -> bool {
    let corners = mesh.triangle_points(triangle);
    (closest_point_on_triangle(point, &corners) - point).norm() <= radius
        && mesh.triangle_normal(triangle).dot(normal) <= 0.0
}

/// The points of a set of vertex indices, in index order.
pub(crate) fn region_points(mesh: &TriMesh, vertices: BTreeSet<u32>) -> Vec<Point> {
    vertices
        .into_iter()
        .map(|v| mesh.vertices()[v as usize])
        .collect()
}

/// Whether every part of a pose is a finite number.
pub fn pose_is_finite(pose: &Isometry3<f64>) -> bool {
    pose.translation.vector.iter().all(|c| c.is_finite())
        && pose.rotation.coords.iter().all(|c| c.is_finite())
}
