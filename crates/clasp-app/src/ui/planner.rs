//! The planner window (Grasp → Plan): the hand and the object, the energy, steps, number of
//! grasps, seed and the annealing's parameters; Plan and Stop; the run's progress and lowest energy so far; the grasps
//! found, best first, each put in place by a click.

use crate::commands::Action;
use crate::editor::requests::Editor;
use bevy::prelude::*;
use bevy_egui::egui;
use clasp_core::PlanEnergy;

/// Where the planner window's controls are, egui points: for scripts that press them.
#[derive(Default)]
pub(super) struct PlannerRects {
    pub plan_button: Option<egui::Rect>,
    pub rows: Vec<egui::Rect>,
}

pub(super) fn planner_window(ctx: &egui::Context, editor: &mut Editor, now: f64) -> PlannerRects {
    let mut open = editor.view.planner_shown;
    let mut rects = PlannerRects::default();
    egui::Window::new("Plan grasps")
        .open(&mut open)
        .resizable(true)
        .default_width(320.0)
        .show(ctx, |ui| {
            planner_settings(ui, editor);
            ui.separator();
            rects.plan_button = run_controls(ui, editor, now);
            ui.separator();
            rects.rows = found_list(ui, editor);
        });
    // Written only when closed: the view settings change, and what follows them redraws, only
    // on a change.
    if !open {
        editor.view.planner_shown = false;
    }
    rects
}

