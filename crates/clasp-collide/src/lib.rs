//! Clasp's collision core: validated triangle meshes with their bounding-volume trees, the
//! queries between two bodies (collide, contacts, distance) and on one (point distance, region),
//! two engines that answer them (the fast tree-based one and a brute-force reference), contact
//! pruning, the collision filter, and scenes that run many pairs at once in parallel.

mod bvh;
mod engine;
mod fast;
mod filter;
mod geometry;
mod mesh;
pub mod pruning;
pub mod reference;
mod scene;
pub mod shapes;
pub mod triangle;

pub use bvh::{BoundingVolume, BvTree};
pub use engine::{
    CollisionEngine, Contact, DEFAULT_CONTACT_THRESHOLD, Gap, Interpenetrating, PointDistance,
    Separation, TrianglePair,
};
pub use fast::FastEngine;
pub use filter::{
    ALL_GROUPS, BodyFilter, BodyIndex, CollisionFilter, FilterError, MOVABLE_GROUP, STATIC_GROUP,
    group_bit,
};
pub use geometry::{Geometry, Placed};
pub use mesh::{MeshError, TriMesh};
pub use reference::ReferenceEngine;
pub use scene::{CollisionScene, PairContacts, PairResult, SceneError, pose_is_finite};
