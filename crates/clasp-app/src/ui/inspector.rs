//! The right panel's body section: a body's facts, pose, material, and collision group and mask.

use super::contacts::contacts_section;
use super::robot::robot_section;
use super::state::UiState;
use super::style::TOUCHING;
use super::widgets::{Edit, settle_widget_drag, widget_edit};
use crate::editor::{collision_state::collision_lines, requests::Editor};
use bevy::prelude::*;
use bevy_egui::egui;
use clasp_core::{BodyId, CollisionGroups, Element, Material, Pose};
use nalgebra::{Translation3, UnitQuaternion};

/// The body the inspector shows: the last one selected.
pub(super) fn inspected_body(editor: &Editor) -> Option<BodyId> {
    editor
        .selection
        .last()
        .copied()
        .filter(|&id| editor.doc.world.body(id).is_some())
}

pub(super) fn inspector(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    match inspected_body(editor) {
        Some(id) => body_section(ui, editor, state, id),
        None => {
            ui.heading("Inspector");
            ui.label(egui::RichText::new("Select a body to see and change it.").weak());
        }
    }
    let robot = editor.selected_robot().or(editor.doc.world.current_hand());
    if let Some(robot) = robot {
        ui.separator();
        robot_section(ui, editor, state, robot);
    }
    ui.separator();
    collisions_section(ui, editor);
    ui.separator();
    contacts_section(ui, editor);
}

/// Collisions: the world's switch, each picked thing's, and the pairs switched off that hold
/// one of them (every pair switched off, with nothing picked).
fn collisions_section(ui: &mut egui::Ui, editor: &Editor) {
    ui.label(egui::RichText::new("Collisions").strong())
        .on_hover_text("Toggle Collision in the toolbar switches what its tooltip says");
    for line in collision_lines(&editor.doc.world, &editor.selection) {
        let off = line.ends_with(": off") || line.starts_with("off: ");
        if off {
            ui.label(egui::RichText::new(line).color(TOUCHING));
        } else {
            ui.label(line);
        }
    }
}

pub(super) fn body_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    state: &mut UiState,
    id: BodyId,
) {
    let Some(body) = editor.doc.world.body(id) else {
        return;
    };
    let selected = editor.selection.len();
    ui.heading(&body.name);
    if selected > 1 {
        ui.label(
            egui::RichText::new(format!("the last of {selected} selected bodies"))
                .small()
                .weak(),
        );
    }
    egui::Grid::new("body_facts").num_columns(2).show(ui, |ui| {
        ui.label("Kind");
        ui.label(body.kind.name());
        ui.end_row();
        if let Some(robot) = id.robot().and_then(|r| editor.doc.world.robot(r)) {
            ui.label("Robot");
            ui.label(&robot.name);
            ui.end_row();
        }
        ui.label("Mass");
        let estimate = if body.mass.open_mesh_estimate {
            " (estimate: open mesh)"
        } else {
            ""
        };
        ui.label(format!("{:.1} g{estimate}", body.mass.mass));
        ui.end_row();
        ui.label("Young's modulus");
        ui.label(match body.youngs {
            Some(youngs) => format!("{:.3} MPa (soft)", youngs / 1.0e6),
            None => "rigid".into(),
        });
        ui.end_row();
    });

    ui.add_space(4.0);
    ui.label(egui::RichText::new("Pose").strong());
    pose_fields(ui, editor, state, id);

    ui.add_space(4.0);
    material_field(ui, editor, id);
    groups_field(ui, editor, state, id);
}

/// RaiSim's collision group (0 to 63) and mask (the groups it may meet: numbers, `all` or
/// `none`), each applied at once: two bodies meet only if each one's mask holds the other's
/// group.
pub(super) fn groups_field(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    state: &mut UiState,
    id: BodyId,
) {
    let Some(groups) = editor.doc.world.body(id).map(|b| b.groups()) else {
        return;
    };
    let mut group = groups.group();
    ui.horizontal(|ui| {
        ui.label("Collision group");
        let changed = ui
            .add(egui::DragValue::new(&mut group).range(0..=63))
            .on_hover_text("the one group (0 to 63) the body belongs to")
            .changed();
        if changed && let Ok(g) = CollisionGroups::new(group.into(), groups.mask()) {
            editor.set_collision_groups(id, g);
        }
    });
    ui.horizontal(|ui| {
        ui.label("Collision mask");
        let shown = clasp_io::mask_text(groups.mask());
        let draft = match &mut state.mask_draft {
            Some((body, text)) if *body == id => text,
            slot => &mut slot.insert((id, shown.clone())).1,
        };
        let response = ui
            .add(egui::TextEdit::singleline(draft).desired_width(120.0))
            .on_hover_text(
                "the groups it may meet: numbers 0 to 63, \"all\" or \"none\"; it meets a body \
                 only if that body's mask holds its group too",
            );
        if response.lost_focus() {
            let typed = std::mem::take(draft);
            state.mask_draft = None;
            match clasp_io::parse_mask(&typed) {
                Ok(mask) => match CollisionGroups::new(group.into(), mask) {
                    Ok(g) => editor.set_collision_groups(id, g),
                    Err(e) => editor.error(e.to_string()),
                },
                Err(e) => editor.error(format!("collision mask: {e}")),
            }
        } else if !response.has_focus() {
            *draft = shown;
        }
    });
}

