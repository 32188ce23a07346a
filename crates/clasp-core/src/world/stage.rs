//! The one owner of what a world and its domains share: bodies and robots in slots (numbered
//! from where the owner's numbering starts), the collision switches, the connections, both
//! sides of every contact, and what moves learnt of the gaps. Each verb — place, move, close
//! the fingers, approach, add, find contacts — is written here once; [`super::World`] and
//! [`super::domain::Domain`] call it with the [`Backdrop`] they move against.

use clasp_collide::CollisionEngine;
use nalgebra::Point3;

use super::{
    error::{MoveError, check_distance, check_pose, dof_request},
    layers::{self, Layer, OwnLayer},
    settings::WorldSettings,
};
use crate::{
    body::Body,
    contact::{Contact, filter::CollisionSwitches, memory::StepMemory},
    ids::{BodyId, Element, RobotId},
    motion::{Motion, MoveOutcome, Rules, gaps::GapMemory},
    pose::Pose,
    robot::{Robot, mount::Connection},
};

/// What a stage moves against: the engine, the world's settings, and the shared world's
/// bodies (none for the world itself; the world's, less the originals of its clones, for a
/// domain).
#[derive(Clone, Copy)]
pub(crate) struct Backdrop<'a> {
    pub engine: &'a dyn CollisionEngine,
    pub settings: WorldSettings,
    pub shared: Layer<'a>,
}

impl<'a> Backdrop<'a> {
    /// Nothing shared: what a world's own stage moves against.
    pub fn alone(engine: &'a dyn CollisionEngine, settings: WorldSettings) -> Self {
        Backdrop {
            engine,
            settings,
            shared: Layer::empty(),
        }
    }

    /// The rules a stage's moves obey under these switches.
    pub fn rules(&self, switches: &'a CollisionSwitches) -> Rules<'a> {
        Rules {
            engine: self.engine,
            switches,
            threshold: self.settings.contact_threshold,
            contact_options: self.settings.contact_options,
            min_step: self.settings.min_step,
            queries: self.settings.move_queries,
        }
    }
}

/// Bodies and robots in slots with everything their moves keep: a world's, or a domain's own.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stage {
    /// Free bodies by slot; a removed one leaves its slot empty, and slots are never reused,
    /// so an id names one body for the world's whole life and removals renumber nothing.
    pub bodies: Vec<Option<Body>>,
    /// Robots by slot, the same way.
    pub robots: Vec<Option<Robot>>,
    /// The number of the first body and robot: 0 for a world, its world's counts for a domain.
    pub first_body_slot: usize,
    pub first_robot_slot: usize,
    /// 0 for the world; 1, 2, … for a domain.
    pub domain: u32,
    /// Robots mounted on other robots, parents before the robots they carry.
    pub connections: Vec<Connection>,
    pub switches: CollisionSwitches,
    /// Both sides of every contact of the stage's bodies, sorted by body.
    pub contacts: Vec<Contact>,
    /// What moves learnt of the gaps, for the next moves.
    pub gap_memory: GapMemory,
    /// What the last dynamics step found and applied, for the next.
    pub step_memory: StepMemory,
}

impl Stage {
    /// A world's stage: these bodies and robots, numbered from 0, all collisions on.
    pub fn world(bodies: Vec<Body>, robots: Vec<Robot>) -> Self {
        Stage {
            bodies: bodies.into_iter().map(Some).collect(),
            robots: robots.into_iter().map(Some).collect(),
            ..Stage::default()
        }
    }

    /// The same stage with no contacts and nothing learnt (for another engine).
    pub fn forgetting(self) -> Self {
        Stage {
            contacts: Vec::new(),
            gap_memory: GapMemory::default(),
            step_memory: StepMemory::default(),
            ..self
        }
    }

