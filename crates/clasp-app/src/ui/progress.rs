//! What is loading: a card at the bottom of the 3D view with a spinner, each file, what it is
//! loaded for and for how long, and Cancel. The window keeps answering meanwhile.

use crate::dialog::{loading::LoadPurpose, loading::Loads};
use crate::{editor::requests::Editor, files::ImportKind};
use bevy::prelude::*;
use bevy_egui::egui;

/// "Opening world", "Importing object" and the others.
pub fn load_verb(purpose: LoadPurpose) -> &'static str {
    match purpose {
        LoadPurpose::OpenWorld => "Opening world",
        LoadPurpose::Import(ImportKind::Object, _) => "Importing object",
        LoadPurpose::Import(ImportKind::Obstacle, _) => "Importing obstacle",
        LoadPurpose::Import(ImportKind::Robot, _) => "Importing robot",
    }
}

/// Draws the card while anything loads; Cancel forgets every load and says so in the log.
pub(super) fn show_progress(
    ctx: &egui::Context,
    view: egui::Rect,
    loads: &mut ResMut<Loads>,
    editor: &mut Editor,
    now: f64,
) {
    if loads.is_idle() {
        return;
    }
    let mut cancelled = false;
    egui::Area::new(egui::Id::new("loading"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(view.center_bottom() + egui::vec2(0.0, -16.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                for (path, purpose, seconds) in loads.in_progress(now) {
                    ui.horizontal(|ui| {
                        ui.add(egui::Spinner::new());
                        let name = path.file_name().unwrap_or(path.as_os_str());
                        ui.label(format!(
                            "{} {} … {seconds:.1} s",
                            load_verb(purpose),
                            name.to_string_lossy()
                        ));
                    });
                }
                cancelled = ui
                    .button("Cancel")
                    .on_hover_text("Stop waiting: the scene stays as it is")
                    .clicked();
            });
        });
    if cancelled {
        for path in loads.cancel() {
            editor.info(format!("cancelled loading {}", path.display()));
        }
    }
}
