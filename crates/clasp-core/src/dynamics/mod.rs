//! Dynamics: free bodies that fall, slide and rest under gravity on Clasp's own triangle-mesh
//! contacts (issue 28), hands driven by their DOF controllers (issue 29), and a step that never
//! lies about where a body is (issue 41).
//!
//! The wing keeps MuJoCo's split of `mjModel` from `mjData`: what a run is given — gravity,
//! the time step, the solver ([`DynamicsSettings`]), each body's mass and material — stays put
//! while it runs; what a run changes — each body's velocity, each robot's drives and DOF
//! velocities, the contact problem of the last step and what the next one starts from — lives
//! on the [`Stage`] with the bodies, so a world and each of its domains step alike: [`step`]
//! is written once, on the stage, and [`World::step`] and [`crate::Domain::step`] call it.
//!
//! A free body is static, dynamic or kinematic ([`crate::BodyType`]); a robot given DOF
//! targets is one articulated body with the robots it carries ([`movers`], [`articulated`]).
//! The way of a step of `time_step` seconds, a pipeline whose stages are files ([`step`]
//! draws it: collide, build, solve, integrate, report):
//! 1. every dynamic body gains gravity's velocity; a world whose bodies interpenetrate is
//!    refused, the pairs named ([`overlaps`]);
//! 2. the contacts of every checked pair with a moving body (within the contact threshold,
//!    pruned as the dynamics needs: [`ContactUse::Dynamics`]; found among the triangle pairs
//!    kept from the pair's last full search while the two stay within the margin that keeps
//!    them complete, which gives the full search's contacts to the bit:
//!    [`crate::Persistence`]) and the robots' DOF
//!    controllers are solved together for impulses that leave no contact approaching and none
//!    slipping inside its friction cone ([`solver`]); friction is the material table's,
//!    kinetic where the contact slid faster than 1 mm/s at the step's start, static below;
//!    each contact starts from the impulse the same contact (the same pair, at the same place
//!    on each body in its own frame) had the step before, each controller from its effort;
//! 3. each dynamic body moves by its new velocity as a move does, turning about its centre of
//!    gravity and stopping at contact ([`crate::World::move_to`]'s machinery, its collision
//!    tests asked among the kept triangle pairs where they hold): nothing ever
//!    passes into anything; angular momentum is carried through the turn; then each driven
//!    robot advances its DOFs and base ([`robots`]);
//! 4. a body that stopped short met something: an impact solve (no gravity again, the robots
//!    held where their step left them) takes its velocity into what it met, and it goes on
//!    for the rest of the step, a few times at most; debug builds check that no body ends the
//!    step unmoved while its velocity says it moves;
//! 5. each kinematic body moves by the velocity it was given, stopping at contact;
//! 6. the step's contact problem is what it reports: the contacts of step 2, each with the
//!    impulse the solver applied there, its Delassus block and its place in the problem
//!    (RaiSim's `getImpulse`, `getInvInertia`, `getIndexContactProblem`); those an impact
//!    solved follow, without a place. A move or placement afterwards finds the contacts again.
//!
//! To the solver, kinematic bodies weigh infinitely much and move; static bodies, and a
//! domain's view of the shared world, weigh infinitely much and stay.
//!
//! [`ContactUse::Dynamics`]: crate::contact::search::ContactUse::Dynamics
//! [`DynamicsSettings`]: crate::world::settings::DynamicsSettings
//! [`Stage`]: crate::world::stage::Stage

pub(crate) mod articulated;
mod build;
mod contacts;
mod integrate;
pub(crate) mod lcp;
mod mass;
pub(crate) mod movers;
mod newton;
pub mod overlaps;
mod patches;
pub(crate) mod problem;
pub mod robots;
pub(crate) mod settings;
pub(crate) mod solver;
mod sparse;
mod step;

use clasp_collide::CollisionEngine;

use crate::{
    body::Body,
    contact::memory::{SearchStats, SolverStats, StepTimers},
    ids::{BodyId, Element, RobotId},
    pose::Pose,
    robot::Robot,
    world::{
        World,
        error::{BodyName, MoveError},
        stage::{Backdrop, Stage},
    },
};
use settings::run_steps;

/// A speed no body reaches in a grasp simulation (mm/s; 1 km/s): beyond it a step has blown up.
pub const SPEED_LIMIT: f64 = 1.0e6;

/// A step's hold on one stage: what it changes, and what it moves against (the engine, the
/// settings, and for a domain the shared world, which stays).
pub(crate) struct Stepping<'s> {
    stage: &'s mut Stage,
    backdrop: Backdrop<'s>,
}

impl Stage {
    /// Advances the stage one time step against `backdrop` (see the module's account).
    /// Refused, changing nothing, when a dynamic body has no positive mass or inertia or
    /// bodies interpenetrate; a step that blows up is undone and says so.
    pub(crate) fn step(&mut self, backdrop: &Backdrop) -> Result<(), MoveError> {
        Stepping::new(self, backdrop).step()
    }

    /// Steps for `seconds` of simulated time (rounded to whole steps), asking `stop` before
    /// each step whether to stop there; returns the steps taken. A step that fails stops the
    /// run there, with the stage at its last good step.
    pub(crate) fn simulate_until(
        &mut self,
        backdrop: &Backdrop,
        seconds: f64,
        mut stop: impl FnMut() -> bool,
    ) -> Result<usize, MoveError> {
        let steps = run_steps(seconds, backdrop.settings.dynamics.time_step)?;
        for taken in 0..steps {
            if stop() {
                return Ok(taken);
            }
            self.step(backdrop)?;
        }
        Ok(steps)
    }

