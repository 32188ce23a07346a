use nalgebra::{Translation3, UnitQuaternion, Vector3};

use crate::{Body, Pose};

/// How a DOF behaves when a hand closes (GraspIt's `r`, `b` and `c` DOF types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DofKind {
    Rigid,
    Breakaway,
    Compliant,
}

/// One degree of freedom: a value that drives one or more joints through couplings.
#[derive(Debug, Clone, PartialEq)]
pub struct Dof {
    pub kind: DofKind,
    /// Closing speed and direction for auto-grasp (its sign says which way closes).
    pub default_velocity: f64,
    /// Value at load, in radians (revolute) or millimetres (prismatic).
    pub default_value: f64,
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

/// A Denavit–Hartenberg joint: its frame is `Rz(θ) Tz(d) Tx(a) Rx(α)` after the previous one.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub kind: JointKind,
    pub coupling: Coupling,
    /// Fixed DH parameters; the one the joint drives (θ or d) is ignored.
    pub theta: f64,
    pub d: f64,
    pub a: f64,
    pub alpha: f64,
    /// Limits on the joint value (ratio · DOF, without the offset).
    pub min: f64,
    pub max: f64,
}

impl Joint {
    pub fn value(&self, dof_values: &[f64]) -> f64 {
        self.coupling.ratio * dof_values[self.coupling.dof]
    }

    /// The transform from the previous joint's frame to this joint's frame.
    pub fn transform(&self, dof_values: &[f64]) -> Pose {
        let driven = self.value(dof_values) + self.coupling.offset;
        let (theta, d) = match self.kind {
            JointKind::Revolute => (driven, self.d),
            JointKind::Prismatic => (self.theta, driven),
        };
        rotation_about(Vector3::z_axis(), theta)
            * Pose::translation(0.0, 0.0, d)
            * Pose::translation(self.a, 0.0, 0.0)
            * rotation_about(Vector3::x_axis(), self.alpha)
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

fn rotation_about(axis: nalgebra::Unit<Vector3<f64>>, angle: f64) -> Pose {
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
    /// Each joint's frame relative to the palm.
    fn joint_frames(&self, dof_values: &[f64]) -> Vec<Pose> {
        let mut frame = self.base;
        self.joints
            .iter()
            .map(|joint| {
                frame *= joint.transform(dof_values);
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

/// Why a set of DOF values was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DofError {
    #[error("expected {expected} DOF values, got {got}")]
    WrongCount { expected: usize, got: usize },
    #[error("DOF {dof} value {value} is not a finite number")]
    NotFinite { dof: usize, value: f64 },
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

/// A robot hand: a palm and kinematic chains driven by DOFs.
#[derive(Debug, Clone)]
pub struct Robot {
    pub name: String,
    pub palm: Body,
    pub dofs: Vec<Dof>,
    pub chains: Vec<Chain>,
    pub approach: Option<Approach>,
    /// The robot file it was loaded from, for saving worlds; `None` for robots built in code.
    pub source: Option<std::path::PathBuf>,
    dof_values: Vec<f64>,
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
        let mut robot = Robot {
            name,
            palm,
            dof_values: dofs.iter().map(|d| d.default_value).collect(),
            dofs,
            chains,
            approach,
            source: None,
        };
        let clamped: Vec<f64> = (0..robot.dofs.len())
            .map(|i| {
                let (min, max) = robot.dof_limits(i);
                robot.dof_values[i].clamp(min, max.max(min))
            })
            .collect();
        robot.dof_values = clamped;
        robot.place_links();
        robot
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

    /// Sets every DOF at once; an impossible value changes nothing and says why.
    pub fn set_dof_values(&mut self, values: &[f64]) -> Result<(), DofError> {
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
        self.dof_values = values.to_vec();
        self.place_links();
        Ok(())
    }

    /// Every body of the robot: the palm, then each chain's links in order.
    pub fn bodies(&self) -> impl Iterator<Item = &Body> {
        std::iter::once(&self.palm).chain(
            self.chains
                .iter()
                .flat_map(|c| c.links.iter().map(|l| &l.body)),
        )
    }

    /// Forward kinematics: puts every link at the pose its joints give it.
    fn place_links(&mut self) {
        let palm = self.palm.pose;
        for chain in &mut self.chains {
            let frames = chain.joint_frames(&self.dof_values);
            for link in &mut chain.links {
                let local = link.frame.map_or(chain.base, |j| frames[j]);
                link.body.pose = palm * local;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{f64::consts::PI, sync::Arc};

    use nalgebra::Point3;

    use super::*;
    use crate::{BodyKind, TriMesh};

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
        Body::from_mesh(name, kind, Arc::new(mesh))
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
            theta: 0.0,
            d: 0.0,
            a,
            alpha: alpha_deg.to_radians(),
            min: 0.0,
            max: max_deg.to_radians(),
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
        let dof = |v| Dof {
            kind: DofKind::Rigid,
            default_velocity: v,
            default_value: 0.0,
        };
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
