//! The egui interface: the menu bar and the toolbar at the top, the body list on the left, the
//! inspector (body, robot, contacts and grasp quality) on the right, the status bar and the log
//! at the bottom, error notifications and the F1 help. The 3D view is fitted into the space the
//! panels leave, so picking and framing see only the visible part.

use bevy::{
    camera::{CameraOutputMode, Viewport, visibility::RenderLayers},
    ecs::system::SystemParam,
    prelude::*,
    render::render_resource::BlendState,
    window::PrimaryWindow,
};
use bevy_egui::{
    EguiContexts, EguiGlobalSettings, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};

use crate::{
    camera::OrbitCamera,
    capture::ControlPositions,
    dialog::{file_dialogs::FileDialogs, unsaved::UnsavedPrompt},
    editor::requests::Editor,
};

mod bodies;
mod contacts;
mod grasp_test;
mod hand_settings;
mod help;
mod inspector;
mod menus;
mod notifications;
mod planner;
mod plot;
mod progress;
mod robot;
mod state;
mod status;
mod style;
mod timeline;
mod widgets;

use bodies::*;
pub use contacts::*;
use grasp_test::grasp_test_window;
pub use help::*;
use inspector::*;
pub use menus::*;
pub use notifications::*;
use planner::*;
use plot::plot_window;
pub use progress::*;
pub use robot::*;
pub use state::UiState;
pub use status::*;
use timeline::timeline_bar;

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .init_resource::<UiState>()
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

/// What the panels change: the editor, the file dialogs, the interface's own state, and the
/// controls' positions for scripts.
#[derive(SystemParam)]
struct PanelState<'w> {
    editor: Editor<'w>,
    dialogs: ResMut<'w, FileDialogs>,
    state: ResMut<'w, UiState>,
    controls: ResMut<'w, ControlPositions>,
    loads: ResMut<'w, crate::dialog::loading::Loads>,
    prompt: ResMut<'w, UnsavedPrompt>,
    frames: Res<'w, crate::frame_rate::FrameTimes>,
}

fn panels(
    mut contexts: EguiContexts,
    panel_state: PanelState,
    mut camera: Query<&mut Camera, With<OrbitCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
    // The app's clock, not the wall's: under test it advances a fixed step a frame, so
    // notifications last the same number of frames however busy the machine is.
    time: Res<Time>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let PanelState {
        mut editor,
        mut dialogs,
        mut state,
        mut controls,
        mut loads,
        mut prompt,
        frames,
    } = panel_state;
    let ctx = contexts.ctx_mut()?.clone();
    let state = &mut *state;
    let editor = &mut editor;
    let dialogs = &mut *dialogs;
    state.drag_held = false;
    state.threshold_field = None;
    state.approach_toggle = None;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("menu").show(&mut root, |ui| {
        if menu_bar(ui, editor, dialogs, state) && prompt.quit(editor) {
            exit.write(AppExit::Success);
        }
    });
    let toolbar_rects = egui::Panel::top("toolbar")
        .show(&mut root, |ui| toolbar(ui, editor, dialogs))
        .inner;
    let frame_rate = frames.rate().filter(|_| editor.view.frame_rate_shown);
    egui::Panel::bottom("status").show(&mut root, |ui| status_bar(ui, editor, state, frame_rate));
    if editor
        .timeline_position()
        .is_some_and(|(first, last, _)| last > first)
    {
        egui::Panel::bottom("timeline").show(&mut root, |ui| timeline_bar(ui, editor));
    }
    if state.log_open {
        egui::Panel::bottom("log")
            .resizable(true)
            .default_size(150.0)
            .show(&mut root, |ui| log_panel(ui, editor, state));
    }
    egui::Panel::left("bodies")
        .resizable(true)
        .default_size(230.0)
        .show(&mut root, |ui| body_list(ui, editor));
    egui::Panel::right("inspector")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("inspector_scroll")
                .auto_shrink([false, false])
                .show(ui, |ui| inspector(ui, editor, state));
        });
    let view = root.available_rect_before_wrap();
    // A widget's drag that nothing holds any more (its panel closed) ends here.
    if state.drag_owner.is_some() && !state.drag_held {
        state.drag_owner = None;
        editor.end_drag();
    }

    let now = time.elapsed_secs_f64();
    state.toasts.update(&editor.log, now);
    show_toasts(&ctx, view, &state.toasts, now);
    show_progress(&ctx, view, &mut loads, editor, now);
    help_window(&ctx, editor);
    plot_window(&ctx, editor);
    grasp_test_window(&ctx, editor);
    let planner = match editor.view.planner_shown {
        true => planner_window(&ctx, editor, now),
        false => PlannerRects::default(),
    };

    if let (Ok(mut camera), Ok(window)) = (camera.single_mut(), window.single()) {
        let screen = ctx.viewport_rect();
        let insets = Insets {
            left: view.min.x - screen.min.x,
            top: view.min.y - screen.min.y,
            right: screen.max.x - view.max.x,
            bottom: screen.max.y - view.max.y,
        };
        // egui points to logical window pixels, for scripts that press controls.
        let to_window = ctx.pixels_per_point() / window.scale_factor();
        let centre = |rect: egui::Rect| {
            let c = rect.center() * to_window;
            Some([c.x, c.y])
        };
        let shown = ControlPositions {
            toggle_collision: centre(toolbar_rects.toggle_collision),
            play: centre(toolbar_rects.play),
            import_object: centre(toolbar_rects.import_object),
            view_menu: state.view_menu.and_then(centre),
            contact_threshold: state.threshold_field.and_then(centre),
            approach_toggle: state.approach_toggle.and_then(centre),
            plan_button: planner.plan_button.and_then(centre),
            planned_grasps: planner.rows.into_iter().filter_map(centre).collect(),
        };
        // Only a real change touches the resource: scripts read it when it changes.
        if *controls != shown {
            *controls = shown;
        }
        let size = UVec2::new(window.physical_width(), window.physical_height());
        let viewport = viewport_between(size, ctx.pixels_per_point(), insets);
        let rect =
            |v: &Option<Viewport>| v.as_ref().map(|v| (v.physical_position, v.physical_size));
        // Only a real change touches the camera: its change would be rendered again.
        if rect(&camera.viewport) != rect(&viewport) {
            camera.viewport = viewport;
        }
    }
    Ok(())
}

