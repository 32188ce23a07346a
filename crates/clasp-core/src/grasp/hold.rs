//! The physics test of a grasp (the label grasp datasets carry): the hand, its palm held where
//! the grasp put it, squeezes with its DOF controllers (each closing DOF's target a little past
//! where the grasp left it), and gravity pulls the object along each of the six axis
//! directions in turn; the grasp holds when the object moves no more than a distance and turns
//! no more than an angle in every direction (DexGraspNet's test in Isaac Gym, BODex's in
//! MuJoCo). Only the hand and the object take part: the table the grasp was planned on is
//! left out, as the datasets do. Each direction runs on a domain of its own (copies of the
//! hand and object sharing their geometry), so the answer is the same bit for bit on any
//! number of threads.

use clasp_collide::{CollisionEngine, FastEngine};
use nalgebra::{Point3, UnitQuaternion, Vector3};
use rayon::prelude::*;

use crate::{
    contact::memory::SolverStats,
    grasp::{
        hold_settings::{HoldSettings, Phase, Success, check},
        squeeze::{self, FingerTouch, Squeeze, fingers_touching},
        trial::GraspTrial,
    },
    ids::{BodyId, RobotId},
    pose::Pose,
    world::{World, domain::Domain, error::MoveError},
};

/// What one direction did to the object.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectionHold {
    /// The pull (mm/s², world axes).
    pub gravity: Vector3<f64>,
    /// How far its centre of gravity moved from the grasp, mm: at the end of the pull, or
    /// where it first stood past the bounds (the pull ends there: the hand let it go).
    pub displacement: f64,
    /// How far it turned from the grasp, rad, at the same moment.
    pub rotation: f64,
    /// The speed of its fastest point at the end, mm/s.
    pub speed: f64,
    /// Whether it ended at rest: slower than 1 mm/s, and its pose still over the last
    /// [`HOLD_PATH_INTERVAL`] (within 0.01 mm).
    pub rested: bool,
    /// How the contact solves of the steps that made this answer (the squeeze's and this
    /// pull's) ended: how many ran out of solver sweeps before their impulses settled (an
    /// answer whose steps did not settle depends on where the solves started, not on the
    /// physics alone), and the sweeps each took.
    pub solves: SolverStats,
    /// Within the distance and angle, and moving as its velocity says: an object whose pose
    /// stood still while its velocity said it moved (issue 41's freeze) never reads as held.
    pub held: bool,
    /// Where the object and the hand went, every [`HOLD_PATH_INTERVAL`] s from the grasp (squeeze,
    /// then pull): for drawing and playing the test back.
    pub path: Vec<HoldFrame>,
}

/// One moment of a direction's run.
#[derive(Debug, Clone, PartialEq)]
pub struct HoldFrame {
    /// The object's centre of gravity, world mm.
    pub centre: Point3<f64>,
    /// The object's pose.
    pub object: Pose,
    /// The hand's DOF values.
    pub dofs: Vec<f64>,
}

/// Seconds between the points of a direction's path.
pub const HOLD_PATH_INTERVAL: f64 = 0.01;

/// The test's answer: how the hand pressed after the squeeze, each direction (+x, −x, +y,
/// −y, +z, −z), and whether every one held.
#[derive(Debug, Clone, PartialEq)]
pub struct HoldTest {
    pub squeeze: Squeeze,
    /// Where the squeeze left hand and object: every run starts there.
    pub squeeze_end: HoldFrame,
    pub directions: Vec<DirectionHold>,
    pub held: bool,
    /// The steps the test took: the squeeze's and every pull's (a pull ends early where the
    /// object passed the bounds or came to rest).
    pub steps: usize,
}

impl HoldTest {
    /// The farthest its object moved in any direction's run (mm).
    pub fn most_moved(&self) -> f64 {
        self.directions
            .iter()
            .map(|d| d.displacement)
            .fold(0.0, f64::max)
    }
}

