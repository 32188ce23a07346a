//! URDF's and MJCF's SI quantities in Clasp's units (GraspIt's): a body's `<inertial>`, a
//! joint's effort.

use clasp_core::Pose;
use nalgebra::{Matrix3, Point3};

/// A part of a body's mass: grams, its centre (mm), its inertia about that centre (g·mm²), in
/// the body's frame; parts sum with `MassProperties::of_parts`.
pub(crate) type MassPart = (f64, Point3<f64>, Matrix3<f64>);

/// `mass` kg with inertia `own` (kg·m² about its centre, in its own axes) at `frame` (mm, in
/// the body's frame).
pub(crate) fn si_mass_part(mass: f64, frame: Pose, own: Matrix3<f64>) -> MassPart {
    let rotation = frame.rotation.to_rotation_matrix();
    let inertia = rotation.matrix() * own * rotation.matrix().transpose() * 1e9;
    (mass * 1e3, Point3::from(frame.translation.vector), inertia)
}

/// Clasp's torque unit (g·mm²/s², GraspIt's N·1e6·mm) per newton-metre.
pub(crate) const CLASP_PER_NEWTON_METRE: f64 = 1e9;
/// Clasp's force unit (g·mm/s², GraspIt's N·1e6) per newton.
pub(crate) const CLASP_PER_NEWTON: f64 = 1e6;

/// A DOF's effort given in N·m (turning) or N (sliding), in Clasp's units.
pub fn effort_from_si(effort: f64, revolute: bool) -> f64 {
    effort * clasp_per_si_effort(revolute)
}

/// A DOF's effort in Clasp's units as N·m (turning) or N (sliding).
pub fn effort_to_si(effort: f64, revolute: bool) -> f64 {
    effort / clasp_per_si_effort(revolute)
}

fn clasp_per_si_effort(revolute: bool) -> f64 {
    match revolute {
        true => CLASP_PER_NEWTON_METRE,
        false => CLASP_PER_NEWTON,
    }
}
