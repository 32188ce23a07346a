//! Adding and removing bodies and robots, and changing what a body is called and made of.

use clasp_collide::CollisionEngine;

use super::{World, error::MoveError};
use crate::{
    body::{Body, Material},
    ids::{BodyId, Element, RobotId},
    robot::Robot,
};

impl<E: CollisionEngine> World<E> {
    /// Adds a free body where it stands, finds its contacts, and returns its id.
    pub fn add_body(&mut self, body: Body) -> BodyId {
        let (backdrop, stage) = self.split();
        stage.add_body(&backdrop, body)
    }

    /// Adds a robot where it stands, finds its contacts, and returns its id.
    pub fn add_robot(&mut self, robot: Robot) -> RobotId {
        let (backdrop, stage) = self.split();
        stage.add_robot(&backdrop, robot)
    }

    /// Removes a free body or a whole robot, with its switches, its connections and its
    /// contacts. No other body is renumbered: ids stay valid, and the removed ones are never
    /// given to another body.
    pub fn remove_element(&mut self, element: Element) -> Result<(), MoveError> {
        if !self.contains(element) {
            return Err(MoveError::NoSuchElement(element));
        }
        match element {
            Element::Body(i) => self.stage.bodies[i] = None,
            Element::Robot(r) => {
                self.stage.robots[r.index()] = None;
                let carried: Vec<RobotId> = self
                    .stage
                    .connections
                    .iter()
                    .filter(|c| c.parent_robot == r || c.child_robot == r)
                    .map(|c| c.child_robot)
                    .collect();
                for child in carried {
                    self.disconnect(child);
                }
            }
        }
        let stage = &mut self.stage;
        let (bodies, robots) = (&stage.bodies, &stage.robots);
        stage.switches.retain(|id| match id {
            BodyId::Free(i) => bodies.get(i).is_some_and(Option::is_some),
            other => other
                .robot()
                .is_some_and(|r| robots.get(r.index()).is_some_and(Option::is_some)),
        });
        self.find_all_contacts();
        Ok(())
    }

    /// Changes a body's material, and so the friction of its contacts.
    pub fn set_material(&mut self, id: BodyId, material: Material) -> Result<(), MoveError> {
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.material = material;
        self.find_all_contacts();
        Ok(())
    }

    /// Renames a body (what the app, the CLI and saved files call it).
    pub fn set_body_name(&mut self, id: BodyId, name: &str) -> Result<(), MoveError> {
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.name = name.to_owned();
        Ok(())
    }
}
