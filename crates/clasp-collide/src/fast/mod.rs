//! The fast engine: both bodies' trees walked together (a dual-tree traversal), the pair of
//! nodes with the larger box split first, boxes pruned by the separating-axis test (collide) or
//! a lower bound on their distance (contacts, distance), and triangle pairs settled by the same
//! f64 routines as the reference engine.

mod visitors;
mod walk;

use std::collections::BTreeSet;

use nalgebra::Vector3;

use crate::{
    bvh::Child,
    engine::{
        CollisionEngine, Gap, Interpenetrating, MeshContact, NearTriangles, PointDistance,
        Separation, TrianglePair, in_region, region_points,
    },
    geometry::{Placed, first_corner_inside},
    oriented_box::point_box_distance_squared,
    triangle::{Point, triangle_closest_points, triangles_intersect},
};
use visitors::{
    Closest, Contacts, Crossing, Near, NearPairs, Reach, push_pair_contacts, with_slack,
};
use walk::{Pair, start};

/// The tree-based engine Clasp runs on.
#[derive(Debug, Clone, Copy, Default)]
pub struct FastEngine;

fn nested(a: &Placed, b: &Placed) -> bool {
    first_corner_inside(a, b) || first_corner_inside(b, a)
}

impl CollisionEngine for FastEngine {
    fn collide(&self, a: Placed, b: Placed) -> bool {
        let mut crossing = Crossing::default();
        start(&Pair::new(&a, &b), &mut crossing);
        crossing.found || nested(&a, &b)
    }

    fn contacts(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
    ) -> Result<Vec<MeshContact>, Interpenetrating> {
        let pair = Pair::new(&a, &b);
        let mut contacts = Contacts {
            threshold,
            reach: Reach::new(threshold),
            moved: &pair.moved,
            found: Vec::new(),
            points: Vec::new(),
            crossing: false,
        };
        start(&pair, &mut contacts);
        if contacts.crossing || nested(&a, &b) {
            return Err(Interpenetrating);
        }
        contacts.found.sort_by_key(|c| (c.triangle_a, c.triangle_b));
        Ok(contacts.found)
    }

    fn near_triangles(&self, a: Placed, b: Placed, reach: f64) -> Option<NearTriangles> {
        let mut near = NearPairs {
            reach: Reach::new(reach),
            pairs: Vec::new(),
        };
        start(&Pair::new(&a, &b), &mut near);
        near.pairs.sort_unstable_by_key(|(p, _)| (p.a, p.b));
        let (pairs, gaps) = near.pairs.into_iter().unzip();
        Some(NearTriangles {
            complete_within: near.reach.complete_within(reach),
            pairs,
            gaps,
        })
    }

    fn contacts_among(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
        pairs: &[TrianglePair],
    ) -> Result<Vec<MeshContact>, Interpenetrating> {
        let pair = Pair::new(&a, &b);
        let (mut points, mut found) = (Vec::new(), Vec::new());
        for &TrianglePair { a: i, b: j } in pairs {
            let ta = pair.a.triangle(i);
            let tb = pair.b.triangle(j).map(|p| pair.moved * p);
            let (points, found) = (&mut points, &mut found);
            if !push_pair_contacts((i, j), &ta, &tb, threshold, &pair.moved, points, found) {
                return Err(Interpenetrating);
            }
        }
        if nested(&a, &b) {
            return Err(Interpenetrating);
        }
        Ok(found)
    }

    fn collide_among(&self, a: Placed, b: Placed, pairs: &[TrianglePair]) -> bool {
        let pair = Pair::new(&a, &b);
        pairs.iter().any(|p| {
            let tb = pair.b.triangle(p.b).map(|q| pair.moved * q);
            triangles_intersect(&pair.a.triangle(p.a), &tb)
        }) || nested(&a, &b)
    }

