//! Collision domains, after GraspIt's threads: the world is domain 0, shared and read-only while
//! domains borrow it; each domain holds bodies and robots of its own (loaded from files, or
//! clones that share a world robot's geometry) and moves them against the world and each
//! other, never against another domain's. Many grasps are so evaluated in parallel, each
//! exactly as it would be alone (without GraspIt's shared-tree crash: geometry sits behind
//! `Arc`s and the world cannot change while a domain borrows it). A domain's verbs are its
//! [`Stage`]'s, the same the world's moves call.

use clasp_collide::{CollisionEngine, FastEngine};
use nalgebra::Vector3;

use super::{
    World,
    error::{MoveError, check_external_force, check_gravity},
    layers::Layer,
    settings::{DynamicsSettings, WorldSettings},
    stage::{Backdrop, Stage},
};
use crate::{
    body::Body,
    contact::{
        Contact,
        memory::{SearchStats, SolverStats},
    },
    ids::{BodyId, Element, RobotId},
    motion::MoveOutcome,
    pose::Pose,
    robot::Robot,
};

/// One domain around a world: its own bodies and robots, numbered after the world's, and
/// their contacts with the world and with each other.
#[derive(Debug, Clone)]
pub struct Domain<'w, E: CollisionEngine = FastEngine> {
    world: &'w World<E>,
    /// World bodies and robots this domain does not see: the originals of its clones.
    hidden: Vec<Element>,
    /// What the domain's dynamics is given: the world's, unless set for the domain alone (each
    /// direction of a grasp's physics test pulls its own way).
    dynamics: DynamicsSettings,
    /// The domain's own bodies and robots, numbered after the world's; the world's switches,
    /// a clone given its original's; the contacts of its bodies; what its moves learnt.
    pub(crate) stage: Stage,
}

impl<E: CollisionEngine> World<E> {
    /// An empty domain numbered `number` (1 or more: 0 is the world itself).
    pub fn domain(&self, number: u32) -> Result<Domain<'_, E>, MoveError> {
        if number == 0 {
            return Err(MoveError::SharedDomain);
        }
        let stage = Stage {
            first_body_slot: self.stage.bodies.len(),
            first_robot_slot: self.stage.robots.len(),
            domain: number,
            switches: self.stage.switches.clone(),
            gap_memory: self.stage.gap_memory.clone(),
            ..Stage::default()
        };
        Ok(Domain {
            world: self,
            hidden: Vec::new(),
            dynamics: self.settings.dynamics,
            stage,
        })
    }

    /// `count` domains (1 to `count`), each holding a clone of robot `robot` in its place
    /// (the original hidden): the way to evaluate grasps of one hand in parallel. The clones
    /// share every mesh and tree with the original.
    pub fn clone_domains(
        &self,
        robot: RobotId,
        count: usize,
    ) -> Result<Vec<Domain<'_, E>>, MoveError> {
        (1..=count)
            .map(|number| {
                let mut domain = self.domain(number as u32)?;
                domain.clone_robot(robot)?;
                Ok(domain)
            })
            .collect()
    }
}

impl<'w, E: CollisionEngine> Domain<'w, E> {
    pub fn number(&self) -> u32 {
        self.stage.domain
    }

