//! Recordings: a run kept moment by moment so it can be played back, scrubbed and shared. A
//! [`Moment`] holds where every body stood (in [`World::body_ids`] order), each robot's posture,
//! and the contacts with the impulses of the step that led there; a [`Recording`] is the
//! moments of one run in time order. The world a recording starts from is the caller's to keep
//! (clasp-io writes it beside the recording's file).

use clasp_collide::CollisionEngine;
use nalgebra::{Point3, Vector3};

use crate::{
    body::velocity::Velocity,
    dynamics::settings::run_steps,
    grasp::hold::{HOLD_PATH_INTERVAL, HoldTest},
    ids::{BodyId, Element, RobotId},
    pose::Pose,
    world::{World, error::MoveError},
};

/// Seconds between the moments a recorded run keeps (the physics test's own interval).
pub const RECORD_INTERVAL: f64 = HOLD_PATH_INTERVAL;

/// Steps between a recorded run's moments at time step `time_step` (at least one).
pub fn steps_per_moment(time_step: f64) -> usize {
    ((RECORD_INTERVAL / time_step).round() as usize).max(1)
}

/// A run, moment by moment, in time order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recording {
    pub moments: Vec<Moment>,
}

/// One moment of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Moment {
    /// Seconds since the run began.
    pub time: f64,
    /// Every body's pose, in [`World::body_ids`] order.
    pub poses: Vec<Pose>,
    /// Every body's velocity, in the same order (a robot's bodies move with its DOFs: theirs
    /// are kept as the world has them, and not put back).
    pub velocities: Vec<Velocity>,
    /// Each robot's posture, in [`World::robots`] order.
    pub robots: Vec<Posture>,
    /// Each physical contact once (the side on the pair's first body).
    pub contacts: Vec<RecordedContact>,
}

/// A robot's DOF values and, per DOF, where its joints broke away.
#[derive(Debug, Clone, PartialEq)]
pub struct Posture {
    pub dofs: Vec<f64>,
    pub breakaway: Vec<Vec<Option<f64>>>,
}

/// A contact as recorded: its two bodies (places in the moment's `poses`), the point on the
/// first, the normal (towards the first) and the impulse of the step on the first, world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordedContact {
    pub body: usize,
    pub other: usize,
    pub point: Point3<f64>,
    pub normal: Vector3<f64>,
    /// g·mm/s; zero where no step solved the contact (a placed moment).
    pub impulse: Vector3<f64>,
}

/// Why a moment cannot be put into a world.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlaybackError {
    #[error(
        "the recording has {recorded} bodies and {robots} robots; the world has {bodies} and {world_robots}"
    )]
    DifferentWorld {
        recorded: usize,
        robots: usize,
        bodies: usize,
        world_robots: usize,
    },
    #[error(transparent)]
    Move(#[from] MoveError),
}

impl Moment {
    /// The world as it stands, `time` seconds into a run.
    pub fn of<E: CollisionEngine>(world: &World<E>, time: f64) -> Moment {
        let ids = world.body_ids();
        let place = |id: BodyId| ids.iter().position(|&i| i == id);
        let poses = ids
            .iter()
            .map(|&id| world.body(id).map_or_else(Pose::identity, |b| b.pose()))
            .collect();
        let velocities = ids
            .iter()
            .map(|&id| world.body(id).map_or(Velocity::ZERO, |b| b.velocity()))
            .collect();
        let robots = world
            .robots()
            .map(|(_, r)| Posture {
                dofs: r.dof_values().to_vec(),
                breakaway: r.breakaway_states(),
            })
            .collect();
        let contacts = world
            .contacts()
            .iter()
            .filter(|c| c.is_object_a && !c.skip)
            .filter_map(|c| {
                Some(RecordedContact {
                    body: place(c.body)?,
                    other: place(c.other)?,
                    point: c.point,
                    normal: c.normal.into_inner(),
                    impulse: c.world_impulse(),
                })
            })
            .collect();
        Moment {
            time,
            poses,
            velocities,
            robots,
            contacts,
        }
    }

    /// Puts the world where it stood at this moment: each free body at its pose (a moving one
    /// with its velocity), each robot not carried by another at its palm's pose, and every
    /// robot in its posture; the contacts are found again (without impulses). Refused,
    /// changing nothing, for a world with other bodies or robots than the recorded one.
    pub fn apply_to<E: CollisionEngine + Clone>(
        &self,
        world: &mut World<E>,
    ) -> Result<(), PlaybackError> {
        *world = self.applied_to(world.clone())?;
        Ok(())
    }

