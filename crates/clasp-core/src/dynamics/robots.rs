//! Robots in the dynamics: a robot whose DOF controllers are given targets
//! ([`World::drive_robot`]) joins the step. Each DOF's controller pushes it towards its target
//! (GraspIt's PD position controller: a velocity that closes the gap in [`SERVO_TIME`], at most
//! [`DOF_SPEED`]) with no more than 0.8 of the DOF's effort (GraspIt's cap); a finger that meets
//! the object presses it with that effort. The palm is a fixed base, a kinematic one (driven
//! along a velocity) or a free one (moved by the forces on the hand, gravity's among them).
//! A driven robot carried by a driven robot (a hand on an arm) joins its carrier's articulated
//! body: the arm's motors carry the hand's weight and its contacts, and the fingers' reactions
//! reach the arm; a carried robot not driven rides on its carrier as it stands.
//! Positions advance by the DOF moves (carriers first), then the base's, each stopping at
//! contact.

use clasp_collide::CollisionEngine;
use nalgebra::{Point3, Vector3};

use crate::{
    body::velocity::Velocity,
    ids::{Element, RobotId},
    world::{World, error::MoveError, stage::Stage},
};

use super::{
    Stepping,
    articulated::Articulated,
    movers::{Assembly, Movers},
    problem::Motor,
};

/// Seconds a DOF controller means to take to reach its target.
pub const SERVO_TIME: f64 = 0.05;

/// The fastest a controller drives a DOF: rad/s for a revolute DOF, mm/s for a prismatic one.
pub const DOF_SPEED: [f64; 2] = [2.0, 100.0];

/// The share of a DOF's effort its controller uses (GraspIt caps its PD controllers there).
pub const EFFORT_SHARE: f64 = 0.8;

/// A DOF slower than this (rad/s or mm/s) has stopped, for the dynamic Auto Grasp.
pub const SETTLED_DOF_SPEED: f64 = 0.01;

/// Steps every DOF must stay stopped for the dynamic Auto Grasp to end.
pub const SETTLED_STEPS: usize = 20;

