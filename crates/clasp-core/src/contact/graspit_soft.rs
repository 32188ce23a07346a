//! GraspIt's soft contact as its code runs it (`SoftContact`, `FitParabola.h`), for numbers
//! that must match GraspIt's ([`super::model::ContactMode::GraspIt`]). [`super::soft`] is the same
//! model with GraspIt's mistakes fixed, and Clasp's default. What differs here:
//!
//! * Each body's neighbourhood is only turned into the contact frame, not moved to the contact
//!   point (GraspIt since its 2016 Eigen port, graspit-spec §4.4), so the quadric
//!   z = a·x² + b·y² + c·x·y is fitted through the body's origin: most fits come out flat.
//! * The fit solves its normal equations by the inverse, zeroes coefficients below 1e-6, and
//!   never falls back to a point contact (no edge, corner or conditioning test).
//! * The principal radii are `RotateParaboloid`'s (θ = atan(c/(b−a))/2) and the relative radii
//!   `CalcRprimes`'s: 1/(A+B) and 1/(A−B), a flat or undefined one 20 mm.

use nalgebra::{Matrix3, Point3, Unit, Vector3};

use super::{
    Contact, contact_frame,
    model::SoftContact,
    soft::{
        curvature::{FLAT_RADIUS, Quadric},
        fallback::SoftFallback,
        friction::mattress_contact,
        patch::patch_grid,
    },
};
use crate::{body::Body, pose::Pose};

/// GraspIt's `FIT_TINY`: fitted coefficients and curvatures below it are zero (flat).
const FIT_TINY: f64 = 1.0e-6;

/// One body's side of a contact as GraspIt fits it: the quadric, its principal radii (−1:
/// flat) and the direction of the first one (world).
struct Side {
    fit: Quadric,
    radii: [f64; 2],
    direction: Vector3<f64>,
}

/// The soft contact of `object` and `hand` at `contact` (its point on each body and normal
/// into the object, world), with each body's neighbourhood points (body frame), as GraspIt
/// computes it.
pub(crate) fn soft_contact(
    [object, hand]: [&Body; 2],
    contact: &Contact,
    [object_points, hand_points]: [&[Point3<f64>]; 2],
    youngs: f64,
    normal_force: f64,
    merged: usize,
) -> Result<SoftContact, SoftFallback> {
    let frames = [
        body_frame(object, contact.point, contact.inward()),
        body_frame(hand, contact.other_point, -contact.inward()),
    ];
    let this = side(object, &frames[0], object_points);
    let other = side(hand, &frames[1], hand_points);
    let cosine =
        this.direction.dot(&other.direction) / (this.direction.norm() * other.direction.norm());
    let relative_radii = relative_radii(this.radii, other.radii, cosine.clamp(-1.0, 1.0).acos())?;
    Ok(SoftContact {
        fit: this.fit,
        other_fit: other.fit,
        relative_radii,
        area: mattress_contact(normal_force, youngs, relative_radii)?,
        patch: patch_grid(&this.fit, &frames[0])?,
        other_patch: patch_grid(&other.fit, &frames[1])?,
        merged,
    })
}

/// GraspIt's contact frame (world), its tangents chosen from the normal in the body's own
/// frame, as GraspIt builds it: they differ from [`contact_frame`]'s in the world by a turn
/// about the normal, and the principal direction GraspIt's fit picks depends on that turn.
fn body_frame(body: &Body, point: Point3<f64>, inward: Unit<Vector3<f64>>) -> Pose {
    let local = contact_frame(
        body.pose.inverse_transform_point(&point),
        Unit::new_normalize(body.pose.inverse_transform_vector(&inward)),
    );
    body.pose * local
}

/// GraspIt's `SoftContact` constructor and `FitPoints`: the points turned (not moved) into
/// the contact frame, fitted, and the fit's principal radii.
fn side(body: &Body, frame: &Pose, points: &[Point3<f64>]) -> Side {
    let turn = frame.rotation.inverse() * body.pose.rotation;
    let turned: Vec<Vector3<f64>> = points.iter().map(|p| turn * p.coords).collect();
    let fit = fit_paraboloid(&turned);
    let (radii, angle) = principal_radii(&fit);
    Side {
        fit,
        radii,
        direction: frame.rotation * Vector3::new(angle.cos(), angle.sin(), 0.0),
    }
}

/// GraspIt's `FitParaboloid`: the normal equations of z = a·x² + b·y² + c·x·y solved by the
/// inverse (a singular system gives what the inverse of a singular matrix gives: no finite
/// coefficients, as in GraspIt), coefficients below 1e-6 zeroed.
fn fit_paraboloid(points: &[Vector3<f64>]) -> Quadric {
    let mut normal = Matrix3::<f64>::zeros();
    let mut rhs = Vector3::<f64>::zeros();
    for p in points {
        let row = Vector3::new(p.x * p.x, p.y * p.y, p.x * p.y);
        normal += row * row.transpose();
        rhs += row * p.z;
    }
    let solution = normal
        .try_inverse()
        .map_or(Vector3::repeat(f64::NAN), |inverse| inverse * rhs);
    let tidy = |v: f64| if v.abs() < FIT_TINY { 0.0 } else { v };
    Quadric {
        a: tidy(solution.x),
        b: tidy(solution.y),
        c: tidy(solution.z),
    }
}

