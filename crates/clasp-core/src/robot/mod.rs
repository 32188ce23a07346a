use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};

use clasp_collide::{CollisionEngine, FastEngine, Placed};

pub mod eigengrasp;
pub mod jacobian;
pub mod mount;
pub mod reach;
pub mod virtual_contacts;

use eigengrasp::{EigenError, EigenGrasps, EigenSpace};
use virtual_contacts::{PlacedVirtualContact, VirtualContacts};

use crate::{body::Body, ids::RobotBody, pose::Pose};

/// How a DOF behaves when a hand closes (GraspIt's `r`, `b` and `c` DOF types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DofKind {
    Rigid,
    Breakaway,
    Compliant,
}

/// One degree of freedom: a value that drives one or more joints through couplings.
///
/// The dynamics fields keep GraspIt's file values and units; nothing uses them yet.
#[derive(Debug, Clone, PartialEq)]
pub struct Dof {
    pub kind: DofKind,
    /// Closing speed and direction for auto-grasp (its sign says which way closes).
    pub default_velocity: f64,
    /// Value at load, in radians (revolute) or millimetres (prismatic).
    pub default_value: f64,
    /// GraspIt's `maxEffort`: N·1e6·mm for torques, N·1e6 for forces.
    pub max_effort: f64,
    /// GraspIt's `Kp`, the proportional gain of its PD joint controller.
    pub kp: f64,
    /// GraspIt's `Kd`, the derivative gain of its PD joint controller.
    pub kd: f64,
    /// GraspIt's `draggerScale`: the size of the joint's drag handle in its GUI.
    pub dragger_scale: f64,
    /// GraspIt's `breakAwayTorque` as written in the file (GraspIt multiplies it by 1e3);
    /// 0 when not given. Only breakaway DOFs use it.
    pub breakaway_torque: f64,
}

impl Dof {
    /// Default `maxEffort`, `Kp`, `Kd` and `draggerScale` for files that leave them out: the values
    /// most of GraspIt's own hands give.
    pub const DEFAULT_MAX_EFFORT: f64 = 5.0e9;
    pub const DEFAULT_KP: f64 = 1.0e11;
    pub const DEFAULT_KD: f64 = 1.0e7;
    pub const DEFAULT_DRAGGER_SCALE: f64 = 20.0;

    /// A DOF with the default dynamics parameters and no breakaway torque.
    pub fn new(kind: DofKind, default_velocity: f64, default_value: f64) -> Self {
        Self {
            kind,
            default_velocity,
            default_value,
            max_effort: Self::DEFAULT_MAX_EFFORT,
            kp: Self::DEFAULT_KP,
            kd: Self::DEFAULT_KD,
            dragger_scale: Self::DEFAULT_DRAGGER_SCALE,
            breakaway_torque: 0.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// Rotates about its z axis: the DOF drives θ.
    Revolute,
    /// Slides along its z axis: the DOF drives d.
    Prismatic,
}

/// How a joint follows a DOF: joint value = ratio · DOF; the DH parameter gets the offset added.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Coupling {
    pub dof: usize,
    pub ratio: f64,
    pub offset: f64,
}

/// Where a joint sits and how it moves, relative to the previous joint's frame (or the chain base).
#[derive(Debug, Clone, PartialEq)]
pub enum JointFrame {
    /// GraspIt's Denavit–Hartenberg parameters: the frame is `Rz(θ) Tz(d) Tx(a) Rx(α)`; the
    /// parameter the joint drives (θ or d) is ignored and replaced by the driven value.
    DenavitHartenberg {
        theta: f64,
        d: f64,
        a: f64,
        alpha: f64,
    },
    /// A URDF joint: the fixed `origin`, then a turn about (revolute) or a slide along
    /// (prismatic) `axis` through that origin, then the fixed `tip` (identity unless fixed
    /// joints after this one were folded in): `origin · motion · tip`.
    Axis {
        origin: Pose,
        axis: Unit<Vector3<f64>>,
        tip: Pose,
    },
}

/// GraspIt's per-joint dynamics parameters, as the file gives them; nothing uses them yet.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct JointDynamics {
    /// `viscousFriction` (GraspIt's f1).
    pub viscous_friction: f64,
    /// `CoulombFriction` (GraspIt's f0).
    pub coulomb_friction: f64,
    /// `springStiffness` as written (GraspIt multiplies it by 1e6); 0 for no spring.
    pub spring_stiffness: f64,
    /// `restValue`: the spring's rest joint value, radians (revolute) or millimetres (prismatic).
    pub rest_value: f64,
}

/// One joint of a chain, driven by a DOF through its coupling.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub kind: JointKind,
    pub coupling: Coupling,
    pub frame: JointFrame,
    /// Limits on the joint value (ratio · DOF, without the offset); infinite for a URDF
    /// continuous joint.
    pub min: f64,
    pub max: f64,
    pub dynamics: JointDynamics,
}

