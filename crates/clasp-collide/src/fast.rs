//! The fast engine: both bodies' trees walked together (a dual-tree traversal), the pair of
//! nodes with the larger box split first, boxes pruned by the separating-axis test (collide) or
//! a lower bound on their distance (contacts, distance), and triangle pairs settled by the same
//! f64 routines as the reference engine.

use std::collections::BTreeSet;

use nalgebra::{Isometry3, Matrix3, Vector3};

use crate::{
    CollisionEngine, Contact, Gap, Geometry, Interpenetrating, NearTriangles, Placed,
    PointDistance, Separation, TrianglePair,
    bvh::Child,
    engine::{in_region, region_points},
    geometry::{b_in_a, first_corner_inside},
    oriented_box::{
        OrientedBox, box_triangle_distance_squared, boxes_distance_squared, boxes_overlap,
        point_box_distance_squared, relative,
    },
    triangle::{
        Point, Triangle, closest_points_apart, push_triangle_contacts, separation_bound,
        triangle_closest_points, triangles_intersect,
    },
};

/// The tree-based engine Clasp runs on.
#[derive(Debug, Clone, Copy, Default)]
pub struct FastEngine;

/// Lower bounds computed another way than the exact triangle routines are trusted only with this
/// much slack, so that pruning never drops a pair the exact routines would keep.
fn with_slack(threshold: f64) -> f64 {
    threshold * (1.0 + 1e-9) + 1e-12
}

/// One side of a pair under test: a node, or a triangle already in the first body's frame.
#[derive(Clone, Copy)]
enum Side {
    Node(u32),
    Triangle(u32, Triangle),
}

/// Two placed geometries, the second's frame mapped into the first's.
struct Pair<'a> {
    a: &'a Geometry,
    b: &'a Geometry,
    moved: Isometry3<f64>,
    rotation: Matrix3<f64>,
    translation: Vector3<f64>,
}

impl<'a> Pair<'a> {
    fn new(a: &Placed<'a>, b: &Placed<'a>) -> Self {
        let moved = b_in_a(a, b);
        Self {
            a: a.geometry,
            b: b.geometry,
            rotation: moved.rotation.to_rotation_matrix().into_inner(),
            translation: moved.translation.vector,
            moved,
        }
    }

    fn side_a(&self, child: Child) -> Side {
        match child {
            Child::Node(i) => Side::Node(i),
            Child::Triangle(t) => Side::Triangle(t, self.a.triangle(t)),
        }
    }

    fn side_b(&self, child: Child) -> Side {
        match child {
            Child::Node(i) => Side::Node(i),
            Child::Triangle(t) => Side::Triangle(t, self.b.triangle(t).map(|p| self.moved * p)),
        }
    }

    fn box_b_in_a(&self, node: u32) -> OrientedBox {
        let bv = &self.b.tree().node(node).bv;
        OrientedBox {
            axes: self.rotation * bv.axes,
            center: self.rotation * bv.center + self.translation,
            half: bv.half,
        }
    }
}

/// What a query does at each step of the dual traversal.
trait Visitor {
    /// Whether a pair of nodes is worth opening, and how urgently (smaller first).
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64>;
    /// The same for a box against a triangle, both in the first body's frame.
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64>;
    /// The same for two triangles, before the exact test.
    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64>;
    /// Whether a pair found worth opening earlier still is (the query may have learnt more).
    fn still_worth(&self, priority: f64) -> bool;
    /// Two triangles worth testing; `apart` when their bound already shows they do not meet.
    fn triangles(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool);
    fn finished(&self) -> bool;
}

fn priority<V: Visitor>(pair: &Pair, v: &V, a: &Side, b: &Side) -> Option<f64> {
    match (a, b) {
        (Side::Triangle(_, ta), Side::Triangle(_, tb)) => v.triangle_pair(ta, tb),
        (Side::Node(n), Side::Triangle(_, tb)) => v.box_triangle(&pair.a.tree().node(*n).bv, tb),
        (Side::Triangle(_, ta), Side::Node(m)) => v.box_triangle(&pair.box_b_in_a(*m), ta),
        (Side::Node(n), Side::Node(m)) => {
            let (ba, bb) = (&pair.a.tree().node(*n).bv, &pair.b.tree().node(*m).bv);
            let (r, t) = relative(ba, bb, &pair.rotation, &pair.translation);
            v.boxes(ba, bb, &r, &t)
        }
    }
}

fn start<V: Visitor>(pair: &Pair, v: &mut V) {
    // A body without triangles meets nothing.
    let (Some(root_a), Some(root_b)) = (pair.a.tree().root(), pair.b.tree().root()) else {
        return;
    };
    let (a, b) = (pair.side_a(root_a), pair.side_b(root_b));
    if let Some(p) = priority(pair, v, &a, &b) {
        visit(pair, v, a, b, p);
    }
}

