//! The bottom: the status bar and the log.

use super::contacts::contact_count;
use super::help::gestures_reminder;
use super::state::UiState;
use super::style::{ERROR, TOUCHING};
use crate::editor::requests::Editor;
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn status_bar(
    ui: &mut egui::Ui,
    editor: &Editor,
    state: &mut UiState,
    frame_rate: Option<crate::frame_rate::FrameRate>,
) {
    ui.horizontal(|ui| {
        if let Some(rate) = frame_rate {
            ui.label(egui::RichText::new(rate.summary()).monospace());
            ui.separator();
        }
        let errors = editor.log.iter().filter(|e| e.error).count();
        let log_label = format!("Log ({})", editor.log.len());
        ui.toggle_value(&mut state.log_open, log_label)
            .on_hover_text(format!(
                "Show every message ({errors} error{})",
                if errors == 1 { "" } else { "s" }
            ));
        ui.separator();
        ui.label(selection_summary(editor));
        if let Some(touching) = &editor.doc.touching {
            ui.separator();
            ui.label(
                egui::RichText::new(format!("touching: {touching}"))
                    .color(TOUCHING)
                    .strong(),
            );
        }
        ui.separator();
        let contacts = contact_count(&editor.doc.world);
        ui.label(format!(
            "{contacts} contact{}",
            if contacts == 1 { "" } else { "s" }
        ));
        if let Some(run) = simulation_summary(editor) {
            ui.separator();
            ui.label(run);
        }
        if !editor.doc.world.switches().world_on() {
            ui.separator();
            ui.label(
                egui::RichText::new("Collisions OFF (world)")
                    .color(TOUCHING)
                    .strong(),
            );
        }
        if let Some(last) = editor.log.iter().rev().find(|e| e.error) {
            ui.separator();
            ui.colored_label(ERROR, &last.text);
        }
        ui.separator();
        ui.label(egui::RichText::new(gestures_reminder()).weak());
    });
}

/// "▶ 1.250 s (0.98× real time)" while the dynamics plays, "⏸ 1.250 s" once it has run;
/// nothing before.
pub fn simulation_summary(editor: &Editor) -> Option<String> {
    let run = &editor.simulation;
    if !run.playing && run.time == 0.0 {
        return None;
    }
    let time = format!("{:.3} s", run.time);
    Some(match (run.playing, run.real_time_factor) {
        (true, Some(factor)) => format!("▶ {time} ({factor:.2}× real time)"),
        (true, None) => format!("▶ {time}"),
        (false, _) => format!("⏸ {time}"),
    })
}

/// "Nothing selected", "Selected: clasp_mug", or the first few names and a count.
pub fn selection_summary(editor: &Editor) -> String {
    let names: Vec<&str> = editor
        .selection
        .iter()
        .filter_map(|&id| editor.doc.world.body(id))
        .map(|b| b.name.as_str())
        .collect();
    match names.len() {
        0 => "Nothing selected".into(),
        1..=3 => format!("Selected: {}", names.join(", ")),
        n => format!("Selected: {}, … ({n} bodies)", names[..3].join(", ")),
    }
}

pub(super) fn log_panel(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    ui.horizontal(|ui| {
        ui.strong("Log");
        if ui.button("Clear").clicked() {
            editor.log.0.clear();
            state.toasts.forget_log();
        }
        if ui.button("Close").clicked() {
            state.log_open = false;
        }
    });
    egui::ScrollArea::vertical()
        .id_salt("log_scroll")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for entry in editor.log.iter() {
                if entry.error {
                    ui.colored_label(ERROR, &entry.text);
                } else {
                    ui.label(&entry.text);
                }
            }
        });
}
