//! How each link follows the DOFs: its Jacobians (how its centre of gravity moves and how it
//! turns per unit of each DOF's velocity, world axes) from its joints' axes and origins, in
//! one pass of the kinematics (RaiSim's dense Jacobian). A joint follows its DOF at its
//! coupling's ratio; a joint held in breakaway follows it not at all.

use nalgebra::{Matrix3xX, Point3, Unit, Vector3};

use super::{Robot, chain::JointKind, kinematics::chain_start};

/// One body's Jacobians at its centre of gravity, world axes, one column per DOF.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkJacobian {
    /// How its centre of gravity moves, mm per unit of each DOF.
    pub linear: Matrix3xX<f64>,
    /// How it turns, rad per unit of each DOF.
    pub angular: Matrix3xX<f64>,
}

impl LinkJacobian {
    /// A body no DOF moves.
    pub fn zeros(dofs: usize) -> Self {
        LinkJacobian {
            linear: Matrix3xX::zeros(dofs),
            angular: Matrix3xX::zeros(dofs),
        }
    }

    /// How the point `r` from the body's centre of gravity moves, mm per unit of each DOF:
    /// the centre's motion plus the turning across `r`.
    pub fn at_point(&self, r: &Vector3<f64>) -> Matrix3xX<f64> {
        let mut jacobian = self.linear.clone();
        for (c, turning) in self.angular.column_iter().enumerate() {
            let along = jacobian.column(c) + turning.cross(r);
            jacobian.set_column(c, &along);
        }
        jacobian
    }
}

/// One joint's motion where the robot stands: the DOF that drives it, at what rate, and the
/// line it turns about or slides along (world).
struct JointMotion {
    dof: usize,
    /// The joint's value per unit of its DOF: the coupling's ratio, 0 while held in breakaway.
    rate: f64,
    kind: JointKind,
    axis: Unit<Vector3<f64>>,
    through: Point3<f64>,
}

impl JointMotion {
    /// Adds what this joint does to a point `centre` of a body it carries.
    fn add_to(&self, jacobian: &mut LinkJacobian, centre: &Point3<f64>) {
        let (linear, angular) = match self.kind {
            JointKind::Revolute => (self.axis.cross(&(centre - self.through)), *self.axis),
            JointKind::Prismatic => (*self.axis, Vector3::zeros()),
        };
        let mut column = jacobian.linear.column_mut(self.dof);
        column += linear * self.rate;
        let mut column = jacobian.angular.column_mut(self.dof);
        column += angular * self.rate;
    }
}

impl Robot {
    /// Where link `link` of chain `chain` stands in [`Robot::link_jacobians`]: after every
    /// link of the chains before it.
    pub fn link_jacobian_index(&self, chain: usize, link: usize) -> usize {
        let before: usize = self.chains[..chain].iter().map(|c| c.links.len()).sum();
        before + link
    }

    /// Each link's Jacobians where the robot stands, chain by chain and link by link as
    /// [`Robot::chains`] lists them: the sum, over the joints that carry the link (its chain's
    /// up to its own, and those of the chains it branches from), of each joint's motion (ω × r
    /// turning, its axis sliding) at its coupling's rate. A link on a palm chain's base, and
    /// every link while the palm stays, has none.
    pub fn link_jacobians(&self) -> Vec<LinkJacobian> {
        let dofs = self.dofs.len();
        let motions = self.joint_motions();
        let mut all = Vec::new();
        for (c, chain) in self.chains.iter().enumerate() {
            for link in &chain.links {
                let mut jacobian = LinkJacobian::zeros(dofs);
                let centre = link.body.world_cog();
                for (carrier, joint) in self.joints_carrying(c, link.frame) {
                    motions[carrier][joint].add_to(&mut jacobian, &centre);
                }
                all.push(jacobian);
            }
        }
        all
    }

    /// Each joint of each chain as it moves where the robot stands (a joint in breakaway per
    /// its held value).
    fn joint_motions(&self) -> Vec<Vec<JointMotion>> {
        let frames = self.joint_frames_at(&self.dof_values);
        let palm = self.palm.pose;
        let mut all = Vec::with_capacity(self.chains.len());
        for (c, (chain, held)) in self.chains.iter().zip(&self.breakaway).enumerate() {
            let start = chain_start(&frames, chain);
            let motions = chain
                .joints
                .iter()
                .enumerate()
                .map(|(j, joint)| {
                    let q = self.dof_values[joint.coupling.dof];
                    // Past where it broke away the joint stays: the DOF no longer moves it.
                    let dof = &self.dofs[joint.coupling.dof];
                    let stays = held[j].is_some_and(|b| dof.at_or_past(q, b, 0.0));
                    let before_joint = match j {
                        0 => start * chain.base,
                        _ => frames[c][j - 1],
                    };
                    let (before, axis, _) = joint.split();
                    let at = palm * before_joint * before;
                    JointMotion {
                        dof: joint.coupling.dof,
                        rate: if stays { 0.0 } else { joint.coupling.ratio },
                        kind: joint.kind,
                        axis: at.rotation * axis,
                        through: Point3::from(at.translation.vector),
                    }
                })
                .collect();
            all.push(motions);
        }
        all
    }
}
