//! Collects a reader's vertices and polygons into a `TriMesh`.

use std::{collections::HashMap, path::Path};

use clasp_collide::{MeshError, TriMesh};
use nalgebra::Point3;

use crate::error::LoadError;

/// Welds vertices with exactly equal coordinates (so closedness can be judged by shared edges),
/// triangulates polygons as fans, and drops triangles with two equal vertices, as GraspIt does.
#[derive(Debug, Default)]
pub(crate) struct MeshBuilder {
    vertices: Vec<Point3<f64>>,
    index_of: HashMap<[u64; 3], u32>,
    triangles: Vec<[u32; 3]>,
}

impl MeshBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a vertex (or finds the equal one already added) and returns its index.
    /// The caller has checked that its coordinates are finite.
    pub fn vertex(&mut self, p: Point3<f64>) -> u32 {
        // +0.0 and -0.0 are the same point.
        let key = [p.x, p.y, p.z].map(|c| (c + 0.0).to_bits());
        *self.index_of.entry(key).or_insert_with(|| {
            self.vertices.push(p);
            (self.vertices.len() - 1) as u32
        })
    }

    pub fn triangle(&mut self, [a, b, c]: [u32; 3]) {
        if a != b && b != c && a != c {
            self.triangles.push([a, b, c]);
        }
    }

    /// A convex polygon as the fan (v0, vi, vi+1), Coin's triangulation of convex faces.
    pub fn polygon(&mut self, corners: &[u32]) {
        for k in 1..corners.len().saturating_sub(1) {
            self.triangle([corners[0], corners[k], corners[k + 1]]);
        }
    }

    /// The mesh of a shape built in code, which always has triangles with area.
    pub fn into_mesh(self) -> Result<TriMesh, MeshError> {
        TriMesh::new(self.vertices, self.triangles)
    }

    /// The mesh. A file with no triangle that has area gives the empty mesh, as GraspIt loads
    /// such files (placeholder links, an empty obstacle) as bodies with nothing to touch.
    pub fn finish(self, file: &Path) -> Result<TriMesh, LoadError> {
        match TriMesh::new(self.vertices, self.triangles) {
            Err(MeshError::Empty) => Ok(TriMesh::empty()),
            other => {
                other.map_err(|e| LoadError::new(file, None, format!("unusable geometry: {e}")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welds_equal_vertices_and_drops_repeated_corners() {
        let mut builder = MeshBuilder::new();
        let a = builder.vertex(Point3::new(0.0, 0.0, 0.0));
        let b = builder.vertex(Point3::new(1.0, 0.0, 0.0));
        let c = builder.vertex(Point3::new(0.0, 1.0, 0.0));
        assert_eq!(builder.vertex(Point3::new(-0.0, 0.0, 0.0)), a);
        builder.polygon(&[a, b, c, c]);
        builder.triangle([a, a, b]);
        let mesh = builder.finish(Path::new("m")).unwrap();
        assert_eq!((mesh.vertices().len(), mesh.triangles().len()), (3, 1));
        assert!(
            MeshBuilder::new()
                .finish(Path::new("empty.iv"))
                .unwrap()
                .is_empty()
        );
    }
}
