//! The right panel's contacts table, RaiSim's fields, and how many places touch.

use super::robot::quality_text;
use crate::editor::requests::Editor;
use bevy::prelude::*;
use bevy_egui::egui;
use clasp_core::{BodyId, BodyKind};

/// The contacts the list shows: each side on a free body (an object or an obstacle), and the
/// first side of every other pair; the second sides of a robot's self-contacts are left out.
pub fn listed_contacts(world: &clasp_core::World) -> Vec<&clasp_core::Contact> {
    world
        .contacts()
        .iter()
        .filter(|c| !c.skip)
        .filter(|c| {
            c.is_object_a
                || world
                    .body(c.body)
                    .is_some_and(|b| matches!(b.kind, BodyKind::Graspable | BodyKind::Obstacle))
        })
        .collect()
}

/// How many places touch: each pair's contact once.
pub fn contact_count(world: &clasp_core::World) -> usize {
    world.contacts().iter().filter(|c| c.is_object_a).count()
}

/// The contacts table's columns, RaiSim's contact API, with what each means.
pub const CONTACT_COLUMNS: [(&str, &str); 11] = [
    ("On", "the body this side of the contact is on"),
    ("#", "the contact's index in this body's list"),
    ("Touches", "the other body"),
    (
        "Pair #",
        "the same contact's index in the other body's list (none for a static body)",
    ),
    ("A", "whether this body is the pair's object A"),
    ("Point (mm)", "the point on this body, world coordinates"),
    (
        "Normal to A",
        "unit normal pointing to object A, the same on both sides",
    ),
    (
        "Depth (mm)",
        "how far the bodies overlap: minus the gap, never positive here",
    ),
    ("Triangles", "this body's triangle and the other's"),
    (
        "Types",
        "this body's type and the other's; self: both parts of one robot",
    ),
    ("μ", "static friction of the two materials"),
];

/// One row of the contacts table, in [`CONTACT_COLUMNS`] order.
pub fn contact_cells<'a>(
    c: &clasp_core::Contact,
    name: &impl Fn(BodyId) -> &'a str,
) -> [String; 11] {
    let local = c
        .local_index
        .map_or(String::new(), |l| format!(" (link {l})"));
    [
        format!("{}{local}", name(c.body)),
        c.index.to_string(),
        name(c.other).to_owned(),
        c.pair_index.map_or("—".into(), |i| i.to_string()),
        if c.is_object_a { "A" } else { "B" }.into(),
        format!("{:.1}, {:.1}, {:.1}", c.point.x, c.point.y, c.point.z),
        format!("{:.2}, {:.2}, {:.2}", c.normal.x, c.normal.y, c.normal.z),
        format!("{:.3}", c.depth()),
        format!("{} / {}", c.triangle, c.other_triangle),
        if c.is_self_collision {
            "self".to_owned()
        } else {
            format!("{} / {}", c.body_type.name(), c.other_type.name())
        },
        format!("{:.2}", c.static_friction),
    ]
}

pub(super) fn contacts_section(ui: &mut egui::Ui, editor: &Editor) {
    ui.heading("Grasp quality");
    ui.label(quality_text(&editor.doc.quality))
        .on_hover_text("Ferrari–Canny epsilon and volume of the L1 grasp wrench space");
    let contacts = listed_contacts(&editor.doc.world);
    egui::CollapsingHeader::new(format!("Contacts ({})", contacts.len()))
        .id_salt("contacts")
        .default_open(true)
        .show(ui, |ui| {
            if contacts.is_empty() {
                ui.label(egui::RichText::new("Nothing touches.").weak());
                return;
            }
            let name = |id| editor.doc.body_name(id);
            egui::ScrollArea::both()
                .id_salt("contact_rows")
                .max_height(260.0)
                .show(ui, |ui| {
                    egui::Grid::new("contact_grid")
                        .striped(true)
                        .num_columns(CONTACT_COLUMNS.len())
                        .show(ui, |ui| {
                            for (title, tip) in CONTACT_COLUMNS {
                                ui.label(egui::RichText::new(title).strong())
                                    .on_hover_text(tip);
                            }
                            ui.end_row();
                            for c in &contacts {
                                for cell in contact_cells(c, &name) {
                                    ui.label(cell);
                                }
                                ui.end_row();
                            }
                        });
                });
        });
}
