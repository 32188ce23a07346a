//! A ball an arm cannot carry its hand's wrist out of, whatever its DOFs: a test in a few
//! products that a palm pose is beyond the arm's reach, for a planner that must not search
//! where the arm cannot go (GraspIt moves a carried hand by its arm's inverse kinematics, and a
//! pose the arm cannot reach is an illegal state there; solving for it costs milliseconds,
//! this a fraction of a microsecond).
//!
//! Why it holds: every point on a revolute joint's axis is fixed in the frame before the joint
//! and, lying on the axis, stays where it is in the frame after it too. So a point on one axis
//! and a point on the next are both fixed in the link between them, and stay the same distance
//! apart at any DOF values; a prismatic joint slides its axis's points along it by at most its
//! travel. A point on the axis of the joint carrying the chain's end link is fixed relative to
//! the palm (the wrist), a point on the first axis is fixed in the world (only the arm's DOFs
//! move when it reaches), and by the triangle inequality the wrist stays within the length of
//! any path from one axis to the next to the last. The shortest such path gives the tightest
//! ball: for an arm whose neighbouring axes cross or run parallel (the Puma) it is the arm's
//! exact reach. It knows nothing of joint limits, so it is loose where they keep the arm from
//! stretching out; sound either way: it rules out only poses the arm cannot reach.

use nalgebra::{DMatrix, DVector, Point3, Unit, Vector3};

use super::{
    Robot,
    chain::JointKind,
    reach::{ArmCarrier, REACH_TOLERANCE},
};
use crate::pose::Pose;

/// Where an arm's reach ends, for the palm it carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReachBall {
    /// A point on the first joint's axis, world mm.
    pub centre: Point3<f64>,
    /// The wrist: a point on the axis of the joint carrying the chain's end, in the palm's
    /// frame.
    pub wrist: Point3<f64>,
    /// How far the wrist can get from the centre, mm.
    pub radius: f64,
}

impl ReachBall {
    /// Whether the arm might put the palm at `palm`: false only where it certainly cannot.
    pub fn admits(&self, palm: &Pose) -> bool {
        let slack = REACH_TOLERANCE.0 + 1e-9 * self.radius;
        (palm * self.wrist - self.centre).norm() <= self.radius + slack
    }
}

impl ArmCarrier<'_> {
    /// The ball the palm's wrist stays in whatever the arm's DOFs; `None` for a chain that
    /// branches off another, ends on its base, or slides without limits.
    pub fn reach_ball(&self) -> Option<ReachBall> {
        let arm = self.arm;
        let chain = arm.chains.get(self.chain)?;
        if chain.parent.is_some() {
            return None;
        }
        let end = chain.links.last()?.frame?;
        let axes = arm.joint_axes(self.chain);
        let points = shortest_path_through(&axes[..=end]);
        let travel = slides(arm, self.chain, end)?;
        let palm = self.palm_at(arm.dof_values())?;
        Some(ReachBall {
            centre: points[0],
            wrist: palm.inverse_transform_point(&points[end]),
            radius: length(&points) + travel,
        })
    }
}

/// A point on each axis, in order, joined by a path as short as a few reweighted least-squares
/// rounds make it (Weiszfeld's iteration for a path): any points on the axes give a sound
/// ball, and the shortest the tightest. For a Puma, whose neighbouring axes cross or run
/// parallel with offsets along them, the shortest path is the arm stretched out: the ball is
/// its exact reach.
fn shortest_path_through(axes: &[(Point3<f64>, Unit<Vector3<f64>>)]) -> Vec<Point3<f64>> {
    let n = axes.len();
    let place = |t: &DVector<f64>| -> Vec<Point3<f64>> {
        axes.iter()
            .zip(t.iter())
            .map(|((o, u), &t)| o + u.into_inner() * t)
            .collect()
    };
    let mut t = DVector::zeros(n);
    let mut best = (length(&place(&t)), t.clone());
    for _ in 0..PATH_ROUNDS {
        let points = place(&t);
        // Each leg weighed by the inverse of its length: the least-squares path with these
        // weights is no longer than this one (a majorizer of the sum of lengths).
        let weights: Vec<f64> = points
            .windows(2)
            .map(|w| 1.0 / (w[1] - w[0]).norm().max(1e-6))
            .collect();
        // A little pull towards where each point is keeps parallel neighbours determined.
        let hold = 1e-9 * weights.iter().fold(0.0_f64, |m, &w| m.max(w));
        let mut a = DMatrix::from_diagonal_element(n, n, hold);
        let mut b = &t * hold;
        for (k, &w) in weights.iter().enumerate() {
            let (uk, uj) = (axes[k].1.into_inner(), axes[k + 1].1.into_inner());
            let d = axes[k + 1].0 - axes[k].0;
            // Leg k: d + t[k+1] uj − t[k] uk.
            a[(k, k)] += w;
            a[(k + 1, k + 1)] += w;
            a[(k, k + 1)] -= w * uk.dot(&uj);
            a[(k + 1, k)] -= w * uk.dot(&uj);
            b[k] += w * uk.dot(&d);
            b[k + 1] -= w * uj.dot(&d);
        }
        let Some(next) = a.lu().solve(&b) else {
            break;
        };
        t = next;
        let now = length(&place(&t));
        if now < best.0 {
            best = (now, t.clone());
        }
    }
    place(&best.1)
}

/// The length of the path through `points`, in order.
fn length(points: &[Point3<f64>]) -> f64 {
    points.windows(2).map(|w| (w[1] - w[0]).norm()).sum()
}

/// Reweighted rounds of [`shortest_path_through`]: each costs a 7 × 7 solve.
const PATH_ROUNDS: usize = 200;

/// How far the prismatic joints up to `end` can slide in all; `None` where one has no limit.
fn slides(arm: &Robot, chain: usize, end: usize) -> Option<f64> {
    let travel: f64 = arm.chains[chain].joints[..=end]
        .iter()
        .filter(|j| j.kind == JointKind::Prismatic)
        .map(|j| j.max - j.min)
        .sum();
    travel.is_finite().then_some(travel)
}
