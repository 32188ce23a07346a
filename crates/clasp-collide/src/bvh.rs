//! The bounding-volume tree: a binary tree of oriented boxes over a mesh's triangles, built
//! once per mesh. Leaves are single triangles and are not boxed themselves: a triangle is
//! tested against the other side's box directly, which halves the node count.

use nalgebra::{Matrix3, SymmetricEigen, Vector3};
use rayon::prelude::*;

use crate::{mesh::TriMesh, oriented_box::OrientedBox};

/// How node boxes are oriented. Both are stored and tested as oriented boxes; `Aabb` keeps the
/// mesh's own axes, `Obb` fits each box to its triangles (principal axes of the area-weighted
/// covariance, as GraspIt does), which is tighter on tilted and curved surfaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoundingVolume {
    #[default]
    Obb,
    Aabb,
}

/// A child of a node: another node or one triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Child {
    Node(u32),
    Triangle(u32),
}

const TRIANGLE_BIT: u32 = 1 << 31;

impl Child {
    fn encode(self) -> u32 {
        match self {
            Child::Node(i) => i,
            Child::Triangle(i) => i | TRIANGLE_BIT,
        }
    }

    fn decode(bits: u32) -> Self {
        if bits & TRIANGLE_BIT != 0 {
            Child::Triangle(bits & !TRIANGLE_BIT)
        } else {
            Child::Node(bits)
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub bv: OrientedBox,
    children: [u32; 2],
}

impl Node {
    /// A slot before the builder fills it.
    const UNSET: Node = Node {
        bv: OrientedBox {
            axes: Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
            center: Vector3::new(0.0, 0.0, 0.0),
            half: Vector3::new(0.0, 0.0, 0.0),
        },
        children: [0, 0],
    };

    pub fn children(&self) -> [Child; 2] {
        self.children.map(Child::decode)
    }
}

/// The tree of one mesh; nodes in depth-first order, the root first.
#[derive(Debug, Clone, PartialEq)]
pub struct BvTree {
    nodes: Vec<Node>,
    /// `None` for a mesh without triangles.
    root: Option<Child>,
    kind: BoundingVolume,
}

impl BvTree {
    pub(crate) fn build(mesh: &TriMesh, kind: BoundingVolume) -> Self {
        let mut order: Vec<u32> = (0..mesh.triangles().len() as u32).collect();
        // A binary tree over n triangle leaves has n − 1 nodes; each subtree's nodes sit in one
        // run (depth-first order), so the two halves of a node are built into disjoint slices,
        // on two threads while they are large.
        let mut nodes = vec![Node::UNSET; order.len().saturating_sub(1)];
        let root =
            (!order.is_empty()).then(|| Builder::new(mesh, kind).build(&mut order, &mut nodes, 0));
        Self { nodes, root, kind }
    }

    /// The root, or `None` when the mesh has no triangles (and nothing can be met).
    pub(crate) fn root(&self) -> Option<Child> {
        self.root
    }

    pub(crate) fn node(&self, index: u32) -> &Node {
        &self.nodes[index as usize]
    }

    pub fn bounding_volume(&self) -> BoundingVolume {
        self.kind
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes the tree takes on the heap.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
    }

    /// The boxes `depth` levels below the root (or leaves' parents above it), for display:
    /// (centre, axes as columns, half sizes), in the mesh's frame.
    pub fn boxes_at_depth(&self, depth: usize) -> Vec<(Vector3<f64>, Matrix3<f64>, Vector3<f64>)> {
        let mut out = Vec::new();
        let mut level = match self.root {
            Some(Child::Node(i)) => vec![i],
            _ => vec![],
        };
        for _ in 0..depth {
            let next: Vec<u32> = level
                .iter()
                .flat_map(|&i| self.node(i).children())
                .filter_map(|c| match c {
                    Child::Node(i) => Some(i),
                    Child::Triangle(_) => None,
                })
                .collect();
            if next.is_empty() {
                break;
            }
            level = next;
        }
        for i in level {
            let bv = &self.node(i).bv;
            out.push((bv.center, bv.axes, bv.half));
        }
        out
    }
}

/// Nodes of this many triangles or fewer (half the nodes) take their largest triangle's
/// frame as their axes instead of the covariance's eigenvectors.
const SMALL_NODE: usize = 2;

/// Subtrees of at least this many triangles are built on two threads.
const PARALLEL_BUILD: usize = 4096;

/// What the builder knows of each triangle, computed once.
struct Builder<'a> {
    mesh: &'a TriMesh,
    kind: BoundingVolume,
    centroids: Vec<Vector3<f64>>,
    /// Area and area-weighted first and second moments (GraspIt's covariance terms).
    moments: Vec<Moments>,
    /// Padding on every side of every box, so rounding never lets a triangle poke out.
    pad: f64,
}

#[derive(Clone, Copy, Default)]
struct Moments {
    area: f64,
    first: Vector3<f64>,
    second: Matrix3<f64>,
}

impl std::ops::AddAssign for Moments {
    fn add_assign(&mut self, other: Self) {
        self.area += other.area;
        self.first += other.first;
        self.second += other.second;
    }
}

impl<'a> Builder<'a> {
    fn new(mesh: &'a TriMesh, kind: BoundingVolume) -> Self {
        let (lo, hi) = mesh.bounding_box();
        let scale = lo.coords.amax().max(hi.coords.amax());
        let (centroids, moments) = (0..mesh.triangles().len())
            .into_par_iter()
            .map(|t| {
                let [a, b, c] = mesh.triangle_points(t).map(|p| p.coords);
                let m = (a + b + c) / 3.0;
                let area = 0.5 * (b - a).cross(&(c - a)).norm();
                // Ericson's area-weighted covariance of a triangle, before centring.
                let second = (m * m.transpose() * 9.0
                    + a * a.transpose()
                    + b * b.transpose()
                    + c * c.transpose())
                    * (area / 12.0);
                let first = m * area;
                (
                    m,
                    Moments {
                        area,
                        first,
                        second,
                    },
                )
            })
            .unzip();
        Self {
            mesh,
            kind,
            centroids,
            moments,
            pad: 1e-9 * (1.0 + scale),
        }
    }

