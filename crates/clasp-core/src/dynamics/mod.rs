//! Dynamics: free bodies that fall, slide and rest under gravity on Clasp's own triangle-mesh
//! contacts (issue 28), hands driven by their DOF controllers (issue 29), and a step that never
//! lies about where a body is (issue 41).
//!
//! A free body is static, dynamic or kinematic ([`BodyType`]); a robot given DOF targets is
//! one articulated body with the robots it carries ([`movers`], [`articulated`]). A step, of
//! `time_step` seconds:
//! 1. every dynamic body gains gravity's velocity; a world whose bodies interpenetrate is
//!    refused, the pairs named ([`overlaps`]);
//! 2. the contacts of every checked pair with a moving body (within the contact threshold,
//!    pruned as the dynamics needs: [`ContactUse::Dynamics`]) and the robots' DOF
//!    controllers are solved together for impulses that leave no contact approaching and none
//!    slipping inside its friction cone ([`solver`]); friction is the material table's,
//!    kinetic where the contact slid faster than 1 mm/s at the step's start, static below;
//! 3. each dynamic body moves by its new velocity as a move does, turning about its centre of
//!    gravity and stopping at contact ([`crate::World::move_to`]'s machinery): nothing ever
//!    passes into anything; angular momentum is carried through the turn; then each driven
//!    robot advances its DOFs and base ([`robots`]);
//! 4. a body that stopped short met something: an impact solve (no gravity again, the robots
//!    held where their step left them) takes its velocity into what it met, and it goes on
//!    for the rest of the step, a few times at most; debug builds check that no body ends the
//!    step unmoved while its velocity says it moves;
//! 5. each kinematic body moves by the velocity it was given, stopping at contact;
//! 6. the world's contacts are found once for all that moved, each with the impulse the solver
//!    applied there (RaiSim's `getImpulse`).
//!
//! To the solver, kinematic bodies weigh infinitely much and move; static bodies weigh
//! infinitely much and stay.

pub(crate) mod articulated;
mod contacts;
pub(crate) mod lcp;
mod mass;
pub(crate) mod movers;
pub mod overlaps;
pub mod robots;
mod settings;
pub(crate) mod solver;

use nalgebra::{Point3, Translation3, UnitQuaternion, Vector3};

use clasp_collide::CollisionEngine;

use crate::{
    body::{Body, velocity::Velocity},
    contact::Contact,
    ids::{BodyId, Element, RobotId},
    motion::MoveOutcome,
    pose::Pose,
    world::{
        World,
        error::{BodyName, MoveError},
        settings::ContactSolver,
    },
};
use contacts::{Applied, Solved};
use mass::{mobile, pusher};
use movers::{Movers, Side};
use settings::run_steps;
use solver::{Mobile, Mobiles, Row};

/// A speed no body reaches in a grasp simulation (mm/s; 1 km/s): beyond it a step has blown up.
pub const SPEED_LIMIT: f64 = 1.0e6;

/// How many times within one step a body that stopped short is solved again and goes on.
const IMPACTS_PER_STEP: usize = 4;

impl<E: CollisionEngine> World<E> {
    /// Advances the world one time step (see the module's account). Refused, changing nothing,
    /// when a dynamic body has no positive mass or inertia; a step that blows up is undone and
    /// says so.
    pub fn step(&mut self) -> Result<(), MoveError> {
        let movers = Movers::of(self);
        // Where the step found the bodies and robots, to go back to if it fails half way (an
        // impact within it that blows up, say): the world stays at its last good step.
        let bodies: Vec<(usize, Pose, Velocity)> = movers
            .bodies
            .iter()
            .filter_map(|&i| Some((i, self.free_body(i)?.pose, self.free_body(i)?.velocity)))
            .collect();
        let robots: Vec<(RobotId, Pose, Vec<f64>, Vec<f64>)> = movers
            .robots()
            .filter_map(|r| {
                let robot = self.robot(r)?;
                let state = (robot.dof_values().to_vec(), robot.dof_velocities.clone());
                Some((r, robot.pose(), state.0, state.1))
            })
            .collect();
        let stepped = self.take_step(&movers);
        if stepped.is_err() {
            for &(i, pose, velocity) in &bodies {
                // Each pose was accepted where it stood at the step's start.
                let _ = self.set_pose(Element::Body(i), pose);
                if let Some(body) = self.body_mut(BodyId::Free(i)) {
                    body.velocity = velocity;
                }
            }
            for (r, pose, values, velocities) in robots {
                let _ = self.set_pose(Element::Robot(r), pose);
                let _ = self.set_dof_values(r, &values);
                if let Some(robot) = self.stage.robot_mut(r) {
                    robot.dof_velocities = velocities;
                }
            }
        }
        stepped
    }

