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

use nalgebra::{Matrix3, Point3, Vector3};

use crate::pose::Pose;

/// Relative radius (mm) given to a contact whose relative curvature is flat or conforming.
///
/// GraspIt uses 20 mm for flat contacts; without a cap, two flat faces (or a ball in a socket
/// of nearly its own radius) would have an infinite relative radius and an unbounded contact
/// area.
pub const FLAT_RADIUS: f64 = 20.0;

/// A curvature (1/mm) at or below this magnitude counts as flat: its radius is over a kilometre.
pub const FLAT_CURVATURE: f64 = 1e-6;

/// The normal force (N) at which GraspIt sizes a soft contact's area for its statics.
pub const DEFAULT_NORMAL_FORCE: f64 = 5.0;

/// How many friction edges a point contact's friction pyramid has (GraspIt's count).
pub const POINT_CONTACT_EDGES: usize = 8;

/// How many points a side of the drawn soft-contact patch has (a 20×20 quad mesh).
pub const PATCH_SIDE: usize = 21;

/// The spacing (mm) of the drawn soft-contact patch's grid: 21 points span −7 to 7 mm.
pub const PATCH_SPACING: f64 = 0.7;

/// Fewest surface points a quadric fit takes: three coefficients need some redundancy to tell
/// a smooth surface from an edge.
pub const MIN_FIT_POINTS: usize = 5;

/// Fitted coefficients below this magnitude (1/mm) are set to exactly zero.
///
/// GraspIt zeroes below 1e-6 (its FIT_TINY). We only want to remove round-off noise, so that a
/// flat face reads exactly flat, without disturbing real curvature: a coefficient of 1e-9 1/mm
/// is a radius of 5·10⁸ mm, and zeroing it moves a coefficient by far less than the 1e-6 to
/// which a sampled quadric is recovered.
pub const FIT_TINY: f64 = 1e-9;

/// The fit's normal matrix is refused as ill-conditioned when its smallest eigenvalue is below
/// this fraction of its largest: the coefficients' relative error grows like the condition
/// number times the round-off (≈ 1e-16), so this keeps it near 1e-6 at worst.
const MIN_CONDITION: f64 = 1e-10;

/// A fitted surface whose RMS residual exceeds this fraction of the neighbourhood's radius is
/// not smooth (an edge or a corner).
const MAX_RESIDUAL_FRACTION: f64 = 0.1;

/// GraspIt's mattress thickness (m): the depth of the soft layer that the mattress model
/// compresses.
const MATTRESS_THICKNESS_M: f64 = 0.003;

/// How far (rad) the surface may turn away from the tangent plane within the neighbourhood
/// before it counts as an edge or a corner: 70°, which a sphere reaches only when it is
/// smaller than the neighbourhood (radius ≲ 3.7 mm for a 3.5 mm neighbourhood).
const MAX_SURFACE_TURN: f64 = 70.0 * std::f64::consts::PI / 180.0;
/// Points this close to the contact's normal line (mm) are the contact point itself.
const AT_THE_CONTACT: f64 = 1e-9;

/// Refuses a neighbourhood (points in the contact frame) whose surface turns too far to be a
/// smooth patch: a chord from the contact dropping `z` over a distance `ρ` from the normal
/// belongs to a circle whose normal has turned by 2·atan(z/ρ) there, and a box's edge turns
/// by 90° at once. The quadric fit alone cannot tell: a few far corners of a coarse box fit a
/// steep quadric well.
pub fn check_smooth(points: &[Point3<f64>]) -> Result<(), SoftFallback> {
    let turn = points
        .iter()
        .filter_map(|p| {
            // The contact point itself, moved into its own frame, is off the origin by
            // round-off only: no chord, no turn.
            let rho = p.x.hypot(p.y);
            (rho > AT_THE_CONTACT).then(|| 2.0 * (p.z.abs() / rho).atan())
        })
        .fold(0.0, f64::max);
    if turn > MAX_SURFACE_TURN {
        return Err(SoftFallback::Bent {
            degrees: turn.to_degrees(),
        });
    }
    Ok(())
}

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

/// A surface near a contact, in the contact frame: z = a·x² + b·y² + c·x·y (z into the body,
/// so convex means positive). Units: a, b, c in 1/mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quadric {
    /// Coefficient of x².
    pub a: f64,
    /// Coefficient of y².
    pub b: f64,
    /// Coefficient of x·y.
    pub c: f64,
}

/// Signed principal curvatures (1/mm) of a surface at a contact, convex positive.
///
/// `k1` is the curvature along the contact frame's x axis rotated by `angle` about z, `k2`
/// along the axis 90° further. From [`Quadric::curvature`], `k1 ≥ k2` and `angle` lies in
/// (−π/2, π/2].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Curvature {
    /// The first principal curvature (1/mm), along `angle`.
    pub k1: f64,
    /// The second principal curvature (1/mm), along `angle + π/2`.
    pub k2: f64,
    /// The direction (rad, about the contact normal, from the frame's x axis) of `k1`.
    pub angle: f64,
}

/// The contact area of a soft contact and the torsion it can carry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactArea {
    /// The semi-axes (mm) of the elliptic contact area, along the two relative principal
    /// directions.
    pub semi_axes: [f64; 2],
    /// How far (mm) the surfaces interpenetrate in the mattress model.
    pub indentation: f64,
    /// The largest torsional moment about the normal per unit normal force and unit friction
    /// coefficient (mm): the third semi-axis of the friction ellipsoid.
    pub torsion_radius: f64,
}

impl Quadric {
    /// The surface's height (mm, into the body) above the tangent plane at (x, y) in the
    /// contact frame, or [`SoftFallback::NonFinite`] when the quadric or (x, y) is not finite.
    pub fn height(&self, x: f64, y: f64) -> Result<f64, SoftFallback> {
        finite(self.raw_height(x, y))
    }

    /// The height without checks, for the module's own validated values.
    fn raw_height(&self, x: f64, y: f64) -> f64 {
        self.a * x * x + self.b * y * y + self.c * x * y
    }

