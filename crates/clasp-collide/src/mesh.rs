use nalgebra::{Point3, Vector3};

/// Why a mesh was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    #[error("vertex {index} has a coordinate that is not a finite number")]
    NonFiniteVertex { index: usize },
    #[error(
        "triangle {triangle} refers to vertex {vertex}, but there are only {vertex_count} vertices"
    )]
    IndexOutOfRange {
        triangle: usize,
        vertex: u32,
        vertex_count: usize,
    },
    #[error("the mesh has no triangles with area")]
    Empty,
}

/// A triangle mesh in a body's local frame, in millimetres.
///
/// Built once through [`TriMesh::new`], which validates it: every coordinate is finite, every
/// index is in range, and triangles without area (repeated or collinear vertices) are dropped
/// and counted, since they can neither be drawn nor touched.
#[derive(Debug, Clone, PartialEq)]
pub struct TriMesh {
    vertices: Vec<Point3<f64>>,
    triangles: Vec<[u32; 3]>,
    dropped_degenerate: usize,
    closed: bool,
}

impl TriMesh {
    pub fn new(vertices: Vec<Point3<f64>>, triangles: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if let Some(index) = vertices
            .iter()
            .position(|v| !v.coords.iter().all(|c| c.is_finite()))
        {
            return Err(MeshError::NonFiniteVertex { index });
        }
        for (t, tri) in triangles.iter().enumerate() {
            if let Some(&vertex) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::IndexOutOfRange {
                    triangle: t,
                    vertex,
                    vertex_count: vertices.len(),
                });
            }
        }
        let total = triangles.len();
        let triangles: Vec<[u32; 3]> = triangles
            .into_iter()
            .filter(|tri| triangle_area_vector(&vertices, tri).norm_squared() > 0.0)
            .collect();
        if triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        let dropped_degenerate = total - triangles.len();
        let closed = is_closed(&triangles);
        Ok(Self {
            vertices,
            triangles,
            dropped_degenerate,
            closed,
        })
    }

    /// A mesh without triangles: the geometry of a body that has none (GraspIt's model library
    /// has a few, e.g. placeholder links). It is never touched, drawn or met by a ray.
    pub fn empty() -> Self {
        Self {
            vertices: Vec::new(),
            triangles: Vec::new(),
            dropped_degenerate: 0,
            closed: false,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    pub fn vertices(&self) -> &[Point3<f64>] {
        &self.vertices
    }

    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// How many triangles without area were dropped when the mesh was built.
    pub fn dropped_degenerate(&self) -> usize {
        self.dropped_degenerate
    }

    /// Whether the surface is closed and consistently wound: every edge is used once in each
    /// direction. Only a closed mesh has an inside.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The corners of one triangle.
    pub fn triangle_points(&self, triangle: usize) -> [Point3<f64>; 3] {
        self.triangles[triangle].map(|i| self.vertices[i as usize])
    }

    /// The unit normal of one triangle, from its counter-clockwise winding.
    pub fn triangle_normal(&self, triangle: usize) -> Vector3<f64> {
        triangle_area_vector(&self.vertices, &self.triangles[triangle]).normalize()
    }

    /// The axis-aligned bounding box of the vertices, as (minimum, maximum) corners.
    /// The empty mesh's box is the origin.
    pub fn bounding_box(&self) -> (Point3<f64>, Point3<f64>) {
        let first = self
            .vertices
            .first()
            .copied()
            .unwrap_or_else(Point3::origin);
        let (mut lo, mut hi) = (first, first);
        for v in &self.vertices {
            lo = lo.inf(v);
            hi = hi.sup(v);
        }
        (lo, hi)
    }

    /// The volume the surface encloses, by the divergence theorem: the sum over the triangles
    /// (a, b, c) of a · (b × c) / 6. Positive when the triangles wind counter-clockwise seen
    /// from outside, negative when the surface is inside out; it means a volume only for a
    /// closed mesh (an open one gives a number that depends on where the origin is).
    pub fn signed_volume(&self) -> f64 {
        (0..self.triangles.len())
            .map(|t| {
                let [a, b, c] = self.triangle_points(t);
                a.coords.dot(&b.coords.cross(&c.coords)) / 6.0
            })
            .sum()
    }
}

fn is_closed(triangles: &[[u32; 3]]) -> bool {
    let mut balance: std::collections::HashMap<(u32, u32), i32> = std::collections::HashMap::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            *balance.entry((a.min(b), a.max(b))).or_default() += if a < b { 1 } else { -1 };
        }
    }
    balance.values().all(|&n| n == 0)
}

