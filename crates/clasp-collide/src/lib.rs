//! Clasp's collision core: triangle meshes and which pairs of bodies are checked.
//!
//! So far: the validated triangle mesh every body carries, the collision filter, the triangle
//! routines, and the brute-force reference queries (collide, distance, contacts) that the fast,
//! tree-based engine will be tested against.

mod filter;
mod mesh;
pub mod reference;
pub mod triangle;

pub use filter::{
    ALL_GROUPS, BodyFilter, BodyIndex, CollisionFilter, FilterError, MOVABLE_GROUP, STATIC_GROUP,
    group_bit,
};
pub use mesh::{MeshError, TriMesh};