fn visit<V: Visitor>(pair: &Pair, v: &mut V, a: Side, b: Side, urgency: f64) {
    if v.finished() || !v.still_worth(urgency) {
        return;
    }
    let split_a = match (&a, &b) {
        (Side::Triangle(i, ta), Side::Triangle(j, tb)) => {
            return v.triangles(*i, *j, ta, tb, urgency > 0.0);
        }
        (Side::Node(_), Side::Triangle(..)) => true,
        (Side::Triangle(..), Side::Node(_)) => false,
        (Side::Node(n), Side::Node(m)) => {
            let size = |bv: &OrientedBox| bv.half.norm_squared();
            size(&pair.a.tree().node(*n).bv) >= size(&pair.b.tree().node(*m).bv)
        }
    };
    let (a0, b0, a1, b1) = if split_a {
        let Side::Node(n) = a else { unreachable!() };
        let [c0, c1] = pair.a.tree().node(n).children();
        (pair.side_a(c0), b, pair.side_a(c1), b)
    } else {
        let Side::Node(m) = b else { unreachable!() };
        let [c0, c1] = pair.b.tree().node(m).children();
        (a, pair.side_b(c0), a, pair.side_b(c1))
    };
    let p0 = priority(pair, v, &a0, &b0);
    let p1 = priority(pair, v, &a1, &b1);
    match (p0, p1) {
        (Some(x), Some(y)) if y < x => {
            visit(pair, v, a1, b1, y);
            visit(pair, v, a0, b0, x);
        }
        (p0, p1) => {
            if let Some(x) = p0 {
                visit(pair, v, a0, b0, x);
            }
            if let Some(y) = p1 {
                visit(pair, v, a1, b1, y);
            }
        }
    }
}

/// Stops at the first pair of triangles that cross or touch.
#[derive(Default)]
struct Crossing {
    found: bool,
}

impl Visitor for Crossing {
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        boxes_overlap(&a.half, &b.half, r, t).then_some(0.0)
    }
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        (box_triangle_distance_squared(bv, triangle, f64::MIN_POSITIVE) == 0.0).then_some(0.0)
    }
    fn triangle_pair(&self, _: &Triangle, _: &Triangle) -> Option<f64> {
        Some(0.0)
    }
    fn still_worth(&self, _: f64) -> bool {
        true
    }
    fn triangles(&mut self, _: u32, _: u32, ta: &Triangle, tb: &Triangle, _: bool) {
        self.found = triangles_intersect(ta, tb);
    }
    fn finished(&self) -> bool {
        self.found
    }
}

/// A query that opens every pair of nodes and triangles that may lie within its reach, and
/// takes each triangle pair that does.
trait WithinReach {
    fn reach(&self) -> &Reach;
    fn take(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool);
    fn done(&self) -> bool;
}

impl<T: WithinReach> Visitor for T {
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        self.reach().boxes(a, b, r, t)
    }
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        self.reach().box_triangle(bv, triangle)
    }
    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64> {
        self.reach().triangle_pair(ta, tb)
    }
    fn still_worth(&self, _: f64) -> bool {
        true
    }
    fn triangles(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        self.take(i, j, ta, tb, apart);
    }
    fn finished(&self) -> bool {
        self.done()
    }
}

/// How close a query looks: the bounds of node and triangle pairs it opens, with slack
/// ([`with_slack`]), so that it never drops a pair the exact routines would keep; and the least
/// bound of what it passed over, which every pair left out lies at least as far apart as.
#[derive(Clone)]
struct Reach {
    distance: f64,
    squared: f64,
    /// The least squared bound of the node and triangle pairs passed over.
    passed_over: std::cell::Cell<f64>,
}

impl Reach {
    fn new(distance: f64) -> Self {
        let distance = with_slack(distance);
        Self {
            distance,
            squared: distance * distance,
            passed_over: std::cell::Cell::new(f64::INFINITY),
        }
    }

    /// `squared`, if within the reach; else noted as passed over.
    fn bound(&self, squared: f64) -> Option<f64> {
        if squared < self.squared {
            return Some(squared);
        }
        self.passed_over.set(self.passed_over.get().min(squared));
        None
    }

    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        self.bound(boxes_distance_squared(&a.half, &b.half, r, t, self.squared))
    }

    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        self.bound(box_triangle_distance_squared(bv, triangle, self.squared))
    }

    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64> {
        let gap = separation_bound(ta, tb, self.distance);
        if gap < self.distance {
            return Some(gap * gap);
        }
        self.bound(gap * gap)
    }

    /// Every pair passed over lies at least this far apart (mm): the least bound passed over,
    /// trusted only with the slack the pruning allows it; at least `asked`.
    fn complete_within(&self, asked: f64) -> f64 {
        let passed_over = self.passed_over.get().sqrt();
        ((passed_over - 1e-12) / (1.0 + 1e-9)).max(asked)
    }
}

/// A close triangle pair's contacts (`i` of A, `j` of B, both in A's frame) appended to
/// `found`, `points` the scratch space; false where the triangles cross. What a search and a
/// search among kept pairs both do, so that they agree to the bit.
#[allow(clippy::too_many_arguments)]
fn push_pair_contacts(
    (i, j): (u32, u32),
    ta: &Triangle,
    tb: &Triangle,
    threshold: f64,
    moved: &Isometry3<f64>,
    points: &mut Vec<(Point, Point)>,
    found: &mut Vec<Contact>,
) -> bool {
    points.clear();
    if !push_triangle_contacts(ta, tb, threshold, points) {
        return false;
    }
    for (pa, pb) in points.iter() {
        found.extend(Contact::from_points_in_a(
            i as usize, j as usize, pa, pb, moved,
        ));
    }
    true
}

