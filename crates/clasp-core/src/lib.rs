//! Clasp's simulated world: bodies, materials and robots with their kinematics, moves that stop
//! at contact, collision switches, contacts, grasps and their quality, clones of a hand
//! evaluated in parallel, and the grasp planner.
//!
//! Units are millimetres, grams and radians; Z is up. No file I/O and no GUI live here.
//!
//! The modules, from the ground up, each importing only from those below it:
//! - [`pose`] and [`ids`]: the pose type and the names of things (`RobotId`, `BodyId`, …);
//! - `body`: rigid bodies, materials and mass;
//! - `robot`: kinematics, DOFs, breakaway, eigengrasps, virtual contacts, mounts;
//! - `contact`: which pairs are checked (the one rule), contacts, their models and soft fits;
//! - `motion`: the engine of a move that stops at contact;
//! - `world`: the world, its stage (what it shares with domains), moves, switches, assemblies
//!   and domains;
//! - `grasp`: grasps, wrench spaces, hulls, quality, trials and batches;
//! - `dynamics`: time steps of free bodies under gravity on the world's contacts;
//! - `planner`: GraspIt's EigenGrasp planner;
//! - `recording`: runs kept moment by moment, to play back and share.
//!
//! This file only states the public API: nothing inside the crate imports through it.

mod body;
mod contact;
mod dynamics;
mod grasp;
pub mod ids;
mod motion;
mod planner;
pub mod pose;
mod recording;
mod robot;
mod world;

pub use body::{
    Body, BodyKind, BodyType, Compliance, Material, SourceLines, UnknownMaterial, bounding_box,
    mass::{DEFAULT_DENSITY, DEFAULT_MASS, GivenMass, MassProperties},
    velocity::Velocity,
};
pub use clasp_collide::{
    ALL_GROUPS, CollisionEngine, CollisionGroups, FastEngine, Geometry, NoSuchGroup,
    ReferenceEngine, TriMesh, group_bit,
};
pub use contact::{
    Contact, KINETIC_SPEED, contact_frame,
    filter::CollisionSwitches,
    kept::{DEFAULT_PERSISTENCE_MARGIN, Persistence},
    memory::{SearchStats, SolveReport, SolverStats, StepTimers},
    model::{ContactMode, ContactModel, ContactOptions, GRASPIT_CONTACT_THRESHOLD, SoftContact},
    soft,
};
pub use dynamics::{SPEED_LIMIT, overlaps::Separated};
pub use grasp::{
    Grasp, GraspContact, GraspError,
    batch::{
        Aim, BatchGrasp, BatchQuality, GraspCandidate, aimed_candidates, draw_aims,
        grasp_candidates,
    },
    hold::{DirectionHold, HoldFrame, HoldTest, LiftTest, PATH_INTERVAL},
    hold_settings::{HoldSettings, PRESETS, Pull, Runs, Success},
    hull, quality,
    quality::{Quality, QualityError, WrenchSpaceKind},
    squeeze::{FingerTouch, Squeeze},
    trial::{GraspTrial, TrialPlan},
    virtual_quality::VIRTUAL_MAX_RADIUS,
};
pub use ids::{BodyId, Element, RobotBody, RobotId};
pub use motion::{MoveOutcome, MoveQueries};
pub use planner::{
    anneal::Annealing,
    plan::{Plan, PlannedGrasp},
    search::Energy,
    settings::{Guided, PlanSettings},
    walk::PlanProgress,
};
pub use pose::Pose;
pub use recording::{
    Moment, PlaybackError, Posture, RECORD_INTERVAL, RecordedContact, Recording, steps_per_moment,
};
pub use robot::{
    Approach, CollisionRule, Robot,
    chain::{Chain, Coupling, Joint, JointDynamics, JointFrame, JointKind, Link},
    dof::{Dof, DofError, DofKind},
    eigengrasp::{EigenError, EigenGrasp, EigenGrasps, EigenSpace},
    jacobian::LinkJacobian,
    mount::Connection,
    reach::{Carrier, REACH_TOLERANCE, Unreached},
    virtual_contacts::{PlacedVirtualContact, VirtualContact, VirtualContacts},
};
pub use world::{
    Camera, World,
    domain::Domain,
    error::{BodyName, MAX_RUN_STEPS, MAX_TIME_STEP, MIN_TIME_STEP, MoveError},
    settings::{
        ContactFriction, ContactSolver, DEFAULT_TIME_STEP, DynamicsSettings, EARTH_GRAVITY,
        WorldSettings,
    },
};
