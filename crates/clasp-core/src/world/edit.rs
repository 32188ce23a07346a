//! Adding and removing bodies and robots, and changing what a body is called and made of.

use clasp_collide::CollisionEngine;

use super::{World, error::MoveError};
use crate::{
    body::{Body, Material, mass::MassProperties},
    ids::{BodyId, Element, RobotId},
    robot::{HandApproach, Robot},
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

    /// Changes the way a hand approaches (its palm frame, mm): what Auto Grasp's warning, the
    /// planner and the approach move take. Nothing moves.
    pub fn set_hand_approach(
        &mut self,
        robot: RobotId,
        approach: HandApproach,
    ) -> Result<(), MoveError> {
        let finite = approach.reference.iter().chain(approach.direction.iter());
        if !finite.into_iter().all(|v| v.is_finite()) {
            return Err(MoveError::BadHandSetting);
        }
        let hand = self.stage.robot_mut(robot);
        hand.ok_or(MoveError::NoSuchRobot(robot))?.approach = Some(approach);
        Ok(())
    }

    /// Changes how a DOF is driven: its Auto Grasp velocity (its sign the way it closes, 0 to
    /// leave it where it is) and its effort (Clasp's units, positive). Nothing moves.
    pub fn set_dof_drive(
        &mut self,
        robot: RobotId,
        dof: usize,
        velocity: f64,
        effort: f64,
    ) -> Result<(), MoveError> {
        if !(velocity.is_finite() && effort.is_finite() && effort > 0.0) {
            return Err(MoveError::BadHandSetting);
        }
        let hand = self
            .stage
            .robot_mut(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?;
        let drive = hand.dofs.get_mut(dof).ok_or(MoveError::BadHandSetting)?;
        drive.default_velocity = velocity;
        drive.max_effort = effort;
        Ok(())
    }

    /// Changes a body's material, and so the friction of its contacts.
    pub fn set_material(&mut self, id: BodyId, material: Material) -> Result<(), MoveError> {
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.material = material;
        self.find_all_contacts();
        Ok(())
    }

    /// Changes a body's mass (g), centre of gravity (mm, body frame) and inertia per unit mass
    /// (mm², about the centre, body axes), all checked finite and the mass positive; its
    /// contacts do not depend on them. (Whether a dynamic body's inertia can be simulated — it
    /// must be symmetric positive definite — is checked where a step starts, as for one loaded.)
    pub fn set_mass_properties(
        &mut self,
        id: BodyId,
        mass: MassProperties,
    ) -> Result<(), MoveError> {
        let finite = mass
            .cog
            .iter()
            .chain(mass.inertia.iter())
            .all(|x| x.is_finite());
        if !(mass.mass.is_finite() && mass.mass > 0.0 && finite) {
            return Err(MoveError::BadMassProperties);
        }
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.mass = mass;
        Ok(())
    }

    /// Makes a body soft with a Young's modulus in Pa (GraspIt's `<youngs>`), or rigid with
    /// `None`, and finds its contacts again (soft ones are fitted patches).
    pub fn set_youngs(&mut self, id: BodyId, youngs: Option<f64>) -> Result<(), MoveError> {
        if let Some(bad) = youngs.filter(|y| !(y.is_finite() && *y > 0.0)) {
            return Err(MoveError::BadYoungs(bad));
        }
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.youngs = youngs;
        self.find_all_contacts();
        Ok(())
    }

    /// Renames a body (what the app, the CLI and saved files call it).
    pub fn set_body_name(&mut self, id: BodyId, name: &str) -> Result<(), MoveError> {
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.name = name.to_owned();
        Ok(())
    }
}
