//! A robot's kinematic chains: the joints a DOF drives through their couplings, each joint's
//! frame (Denavit–Hartenberg or URDF axis), and the links the joints carry.

use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};

use crate::{body::Body, pose::Pose};

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
    pub(super) fn transform_at(&self, dof_value: f64) -> Pose {
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
    pub(super) fn dof_interval(&self) -> (f64, f64) {
        let (a, b) = (
            self.min / self.coupling.ratio,
            self.max / self.coupling.ratio,
        );
        (a.min(b), a.max(b))
    }
}

pub(super) fn rotation_about(axis: Unit<Vector3<f64>>, angle: f64) -> Pose {
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

/// Where a chain that branches off another starts: on the frame of joint `joint` of the
/// earlier chain `chain` (a hand tree: the Shadow's wrist carries its palm, and the palm its
/// five fingers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainParent {
    pub chain: usize,
    pub joint: usize,
}

/// A serial chain of joints from the palm, or from a joint of an earlier chain, with the links
/// they carry.
#[derive(Debug, Clone)]
pub struct Chain {
    /// From the frame the chain starts on (the palm's, or its parent joint's) to the frame
    /// before the first joint.
    pub base: Pose,
    pub joints: Vec<Joint>,
    pub links: Vec<Link>,
    /// The joint of an earlier chain it starts on; `None` for a chain from the palm.
    pub parent: Option<ChainParent>,
}

impl Chain {
    /// A chain from the palm.
    pub fn from_palm(base: Pose, joints: Vec<Joint>, links: Vec<Link>) -> Self {
        Chain {
            base,
            joints,
            links,
            parent: None,
        }
    }

    /// Each joint's frame relative to the palm, the chain starting on `start` (relative to
    /// the palm: identity for a chain from the palm, its parent joint's frame otherwise); a
    /// joint in breakaway stays where its DOF was when it broke away (`held`, one per joint)
    /// while the DOF is past that value the way it closes (`dofs`).
    pub(super) fn joint_frames(
        &self,
        start: Pose,
        dof_values: &[f64],
        held: &[Option<f64>],
        dofs: &[super::dof::Dof],
    ) -> Vec<Pose> {
        let mut frame = start * self.base;
        self.joints
            .iter()
            .enumerate()
            .map(|(j, joint)| {
                let dof = joint.coupling.dof;
                let q = dof_values[dof];
                let q = match held.get(j).copied().flatten() {
                    Some(b) if dofs[dof].at_or_past(q, b, 0.0) => b,
                    _ => q,
                };
                frame *= joint.transform_at(q);
                frame
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;
    use crate::robot::test_finger::revolute;

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
}