    fn is_finite(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.c.is_finite()
    }

    /// The principal curvatures: the eigen-decomposition of the Hessian [[2a, c], [c, 2b]].
    ///
    /// GraspIt's RotateParaboloid takes θ = atan(c/(b−a))/2, which divides by zero for a = b
    /// and can pick either eigenvector; here θ = ½·atan2(c, a−b), which is always the direction
    /// of the larger curvature: along (cos θ, sin θ) the height is (a+b + √((a−b)²+c²))·s²/2.
    pub fn curvature(&self) -> Result<Curvature, SoftFallback> {
        if !self.is_finite() {
            return Err(SoftFallback::NonFinite);
        }
        let mean = self.a + self.b;
        let half_spread = (self.a - self.b).hypot(self.c);
        let curvature = Curvature {
            k1: mean + half_spread,
            k2: mean - half_spread,
            angle: 0.5 * self.c.atan2(self.a - self.b),
        };
        if curvature.k1.is_finite() && curvature.k2.is_finite() {
            Ok(curvature)
        } else {
            Err(SoftFallback::NonFinite)
        }
    }
}

impl Curvature {
    /// The signed principal radii (mm) 1/k1 and 1/k2; `None` where the surface is flat
    /// (|k| ≤ [`FLAT_CURVATURE`]) or the curvature is not a number, since a flat direction has
    /// no finite radius.
    pub fn radii(&self) -> [Option<f64>; 2] {
        [self.k1, self.k2].map(|k| {
            if k.is_finite() && k.abs() > FLAT_CURVATURE {
                Some(1.0 / k)
            } else {
                None
            }
        })
    }

    fn is_finite(&self) -> bool {
        self.k1.is_finite() && self.k2.is_finite() && self.angle.is_finite()
    }
}

/// Fits the quadric z = a·x² + b·y² + c·x·y to surface points around a contact.
///
/// The points must ALREADY be in the contact frame: the caller applies the full inverse of the
/// frame, rotation and translation (GraspIt after 2016 only rotated them, fitting a surface
/// through the wrong origin). Least squares by the normal equations M·[a, b, c] = r with
/// M = Σ[[x⁴, x²y², x³y], [x²y², y⁴, xy³], [x³y, xy³, x²y²]] and r = Σ[x²z, y²z, xyz], solved
/// on coordinates scaled by the neighbourhood's radius so that no sum overflows or underflows.
/// Coefficients below [`FIT_TINY`] are set to zero.
///
/// Falls back (with the reason) when a point is not finite, when there are fewer than
/// [`MIN_FIT_POINTS`] points, when the points cannot determine the three coefficients (M
/// singular or ill-conditioned: points on a line), and when the fit does not describe the
/// surface — an RMS residual over 10 % of the neighbourhood's radius (the largest √(x²+y²) of
/// the points) means an edge or a corner, whose curvature is not defined.
///
/// That threshold has a blind spot: a 90° edge met with the normal bisecting its faces
/// (z = |x|) fits with an RMS residual of only about 8 % of the radius when the neighbourhood
/// is a ball around the contact, and so passes as a tight curvature (a ≈ 0.45 at 4 mm). Smooth
/// spheres no smaller than the neighbourhood stay under 2 %.
pub fn fit_quadric(points: &[Point3<f64>]) -> Result<Quadric, SoftFallback> {
    if points
        .iter()
        .any(|p| !p.coords.iter().all(|v| v.is_finite()))
    {
        return Err(SoftFallback::NonFinite);
    }
    if points.len() < MIN_FIT_POINTS {
        return Err(SoftFallback::TooFewPoints {
            found: points.len(),
        });
    }
    let radius = points
        .iter()
        .map(|p| p.x.hypot(p.y))
        .fold(0.0_f64, f64::max);
    if radius <= 0.0 {
        return Err(SoftFallback::Degenerate);
    }
    if !radius.is_finite() {
        return Err(SoftFallback::NonFinite);
    }
    // A flat face is flat however its few, far corners lie (a box's face is two triangles).
    if points.iter().all(|p| p.z.abs() <= 1e-9 * radius) {
        return Ok(Quadric {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        });
    }
    // With x = ρu, y = ρv: z = a·ρ²u² + …, so fitting z/ρ² against u², v², uv gives a, b, c
    // themselves, with every sum of M between 0 and the number of points.
    let mut normal = Matrix3::<f64>::zeros();
    let mut rhs = Vector3::<f64>::zeros();
    for p in points {
        let (u, v) = (p.x / radius, p.y / radius);
        let row = Vector3::new(u * u, v * v, u * v);
        normal += row * row.transpose();
        rhs += row * (p.z / radius / radius);
    }
    if !rhs.iter().all(|v| v.is_finite()) {
        return Err(SoftFallback::NonFinite);
    }
    let eigenvalues = normal.symmetric_eigenvalues();
    let largest = eigenvalues.max();
    let smallest = eigenvalues.min();
    if !largest.is_finite() || largest <= 0.0 || smallest < MIN_CONDITION * largest {
        return Err(SoftFallback::Degenerate);
    }
    let solution = normal
        .cholesky()
        .ok_or(SoftFallback::Degenerate)?
        .solve(&rhs);
    let tidy = |v: f64| if v.abs() < FIT_TINY { 0.0 } else { v };
    let quadric = Quadric {
        a: tidy(solution.x),
        b: tidy(solution.y),
        c: tidy(solution.z),
    };
    if !quadric.is_finite() {
        return Err(SoftFallback::NonFinite);
    }
    let sum_sq: f64 = points
        .iter()
        .map(|p| (p.z - quadric.raw_height(p.x, p.y)).powi(2))
        .sum();
    let rms_residual = (sum_sq / points.len() as f64).sqrt();
    if !rms_residual.is_finite() {
        return Err(SoftFallback::NonFinite);
    }
    if rms_residual > MAX_RESIDUAL_FRACTION * radius {
        return Err(SoftFallback::NotSmooth { rms_residual });
    }
    Ok(quadric)
}

