//! Why a soft contact stays a point contact: the one error of the soft-contact math, and the
//! checks on numbers that raise it.

/// Fewest surface points a quadric fit takes: three coefficients need some redundancy to tell
/// a smooth surface from an edge.
pub const MIN_FIT_POINTS: usize = 5;

/// Why a contact falls back to a point contact (or why an input was refused).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SoftFallback {
    /// Too few surface points to fit a quadric.
    #[error(
        "only {found} surface points around the contact (a soft contact needs {MIN_FIT_POINTS})"
    )]
    TooFewPoints {
        /// How many points there were.
        found: usize,
    },
    /// The points cannot determine the quadric: they lie on a line, on the two axes only, or
    /// all at the contact point.
    #[error(
        "the surface points around the contact lie on a line (or on two crossing lines), which cannot fix a curvature"
    )]
    Degenerate,
    /// The fitted quadric misses the points: the surface is not smooth at the contact.
    #[error(
        "the surface around the contact is an edge or a corner (the fitted quadric misses it by {rms_residual:.2} mm RMS)"
    )]
    NotSmooth {
        /// Root-mean-square distance (mm, along the normal) from the points to the quadric.
        rms_residual: f64,
    },
    /// The surface turns too far within the neighbourhood: an edge or a corner.
    #[error(
        "the surface around the contact turns by {degrees:.0}° within its neighbourhood: an edge or a corner, which has no curvature to fit"
    )]
    Bent {
        /// The largest turn (degrees) from the contact's tangent plane.
        degrees: f64,
    },
    /// A point, coefficient, pose or parameter was not a finite number, or the arithmetic on
    /// it overflowed.
    #[error("a surface point, curvature, pose or parameter of the contact is not a finite number")]
    NonFinite,
    /// A parameter that must be positive was zero or negative.
    #[error("the {name} of a soft contact must be positive, not {value}")]
    NotPositive {
        /// Which parameter.
        name: &'static str,
        /// Its value.
        value: f64,
    },
}

pub(super) fn finite(value: f64) -> Result<f64, SoftFallback> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SoftFallback::NonFinite)
    }
}

pub(super) fn positive(name: &'static str, value: f64) -> Result<f64, SoftFallback> {
    let value = finite(value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(SoftFallback::NotPositive { name, value })
    }
}
