//! Inventor's primitive shapes as triangles, laid out as Coin tessellates them at its default
//! complexity (0.5): cylinders and cones with 20 sides, spheres with 15 slices and 15 stacks,
//! cubes as 12 triangles. All are centred on the origin; cylinders and cones stand along +y.
//! Triangles wind counter-clockwise seen from outside.

use std::f64::consts::PI;

use clasp_collide::TriMesh;
use nalgebra::{Point3, Vector3};

use crate::mesh_builder::MeshBuilder;

/// Sides of cylinders and cones at Coin's default complexity: int(40 · 0.5).
pub(crate) const ROUND_SIDES: usize = 20;
/// Slices and stacks of spheres at Coin's default complexity: int(30 · 0.5).
pub(crate) const SPHERE_DIVISIONS: usize = 15;

pub(crate) type Triangle = [Point3<f64>; 3];

/// Which parts of a cylinder or cone to make (Inventor's `parts` field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Parts {
    pub sides: bool,
    pub top: bool,
    pub bottom: bool,
}

impl Parts {
    pub const ALL: Parts = Parts {
        sides: true,
        top: true,
        bottom: true,
    };

    /// Reads `SIDES|TOP|BOTTOM|ALL`; unknown flags are ignored.
    pub fn from_mask(mask: &str) -> Parts {
        let flags: Vec<&str> = mask.split('|').map(str::trim).collect();
        let has = |f: &str| flags.contains(&f) || flags.contains(&"ALL");
        Parts {
            sides: has("SIDES"),
            top: has("TOP"),
            bottom: has("BOTTOM"),
        }
    }
}

/// Coin's ring: point i at angle 2πi/n, (−sin·r, y, −cos·r).
fn ring(radius: f64, y: f64, sides: usize) -> Vec<Point3<f64>> {
    (0..sides)
        .map(|i| {
            let angle = 2.0 * PI * i as f64 / sides as f64;
            Point3::new(-angle.sin() * radius, y, -angle.cos() * radius)
        })
        .collect()
}

/// A box with the given full extents along x, y and z.
pub(crate) fn cube(width: f64, height: f64, depth: f64) -> Vec<Triangle> {
    let (x, y, z) = (width / 2.0, height / 2.0, depth / 2.0);
    let corner = |i: usize| {
        Point3::new(
            if i & 1 == 0 { x } else { -x },
            if i & 2 == 0 { y } else { -y },
            if i & 4 == 0 { z } else { -z },
        )
    };
    // Coin's quads (+z, -x, -z, +x, +y, -y), counter-clockwise from outside.
    const FACES: [[usize; 4]; 6] = [
        [0, 1, 3, 2],
        [1, 5, 7, 3],
        [5, 4, 6, 7],
        [4, 0, 2, 6],
        [4, 5, 1, 0],
        [2, 3, 7, 6],
    ];
    FACES
        .iter()
        .flat_map(|&[a, b, c, d]| {
            [
                [corner(a), corner(b), corner(c)],
                [corner(a), corner(c), corner(d)],
            ]
        })
        .collect()
}

pub(crate) fn cylinder(radius: f64, height: f64, parts: Parts) -> Vec<Triangle> {
    let h = height / 2.0;
    let bottom = ring(radius, -h, ROUND_SIDES);
    let top = ring(radius, h, ROUND_SIDES);
    let mut triangles = Vec::new();
    for i in 0..ROUND_SIDES {
        let j = (i + 1) % ROUND_SIDES;
        if parts.sides {
            triangles.push([top[i], bottom[i], bottom[j]]);
            triangles.push([top[i], bottom[j], top[j]]);
        }
        if parts.top && j != 0 && i != 0 {
            triangles.push([top[0], top[i], top[j]]);
        }
    }
    if parts.bottom {
        triangles.extend(bottom_fan(&bottom));
    }
    triangles
}

/// Coin fans the bottom from the ring's last point, walking the ring backwards.
fn bottom_fan(ring: &[Point3<f64>]) -> impl Iterator<Item = Triangle> + '_ {
    let last = ring.len() - 1;
    (1..last)
        .rev()
        .map(move |i| [ring[last], ring[i], ring[i - 1]])
}

pub(crate) fn cone(bottom_radius: f64, height: f64, parts: Parts) -> Vec<Triangle> {
    let h = height / 2.0;
    let apex = Point3::new(0.0, h, 0.0);
    let base = ring(bottom_radius, -h, ROUND_SIDES);
    let mut triangles = Vec::new();
    for i in 0..ROUND_SIDES {
        let j = (i + 1) % ROUND_SIDES;
        if parts.sides {
            triangles.push([apex, base[i], base[j]]);
        }
    }
    if parts.bottom {
        triangles.extend(bottom_fan(&base));
    }
    triangles
}

/// Coin's sphere: poles on ±y and `stacks − 2` rings between them, `slices` points each.
pub(crate) fn sphere(radius: f64) -> Vec<Triangle> {
    let step = PI / (SPHERE_DIVISIONS - 1) as f64;
    let rings: Vec<Vec<Point3<f64>>> = (1..SPHERE_DIVISIONS - 1)
        .map(|k| latitude(radius, k as f64 * step, 0.0))
        .collect();
    between_poles(
        Point3::new(0.0, radius, 0.0),
        &rings,
        Point3::new(0.0, -radius, 0.0),
    )
}

