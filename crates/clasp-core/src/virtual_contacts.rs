//! Virtual contacts: contact locations predefined on a hand (GraspIt's `<virtualContacts>`
//! files), for planning and for a grasp's quality before any object is touched.

use nalgebra::{Point3, Vector3};

use crate::{
    Pose, Robot, RobotBody,
    quality::{self, Quality, QualityError, Wrench, WrenchSpaceKind},
};

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

/// The torque scale of a grasp on virtual contacts alone (mm): GraspIt fixes it so that grasps
/// of different hands and postures compare (`Grasp::setVirtualCentroid`).
pub const VIRTUAL_MAX_RADIUS: f64 = 150.0;

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

    /// The wrenches of the robot's virtual contacts as GraspIt's grasp on virtual contacts has
    /// them, without an object: torques about the centre of the contacts' bounding box, scaled
    /// by [`VIRTUAL_MAX_RADIUS`]; each friction edge pushes along the normal plus its share of
    /// the tangents, and turns about the normal. Empty if the robot has no virtual contacts.
    pub fn virtual_wrenches(&self) -> Vec<Vec<Wrench>> {
        let placed = self.virtual_contacts_placed();
        let Some(first) = placed.first() else {
            return Vec::new();
        };
        let (lo, hi) = placed
            .iter()
            .fold((first.location, first.location), |(lo, hi), p| {
                (lo.inf(&p.location), hi.sup(&p.location))
            });
        let centre = nalgebra::center(&lo, &hi);
        placed
            .iter()
            .map(|p| {
                let axes = p.frame.rotation;
                let (tx, ty) = (axes * Vector3::x(), axes * Vector3::y());
                let (n, mu, lever) = (p.normal, p.contact.friction, p.location - centre);
                p.contact
                    .friction_edges
                    .iter()
                    .map(|e| {
                        let force = n + tx * (mu * e[0]) + ty * (mu * e[1]);
                        let torque = (lever.cross(&force) + n * (mu * e[5])) / VIRTUAL_MAX_RADIUS;
                        [force.x, force.y, force.z, torque.x, torque.y, torque.z]
                    })
                    .collect()
            })
            .collect()
    }

    /// The quality of the grasp the robot's virtual contacts make as they stand, with no object
    /// (GraspIt's quality for planning on virtual contacts).
    pub fn virtual_quality(
        &self,
        kind: WrenchSpaceKind,
        with_volume: bool,
    ) -> Result<Quality, QualityError> {
        quality::quality(&self.virtual_wrenches(), kind, with_volume)
    }
}
