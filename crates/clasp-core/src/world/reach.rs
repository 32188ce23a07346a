//! A hand carried by an arm, moved by its palm: the arm's DOFs that put the palm where it is
//! asked come from inverse kinematics ([`ArmCarrier::reach`]), and every move stops at contact
//! as any other does. A move follows the palm's straight path in steps of at most
//! [`PATH_STEP`], the arm's posture solved at each from the last, so the arm keeps its posture
//! on the way (a path it could follow only by changing posture is refused before anything
//! moves).

use clasp_collide::CollisionEngine;
use nalgebra::Translation3;

use super::{
    World,
    domain::Domain,
    error::{MoveError, check_distance, check_pose},
    stage::{Backdrop, Stage},
};
use crate::{
    ids::{Element, RobotId},
    motion::MoveOutcome,
    pose::Pose,
    robot::{reach::ArmCarrier, reach_ball::ReachBall},
};

/// The longest step of a palm's straight path: mm, and rad.
pub const PATH_STEP: (f64, f64) = (5.0, 0.05);

/// The most a DOF may change between two steps of a path (rad or mm) before the arm is judged
/// to have changed its posture.
const POSTURE_JUMP: f64 = 0.5;

impl Stage {
    /// The arm carrying `hand` as inverse kinematics sees it, and that arm's id; `None` for a
    /// robot nothing carries.
    fn carrier_of(&self, hand: RobotId) -> Option<(RobotId, ArmCarrier<'_>)> {
        let c = self.carrying(hand)?;
        let arm = self.robot(c.parent_robot)?;
        let carrier = ArmCarrier {
            arm,
            chain: c.parent_chain,
            offset: c.offset,
        };
        Some((c.parent_robot, carrier))
    }

    /// Puts a robot's palm at `palm` without checking collisions: a carried robot by setting
    /// its arm's DOFs. Refused, changing nothing, where the arm cannot reach.
    pub fn place_hand(
        &mut self,
        backdrop: &Backdrop,
        hand: RobotId,
        palm: Pose,
    ) -> Result<(), MoveError> {
        check_pose(&palm)?;
        self.own_robot(hand)?;
        let Some((arm, carrier)) = self.carrier_of(hand) else {
            return self.set_pose(backdrop, Element::Robot(hand), palm);
        };
        let values = carrier
            .reach(&palm, carrier.arm.dof_values())
            .map_err(|miss| MoveError::OutOfReach {
                robot: hand,
                distance: miss.distance,
                angle: miss.angle,
            })?;
        self.set_dof_values(backdrop, arm, &values)
    }

    /// Moves a robot's palm along the straight path to `palm`, stopping at contact: a carried
    /// robot by its arm's DOFs. Refused, changing nothing, where the arm cannot follow the path.
    pub fn move_hand_to(
        &mut self,
        backdrop: &Backdrop,
        hand: RobotId,
        palm: Pose,
    ) -> Result<MoveOutcome, MoveError> {
        check_pose(&palm)?;
        self.own_robot(hand)?;
        let Some((arm, carrier)) = self.carrier_of(hand) else {
            return self.move_to(backdrop, Element::Robot(hand), palm);
        };
        let path = arm_path(&carrier, hand, &palm);
        if let Some(refused) = path.refused {
            return Err(refused);
        }
        self.follow(backdrop, arm, &path.postures)
    }

    /// Moves an arm through `postures` in turn, stopping at contact.
    fn follow(
        &mut self,
        backdrop: &Backdrop,
        arm: RobotId,
        postures: &[Vec<f64>],
    ) -> Result<MoveOutcome, MoveError> {
        let mut outcome = MoveOutcome {
            completed: true,
            ..MoveOutcome::default()
        };
        for values in postures {
            outcome = self.move_dofs_to(backdrop, arm, values)?;
            if !outcome.completed {
                break;
            }
        }
        Ok(outcome)
    }

