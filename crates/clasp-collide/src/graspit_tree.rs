//! GraspIt's box tree of a mesh (graspit-spec §1.2–1.5), built as GraspIt builds its own:
//! oriented boxes fitted by an area-weighted covariance and its Jacobi sweeps, split at the
//! mean vertex, one triangle a leaf, on vertices rounded to floats as GraspIt holds them. Built
//! once per geometry, on first use; `graspit_order` walks two of them as GraspIt does.

use nalgebra::{Isometry3, Matrix3, Point3, Rotation3, Vector3};

use crate::{mesh::TriMesh, triangle::Triangle};

/// GraspIt's `Leaf::TOLERANCE`: the padding round every fitted box, and its least half-size.
const PADDING: f64 = 1.0e-2;

/// A box of GraspIt's tree: its axes (columns), its centre and half-sizes, in the mesh frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BoxOf {
    axes: Matrix3<f64>,
    centre: Vector3<f64>,
    half: Vector3<f64>,
}

impl BoxOf {
    /// GraspIt's "volume" of a box, which decides which of two boxes is split.
    pub(crate) fn volume(&self) -> f64 {
        self.half.x * self.half.y * self.half.z
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    Leaf { bv: BoxOf, triangle: usize },
    Branch { bv: BoxOf, children: [usize; 2] },
}

impl Node {
    pub(crate) fn bv(&self) -> &BoxOf {
        match self {
            Node::Leaf { bv, .. } | Node::Branch { bv, .. } => bv,
        }
    }
}

/// GraspIt's box tree over a mesh's triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct GraspItTree {
    nodes: Vec<Node>,
    root: Option<usize>,
    /// The mesh's triangles in single precision, as GraspIt reads them through Coin: two
    /// points 3 mm apart can be duplicates or not by the rounding of their vertices. Where a
    /// file transforms its vertices Coin computes them in floats, which these (Clasp's
    /// doubles, rounded) may miss by up to ~1e-5 mm (docs/benchmarks.md, "GraspIt parity (issue 32)").
    triangles: Vec<Triangle>,
}

impl GraspItTree {
    pub fn build(mesh: &TriMesh) -> Self {
        let single = |p: Point3<f64>| p.map(|x| f64::from(x as f32));
        let triangles: Vec<Triangle> = (0..mesh.triangles().len())
            .map(|t| mesh.triangle_points(t).map(single))
            .collect();
        let mut tree = GraspItTree {
            nodes: Vec::new(),
            root: None,
            triangles: Vec::new(),
        };
        if !triangles.is_empty() {
            let all: Vec<usize> = (0..triangles.len()).collect();
            tree.root = Some(tree.grow(&triangles, all));
        }
        tree.triangles = triangles;
        tree
    }

    /// The root, or `None` for a mesh without triangles.
    pub(crate) fn root(&self) -> Option<usize> {
        self.root
    }

    pub(crate) fn node(&self, n: usize) -> &Node {
        &self.nodes[n]
    }

    /// A triangle as the tree holds it, in single precision.
    pub(crate) fn triangle(&self, t: usize) -> &Triangle {
        &self.triangles[t]
    }

    /// The node over `members` (triangle indices, in GraspIt's list order), split until each
    /// leaf holds one triangle.
    fn grow(&mut self, triangles: &[Triangle], members: Vec<usize>) -> usize {
        let bv = fit_box(triangles, &members);
        if members.len() <= 1 {
            self.nodes.push(Node::Leaf {
                bv,
                triangle: members[0],
            });
            return self.nodes.len() - 1;
        }
        let [first, second] = split(triangles, &members, &bv);
        let children = [self.grow(triangles, first), self.grow(triangles, second)];
        self.nodes.push(Node::Branch { bv, children });
        self.nodes.len() - 1
    }
}

fn centroid(t: &Triangle) -> Vector3<f64> {
    (t[0].coords + t[1].coords + t[2].coords) * (1.0 / 3.0)
}

