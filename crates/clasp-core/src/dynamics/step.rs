//! The step as a pipeline (MuJoCo's `mj_step`), each stage a file the step enters once (an
//! impact inside integrate comes back to [`Stepping::solve_contacts`] for its own collide,
//! build and solve):
//!
//! ```text
//!   collide    contacts.rs   the exact contacts of every pair with a moving body, kept pairs
//!      │
//!   build      build.rs      one ContactProblem: the mobiles (bodies, articulated robots),
//!      │                     a row per contact, the Delassus blocks, motors, the warm start
//!   solve      newton/ · solver.rs · lcp.rs
//!      │                     a pure function: Solution { mobiles, impulses, efforts, report }
//!   integrate  integrate.rs  each body and robot moves by its velocity, stopping at contact;
//!      │                     a body that stopped short met something: collide, build and solve
//!      │                     again for that impact, and it goes on (a few times at most)
//!   report     contacts.rs   the solved contacts become the stage's, with their impulses
//! ```
//!
//! What the step carries to the next (kept triangle pairs, impulses, efforts, counts and
//! timers) is the stage's [`crate::contact::memory::StepMemory`]; each body's velocity and
//! each robot's DOF velocities stay on them.

use std::time::Instant;

use super::{
    SPEED_LIMIT, Stepping,
    build::Solve,
    lcp,
    movers::Movers,
    newton,
    problem::{ContactProblem, Mobiles, Solution},
    solver,
};
use crate::{
    body::velocity::Velocity,
    contact::Contact,
    ids::{BodyId, Element, RobotId},
    pose::Pose,
    world::{error::MoveError, settings::ContactSolver},
};

impl Stepping<'_> {
    /// One step (see the module's account); undone where it fails half way.
    pub(super) fn step(&mut self) -> Result<(), MoveError> {
        let movers = Movers::of(self.stage);
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
        let started = Instant::now();
        let stepped = self.take_step(&movers);
        let timers = &mut self.stage.step_memory.timers;
        timers.steps += 1;
        timers.total += started.elapsed().as_secs_f64();
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

    /// The step itself, for what `movers` names: the stages in their order.
    fn take_step(&mut self, movers: &Movers) -> Result<(), MoveError> {
        let gravity = self.backdrop.settings.dynamics.gravity * self.dt();
        let (mobiles, problem) = self.solve_contacts(movers, Solve::Step { gravity })?;
        let problem = self.integrate(movers, &mobiles, problem)?;
        self.report(movers, problem);
        Ok(())
    }

    /// Collides, builds, solves and writes back one solve ([`Solve`]): the velocities of what
    /// moves, and the contacts the stage has now (both sides), each solved one carrying its
    /// impulse, Delassus block and, in the step's own solve, its place in the problem.
    /// Refused, changing nothing, for a body that cannot move (no positive mass) or a solve
    /// that blows up.
    pub(super) fn solve_contacts(
        &mut self,
        movers: &Movers,
        solve: Solve,
    ) -> Result<(Mobiles, Vec<Contact>), MoveError> {
        let contacts = self.collide(movers)?;
        let (problem, mut posed) = self.build(movers, contacts, solve)?;
        let solution = self.solve(&problem)?;
        self.check_speeds(movers, &solution.mobiles)?;
        self.write_back(&mut posed, &problem, &solution, solve);
        Ok((solution.mobiles, posed.contacts))
    }

    /// The solve, by the solver the settings name.
    fn solve(&mut self, problem: &ContactProblem) -> Result<Solution, MoveError> {
        let solving = Instant::now();
        let limits = &self.backdrop.settings.dynamics.solver;
        let solution = match self.backdrop.settings.dynamics.contact_solver {
            ContactSolver::PerContact => solver::solve(problem, limits),
            ContactSolver::Lcp => lcp::solve(problem).ok_or(MoveError::LcpFailed)?,
            ContactSolver::Newton => newton::solve(problem, limits),
        };
        self.stage.step_memory.timers.solve += solving.elapsed().as_secs_f64();
        Ok(solution)
    }

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
}
