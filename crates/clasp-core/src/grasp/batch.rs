//! Many grasps of one hand on one object at once, as a grasp dataset is made: candidates
//! spread round the object (approach direction, roll about it, spread of the DOFs that Auto
//! Grasp leaves alone), each tried on a clone of the hand in a domain of its own (approach,
//! Auto Grasp, quality) on rayon's threads. Python's batch call and `clasp-cli batch` both run
//! this, so their answers agree to the bit.

use std::time::Instant;

use nalgebra::{Unit, Vector3};
use rayon::prelude::*;

use clasp_collide::CollisionEngine;

use clasp_random::SplitMix64;

use super::{
    antipodal::antipodal_candidates,
    quality::WrenchSpaceKind,
    trial::{GraspTrial, TrialPlan},
};
use crate::{
    ids::{BodyId, RobotId},
    pose::Pose,
    robot::{Robot, inference::DofRole},
    world::{World, error::MoveError},
};

/// Where one grasp starts: the palm pose, the DOF values, and how far the hand may approach
/// along its approach direction before it closes.
#[derive(Debug, Clone, PartialEq)]
pub struct GraspCandidate {
    pub palm: Pose,
    pub dofs: Vec<f64>,
    pub approach: f64,
    /// The approach goes its whole way unless it meets something (a gripper's jaws come round
    /// the object); otherwise, as GraspIt's approach to contact, a hand that meets nothing
    /// stays where it started.
    pub through: bool,
}

/// How a batch scores its grasps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatchQuality {
    pub wrench_space: WrenchSpaceKind,
    /// Also the wrench space's volume (builds the whole hull: slower).
    pub volume: bool,
}

impl Default for BatchQuality {
    fn default() -> Self {
        Self {
            wrench_space: WrenchSpaceKind::L1,
            volume: true,
        }
    }
}

/// One grasp of a batch: how it ended, and the seconds it took on its thread.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchGrasp {
    pub trial: GraspTrial,
    pub seconds: f64,
}

/// How a candidate aims the hand at the object: the direction it comes from (from the hand
/// toward the object's centre), its roll about that line, and its DOF values.
#[derive(Debug, Clone, PartialEq)]
pub struct GraspAim {
    pub towards: Unit<Vector3<f64>>,
    pub roll: f64,
    pub dofs: Vec<f64>,
}

/// `count` aims drawn from `seed`: directions uniform over the sphere, rolls uniform about
/// them, and each DOF that Auto Grasp does not move (a default velocity of 0: the Barrett's
/// spread) uniform within its limits, but for a wrist and a finger's own abduction (it turns
/// one finger, and stands well inside its range), which stay where the hand stands. A thumb's
/// turn toward the fingers ([`Robot::thumb_opposition`]) starts halfway closed, or where the
/// thumb's first two DOFs best oppose the fingers ([`Robot::thumb_start`]); a claw's fingers
/// start opened ([`Robot::claw_start`]). The others stay
/// at the hand's current values. The same seed gives the same aims.
pub fn draw_aims(hand: &Robot, count: usize, seed: u64) -> Vec<GraspAim> {
    let mut random = SplitMix64::new(seed);
    // A wrist (a DOF that carries several fingers) stays where it is: the approach direction
    // is the palm's where the wrist stands. So does a finger's abduction: drawn, neighbouring
    // fingers turn into each other and close on nothing (the LEAP's, drawn over its ±60°:
    // 77 % of postures; force closure on GraspIt's mug 22 % against 70 % left where it stands).
    let roles = hand.infer_hand().roles;
    let mut starts: Vec<(usize, f64)> = match hand.thumb_opposition() {
        Some(d) => hand.thumb_start(&roles, d, halfway_closed(hand, d)),
        None => Vec::new(),
    };
    starts.extend(hand.claw_start(&roles));
    let stays: Vec<bool> = (0..hand.dofs.len())
        .map(|d| roles.get(d) == Some(&DofRole::Carries) || is_abduction(hand, d))
        .collect();
    (0..count)
        .map(|_| {
            let towards = random_direction(&mut random);
            let roll = std::f64::consts::TAU * random.unit();
            let dofs = (0..hand.dofs.len())
                .map(|d| match hand.dofs[d].default_velocity {
                    _ if let Some(&(_, start)) = starts.iter().find(|(s, _)| *s == d) => start,
                    0.0 if !stays[d] => {
                        let (min, max) = hand.dof_limits(d);
                        min + (max - min) * random.unit()
                    }
                    _ => hand.dof_values()[d],
                })
                .collect();
            GraspAim {
                towards,
                roll,
                dofs,
            }
        })
        .collect()
}

