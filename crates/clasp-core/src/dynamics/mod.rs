//! Dynamics: free bodies that fall, slide and rest under gravity on Clasp's own triangle-mesh
//! contacts (issue 28: free bodies; robots join them with issue 29).
//!
//! A free body is static, dynamic or kinematic ([`BodyType`]). A step, of `time_step` seconds:
//! 1. every dynamic body (by default the graspable bodies) gains gravity's velocity;
//! 2. the contacts the world has (every pair within the contact threshold, pruned, with the
//!    world's switches, groups and masks) are solved together for impulses that leave no
//!    contact approaching and none slipping inside its friction cone ([`solver`]); friction is
//!    the material table's, kinetic above 1 mm/s of slip, static below;
//! 3. each body moves by its new velocity as a move does, stopping at contact
//!    ([`crate::World::move_to`]'s machinery): nothing ever passes into anything, so the
//!    interpenetration tolerance is the moves' own, none; angular momentum is carried through
//!    the rotation (the spin of a body with unequal inertias precesses as it should);
//! 4. each kinematic body moves by the velocity it was given, stopping at contact (what it
//!    met was pushed away in step 2, so it follows);
//! 5. each contact keeps the impulse the solver applied (RaiSim's `getImpulse`).
//!
//! To the solver, kinematic bodies weigh infinitely much and move; static bodies, robots'
//! bodies among them, weigh infinitely much and stay.

pub(crate) mod articulated;
pub(crate) mod lcp;
pub(crate) mod movers;
pub mod overlaps;
pub mod robots;
pub(crate) mod solver;

use std::collections::HashSet;

use nalgebra::{Matrix3, Point3, Translation3, UnitQuaternion, Vector3};

use clasp_collide::{CollisionEngine, pruning::DUPLICATE_DISTANCE};

use crate::{
    body::{Body, BodyType, velocity::Velocity},
    contact::{
        Contact, KINETIC_SPEED,
        filter::Part,
        memory::Pushed,
        model::{ContactModel, ContactOptions},
        search::{ContactUse, contacts_found, number_contacts},
    },
    ids::{BodyId, Element, RobotId},
    motion::MoveOutcome,
    pose::Pose,
    world::{
        World,
        error::{BodyName, MAX_RUN_STEPS, MAX_TIME_STEP, MIN_TIME_STEP, MoveError},
        layers::{self, Layer},
        settings::ContactSolver,
        stage::Backdrop,
    },
};
use movers::Movers;
use solver::{Mobile, Mobiles, Row, Side};

/// A speed no body reaches in a grasp simulation (mm/s; 1 km/s): beyond it a step has blown up.
pub const SPEED_LIMIT: f64 = 1.0e6;

/// One contact of a step's problem as solved.
struct Solved {
    contact: Contact,
    /// From B on A, contact frame.
    impulse: Vector3<f64>,
    /// Its Delassus block, contact frame.
    inverse_inertia: Matrix3<f64>,
    /// Its place in the step's first problem; `None` in an impact's.
    index: Option<usize>,
}

/// The contacts of one solve.
type Applied = Vec<Solved>;

/// What a search of the pairs with a moving body found.
#[derive(Default)]
struct Searched {
    pairs: HashSet<(BodyId, BodyId)>,
    contacts: Vec<Contact>,
    /// The pairs that interpenetrate.
    overlapping: Vec<(BodyId, BodyId)>,
}

/// How many times within one step a body that stopped short is solved again and goes on.
const IMPACTS_PER_STEP: usize = 4;

impl<E: CollisionEngine> World<E> {
    /// The acceleration of gravity, mm/s².
    pub fn gravity(&self) -> Vector3<f64> {
        self.settings.gravity
    }

    /// Sets gravity (mm/s², any direction; zero turns it off). Refused, changing nothing,
    /// unless every component is finite.
    pub fn set_gravity(&mut self, gravity: Vector3<f64>) -> Result<(), MoveError> {
        if !gravity.iter().all(|g| g.is_finite()) {
            return Err(MoveError::BadGravity([gravity.x, gravity.y, gravity.z]));
        }
        self.settings.gravity = gravity;
        Ok(())
    }

    /// How a step solves its contacts.
    pub fn set_contact_solver(&mut self, solver: ContactSolver) {
        self.settings.contact_solver = solver;
    }

    /// Seconds a step advances.
    pub fn time_step(&self) -> f64 {
        self.settings.time_step
    }

