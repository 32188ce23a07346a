//! What reading a geometry file gives, whichever its format.

use clasp_collide::TriMesh;

/// A geometry file's triangles and, where the file gives one, its display colour.
#[derive(Debug, Clone)]
pub struct MeshFile {
    pub mesh: TriMesh,
    /// The first diffuse colour the file gives (linear RGB in 0..1).
    pub color: Option<[f32; 3]>,
}
