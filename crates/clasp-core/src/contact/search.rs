//! Finding a pair's contacts: the engine's contacts pruned, each made into both of its sides,
//! modelled; and a world's contacts sorted and numbered, RaiSim's way.

use std::collections::HashMap;

use nalgebra::{Matrix3, Point3, Translation3, Unit, Vector3};

use clasp_collide::{CollisionEngine, MeshContact};

use super::{
    Contact, contact_frame,
    filter::Part,
    model::{ContactMode, ContactModel, ContactOptions},
    modelling::model_patches,
};
use crate::{
    body::{Body, BodyType},
    ids::BodyId,
    pose::Pose,
};

/// One side of a pair, as the contact builder needs it.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub id: BodyId,
    pub body: &'a Body,
    pub local_index: Option<usize>,
}

/// Both sides of one engine contact between `a` (the smaller id) and `b`; their indices are
/// set once the world's list is sorted ([`number_contacts`]).
pub(crate) fn contact_pair(a: Side, b: Side, found: &MeshContact) -> Option<[Contact; 2]> {
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
            body_type: this.body.body_type(),
            other_type: other.body.body_type(),
            static_friction: mat_a.static_friction(mat_b),
            kinetic_friction: mat_a.kinetic_friction(mat_b),
            model: ContactModel::Point,
            friction_edges: Vec::new(),
            impulse: Vector3::zeros(),
            inverse_inertia: Matrix3::zeros(),
            index_in_contact_problem: None,
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
    let duplicate = clasp_collide::pruning::DUPLICATE_DISTANCE;
    pair_contacts_merging(engine, (a, b), threshold, duplicate, options)
}

/// [`pair_contacts`] with contacts merged only within `duplicate` mm of each other on both
/// bodies (GraspIt merges within 3 mm).
pub(crate) fn pair_contacts_merging<'a>(
    engine: &dyn CollisionEngine,
    (a, b): (Part<'a>, Part<'a>),
    threshold: f64,
    duplicate: f64,
    options: &ContactOptions,
) -> Vec<Contact> {
    let (a, b) = if a.id <= b.id { (a, b) } else { (b, a) };
    // GraspIt's pruning depends on the order its own tree walk meets the contacts in.
    let found = match options.mode {
        ContactMode::Clasp => engine.contacts(a.placed(), b.placed(), threshold),
        ContactMode::GraspIt => {
            clasp_collide::contacts_in_graspit_order(a.placed(), b.placed(), threshold)
        }
    };
    let Ok(found) = found else {
        return Vec::new();
    };
    contacts_found(
        engine,
        (a, b),
        &found,
        duplicate,
        options,
        ContactUse::Grasp,
    )
}

/// What the contacts are for, which decides what pruning may drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContactUse {
    /// A grasp's wrench space, as GraspIt builds it: contacts grouped by normals within
    /// 2.6° and cut to each group's hull; a soft patch (contacts merged because their
    /// neighbourhoods meet) is one contact, the closest.
    Grasp,
    /// The dynamics' rows, each of which must hold: normals grouped only when equal to
    /// rounding, and every contact merged into a soft patch kept, with the patch's model (a
    /// soft block flat on a floor pivoted on its one contact left and stopped against the
    /// corners the merge hid).
    Dynamics,
}

/// Normals this close (1 − cos) are one normal to the dynamics' pruning.
const DYNAMICS_NORMAL_TOLERANCE: f64 = 1e-9;

/// Whether two contacts of the pair `a`, `b` are two faces' though they lie within a duplicate's
/// distance: each lies along the normal of a face it touches, and the two normals differ. A
/// finger's vertex on a mug's edge touches both faces, 0.003 mm apart; merged, the face left
/// out was the one the mug then slid into at 77 mm/s, and the move stood it still. A contact
/// along no face's normal (a vertex beside a flat table's inner diagonal, its normal tilted
/// 30° toward the edge) is still merged into the face's own: kept, it stopped a sliding box.
fn faces_apart<'a>(a: Part<'a>, b: Part<'a>) -> impl Fn(&MeshContact, &MeshContact) -> bool + 'a {
    let b_in_a = a.placed().pose.inverse() * b.placed().pose;
    let along_a_face = move |c: &MeshContact| {
        let on_a = a.body.geometry.mesh().triangle_normal(c.triangle_a);
        let on_b = b_in_a.rotation * b.body.geometry.mesh().triangle_normal(c.triangle_b);
        [on_a, on_b]
            .iter()
            .any(|face| c.normal_a.dot(face).abs() > 1.0 - FACE_NORMAL_TOLERANCE)
    };
    move |x, y| {
        x.normal_a.dot(&y.normal_a) <= 1.0 - DYNAMICS_NORMAL_TOLERANCE
            && along_a_face(x)
            && along_a_face(y)
    }
}

/// A contact's normal this close (1 − cos, 0.08°) to a face's lies along it.
const FACE_NORMAL_TOLERANCE: f64 = 1e-6;

/// The contacts of a pair (A, the smaller id, first) from what the engine found between them
/// ([`pair_contacts_merging`] after its search): merged within `duplicate` mm, both sides,
/// modelled.
pub(crate) fn contacts_found<'a>(
    engine: &dyn CollisionEngine,
    (a, b): (Part<'a>, Part<'a>),
    found: &[MeshContact],
    duplicate: f64,
    options: &ContactOptions,
    purpose: ContactUse,
) -> Vec<Contact> {
    let side = |p: Part<'a>| Side {
        id: p.id,
        body: p.body,
        local_index: p
            .robot
            .zip(p.id.robot_body())
            .and_then(|(r, which)| r.local_index(which)),
    };
    let pruned = match (options.mode, purpose) {
        (ContactMode::Clasp, ContactUse::Grasp) => {
            clasp_collide::pruning::prune_contacts_within(found, duplicate)
        }
        (_, ContactUse::Dynamics) => clasp_collide::pruning::prune_contacts_exactly(
            found,
            duplicate,
            DYNAMICS_NORMAL_TOLERANCE,
            faces_apart(a, b),
        ),
        (ContactMode::GraspIt, ContactUse::Grasp) => {
            clasp_collide::prune_contacts_as_graspit(found)
        }
    };
    let pairs: Vec<[Contact; 2]> = pruned
        .iter()
        .filter_map(|c| contact_pair(side(a), side(b), c))
        .collect();
    let a_sides: Vec<&Contact> = pairs.iter().map(|[on_a, _]| on_a).collect();
    let mut modelled = Vec::new();
    for patch in model_patches(engine, a.body, b.body, &a_sides, options) {
        let stands_for = match purpose {
            ContactUse::Grasp => std::slice::from_ref(&patch.contact),
            ContactUse::Dynamics => &patch.members[..],
        };
        for on_a in stands_for {
            // A soft pair may have merged some contacts into others: their twins go with them.
            let Some([_, on_b]) = pairs
                .iter()
                .find(|[x, _]| x.point == on_a.point && x.other_point == on_a.other_point)
            else {
                continue;
            };
            modelled.push(Contact {
                model: patch.model.clone(),
                friction_edges: patch.edges.clone(),
                ..on_a.clone()
            });
            modelled.push(Contact {
                model: patch.model.seen_from_other(),
                friction_edges: patch.edges.clone(),
                ..on_b.clone()
            });
        }
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
            BodyType::Dynamic | BodyType::Kinematic => place.get(&key(c, false)).copied(),
        };
    }
}
