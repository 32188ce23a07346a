//! Clasp's collision core: validated triangle meshes with their bounding-volume trees, the
//! queries between two bodies (collide, contacts, distance) and on one (point distance, region),
//! two engines that answer them (the fast tree-based one and a brute-force reference), contact
//! pruning, and the pieces of the collision rules (switches, groups and masks, domains).

mod bvh;
mod engine;
mod fast;
mod filter;
mod geometry;
mod graspit_order;
mod graspit_pruning;
mod graspit_tree;
mod mesh;
mod oriented_box;
mod point_tree;
pub mod pruning;
pub mod reference;
pub mod shapes;
pub mod triangle;

pub use bvh::{BoundingVolume, BvTree};
pub use engine::{
    CollisionEngine, DEFAULT_CONTACT_THRESHOLD, Gap, Interpenetrating, MeshContact, NearTriangles,
    PointDistance, Separation, TrianglePair, pose_is_finite,
};
pub use fast::FastEngine;
pub use filter::{
    ALL_GROUPS, CollisionGroups, CollisionSwitches, MOVABLE_GROUP, NoSuchGroup, STATIC_GROUP,
    domains_meet, group_bit,
};
pub use geometry::{Geometry, Placed};
pub use graspit_order::contacts_in_graspit_order;
pub use graspit_pruning::prune_contacts_as_graspit;
pub use mesh::{MeshError, TriMesh};
pub use reference::ReferenceEngine;
