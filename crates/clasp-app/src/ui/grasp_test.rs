//! The Grasp test window: each direction of the last test, held or not, until closed.

use crate::editor::requests::Editor;
use crate::grasp_test::{direction_lines, squeeze_line};
use bevy_egui::egui;

use super::style::{ERROR, HELD};

pub(super) fn grasp_test_window(ctx: &egui::Context, editor: &mut Editor) {
    let Some(test) = &editor.grasp_test.result else {
        return;
    };
    let mut open = true;
    let (mut stop, mut replay, mut rerun) = (false, false, false);
    let mut preset = editor.grasp_test.preset;
    let playing = editor.grasp_test.playback.as_ref().map(|p| p.direction);
    let verdict = match (test.held, test.directions.len()) {
        (true, 6) => "Held in all six directions",
        (true, _) => "Held",
        (false, _) => "Let go",
    };
    egui::Window::new("Grasp test")
        .id(egui::Id::new("grasp_test"))
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                egui::ComboBox::from_label("test")
                    .selected_text(preset)
                    .show_ui(ui, |ui| {
                        for name in clasp_core::PRESETS {
                            ui.selectable_value(&mut preset, name, name);
                        }
                    })
                    .response
                    .on_hover_text("Clasp's own test, or the field's as Clasp reproduces them (docs/presets.md)");
                rerun = ui.button("Run again").clicked();
            });
            ui.strong(verdict);
            ui.label(match test.directions.len() {
                6 => "Each axis direction in turn, from the squeeze. The paths are drawn green (held) and red.",
                _ => "One run: gravity, then the tugs. The path is drawn green (held) or red.",
            });
            ui.label(squeeze_line(test));
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
    editor.grasp_test.preset = preset;
    if stop {
        editor.end_grasp_playback();
    }
    if rerun {
        editor.start_grasp_test();
    }
    if replay {
        editor.play_grasp_test();
    }
    if !open {
        editor.end_grasp_playback();
        editor.grasp_test.result = None;
    }
}
