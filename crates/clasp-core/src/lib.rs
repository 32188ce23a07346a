//! Clasp's simulated world: bodies, materials and robots with their kinematics.
//!
//! Units are millimetres, grams and radians; Z is up. No file I/O and no GUI live here.

mod body;
mod mass;
mod robot;
mod world;

pub use body::{Body, BodyKind, Compliance, Material, UnknownMaterial};
pub use mass::{DEFAULT_DENSITY, DEFAULT_MASS, GivenMass, MassProperties};
pub use clasp_collide::TriMesh;
pub use robot::{Approach, Chain, Coupling, Dof, DofError, DofKind, Joint, JointKind, Link, Robot};
pub use world::{BodyId, World};

/// A rigid placement: rotation then translation. The one pose type of the whole core.
pub type Pose = nalgebra::Isometry3<f64>;