    /// Builds the subtree over `ids` into `nodes` (exactly `ids.len() − 1` slots, the first
    /// at index `first` of the whole tree) and returns its root.
    fn build(&self, ids: &mut [u32], nodes: &mut [Node], first: u32) -> Child {
        if let [single] = ids {
            return Child::Triangle(*single);
        }
        let bv = self.fit(ids);
        // Split at the median centroid along the longest side: a balanced tree, built in
        // O(n log n) whatever the mesh.
        let axis = bv.axes.column(bv.half.imax()).into_owned();
        let key = |t: &u32| self.centroids[*t as usize].dot(&axis);
        let middle = ids.len() / 2;
        ids.select_nth_unstable_by(middle, |x, y| key(x).total_cmp(&key(y)));
        let (left, right) = ids.split_at_mut(middle);
        let (own, below) = nodes
            .split_first_mut()
            .expect("a node over two triangles or more");
        let (left_nodes, right_nodes) = below.split_at_mut(left.len() - 1);
        let right_first = first + left.len() as u32;
        let (left, right) = if left.len() + right.len() >= PARALLEL_BUILD {
            rayon::join(
                || self.build(left, left_nodes, first + 1),
                || self.build(right, right_nodes, right_first),
            )
        } else {
            (
                self.build(left, left_nodes, first + 1),
                self.build(right, right_nodes, right_first),
            )
        };
        *own = Node {
            bv,
            children: [left.encode(), right.encode()],
        };
        Child::Node(first)
    }

