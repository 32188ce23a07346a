//! Undo and redo: a snapshot of the world before each change (geometry is shared, so a
//! snapshot copies poses, switches and contacts); a whole drag is one step.

use bevy::prelude::Resource;
use clasp_core::{BodyId, World};

/// How many steps Undo can go back.
pub(super) const HISTORY_LIMIT: usize = 100;

/// The states Undo and Redo return to, and the one a drag in progress began from.
#[derive(Resource)]
pub struct History {
    pub(super) undo: Vec<Snapshot>,
    pub(super) redo: Vec<Snapshot>,
    /// The world as it was when the current drag began.
    pub(super) drag_start: Option<Snapshot>,
    /// Which state the world is in: each change makes a new one; Undo and Redo go back to
    /// theirs.
    pub(super) revision: u64,
    /// The last revision given out.
    last_revision: u64,
    /// The revision its file holds (last saved, or as opened). Revisions are never given out
    /// twice, so one gone from the history is never current again.
    pub(super) saved: u64,
}

/// A state Undo returns to.
#[derive(Clone)]
pub(super) struct Snapshot {
    pub(super) world: World,
    pub(super) selection: Vec<BodyId>,
    pub(super) what: String,
    /// The simulated time it was taken at.
    pub(super) time: f64,
    /// Its revision ([`History::revision`]).
    pub(super) revision: u64,
}

impl Default for History {
    /// A world as opened: nothing to undo, nothing unsaved.
    fn default() -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            drag_start: None,
            revision: 0,
            last_revision: 0,
            saved: 0,
        }
    }
}

impl History {
    /// What Undo would take back, if anything.
    pub fn can_undo(&self) -> Option<&str> {
        self.undo.last().map(|s| s.what.as_str())
    }

    /// What Redo would do again, if anything.
    pub fn can_redo(&self) -> Option<&str> {
        self.redo.last().map(|s| s.what.as_str())
    }

    /// Whether a drag (one undo step of many moves) is in progress.
    pub fn dragging(&self) -> bool {
        self.drag_start.is_some()
    }

    /// Whether the world has changed since it was last saved or opened (a change undone is no
    /// change).
    pub fn unsaved(&self) -> bool {
        self.saved != self.revision
    }

    /// The world is a new state: after a change.
    pub(super) fn changed(&mut self) {
        self.last_revision += 1;
        self.revision = self.last_revision;
    }
}
