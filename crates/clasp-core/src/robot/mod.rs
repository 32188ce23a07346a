//! A robot: a palm and kinematic chains driven by DOFs, what its file asks of collisions, and
//! the state the dynamics drives it in. Its kinematics, DOF values, breakaway and bodies are
//! each in a file of their own.

use nalgebra::{Point3, Unit, Vector3};

mod aim;
mod bodies;
mod breakaway;
pub mod chain;
pub mod dof;
mod dof_values;
pub mod eigengrasp;
pub mod inference;
mod inferred_contacts;
pub mod jacobian;
pub mod jaws;
mod kinematics;
pub mod mount;
pub mod reach;
pub mod reach_ball;
#[cfg(test)]
mod test_finger;
mod thumb;
pub mod virtual_contacts;

use chain::Chain;
use dof::Dof;
use eigengrasp::EigenGrasps;
use virtual_contacts::{PlacedVirtualContact, VirtualContacts};

use crate::{
    body::{Body, velocity::Velocity},
    ids::RobotBody,
};

/// The direction a hand approaches an object along, in the palm frame.
#[derive(Debug, Clone, PartialEq)]
pub struct HandApproach {
    pub reference: Point3<f64>,
    pub direction: Unit<Vector3<f64>>,
}

/// A collision exception a robot file asks for (GraspIt's `collisionRule` link attribute and
/// robot-level `<disableCollision>`). Data only for now: the collision filter applies them later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollisionRule {
    /// The body collides with nothing (`collisionRule="Off"`).
    Off(RobotBody),
    /// The two bodies never collide with each other (`collisionRule="OverlappingPair"`,
    /// `<disableCollision>`).
    Pair(RobotBody, RobotBody),
}

/// A robot hand: a palm and kinematic chains driven by DOFs.
#[derive(Debug, Clone)]
pub struct Robot {
    pub name: String,
    pub(crate) palm: Body,
    pub dofs: Vec<Dof>,
    pub(crate) chains: Vec<Chain>,
    pub approach: Option<HandApproach>,
    /// The robot file it was loaded from, for saving worlds; `None` for robots built in code.
    pub source: Option<std::path::PathBuf>,
    /// GraspIt's `type` attribute (the robot class it instantiates: Hand, Barrett, …).
    pub robot_type: Option<String>,
    /// GraspIt's `DBName` attribute (GraspIt defaults it to the type).
    pub db_name: Option<String>,
    /// The eigengrasps of the robot's `<eigenGrasps>` file; `None` when it names none (GraspIt
    /// then uses [`EigenGrasps::identity`]).
    pub eigen_grasps: Option<EigenGrasps>,
    /// The virtual contacts of the robot's `<virtualContacts>` file, if it names one.
    pub virtual_contacts: Option<VirtualContacts>,
    /// Collision exceptions the file asks for, beyond GraspIt's automatic ones.
    pub(crate) collision_rules: Vec<CollisionRule>,
    /// Pairs of the robot's own bodies that interpenetrate at the pose it was built in; like
    /// GraspIt, they never collide with each other (the model overlaps them on purpose).
    pub(crate) overlapping_at_start: Vec<(RobotBody, RobotBody)>,
    /// The mount piece, while the robot is mounted on another with one.
    pub(crate) mount: Option<Body>,
    dof_values: Vec<f64>,
    /// Per chain and joint: the value of its DOF when the joint broke away (a breakaway DOF's
    /// joint stopped by a contact while the DOF went on closing), or `None` while it follows.
    breakaway: Vec<Vec<Option<f64>>>,
    /// Where its DOF controllers drive it in the dynamics; `None` for a robot the dynamics
    /// leaves where it is.
    pub(crate) dof_targets: Option<Vec<f64>>,
    /// Its DOFs' velocities (rad/s or mm/s) while the dynamics drives it.
    pub(crate) dof_velocities: Vec<f64>,
    /// How its palm moves while the dynamics drives it (a kinematic base: the palm goes where
    /// this takes it, pushing what it meets); zero for a base that stays.
    pub(crate) base_velocity: Velocity,
    /// Whether the dynamics moves its palm by the forces on the hand (a floating base: six
    /// more generalized coordinates); `base_velocity` is then the base's own.
    pub(crate) free_base: bool,
    /// A free base's hand's momentum at the end of the last step: linear (g·mm/s) and angular
    /// about the world's origin; the next step starts from it (see `dynamics::articulated`).
    pub(crate) base_momentum: Option<(Vector3<f64>, Vector3<f64>)>,
}

impl Robot {
    /// Assembles a robot at its DOFs' default values (clamped to their limits) and places its links.
    pub fn new(
        name: String,
        palm: Body,
        dofs: Vec<Dof>,
        chains: Vec<Chain>,
        approach: Option<HandApproach>,
    ) -> Self {
        let breakaway = chains.iter().map(|c| vec![None; c.joints.len()]).collect();
        let mut robot = Robot {
            name,
            palm,
            dof_values: dofs.iter().map(|d| d.default_value).collect(),
            dof_velocities: vec![0.0; dofs.len()],
            base_velocity: Velocity::ZERO,
            free_base: false,
            base_momentum: None,
            dofs,
            chains,
            approach,
            source: None,
            robot_type: None,
            db_name: None,
            eigen_grasps: None,
            virtual_contacts: None,
            collision_rules: Vec::new(),
            overlapping_at_start: Vec::new(),
            mount: None,
            breakaway,
            dof_targets: None,
        };
        robot.dof_values = robot.within_limits(&robot.dof_values);
        robot.place_links();
        robot.overlapping_at_start = robot.find_own_overlaps();
        robot
    }

    /// Whether the robot is a hand: GraspIt's `Hand` class or one made from it, by its file's
    /// `type`. A robot with no type (built in code, or from URDF) counts as a hand; `Robot`,
    /// `Puma560` and `M7` are arms.
    pub fn is_hand(&self) -> bool {
        const HANDS: [&str; 10] = [
            "Hand",
            "Barrett",
            "Robonaut",
            "Pr2Gripper",
            "Pr2Gripper2010",
            "M7Tool",
            "HumanHand",
            "Shadow",
            "McGrip",
            "RobotIQ",
        ];
        self.robot_type
            .as_deref()
            .is_none_or(|t| HANDS.contains(&t))
    }

    /// Where the DOF controllers drive the robot in the dynamics, if they do.
    pub fn dof_targets(&self) -> Option<&[f64]> {
        self.dof_targets.as_deref()
    }

    /// The DOFs' velocities (rad/s, or mm/s for prismatic ones): zero unless the dynamics
    /// drives the robot.
    pub fn dof_velocities(&self) -> &[f64] {
        &self.dof_velocities
    }

    /// How the palm moves in the dynamics (linear at the palm's origin, mm/s; angular, rad/s).
    pub fn base_velocity(&self) -> Velocity {
        self.base_velocity
    }

    /// Whether the dynamics moves the palm by the forces on the hand (a free base).
    pub fn has_free_base(&self) -> bool {
        self.free_base
    }

    /// The robot's virtual contacts where its bodies stand now (those on bodies it lacks left
    /// out).
    pub fn virtual_contacts_placed(&self) -> Vec<PlacedVirtualContact<'_>> {
        let Some(file) = &self.virtual_contacts else {
            return Vec::new();
        };
        file.contacts
            .iter()
            .filter_map(|contact| {
                let pose = self.body(contact.body)?.pose();
                Some(PlacedVirtualContact {
                    contact,
                    location: pose * contact.location,
                    frame: pose * contact.frame,
                    normal: pose.rotation * contact.normal,
                })
            })
            .collect()
    }
}