/// A capsule: a cylinder of `half_length` each side of the origin along y, capped by
/// hemispheres, laid out as [`sphere`] is (15 slices; 7 bands per hemisphere), so it is closed.
pub(crate) fn capsule(radius: f64, half_length: f64) -> Vec<Triangle> {
    let bands = (SPHERE_DIVISIONS - 1) / 2;
    let step = PI / 2.0 / bands as f64;
    // From the north pole's first ring down to the equator, then from the equator down.
    let upper = (1..=bands).map(|k| (k as f64 * step, half_length));
    let lower = (0..bands).map(|k| (PI / 2.0 + k as f64 * step, -half_length));
    let rings: Vec<Vec<Point3<f64>>> = upper
        .chain(lower)
        .map(|(rho, shift)| latitude(radius, rho, shift))
        .collect();
    between_poles(
        Point3::new(0.0, half_length + radius, 0.0),
        &rings,
        Point3::new(0.0, -half_length - radius, 0.0),
    )
}

/// A sphere's ring at polar angle `rho` from +y, moved `shift` along y: Coin's slices, the
/// first at (0, y, −r sin ρ), turning towards −x.
fn latitude(radius: f64, rho: f64, shift: f64) -> Vec<Point3<f64>> {
    let (sin_rho, cos_rho) = rho.sin_cos();
    (0..SPHERE_DIVISIONS)
        .map(|j| {
            let theta = 2.0 * PI * j as f64 / SPHERE_DIVISIONS as f64;
            Point3::new(
                -theta.sin() * sin_rho * radius,
                cos_rho * radius + shift,
                -theta.cos() * sin_rho * radius,
            )
        })
        .collect()
}

/// Fans from the north pole to the first ring, bands between rings, a fan from the last ring to
/// the south pole: a closed surface, wound outward.
fn between_poles(
    north: Point3<f64>,
    rings: &[Vec<Point3<f64>>],
    south: Point3<f64>,
) -> Vec<Triangle> {
    let mut triangles = Vec::new();
    let last = rings.len() - 1;
    for j in 0..SPHERE_DIVISIONS {
        let k = (j + 1) % SPHERE_DIVISIONS;
        triangles.push([north, rings[0][j], rings[0][k]]);
        for band in 0..last {
            let (upper, lower) = (&rings[band], &rings[band + 1]);
            triangles.push([upper[j], lower[j], lower[k]]);
            triangles.push([upper[j], lower[k], upper[k]]);
        }
        triangles.push([rings[last][j], south, rings[last][k]]);
    }
    triangles
}

/// A primitive tessellated as GraspIt's Inventor primitives are (Coin's layout, 20 sides,
/// 15 × 15 spheres); round ones are turned so that their axis, Coin's +y, is URDF's and MuJoCo's +z.
pub(crate) fn primitive_mesh(
    triangles: &[Triangle],
    y_to_z: bool,
) -> Result<TriMesh, clasp_collide::MeshError> {
    let angle = if y_to_z {
        std::f64::consts::FRAC_PI_2
    } else {
        0.0
    };
    let turn = nalgebra::Rotation3::from_axis_angle(&Vector3::x_axis(), angle);
    let mut builder = MeshBuilder::new();
    for triangle in triangles {
        let corners = triangle.map(|p| builder.vertex(turn * p));
        builder.triangle(corners);
    }
    builder.into_mesh()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mesh(triangles: &[Triangle]) -> TriMesh {
        let mut builder = MeshBuilder::new();
        for t in triangles {
            let corners = t.map(|p| builder.vertex(p));
            builder.triangle(corners);
        }
        builder.finish(std::path::Path::new("primitive")).unwrap()
    }

    #[test]
    fn primitives_are_closed_outward_and_counted_as_coin_makes_them() {
        let cases = [
            ("cube", cube(2.0, 4.0, 6.0), 12, 48.0),
            ("cylinder", cylinder(1.0, 2.0, Parts::ALL), 40 + 2 * 18, 0.0),
            ("cone", cone(1.0, 2.0, Parts::ALL), 20 + 18, 0.0),
            ("sphere", sphere(1.0), 2 * 15 + 2 * 15 * 12, 0.0),
            ("capsule", capsule(1.0, 2.0), 2 * 15 + 2 * 15 * 13, 0.0),
        ];
        for (name, triangles, count, exact_volume) in cases {
            assert_eq!(triangles.len(), count, "{name}");
            let mesh = mesh(&triangles);
            assert!(mesh.is_closed(), "{name}");
            let v = mesh.signed_volume();
            assert!(v > 0.0, "{name} faces inward");
            if exact_volume > 0.0 {
                assert!((v - exact_volume).abs() < 1e-12, "{name}: {v}");
            }
        }
        // A 20-gon prism of radius 1 and height 2: 20 · sin(2π/20) · 1 ... = 2 · 10 · sin(18°).
        let prism = 2.0 * 10.0 * (2.0 * PI / 20.0).sin();
        assert!((mesh(&cylinder(1.0, 2.0, Parts::ALL)).signed_volume() - prism).abs() < 1e-12);
    }

    #[test]
    fn parts_leave_caps_out() {
        let open = cylinder(1.0, 2.0, Parts::from_mask("SIDES"));
        assert_eq!(open.len(), 40);
        assert!(!mesh(&open).is_closed());
        assert_eq!(Parts::from_mask("ALL"), Parts::ALL);
        assert_eq!(cone(1.0, 2.0, Parts::from_mask("BOTTOM")).len(), 18);
    }

    #[test]
    fn the_first_ring_point_is_coins() {
        // Coin starts its rings at (0, y, -r) and turns towards -x.
        let triangles = cylinder(2.0, 2.0, Parts::ALL);
        assert!((triangles[0][0] - Point3::new(0.0, 1.0, -2.0)).norm() < 1e-12);
        let second = ring(2.0, 0.0, 20)[1];
        assert!(second.x < 0.0 && second.z < 0.0);
    }
}
