//! The bottom: the status bar and the log.

use super::contacts::contact_count;
use super::help::gestures_reminder;
use super::state::UiState;
use super::style::{ERROR, TOUCHING};
use crate::editor::{
    requests::Editor,
    resources::{Document, Log, Selection},
    simulation::Simulation,
};
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn status_bar(
    ui: &mut egui::Ui,
    editor: &Editor,
    state: &mut UiState,
    frame_rate: Option<crate::frame_rate::FrameRate>,
) {
    let shown = status_shown(
        &editor.doc,
        &editor.selection,
        &editor.simulation,
        &editor.log,
    );
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
        ui.label(&shown.selection);
        if let Some(touching) = &shown.touching {
            ui.separator();
            ui.label(egui::RichText::new(touching).color(TOUCHING).strong());
        }
        ui.separator();
        ui.label(&shown.contacts);
        if let Some(run) = &shown.simulation {
            ui.separator();
            ui.label(run);
        }
        if let Some(off) = &shown.collisions_off {
            ui.separator();
            ui.label(egui::RichText::new(off).color(TOUCHING).strong());
        }
        if let Some(error) = &shown.error {
            ui.separator();
            let at = editor.log.standing_error().map_or("", |e| e.at.as_str());
            ui.colored_label(ERROR, error)
                .on_hover_text(format!("at {at} (UTC); every message is in the Log"));
        }
        ui.separator();
        ui.label(egui::RichText::new(gestures_reminder()).weak());
    });
}

/// What the status bar says, part by part (the frame rate and the Log button aside): the
/// panel draws it and the state file records it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StatusShown {
    pub selection: String,
    /// "touching: …" while a move is held at contact.
    pub touching: Option<String>,
    pub contacts: String,
    pub simulation: Option<String>,
    /// "Collisions OFF (world)" while the world's switch is off.
    pub collisions_off: Option<String>,
    /// The error that still stands (see [`Log::standing_error`]).
    pub error: Option<String>,
}

pub fn status_shown(
    document: &Document,
    selection: &Selection,
    simulation: &Simulation,
    log: &Log,
) -> StatusShown {
    let contacts = contact_count(&document.world);
    StatusShown {
        selection: selection_summary(&document.world, selection),
        touching: document.touching.as_ref().map(|t| format!("touching: {t}")),
        contacts: format!("{contacts} contact{}", if contacts == 1 { "" } else { "s" }),
        simulation: simulation_summary(simulation),
        collisions_off: (!document.world.switches().world_on())
            .then(|| "Collisions OFF (world)".to_owned()),
        error: log.standing_error().map(|e| e.text.clone()),
    }
}

/// "▶ 1.250 s (1.00× real time)" while the dynamics keeps up with the clock, "▶ 1.250 s
/// (0.34× real time: the frame takes 256 ms)" when it falls behind, "⏸ 1.250 s" once it has
/// run; nothing before.
pub fn simulation_summary(run: &Simulation) -> Option<String> {
    if !run.playing && run.time == 0.0 {
        return None;
    }
    let time = format!("{:.3} s", run.time);
    Some(match (run.playing, run.meter.reading()) {
        (true, Some(r)) if r.factor < BEHIND => format!(
            "▶ {time} ({:.2}× real time: the frame takes {:.0} ms)",
            r.factor, r.frame_ms
        ),
        (true, Some(r)) => format!("▶ {time} ({:.2}× real time)", r.factor),
        (true, None) => format!("▶ {time}"),
        (false, _) => format!("⏸ {time}"),
    })
}

/// Below this share of real time the status bar says what holds the run back.
const BEHIND: f64 = 0.95;

/// "Nothing selected", "Selected: clasp_mug", "Selected: robot allegro_hand", or the first few
/// things picked and a count. A whole robot is one thing, however many bodies it has.
pub fn selection_summary(world: &clasp_core::World, selection: &Selection) -> String {
    let names: Vec<String> = selection
        .items(world)
        .into_iter()
        .map(|item| item.describe(world))
        .collect();
    match names.len() {
        0 => "Nothing selected".into(),
        1..=3 => format!("Selected: {}", names.join(", ")),
        n => format!("Selected: {}, … ({n} picked)", names[..3].join(", ")),
    }
}

pub(super) fn log_panel(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    ui.horizontal(|ui| {
        ui.strong("Log")
            .on_hover_text("every message since the app started, times in UTC");
        if ui.button("Clear").clicked() {
            editor.log.clear();
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
                let line = format!("{}  {}", entry.at, entry.text);
                if entry.error {
                    ui.colored_label(ERROR, line);
                } else {
                    ui.label(line);
                }
            }
        });
}
