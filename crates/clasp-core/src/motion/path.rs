//! The straight path a move follows in configuration space, and where it puts the mover at
//! each point along it.

use nalgebra::{Point3, UnitQuaternion};

use super::{Motion, Mover};
use crate::{pose::Pose, robot::chain::JointKind};

/// A straight path in configuration space, from t = 0 to t = 1.
#[derive(Debug, Clone)]
pub(super) enum Path {
    /// A rigid move: `pivot` (a point in the mover's own frame: its origin for a user's move,
    /// a free body's centre of gravity for a dynamics step) travels in a straight line while
    /// the mover turns about it along the shorter arc. A step's velocities say how the centre
    /// of gravity moves; turning about the origin instead puts the poses between off that
    /// motion by up to |centre|·θ²/8, which pushed a body spinning on a table into it.
    Rigid {
        from: Pose,
        to: Pose,
        pivot: Point3<f64>,
    },
    Joints {
        from: Vec<f64>,
        to: Vec<f64>,
    },
}

impl Motion<'_, '_> {
    /// Puts the mover a fraction `t` of the way along `path`.
    pub(super) fn apply(&mut self, path: &Path, t: f64) {
        match (&mut self.mover, path) {
            (Mover::Body { body, .. }, Path::Rigid { from, to, pivot }) => {
                body.pose = interpolate(from, to, pivot, t)
            }
            (Mover::Robot { robot, .. }, Path::Rigid { from, to, pivot }) => {
                robot.set_pose(interpolate(from, to, pivot, t))
            }
            (Mover::Robot { robot, .. }, Path::Joints { from, to }) => {
                let values: Vec<f64> = from
                    .iter()
                    .zip(to)
                    .map(|(a, b)| if t >= 1.0 { *b } else { a + (b - a) * t })
                    .collect();
                robot.force_dof_values(&values);
            }
            (Mover::Body { .. }, Path::Joints { .. }) => {}
        }
        self.mover.carry();
    }

    /// The most any joint chain (or the rigid mover) turns over the whole path, radians.
    pub(super) fn path_turn(&self, path: &Path) -> f64 {
        match path {
            Path::Rigid { from, to, .. } => (to.rotation * from.rotation.inverse()).angle(),
            Path::Joints { from, to } => self.robot().map_or(0.0, |robot| {
                // A branch turns with the chains it starts on, so each chain counts theirs too.
                (0..robot.chains.len())
                    .map(|c| {
                        robot
                            .joints_moving_chain(c)
                            .into_iter()
                            .map(|(c, j)| &robot.chains[c].joints[j])
                            .filter(|j| j.kind == JointKind::Revolute)
                            .map(|j| {
                                let dof = j.coupling.dof;
                                (j.coupling.ratio * (to[dof] - from[dof])).abs()
                            })
                            .sum::<f64>()
                    })
                    .fold(0.0, f64::max)
            }),
        }
    }
}

/// The pose a fraction `t` of the way: `pivot` (own frame) along the line, rotation along the
/// shorter arc.
fn interpolate(from: &Pose, to: &Pose, pivot: &Point3<f64>, t: f64) -> Pose {
    if t >= 1.0 {
        return *to;
    }
    let (start, end) = (from * pivot, to * pivot);
    let mut delta = from.rotation.inverse() * to.rotation;
    if delta.w < 0.0 {
        delta = UnitQuaternion::new_unchecked(-delta.into_inner());
    }
    let rotation = from.rotation * delta.powf(t);
    let at = start.coords.lerp(&end.coords, t) - rotation * pivot.coords;
    Pose::from_parts(at.into(), rotation)
}

/// Where each active DOF is when the first of them reaches its target, each moving at its
/// speed; the rest stay.
pub(super) fn segment_end(
    current: &[f64],
    target: &[f64],
    speeds: &[f64],
    active: &[usize],
) -> Vec<f64> {
    let time = active
        .iter()
        .map(|&i| (target[i] - current[i]).abs() / speeds[i])
        .fold(f64::INFINITY, f64::min);
    let mut end = current.to_vec();
    for &i in active {
        let reach = (target[i] - current[i]).abs();
        end[i] = if reach <= speeds[i] * time * (1.0 + 1e-12) {
            target[i]
        } else {
            current[i] + (target[i] - current[i]).signum() * speeds[i] * time
        };
    }
    end
}
