use std::path::PathBuf;

use nalgebra::{Point3, UnitQuaternion};

use clasp_collide::{CollisionEngine, FastEngine};

use crate::rules::CollisionSwitches;
use crate::{Body, Contact, ContactOptions, MoveQueries, Pose, Robot, RobotBody, moves::GapMemory};

/// What a user selects and moves as one: a free body, or a whole robot (palm and links).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    Body(usize),
    Robot(usize),
}

/// Names one body of a world: a free body, or a robot's palm or link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BodyId {
    /// A free body (obstacle or graspable), by index.
    Free(usize),
    /// A robot's palm.
    Palm { robot: usize },
    /// A link of a robot's chain.
    Link {
        robot: usize,
        chain: usize,
        link: usize,
    },
    /// The mount piece of a robot mounted on another.
    Mount { robot: usize },
}

impl BodyId {
    /// The robot this body belongs to, if any.
    pub fn robot(self) -> Option<usize> {
        match self {
            BodyId::Free(_) => None,
            BodyId::Palm { robot } | BodyId::Link { robot, .. } | BodyId::Mount { robot } => {
                Some(robot)
            }
        }
    }

    /// Which of its robot's bodies this is, if it is a robot's.
    pub fn robot_body(self) -> Option<RobotBody> {
        match self {
            BodyId::Free(_) => None,
            BodyId::Palm { .. } => Some(RobotBody::Palm),
            BodyId::Link { chain, link, .. } => Some(RobotBody::Link { chain, link }),
            BodyId::Mount { .. } => Some(RobotBody::Mount),
        }
    }

    /// The id of one body of robot `robot`.
    pub fn of_robot(robot: usize, which: RobotBody) -> BodyId {
        match which {
            RobotBody::Palm => BodyId::Palm { robot },
            RobotBody::Link { chain, link } => BodyId::Link { robot, chain, link },
            RobotBody::Mount => BodyId::Mount { robot },
        }
    }

    /// The index of a free body; `None` for a robot's.
    pub fn free_index(self) -> Option<usize> {
        match self {
            BodyId::Free(i) => Some(i),
            _ => None,
        }
    }

    /// The element this body belongs to: the body, or its robot. (A user who picks a mounted
    /// robot's body moves the whole assembly: see [`World::assembly_root`].)
    pub fn element(self) -> Element {
        match self {
            BodyId::Free(i) => Element::Body(i),
            BodyId::Palm { robot } | BodyId::Link { robot, .. } | BodyId::Mount { robot } => {
                Element::Robot(robot)
            }
        }
    }
}

/// One robot mounted on the end of another's chain, as GraspIt's `<connection>` says (an arm
/// carrying a hand): the child's palm stays at the chain end times `offset`, its mount piece
/// with it. Made with [`World::connect`].
#[derive(Debug, Clone, PartialEq)]
pub struct Connection {
    /// Index into [`World::robots`] of the robot that carries the other.
    pub parent_robot: usize,
    /// The parent's chain whose last link carries the child.
    pub parent_chain: usize,
    /// Index into [`World::robots`] of the carried robot.
    pub child_robot: usize,
    /// The body file of the mount piece between the two, if any.
    pub mount: Option<PathBuf>,
    /// From the end of the parent chain to the child's base.
    pub offset: Pose,
}

impl Connection {
    /// Where the carried robot's palm stands on this carrier: its chain's end times the offset.
    pub fn carried_pose(&self, carrier: &Robot) -> Option<Pose> {
        Some(carrier.chain_end(self.parent_chain)? * self.offset)
    }
}

/// The viewpoint a world file was saved with (GraspIt's `<camera>`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// In world coordinates, millimetres.
    pub position: Point3<f64>,
    /// GraspIt writes it as `x y z w` (Inventor's quaternion order).
    pub orientation: UnitQuaternion<f64>,
    /// Distance from the camera to the point it orbits, millimetres.
    pub focal_distance: f64,
}

