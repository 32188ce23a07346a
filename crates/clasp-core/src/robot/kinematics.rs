//! Forward kinematics: where the palm stands, and where its DOFs put each link, chain end
//! and joint axis.

use nalgebra::{Unit, Vector3};

use super::{Robot, chain::JointFrame};
use crate::{ids::RobotBody, pose::Pose};

impl Robot {
    pub fn pose(&self) -> Pose {
        self.palm.pose
    }

    pub fn set_pose(&mut self, pose: Pose) {
        self.palm.pose = pose;
        self.place_links();
    }

    /// Forward kinematics: puts every link at the pose its joints give it.
    pub(super) fn place_links(&mut self) {
        let palm = self.palm.pose;
        if let Some(mount) = &mut self.mount {
            mount.pose = palm;
        }
        for (chain, held) in self.chains.iter_mut().zip(&self.breakaway) {
            let frames = chain.joint_frames(&self.dof_values, held);
            for link in &mut chain.links {
                let local = link.frame.map_or(chain.base, |j| frames[j]);
                link.body.pose = palm * local;
            }
        }
    }

    /// Every link's pose (chain by chain, link by link) were the DOFs at `values`, the links
    /// broken away staying so: forward kinematics without moving anything.
    pub fn link_poses_at(&self, values: &[f64]) -> Vec<Pose> {
        let palm = self.palm.pose;
        let mut poses = Vec::new();
        for (chain, held) in self.chains.iter().zip(&self.breakaway) {
            let frames = chain.joint_frames(values, held);
            poses.extend(
                chain
                    .links
                    .iter()
                    .map(|link| palm * link.frame.map_or(chain.base, |j| frames[j])),
            );
        }
        poses
    }

    /// Where a chain ends, in world coordinates: its last link's frame (where GraspIt mounts
    /// a carried robot), or its last joint's if it has no links.
    pub fn chain_end(&self, chain: usize) -> Option<Pose> {
        self.chain_end_at(chain, &self.dof_values)
    }

    /// Where a chain would end were the DOFs at `values` (its links broken away staying so).
    pub fn chain_end_at(&self, chain: usize, values: &[f64]) -> Option<Pose> {
        let c = self.chains.get(chain)?;
        let frames = c.joint_frames(values, &self.breakaway[chain]);
        let local = match c.links.last() {
            Some(last) => last.frame.map_or(c.base, |j| frames[j]),
            None => frames.last().copied().unwrap_or(c.base),
        };
        Some(self.palm.pose * local)
    }

    /// Where each joint of a chain turns or slides, in world coordinates: a point on its axis
    /// and the axis (z of the frame before a Denavit–Hartenberg joint; the file's axis for the
    /// others). Joint draggers are drawn here.
    pub fn joint_axes(&self, chain: usize) -> Vec<(nalgebra::Point3<f64>, Unit<Vector3<f64>>)> {
        let Some(c) = self.chains.get(chain) else {
            return Vec::new();
        };
        let frames = c.joint_frames(&self.dof_values, &self.breakaway[chain]);
        c.joints
            .iter()
            .enumerate()
            .map(|(j, joint)| {
                let before = self.palm.pose * if j == 0 { c.base } else { frames[j - 1] };
                let (at, axis) = match &joint.frame {
                    JointFrame::DenavitHartenberg { .. } => (before, Vector3::z_axis()),
                    JointFrame::Axis { origin, axis, .. } => (before * origin, *axis),
                };
                (
                    at * nalgebra::Point3::origin(),
                    Unit::new_normalize(at.rotation * axis.into_inner()),
                )
            })
            .collect()
    }

    /// The links whose pose changes when the joints for which `turns(chain, joint)` holds
    /// turn or slide.
    pub(crate) fn links_moved_by(&self, turns: impl Fn(usize, usize) -> bool) -> Vec<RobotBody> {
        let mut moved = Vec::new();
        for (c, chain) in self.chains.iter().enumerate() {
            let first_moving = (0..chain.joints.len()).find(|&j| turns(c, j));
            let Some(first) = first_moving else { continue };
            for (l, link) in chain.links.iter().enumerate() {
                if link.frame.is_some_and(|j| j >= first) {
                    moved.push(RobotBody::Link { chain: c, link: l });
                }
            }
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use nalgebra::Point3;

    use super::*;
    use crate::robot::test_finger::{barrett_finger, link_origins};

    fn assert_close(got: &[Point3<f64>], want: &[[f64; 3]]) {
        for (g, w) in got.iter().zip(want) {
            assert!((g - Point3::from(*w)).norm() < 1e-3, "got {g}, want {w:?}");
        }
    }

    #[test]
    fn forward_kinematics_matches_graspits_barrett() {
        let mut robot = barrett_finger();
        assert_close(
            &link_origins(&robot),
            &[
                [25.0, 50.0, -1.0],
                [25.0, 119.734, 5.101],
                [25.0, 158.625, 43.992],
            ],
        );
        robot.set_dof_values(&[0.0, 1.0]).unwrap();
        assert_close(
            &link_origins(&robot),
            &[
                [25.0, 50.0, -1.0],
                [25.0, 82.544, 60.975],
                [25.0, 53.893, 107.923],
            ],
        );
        robot.set_dof_values(&[PI / 2.0, 0.0]).unwrap();
        assert_close(
            &link_origins(&robot),
            &[
                [75.0, 0.0, -1.0],
                [144.734, 0.0, 5.101],
                [183.625, 0.0, 43.992],
            ],
        );
    }

    #[test]
    fn links_follow_the_palm() {
        let mut robot = barrett_finger();
        robot.set_pose(Pose::translation(0.0, 0.0, 100.0));
        assert_close(&link_origins(&robot)[..1], &[[25.0, 50.0, 99.0]]);
    }
}
