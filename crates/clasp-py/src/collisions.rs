//! `clasp.World`'s collision switches (GraspIt's Toggle Collision), RaiSim's groups and masks,
//! the pairs the rules check, and the contacts.

use clasp_core::{ALL_GROUPS, BodyId, CollisionGroups, Element};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::{
    contact::{PyContact, contact_arrays},
    errors::move_error,
    ids::PyBodyId,
    world::PyWorld,
};

#[pymethods]
impl PyWorld {
    // ---- Collision switches, groups and masks ----

    /// The Toggle Collision state for a selection of bodies (each naming its free body or its
    /// robot): the world's switch for none, the pair's for two, else on unless all are off.
    #[pyo3(signature = (selection=Vec::new()))]
    fn collisions_on(&self, selection: Vec<PyBodyId>) -> bool {
        self.world.collisions_on(&elements(&selection))
    }

    /// Toggle Collision with GraspIt's rules for the selection (none: the world; two: the
    /// pair; one or three or more: each against everything). Returns the new state.
    #[pyo3(signature = (selection=Vec::new()))]
    fn toggle_collisions(&mut self, selection: Vec<PyBodyId>) -> bool {
        self.world.toggle_collisions(&elements(&selection))
    }

    /// Puts a body in collision group `group` (0 to 63) with `mask` (a bit per group it meets,
    /// or -1 for every group, as RaiSim writes it): two bodies are checked only when each one's
    /// mask holds the other's group (RaiSim's).
    fn set_collision_groups(&mut self, id: PyBodyId, group: u32, mask: i128) -> PyResult<()> {
        let mask = match mask {
            -1 => ALL_GROUPS,
            bits => u64::try_from(bits).map_err(|_| {
                PyValueError::new_err(format!(
                    "a collision mask is -1 (every group) or a bit per group, 0 to 2**64 - 1, not {bits}"
                ))
            })?,
        };
        let groups =
            CollisionGroups::new(group, mask).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.world
            .set_collision_groups(id.0, groups)
            .map_err(move_error)
    }

    /// A body's collision group and mask.
    fn collision_groups(&self, id: PyBodyId) -> PyResult<(u8, u64)> {
        let groups = self.body(id)?.groups();
        Ok((groups.group(), groups.mask()))
    }

    /// Every pair of bodies the rules check.
    fn checked_pairs(&self) -> Vec<(PyBodyId, PyBodyId)> {
        pairs(self.world.checked_pairs())
    }

    /// The checked pairs that interpenetrate now.
    fn overlapping_pairs(&self) -> Vec<(PyBodyId, PyBodyId)> {
        pairs(self.world.overlapping_pairs())
    }

    // ---- Contacts ----

    /// Bodies closer than this (mm) are in contact (default 0.1).
    #[getter]
    fn contact_threshold(&self) -> f64 {
        self.world.settings().contact_threshold
    }

    #[setter(contact_threshold)]
    fn change_contact_threshold(&mut self, threshold: f64) -> PyResult<()> {
        self.world
            .set_contact_threshold(threshold)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// GraspIt's contacts: its contact threshold (0.2 mm), search order, pruning and soft
    /// contacts, quirks included, for contacts and qualities that must match GraspIt's. Off
    /// (the default): Clasp's threshold (0.1 mm) and rules. Setting it finds the contacts again.
    #[getter]
    fn graspit_contacts(&self) -> bool {
        self.world.graspit_contacts()
    }

    #[setter(graspit_contacts)]
    fn change_graspit_contacts(&mut self, on: bool) {
        self.world.set_graspit_contacts(on);
    }

    /// Both sides of every contact, sorted by body.
    fn contacts(&self) -> Vec<PyContact> {
        self.world
            .contacts()
            .iter()
            .cloned()
            .map(PyContact)
            .collect()
    }

    /// The contacts on one body, each seen from it.
    fn contacts_of(&self, id: PyBodyId) -> PyResult<Vec<PyContact>> {
        self.body(id)?;
        Ok(self
            .world
            .contacts_of(id.0)
            .cloned()
            .map(PyContact)
            .collect())
    }

    /// The contacts (on `body`, or all of both sides) as numpy arrays, one row each: `point`,
    /// `other_point`, `normal` (N, 3), `separation`, `static_friction`, `kinetic_friction` (N,),
    /// and `body`, `other` (N, 4) ints: kind (0 free, 1 palm, 2 link, 3 mount), index or robot,
    /// chain, link (-1 where they do not apply).
    #[pyo3(signature = (body=None))]
    fn contact_arrays<'py>(
        &self,
        py: Python<'py>,
        body: Option<PyBodyId>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let contacts: Vec<_> = match body {
            Some(id) => {
                self.body(id)?;
                self.world.contacts_of(id.0).collect()
            }
            None => self.world.contacts().iter().collect(),
        };
        contact_arrays(py, &contacts)
    }
}

fn elements(selection: &[PyBodyId]) -> Vec<Element> {
    let mut elements = Vec::new();
    for id in selection {
        let element = id.element();
        if !elements.contains(&element) {
            elements.push(element);
        }
    }
    elements
}

fn pairs(pairs: Vec<(BodyId, BodyId)>) -> Vec<(PyBodyId, PyBodyId)> {
    pairs
        .into_iter()
        .map(|(a, b)| (PyBodyId(a), PyBodyId(b)))
        .collect()
}
