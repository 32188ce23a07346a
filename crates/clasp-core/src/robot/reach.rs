//! Inverse kinematics for an arm that carries a hand: the DOF values that put the carried
//! palm at a pose, by damped least squares (Wampler 1986; Buss's survey, 2004) within the
//! joint limits. The palm's pose is a function of the arm's DOFs through the forward
//! kinematics, coupled joints included; its Jacobian is found by stepping each DOF a little.
//! A solve starts from where the arm stands, so that a path of nearby poses gives nearby
//! postures; where that start does not reach, a few seeded starts across the limits are tried.

use nalgebra::{DMatrix, DVector, Vector3, Vector6};

use super::Robot;
use crate::pose::Pose;

/// How close a solve must come: mm, and rad.
pub const REACH_TOLERANCE: (f64, f64) = (1e-3, 1e-5);

/// Millimetres one radian of the palm's turning counts as, weighing turning against travel.
const TURN_LENGTH: f64 = 100.0;

/// Iterations of one solve, and the starts tried besides the arm's own.
const ITERATIONS: usize = 200;
const RESTARTS: usize = 16;

/// The largest change one iteration makes to a DOF (rad or mm): keeps a step within the
/// range where the linearization holds.
const LARGEST_CHANGE: f64 = 0.2;

/// The best a solve found where it did not reach: how far the palm stays from the target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReachShortfall {
    /// mm
    pub distance: f64,
    /// rad
    pub angle: f64,
}

/// An arm, one of its chains, and where on that chain's end the palm sits.
#[derive(Debug, Clone, Copy)]
pub struct ArmCarrier<'a> {
    pub arm: &'a Robot,
    pub chain: usize,
    /// From the chain's end to the palm (the connection's offset).
    pub offset: Pose,
}

impl ArmCarrier<'_> {
    /// The palm's pose were the arm's DOFs at `values`.
    pub fn palm_at(&self, values: &[f64]) -> Option<Pose> {
        Some(self.arm.chain_end_at(self.chain, values)? * self.offset)
    }

    /// The arm's DOF values that put the palm at `target`, within the limits, starting from
    /// `start`; where no start reaches, the closest the solves came.
    pub fn reach(&self, target: &Pose, start: &[f64]) -> Result<Vec<f64>, ReachShortfall> {
        let mut best: Option<(Vec<f64>, ReachShortfall)> = None;
        let mut seeds = clasp_random::SplitMix64::new(0x5EED);
        for attempt in 0..=RESTARTS {
            let from = match attempt {
                0 => start.to_vec(),
                _ => self.seeded_start(&mut seeds),
            };
            let (values, miss) = self.solve(target, from);
            if reached(miss) {
                return Ok(values);
            }
            let worse = best
                .as_ref()
                .is_some_and(|(_, b)| weighed(miss) >= weighed(*b));
            if !worse {
                best = Some((values, miss));
            }
        }
        Err(best.map_or(
            ReachShortfall {
                distance: f64::INFINITY,
                angle: f64::INFINITY,
            },
            |(_, miss)| miss,
        ))
    }

    /// Values drawn across each DOF's range.
    fn seeded_start(&self, seeds: &mut clasp_random::SplitMix64) -> Vec<f64> {
        (0..self.arm.dofs.len())
            .map(|dof| {
                let (min, max) = self.arm.dof_limits(dof);
                seeds.range(min, max.max(min))
            })
            .collect()
    }

    /// One damped least-squares descent from `values`: the values it ends at and how far the
    /// palm stays from the target there.
    fn solve(&self, target: &Pose, mut values: Vec<f64>) -> (Vec<f64>, ReachShortfall) {
        let mut damping = 1.0;
        let Some(mut error) = self.error(target, &values) else {
            return (values, miss_of(&Vector6::repeat(f64::INFINITY)));
        };
        for _ in 0..ITERATIONS {
            if reached(miss_of(&error)) {
                break;
            }
            let Some(jacobian) = self.jacobian(&values) else {
                break;
            };
            let change = damped_step(&jacobian, &error, damping);
            let tried = self.within_limits(&values, &change);
            match self.error(target, &tried) {
                // Closer: keep it, and trust the linearization more.
                Some(e) if e.norm() < error.norm() => {
                    (values, error) = (tried, e);
                    damping = (damping * 0.5).max(1e-6);
                }
                // Farther: damp harder and try again from where it was.
                _ => {
                    damping *= 4.0;
                    if damping > 1e6 {
                        break;
                    }
                }
            }
        }
        (values, miss_of(&error))
    }

    fn within_limits(&self, values: &[f64], change: &DVector<f64>) -> Vec<f64> {
        let largest = change.amax();
        let scale = if largest > LARGEST_CHANGE {
            LARGEST_CHANGE / largest
        } else {
            1.0
        };
        values
            .iter()
            .zip(change.iter())
            .enumerate()
            .map(|(dof, (&q, &dq))| {
                let (min, max) = self.arm.dof_limits(dof);
                (q + dq * scale).clamp(min, max.max(min))
            })
            .collect()
    }

    /// What is left to go: travel (mm) and turning (as mm, [`TURN_LENGTH`] a radian).
    fn error(&self, target: &Pose, values: &[f64]) -> Option<Vector6<f64>> {
        let palm = self.palm_at(values)?;
        let travel = target.translation.vector - palm.translation.vector;
        let turn = (target.rotation * palm.rotation.inverse()).scaled_axis() * TURN_LENGTH;
        Some(stack(&travel, &turn))
    }

    /// How the palm's travel and turning (as in [`Self::error`]) follow each DOF: 6 × n.
    fn jacobian(&self, values: &[f64]) -> Option<DMatrix<f64>> {
        let here = self.palm_at(values)?;
        let mut jacobian = DMatrix::zeros(6, values.len());
        for dof in 0..values.len() {
            let (moved, step) = self.arm.nudged(values, dof);
            let there = self.palm_at(&moved)?;
            let travel = (there.translation.vector - here.translation.vector) / step;
            let turn = (there.rotation * here.rotation.inverse()).scaled_axis() / step;
            jacobian.set_column(dof, &stack(&travel, &(turn * TURN_LENGTH)));
        }
        Some(jacobian)
    }
}

/// Δq = Jᵀ (J Jᵀ + λ² I)⁻¹ e, λ² scaled to J's size: the step that trades reaching the target
/// against moving far where the arm is near a singularity.
fn damped_step(jacobian: &DMatrix<f64>, error: &Vector6<f64>, damping: f64) -> DVector<f64> {
    let jjt = jacobian * jacobian.transpose();
    let scale = jjt.trace() / 6.0;
    let damped = jjt + DMatrix::identity(6, 6) * (damping * scale.max(1e-12));
    let e = DVector::from_column_slice(error.as_slice());
    match damped.cholesky() {
        Some(c) => jacobian.transpose() * c.solve(&e),
        None => DVector::zeros(jacobian.ncols()),
    }
}

fn stack(a: &Vector3<f64>, b: &Vector3<f64>) -> Vector6<f64> {
    Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z)
}

fn miss_of(error: &Vector6<f64>) -> ReachShortfall {
    ReachShortfall {
        distance: error.fixed_rows::<3>(0).norm(),
        angle: error.fixed_rows::<3>(3).norm() / TURN_LENGTH,
    }
}

fn reached(miss: ReachShortfall) -> bool {
    miss.distance <= REACH_TOLERANCE.0 && miss.angle <= REACH_TOLERANCE.1
}

fn weighed(miss: ReachShortfall) -> f64 {
    miss.distance + miss.angle * TURN_LENGTH
}
