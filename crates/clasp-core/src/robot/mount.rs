//! Robots mounted on robots (GraspIt's `<connection>`): which robot carries which, where the
//! carried one stands, and the order an assembly moves in.

use std::path::PathBuf;

use super::Robot;
use crate::{ids::RobotId, pose::Pose};

/// One robot mounted on the end of another's chain, as GraspIt's `<connection>` says (an arm
/// carrying a hand): the child's palm stays at the chain end times `offset`, its mount piece
/// with it. Made with `World::connect`.
#[derive(Debug, Clone, PartialEq)]
pub struct Connection {
    /// The robot that carries the other.
    pub parent_robot: RobotId,
    /// The parent's chain whose last link carries the child.
    pub parent_chain: usize,
    /// The carried robot.
    pub child_robot: RobotId,
    /// The body file of the mount piece between the two, if any.
    pub mount: Option<PathBuf>,
    /// From the end of the parent chain to the child's base.
    pub offset: Pose,
}

impl Connection {
    /// Where the carried robot's palm stands on this carrier: its chain's end times the offset.
    pub fn carried_pose(&self, carrier: &Robot) -> Option<Pose> {
        Some(carrier.chain_end(self.parent_chain)? * self.offset)
    }
}

/// Every robot that `robot` carries under these connections, each after its carrier.
pub(crate) fn carried_by(connections: &[Connection], robot: RobotId) -> Vec<RobotId> {
    let mut found = Vec::new();
    let mut next = vec![robot];
    while let Some(parent) = next.pop() {
        for c in connections.iter().filter(|c| c.parent_robot == parent) {
            found.push(c.child_robot);
            next.push(c.child_robot);
        }
    }
    found
}
