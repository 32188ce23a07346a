//! The grasp a hand's virtual contacts would make, with no object (GraspIt's grasp on virtual
//! contacts, for planning): their wrenches and its quality.

use nalgebra::Vector3;

use super::quality::{self, Quality, QualityError, Wrench, WrenchSpaceKind};
use crate::robot::Robot;

/// The torque scale of a grasp on virtual contacts alone (mm): GraspIt fixes it so that grasps
/// of different hands and postures compare (`Grasp::setVirtualCentroid`).
pub const VIRTUAL_MAX_RADIUS: f64 = 150.0;

impl Robot {
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
