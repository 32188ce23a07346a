//! The F1 help: every gesture and shortcut, and the one-line reminder in the status bar.

use super::*;

/// The one-line reminder in the status bar.
pub const GESTURES: &str = "Click: select · Left drag: orbit · Middle or Shift+left drag: pan · \
                            Wheel: zoom · F1: all gestures and shortcuts";

/// Every gesture and shortcut, as the F1 help lists them: what to do, and what it does.
pub const GESTURES_AND_SHORTCUTS: &[(&str, &str)] = &[
    ("Click a body", "select it"),
    (
        "Shift+click a body",
        "add it to the selection, or take it out",
    ),
    ("Double-click a robot's body", "select the whole robot"),
    ("Click on empty space, or Esc", "clear the selection"),
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
    ("Ctrl+O", "open a world"),
    ("Ctrl+S", "save the world (asks for a file the first time)"),
    ("Ctrl+Shift+S", "save the world as another file"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Shift+Z, or Ctrl+Y", "redo"),
    ("Delete", "delete the selected bodies and robots"),
    ("F", "view all"),
    ("F1", "show or hide this help"),
    (
        "Ctrl+G",
        "auto grasp: close the selected robot's fingers (else the first robot's)",
    ),
    ("Ctrl+Shift+G", "auto open: open them again"),
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
    egui::Window::new("Gestures and shortcuts")
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
                    for (gesture, effect) in GESTURES_AND_SHORTCUTS {
                        ui.label(egui::RichText::new(*gesture).strong());
                        ui.label(*effect);
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
    editor.view.help_shown = open;
}
