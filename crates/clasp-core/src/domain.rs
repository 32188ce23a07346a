//! Collision domains: clones of one robot, each moving on its own around a shared, read-only
//! world, so that many grasps are evaluated in parallel (GraspIt's planner clones, without its
//! shared-tree crash: geometry sits behind `Arc`s and the world cannot change while clones
//! borrow it).

use clasp_collide::{CollisionEngine, FastEngine};

use crate::{
    Contact, DofError, Element, Pose, Robot, World,
    contact::number_contacts,
    moves::{GapMemory, Motion, MoveOutcome, Mover, Part, Rules},
    simulation::{MoveError, check_pose, dof_request, free_parts, robot_parts},
};

/// One clone of a world's robot in a domain of its own: it sees the world's free bodies and
/// its other robots, but not the robot it was cloned from, nor any other clone.
#[derive(Debug, Clone)]
pub struct Domain<'w, E: CollisionEngine = FastEngine> {
    world: &'w World<E>,
    index: usize,
    /// 1, 2, …: the domain's number; the shared world is domain 0.
    domain: u32,
    robot: Robot,
    contacts: Vec<Contact>,
    /// What the clone's moves learnt of its gaps.
    memory: GapMemory,
}

impl<E: CollisionEngine> World<E> {
    /// `count` clones of robot `robot`, each in its own domain (1 to `count`). The clones
    /// share every mesh and tree with the original.
    pub fn clone_domains(
        &self,
        robot: usize,
        count: usize,
    ) -> Result<Vec<Domain<'_, E>>, MoveError> {
        let original = self.robot(robot).ok_or(MoveError::NoSuchRobot(robot))?;
        Ok((1..=count)
            .map(|domain| Domain {
                world: self,
                index: robot,
                domain: domain as u32,
                robot: original.clone(),
                contacts: Vec::new(),
                memory: self.gap_memory.clone(),
            })
            .collect())
    }
}

impl<E: CollisionEngine> Domain<'_, E> {
    /// The clone; its bodies carry the same ids as the original's.
    pub fn robot(&self) -> &Robot {
        &self.robot
    }

    /// The clone's contacts, both sides of each, after its last move.
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    /// The contacts on the clone's bodies (one side of each, self-contacts once).
    pub fn robot_contacts(&self) -> impl Iterator<Item = &Contact> {
        self.contacts
            .iter()
            .filter(|c| c.body.robot() == Some(self.index) && !c.skip)
    }

    fn act<R>(&mut self, act: impl FnOnce(&mut Motion) -> R) -> R {
        let world = self.world;
        let others: Vec<Part> = free_parts(&world.bodies, 0)
            .chain(robot_parts(&world.robots, 0, Some(self.index)))
            .collect();
        let mut motion = Motion {
            mover: Mover::Robot {
                index: self.index,
                robot: &mut self.robot,
            },
            others: &others,
            rules: Rules {
                engine: &world.engine,
                switches: &world.switches,
                threshold: world.settings.contact_threshold,
                min_step: world.settings.min_step,
                queries: world.settings.move_queries,
            },
            memory: &mut self.memory,
            domain: self.domain,
        };
        let result = act(&mut motion);
        let mut contacts = motion.contacts();
        number_contacts(&mut contacts);
        self.contacts = contacts;
        result
    }

    /// Puts the clone's palm at a pose without checking collisions.
    pub fn set_pose(&mut self, pose: Pose) -> Result<(), MoveError> {
        check_pose(&pose)?;
        self.act(|motion| {
            if let Mover::Robot { robot, .. } = &mut motion.mover {
                robot.set_pose(pose);
            }
        });
        Ok(())
    }

    /// Sets the clone's DOFs without checking collisions.
    pub fn set_dof_values(&mut self, values: &[f64]) -> Result<(), DofError> {
        self.robot.check_dof_values(values)?;
        self.act(|motion| {
            if let Mover::Robot { robot, .. } = &mut motion.mover {
                robot.force_dof_values(values);
            }
        });
        Ok(())
    }

    /// Moves the clone's palm toward `pose`, stopping at contact.
    pub fn move_to(&mut self, pose: Pose) -> Result<MoveOutcome, MoveError> {
        check_pose(&pose)?;
        Ok(self.act(|motion| motion.move_to(pose)))
    }

    /// Moves the clone's DOFs toward `target`; each chain stops at its first contact.
    pub fn move_dofs_to(&mut self, target: &[f64]) -> Result<MoveOutcome, MoveError> {
        let speeds = dof_request(&self.robot, target)?;
        Ok(self.act(|motion| motion.move_dofs(target, &speeds)))
    }

    pub fn auto_grasp(&mut self) -> MoveOutcome {
        self.act(|motion| motion.auto_grasp(true))
    }

    pub fn auto_open(&mut self) -> MoveOutcome {
        self.act(|motion| motion.auto_grasp(false))
    }

    /// Approaches along the clone's approach direction, at most `distance` mm.
    pub fn approach_to_contact(&mut self, distance: f64) -> Result<MoveOutcome, MoveError> {
        if !(distance.is_finite() && distance > 0.0) {
            return Err(MoveError::BadDistance(distance));
        }
        Ok(self.act(|motion| motion.approach(distance)))
    }

    /// The element the clone stands for in its world.
    pub fn element(&self) -> Element {
        Element::Robot(self.index)
    }
}