    /// [`Stage::approach_to_contact`] for a robot an arm carries: the arm moves the palm along
    /// its approach direction as far as it can follow (refused where it cannot start), and back
    /// where it was if it meets nothing.
    pub(super) fn approach_carried(
        &mut self,
        backdrop: &Backdrop,
        hand: RobotId,
        distance: f64,
    ) -> Result<MoveOutcome, MoveError> {
        check_distance(distance)?;
        let Some((arm, carrier)) = self.carrier_of(hand) else {
            return Err(MoveError::NoSuchRobot(hand));
        };
        let start = carrier.arm.dof_values().to_vec();
        let target = self.own_robot(hand)?.approached(distance);
        let path = arm_path(&carrier, hand, &target);
        if let (true, Some(refused)) = (path.postures.is_empty(), path.refused) {
            return Err(refused);
        }
        let outcome = self.follow(backdrop, arm, &path.postures)?;
        if outcome.completed {
            self.set_dof_values(backdrop, arm, &start)?;
        }
        Ok(outcome)
    }

    /// Whether an arm carries this robot.
    pub(super) fn is_carried(&self, robot: RobotId) -> bool {
        self.carrying(robot).is_some()
    }
}

/// The arm's postures along a palm's straight path, as far as the arm follows it.
struct ArmPath {
    /// One per step of at most [`PATH_STEP`].
    postures: Vec<Vec<f64>>,
    /// Why the path ends short of its target, if it does.
    refused: Option<MoveError>,
}

/// The arm's postures along the palm's straight path from where it stands to `target`.
fn arm_path(carrier: &ArmCarrier, hand: RobotId, target: &Pose) -> ArmPath {
    let mut values = carrier.arm.dof_values().to_vec();
    let mut path = ArmPath {
        postures: Vec::new(),
        refused: None,
    };
    let Some(start) = carrier.palm_at(&values) else {
        path.refused = Some(MoveError::NoSuchRobot(hand));
        return path;
    };
    let travel = (target.translation.vector - start.translation.vector).norm();
    let turn = start.rotation.angle_to(&target.rotation);
    let steps = (travel / PATH_STEP.0)
        .max(turn / PATH_STEP.1)
        .ceil()
        .max(1.0) as usize;
    for step in 1..=steps {
        let t = step as f64 / steps as f64;
        let along = Pose::from_parts(
            Translation3::from(start.translation.vector.lerp(&target.translation.vector, t)),
            start.rotation.slerp(&target.rotation, t),
        );
        let next = match carrier.reach(&along, &values) {
            Ok(next) => next,
            Err(miss) => {
                path.refused = Some(MoveError::OutOfReach {
                    robot: hand,
                    distance: miss.distance,
                    angle: miss.angle,
                });
                break;
            }
        };
        let jump = next
            .iter()
            .zip(&values)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        if jump > POSTURE_JUMP {
            path.refused = Some(MoveError::ArmCannotFollow { robot: hand });
            break;
        }
        values = next;
        path.postures.push(values.clone());
    }
    path
}

impl<E: CollisionEngine> World<E> {
    /// Puts a robot's palm at `palm` without checking collisions; a robot an arm carries is put
    /// there by its arm (inverse kinematics). Refused, changing nothing, where the arm cannot
    /// reach.
    pub fn place_hand(&mut self, hand: RobotId, palm: Pose) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.place_hand(&backdrop, hand, palm)
    }

    /// Moves a robot's palm along the straight path to `palm`, stopping at contact; a robot an
    /// arm carries is moved by its arm, its posture kept on the way. Refused, changing nothing,
    /// where the arm cannot follow the path.
    pub fn move_hand_to(&mut self, hand: RobotId, palm: Pose) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_hand_to(&backdrop, hand, palm)
    }

    /// The ball the arm carrying `hand` cannot take its wrist out of ([`ReachBall`]): where
    /// the palm is certainly out of the arm's reach. `None` for a hand nothing carries, or an
    /// arm [`ArmCarrier::reach_ball`] cannot bound.
    pub fn reach_ball(&self, hand: RobotId) -> Option<ReachBall> {
        self.stage.carrier_of(hand)?.1.reach_ball()
    }
}

impl<E: CollisionEngine> Domain<'_, E> {
    /// [`World::place_hand`] for one of the domain's robots.
    pub fn place_hand(&mut self, hand: RobotId, palm: Pose) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.place_hand(&backdrop, hand, palm)
    }

    /// [`World::move_hand_to`] for one of the domain's robots.
    pub fn move_hand_to(&mut self, hand: RobotId, palm: Pose) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_hand_to(&backdrop, hand, palm)
    }
}
