//! Closed, outward-wound meshes made from a few numbers, for tests and benchmarks: boxes with
//! subdivided faces, tori, bumpy spheres and capsules. Deterministic: the same arguments give
//! the same mesh.

use std::collections::HashMap;
use std::f64::consts::{PI, TAU};

use nalgebra::{Point3, Vector3};

use crate::mesh::TriMesh;

fn mesh(vertices: Vec<Point3<f64>>, triangles: Vec<[u32; 3]>) -> TriMesh {
    TriMesh::new(vertices, triangles).expect("generated meshes are valid")
}

/// A box from `lo` to `hi` with each face cut into `n × n` squares (two triangles each): large
/// flat regions where face-to-face contact brings many contact points.
pub fn subdivided_box(lo: [f64; 3], hi: [f64; 3], n: usize) -> TriMesh {
    let n = n.max(1);
    let mut vertices: Vec<Point3<f64>> = Vec::new();
    let mut index: HashMap<[usize; 3], u32> = HashMap::new();
    let mut at = |g: [usize; 3]| -> u32 {
        *index.entry(g).or_insert_with(|| {
            let c = |k: usize| lo[k] + (hi[k] - lo[k]) * g[k] as f64 / n as f64;
            vertices.push(Point3::new(c(0), c(1), c(2)));
            (vertices.len() - 1) as u32
        })
    };
    let mut triangles = Vec::new();
    // Each face: the fixed axis, its side, and the two axes spanning it in right-handed order.
    for (axis, u, v) in [(0, 1, 2), (1, 2, 0), (2, 0, 1)] {
        for side in [0, n] {
            for i in 0..n {
                for j in 0..n {
                    let grid = |di: usize, dj: usize| {
                        let mut g = [0; 3];
                        g[axis] = side;
                        g[u] = i + di;
                        g[v] = j + dj;
                        g
                    };
                    let [a, b, c, d] =
                        [grid(0, 0), grid(1, 0), grid(1, 1), grid(0, 1)].map(&mut at);
                    if side == n {
                        triangles.extend([[a, b, c], [a, c, d]]);
                    } else {
                        triangles.extend([[a, c, b], [a, d, c]]);
                    }
                }
            }
        }
    }
    mesh(vertices, triangles)
}

/// A box from `lo` to `hi`, two triangles a face.
pub fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> TriMesh {
    subdivided_box(lo, hi, 1)
}

/// A torus round the z axis: ring radius `ring`, tube radius `tube`, `u` steps round the ring
/// and `v` round the tube, `2·u·v` triangles.
pub fn torus(ring: f64, tube: f64, u: usize, v: usize) -> TriMesh {
    let mut vertices = Vec::with_capacity(u * v);
    for i in 0..u {
        let a = TAU * i as f64 / u as f64;
        for j in 0..v {
            let b = TAU * j as f64 / v as f64;
            let r = ring + tube * b.cos();
            vertices.push(Point3::new(r * a.cos(), r * a.sin(), tube * b.sin()));
        }
    }
    let at = |i: usize, j: usize| ((i % u) * v + j % v) as u32;
    let mut triangles = Vec::with_capacity(2 * u * v);
    for i in 0..u {
        for j in 0..v {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            triangles.extend([[a, b, c], [a, c, d]]);
        }
    }
    mesh(vertices, triangles)
}

/// An icosphere of `radius` subdivided `levels` times (`20·4^levels` triangles), its radius
/// varied by `bump(direction)` so that no two contacts look alike.
pub fn bumpy_sphere(radius: f64, levels: u32, bump: impl Fn(&Vector3<f64>) -> f64) -> TriMesh {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let mut directions: Vec<Vector3<f64>> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vector3::new(x, y, z).normalize())
    .collect();
    let mut triangles: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut middle: HashMap<(u32, u32), u32> = HashMap::new();
        let mut split = |a: u32, b: u32| -> u32 {
            *middle.entry((a.min(b), a.max(b))).or_insert_with(|| {
                directions.push((directions[a as usize] + directions[b as usize]).normalize());
                (directions.len() - 1) as u32
            })
        };
        triangles = triangles
            .iter()
            .flat_map(|&[a, b, c]| {
                let (ab, bc, ca) = (split(a, b), split(b, c), split(c, a));
                [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
            })
            .collect();
    }
    let vertices = directions
        .iter()
        .map(|d| Point3::from(d * (radius + bump(d))))
        .collect();
    mesh(vertices, triangles)
}

