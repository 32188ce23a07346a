//! Fitting a quadric to the surface round a contact: how wide a neighbourhood is fitted, and
//! when its points are no smooth surface (an edge, a corner, too few or degenerate points).

use nalgebra::{Matrix3, Point3, Vector3};

use super::{
    curvature::Quadric,
    fallback::{MIN_FIT_POINTS, SoftFallback},
};

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

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;
    use crate::contact::soft::test_support::close;

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
    fn neighbourhood_radius_follows_graspit_and_is_clamped() {
        assert!(close(neighbourhood_radius(1.5e6), 3.494, 1e-3));
        assert_eq!(neighbourhood_radius(1e9), 3.0);
        assert_eq!(neighbourhood_radius(1e3), 10.0);
        assert_eq!(neighbourhood_radius(f64::NAN), 5.0);
        assert_eq!(neighbourhood_radius(-2.0), 5.0);
        assert_eq!(neighbourhood_radius(0.0), 5.0);
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