/// How far the panels reach in from each edge of the window, in egui points.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Insets {
    pub left: f32,
    pub right: f32,
    pub top: f32,
    pub bottom: f32,
}

/// The physical rectangle of a window of `size` pixels that the panels leave free, at
/// `scale` pixels per point.
pub fn viewport_between(size: UVec2, scale: f32, insets: Insets) -> Option<Viewport> {
    let px = |points: f32| (points.max(0.0) * scale).round() as u32;
    let position = UVec2::new(px(insets.left), px(insets.top));
    let used = position + UVec2::new(px(insets.right), px(insets.bottom));
    // A window shrunk below the panels keeps the full-window view rather than none.
    (size.x > used.x && size.y > used.y).then(|| Viewport {
        physical_position: position,
        physical_size: size - used,
        ..default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        commands::COMMANDS,
        editor::{resources::LogEntry, resources::QualityReport},
    };

    #[test]
    fn the_viewport_is_what_the_panels_leave_in_physical_pixels() {
        let insets = Insets {
            left: 230.0,
            right: 330.0,
            top: 50.0,
            bottom: 24.0,
        };
        let viewport = viewport_between(UVec2::new(2560, 1600), 2.0, insets).unwrap();
        assert_eq!(viewport.physical_position, UVec2::new(460, 100));
        assert_eq!(
            viewport.physical_size,
            UVec2::new(2560 - 460 - 660, 1600 - 100 - 48)
        );
        // Too small a window for the panels: the view keeps the whole window.
        assert!(viewport_between(UVec2::new(500, 100), 1.0, insets).is_none());
    }

    #[test]
    fn new_errors_become_notifications_that_fade_and_go() {
        let mut toasts = Toasts::default();
        let mut log = vec![
            LogEntry::new(false, "opened"),
            LogEntry::new(true, "bad.off: no faces"),
        ];
        toasts.update(&log, 10.0);
        assert_eq!(toasts.active.len(), 1);
        assert_eq!(toasts.active[0].text, "bad.off: no faces");
        // Seen entries do not come back.
        toasts.update(&log, 11.0);
        assert_eq!(toasts.active.len(), 1);
        assert_eq!(Toasts::opacity(&toasts.active[0], 12.0), 1.0);
        let fading = Toasts::opacity(&toasts.active[0], 15.5);
        assert!(fading > 0.4 && fading < 0.6, "{fading}");
        toasts.update(&log, 16.5);
        assert!(toasts.active.is_empty(), "gone after six seconds");
        // A cleared log starts counting again.
        log.clear();
        toasts.update(&log, 17.0);
        log.push(LogEntry::new(true, "again"));
        toasts.update(&log, 17.5);
        assert_eq!(toasts.active.len(), 1);
        // Only the newest few show.
        for i in 0..10 {
            log.push(LogEntry::new(true, format!("error {i}")));
        }
        toasts.update(&log, 18.0);
        assert_eq!(toasts.active.len(), MAX_TOASTS);
        assert_eq!(toasts.active.last().unwrap().text, "error 9");
    }

    #[test]
    fn quality_reads_in_words() {
        let quality = |epsilon: Option<f64>, volume: Option<f64>| {
            QualityReport::Computed(clasp_core::Quality {
                wrench_space: clasp_core::WrenchSpaceKind::L1,
                force_closure: epsilon.is_some(),
                epsilon,
                volume,
                contacts: 5,
                wrenches: 40,
            })
        };
        assert_eq!(
            quality_text(&quality(Some(0.12204), Some(0.01023))),
            "Epsilon 0.1220, Volume 0.0102"
        );
        assert_eq!(
            quality_text(&quality(None, Some(0.0))),
            "Epsilon: not force-closure, Volume 0.0000"
        );
        assert_eq!(
            quality_text(&quality(Some(0.5), Some(2.0e-6))),
            "Epsilon 0.5000, Volume 2.000e-6"
        );
        assert_eq!(quality_text(&quality(Some(0.5), None)), "Epsilon 0.5000");
        assert_eq!(
            quality_text(&QualityReport::NoGrasp),
            "no grasp (needs a robot and a graspable body)"
        );
        assert!(quality_text(&QualityReport::Failed("no contacts".into())).contains("no contacts"));
    }

    #[test]
    fn the_help_lists_every_command_and_gesture() {
        let listed = gestures_and_shortcuts();
        for command in COMMANDS {
            assert!(
                listed.contains(&(command.keys_text(), command.help.to_owned())),
                "{} is missing",
                command.name
            );
        }
        let all = format!("{listed:?}");
        for shown in [
            "Shift+click",
            "Double-click",
            "Esc",
            "wheel",
            "Drop a file",
            "Ctrl+Y",
        ] {
            assert!(all.contains(shown), "{shown} is missing");
        }
        assert!(gestures_reminder().contains("F1: all gestures"));
    }

    #[test]
    fn undo_labels_say_what_they_undo() {
        assert_eq!(undo_label("Undo", Some("move")), "Undo move");
        assert_eq!(undo_label("Redo", None), "Redo");
    }
}