    /// The step itself, for what `movers` names.
    fn take_step(&mut self, movers: &Movers) -> Result<(), MoveError> {
        let gravity = self.settings.gravity * self.settings.time_step;
        let (mobiles, mut applied) = self.solve_contacts(movers, gravity, true)?;
        let dt = self.settings.time_step;
        let mut left = Vec::with_capacity(movers.dynamic);
        for (&i, m) in movers.dynamic().iter().zip(&mobiles.bodies) {
            left.push(dt * (1.0 - self.advance(i, m, dt, true)?));
        }
        for (assembly, moved) in movers.assemblies.iter().zip(&mobiles.robots) {
            self.advance_assembly(assembly, moved, dt)?;
        }
        // A body that stopped short met another within the step: the meeting is inelastic,
        // solved on the contacts it ends with (no gravity added again, so no step gains
        // energy), and the body goes on for the rest of the step with what the solve left it
        // (a faceted ball pivots over the vertex it met), a few times at most. Robots have
        // taken their step.
        for _ in 0..IMPACTS_PER_STEP {
            if left.iter().all(|&t| t <= dt * 1e-6) {
                break;
            }
            let (mobiles, impact) = self.solve_contacts(movers, Vector3::zeros(), false)?;
            applied.extend(impact);
            for ((&i, m), rest) in movers.dynamic().iter().zip(&mobiles.bodies).zip(&mut left) {
                if let Some(body) = self.body_mut(BodyId::Free(i)) {
                    body.velocity = Velocity::new(m.linear, m.angular);
                }
                if *rest > dt * 1e-6 {
                    *rest *= 1.0 - self.advance(i, m, *rest, false)?;
                }
            }
        }
        if cfg!(debug_assertions) {
            self.check_moved_as_velocity_says(movers, &left);
        }
        for &i in movers.kinematic() {
            self.move_kinematic(i, dt)?;
        }
        self.find_step_contacts(movers);
        self.remember_impulses(&applied);
        self.keep_impulses(&applied);
        Ok(())
    }

    /// In debug builds: no body ends a step without having moved at all while its velocity
    /// says it would have gone farther than the contact threshold (its velocity into what
    /// stopped it is solved away at the contact it stopped at, so a body that cannot move
    /// has no velocity). Issue 41's frozen drops broke this at every step: a body stood still
    /// while its velocity grew by g·t.
    fn check_moved_as_velocity_says(&self, movers: &Movers, left: &[f64]) {
        let dt = self.settings.time_step;
        for (&i, &seconds) in movers.dynamic().iter().zip(left) {
            if seconds < dt * (1.0 - 1e-9) {
                continue; // it moved
            }
            let Some(body) = self.free_body(i) else {
                continue;
            };
            let v = body.velocity;
            let short = seconds * body.fastest_point_speed();
            assert!(
                short <= self.settings.contact_threshold,
                "{} stopped {short} mm short of where its velocity ({:?}, {:?}) takes it: its pose and velocity disagree",
                self.body_name(BodyId::Free(i)),
                v.linear,
                v.angular
            );
        }
    }

    /// Steps for `seconds` of simulated time (rounded to whole steps); returns the steps taken.
    /// A step that fails stops the run there, with the world at its last good step. Refused,
    /// changing nothing, for a duration that is not a finite number, none negative, or more
    /// than [`MAX_RUN_STEPS`] steps.
    pub fn simulate(&mut self, seconds: f64) -> Result<usize, MoveError> {
        self.simulate_until(seconds, || false)
    }

