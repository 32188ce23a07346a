//! The step's integrate stage: each dynamic body moves by the velocity the solve left it,
//! stopping at contact, and each driven robot advances its DOFs and base; a body that stopped
//! short met something, and an impact's solve (collide, build, solve again) lets it go on for
//! the rest of the step; then each kinematic body moves by the velocity it was given.

use nalgebra::{Point3, Translation3, UnitQuaternion, Vector3};

use super::{
    Stepping,
    build::Solve,
    contacts::add_impact,
    movers::Movers,
    problem::{Mobile, Mobiles},
};
use crate::{
    body::{Body, velocity::Velocity},
    contact::Contact,
    ids::{BodyId, Element},
    motion::MoveOutcome,
    pose::Pose,
    world::error::MoveError,
};

/// How many times within one step a body that stopped short is solved again and goes on.
const IMPACTS_PER_STEP: usize = 4;
/// A share of a move this small is none: a move stopped at once ends within rounding of it.
const NO_PROGRESS: f64 = 1e-9;

impl Stepping<'_> {
    /// Moves what moves by `mobiles`, the step's solve, then through the impacts within the
    /// step; returns the step's contact problem, `problem` with the impacts' impulses added.
    pub(super) fn integrate(
        &mut self,
        movers: &Movers,
        mobiles: &Mobiles,
        mut problem: Vec<Contact>,
    ) -> Result<Vec<Contact>, MoveError> {
        let dt = self.dt();
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
            let (mobiles, impact) = self.solve_contacts(movers, Solve::Impact)?;
            add_impact(&mut problem, impact);
            for ((&i, m), rest) in movers.dynamic().iter().zip(&mobiles.bodies).zip(&mut left) {
                let Some(body) = self.body_mut(BodyId::Free(i)) else {
                    continue;
                };
                let taken = body.fastest_point_speed_at(&Velocity::new(
                    m.linear - body.velocity.linear,
                    m.angular - body.velocity.angular,
                ));
                body.velocity = Velocity::new(m.linear, m.angular);
                if *rest > dt * 1e-6 {
                    let done = self.advance(i, m, *rest, false)?;
                    if done < NO_PROGRESS && self.held_fast(i, taken * *rest) {
                        *rest = 0.0;
                    } else {
                        *rest *= 1.0 - done;
                    }
                }
            }
        }
        if cfg!(debug_assertions) {
            self.check_moved_as_velocity_says(movers, &left);
        }
        for &i in movers.kinematic() {
            self.move_kinematic(i, dt)?;
        }
        Ok(problem)
    }

    /// Whether free body `i`, which an impact's solve left free to move and which then could
    /// not move at all, is held fast: the solve took away almost nothing of its velocity
    /// (`taken`: how far the change would carry its farthest point in the time left, within
    /// the contact threshold), so nothing of it approaches its contacts, yet its move meets
    /// at once what it touches. That is a meeting at second order: a mug turning at 7 rad/s
    /// on a finger's vertex it touches at a gap of 0 sweeps its face into the vertex within
    /// 1e-5 s though no point of it approaches. The body stays where it is with no velocity,
    /// which is what it did; counted ([`SolverStats::held_fast`]).
    fn held_fast(&mut self, i: usize, taken: f64) -> bool {
        if taken > self.backdrop.settings.contact_threshold {
            return false;
        }
        if let Some(body) = self.body_mut(BodyId::Free(i)) {
            body.velocity = Velocity::default();
        }
        self.stage.step_memory.solves.held_fast += 1;
        true
    }

    /// In debug builds: no body ends a step without having moved at all while its velocity
    /// says it would have gone farther than the contact threshold (its velocity into what
    /// stopped it is solved away at the contact it stopped at, so a body that cannot move
    /// has no velocity). Issue 41's frozen drops broke this at every step: a body stood still
    /// while its velocity grew by g·t.
    fn check_moved_as_velocity_says(&self, movers: &Movers, left: &[f64]) {
        let dt = self.dt();
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
                short <= self.backdrop.settings.contact_threshold,
                "{} stopped {short} mm short of where its velocity ({:?}, {:?}) takes it: its pose and velocity disagree",
                self.body_name(BodyId::Free(i)),
                v.linear,
                v.angular
            );
        }
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
        self.moving(|stage, backdrop| {
            stage.move_to_finding_no_contacts(backdrop, Element::Body(i), target, cog)
        })
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