/// Collects the point pairs of every triangle pair closer than the threshold.
struct Contacts<'a> {
    threshold: f64,
    reach: Reach,
    moved: &'a Isometry3<f64>,
    found: Vec<Contact>,
    points: Vec<(Point, Point)>,
    crossing: bool,
}

impl WithinReach for Contacts<'_> {
    fn reach(&self) -> &Reach {
        &self.reach
    }
    fn take(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, _: bool) {
        let (points, found) = (&mut self.points, &mut self.found);
        if !push_pair_contacts((i, j), ta, tb, self.threshold, self.moved, points, found) {
            self.crossing = true;
        }
    }
    fn done(&self) -> bool {
        self.crossing
    }
}

/// Collects every triangle pair that may lie within the reach.
struct NearPairs {
    reach: Reach,
    pairs: Vec<TrianglePair>,
}

impl WithinReach for NearPairs {
    fn reach(&self) -> &Reach {
        &self.reach
    }
    fn take(&mut self, i: u32, j: u32, _: &Triangle, _: &Triangle, _: bool) {
        self.pairs.push(TrianglePair { a: i, b: j });
    }
    fn done(&self) -> bool {
        false
    }
}

/// Keeps the closest pair of points found so far, starting from a cut-off (or a seed's
/// distance); stops at a crossing.
struct Closest {
    best_squared: f64,
    best: Option<(Point, Point, TrianglePair)>,
    crossing: bool,
    /// 1 / (1 + ε)²: pairs that cannot beat the best by more than 1 + ε are given up.
    shrink: f64,
}

impl Closest {
    fn bound(&self, squared: f64) -> Option<f64> {
        self.still_worth(squared).then_some(squared)
    }

    /// Takes a triangle pair's closest points if they beat the best so far; `apart` when the
    /// pair is known not to intersect, which spares the intersection test.
    fn offer(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        let closest = if apart {
            Some(closest_points_apart(ta, tb))
        } else {
            triangle_closest_points(ta, tb)
        };
        match closest {
            None => self.crossing = true,
            Some((pa, pb)) => {
                let squared = (pa - pb).norm_squared();
                if squared < self.best_squared {
                    self.best_squared = squared;
                    self.best = Some((pa, pb, TrianglePair { a: i, b: j }));
                }
            }
        }
    }
}

impl Visitor for Closest {
    fn boxes(
        &self,
        a: &OrientedBox,
        b: &OrientedBox,
        r: &Matrix3<f64>,
        t: &Vector3<f64>,
    ) -> Option<f64> {
        self.bound(boxes_distance_squared(
            &a.half,
            &b.half,
            r,
            t,
            with_slack(self.best_squared),
        ))
    }
    fn box_triangle(&self, bv: &OrientedBox, triangle: &Triangle) -> Option<f64> {
        self.bound(box_triangle_distance_squared(
            bv,
            triangle,
            with_slack(self.best_squared),
        ))
    }
    fn triangle_pair(&self, ta: &Triangle, tb: &Triangle) -> Option<f64> {
        let gap = separation_bound(ta, tb, with_slack(self.best_squared).sqrt());
        self.bound(gap * gap)
    }
    fn still_worth(&self, squared: f64) -> bool {
        // With slack, so a best of exactly zero still lets touching pairs through.
        squared < with_slack(self.best_squared * self.shrink)
    }
    fn triangles(&mut self, i: u32, j: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        self.offer(i, j, ta, tb, apart);
    }
    fn finished(&self) -> bool {
        self.crossing
    }
}

/// Stops at the first pair of triangles closer than the tolerance, or crossing.
struct Near {
    tolerance: f64,
    reach: Reach,
    found: bool,
}

impl WithinReach for Near {
    fn reach(&self) -> &Reach {
        &self.reach
    }
    fn take(&mut self, _: u32, _: u32, ta: &Triangle, tb: &Triangle, apart: bool) {
        let closest = if apart {
            Some(closest_points_apart(ta, tb))
        } else {
            triangle_closest_points(ta, tb)
        };
        self.found = closest
            .is_none_or(|(pa, pb)| (pa - pb).norm_squared() < self.tolerance * self.tolerance);
    }
    fn done(&self) -> bool {
        self.found
    }
}

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
    ) -> Result<Vec<Contact>, Interpenetrating> {
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
        near.pairs.sort_unstable_by_key(|p| (p.a, p.b));
        Some(NearTriangles {
            complete_within: near.reach.complete_within(reach),
            pairs: near.pairs,
        })
    }

    fn contacts_among(
        &self,
        a: Placed,
        b: Placed,
        threshold: f64,
        pairs: &[TrianglePair],
    ) -> Result<Vec<Contact>, Interpenetrating> {
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
