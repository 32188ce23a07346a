//! What the panels share: their colours, names of what is selected, and how a widget's edit
//! becomes a request (a drag of several steps is one undo step).

use bevy_egui::egui;

use super::state::UiState;
use crate::editor::requests::Editor;

/// What a widget's change asks of the editor.
pub(super) enum Edit {
    None,
    /// One step of a drag: the drag is one undo step.
    Step,
    /// A whole change (typed, or a click): one undo step of its own.
    Whole,
}

/// Turns a widget's response into drag steps or a whole change, opening the editor's drag
/// when the widget's drag begins. Call [`settle_widget_drag`] after applying the edit.
pub(super) fn widget_edit(
    response: &egui::Response,
    state: &mut UiState,
    editor: &mut Editor,
    what: &str,
) -> Edit {
    let held = is_held(response);
    let owner = state.drag_owner == Some(response.id);
    if owner {
        state.drag_held = true;
    }
    if !response.changed() {
        return Edit::None;
    }
    if !held && !owner {
        return Edit::Whole;
    }
    // A change while held, or the last one as the drag stops: part of the drag.
    if !owner {
        if state.drag_owner.take().is_some() {
            editor.end_drag();
        }
        editor.begin_drag(what);
        state.drag_owner = Some(response.id);
        state.drag_held = true;
    }
    Edit::Step
}

/// Ends the editor's drag once the widget that opened it is let go: the whole drag is one
/// undo step.
pub(super) fn settle_widget_drag(
    response: &egui::Response,
    state: &mut UiState,
    editor: &mut Editor,
) {
    if state.drag_owner == Some(response.id) && !is_held(response) {
        state.drag_owner = None;
        editor.end_drag();
    }
}

pub(super) fn is_held(response: &egui::Response) -> bool {
    response.dragged() || response.is_pointer_button_down_on()
}
