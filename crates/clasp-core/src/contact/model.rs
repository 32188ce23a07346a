//! How a contact pushes, as data: a rigid point contact (GraspIt's 8-edge friction pyramid) or
//! a soft contact with its fitted surfaces and area; and the options that choose between them.
//! [`super::modelling`] makes these models.

use nalgebra::Point3;

use super::soft::{
    curvature::Quadric,
    fallback::SoftFallback,
    friction::{ContactArea, DEFAULT_NORMAL_FORCE, POINT_CONTACT_EDGES},
};

/// How contacts are modelled: a world setting, and what a grasp may ask otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactOptions {
    /// Edges of a point contact's friction pyramid (GraspIt: 8).
    pub friction_edges: usize,
    /// Contacts with a body that has a Young's modulus become soft contacts (GraspIt's
    /// `softContactsON`, on by default).
    pub soft_contacts: bool,
    /// The normal force (N) that sizes a soft contact's area (GraspIt's statics: 5 N).
    pub normal_force: f64,
    /// How contacts are found, pruned and modelled: Clasp's way, or GraspIt's as its code runs.
    pub mode: ContactMode,
}

/// How a pair's contacts are found, pruned (duplicates merged, flat patches cut to their
/// corners) and, when a body is soft, modelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactMode {
    /// GraspIt's rules without its bugs: of duplicates the closest stays, a group keeps every
    /// corner of its hull, a soft contact's surfaces are fitted round the contact point (a
    /// corner or an edge stays a point contact).
    #[default]
    Clasp,
    /// GraspIt's as its code runs, quirks included, for numbers that must match GraspIt's:
    /// the contacts in the order GraspIt's own search meets them
    /// ([`clasp_collide::contacts_in_graspit_order`]), its pruning
    /// ([`clasp_collide::prune_contacts_as_graspit`]), its soft contacts (fitted through each
    /// body's origin, never a point contact), with its contact threshold
    /// ([`GRASPIT_CONTACT_THRESHOLD`]; `World::set_graspit_contacts` sets both).
    GraspIt,
}

/// GraspIt's contact threshold (`Contact::THRESHOLD`, mm): twice Clasp's default.
pub const GRASPIT_CONTACT_THRESHOLD: f64 = 0.2;

impl Default for ContactOptions {
    fn default() -> Self {
        ContactOptions {
            friction_edges: POINT_CONTACT_EDGES,
            soft_contacts: true,
            normal_force: DEFAULT_NORMAL_FORCE,
            mode: ContactMode::Clasp,
        }
    }
}

/// How one contact pushes the body it is on.
#[derive(Debug, Clone, PartialEq)]
pub enum ContactModel {
    /// A rigid point contact: the friction cone as a pyramid.
    Point,
    /// A soft body was involved but its surface could not be fitted: a point contact, and why.
    PointFallback(SoftFallback),
    /// A soft contact: the fitted surfaces and the torsional friction they allow.
    Soft(Box<SoftContact>),
}

impl ContactModel {
    /// The same model seen from the other body of the pair.
    pub fn seen_from_other(&self) -> ContactModel {
        match self {
            ContactModel::Soft(soft) => ContactModel::Soft(Box::new(SoftContact {
                fit: soft.other_fit,
                other_fit: soft.fit,
                patch: soft.other_patch.clone(),
                other_patch: soft.patch.clone(),
                ..(**soft).clone()
            })),
            other => other.clone(),
        }
    }
}

/// A soft contact's fitted surfaces, contact area and drawable patches, seen from the body the
/// contact is on ("this") and the one it touches ("other").
#[derive(Debug, Clone, PartialEq)]
pub struct SoftContact {
    /// This body's surface in its contact frame (z into it).
    pub fit: Quadric,
    /// The other body's surface in its own contact frame (z into it).
    pub other_fit: Quadric,
    /// The two relative principal radii (mm), ascending.
    pub relative_radii: [f64; 2],
    pub area: ContactArea,
    /// The fitted surfaces sampled on a 21 × 21 grid (world, row-major) for drawing.
    pub patch: Vec<Point3<f64>>,
    pub other_patch: Vec<Point3<f64>>,
    /// How many nearby contacts were merged into this one (their neighbourhoods overlapped).
    pub merged: usize,
}
