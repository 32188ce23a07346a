//! What a move knows of the gaps between bodies: certified lower bounds that stay true as the
//! bodies move, less how far they may have closed in since, and the memory of them that one
//! move leaves to the next (a drag held at contact asks again only what moved).

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use clasp_collide::{Geometry, TrianglePair};
use nalgebra::Point3;

use crate::{body::Body, ids::BodyId, pose::Pose};

/// How much larger than the chord a point's path over one sub-step can be (sub-steps turn at
/// most π/4, where arc/chord is 1.03).
const ARC_FACTOR: f64 = 1.1;

/// A ball around a body, in its own frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ball {
    pub centre: Point3<f64>,
    pub radius: f64,
}

impl Ball {
    pub fn of(body: &Body) -> Ball {
        let (centre, radius) = body.geometry.bounding_ball();
        Ball { centre, radius }
    }

    /// How far any point of the body can travel between two poses: along a sub-step's path,
    /// or straight from one to the other.
    pub fn travel(&self, from: &Pose, to: &Pose) -> f64 {
        let centre = (to * self.centre - from * self.centre).norm();
        let turn = (to.rotation * from.rotation.inverse()).angle();
        ARC_FACTOR * (centre + turn * self.radius)
    }

    /// The gap between the balls of two bodies at these poses: a lower bound on theirs.
    pub fn gap(&self, pose: &Pose, other: &Ball, other_pose: &Pose) -> f64 {
        let between = (pose * self.centre - other_pose * other.centre).norm();
        (between - self.radius - other.radius).max(0.0)
    }
}

/// The two balls of a pair, first body first.
#[derive(Debug, Clone, Copy)]
pub(super) struct PairBalls(pub Ball, pub Ball);

impl PairBalls {
    /// How much closer the two bodies can have come between poses `then` and `now` (each the
    /// pair's two poses): the least of how far the first moves as seen from the second, the
    /// second as seen from the first, and both in the world. Two fingers that move together
    /// close in by what one moves relative to the other.
    pub fn closing(&self, then: (&Pose, &Pose), now: (&Pose, &Pose)) -> f64 {
        // The pose of `body` in the frame of `frame`.
        let seen = |body: &Pose, frame: &Pose| frame.inv_mul(body);
        let first_seen_from_second = self.0.travel(&seen(then.0, then.1), &seen(now.0, now.1));
        let second_seen_from_first = self.1.travel(&seen(then.1, then.0), &seen(now.1, now.0));
        let both = self.0.travel(then.0, now.0) + self.1.travel(then.1, now.1);
        first_seen_from_second.min(second_seen_from_first).min(both)
    }
}

/// A fact about a pair's gap: at least `bound` when its bodies stood at `poses` (exactly
/// `bound` if `exact`); and the triangles of its closest points then, if a query found them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Known {
    pub bound: f64,
    pub exact: bool,
    pub poses: (Pose, Pose),
    pub seed: Option<TrianglePair>,
}

impl Known {
    /// Nothing known yet, at these poses.
    pub fn nothing(poses: (Pose, Pose)) -> Known {
        Known {
            bound: 0.0,
            exact: false,
            poses,
            seed: None,
        }
    }

    /// The exact gap, if it was measured with the bodies just where they are now (a drag
    /// held at contact asks again what the last frame already knew).
    pub fn exact_at(&self, now: (&Pose, &Pose)) -> Option<f64> {
        (self.exact && (&self.poses.0, &self.poses.1) == now).then_some(self.bound)
    }

    /// What the bound still certifies with the bodies at `now`.
    pub fn bound_at(&self, balls: &PairBalls, now: (&Pose, &Pose)) -> f64 {
        let closing = balls.closing((&self.poses.0, &self.poses.1), now);
        (self.bound - closing).max(0.0)
    }

    fn swapped(self) -> Known {
        Known {
            bound: self.bound,
            exact: self.exact,
            poses: (self.poses.1, self.poses.0),
            seed: self.seed.map(|s| TrianglePair { a: s.b, b: s.a }),
        }
    }
}

/// What earlier moves learnt of the world's gaps, by pair of bodies. Each entry holds only for
/// the geometries it was measured on (a body replaced, or an id given to another body, is
/// recognised and ignored), and stays true wherever the bodies have moved since, because
/// [`Known::bound_at`] takes off how far they may have come. So the memory never needs clearing.
#[derive(Debug, Clone, Default)]
pub(crate) struct GapMemory {
    pairs: HashMap<(BodyId, BodyId), Entry>,
}

#[derive(Debug, Clone)]
struct Entry {
    geometries: (Weak<Geometry>, Weak<Geometry>),
    known: Known,
}

