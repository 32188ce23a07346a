//! The dual-tree walk every query of the fast engine runs: both bodies' trees descended
//! together, the pair of nodes with the larger box split first, the two halves visited in the
//! order the query's visitor ranks them, each while the visitor finds it worth opening.

use nalgebra::{Isometry3, Matrix3, Vector3};

use crate::{
    bvh::Child,
    geometry::{Geometry, Placed, b_in_a},
    oriented_box::{OrientedBox, relative},
    triangle::Triangle,
};

/// One side of a pair under test: a node, or a triangle already in the first body's frame.
#[derive(Clone, Copy)]
enum Side {
    Node(u32),
    Triangle(u32, Triangle),
}

/// Two placed geometries, the second's frame mapped into the first's.
pub(super) struct Pair<'a> {
    pub(super) a: &'a Geometry,
    pub(super) b: &'a Geometry,
    pub(super) moved: Isometry3<f64>,
    rotation: Matrix3<f64>,
    translation: Vector3<f64>,
}

impl<'a> Pair<'a> {
    pub(super) fn new(a: &Placed<'a>, b: &Placed<'a>) -> Self {
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
pub(super) trait Visitor {
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

pub(super) fn start<V: Visitor>(pair: &Pair, v: &mut V) {
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