/// Twice the triangle's area, along its normal.
fn triangle_area_vector(vertices: &[Point3<f64>], tri: &[u32; 3]) -> Vector3<f64> {
    let [a, b, c] = tri.map(|i| vertices[i as usize]);
    (b - a).cross(&(c - a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<Point3<f64>> {
        vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(1.0, 1.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ]
    }

    #[test]
    fn keeps_good_triangles_and_reports_the_box() {
        let mesh = TriMesh::new(square(), vec![[0, 1, 2], [0, 2, 3]]).unwrap();
        assert_eq!(mesh.triangles().len(), 2);
        assert_eq!(mesh.dropped_degenerate(), 0);
        assert!(!mesh.is_closed(), "a square has a border");
        assert_eq!(mesh.triangle_normal(0), Vector3::z());
        let (lo, hi) = mesh.bounding_box();
        assert_eq!((lo, hi), (Point3::origin(), Point3::new(1.0, 1.0, 0.0)));
    }

    #[test]
    fn a_tetrahedron_is_closed() {
        let mut vertices = square();
        vertices[2] = Point3::new(0.0, 0.0, 1.0);
        let tet = TriMesh::new(vertices, vec![[0, 3, 1], [0, 1, 2], [0, 2, 3], [1, 3, 2]]).unwrap();
        assert!(tet.is_closed());
        let flipped = TriMesh::new(
            tet.vertices().to_vec(),
            vec![[0, 3, 1], [0, 1, 2], [0, 2, 3], [1, 2, 3]],
        )
        .unwrap();
        assert!(!flipped.is_closed(), "one face wound the wrong way");
    }

    #[test]
    fn the_signed_volume_is_positive_wound_outward_wherever_the_mesh_stands() {
        let corners = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        let outward = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let tet = |offset: f64, triangles: Vec<[u32; 3]>| {
            let vertices = corners.map(|[x, y, z]| Point3::new(x + offset, y, z - offset));
            TriMesh::new(vertices.to_vec(), triangles).unwrap()
        };
        assert!((tet(0.0, outward.to_vec()).signed_volume() - 1.0 / 6.0).abs() < 1e-15);
        assert!((tet(100.0, outward.to_vec()).signed_volume() - 1.0 / 6.0).abs() < 1e-9);
        let inward = outward.map(|[a, b, c]| [a, c, b]).to_vec();
        assert!((tet(0.0, inward).signed_volume() + 1.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn drops_and_counts_degenerate_triangles() {
        let mut vertices = square();
        vertices.push(Point3::new(2.0, 0.0, 0.0)); // collinear with 0 and 1
        let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [0, 0, 3], [0, 1, 4]]).unwrap();
        assert_eq!(mesh.triangles(), &[[0, 1, 2]]);
        assert_eq!(mesh.dropped_degenerate(), 2);
    }

    #[test]
    fn refuses_nan_coordinates() {
        let mut vertices = square();
        vertices[2].y = f64::NAN;
        let err = TriMesh::new(vertices, vec![[0, 1, 2]]).unwrap_err();
        assert_eq!(err, MeshError::NonFiniteVertex { index: 2 });
    }

    #[test]
    fn refuses_indices_out_of_range() {
        let err = TriMesh::new(square(), vec![[0, 1, 2], [0, 2, 9]]).unwrap_err();
        assert_eq!(
            err,
            MeshError::IndexOutOfRange {
                triangle: 1,
                vertex: 9,
                vertex_count: 4
            }
        );
    }

    #[test]
    fn refuses_a_mesh_without_area() {
        let err = TriMesh::new(square(), vec![[0, 0, 1]]).unwrap_err();
        assert_eq!(err, MeshError::Empty);
    }
}
