//! A tree for closest-point queries on one mesh. The collision tree's oriented boxes fit
//! triangles tightly, which pays between two moving bodies; a point's distance to one needs a
//! rotation, and its leaves hold one triangle whose corners are gathered through the mesh's
//! indices. Here boxes keep the mesh's axes (a point's distance to one is a few comparisons),
//! a leaf holds up to four triangles, and the corners are stored in leaf order so that a leaf
//! is read from one place. Built the first time a body is asked for a closest point (a
//! planner's contact energy asks millions of times), then kept with the geometry: about 100
//! bytes a triangle.

use crate::{
    mesh::TriMesh,
    triangle::{Point, Triangle, closest_point_on_triangle},
};

/// Triangles a leaf holds at most.
const LEAF: usize = 4;
/// Deep enough for any tree: median splits keep it balanced, so a stack of 64 holds the path
/// of a mesh of 2^62 triangles.
const STACK: usize = 64;

#[derive(Debug, Clone, Copy)]
struct Node {
    lo: [f64; 3],
    hi: [f64; 3],
    /// A leaf's first triangle; an inner node's second child (its first follows it).
    start: u32,
    /// A leaf's triangles; 0 for an inner node.
    count: u32,
}

impl Node {
    fn distance_squared(&self, p: &Point) -> f64 {
        (0..3)
            .map(|i| {
                let gap = (self.lo[i] - p[i]).max(p[i] - self.hi[i]).max(0.0);
                gap * gap
            })
            .sum()
    }
}

/// The closest point found: squared distance, the point (mesh frame), the mesh's triangle.
pub(crate) type Closest = (f64, Point, usize);

#[derive(Debug, Clone, Default)]
pub(crate) struct PointTree {
    nodes: Vec<Node>,
    /// Corners, in leaf order.
    triangles: Vec<Triangle>,
    /// The mesh's index of each stored triangle.
    indices: Vec<u32>,
}

impl PointTree {
    pub fn build(mesh: &TriMesh) -> Self {
        let count = mesh.triangles().len();
        let centroids: Vec<Point> = (0..count)
            .map(|t| {
                let [a, b, c] = mesh.triangle_points(t);
                Point::from((a.coords + b.coords + c.coords) / 3.0)
            })
            .collect();
        let mut order: Vec<u32> = (0..count as u32).collect();
        let mut tree = Self {
            nodes: Vec::with_capacity(2 * count / LEAF + 1),
            triangles: Vec::with_capacity(count),
            indices: Vec::with_capacity(count),
        };
        if count > 0 {
            tree.split(mesh, &centroids, &mut order);
        }
        tree
    }

    /// Adds the node over `order`'s triangles and, below it, its children: halves at the
    /// median centroid along the axis the centroids spread most.
    fn split(&mut self, mesh: &TriMesh, centroids: &[Point], order: &mut [u32]) {
        let here = self.nodes.len();
        let corners = order.iter().flat_map(|&t| mesh.triangle_points(t as usize));
        let (lo, hi) = bounds(corners);
        self.nodes.push(Node {
            lo,
            hi,
            start: 0,
            count: 0,
        });
        if order.len() <= LEAF {
            self.nodes[here].start = self.triangles.len() as u32;
            self.nodes[here].count = order.len() as u32;
            for &t in order.iter() {
                self.triangles.push(mesh.triangle_points(t as usize));
                self.indices.push(t);
            }
            return;
        }
        let axis = widest_axis(centroids, order);
        let middle = order.len() / 2;
        order.select_nth_unstable_by(middle, |&a, &b| {
            centroids[a as usize][axis].total_cmp(&centroids[b as usize][axis])
        });
        let (first, second) = order.split_at_mut(middle);
        self.split(mesh, centroids, first);
        self.nodes[here].start = self.nodes.len() as u32;
        self.split(mesh, centroids, second);
    }

    /// The closest point of the mesh to `p` (mesh frame) if it is nearer than `cutoff`.
    /// Nearest child first, and every box at least as far as the best found is skipped.
    pub fn closest_below(&self, p: &Point, cutoff: f64) -> Option<Closest> {
        let root = self.nodes.first()?;
        let mut best = cutoff * cutoff;
        if cutoff.is_nan() || cutoff <= 0.0 || root.distance_squared(p) >= best {
            return None;
        }
        let mut found = None;
        let mut stack = [(0u32, 0.0f64); STACK];
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let (index, bound) = stack[depth];
            if bound >= best {
                continue;
            }
            let node = &self.nodes[index as usize];
            if node.count > 0 {
                let first = node.start as usize;
                for k in first..first + node.count as usize {
                    let q = closest_point_on_triangle(p, &self.triangles[k]);
                    let squared = (q - p).norm_squared();
                    if squared < best {
                        best = squared;
                        found = Some((q, k));
                    }
                }
                continue;
            }
            let children = [index + 1, node.start].map(|child| {
                let bound = self.nodes[child as usize].distance_squared(p);
                (child, bound)
            });
            let [near, far] = if children[0].1 <= children[1].1 {
                children
            } else {
                [children[1], children[0]]
            };
            // The nearer child goes on the stack last, so it is opened first.
            for child in [far, near] {
                if child.1 < best {
                    stack[depth] = child;
                    depth += 1;
                }
            }
        }
        found.map(|(q, k)| (best, q, self.indices[k] as usize))
    }
}

/// The smallest box with axes the mesh's holding every point.
fn bounds(points: impl Iterator<Item = Point>) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for point in points {
        for i in 0..3 {
            lo[i] = lo[i].min(point[i]);
            hi[i] = hi[i].max(point[i]);
        }
    }
    (lo, hi)
}

fn widest_axis(centroids: &[Point], order: &[u32]) -> usize {
    let (lo, hi) = bounds(order.iter().map(|&t| centroids[t as usize]));
    (0..3)
        .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])))
        .unwrap_or(0)
}
