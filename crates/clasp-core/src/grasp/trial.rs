//! A grasp trial, GraspIt's planner step: a hand set at a palm pose and opening, approached
//! toward the object, closed by Auto Grasp and scored. Run on a domain's stage (many in
//! parallel) or put back on the world's hand afterwards.

use clasp_collide::CollisionEngine;

use super::quality::{Quality, WrenchSpaceKind};
use crate::{
    contact::{Contact, model::ContactOptions},
    ids::{BodyId, Element, RobotId},
    pose::Pose,
    robot::Robot,
    world::{
        World,
        domain::Domain,
        error::MoveError,
        stage::{Backdrop, Stage},
    },
};

/// A grasp trial whose closing fingers meet something other than the object (the table under
/// it) opens, backs off this far (mm) along its approach and closes again, at most
/// [`BACK_OFFS`] times: fingers closed onto the support hold nothing.
pub const BACK_OFF: f64 = 10.0;
pub const BACK_OFFS: usize = 3;

/// How one grasp trial in a domain ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GraspTrial {
    pub palm: Pose,
    pub dof_values: Vec<f64>,
    /// Per DOF, where each of its joints broke away (`Robot::breakaway_states`): with the DOF
    /// values, the hand's whole posture.
    pub breakaway: Vec<Vec<Option<f64>>>,
    /// The hand's contacts on the object, seen from the object.
    pub contacts: Vec<Contact>,
    /// The grasp's quality, when asked for (none too when the grasp cannot be evaluated).
    pub quality: Option<Quality>,
}

impl GraspTrial {
    /// Whether its quality was measured and is force closure.
    pub fn force_closure(&self) -> bool {
        self.quality.as_ref().is_some_and(|q| q.force_closure)
    }

    /// How many of the hand's bodies touch the object.
    pub fn bodies_touching(&self) -> usize {
        count_distinct(self.contacts.iter().map(|c| c.other))
    }
}

/// How many different bodies there are among `bodies`.
fn count_distinct(bodies: impl Iterator<Item = BodyId>) -> usize {
    let mut bodies: Vec<BodyId> = bodies.collect();
    bodies.sort();
    bodies.dedup();
    bodies.len()
}

/// What a grasp trial does: the palm pose and DOF values the hand starts at, how far it may
/// approach, the object, and the wrench space its quality is measured in, if it is.
#[derive(Debug, Clone, Copy)]
pub struct TrialPlan<'a> {
    pub palm: Pose,
    pub open: &'a [f64],
    /// How far the hand may approach before it closes (mm); 0 closes it where it stands.
    pub approach: f64,
    /// The approach goes its whole way unless it meets something, rather than back to where
    /// it started when it meets nothing ([`super::batch::GraspCandidate::through`]).
    pub through: bool,
    pub object: BodyId,
    pub quality: Option<WrenchSpaceKind>,
    /// With the quality, also the wrench space's volume (builds the whole hull).
    pub volume: bool,
}

/// One closing of [`Stage::close_on`]: how many of the hand's bodies touched the object, and
/// where the hand was.
struct Closing {
    touching: usize,
    palm: Pose,
    values: Vec<f64>,
    breakaway: Vec<Vec<Option<f64>>>,
}

impl Stage {
    /// Auto Grasp onto `object`: where the closing fingers meet something else (the table
    /// under it), the hand opens as it was, backs off `BACK_OFF` mm along its approach
    /// direction (stopping at contact; a hand an arm carries by its arm) and closes again, at
    /// most [`BACK_OFFS`] times; the hand ends at the closing that touched the object with the
    /// most of its bodies (the first of equals).
    pub(crate) fn close_on(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        object: BodyId,
    ) -> Result<(), MoveError> {
        let hand = self.own_robot(robot)?;
        let (open, opened) = (hand.dof_values().to_vec(), hand.breakaway_states());
        let mut best: Option<Closing> = None;
        for attempt in 0..=BACK_OFFS {
            if attempt > 0 {
                // Open as it came (the way the fingers closed is clear, nothing broke away),
                // and back off.
                self.set_posture(backdrop, robot, &open, &opened)?;
                let back = self.own_robot(robot)?.approached(-BACK_OFF);
                self.move_hand_to(backdrop, robot, back)?;
            }
            let closed = self.auto_grasp(backdrop, robot, true)?;
            let touching = self.bodies_touching(robot, object);
            if best.as_ref().is_none_or(|b| touching > b.touching) {
                let hand = self.own_robot(robot)?;
                best = Some(Closing {
                    touching,
                    palm: hand.pose(),
                    values: hand.dof_values().to_vec(),
                    breakaway: hand.breakaway_states(),
                });
            }
            // Stopped by the hand's own bodies is a closed hand; by an obstacle, a blocked one.
            let blocked = closed
                .stopped_by
                .iter()
                .any(|&(_, other)| other != object && other.robot() != Some(robot));
            if !blocked {
                break;
            }
        }
        match best {
            Some(b) if b.touching > self.bodies_touching(robot, object) => {
                self.place_hand(backdrop, robot, b.palm)?;
                self.set_posture(backdrop, robot, &b.values, &b.breakaway)
            }
            _ => Ok(()),
        }
    }

    /// How many of a robot's bodies touch `object`.
    fn bodies_touching(&self, robot: RobotId, object: BodyId) -> usize {
        let touching = self.contacts_of(object).map(|c| c.other);
        count_distinct(touching.filter(|b| b.robot() == Some(robot)))
    }

