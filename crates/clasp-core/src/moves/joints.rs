//! Moves of a robot's joints: DOFs toward targets until their chains touch something
//! (GraspIt's `moveDOFToContacts`), Auto Grasp and Auto Open, and the approach along the palm.

use nalgebra::Vector3;

use super::{Motion, MoveOutcome, Mover, path::Path, path::segment_end};
use crate::{BodyId, Pose, RobotBody};

impl Motion<'_, '_> {
    /// Moves a robot's DOFs toward `target`, each at its `speed` (0 holds it), until each
    /// reaches its target or its chain touches something (GraspIt's `moveDOFToContacts`):
    /// a contact on a link stops every DOF driving that link's chain up to it; the others go on.
    pub fn move_dofs(&mut self, target: &[f64], speeds: &[f64]) -> MoveOutcome {
        let Mover::Robot { robot, .. } = &self.mover else {
            return MoveOutcome::default();
        };
        let count = robot.dofs.len();
        let mut held = vec![false; count];
        let mut outcome = MoveOutcome::default();
        // Each segment ends where a DOF reaches its target or a chain stops.
        for _ in 0..=2 * count + 1 {
            let current = self
                .robot()
                .map(|r| r.dof_values().to_vec())
                .unwrap_or_default();
            let active: Vec<usize> = (0..count)
                .filter(|&i| !held[i] && speeds[i] > 0.0 && (target[i] - current[i]).abs() > 1e-12)
                .collect();
            if active.is_empty() {
                break;
            }
            let end = segment_end(&current, target, speeds, &active);
            let moving = self.links_moved_by(&active);
            let step = self.run(
                &Path::Joints {
                    from: current,
                    to: end,
                },
                &moving,
                true,
            );
            if step.completed {
                continue;
            }
            let stopping = self.dofs_stopped_by(&step.stopped_by);
            let mut stopped: Vec<usize> = active
                .iter()
                .copied()
                .filter(|dof| stopping.contains(dof))
                .collect();
            // A stop that names no moving DOF (an overlap, say) holds every DOF that moved.
            if stopped.is_empty() {
                stopped = active;
            }
            for dof in stopped {
                held[dof] = true;
            }
            outcome.blocked_by_overlap |= step.blocked_by_overlap;
            outcome.stopped_by.extend(step.stopped_by);
        }
        outcome.completed = outcome.stopped_by.is_empty();
        outcome
    }

    /// The bodies that `dofs` move: the robot's links behind them, and every body of the
    /// robots carried on a chain they drive.
    fn links_moved_by(&self, dofs: &[usize]) -> Vec<BodyId> {
        let Mover::Robot { index, robot, .. } = &self.mover else {
            return Vec::new();
        };
        let mut moved: Vec<BodyId> = robot
            .links_moved_by(dofs)
            .into_iter()
            .map(|p| BodyId::of_robot(*index, p))
            .collect();
        let carrying_chains: Vec<usize> = (0..robot.chains.len())
            .filter(|&c| {
                robot.chains[c]
                    .joints
                    .iter()
                    .any(|j| dofs.contains(&j.coupling.dof))
            })
            .collect();
        let mut moving_robots = Vec::new();
        for (r, carried) in self.mover.robots().into_iter().skip(1) {
            let Some(connection) = self.carrier(r) else {
                continue;
            };
            let carried_along = if connection.parent_robot == *index {
                carrying_chains.contains(&connection.parent_chain)
            } else {
                moving_robots.contains(&connection.parent_robot)
            };
            if carried_along {
                moving_robots.push(r);
                moved.extend(carried.parts().into_iter().map(|p| BodyId::of_robot(r, p)));
            }
        }
        moved
    }

    /// How a robot the mover carries is mounted.
    fn carrier(&self, robot: usize) -> Option<&crate::Connection> {
        match &self.mover {
            Mover::Robot { carried, .. } => carried
                .iter()
                .find(|c| c.index == robot)
                .map(|c| &c.connection),
            Mover::Body { .. } => None,
        }
    }

    /// The chain of the moving robot that carries `robot`, through any robots between.
    fn carrying_chain(&self, robot: usize) -> Option<usize> {
        let Mover::Robot { index, .. } = &self.mover else {
            return None;
        };
        let mut connection = self.carrier(robot)?;
        while connection.parent_robot != *index {
            connection = self.carrier(connection.parent_robot)?;
        }
        Some(connection.parent_chain)
    }

    /// The DOFs that the mover's bodies in these pairs stop: a link stops the DOFs behind it;
    /// a carried robot's body stops every DOF of the chain carrying it.
    fn dofs_stopped_by(&self, pairs: &[(BodyId, BodyId)]) -> Vec<usize> {
        let Mover::Robot { index, robot, .. } = &self.mover else {
            return Vec::new();
        };
        let ids = pairs.iter().flat_map(|&(a, b)| [a, b]);
        ids.filter_map(|id| {
            let r = id.robot()?;
            if r != *index {
                let chain = self.carrying_chain(r)?;
                let last = robot.chains[chain].joints.len().checked_sub(1)?;
                return Some(robot.dofs_behind(chain, last));
            }
            match id.robot_body()? {
                RobotBody::Link { chain, link } => {
                    let joint = robot.chains[chain].links[link].frame?;
                    Some(robot.dofs_behind(chain, joint))
                }
                RobotBody::Palm | RobotBody::Mount => None,
            }
        })
        .flatten()
        .collect()
    }

    /// Closes (or, with `closing` false, opens) every DOF at its default velocity until it
    /// reaches its limit or its chain touches something: GraspIt's Auto Grasp and Auto Open.
    pub fn auto_grasp(&mut self, closing: bool) -> MoveOutcome {
        let Some(robot) = self.robot() else {
            return MoveOutcome::default();
        };
        let sense = if closing { 1.0 } else { -1.0 };
        let (mut target, mut speeds) = (Vec::new(), Vec::new());
        for (i, dof) in robot.dofs.iter().enumerate() {
            let velocity = dof.default_velocity * sense;
            let (min, max) = robot.dof_limits(i);
            let current = robot.dof_values()[i];
            // A joint without limits (a URDF continuous joint) turns half a turn at most.
            let goal = match velocity {
                v if v > 0.0 => max.min(current + std::f64::consts::PI),
                v if v < 0.0 => min.max(current - std::f64::consts::PI),
                _ => current,
            };
            target.push(goal);
            speeds.push(velocity.abs());
        }
        self.move_dofs(&target, &speeds)
    }

    /// Moves a robot along its approach direction (the palm's z axis if its file gives none)
    /// until it touches something, at most `distance` mm. If it meets nothing it goes back
    /// where it was, and the outcome says the move completed.
    pub fn approach(&mut self, distance: f64) -> MoveOutcome {
        let Some(robot) = self.robot() else {
            return MoveOutcome::default();
        };
        let start = robot.pose();
        let direction = robot
            .approach
            .as_ref()
            .map_or(Vector3::z(), |a| a.direction.into_inner());
        let shift = start.rotation * direction * distance;
        let target = Pose::from_parts((start.translation.vector + shift).into(), start.rotation);
        let outcome = self.move_to(target);
        if outcome.completed
            && let Mover::Robot { robot, .. } = &mut self.mover
        {
            robot.set_pose(start);
        }
        outcome
    }
}