    /// Sets the step (seconds): between [`MIN_TIME_STEP`] and [`MAX_TIME_STEP`], else refused.
    pub fn set_time_step(&mut self, seconds: f64) -> Result<(), MoveError> {
        check_time_step(seconds)?;
        self.settings.time_step = seconds;
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
            let (centre, radius) = body.geometry.bounding_ball();
            let reach = radius + (centre - body.mass.cog).norm();
            let v = body.velocity;
            let short = seconds * (v.linear.norm() + v.angular.norm() * reach);
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

    /// The contacts the solver works on: every checked pair with a moving body, as the world
    /// finds its contacts but merged only within the contact threshold (GraspIt's 3 mm merge,
    /// right for a grasp's wrench space, would hide the vertex a faceted body is about to
    /// pivot on). The engine's answers come from the step's memory where nothing moved since.
    /// Refused where a pair interpenetrates: moves never leave bodies so, and a world that
    /// starts so is not simulated silently.
    fn fine_contacts(&mut self, movers: &Movers) -> Result<Vec<Contact>, MoveError> {
        let threshold = self.settings.contact_threshold;
        let searched = self.search_pairs(movers, |engine, pair, found, options| {
            contacts_found(
                engine,
                pair,
                found,
                threshold,
                options,
                ContactUse::Dynamics,
            )
        });
        self.refuse_overlaps(&searched.overlapping)?;
        Ok(searched.contacts)
    }

    /// After a step's moves, the world's contacts of every pair with a moving body, found
    /// once for them all; the memory keeps those pairs' searches for the next step.
    fn find_step_contacts(&mut self, movers: &Movers) {
        let searched = self.search_pairs(movers, |engine, pair, found, options| {
            contacts_found(
                engine,
                pair,
                found,
                DUPLICATE_DISTANCE,
                options,
                ContactUse::Grasp,
            )
        });
        self.step_memory.keep_only(&searched.pairs);
        let contacts = &mut self.stage.contacts;
        contacts.retain(|c| !movers.moves(c.body) && !movers.moves(c.other));
        contacts.extend(searched.contacts);
        number_contacts(contacts);
    }

    /// Every checked pair with a moving body (A first), and the contacts `make` makes of what
    /// the engine finds between each, the search taken from the step's memory where it can be;
    /// the pairs that interpenetrate apart.
    fn search_pairs(
        &mut self,
        movers: &Movers,
        make: impl Fn(
            &dyn CollisionEngine,
            (Part, Part),
            &[clasp_collide::Contact],
            &ContactOptions,
        ) -> Vec<Contact>,
    ) -> Searched {
        let World {
            engine,
            stage,
            settings,
            step_memory,
            ..
        } = self;
        let backdrop = Backdrop::alone(engine, *settings);
        let rules = backdrop.rules(&stage.switches);
        let layer = stage.layer();
        let mut searched = Searched::default();
        for (a, b) in layers::checked_pairs(rules.switches, &Layer::empty(), &layer) {
            if !(movers.moves(a.id) || movers.moves(b.id)) {
                continue;
            }
            let (a, b) = if a.id <= b.id { (a, b) } else { (b, a) };
            match step_memory.contacts(rules.engine, (a, b), settings.contact_threshold) {
                Some(found) => searched.contacts.extend(make(
                    rules.engine,
                    (a, b),
                    found,
                    &settings.contact_options,
                )),
                None => searched.overlapping.push((a.id, b.id)),
            }
            searched.pairs.insert((a.id, b.id));
        }
        searched
    }

    /// Each contact's impulse to start from: the one the last step applied at it (RaiSim's
    /// warm start), in this contact's frame, cut to its cone; zero for a new contact.
    fn warm_start(&self, rows: &[Row], contacts: &[Contact]) -> Vec<Vector3<f64>> {
        rows.iter()
            .zip(contacts)
            .map(|(row, c)| {
                let Some(impulse) = self.step_memory.impulse_near(c.body, c.other, &c.point) else {
                    return Vector3::zeros();
                };
                let local = row.frame.transpose() * impulse;
                let normal = local.z.max(0.0);
                let limit = row.friction * normal;
                let tangential = local.xy();
                let tangential = match tangential.norm() > limit {
                    true => tangential * (limit / tangential.norm()),
                    false => tangential,
                };
                Vector3::new(tangential.x, tangential.y, normal)
            })
            .collect()
    }

    /// Keeps the impulses of the step's first solve for the next step to start from.
    fn remember_impulses(&mut self, applied: &[Solved]) {
        self.step_memory.pushed = applied
            .iter()
            .filter(|s| s.index.is_some())
            .map(|s| Pushed {
                body: s.contact.body,
                other: s.contact.other,
                point: s.contact.point,
                impulse: s.contact.frame.rotation * s.impulse,
            })
            .collect();
    }

    /// One contact as the solver sees it, its sides where `movers` put them.
    fn row(&self, c: &Contact, (a, b): (Option<Side>, Option<Side>), mobiles: &Mobiles) -> Row {
        let lever = |id: BodyId, point| {
            self.body(id)
                .map_or(Vector3::zeros(), |body| point - body.world_cog())
        };
        let (lever_a, lever_b) = (lever(c.body, c.point), lever(c.other, c.other_point));
        let rotation = c.frame.rotation.to_rotation_matrix().into_inner();
        // Friction by the slip at the step's start: kinetic above KINETIC_SPEED, else static.
        let velocity = |side: Option<Side>, id: BodyId, r: &Vector3<f64>| match side {
            Some(Side::Link { assembly, link }) => {
                mobiles.robots[assembly].start_point_velocity(link, r)
            }
            _ => self
                .body(id)
                .map_or(Vector3::zeros(), |body| body.velocity.at(r)),
        };
        let slip = velocity(a, c.body, &lever_a) - velocity(b, c.other, &lever_b);
        let tangential = slip - c.normal.into_inner() * c.normal.dot(&slip);
        let in_frame = (rotation.transpose() * tangential).xy();
        Row {
            a,
            b,
            lever_a,
            lever_b,
            frame: rotation,
            friction: c.friction(tangential.norm()),
            slip: (tangential.norm() > KINETIC_SPEED).then(|| in_frame.normalize()),
            torsion_radius: match &c.model {
                ContactModel::Soft(soft) => Some(soft.area.torsion_radius),
                _ => None,
            },
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

    /// Puts on each contact the impulse this step applied there, with its inverse inertia and
    /// place in the problem: each solved contact goes to the contact of the same pair nearest
    /// to where it was (a step moves contacts a little, and a corner's contact may now lie on a
    /// neighbouring triangle), both sides; every other contact carries zero and no place.
    fn keep_impulses(&mut self, applied: &[Solved]) {
        let contacts = &mut self.stage.contacts;
        for contact in contacts.iter_mut() {
            contact.impulse = Vector3::zeros();
            contact.inverse_inertia = Matrix3::zeros();
            contact.index_in_contact_problem = None;
        }
        for entry in applied {
            let (solved, impulse) = (&entry.contact, &entry.impulse);
            let same_pair =
                |c: &Contact| c.is_object_a && c.body == solved.body && c.other == solved.other;
            let nearest = contacts
                .iter()
                .enumerate()
                .filter(|(_, c)| same_pair(c))
                .min_by(|(_, x), (_, y)| {
                    let distance = |c: &Contact| (c.point - solved.point).norm();
                    distance(x).total_cmp(&distance(y))
                })
                .map(|(k, c)| (k, (c.body, c.other, c.point)));
            let Some((k, (body, other, point))) = nearest else {
                continue;
            };
            // The solved contact's frame may differ from this one's by a little: through the world.
            let to_here = (contacts[k].frame.rotation.inverse() * solved.frame.rotation)
                .to_rotation_matrix()
                .into_inner();
            let here = to_here * impulse;
            let block = to_here * entry.inverse_inertia * to_here.transpose();
            // Its other side: the same two bodies the other way round, the points swapped.
            let twin = contacts
                .iter()
                .position(|c| c.body == other && c.other == body && c.other_point == point);
            for side in std::iter::once(k).chain(twin) {
                let contact = &mut contacts[side];
                contact.impulse += here;
                if contact.index_in_contact_problem.is_none() && entry.index.is_some() {
                    contact.index_in_contact_problem = entry.index;
                    contact.inverse_inertia = block;
                }
            }
        }
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

/// Why a body's mass properties cannot move it.
enum MassFault {
    Mass(f64),
    Inertia(String),
}

impl MassFault {
    fn error(self, body: BodyName) -> MoveError {
        match self {
            MassFault::Mass(mass) => MoveError::BadMass { body, mass },
            MassFault::Inertia(why) => MoveError::BadInertia { body, why },
        }
    }
}

/// The body as the solver moves it, with `added` (gravity's velocity for this step) already
/// added; refused for a mass that is not positive and finite or an inertia that is not
/// symmetric positive definite.
fn mobile(body: &Body, added: Vector3<f64>) -> Result<Mobile, MassFault> {
    let mass = body.mass.mass;
    if !(mass.is_finite() && mass > 0.0) {
        return Err(MassFault::Mass(mass));
    }
    check_inertia(&body.mass.inertia).map_err(MassFault::Inertia)?;
    let inverse_inertia = body
        .world_inertia()
        .try_inverse()
        .ok_or_else(|| MassFault::Inertia("singular".into()))?;
    Ok(Mobile {
        inverse_mass: 1.0 / mass,
        inverse_inertia,
        linear: body.velocity.linear + added,
        angular: body.velocity.angular,
    })
}

/// An inertia tensor a body can turn with: finite, symmetric (to a millionth of its largest
/// entry) and positive definite; else what it is instead.
pub(crate) fn check_inertia(inertia: &Matrix3<f64>) -> Result<(), String> {
    if !inertia.iter().all(|x| x.is_finite()) {
        return Err("not finite".into());
    }
    let scale = inertia.amax();
    if (inertia - inertia.transpose()).amax() > 1e-6 * scale {
        let rows: Vec<String> = inertia
            .row_iter()
            .map(|r| format!("{} {} {}", r[0], r[1], r[2]))
            .collect();
        return Err(format!("not symmetric ({})", rows.join(", ")));
    }
    let smallest = inertia.symmetric_eigenvalues().min();
    if !(smallest > 1e-12 * scale && scale > 0.0) {
        return Err(format!(
            "not positive definite (its smallest principal moment is {smallest})"
        ));
    }
    Ok(())
}

/// A time step a world takes.
fn check_time_step(seconds: f64) -> Result<(), MoveError> {
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

/// A kinematic body as the solver sees it: it moves as it was told, whatever pushes it.
fn pusher(body: &Body) -> Mobile {
    Mobile {
        inverse_mass: 0.0,
        inverse_inertia: Matrix3::zeros(),
        linear: body.velocity.linear,
        angular: body.velocity.angular,
    }
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