/// The relative principal radii (mm) of two touching surfaces, ascending: the radii of the one
/// surface that, against a plane, has the same gap as the two surfaces have between them.
///
/// Johnson, *Contact Mechanics* §4.1, with each body's signed curvatures from its own contact
/// frame (convex positive) and `relative_angle` the angle between the two bodies' `k1`
/// directions (its sign does not matter):
/// A+B = ½(k1+k2+k1'+k2'),
/// |B−A| = ½·√((k1−k2)² + (k1'−k2')² + 2(k1−k2)(k1'−k2')·cos 2φ),
/// and the radii are 1/(2A) and 1/(2B). GraspIt's CalcRprimes took 1/(A+B) and 1/(A−B), which
/// gives two spheres an infinite radius (A = B); here two spheres give R1R2/(R1+R2) twice.
///
/// A relative curvature that is flat, conforming or concave (2A or 2B ≤ 1/[`FLAT_RADIUS`])
/// gives [`FLAT_RADIUS`], GraspIt's radius for flat contacts, so the contact area stays bounded.
pub fn relative_radii(
    this: &Curvature,
    other: &Curvature,
    relative_angle: f64,
) -> Result<[f64; 2], SoftFallback> {
    if !this.is_finite() || !other.is_finite() || !relative_angle.is_finite() {
        return Err(SoftFallback::NonFinite);
    }
    let sum = 0.5 * (this.k1 + this.k2 + other.k1 + other.k2);
    let d1 = this.k1 - this.k2;
    let d2 = other.k1 - other.k2;
    // Mathematically ≥ 0 (it is |d1 + d2·e^{2iφ}|²); round-off may dip below.
    let squared = d1 * d1 + d2 * d2 + 2.0 * d1 * d2 * (2.0 * relative_angle).cos();
    let difference = 0.5 * squared.max(0.0).sqrt();
    let a = 0.5 * (sum - difference);
    let b = 0.5 * (sum + difference);
    if !a.is_finite() || !b.is_finite() {
        return Err(SoftFallback::NonFinite);
    }
    let radius = |half: f64| {
        let curvature = 2.0 * half;
        if curvature <= 1.0 / FLAT_RADIUS {
            FLAT_RADIUS
        } else {
            1.0 / curvature
        }
    };
    // b ≥ a, so 1/(2b) ≤ 1/(2a): the result is ascending.
    Ok([radius(b), radius(a)])
}

/// The radius (mm) of the neighbourhood whose surface points are fitted at a soft contact.
///
/// GraspIt's (1/E)^(1/3)·1000·0.4 mm, with E the SOFT body's Young's modulus in pascals
/// (≈ 3.49 mm for 1.5 MPa rubber), clamped to [3, 10] mm: GraspIt meant to clamp, but its
/// condition could never fire. A modulus that is not a positive finite number is a caller's
/// mistake (a rigid body has no modulus to pass); it gets the middle value 5 mm rather than a
/// NaN.
pub fn neighbourhood_radius(youngs_pa: f64) -> f64 {
    if !(youngs_pa.is_finite() && youngs_pa > 0.0) {
        return 5.0;
    }
    ((1.0 / youngs_pa).cbrt() * 1000.0 * 0.4).clamp(3.0, 10.0)
}

/// The contact area of a soft contact under a normal force: GraspIt's CalcContact_Mattress.
///
/// The soft body is a mattress of thickness h = 3 mm whose springs push back in proportion to
/// their compression; with the relative radii r1, r2 (in metres) the indentation is
/// δ = √(N·h / (E·π·√(r1·r2))), the semi-axes are a = √(2δ·r1) and b = √(2δ·r2), and the
/// largest torsional moment per unit normal force and friction coefficient is 8·√(a·b)/15
/// (the mattress's pressure integrated over the ellipse). All lengths are returned in mm.
///
/// `normal_force` in newtons (GraspIt sizes contacts at [`DEFAULT_NORMAL_FORCE`]),
/// `youngs_pa` the soft body's modulus, `radii_mm` from [`relative_radii`]. Each must be a
/// positive finite number.
pub fn mattress_contact(
    normal_force: f64,
    youngs_pa: f64,
    radii_mm: [f64; 2],
) -> Result<ContactArea, SoftFallback> {
    positive("normal force", normal_force)?;
    positive("Young's modulus", youngs_pa)?;
    positive("first relative radius", radii_mm[0])?;
    positive("second relative radius", radii_mm[1])?;
    let [r1, r2] = radii_mm.map(|r| r / 1000.0);
    let delta = (normal_force * MATTRESS_THICKNESS_M
        / (youngs_pa * std::f64::consts::PI * (r1 * r2).sqrt()))
    .sqrt();
    let a = (2.0 * delta * r1).sqrt();
    let b = (2.0 * delta * r2).sqrt();
    let torsion = 8.0 * (a * b).sqrt() / 15.0;
    Ok(ContactArea {
        semi_axes: [finite(a * 1000.0)?, finite(b * 1000.0)?],
        indentation: finite(delta * 1000.0)?,
        torsion_radius: finite(torsion * 1000.0)?,
    })
}

