//! The left panel: every body, grouped by robot (a robot mounted on an arm inside the arm's
//! group), objects and obstacles; a click selects.

use crate::editor::requests::Editor;
use bevy::prelude::*;
use bevy_egui::egui;
use clasp_core::RobotId;
use clasp_core::{BodyId, BodyKind};

pub(super) fn body_list(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Bodies");
    ui.label(egui::RichText::new(&editor.doc.source).small().weak());
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        let world = &editor.doc.world;
        let roots: Vec<RobotId> = world
            .robots()
            .map(|(r, _)| r)
            .filter(|&r| world.carrier(r).is_none())
            .collect();
        for r in roots {
            robot_group(ui, editor, r);
        }
        for (title, kind) in [
            ("Objects", BodyKind::Graspable),
            ("Obstacles", BodyKind::Obstacle),
        ] {
            let ids: Vec<BodyId> = editor
                .doc
                .world
                .free_bodies()
                .filter(|(_, b)| b.kind == kind)
                .map(|(i, _)| BodyId::Free(i))
                .collect();
            if ids.is_empty() {
                continue;
            }
            ui.label(egui::RichText::new(title).strong());
            for id in ids {
                body_row(ui, editor, id);
            }
        }
    });
}

/// A robot's bodies under its name, then each robot it carries, the same way.
fn robot_group(ui: &mut egui::Ui, editor: &mut Editor, r: RobotId) {
    let Some(robot) = editor.doc.world.robot(r) else {
        return;
    };
    let ids: Vec<BodyId> = robot
        .parts()
        .into_iter()
        .map(|which| BodyId::of_robot(r, which))
        .collect();
    let carries: Vec<RobotId> = editor
        .doc
        .world
        .connections()
        .iter()
        .filter(|c| c.parent_robot == r)
        .map(|c| c.child_robot)
        .collect();
    egui::CollapsingHeader::new(robot.name.as_str())
        .id_salt(("robot", r))
        .default_open(true)
        .show(ui, |ui| {
            for id in ids {
                body_row(ui, editor, id);
            }
            for child in carries {
                robot_group(ui, editor, child);
            }
        });
}

pub(super) fn body_row(ui: &mut egui::Ui, editor: &mut Editor, id: BodyId) {
    let Some(body) = editor.doc.world.body(id) else {
        return;
    };
    let row = ui
        .selectable_label(editor.selection.contains(&id), &body.name)
        .on_hover_text(format!(
            "{}, {} (Shift+click adds to the selection)",
            body.kind.name(),
            body.material
        ));
    if row.clicked() {
        let shift = ui.input(|i| i.modifiers.shift);
        editor.click_body(id, shift);
    }
}
