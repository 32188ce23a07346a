//! How moves and contacts work in a world: the settings a world's moves, its domains' and its
//! contact searches obey.

use nalgebra::Vector3;

use crate::{
    contact::{kept::Persistence, model::ContactOptions},
    motion::MoveQueries,
};

/// How moves and contacts work in a world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldSettings {
    /// Bodies closer than this (mm) are in contact; moves stop with a gap below half of it.
    pub contact_threshold: f64,
    /// The shortest sub-step of a move near other bodies (mm of travel): bodies thinner than
    /// this together could be passed through only when already this close.
    pub min_step: f64,
    /// Which queries moves ask of the engine: bounded ones, or exact distances as before.
    pub move_queries: MoveQueries,
    /// How contacts are modelled: friction edges, soft contacts on or off, the normal force
    /// that sizes a soft contact.
    pub contact_options: ContactOptions,
    /// What a dynamics run is given.
    pub dynamics: DynamicsSettings,
}

/// What a dynamics run is given and never changes (MuJoCo's `mjOption`): what it changes —
/// velocities, drives, the contact problem and its memory — lives with the bodies on the stage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DynamicsSettings {
    /// The acceleration of gravity, mm/s² (zero turns it off).
    pub gravity: Vector3<f64>,
    /// Seconds a step advances.
    pub time_step: f64,
    /// How a step solves its contacts.
    pub contact_solver: ContactSolver,
    /// When that solve stops.
    pub solver: SolverSettings,
    /// How a step carries each pair's contacts from one search to the next.
    pub persistence: Persistence,
    /// One friction for every contact, whatever the materials; `None`: the materials'.
    pub contact_friction: Option<ContactFriction>,
}

/// One friction for every contact a step solves (MuJoCo's and Isaac's way: a coefficient
/// per contact, not a table of materials).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactFriction {
    /// Coulomb's coefficient, static and kinetic alike.
    pub coefficient: f64,
    /// Torsional friction, mm: a contact resists turning about its normal with up to this
    /// times its normal force (MuJoCo's second friction coefficient, there in metres). A soft
    /// contact keeps the larger of this and its own patch's.
    pub torsional: f64,
}

/// How a dynamics step solves its contacts (docs/architecture.md says why Newton's method).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactSolver {
    /// RaiSim's: each contact on its own, sweeping until the impulses settle. Its sweeps often
    /// end at the cap unsettled (a hand squeezing an object: ~100 contact rows through a few
    /// DOFs), so labels move with the cap; kept to measure the default against.
    PerContact,
    /// GraspIt's: the time-stepping LCP of Anitescu and Potra by Lemke's algorithm, friction
    /// as an 8-sided pyramid; kept to measure the first against.
    Lcp,
    /// MuJoCo's and Drake's way: Newton's method on the primal, over the velocities, each
    /// contact near-rigid under Coulomb's law, its friction opposing the slip it ends with
    /// (`dynamics/newton.rs`). Settles in a few iterations, to a tolerance, not a cap, and
    /// the labels of a grasp test do not move with either. The default.
    #[default]
    Newton,
}

/// When a step's contact solve stops (rapier's `IntegrationParameters`, MuJoCo's
/// `iterations` and `tolerance`): the one place its limits are set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverSettings {
    /// The most iterations (Newton steps, or sweeps) a solve makes.
    pub max_iterations: usize,
    /// Where a solve has settled. Newton's method: where no entry of the cost's gradient
    /// (the momentum the contacts and controllers leave unbalanced) exceeds this fraction of
    /// the momentum the solve moves. The sweeps: where a sweep changes no impulse by more
    /// than this fraction of the largest (and no DOF controller's by more than this fraction
    /// of its limit).
    pub tolerance: f64,
    /// The most points the solve keeps of each patch of a pair's contacts (the corners of the
    /// patch's hull, `dynamics/patches.rs`); `None`, the default, solves every contact the
    /// search found. Not the default because, measured: the search already merges a flat
    /// face's contacts to its corners, so flat patches rarely have more than 8; and a curved
    /// one (a mug's rim on the table) loses points the body then turns onto, so a move stops
    /// where the solve let it go (the drop harness's check of pose against velocity fails).
    pub corners_per_patch: Option<usize>,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            max_iterations: 200,
            tolerance: 1e-9,
            corners_per_patch: None,
        }
    }
}

/// Gravity on Earth, mm/s², along −z (Clasp's up is +z).
pub const EARTH_GRAVITY: f64 = 9_810.0;

/// The default dynamics step: 1 ms, MuJoCo's own default is 2 ms and GraspIt's 2.5 ms; 1 ms is
/// what the comparisons run at.
pub const DEFAULT_TIME_STEP: f64 = 0.001;

impl Default for WorldSettings {
    fn default() -> Self {
        Self {
            contact_threshold: clasp_collide::DEFAULT_CONTACT_THRESHOLD,
            min_step: 1.0,
            move_queries: MoveQueries::default(),
            contact_options: ContactOptions::default(),
            dynamics: DynamicsSettings::default(),
        }
    }
}

impl Default for DynamicsSettings {
    /// Earth's gravity along −z, 1 ms steps, RaiSim's solver.
    fn default() -> Self {
        Self {
            gravity: Vector3::new(0.0, 0.0, -EARTH_GRAVITY),
            time_step: DEFAULT_TIME_STEP,
            contact_solver: ContactSolver::default(),
            solver: SolverSettings::default(),
            persistence: Persistence::default(),
            contact_friction: None,
        }
    }
}