/// GraspIt's `RotateParaboloid`: the radii along the axes turned by θ = atan(c/(b−a))/2 (−1
/// where the curvature is below 1e-6: flat), and θ.
fn principal_radii(q: &Quadric) -> ([f64; 2], f64) {
    let radius = |k: f64| if k.abs() > FIT_TINY { 1.0 / k } else { -1.0 };
    if q.c.abs() <= FIT_TINY {
        return ([radius(2.0 * q.a), radius(2.0 * q.b)], 0.0);
    }
    let theta = if q.a != q.b {
        (q.c / (q.b - q.a)).atan() / 2.0
    } else {
        std::f64::consts::FRAC_PI_2
    };
    let (s, c) = theta.sin_cos();
    let k1 = 2.0 * (q.a * c * c + q.b * s * s - q.c * s * c);
    let k2 = 2.0 * (q.a * s * s + q.b * c * c + q.c * s * c);
    ([radius(k1), radius(k2)], theta)
}

/// GraspIt's `CalcRprimes` and the 20 mm its mattress model puts for a radius it has not got.
fn relative_radii(
    this: [f64; 2],
    other: [f64; 2],
    relative_angle: f64,
) -> Result<[f64; 2], SoftFallback> {
    let curvature = |r: f64| if r < 0.0 { 0.0 } else { 1.0 / r };
    let [w, x] = this.map(curvature);
    let [y, z] = other.map(curvature);
    let sum = 0.5 * (w + x + y + z);
    let difference = 0.5
        * ((w - x) * (w - x)
            + (y - z) * (y - z)
            + 2.0 * (2.0 * relative_angle).cos() * (w - x) * (y - z))
            .sqrt();
    // GraspIt gives up here and leaves both radii 0 (an infinite contact area); the contact
    // stays a point contact instead.
    if difference > sum || difference.is_nan() {
        return Err(SoftFallback::NonFinite);
    }
    let first = if sum + difference != 0.0 {
        1.0 / (sum + difference)
    } else {
        FLAT_RADIUS
    };
    let second = if sum == difference {
        FLAT_RADIUS
    } else {
        1.0 / (sum - difference)
    };
    Ok([first, second])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paraboloid_through_the_origin_is_recovered() {
        let points: Vec<Vector3<f64>> = (-3..=3)
            .flat_map(|i| (-3..=3).map(move |j| (f64::from(i), f64::from(j))))
            .map(|(x, y)| Vector3::new(x, y, 0.1 * x * x + 0.02 * y * y + 0.03 * x * y))
            .collect();
        let q = fit_paraboloid(&points);
        assert!(
            (q.a - 0.1).abs() < 1e-12 && (q.b - 0.02).abs() < 1e-12,
            "{q:?}"
        );
        assert!((q.c - 0.03).abs() < 1e-12, "{q:?}");
    }

    #[test]
    fn points_off_the_origin_fit_a_different_surface() {
        // GraspIt's fit passes through the body's origin: a flat face 40 mm off it, seen
        // from the contact frame turned only, has no quadric through the origin to fit but a
        // tilted bowl; the fit is then what its least squares make of it, not flat.
        let face: Vec<Vector3<f64>> = [
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 1.0),
            (1.0, 1.0),
            (0.5, 0.2),
        ]
        .iter()
        .map(|&(x, y)| Vector3::new(x, y, 40.0))
        .collect();
        let q = fit_paraboloid(&face);
        assert!(q.a.abs() + q.b.abs() > 1.0, "{q:?}");
    }

    #[test]
    fn principal_radii_follow_rotate_paraboloid() {
        let ([r1, r2], theta) = principal_radii(&Quadric {
            a: 0.1,
            b: 0.0,
            c: 0.0,
        });
        assert_eq!((r1, r2, theta), (5.0, -1.0, 0.0));
        // z = x·y has curvatures ±1 along the diagonals, but a = b sends GraspIt to θ = 90°,
        // where both read flat: its quirk, kept.
        let ([r1, r2], theta) = principal_radii(&Quadric {
            a: 0.0,
            b: 0.0,
            c: 1.0,
        });
        assert_eq!((r1, r2), (-1.0, -1.0));
        assert!(
            (theta - std::f64::consts::FRAC_PI_2).abs() < 1e-12,
            "{theta}"
        );
        // z = x·y + 0.1·x²: θ = atan(1/−0.1)/2, the curvatures of the turned axes.
        let q = Quadric {
            a: 0.1,
            b: 0.0,
            c: 1.0,
        };
        let ([r1, r2], theta) = principal_radii(&q);
        let (s, c) = theta.sin_cos();
        let k1 = 2.0 * (q.a * c * c + q.b * s * s - q.c * s * c);
        let k2 = 2.0 * (q.a * s * s + q.b * c * c + q.c * s * c);
        assert!((r1 - 1.0 / k1).abs() < 1e-12, "{r1}");
        assert!((r2 - 1.0 / k2).abs() < 1e-12, "{r2}");
    }

    #[test]
    fn two_spheres_get_graspits_relative_radii() {
        // Two spheres of 10 mm: A+B = 0.2, A−B = 0, both radii 1/(A+B) = 5.
        let radii = relative_radii([10.0, 10.0], [10.0, 10.0], 0.3).unwrap();
        assert!(radii.iter().all(|r| (r - 5.0).abs() < 1e-12), "{radii:?}");
        // A cylinder of 10 mm on a flat face: A+B = A−B = 0.05, so 1/(A+B) = 10 and the
        // other radius is GraspIt's 20 mm.
        let radii = relative_radii([10.0, -1.0], [-1.0, -1.0], 0.0).unwrap();
        assert!(
            (radii[0] - 10.0).abs() < 1e-12 && radii[1] == FLAT_RADIUS,
            "{radii:?}"
        );
        // Both flat: 20 and 20.
        assert_eq!(
            relative_radii([-1.0, -1.0], [-1.0, -1.0], 0.0).unwrap(),
            [FLAT_RADIUS; 2]
        );
    }
}
