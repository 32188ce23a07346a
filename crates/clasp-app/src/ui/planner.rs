//! The planner window (Grasp → Plan): the hand and the object, the energy, steps, number of
//! grasps and seed; Plan and Stop; the run's progress and lowest energy so far; the grasps
//! found, best first, each put in place by a click.

use super::*;
use crate::planning::Planning;
use clasp_core::Energy;

pub(super) fn planner_window(
    ctx: &egui::Context,
    editor: &mut Editor,
    planning: &mut Planning,
    now: f64,
) {
    let mut open = editor.view.planner_shown;
    egui::Window::new("Plan grasps")
        .open(&mut open)
        .resizable(true)
        .default_width(320.0)
        .show(ctx, |ui| {
            planner_settings(ui, editor, planning);
            ui.separator();
            run_controls(ui, editor, planning, now);
            ui.separator();
            found_list(ui, editor, planning);
        });
    // Written only when closed: the view settings change, and what follows them redraws, only
    // on a change.
    if !open {
        editor.view.planner_shown = false;
    }
}

fn planner_settings(ui: &mut egui::Ui, editor: &mut Editor, planning: &mut Planning) {
    let world = &editor.doc.world;
    let hand = world.current_hand().and_then(|r| world.robot(r));
    let hand = hand.map_or("none".into(), |r| r.name.clone());
    let object = world.grasped_object();
    let object = object.map_or("none".into(), |id| editor.doc.body_name(id).to_owned());
    ui.label(format!(
        "Hand: {hand} (\"Grasp with\" in the robot section)"
    ));
    ui.label(format!("Object: {object}"));
    let running = planning.running();
    let settings = &mut planning.settings;
    ui.add_enabled_ui(!running, |ui| {
        egui::ComboBox::from_label("Energy")
            .selected_text(energy_name(settings.energy))
            .show_ui(ui, |ui| {
                for energy in [Energy::Contact, Energy::Quality] {
                    ui.selectable_value(&mut settings.energy, energy, energy_name(energy));
                }
            });
        let steps = egui::DragValue::new(&mut settings.steps).range(100..=1_000_000);
        ui.add(steps.prefix("steps per search: "));
        ui.add(
            egui::DragValue::new(&mut settings.grasps)
                .range(1..=100)
                .prefix("grasps: "),
        );
        ui.add(egui::DragValue::new(&mut settings.seed).prefix("seed: "));
    });
}

fn energy_name(energy: Energy) -> &'static str {
    match energy {
        Energy::Contact => "contact",
        Energy::Quality => "potential quality",
    }
}

fn run_controls(ui: &mut egui::Ui, editor: &mut Editor, planning: &mut Planning, now: f64) {
    match planning.progress(now) {
        Some((done, best, seconds)) => {
            ui.add(
                egui::ProgressBar::new(done)
                    .text(format!("{:.0} % in {seconds:.1} s", done * 100.0)),
            );
            ui.label(best.map_or("no legal state yet".into(), |e| {
                format!("lowest energy so far: {e:.3}")
            }));
            if ui
                .button("Stop")
                .on_hover_text("stop, keeping the grasps found so far")
                .clicked()
            {
                planning.stop();
            }
        }
        None => {
            let ready = editor.doc.world.current_hand().is_some()
                && editor.doc.world.grasped_object().is_some();
            if ui.add_enabled(ready, egui::Button::new("Plan")).clicked() {
                planning.start(editor, now);
            }
        }
    }
}

fn found_list(ui: &mut egui::Ui, editor: &mut Editor, planning: &mut Planning) {
    if planning.found.is_empty() {
        ui.label(egui::RichText::new("No grasps planned yet.").weak());
        return;
    }
    let rows: Vec<String> = planning
        .found
        .iter()
        .enumerate()
        .map(|(k, g)| match g.force_closure() {
            true => format!("{}. force closure, ε {:.3}", k + 1, g.epsilon()),
            false => format!("{}. not force closure (energy {:.2})", k + 1, g.energy),
        })
        .collect();
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .show(ui, |ui| {
            for (k, row) in rows.into_iter().enumerate() {
                let chosen = planning.shown == Some(k);
                if ui.selectable_label(chosen, row).clicked() {
                    planning.show(editor, k);
                }
            }
        });
}
