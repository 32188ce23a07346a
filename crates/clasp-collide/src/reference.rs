//! The brute-force reference: every triangle pair, in f64. Slow by design; it is the oracle the
//! fast engine is tested against. It works in the first body's frame, as the fast engine does,
//! so that both see the very same numbers for every triangle pair.

use std::collections::BTreeSet;

use nalgebra::{Isometry3, Vector3};

use crate::{
    engine::{
        CollisionEngine, Interpenetrating, MeshContact, PointDistance, Separation, TrianglePair,
        in_region, region_points,
    },
    geometry::{Placed, b_in_a},
    triangle::{
        Point, Triangle, closest_point_on_triangle, push_triangle_contacts,
        triangle_closest_points, triangles_intersect,
    },
};

/// Checks every triangle pair; no tree, no shortcut.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReferenceEngine;

/// Both bodies' triangles in the first body's frame, and the transform taking the second
/// body's frame there.
fn triangles_in_a(a: &Placed, b: &Placed) -> (Vec<Triangle>, Vec<Triangle>, Isometry3<f64>) {
    let local = |p: &Placed| -> Vec<Triangle> {
        (0..p.mesh().triangles().len())
            .map(|t| p.mesh().triangle_points(t))
            .collect()
    };
    let moved = b_in_a(a, b);
    let tb = local(b).into_iter().map(|t| t.map(|p| moved * p)).collect();
    (local(a), tb, moved)
}

fn surfaces_cross(ta: &[Triangle], tb: &[Triangle]) -> bool {
    ta.iter()
        .any(|t1| tb.iter().any(|t2| triangles_intersect(t1, t2)))
}

/// Whether the surface `inner` lies inside the closed mesh `outer`, given that the surfaces do
/// not cross: then one corner decides for all.
fn nested(outer: &[Triangle], outer_closed: bool, inner: &[Triangle]) -> bool {
    outer_closed
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

fn interpenetrate(a: &Placed, b: &Placed, ta: &[Triangle], tb: &[Triangle]) -> bool {
    surfaces_cross(ta, tb)
        || nested(ta, a.mesh().is_closed(), tb)
        || nested(tb, b.mesh().is_closed(), ta)
}

impl CollisionEngine for ReferenceEngine {
    fn collide(&self, a: Placed, b: Placed) -> bool {
        let (ta, tb, _) = triangles_in_a(&a, &b);
        interpenetrate(&a, &b, &ta, &tb)
    }

    fn contacts(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
    ) -> Result<Vec<MeshContact>, Interpenetrating> {
        let (ta, tb, moved) = triangles_in_a(&a, &b);
        if interpenetrate(&a, &b, &ta, &tb) {
            return Err(Interpenetrating);
        }
        let mut out = Vec::new();
        let mut pairs = Vec::new();
        for (i, t1) in ta.iter().enumerate() {
            for (j, t2) in tb.iter().enumerate() {
                pairs.clear();
                push_triangle_contacts(t1, t2, threshold, &mut pairs);
                out.extend(
                    pairs
                        .iter()
                        .filter_map(|(pa, pb)| MeshContact::from_points_in_a(i, j, pa, pb, &moved)),
                );
            }
        }
        Ok(out)
    }

    fn distance(&self, a: Placed, b: Placed) -> Result<Separation, Interpenetrating> {
        if let Some(apart) = Separation::with_empty(&a, &b) {
            return Ok(apart);
        }
        let (ta, tb, moved) = triangles_in_a(&a, &b);
        if interpenetrate(&a, &b, &ta, &tb) {
            return Err(Interpenetrating);
        }
        let (pa, pb, triangles) = ta
            .iter()
            .enumerate()
            .flat_map(|(i, t1)| {
                tb.iter().enumerate().filter_map(move |(j, t2)| {
                    let (pa, pb) = triangle_closest_points(t1, t2)?;
                    let (a, b) = (i as u32, j as u32);
                    Some((pa, pb, TrianglePair { a, b }))
                })
            })
            .min_by(|(a1, b1, _), (a2, b2, _)| {
                (a1 - b1)
                    .norm_squared()
                    .total_cmp(&(a2 - b2).norm_squared())
            })
            .ok_or(Interpenetrating)?;
        Ok(Separation {
            distance: (pa - pb).norm(),
            point_a: pa,
            point_b: moved.inverse_transform_point(&pb),
            triangles,
        })
    }

    fn point_distance(&self, body: Placed, point: &Point) -> PointDistance {
        let p = body.pose.inverse_transform_point(point);
        let nearest = (0..body.mesh().triangles().len())
            .map(|t| {
                (
                    t,
                    closest_point_on_triangle(&p, &body.mesh().triangle_points(t)),
                )
            })
            .min_by(|(_, x), (_, y)| (x - p).norm_squared().total_cmp(&(y - p).norm_squared()));
        let Some((triangle, closest)) = nearest else {
            // No triangles: as the fast engine answers, infinitely far, at the point itself.
            return PointDistance {
                distance: f64::INFINITY,
                closest: *point,
                triangle: 0,
            };
        };
        PointDistance {
            distance: (closest - p).norm(),
            closest: body.pose * closest,
            triangle,
        }
    }

    fn region(
        &self,
        body: Placed,
        point: &Point,
        normal: &Vector3<f64>,
        radius: f64,
    ) -> Vec<Point> {
        let mesh = body.mesh();
        let mut vertices = BTreeSet::new();
        for (t, corners) in mesh.triangles().iter().enumerate() {
            if in_region(mesh, t, point, normal, radius) {
                vertices.extend(corners);
            }
        }
        region_points(mesh, vertices)
    }
}