impl GapMemory {
    /// What is known of the pair of `a` and `b`, in that order, if it was measured on these
    /// geometries.
    pub(super) fn recall(&self, a: Side, b: Side) -> Option<Known> {
        let (key, flipped) = key(a.0, b.0);
        let entry = self.pairs.get(&key)?;
        let (first, second) = if flipped { (b, a) } else { (a, b) };
        let same = |weak: &Weak<Geometry>, geometry: &Arc<Geometry>| {
            Weak::ptr_eq(weak, &Arc::downgrade(geometry))
        };
        if !(same(&entry.geometries.0, first.1) && same(&entry.geometries.1, second.1)) {
            return None;
        }
        Some(if flipped {
            entry.known.swapped()
        } else {
            entry.known
        })
    }

    /// Keeps what is known of the pair of `a` and `b`, in that order.
    pub(super) fn keep(&mut self, a: Side, b: Side, known: Known) {
        let (key, flipped) = key(a.0, b.0);
        let (first, second, known) = if flipped {
            (b.1, a.1, known.swapped())
        } else {
            (a.1, b.1, known)
        };
        let geometries = (Arc::downgrade(first), Arc::downgrade(second));
        self.pairs.insert(key, Entry { geometries, known });
    }
}

/// A body of a pair as the memory knows it: its id and its geometry.
pub(super) type Side<'a> = (BodyId, &'a Arc<Geometry>);

fn key(a: BodyId, b: BodyId) -> ((BodyId, BodyId), bool) {
    if a <= b {
        ((a, b), false)
    } else {
        ((b, a), true)
    }
}

#[cfg(test)]
mod tests {
    use clasp_collide::{TriMesh, shapes::cuboid};
    use nalgebra::{Translation3, UnitQuaternion, Vector3};

    use super::*;
    use crate::body::BodyKind;

    fn cube() -> Body {
        let mesh: TriMesh = cuboid([-1.0; 3], [1.0; 3]);
        Body::from_mesh("cube", BodyKind::Graspable, mesh)
    }

    fn at(x: f64) -> Pose {
        Pose::from_parts(Translation3::new(x, 0.0, 0.0), UnitQuaternion::identity())
    }

    #[test]
    fn a_bound_loses_what_the_bodies_may_have_closed_in_and_never_goes_below_zero() {
        let body = cube();
        let balls = PairBalls(Ball::of(&body), Ball::of(&body));
        let known = Known {
            bound: 5.0,
            exact: true,
            poses: (at(0.0), at(10.0)),
            seed: None,
        };
        assert_eq!(known.bound_at(&balls, (&at(0.0), &at(10.0))), 5.0);
        assert_eq!(known.exact_at((&at(0.0), &at(10.0))), Some(5.0));
        // One moves 2 mm: the bound drops by at least that, and is no longer exact.
        let moved = known.bound_at(&balls, (&at(2.0), &at(10.0)));
        assert!(moved <= 3.0 && moved > 0.0, "{moved}");
        assert_eq!(known.exact_at((&at(2.0), &at(10.0))), None);
        // Both moving together close in by nothing, seen from each other.
        let together = known.bound_at(&balls, (&at(7.0), &at(17.0)));
        assert!((together - 5.0).abs() < 1e-9, "{together}");
        // A turn of the first about its centre counts its radius times the angle.
        let turned = Pose::from_parts(
            Translation3::identity(),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.5),
        );
        assert!(known.bound_at(&balls, (&turned, &at(10.0))) < 5.0);
        assert_eq!(known.bound_at(&balls, (&at(9.0), &at(10.0))), 0.0);
    }

    #[test]
    fn the_memory_answers_in_either_order_and_only_for_the_geometries_it_measured() {
        let (a, b) = (cube(), cube());
        let (ia, ib) = (BodyId::Free(0), BodyId::Free(1));
        let known = Known {
            bound: 3.0,
            exact: true,
            poses: (at(0.0), at(10.0)),
            seed: Some(TrianglePair { a: 4, b: 7 }),
        };
        let mut memory = GapMemory::default();
        memory.keep((ib, &b.geometry), (ia, &a.geometry), known);
        let recalled = memory.recall((ia, &a.geometry), (ib, &b.geometry)).unwrap();
        assert_eq!(recalled.poses, (at(10.0), at(0.0)));
        assert_eq!(recalled.seed, Some(TrianglePair { a: 7, b: 4 }));
        assert_eq!(recalled.bound, 3.0);
        // The same ids on other geometry (a body replaced): nothing is known.
        let other = cube();
        assert!(
            memory
                .recall((ia, &other.geometry), (ib, &b.geometry))
                .is_none()
        );
    }
}
