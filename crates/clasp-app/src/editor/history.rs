//! Undo and redo: a snapshot of the world before each change (geometry is shared, so a
//! snapshot copies poses, switches and contacts); a whole drag is one step.

use super::*;

impl Editor {
    /// Starts the history afresh: what the app opened with is not undoable.
    pub fn forget_history(&mut self) {
        self.history = History::default();
    }

    pub fn can_undo(&self) -> Option<&str> {
        self.history.undo.last().map(|s| s.what.as_str())
    }

    pub fn can_redo(&self) -> Option<&str> {
        self.history.redo.last().map(|s| s.what.as_str())
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
        self.world = snapshot.world;
        self.selection = snapshot.selection;
        self.drag_start = None;
        self.touching = None;
        self.structure_changed();
    }

    pub(super) fn snapshot(&self, what: &str) -> Snapshot {
        Snapshot {
            world: self.world.clone(),
            selection: self.selection.clone(),
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

    pub(super) fn changed(&mut self) {
        self.revision += 1;
    }

    pub(super) fn structure_changed(&mut self) {
        self.selection.retain(|&id| self.world.body(id).is_some());
        self.structure_revision += 1;
        self.changed();
        self.refresh_quality(true);
    }
}
