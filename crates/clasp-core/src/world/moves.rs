//! The world's moves: each one its [`Stage`](super::stage::Stage)'s verb, written once there
//! and shared with domains. Every move stops at contact; every placement keeps the contacts true.

use clasp_collide::CollisionEngine;

use super::{World, error::MoveError};
use crate::{
    ids::{Element, RobotId},
    motion::MoveOutcome,
    pose::Pose,
};

impl<E: CollisionEngine> World<E> {
    /// Puts an element at a pose without checking collisions (GraspIt's `setTran`); its
    /// contacts are found again. A robot carried by another is refused: move its carrier.
    pub fn set_pose(&mut self, element: Element, pose: Pose) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.set_pose(&backdrop, element, pose)
    }

    /// Sets a robot's DOFs without checking collisions; values outside the limits are refused.
    pub fn set_dof_values(&mut self, robot: RobotId, values: &[f64]) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.set_dof_values(&backdrop, robot, values)
    }

    /// Sets a robot's whole posture without checking collisions: its DOF values and, per DOF,
    /// where its joints broke away (as [`crate::GraspTrial`] and
    /// [`crate::Robot::breakaway_states`] give them). Refused, changing nothing, when a value is
    /// outside its limits or the states do not fit.
    pub fn set_posture(
        &mut self,
        robot: RobotId,
        values: &[f64],
        breakaway: &[Vec<Option<f64>>],
    ) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.set_posture(&backdrop, robot, values, breakaway)
    }

    /// Moves an element (a body, or a robot by its palm) toward `pose`, stopping at contact
    /// with a gap in (0, threshold/2).
    pub fn move_to(&mut self, element: Element, pose: Pose) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_to(&backdrop, element, pose)
    }

    /// Moves a robot's DOFs toward `target` together; each chain stops at its first contact.
    pub fn move_dofs_to(
        &mut self,
        robot: RobotId,
        target: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_dofs_to(&backdrop, robot, target)
    }

    /// Moves a robot's DOFs to the posture with these eigengrasp amplitudes (what lies outside
    /// the eigengrasps' span is kept; each DOF is held within its limits), stopping at contact
    /// as any DOF move does: GraspIt's eigengrasp sliders.
    pub fn move_eigen_amplitudes(
        &mut self,
        robot: RobotId,
        amplitudes: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_eigen_amplitudes(&backdrop, robot, amplitudes)
    }

    /// Closes every finger at its default velocity until it touches something or reaches its
    /// limit (GraspIt's Auto Grasp).
    pub fn auto_grasp(&mut self, robot: RobotId) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.auto_grasp(&backdrop, robot, true)
    }

    /// Opens every finger the same way (GraspIt's Auto Open).
    pub fn auto_open(&mut self, robot: RobotId) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.auto_grasp(&backdrop, robot, false)
    }

    /// Moves a robot along its approach direction until it touches something, at most
    /// `distance` mm; if nothing is met it stays where it was. A robot an arm carries is moved
    /// by its arm ([`World::move_hand_to`]).
    pub fn approach_to_contact(
        &mut self,
        robot: RobotId,
        distance: f64,
    ) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.approach_to_contact(&backdrop, robot, distance)
    }
}
