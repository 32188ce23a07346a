//! The F1 help: every gesture and shortcut, and the one-line reminder in the status bar.

use crate::commands::{Action, COMMANDS};
use crate::editor::requests::Editor;
use bevy::prelude::*;
use bevy_egui::egui;

/// The one-line reminder in the status bar.
pub fn gestures_reminder() -> String {
    format!(
        "Click: select · Left drag: orbit · Middle or Shift+left drag: pan · Wheel: zoom · \
         {}: all gestures and shortcuts",
        Action::ToggleHelp.command().shortcut_text()
    )
}

/// What the F1 help lists: every pointer gesture, then every command with its keys.
pub fn gestures_and_shortcuts() -> Vec<(String, String)> {
    let gestures = GESTURES.iter().map(|&(g, e)| (g.to_owned(), e.to_owned()));
    let commands = COMMANDS.iter().map(|c| (c.keys_text(), c.help.to_owned()));
    gestures.chain(commands).collect()
}

/// Every pointer gesture, as the F1 help lists them before the commands: what to do, and what
/// it does.
pub const GESTURES: &[(&str, &str)] = &[
    ("Click a body", "select it"),
    (
        "Shift+click a body",
        "add it to the selection, or take it out",
    ),
    ("Double-click a robot's body", "select the whole robot"),
    ("Click on empty space", "clear the selection"),
    ("Left drag on empty space", "orbit the view"),
    ("Middle drag, or Shift+left drag", "pan the view"),
    ("Mouse wheel", "zoom"),
    (
        "Drag an arrow of the dragger",
        "move the selection along that axis",
    ),
    (
        "Drag a square of the dragger",
        "move the selection in that plane",
    ),
    (
        "Drag a ring of the dragger",
        "turn the selection about that axis",
    ),
    ("Drag the selected body itself", "move it in the view plane"),
    ("Drag a joint's disc", "turn a revolute DOF"),
    ("Drag a joint's arrow", "slide a prismatic DOF"),
    (
        "Drop a file on the window",
        "a world opens; a body, robot or mesh is imported",
    ),
];

pub(super) fn help_window(ctx: &egui::Context, editor: &mut Editor) {
    if !editor.view.help_shown {
        return;
    }
    let mut open = true;
    egui::Window::new(Action::ToggleHelp.command().name)
        .id(egui::Id::new("help"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .show(ctx, |ui| {
            egui::Grid::new("help_grid")
                .striped(true)
                .num_columns(2)
                .show(ui, |ui| {
                    for (gesture, effect) in gestures_and_shortcuts() {
                        ui.label(egui::RichText::new(gesture).strong());
                        ui.label(effect);
                        ui.end_row();
                    }
                });
            ui.add_space(6.0);
            ui.label(
                egui::RichText::new(
                    "Every move stops where bodies touch; Toggle Collision lets them pass.",
                )
                .weak(),
            );
        });
    if !open {
        editor.view.help_shown = false;
    }
}
