//! The egui panels: the body list on the left, the status bar at the bottom. The 3D view is
//! fitted into the space they leave, so picking and framing see only the visible part.

use bevy::{
    camera::{CameraOutputMode, Viewport, visibility::RenderLayers},
    prelude::*,
    render::render_resource::BlendState,
    window::PrimaryWindow,
};
use bevy_egui::{
    EguiContexts, EguiGlobalSettings, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};
use clasp_core::{BodyId, BodyKind};

use crate::{camera::OrbitCamera, editor::Editor};

pub const GESTURES: &str =
    "Click: select · Esc: clear · Left drag: orbit · Middle or Shift+left drag: pan · Wheel: zoom";

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .add_systems(Startup, spawn_ui_camera)
            .add_systems(EguiPrimaryContextPass, panels);
    }
}

/// egui draws through a camera of its own, so the 3D camera's viewport can shrink to the
/// space between the panels.
fn spawn_ui_camera(mut commands: Commands, mut settings: ResMut<EguiGlobalSettings>) {
    settings.auto_create_primary_context = false;
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

fn panels(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    mut camera: Query<&mut Camera, With<OrbitCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let bottom = egui::Panel::bottom("status")
        .show(&mut root, |ui| status_bar(ui, &editor))
        .response
        .rect
        .height();
    let left = egui::Panel::left("bodies")
        .resizable(true)
        .default_size(230.0)
        .show(&mut root, |ui| body_list(ui, &mut editor))
        .response
        .rect
        .width();
    if let (Ok(mut camera), Ok(window)) = (camera.single_mut(), window.single()) {
        camera.viewport = viewport_between(window, left, bottom);
    }
    Ok(())
}

/// The physical rectangle right of the left panel and above the status bar.
fn viewport_between(window: &Window, left: f32, bottom: f32) -> Option<Viewport> {
    let scale = window.scale_factor();
    let size = UVec2::new(window.physical_width(), window.physical_height());
    let position = UVec2::new((left * scale) as u32, 0);
    let used = UVec2::new(position.x, (bottom * scale) as u32);
    // A window shrunk below the panels keeps the full-window view rather than none.
    (size.x > used.x && size.y > used.y).then(|| Viewport {
        physical_position: position,
        physical_size: size - used,
        ..default()
    })
}

fn body_list(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Bodies");
    ui.label(egui::RichText::new(&editor.source).small().weak());
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        let ids = editor.world.body_ids();
        let robots: Vec<String> = editor.world.robots.iter().map(|r| r.name.clone()).collect();
        for (r, robot) in robots.iter().enumerate() {
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
            let ids: Vec<BodyId> = (0..editor.world.bodies.len())
                .map(BodyId::Free)
                .filter(|&id| editor.world.body(id).is_some_and(|b| b.kind == kind))
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

fn body_row(ui: &mut egui::Ui, editor: &mut Editor, id: BodyId) {
    let Some(body) = editor.world.body(id) else {
        return;
    };
    let row = ui
        .selectable_label(editor.selection.contains(&id), &body.name)
        .on_hover_text(format!("{}, {}", body.kind.name(), body.material));
    if row.clicked() {
        let shift = ui.input(|i| i.modifiers.shift);
        editor.click_body(id, shift);
    }
}

fn status_bar(ui: &mut egui::Ui, editor: &Editor) {
    ui.horizontal(|ui| {
        ui.label(GESTURES);
        ui.separator();
        let selected: Vec<&str> = editor
            .selection
            .iter()
            .filter_map(|&id| editor.world.body(id))
            .map(|b| b.name.as_str())
            .collect();
        if selected.is_empty() {
            ui.label("Nothing selected");
        } else {
            ui.label(format!("Selected: {}", selected.join(", ")));
        }
        if let Some(last) = editor.log.iter().rev().find(|e| e.error) {
            ui.separator();
            ui.colored_label(egui::Color32::from_rgb(255, 140, 90), &last.text);
        }
    });
}