/// The friction edges of a soft contact: GraspIt's linearised friction ellipsoid (SFCL, 4D).
///
/// A soft contact transmits tangential force (fx, fy) and a torsion tz about the normal, up to
/// the ellipsoid fx² + fy² + (tz/e)² ≤ 1 (per unit normal force and friction coefficient) with
/// e = `torsion_radius_mm` from [`mattress_contact`]. It is sampled at latitudes π/2, π/4, 0,
/// −π/4, −π/2 with 1, 5, 8, 5 and 1 directions θ = j·2π/count: 20 edges, each
/// (fx, fy, fz, tx, ty, tz) in the contact frame, the point of the ellipsoid along the
/// direction (cos θ cos φ, sin θ cos φ, sin φ) scaled by the eccentricities (1, 1, e). The
/// caller multiplies by μ and adds the normal force.
///
/// The torsion radius must be a positive finite number: a contact without area has no torsion
/// and is a point contact (see [`pyramid_edges`]).
pub fn ellipsoid_edges(torsion_radius_mm: f64) -> Result<Vec<[f64; 6]>, SoftFallback> {
    let e = positive("torsion radius", torsion_radius_mm)?;
    let s = std::f64::consts::FRAC_1_SQRT_2;
    // (cos φ, sin φ, directions): exact values, so the poles carry exactly no force.
    let latitudes = [
        (0.0, 1.0, 1),
        (s, s, 5),
        (1.0, 0.0, 8),
        (s, -s, 5),
        (0.0, -1.0, 1),
    ];
    let mut edges = Vec::with_capacity(20);
    for (cos_phi, sin_phi, count) in latitudes {
        for j in 0..count {
            let theta = j as f64 * std::f64::consts::TAU / count as f64;
            let (fx, fy) = (theta.cos() * cos_phi, theta.sin() * cos_phi);
            // GraspIt's den = |(fx, fy, sinφ/e)|; multiplied through by e (with hypot) so that
            // neither a tiny nor a huge e overflows.
            let den = (e * fx).hypot(e * fy).hypot(sin_phi);
            let edge = [e * fx / den, e * fy / den, 0.0, 0.0, 0.0, e * sin_phi / den];
            if !edge.iter().all(|v| v.is_finite()) {
                return Err(SoftFallback::NonFinite);
            }
            edges.push(edge);
        }
    }
    Ok(edges)
}

/// The friction edges of a point contact: a pyramid of `count` unit tangential forces
/// (cos 2πk/m, sin 2πk/m, 0, 0, 0, 0) in the contact frame (the caller multiplies by μ).
///
/// Fewer than 3 edges cannot enclose a cone, so `count` is raised to at least 3; GraspIt uses
/// [`POINT_CONTACT_EDGES`].
pub fn pyramid_edges(count: usize) -> Vec<[f64; 6]> {
    let m = count.max(3);
    (0..m)
        .map(|k| {
            let theta = k as f64 * std::f64::consts::TAU / m as f64;
            [theta.cos(), theta.sin(), 0.0, 0.0, 0.0, 0.0]
        })
        .collect()
}

/// The fitted surface around a contact, for drawing: a [`PATCH_SIDE`]² grid at
/// [`PATCH_SPACING`] mm (x and y from −7 to 7 mm) in the contact frame, raised to the quadric's
/// height and mapped to the world by `frame` (the contact frame's pose). Row-major: point
/// `row·21 + col` is at x = (col − 10)·0.7, y = (row − 10)·0.7, so the centre (index 220) is
/// the contact point. The app draws it as a 20×20 quad mesh.
pub fn patch_grid(quadric: &Quadric, frame: &Pose) -> Result<Vec<Point3<f64>>, SoftFallback> {
    let frame_finite = frame.translation.vector.iter().all(|v| v.is_finite())
        && frame.rotation.coords.iter().all(|v| v.is_finite());
    if !quadric.is_finite() || !frame_finite {
        return Err(SoftFallback::NonFinite);
    }
    let half = (PATCH_SIDE / 2) as f64;
    let mut points = Vec::with_capacity(PATCH_SIDE * PATCH_SIDE);
    for row in 0..PATCH_SIDE {
        for col in 0..PATCH_SIDE {
            let x = (col as f64 - half) * PATCH_SPACING;
            let y = (row as f64 - half) * PATCH_SPACING;
            let world = frame * Point3::new(x, y, quadric.raw_height(x, y));
            if !world.coords.iter().all(|v| v.is_finite()) {
                return Err(SoftFallback::NonFinite);
            }
            points.push(world);
        }
    }
    Ok(points)
}

fn finite(value: f64) -> Result<f64, SoftFallback> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SoftFallback::NonFinite)
    }
}