    fn fit(&self, ids: &[u32]) -> OrientedBox {
        let axes = match self.kind {
            BoundingVolume::Aabb => Matrix3::identity(),
            BoundingVolume::Obb if ids.len() <= SMALL_NODE => self.triangle_axes(ids),
            BoundingVolume::Obb => self.principal_axes(ids),
        };
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        let transposed = axes.transpose();
        for &t in ids {
            for &v in &self.mesh.triangles()[t as usize] {
                let q = transposed * self.mesh.vertices()[v as usize].coords;
                lo = lo.inf(&q);
                hi = hi.sup(&q);
            }
        }
        let pad = Vector3::repeat(self.pad);
        OrientedBox {
            axes,
            center: axes * ((lo + hi) * 0.5),
            half: (hi - lo) * 0.5 + pad,
        }
    }

    /// The frame of the node's largest triangle: its longest edge, across it in its plane,
    /// and its normal. Nearly as tight as the covariance's axes on a few neighbouring
    /// triangles, at a fraction of the cost of an eigen-solve.
    fn triangle_axes(&self, ids: &[u32]) -> Matrix3<f64> {
        let largest = ids
            .iter()
            .max_by(|a, b| {
                let area = |t: &&u32| self.moments[**t as usize].area;
                area(a).total_cmp(&area(b))
            })
            .expect("a node has triangles");
        let [a, b, c] = self
            .mesh
            .triangle_points(*largest as usize)
            .map(|p| p.coords);
        let edges = [b - a, c - b, a - c];
        let longest = edges
            .iter()
            .max_by(|e, f| e.norm_squared().total_cmp(&f.norm_squared()))
            .expect("three edges");
        let normal = edges[0].cross(&edges[1]);
        let (Some(x), Some(z)) = (longest.try_normalize(0.0), normal.try_normalize(0.0)) else {
            return self.principal_axes(ids);
        };
        Matrix3::from_columns(&[x, z.cross(&x), z])
    }

