//! GraspIt's contact search in GraspIt's own order (graspit-spec §1.2–1.5), for the contacts
//! its pruning keeps. GraspIt prunes a pair's contacts in the order its tree walk met them:
//! of a chain of duplicates, the order decides which one stays. Clasp's own trees and walk
//! meet the same point pairs in another order, so `ContactMode::GraspIt` searches again here
//! on trees built as GraspIt builds its own (`graspit_tree`), walked as GraspIt walks them
//! (the bigger box split, the nearer child first).
//!
//! The point pairs of two triangles are [`crate::triangle::push_triangle_contacts`]'s, as the
//! fast engine finds them.

use nalgebra::{Isometry3, Point3};

use crate::{
    engine::{Interpenetrating, MeshContact},
    geometry::Placed,
    graspit_tree::{GraspItTree, Node, box_distance_squared},
    triangle::push_triangle_contacts,
};

/// GraspIt's contact query on one pair: every point pair closer than `threshold` (mm) in the
/// order GraspIt's walk meets them, `a` as GraspIt's first model. Each contact's points are in
/// its own body's frame.
pub fn contacts_in_graspit_order(
    a: Placed,
    b: Placed,
    threshold: f64,
) -> Result<Vec<MeshContact>, Interpenetrating> {
    let (tree_a, tree_b) = (a.geometry.graspit_tree(), b.geometry.graspit_tree());
    let (Some(root_a), Some(root_b)) = (tree_a.root(), tree_b.root()) else {
        return Ok(Vec::new());
    };
    let mut walk = Walk {
        trees: [tree_a, tree_b],
        b_in_a: a.pose.inv_mul(&b.pose),
        a_in_b: b.pose.inv_mul(&a.pose),
        reach: threshold * threshold,
        threshold,
        found: Vec::new(),
        crossing: false,
        points: Vec::new(),
    };
    if walk.gap(root_a, root_b) <= walk.reach {
        walk.descend(root_a, root_b);
    }
    if walk.crossing {
        return Err(Interpenetrating);
    }
    Ok(walk.found)
}

struct Walk<'a> {
    trees: [&'a GraspItTree; 2],
    b_in_a: Isometry3<f64>,
    a_in_b: Isometry3<f64>,
    reach: f64,
    threshold: f64,
    found: Vec<MeshContact>,
    crossing: bool,
    points: Vec<(Point3<f64>, Point3<f64>)>,
}

impl Walk<'_> {
    fn node(&self, side: usize, n: usize) -> &Node {
        self.trees[side].node(n)
    }

    fn gap(&self, na: usize, nb: usize) -> f64 {
        box_distance_squared(self.node(0, na).bv(), self.node(1, nb).bv(), &self.b_in_a)
    }

    /// GraspIt's `recursion`: two leaves are tested; else the branch (of two, the one with
    /// the bigger box) is split and its children visited nearer first, each while within reach.
    fn descend(&mut self, na: usize, nb: usize) {
        let split_a = match (self.node(0, na), self.node(1, nb)) {
            (Node::Leaf { triangle: ta, .. }, Node::Leaf { triangle: tb, .. }) => {
                return self.leaves(*ta, *tb);
            }
            (Node::Leaf { .. }, _) => false,
            (_, Node::Leaf { .. }) => true,
            (a, b) => a.bv().volume() > b.bv().volume(),
        };
        let children = match self.node(usize::from(!split_a), if split_a { na } else { nb }) {
            Node::Branch { children, .. } => *children,
            Node::Leaf { .. } => unreachable!("the node split is a branch"),
        };
        let pair = |c: usize| if split_a { (c, nb) } else { (na, c) };
        let mut visits = children.map(|c| (c, self.gap(pair(c).0, pair(c).1)));
        if visits[1].1 < visits[0].1 {
            visits.swap(0, 1);
        }
        for (c, d) in visits {
            if d <= self.reach {
                let (x, y) = pair(c);
                self.descend(x, y);
            }
        }
    }

    /// GraspIt's contact leaf test: `a`'s triangle taken into `b`'s frame, the point pairs
    /// found there, `a`'s point taken back. The recorded distance is GraspIt's, between the
    /// two points each in its own body's frame (Q6); the pruning that follows reads it.
    fn leaves(&mut self, ta: usize, tb: usize) {
        let t1 = self.trees[0].triangle(ta).map(|p| self.a_in_b * p);
        let t2 = *self.trees[1].triangle(tb);
        self.points.clear();
        if !push_triangle_contacts(&t1, &t2, self.threshold, &mut self.points) {
            self.crossing = true;
            return;
        }
        for &(p1, p2) in &self.points {
            let normal_in_b = (p1 - p2).normalize();
            let separation = (p1 - p2).norm();
            self.found.push(MeshContact {
                triangle_a: ta,
                triangle_b: tb,
                point_a: self.b_in_a * p1,
                point_b: p2,
                normal_a: self.b_in_a.rotation * normal_in_b,
                separation,
            });
        }
    }
}
#[cfg(test)]
mod tests {
    use nalgebra::Vector3;

    use super::*;
    use crate::{engine::CollisionEngine, fast::FastEngine, geometry::Geometry, shapes};

    #[test]
    fn the_walk_finds_the_fast_engines_point_pairs() {
        // Two boxes face to face 0.05 mm apart, one turned a little: both searches find the
        // same set of point pairs, only their order may differ.
        let a = Geometry::new(shapes::cuboid([-10.0; 3], [10.0; 3]));
        let b = Geometry::new(shapes::cuboid([-4.0; 3], [4.0; 3]));
        let pose_b = Isometry3::new(Vector3::new(1.0, 2.0, 14.05), Vector3::new(0.0, 0.0, 0.3));
        let (pa, pb) = (
            Placed::new(&a, Isometry3::identity()),
            Placed::new(&b, pose_b),
        );
        let key = |c: &MeshContact| {
            let p = c.point_a.coords.map(|x| (x * 1e6).round() as i64);
            (p.x, p.y, p.z, c.triangle_a, c.triangle_b)
        };
        let mut ours: Vec<_> = contacts_in_graspit_order(pa, pb, 0.1)
            .unwrap()
            .iter()
            .map(key)
            .collect();
        let mut fast: Vec<_> = FastEngine
            .contacts(pa, pb, 0.1)
            .unwrap()
            .iter()
            .map(key)
            .collect();
        assert!(!ours.is_empty());
        ours.sort();
        fast.sort();
        assert_eq!(ours, fast);
    }

    #[test]
    fn crossing_surfaces_are_refused() {
        let a = Geometry::new(shapes::cuboid([-10.0; 3], [10.0; 3]));
        let pose_b = Isometry3::translation(0.0, 0.0, 12.0);
        let result = contacts_in_graspit_order(
            Placed::new(&a, Isometry3::identity()),
            Placed::new(&a, pose_b),
            0.1,
        );
        assert_eq!(result, Err(Interpenetrating));
    }
}
