//! The timeline bar under the view: a slider through the moments the run went through (the
//! simulation's recent history, a grasp test's playback, or an opened recording), the time
//! shown and the whole span, and for a recording a button that plays it back.

use bevy_egui::egui;

use crate::editor::{requests::Editor, timeline::TimelineSource};

/// Draws the bar when there is a timeline to scrub; says nothing otherwise.
pub(super) fn timeline_bar(ui: &mut egui::Ui, editor: &mut Editor) {
    let Some((first, last, shown)) = editor.timeline_position() else {
        return;
    };
    let mut time = shown;
    let testing = editor.grasp_test.playback.is_some();
    ui.horizontal(|ui| {
        let what = match (&editor.timeline.source, testing) {
            (_, true) => "grasp test".to_owned(),
            (TimelineSource::Simulation, _) => "history".to_owned(),
            (TimelineSource::Recording(path), _) => path
                .file_name()
                .map_or("recording".into(), |n| n.to_string_lossy().into_owned()),
        };
        ui.label(what);
        if matches!(editor.timeline.source, TimelineSource::Recording(_)) && !testing {
            let label = if editor.timeline.replaying {
                "⏸ Pause"
            } else {
                "▶ Play back"
            };
            if ui
                .button(label)
                .on_hover_text("Play the recording back from the moment shown")
                .clicked()
            {
                editor.toggle_replay();
            }
        }
        ui.label(format!("{time:.3} s of {first:.2}–{last:.2} s"));
        let width = (ui.available_width() - 8.0).max(80.0);
        ui.spacing_mut().slider_width = width;
        let slider = egui::Slider::new(&mut time, first..=last.max(first + 1e-9)).show_value(false);
        let moved = ui
            .add(slider)
            .on_hover_text(
                "Scrub through the run: Play goes on from the moment shown, the later ones dropped",
            )
            .changed();
        if moved {
            editor.timeline.replaying = false;
            editor.scrub_to(time);
        }
    });
}
