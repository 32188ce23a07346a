//! The world's moves, contacts and collision switches: what a user does to a world.

use rayon::prelude::*;

use clasp_collide::{CollisionEngine, CollisionGroups};

use crate::{
    Body, BodyId, Contact, ContactOptions, Element, GraspTrial, Material, MoveQueries, Pose, Robot,
    World, WorldSettings,
    layers::{self, Layer, OwnLayer},
    moves::{Motion, MoveOutcome, Rules},
    requests::{MoveError, check_distance, check_pose, dof_request},
    rules::CollisionSwitches,
};

/// A world's rules and settings, on its engine: what its moves, and its domains', obey.
fn rules_of<'a>(
    engine: &'a dyn CollisionEngine,
    switches: &'a CollisionSwitches,
    settings: WorldSettings,
) -> Rules<'a> {
    Rules {
        engine,
        switches,
        threshold: settings.contact_threshold,
        contact_options: settings.contact_options,
        min_step: settings.min_step,
        queries: settings.move_queries,
    }
}

impl<E: CollisionEngine> World<E> {
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

    /// Changes the contact threshold (mm) and finds the contacts again.
    pub fn set_contact_threshold(&mut self, threshold: f64) -> Result<(), MoveError> {
        if !(threshold.is_finite() && threshold > 0.0) {
            return Err(MoveError::BadThreshold(threshold));
        }
        self.settings.contact_threshold = threshold;
        self.find_all_contacts();
        Ok(())
    }

    /// Both sides of every contact, sorted by body.
    pub fn contacts(&self) -> &[Contact] {
        &self.contacts
    }

    /// The contacts on one body (each once, seen from that body).
    pub fn contacts_of(&self, body: BodyId) -> impl Iterator<Item = &Contact> {
        self.contacts.iter().filter(move |c| c.body == body)
    }

    /// The bodies of an element: a free body, or a robot's bodies with those of every robot
    /// it carries (what moves with it).
    pub fn element_bodies(&self, element: Element) -> Vec<BodyId> {
        match element {
            Element::Body(i) if self.free_body(i).is_some() => vec![BodyId::Free(i)],
            Element::Robot(r) => self.assembly_bodies(r),
            Element::Body(_) => Vec::new(),
        }
    }

