//! Collision switches with GraspIt's Toggle Collision semantics, RaiSim's groups and masks,
//! and the pairs the one rule checks.

use rayon::prelude::*;

use clasp_collide::{CollisionEngine, CollisionGroups};

use super::{
    World,
    error::MoveError,
    layers::{self, Layer},
};
use crate::{
    contact::filter::CollisionSwitches,
    ids::{BodyId, Element},
};

impl<E: CollisionEngine> World<E> {
    /// The bodies of an element: a free body, or a robot's bodies with those of every robot
    /// it carries (what moves with it).
    pub fn element_bodies(&self, element: Element) -> Vec<BodyId> {
        match element {
            Element::Body(i) if self.free_body(i).is_some() => vec![BodyId::Free(i)],
            Element::Robot(r) => self.assembly_bodies(r),
            Element::Body(_) => Vec::new(),
        }
    }

    /// Every pair of bodies the rules let collide: the switches, the robots' own rules, groups
    /// and masks.
    pub fn checked_pairs(&self) -> Vec<(BodyId, BodyId)> {
        layers::checked_pairs(&self.stage.switches, &Layer::empty(), &self.layer())
            .into_iter()
            .map(|(a, b)| (a.id, b.id))
            .collect()
    }

    /// The checked pairs that interpenetrate now (after collisions were switched back on, say).
    pub fn overlapping_pairs(&self) -> Vec<(BodyId, BodyId)> {
        layers::checked_pairs(&self.stage.switches, &Layer::empty(), &self.layer())
            .into_par_iter()
            .filter(|(a, b)| self.engine.collide(a.placed(), b.placed()))
            .map(|(a, b)| (a.id, b.id))
            .collect()
    }

    /// Whether a checked pair with one of `bodies` in it interpenetrates: the other pairs are
    /// never asked.
    pub(crate) fn any_overlap_with(&self, bodies: &[BodyId]) -> bool {
        layers::checked_pairs(&self.stage.switches, &Layer::empty(), &self.layer())
            .into_par_iter()
            .filter(|(a, b)| bodies.contains(&a.id) || bodies.contains(&b.id))
            .any(|(a, b)| self.engine.collide(a.placed(), b.placed()))
    }

    /// The Toggle Collision button's state for a selection: the world's switch for nothing
    /// selected, the pair's for two elements, and for one or three or more, on unless every
    /// selected element is off.
    pub fn collisions_on(&self, selection: &[Element]) -> bool {
        self.collisions_on_for(&self.selection_bodies(selection))
    }

    /// [`collisions_on`](Self::collisions_on) for a selection of groups of bodies: each group
    /// a whole element, or one body of it (a robot's link).
    pub fn collisions_on_for(&self, groups: &[Vec<BodyId>]) -> bool {
        self.stage.switches.selection_on(groups)
    }

    /// Toggle Collision with GraspIt's semantics: nothing selected switches the whole world,
    /// two elements switch that pair only, one or three or more switch each against
    /// everything. Contacts are found again. Returns the new state.
    pub fn toggle_collisions(&mut self, selection: &[Element]) -> bool {
        self.toggle_collisions_for(&self.selection_bodies(selection))
    }

    /// [`toggle_collisions`](Self::toggle_collisions) for groups of bodies: a robot's link
    /// selected alone switches that link, not its robot.
    pub fn toggle_collisions_for(&mut self, groups: &[Vec<BodyId>]) -> bool {
        let on = self.stage.switches.toggle(groups);
        self.find_all_contacts();
        on
    }

    fn selection_bodies(&self, selection: &[Element]) -> Vec<Vec<BodyId>> {
        selection.iter().map(|&e| self.element_bodies(e)).collect()
    }

    pub fn switches(&self) -> &CollisionSwitches {
        &self.stage.switches
    }

    /// Sets the switches directly (a saved session, an undo), then finds contacts again.
    pub fn set_switches(&mut self, switches: CollisionSwitches) {
        self.stage.switches = switches;
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
}
