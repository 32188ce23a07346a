//! The names of a world's things: robots by [`RobotId`], bodies by [`BodyId`], what a user
//! selects and moves as one by [`Element`], and one body of a robot by [`RobotBody`]. Ids name
//! slots that are never reused, so an id means one thing for the world's whole life.

use std::fmt;

/// Names one robot of a world, as rapier's handles name its bodies: the robot's slot, never
/// given to another robot, so an id stays valid (or names nothing) whatever is removed.
/// Written as its slot number, as users see it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RobotId(usize);

impl RobotId {
    /// The id of the robot in slot `index` (the order robots were added, from 0).
    pub const fn from_index(index: usize) -> Self {
        RobotId(index)
    }

    /// The robot's slot: what files, the CLI and Python number robots by.
    pub const fn index(self) -> usize {
        self.0
    }
}

impl fmt::Display for RobotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Debug for RobotId {
    /// The bare number, so that ids read as before in messages (`Palm { robot: 0 }`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One body of a robot, by position: the palm, a chain's link, or the mount piece that joins
/// it to the robot carrying it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RobotBody {
    Palm,
    Link {
        chain: usize,
        link: usize,
    },
    /// The piece between a mounted robot and the chain carrying it (GraspIt's mount piece):
    /// fixed to the palm, and there only while the robot is mounted with one.
    Mount,
}

/// What a user selects and moves as one: a free body, or a whole robot (palm and links).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    Body(usize),
    Robot(RobotId),
}

/// Names one body of a world: a free body, or a robot's palm or link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BodyId {
    /// A free body (obstacle or graspable), by index.
    Free(usize),
    /// A robot's palm.
    Palm { robot: RobotId },
    /// A link of a robot's chain.
    Link {
        robot: RobotId,
        chain: usize,
        link: usize,
    },
    /// The mount piece of a robot mounted on another.
    Mount { robot: RobotId },
}

impl BodyId {
    /// The robot this body belongs to, if any.
    pub fn robot(self) -> Option<RobotId> {
        match self {
            BodyId::Free(_) => None,
            BodyId::Palm { robot } | BodyId::Link { robot, .. } | BodyId::Mount { robot } => {
                Some(robot)
            }
        }
    }

    /// Which of its robot's bodies this is, if it is a robot's.
    pub fn robot_body(self) -> Option<RobotBody> {
        match self {
            BodyId::Free(_) => None,
            BodyId::Palm { .. } => Some(RobotBody::Palm),
            BodyId::Link { chain, link, .. } => Some(RobotBody::Link { chain, link }),
            BodyId::Mount { .. } => Some(RobotBody::Mount),
        }
    }

    /// The id of one body of robot `robot`.
    pub fn of_robot(robot: RobotId, which: RobotBody) -> BodyId {
        match which {
            RobotBody::Palm => BodyId::Palm { robot },
            RobotBody::Link { chain, link } => BodyId::Link { robot, chain, link },
            RobotBody::Mount => BodyId::Mount { robot },
        }
    }

    /// The index of a free body; `None` for a robot's.
    pub fn free_index(self) -> Option<usize> {
        match self {
            BodyId::Free(i) => Some(i),
            _ => None,
        }
    }

    /// The element this body belongs to: the body, or its robot. (A user who picks a mounted
    /// robot's body moves the whole assembly: see `World::assembly_root`.)
    pub fn element(self) -> Element {
        match self {
            BodyId::Free(i) => Element::Body(i),
            BodyId::Palm { robot } | BodyId::Link { robot, .. } | BodyId::Mount { robot } => {
                Element::Robot(robot)
            }
        }
    }
}
