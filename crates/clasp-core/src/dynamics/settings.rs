//! What a run is given, apart from the step that uses it: gravity, the time step and how
//! contacts are solved, and what each free body starts from (its type and velocity); the
//! bounds a time step and a run's length keep to.

use clasp_collide::CollisionEngine;
use nalgebra::Vector3;

use crate::{
    body::{Body, BodyType, velocity::Velocity},
    contact::kept::Persistence,
    ids::BodyId,
    world::{
        World,
        error::{
            MAX_RUN_STEPS, MAX_TIME_STEP, MIN_TIME_STEP, MoveError, check_contact_friction,
            check_external_force, check_gravity,
        },
        settings::{ContactFriction, ContactSolver, SolverSettings},
    },
};

impl<E: CollisionEngine> World<E> {
    /// The acceleration of gravity, mm/s².
    pub fn gravity(&self) -> Vector3<f64> {
        self.settings.dynamics.gravity
    }

    /// Sets gravity (mm/s², any direction; zero turns it off). Refused, changing nothing,
    /// unless every component is finite.
    pub fn set_gravity(&mut self, gravity: Vector3<f64>) -> Result<(), MoveError> {
        check_gravity(&gravity)?;
        self.settings.dynamics.gravity = gravity;
        Ok(())
    }

    /// How a step solves its contacts.
    pub fn contact_solver(&self) -> ContactSolver {
        self.settings.dynamics.contact_solver
    }

    /// Sets how a step solves its contacts.
    pub fn set_contact_solver(&mut self, solver: ContactSolver) {
        self.settings.dynamics.contact_solver = solver;
    }

    /// When a step's contact solve stops.
    pub fn solver_settings(&self) -> SolverSettings {
        self.settings.dynamics.solver
    }

    /// Sets when a step's contact solve stops. Refused, changing nothing, for no iterations or
    /// a tolerance that is not a finite number in (0, 1).
    pub fn set_solver_settings(&mut self, solver: SolverSettings) -> Result<(), MoveError> {
        let SolverSettings {
            max_iterations,
            tolerance,
            ..
        } = solver;
        if max_iterations == 0 || !(tolerance > 0.0 && tolerance < 1.0) {
            return Err(MoveError::BadSolverSettings {
                iterations: max_iterations,
                tolerance,
            });
        }
        self.settings.dynamics.solver = solver;
        Ok(())
    }

    /// How steps carry each pair's contacts from one search to the next.
    pub fn persistence(&self) -> Persistence {
        self.settings.dynamics.persistence
    }

    /// Sets how steps carry contacts ([`Persistence`]; a margin of 0 searches every pair in
    /// full every step). Refused, changing nothing, for a margin that is not a finite number,
    /// none negative. The steps' answers are the same at every margin.
    pub fn set_persistence(&mut self, persistence: Persistence) -> Result<(), MoveError> {
        let margin = persistence.margin;
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(MoveError::BadMargin(margin));
        }
        self.settings.dynamics.persistence = persistence;
        Ok(())
    }

    /// Pushes a dynamic free body's centre of gravity with `force` (g·mm/s², world axes;
    /// 10⁻⁶ N) every step besides gravity, until set again (zero stops it): MuJoCo's
    /// `xfrc_applied`. Refused, changing nothing, for any other body or a force that is not
    /// finite.
    pub fn set_external_force(&mut self, id: BodyId, force: Vector3<f64>) -> Result<(), MoveError> {
        check_external_force(self.body(id), id, &force)?;
        if let Some(body) = self.body_mut(id) {
            body.external_force = force;
        }
        Ok(())
    }

    /// One friction for every contact the dynamics solves, whatever the materials (the
    /// field's grasp tests give one: DexGraspNet 3.0, DexGraspBench 0.6), or the materials'
    /// again (`None`). Refused, changing nothing, for a coefficient or torsional friction
    /// that is not a finite number, none negative.
    pub fn set_contact_friction(
        &mut self,
        friction: Option<ContactFriction>,
    ) -> Result<(), MoveError> {
        check_contact_friction(friction)?;
        self.settings.dynamics.contact_friction = friction;
        Ok(())
    }

    /// Seconds a step advances.
    pub fn time_step(&self) -> f64 {
        self.settings.dynamics.time_step
    }

    /// Sets the step (seconds): between [`MIN_TIME_STEP`] and [`MAX_TIME_STEP`], else refused.
    pub fn set_time_step(&mut self, seconds: f64) -> Result<(), MoveError> {
        check_time_step(seconds)?;
        self.settings.dynamics.time_step = seconds;
        Ok(())
    }

    /// Gives a dynamic or kinematic free body a velocity. Refused, changing nothing, for any
    /// other body or a velocity that is not finite.
    pub fn set_velocity(&mut self, id: BodyId, velocity: Velocity) -> Result<(), MoveError> {
        if !velocity.is_finite() {
            return Err(MoveError::BadVelocity);
        }
        let moves = |b: &Body| b.is_dynamic() || b.body_type() == BodyType::Kinematic;
        if id.free_index().is_none() || !self.body(id).is_some_and(moves) {
            return Err(MoveError::NotDynamic(id));
        }
        if let Some(body) = self.body_mut(id) {
            body.velocity = velocity;
        }
        Ok(())
    }

    /// Makes a free body static, dynamic or kinematic; a body made static stops. Refused for
    /// a robot's body: robots move with their robots.
    pub fn set_body_type(&mut self, id: BodyId, body_type: BodyType) -> Result<(), MoveError> {
        if id.free_index().is_none() {
            return Err(MoveError::NotFree(id));
        }
        let body = self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?;
        *body = body.clone().of_type(body_type);
        // Contacts name their bodies' types.
        self.find_all_contacts();
        Ok(())
    }
}

/// A time step a world takes.
pub(super) fn check_time_step(seconds: f64) -> Result<(), MoveError> {
    match (MIN_TIME_STEP..=MAX_TIME_STEP).contains(&seconds) {
        true => Ok(()),
        false => Err(MoveError::BadTimeStep(seconds)),
    }
}

/// How many steps of `time_step` a run of `seconds` takes; refused for a duration that is not
/// a finite number, none negative, or a run longer than [`MAX_RUN_STEPS`].
pub(crate) fn run_steps(seconds: f64, time_step: f64) -> Result<usize, MoveError> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(MoveError::BadDuration(seconds));
    }
    let steps = (seconds / time_step).round();
    if steps > MAX_RUN_STEPS {
        return Err(MoveError::TooManySteps {
            seconds,
            time_step,
            steps,
        });
    }
    Ok(steps as usize)
}
