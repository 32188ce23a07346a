//! The Grasp test window: each direction of the last test, held or not, until closed.

use crate::editor::Editor;
use crate::grasp_test::direction_lines;
use bevy_egui::egui;

use super::style::{ERROR, HELD};

pub(super) fn grasp_test_window(ctx: &egui::Context, editor: &mut Editor) {
    let Some(test) = &editor.grasp_test.result else {
        return;
    };
    let mut open = true;
    let verdict = match test.held {
        true => "Held in all six directions",
        false => "Let go",
    };
    egui::Window::new("Grasp test")
        .id(egui::Id::new("grasp_test"))
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            ui.strong(verdict);
            ui.label("Gravity along each axis in turn; held when the object moves at most 20 mm and turns at most 15°. The paths are drawn green (held) and red.");
            for (line, direction) in direction_lines(test).iter().zip(&test.directions) {
                let color = if direction.held { HELD } else { ERROR };
                ui.colored_label(color, line);
            }
        });
    if !open {
        editor.grasp_test.result = None;
    }
}