    /// [`Self::apply_to`] on a world of the caller's to give up: no copy is made to keep it
    /// whole on a refusal.
    pub fn applied_to<E: CollisionEngine>(
        &self,
        mut world: World<E>,
    ) -> Result<World<E>, PlaybackError> {
        let ids = world.body_ids();
        let robots: Vec<RobotId> = world.robots().map(|(r, _)| r).collect();
        let shape = (self.poses.len(), self.velocities.len());
        if shape != (ids.len(), ids.len()) || robots.len() != self.robots.len() {
            return Err(PlaybackError::DifferentWorld {
                recorded: self.poses.len(),
                robots: self.robots.len(),
                bodies: ids.len(),
                world_robots: robots.len(),
            });
        }
        for (&id, &pose) in ids.iter().zip(&self.poses) {
            let element = match id {
                BodyId::Free(i) => Element::Body(i),
                BodyId::Palm { robot } if !carried(&world, robot) => Element::Robot(robot),
                _ => continue,
            };
            world.set_pose(element, pose)?;
        }
        for (&robot, posture) in robots.iter().zip(&self.robots) {
            world.set_posture(robot, &posture.dofs, &posture.breakaway)?;
        }
        for (&id, &velocity) in ids.iter().zip(&self.velocities) {
            let moves = world.body(id).is_some_and(|b| !b.is_static());
            if id.free_index().is_some() && moves {
                world.set_velocity(id, velocity)?;
            }
        }
        Ok(world)
    }
}

impl Recording {
    /// The moment shown at `time`: the last one at or before it (the first before them all).
    pub fn at(&self, time: f64) -> Option<&Moment> {
        let after = self.moments.partition_point(|m| m.time <= time);
        self.moments.get(after.saturating_sub(1))
    }

    /// Seconds from the first moment to the last.
    pub fn duration(&self) -> f64 {
        match (self.moments.first(), self.moments.last()) {
            (Some(first), Some(last)) => last.time - first.time,
            _ => 0.0,
        }
    }

    /// A grasp test played back as one run: each direction's path after the other (a frame
    /// every [`HOLD_PATH_INTERVAL`]), the hand and object placed in `world` (the world the test
    /// began from) at each frame.
    pub fn of_hold_test<E: CollisionEngine + Clone>(
        world: &World<E>,
        robot: RobotId,
        object: BodyId,
        test: &HoldTest,
    ) -> Result<Recording, PlaybackError> {
        let mut placed = world.clone();
        let mut moments = Vec::new();
        let frames = test.directions.iter().flat_map(|d| &d.path);
        for (k, frame) in frames.enumerate() {
            placed.place_hold_frame(robot, object, frame)?;
            moments.push(Moment::of(&placed, k as f64 * HOLD_PATH_INTERVAL));
        }
        Ok(Recording { moments })
    }
}

impl<E: CollisionEngine> World<E> {
    /// [`World::simulate`], adding a moment to `recording` every `every` steps (and the start
    /// when the recording is empty); its clock goes on from the recording's last moment.
    /// Returns the steps taken; a failing step stops the run there, what came before kept.
    pub fn simulate_recorded(
        &mut self,
        seconds: f64,
        every: usize,
        recording: &mut Recording,
    ) -> Result<usize, MoveError> {
        self.simulate_recorded_until(seconds, every, recording, || false)
    }

    /// [`Self::simulate_recorded`], asking `stop` before each step whether to stop there (a
    /// user's Ctrl-C): the run's last whole step is then its last moment. Returns the steps
    /// taken.
    pub fn simulate_recorded_until(
        &mut self,
        seconds: f64,
        every: usize,
        recording: &mut Recording,
        mut stop: impl FnMut() -> bool,
    ) -> Result<usize, MoveError> {
        let dt = self.time_step();
        let steps = run_steps(seconds, dt)?;
        let start = recording.moments.last().map_or(0.0, |m| m.time);
        if recording.moments.is_empty() {
            recording.moments.push(Moment::of(self, 0.0));
        }
        let every = every.max(1);
        for taken in 1..=steps {
            if stop() {
                let last = (taken - 1) % every != 0;
                if last {
                    let time = start + (taken - 1) as f64 * dt;
                    recording.moments.push(Moment::of(self, time));
                }
                return Ok(taken - 1);
            }
            self.step()?;
            if taken % every == 0 || taken == steps {
                recording
                    .moments
                    .push(Moment::of(self, start + taken as f64 * dt));
            }
        }
        Ok(steps)
    }
}

/// Whether another robot carries `robot` (its pose is then its carrier's to set).
fn carried<E: CollisionEngine>(world: &World<E>, robot: RobotId) -> bool {
    world.connections().iter().any(|c| c.child_robot == robot)
}
