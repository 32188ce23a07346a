//! Collision domains, after GraspIt's threads: the world is domain 0, shared and read-only while
//! domains borrow it; each domain holds bodies and robots of its own (loaded from files, or
//! clones that share a world robot's geometry) and moves them against the world and each
//! other, never against another domain's. Many grasps are so evaluated in parallel, each
//! exactly as it would be alone (without GraspIt's shared-tree crash: geometry sits behind
//! `Arc`s and the world cannot change while a domain borrows it).

use clasp_collide::{CollisionEngine, FastEngine};

use crate::{
    Body, BodyId, Contact, ContactOptions, Element, Grasp, GraspError, Pose, Quality, Robot, World,
    WrenchSpaceKind,
    grasp::evaluate_grasp,
    layers::{self, Layer, OwnLayer},
    moves::{GapMemory, Motion, MoveOutcome},
    requests::{MoveError, check_distance, check_pose, dof_request},
    rules::CollisionSwitches,
    world::slots,
};

/// How one grasp trial in a domain ended.
#[derive(Debug, Clone, PartialEq)]
pub struct GraspTrial {
    pub palm: Pose,
    pub dof_values: Vec<f64>,
    /// Per DOF, where each of its joints broke away (`Robot::breakaway_states`): with the DOF
    /// values, the hand's whole posture.
    pub breakaway: Vec<Vec<Option<f64>>>,
    /// The hand's contacts on the object, seen from the object.
    pub contacts: Vec<Contact>,
    /// The grasp's quality, when asked for (none too when the grasp cannot be evaluated).
    pub quality: Option<Quality>,
}

/// What a grasp trial does: the palm pose and DOF values the hand starts at, how far it may
/// approach, the object, and the wrench space its quality is measured in, if it is.
#[derive(Debug, Clone, Copy)]
pub struct TrialPlan<'a> {
    pub palm: Pose,
    pub open: &'a [f64],
    pub approach: f64,
    pub object: BodyId,
    pub quality: Option<WrenchSpaceKind>,
    /// With the quality, also the wrench space's volume (builds the whole hull).
    pub volume: bool,
}

/// One domain around a world: its own bodies and robots, numbered after the world's, and
/// their contacts with the world and with each other.
#[derive(Debug, Clone)]
pub struct Domain<'w, E: CollisionEngine = FastEngine> {
    world: &'w World<E>,
    /// 1, 2, …: the shared world is domain 0.
    number: u32,
    /// World robots this domain does not see: the originals of its clones.
    hidden_robots: Vec<usize>,
    /// The world's collision switches, a clone given its original's.
    switches: CollisionSwitches,
    bodies: Vec<Option<Body>>,
    robots: Vec<Option<Robot>>,
    /// Both sides of every contact of the domain's own bodies.
    contacts: Vec<Contact>,
    /// What the domain's moves learnt of its gaps.
    memory: GapMemory,
}

