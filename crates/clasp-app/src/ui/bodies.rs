//! The left panel: every body, grouped by robot, objects and obstacles; a click selects.

use super::*;

pub(super) fn body_list(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Bodies");
    ui.label(egui::RichText::new(&editor.doc.source).small().weak());
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        let ids = editor.doc.world.body_ids();
        let robots: Vec<(usize, String)> = editor
            .doc
            .world
            .robots()
            .map(|(r, robot)| (r, robot.name.clone()))
            .collect();
        for (r, robot) in &robots {
            let r = *r;
            egui::CollapsingHeader::new(robot.as_str())
                .id_salt(("robot", r))
                .default_open(true)
                .show(ui, |ui| {
                    for &id in ids.iter().filter(|id| id.robot() == Some(r)) {
                        body_row(ui, editor, id);
                    }
                });
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
