//! One degree of freedom of a robot: how it behaves when the hand closes, its dynamics
//! parameters as the file gives them, and why a set of DOF values is refused.

/// How a DOF behaves when a hand closes (GraspIt's `r`, `b` and `c` DOF types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DofKind {
    Rigid,
    Breakaway,
    Compliant,
}

/// One degree of freedom: a value that drives one or more joints through couplings.
///
/// The dynamics fields keep GraspIt's file values and units; nothing uses them yet.
#[derive(Debug, Clone, PartialEq)]
pub struct Dof {
    /// What the DOF is called: its joint's name (URDF, MJCF), or for GraspIt's files, which
    /// name none, the joints it drives ("chain 0 joint 1, chain 0 joint 2"). Empty where
    /// nothing names it (a robot built in code).
    pub name: String,
    pub kind: DofKind,
    /// Closing speed and direction for auto-grasp (its sign says which way closes).
    pub default_velocity: f64,
    /// Value at load, in radians (revolute) or millimetres (prismatic).
    pub default_value: f64,
    /// GraspIt's `maxEffort`: N·1e6·mm for torques, N·1e6 for forces.
    pub max_effort: f64,
    /// GraspIt's `Kp`, the proportional gain of its PD joint controller.
    pub kp: f64,
    /// GraspIt's `Kd`, the derivative gain of its PD joint controller.
    pub kd: f64,
    /// GraspIt's `draggerScale`: the size of the joint's drag handle in its GUI.
    pub dragger_scale: f64,
    /// GraspIt's `breakAwayTorque` as written in the file (GraspIt multiplies it by 1e3);
    /// 0 when not given. Only breakaway DOFs use it.
    pub breakaway_torque: f64,
}

impl Dof {
    /// Default `maxEffort`, `Kp`, `Kd` and `draggerScale` for files that leave them out: the values
    /// most of GraspIt's own hands give.
    pub const DEFAULT_MAX_EFFORT: f64 = 5.0e9;
    pub const DEFAULT_KP: f64 = 1.0e11;
    pub const DEFAULT_KD: f64 = 1.0e7;
    pub const DEFAULT_DRAGGER_SCALE: f64 = 20.0;

    /// A DOF with the default dynamics parameters and no breakaway torque.
    pub fn new(kind: DofKind, default_velocity: f64, default_value: f64) -> Self {
        Self {
            name: String::new(),
            kind,
            default_velocity,
            default_value,
            max_effort: Self::DEFAULT_MAX_EFFORT,
            kp: Self::DEFAULT_KP,
            kd: Self::DEFAULT_KD,
            dragger_scale: Self::DEFAULT_DRAGGER_SCALE,
            breakaway_torque: 0.0,
        }
    }

    /// The way the DOF closes: −1 where its default velocity is negative (a gripper's jaw
    /// that closes toward its lower limit), else +1. A breakaway DOF's joints break away and
    /// stay behind as it moves this way.
    pub fn closing_sense(&self) -> f64 {
        if self.default_velocity < 0.0 {
            -1.0
        } else {
            1.0
        }
    }

    /// Whether `value` is at or past `mark` the way the DOF closes, within `tolerance`.
    pub fn at_or_past(&self, value: f64, mark: f64, tolerance: f64) -> bool {
        (value - mark) * self.closing_sense() >= -tolerance
    }
}

/// Why a set of DOF values was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DofError {
    #[error("expected {expected} DOF values, got {got}")]
    WrongCount { expected: usize, got: usize },
    #[error("DOF {dof} value {value} is not a finite number")]
    NotFinite { dof: usize, value: f64 },
    #[error("DOF {dof} drives {expected} joints, but {got} breakaway states were given")]
    WrongBreakawayCount {
        dof: usize,
        expected: usize,
        got: usize,
    },
    #[error("DOF {dof} value {value} is outside its limits [{min}, {max}]")]
    OutOfLimits {
        dof: usize,
        value: f64,
        min: f64,
        max: f64,
    },
}
