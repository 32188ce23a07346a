//! Undo and redo: a snapshot of the world before each change (geometry is shared, so a
//! snapshot copies poses, switches and contacts); a whole drag is one step.

use bevy::prelude::Resource;
use clasp_core::{BodyId, World};

/// How many steps Undo can go back.
pub(super) const HISTORY_LIMIT: usize = 100;

/// The states Undo and Redo return to, and the one a drag in progress began from.
#[derive(Resource, Default)]
pub struct History {
    pub(super) undo: Vec<Snapshot>,
    pub(super) redo: Vec<Snapshot>,
    /// The world as it was when the current drag began.
    pub(super) drag_start: Option<Snapshot>,
}

/// A state Undo returns to.
#[derive(Clone)]
pub(super) struct Snapshot {
    pub(super) world: World,
    pub(super) selection: Vec<BodyId>,
    pub(super) what: String,
    /// The simulated time it was taken at.
    pub(super) time: f64,
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
}