impl<E: CollisionEngine> World<E> {
    /// Tests the grasp `robot` has on `object` where both stand now ([`HoldSettings`]). Refused
    /// for a robot or object that is not there, or settings that are not positive numbers.
    ///
    /// The hand and the object are set apart in a world of their own (sharing their
    /// geometry); a domain of it holds copies of both and squeezes once, without gravity; each
    /// direction then runs on a copy of that domain pulling its own way, in parallel.
    pub fn test_grasp(
        &self,
        robot: RobotId,
        object: BodyId,
        settings: &HoldSettings,
    ) -> Result<HoldTest, MoveError> {
        check(settings)?;
        let alone = alone_with(self, robot, object, settings)?;
        let mut squeezing = alone.domain(1)?;
        let hand = squeezing.clone_robot(RobotId::from_index(0))?;
        let object = squeezing.clone_body(BodyId::Free(0))?;
        let test = Tested { object, hand };
        let start = test.frame(&squeezing)?;
        let mut path = vec![start.clone()];
        let squeeze = Phase {
            seconds: settings.squeeze_seconds,
            gravity: Vector3::zeros(),
            force: Vector3::zeros(),
        };
        test.run(&mut squeezing, &squeeze, &mut path, None)?;
        // The squeeze's run ends on its last frame (the path starts with the grasp's).
        let squeeze_end = path.last().cloned().unwrap_or_else(|| start.clone());
        let squeeze = Squeeze::of(&squeezing, test.hand, test.object)?;
        let squeeze_steps = squeezing.solver_stats().steps;
        let mass = squeezing
            .body(test.object)
            .ok_or(MoveError::NoSuchBody(test.object))?
            .mass
            .mass;
        let directions: Vec<DirectionHold> = settings
            .runs(mass)
            .par_iter()
            .map(|phases| {
                let run = Run {
                    start: &start,
                    squeeze: &squeeze,
                    settings,
                };
                test.pull(squeezing.clone(), path.clone(), phases, &run)
            })
            .collect::<Result<_, _>>()?;
        let held = directions.iter().all(|d| d.held);
        // Each direction's count starts with the squeeze's, which its domain was copied from.
        let pulls: usize = directions
            .iter()
            .map(|d| d.solves.steps - squeeze_steps)
            .sum();
        Ok(HoldTest {
            squeeze,
            squeeze_end,
            directions,
            held,
            steps: squeeze_steps + pulls,
        })
    }
}

impl<E: CollisionEngine + Clone> World<E> {
    /// The physics test of each of several grasps of `object` by `robot` (as trials and
    /// batches give them: palm, DOFs, breakaway), each put in place on a copy of this world,
    /// all in parallel; each answer is what that grasp gives alone.
    pub fn test_grasps(
        &self,
        robot: RobotId,
        object: BodyId,
        grasps: &[GraspTrial],
        settings: &HoldSettings,
    ) -> Vec<Result<HoldTest, MoveError>> {
        grasps
            .par_iter()
            .map(|grasp| {
                let mut world = self.clone();
                world.put_grasp(robot, grasp)?;
                world.test_grasp(robot, object, settings)
            })
            .collect()
    }
}

impl<E: CollisionEngine> World<E> {
    /// Puts the object and the hand's DOFs where a frame of a test's path had them, for
    /// playing the test back. The dynamics may press a DOF a hair past its limit, which the
    /// kinematics refuses: each value is taken within its limits.
    pub fn place_hold_frame(
        &mut self,
        robot: RobotId,
        object: BodyId,
        frame: &HoldFrame,
    ) -> Result<(), MoveError> {
        self.set_pose(object.element(), frame.object)?;
        let dofs = self.find_robot(robot)?.within_limits(&frame.dofs);
        self.set_dof_values(robot, &dofs)
    }

