//! The robot section's Hand settings (docs/hands.md): where the palm approaches from and along,
//! and for each DOF the way Auto Grasp turns it and its effort, each change one undo step; Save
//! writes them beside a URDF or MJCF hand, as `NAME.clasp.xml`.

use bevy_egui::egui;
use clasp_core::{HandApproach, RobotId};
use nalgebra::{Point3, Unit, Vector3};

use super::robot::dof_label;
use crate::editor::{hand_requests::hand_file, requests::Editor};

/// Auto Grasp's way for a DOF, as its velocity's sign says.
const SENSES: [(f64, &str); 3] = [(1.0, "closes +"), (-1.0, "closes −"), (0.0, "stays")];

pub(super) fn hand_settings(ui: &mut egui::Ui, editor: &mut Editor, robot: RobotId) {
    egui::CollapsingHeader::new("Hand settings")
        .id_salt(("hand settings", robot))
        .show(ui, |ui| {
            approach_fields(ui, editor, robot);
            dof_drives(ui, editor, robot);
            save_button(ui, editor, robot);
        });
}

/// The approach's reference point and direction, palm frame.
fn approach_fields(ui: &mut egui::Ui, editor: &mut Editor, robot: RobotId) {
    let Some(hand) = editor.doc.world.robot(robot) else {
        return;
    };
    let Some(approach) = hand.approach.clone() else {
        ui.label(egui::RichText::new("No approach: the hand has no palm to face with.").weak());
        return;
    };
    let mut reference: [f64; 3] = approach.reference.coords.into();
    let mut direction: [f64; 3] = approach.direction.into_inner().into();
    let mut changed = false;
    egui::Grid::new(("approach", robot))
        .num_columns(4)
        .show(ui, |ui| {
            let from = "the palm's point it approaches from, palm frame, mm";
            changed |= vector_row(ui, ("Approach from", from), &mut reference, 0.5, 1);
            let along = "the way the palm faces, palm frame (made unit)";
            changed |= vector_row(ui, ("along", along), &mut direction, 0.01, 3);
        });
    let along = Vector3::from(direction);
    if changed && along.norm() > 1e-9 {
        let asked = HandApproach {
            reference: Point3::from(reference),
            direction: Unit::new_normalize(along),
        };
        editor.set_hand_approach(robot, asked);
    }
}

/// A labelled row of x, y and z fields; whether one changed.
fn vector_row(
    ui: &mut egui::Ui,
    (label, hover): (&str, &str),
    values: &mut [f64; 3],
    speed: f64,
    decimals: usize,
) -> bool {
    ui.label(label).on_hover_text(hover);
    let mut changed = false;
    for (value, axis) in values.iter_mut().zip(["x ", "y ", "z "]) {
        let field = egui::DragValue::new(value)
            .speed(speed)
            .max_decimals(decimals)
            .prefix(axis);
        changed |= ui.add(field).changed();
    }
    ui.end_row();
    changed
}

/// Each DOF's closing sense and effort (N·m, or N for a sliding DOF).
fn dof_drives(ui: &mut egui::Ui, editor: &mut Editor, robot: RobotId) {
    let Some(hand) = editor.doc.world.robot(robot) else {
        return;
    };
    let mut asked = Vec::new();
    egui::Grid::new(("drives", robot))
        .num_columns(3)
        .show(ui, |ui| {
            for (dof, drive) in hand.dofs.iter().enumerate() {
                let revolute = hand.dof_is_revolute(dof);
                ui.add(egui::Label::new(dof_label(hand, dof)).truncate())
                    .on_hover_text(&drive.name);
                let speed = drive.default_velocity.abs().max(1.0);
                let was = match drive.default_velocity {
                    v if v > 0.0 => 1.0,
                    v if v < 0.0 => -1.0,
                    _ => 0.0,
                };
                let mut sense = was;
                let shown = SENSES
                    .iter()
                    .find(|(s, _)| *s == sense)
                    .map_or("?", |(_, n)| n);
                egui::ComboBox::from_id_salt(("sense", robot, dof))
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for (value, name) in SENSES {
                            ui.selectable_value(&mut sense, value, name);
                        }
                    });
                let unit = if revolute { " N·m" } else { " N" };
                let mut effort = clasp_io::effort_to_si(drive.max_effort, revolute);
                let effort_changed = ui
                    .add(
                        egui::DragValue::new(&mut effort)
                            .speed(0.01)
                            .range(1e-6..=f64::MAX)
                            .suffix(unit),
                    )
                    .changed();
                ui.end_row();
                // Only a change asks: the effort shown is rounded through N·m.
                if sense != was || effort_changed {
                    let effort = match effort_changed {
                        true => clasp_io::effort_from_si(effort, revolute),
                        false => drive.max_effort,
                    };
                    asked.push((dof, sense * speed, effort));
                }
            }
        });
    for (dof, velocity, effort) in asked {
        editor.set_dof_drive(robot, dof, velocity, effort);
    }
}

fn save_button(ui: &mut egui::Ui, editor: &mut Editor, robot: RobotId) {
    let Some(hand) = editor.doc.world.robot(robot) else {
        return;
    };
    match hand_file(hand) {
        Some(file) => {
            let target = clasp_io::hand_settings_path(&file);
            let name = target.file_name().map(|n| n.to_string_lossy().into_owned());
            let clicked = ui
                .button(format!("Save to {}", name.unwrap_or_default()))
                .on_hover_text(format!(
                    "Writes these settings beside the hand's file ({}); the hand reads them each time it loads",
                    target.display()
                ))
                .clicked();
            if clicked {
                editor.save_hand_settings(robot);
            }
        }
        None => {
            ui.label(
                egui::RichText::new("GraspIt's hands keep these in their robot files.").weak(),
            );
        }
    }
}
