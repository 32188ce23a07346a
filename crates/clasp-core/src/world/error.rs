//! Why a request to a world or a domain is refused, and the checks made before anything
//! changes.

use nalgebra::Vector3;

use crate::{
    body::Body,
    ids::{BodyId, Element, RobotId},
    pose::Pose,
    robot::{Robot, dof::DofError, eigengrasp::EigenError},
    world::settings::ContactFriction,
};

/// Why a request was refused; the world is unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MoveError {
    #[error("there is no {0:?} in the world")]
    NoSuchElement(Element),
    #[error("there is no robot {0} in the world")]
    NoSuchRobot(RobotId),
    #[error("there is no body {0:?} in the world")]
    NoSuchBody(BodyId),
    #[error("a pose with a coordinate that is not a finite number")]
    NonFinitePose,
    #[error("{0}")]
    Dof(#[from] DofError),
    #[error("{0}")]
    Eigen(#[from] EigenError),
    #[error("a contact threshold must be a positive number of millimetres, not {0}")]
    BadThreshold(f64),
    #[error("a distance must be a positive number of millimetres, not {0}")]
    BadDistance(f64),
    #[error("domain 0 is the shared world itself; a domain of its own is numbered 1 or more")]
    SharedDomain,
    #[error("robot {child} cannot be mounted on robot {parent}: {why}")]
    BadConnection {
        parent: RobotId,
        child: RobotId,
        why: &'static str,
    },
    #[error("robot {0} has no virtual contacts to plan with (its file names no <virtualContacts>)")]
    NoVirtualContacts(RobotId),
    #[error("robot {robot} is carried by robot {by}: move robot {by}, and it follows")]
    Carried { robot: RobotId, by: RobotId },
    #[error(
        "the arm carrying robot {robot} cannot put its palm there: the closest it comes is {distance:.3} mm and {angle:.4} rad away"
    )]
    OutOfReach {
        robot: RobotId,
        distance: f64,
        angle: f64,
    },
    #[error(
        "the arm carrying robot {robot} cannot keep its palm on that straight path: it would have to change its posture on the way"
    )]
    ArmCannotFollow { robot: RobotId },
    #[error("a time step must be between {MIN_TIME_STEP} and {MAX_TIME_STEP} seconds, not {0}")]
    BadTimeStep(f64),
    #[error("a duration must be a finite number of seconds, none negative, not {0}")]
    BadDuration(f64),
    #[error("a persistence margin must be a finite number of millimetres, none negative, not {0}")]
    BadMargin(f64),
    #[error("a friction coefficient must be a finite number, none negative, not {0}")]
    BadFriction(f64),
    #[error(
        "a contact solve needs at least one iteration and a tolerance that is a finite number above 0 and below 1, not {iterations} and {tolerance}"
    )]
    BadSolverSettings { iterations: usize, tolerance: f64 },
    #[error("a force must be three finite numbers (g·mm/s²)")]
    BadForce,
    #[error(
        "{seconds} s at {time_step} s a step is {steps:.0} steps, more than the {MAX_RUN_STEPS} one run takes: run it in parts"
    )]
    TooManySteps {
        seconds: f64,
        time_step: f64,
        steps: f64,
    },
    #[error("gravity must be three finite numbers (mm/s²), not {0:?}")]
    BadGravity([f64; 3]),
    #[error(
        "mass properties must be a positive, finite mass (g) and a finite centre (mm) and inertia (mm²)"
    )]
    BadMassProperties,
    #[error("a Young's modulus must be a positive, finite number of pascals, not {0}")]
    BadYoungs(f64),
    #[error("a velocity must be six finite numbers (mm/s and rad/s)")]
    BadVelocity,
    #[error("{0:?} is neither dynamic nor kinematic: only such free bodies have a velocity")]
    NotDynamic(BodyId),
    #[error("{0:?} is a robot's body: only free bodies have a type of their own")]
    NotFree(BodyId),
    #[error(
        "{}: a dynamics step cannot start with bodies inside one another (nothing would push them apart); separate them, or resolve the overlaps (clasp-cli simulate --resolve-overlaps, Python simulate(..., resolve_overlaps=True))",
        overlap_list(.0)
    )]
    StartsOverlapping(Vec<(BodyName, BodyName)>),
    #[error("{body} has a mass of {mass} g: a dynamic body needs a positive, finite mass")]
    BadMass { body: BodyName, mass: f64 },
    #[error(
        "{body} has an inertia that is {why}: a dynamic body needs a symmetric positive definite inertia (its file's <inertia_matrix>; without one it comes from the mesh)"
    )]
    BadInertia { body: Box<BodyName>, why: String },
    #[error(
        "{body} blew up (a speed beyond {limit} mm/s, or not a number): the world stays at its last good step"
    )]
    BlewUp { body: BodyName, limit: f64 },
    #[error(
        "GraspIt's LCP could not be solved (Lemke's algorithm ran out of pivots, or a driven robot took part: it takes free bodies only)"
    )]
    LcpFailed,
    #[error("robot {0}'s links have no mass to move: it cannot be driven in the dynamics")]
    RobotWithoutMass(RobotId),
    #[error(
        "a grasp test's seconds, distance, angle and gravity must be finite numbers, none negative"
    )]
    BadHoldSettings,
    #[error("{0:?} and {1:?} interpenetrate: a grasp with the hand in the object cannot be tested")]
    Interpenetrating(BodyId, BodyId),
    #[error(
        "a hand's approach must be finite, and a DOF's setting must name a DOF the hand has, with \
         a finite Auto Grasp velocity and a positive effort"
    )]
    BadHandSetting,
}

