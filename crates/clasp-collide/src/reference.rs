//! The brute-force reference: every triangle pair, in f64, in world coordinates. Slow by design;
//! it is the oracle the fast engine is tested against.

use nalgebra::{Isometry3, Vector3};

use crate::{
    TriMesh,
    triangle::{Point, Triangle, triangle_closest_points, triangle_contacts, triangles_intersect},
};

/// A mesh at a pose in the world.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub mesh: &'a TriMesh,
    pub pose: &'a Isometry3<f64>,
}

impl Placed<'_> {
    fn world_triangles(&self) -> Vec<Triangle> {
        let world: Vec<Point> = self.mesh.vertices().iter().map(|v| self.pose * v).collect();
        self.mesh
            .triangles()
            .iter()
            .map(|t| t.map(|i| world[i as usize]))
            .collect()
    }
}

/// Two bodies interpenetrate: their surfaces cross, or a closed one holds the other inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the bodies interpenetrate")]
pub struct Interpenetrating;

/// The closest points of two separate bodies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Separation {
    pub distance: f64,
    /// The closest point of the first body, in its own frame.
    pub point_a: Point,
    /// The closest point of the second body, in its own frame.
    pub point_b: Point,
}

/// A point pair of two bodies closer than the contact threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    pub triangle_a: usize,
    pub triangle_b: usize,
    /// The point on the first body, in its own frame.
    pub point_a: Point,
    /// The point on the second body, in its own frame.
    pub point_b: Point,
    /// Unit vector from the second body's point to the first's, in the first body's frame:
    /// GraspIt's `b1_normal`, pointing into the first body. The second body's is its opposite.
    pub normal_a: Vector3<f64>,
    /// Distance between the two points, in millimetres.
    pub separation: f64,
}

/// Whether the bodies interpenetrate.
pub fn collide(a: Placed, b: Placed) -> bool {
    let (ta, tb) = (a.world_triangles(), b.world_triangles());
    surfaces_cross(&ta, &tb) || nested(&ta, a.mesh, &tb) || nested(&tb, b.mesh, &ta)
}

fn surfaces_cross(ta: &[Triangle], tb: &[Triangle]) -> bool {
    ta.iter()
        .any(|t1| tb.iter().any(|t2| triangles_intersect(t1, t2)))
}

/// Whether the surface `inner` lies inside the closed mesh `outer`, given that the surfaces do
/// not cross: then one corner decides for all.
fn nested(outer: &[Triangle], outer_mesh: &TriMesh, inner: &[Triangle]) -> bool {
    outer_mesh.is_closed()
        && inner
            .first()
            .is_some_and(|t| winding_number(outer, &t[0]).abs() > 0.5)
}

/// How many times a closed surface winds round a point: 1 inside (±, by orientation), 0 outside.
/// The sum of the solid angles the triangles subtend, which needs no ray and no tie-breaking.
fn winding_number(triangles: &[Triangle], p: &Point) -> f64 {
    let total: f64 = triangles
        .iter()
        .map(|[a, b, c]| {
            let (a, b, c) = (a - p, b - p, c - p);
            let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
            let numerator = a.dot(&b.cross(&c));
            let denominator = la * lb * lc + a.dot(&b) * lc + a.dot(&c) * lb + b.dot(&c) * la;
            2.0 * numerator.atan2(denominator)
        })
        .sum();
    total / (4.0 * std::f64::consts::PI)
}

/// The minimum distance between two separate bodies with the closest points.
pub fn distance(a: Placed, b: Placed) -> Result<Separation, Interpenetrating> {
    if collide(a, b) {
        return Err(Interpenetrating);
    }
    let (ta, tb) = (a.world_triangles(), b.world_triangles());
    let (pa, pb) = ta
        .iter()
        .flat_map(|t1| {
            tb.iter()
                .filter_map(move |t2| triangle_closest_points(t1, t2))
        })
        .min_by(|(a1, b1), (a2, b2)| {
            (a1 - b1)
                .norm_squared()
                .total_cmp(&(a2 - b2).norm_squared())
        })
        .ok_or(Interpenetrating)?;
    Ok(Separation {
        distance: (pa - pb).norm(),
        point_a: a.pose.inverse_transform_point(&pa),
        point_b: b.pose.inverse_transform_point(&pb),
    })
}

