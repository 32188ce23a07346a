//! The step itself: solve, move, meet, report (the way of a step is the module's account).

use std::time::Instant;

use nalgebra::{Point3, Translation3, UnitQuaternion, Vector3};

use super::{
    SPEED_LIMIT, Stepping,
    contacts::{Places, add_impact},
    lcp,
    mass::{mobile, pusher},
    movers::{Movers, Side},
    newton, patches,
    problem::{ContactProblem, Mobile, Mobiles, Row, Solution, delassus_blocks},
    solver,
};
use crate::{
    body::{Body, velocity::Velocity},
    contact::Contact,
    ids::{BodyId, Element, RobotId},
    motion::MoveOutcome,
    pose::Pose,
    world::{error::MoveError, settings::ContactSolver},
};

/// How many times within one step a body that stopped short is solved again and goes on.
const IMPACTS_PER_STEP: usize = 4;
/// A share of a move this small is none: a move stopped at once ends within rounding of it.
const NO_PROGRESS: f64 = 1e-9;

/// Which of a step's solves: the step's own, gravity's share of it added, or an impact's
/// within it.
#[derive(Debug, Clone, Copy)]
enum Solve {
    Step { gravity: Vector3<f64> },
    Impact,
}

/// The stage's contacts a problem was posed from (both sides of each, A's first), which of
/// them it solves, and where those lie on their bodies (the step's first solve only).
struct Posed {
    contacts: Vec<Contact>,
    solved: Vec<usize>,
    places: Vec<Places>,
}

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

    /// The step itself, for what `movers` names.
    fn take_step(&mut self, movers: &Movers) -> Result<(), MoveError> {
        let gravity = self.backdrop.settings.dynamics.gravity * self.dt();
        let (mobiles, mut problem) = self.solve_step(movers, gravity)?;
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
            let (mobiles, impact) = self.solve_impact(movers)?;
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
        self.report(movers, problem);
        Ok(())
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

    /// The step's solve: the velocities of what moves after `gravity`'s share of a step, the
    /// robots' DOF controllers and the contacts, and the contacts the stage has now (both
    /// sides), each solved one carrying its impulse, Delassus block and place in the problem.
    /// Each contact starts from the impulse the same contact had last step; the impulses and
    /// the controllers' efforts are kept for the next. Refused, changing nothing, for a body
    /// that cannot move (no positive mass) or a solve that blows up.
    fn solve_step(
        &mut self,
        movers: &Movers,
        gravity: Vector3<f64>,
    ) -> Result<(Mobiles, Vec<Contact>), MoveError> {
        self.solve_contacts(movers, Solve::Step { gravity })
    }

    /// An impact's solve within the step: the free bodies' velocities after the contacts
    /// they end with, nothing added and the robots held where their step left them, from no
    /// impulse; nothing is kept for the next step.
    fn solve_impact(&mut self, movers: &Movers) -> Result<(Mobiles, Vec<Contact>), MoveError> {
        self.solve_contacts(movers, Solve::Impact)
    }

    /// Builds, solves and writes back one solve ([`Solve`]).
    fn solve_contacts(
        &mut self,
        movers: &Movers,
        solve: Solve,
    ) -> Result<(Mobiles, Vec<Contact>), MoveError> {
        let (problem, mut posed) = self.contact_problem(movers, solve)?;
        let solving = Instant::now();
        let limits = &self.backdrop.settings.dynamics.solver;
        let solution = match self.backdrop.settings.dynamics.contact_solver {
            ContactSolver::PerContact => solver::solve(&problem, limits),
            ContactSolver::Lcp => lcp::solve(&problem).ok_or(MoveError::LcpFailed)?,
            ContactSolver::Newton => newton::solve(&problem, limits),
        };
        self.stage.step_memory.timers.solve += solving.elapsed().as_secs_f64();
        self.check_speeds(movers, &solution.mobiles)?;
        self.write_back(&mut posed, &problem, &solution, solve);
        Ok((solution.mobiles, posed.contacts))
    }

    /// The problem of one solve (`solve_contacts`), and the stage's contacts it was posed from.
    fn contact_problem(
        &mut self,
        movers: &Movers,
        solve: Solve,
    ) -> Result<(ContactProblem, Posed), MoveError> {
        let building = Instant::now();
        let (first, added) = match solve {
            Solve::Step { gravity } => (true, gravity),
            Solve::Impact => (false, Vector3::zeros()),
        };
        // An impact holds the robots where their step left them (below): it needs no
        // articulated bodies, so their Jacobians and mass matrices are made once a step.
        let robots = match first {
            true => self.articulated(movers, added)?,
            false => Vec::new(),
        };
        let mut mobiles = Mobiles {
            bodies: Vec::with_capacity(movers.bodies.len()),
            robots,
        };
        for (k, &i) in movers.bodies.iter().enumerate() {
            let id = BodyId::Free(i);
            let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
            let one = match k < movers.dynamic {
                true => {
                    // An external force is pushed with gravity, in the step's first solve.
                    let pushed = match first {
                        true => body.external_force * (self.dt() / body.mass.mass),
                        false => Vector3::zeros(),
                    };
                    mobile(body, added + pushed)
                        .map_err(|fault| fault.error(self.body_name(id), body))?
                }
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
        // Both sides of each contact come together, A's first.
        let searching = Instant::now();
        let contacts = self.fine_contacts(movers)?;
        let corners = self.backdrop.settings.dynamics.solver.corners_per_patch;
        let contacts = patches::keep_corners(contacts, corners);
        let searched = searching.elapsed().as_secs_f64();
        self.stage.step_memory.timers.search += searched;
        let (rows, solved): (Vec<Row>, Vec<usize>) = contacts
            .chunks_exact(2)
            .enumerate()
            .filter_map(|(k, sides)| {
                let c = &sides[0];
                let (a, b) = (side(c.body), side(c.other));
                solvable(a, b).then(|| (self.row(c, (a, b), &mobiles), k))
            })
            .unzip();
        let blocks = delassus_blocks(&mobiles, &rows);
        // Where the solved contacts lie on their bodies: the warm start finds them by it, and
        // it is kept for the next step (the first solve's only).
        let places: Vec<_> = match first {
            true => solved
                .iter()
                .map(|&k| self.local_points(&contacts[2 * k]))
                .collect(),
            false => Vec::new(),
        };
        let (initial, motors) = match first {
            true => {
                let on_a = solved.iter().map(|&k| &contacts[2 * k]).zip(&places);
                (self.warm_start(&rows, on_a), self.motors(movers))
            }
            false => (vec![Vector3::zeros(); rows.len()], Vec::new()),
        };
        let problem = ContactProblem {
            mobiles,
            rows,
            blocks,
            initial,
            motors,
        };
        let posed = Posed {
            contacts,
            solved,
            places,
        };
        self.stage.step_memory.timers.build += building.elapsed().as_secs_f64() - searched;
        Ok((problem, posed))
    }

    /// Gives each solved contact (both sides) its impulse and Delassus block; the step's first
    /// solve also gives each its place in the problem and keeps the impulses and the motors'
    /// efforts for the next step.
    fn write_back(
        &mut self,
        posed: &mut Posed,
        problem: &ContactProblem,
        solution: &Solution,
        solve: Solve,
    ) {
        let first = matches!(solve, Solve::Step { .. });
        let Posed {
            contacts,
            solved,
            places,
        } = posed;
        let pairs = solved.iter().zip(&solution.impulses).zip(&problem.blocks);
        for (place, ((&k, impulse), block)) in pairs.enumerate() {
            // The same on both sides: from B on A, in the frame both share.
            for c in &mut contacts[2 * k..2 * k + 2] {
                c.impulse = *impulse;
                c.inverse_inertia = *block;
                c.index_in_contact_problem = first.then_some(place);
            }
        }
        if first {
            self.remember_impulses(solved.iter().map(|&k| &contacts[2 * k]).zip(places.iter()));
            self.remember_efforts(&problem.motors, &solution.efforts);
            self.stage.step_memory.solves.count(solution.report);
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
}

impl Stepping<'_> {
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

impl Stepping<'_> {
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