    /// The shared world the domain moves in.
    pub fn world(&self) -> &'w World<E> {
        self.world
    }

    /// What the domain's stage moves against: the world, less the originals of its clones;
    /// with the stage itself, to change it.
    pub(crate) fn split(&mut self) -> (Backdrop<'_>, &mut Stage) {
        (
            backdrop(self.world, &self.hidden, self.dynamics),
            &mut self.stage,
        )
    }

    /// The domain's backdrop alone, to read the stage against.
    pub(crate) fn backdrop(&self) -> Backdrop<'_> {
        backdrop(self.world, &self.hidden, self.dynamics)
    }

    /// Adds a body of the domain's own where it stands, finds its contacts, returns its id.
    pub fn add_body(&mut self, body: Body) -> BodyId {
        let (backdrop, stage) = self.split();
        stage.add_body(&backdrop, body)
    }

    /// Adds a robot of the domain's own where it stands, finds its contacts, returns its id.
    pub fn add_robot(&mut self, robot: Robot) -> RobotId {
        let (backdrop, stage) = self.split();
        stage.add_robot(&backdrop, robot)
    }

    /// Adds a clone of world robot `robot` (sharing its geometry) in its place, and hides the
    /// original from the domain; returns the clone's id.
    pub fn clone_robot(&mut self, robot: RobotId) -> Result<RobotId, MoveError> {
        let original = self.world.find_robot(robot)?;
        self.hidden.push(Element::Robot(robot));
        let clone = RobotId::from_index(self.stage.first_robot_slot + self.stage.robots.len());
        // The clone stands in for its original under the user's switches too.
        self.stage.switches.copy_to_stand_ins(|id| {
            let which = id.robot_body().filter(|_| id.robot() == Some(robot))?;
            Some(BodyId::of_robot(clone, which))
        });
        Ok(self.add_robot(original.clone()))
    }

    /// Adds a copy of world free body `body` (sharing its geometry; its type and velocity
    /// too) in its place, and hides the original from the domain; returns the copy's id. The
    /// domain's dynamics moves the copy, never the world's.
    pub fn clone_body(&mut self, body: BodyId) -> Result<BodyId, MoveError> {
        let i = body.free_index().ok_or(MoveError::NotFree(body))?;
        let original = self.world.free_body(i).ok_or(MoveError::NoSuchBody(body))?;
        self.hidden.push(Element::Body(i));
        let copy = BodyId::Free(self.stage.first_body_slot + self.stage.bodies.len());
        self.stage
            .switches
            .copy_to_stand_ins(|id| (id == body).then_some(copy));
        Ok(self.add_body(original.clone()))
    }

    /// The domain's gravity (mm/s²; any direction, zero turns it off); the world's stays.
    /// Refused, changing nothing, unless every component is finite.
    pub fn set_gravity(&mut self, gravity: Vector3<f64>) -> Result<(), MoveError> {
        check_gravity(&gravity)?;
        self.dynamics.gravity = gravity;
        Ok(())
    }

    /// Pushes one of the domain's own dynamic bodies with `force` every step besides gravity
    /// ([`World::set_external_force`]).
    pub fn set_external_force(&mut self, id: BodyId, force: Vector3<f64>) -> Result<(), MoveError> {
        // Only the domain's own bodies: the world's are shared.
        let body = self.stage.body_mut(id);
        check_external_force(body.as_deref(), id, &force)?;
        if let Some(body) = body {
            body.external_force = force;
        }
        Ok(())
    }

    /// Advances the domain's own bodies and driven robots one time step, against the shared
    /// world, which stays ([`World::step`]'s step, written once on the stage).
    pub fn step(&mut self) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.step(&backdrop)
    }

    /// Steps the domain for `seconds` (rounded to whole steps); returns the steps taken
    /// ([`World::simulate`]).
    pub fn simulate(&mut self, seconds: f64) -> Result<usize, MoveError> {
        let (backdrop, stage) = self.split();
        stage.simulate_until(&backdrop, seconds, || false)
    }

    /// How the domain's steps' contact solves ended so far ([`World::solver_stats`]).
    pub fn solver_stats(&self) -> &SolverStats {
        &self.stage.step_memory.solves
    }

    /// How the domain's steps found their pairs' contacts so far ([`World::search_stats`]).
    pub fn search_stats(&self) -> SearchStats {
        self.stage.step_memory.searches
    }

    /// Seconds the domain's step advances (the world's).
    pub fn time_step(&self) -> f64 {
        self.dynamics.time_step
    }

    /// Each of a domain robot's DOF controllers' effort over the last step
    /// ([`World::dof_efforts`]).
    pub fn dof_efforts(&self, robot: RobotId) -> Result<Vec<f64>, MoveError> {
        let dofs = self
            .robot(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?
            .dofs
            .len();
        Ok(self.stage.dof_efforts(robot, dofs, self.dynamics.time_step))
    }

    /// A body the domain sees: one of its own, or the world's.
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.stage.visible_body(&self.backdrop(), id)
    }

    /// A robot the domain sees: one of its own, or a world robot it does not hide.
    pub fn robot(&self, id: RobotId) -> Option<&Robot> {
        self.stage
            .robot(id)
            .or_else(|| self.backdrop().shared.robot(id))
    }

    /// The domain's own robots with their ids.
    pub fn own_robots(&self) -> impl Iterator<Item = (RobotId, &Robot)> {
        let first = self.stage.first_robot_slot;
        super::layers::slots(&self.stage.robots)
            .map(move |(r, robot)| (RobotId::from_index(first + r), robot))
    }

    /// Both sides of every contact of the domain's own bodies, sorted by body.
    pub fn contacts(&self) -> &[Contact] {
        &self.stage.contacts
    }

    /// The contacts on one body (each seen from that body), as far as the domain's bodies
    /// touch it.
    pub fn contacts_of(&self, body: BodyId) -> impl Iterator<Item = &Contact> {
        self.stage.contacts_of(body)
    }

    /// A robot's contacts as one list over its palm, links and mount, each seen from the
    /// robot's body (RaiSim's `getContacts` of an articulated system).
    pub fn robot_contacts(&self, robot: RobotId) -> impl Iterator<Item = &Contact> {
        self.stage.robot_contacts(robot)
    }

    /// Puts one of the domain's elements at a pose without checking collisions.
    pub fn set_pose(&mut self, element: Element, pose: Pose) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.set_pose(&backdrop, element, pose)
    }

    /// Sets one of the domain's robots' DOFs without checking collisions.
    pub fn set_dof_values(&mut self, robot: RobotId, values: &[f64]) -> Result<(), MoveError> {
        let (backdrop, stage) = self.split();
        stage.set_dof_values(&backdrop, robot, values)
    }

    /// Moves one of the domain's elements toward `pose`, stopping at contact.
    pub fn move_to(&mut self, element: Element, pose: Pose) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_to(&backdrop, element, pose)
    }

    /// Moves a robot's DOFs toward `target`; each chain stops at its first contact.
    pub fn move_dofs_to(
        &mut self,
        robot: RobotId,
        target: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.move_dofs_to(&backdrop, robot, target)
    }

    /// GraspIt's Auto Grasp for one of the domain's robots.
    pub fn auto_grasp(&mut self, robot: RobotId) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.auto_grasp(&backdrop, robot, true)
    }

    /// GraspIt's Auto Open for one of the domain's robots.
    pub fn auto_open(&mut self, robot: RobotId) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.auto_grasp(&backdrop, robot, false)
    }

    /// Approaches along a robot's approach direction, at most `distance` mm.
    pub fn approach_to_contact(
        &mut self,
        robot: RobotId,
        distance: f64,
    ) -> Result<MoveOutcome, MoveError> {
        let (backdrop, stage) = self.split();
        stage.approach_to_contact(&backdrop, robot, distance)
    }
}

/// The world as a domain sees it: every body and robot but those it hides, under the
/// domain's dynamics.
fn backdrop<'a, E: CollisionEngine>(
    world: &'a World<E>,
    hidden: &'a [Element],
    dynamics: DynamicsSettings,
) -> Backdrop<'a> {
    let world_backdrop = world.backdrop();
    Backdrop {
        shared: Layer {
            hidden,
            ..world.layer()
        },
        settings: WorldSettings {
            dynamics,
            ..world_backdrop.settings
        },
        ..world_backdrop
    }
}
