//! Undo and redo: a snapshot of the world before each change (geometry is shared, so a
//! snapshot copies poses, switches and contacts); a whole drag is one step.

use super::*;

/// How many steps Undo can go back.
const HISTORY_LIMIT: usize = 100;

/// The states Undo and Redo return to, and the one a drag in progress began from.
#[derive(Resource, Default)]
pub struct History {
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The world as it was when the current drag began.
    pub(super) drag_start: Option<Snapshot>,
}

/// A state Undo returns to.
#[derive(Clone)]
pub(super) struct Snapshot {
    pub(super) world: World,
    pub(super) selection: Vec<BodyId>,
    pub(super) what: String,
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

impl Editor<'_> {
    /// Starts the history afresh: what the app opened with is not undoable.
    pub fn forget_history(&mut self) {
        *self.history = History::default();
    }

    pub fn can_undo(&self) -> Option<&str> {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> Option<&str> {
        self.history.can_redo()
    }

    pub fn undo(&mut self) -> bool {
        let Some(previous) = self.history.undo.pop() else {
            return false;
        };
        let current = self.snapshot(&previous.what);
        self.history.redo.push(current);
        self.restore(previous);
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some(next) = self.history.redo.pop() else {
            return false;
        };
        let current = self.snapshot(&next.what);
        self.history.undo.push(current);
        self.restore(next);
        true
    }

    pub(super) fn restore(&mut self, snapshot: Snapshot) {
        self.doc.world = snapshot.world;
        self.selection.0 = snapshot.selection;
        self.history.drag_start = None;
        self.doc.touching = None;
        self.structure_changed();
    }

    pub(super) fn snapshot(&self, what: &str) -> Snapshot {
        Snapshot {
            world: self.doc.world.clone(),
            selection: self.selection.0.clone(),
            what: what.into(),
        }
    }

    /// Records the state before a one-step change. Geometry is shared, so this copies poses,
    /// switches and contacts only.
    pub(super) fn checkpoint(&mut self, what: &str) {
        let snapshot = self.snapshot(what);
        self.push_undo(snapshot);
    }

    pub(super) fn push_undo(&mut self, snapshot: Snapshot) {
        self.history.undo.push(snapshot);
        if self.history.undo.len() > HISTORY_LIMIT {
            self.history.undo.remove(0);
        }
        self.history.redo.clear();
    }

    /// After bodies came or went: the selection keeps only bodies that are still there. The
    /// scene sees the change through the document's change flag.
    pub(super) fn structure_changed(&mut self) {
        let world = &self.doc.world;
        if self.selection.iter().any(|&id| world.body(id).is_none()) {
            self.selection.0.retain(|&id| world.body(id).is_some());
        }
        self.refresh_quality(true);
    }
}
