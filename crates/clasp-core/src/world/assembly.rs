//! Robots mounted on robots (GraspIt's `<connection>`): an arm's chain carries a hand, the
//! hand's palm stays at the chain's end times an offset, and a mount piece may sit between
//! them. The robot at the bottom of an assembly moves it all; the carried robots still move
//! their own DOFs.

use clasp_collide::CollisionEngine;

use super::{World, error::MoveError};
use crate::{
    body::Body,
    ids::{BodyId, Element, RobotBody, RobotId},
    robot::mount::{Connection, carried_by},
};

impl<E: CollisionEngine> World<E> {
    /// The connection that carries `robot`, if it is mounted on another.
    pub fn carrier(&self, robot: RobotId) -> Option<&Connection> {
        self.stage
            .connections
            .iter()
            .find(|c| c.child_robot == robot)
    }

    /// The robot at the bottom of the assembly `robot` belongs to (itself if nothing carries it).
    pub fn assembly_root(&self, robot: RobotId) -> RobotId {
        let mut root = robot;
        // Connections never make a circle (`connect` refuses one), so this ends.
        while let Some(c) = self.carrier(root) {
            root = c.parent_robot;
        }
        root
    }

    /// What a user moves on picking `element`: a free body, or the whole assembly of a robot.
    pub fn assembly_of(&self, element: Element) -> Element {
        match element {
            Element::Robot(r) => Element::Robot(self.assembly_root(r)),
            body => body,
        }
    }

    /// Every robot that `robot` carries, directly or through others, each after its carrier.
    pub fn carried(&self, robot: RobotId) -> Vec<RobotId> {
        carried_by(&self.stage.connections, robot)
    }

    /// Mounts one robot on the end of another's chain, with its mount piece if it has one
    /// (GraspIt's `attachRobot`): the child moves to the chain's end times the offset, and the
    /// chain's last link no longer collides with the child's palm or mount piece, nor the
    /// mount piece with the palm. Refused, changing nothing, for a robot or chain that is not
    /// there, a robot already carried, or a mount that would make a circle.
    pub fn connect(
        &mut self,
        connection: Connection,
        mount: Option<Body>,
    ) -> Result<(), MoveError> {
        let (parent, chain, child) = (
            connection.parent_robot,
            connection.parent_chain,
            connection.child_robot,
        );
        let refused = |why: &'static str| MoveError::BadConnection { parent, child, why };
        let chains = self
            .robot(parent)
            .ok_or(MoveError::NoSuchRobot(parent))?
            .chains
            .len();
        self.robot(child).ok_or(MoveError::NoSuchRobot(child))?;
        if parent == child {
            return Err(refused("a robot cannot carry itself"));
        }
        if chain >= chains {
            return Err(refused("the parent has no such chain"));
        }
        if self.carrier(child).is_some() {
            return Err(refused("the child is already mounted"));
        }
        if self.assembly_root(parent) == child {
            return Err(refused("the child carries the parent"));
        }
        let last_link = self.stage.robots[parent.index()]
            .as_ref()
            .and_then(|r| r.chains[chain].links.len().checked_sub(1))
            .map(|link| BodyId::Link {
                robot: parent,
                chain,
                link,
            });
        if let Some(robot) = self.stage.robots[child.index()].as_mut() {
            robot.set_mount(mount);
        }
        if let Some(last) = last_link {
            for carried in [
                BodyId::Palm { robot: child },
                BodyId::Mount { robot: child },
            ] {
                self.stage.switches.set_pair(last, carried, false);
            }
        }
        self.stage.connections.push(connection);
        self.carry(parent);
        self.find_all_contacts();
        Ok(())
    }

    /// Undoes a mount: the robot stays where it is, free, without its mount piece.
    pub(crate) fn disconnect(&mut self, child: RobotId) {
        self.stage.connections.retain(|c| c.child_robot != child);
        if let Some(robot) = self
            .stage
            .robots
            .get_mut(child.index())
            .and_then(Option::as_mut)
        {
            robot.set_mount(None);
        }
    }

    /// Puts every robot `robot` carries at its chain end, carriers first.
    pub(crate) fn carry(&mut self, robot: RobotId) {
        for child in self.carried(robot) {
            let Some(c) = self.carrier(child).cloned() else {
                continue;
            };
            let pose = self.robot(c.parent_robot).and_then(|p| c.carried_pose(p));
            if let (Some(pose), Some(r)) = (pose, self.stage.robots[child.index()].as_mut()) {
                r.set_pose(pose);
            }
        }
    }

    /// The bodies of a robot and of every robot it carries.
    pub(crate) fn assembly_bodies(&self, robot: RobotId) -> Vec<BodyId> {
        std::iter::once(robot)
            .chain(self.carried(robot))
            .filter_map(|r| Some((r, self.robot(r)?)))
            .flat_map(|(r, robot)| {
                robot
                    .parts()
                    .into_iter()
                    .map(move |which: RobotBody| BodyId::of_robot(r, which))
            })
            .collect()
    }
}
