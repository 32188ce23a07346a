//! Contacts as a user reads them, after RaiSim's contact API: each contact appears once on each
//! of its two bodies, with the point, the normal into that body, a frame, the pair, and flags.

use nalgebra::{Matrix3, Point3, Rotation3, Translation3, Unit, UnitQuaternion, Vector3};

use crate::{Body, BodyId, Pose};

/// Above this relative speed of the contact points (mm/s) friction is kinetic (graspit-spec §5).
pub const KINETIC_SPEED: f64 = 1.0;

/// Whether a body stays put (obstacles) or can be moved by what touches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyType {
    Static,
    Dynamic,
}

impl BodyType {
    pub fn of(body: &Body) -> Self {
        if body.is_static() {
            BodyType::Static
        } else {
            BodyType::Dynamic
        }
    }
}

/// One contact seen from one of its two bodies. Every contact is stored twice, once per body;
/// [`Contact::is_a`] says which side is the pair's first body.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// The body this side of the contact is on.
    pub body: BodyId,
    /// The body it touches.
    pub other: BodyId,
    /// True on the side of the pair's first body ("A", the smaller id).
    pub is_a: bool,
    /// The point on this body, world coordinates (mm).
    pub point: Point3<f64>,
    /// The point on the other body, world coordinates (mm).
    pub other_point: Point3<f64>,
    /// Unit normal in world coordinates, pointing into this body (GraspIt's convention): the
    /// direction the other body pushes it.
    pub normal: Unit<Vector3<f64>>,
    /// Origin at `point`, z along `normal`, x and y tangent (GraspIt's contact frame).
    pub frame: Pose,
    /// Distance between the two points, mm: 0 ≤ separation < the world's threshold.
    pub separation: f64,
    /// Both bodies are parts of one robot.
    pub self_collision: bool,
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
}

impl Contact {
    /// The friction coefficient at a relative sliding speed (mm/s): kinetic above
    /// [`KINETIC_SPEED`] when a dynamic body takes part, static otherwise.
    pub fn friction(&self, relative_speed: f64) -> f64 {
        let dynamic = self.body_type == BodyType::Dynamic || self.other_type == BodyType::Dynamic;
        if relative_speed > KINETIC_SPEED && dynamic {
            self.kinetic_friction
        } else {
            self.static_friction
        }
    }
}

/// One side of a pair, as the contact builder needs it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub id: BodyId,
    pub body: &'a Body,
    pub local_index: Option<usize>,
}

/// Both sides of one engine contact between `a` (the smaller id) and `b`.
pub(crate) fn contact_pair(
    a: Side,
    b: Side,
    found: &clasp_collide::Contact,
) -> Option<[Contact; 2]> {
    let point_a = a.body.pose * found.point_a;
    let point_b = b.body.pose * found.point_b;
    let normal_a = Unit::try_new(a.body.pose.rotation * found.normal_a, 1e-12)?;
    let self_collision = a.id.robot().is_some() && a.id.robot() == b.id.robot();
    let (mat_a, mat_b) = (a.body.material, b.body.material);
    let side = |this: Side, other: Side, point, other_point, normal, is_a| Contact {
        body: this.id,
        other: other.id,
        is_a,
        point,
        other_point,
        normal,
        frame: contact_frame(point, normal),
        separation: found.separation,
        self_collision,
        skip: self_collision && !is_a,
        local_index: this.local_index,
        body_type: BodyType::of(this.body),
        other_type: BodyType::of(other.body),
        static_friction: mat_a.static_friction(mat_b),
        kinetic_friction: mat_a.kinetic_friction(mat_b),
    };
    Some([
        side(a, b, point_a, point_b, normal_a, true),
        side(b, a, point_b, point_a, -normal_a, false),
    ])
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