/// How moves and contacts work in a world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldSettings {
    /// Bodies closer than this (mm) are in contact; moves stop with a gap below half of it.
    pub contact_threshold: f64,
    /// The shortest sub-step of a move near other bodies (mm of travel): bodies thinner than
    /// this together could be passed through only when already this close.
    pub min_step: f64,
    /// Which queries moves ask of the engine: bounded ones, or exact distances as before.
    pub move_queries: MoveQueries,
    /// How contacts are modelled: friction edges, soft contacts on or off, the normal force
    /// that sizes a soft contact.
    pub contact_options: ContactOptions,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self {
            contact_threshold: clasp_collide::DEFAULT_CONTACT_THRESHOLD,
            min_step: 1.0,
            move_queries: MoveQueries::default(),
            contact_options: ContactOptions::default(),
        }
    }
}

/// The simulated world: free bodies and robots, the collision rules, the engine that answers
/// its queries, and the contacts. The single source of truth for poses: bodies, robots and
/// rules change only through its methods, which keep the contacts true.
#[derive(Debug, Clone)]
pub struct World<E: CollisionEngine = FastEngine> {
    pub(crate) engine: E,
    /// Free bodies by index; a removed one leaves its slot empty, and slots are never reused,
    /// so an id names one body for the world's whole life and removals renumber nothing.
    pub(crate) bodies: Vec<Option<Body>>,
    /// Robots by index, the same way.
    pub(crate) robots: Vec<Option<Robot>>,
    /// Robots mounted on other robots, parents before the robots they carry.
    pub(crate) connections: Vec<Connection>,
    /// The saved viewpoint, if the file had one.
    pub camera: Option<Camera>,
    /// The hand the user chose to grasp with (GraspIt's `setCurrentHand`), if any.
    pub(crate) chosen_hand: Option<usize>,
    pub(crate) settings: WorldSettings,
    pub(crate) switches: CollisionSwitches,
    /// Both sides of every contact, sorted by body.
    pub(crate) contacts: Vec<Contact>,
    /// What moves learnt of the gaps, for the next moves.
    pub(crate) gap_memory: GapMemory,
}

impl Default for World {
    /// An empty world on the fast engine.
    fn default() -> Self {
        World::new(Vec::new(), Vec::new())
    }
}

impl World {
    /// A world of these bodies and robots on the fast engine, with default settings, all
    /// collisions on, and its contacts found.
    pub fn new(bodies: Vec<Body>, robots: Vec<Robot>) -> Self {
        World::with_engine(FastEngine, bodies, robots)
    }
}

impl<E: CollisionEngine> World<E> {
    /// A world of these bodies and robots on `engine`, its contacts found.
    pub fn with_engine(engine: E, bodies: Vec<Body>, robots: Vec<Robot>) -> Self {
        let mut world = World {
            engine,
            bodies: bodies.into_iter().map(Some).collect(),
            robots: robots.into_iter().map(Some).collect(),
            connections: Vec::new(),
            camera: None,
            chosen_hand: None,
            settings: WorldSettings::default(),
            switches: CollisionSwitches::default(),
            contacts: Vec::new(),
            gap_memory: GapMemory::default(),
        };
        world.find_all_contacts();
        world
    }

    /// The same world, every body, rule and setting, on another engine; contacts found again.
    pub fn on_engine<F: CollisionEngine>(self, engine: F) -> World<F> {
        let mut world = World {
            engine,
            bodies: self.bodies,
            robots: self.robots,
            connections: self.connections,
            camera: self.camera,
            chosen_hand: self.chosen_hand,
            settings: self.settings,
            switches: self.switches,
            contacts: Vec::new(),
            gap_memory: GapMemory::default(),
        };
        world.find_all_contacts();
        world
    }

    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The free bodies (obstacles and graspables) with their indices, in the order added.
    pub fn free_bodies(&self) -> impl Iterator<Item = (usize, &Body)> {
        slots(&self.bodies)
    }

