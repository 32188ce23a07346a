//! Clasp's simulated world: bodies, materials and robots with their kinematics, moves that stop
//! at contact, collision switches, contacts, and clones of a hand evaluated in parallel.
//!
//! Units are millimetres, grams and radians; Z is up. No file I/O and no GUI live here.

mod assembly;
mod batch;
mod body;
mod contact;
mod contact_model;
mod domain;
mod eigengrasp;
mod grasp;
pub mod hull;
mod layers;
mod mass;
mod moves;
mod planner;
pub mod quality;
mod requests;
mod robot;
mod rules;
mod simulation;
pub mod soft;
mod virtual_contacts;
mod world;

pub use batch::{
    Aim, BatchGrasp, BatchQuality, GraspCandidate, aimed_candidates, draw_aims, grasp_candidates,
};
pub use body::{Body, BodyKind, Compliance, Material, UnknownMaterial, bounding_box};
pub use clasp_collide::{
    ALL_GROUPS, CollisionEngine, CollisionGroups, FastEngine, Geometry, NoSuchGroup,
    ReferenceEngine, TriMesh, group_bit,
};
pub use contact::{BodyType, Contact, KINETIC_SPEED, contact_frame};
pub use contact_model::{ContactModel, ContactOptions, SoftContact};
pub use domain::{Domain, GraspTrial, TrialPlan};
pub use eigengrasp::{EigenError, EigenGrasp, EigenGrasps, EigenSpace};
pub use grasp::{Grasp, GraspContact, GraspError};
pub use mass::{DEFAULT_DENSITY, DEFAULT_MASS, GivenMass, MassProperties};
pub use moves::{MoveOutcome, MoveQueries};
pub use planner::{Energy, Plan, PlanProgress, PlanSettings, PlannedGrasp};
pub use quality::{Quality, QualityError, WrenchSpaceKind};
pub use requests::MoveError;
pub use robot::{
    Approach, Chain, CollisionRule, Coupling, Dof, DofError, DofKind, Joint, JointDynamics,
    JointFrame, JointKind, Link, Robot, RobotBody,
};
pub use rules::CollisionSwitches;
pub use virtual_contacts::{
    PlacedVirtualContact, VIRTUAL_MAX_RADIUS, VirtualContact, VirtualContacts,
};
pub use world::{BodyId, Camera, Connection, Element, World, WorldSettings};

/// A rigid placement: rotation then translation. The one pose type of the whole core.
pub type Pose = nalgebra::Isometry3<f64>;