impl<E: CollisionEngine> World<E> {
    /// Puts a robot in the dynamics, its DOF controllers driving it towards `targets` (one per
    /// DOF, within its limits); its palm stays where it is. Refused, changing nothing, for a
    /// robot that is not there or targets that are impossible.
    pub fn drive_robot(&mut self, robot: RobotId, targets: &[f64]) -> Result<(), MoveError> {
        self.find_robot(robot)?.check_dof_values(targets)?;
        let r = self
            .stage
            .robot_mut(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?;
        r.dof_targets = Some(targets.to_vec());
        Ok(())
    }

    /// Moves a robot's base (its palm, and all it carries) with `velocity` while the dynamics
    /// drives it: linear at the palm's origin (mm/s), angular about it (rad/s); the palm goes
    /// where that takes it, stopping at contact, and pushes what it meets. Zero holds the base.
    pub fn set_base_velocity(
        &mut self,
        robot: RobotId,
        velocity: Velocity,
    ) -> Result<(), MoveError> {
        if !velocity.is_finite() {
            return Err(MoveError::BadVelocity);
        }
        let r = self.uncarried_robot_mut(robot)?;
        r.base_velocity = velocity;
        r.base_momentum = None;
        Ok(())
    }

    /// Frees a robot's base (`free`: its palm moves by the forces on the hand — gravity, the
    /// contacts, the fingers' own reactions — as six more generalized coordinates of its
    /// articulated body), or fixes it again where it stands (stopped). Refused for a robot
    /// carried by another: its carrier holds it.
    pub fn set_free_base(&mut self, robot: RobotId, free: bool) -> Result<(), MoveError> {
        let r = self.uncarried_robot_mut(robot)?;
        r.free_base = free;
        r.base_velocity = Velocity::ZERO;
        r.base_momentum = None;
        Ok(())
    }

    /// A robot whose base may be set: refused for one carried by another (its carrier holds
    /// it) or one that is not there.
    fn uncarried_robot_mut(
        &mut self,
        robot: RobotId,
    ) -> Result<&mut crate::robot::Robot, MoveError> {
        if let Some(c) = self.connections().iter().find(|c| c.child_robot == robot) {
            return Err(MoveError::Carried {
                robot,
                by: c.parent_robot,
            });
        }
        self.stage
            .robot_mut(robot)
            .ok_or(MoveError::NoSuchRobot(robot))
    }

    /// Takes a robot out of the dynamics: it stays where it is and stops.
    pub fn release_robot(&mut self, robot: RobotId) -> Result<(), MoveError> {
        let r = self
            .stage
            .robot_mut(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?;
        r.dof_targets = None;
        r.dof_velocities.iter_mut().for_each(|v| *v = 0.0);
        r.base_velocity = Velocity::ZERO;
        r.free_base = false;
        r.base_momentum = None;
        Ok(())
    }

    /// GraspIt's dynamic Auto Grasp: every closing DOF (a default velocity that is not zero)
    /// driven towards the end of its range in its closing direction, the others held where
    /// they are, stepping until the hand stops (every DOF slower than `SETTLED_DOF_SPEED` for
    /// `SETTLED_STEPS` steps: the contact forces balance the controllers) or `max_seconds`
    /// pass. Returns the seconds it took; the robot stays driven, its fingers pressing, and the
    /// world's contacts carry the forces (impulse ÷ time step).
    pub fn dynamic_auto_grasp(
        &mut self,
        robot: RobotId,
        max_seconds: f64,
    ) -> Result<f64, MoveError> {
        if !(max_seconds.is_finite() && max_seconds >= 0.0) {
            return Err(MoveError::BadDuration(max_seconds));
        }
        let r = self.find_robot(robot)?;
        let targets: Vec<f64> = (0..r.dofs.len())
            .map(|dof| {
                let (min, max) = r.dof_limits(dof);
                match r.dofs[dof].default_velocity {
                    v if v > 0.0 => max,
                    v if v < 0.0 => min,
                    _ => r.dof_values()[dof],
                }
            })
            .collect();
        self.drive_robot(robot, &targets)?;
        let (dt, mut still, mut steps) = (self.time_step(), 0, 0);
        while still < SETTLED_STEPS && (steps as f64) * dt < max_seconds {
            self.step()?;
            steps += 1;
            let r = self.find_robot(robot)?;
            let moving = r
                .dof_velocities()
                .iter()
                .any(|v| v.abs() > SETTLED_DOF_SPEED);
            still = if moving { 0 } else { still + 1 };
        }
        Ok(steps as f64 * dt)
    }
}

impl Stage {
    /// Each DOF's controller effort over the last step (the impulse it gave ÷ `dt`): torque
    /// in g·mm²/s² for a revolute DOF, force in g·mm/s² for a prismatic one (10⁻⁶ N·mm and
    /// 10⁻⁶ N: GraspIt's `maxEffort` units); 0 for a DOF no controller drove.
    pub(crate) fn dof_efforts(&self, robot: RobotId, dofs: usize, dt: f64) -> Vec<f64> {
        let efforts = &self.step_memory.efforts;
        (0..dofs)
            .map(|dof| efforts.get(&(robot, dof)).map_or(0.0, |e| e / dt))
            .collect()
    }
}

impl<E: CollisionEngine> World<E> {
    /// Each of a robot's DOF controllers' effort over the last step (`Stage::dof_efforts`'s
    /// units), at most `EFFORT_SHARE` of its `max_effort`: what a finger presses with.
    pub fn dof_efforts(&self, robot: RobotId) -> Result<Vec<f64>, MoveError> {
        let dofs = self.find_robot(robot)?.dofs.len();
        Ok(self.stage.dof_efforts(robot, dofs, self.time_step()))
    }
}

impl Stepping<'_> {
    /// The driven assemblies as the solver moves them, with gravity's share of a step (`added`).
    pub(super) fn articulated(
        &self,
        movers: &Movers,
        added: Vector3<f64>,
    ) -> Result<Vec<Articulated>, MoveError> {
        movers
            .assemblies
            .iter()
            .map(|assembly| {
                let robots = assembly
                    .members
                    .iter()
                    .map(|m| self.find_robot(m.robot))
                    .collect::<Result<Vec<_>, _>>()?;
                Articulated::of(&robots, assembly, added)
                    .ok_or(MoveError::RobotWithoutMass(assembly.root()))
            })
            .collect()
    }

    /// Each driven DOF's controller for this step, starting from the effort it applied last
    /// step.
    pub(super) fn motors(&self, movers: &Movers) -> Vec<Motor> {
        let efforts = &self.stage.step_memory.efforts;
        let dt = self.dt();
        let mut motors = Vec::new();
        for (k, assembly) in movers.assemblies.iter().enumerate() {
            for member in &assembly.members {
                let Some(robot) = self.robot(member.robot) else {
                    continue;
                };
                let Some(targets) = robot.dof_targets() else {
                    continue;
                };
                let values = robot.dof_values();
                for (dof, (&target, &value)) in targets.iter().zip(values).enumerate() {
                    let fastest = DOF_SPEED[usize::from(!robot.dof_is_revolute(dof))];
                    motors.push(Motor {
                        assembly: k,
                        dof: member.first_dof + dof,
                        drives: (member.robot, dof),
                        velocity: ((target - value) / SERVO_TIME).clamp(-fastest, fastest),
                        limit: EFFORT_SHARE * robot.dofs[dof].max_effort * dt,
                        effort: efforts.get(&(member.robot, dof)).copied().unwrap_or(0.0),
                    });
                }
            }
        }
        motors
    }

    /// Keeps the effort each controller applied (`applied`, the solution's, in `motors`' order)
    /// for the next step to start from.
    pub(super) fn remember_efforts(&mut self, motors: &[Motor], applied: &[f64]) {
        let efforts = motors
            .iter()
            .zip(applied)
            .map(|(m, &e)| (m.drives, e))
            .collect();
        self.stage.step_memory.efforts = efforts;
    }

    /// Moves a driven assembly by the velocities the solver left it for `dt` seconds: each
    /// member's DOFs (within their limits, carriers first), then the bottom robot's base,
    /// each stopping at contact; the DOFs keep the velocities they moved at.
    pub(super) fn advance_assembly(
        &mut self,
        assembly: &Assembly,
        moved: &Articulated,
        dt: f64,
    ) -> Result<(), MoveError> {
        for member in assembly.members.iter().filter(|m| m.dofs > 0) {
            let velocities = moved.velocity.rows(member.first_dof, member.dofs);
            self.advance_dofs(member.robot, velocities.as_slice(), dt)?;
        }
        let root = assembly.root();
        if let Some(base) = moved.free_base_velocity() {
            let r = self
                .stage
                .robot_mut(root)
                .ok_or(MoveError::NoSuchRobot(root))?;
            r.base_velocity = base;
            r.base_momentum = moved.free_base_momentum();
        }
        self.advance_base(root, dt)
    }

    /// Moves a robot's DOFs by `velocities` for `dt` seconds (within their limits), each chain
    /// stopping at contact; the DOFs keep the velocities they moved at.
    fn advance_dofs(&mut self, id: RobotId, velocities: &[f64], dt: f64) -> Result<(), MoveError> {
        let robot = self.find_robot(id)?;
        let start = robot.dof_values().to_vec();
        let target: Vec<f64> = start
            .iter()
            .zip(velocities)
            .enumerate()
            .map(|(dof, (&q, &v))| {
                let (min, max) = robot.dof_limits(dof);
                (q + v * dt).clamp(min, max.max(min))
            })
            .collect();
        if target != start {
            self.moving(|stage, backdrop| {
                stage.move_dofs_to_finding_no_contacts(backdrop, id, &target)
            })?;
        }
        let r = self.stage.robot_mut(id).ok_or(MoveError::NoSuchRobot(id))?;
        let reached = r.dof_values().to_vec();
        for ((v, q), q0) in r.dof_velocities.iter_mut().zip(&reached).zip(&start) {
            *v = (q - q0) / dt;
        }
        Ok(())
    }

    /// Moves a driven robot's palm by its base velocity for `dt` seconds, stopping at contact;
    /// a free base keeps the velocity it moved at (none where a contact stopped it).
    fn advance_base(&mut self, id: RobotId, dt: f64) -> Result<(), MoveError> {
        let robot = self.find_robot(id)?;
        let velocity = robot.base_velocity();
        if velocity == Velocity::ZERO {
            return Ok(());
        }
        let (free, pose) = (robot.has_free_base(), robot.pose());
        let turn = nalgebra::UnitQuaternion::from_scaled_axis(velocity.angular * dt);
        let target = crate::pose::Pose::from_parts(
            nalgebra::Translation3::from(pose.translation.vector + velocity.linear * dt),
            turn * pose.rotation,
        );
        let outcome = self.moving(|stage, backdrop| {
            let palm = Element::Robot(id);
            stage.move_to_finding_no_contacts(backdrop, palm, target, Point3::origin())
        })?;
        if free && !outcome.completed {
            let reached = self.find_robot(id)?.pose();
            let moved = Velocity::new(
                (reached.translation.vector - pose.translation.vector) / dt,
                (reached.rotation * pose.rotation.inverse()).scaled_axis() / dt,
            );
            let r = self.stage.robot_mut(id).ok_or(MoveError::NoSuchRobot(id))?;
            r.base_velocity = moved;
            // A contact stopped it: the momentum is what is left, from that velocity.
            r.base_momentum = None;
        }
        Ok(())
    }
}
