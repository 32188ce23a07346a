//! What the planner needs of a hand whose file names no virtual contacts or eigengrasps (URDF,
//! MJCF), worked out from its kinematics: a virtual contact on the face of each finger link
//! that closing presses forward and on the palm's face, and two eigengrasps, the hand closing
//! (each closing DOF toward its closing end) and the hand spreading, as GraspIt's hands have.

use nalgebra::{Unit, Vector3};

use super::{
    Robot,
    eigengrasp::{EigenGrasp, EigenGrasps},
    inference::{DofRole, HandInference},
    virtual_contacts::{VirtualContact, VirtualContacts},
};
use crate::{
    contact::{
        contact_frame,
        soft::{POINT_CONTACT_EDGES, pyramid_edges},
    },
    ids::RobotBody,
};

/// The friction the inferred contacts are written with: GraspIt's generic μ.
const FRICTION: f64 = 0.5;

/// A link whose centre moves slower than this (mm per rad of closing) is not pressed forward
/// by the closing: it gets no contact.
const PRESSED: f64 = 1.0;

impl Robot {
    /// A virtual contact on each finger link the closing presses forward (at the point of its
    /// mesh furthest that way, facing it) and one on the palm's face (the approach's reference,
    /// facing the approach).
    pub fn infer_virtual_contacts(&self, inferred: &HandInference) -> VirtualContacts {
        let closing: Vec<f64> = inferred
            .roles
            .iter()
            .map(|role| match role {
                DofRole::Closes { sense } => *sense,
                _ => 0.0,
            })
            .collect();
        let jacobians = self.link_jacobians();
        let mut contacts = vec![contact(
            RobotBody::Palm,
            inferred.approach.reference,
            inferred.approach.direction.into_inner(),
        )];
        for (c, chain) in self.chains.iter().enumerate() {
            for (l, link) in chain.links.iter().enumerate() {
                let jacobian = &jacobians[self.link_jacobian_index(c, l)];
                let world = &jacobian.linear * nalgebra::DVector::from_column_slice(&closing);
                if world.norm() < PRESSED || link.body.mesh().is_empty() {
                    continue;
                }
                let local = link.body.pose.rotation.inverse() * world;
                let facing = local.normalize();
                let tip = link
                    .body
                    .mesh()
                    .vertices()
                    .iter()
                    .max_by(|a, b| a.coords.dot(&facing).total_cmp(&b.coords.dot(&facing)))
                    .copied()
                    .unwrap_or(link.body.mass.cog);
                contacts.push(contact(RobotBody::Link { chain: c, link: l }, tip, facing));
            }
        }
        VirtualContacts {
            robot_name: self.name.clone(),
            contacts,
        }
    }

    /// Up to three eigengrasps: the closing DOFs each toward its closing end, in proportion
    /// to its range; the spreads together; and the thumb's turn toward the fingers alone
    /// ([`Robot::thumb_opposition`]), which shapes the grasp as much as a spread does. Each
    /// where the hand has such DOFs.
    pub fn infer_eigen_grasps(&self, inferred: &HandInference) -> EigenGrasps {
        let dimensions = self.dofs.len();
        let mut closing = vec![0.0; dimensions];
        let mut spreading = vec![0.0; dimensions];
        let mut opposing = vec![0.0; dimensions];
        if let Some(d) = self.thumb_opposition() {
            opposing[d] = self.dofs[d].default_velocity.signum();
        }
        for (d, role) in inferred.roles.iter().enumerate() {
            let (lo, hi) = self.dof_limits(d);
            let range = if (hi - lo).is_finite() { hi - lo } else { 1.0 };
            match role {
                DofRole::Closes { sense } => closing[d] = sense * range,
                DofRole::Spreads => spreading[d] = range,
                DofRole::Carries => {}
            }
        }
        let grasps = [closing, spreading, opposing]
            .into_iter()
            .filter(|values| values.iter().any(|v| *v != 0.0))
            .map(|values| EigenGrasp {
                eigenvalue: 1.0,
                values: unit(values),
                limits: None,
            })
            .collect();
        EigenGrasps {
            dimensions,
            grasps,
            origin: None,
            norm: None,
        }
    }
}

/// A contact on `body` at `location`, facing `normal` (both in the body's frame), with
/// GraspIt's point-contact friction pyramid.
fn contact(
    body: RobotBody,
    location: nalgebra::Point3<f64>,
    normal: Vector3<f64>,
) -> VirtualContact {
    let normal = Unit::new_normalize(normal);
    VirtualContact {
        body,
        location,
        frame: contact_frame(location, normal),
        normal: normal.into_inner(),
        friction: FRICTION,
        friction_edges: pyramid_edges(POINT_CONTACT_EDGES),
    }
}

/// `values` scaled to unit length.
fn unit(values: Vec<f64>) -> Vec<f64> {
    let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
    values.into_iter().map(|v| v / norm).collect()
}