    /// The eigenvectors of the area-weighted covariance, as a right-handed rotation.
    fn principal_axes(&self, ids: &[u32]) -> Matrix3<f64> {
        let mut sum = Moments::default();
        for &t in ids {
            sum += self.moments[t as usize];
        }
        if sum.area <= 0.0 {
            return Matrix3::identity();
        }
        let mean = sum.first / sum.area;
        let covariance = sum.second / sum.area - mean * mean.transpose();
        if let Some(axes) = closed_form_eigenvectors(&covariance) {
            return axes;
        }
        let eigen = SymmetricEigen::new(covariance);
        let x = eigen.eigenvectors.column(0).into_owned();
        let y = eigen.eigenvectors.column(1).into_owned();
        let z = x.cross(&y);
        if z.norm_squared() <= 0.5 || z.iter().any(|c| c.is_nan()) {
            return Matrix3::identity();
        }
        Matrix3::from_columns(&[x, z.cross(&x).normalize(), z.normalize()])
    }
}

/// The eigenvectors of a symmetric 3×3 matrix as a rotation's columns, in closed form: the
/// eigenvalues by the trigonometric method, the vectors of the largest and the smallest as the
/// longest cross product of two rows of `m − λI`. `None` where two eigenvalues are too close for
/// that to be well conditioned (the iterative solver takes over).
fn closed_form_eigenvectors(m: &Matrix3<f64>) -> Option<Matrix3<f64>> {
    let off = m[(0, 1)].powi(2) + m[(0, 2)].powi(2) + m[(1, 2)].powi(2);
    let mean = m.trace() / 3.0;
    let spread = ((0..3).map(|i| (m[(i, i)] - mean).powi(2)).sum::<f64>() + 2.0 * off) / 6.0;
    // Zero (all eigenvalues equal) or NaN: nothing to take in closed form.
    if spread.is_nan() || spread <= 0.0 {
        return None;
    }
    let p = spread.sqrt();
    let b = (m - Matrix3::identity() * mean) / p;
    let phi = (b.determinant() / 2.0).clamp(-1.0, 1.0).acos() / 3.0;
    let largest = mean + 2.0 * p * phi.cos();
    let smallest = mean + 2.0 * p * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos();
    let middle = 3.0 * mean - largest - smallest;
    // Well separated from the middle one, or the vectors are ill conditioned.
    let gap = 0.05 * p;
    if largest - middle < gap || middle - smallest < gap {
        return None;
    }
    let vector = |lambda: f64| {
        let a = m - Matrix3::identity() * lambda;
        let (r0, r1, r2) = (
            a.row(0).transpose(),
            a.row(1).transpose(),
            a.row(2).transpose(),
        );
        [r0.cross(&r1), r0.cross(&r2), r1.cross(&r2)]
            .into_iter()
            .max_by(|u, v| u.norm_squared().total_cmp(&v.norm_squared()))
            .and_then(|v| v.try_normalize(0.0))
    };
    let x = canonical(vector(largest)?);
    let z = canonical(vector(smallest)?);
    let z = (z - x * x.dot(&z)).try_normalize(1e-6)?;
    Some(Matrix3::from_columns(&[x, z.cross(&x), z]))
}

/// An eigenvector's sign fixed so that its largest component is positive: the same frame
/// whatever the solver, so the same tree.
fn canonical(v: Vector3<f64>) -> Vector3<f64> {
    if v[v.iamax()] < 0.0 { -v } else { v }
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;

    fn grid(n: usize) -> TriMesh {
        let mut vertices = Vec::new();
        for i in 0..=n {
            for j in 0..=n {
                let (x, y) = (i as f64, j as f64);
                vertices.push(Point3::new(x, y, (x * 0.7).sin() + (y * 0.3).cos()));
            }
        }
        let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
        let mut triangles = Vec::new();
        for i in 0..n {
            for j in 0..n {
                triangles.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
                triangles.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
            }
        }
        TriMesh::new(vertices, triangles).unwrap()
    }

    /// Every triangle lies inside every box above it, and every triangle is a leaf once.
    fn check(
        tree: &BvTree,
        mesh: &TriMesh,
        child: Child,
        ancestors: &mut Vec<OrientedBox>,
        seen: &mut Vec<u32>,
    ) {
        match child {
            Child::Triangle(t) => {
                seen.push(t);
                for bv in ancestors.iter() {
                    for p in mesh.triangle_points(t as usize) {
                        let q = bv.axes.transpose() * (p.coords - bv.center);
                        assert!((0..3).all(|i| q[i].abs() <= bv.half[i]), "{p} pokes out");
                    }
                }
            }
            Child::Node(i) => {
                let node = tree.node(i);
                ancestors.push(node.bv);
                for c in node.children() {
                    check(tree, mesh, c, ancestors, seen);
                }
                ancestors.pop();
            }
        }
    }

    #[test]
    fn boxes_hold_their_triangles_and_every_triangle_is_a_leaf() {
        let mesh = grid(12);
        for kind in [BoundingVolume::Obb, BoundingVolume::Aabb] {
            let tree = BvTree::build(&mesh, kind);
            assert_eq!(tree.node_count(), mesh.triangles().len() - 1);
            let mut seen = Vec::new();
            check(
                &tree,
                &mesh,
                tree.root().unwrap(),
                &mut Vec::new(),
                &mut seen,
            );
            seen.sort();
            assert_eq!(seen, (0..mesh.triangles().len() as u32).collect::<Vec<_>>());
        }
    }

    #[test]
    fn closed_form_eigenvectors_diagonalise_the_covariance() {
        let rotation = nalgebra::Rotation3::from_euler_angles(0.3, -1.1, 2.0).into_inner();
        let covariance =
            rotation * Matrix3::from_diagonal(&Vector3::new(5.0, 2.0, 0.5)) * rotation.transpose();
        let axes = closed_form_eigenvectors(&covariance).expect("distinct eigenvalues");
        let diagonal = axes.transpose() * covariance * axes;
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    assert!(diagonal[(i, j)].abs() < 1e-9, "{diagonal}");
                }
            }
        }
        assert!((axes.determinant() - 1.0).abs() < 1e-9);
        let round = Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 3.0));
        assert!(
            closed_form_eigenvectors(&round).is_none(),
            "a repeated eigenvalue"
        );
    }
}
