//! Contacts as a user reads them, after RaiSim's contact API: each contact appears once on each
//! of its two bodies, with the point, the normal pointing to object A, a frame, its place in
//! each body's list, the triangles, and flags.

use std::collections::HashMap;

use nalgebra::{Matrix3, Point3, Rotation3, Translation3, Unit, UnitQuaternion, Vector3};

use clasp_collide::CollisionEngine;

use crate::{
    Body, BodyId, ContactModel, ContactOptions, Pose, contact_model::model_pair, rules::Part,
};

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

/// One side of a pair, as the contact builder needs it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub id: BodyId,
    pub body: &'a Body,
    pub local_index: Option<usize>,
}

/// Both sides of one engine contact between `a` (the smaller id) and `b`; their indices are
/// set once the world's list is sorted ([`number_contacts`]).
pub(crate) fn contact_pair(
    a: Side,
    b: Side,
    found: &clasp_collide::Contact,
) -> Option<[Contact; 2]> {
    let point_a = a.body.pose * found.point_a;
    let point_b = b.body.pose * found.point_b;
    let normal = Unit::try_new(a.body.pose.rotation * found.normal_a, 1e-12)?;
    let frame = contact_frame(point_a, normal);
    let is_self_collision = a.id.robot().is_some() && a.id.robot() == b.id.robot();
    let (mat_a, mat_b) = (a.body.material, b.body.material);
    let side = |this: Side, other: Side, point: Point3<f64>, other_point, triangles, is_a| {
        let (triangle, other_triangle) = triangles;
        Contact {
            body: this.id,
            other: other.id,
            index: 0,
            pair_index: None,
            is_object_a: is_a,
            point,
            other_point,
            normal,
            frame: Pose::from_parts(Translation3::from(point.coords), frame.rotation),
            separation: found.separation,
            triangle,
            other_triangle,
            is_self_collision,
            skip: is_self_collision && !is_a,
            local_index: this.local_index,
            body_type: BodyType::of(this.body),
            other_type: BodyType::of(other.body),
            static_friction: mat_a.static_friction(mat_b),
            kinetic_friction: mat_a.kinetic_friction(mat_b),
            model: ContactModel::Point,
            friction_edges: Vec::new(),
        }
    };
    let (ta, tb) = (found.triangle_a, found.triangle_b);
    Some([
        side(a, b, point_a, point_b, (ta, tb), true),
        side(b, a, point_b, point_a, (tb, ta), false),
    ])
}

/// The contacts of one pair (both sides of each), pruned as GraspIt prunes them and modelled
/// (soft when either body is soft); none when the pair interpenetrates.
pub(crate) fn pair_contacts<'a>(
    engine: &dyn CollisionEngine,
    a: Part<'a>,
    b: Part<'a>,
    threshold: f64,
    options: &ContactOptions,
) -> Vec<Contact> {
    let (a, b) = if a.id <= b.id { (a, b) } else { (b, a) };
    let Ok(found) = engine.contacts(a.placed(), b.placed(), threshold) else {
        return Vec::new();
    };
    let side = |p: Part<'a>| Side {
        id: p.id,
        body: p.body,
        local_index: p
            .robot
            .zip(p.id.robot_body())
            .and_then(|(r, which)| r.local_index(which)),
    };
    let pairs: Vec<[Contact; 2]> = clasp_collide::pruning::prune_contacts(&found)
        .iter()
        .filter_map(|c| contact_pair(side(a), side(b), c))
        .collect();
    let a_sides: Vec<&Contact> = pairs.iter().map(|[on_a, _]| on_a).collect();
    let mut modelled = Vec::new();
    for (on_a, model, edges) in model_pair(engine, a.body, b.body, &a_sides, options) {
        // A soft pair may have merged some contacts into others: their twins go with them.
        let Some([_, on_b]) = pairs
            .iter()
            .find(|[x, _]| x.point == on_a.point && x.other_point == on_a.other_point)
        else {
            continue;
        };
        let on_b = Contact {
            model: model.seen_from_other(),
            friction_edges: edges.clone(),
            ..on_b.clone()
        };
        modelled.push(Contact {
            model,
            friction_edges: edges,
            ..on_a
        });
        modelled.push(on_b);
    }
    modelled
}

/// Sorts a world's contacts by body (each body's list in the order found) and numbers them:
/// each contact's place in its body's list, and its twin's place in the other body's.
pub(crate) fn number_contacts(contacts: &mut [Contact]) {
    contacts.sort_by_key(|c| (c.body, c.other));
    let mut list_start = 0;
    for i in 0..contacts.len() {
        if contacts[i].body != contacts[list_start].body {
            list_start = i;
        }
        contacts[i].index = i - list_start;
    }
    let key = |c: &Contact, mine: bool| {
        let (p, q) = if mine {
            (c.point, c.other_point)
        } else {
            (c.other_point, c.point)
        };
        let bits = |v: Point3<f64>| v.coords.map(f64::to_bits);
        let (body, other) = if mine {
            (c.body, c.other)
        } else {
            (c.other, c.body)
        };
        let (t, u) = if mine {
            (c.triangle, c.other_triangle)
        } else {
            (c.other_triangle, c.triangle)
        };
        (body, other, t, u, bits(p), bits(q))
    };
    let place: HashMap<_, usize> = contacts.iter().map(|c| (key(c, true), c.index)).collect();
    for c in contacts.iter_mut() {
        c.pair_index = match c.other_type {
            BodyType::Static => None,
            BodyType::Dynamic => place.get(&key(c, false)).copied(),
        };
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