impl Joint {
    pub fn value(&self, dof_values: &[f64]) -> f64 {
        self.coupling.ratio * dof_values[self.coupling.dof]
    }

    /// The transform from the previous joint's frame to this joint's frame.
    pub fn transform(&self, dof_values: &[f64]) -> Pose {
        self.transform_at(dof_values[self.coupling.dof])
    }

    /// The transform with its DOF at `dof_value`.
    fn transform_at(&self, dof_value: f64) -> Pose {
        let driven = self.coupling.ratio * dof_value + self.coupling.offset;
        match &self.frame {
            JointFrame::DenavitHartenberg { theta, d, a, alpha } => {
                let (theta, d) = match self.kind {
                    JointKind::Revolute => (driven, *d),
                    JointKind::Prismatic => (*theta, driven),
                };
                rotation_about(Vector3::z_axis(), theta)
                    * Pose::translation(0.0, 0.0, d)
                    * Pose::translation(*a, 0.0, 0.0)
                    * rotation_about(Vector3::x_axis(), *alpha)
            }
            JointFrame::Axis { origin, axis, tip } => {
                let motion = match self.kind {
                    JointKind::Revolute => rotation_about(*axis, driven),
                    JointKind::Prismatic => Pose::from_parts(
                        Translation3::from(axis.into_inner() * driven),
                        UnitQuaternion::identity(),
                    ),
                };
                origin * motion * tip
            }
        }
    }

    /// The joint's transform split round its motion: `before · motion(value) · after`, where
    /// the motion turns about (revolute) or slides along (prismatic) `axis` by the joint value
    /// (ratio · DOF; the offset is in `before`). For writing the joint to formats whose joints
    /// move by their own value about an axis (MuJoCo's).
    pub fn split(&self) -> (Pose, Unit<Vector3<f64>>, Pose) {
        let offset = self.coupling.offset;
        let slide = |axis: &Unit<Vector3<f64>>, by: f64| {
            Pose::from_parts(
                Translation3::from(axis.into_inner() * by),
                UnitQuaternion::identity(),
            )
        };
        match (&self.frame, self.kind) {
            (JointFrame::DenavitHartenberg { d, a, alpha, .. }, JointKind::Revolute) => (
                rotation_about(Vector3::z_axis(), offset),
                Vector3::z_axis(),
                Pose::translation(*a, 0.0, *d) * rotation_about(Vector3::x_axis(), *alpha),
            ),
            (
                JointFrame::DenavitHartenberg {
                    theta, a, alpha, ..
                },
                JointKind::Prismatic,
            ) => (
                rotation_about(Vector3::z_axis(), *theta) * Pose::translation(0.0, 0.0, offset),
                Vector3::z_axis(),
                Pose::translation(*a, 0.0, 0.0) * rotation_about(Vector3::x_axis(), *alpha),
            ),
            (JointFrame::Axis { origin, axis, tip }, JointKind::Revolute) => {
                (origin * rotation_about(*axis, offset), *axis, *tip)
            }
            (JointFrame::Axis { origin, axis, tip }, JointKind::Prismatic) => {
                (origin * slide(axis, offset), *axis, *tip)
            }
        }
    }

    /// The DOF interval this joint allows, from its limits and coupling ratio.
    fn dof_interval(&self) -> (f64, f64) {
        let (a, b) = (
            self.min / self.coupling.ratio,
            self.max / self.coupling.ratio,
        );
        (a.min(b), a.max(b))
    }
}

fn rotation_about(axis: Unit<Vector3<f64>>, angle: f64) -> Pose {
    Pose::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_axis_angle(&axis, angle),
    )
}

/// A link: a body fixed in the frame of one joint of its chain.
#[derive(Debug, Clone)]
pub struct Link {
    pub body: Body,
    /// The joint whose frame carries the link; `None` puts it on the chain's base.
    pub frame: Option<usize>,
}

/// A serial chain of joints from the palm, with the links they carry.
#[derive(Debug, Clone)]
pub struct Chain {
    /// From the palm frame to the frame before the first joint.
    pub base: Pose,
    pub joints: Vec<Joint>,
    pub links: Vec<Link>,
}

impl Chain {
    /// Each joint's frame relative to the palm; a joint in breakaway stays where its DOF was
    /// when it broke away (`held`, one per joint) while the DOF is past that value.
    fn joint_frames(&self, dof_values: &[f64], held: &[Option<f64>]) -> Vec<Pose> {
        let mut frame = self.base;
        self.joints
            .iter()
            .enumerate()
            .map(|(j, joint)| {
                let q = dof_values[joint.coupling.dof];
                let q = held.get(j).copied().flatten().map_or(q, |b| q.min(b));
                frame *= joint.transform_at(q);
                frame
            })
            .collect()
    }
}