/// GraspIt's `Leaf::split`: along the box's longest axis, at the mean of the triangles'
/// vertices; where that leaves a side empty, at the median centroid; else alternately.
fn split(triangles: &[Triangle], members: &[usize], bv: &BoxOf) -> [Vec<usize>; 2] {
    let mut axes: [Vector3<f64>; 3] = std::array::from_fn(|k| bv.axes.column(k).into());
    let half = bv.half;
    // The box's x is its longest side by construction; GraspIt checks anyway.
    if half.y > half.x + 1e-5 {
        axes.swap(0, 1);
        axes[1] = -axes[1];
    }
    if half.z > half.y && half.z > half.x + 1e-5 {
        axes.swap(0, 2);
        axes[2] = -axes[2];
    }
    let axis: Vector3<f64> = axes[0];
    let mut mean = Vector3::zeros();
    for &t in members {
        for v in &triangles[t] {
            mean += v.coords;
        }
    }
    let mean = mean * (1.0 / (3.0 * members.len() as f64));
    let at = |point: f64| -> [Vec<usize>; 2] {
        let (mut below, mut above) = (Vec::new(), Vec::new());
        for &t in members {
            if centroid(&triangles[t]).dot(&axis) < point {
                below.push(t);
            } else {
                above.push(t);
            }
        }
        [below, above]
    };
    let sides = at(mean.dot(&axis));
    if sides.iter().all(|s| !s.is_empty()) {
        return sides;
    }
    let mut projections: Vec<f64> = members
        .iter()
        .map(|&t| centroid(&triangles[t]).dot(&axis))
        .collect();
    let middle = projections.len() / 2;
    let median = *projections
        .select_nth_unstable_by(middle, |x, y| x.total_cmp(y))
        .1;
    let sides = at(median);
    if sides.iter().all(|s| !s.is_empty()) {
        return sides;
    }
    // GraspIt's "random" split: alternately, in list order.
    let mut sides = [Vec::new(), Vec::new()];
    for (k, &t) in members.iter().enumerate() {
        sides[k % 2].push(t);
    }
    sides
}

/// GraspIt's `computeBboxOO`: axes from the area-weighted covariance of the triangles, the
/// box fitted round every vertex with padding, then turned so that its x is its longest side.
fn fit_box(triangles: &[Triangle], members: &[usize]) -> BoxOf {
    let mut covariance = covariance(triangles, members);
    let vectors = jacobi(&mut covariance);
    let mut order = [0, 1, 2];
    if covariance[(1, 1)] > covariance[(0, 0)] {
        order.swap(0, 1);
    }
    if covariance[(2, 2)] > covariance[(order[0], order[0])] {
        order.swap(0, 2);
    }
    if covariance[(order[2], order[2])] > covariance[(order[1], order[1])] {
        order.swap(1, 2);
    }
    let x: Vector3<f64> = vectors.column(order[0]).into();
    let y: Vector3<f64> = vectors.column(order[1]).into();
    let z = x.normalize().cross(&y.normalize());
    let y = z.cross(&x.normalize());
    let x = y.cross(&z);
    let axes = Matrix3::from_columns(&[x, y, z]);
    let (mut low, mut high) = (
        Vector3::<f64>::repeat(1.0e10),
        Vector3::<f64>::repeat(-1.0e10),
    );
    for &t in members {
        for v in &triangles[t] {
            let along = axes.transpose() * v.coords;
            for i in 0..3 {
                high[i] = high[i].max(along[i] + PADDING);
                low[i] = low[i].min(along[i] - PADDING);
            }
        }
    }
    let mut half = (high - low) * 0.5;
    let centre = axes * (low + half);
    half = half.map(|h| h.max(PADDING));
    let longest = if half.y > half.x { 1 } else { 0 };
    let longest = if half.z > half[longest] { 2 } else { longest };
    let turn = match longest {
        1 => Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2),
        2 => Rotation3::from_axis_angle(&Vector3::y_axis(), std::f64::consts::FRAC_PI_2),
        _ => Rotation3::identity(),
    };
    BoxOf {
        axes: axes * turn.matrix(),
        centre,
        half: (turn * half).abs(),
    }
}

/// The area-weighted covariance of the triangles (Ericson, Real-Time Collision Detection).
fn covariance(triangles: &[Triangle], members: &[usize]) -> Matrix3<f64> {
    let mut sum = Matrix3::<f64>::zeros();
    let (mut area_total, mut weighted_mean) = (0.0, Vector3::zeros());
    for &t in members {
        let [a, b, c] = &triangles[t];
        let m = centroid(&triangles[t]);
        let area = 0.5 * (b - a).cross(&(c - a)).norm();
        area_total += area;
        weighted_mean += m * area;
        for i in 0..3 {
            for j in 0..3 {
                sum[(i, j)] +=
                    (area / 12.0) * (9.0 * m[i] * m[j] + a[i] * a[j] + b[i] * b[j] + c[i] * c[j]);
            }
        }
    }
    let mean = weighted_mean * (1.0 / area_total);
    Matrix3::from_fn(|i, j| (1.0 / area_total) * sum[(i, j)] - mean[i] * mean[j])
}

/// GraspIt's cyclic Jacobi sweeps (Golub & Van Loan): `a` is left with the eigenvalues on its
/// diagonal; the eigenvectors are returned as columns. Its quirks kept: a rotation only where
/// the off-diagonal entry exceeds 1e-4 (a float literal), at most 50 sweeps, a stop once the
/// off-diagonal sum stops falling.
fn jacobi(a: &mut Matrix3<f64>) -> Matrix3<f64> {
    let mut v = Matrix3::identity();
    let mut previous = f64::MAX;
    for n in 0..50 {
        let (mut p, mut q) = (0, 1);
        for i in 0..3 {
            for j in 0..3 {
                if i != j && a[(i, j)].abs() > a[(p, q)].abs() {
                    (p, q) = (i, j);
                }
            }
        }
        let (c, s) = symmetric_schur(a, p, q);
        let mut rotation = Matrix3::identity();
        rotation[(p, p)] = c;
        rotation[(p, q)] = s;
        rotation[(q, p)] = -s;
        rotation[(q, q)] = c;
        v *= rotation;
        *a = rotation.transpose() * *a * rotation;
        let off: f64 = (0..3)
            .flat_map(|i| (0..3).map(move |j| (i, j)))
            .filter(|(i, j)| i != j)
            .map(|ij| a[ij] * a[ij])
            .sum();
        if n > 2 && off >= previous {
            break;
        }
        previous = off;
    }
    v
}