fn positive(name: &'static str, value: f64) -> Result<f64, SoftFallback> {
    let value = finite(value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(SoftFallback::NotPositive { name, value })
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    use nalgebra::{Matrix2, Translation3, UnitQuaternion};

    use super::*;

    /// Points of `q` on a 0.5 mm grid within 4 mm of the contact.
    fn sample(q: &Quadric) -> Vec<Point3<f64>> {
        let mut points = Vec::new();
        for i in -8..=8 {
            for j in -8..=8 {
                let (x, y) = (i as f64 * 0.5, j as f64 * 0.5);
                if x.hypot(y) <= 4.0 {
                    points.push(Point3::new(x, y, q.raw_height(x, y)));
                }
            }
        }
        points
    }

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    /// The quadric whose curvatures are k1 along `angle` and k2 across it.
    fn quadric_from(k1: f64, k2: f64, angle: f64) -> Quadric {
        let (c, s) = (angle.cos(), angle.sin());
        // Hessian R·diag(k1, k2)·Rᵀ = [[2a, c], [c, 2b]].
        Quadric {
            a: 0.5 * (k1 * c * c + k2 * s * s),
            b: 0.5 * (k1 * s * s + k2 * c * c),
            c: (k1 - k2) * c * s,
        }
    }

    #[test]
    fn fit_recovers_sampled_quadrics() {
        let cases = [
            Quadric {
                a: 0.05,
                b: 0.05,
                c: 0.0,
            },
            Quadric {
                a: 0.031,
                b: -0.017,
                c: 0.023,
            },
            Quadric {
                a: -0.08,
                b: -0.02,
                c: -0.041,
            },
            Quadric {
                a: 0.0,
                b: 0.12,
                c: 0.0,
            },
            Quadric {
                a: 0.2,
                b: 0.003,
                c: -0.15,
            },
            Quadric {
                a: 0.0,
                b: 0.0,
                c: 0.0,
            },
        ];
        for q in cases {
            let fit = fit_quadric(&sample(&q)).unwrap();
            assert!(close(fit.a, q.a, 1e-6), "{fit:?} vs {q:?}");
            assert!(close(fit.b, q.b, 1e-6), "{fit:?} vs {q:?}");
            assert!(close(fit.c, q.c, 1e-6), "{fit:?} vs {q:?}");
        }
    }

    #[test]
    fn fit_of_a_flat_face_is_exactly_flat() {
        let fit = fit_quadric(&sample(&Quadric {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        }))
        .unwrap();
        assert_eq!(
            fit,
            Quadric {
                a: 0.0,
                b: 0.0,
                c: 0.0
            }
        );
    }

    #[test]
    fn fit_of_a_sphere_gives_its_curvature() {
        let r = 10.0;
        let points: Vec<_> = sample(&Quadric {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        })
        .into_iter()
        .map(|p| Point3::new(p.x, p.y, r - (r * r - p.x * p.x - p.y * p.y).sqrt()))
        .collect();
        let curvature = fit_quadric(&points).unwrap().curvature().unwrap();
        // Within 4 mm a sphere rises above its osculating paraboloid by up to r⁴/(8R³) ≈ 0.03
        // mm, which the least-squares fit takes as about 3 % more curvature.
        assert!(close(curvature.k1, 1.0 / r, 0.05 / r), "{curvature:?}");
        assert!(close(curvature.k2, 1.0 / r, 0.05 / r), "{curvature:?}");
        assert!(close(curvature.k1, curvature.k2, 1e-12), "{curvature:?}");
    }

    #[test]
    fn fit_uses_points_off_a_regular_grid_and_centred_anywhere_in_xy() {
        // Scattered points (a deterministic pseudo-random walk), not symmetric about the origin.
        let q = Quadric {
            a: 0.07,
            b: 0.01,
            c: -0.03,
        };
        let mut points = Vec::new();
        let mut random = clasp_random::SplitMix64::new(12345);
        let mut next = || random.unit();
        for _ in 0..40 {
            let (x, y) = (next() * 5.0 - 1.0, next() * 6.0 - 3.0);
            points.push(Point3::new(x, y, q.raw_height(x, y)));
        }
        let fit = fit_quadric(&points).unwrap();
        assert!(close(fit.a, q.a, 1e-6) && close(fit.b, q.b, 1e-6) && close(fit.c, q.c, 1e-6));
    }

    #[test]
    fn box_edges_are_not_smooth() {
        // The contact 1 mm from a box's edge: the top face z = 0 for x ≤ 1, then the side face
        // x = 1 going down into the body.
        let mut beside = Vec::new();
        for i in -8..=8 {
            for j in -8..=8 {
                let (x, y) = (i as f64 * 0.5, j as f64 * 0.5);
                if x <= 1.0 {
                    beside.push(Point3::new(x, y, 0.0));
                }
                if i > 0 {
                    beside.push(Point3::new(1.0, y, x));
                }
            }
        }
        match fit_quadric(&beside) {
            Err(SoftFallback::NotSmooth { rms_residual }) => assert!(rms_residual > 0.4),
            other => panic!("an edge fitted as {other:?}"),
        }
        // The same points without the side face are a flat face.
        let top: Vec<_> = beside.into_iter().filter(|p| p.z == 0.0).collect();
        assert_eq!(
            fit_quadric(&top),
            Ok(Quadric {
                a: 0.0,
                b: 0.0,
                c: 0.0
            })
        );
    }

    #[test]
    fn too_few_points_fall_back() {
        let points = [
            Point3::new(1.0, 0.0, 0.1),
            Point3::new(0.0, 1.0, 0.1),
            Point3::new(1.0, 1.0, 0.2),
        ];
        assert_eq!(
            fit_quadric(&points),
            Err(SoftFallback::TooFewPoints { found: 3 })
        );
        assert_eq!(
            fit_quadric(&[]),
            Err(SoftFallback::TooFewPoints { found: 0 })
        );
    }

    #[test]
    fn degenerate_points_fall_back() {
        let line: Vec<_> = (-4..=4)
            .map(|t| {
                let t = t as f64;
                Point3::new(t, 2.0 * t, 0.1 * t * t)
            })
            .collect();
        assert_eq!(fit_quadric(&line), Err(SoftFallback::Degenerate));
        // Points on the two axes only leave c free.
        let cross: Vec<_> = (1..=4)
            .flat_map(|t| {
                let t = t as f64;
                [
                    Point3::new(t, 0.0, 0.1 * t * t),
                    Point3::new(-t, 0.0, 0.1 * t * t),
                    Point3::new(0.0, t, 0.2 * t * t),
                    Point3::new(0.0, -t, 0.2 * t * t),
                ]
            })
            .collect();
        assert_eq!(fit_quadric(&cross), Err(SoftFallback::Degenerate));
        let stacked = vec![Point3::new(0.0, 0.0, 1.0); 6];
        assert_eq!(fit_quadric(&stacked), Err(SoftFallback::Degenerate));
    }

    #[test]
    fn non_finite_points_fall_back() {
        let mut points = sample(&Quadric {
            a: 0.1,
            b: 0.1,
            c: 0.0,
        });
        points[7].z = f64::NAN;
        assert_eq!(fit_quadric(&points), Err(SoftFallback::NonFinite));
        points[7].z = 0.0;
        points[3].x = f64::INFINITY;
        assert_eq!(fit_quadric(&points), Err(SoftFallback::NonFinite));
        // Finite points whose squares overflow.
        let huge: Vec<_> = (0..6)
            .map(|i| Point3::new(1e200 * i as f64, 1e199 * (i * i) as f64, 1e300))
            .collect();
        assert!(fit_quadric(&huge).is_err());
    }

    #[test]
    fn curvature_of_a_rotated_quadric() {
        for (k1, k2, angle) in [
            (0.2, 0.05, 0.3),
            (0.1, -0.04, -1.1),
            (-0.01, -0.3, 1.4),
            (0.08, 0.0, -0.2),
        ] {
            let q = quadric_from(k1, k2, angle);
            let c = q.curvature().unwrap();
            assert!(close(c.k1, k1, 1e-12) && close(c.k2, k2, 1e-12), "{c:?}");
            assert!(close(c.angle, angle, 1e-12), "{c:?} for {angle}");
            for s in [0.5, 2.0, -3.0] {
                let (u, v) = (c.angle.cos() * s, c.angle.sin() * s);
                assert!(close(q.height(u, v).unwrap(), c.k1 * s * s / 2.0, 1e-12));
                let (u, v) = (-c.angle.sin() * s, c.angle.cos() * s);
                assert!(close(q.height(u, v).unwrap(), c.k2 * s * s / 2.0, 1e-12));
            }
        }
    }

    #[test]
    fn curvature_of_a_sphere_and_a_cylinder() {
        let sphere = Quadric {
            a: 0.05,
            b: 0.05,
            c: 0.0,
        }
        .curvature()
        .unwrap();
        assert_eq!(sphere.k1, 0.1);
        assert_eq!(sphere.k2, 0.1);
        assert_eq!(sphere.radii(), [Some(10.0), Some(10.0)]);
        // A cylinder of radius 5 whose axis is along x: curved along y.
        let cylinder = Quadric {
            a: 0.0,
            b: 0.1,
            c: 0.0,
        }
        .curvature()
        .unwrap();
        assert!(close(cylinder.k1, 0.2, 1e-15) && cylinder.k2 == 0.0);
        assert!(close(cylinder.angle, FRAC_PI_2, 1e-15));
        assert_eq!(cylinder.radii(), [Some(5.0), None]);
        let hollow = Quadric {
            a: -0.1,
            b: -0.1,
            c: 0.0,
        }
        .curvature()
        .unwrap();
        assert_eq!(hollow.radii(), [Some(-5.0), Some(-5.0)]);
        let bad = Quadric {
            a: f64::NAN,
            b: 0.0,
            c: 0.0,
        };
        assert_eq!(bad.curvature(), Err(SoftFallback::NonFinite));
        assert_eq!(bad.height(1.0, 1.0), Err(SoftFallback::NonFinite));
    }

    fn sphere(r: f64) -> Curvature {
        Curvature {
            k1: 1.0 / r,
            k2: 1.0 / r,
            angle: 0.0,
        }
    }

    fn cylinder(r: f64) -> Curvature {
        Curvature {
            k1: 1.0 / r,
            k2: 0.0,
            angle: 0.0,
        }
    }

    const PLANE: Curvature = Curvature {
        k1: 0.0,
        k2: 0.0,
        angle: 0.0,
    };

    #[test]
    fn relative_radii_of_spheres() {
        let [r1, r2] = relative_radii(&sphere(10.0), &sphere(15.0), 0.7).unwrap();
        assert!(close(r1, 6.0, 1e-12) && close(r2, 6.0, 1e-12), "{r1} {r2}");
        let [r1, r2] = relative_radii(&sphere(10.0), &PLANE, 0.0).unwrap();
        assert!(close(r1, 10.0, 1e-12) && close(r2, 10.0, 1e-12));
        // A ball of 10 in a socket of 40: R1R2/(R2−R1).
        let [r1, r2] = relative_radii(&sphere(10.0), &sphere(-40.0), 0.0).unwrap();
        assert!(close(r1, 40.0 / 3.0, 1e-12) && close(r2, 40.0 / 3.0, 1e-12));
        // Flat, nearly flat and conforming contacts get FLAT_RADIUS.
        for other in [sphere(-12.0), PLANE, sphere(-10.0)] {
            let flat = if other == PLANE { PLANE } else { sphere(10.0) };
            assert_eq!(relative_radii(&flat, &other, 0.0), Ok([FLAT_RADIUS; 2]));
        }
        assert_eq!(
            relative_radii(&sphere(30.0), &PLANE, 0.0),
            Ok([FLAT_RADIUS; 2])
        );
    }

    #[test]
    fn relative_radii_of_cylinders() {
        // A cylinder on a plane: its radius across, flat along, at any crossing angle.
        for angle in [0.0, 0.4, FRAC_PI_4, FRAC_PI_2, 2.5] {
            let [r1, r2] = relative_radii(&cylinder(8.0), &PLANE, angle).unwrap();
            assert!(
                close(r1, 8.0, 1e-12) && r2 == FLAT_RADIUS,
                "{angle}: {r1} {r2}"
            );
        }
        // Equal cylinders crossed at right angles touch like a sphere on a plane.
        let [r1, r2] = relative_radii(&cylinder(8.0), &cylinder(8.0), FRAC_PI_2).unwrap();
        assert!(close(r1, 8.0, 1e-12) && close(r2, 8.0, 1e-12), "{r1} {r2}");
        // Parallel cylinders: R1R2/(R1+R2) across, flat along.
        let [r1, r2] = relative_radii(&cylinder(6.0), &cylinder(12.0), PI).unwrap();
        assert!(close(r1, 4.0, 1e-12) && r2 == FLAT_RADIUS, "{r1} {r2}");
    }

    #[test]
    fn relative_radii_match_the_summed_curvature_tensor() {
        // The gap between the surfaces is ½·xᵀ(H + H')x, whose eigenvalues are 2A and 2B.
        let tensor = |c: &Curvature, extra: f64| {
            let rotation = nalgebra::Rotation2::new(c.angle + extra).into_inner();
            rotation * Matrix2::new(c.k1, 0.0, 0.0, c.k2) * rotation.transpose()
        };
        let pairs = [
            (
                Curvature {
                    k1: 0.3,
                    k2: 0.1,
                    angle: 0.2,
                },
                Curvature {
                    k1: 0.2,
                    k2: -0.05,
                    angle: -0.5,
                },
            ),
            (
                Curvature {
                    k1: 0.15,
                    k2: 0.12,
                    angle: 1.0,
                },
                Curvature {
                    k1: 0.1,
                    k2: 0.0,
                    angle: 0.3,
                },
            ),
            (
                Curvature {
                    k1: 0.5,
                    k2: 0.25,
                    angle: 0.0,
                },
                Curvature {
                    k1: -0.05,
                    k2: -0.2,
                    angle: 2.0,
                },
            ),
        ];
        for (this, other) in pairs {
            let phi = other.angle - this.angle;
            let gap = tensor(&this, 0.0) + tensor(&other, 0.0);
            let mut expected: Vec<f64> = gap
                .symmetric_eigenvalues()
                .iter()
                .map(|&k| {
                    if k <= 1.0 / FLAT_RADIUS {
                        FLAT_RADIUS
                    } else {
                        1.0 / k
                    }
                })
                .collect();
            expected.sort_by(f64::total_cmp);
            let got = relative_radii(&this, &other, phi).unwrap();
            assert!(close(got[0], expected[0], 1e-9), "{got:?} vs {expected:?}");
            assert!(close(got[1], expected[1], 1e-9), "{got:?} vs {expected:?}");
            assert!(got[0] <= got[1]);
        }
        let nan = Curvature {
            k1: f64::NAN,
            k2: 0.0,
            angle: 0.0,
        };
        assert_eq!(
            relative_radii(&nan, &PLANE, 0.0),
            Err(SoftFallback::NonFinite)
        );
        assert_eq!(
            relative_radii(&PLANE, &PLANE, f64::INFINITY),
            Err(SoftFallback::NonFinite)
        );
    }

    #[test]
    fn neighbourhood_radius_follows_graspit_and_is_clamped() {
        assert!(close(neighbourhood_radius(1.5e6), 3.494, 1e-3));
        assert_eq!(neighbourhood_radius(1e9), 3.0);
        assert_eq!(neighbourhood_radius(1e3), 10.0);
        assert_eq!(neighbourhood_radius(f64::NAN), 5.0);
        assert_eq!(neighbourhood_radius(-2.0), 5.0);
        assert_eq!(neighbourhood_radius(0.0), 5.0);
    }

    #[test]
    fn mattress_sphere_on_a_plane() {
        let (n, e, r) = (DEFAULT_NORMAL_FORCE, 1.5e6, 10.0);
        let area = mattress_contact(n, e, [r, r]).unwrap();
        let r_m = r / 1000.0;
        let delta = (n * 0.003 / (e * PI * r_m)).sqrt();
        let torsion = 8.0 * (2.0 * delta * r_m).sqrt() / 15.0;
        assert!(close(area.indentation, delta * 1000.0, 1e-12));
        assert!(close(area.torsion_radius, torsion * 1000.0, 1e-12));
        assert!(close(area.indentation, 0.564, 1e-3), "{area:?}");
        assert!(close(area.semi_axes[0], 3.36, 5e-3) && close(area.semi_axes[1], 3.36, 5e-3));
        assert!(close(area.torsion_radius, 1.79, 5e-3), "{area:?}");
    }

    #[test]
    fn mattress_ellipse_and_force_scaling() {
        let area = mattress_contact(5.0, 1.5e6, [4.0, 16.0]).unwrap();
        // Semi-axes in the ratio √(r1/r2); torsion from their geometric mean.
        assert!(close(area.semi_axes[1] / area.semi_axes[0], 2.0, 1e-12));
        let mean = (area.semi_axes[0] * area.semi_axes[1]).sqrt();
        assert!(close(area.torsion_radius, 8.0 * mean / 15.0, 1e-12));
        // The contact grows as N^¼: 16 times the force, twice the torsion.
        let heavier = mattress_contact(80.0, 1.5e6, [4.0, 16.0]).unwrap();
        assert!(close(
            heavier.torsion_radius,
            2.0 * area.torsion_radius,
            1e-12
        ));
        // A stiffer body gives a smaller contact.
        let stiffer = mattress_contact(5.0, 1.5e8, [4.0, 16.0]).unwrap();
        assert!(stiffer.torsion_radius < area.torsion_radius);
    }

    #[test]
    fn mattress_refuses_bad_parameters() {
        assert_eq!(
            mattress_contact(0.0, 1.5e6, [5.0, 5.0]),
            Err(SoftFallback::NotPositive {
                name: "normal force",
                value: 0.0
            })
        );
        assert_eq!(
            mattress_contact(5.0, -1.0, [5.0, 5.0]),
            Err(SoftFallback::NotPositive {
                name: "Young's modulus",
                value: -1.0
            })
        );
        assert!(matches!(
            mattress_contact(5.0, 1.5e6, [5.0, 0.0]),
            Err(SoftFallback::NotPositive { .. })
        ));
        assert_eq!(
            mattress_contact(f64::NAN, 1.5e6, [5.0, 5.0]),
            Err(SoftFallback::NonFinite)
        );
        assert_eq!(
            mattress_contact(5.0, 1.5e6, [f64::INFINITY, 5.0]),
            Err(SoftFallback::NonFinite)
        );
    }

    #[test]
    fn ellipsoid_edges_sample_the_friction_ellipsoid() {
        let t = 1.79;
        let edges = ellipsoid_edges(t).unwrap();
        assert_eq!(edges.len(), 20);
        // The poles: pure torsion ±e, no force.
        for (pole, sign) in [(edges[0], 1.0), (edges[19], -1.0)] {
            assert!(pole[..5].iter().all(|v| v.abs() < 1e-12), "{pole:?}");
            assert!(close(pole[5], sign * t, 1e-12), "{pole:?}");
        }
        // The equator (edges 6..14): unit tangential force, no torsion.
        for (j, edge) in edges[6..14].iter().enumerate() {
            let theta = j as f64 * PI / 4.0;
            assert!(close(edge[0], theta.cos(), 1e-12) && close(edge[1], theta.sin(), 1e-12));
            assert_eq!(edge[5], 0.0);
        }
        // Every edge lies on the ellipsoid, with no normal force or tilting moment.
        for edge in &edges {
            let on = edge[0].powi(2) + edge[1].powi(2) + (edge[5] / t).powi(2);
            assert!(close(on, 1.0, 1e-12), "{edge:?}");
            assert_eq!([edge[2], edge[3], edge[4]], [0.0; 3]);
        }
        // Mid latitudes torque with the sign of their latitude.
        assert!(edges[1..6].iter().all(|e| e[5] > 0.0));
        assert!(edges[14..19].iter().all(|e| e[5] < 0.0));
        // Extreme radii stay finite.
        for extreme in [1e-300, 1e300] {
            let edges = ellipsoid_edges(extreme).unwrap();
            assert!(edges.iter().flatten().all(|v| v.is_finite()));
            assert!(close(edges[10][0].hypot(edges[10][1]), 1.0, 1e-12));
        }
        assert!(matches!(
            ellipsoid_edges(0.0),
            Err(SoftFallback::NotPositive { .. })
        ));
        assert_eq!(ellipsoid_edges(f64::NAN), Err(SoftFallback::NonFinite));
    }

    #[test]
    fn pyramid_edges_are_unit_tangential_forces() {
        let edges = pyramid_edges(POINT_CONTACT_EDGES);
        assert_eq!(edges.len(), 8);
        for (k, edge) in edges.iter().enumerate() {
            assert!(close(edge[0].hypot(edge[1]), 1.0, 1e-12));
            let theta = k as f64 * PI / 4.0;
            assert!(close(edge[0], theta.cos(), 1e-12) && close(edge[1], theta.sin(), 1e-12));
            assert_eq!(edge[2..], [0.0; 4]);
        }
        assert_eq!(pyramid_edges(0).len(), 3);
        assert_eq!(pyramid_edges(2).len(), 3);
        assert_eq!(pyramid_edges(5).len(), 5);
    }

    #[test]
    fn patch_grid_maps_the_quadric_to_the_world() {
        let q = Quadric {
            a: 0.05,
            b: 0.02,
            c: -0.01,
        };
        let frame = Pose::from_parts(
            Translation3::new(10.0, -4.0, 25.0),
            UnitQuaternion::from_euler_angles(0.3, -0.7, 1.2),
        );
        let grid = patch_grid(&q, &frame).unwrap();
        assert_eq!(grid.len(), PATCH_SIDE * PATCH_SIDE);
        assert_eq!(grid.len(), 441);
        assert!(grid.iter().all(|p| p.coords.iter().all(|v| v.is_finite())));
        let centre = grid[PATCH_SIDE * PATCH_SIDE / 2];
        assert!((centre - Point3::new(10.0, -4.0, 25.0)).norm() < 1e-12);
        // Row-major from (−7, −7): the first point, the one after it, and the one a row later.
        let local = |x: f64, y: f64| frame * Point3::new(x, y, q.raw_height(x, y));
        assert!((grid[0] - local(-7.0, -7.0)).norm() < 1e-12);
        assert!((grid[1] - local(-6.3, -7.0)).norm() < 1e-12);
        assert!((grid[PATCH_SIDE] - local(-7.0, -6.3)).norm() < 1e-12);
        assert!((grid[440] - local(7.0, 7.0)).norm() < 1e-12);
        let bad = Pose::from_parts(
            Translation3::new(f64::NAN, 0.0, 0.0),
            UnitQuaternion::identity(),
        );
        assert_eq!(patch_grid(&q, &bad), Err(SoftFallback::NonFinite));
        let bad_q = Quadric {
            a: f64::INFINITY,
            b: 0.0,
            c: 0.0,
        };
        assert_eq!(patch_grid(&bad_q, &frame), Err(SoftFallback::NonFinite));
    }

    #[test]
    fn edges_are_bent_spheres_are_smooth_and_big_flat_faces_are_flat() {
        // A box's edge, the normal bisecting its two faces: each face drops at 45°.
        let edge: Vec<Point3<f64>> = [(-3.0, 0.0), (3.0, 0.0), (-2.0, 2.0), (2.0, -2.0)]
            .iter()
            .map(|&(x, y)| Point3::new(x, y, f64::abs(x)))
            .collect();
        assert!(
            matches!(check_smooth(&edge), Err(SoftFallback::Bent { degrees }) if degrees > 85.0)
        );
        // A 10 mm sphere seen 3.5 mm round its contact turns by 20.5°.
        let sphere: Vec<Point3<f64>> = (0..12)
            .map(|k| {
                let (s, c) = (k as f64 * PI / 6.0).sin_cos();
                let rho = 3.5;
                Point3::new(rho * c, rho * s, 10.0 - (100.0 - rho * rho).sqrt())
            })
            .collect();
        assert_eq!(check_smooth(&sphere), Ok(()));
        // The four corners of a large face lie on its diagonals: no curvature can be told
        // from them, but a face is flat.
        let face: Vec<Point3<f64>> = [
            (30.0, 30.0),
            (-30.0, 30.0),
            (30.0, -30.0),
            (-30.0, -30.0),
            (0.0, 0.0),
        ]
        .iter()
        .map(|&(x, y)| Point3::new(x, y, 0.0))
        .collect();
        let flat = fit_quadric(&face).unwrap();
        assert_eq!((flat.a, flat.b, flat.c), (0.0, 0.0, 0.0));
        let mut lifted = face.clone();
        lifted[0].z = 1.0;
        assert_eq!(fit_quadric(&lifted), Err(SoftFallback::Degenerate));
    }

    #[test]
    fn the_contact_point_off_its_frame_by_round_off_turns_nothing() {
        let mut dome: Vec<Point3<f64>> = (0..8)
            .map(|k| {
                let a = std::f64::consts::TAU * k as f64 / 8.0;
                Point3::new(2.0 * a.cos(), 2.0 * a.sin(), 0.1)
            })
            .collect();
        dome.push(Point3::new(1e-14, -3e-15, 1.4e-14));
        assert_eq!(check_smooth(&dome), Ok(()));
    }
}