    /// The DOF targets the physics test's squeeze drives `robot` to on `object` where both
    /// stand: each closing DOF `squeeze` past where it is, or, with `squeeze_distance`, as far
    /// as moves its contacts on the object that far into it.
    pub fn squeeze_targets(
        &self,
        robot: RobotId,
        object: BodyId,
        settings: &HoldSettings,
    ) -> Result<Vec<f64>, MoveError> {
        match settings.squeeze_distance {
            Some(distance) => {
                squeeze::targets_moving_contacts(self, robot, object, distance, settings.squeeze)
            }
            None => Ok(self
                .find_robot(robot)?
                .squeezed_dof_values(settings.squeeze)),
        }
    }
}

/// What a test runs on its domain: the copies of the object and the hand.
struct Tested {
    object: BodyId,
    hand: RobotId,
}

/// What every run after the squeeze starts from and is judged by.
struct Run<'a> {
    /// Hand and object at the grasp.
    start: &'a HoldFrame,
    /// How the hand pressed after the squeeze.
    squeeze: &'a Squeeze,
    settings: &'a HoldSettings,
}

impl Tested {
    /// One run's phases after the squeeze; how far the object went from the start, and
    /// whether it held.
    fn pull(
        &self,
        mut domain: Domain<'_>,
        mut path: Vec<HoldFrame>,
        phases: &[Phase],
        run: &Run<'_>,
    ) -> Result<DirectionHold, MoveError> {
        // Only a test judged by the bounds ends when the object passes them.
        let let_go = (run.settings.success == Success::Within).then_some((run.start, run.settings));
        for phase in phases {
            domain.set_external_force(self.object, phase.force)?;
            self.run(&mut domain, phase, &mut path, let_go)?;
            if let_go.is_some_and(|(start, bounds)| {
                path.last()
                    .is_some_and(|now| past_bounds(start, now, bounds))
            }) {
                break;
            }
        }
        let body = domain
            .body(self.object)
            .ok_or(MoveError::NoSuchBody(self.object))?;
        let speed = body.fastest_point_speed();
        let mass = body.mass.mass;
        let solves = domain.solver_stats().clone();
        let fingers = fingers_touching(&domain, self.hand, self.object)?;
        let hand_touches = domain.contacts_of(self.object).any(|c| {
            matches!(c.other, BodyId::Link { robot, .. } | BodyId::Palm { robot } if robot == self.hand)
        });
        let first = phases
            .first()
            .map_or(Vector3::zeros(), |p| p.gravity + p.force / mass);
        let touches = held_by_contacts(
            run.settings.success,
            &run.squeeze.fingers,
            &fingers,
            hand_touches,
        );
        let moved = Moved {
            path,
            speed,
            solves,
        };
        Ok(judge_direction(
            first,
            run.start,
            moved,
            run.settings,
            touches,
        ))
    }

    /// Simulates a phase, adding a frame to the path every [`HOLD_PATH_INTERVAL`]; with `let_go`
    /// (the grasp's frame and the bounds), it ends as soon as the object is past the distance
    /// or the angle: the hand has let it go.
    fn run(
        &self,
        domain: &mut Domain<'_>,
        phase: &Phase,
        path: &mut Vec<HoldFrame>,
        let_go: Option<(&HoldFrame, &HoldSettings)>,
    ) -> Result<(), MoveError> {
        domain.set_gravity(phase.gravity)?;
        let (mut left, mut resting) = (phase.seconds, 0);
        // Once hand and object have rested a while, the rest of the run is skipped: what rests
        // at less than 1 mm/s cannot reach the bounds in what is left of a pull (0.5 mm in
        // 0.5 s against 20 mm), and the answer judges rest the same way.
        while left > 0.0 && resting < REST_SPANS {
            let span = left.min(HOLD_PATH_INTERVAL);
            domain.simulate(span)?;
            left -= span;
            let now = self.frame(domain)?;
            let gone = let_go.is_some_and(|(start, bounds)| past_bounds(start, &now, bounds));
            let before = path.last().cloned();
            path.push(now);
            if gone {
                break;
            }
            let rests =
                before.is_some_and(|b| self.rested_since(domain, &b, &path[path.len() - 1]));
            resting = if rests { resting + 1 } else { 0 };
        }
        Ok(())
    }

