//! The right panel's robot section: DOF sliders, Auto Grasp and Open, and the grasp quality.

use super::state::UiState;
use super::style::ERROR;
use super::widgets::{Edit, settle_widget_drag, widget_edit};
use crate::editor::{requests::Editor, resources::QualityReport};
use bevy::prelude::*;
use bevy_egui::egui;
use clasp_core::RobotId;

pub(super) fn robot_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    state: &mut UiState,
    robot: RobotId,
) {
    let Some(r) = editor.doc.world.robot(robot) else {
        return;
    };
    ui.heading(format!("Robot: {}", r.name));
    let count = r.dofs.len();
    hand_choice(ui, editor);
    let mut responses = Vec::with_capacity(count);
    egui::Grid::new(("dofs", robot))
        .num_columns(2)
        .show(ui, |ui| {
            for dof in 0..count {
                let Some(r) = editor.doc.world.robot(robot) else {
                    break;
                };
                let revolute = r.dof_is_revolute(dof);
                let (lo, hi) = r.dof_limits(dof);
                let to_shown = |v: f64| if revolute { v.to_degrees() } else { v };
                let mut shown = to_shown(r.dof_values()[dof]);
                let unit = if revolute { "°" } else { " mm" };
                ui.add(egui::Label::new(dof_label(r, dof)).truncate())
                    .on_hover_text(format!("DOF {dof}: {}", r.dofs[dof].name));
                let response = if lo.is_finite() && hi.is_finite() && lo < hi {
                    // No clamping and no rounding: a slider that only shows a value must
                    // not change it.
                    ui.add(
                        egui::Slider::new(&mut shown, to_shown(lo)..=to_shown(hi))
                            .clamping(egui::SliderClamping::Never)
                            .suffix(unit),
                    )
                } else {
                    ui.add(egui::DragValue::new(&mut shown).suffix(unit))
                };
                let value = if revolute { shown.to_radians() } else { shown };
                responses.push((dof, value, response));
                ui.end_row();
            }
        });
    for (dof, value, response) in &responses {
        match widget_edit(response, state, editor, "DOF change") {
            Edit::Step => {
                editor.drag_dof(robot, *dof, *value);
            }
            Edit::Whole => {
                editor.set_dof(robot, *dof, *value);
            }
            Edit::None => {}
        }
        settle_widget_drag(response, state, editor);
    }
    eigen_sliders(ui, editor, state, robot);
    super::hand_settings::hand_settings(ui, editor, robot);
    ui.horizontal(|ui| {
        if ui
            .button("Auto Grasp")
            .on_hover_text("Close every finger until contact or its limit")
            .clicked()
        {
            editor.auto_grasp(robot, true);
        }
        if ui
            .button("Auto Open")
            .on_hover_text("Open every finger")
            .clicked()
        {
            editor.auto_grasp(robot, false);
        }
    });
}

/// The grasp quality in words: the numbers, "not force-closure", or why there is none.
pub fn quality_text(report: &QualityReport) -> String {
    match report {
        QualityReport::NoGrasp => "no grasp (needs a robot and a graspable body)".into(),
        QualityReport::Failed(reason) => format!("not evaluated: {reason}"),
        QualityReport::Computed(q) => {
            let mut text = match q.epsilon {
                Some(epsilon) => format!("Epsilon {epsilon:.4}"),
                None => "Epsilon: not force-closure".into(),
            };
            if let Some(volume) = q.volume {
                if volume == 0.0 || volume >= 1.0e-3 {
                    text += &format!(", Volume {volume:.4}");
                } else {
                    text += &format!(", Volume {volume:.3e}");
                }
            }
            text
        }
    }
}

