//! The body the crate's unit tests build with: one triangle, the smallest mesh a body takes.

use clasp_collide::TriMesh;
use nalgebra::Point3;

use super::{Body, BodyKind};

/// A body of `kind` whose mesh is the unit right triangle at the origin in the xy plane.
pub(crate) fn triangle(name: &str, kind: BodyKind) -> Body {
    let mesh = TriMesh::new(
        vec![
            Point3::origin(),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    Body::from_mesh(name, kind, mesh)
}