    /// The robots with their indices, in the order added.
    pub fn robots(&self) -> impl Iterator<Item = (usize, &Robot)> {
        slots(&self.robots)
    }

    /// The free body at an index, if it is there.
    pub fn free_body(&self, index: usize) -> Option<&Body> {
        self.bodies.get(index)?.as_ref()
    }

    pub fn robot(&self, index: usize) -> Option<&Robot> {
        self.robots.get(index)?.as_ref()
    }

    /// Whether the world has this element.
    pub fn contains(&self, element: Element) -> bool {
        match element {
            Element::Body(i) => self.free_body(i).is_some(),
            Element::Robot(r) => self.robot(r).is_some(),
        }
    }

    /// Every body in a stable order: free bodies, then each robot's palm, links and mount.
    pub fn body_ids(&self) -> Vec<BodyId> {
        let free = self.free_bodies().map(|(i, _)| BodyId::Free(i));
        let robots = self.robots().flat_map(|(r, robot)| {
            robot
                .parts()
                .into_iter()
                .map(move |which| BodyId::of_robot(r, which))
        });
        free.chain(robots).collect()
    }

    /// The body an id names, if it exists.
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        match (id.robot(), id.robot_body()) {
            (Some(robot), Some(which)) => self.robot(robot)?.body(which),
            _ => self.free_body(id.free_index()?),
        }
    }

    pub(crate) fn body_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        match (id.robot(), id.robot_body()) {
            (Some(robot), Some(which)) => self.robots.get_mut(robot)?.as_mut()?.body_mut(which),
            _ => self.bodies.get_mut(id.free_index()?)?.as_mut(),
        }
    }

    /// The corners of the world-space box around every body, or `None` for an empty world.
    pub fn bounding_box(&self) -> Option<(nalgebra::Point3<f64>, nalgebra::Point3<f64>)> {
        crate::body::bounding_box(self.body_ids().into_iter().filter_map(|id| self.body(id)))
    }

    /// The corners of the world-space box round some of its bodies, or `None` for none.
    pub fn bounding_box_of(
        &self,
        ids: &[BodyId],
    ) -> Option<(nalgebra::Point3<f64>, nalgebra::Point3<f64>)> {
        crate::body::bounding_box(ids.iter().filter_map(|&id| self.body(id)))
    }
}

/// The filled slots of a list, with their indices.
pub(crate) fn slots<T>(list: &[Option<T>]) -> impl Iterator<Item = (usize, &T)> {
    list.iter()
        .enumerate()
        .filter_map(|(i, slot)| Some((i, slot.as_ref()?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyKind, Pose, TriMesh};

    fn triangle_body(name: &str, at: f64) -> Body {
        let mesh = TriMesh::new(
            vec![
                Point3::origin(),
                Point3::new(1.0, 0.0, 0.0),
                Point3::new(0.0, 1.0, 0.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap();
        Body::from_mesh(name, BodyKind::Graspable, mesh).at(Pose::translation(at, 0.0, 0.0))
    }

    #[test]
    fn ids_name_every_body_and_the_box_spans_them() {
        let world = World::new(
            vec![triangle_body("a", 0.0), triangle_body("b", 10.0)],
            vec![],
        );
        assert_eq!(world.body_ids(), vec![BodyId::Free(0), BodyId::Free(1)]);
        assert_eq!(world.body(BodyId::Free(1)).unwrap().name, "b");
        assert!(world.body(BodyId::Free(2)).is_none());
        assert!(world.body(BodyId::Palm { robot: 0 }).is_none());
        let (lo, hi) = world.bounding_box().unwrap();
        assert_eq!((lo, hi), (Point3::origin(), Point3::new(11.0, 1.0, 0.0)));
        assert!(World::default().bounding_box().is_none());
    }
}
