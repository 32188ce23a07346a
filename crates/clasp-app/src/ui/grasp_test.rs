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
    let (mut stop, mut replay) = (false, false);
    let playing = editor.grasp_test.playback.as_ref().map(|p| p.direction);
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
            for (index, (line, direction)) in direction_lines(test).iter().zip(&test.directions).enumerate() {
                let color = if direction.held { HELD } else { ERROR };
                let text = egui::RichText::new(line).color(color);
                match playing == Some(index) {
                    true => ui.label(text.strong().underline()),
                    false => ui.label(text),
                };
            }
            match playing {
                Some(_) => stop = ui.button("Stop").on_hover_text("Put the grasp back").clicked(),
                None => replay = ui.button("Play again").on_hover_text("Play the six directions one after another").clicked(),
            }
        });
    if stop {
        editor.end_grasp_playback();
    }
    if replay {
        editor.play_grasp_test();
    }
    if !open {
        editor.end_grasp_playback();
        editor.grasp_test.result = None;
    }
}