/// The shortest time step a world takes, seconds: below it a run of any length is millions of
/// steps that change nothing a float can hold.
pub const MIN_TIME_STEP: f64 = 1e-6;
/// The longest time step, seconds: beyond it a body falls 50 mm between two looks at its
/// contacts.
pub const MAX_TIME_STEP: f64 = 0.1;
/// The most steps one run (`simulate`) takes: 1,000 s at 1 ms, minutes of computing; longer
/// runs go in parts, so that no call hangs on a mistyped duration.
pub const MAX_RUN_STEPS: f64 = 1.0e6;

/// A body as errors name it: its id, its name and the file it came from (at the line at
/// fault, where the error knows it), and the world file's line that placed it.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyName {
    pub id: BodyId,
    pub name: String,
    pub file: Option<std::path::PathBuf>,
    /// The line of `file` at fault.
    pub line: Option<usize>,
    /// Boxed: errors carry a body's name, and stay small.
    pub placed: Option<Box<(std::path::PathBuf, usize)>>,
}

impl std::fmt::Display for BodyName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = if self.name.is_empty() {
            "a body without a name"
        } else {
            &self.name
        };
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{name} ({}:{line})", file.display())?,
            (Some(file), None) => write!(f, "{name} ({})", file.display())?,
            (None, _) => write!(f, "{name}")?,
        }
        match self.placed.as_deref() {
            Some((world, line)) => write!(f, ", placed at {}:{line}", world.display()),
            None => Ok(()),
        }
    }
}

/// "a and b interpenetrate; c and d interpenetrate".
fn overlap_list(pairs: &[(BodyName, BodyName)]) -> String {
    let each: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("{a} and {b} interpenetrate"))
        .collect();
    each.join("; ")
}

/// A move's length: a positive, finite number of millimetres.
pub(crate) fn check_distance(distance: f64) -> Result<(), MoveError> {
    if distance.is_finite() && distance > 0.0 {
        Ok(())
    } else {
        Err(MoveError::BadDistance(distance))
    }
}

/// A gravity: every component a finite number (zero turns it off).
pub(crate) fn check_gravity(gravity: &Vector3<f64>) -> Result<(), MoveError> {
    match gravity.iter().all(|g| g.is_finite()) {
        true => Ok(()),
        false => Err(MoveError::BadGravity([gravity.x, gravity.y, gravity.z])),
    }
}

/// A force a body may be pushed with: finite, on a dynamic free body.
pub(crate) fn check_external_force(
    body: Option<&Body>,
    id: BodyId,
    force: &Vector3<f64>,
) -> Result<(), MoveError> {
    if !force.iter().all(|x| x.is_finite()) {
        return Err(MoveError::BadForce);
    }
    match body {
        Some(b) if id.free_index().is_some() && b.is_dynamic() => Ok(()),
        _ => Err(MoveError::NotDynamic(id)),
    }
}

/// A friction every contact may be given: finite numbers, none negative.
pub(crate) fn check_contact_friction(friction: Option<ContactFriction>) -> Result<(), MoveError> {
    match friction {
        Some(f) if !(f.coefficient >= 0.0 && f.coefficient.is_finite()) => {
            Err(MoveError::BadFriction(f.coefficient))
        }
        Some(f) if !(f.torsional >= 0.0 && f.torsional.is_finite()) => {
            Err(MoveError::BadFriction(f.torsional))
        }
        _ => Ok(()),
    }
}

pub(crate) fn check_pose(pose: &Pose) -> Result<(), MoveError> {
    if clasp_collide::pose_is_finite(pose) {
        Ok(())
    } else {
        Err(MoveError::NonFinitePose)
    }
}

/// Checks a DOF target and gives the speeds that bring every DOF there together.
pub(crate) fn dof_request(robot: &Robot, target: &[f64]) -> Result<Vec<f64>, MoveError> {
    robot.check_dof_values(target)?;
    Ok(target
        .iter()
        .zip(robot.dof_values())
        .map(|(t, c)| (t - c).abs())
        .collect())
}
