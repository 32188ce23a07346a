//! Simulate → Plot: the selected body's height, speed and kinetic energy over simulated time,
//! each as a small line chart with its range, drawn with egui's painter.

use crate::editor::{requests::Editor, simulation::Sample};
use bevy_egui::egui;

/// A chart's name, unit and the quantity it draws.
type Chart = (&'static str, &'static str, fn(&Sample) -> f64);

/// Each chart's size, points.
const CHART: egui::Vec2 = egui::vec2(320.0, 70.0);

pub(super) fn plot_window(ctx: &egui::Context, editor: &mut Editor) {
    if !editor.view.plot_shown {
        return;
    }
    let mut open = true;
    let trace = &editor.simulation.trace;
    // The timeline's moment, while it is scrubbed back.
    let cursor = editor.timeline.shown.map(|_| editor.simulation.time);
    let title = trace.body.map_or("Plot".to_owned(), |id| {
        format!("Plot: {}", editor.doc.body_name(id))
    });
    egui::Window::new(title)
        .id(egui::Id::new("plot"))
        .open(&mut open)
        .resizable(false)
        .show(ctx, |ui| {
            if trace.samples.is_empty() {
                ui.label("Select a body and press Play: its height, speed and energy show here.");
                return;
            }
            let charts: [Chart; 3] = [
                ("height", "mm", |s| s.height),
                ("speed", "mm/s", |s| s.speed),
                ("kinetic energy", "µJ", |s| s.kinetic_energy),
            ];
            for (name, unit, value) in charts {
                let values: Vec<(f64, f64)> =
                    trace.samples.iter().map(|s| (s.time, value(s))).collect();
                chart(ui, name, unit, &values, cursor);
            }
        });
    if !open {
        editor.view.plot_shown = false;
    }
}

/// One quantity over time: its latest value and range above a line through its samples, and
/// a cursor at the time the timeline shows.
fn chart(ui: &mut egui::Ui, name: &str, unit: &str, values: &[(f64, f64)], cursor: Option<f64>) {
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(_, v)| {
            (lo.min(v), hi.max(v))
        });
    let last = values.last().map_or(0.0, |&(_, v)| v);
    ui.label(format!(
        "{name}: {last:.3} {unit}  (from {lo:.3} to {hi:.3})"
    ));
    let (rect, _) = ui.allocate_exact_size(CHART, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_stroke(
        rect,
        2.0,
        ui.visuals().widgets.noninteractive.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let (t0, t1) = (values[0].0, values[values.len() - 1].0);
    let span = |a: f64, b: f64| if b > a { b - a } else { 1.0 };
    let points: Vec<egui::Pos2> = values
        .iter()
        .map(|&(t, v)| {
            let x = (t - t0) / span(t0, t1);
            let y = (v - lo) / span(lo, hi);
            egui::pos2(
                rect.left() + x as f32 * rect.width(),
                rect.bottom() - y as f32 * rect.height(),
            )
        })
        .collect();
    let stroke = egui::Stroke::new(1.5, ui.visuals().selection.bg_fill);
    painter.add(egui::Shape::line(points, stroke));
    if let Some(time) = cursor.filter(|&t| t >= t0 && t <= t1) {
        let x = rect.left() + ((time - t0) / span(t0, t1)) as f32 * rect.width();
        let cursor_stroke = egui::Stroke::new(1.0, ui.visuals().warn_fg_color);
        painter.vline(x, rect.y_range(), cursor_stroke);
    }
}
