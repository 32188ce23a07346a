//! Forward kinematics: where the palm stands, and where its DOFs put each link, chain end
//! and joint axis.

use nalgebra::{Unit, Vector3};

use super::{
    Robot,
    chain::{Chain, JointFrame},
};
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
        let frames = self.joint_frames_at(&self.dof_values);
        for (c, chain) in self.chains.iter_mut().enumerate() {
            let base = chain_start(&frames, chain) * chain.base;
            for link in &mut chain.links {
                let local = link.frame.map_or(base, |j| frames[c][j]);
                link.body.pose = palm * local;
            }
        }
    }

    /// Every joint's frame relative to the palm, chain by chain, were the DOFs at `values`
    /// (the joints broken away staying so); a branch starts on its parent joint's frame.
    pub(super) fn joint_frames_at(&self, values: &[f64]) -> Vec<Vec<Pose>> {
        let mut frames: Vec<Vec<Pose>> = Vec::with_capacity(self.chains.len());
        for (chain, held) in self.chains.iter().zip(&self.breakaway) {
            let start = chain_start(&frames, chain);
            frames.push(chain.joint_frames(start, values, held, &self.dofs));
        }
        frames
    }

    /// Every link's pose (chain by chain, link by link) were the DOFs at `values`, the links
    /// broken away staying so: forward kinematics without moving anything.
    pub fn link_poses_at(&self, values: &[f64]) -> Vec<Pose> {
        let palm = self.palm.pose;
        let frames = self.joint_frames_at(values);
        let mut poses = Vec::new();
        for (c, chain) in self.chains.iter().enumerate() {
            let base = chain_start(&frames, chain) * chain.base;
            poses.extend(
                chain
                    .links
                    .iter()
                    .map(|link| palm * link.frame.map_or(base, |j| frames[c][j])),
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
        let frames = self.joint_frames_at(values);
        let base = chain_start(&frames, c) * c.base;
        let local = match c.links.last() {
            Some(last) => last.frame.map_or(base, |j| frames[chain][j]),
            None => frames[chain].last().copied().unwrap_or(base),
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
        let frames = self.joint_frames_at(&self.dof_values);
        let base = chain_start(&frames, c) * c.base;
        c.joints
            .iter()
            .enumerate()
            .map(|(j, joint)| {
                let before = self.palm.pose * if j == 0 { base } else { frames[chain][j - 1] };
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

    /// The joints that carry a chain's start, as (chain, last joint) of each chain it branches
    /// from, nearest first: every joint of those chains up to that one moves it. Empty for a
    /// chain from the palm.
    pub fn chain_carriers(&self, chain: usize) -> Vec<(usize, usize)> {
        let mut carriers = Vec::new();
        let mut parent = self.chains.get(chain).and_then(|c| c.parent);
        while let Some(p) = parent {
            carriers.push((p.chain, p.joint));
            parent = self.chains[p.chain].parent;
        }
        carriers
    }

    /// The joints that move a body at joint frame `frame` of chain `chain` (`None`: on the
    /// chain's base), as (chain, joint): its own chain's up to that frame, then its carriers'.
    pub fn joints_carrying(&self, chain: usize, frame: Option<usize>) -> Vec<(usize, usize)> {
        let own = frame.map_or(0, |f| f + 1);
        let mut joints: Vec<(usize, usize)> = (0..own).map(|j| (chain, j)).collect();
        for (c, last) in self.chain_carriers(chain) {
            joints.extend((0..=last).map(|j| (c, j)));
        }
        joints
    }

    /// Every joint that moves a chain's end: [`Robot::joints_carrying`] its last joint.
    pub fn joints_moving_chain(&self, chain: usize) -> Vec<(usize, usize)> {
        let last = self.chains[chain].joints.len().checked_sub(1);
        self.joints_carrying(chain, last)
    }

    /// The links whose pose changes when the joints for which `turns(chain, joint)` holds
    /// turn or slide.
    pub(crate) fn links_moved_by(&self, turns: impl Fn(usize, usize) -> bool) -> Vec<RobotBody> {
        let mut moved = Vec::new();
        for (c, chain) in self.chains.iter().enumerate() {
            // The start moves when a carrier turns; then every link of the chain moves.
            let start_moves = self
                .chain_carriers(c)
                .into_iter()
                .any(|(p, last)| (0..=last).any(|j| turns(p, j)));
            let first_moving = match start_moves {
                true => Some(0),
                false => (0..chain.joints.len()).find(|&j| turns(c, j)),
            };
            let Some(first) = first_moving else { continue };
            for (l, link) in chain.links.iter().enumerate() {
                if start_moves || link.frame.is_some_and(|j| j >= first) {
                    moved.push(RobotBody::Link { chain: c, link: l });
                }
            }
        }
        moved
    }
}

/// Where a chain starts, relative to the palm: on its parent joint's frame (among the
/// `frames` of the chains before it), or on the palm.
pub(super) fn chain_start(frames: &[Vec<Pose>], chain: &Chain) -> Pose {
    chain
        .parent
        .map_or(Pose::identity(), |p| frames[p.chain][p.joint])
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
