//! Dynamics: free bodies that fall, slide and rest under gravity on Clasp's own triangle-mesh
//! contacts (issue 28, in progress: free bodies only; robots and kinematic bodies come next).
//!
//! A step, of `time_step` seconds:
//! 1. every dynamic body (a free graspable body) gains gravity's velocity;
//! 2. the contacts the world has (every pair within the contact threshold, pruned, with the
//!    world's switches, groups and masks) are solved together for impulses that leave no
//!    contact approaching and none slipping inside its friction cone ([`solver`]); friction is
//!    the material table's, kinetic above 1 mm/s of slip, static below;
//! 3. each body moves by its new velocity as a move does, stopping at contact
//!    ([`crate::World::move_to`]'s machinery): nothing ever passes into anything, so the
//!    interpenetration tolerance is the moves' own, none; angular momentum is carried through
//!    the rotation (the spin of a body with unequal inertias precesses as it should);
//! 4. each contact keeps the impulse the solver applied (RaiSim's `getImpulse`).
//!
//! Bodies of robots and obstacles do not move: to the solver they weigh infinitely much.

pub(crate) mod solver;

use nalgebra::{Matrix3, Point3, Translation3, UnitQuaternion, Vector3};

use clasp_collide::CollisionEngine;

use crate::{
    body::{Body, velocity::Velocity},
    contact::{Contact, search::pair_contacts_merging},
    ids::{BodyId, Element},
    pose::Pose,
    world::{
        World,
        error::MoveError,
        layers::{self, Layer},
    },
};
use solver::{Mobile, Row};

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

    /// Seconds a step advances.
    pub fn time_step(&self) -> f64 {
        self.settings.time_step
    }

    /// Sets the step (seconds): a positive, finite number, else refused.
    pub fn set_time_step(&mut self, seconds: f64) -> Result<(), MoveError> {
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(MoveError::BadTimeStep(seconds));
        }
        self.settings.time_step = seconds;
        Ok(())
    }

    /// Gives a dynamic body a velocity. Refused, changing nothing, for a body that is not a
    /// free graspable body or a velocity that is not finite.
    pub fn set_velocity(&mut self, id: BodyId, velocity: Velocity) -> Result<(), MoveError> {
        if !velocity.is_finite() {
            return Err(MoveError::BadVelocity);
        }
        if !self.body(id).is_some_and(Body::is_dynamic) {
            return Err(MoveError::NotDynamic(id));
        }
        if let Some(body) = self.body_mut(id) {
            body.velocity = velocity;
        }
        Ok(())
    }

    /// Advances the world one time step (see the module's account). Refused, changing nothing,
    /// when a dynamic body has no positive mass or inertia; a step that blows up is undone and
    /// says so.
    pub fn step(&mut self) -> Result<(), MoveError> {
        let dynamic: Vec<usize> = self
            .free_bodies()
            .filter(|(_, b)| b.is_dynamic())
            .map(|(i, _)| i)
            .collect();
        // Where the step found the bodies, to go back to if it fails half way (an impact
        // within it that blows up, say): the world stays at its last good step.
        let start: Vec<(usize, Pose, Velocity)> = dynamic
            .iter()
            .filter_map(|&i| Some((i, self.free_body(i)?.pose, self.free_body(i)?.velocity)))
            .collect();
        let stepped = self.take_step(&dynamic);
        if stepped.is_err() {
            for &(i, pose, velocity) in &start {
                // Each pose was accepted where it stood at the step's start.
                let _ = self.set_pose(Element::Body(i), pose);
                if let Some(body) = self.body_mut(BodyId::Free(i)) {
                    body.velocity = velocity;
                }
            }
        }
        stepped
    }

    /// The step itself, for the bodies `dynamic` names.
    fn take_step(&mut self, dynamic: &[usize]) -> Result<(), MoveError> {
        let gravity = self.settings.gravity * self.settings.time_step;
        let (mobiles, mut applied) = self.solve_contacts(dynamic, gravity, true)?;
        let dt = self.settings.time_step;
        let mut left = Vec::with_capacity(dynamic.len());
        for (&i, m) in dynamic.iter().zip(&mobiles) {
            left.push(dt * (1.0 - self.advance(i, m, dt, true)?));
        }
        // A body that stopped short met another within the step: the meeting is inelastic,
        // solved on the contacts it ends with (no gravity added again, so no step gains
        // energy), and the body goes on for the rest of the step with what the solve left it
        // (a faceted ball pivots over the vertex it met), a few times at most.
        for _ in 0..IMPACTS_PER_STEP {
            if left.iter().all(|&t| t <= dt * 1e-6) {
                break;
            }
            let (mobiles, impact) = self.solve_contacts(dynamic, Vector3::zeros(), false)?;
            applied.extend(impact);
            for ((&i, m), rest) in dynamic.iter().zip(&mobiles).zip(&mut left) {
                if let Some(body) = self.body_mut(BodyId::Free(i)) {
                    body.velocity = Velocity::new(m.linear, m.angular);
                }
                if *rest > dt * 1e-6 {
                    *rest *= 1.0 - self.advance(i, m, *rest, false)?;
                }
            }
        }
        self.keep_impulses(&applied);
        Ok(())
    }

    /// Steps for `seconds` of simulated time (rounded to whole steps); returns the steps taken.
    /// A step that fails stops the run there, with the world at its last good step.
    pub fn simulate(&mut self, seconds: f64) -> Result<usize, MoveError> {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(MoveError::BadTimeStep(seconds));
        }
        let steps = (seconds / self.settings.time_step).round() as usize;
        for _ in 0..steps {
            self.step()?;
        }
        Ok(steps)
    }

    /// The dynamic bodies' velocities after `added` (gravity's share of a step, or nothing)
    /// and the impulses of the contacts the world has now, each with the contact it acts at.
    /// Refused, changing nothing, for a body that cannot move (no positive mass) or a solve
    /// that blows up.
    fn solve_contacts(
        &self,
        dynamic: &[usize],
        added: Vector3<f64>,
        first: bool,
    ) -> Result<(Vec<Mobile>, Applied), MoveError> {
        let mut mobiles = Vec::with_capacity(dynamic.len());
        for &i in dynamic {
            let id = BodyId::Free(i);
            let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
            let bad_mass = MoveError::BadMass {
                body: id,
                mass: body.mass.mass,
            };
            mobiles.push(mobile(body, added).ok_or(bad_mass)?);
        }
        let slot_of = |id: BodyId| {
            id.free_index()
                .and_then(|i| dynamic.iter().position(|&d| d == i))
        };
        let (rows, solved): (Vec<Row>, Vec<Contact>) = self
            .fine_contacts(dynamic)
            .into_iter()
            .filter(|c| c.is_object_a)
            .filter_map(|c| Some((self.row(&c, slot_of(c.body), slot_of(c.other))?, c)))
            .unzip();
        let blocks = solver::delassus_blocks(&mobiles, &rows);
        let impulses = solver::solve(&mut mobiles, &rows, &blocks);
        for (&i, m) in dynamic.iter().zip(&mobiles) {
            let speed = m.linear.norm().max(m.angular.norm());
            if !(speed.is_finite() && speed < SPEED_LIMIT) {
                return Err(MoveError::BlewUp {
                    body: BodyId::Free(i),
                    limit: SPEED_LIMIT,
                });
            }
        }
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

    /// The contacts the solver works on: every checked pair with a dynamic body, found as the
    /// world finds its contacts but merged only within the contact threshold (GraspIt's 3 mm
    /// merge, right for a grasp's wrench space, would hide the vertex a faceted body is about
    /// to pivot on).
    fn fine_contacts(&self, dynamic: &[usize]) -> Vec<Contact> {
        let moves = |id: BodyId| id.free_index().is_some_and(|i| dynamic.contains(&i));
        let rules = self.backdrop().rules(&self.stage.switches);
        let threshold = self.settings.contact_threshold;
        layers::checked_pairs(rules.switches, &Layer::empty(), &self.layer())
            .into_iter()
            .filter(|(a, b)| moves(a.id) || moves(b.id))
            .flat_map(|(a, b)| {
                pair_contacts_merging(
                    rules.engine,
                    (a, b),
                    threshold,
                    threshold,
                    &self.settings.contact_options,
                )
            })
            .collect()
    }

    /// One contact as the solver sees it; `None` when neither side moves.
    fn row(&self, c: &Contact, a: Option<usize>, b: Option<usize>) -> Option<Row> {
        if a.is_none() && b.is_none() {
            return None;
        }
        let lever = |id: BodyId, point| {
            self.body(id)
                .map_or(Vector3::zeros(), |body| point - body.world_cog())
        };
        let (lever_a, lever_b) = (lever(c.body, c.point), lever(c.other, c.other_point));
        let rotation = c.frame.rotation.to_rotation_matrix().into_inner();
        // Friction by the slip at the step's start: kinetic above KINETIC_SPEED, else static.
        let velocity = |id: BodyId, r: &Vector3<f64>| {
            self.body(id)
                .map_or(Vector3::zeros(), |body| body.velocity.at(r))
        };
        let slip = velocity(c.body, &lever_a) - velocity(c.other, &lever_b);
        let tangential = slip - c.normal.into_inner() * c.normal.dot(&slip);
        Some(Row {
            a,
            b,
            lever_a,
            lever_b,
            frame: rotation,
            friction: c.friction(tangential.norm()),
        })
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
        let momentum = world_inertia(body) * m.angular;
        let before = (body.world_cog(), body.pose.rotation);
        let travel = (start + m.linear) * (dt / 2.0);
        let turn = UnitQuaternion::from_scaled_axis(m.angular * dt);
        let cog = body.world_cog();
        let rotation = turn * body.pose.rotation;
        let target = Translation3::from(cog.coords + travel)
            * rotation
            * Translation3::from(-body.mass.cog.coords);
        let completed = target == body.pose || self.move_to(Element::Body(i), target)?.completed;
        let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
        let done = match completed {
            true => 1.0,
            false => share_done(before, (body.world_cog(), body.pose.rotation), travel, turn),
        };
        let angular = world_inertia(body)
            .try_inverse()
            .map_or(m.angular, |inverse| inverse * momentum);
        if let Some(body) = self.body_mut(id) {
            body.velocity = Velocity::new(m.linear, angular);
        }
        Ok(done)
    }
}

impl<E: CollisionEngine> World<E> {
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

/// The body's inertia about its centre, world axes, g·mm².
fn world_inertia(body: &Body) -> Matrix3<f64> {
    let rotation = body.pose.rotation.to_rotation_matrix().into_inner();
    rotation * (body.mass.inertia * body.mass.mass) * rotation.transpose()
}

/// The body as the solver moves it, with `added` (gravity's velocity for this step) already
/// added; `None` for a mass or inertia that cannot move (not positive, not finite).
fn mobile(body: &Body, added: Vector3<f64>) -> Option<Mobile> {
    let mass = body.mass.mass;
    if !(mass.is_finite() && mass > 0.0) {
        return None;
    }
    let inverse_inertia = world_inertia(body).try_inverse()?;
    if !inverse_inertia.iter().all(|x| x.is_finite()) {
        return None;
    }
    Some(Mobile {
        inverse_mass: 1.0 / mass,
        inverse_inertia,
        linear: body.velocity.linear + added,
        angular: body.velocity.angular,
    })
}