    /// A body as errors name it: its name and file (a robot's body by its robot's file).
    pub(crate) fn body_name(&self, backdrop: &Backdrop, id: BodyId) -> BodyName {
        let body = self.visible_body(backdrop, id);
        let robot = id
            .robot()
            .and_then(|r| self.robot(r).or_else(|| backdrop.shared.robot(r)));
        let name = match (body, robot) {
            (Some(b), Some(r)) => format!("{}'s {}", r.name, b.name),
            (Some(b), None) => b.name.clone(),
            (None, _) => format!("{id:?}"),
        };
        let file = body
            .and_then(|b| b.source.clone())
            .or_else(|| robot.and_then(|r| r.source.clone()));
        BodyName {
            id,
            name,
            file,
            line: None,
            placed: body.and_then(|b| b.lines.placed.clone()).map(Box::new),
        }
    }
}

impl<'s> Stepping<'s> {
    fn new(stage: &'s mut Stage, backdrop: &Backdrop<'s>) -> Self {
        Stepping {
            stage,
            backdrop: *backdrop,
        }
    }

    /// Seconds a step advances.
    fn dt(&self) -> f64 {
        self.backdrop.settings.dynamics.time_step
    }

    /// A body the stage sees: its own, or the shared world's.
    fn body(&self, id: BodyId) -> Option<&Body> {
        self.stage.visible_body(&self.backdrop, id)
    }

    /// One of the stage's own free bodies, by its id's index.
    fn free_body(&self, i: usize) -> Option<&Body> {
        self.stage.layer().body(BodyId::Free(i))
    }

    fn body_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        self.stage.body_mut(id)
    }

    fn robot(&self, id: RobotId) -> Option<&Robot> {
        self.stage.robot(id)
    }

    fn find_robot(&self, id: RobotId) -> Result<&Robot, MoveError> {
        self.stage.own_robot(id)
    }

    fn body_name(&self, id: BodyId) -> BodyName {
        self.stage.body_name(&self.backdrop, id)
    }

    /// Runs one of the step's moves with the engine asking among the triangle pairs the step's
    /// searches kept, where they still hold ([`crate::Persistence`]): the same answers as full
    /// searches, from a few triangles.
    fn moving<R>(&mut self, run: impl FnOnce(&mut Stage, &Backdrop) -> R) -> R {
        let started = std::time::Instant::now();
        let lent = self.stage.step_memory.lend();
        let engine = lent.engine(self.backdrop.engine);
        let backdrop = Backdrop {
            engine: &engine,
            ..self.backdrop
        };
        let result = run(self.stage, &backdrop);
        self.stage.step_memory.put_back(lent);
        self.stage.step_memory.timers.moves += started.elapsed().as_secs_f64();
        result
    }

    /// Puts one of the stage's elements back where it stood (its contacts found again).
    fn set_pose(&mut self, element: Element, pose: Pose) -> Result<(), MoveError> {
        self.stage.set_pose(&self.backdrop, element, pose)
    }

    fn set_dof_values(&mut self, robot: RobotId, values: &[f64]) -> Result<(), MoveError> {
        self.stage.set_dof_values(&self.backdrop, robot, values)
    }
}

impl<E: CollisionEngine> World<E> {
    /// Advances the world one time step (see the module's account). Refused, changing nothing,
    /// when a dynamic body has no positive mass or inertia or bodies interpenetrate; a step
    /// that blows up is undone and says so.
    pub fn step(&mut self) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.step(&backdrop)
    }

    /// Steps for `seconds` of simulated time (rounded to whole steps); returns the steps taken.
    /// A step that fails stops the run there, with the world at its last good step. Refused,
    /// changing nothing, for a duration that is not a finite number, none negative, or more
    /// than [`crate::MAX_RUN_STEPS`] steps.
    pub fn simulate(&mut self, seconds: f64) -> Result<usize, MoveError> {
        self.simulate_until(seconds, || false)
    }

    /// [`Self::simulate`], asking `stop` before each step whether to stop there (a user's
    /// Ctrl-C): the world is left at its last whole step. Returns the steps taken.
    pub fn simulate_until(
        &mut self,
        seconds: f64,
        stop: impl FnMut() -> bool,
    ) -> Result<usize, MoveError> {
        let (backdrop, stage) = self.split();
        stage.simulate_until(&backdrop, seconds, stop)
    }

    /// A body as errors name it: its name and file (a robot's body by its robot's file).
    pub fn body_name(&self, id: BodyId) -> BodyName {
        self.stage.body_name(&self.backdrop(), id)
    }

    /// How the world's steps' contact solves ended so far: how many ran out of sweeps before
    /// they settled (their answers depend on where they started), and the last one's.
    pub fn solver_stats(&self) -> &SolverStats {
        &self.stage.step_memory.solves
    }

    /// How the world's steps found their pairs' contacts so far: searched in full, among the
    /// triangle pairs kept from an earlier search, or unmoved ([`crate::Persistence`]).
    pub fn search_stats(&self) -> SearchStats {
        self.stage.step_memory.searches
    }

    /// Where the world's steps spent their time so far: searching, solving, moving
    /// (MuJoCo's timers).
    pub fn step_timers(&self) -> StepTimers {
        self.stage.step_memory.timers
    }
}