impl<E: CollisionEngine> World<E> {
    /// An empty domain numbered `number` (1 or more: 0 is the world itself).
    pub fn domain(&self, number: u32) -> Result<Domain<'_, E>, MoveError> {
        if number == 0 {
            return Err(MoveError::SharedDomain);
        }
        Ok(Domain {
            world: self,
            number,
            hidden_robots: Vec::new(),
            switches: self.switches.clone(),
            bodies: Vec::new(),
            robots: Vec::new(),
            contacts: Vec::new(),
            memory: self.gap_memory.clone(),
        })
    }

    /// GraspIt's multi-threaded planner step: a grasp trial of a clone of `hand` in a domain
    /// of its own, numbered `number`. Run many on rayon's threads: each gives what it gives
    /// alone.
    pub fn trial_in_domain(
        &self,
        number: u32,
        hand: &Robot,
        plan: &TrialPlan,
    ) -> Result<GraspTrial, MoveError> {
        let mut domain = self.domain(number)?;
        let robot = domain.add_robot(hand.clone());
        domain.grasp_trial(robot, plan)
    }

    /// `count` domains (1 to `count`), each holding a clone of robot `robot` in its place
    /// (the original hidden): the way to evaluate grasps of one hand in parallel. The clones
    /// share every mesh and tree with the original.
    pub fn clone_domains(
        &self,
        robot: usize,
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
        self.number
    }

    /// The shared world the domain moves in.
    pub fn world(&self) -> &'w World<E> {
        self.world
    }

    /// The domain's own robots are numbered after the world's, its bodies likewise.
    fn first_robot(&self) -> usize {
        self.world.robots.len()
    }

    fn first_body(&self) -> usize {
        self.world.bodies.len()
    }

    /// Adds a body of the domain's own where it stands, finds its contacts, returns its id.
    pub fn add_body(&mut self, body: Body) -> BodyId {
        self.bodies.push(Some(body));
        self.find_contacts();
        BodyId::Free(self.first_body() + self.bodies.len() - 1)
    }

    /// Adds a robot of the domain's own where it stands, finds its contacts, returns its index.
    pub fn add_robot(&mut self, robot: Robot) -> usize {
        self.robots.push(Some(robot));
        self.find_contacts();
        self.first_robot() + self.robots.len() - 1
    }

    /// Adds a clone of world robot `robot` (sharing its geometry) in its place, and hides the
    /// original from the domain; returns the clone's index.
    pub fn clone_robot(&mut self, robot: usize) -> Result<usize, MoveError> {
        let original = self
            .world
            .robot(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?;
        self.hidden_robots.push(robot);
        let clone = self.first_robot() + self.robots.len();
        // The clone stands in for its original under the user's switches too.
        self.switches.copy_to_stand_ins(|id| {
            let which = id.robot_body().filter(|_| id.robot() == Some(robot))?;
            Some(BodyId::of_robot(clone, which))
        });
        Ok(self.add_robot(original.clone()))
    }

    /// A body the domain sees: one of its own, or the world's.
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        match id {
            BodyId::Free(i) if i >= self.first_body() => {
                self.bodies.get(i - self.first_body())?.as_ref()
            }
            BodyId::Free(_) => self.world.body(id),
            _ => {
                let robot = self.robot(id.robot()?)?;
                robot.body(id.robot_body()?)
            }
        }
    }

    /// A robot the domain sees: one of its own, or a world robot it does not hide.
    pub fn robot(&self, index: usize) -> Option<&Robot> {
        match index.checked_sub(self.first_robot()) {
            Some(local) => self.robots.get(local)?.as_ref(),
            None if self.hidden_robots.contains(&index) => None,
            None => self.world.robot(index),
        }
    }

    /// The domain's own robots with their indices.
    pub fn own_robots(&self) -> impl Iterator<Item = (usize, &Robot)> {
        let first = self.first_robot();
        slots(&self.robots).map(move |(r, robot)| (first + r, robot))
    }

    /// Both sides of every contact of the domain's own bodies, sorted by body.
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    /// The contacts on one body (each seen from that body), as far as the domain's bodies
    /// touch it.
    pub fn contacts_of(&self, body: BodyId) -> impl Iterator<Item = &Contact> {
        self.contacts.iter().filter(move |c| c.body == body)
    }

    fn shared(&self) -> Layer<'w> {
        Layer {
            hidden_robots: &[],
            ..self.world.layer()
        }
    }

    fn own(&self) -> Layer<'_> {
        Layer {
            bodies: &self.bodies,
            robots: &self.robots,
            first_body: self.first_body(),
            first_robot: self.first_robot(),
            domain: self.number,
            hidden_robots: &[],
        }
    }

    fn find_contacts(&mut self) {
        let shared = Layer {
            hidden_robots: &self.hidden_robots,
            ..self.shared()
        };
        let rules = self.world.rules_with(&self.switches);
        self.contacts = layers::find_contacts(&rules, &shared, &self.own());
    }

    /// Runs `act` on a motion of one of the domain's own elements; the world's stay put.
    fn with_motion<R>(
        &mut self,
        element: Element,
        act: impl FnOnce(&mut Motion) -> R,
    ) -> Result<R, MoveError> {
        let (first_body, first_robot) = (self.first_body(), self.first_robot());
        let shared = Layer {
            hidden_robots: &self.hidden_robots,
            ..self.shared()
        };
        let own = OwnLayer {
            bodies: &mut self.bodies,
            robots: &mut self.robots,
            first_body,
            first_robot,
            domain: self.number,
            // A domain's robots are clones that nothing carries.
            connections: &[],
        };
        layers::run_motion(
            shared,
            own,
            element,
            self.world.rules_with(&self.switches),
            &mut self.memory,
            &mut self.contacts,
            act,
        )
    }

    fn own_robot(&self, robot: usize) -> Result<&Robot, MoveError> {
        robot
            .checked_sub(self.first_robot())
            .and_then(|local| self.robots.get(local)?.as_ref())
            .ok_or(MoveError::NoSuchRobot(robot))
    }

    /// Puts one of the domain's elements at a pose without checking collisions.
    pub fn set_pose(&mut self, element: Element, pose: Pose) -> Result<(), MoveError> {
        check_pose(&pose)?;
        self.with_motion(element, |motion| motion.place(pose))
    }

    /// Sets one of the domain's robots' DOFs without checking collisions.
    pub fn set_dof_values(&mut self, robot: usize, values: &[f64]) -> Result<(), MoveError> {
        self.own_robot(robot)?.check_dof_values(values)?;
        self.with_motion(Element::Robot(robot), |motion| motion.force_dofs(values))
    }

    /// Moves one of the domain's elements toward `pose`, stopping at contact.
    pub fn move_to(&mut self, element: Element, pose: Pose) -> Result<MoveOutcome, MoveError> {
        check_pose(&pose)?;
        self.with_motion(element, |motion| motion.move_to(pose))
    }

    /// Moves a robot's DOFs toward `target`; each chain stops at its first contact.
    pub fn move_dofs_to(&mut self, robot: usize, target: &[f64]) -> Result<MoveOutcome, MoveError> {
        let speeds = dof_request(self.own_robot(robot)?, target)?;
        self.with_motion(Element::Robot(robot), |motion| {
            motion.move_dofs(target, &speeds)
        })
    }

    /// GraspIt's Auto Grasp for one of the domain's robots.
    pub fn auto_grasp(&mut self, robot: usize) -> Result<MoveOutcome, MoveError> {
        self.own_robot(robot)?;
        self.with_motion(Element::Robot(robot), |motion| motion.auto_grasp(true))
    }

    /// GraspIt's Auto Open for one of the domain's robots.
    pub fn auto_open(&mut self, robot: usize) -> Result<MoveOutcome, MoveError> {
        self.own_robot(robot)?;
        self.with_motion(Element::Robot(robot), |motion| motion.auto_grasp(false))
    }

    /// Approaches along a robot's approach direction, at most `distance` mm.
    pub fn approach_to_contact(
        &mut self,
        robot: usize,
        distance: f64,
    ) -> Result<MoveOutcome, MoveError> {
        check_distance(distance)?;
        self.own_robot(robot)?;
        self.with_motion(Element::Robot(robot), |motion| motion.approach(distance))
    }

    /// A planner's grasp trial: the robot's palm and DOFs where the plan starts them, an
    /// approach toward what it aims at, then Auto Grasp, and the grasp's quality if asked.
    pub fn grasp_trial(&mut self, robot: usize, plan: &TrialPlan) -> Result<GraspTrial, MoveError> {
        self.set_pose(Element::Robot(robot), plan.palm)?;
        self.set_dof_values(robot, plan.open)?;
        self.approach_to_contact(robot, plan.approach)?;
        self.auto_grasp(robot)?;
        let hand = self.own_robot(robot)?;
        let quality = plan.quality.and_then(|kind| {
            let grasp = self
                .grasp(robot, plan.object, &ContactOptions::default())
                .ok()?;
            match plan.volume {
                true => grasp.quality_with_volume(kind).ok(),
                false => grasp.quality(kind).ok(),
            }
        });
        Ok(GraspTrial {
            palm: hand.pose(),
            dof_values: hand.dof_values().to_vec(),
            breakaway: hand.breakaway_states(),
            contacts: self
                .contacts_of(plan.object)
                .filter(|c| c.other.robot() == Some(robot))
                .cloned()
                .collect(),
            quality,
        })
    }

    /// The grasp of `object` (the world's or the domain's) by one of the domain's robots.
    pub fn grasp(
        &self,
        robot: usize,
        object: BodyId,
        options: &ContactOptions,
    ) -> Result<Grasp, GraspError> {
        self.own_robot(robot)
            .map_err(|_| GraspError::NoSuchRobot(robot))?;
        evaluate_grasp(
            &self.world.engine,
            |id| self.body(id),
            &self.contacts,
            (robot, object),
            (options, &self.world.settings.contact_options),
        )
    }
}