    fn within_among(&self, a: Placed, b: Placed, tolerance: f64, pairs: &[TrianglePair]) -> bool {
        let pair = Pair::new(&a, &b);
        pairs.iter().any(|p| {
            let tb = pair.b.triangle(p.b).map(|q| pair.moved * q);
            triangle_closest_points(&pair.a.triangle(p.a), &tb)
                .is_none_or(|(pa, pb)| (pa - pb).norm_squared() < tolerance * tolerance)
        }) || nested(&a, &b)
    }

    fn distance(&self, a: Placed, b: Placed) -> Result<Separation, Interpenetrating> {
        match self.distance_below(a, b, f64::INFINITY, None, 0.0)? {
            Gap::Closer(separation) => Ok(separation),
            // Only bodies without triangles are infinitely far apart.
            Gap::AtLeast(_) => Separation::with_empty(&a, &b).ok_or(Interpenetrating),
        }
    }

    fn distance_below(
        &self,
        a: Placed,
        b: Placed,
        cutoff: f64,
        seed: Option<TrianglePair>,
        relative_error: f64,
    ) -> Result<Gap, Interpenetrating> {
        if Separation::with_empty(&a, &b).is_some() {
            return Ok(Gap::AtLeast(f64::INFINITY));
        }
        let pair = Pair::new(&a, &b);
        let mut closest = Closest {
            best_squared: cutoff * cutoff,
            best: None,
            crossing: false,
            shrink: (1.0 + relative_error).powi(-2),
        };
        if let Some(TrianglePair { a: i, b: j }) = seed
            && (i as usize) < a.mesh().triangles().len()
            && (j as usize) < b.mesh().triangles().len()
        {
            let tb = pair.b.triangle(j).map(|p| pair.moved * p);
            closest.offer(i, j, &pair.a.triangle(i), &tb, false);
        }
        if !closest.crossing {
            start(&pair, &mut closest);
        }
        if closest.crossing || nested(&a, &b) {
            return Err(Interpenetrating);
        }
        Ok(match closest.best {
            Some((pa, pb, triangles)) => Gap::Closer(Separation {
                distance: (pa - pb).norm(),
                point_a: pa,
                point_b: pair.moved.inverse_transform_point(&pb),
                triangles,
            }),
            None => Gap::AtLeast(cutoff / (1.0 + relative_error)),
        })
    }

    fn within(&self, a: Placed, b: Placed, tolerance: f64) -> bool {
        let mut near = Near {
            tolerance,
            reach: Reach::new(tolerance),
            found: false,
        };
        start(&Pair::new(&a, &b), &mut near);
        near.found || nested(&a, &b)
    }

    fn point_distance(&self, body: Placed, point: &Point) -> PointDistance {
        self.point_distance_below(body, point, f64::INFINITY)
            .unwrap_or(PointDistance {
                distance: f64::INFINITY,
                closest: *point,
                triangle: 0,
            })
    }

    fn point_distance_below(
        &self,
        body: Placed,
        point: &Point,
        cutoff: f64,
    ) -> Option<PointDistance> {
        let p = body.pose.inverse_transform_point(point);
        let (squared, closest, triangle) = body.geometry.point_tree().closest_below(&p, cutoff)?;
        Some(PointDistance {
            distance: squared.sqrt(),
            closest: body.pose * closest,
            triangle,
        })
    }

    fn region(
        &self,
        body: Placed,
        point: &Point,
        normal: &Vector3<f64>,
        radius: f64,
    ) -> Vec<Point> {
        let (geometry, mesh) = (body.geometry, body.mesh());
        let reach = with_slack(radius).powi(2);
        let mut vertices = BTreeSet::new();
        let mut stack: Vec<_> = geometry.tree().root().into_iter().collect();
        while let Some(child) = stack.pop() {
            match child {
                Child::Triangle(t) => {
                    if in_region(mesh, t as usize, point, normal, radius) {
                        vertices.extend(mesh.triangles()[t as usize]);
                    }
                }
                Child::Node(n) => {
                    let node = geometry.tree().node(n);
                    if point_box_distance_squared(&node.bv, point) < reach {
                        stack.extend(node.children());
                    }
                }
            }
        }
        region_points(mesh, vertices)
    }
}
