//! A robot's DOF values: the joints each DOF drives, the limits those joints give it, setting
//! and checking values, squeezing the hand shut, and the posture as eigengrasp amplitudes.

use super::{
    Robot,
    chain::{Joint, JointKind},
    dof::DofError,
    eigengrasp::{EigenError, EigenGrasps, EigenSpace},
};

/// Values this close outside a limit count as on it: files round their angles.
const LIMIT_TOLERANCE: f64 = 1e-6;

/// The DOF step Jacobians are found by (rad or mm): small against any DOF's range, large
/// against rounding.
pub const DOF_STEP: f64 = 1e-6;

/// The fingertip's distance from its joint (mm) that turns a squeeze in radians into a sliding
/// DOF's travel: a finger's link is about this long.
pub const SQUEEZE_REACH: f64 = 50.0;

impl Robot {
    pub fn dof_values(&self) -> &[f64] {
        &self.dof_values
    }

    /// The joints a DOF drives, as (chain, joint), chain by chain: GraspIt's joint list, the
    /// order of a DOF's breakaway states in a world file.
    pub fn dof_joints(&self, dof: usize) -> Vec<(usize, usize)> {
        self.chains
            .iter()
            .enumerate()
            .flat_map(|(c, chain)| {
                chain
                    .joints
                    .iter()
                    .enumerate()
                    .filter(move |(_, j)| j.coupling.dof == dof)
                    .map(move |(j, _)| (c, j))
            })
            .collect()
    }

    /// Whether a DOF turns joints (an angle, radians) rather than sliding them (a length, mm):
    /// the kind of the first joint it drives.
    pub fn dof_is_revolute(&self, dof: usize) -> bool {
        self.chains
            .iter()
            .flat_map(|c| &c.joints)
            .find(|j| j.coupling.dof == dof)
            .is_none_or(|j| j.kind == JointKind::Revolute)
    }

    /// The interval a DOF may take: the intersection of what each joint it drives allows.
    pub fn dof_limits(&self, dof: usize) -> (f64, f64) {
        self.chains
            .iter()
            .flat_map(|c| &c.joints)
            .filter(|j| j.coupling.dof == dof)
            .map(Joint::dof_interval)
            .fold((f64::NEG_INFINITY, f64::INFINITY), |(lo, hi), (a, b)| {
                (lo.max(a), hi.min(b))
            })
    }

    /// `values`, one per DOF, each brought within its DOF's limits (a DOF whose limits are
    /// written high to low keeps its lower one).
    pub fn within_limits(&self, values: &[f64]) -> Vec<f64> {
        values
            .iter()
            .enumerate()
            .map(|(dof, &v)| {
                let (min, max) = self.dof_limits(dof);
                v.clamp(min, max.max(min))
            })
            .collect()
    }

    /// Whether a set of DOF values is possible: one finite value per DOF, within its limits.
    pub fn check_dof_values(&self, values: &[f64]) -> Result<(), DofError> {
        if values.len() != self.dofs.len() {
            return Err(DofError::WrongCount {
                expected: self.dofs.len(),
                got: values.len(),
            });
        }
        for (dof, &value) in values.iter().enumerate() {
            if !value.is_finite() {
                return Err(DofError::NotFinite { dof, value });
            }
            let (min, max) = self.dof_limits(dof);
            if value < min - LIMIT_TOLERANCE || value > max + LIMIT_TOLERANCE {
                return Err(DofError::OutOfLimits {
                    dof,
                    value,
                    min,
                    max,
                });
            }
        }
        Ok(())
    }

    /// Sets every DOF at once; an impossible value changes nothing and says why.
    pub fn set_dof_values(&mut self, values: &[f64]) -> Result<(), DofError> {
        self.check_dof_values(values)?;
        self.force_dof_values(values);
        Ok(())
    }

    /// Sets DOF values without checking them; the caller keeps them finite and within limits.
    pub(crate) fn force_dof_values(&mut self, values: &[f64]) {
        self.dof_values.copy_from_slice(values);
        self.reengage();
        self.place_links();
    }