    /// Whether the object and the hand rested over the path interval from `before` to `now`,
    /// by pose and speed both: the object's centre moved less than [`REST_MOVE`] and it
    /// turned less than [`REST_TURN`], its fastest point is slower than [`REST_SPEED`], and
    /// no DOF of the hand moved more than [`REST_TURN`].
    fn rested_since(&self, domain: &Domain<'_>, before: &HoldFrame, now: &HoldFrame) -> bool {
        let slow = domain
            .body(self.object)
            .is_some_and(|b| b.fastest_point_speed() < REST_SPEED);
        let still = (now.centre - before.centre).norm() < REST_MOVE
            && now.object.rotation.angle_to(&before.object.rotation) < REST_TURN;
        let hand_still = now
            .dofs
            .iter()
            .zip(&before.dofs)
            .all(|(q, q0)| (q - q0).abs() < REST_TURN);
        slow && still && hand_still
    }

    /// The object and the hand as they stand.
    fn frame(&self, domain: &Domain<'_>) -> Result<HoldFrame, MoveError> {
        let body = domain
            .body(self.object)
            .ok_or(MoveError::NoSuchBody(self.object))?;
        let hand = domain
            .robot(self.hand)
            .ok_or(MoveError::NoSuchRobot(self.hand))?;
        Ok(HoldFrame {
            centre: body.world_cog(),
            object: body.pose(),
            dofs: hand.dof_values().to_vec(),
        })
    }
}

/// Whether a run held by the contacts its test judges by (where the fingers touched after the
/// squeeze and at the end, and whether a finger or the palm touches the object at the end);
/// `None` for a test judged by the bounds.
fn held_by_contacts(
    success: Success,
    squeezed: &[FingerTouch],
    now: &[FingerTouch],
    hand_touches: bool,
) -> Option<bool> {
    match success {
        Success::Within => None,
        Success::ContactRemains => Some(hand_touches),
        Success::FingersTouch => {
            let kept = squeezed
                .iter()
                .zip(now)
                .all(|(before, after)| !before.on_object || after.on_object);
            Some(squeezed.iter().any(|f| f.on_object) && kept)
        }
    }
}

/// Whether the object stands farther from the grasp than the test allows, or turned more.
fn past_bounds(start: &HoldFrame, now: &HoldFrame, settings: &HoldSettings) -> bool {
    let moved = (now.centre - start.centre).norm();
    let turned = now.object.rotation.angle_to(&start.object.rotation);
    moved > settings.max_displacement || turned > settings.max_rotation
}

/// How a run went: the path, the object's speed at the end, how its steps' solves ended.
struct Moved {
    path: Vec<HoldFrame>,
    speed: f64,
    solves: SolverStats,
}

/// A run's answer from how it went: held when the object is not frozen and, by `touches`
/// where the test judges by contacts, else within the bounds.
fn judge_direction(
    gravity: Vector3<f64>,
    start: &HoldFrame,
    Moved {
        path,
        speed,
        solves,
    }: Moved,
    settings: &HoldSettings,
    touches: Option<bool>,
) -> DirectionHold {
    let end = path.last().unwrap_or(start);
    let before = path.len().checked_sub(2).map_or(start, |k| &path[k]);
    let displacement = (end.centre - start.centre).norm();
    let rotation = end.object.rotation.angle_to(&start.object.rotation);
    let last_move = (end.centre - before.centre).norm();
    let rested = speed < REST_SPEED && last_move < REST_MOVE;
    let frozen = speed > FROZEN_SPEED && last_move < 0.1 * speed * HOLD_PATH_INTERVAL;
    let within = displacement <= settings.max_displacement && rotation <= settings.max_rotation;
    DirectionHold {
        gravity,
        displacement,
        rotation,
        speed,
        rested,
        solves,
        held: touches.unwrap_or(within) && !frozen,
        path,
    }
}

