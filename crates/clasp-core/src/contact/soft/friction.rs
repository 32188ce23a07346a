//! What a soft contact transmits: its area under GraspIt's mattress model, the torsion that
//! area carries, and the friction edges of its wrench space (a soft contact's ellipsoid, a point
//! contact's pyramid).

use super::fallback::{SoftFallback, finite, positive};

/// The normal force (N) at which GraspIt sizes a soft contact's area for its statics.
pub const DEFAULT_NORMAL_FORCE: f64 = 5.0;

/// How many friction edges a point contact's friction pyramid has (GraspIt's count).
pub const POINT_CONTACT_EDGES: usize = 8;

/// GraspIt's mattress thickness (m): the depth of the soft layer that the mattress model
/// compresses.
const MATTRESS_THICKNESS_M: f64 = 0.003;

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

/// The contact area of a soft contact under a normal force: GraspIt's CalcContact_Mattress.
///
/// The soft body is a mattress of thickness h = 3 mm whose springs push back in proportion to
/// their compression; with the relative radii r1, r2 (in metres) the indentation is
/// δ = √(N·h / (E·π·√(r1·r2))), the semi-axes are a = √(2δ·r1) and b = √(2δ·r2), and the
/// largest torsional moment per unit normal force and friction coefficient is 8·√(a·b)/15
/// (the mattress's pressure integrated over the ellipse). All lengths are returned in mm.
///
/// `normal_force` in newtons (GraspIt sizes contacts at [`DEFAULT_NORMAL_FORCE`]),
/// `youngs_pa` the soft body's modulus, `radii_mm` from
/// [`relative_radii`](super::curvature::relative_radii). Each must be a positive finite number.
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

#[cfg(test)]
mod tests {
    use std::f64::consts::PI;

    use super::*;
    use crate::contact::soft::test_support::close;

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
}
