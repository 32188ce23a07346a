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

    fn links_moved_by(&self, dofs: &[usize]) -> Vec<BodyId> {
        match &self.mover {
            Mover::Robot { index, robot } => robot
                .links_moved_by(dofs)
                .into_iter()
                .map(|p| BodyId::of_robot(*index, p))
                .collect(),
            Mover::Body { .. } => Vec::new(),
        }
    }

    /// The DOFs that the mover's links in these pairs stop.
    fn dofs_stopped_by(&self, pairs: &[(BodyId, BodyId)]) -> Vec<usize> {
        let Mover::Robot { index, robot } = &self.mover else {
            return Vec::new();
        };
        pairs
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|id| id.robot() == Some(*index))
            .filter_map(|id| match id.robot_body()? {
                RobotBody::Link { chain, link } => {
                    let joint = robot.chains[chain].links[link].frame?;
                    Some(robot.dofs_behind(chain, joint))
                }
                RobotBody::Palm => None,
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