/// An object at rest moves its fastest point slower than this (mm/s)...
const REST_SPEED: f64 = 1.0;
/// ...and its centre less than this (mm) over the last path interval...
const REST_MOVE: f64 = 0.01;
/// ...and turns less than this (rad) over it, the hand's DOFs too (rad, or mm if prismatic).
const REST_TURN: f64 = 1e-4;
/// A speed (mm/s) an object whose pose stands still cannot have: it is frozen, not held.
const FROZEN_SPEED: f64 = 5.0;

/// Path intervals hand and object must rest for the rest of a pull to be skipped.
const REST_SPANS: usize = 5;

fn placement(
    world: &World,
    object: BodyId,
) -> Result<(Point3<f64>, UnitQuaternion<f64>), MoveError> {
    let body = world.body(object).ok_or(MoveError::NoSuchBody(object))?;
    Ok((body.world_cog(), body.pose().rotation))
}

/// GraspIt's lift test: how a grasped object followed the palm up.
#[derive(Debug, Clone, PartialEq)]
pub struct LiftTest {
    /// How far the object's centre rose, mm.
    pub raised: f64,
    /// How far it moved relative to the palm (mm) and turned relative to it (rad).
    pub slipped: f64,
    pub turned: f64,
    /// Whether it followed: slipped and turned within the settings' limits.
    pub held: bool,
}

impl<E: CollisionEngine> World<E> {
    /// GraspIt's lift: the hand squeezes, then its palm rises `height` mm at `speed` mm/s
    /// against gravity (the world's, pointing down −z here by the settings' magnitude), the
    /// hand and the object alone; held when the object followed the palm within the settings'
    /// distance and angle.
    pub fn lift_grasp(
        &self,
        robot: RobotId,
        object: BodyId,
        height: f64,
        speed: f64,
        settings: &HoldSettings,
    ) -> Result<LiftTest, MoveError> {
        check(settings)?;
        if !(height.is_finite() && speed.is_finite() && height >= 0.0 && speed > 0.0) {
            return Err(MoveError::BadHoldSettings);
        }
        let mut world = alone_with(self, robot, object, settings)?;
        let (hand, object) = (RobotId::from_index(0), BodyId::Free(0));
        world.set_gravity(Vector3::zeros())?;
        world.simulate(settings.squeeze_seconds)?;
        let relative = |w: &World| -> Result<(Point3<f64>, UnitQuaternion<f64>), MoveError> {
            let palm = w.find_robot(hand)?.pose();
            let (centre, turn) = placement(w, object)?;
            Ok((palm.inverse() * centre, palm.rotation.inverse() * turn))
        };
        let (start, start_turn) = relative(&world)?;
        let low = placement(&world, object)?.0.z;
        world.set_gravity(Vector3::new(0.0, 0.0, -settings.gravity))?;
        let rise =
            crate::body::velocity::Velocity::new(Vector3::new(0.0, 0.0, speed), Vector3::zeros());
        world.set_base_velocity(hand, rise)?;
        world.simulate(height / speed)?;
        let (end, end_turn) = relative(&world)?;
        let (slipped, turned) = ((end - start).norm(), end_turn.angle_to(&start_turn));
        Ok(LiftTest {
            raised: placement(&world, object)?.0.z - low,
            slipped,
            turned,
            held: slipped <= settings.max_displacement && turned <= settings.max_rotation,
        })
    }
}