/// Smooth low-frequency bumps of about ±`height`, for [`bumpy_sphere`].
pub fn gentle_bumps(height: f64) -> impl Fn(&Vector3<f64>) -> f64 {
    move |d: &Vector3<f64>| {
        height / 3.0
            * ((3.0 * d.x + 1.0).sin()
                + (2.0 * d.y - 0.5).cos() * (4.0 * d.z).sin()
                + (5.0 * d.z + 2.0 * d.x).sin())
    }
}

/// A capsule along z from 0 to `length`, of `radius`: a cylinder with hemispherical caps,
/// `segments` round and `segments / 2` rings per cap.
pub fn capsule(radius: f64, length: f64, segments: usize) -> TriMesh {
    let segments = segments.max(3);
    let rings = (segments / 4).max(2);
    // Rings from the bottom pole to the top pole: (height, radius) per ring.
    let mut profile = Vec::new();
    for k in 1..rings {
        let a = -PI / 2.0 + PI / 2.0 * k as f64 / rings as f64;
        profile.push((radius * a.sin(), radius * a.cos()));
    }
    for k in 0..rings {
        let a = PI / 2.0 * k as f64 / rings as f64;
        profile.push((length + radius * a.sin(), radius * a.cos()));
    }
    let mut vertices = vec![Point3::new(0.0, 0.0, -radius)];
    for &(z, r) in &profile {
        for s in 0..segments {
            let a = TAU * s as f64 / segments as f64;
            vertices.push(Point3::new(r * a.cos(), r * a.sin(), z));
        }
    }
    vertices.push(Point3::new(0.0, 0.0, length + radius));
    let top = (vertices.len() - 1) as u32;
    let at = |ring: usize, s: usize| (1 + ring * segments + s % segments) as u32;
    let mut triangles = Vec::new();
    for s in 0..segments {
        triangles.push([0, at(0, s + 1), at(0, s)]);
        triangles.push([top, at(profile.len() - 1, s), at(profile.len() - 1, s + 1)]);
    }
    for ring in 0..profile.len() - 1 {
        for s in 0..segments {
            let (a, b, c, d) = (
                at(ring, s),
                at(ring, s + 1),
                at(ring + 1, s + 1),
                at(ring + 1, s),
            );
            triangles.extend([[a, b, c], [a, c, d]]);
        }
    }
    mesh(vertices, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_closed_outward_and_the_right_size() {
        let cube = subdivided_box([0.0; 3], [2.0, 3.0, 4.0], 5);
        assert!(cube.is_closed());
        assert_eq!(cube.triangles().len(), 6 * 25 * 2);
        assert!((cube.signed_volume() - 24.0).abs() < 1e-9);

        let ring = torus(40.0, 15.0, 100, 50);
        assert!(ring.is_closed());
        assert_eq!(ring.triangles().len(), 10_000);
        let exact = 2.0 * PI * PI * 40.0 * 15.0 * 15.0;
        assert!((ring.signed_volume() - exact).abs() / exact < 0.01);

        let ball = bumpy_sphere(50.0, 3, |_| 0.0);
        assert!(ball.is_closed());
        assert_eq!(ball.triangles().len(), 1280);
        let exact = 4.0 / 3.0 * PI * 50f64.powi(3);
        assert!((ball.signed_volume() - exact).abs() / exact < 0.02);

        let finger = capsule(9.0, 30.0, 64);
        assert!(finger.is_closed());
        let exact = PI * 81.0 * 30.0 + 4.0 / 3.0 * PI * 729.0;
        assert!(
            (finger.signed_volume() - exact).abs() / exact < 0.03,
            "{}",
            finger.signed_volume()
        );
    }
}
