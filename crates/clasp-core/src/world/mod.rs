//! The simulated world: free bodies and robots on one collision engine, with the settings its
//! moves and contacts obey. What a world and its domains share — slots, switches, contacts and
//! what moves learnt — is held by a [`stage::Stage`], whose verbs both call.

pub mod assembly;
pub mod domain;
pub mod edit;
pub mod error;
pub mod layers;
pub mod moves;
pub mod reach;
pub mod settings;
pub mod stage;
pub mod switches;

use nalgebra::{Point3, UnitQuaternion};

use clasp_collide::{CollisionEngine, DEFAULT_CONTACT_THRESHOLD, FastEngine};

use crate::{
    body::{Body, BodyKind},
    contact::{
        Contact,
        model::{ContactMode, ContactOptions, GRASPIT_CONTACT_THRESHOLD},
    },
    ids::{BodyId, Element, RobotId},
    motion::MoveQueries,
    robot::{Robot, mount::Connection},
};
use error::MoveError;
use layers::Layer;
use settings::WorldSettings;
use stage::{Backdrop, Stage};

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

/// The simulated world: free bodies and robots, the collision rules, the engine that answers
/// its queries, and the contacts. The single source of truth for poses: bodies, robots and
/// rules change only through its methods, which keep the contacts true.
#[derive(Debug, Clone)]
pub struct World<E: CollisionEngine = FastEngine> {
    pub(crate) engine: E,
    /// The world's bodies and robots in their slots, its switches, its connections, its
    /// contacts and what its moves learnt: domain 0's stage.
    pub(crate) stage: Stage,
    /// The saved viewpoint, if the file had one.
    pub camera: Option<Camera>,
    /// The hand the user chose to grasp with (GraspIt's `setCurrentHand`), if any.
    pub(crate) chosen_hand: Option<RobotId>,
    pub(crate) settings: WorldSettings,
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
            stage: Stage::world(bodies, robots),
            camera: None,
            chosen_hand: None,
            settings: WorldSettings::default(),
        };
        world.find_all_contacts();
        world
    }

    /// The same world, every body, rule and setting, on another engine; contacts found again.
    pub fn on_engine<F: CollisionEngine>(self, engine: F) -> World<F> {
        let mut world = World {
            engine,
            stage: self.stage.forgetting(),
            camera: self.camera,
            chosen_hand: self.chosen_hand,
            settings: self.settings,
        };
        world.find_all_contacts();
        world
    }

    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// What the world's stage moves against: nothing shared, on the world's engine and
    /// settings; with the stage itself, to change it.
    pub(crate) fn split(&mut self) -> (Backdrop<'_>, &mut Stage) {
        (
            Backdrop::alone(&self.engine, self.settings),
            &mut self.stage,
        )
    }

    /// The world's backdrop alone, to read the stage against.
    pub(crate) fn backdrop(&self) -> Backdrop<'_> {
        Backdrop::alone(&self.engine, self.settings)
    }

    /// Finds every contact of the world again. Every method that changes what contacts
    /// depend on calls it.
    pub(crate) fn find_all_contacts(&mut self) {
        let (backdrop, stage) = self.split();
        stage.find_contacts(&backdrop);
    }

    /// The free bodies (obstacles and graspables) with their indices, in the order added.
    pub fn free_bodies(&self) -> impl Iterator<Item = (usize, &Body)> {
        layers::slots(&self.stage.bodies)
    }

    /// The robots with their ids, in the order added.
    pub fn robots(&self) -> impl Iterator<Item = (RobotId, &Robot)> {
        layers::slots(&self.stage.robots).map(|(r, robot)| (RobotId::from_index(r), robot))
    }

    /// The free body at an index, if it is there.
    pub fn free_body(&self, index: usize) -> Option<&Body> {
        self.stage.bodies.get(index)?.as_ref()
    }

    pub fn robot(&self, id: RobotId) -> Option<&Robot> {
        self.stage.robot(id)
    }

    /// A robot by id, or the error that names the missing one: for callers that must say why.
    pub fn find_robot(&self, id: RobotId) -> Result<&Robot, MoveError> {
        self.stage.own_robot(id)
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
        self.stage.layer().body(id)
    }

    pub(crate) fn body_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        self.stage.body_mut(id)
    }

    /// The corners of the world-space box around every body, or `None` for an empty world.
    pub fn bounding_box(&self) -> Option<(Point3<f64>, Point3<f64>)> {
        crate::body::bounding_box(self.body_ids().into_iter().filter_map(|id| self.body(id)))
    }

    /// The corners of the world-space box round some of its bodies, or `None` for none.
    pub fn bounding_box_of(&self, ids: &[BodyId]) -> Option<(Point3<f64>, Point3<f64>)> {
        crate::body::bounding_box(ids.iter().filter_map(|&id| self.body(id)))
    }

    /// The robots mounted on other robots.
    pub fn connections(&self) -> &[Connection] {
        &self.stage.connections
    }

    /// Both sides of every contact, sorted by body.
    pub fn contacts(&self) -> &[Contact] {
        &self.stage.contacts
    }

    /// The contacts on one body (each once, seen from that body).
    pub fn contacts_of(&self, body: BodyId) -> impl Iterator<Item = &Contact> {
        self.stage.contacts_of(body)
    }

    /// A robot's contacts as one list over its palm, links and mount, each seen from the
    /// robot's body (RaiSim's `getContacts` of an articulated system).
    pub fn robot_contacts(&self, robot: RobotId) -> impl Iterator<Item = &Contact> {
        self.stage.robot_contacts(robot)
    }

    /// The world's bodies as one layer: what its moves and contact searches see.
    pub(crate) fn layer(&self) -> Layer<'_> {
        self.stage.layer()
    }

    pub fn settings(&self) -> WorldSettings {
        self.settings
    }

    /// Chooses which queries moves ask of the engine (`Exact` is the move as it was before
    /// bounded queries, for side-by-side benchmarks).
    pub fn set_move_queries(&mut self, queries: MoveQueries) {
        self.settings.move_queries = queries;
    }

    /// Changes how contacts are modelled (GraspIt's soft contacts on or off, friction edges,
    /// the normal force of a soft contact) and finds the contacts again.
    pub fn set_contact_options(&mut self, options: ContactOptions) {
        self.settings.contact_options = options;
        self.find_all_contacts();
    }

    /// GraspIt's contacts on or off, and the contacts found again. On: GraspIt's contact
    /// threshold ([`GRASPIT_CONTACT_THRESHOLD`]), search order, pruning and soft contacts,
    /// quirks included ([`ContactMode::GraspIt`]), for contacts and qualities that must match
    /// GraspIt's; off: Clasp's default threshold and rules.
    pub fn set_graspit_contacts(&mut self, on: bool) {
        let (mode, threshold) = if on {
            (ContactMode::GraspIt, GRASPIT_CONTACT_THRESHOLD)
        } else {
            (ContactMode::Clasp, DEFAULT_CONTACT_THRESHOLD)
        };
        self.settings.contact_options.mode = mode;
        self.settings.contact_threshold = threshold;
        self.find_all_contacts();
    }

    /// Whether contacts are GraspIt's ([`World::set_graspit_contacts`]).
    pub fn graspit_contacts(&self) -> bool {
        self.settings.contact_options.mode == ContactMode::GraspIt
    }

    /// Changes the contact threshold (mm) and finds the contacts again.
    pub fn set_contact_threshold(&mut self, threshold: f64) -> Result<(), MoveError> {
        if !(threshold.is_finite() && threshold > 0.0) {
            return Err(MoveError::BadThreshold(threshold));
        }
        self.settings.contact_threshold = threshold;
        self.find_all_contacts();
        Ok(())
    }

    /// The object hands grasp: GraspIt's rule, the first graspable body.
    pub fn grasped_object(&self) -> Option<BodyId> {
        self.free_bodies()
            .find(|(_, b)| b.kind == BodyKind::Graspable)
            .map(|(i, _)| BodyId::Free(i))
    }

    /// The hand that grasps, approaches and auto-grasps when none is named (GraspIt's
    /// `getCurrentHand`): the one chosen with [`World::set_current_hand`] while it is there,
    /// else the first robot that is a hand, so an arm listed before the hand it carries is
    /// passed over.
    pub fn current_hand(&self) -> Option<RobotId> {
        self.chosen_hand
            .filter(|&r| self.robot(r).is_some())
            .or_else(|| {
                // A hand that carries another robot is an arm in all but its file's type
                // (the TX60L is typed `Hand`): the hand it carries grasps.
                let hands = || self.robots().filter(|(_, r)| r.is_hand()).map(|(i, _)| i);
                let carrying = |r| self.connections().iter().any(|c| c.parent_robot == r);
                hands().find(|&r| !carrying(r)).or_else(|| hands().next())
            })
    }

    /// Chooses the robot that grasps when none is named (any robot may be chosen: an arm with
    /// a gripper of its own, say). Returns false, changing nothing, if there is no such robot.
    pub fn set_current_hand(&mut self, robot: RobotId) -> bool {
        let there = self.robot(robot).is_some();
        if there {
            self.chosen_hand = Some(robot);
        }
        there
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{body::test_bodies::triangle, pose::Pose};

    fn triangle_body(name: &str, at: f64) -> Body {
        triangle(name, BodyKind::Graspable).at(Pose::translation(at, 0.0, 0.0))
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
        assert!(
            world
                .body(BodyId::Palm {
                    robot: RobotId::from_index(0)
                })
                .is_none()
        );
        let (lo, hi) = world.bounding_box().unwrap();
        assert_eq!((lo, hi), (Point3::origin(), Point3::new(11.0, 1.0, 0.0)));
        assert!(World::default().bounding_box().is_none());
    }
}