/// A world of the hand and the object alone (the object dynamic), with `world`'s settings,
/// the hand squeezing.
fn alone_with<E: CollisionEngine>(
    world: &World<E>,
    robot: RobotId,
    object: BodyId,
    settings: &HoldSettings,
) -> Result<World, MoveError> {
    let hand = world.find_robot(robot)?.clone();
    let body = world.body(object).ok_or(MoveError::NoSuchBody(object))?;
    if object.free_index().is_none() {
        return Err(MoveError::NotFree(object));
    }
    let mut body = body.clone().of_type(crate::body::BodyType::Dynamic);
    if let Some(mass) = settings.object_mass {
        body.mass.mass = mass;
    }
    let mut alone = World::with_engine(FastEngine, vec![body], vec![hand]);
    alone.settings = world.settings;
    if let Some(step) = settings.time_step {
        alone.set_time_step(step)?;
    }
    if settings.friction.is_some() {
        alone.set_contact_friction(settings.friction)?;
    }
    // A hand in the object would hold it by its moves refusing to go deeper: no test.
    if let Some(&(a, b)) = alone.overlapping_pairs().first() {
        return Err(MoveError::Interpenetrating(a, b));
    }
    let hand = RobotId::from_index(0);
    let targets = alone.squeeze_targets(hand, BodyId::Free(0), settings)?;
    alone.drive_robot(hand, &targets)?;
    Ok(alone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::settings::EARTH_GRAVITY;

    fn at(x: f64) -> HoldFrame {
        HoldFrame {
            centre: Point3::new(x, 0.0, 0.0),
            object: Pose::translation(x, 0.0, 0.0),
            dofs: Vec::new(),
        }
    }

    #[test]
    fn a_frozen_object_never_reads_as_held_and_a_still_one_rests() {
        let settings = HoldSettings::default();
        let pull = Vector3::new(0.0, 0.0, -EARTH_GRAVITY);
        let path = || vec![at(0.0), at(1.0), at(1.0)];
        let none = SolverStats::default();
        // Its pose still for the last interval while its velocity says 200 mm/s: frozen.
        let moved = |path, speed| Moved {
            path,
            speed,
            solves: none.clone(),
        };
        let frozen = judge_direction(pull, &at(0.0), moved(path(), 200.0), &settings, None);
        assert!(!frozen.held && !frozen.rested, "{frozen:?}");
        // The same path with the object still: held, and at rest.
        let still = judge_direction(pull, &at(0.0), moved(path(), 0.0), &settings, None);
        assert!(still.held && still.rested, "{still:?}");
        // Moving as its velocity says (2 mm in 0.01 s at 200 mm/s), within 20 mm: held, not
        // at rest.
        let sliding = vec![at(0.0), at(1.0), at(3.0)];
        let slipping = judge_direction(pull, &at(0.0), moved(sliding, 200.0), &settings, None);
        assert!(slipping.held && !slipping.rested, "{slipping:?}");
    }

    #[test]
    fn contact_judged_tests_ask_the_contacts_at_the_end() {
        let on = |fingers: &[bool]| -> Vec<FingerTouch> {
            fingers
                .iter()
                .map(|&on_object| FingerTouch {
                    on_object,
                    on_fingers: Vec::new(),
                    on_palm: false,
                })
                .collect()
        };
        let two_of_three = on(&[true, true, false]);
        let both_still = on(&[true, true, false]);
        let one_left = on(&[true, false, true]);
        let fingers = Success::FingersTouch;
        assert_eq!(
            held_by_contacts(fingers, &two_of_three, &both_still, true),
            Some(true)
        );
        assert_eq!(
            held_by_contacts(fingers, &two_of_three, &one_left, true),
            Some(false)
        );
        let none = on(&[false, false]);
        // Only the palm on the object at the end.
        assert_eq!(held_by_contacts(fingers, &none, &none, true), Some(false));
        let remains = Success::ContactRemains;
        assert_eq!(held_by_contacts(remains, &none, &none, true), Some(true));
        assert_eq!(held_by_contacts(remains, &none, &none, false), Some(false));
        assert_eq!(held_by_contacts(Success::Within, &none, &none, true), None);
    }
}