/// Position (mm) and roll, pitch, yaw (degrees) of a body, or of the palm of the robot that
/// moves it: a robot moves as a whole, and a robot mounted on an arm moves with the arm. Each
/// change moves toward the new pose and stops at contact.
pub(super) fn pose_fields(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState, id: BodyId) {
    let element = editor.doc.world.assembly_of(id.element());
    let pose = match element {
        Element::Robot(r) => editor.doc.world.robot(r).map(|robot| robot.pose()),
        Element::Body(_) => editor.doc.world.body(id).map(|body| body.pose()),
    };
    let Some(pose) = pose else {
        return;
    };
    if let Element::Robot(r) = element
        && id != (BodyId::Palm { robot: r })
        && let Some(robot) = editor.doc.world.robot(r)
    {
        ui.label(
            egui::RichText::new(format!(
                "{} moves with its robot: these fields place {}'s palm.",
                editor.doc.body_name(id),
                robot.name
            ))
            .small()
            .weak(),
        );
    }
    let (roll, pitch, yaw) = pose.rotation.euler_angles();
    let t = pose.translation.vector;
    let mut values = [
        t.x,
        t.y,
        t.z,
        roll.to_degrees(),
        pitch.to_degrees(),
        yaw.to_degrees(),
    ];
    let mut responses = Vec::with_capacity(6);
    egui::Grid::new("pose_fields")
        .num_columns(4)
        .show(ui, |ui| {
            ui.label("Position");
            for (value, axis) in values[..3].iter_mut().zip(["x ", "y ", "z "]) {
                responses.push(
                    ui.add(
                        egui::DragValue::new(value)
                            .speed(0.5)
                            .max_decimals(2)
                            .prefix(axis)
                            .suffix(" mm"),
                    ),
                );
            }
            ui.end_row();
            ui.label("Rotation");
            for (value, axis) in values[3..].iter_mut().zip(["roll ", "pitch ", "yaw "]) {
                responses.push(
                    ui.add(
                        egui::DragValue::new(value)
                            .speed(0.5)
                            .max_decimals(2)
                            .prefix(axis)
                            .suffix("°"),
                    ),
                );
            }
            ui.end_row();
        });
    for (i, response) in responses.iter().enumerate() {
        let edit = widget_edit(response, state, editor, "move");
        let rotation = if i < 3 {
            // Only the rotation fields turn it: no rounding through angles otherwise.
            pose.rotation
        } else {
            UnitQuaternion::from_euler_angles(
                values[3].to_radians(),
                values[4].to_radians(),
                values[5].to_radians(),
            )
        };
        let target = Pose::from_parts(Translation3::new(values[0], values[1], values[2]), rotation);
        match edit {
            Edit::Step => {
                editor.drag_element_to(element, target);
            }
            Edit::Whole => {
                editor.move_element(element, target);
            }
            Edit::None => {}
        }
        settle_widget_drag(response, state, editor);
    }
}

/// The material, with the friction each choice gives against what the body touches (or
/// against plastic when it touches nothing).
pub(super) fn material_field(ui: &mut egui::Ui, editor: &mut Editor, id: BodyId) {
    let Some(body) = editor.doc.world.body(id) else {
        return;
    };
    let current = body.material;
    let mut partners: Vec<(String, Material)> = Vec::new();
    for contact in editor.doc.world.contacts_of(id) {
        if let Some(other) = editor.doc.world.body(contact.other)
            && !partners.iter().any(|(name, _)| *name == other.name)
        {
            partners.push((other.name.clone(), other.material));
        }
    }
    let against = partners
        .first()
        .map_or(Material::Plastic, |&(_, material)| material);
    let mut chosen = current;
    ui.horizontal(|ui| {
        ui.label("Material");
        egui::ComboBox::from_id_salt("material")
            .selected_text(current.name())
            .show_ui(ui, |ui| {
                for material in Material::ALL {
                    ui.selectable_value(
                        &mut chosen,
                        material,
                        format!(
                            "{} (μ {:.2})",
                            material.name(),
                            material.static_friction(against)
                        ),
                    );
                }
            });
    });
    if partners.is_empty() {
        ui.label(format!(
            "μ {:.2} against plastic (touches nothing)",
            current.static_friction(Material::Plastic)
        ));
    } else {
        for (name, material) in &partners {
            ui.label(format!(
                "μ {:.2} against {name} ({material})",
                current.static_friction(*material)
            ));
        }
    }
    if chosen != current {
        editor.set_material(id, chosen);
    }
}