/// Every point pair closer than `threshold` (millimetres) between two separate bodies.
pub fn contacts(a: Placed, b: Placed, threshold: f64) -> Result<Vec<Contact>, Interpenetrating> {
    if collide(a, b) {
        return Err(Interpenetrating);
    }
    let (ta, tb) = (a.world_triangles(), b.world_triangles());
    let mut out = Vec::new();
    for (i, t1) in ta.iter().enumerate() {
        for (j, t2) in tb.iter().enumerate() {
            for (pa, pb) in triangle_contacts(t1, t2, threshold).ok_or(Interpenetrating)? {
                let separation = (pa - pb).norm();
                let Some(direction) = (pa - pb).try_normalize(0.0) else {
                    continue;
                };
                out.push(Contact {
                    triangle_a: i,
                    triangle_b: j,
                    point_a: a.pose.inverse_transform_point(&pa),
                    point_b: b.pose.inverse_transform_point(&pb),
                    normal_a: a.pose.inverse_transform_vector(&direction),
                    separation,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use nalgebra::Translation3;

    use super::*;

    /// An axis-aligned box from `lo` to `hi`, wound outward.
    fn cuboid(lo: [f64; 3], hi: [f64; 3]) -> TriMesh {
        let corner = |i: usize| {
            Point::new(
                if i & 1 == 1 { hi[0] } else { lo[0] },
                if i & 2 == 2 { hi[1] } else { lo[1] },
                if i & 4 == 4 { hi[2] } else { lo[2] },
            )
        };
        let quads = [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ];
        let triangles = quads
            .iter()
            .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
            .collect();
        TriMesh::new((0..8).map(corner).collect(), triangles).unwrap()
    }

    fn at(x: f64, y: f64, z: f64) -> Isometry3<f64> {
        Isometry3::from_parts(
            Translation3::new(x, y, z),
            nalgebra::UnitQuaternion::identity(),
        )
    }

    #[test]
    fn boxes_apart_touching_and_overlapping() {
        let cube = cuboid([0.0; 3], [10.0; 3]);
        assert!(cube.is_closed());
        let origin = at(0.0, 0.0, 0.0);
        let a = Placed {
            mesh: &cube,
            pose: &origin,
        };
        for (gap, colliding) in [(0.05, false), (1.0, false), (0.0, true), (-0.5, true)] {
            let pose = at(0.0, 0.0, 10.0 + gap);
            let b = Placed {
                mesh: &cube,
                pose: &pose,
            };
            assert_eq!(collide(a, b), colliding, "gap {gap}");
            match distance(a, b) {
                Ok(s) => {
                    assert!((s.distance - gap).abs() < 1e-9, "gap {gap}: {s:?}");
                    assert!((s.point_a.z - 10.0).abs() < 1e-9 && s.point_b.z.abs() < 1e-9);
                }
                Err(Interpenetrating) => assert!(colliding, "gap {gap}"),
            }
        }
    }

    #[test]
    fn a_box_inside_a_closed_box_collides_but_not_inside_an_open_one() {
        let big = cuboid([0.0; 3], [100.0; 3]);
        let small = cuboid([0.0; 3], [10.0; 3]);
        let (origin, middle) = (at(0.0, 0.0, 0.0), at(45.0, 45.0, 45.0));
        let outer = Placed {
            mesh: &big,
            pose: &origin,
        };
        let inner = Placed {
            mesh: &small,
            pose: &middle,
        };
        assert!(collide(outer, inner));
        assert!(collide(inner, outer), "either order");
        assert_eq!(distance(outer, inner), Err(Interpenetrating));

        // Without its lid the big box has no inside.
        let open = TriMesh::new(big.vertices().to_vec(), big.triangles()[..10].to_vec()).unwrap();
        assert!(!open.is_closed());
        assert!(!collide(
            Placed {
                mesh: &open,
                pose: &origin
            },
            inner
        ));
    }

    #[test]
    fn face_to_face_contacts_lie_on_both_faces_with_graspits_normal() {
        let cube = cuboid([0.0; 3], [10.0; 3]);
        let (below, above) = (at(0.0, 0.0, 0.0), at(3.0, 2.0, 10.05));
        let a = Placed {
            mesh: &cube,
            pose: &above,
        };
        let b = Placed {
            mesh: &cube,
            pose: &below,
        };
        let found = contacts(a, b, 0.1).unwrap();
        assert!(!found.is_empty());
        for c in &found {
            assert!((c.separation - 0.05).abs() < 1e-9, "{c:?}");
            assert!(
                c.point_a.z.abs() < 1e-9 && (c.point_b.z - 10.0).abs() < 1e-9,
                "{c:?}"
            );
            assert!(
                (c.normal_a - Vector3::z()).norm() < 1e-9,
                "into the upper body: {c:?}"
            );
        }
        assert!(
            contacts(a, b, 0.04).unwrap().is_empty(),
            "the threshold is strict"
        );
        let touching = at(0.0, 0.0, 10.0);
        assert_eq!(
            contacts(
                Placed {
                    mesh: &cube,
                    pose: &touching
                },
                b,
                0.1
            ),
            Err(Interpenetrating)
        );
    }
}