    /// A planner's grasp trial: the robot's palm and DOFs where the plan starts them, an
    /// approach toward what it aims at, then Auto Grasp (backing off where the fingers close
    /// onto something other than the object: `BACK_OFF`), and the grasp's quality if asked.
    fn grasp_trial(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        plan: &TrialPlan,
    ) -> Result<GraspTrial, MoveError> {
        self.set_pose(backdrop, Element::Robot(robot), plan.palm)?;
        self.set_dof_values(backdrop, robot, plan.open)?;
        if plan.approach > 0.0 && plan.through {
            let end = self.own_robot(robot)?.approached(plan.approach);
            self.move_hand_to(backdrop, robot, end)?;
        } else if plan.approach > 0.0 {
            self.approach_to_contact(backdrop, robot, plan.approach)?;
        }
        self.close_on(backdrop, robot, plan.object)?;
        self.trial_as_it_stands(backdrop, robot, plan.object, plan.quality, plan.volume)
    }

    /// The grasp of `object` by the robot where both stand: its palm, posture and contacts on
    /// the object, and the quality of kind `quality` (with the volume if `volume`), if asked
    /// (none too when the grasp cannot be evaluated).
    pub(crate) fn trial_as_it_stands(
        &self,
        backdrop: &Backdrop,
        robot: RobotId,
        object: BodyId,
        quality: Option<WrenchSpaceKind>,
        volume: bool,
    ) -> Result<GraspTrial, MoveError> {
        let quality = quality.and_then(|kind| {
            let grasp = self
                .grasp(backdrop, robot, object, &ContactOptions::default())
                .ok()?;
            match volume {
                true => grasp.quality_with_volume(kind).ok(),
                false => grasp.quality(kind).ok(),
            }
        });
        let hand = self.own_robot(robot)?;
        Ok(GraspTrial {
            palm: hand.pose(),
            dof_values: hand.dof_values().to_vec(),
            breakaway: hand.breakaway_states(),
            contacts: self
                .contacts_of(object)
                .filter(|c| c.other.robot() == Some(robot))
                .cloned()
                .collect(),
            quality,
        })
    }
}

impl<E: CollisionEngine> Domain<'_, E> {
    /// A planner's grasp trial of one of the domain's robots.
    pub fn grasp_trial(
        &mut self,
        robot: RobotId,
        plan: &TrialPlan,
    ) -> Result<GraspTrial, MoveError> {
        let (backdrop, stage) = self.split();
        stage.grasp_trial(&backdrop, robot, plan)
    }
}

impl<E: CollisionEngine> World<E> {
    /// Auto Grasp onto `object`, backing off where the fingers close onto something else, as a
    /// grasp trial closes (see `BACK_OFF`).
    pub fn close_on(&mut self, robot: RobotId, object: BodyId) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.close_on(&backdrop, robot, object)
    }

    /// GraspIt's multi-threaded planner step: a grasp trial of a clone of `hand` in a domain
    /// of its own, numbered `number`. Run many on rayon's threads: each gives what it gives
    /// alone.
    pub fn trial_in_domain(
        &self,
        number: u32,
        hand: &Robot,
        plan: &TrialPlan,
    ) -> Result<GraspTrial, MoveError> {
        let mut domain = self.domain(number)?;
        let robot = domain.add_robot(hand.clone());
        domain.grasp_trial(robot, plan)
    }

    /// Puts a robot where a grasp left it (a planned grasp, a batch's): its palm (a hand an
    /// arm carries by its arm, [`World::place_hand`]), its DOF values and where its joints
    /// broke away, without checking collisions. Refused, changing nothing, where `place_hand`
    /// or `set_posture` refuses.
    pub fn put_grasp(&mut self, robot: RobotId, grasp: &GraspTrial) -> Result<(), MoveError> {
        let before = self.placement(robot)?;
        self.place_hand(robot, grasp.palm)?;
        self.set_posture(robot, &grasp.dof_values, &grasp.breakaway)
            .inspect_err(|_| {
                // Puts back what the line above changed: it was accepted there.
                let _ = match &before {
                    Placement::Palm(pose) => self.set_pose(Element::Robot(robot), *pose),
                    Placement::Arm(arm, values) => self.set_dof_values(*arm, values),
                };
            })
    }

    /// What places a robot's palm: its own pose, or the DOFs of the arm that carries it.
    fn placement(&self, robot: RobotId) -> Result<Placement, MoveError> {
        Ok(match self.carrier(robot) {
            Some(c) => {
                let arm = c.parent_robot;
                Placement::Arm(arm, self.find_robot(arm)?.dof_values().to_vec())
            }
            None => Placement::Palm(self.find_robot(robot)?.pose()),
        })
    }
}

impl<E: CollisionEngine + Clone> World<E> {
    /// Whether the arm carrying `robot` can hold it where `grasp` left it: it reaches the palm
    /// there, and there neither arm nor hand is in anything. True for a robot no arm carries.
    pub fn arm_reaches(&self, robot: RobotId, grasp: &GraspTrial) -> bool {
        let Some(arm) = self
            .carrier(robot)
            .map(|c| self.assembly_root(c.parent_robot))
        else {
            return true;
        };
        let mut placed = self.clone();
        if placed.put_grasp(robot, grasp).is_err() {
            return false;
        }
        !placed.any_overlap_with(&placed.assembly_bodies(arm))
    }
}

/// How a robot's palm was placed, to put it back.
enum Placement {
    Palm(Pose),
    Arm(RobotId, Vec<f64>),
}
