//! The editor's undo and redo requests, and the checkpoints the other requests take before
//! they change the world.

use super::history::{HISTORY_LIMIT, History, Snapshot};
use super::requests::Editor;

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

    /// Whether the world has changed since it was last saved or opened.
    pub fn has_unsaved_edits(&self) -> bool {
        self.history.unsaved()
    }

    /// The world as it stands is the one its file holds: after a save, or an open.
    pub(crate) fn mark_saved(&mut self) {
        self.history.saved = self.history.revision;
    }

    pub(super) fn restore(&mut self, snapshot: Snapshot) {
        self.world_changed();
        self.history.revision = snapshot.revision;
        self.doc.world = snapshot.world;
        self.selection.0 = snapshot.selection;
        // The world goes back to a moment of its own: a run stops there.
        let simulation = &mut *self.simulation;
        simulation.playing = false;
        simulation.held = None;
        simulation.time = snapshot.time;
        simulation.trace = Default::default();
        // The timeline keeps its moments; the world shown is Undo's, at the live end.
        self.timeline.shown = None;
        self.timeline.replaying = false;
        self.history.drag_start = None;
        self.doc.touching = None;
        self.structure_changed();
    }

    /// The world as it stands, to go back to. A grasp test playing back ends first: the
    /// moment it shows is not the document's.
    pub(super) fn snapshot(&mut self, what: &str) -> Snapshot {
        self.end_grasp_playback();
        Snapshot {
            world: self.doc.world.clone(),
            selection: self.selection.0.clone(),
            what: what.into(),
            time: self.simulation.time,
            revision: self.history.revision,
        }
    }

    /// Records the state before a one-step change. Geometry is shared, so this copies poses,
    /// switches and contacts only.
    pub(crate) fn checkpoint(&mut self, what: &str) {
        let snapshot = self.snapshot(what);
        self.push_undo(snapshot);
        // A change leaves the moment the timeline showed: the world is the user's again.
        self.timeline.shown = None;
    }

    pub(super) fn push_undo(&mut self, snapshot: Snapshot) {
        self.world_changed();
        self.history.undo.push(snapshot);
        self.history.changed();
        if self.history.undo.len() > HISTORY_LIMIT {
            self.history.undo.remove(0);
        }
        self.history.redo.clear();
    }

    /// After bodies came or went: the selection keeps only bodies that are still there. The
    /// scene sees the change through the document's change flag.
    pub(crate) fn structure_changed(&mut self) {
        self.forget_gone_bodies();
        self.refresh_quality(true);
    }

    /// The selection keeps only bodies that are still there; it is marked changed only when
    /// one went.
    pub(crate) fn forget_gone_bodies(&mut self) {
        let world = &self.doc.world;
        if self.selection.iter().any(|&id| world.body(id).is_none()) {
            self.selection.0.retain(|&id| world.body(id).is_some());
        }
    }
}
