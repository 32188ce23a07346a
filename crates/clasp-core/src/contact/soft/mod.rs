//! The pure math of soft contacts: GraspIt's SoftContact model, with its known mistakes fixed.
//!
//! A soft contact replaces a point contact when a body is compliant. Around the contact point
//! each body's surface is fitted with a quadric, whose principal curvatures give the *relative*
//! radii of the two surfaces (Johnson, *Contact Mechanics* §4.1). Those radii, the normal force
//! and the soft body's Young's modulus give the contact area through GraspIt's "mattress"
//! model, and the area gives the largest torsional friction the contact can transmit. The
//! friction of a soft contact is then a 4D ellipsoid (two tangential forces and the torsion
//! about the normal), linearised into 20 edges.
//!
//! Conventions: millimetres, newtons, pascals and radians. A *contact frame* has its origin at
//! the contact point and its z axis along the contact normal pointing INTO the body; x and y are
//! tangent. In that frame the surface near the contact is z = a·x² + b·y² + c·x·y, so a convex
//! body (curving away into itself) has positive curvature.
//!
//! Nothing here returns NaN: every input that could produce one is checked, and the check's
//! failure is a [`SoftFallback`] — the reason the contact stays a point contact.

pub(crate) mod curvature;
pub(crate) mod fallback;
pub(crate) mod fit;
pub(crate) mod friction;
pub(crate) mod patch;
#[cfg(test)]
mod test_support;

pub use curvature::{Curvature, FLAT_CURVATURE, FLAT_RADIUS, Quadric, relative_radii};
pub use fallback::{MIN_FIT_POINTS, SoftFallback};
pub use fit::{FIT_TINY, check_smooth, fit_quadric, neighbourhood_radius};
pub use friction::{
    ContactArea, DEFAULT_NORMAL_FORCE, POINT_CONTACT_EDGES, ellipsoid_edges, mattress_contact,
    pyramid_edges,
};
pub use patch::{PATCH_SIDE, PATCH_SPACING, patch_grid};