/// The direction a hand approaches an object along, in the palm frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Approach {
    pub reference: nalgebra::Point3<f64>,
    pub direction: nalgebra::Unit<Vector3<f64>>,
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

/// Why a set of DOF values was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DofError {
    #[error("expected {expected} DOF values, got {got}")]
    WrongCount { expected: usize, got: usize },
    #[error("DOF {dof} value {value} is not a finite number")]
    NotFinite { dof: usize, value: f64 },
    #[error("DOF {dof} drives {expected} joints, but {got} breakaway states were given")]
    WrongBreakawayCount {
        dof: usize,
        expected: usize,
        got: usize,
    },
    #[error("DOF {dof} value {value} is outside its limits [{min}, {max}]")]
    OutOfLimits {
        dof: usize,
        value: f64,
        min: f64,
        max: f64,
    },
}

/// Values this close outside a limit count as on it: files round their angles.
const LIMIT_TOLERANCE: f64 = 1e-6;

/// How far below its breakaway value a DOF must come back for the joint to follow it again
/// (GraspIt's).
const BREAKAWAY_TOLERANCE: f64 = 1e-5;

/// The DOF step Jacobians are found by (rad or mm): small against any DOF's range, large
/// against rounding.
pub const DOF_STEP: f64 = 1e-6;

/// A robot hand: a palm and kinematic chains driven by DOFs.
#[derive(Debug, Clone)]
pub struct Robot {
    pub name: String,
    pub(crate) palm: Body,
    pub dofs: Vec<Dof>,
    pub(crate) chains: Vec<Chain>,
    pub approach: Option<Approach>,
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
    pub(crate) base_velocity: crate::body::velocity::Velocity,
    /// Whether the dynamics moves its palm by the forces on the hand (a floating base: six
    /// more generalized coordinates); `base_velocity` is then the base's own.
    pub(crate) free_base: bool,
    /// A free base's hand's momentum at the end of the last step: linear (g·mm/s) and angular
    /// about the world's origin; the next step starts from it (see `dynamics::articulated`).
    pub(crate) base_momentum: Option<(nalgebra::Vector3<f64>, nalgebra::Vector3<f64>)>,
}

