//! Contacts as a user reads them, after RaiSim's contact API: each contact appears once on each
//! of its two bodies, with the point, the normal pointing to object A, a frame, its place in
//! each body's list, the triangles, and flags.

use nalgebra::{Matrix3, Point3, Rotation3, Translation3, Unit, UnitQuaternion, Vector3};

pub mod filter;
mod graspit_soft;
pub(crate) mod kept;
pub(crate) mod memory;
pub mod model;
pub mod modelling;
pub mod search;
pub mod soft;

use crate::{body::BodyType, ids::BodyId, pose::Pose};
use model::ContactModel;

/// Above this relative speed of the contact points (mm/s) friction is kinetic (graspit-spec §5).
pub const KINETIC_SPEED: f64 = 1.0;

/// One contact seen from one of its two bodies, RaiSim's way. Every contact is stored twice,
/// once in each body's list; [`Contact::is_object_a`] says which side is the pair's first body
/// ("object A", the smaller id), and both sides carry the same normal and frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// The body this side of the contact is on.
    pub body: BodyId,
    /// The body it touches.
    pub other: BodyId,
    /// This contact's position in this body's list (see [`crate::World::contacts_of`]).
    pub index: usize,
    /// The position of the same contact in the other body's list; `None` when the other body
    /// is static (RaiSim keeps no list for those).
    pub pair_index: Option<usize>,
    /// True on the side of the pair's first body, object A.
    pub is_object_a: bool,
    /// The point on this body, world coordinates (mm).
    pub point: Point3<f64>,
    /// The point on the other body, world coordinates (mm).
    pub other_point: Point3<f64>,
    /// Unit normal in world coordinates pointing to object A, from B's point to A's: the same
    /// on both sides (RaiSim's convention). [`Contact::inward`] gives the normal into this body.
    pub normal: Unit<Vector3<f64>>,
    /// Origin at `point`, z along `normal`, x and y tangent (RaiSim's contact frame).
    pub frame: Pose,
    /// Distance between the two points, mm: 0 ≤ separation < the world's threshold.
    pub separation: f64,
    /// The triangle of this body the point lies on.
    pub triangle: usize,
    /// The triangle of the other body the other point lies on.
    pub other_triangle: usize,
    /// Both bodies are parts of one robot.
    pub is_self_collision: bool,
    /// Set on the second side of a self-collision, so a robot's contacts count each once.
    pub skip: bool,
    /// This body's index within its robot (0 the palm, then each chain's links in order).
    pub local_index: Option<usize>,
    /// Whether this body is static or dynamic.
    pub body_type: BodyType,
    /// Whether the other body is static or dynamic.
    pub other_type: BodyType,
    /// Static (Coulomb) friction coefficient of the two materials.
    pub static_friction: f64,
    /// Kinetic friction coefficient of the two materials.
    pub kinetic_friction: f64,
    /// How it pushes: a point contact, or a soft one when either body is soft (for every
    /// pair, as GraspIt models them), seen from this side.
    pub model: ContactModel,
    /// The edges of its friction cone or soft friction ellipsoid, in this side's inward frame
    /// (fx, fy, fz, tx, ty, tz per unit normal force; GraspIt's `frictionEdges`): its wrench
    /// space.
    pub friction_edges: Vec<[f64; 6]>,
    /// The impulse the last dynamics step applied here, from B on A, in the contact frame (x
    /// and y tangent, z along `normal`), g·mm/s (1 g·mm/s = 10⁻⁶ N·s): RaiSim's `getImpulse`.
    /// The same on both sides; zero from a contact query that no step solved.
    pub impulse: Vector3<f64>,
    /// The contact's apparent inverse inertia in the last step's problem (RaiSim's
    /// `getInvInertia`): how the relative velocity here (A's point less B's, contact frame)
    /// answers an impulse here, 1/g; zero from a contact query that no step solved.
    pub inverse_inertia: Matrix3<f64>,
    /// The contact's place in the last step's contact problem (RaiSim's
    /// `getIndexContactProblem`); `None` from a query that no step solved.
    pub index_in_contact_problem: Option<usize>,
}

impl Contact {
    /// The impulse in world coordinates, from B on A: the frame's rotation times `impulse`
    /// (RaiSim's `getContactFrame()ᵀ · getImpulse()`).
    pub fn world_impulse(&self) -> Vector3<f64> {
        self.frame.rotation * self.impulse
    }

    /// The friction coefficient at a relative sliding speed (mm/s): kinetic above
    /// [`KINETIC_SPEED`] when a body that moves takes part, static otherwise.
    pub fn friction(&self, relative_speed: f64) -> f64 {
        let moving = self.body_type != BodyType::Static || self.other_type != BodyType::Static;
        if relative_speed > KINETIC_SPEED && moving {
            self.kinetic_friction
        } else {
            self.static_friction
        }
    }

    /// RaiSim's depth: how far the bodies overlap, the negative of the separation (never
    /// positive here, since moves stop before bodies meet).
    pub fn depth(&self) -> f64 {
        -self.separation
    }

    /// The unit normal into this body (GraspIt's convention): the direction the other body
    /// pushes it.
    pub fn inward(&self) -> Unit<Vector3<f64>> {
        if self.is_object_a {
            self.normal
        } else {
            -self.normal
        }
    }

    /// GraspIt's contact frame on this body: origin at `point`, z along [`Contact::inward`];
    /// friction cones and wrenches are built in it.
    pub fn inward_frame(&self) -> Pose {
        if self.is_object_a {
            self.frame
        } else {
            contact_frame(self.point, self.inward())
        }
    }
}

/// GraspIt's contact frame: x = n × (1,0,0) (or n × (0,0,1) when n is along x), y = n × x,
/// z = n.
pub fn contact_frame(origin: Point3<f64>, normal: Unit<Vector3<f64>>) -> Pose {
    let n = normal.into_inner();
    let helper = if n.x.abs() > 1.0 - 1e-9 {
        Vector3::z()
    } else {
        Vector3::x()
    };
    let x = n.cross(&helper).normalize();
    let y = n.cross(&x);
    let rotation = Rotation3::from_matrix_unchecked(Matrix3::from_columns(&[x, y, n]));
    Pose::from_parts(
        Translation3::from(origin.coords),
        UnitQuaternion::from_rotation_matrix(&rotation),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_is_right_handed_with_z_along_the_normal() {
        for n in [
            Vector3::new(0.3, -0.5, 0.8),
            Vector3::x(),
            -Vector3::x(),
            Vector3::z(),
        ] {
            let normal = Unit::new_normalize(n);
            let frame = contact_frame(Point3::new(1.0, 2.0, 3.0), normal);
            let z = frame.rotation * Vector3::z();
            assert!((z - normal.into_inner()).norm() < 1e-12);
            assert_eq!(frame * Point3::origin(), Point3::new(1.0, 2.0, 3.0));
            let m = frame.rotation.to_rotation_matrix();
            assert!((m.matrix().determinant() - 1.0).abs() < 1e-12);
        }
    }
}
