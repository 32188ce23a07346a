//! Moves of a robot's joints: DOFs toward targets until their chains touch something
//! (GraspIt's `moveDOFToContacts`), Auto Grasp and Auto Open, and the approach along the palm.

use super::{Motion, MoveOutcome, Mover, path::Path, path::segment_end};
use crate::{
    ids::{BodyId, RobotBody},
    robot::{Robot, dof::DofKind},
};

/// A joint of the moving robot, as (chain, joint).
type JointId = (usize, usize);

impl Motion<'_, '_> {
    /// Moves a robot's DOFs toward `target`, each at its `speed` (0 holds it), until each
    /// reaches its target or its chain touches something (GraspIt's `moveDOFToContacts`):
    /// a contact on a link stops the joints of its chain up to that link. A DOF with a stopped
    /// joint stops, unless it is a breakaway DOF closing: then the stopped joints break away
    /// and its other joints go on, so a finger whose proximal link touches curls its distal
    /// link on; it stops once every joint it drives is stopped. The other DOFs go on.
    pub fn move_dofs(&mut self, target: &[f64], speeds: &[f64]) -> MoveOutcome {
        let Some(robot) = self.robot() else {
            return MoveOutcome::default();
        };
        let count = robot.dofs.len();
        let joints: usize = robot.chains.iter().map(|c| c.joints.len()).sum();
        let mut held = vec![false; count];
        let mut outcome = MoveOutcome::default();
        // Each segment ends where a DOF reaches its target, a chain stops or a joint breaks away.
        for _ in 0..=2 * (count + joints) + 1 {
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
            let moving = self.bodies_moved(&active, &current, target);
            let step = self.run(
                &Path::Joints {
                    from: current.clone(),
                    to: end,
                },
                &moving,
                true,
            );
            if step.completed {
                continue;
            }
            let stopped = self.joints_stopped_by(&step.stopped_by);
            self.stop_joints(&active, &stopped, &current, target, &mut held);
            outcome.blocked_by_overlap |= step.blocked_by_overlap;
            outcome.stopped_by.extend(step.stopped_by);
        }
        outcome.completed = outcome.stopped_by.is_empty();
        outcome
    }

    /// Applies a stop to the active DOFs: a closing breakaway DOF's stopped joints break away,
    /// and it is held once all of them are; any other DOF with a stopped joint is held. A stop
    /// that names no joint of an active DOF (an overlap, say) holds every active DOF.
    fn stop_joints(
        &mut self,
        active: &[usize],
        stopped: &[JointId],
        current: &[f64],
        target: &[f64],
        held: &mut [bool],
    ) {
        let Mover::Robot { robot, .. } = &mut self.mover else {
            return;
        };
        let dof_of = |robot: &Robot, (c, j): JointId| robot.chains[c].joints[j].coupling.dof;
        let mut any = false;
        for &dof in active {
            let own: Vec<JointId> = stopped
                .iter()
                .copied()
                .filter(|&joint| dof_of(robot, joint) == dof)
                .collect();
            if own.is_empty() {
                continue;
            }
            any = true;
            let closing = (target[dof] - current[dof]) * robot.dofs[dof].closing_sense() > 0.0;
            let breaking = robot.dofs[dof].kind == DofKind::Breakaway && closing;
            if !breaking {
                held[dof] = true;
                continue;
            }
            for (c, j) in own {
                robot.break_away(c, j);
            }
            held[dof] = robot
                .dof_joints(dof)
                .into_iter()
                .all(|(c, j)| robot.is_held(c, j));
            if held[dof] {
                // Joints stopped with their DOF follow it: they did not break away from it.
                robot.follow_where_level(dof);
            }
        }
        if !any {
            for &dof in active {
                held[dof] = true;
            }
        }
    }

    /// The bodies a move of the `active` DOFs from `current` toward `target` moves: the links
    /// behind a joint that turns (not one held in breakaway while its DOF closes further), and
    /// every body of the robots carried on a chain with such a joint.
    fn bodies_moved(&self, active: &[usize], current: &[f64], target: &[f64]) -> Vec<BodyId> {
        let Mover::Robot { index, robot, .. } = &self.mover else {
            return Vec::new();
        };
        let turns = |c: usize, j: usize| {
            let dof = robot.chains[c].joints[j].coupling.dof;
            let closing = (target[dof] - current[dof]) * robot.dofs[dof].closing_sense() >= 0.0;
            active.contains(&dof) && !(robot.is_held(c, j) && closing)
        };
        let mut moved: Vec<BodyId> = robot
            .links_moved_by(turns)
            .into_iter()
            .map(|p| BodyId::of_robot(*index, p))
            .collect();
        let carrying: Vec<usize> = (0..robot.chains.len())
            .filter(|&c| {
                let carrying = robot.joints_moving_chain(c);
                carrying.into_iter().any(|(c, j)| turns(c, j))
            })
            .collect();
        let mut moving_robots = Vec::new();
        for (r, carried) in self.mover.robots().into_iter().skip(1) {
            let Some(connection) = self.mover.carrier(r) else {
                continue;
            };
            let carried_along = if connection.parent_robot == *index {
                carrying.contains(&connection.parent_chain)
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

    /// The joints of the moving robot that the mover's bodies in these pairs stop: a link
    /// stops its chain's joints up to its own (GraspIt's `stopJointsFromLink`) and those of
    /// the chains it branches from up to where it starts; a carried robot's body stops every
    /// joint that carries it.
    fn joints_stopped_by(&self, pairs: &[(BodyId, BodyId)]) -> Vec<JointId> {
        let Mover::Robot { index, robot, .. } = &self.mover else {
            return Vec::new();
        };
        let ids = pairs.iter().flat_map(|&(a, b)| [a, b]);
        ids.filter_map(|id| {
            let r = id.robot()?;
            if r != *index {
                let chain = self.mover.carrying_chain(r)?;
                return Some(robot.joints_moving_chain(chain));
            }
            match id.robot_body()? {
                RobotBody::Link { chain, link } => {
                    Some(robot.joints_carrying(chain, robot.chains[chain].links[link].frame))
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
            // A joint without limits (a URDF continuous joint) turns half a turn at most; a
            // prismatic DOF goes to the end of its range (its millimetres are not a turn).
            let reach = match robot.dof_is_revolute(i) {
                true => std::f64::consts::PI,
                false => f64::INFINITY,
            };
            let goal = match velocity {
                v if v > 0.0 => max.min(current + reach),
                v if v < 0.0 => min.max(current - reach),
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
        let (start, target) = (robot.pose(), robot.approached(distance));
        let outcome = self.move_to(target);
        if outcome.completed
            && let Mover::Robot { robot, .. } = &mut self.mover
        {
            robot.set_pose(start);
        }
        outcome
    }
}
