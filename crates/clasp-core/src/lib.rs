//! Clasp's simulated world: bodies, materials and robots with their kinematics.
//!
//! Units are millimetres, grams and radians; Z is up. No file I/O and no GUI live here.

mod body;
mod eigengrasp;
mod mass;
mod robot;
mod world;

pub use body::{Body, BodyKind, Compliance, Material, UnknownMaterial};
pub use clasp_collide::TriMesh;
pub use eigengrasp::{EigenGrasp, EigenGrasps};
pub use mass::{DEFAULT_DENSITY, DEFAULT_MASS, GivenMass, MassProperties};
pub use robot::{
    Approach, Chain, CollisionRule, Coupling, Dof, DofError, DofKind, Joint, JointDynamics,
    JointFrame, JointKind, Link, Robot, RobotBody,
};
pub use world::{BodyId, Camera, Connection, World};

/// A rigid placement: rotation then translation. The one pose type of the whole core.
pub type Pose = nalgebra::Isometry3<f64>;
