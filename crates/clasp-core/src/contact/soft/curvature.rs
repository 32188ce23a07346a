//! The surfaces at a contact: the quadric fitted round it, its principal curvatures, and the
//! relative radii of two touching surfaces.

use super::fallback::{SoftFallback, finite};

/// Relative radius (mm) given to a contact whose relative curvature is flat or conforming.
///
/// GraspIt uses 20 mm for flat contacts; without a cap, two flat faces (or a ball in a socket
/// of nearly its own radius) would have an infinite relative radius and an unbounded contact
/// area.
pub const FLAT_RADIUS: f64 = 20.0;

/// A curvature (1/mm) at or below this magnitude counts as flat: its radius is over a kilometre.
pub const FLAT_CURVATURE: f64 = 1e-6;

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

impl Quadric {
    /// The surface's height (mm, into the body) above the tangent plane at (x, y) in the
    /// contact frame, or [`SoftFallback::NonFinite`] when the quadric or (x, y) is not finite.
    pub fn height(&self, x: f64, y: f64) -> Result<f64, SoftFallback> {
        finite(self.raw_height(x, y))
    }

    /// The height without checks, for the module's own validated values.
    pub(super) fn raw_height(&self, x: f64, y: f64) -> f64 {
        self.a * x * x + self.b * y * y + self.c * x * y
    }

    pub(super) fn is_finite(&self) -> bool {
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

#[cfg(test)]
mod tests {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

    use nalgebra::Matrix2;

    use super::*;
    use crate::contact::soft::test_support::close;

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
}