    /// [`Self::simulate`], asking `stop` before each step whether to stop there (a user's
    /// Ctrl-C): the world is left at its last whole step. Returns the steps taken.
    pub fn simulate_until(
        &mut self,
        seconds: f64,
        mut stop: impl FnMut() -> bool,
    ) -> Result<usize, MoveError> {
        let steps = run_steps(seconds, self.settings.time_step)?;
        for taken in 0..steps {
            if stop() {
                return Ok(taken);
            }
            self.step()?;
        }
        Ok(steps)
    }

    /// The velocities of what moves after `added` (gravity's share of a step, or nothing) and
    /// the impulses of the contacts the world has now, each with the contact it acts at; the
    /// step's first solve (`first`) also runs the robots' DOF controllers and starts each
    /// contact from last step's impulse. Refused, changing nothing, for a body that cannot move
    /// (no positive mass) or a solve that blows up.
    fn solve_contacts(
        &mut self,
        movers: &Movers,
        added: Vector3<f64>,
        first: bool,
    ) -> Result<(Mobiles, Applied), MoveError> {
        let mut mobiles = Mobiles {
            bodies: Vec::with_capacity(movers.bodies.len()),
            robots: self.articulated(movers, added)?,
        };
        for (k, &i) in movers.bodies.iter().enumerate() {
            let id = BodyId::Free(i);
            let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
            let one = match k < movers.dynamic {
                true => mobile(body, added).map_err(|fault| fault.error(self.body_name(id)))?,
                false => pusher(body),
            };
            mobiles.bodies.push(one);
        }
        // A contact between bodies nothing pushes back has nothing to solve.
        // An impact comes after the robots took their step: to it they stand where they are,
        // as they will for the rest of the step (solved as moving, a finger would have made
        // way for the object it squeezed in the solve but not in the step, and the object stood
        // still with its velocity into the finger).
        let side = |id: BodyId| {
            movers
                .side(id)
                .filter(|s| first || matches!(s, Side::Body(_)))
        };
        let solvable = |a: Option<Side>, b: Option<Side>| {
            a.is_some_and(|s| movers.pushes_back(s)) || b.is_some_and(|s| movers.pushes_back(s))
        };
        let (rows, solved): (Vec<Row>, Vec<Contact>) = self
            .fine_contacts(movers)?
            .into_iter()
            .filter(|c| c.is_object_a)
            .filter_map(|c| {
                let (a, b) = (side(c.body), side(c.other));
                solvable(a, b).then(|| (self.row(&c, (a, b), &mobiles), c))
            })
            .unzip();
        let blocks = solver::delassus_blocks(&mobiles, &rows);
        let (initial, motors) = match first {
            true => (self.warm_start(&rows, &solved), self.motors(movers)),
            false => (vec![Vector3::zeros(); rows.len()], Vec::new()),
        };
        let impulses = match self.settings.contact_solver {
            ContactSolver::PerContact => {
                solver::solve(&mut mobiles, &rows, &blocks, initial, &motors)
            }
            ContactSolver::Lcp => lcp::solve(&mut mobiles, &rows).ok_or(MoveError::LcpFailed)?,
        };
        self.check_speeds(movers, &mobiles)?;
        let applied = solved
            .into_iter()
            .zip(impulses)
            .zip(blocks)
            .enumerate()
            .map(|(k, ((contact, impulse), inverse_inertia))| Solved {
                contact,
                impulse,
                inverse_inertia,
                index: first.then_some(k),
            })
            .collect();
        Ok((mobiles, applied))
    }

    /// Moves dynamic body `i` for `dt` seconds by the velocity the solver left it, stopping at
    /// contact, and keeps its angular momentum through the turn. Returns the share of the
    /// motion done (1 unless it stopped short). With `mean`, the centre travels by the mean of
    /// its velocity before and after the solve (exact under gravity alone); the body turns by
    /// the new angular velocity about its centre.
    fn advance(&mut self, i: usize, m: &Mobile, dt: f64, mean: bool) -> Result<f64, MoveError> {
        let id = BodyId::Free(i);
        let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
        let start = if mean { body.velocity.linear } else { m.linear };
        let momentum = body.world_inertia() * m.angular;
        let before = (body.world_cog(), body.pose.rotation);
        let travel = (start + m.linear) * (dt / 2.0);
        let turn = UnitQuaternion::from_scaled_axis(m.angular * dt);
        let target = moved(body, travel, turn);
        let completed = target == body.pose || self.move_in_step(i, target)?.completed;
        let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
        let done = match completed {
            true => 1.0,
            false => share_done(before, (body.world_cog(), body.pose.rotation), travel, turn),
        };
        let angular = body
            .world_inertia()
            .try_inverse()
            .map_or(m.angular, |inverse| inverse * momentum);
        if let Some(body) = self.body_mut(id) {
            body.velocity = Velocity::new(m.linear, angular);
        }
        Ok(done)
    }
}

