//! Triangle meshes for Clasp's collision core.
//!
//! This crate starts with the validated triangle mesh every body carries; the bounding-volume
//! tree and the proximity queries build on it.

mod mesh;

pub use mesh::{MeshError, TriMesh};