/// DOF `d` of `hand` halfway from where it stands to the limit it closes toward.
fn halfway_closed(hand: &Robot, d: usize) -> f64 {
    let (min, max) = hand.dof_limits(d);
    let now = hand.dof_values()[d];
    match hand.dofs[d].default_velocity > 0.0 {
        true if max.is_finite() => (now + max) / 2.0,
        false if min.is_finite() => (now + min) / 2.0,
        _ => now,
    }
}

/// A spread that can turn less than this share of its range one way from where it stands
/// starts at an end of it (the Allegro thumb's twist; the Barrett's spread): a preshape, not
/// a finger's abduction, which stands about the middle of its range.
const ABDUCTION_MARGIN: f64 = 0.125;

/// Whether DOF `d` of `hand` is a finger's abduction: it turns one finger alone, and can turn
/// it at least [`ABDUCTION_MARGIN`] of its range each way from where it stands.
fn is_abduction(hand: &Robot, d: usize) -> bool {
    let (min, max) = hand.dof_limits(d);
    let now = hand.dof_values()[d];
    let margin = ABDUCTION_MARGIN * (max - min);
    hand.fingers_moved_by(d) == 1 && now - min >= margin && max - now >= margin
}

/// The candidates these aims make round the body `object` of `world`: each hand starts clear
/// of the object (its reach, [`Robot::reach`], plus the object's radius from the object's
/// centre), pointed at the centre, and may approach twice that far.
pub fn aimed_candidates<E: CollisionEngine>(
    world: &World<E>,
    hand: &Robot,
    object: BodyId,
    aims: &[GraspAim],
) -> Result<Vec<GraspCandidate>, MoveError> {
    let body = world.body(object).ok_or(MoveError::NoSuchBody(object))?;
    let (lo, hi) = body.mesh().bounding_box();
    let centre = body.pose() * nalgebra::center(&lo, &hi);
    let distance = (hi - lo).norm() / 2.0 + hand.reach();
    let candidates = aims
        .iter()
        .map(|aim| GraspCandidate {
            palm: hand.pose_aiming_at(centre, aim.towards, distance, aim.roll),
            dofs: aim.dofs.clone(),
            approach: 2.0 * distance,
            through: false,
        })
        .collect();
    Ok(candidates)
}

/// `count` grasp candidates for `hand` round `object`, chosen by the hand: a parallel
/// gripper's are antipodal pairs on the object's surface ([`antipodal_candidates`]), any
/// other hand's aimed as [`draw_aims`] draws them ([`aimed_candidates`]). The same seed gives
/// the same candidates.
pub fn grasp_candidates<E: CollisionEngine>(
    world: &World<E>,
    hand: &Robot,
    object: BodyId,
    count: usize,
    seed: u64,
) -> Result<Vec<GraspCandidate>, MoveError> {
    match hand.parallel_jaws() {
        Some(jaws) => antipodal_candidates(world, hand, &jaws, object, count, seed),
        None => aimed_candidates(world, hand, object, &draw_aims(hand, count, seed)),
    }
}

impl<E: CollisionEngine> World<E> {
    /// Tries every candidate grasp of world robot `robot` on `object`, in parallel on rayon's
    /// threads: each in a domain of its own holding a clone of the robot (the original hidden),
    /// set at the candidate, approached, auto-grasped and scored. The answers are in the
    /// candidates' order, each as it would be alone.
    pub fn grasp_batch(
        &self,
        robot: RobotId,
        object: BodyId,
        candidates: &[GraspCandidate],
        quality: BatchQuality,
    ) -> Result<Vec<BatchGrasp>, MoveError> {
        self.find_robot(robot)?;
        self.body(object).ok_or(MoveError::NoSuchBody(object))?;
        candidates
            .par_iter()
            .enumerate()
            .map(|(k, candidate)| {
                let started = Instant::now();
                let mut domain = self.domain(k as u32 + 1)?;
                let clone = domain.clone_robot(robot)?;
                let plan = TrialPlan {
                    palm: candidate.palm,
                    open: &candidate.dofs,
                    approach: candidate.approach,
                    through: candidate.through,
                    object,
                    quality: Some(quality.wrench_space),
                    volume: quality.volume,
                };
                let trial = domain.grasp_trial(clone, &plan)?;
                Ok(BatchGrasp {
                    trial,
                    seconds: started.elapsed().as_secs_f64(),
                })
            })
            .collect()
    }
}

/// Uniform over the unit sphere (Archimedes: z uniform in [-1, 1], the angle round z uniform).
fn random_direction(random: &mut SplitMix64) -> Unit<Vector3<f64>> {
    let z = 2.0 * random.unit() - 1.0;
    let angle = std::f64::consts::TAU * random.unit();
    let across = (1.0 - z * z).max(0.0).sqrt();
    Unit::new_normalize(Vector3::new(across * angle.cos(), across * angle.sin(), z))
}
