//! Breakaway: a joint of a breakaway DOF stopped by a contact stays where it was while its DOF
//! goes on closing (GraspIt's `BreakAwayDOF`), and follows it again once the DOF comes back.

use super::{Robot, dof::DofError};

/// How far below its breakaway value a DOF must come back for the joint to follow it again
/// (GraspIt's).
const BREAKAWAY_TOLERANCE: f64 = 1e-5;

impl Robot {
    /// The DOF value at which a joint broke away (stopped by a contact while its breakaway
    /// DOF went on closing), if it is in breakaway: it stays there while the DOF is past it.
    pub fn breakaway(&self, chain: usize, joint: usize) -> Option<f64> {
        self.breakaway.get(chain)?.get(joint).copied().flatten()
    }

    /// Per DOF, where each of its joints broke away ([`Robot::breakaway`], in
    /// [`Robot::dof_joints`] order): what [`Robot::set_breakaway`] takes back.
    pub fn breakaway_states(&self) -> Vec<Vec<Option<f64>>> {
        (0..self.dofs.len())
            .map(|d| {
                let joints = self.dof_joints(d);
                joints
                    .into_iter()
                    .map(|(c, j)| self.breakaway(c, j))
                    .collect()
            })
            .collect()
    }

    /// Puts a DOF's joints in breakaway at these values, or not (`None`), in
    /// [`Robot::dof_joints`] order, as a world file's DOF stream says. A value at or above the
    /// DOF's current one changes nothing: the joint follows its DOF.
    pub fn set_breakaway(&mut self, dof: usize, values: &[Option<f64>]) -> Result<(), DofError> {
        let joints = self.dof_joints(dof);
        if values.len() != joints.len() {
            return Err(DofError::WrongBreakawayCount {
                dof,
                expected: joints.len(),
                got: values.len(),
            });
        }
        if let Some(value) = values.iter().flatten().find(|v| !v.is_finite()) {
            return Err(DofError::NotFinite { dof, value: *value });
        }
        for (&(c, j), &value) in joints.iter().zip(values) {
            self.breakaway[c][j] = value;
        }
        self.reengage();
        self.place_links();
        Ok(())
    }

    /// Stops a joint where it is while its breakaway DOF goes on (GraspIt's breakaway).
    pub(crate) fn break_away(&mut self, chain: usize, joint: usize) {
        let dof = self.chains[chain].joints[joint].coupling.dof;
        if self.breakaway[chain][joint].is_none() {
            self.breakaway[chain][joint] = Some(self.dof_values[dof]);
        }
    }

    /// A DOF's joints that broke away where the DOF stands now follow it again: stopped with
    /// their DOF, they never lagged behind it.
    pub(crate) fn follow_where_level(&mut self, dof: usize) {
        let q = self.dof_values[dof];
        let closing = &self.dofs[dof];
        for (c, j) in self.dof_joints(dof) {
            if self.breakaway[c][j].is_some_and(|b| closing.at_or_past(b, q, BREAKAWAY_TOLERANCE)) {
                self.breakaway[c][j] = None;
            }
        }
    }

    /// Whether a joint is held in breakaway now (its DOF at or past where it broke away, the
    /// way it closes).
    pub(crate) fn is_held(&self, chain: usize, joint: usize) -> bool {
        let dof = self.chains[chain].joints[joint].coupling.dof;
        self.breakaway(chain, joint).is_some_and(|b| {
            self.dofs[dof].at_or_past(self.dof_values[dof], b, BREAKAWAY_TOLERANCE)
        })
    }

    /// A joint whose DOF came back short of where it broke away follows its DOF again
    /// (GraspIt's `BreakAwayDOF::updateVal`).
    pub(super) fn reengage(&mut self) {
        for (chain, held) in self.chains.iter().zip(&mut self.breakaway) {
            for (joint, value) in chain.joints.iter().zip(held.iter_mut()) {
                let dof = &self.dofs[joint.coupling.dof];
                let q = self.dof_values[joint.coupling.dof];
                if value.is_some_and(|b| !dof.at_or_past(q, b, BREAKAWAY_TOLERANCE)) {
                    *value = None;
                }
            }
        }
    }
}
