//! The one pose type of the whole core.

/// A rigid placement: rotation then translation, in millimetres.
pub type Pose = nalgebra::Isometry3<f64>;