fn symmetric_schur(a: &Matrix3<f64>, p: usize, q: usize) -> (f64, f64) {
    if a[(p, q)].abs() <= f64::from(0.0001_f32) {
        return (1.0, 0.0);
    }
    let r = (a[(q, q)] - a[(p, p)]) / (2.0 * a[(p, q)]);
    let t = if r >= 0.0 {
        1.0 / (r + (1.0 + r * r).sqrt())
    } else {
        -1.0 / (-r + (1.0 + r * r).sqrt())
    };
    let c = 1.0 / (1.0 + t * t).sqrt();
    (c, t * c)
}

/// GraspIt's lower bound on the squared distance between two boxes (`bboxDistanceSq`): the
/// gaps on the 15 separating axes, each box's three face gaps summed, and each edge–edge gap
/// added to the face gaps it lies beside; −1 where the boxes overlap.
pub(crate) fn box_distance_squared(a: &BoxOf, b: &BoxOf, b_to_a: &Isometry3<f64>) -> f64 {
    let rotation = a.axes.transpose() * b_to_a.rotation.to_rotation_matrix().matrix() * b.axes;
    let t =
        a.axes.transpose() * (b_to_a.rotation * b.centre + b_to_a.translation.vector - a.centre);
    let r = rotation;
    let rf = r.map(|x| x.abs() + 1e-6);
    let (ha, hb) = (a.half, b.half);
    let gap = |d: f64| d.max(0.0).powi(2);
    let face_a: [f64; 3] = std::array::from_fn(|i| {
        gap(t[i].abs() - (ha[i] + hb[0] * rf[(i, 0)] + hb[1] * rf[(i, 1)] + hb[2] * rf[(i, 2)]))
    });
    let face_b: [f64; 3] = std::array::from_fn(|k| {
        let s = t[0] * r[(0, k)] + t[1] * r[(1, k)] + t[2] * r[(2, k)];
        gap(s.abs() - (hb[k] + ha[0] * rf[(0, k)] + ha[1] * rf[(1, k)] + ha[2] * rf[(2, k)]))
    });
    let mut most = (face_a.iter().sum::<f64>()).max(face_b.iter().sum());
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        // The other two indices in ascending order, as GraspIt sums its terms.
        let (j1, j2) = (i1.min(i2), i1.max(i2));
        for k in 0..3 {
            let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
            let (m1, m2) = (k1.min(k2), k1.max(k2));
            let s = t[i2] * r[(i1, k)] - t[i1] * r[(i2, k)];
            let reach = ha[j1] * rf[(j2, k)]
                + ha[j2] * rf[(j1, k)]
                + hb[m1] * rf[(i, m2)]
                + hb[m2] * rf[(i, m1)];
            let d = gap(s.abs() - reach);
            most = most.max((face_a[i] + d).max(face_b[k] + d));
        }
    }
    if most == 0.0 { -1.0 } else { most }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::shapes;

    #[test]
    fn jacobi_finds_the_eigenvectors_of_a_symmetric_matrix() {
        let m = Matrix3::new(4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 1.0);
        let mut a = m;
        let v = jacobi(&mut a);
        // GraspIt leaves off-diagonal entries up to 1e-4 unrotated: eigenvectors to ~1e-5.
        for k in 0..3 {
            let column: Vector3<f64> = v.column(k).into();
            assert!((m * column - column * a[(k, k)]).norm() < 1e-4, "{k}: {a}");
        }
    }

    #[test]
    fn a_box_holds_its_triangles_and_lies_along_their_longest_side() {
        let mesh = shapes::cuboid([-20.0, -5.0, -2.0], [20.0, 5.0, 2.0]);
        let triangles: Vec<Triangle> = (0..mesh.triangles().len())
            .map(|t| mesh.triangle_points(t))
            .collect();
        let all: Vec<usize> = (0..triangles.len()).collect();
        let bv = fit_box(&triangles, &all);
        assert!(
            bv.half.x >= bv.half.y && bv.half.y >= bv.half.z,
            "{:?}",
            bv.half
        );
        assert!(
            (bv.half - Vector3::new(20.01, 5.01, 2.01)).norm() < 1e-6,
            "{:?}",
            bv.half
        );
        assert!(bv.axes.column(0).x.abs() > 1.0 - 1e-9, "{}", bv.axes);
    }
}