impl Robot {
    /// Assembles a robot at its DOFs' default values (clamped to their limits) and places its links.
    pub fn new(
        name: String,
        palm: Body,
        dofs: Vec<Dof>,
        chains: Vec<Chain>,
        approach: Option<Approach>,
    ) -> Self {
        let breakaway = chains.iter().map(|c| vec![None; c.joints.len()]).collect();
        let mut robot = Robot {
            name,
            palm,
            dof_values: dofs.iter().map(|d| d.default_value).collect(),
            dof_velocities: vec![0.0; dofs.len()],
            base_velocity: crate::body::velocity::Velocity::ZERO,
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

    /// The pairs of its own bodies that would be checked by the chain rules but interpenetrate.
    fn find_own_overlaps(&self) -> Vec<(RobotBody, RobotBody)> {
        let parts = self.parts();
        let mut found = Vec::new();
        for (i, &a) in parts.iter().enumerate() {
            for &b in &parts[i + 1..] {
                if self.chains_allow(a, b) && self.pair_collides(a, b) {
                    found.push((a, b));
                }
            }
        }
        found
    }

    fn pair_collides(&self, a: RobotBody, b: RobotBody) -> bool {
        let (Some(a), Some(b)) = (self.body(a), self.body(b)) else {
            return false;
        };
        FastEngine.collide(
            Placed::new(&a.geometry, a.pose),
            Placed::new(&b.geometry, b.pose),
        )
    }

    /// The palm moved `distance` mm along its approach direction (the palm's z where its file
    /// gives none), not turned.
    pub fn approached(&self, distance: f64) -> Pose {
        let start = self.pose();
        let direction = self
            .approach
            .as_ref()
            .map_or(Vector3::z(), |a| a.direction.into_inner());
        let shift = start.rotation * direction * distance;
        Pose::from_parts((start.translation.vector + shift).into(), start.rotation)
    }

    /// The palm pose that puts the approach reference point `distance` mm from `target`,
    /// approaching it along `towards` (from the hand to the target), turned `roll` radians
    /// about that line: how a planner or a batch places a hand round an object. A robot
    /// without an approach direction approaches along its palm's z from its origin.
    pub fn pose_aiming_at(
        &self,
        target: nalgebra::Point3<f64>,
        towards: Unit<Vector3<f64>>,
        distance: f64,
        roll: f64,
    ) -> Pose {
        let (reference, direction) = self
            .approach
            .as_ref()
            .map_or((nalgebra::Point3::origin(), Vector3::z_axis()), |a| {
                (a.reference, a.direction)
            });
        let aim =
            UnitQuaternion::rotation_between_axis(&direction, &towards).unwrap_or_else(|| {
                // Opposite directions: any half turn about an axis across them.
                let across = Unit::new_normalize(
                    direction
                        .cross(&Vector3::x())
                        .try_normalize(1e-6)
                        .unwrap_or_else(Vector3::y),
                );
                UnitQuaternion::from_axis_angle(&across, std::f64::consts::PI)
            });
        let rotation = UnitQuaternion::from_axis_angle(&towards, roll) * aim;
        let start = target - towards.into_inner() * distance;
        let origin = start - rotation * reference.coords;
        Pose::from_parts(Translation3::from(origin.coords), rotation)
    }

    /// `count` palm poses round `target`, `distance` mm away, each aimed at it horizontally
    /// from its own side, evenly round the vertical: where a batch of grasps starts.
    pub fn poses_round(
        &self,
        target: nalgebra::Point3<f64>,
        count: usize,
        distance: f64,
    ) -> Vec<Pose> {
        (0..count)
            .map(|k| {
                let angle = std::f64::consts::TAU * k as f64 / count as f64;
                let towards = Unit::new_normalize(Vector3::new(-angle.cos(), -angle.sin(), 0.0));
                self.pose_aiming_at(target, towards, distance, 0.0)
            })
            .collect()
    }

    /// How far the robot reaches from its palm's origin (mm): the farthest corner of any of
    /// its bodies' boxes, with its DOFs as they are, wherever the robot stands.
    pub fn reach(&self) -> f64 {
        let palm = self.pose().inverse();
        self.bodies()
            .filter(|b| !b.mesh().is_empty())
            .flat_map(|b| {
                let (lo, hi) = b.mesh().bounding_box();
                let local = palm * b.pose();
                (0..8).map(move |k| {
                    let corner = nalgebra::Point3::new(
                        if k & 1 == 0 { lo.x } else { hi.x },
                        if k & 2 == 0 { lo.y } else { hi.y },
                        if k & 4 == 0 { lo.z } else { hi.z },
                    );
                    (local * corner).coords.norm()
                })
            })
            .fold(0.0, f64::max)
    }

    /// Whether a DOF turns joints (an angle, radians) rather than sliding them (a length, mm):
    /// the kind of the first joint it drives.
    pub fn dof_is_revolute(&self, dof: usize) -> bool {
        self.chains
            .iter()
            .flat_map(|c| &c.joints)
            .find(|j| j.coupling.dof == dof)
            .is_none_or(|j| j.kind == JointKind::Revolute)
    }

    pub fn palm(&self) -> &Body {
        &self.palm
    }

    pub fn chains(&self) -> &[Chain] {
        &self.chains
    }

    /// Collision exceptions the file asks for, beyond GraspIt's automatic ones.
    pub fn collision_rules(&self) -> &[CollisionRule] {
        &self.collision_rules
    }

    /// The same robot with these collision exceptions: for robots not yet in a world.
    pub fn with_collision_rules(mut self, rules: Vec<CollisionRule>) -> Self {
        self.collision_rules = rules;
        self
    }

    /// Pairs of its own bodies that interpenetrate at the pose it was built in, and so never
    /// collide with each other.
    pub fn overlapping_at_start(&self) -> &[(RobotBody, RobotBody)] {
        &self.overlapping_at_start
    }

    /// Puts one of its bodies in collision groups: for robots not yet in a world (a world's
    /// robots change groups through [`crate::World::set_collision_groups`]). False if the
    /// robot has no such body.
    pub fn set_body_groups(
        &mut self,
        which: RobotBody,
        groups: clasp_collide::CollisionGroups,
    ) -> bool {
        self.body_mut(which).map(|b| b.groups = groups).is_some()
    }

    /// Every body of the robot by position: the palm, then each chain's links in order, then
    /// the mount piece if it has one.
    pub fn parts(&self) -> Vec<RobotBody> {
        let links = self.chains.iter().enumerate().flat_map(|(chain, c)| {
            (0..c.links.len()).map(move |link| RobotBody::Link { chain, link })
        });
        let mount = self.mount.as_ref().map(|_| RobotBody::Mount);
        std::iter::once(RobotBody::Palm)
            .chain(links)
            .chain(mount)
            .collect()
    }

    pub fn body(&self, which: RobotBody) -> Option<&Body> {
        match which {
            RobotBody::Palm => Some(&self.palm),
            RobotBody::Link { chain, link } => {
                self.chains.get(chain)?.links.get(link).map(|l| &l.body)
            }
            RobotBody::Mount => self.mount.as_ref(),
        }
    }

    pub(crate) fn body_mut(&mut self, which: RobotBody) -> Option<&mut Body> {
        match which {
            RobotBody::Palm => Some(&mut self.palm),
            RobotBody::Link { chain, link } => self
                .chains
                .get_mut(chain)?
                .links
                .get_mut(link)
                .map(|l| &mut l.body),
            RobotBody::Mount => self.mount.as_mut(),
        }
    }

    /// The mount piece joining the robot to the one carrying it, if it has one.
    pub fn mount(&self) -> Option<&Body> {
        self.mount.as_ref()
    }

    /// Fixes a mount piece to the palm (or takes it away): done by the world when it mounts
    /// the robot on another.
    pub(crate) fn set_mount(&mut self, mount: Option<Body>) {
        self.mount = mount;
        self.place_links();
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

    /// The body's position in [`Robot::parts`] order.
    pub fn local_index(&self, which: RobotBody) -> Option<usize> {
        self.parts().iter().position(|&p| p == which)
    }

    /// Whether the robot's file lets this body collide at all (`collisionRule="Off"` does not).
    pub fn collides(&self, which: RobotBody) -> bool {
        !self.collision_rules.contains(&CollisionRule::Off(which))
    }

    /// Whether two of the robot's own bodies are checked against each other: never within one
    /// chain, nor the palm against a chain's first link (GraspIt's automatic rules), nor a pair
    /// the file or the start pose rules out.
    pub fn self_pair_checked(&self, a: RobotBody, b: RobotBody) -> bool {
        let listed = |(x, y): &(RobotBody, RobotBody)| (*x, *y) == (a, b) || (*x, *y) == (b, a);
        self.chains_allow(a, b)
            && self.collides(a)
            && self.collides(b)
            && !self.collision_rules.iter().any(|rule| match rule {
                CollisionRule::Pair(x, y) => listed(&(*x, *y)),
                CollisionRule::Off(_) => false,
            })
            && !self.overlapping_at_start.iter().any(listed)
    }

    /// GraspIt's automatic rules: the mount piece never meets the palm it is fixed to.
    fn chains_allow(&self, a: RobotBody, b: RobotBody) -> bool {
        use RobotBody::{Link, Mount, Palm};
        match (a, b) {
            (Palm, Palm) | (Mount, Mount) | (Palm, Mount) | (Mount, Palm) => false,
            (Palm, Link { link, .. }) | (Link { link, .. }, Palm) => link != 0,
            (Mount, Link { .. }) | (Link { .. }, Mount) => true,
            (Link { chain: c1, .. }, Link { chain: c2, .. }) => c1 != c2,
        }
    }

    /// Sets DOF values without checking them; the caller keeps them finite and within limits.
    pub(crate) fn force_dof_values(&mut self, values: &[f64]) {
        self.dof_values.copy_from_slice(values);
        self.reengage();
        self.place_links();
    }

    /// The joints a DOF drives, as (chain, joint), chain by chain: GraspIt's joint list, the
    /// order of a DOF's breakaway states in a world file.
    pub fn dof_joints(&self, dof: usize) -> Vec<(usize, usize)> {
        self.chains
            .iter()
            .enumerate()
            .flat_map(|(c, chain)| {
                chain
                    .joints
                    .iter()
                    .enumerate()
                    .filter(move |(_, j)| j.coupling.dof == dof)
                    .map(move |(j, _)| (c, j))
            })
            .collect()
    }

    /// The DOF value at which a joint broke away (stopped by a contact while its breakaway
    /// DOF went on closing), if it is in breakaway: it stays there while the DOF is past it.
    pub fn breakaway(&self, chain: usize, joint: usize) -> Option<f64> {
        self.breakaway.get(chain)?.get(joint).copied().flatten()
    }

    /// Per DOF, where each of its joints broke away ([`Robot::breakaway`], in
    /// [`Robot::dof_joints`] order): what [`Robot::set_breakaway`] takes back.
    pub fn breakaway_states(&self) -> Vec<Vec<Option<f64>>> {
        (0..self.dofs.len())
            .map(|d| {
                let joints = self.dof_joints(d);
                joints
                    .into_iter()
                    .map(|(c, j)| self.breakaway(c, j))
                    .collect()
            })
            .collect()
    }

    /// Puts a DOF's joints in breakaway at these values, or not (`None`), in
    /// [`Robot::dof_joints`] order, as a world file's DOF stream says. A value at or above the
    /// DOF's current one changes nothing: the joint follows its DOF.
    pub fn set_breakaway(&mut self, dof: usize, values: &[Option<f64>]) -> Result<(), DofError> {
        let joints = self.dof_joints(dof);
        if values.len() != joints.len() {
            return Err(DofError::WrongBreakawayCount {
                dof,
                expected: joints.len(),
                got: values.len(),
            });
        }
        if let Some(value) = values.iter().flatten().find(|v| !v.is_finite()) {
            return Err(DofError::NotFinite { dof, value: *value });
        }
        for (&(c, j), &value) in joints.iter().zip(values) {
            self.breakaway[c][j] = value;
        }
        self.reengage();
        self.place_links();
        Ok(())
    }

    /// Stops a joint where it is while its breakaway DOF goes on (GraspIt's breakaway).
    pub(crate) fn break_away(&mut self, chain: usize, joint: usize) {
        let dof = self.chains[chain].joints[joint].coupling.dof;
        if self.breakaway[chain][joint].is_none() {
            self.breakaway[chain][joint] = Some(self.dof_values[dof]);
        }
    }

    /// A DOF's joints that broke away where the DOF stands now follow it again: stopped with
    /// their DOF, they never lagged behind it.
    pub(crate) fn follow_where_level(&mut self, dof: usize) {
        let q = self.dof_values[dof];
        for (c, j) in self.dof_joints(dof) {
            if self.breakaway[c][j].is_some_and(|b| b >= q - BREAKAWAY_TOLERANCE) {
                self.breakaway[c][j] = None;
            }
        }
    }

    /// Whether a joint is held in breakaway now (its DOF at or past where it broke away).
    pub(crate) fn is_held(&self, chain: usize, joint: usize) -> bool {
        let dof = self.chains[chain].joints[joint].coupling.dof;
        self.breakaway(chain, joint)
            .is_some_and(|b| self.dof_values[dof] >= b - BREAKAWAY_TOLERANCE)
    }

    /// A joint whose DOF came back below where it broke away follows its DOF again
    /// (GraspIt's `BreakAwayDOF::updateVal`).
    fn reengage(&mut self) {
        for (chain, held) in self.chains.iter().zip(&mut self.breakaway) {
            for (joint, value) in chain.joints.iter().zip(held.iter_mut()) {
                let q = self.dof_values[joint.coupling.dof];
                if value.is_some_and(|b| q < b - BREAKAWAY_TOLERANCE) {
                    *value = None;
                }
            }
        }
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

    pub fn pose(&self) -> Pose {
        self.palm.pose
    }

    pub fn set_pose(&mut self, pose: Pose) {
        self.palm.pose = pose;
        self.place_links();
    }

    pub fn dof_values(&self) -> &[f64] {
        &self.dof_values
    }

    /// DOF values with one DOF moved by the finite-difference step [`DOF_STEP`], up unless that
    /// passes its upper limit, then down; and the signed step taken. What a Jacobian found by
    /// differences through the forward kinematics moves.
    pub fn nudged(&self, values: &[f64], dof: usize) -> (Vec<f64>, f64) {
        let (_, max) = self.dof_limits(dof);
        let step = if values[dof] + DOF_STEP <= max {
            DOF_STEP
        } else {
            -DOF_STEP
        };
        let mut moved = values.to_vec();
        moved[dof] += step;
        (moved, step)
    }

    /// The interval a DOF may take: the intersection of what each joint it drives allows.
    pub fn dof_limits(&self, dof: usize) -> (f64, f64) {
        self.chains
            .iter()
            .flat_map(|c| &c.joints)
            .filter(|j| j.coupling.dof == dof)
            .map(Joint::dof_interval)
            .fold((f64::NEG_INFINITY, f64::INFINITY), |(lo, hi), (a, b)| {
                (lo.max(a), hi.min(b))
            })
    }

    /// The DOF values `squeeze` past where each closing DOF stands (in its closing direction,
    /// the sign of its default velocity), within its limits; a DOF with no default velocity
    /// stays where it is. What the physics test drives the hand to.
    pub fn squeezed_dof_values(&self, squeeze: f64) -> Vec<f64> {
        self.squeezed_by(|_| squeeze)
    }

    /// The DOF values `step(dof)` past where each closing DOF stands (in its closing
    /// direction), within its limits; a DOF with no default velocity stays where it is.
    pub fn squeezed_by(&self, step: impl Fn(usize) -> f64) -> Vec<f64> {
        let squeezed: Vec<f64> = self
            .dof_values()
            .iter()
            .enumerate()
            .map(|(dof, &q)| {
                let velocity = self.dofs[dof].default_velocity;
                let toward = if velocity == 0.0 {
                    0.0
                } else {
                    velocity.signum()
                };
                q + toward * step(dof)
            })
            .collect();
        self.within_limits(&squeezed)
    }

    /// `values`, one per DOF, each brought within its DOF's limits (a DOF whose limits are
    /// written high to low keeps its lower one).
    pub fn within_limits(&self, values: &[f64]) -> Vec<f64> {
        values
            .iter()
            .enumerate()
            .map(|(dof, &v)| {
                let (min, max) = self.dof_limits(dof);
                v.clamp(min, max.max(min))
            })
            .collect()
    }

    /// The robot's eigengrasp space: its file's eigengrasps, else one per DOF (GraspIt's
    /// identity eigengrasps).
    pub fn eigen_space(&self) -> Result<EigenSpace, EigenError> {
        let limits: Vec<(f64, f64)> = (0..self.dofs.len()).map(|d| self.dof_limits(d)).collect();
        match &self.eigen_grasps {
            Some(grasps) => EigenSpace::new(grasps, &limits),
            None => EigenSpace::new(&EigenGrasps::identity(self.dofs.len()), &limits),
        }
    }

    /// The amplitudes of the robot's posture along its eigengrasps.
    pub fn eigen_amplitudes(&self) -> Result<Vec<f64>, EigenError> {
        Ok(self.eigen_space()?.amplitudes(&self.dof_values))
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

    /// Sets every DOF at once; an impossible value changes nothing and says why.
    pub fn set_dof_values(&mut self, values: &[f64]) -> Result<(), DofError> {
        self.check_dof_values(values)?;
        self.force_dof_values(values);
        Ok(())
    }

    /// Whether a set of DOF values is possible: one finite value per DOF, within its limits.
    pub fn check_dof_values(&self, values: &[f64]) -> Result<(), DofError> {
        if values.len() != self.dofs.len() {
            return Err(DofError::WrongCount {
                expected: self.dofs.len(),
                got: values.len(),
            });
        }
        for (dof, &value) in values.iter().enumerate() {
            if !value.is_finite() {
                return Err(DofError::NotFinite { dof, value });
            }
            let (min, max) = self.dof_limits(dof);
            if value < min - LIMIT_TOLERANCE || value > max + LIMIT_TOLERANCE {
                return Err(DofError::OutOfLimits {
                    dof,
                    value,
                    min,
                    max,
                });
            }
        }
        Ok(())
    }

    /// Every body of the robot: the palm, then each chain's links in order, then the mount.
    pub fn bodies(&self) -> impl Iterator<Item = &Body> {
        std::iter::once(&self.palm)
            .chain(
                self.chains
                    .iter()
                    .flat_map(|c| c.links.iter().map(|l| &l.body)),
            )
            .chain(&self.mount)
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
    pub fn base_velocity(&self) -> crate::body::velocity::Velocity {
        self.base_velocity
    }

    /// Whether the dynamics moves the palm by the forces on the hand (a free base).
    pub fn has_free_base(&self) -> bool {
        self.free_base
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

    /// Forward kinematics: puts every link at the pose its joints give it.
    fn place_links(&mut self) {
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
}

impl Robot {
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

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use nalgebra::Point3;

    use super::*;
    use crate::body::BodyKind;
    use clasp_collide::TriMesh;

    fn body(name: &str, kind: BodyKind) -> Body {
        let mesh = TriMesh::new(
            vec![
                Point3::origin(),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap();
        Body::from_mesh(name, kind, mesh)
    }

    fn revolute(
        dof: usize,
        ratio: f64,
        offset_deg: f64,
        a: f64,
        alpha_deg: f64,
        max_deg: f64,
    ) -> Joint {
        Joint {
            kind: JointKind::Revolute,
            coupling: Coupling {
                dof,
                ratio,
                offset: offset_deg.to_radians(),
            },
            frame: JointFrame::DenavitHartenberg {
                theta: 0.0,
                d: 0.0,
                a,
                alpha: alpha_deg.to_radians(),
            },
            min: 0.0,
            max: max_deg.to_radians(),
            dynamics: JointDynamics::default(),
        }
    }

    /// Chain 0 of GraspIt's Barrett hand, whose link origins graspit-spec §7.1 lists.
    fn barrett_finger() -> Robot {
        let base = Pose::translation(25.0, 0.0, -1.0) * rotation_about(Vector3::y_axis(), PI);
        let joints = vec![
            revolute(0, 1.0, 90.0, 50.0, -90.0, 180.0),
            revolute(1, 1.0, 5.0, 70.0, 0.0, 144.0),
            revolute(1, 1.0 / 3.0, 40.0, 55.0, 0.0, 144.0),
        ];
        let links = (0..3)
            .map(|i| Link {
                body: body("link", BodyKind::Link),
                frame: Some(i),
            })
            .collect();
        let dof = |v| Dof::new(DofKind::Rigid, v, 0.0);
        Robot::new(
            "barrett".into(),
            body("palm", BodyKind::Palm),
            vec![dof(0.0), dof(1.0)],
            vec![Chain {
                base,
                joints,
                links,
            }],
            None,
        )
    }

    fn link_origins(robot: &Robot) -> Vec<Point3<f64>> {
        robot.chains[0]
            .links
            .iter()
            .map(|l| l.body.pose * Point3::origin())
            .collect()
    }

    fn assert_close(got: &[Point3<f64>], want: &[[f64; 3]]) {
        for (g, w) in got.iter().zip(want) {
            assert!((g - Point3::from(*w)).norm() < 1e-3, "got {g}, want {w:?}");
        }
    }

    #[test]
    fn a_joint_split_round_its_motion_gives_its_transform() {
        let coupling = Coupling {
            dof: 0,
            ratio: 0.5,
            offset: 0.3,
        };
        let frames = [
            JointFrame::DenavitHartenberg {
                theta: 0.2,
                d: 4.0,
                a: 25.0,
                alpha: 1.1,
            },
            JointFrame::Axis {
                origin: Pose::translation(1.0, 2.0, 3.0) * rotation_about(Vector3::y_axis(), 0.4),
                axis: Unit::new_normalize(Vector3::new(1.0, 1.0, 0.0)),
                tip: Pose::translation(0.0, 5.0, 0.0),
            },
        ];
        for frame in frames {
            for kind in [JointKind::Revolute, JointKind::Prismatic] {
                let joint = Joint {
                    kind,
                    coupling,
                    frame: frame.clone(),
                    min: -1.0,
                    max: 1.0,
                    dynamics: JointDynamics::default(),
                };
                let (before, axis, after) = joint.split();
                let value = joint.value(&[0.7]);
                let motion = match kind {
                    JointKind::Revolute => rotation_about(axis, value),
                    JointKind::Prismatic => {
                        Pose::translation(0.0, 0.0, 0.0)
                            * Pose::from_parts(
                                Translation3::from(axis.into_inner() * value),
                                UnitQuaternion::identity(),
                            )
                    }
                };
                let whole = joint.transform_at(0.7);
                let parts = before * motion * after;
                assert!(
                    (whole.to_homogeneous() - parts.to_homogeneous()).norm() < 1e-12,
                    "{kind:?} {frame:?}"
                );
            }
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
    fn an_axis_joint_with_origin_and_tip_equals_its_dh_form() {
        let dh = revolute(0, 0.5, 25.0, 45.0, -90.0, 180.0);
        let JointFrame::DenavitHartenberg { a, alpha, .. } = dh.frame else {
            unreachable!("revolute() builds DH joints")
        };
        let axis = Joint {
            frame: JointFrame::Axis {
                origin: Pose::identity(),
                axis: Vector3::z_axis(),
                tip: Pose::translation(a, 0.0, 0.0) * rotation_about(Vector3::x_axis(), alpha),
            },
            ..dh.clone()
        };
        for q in [0.0, 0.3, 2.0] {
            let (x, y) = (dh.transform(&[q]), axis.transform(&[q]));
            assert!((x.to_homogeneous() - y.to_homogeneous()).abs().max() < 1e-12);
        }
    }

    #[test]
    fn a_prismatic_axis_joint_slides_along_its_axis_from_its_origin() {
        let joint = Joint {
            kind: JointKind::Prismatic,
            coupling: Coupling {
                dof: 0,
                ratio: 2.0,
                offset: 1.0,
            },
            frame: JointFrame::Axis {
                origin: Pose::translation(10.0, 0.0, 0.0),
                axis: Vector3::y_axis(),
                tip: Pose::identity(),
            },
            min: f64::NEG_INFINITY,
            max: f64::INFINITY,
            dynamics: JointDynamics::default(),
        };
        let moved = joint.transform(&[3.0]) * Point3::origin();
        assert!(
            (moved - Point3::new(10.0, 7.0, 0.0)).norm() < 1e-12,
            "{moved}"
        );
        assert_eq!(joint.dof_interval(), (f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn links_follow_the_palm() {
        let mut robot = barrett_finger();
        robot.set_pose(Pose::translation(0.0, 0.0, 100.0));
        assert_close(&link_origins(&robot)[..1], &[[25.0, 50.0, 99.0]]);
    }

    #[test]
    fn dof_limits_intersect_coupled_joints() {
        let robot = barrett_finger();
        assert_eq!(robot.dof_limits(0), (0.0, PI));
        let (lo, hi) = robot.dof_limits(1);
        assert_eq!(lo, 0.0);
        assert!((hi - 144f64.to_radians()).abs() < 1e-12);
    }

    #[test]
    fn impossible_dof_values_change_nothing() {
        let mut robot = barrett_finger();
        let before = link_origins(&robot);
        assert!(matches!(
            robot.set_dof_values(&[0.0, 3.0]),
            Err(DofError::OutOfLimits { dof: 1, .. })
        ));
        assert!(matches!(
            robot.set_dof_values(&[f64::NAN, 0.0]),
            Err(DofError::NotFinite { dof: 0, .. })
        ));
        assert_eq!(
            robot.set_dof_values(&[0.0]),
            Err(DofError::WrongCount {
                expected: 2,
                got: 1
            })
        );
        assert_eq!(robot.dof_values(), &[0.0, 0.0]);
        assert_eq!(link_origins(&robot), before);
    }
}
