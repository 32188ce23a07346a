//! Clasp's simulated world: bodies, materials and robots with their kinematics, moves that stop
//! at contact, collision switches, contacts, grasps and their quality, clones of a hand
//! evaluated in parallel, and the grasp planner.
//!
//! Units are millimetres, grams and radians; Z is up. No file I/O and no GUI live here.
//!
//! What is here, family by family (the modules, from the ground up, each importing only from
//! those below it):
//! - names and places: [`Pose`]; [`BodyId`], [`RobotId`], [`RobotBody`] and [`Element`] (a
//!   free body or a whole robot: what moves as one) in [`ids`];
//! - bodies (`body`): [`Body`], [`BodyKind`], [`BodyType`], [`Material`], [`MassProperties`],
//!   [`Velocity`]; their meshes and collision groups from `clasp_collide` ([`TriMesh`],
//!   [`Geometry`], [`CollisionGroups`]);
//! - robots (`robot`): [`Robot`], its [`Chain`]s, [`Link`]s and [`Joint`]s, [`Dof`]s,
//!   [`EigenGrasps`], [`VirtualContacts`], [`HandApproach`], a mounted hand's [`Connection`] and
//!   the arm that carries it ([`ArmCarrier`], [`ReachShortfall`], and the [`ReachBall`] it
//!   cannot take the hand's wrist out of);
//! - contacts (`contact`): [`Contact`] (a point of a body touching another, with its frame,
//!   friction, and the last step's impulse; a mesh pair's raw [`clasp_collide::MeshContact`] is
//!   what it is found from), [`ContactModel`], [`SoftContact`] and the fits in [`soft`],
//!   [`CollisionSwitches`], [`Persistence`];
//! - moves that stop at contact (`motion`): [`MoveOutcome`], [`MoveQueries`];
//! - the world (`world`): [`World`] and its settings ([`WorldSettings`], [`DynamicsSettings`],
//!   [`ContactSolver`]), [`Domain`] (a clone of a hand and an object, evaluated in parallel),
//!   [`Camera`], [`MoveError`];
//! - grasps (`grasp`): [`Grasp`], [`Quality`] of a [`WrenchSpaceKind`] (the hulls in [`hull`],
//!   the measures in [`quality`]), [`GraspTrial`], batches ([`GraspCandidate`], [`GraspAim`],
//!   [`BatchGrasp`]), and the physics test of a grasp ([`HoldTest`], [`HoldSettings`] and its
//!   [`PRESETS`], [`Squeeze`], [`LiftTest`]);
//! - dynamics (`dynamics`): time steps of free bodies and driven hands on the world's contacts,
//!   as [`World`]'s methods; [`Separated`] for bodies that start overlapped;
//! - the planner (`planner`): GraspIt's EigenGrasp planner, [`PlanSettings`] (with
//!   [`PlanEnergy`], [`Annealing`], [`GuidedPlanning`]) to a [`GraspPlan`] of
//!   [`PlannedGrasp`]s;
//! - recordings (`recording`): [`Recording`]s of [`Moment`]s, to play back and share.
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
    antipodal::{AntipodalPair, Surface, antipodal_candidates},
    batch::{
        BatchGrasp, BatchQuality, GraspAim, GraspCandidate, aimed_candidates, draw_aims,
        grasp_candidates,
    },
    hold::{DirectionHold, HOLD_PATH_INTERVAL, HoldFrame, HoldTest, LiftTest},
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
    plan::{GraspPlan, PlannedGrasp},
    search::PlanEnergy,
    settings::{GuidedPlanning, PlanSettings},
    shares::StateShares,
    walk::PlanProgress,
};
pub use pose::Pose;
pub use recording::{
    Moment, PlaybackError, Posture, RECORD_INTERVAL, RecordedContact, Recording, steps_per_moment,
};
pub use robot::{
    CollisionRule, HandApproach, Robot,
    chain::{Chain, ChainParent, Coupling, Joint, JointDynamics, JointFrame, JointKind, Link},
    dof::{Dof, DofError, DofKind},
    eigengrasp::{EigenError, EigenGrasp, EigenGrasps, EigenSpace},
    inference::{DofRole, HandInference},
    jacobian::LinkJacobian,
    jaws::ParallelJaws,
    mount::Connection,
    reach::{ArmCarrier, REACH_TOLERANCE, ReachShortfall},
    reach_ball::ReachBall,
    virtual_contacts::{PlacedVirtualContact, VirtualContact, VirtualContacts},
};
pub use world::{
    Camera, World,
    domain::Domain,
    error::{BodyName, MAX_RUN_STEPS, MAX_TIME_STEP, MIN_TIME_STEP, MoveError},
    settings::{
        ContactFriction, ContactSolver, DEFAULT_TIME_STEP, DynamicsSettings, EARTH_GRAVITY,
        SolverSettings, WorldSettings,
    },
};