    /// The stage's bodies and robots as one layer.
    pub fn layer(&self) -> Layer<'_> {
        Layer {
            bodies: &self.bodies,
            robots: &self.robots,
            first_body_slot: self.first_body_slot,
            first_robot_slot: self.first_robot_slot,
            domain: self.domain,
            hidden: &[],
        }
    }

    /// One of the stage's own robots.
    pub fn robot(&self, id: RobotId) -> Option<&Robot> {
        self.layer().robot(id)
    }

    /// One of the stage's own robots, or the error that names it.
    pub fn own_robot(&self, id: RobotId) -> Result<&Robot, MoveError> {
        self.robot(id).ok_or(MoveError::NoSuchRobot(id))
    }

    /// One of the stage's own robots, to change what moves nothing (its dynamics' state).
    pub fn robot_mut(&mut self, id: RobotId) -> Option<&mut Robot> {
        let local = id.index().checked_sub(self.first_robot_slot)?;
        self.robots.get_mut(local)?.as_mut()
    }

    pub fn body_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        match (id.robot(), id.robot_body()) {
            (Some(robot), Some(which)) => {
                let local = robot.index().checked_sub(self.first_robot_slot)?;
                self.robots.get_mut(local)?.as_mut()?.body_mut(which)
            }
            _ => {
                let local = id.free_index()?.checked_sub(self.first_body_slot)?;
                self.bodies.get_mut(local)?.as_mut()
            }
        }
    }

    /// A body the stage sees: its own, or the backdrop's.
    pub fn visible_body<'a>(&'a self, backdrop: &Backdrop<'a>, id: BodyId) -> Option<&'a Body> {
        self.layer().body(id).or_else(|| backdrop.shared.body(id))
    }

    /// The contacts on one body (each seen from that body).
    pub fn contacts_of(&self, body: BodyId) -> impl Iterator<Item = &Contact> {
        self.contacts.iter().filter(move |c| c.body == body)
    }

    /// A robot's contacts as one list over its palm, links and mount, each seen from the
    /// robot's body (RaiSim's `getContacts` of an articulated system).
    pub fn robot_contacts(&self, robot: RobotId) -> impl Iterator<Item = &Contact> {
        self.contacts
            .iter()
            .filter(move |c| c.body.robot() == Some(robot))
    }

    /// Finds every contact of the stage's bodies again (GraspIt's `findAllContacts`).
    pub fn find_contacts(&mut self, backdrop: &Backdrop) {
        let rules = backdrop.rules(&self.switches);
        self.contacts = layers::find_contacts(&rules, &backdrop.shared, &self.layer());
    }

    /// Adds a body where it stands, finds its contacts, returns its id.
    pub fn add_body(&mut self, backdrop: &Backdrop, body: Body) -> BodyId {
        self.bodies.push(Some(body));
        self.find_contacts(backdrop);
        BodyId::Free(self.first_body_slot + self.bodies.len() - 1)
    }

    /// Adds a robot where it stands, finds its contacts, returns its id.
    pub fn add_robot(&mut self, backdrop: &Backdrop, robot: Robot) -> RobotId {
        self.robots.push(Some(robot));
        self.find_contacts(backdrop);
        RobotId::from_index(self.first_robot_slot + self.robots.len() - 1)
    }

    /// Runs `act` on a motion of one of the stage's elements (a robot with those it carries)
    /// against everything else it sees; if it moved, its contacts are replaced by its new ones.
    fn with_motion<R>(
        &mut self,
        backdrop: &Backdrop,
        element: Element,
        act: impl FnOnce(&mut Motion) -> R,
    ) -> Result<R, MoveError> {
        self.run(backdrop, element, true, act)
    }

    /// [`Stage::with_motion`], replacing the contacts or not.
    fn run<R>(
        &mut self,
        backdrop: &Backdrop,
        element: Element,
        find_contacts: bool,
        act: impl FnOnce(&mut Motion) -> R,
    ) -> Result<R, MoveError> {
        let own = OwnLayer {
            bodies: &mut self.bodies,
            robots: &mut self.robots,
            first_body_slot: self.first_body_slot,
            first_robot_slot: self.first_robot_slot,
            domain: self.domain,
            connections: &self.connections,
        };
        layers::run_motion(
            backdrop.shared,
            own,
            element,
            backdrop.rules(&self.switches),
            &mut self.gap_memory,
            find_contacts.then_some(&mut self.contacts),
            act,
        )
    }

    /// The connection by which another robot carries `robot`, if one does.
    pub(crate) fn carrying(&self, robot: RobotId) -> Option<&Connection> {
        self.connections.iter().find(|c| c.child_robot == robot)
    }

    /// A robot carried by another moves only with it: its pose is its carrier's to set.
    fn check_not_carried(&self, element: Element) -> Result<(), MoveError> {
        let Element::Robot(robot) = element else {
            return Ok(());
        };
        match self.carrying(robot) {
            Some(c) => Err(MoveError::Carried {
                robot,
                by: c.parent_robot,
            }),
            None => Ok(()),
        }
    }

    /// Puts an element at a pose without checking collisions (GraspIt's `setTran`).
    pub fn set_pose(
        &mut self,
        backdrop: &Backdrop,
        element: Element,
        pose: Pose,
    ) -> Result<(), MoveError> {
        check_pose(&pose)?;
        self.check_not_carried(element)?;
        self.with_motion(backdrop, element, |motion| motion.place(pose))
    }

    /// Sets a robot's DOFs without checking collisions; values outside the limits are refused.
    pub fn set_dof_values(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        values: &[f64],
    ) -> Result<(), MoveError> {
        self.own_robot(robot)?.check_dof_values(values)?;
        self.with_motion(backdrop, Element::Robot(robot), |motion| {
            motion.force_dofs(values)
        })
    }

    /// Sets a robot's DOF values and, per DOF, where its joints broke away, without checking
    /// collisions; refused, changing nothing, when a value or state does not fit.
    pub fn set_posture(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        values: &[f64],
        breakaway: &[Vec<Option<f64>>],
    ) -> Result<(), MoveError> {
        let mut posed = self.own_robot(robot)?.clone();
        posed.set_dof_values(values)?;
        for (dof, states) in breakaway.iter().enumerate() {
            posed.set_breakaway(dof, states)?;
        }
        let breakaway = posed.breakaway_states();
        self.with_motion(backdrop, Element::Robot(robot), |motion| {
            motion.force_dofs(values);
            motion.force_breakaway(&breakaway);
        })
    }

    /// Moves an element toward `pose`, stopping at contact with a gap in (0, threshold/2).
    pub fn move_to(
        &mut self,
        backdrop: &Backdrop,
        element: Element,
        pose: Pose,
    ) -> Result<MoveOutcome, MoveError> {
        self.move_element(backdrop, element, pose, true)
    }

    /// [`Stage::move_to`] leaving the contacts as they were, turning about `pivot` (a point in
    /// the element's own frame that travels straight): for a caller that moves several
    /// elements and then finds their contacts once (a dynamics step, turning a free body
    /// about its centre of gravity).
    pub fn move_to_finding_no_contacts(
        &mut self,
        backdrop: &Backdrop,
        element: Element,
        pose: Pose,
        pivot: Point3<f64>,
    ) -> Result<MoveOutcome, MoveError> {
        check_pose(&pose)?;
        self.check_not_carried(element)?;
        self.run(backdrop, element, false, |motion| {
            motion.move_about(pose, pivot)
        })
    }

    fn move_element(
        &mut self,
        backdrop: &Backdrop,
        element: Element,
        pose: Pose,
        find_contacts: bool,
    ) -> Result<MoveOutcome, MoveError> {
        check_pose(&pose)?;
        self.check_not_carried(element)?;
        self.run(backdrop, element, find_contacts, |motion| {
            motion.move_to(pose)
        })
    }

    /// Moves a robot's DOFs toward `target` together; each chain stops at its first contact.
    pub fn move_dofs_to(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        target: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        self.move_dofs(backdrop, robot, target, true)
    }

    /// [`Stage::move_dofs_to`] leaving the contacts as they were, for a dynamics step.
    pub fn move_dofs_to_finding_no_contacts(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        target: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        self.move_dofs(backdrop, robot, target, false)
    }

    fn move_dofs(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        target: &[f64],
        find_contacts: bool,
    ) -> Result<MoveOutcome, MoveError> {
        let speeds = dof_request(self.own_robot(robot)?, target)?;
        self.run(backdrop, Element::Robot(robot), find_contacts, |motion| {
            motion.move_dofs(target, &speeds)
        })
    }

    /// Moves a robot's DOFs to the posture with these eigengrasp amplitudes (what lies outside
    /// the eigengrasps' span is kept; each DOF held within its limits), stopping at contact.
    pub fn move_eigen_amplitudes(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        amplitudes: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        let r = self.own_robot(robot)?;
        let target = r.within_limits(&r.eigen_space()?.dofs_for(amplitudes, r.dof_values())?);
        self.move_dofs_to(backdrop, robot, &target)
    }

    /// Closes (or, `closing` false, opens) every finger at its default velocity until it
    /// touches something or reaches its limit: GraspIt's Auto Grasp and Auto Open.
    pub fn auto_grasp(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        closing: bool,
    ) -> Result<MoveOutcome, MoveError> {
        self.own_robot(robot)?;
        self.with_motion(backdrop, Element::Robot(robot), |motion| {
            motion.auto_grasp(closing)
        })
    }

    /// Moves a robot along its approach direction until it touches something, at most
    /// `distance` mm; if nothing is met it stays where it was. A robot an arm carries is moved
    /// by its arm.
    pub fn approach_to_contact(
        &mut self,
        backdrop: &Backdrop,
        robot: RobotId,
        distance: f64,
    ) -> Result<MoveOutcome, MoveError> {
        check_distance(distance)?;
        self.own_robot(robot)?;
        if self.is_carried(robot) {
            return self.approach_carried(backdrop, robot, distance);
        }
        self.with_motion(backdrop, Element::Robot(robot), |motion| {
            motion.approach(distance)
        })
    }
}