impl<E: CollisionEngine> World<E> {
    /// Moves kinematic body `i` by its velocity for `dt` seconds, stopping at contact.
    fn move_kinematic(&mut self, i: usize, dt: f64) -> Result<(), MoveError> {
        let id = BodyId::Free(i);
        let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
        let velocity = body.velocity;
        let turn = UnitQuaternion::from_scaled_axis(velocity.angular * dt);
        let target = moved(body, velocity.linear * dt, turn);
        if target != body.pose {
            self.move_in_step(i, target)?;
        }
        Ok(())
    }

    /// A move of free body `i` within a step: stopping at contact, its contacts left for the
    /// step to find once all have moved.
    fn move_in_step(&mut self, i: usize, target: Pose) -> Result<MoveOutcome, MoveError> {
        let cog = self.free_body(i).map_or(Point3::origin(), |b| b.mass.cog);
        let (backdrop, stage) = self.split();
        stage.move_to_finding_no_contacts(&backdrop, Element::Body(i), target, cog)
    }
}

/// How much of a planned motion (the centre's travel and the turn) a body made before it
/// stopped: the larger of the two shares, in [0, 1].
fn share_done(
    (cog, rotation): (Point3<f64>, UnitQuaternion<f64>),
    (now_cog, now_rotation): (Point3<f64>, UnitQuaternion<f64>),
    travel: Vector3<f64>,
    turn: UnitQuaternion<f64>,
) -> f64 {
    let share = |done: f64, planned: f64| if planned > 1e-12 { done / planned } else { 0.0 };
    let along = share((now_cog - cog).norm(), travel.norm());
    let turned = share(now_rotation.angle_to(&rotation), turn.angle());
    along.max(turned).clamp(0.0, 1.0)
}

/// The body's pose after its centre travels by `travel` and it turns by `turn` about it.
fn moved(body: &Body, travel: Vector3<f64>, turn: UnitQuaternion<f64>) -> Pose {
    Translation3::from(body.world_cog().coords + travel)
        * (turn * body.pose.rotation)
        * Translation3::from(-body.mass.cog.coords)
}

impl<E: CollisionEngine> World<E> {
    /// Refuses a solve that left a dynamic body or a robot's DOF too fast or not a number: it
    /// blew up.
    fn check_speeds(&self, movers: &Movers, mobiles: &Mobiles) -> Result<(), MoveError> {
        let too_fast = |speed: f64| !(speed.is_finite() && speed < SPEED_LIMIT);
        let blew_up = |id| MoveError::BlewUp {
            body: self.body_name(id),
            limit: SPEED_LIMIT,
        };
        for (&i, m) in movers.dynamic().iter().zip(&mobiles.bodies) {
            if too_fast(m.linear.norm().max(m.angular.norm())) {
                return Err(blew_up(BodyId::Free(i)));
            }
        }
        for (assembly, moved) in movers.assemblies.iter().zip(&mobiles.robots) {
            if too_fast(moved.velocity.amax()) {
                let robot = assembly.root();
                return Err(blew_up(BodyId::Palm { robot }));
            }
        }
        Ok(())
    }

    /// A body as errors name it: its name and file (a robot's body by its robot's file).
    pub fn body_name(&self, id: BodyId) -> BodyName {
        let body = self.body(id);
        let robot = id.robot().and_then(|r| self.robot(r));
        let name = match (body, robot) {
            (Some(b), Some(r)) => format!("{}'s {}", r.name, b.name),
            (Some(b), None) => b.name.clone(),
            (None, _) => format!("{id:?}"),
        };
        let file = body
            .and_then(|b| b.source.clone())
            .or_else(|| robot.and_then(|r| r.source.clone()));
        BodyName { id, name, file }
    }
}