    /// DOF values with one DOF moved by the finite-difference step `DOF_STEP`, up unless that
    /// passes its upper limit, then down; and the signed step taken. What a Jacobian found by
    /// differences through the forward kinematics moves.
    pub fn nudged(&self, values: &[f64], dof: usize) -> (Vec<f64>, f64) {
        let (_, max) = self.dof_limits(dof);
        let step = if values[dof] + DOF_STEP <= max {
            DOF_STEP
        } else {
            -DOF_STEP
        };
        let mut moved = values.to_vec();
        moved[dof] += step;
        (moved, step)
    }

    /// The DOF values `squeeze` past where each closing DOF stands (in its closing direction,
    /// the sign of its default velocity), within its limits; a DOF with no default velocity
    /// stays where it is. What the physics test drives the hand to. `squeeze` is radians: a
    /// sliding DOF (a gripper's jaw) goes as far as a fingertip `SQUEEZE_REACH` from its
    /// joint would, so that a jaw presses as a finger does (0.2 rad: 10 mm).
    pub fn squeezed_dof_values(&self, squeeze: f64) -> Vec<f64> {
        self.squeezed_by(|d| match self.dof_is_revolute(d) {
            true => squeeze,
            false => squeeze * SQUEEZE_REACH,
        })
    }

    /// The DOF values `step(dof)` past where each closing DOF stands (in its closing
    /// direction), within its limits; a DOF with no default velocity stays where it is.
    pub fn squeezed_by(&self, step: impl Fn(usize) -> f64) -> Vec<f64> {
        let squeezed: Vec<f64> = self
            .dof_values()
            .iter()
            .enumerate()
            .map(|(dof, &q)| {
                let velocity = self.dofs[dof].default_velocity;
                let toward = if velocity == 0.0 {
                    0.0
                } else {
                    velocity.signum()
                };
                q + toward * step(dof)
            })
            .collect();
        self.within_limits(&squeezed)
    }

    /// The robot's eigengrasp space: its file's eigengrasps, else one per DOF (GraspIt's
    /// identity eigengrasps).
    pub fn eigen_space(&self) -> Result<EigenSpace, EigenError> {
        let limits: Vec<(f64, f64)> = (0..self.dofs.len()).map(|d| self.dof_limits(d)).collect();
        match &self.eigen_grasps {
            Some(grasps) => EigenSpace::new(grasps, &limits),
            None => EigenSpace::new(&EigenGrasps::identity(self.dofs.len()), &limits),
        }
    }

    /// The amplitudes of the robot's posture along its eigengrasps.
    pub fn eigen_amplitudes(&self) -> Result<Vec<f64>, EigenError> {
        Ok(self.eigen_space()?.amplitudes(&self.dof_values))
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;
    use crate::robot::test_finger::{barrett_finger, link_origins};

    #[test]
    fn dof_limits_intersect_coupled_joints() {
        let robot = barrett_finger();
        assert_eq!(robot.dof_limits(0), (0.0, PI));
        let (lo, hi) = robot.dof_limits(1);
        assert_eq!(lo, 0.0);
        assert!((hi - 144f64.to_radians()).abs() < 1e-12);
    }

    #[test]
    fn impossible_dof_values_change_nothing() {
        let mut robot = barrett_finger();
        let before = link_origins(&robot);
        assert!(matches!(
            robot.set_dof_values(&[0.0, 3.0]),
            Err(DofError::OutOfLimits { dof: 1, .. })
        ));
        assert!(matches!(
            robot.set_dof_values(&[f64::NAN, 0.0]),
            Err(DofError::NotFinite { dof: 0, .. })
        ));
        assert_eq!(
            robot.set_dof_values(&[0.0]),
            Err(DofError::WrongCount {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(robot.dof_values(), &[0.0, 0.0]);
        assert_eq!(link_origins(&robot), before);
    }
}
