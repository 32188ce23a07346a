//! Virtual contacts: contact locations predefined on a hand (GraspIt's `<virtualContacts>`
//! files), for planning and for a grasp's quality before any object is touched.

use nalgebra::{Point3, Vector3};

use crate::{ids::RobotBody, pose::Pose};

/// One predefined contact, in the frame of the hand's body that carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct VirtualContact {
    /// The palm (the file's finger −1) or a chain's link.
    pub body: RobotBody,
    /// Where it is, in the body's frame (mm).
    pub location: Point3<f64>,
    /// The contact frame in the body's frame: z along the normal.
    pub frame: Pose,
    /// The contact normal, in the body's frame.
    pub normal: Vector3<f64>,
    /// The coefficient of static friction the file was written with.
    pub friction: f64,
    /// The file's friction edges: six numbers each (force, then torque), in the contact frame.
    pub friction_edges: Vec<[f64; 6]>,
}

/// A hand's virtual contacts, as one file holds them.
#[derive(Debug, Clone, PartialEq)]
pub struct VirtualContacts {
    /// The robot the file was written for.
    pub robot_name: String,
    pub contacts: Vec<VirtualContact>,
}

/// A virtual contact where its body stands now, in world coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedVirtualContact<'a> {
    pub contact: &'a VirtualContact,
    pub location: Point3<f64>,
    /// The contact frame: x and y span the tangent plane.
    pub frame: Pose,
    /// The normal, out of the hand.
    pub normal: Vector3<f64>,
}