/// With several robots: which one Auto Grasp, Auto Open and the quality use when no robot is
/// selected (the world's current hand; by default its first hand).
fn hand_choice(ui: &mut egui::Ui, editor: &mut Editor) {
    let robots: Vec<(RobotId, String)> = editor
        .doc
        .world
        .robots()
        .map(|(i, r)| (i, r.name.clone()))
        .collect();
    if robots.len() < 2 {
        return;
    }
    let current = editor.doc.world.current_hand();
    let name_of = |r: Option<RobotId>| {
        robots
            .iter()
            .find(|(i, _)| Some(*i) == r)
            .map_or("none", |(_, n)| n.as_str())
            .to_owned()
    };
    let mut chosen = current;
    ui.horizontal(|ui| {
        ui.label("Grasp with");
        egui::ComboBox::from_id_salt("grasping_hand")
            .selected_text(name_of(current))
            .show_ui(ui, |ui| {
                for (i, name) in &robots {
                    ui.selectable_value(&mut chosen, Some(*i), name);
                }
            })
            .response
            .on_hover_text("The robot Auto Grasp and the quality use when no robot is selected");
    });
    if let Some(robot) = chosen.filter(|_| chosen != current) {
        editor.choose_hand(robot);
    }
}

/// A slider per eigengrasp amplitude (GraspIt's eigengrasp dialog, not rigid): each ranges as
/// far as every DOF it moves stays within its limits from the posture now; the DOFs follow,
/// stopping at contact as for any DOF move.
fn eigen_sliders(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState, robot: RobotId) {
    let Some(r) = editor.doc.world.robot(robot) else {
        return;
    };
    let title = if r.eigen_grasps.is_some() {
        "Eigengrasps"
    } else {
        "Eigengrasps (one per DOF)"
    };
    let dofs = r.dof_values();
    // The space is built (a small matrix inverse) only while the section is open.
    let mut shown = None;
    egui::CollapsingHeader::new(title)
        .id_salt(("eigengrasps", robot))
        .show(ui, |ui| {
            let space = match r.eigen_space() {
                Ok(space) => space,
                Err(e) => {
                    ui.colored_label(ERROR, e.to_string());
                    return;
                }
            };
            let amplitudes = space.amplitudes(dofs);
            let mut responses = Vec::new();
            egui::Grid::new(("eigen", robot))
                .num_columns(2)
                .show(ui, |ui| {
                    for (e, &now) in amplitudes.iter().enumerate() {
                        let (low, high) = space.amplitude_range(e, dofs);
                        let mut value = now;
                        ui.label(format!("EG {e}"));
                        let response = if low.is_finite() && high.is_finite() && low < high {
                            ui.add(
                                egui::Slider::new(&mut value, low..=high)
                                    .clamping(egui::SliderClamping::Never)
                                    .max_decimals(3),
                            )
                        } else {
                            ui.add(egui::DragValue::new(&mut value).speed(0.01))
                        };
                        responses.push((e, value, response));
                        ui.end_row();
                    }
                });
            shown = Some((amplitudes, responses));
        });
    let Some((amplitudes, responses)) = shown else {
        return;
    };
    for (e, value, response) in &responses {
        let mut asked = amplitudes.clone();
        asked[*e] = *value;
        match widget_edit(response, state, editor, "eigengrasp change") {
            Edit::Step => {
                editor.drag_eigen(robot, &asked);
            }
            Edit::Whole => {
                editor.set_eigen(robot, &asked);
            }
            Edit::None => {}
        }
        settle_widget_drag(response, state, editor);
    }
}

/// A DOF slider's label: its joint's name (URDF, MJCF), "DOF i" where it has none; GraspIt's
/// DOFs, named by the several joints they drive, by their first.
pub fn dof_label(robot: &clasp_core::Robot, dof: usize) -> String {
    let name = &robot.dofs[dof].name;
    match name.split(", ").next() {
        Some(first) if !first.is_empty() && first.len() < name.len() => {
            format!("{dof}: {first}, …")
        }
        Some(first) if !first.is_empty() => first.to_owned(),
        _ => format!("DOF {dof}"),
    }
}