    /// The world's bodies as one layer: what its moves and contact searches see.
    pub(crate) fn layer(&self) -> Layer<'_> {
        Layer {
            bodies: &self.bodies,
            robots: &self.robots,
            ..Layer::empty()
        }
    }

    /// Every pair of bodies the rules let collide: the switches, the robots' own rules, groups
    /// and masks.
    pub fn checked_pairs(&self) -> Vec<(BodyId, BodyId)> {
        layers::checked_pairs(&self.switches, &Layer::empty(), &self.layer())
            .into_iter()
            .map(|(a, b)| (a.id, b.id))
            .collect()
    }

    /// The checked pairs that interpenetrate now (after collisions were switched back on, say).
    pub fn overlapping_pairs(&self) -> Vec<(BodyId, BodyId)> {
        layers::checked_pairs(&self.switches, &Layer::empty(), &self.layer())
            .into_par_iter()
            .filter(|(a, b)| self.engine.collide(a.placed(), b.placed()))
            .map(|(a, b)| (a.id, b.id))
            .collect()
    }

    /// Finds every contact of the world again. Every method that changes what contacts
    /// depend on calls it.
    pub(crate) fn find_all_contacts(&mut self) {
        self.contacts = layers::find_contacts(&self.rules(), &Layer::empty(), &self.layer());
    }

    /// The rules the world's moves obey.
    pub(crate) fn rules(&self) -> Rules<'_> {
        self.rules_with(&self.switches)
    }

    /// The world's rules under a domain's switches (the world's, its clones given their
    /// originals').
    pub(crate) fn rules_with<'a>(&'a self, switches: &'a CollisionSwitches) -> Rules<'a> {
        rules_of(&self.engine, switches, self.settings)
    }

    /// Runs `act` on a motion of `element` against everything else, then, if it moved,
    /// replaces the element's contacts with the ones it has now.
    fn with_motion<R>(
        &mut self,
        element: Element,
        act: impl FnOnce(&mut Motion) -> R,
    ) -> Result<R, MoveError> {
        let rules = rules_of(&self.engine, &self.switches, self.settings);
        let own = OwnLayer {
            bodies: &mut self.bodies,
            robots: &mut self.robots,
            first_body: 0,
            first_robot: 0,
            domain: 0,
            connections: &self.connections,
        };
        layers::run_motion(
            Layer::empty(),
            own,
            element,
            rules,
            &mut self.gap_memory,
            &mut self.contacts,
            act,
        )
    }

    /// Puts an element at a pose without checking collisions (GraspIt's `setTran`); its
    /// contacts are found again.
    pub fn set_pose(&mut self, element: Element, pose: Pose) -> Result<(), MoveError> {
        check_pose(&pose)?;
        self.check_not_carried(element)?;
        self.with_motion(element, |motion| motion.place(pose))
    }

    /// Sets a robot's DOFs without checking collisions; values outside the limits are refused.
    pub fn set_dof_values(&mut self, robot: usize, values: &[f64]) -> Result<(), MoveError> {
        self.robot(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?
            .check_dof_values(values)?;
        self.with_motion(Element::Robot(robot), |motion| motion.force_dofs(values))
    }

    /// Sets a robot's whole posture without checking collisions: its DOF values and, per DOF,
    /// where its joints broke away (as [`crate::GraspTrial`] and
    /// [`Robot::breakaway_states`] give them). Refused, changing nothing, when a value is
    /// outside its limits or the states do not fit.
    pub fn set_posture(
        &mut self,
        robot: usize,
        values: &[f64],
        breakaway: &[Vec<Option<f64>>],
    ) -> Result<(), MoveError> {
        let mut posed = self
            .robot(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?
            .clone();
        posed.set_dof_values(values)?;
        for (dof, states) in breakaway.iter().enumerate() {
            posed.set_breakaway(dof, states)?;
        }
        let breakaway = posed.breakaway_states();
        self.with_motion(Element::Robot(robot), |motion| {
            motion.force_dofs(values);
            motion.force_breakaway(&breakaway);
        })
    }

    /// Puts a robot where a grasp left it (a planned grasp, a batch's): its palm, its DOF
    /// values and where its joints broke away, without checking collisions. Refused, changing
    /// nothing, where `set_pose` or `set_posture` refuses.
    pub fn put_grasp(&mut self, robot: usize, grasp: &GraspTrial) -> Result<(), MoveError> {
        let before = self
            .robot(robot)
            .ok_or(MoveError::NoSuchRobot(robot))?
            .pose();
        self.set_pose(Element::Robot(robot), grasp.palm)?;
        self.set_posture(robot, &grasp.dof_values, &grasp.breakaway)
            .inspect_err(|_| {
                // Puts back what the line above changed: the pose was accepted there.
                let _ = self.set_pose(Element::Robot(robot), before);
            })
    }

    /// Moves an element (a body, or a robot by its palm) toward `pose`, stopping at contact
    /// with a gap in (0, threshold/2).
    pub fn move_to(&mut self, element: Element, pose: Pose) -> Result<MoveOutcome, MoveError> {
        check_pose(&pose)?;
        self.check_not_carried(element)?;
        self.with_motion(element, |motion| motion.move_to(pose))
    }

    /// Moves a robot's DOFs toward `target` together; each chain stops at its first contact.
    pub fn move_dofs_to(&mut self, robot: usize, target: &[f64]) -> Result<MoveOutcome, MoveError> {
        let speeds = dof_request(
            self.robot(robot).ok_or(MoveError::NoSuchRobot(robot))?,
            target,
        )?;
        self.with_motion(Element::Robot(robot), |motion| {
            motion.move_dofs(target, &speeds)
        })
    }

    /// Moves a robot's DOFs to the posture with these eigengrasp amplitudes (what lies outside
    /// the eigengrasps' span is kept; each DOF is held within its limits), stopping at contact
    /// as any DOF move does: GraspIt's eigengrasp sliders.
    pub fn move_eigen_amplitudes(
        &mut self,
        robot: usize,
        amplitudes: &[f64],
    ) -> Result<MoveOutcome, MoveError> {
        let r = self.robot(robot).ok_or(MoveError::NoSuchRobot(robot))?;
        let target: Vec<f64> = r
            .eigen_space()?
            .dofs_for(amplitudes, r.dof_values())?
            .into_iter()
            .enumerate()
            .map(|(d, v)| {
                let (min, max) = r.dof_limits(d);
                v.clamp(min, max.max(min))
            })
            .collect();
        self.move_dofs_to(robot, &target)
    }

    /// Closes every finger at its default velocity until it touches something or reaches its
    /// limit (GraspIt's Auto Grasp).
    pub fn auto_grasp(&mut self, robot: usize) -> Result<MoveOutcome, MoveError> {
        self.robot_motion(robot, |motion| motion.auto_grasp(true))
    }

    /// Opens every finger the same way (GraspIt's Auto Open).
    pub fn auto_open(&mut self, robot: usize) -> Result<MoveOutcome, MoveError> {
        self.robot_motion(robot, |motion| motion.auto_grasp(false))
    }

    /// Moves a robot along its approach direction until it touches something, at most
    /// `distance` mm; if nothing is met it stays where it was.
    pub fn approach_to_contact(
        &mut self,
        robot: usize,
        distance: f64,
    ) -> Result<MoveOutcome, MoveError> {
        check_distance(distance)?;
        self.check_not_carried(Element::Robot(robot))?;
        self.robot_motion(robot, |motion| motion.approach(distance))
    }

    /// A robot carried by another moves only with it: its pose is its carrier's to set.
    fn check_not_carried(&self, element: Element) -> Result<(), MoveError> {
        match element {
            Element::Robot(robot) => match self.carrier(robot) {
                Some(c) => Err(MoveError::Carried {
                    robot,
                    by: c.parent_robot,
                }),
                None => Ok(()),
            },
            Element::Body(_) => Ok(()),
        }
    }

    fn robot_motion(
        &mut self,
        robot: usize,
        act: impl FnOnce(&mut Motion) -> MoveOutcome,
    ) -> Result<MoveOutcome, MoveError> {
        if self.robot(robot).is_none() {
            return Err(MoveError::NoSuchRobot(robot));
        }
        self.with_motion(Element::Robot(robot), act)
    }

    /// The Toggle Collision button's state for a selection: the world's switch for nothing
    /// selected, the pair's for two elements, and for one or three or more, on unless every
    /// selected element is off.
    pub fn collisions_on(&self, selection: &[Element]) -> bool {
        self.switches
            .selection_on(&self.selection_bodies(selection))
    }

    /// Toggle Collision with GraspIt's semantics: nothing selected switches the whole world,
    /// two elements switch that pair only, one or three or more switch each against
    /// everything. Contacts are found again. Returns the new state.
    pub fn toggle_collisions(&mut self, selection: &[Element]) -> bool {
        let bodies = self.selection_bodies(selection);
        let on = self.switches.toggle(&bodies);
        self.find_all_contacts();
        on
    }

    /// Adds a free body where it stands, finds its contacts, and returns its id.
    pub fn add_body(&mut self, body: Body) -> BodyId {
        self.bodies.push(Some(body));
        self.find_all_contacts();
        BodyId::Free(self.bodies.len() - 1)
    }

    /// Adds a robot where it stands, finds its contacts, and returns its index.
    pub fn add_robot(&mut self, robot: Robot) -> usize {
        self.robots.push(Some(robot));
        self.find_all_contacts();
        self.robots.len() - 1
    }

    /// Removes a free body or a whole robot, with its switches, its connections and its
    /// contacts. No other body is renumbered: ids stay valid, and the removed ones are never
    /// given to another body.
    pub fn remove_element(&mut self, element: Element) -> Result<(), MoveError> {
        if !self.contains(element) {
            return Err(MoveError::NoSuchElement(element));
        }
        match element {
            Element::Body(i) => self.bodies[i] = None,
            Element::Robot(r) => {
                self.robots[r] = None;
                let carried: Vec<usize> = self
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
        let (bodies, robots) = (&self.bodies, &self.robots);
        self.switches.retain(|id| match id {
            BodyId::Free(i) => bodies.get(i).is_some_and(Option::is_some),
            other => other
                .robot()
                .is_some_and(|r| robots.get(r).is_some_and(Option::is_some)),
        });
        self.find_all_contacts();
        Ok(())
    }

    fn selection_bodies(&self, selection: &[Element]) -> Vec<Vec<BodyId>> {
        selection.iter().map(|&e| self.element_bodies(e)).collect()
    }

    pub fn switches(&self) -> &CollisionSwitches {
        &self.switches
    }

    /// Sets the switches directly (a saved session, an undo), then finds contacts again.
    pub fn set_switches(&mut self, switches: CollisionSwitches) {
        self.switches = switches;
        self.find_all_contacts();
    }

    /// Gives a body a collision group and mask (RaiSim's), then finds contacts again.
    pub fn set_collision_groups(
        &mut self,
        id: BodyId,
        groups: CollisionGroups,
    ) -> Result<(), MoveError> {
        self.body_mut(id).ok_or(MoveError::NoSuchBody(id))?.groups = groups;
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