fn planner_settings(ui: &mut egui::Ui, editor: &mut Editor) {
    let world = &editor.doc.world;
    let hand = world.current_hand().and_then(|r| world.robot(r));
    let hand = hand.map_or("none".into(), |r| r.name.clone());
    let object = world.grasped_object();
    let object = object.map_or("none".into(), |id| editor.doc.body_name(id).to_owned());
    ui.label(format!(
        "Hand: {hand} (\"Grasp with\" in the robot section)"
    ));
    ui.label(format!("Object: {object}"));
    let carried = world
        .current_hand()
        .is_some_and(|r| world.carrier(r).is_some());
    let running = editor.planning.running();
    let settings = &mut editor.planning.settings;
    ui.add_enabled_ui(!running, |ui| {
        egui::ComboBox::from_label("Energy")
            .selected_text(energy_name(settings.energy))
            .show_ui(ui, |ui| {
                for energy in [
                    PlanEnergy::Mixed,
                    PlanEnergy::ContactQuality,
                    PlanEnergy::Contact,
                    PlanEnergy::Quality,
                    PlanEnergy::AutoGrasp,
                ] {
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
        if carried {
            let label = "only grasps the arm reaches (arm and hand in nothing)";
            ui.checkbox(&mut settings.only_reachable, label);
        }
        let mut tested = settings.test.is_some();
        let label = "test each grasp (the physics test): plan until they hold";
        if ui.checkbox(&mut tested, label).changed() {
            settings.test = tested.then(clasp_core::HoldSettings::default);
        }
        let mut guided = settings.guided.is_some();
        let label = "guided: the best states seed searches that close the hand";
        if ui.checkbox(&mut guided, label).changed() {
            settings.guided = guided.then(clasp_core::GuidedPlanning::default);
        }
        if let Some(g) = &mut settings.guided {
            ui.add(
                egui::DragValue::new(&mut g.children)
                    .range(1..=100)
                    .prefix("children: "),
            );
            ui.add(
                egui::DragValue::new(&mut g.child_steps)
                    .range(1..=10_000)
                    .prefix("steps per child: "),
            );
        }
        annealing_settings(ui, &mut settings.annealing);
    });
}

/// GraspIt's annealing parameters, by its names, each within what `Annealing::set` accepts.
fn annealing_settings(ui: &mut egui::Ui, annealing: &mut clasp_core::Annealing) {
    egui::CollapsingHeader::new("Annealing (GraspIt's SimAnn)").show(ui, |ui| {
        let positive = |value: &mut f64, name: &str, ui: &mut egui::Ui| {
            let speed = 0.01 * value.abs().max(1e-9);
            let drag = egui::DragValue::new(value)
                .range(1e-12..=1e12)
                .speed(speed)
                .prefix(format!("{name}: "));
            ui.add(drag);
        };
        positive(&mut annealing.t0, "t0", ui);
        ui.add(egui::DragValue::new(&mut annealing.k0).prefix("k0: "));
        positive(&mut annealing.yc, "yc", ui);
        positive(&mut annealing.ydims, "ydims", ui);
        positive(&mut annealing.nbr_adj, "nbr_adj", ui);
        positive(&mut annealing.hc, "hc", ui);
        positive(&mut annealing.hdims, "hdims", ui);
        positive(&mut annealing.err_adj, "err_adj", ui);
        ui.add(
            egui::DragValue::new(&mut annealing.attempts)
                .range(1..=1000)
                .prefix("attempts: "),
        );
        if ui.button("GraspIt's defaults").clicked() {
            *annealing = clasp_core::Annealing::default();
        }
    });
}

fn energy_name(energy: PlanEnergy) -> &'static str {
    match energy {
        PlanEnergy::Mixed => "mixed: contact, and contact with potential quality",
        PlanEnergy::ContactQuality => "contact with potential quality",
        PlanEnergy::Contact => "contact",
        PlanEnergy::Quality => "potential quality",
        PlanEnergy::AutoGrasp => "auto-grasp quality (slow: closes every state)",
    }
}

fn run_controls(ui: &mut egui::Ui, editor: &mut Editor, now: f64) -> Option<egui::Rect> {
    match editor.planning.progress(now) {
        Some((done, best, seconds)) => {
            let text = format!("{:.0} % in {seconds:.1} s", done * 100.0);
            ui.add(egui::ProgressBar::new(done).text(text));
            ui.label(best.map_or("no legal state yet".into(), |e| {
                format!("lowest energy so far: {e:.3}")
            }));
            let stop = ui
                .button("Stop")
                .on_hover_text("stop, keeping the grasps found so far");
            if stop.clicked() {
                editor.planning.stop();
            }
            None
        }
        None => {
            let world = &editor.doc.world;
            let ready = world.current_hand().is_some() && world.grasped_object().is_some();
            let plan = ui.add_enabled(ready, egui::Button::new("Plan"));
            if plan.clicked() {
                editor.start_plan(now);
            }
            Some(plan.rect)
        }
    }
}

fn found_list(ui: &mut egui::Ui, editor: &mut Editor) -> Vec<egui::Rect> {
    let planning = &editor.planning;
    if planning.found.is_empty() {
        ui.label(egui::RichText::new("No grasps planned yet.").weak());
        return Vec::new();
    }
    let rows: Vec<String> = planning
        .found
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let held = match (g.held(), g.settled) {
                (Some(true), true) => ", held where its squeeze settled",
                (Some(true), false) => ", held",
                (Some(false), _) => ", not held",
                (None, _) => "",
            };
            match g.force_closure() {
                true => format!("{}. force closure, ε {:.3}{held}", k + 1, g.epsilon()),
                false => format!(
                    "{}. not force closure (energy {:.2}){held}",
                    k + 1,
                    g.energy
                ),
            }
        })
        .collect();
    let shown = planning.shown;
    let step = |action: Action| {
        format!(
            "{} ({})",
            action.command().name,
            action.command().shortcut_text()
        )
    };
    ui.label(
        egui::RichText::new(format!(
            "{}, {}",
            step(Action::NextGrasp),
            step(Action::PreviousGrasp)
        ))
        .small()
        .weak(),
    );
    let mut rects = Vec::new();
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .show(ui, |ui| {
            for (k, row) in rows.into_iter().enumerate() {
                let label = ui.selectable_label(shown == Some(k), row);
                rects.push(label.rect);
                if label.clicked() {
                    editor.show_planned(k);
                }
            }
        });
    rects
}
