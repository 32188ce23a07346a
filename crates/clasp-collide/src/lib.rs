//! Clasp's collision core: triangle meshes and which pairs of bodies are checked.
//!
//! This crate starts with the validated triangle mesh every body carries and the collision
//! filter; the bounding-volume tree and the proximity queries build on them.

mod filter;
mod mesh;

pub use filter::{
    ALL_GROUPS, BodyFilter, BodyIndex, CollisionFilter, FilterError, MOVABLE_GROUP, STATIC_GROUP,
    group_bit,
};
pub use mesh::{MeshError, TriMesh};
