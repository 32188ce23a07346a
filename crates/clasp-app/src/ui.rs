//! The egui interface: the menu bar and the toolbar at the top, the body list on the left, the
//! inspector (body, robot, contacts and grasp quality) on the right, the status bar and the log
//! at the bottom, error notifications and the F1 help. The 3D view is fitted into the space the
//! panels leave, so picking and framing see only the visible part.

use bevy::{
    camera::{CameraOutputMode, Viewport, visibility::RenderLayers},
    prelude::*,
    render::render_resource::BlendState,
    window::PrimaryWindow,
};
use bevy_egui::{
    EguiContexts, EguiGlobalSettings, EguiPlugin, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};
use clasp_core::{BodyId, BodyKind, CollisionGroups, Element, JointKind, Material, Pose, Robot};
use nalgebra::{Translation3, UnitQuaternion};

use crate::{
    camera::OrbitCamera,
    capture::ControlPositions,
    dialog::{DialogPurpose, FileDialogs, purpose_for_file},
    editor::{Editor, ImportKind, LogEntry, QualityReport},
    shortcuts::{Action, grasping_robot, perform},
};

/// The one-line reminder in the status bar.
pub const GESTURES: &str = "Click: select · Left drag: orbit · Middle or Shift+left drag: pan · \
                            Wheel: zoom · F1: all gestures and shortcuts";

/// Every gesture and shortcut, as the F1 help lists them: what to do, and what it does.
pub const GESTURES_AND_SHORTCUTS: &[(&str, &str)] = &[
    ("Click a body", "select it"),
    (
        "Shift+click a body",
        "add it to the selection, or take it out",
    ),
    ("Double-click a robot's body", "select the whole robot"),
    ("Click on empty space, or Esc", "clear the selection"),
    ("Left drag on empty space", "orbit the view"),
    ("Middle drag, or Shift+left drag", "pan the view"),
    ("Mouse wheel", "zoom"),
    (
        "Drag an arrow of the dragger",
        "move the selection along that axis",
    ),
    (
        "Drag a square of the dragger",
        "move the selection in that plane",
    ),
    (
        "Drag a ring of the dragger",
        "turn the selection about that axis",
    ),
    ("Drag the selected body itself", "move it in the view plane"),
    ("Drag a joint's disc", "turn a revolute DOF"),
    ("Drag a joint's arrow", "slide a prismatic DOF"),
    ("Ctrl+O", "open a world"),
    ("Ctrl+S", "save the world (asks for a file the first time)"),
    ("Ctrl+Shift+S", "save the world as another file"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Shift+Z, or Ctrl+Y", "redo"),
    ("Delete", "delete the selected bodies and robots"),
    ("F", "view all"),
    ("F1", "show or hide this help"),
    (
        "Ctrl+G",
        "auto grasp: close the selected robot's fingers (else the first robot's)",
    ),
    ("Ctrl+Shift+G", "auto open: open them again"),
    (
        "Drop a file on the window",
        "a world opens; a body, robot or mesh is imported",
    ),
];

/// How long an error notification stays, and the last part of it in which it fades, seconds.
const TOAST_SECONDS: f64 = 6.0;
const TOAST_FADE_SECONDS: f64 = 1.0;
/// At most this many notifications show at once; older ones give way.
const MAX_TOASTS: usize = 4;

const TOUCHING: egui::Color32 = egui::Color32::from_rgb(255, 150, 40);
const ERROR: egui::Color32 = egui::Color32::from_rgb(255, 110, 90);

pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .init_resource::<UiState>()
            .add_systems(Startup, spawn_ui_camera)
            .add_systems(EguiPrimaryContextPass, panels);
    }
}

/// What the interface remembers between frames.
#[derive(Resource, Default)]
pub struct UiState {
    /// The log panel is open.
    pub log_open: bool,
    pub toasts: Toasts,
    /// The widget whose drag is the editor's current drag (one undo step).
    drag_owner: Option<egui::Id>,
    /// Whether that widget was still held this frame.
    drag_held: bool,
    /// The contact threshold while its field is being dragged: applied when the drag ends.
    threshold_draft: Option<f64>,
    /// A collision mask being typed, for the body it belongs to: applied when the field
    /// loses focus.
    mask_draft: Option<(BodyId, String)>,
}

/// Error notifications: each new error in the log shows for a few seconds, then fades.
#[derive(Debug, Default)]
pub struct Toasts {
    /// Log entries already looked at.
    seen: usize,
    pub active: Vec<Toast>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    pub text: String,
    /// When it appeared, seconds.
    pub since: f64,
}

impl Toasts {
    /// Takes the log's new errors as notifications and drops the expired ones.
    pub fn update(&mut self, log: &[LogEntry], now: f64) {
        if log.len() < self.seen {
            // The log was cleared.
            self.seen = 0;
        }
        for entry in &log[self.seen..] {
            if entry.error {
                self.active.push(Toast {
                    text: entry.text.clone(),
                    since: now,
                });
            }
        }
        self.seen = log.len();
        self.active.retain(|t| now - t.since < TOAST_SECONDS);
        let extra = self.active.len().saturating_sub(MAX_TOASTS);
        self.active.drain(..extra);
    }

    /// The log was cleared: nothing in it is new.
    pub fn forget_log(&mut self) {
        self.seen = 0;
    }

    /// 1 while a notification is fresh, falling to 0 over its last second.
    pub fn opacity(toast: &Toast, now: f64) -> f32 {
        let left = TOAST_SECONDS - (now - toast.since);
        (left / TOAST_FADE_SECONDS).clamp(0.0, 1.0) as f32
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

#[allow(clippy::too_many_arguments)]
fn panels(
    mut contexts: EguiContexts,
    mut editor: ResMut<Editor>,
    mut dialogs: ResMut<FileDialogs>,
    mut state: ResMut<UiState>,
    mut camera: Query<&mut Camera, With<OrbitCamera>>,
    window: Query<&Window, With<PrimaryWindow>>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
    mut controls: ResMut<ControlPositions>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let state = &mut *state;
    let editor = &mut *editor;
    let dialogs = &mut *dialogs;
    state.drag_held = false;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("menu").show(&mut root, |ui| {
        if menu_bar(ui, editor, dialogs, state) {
            exit.write(AppExit::Success);
        }
    });
    let toggle = egui::Panel::top("toolbar")
        .show(&mut root, |ui| toolbar(ui, editor, dialogs))
        .inner;
    egui::Panel::bottom("status").show(&mut root, |ui| status_bar(ui, editor, state));
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
    help_window(&ctx, editor);

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
        let centre = toggle.center() * to_window;
        let position = Some([centre.x, centre.y]);
        if controls.toggle_collision != position {
            controls.toggle_collision = position;
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

// ---- menus and toolbar ----

/// The menu bar; true when Quit was chosen.
fn menu_bar(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    dialogs: &mut FileDialogs,
    state: &mut UiState,
) -> bool {
    let mut quit = false;
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            quit = file_menu(ui, editor, dialogs);
        });
        ui.menu_button("Edit", |ui| edit_menu(ui, editor, dialogs));
        ui.menu_button("View", |ui| view_menu(ui, editor, dialogs, state));
        ui.menu_button("Grasp", |ui| grasp_menu(ui, editor, dialogs));
        ui.menu_button("Help", |ui| {
            if ui
                .add(egui::Button::new("Gestures and shortcuts").shortcut_text("F1"))
                .clicked()
            {
                editor.view.help_shown = true;
            }
        });
    });
    quit
}

fn item(ui: &mut egui::Ui, text: &str, shortcut: &str) -> bool {
    ui.add(egui::Button::new(text).shortcut_text(shortcut))
        .clicked()
}

fn file_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) -> bool {
    if item(ui, "Open World…", "Ctrl+O") {
        perform(Action::OpenWorld, editor, dialogs);
    }
    ui.separator();
    for (text, kind) in [
        ("Import Object…", ImportKind::Object),
        ("Import Obstacle…", ImportKind::Obstacle),
        ("Import Robot…", ImportKind::Robot),
    ] {
        if ui.button(text).clicked() {
            dialogs.request(DialogPurpose::Import(kind));
        }
    }
    ui.separator();
    if item(ui, "Save World", "Ctrl+S") {
        perform(Action::Save, editor, dialogs);
    }
    if item(ui, "Save World As…", "Ctrl+Shift+S") {
        perform(Action::SaveAs, editor, dialogs);
    }
    ui.separator();
    ui.add_enabled_ui(!editor.recent.is_empty(), |ui| {
        ui.menu_button("Open Recent", |ui| {
            for path in editor.recent.clone() {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                if ui
                    .button(name)
                    .on_hover_text(path.display().to_string())
                    .clicked()
                {
                    // Worlds open; bodies, robots and meshes are imported.
                    dialogs.deliver(purpose_for_file(&path), path);
                }
            }
        });
    });
    ui.separator();
    ui.button("Quit").clicked()
}

fn edit_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) {
    let undo = undo_label("Undo", editor.can_undo());
    let redo = undo_label("Redo", editor.can_redo());
    if ui
        .add_enabled(
            editor.can_undo().is_some(),
            egui::Button::new(undo).shortcut_text("Ctrl+Z"),
        )
        .clicked()
    {
        perform(Action::Undo, editor, dialogs);
    }
    if ui
        .add_enabled(
            editor.can_redo().is_some(),
            egui::Button::new(redo).shortcut_text("Ctrl+Shift+Z"),
        )
        .clicked()
    {
        perform(Action::Redo, editor, dialogs);
    }
    ui.separator();
    let any = !editor.selection.is_empty();
    if ui
        .add_enabled(any, egui::Button::new("Delete").shortcut_text("Del"))
        .clicked()
    {
        perform(Action::Delete, editor, dialogs);
    }
    if ui
        .add_enabled(any, egui::Button::new("Select None").shortcut_text("Esc"))
        .clicked()
    {
        editor.clear_selection();
    }
}

/// "Undo move", or plain "Undo" when there is nothing to undo.
pub fn undo_label(verb: &str, what: Option<&str>) -> String {
    match what {
        Some(what) => format!("{verb} {what}"),
        None => verb.to_string(),
    }
}

fn view_menu(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    dialogs: &mut FileDialogs,
    state: &mut UiState,
) {
    if item(ui, "View All", "F") {
        perform(Action::ViewAll, editor, dialogs);
    }
    ui.separator();
    ui.checkbox(&mut editor.view.wireframe, "Wireframe");
    ui.checkbox(&mut editor.view.transparent, "Transparency");
    ui.checkbox(&mut editor.view.contacts_shown, "Contacts");
    ui.separator();
    ui.add(
        egui::Slider::new(&mut editor.view.cone_height, 2.0..=100.0)
            .text("Cone size")
            .suffix(" mm"),
    )
    .on_hover_text("Height of the friction cones that mark contacts");
    ui.horizontal(|ui| {
        ui.label("Contact threshold");
        threshold_field(ui, editor, state);
    });
}

/// The contact threshold, mm: typed values apply at once, a dragged one when the drag ends.
fn threshold_field(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    let current = editor.world.settings().contact_threshold;
    let mut value = state.threshold_draft.unwrap_or(current);
    let response = ui
        .add(
            egui::DragValue::new(&mut value)
                .speed(0.005)
                .range(0.001..=20.0)
                .clamp_existing_to_range(false)
                .max_decimals(3)
                .suffix(" mm"),
        )
        .on_hover_text("Bodies closer than this are in contact");
    if response.dragged() {
        if response.changed() {
            state.threshold_draft = Some(value);
        }
    } else if let Some(draft) = state.threshold_draft.take() {
        if draft != current {
            editor.set_contact_threshold(draft);
        }
    } else if response.changed() && value != current {
        editor.set_contact_threshold(value);
    }
}

fn grasp_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) {
    let robot = grasping_robot(editor);
    let hover = robot.map_or("there is no robot".into(), |r| {
        format!("{}'s fingers", editor.world.robot(r).unwrap().name)
    });
    if ui
        .add_enabled(
            robot.is_some(),
            egui::Button::new("Auto Grasp").shortcut_text("Ctrl+G"),
        )
        .on_hover_text(format!("Close {hover} until contact"))
        .clicked()
    {
        perform(Action::AutoGrasp, editor, dialogs);
    }
    if ui
        .add_enabled(
            robot.is_some(),
            egui::Button::new("Auto Open").shortcut_text("Ctrl+Shift+G"),
        )
        .on_hover_text(format!("Open {hover}"))
        .clicked()
    {
        perform(Action::AutoOpen, editor, dialogs);
    }
}

/// The toolbar; gives where the Toggle Collision button is.
fn toolbar(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) -> egui::Rect {
    ui.horizontal(|ui| {
        if ui
            .button("Open")
            .on_hover_text("Open a world (Ctrl+O)")
            .clicked()
        {
            perform(Action::OpenWorld, editor, dialogs);
        }
        if ui
            .button("Import Object")
            .on_hover_text("Add a body to grasp: GraspIt XML, URDF or a mesh")
            .clicked()
        {
            dialogs.request(DialogPurpose::Import(ImportKind::Object));
        }
        if ui
            .button("Import Robot")
            .on_hover_text("Add a robot: GraspIt robot XML or URDF")
            .clicked()
        {
            dialogs.request(DialogPurpose::Import(ImportKind::Robot));
        }
        if ui
            .button("Save")
            .on_hover_text("Save the world (Ctrl+S)")
            .clicked()
        {
            perform(Action::Save, editor, dialogs);
        }
        ui.separator();
        let on = editor.collisions_on();
        let button = egui::Button::new(collision_button_label(editor)).selected(!on);
        let toggle = ui
            .add(button)
            .on_hover_text(collision_button_tooltip(editor));
        if toggle.clicked() {
            editor.toggle_collisions();
        }
        ui.separator();
        let undo = undo_label("Undo", editor.can_undo());
        if ui
            .add_enabled(editor.can_undo().is_some(), egui::Button::new("Undo"))
            .on_hover_text(format!("{undo} (Ctrl+Z)"))
            .on_disabled_hover_text("Nothing to undo")
            .clicked()
        {
            perform(Action::Undo, editor, dialogs);
        }
        let redo = undo_label("Redo", editor.can_redo());
        if ui
            .add_enabled(editor.can_redo().is_some(), egui::Button::new("Redo"))
            .on_hover_text(format!("{redo} (Ctrl+Shift+Z)"))
            .on_disabled_hover_text("Nothing to redo")
            .clicked()
        {
            perform(Action::Redo, editor, dialogs);
        }
        ui.separator();
        let robot = grasping_robot(editor).is_some();
        if ui
            .add_enabled(robot, egui::Button::new("Auto Grasp"))
            .on_hover_text("Close the fingers until contact (Ctrl+G)")
            .clicked()
        {
            perform(Action::AutoGrasp, editor, dialogs);
        }
        if ui
            .add_enabled(robot, egui::Button::new("Auto Open"))
            .on_hover_text("Open the fingers (Ctrl+Shift+G)")
            .clicked()
        {
            perform(Action::AutoOpen, editor, dialogs);
        }
        toggle.rect
    })
    .inner
}

/// The Toggle Collision button's label for the current selection, as GraspIt words it.
pub fn collision_button_label(editor: &Editor) -> &'static str {
    if editor.collisions_on() {
        "Collisions ON"
    } else {
        "Collisions OFF"
    }
}

/// What the Toggle Collision button switches for the current selection.
pub fn collision_button_tooltip(editor: &Editor) -> String {
    let elements = editor.selected_elements();
    let names: Vec<String> = elements.iter().map(|&e| element_name(editor, e)).collect();
    let what = match names.as_slice() {
        [] => "collision checking for the whole world (nothing is selected)".to_string(),
        [a] => format!("collisions of {a} against everything"),
        [a, b] => format!("collisions between {a} and {b} only"),
        more => format!(
            "collisions of each of the {} selected elements against everything",
            more.len()
        ),
    };
    let now = if editor.collisions_on() { "on" } else { "off" };
    format!("Switches {what}; now {now}")
}

/// The world's robot when it has exactly one.
fn only_robot(world: &clasp_core::World) -> Option<usize> {
    let mut robots = world.robots();
    match (robots.next(), robots.next()) {
        (Some((r, _)), None) => Some(r),
        _ => None,
    }
}

fn element_name(editor: &Editor, element: Element) -> String {
    match element {
        Element::Body(i) => editor.world.free_body(i).map(|b| b.name.clone()),
        Element::Robot(r) => editor.world.robot(r).map(|r| r.name.clone()),
    }
    .unwrap_or_else(|| "?".into())
}

// ---- left: the body list ----

fn body_list(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.heading("Bodies");
    ui.label(egui::RichText::new(&editor.source).small().weak());
    ui.separator();
    egui::ScrollArea::vertical().show(ui, |ui| {
        let ids = editor.world.body_ids();
        let robots: Vec<(usize, String)> = editor
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

fn body_row(ui: &mut egui::Ui, editor: &mut Editor, id: BodyId) {
    let Some(body) = editor.world.body(id) else {
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

// ---- right: the inspector ----

/// What a widget's change asks of the editor.
enum Edit {
    None,
    /// One step of a drag: the drag is one undo step.
    Step,
    /// A whole change (typed, or a click): one undo step of its own.
    Whole,
}

/// Turns a widget's response into drag steps or a whole change, opening the editor's drag
/// when the widget's drag begins. Call [`settle_widget_drag`] after applying the edit.
fn widget_edit(
    response: &egui::Response,
    state: &mut UiState,
    editor: &mut Editor,
    what: &str,
) -> Edit {
    let held = is_held(response);
    let owner = state.drag_owner == Some(response.id);
    if owner {
        state.drag_held = true;
    }
    if !response.changed() {
        return Edit::None;
    }
    if !held && !owner {
        return Edit::Whole;
    }
    // A change while held, or the last one as the drag stops: part of the drag.
    if !owner {
        if state.drag_owner.take().is_some() {
            editor.end_drag();
        }
        editor.begin_drag(what);
        state.drag_owner = Some(response.id);
        state.drag_held = true;
    }
    Edit::Step
}

/// Ends the editor's drag once the widget that opened it is let go: the whole drag is one
/// undo step.
fn settle_widget_drag(response: &egui::Response, state: &mut UiState, editor: &mut Editor) {
    if state.drag_owner == Some(response.id) && !is_held(response) {
        state.drag_owner = None;
        editor.end_drag();
    }
}

fn is_held(response: &egui::Response) -> bool {
    response.dragged() || response.is_pointer_button_down_on()
}

/// The body the inspector shows: the last one selected.
fn inspected_body(editor: &Editor) -> Option<BodyId> {
    editor
        .selection
        .last()
        .copied()
        .filter(|&id| editor.world.body(id).is_some())
}

fn inspector(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    match inspected_body(editor) {
        Some(id) => body_section(ui, editor, state, id),
        None => {
            ui.heading("Inspector");
            ui.label(egui::RichText::new("Select a body to see and change it.").weak());
        }
    }
    let robot = editor.selected_robot().or(only_robot(&editor.world));
    if let Some(robot) = robot {
        ui.separator();
        robot_section(ui, editor, state, robot);
    }
    ui.separator();
    contacts_section(ui, editor);
}

fn body_section(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState, id: BodyId) {
    let Some(body) = editor.world.body(id) else {
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
        if let Some(r) = id.robot() {
            ui.label("Robot");
            ui.label(&editor.world.robot(r).unwrap().name);
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
        let switches = editor.world.switches();
        ui.label("Collisions");
        ui.label(format!(
            "{} for this body; world {}",
            on_off(switches.body_on(id)),
            on_off(switches.world_on())
        ));
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
fn groups_field(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState, id: BodyId) {
    let Some(groups) = editor.world.body(id).map(|b| b.groups()) else {
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

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// Position (mm) and roll, pitch, yaw (degrees) of a body, or of its robot's palm: a robot
/// moves as a whole. Each change moves toward the new pose and stops at contact.
fn pose_fields(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState, id: BodyId) {
    let element = id.element();
    let pose = match element {
        Element::Robot(r) => editor.world.robot(r).unwrap().pose(),
        Element::Body(_) => match editor.world.body(id) {
            Some(body) => body.pose(),
            None => return,
        },
    };
    if let (Element::Robot(r), Some(BodyKind::Link)) =
        (element, editor.world.body(id).map(|b| b.kind))
    {
        ui.label(
            egui::RichText::new(format!(
                "A link moves with its robot: these fields place {}'s palm.",
                editor.world.robot(r).unwrap().name
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
fn material_field(ui: &mut egui::Ui, editor: &mut Editor, id: BodyId) {
    let Some(body) = editor.world.body(id) else {
        return;
    };
    let current = body.material;
    let mut partners: Vec<(String, Material)> = Vec::new();
    for contact in editor.world.contacts_of(id) {
        if let Some(other) = editor.world.body(contact.other)
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

/// Whether a DOF turns joints (degrees shown) rather than sliding them (mm): the kind of the
/// first joint it drives.
pub fn dof_is_revolute(robot: &Robot, dof: usize) -> bool {
    robot
        .chains()
        .iter()
        .flat_map(|c| &c.joints)
        .find(|j| j.coupling.dof == dof)
        .is_none_or(|j| j.kind == JointKind::Revolute)
}

fn robot_section(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState, robot: usize) {
    let Some(r) = editor.world.robot(robot) else {
        return;
    };
    ui.heading(format!("Robot: {}", r.name));
    let count = r.dofs.len();
    let mut responses = Vec::with_capacity(count);
    egui::Grid::new(("dofs", robot))
        .num_columns(2)
        .show(ui, |ui| {
            for dof in 0..count {
                let r = editor.world.robot(robot).unwrap();
                let revolute = dof_is_revolute(r, dof);
                let (lo, hi) = r.dof_limits(dof);
                let to_shown = |v: f64| if revolute { v.to_degrees() } else { v };
                let mut shown = to_shown(r.dof_values()[dof]);
                let unit = if revolute { "°" } else { " mm" };
                ui.label(format!("DOF {dof}"));
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
    let kind = |t: clasp_core::BodyType| match t {
        clasp_core::BodyType::Static => "static",
        clasp_core::BodyType::Dynamic => "dynamic",
    };
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
            format!("{} / {}", kind(c.body_type), kind(c.other_type))
        },
        format!("{:.2}", c.static_friction),
    ]
}

fn contacts_section(ui: &mut egui::Ui, editor: &Editor) {
    ui.heading("Grasp quality");
    ui.label(quality_text(&editor.quality))
        .on_hover_text("Ferrari–Canny epsilon and volume of the L1 grasp wrench space");
    let contacts = listed_contacts(&editor.world);
    egui::CollapsingHeader::new(format!("Contacts ({})", contacts.len()))
        .id_salt("contacts")
        .default_open(true)
        .show(ui, |ui| {
            if contacts.is_empty() {
                ui.label(egui::RichText::new("Nothing touches.").weak());
                return;
            }
            let name = |id| editor.world.body(id).map_or("?", |b| b.name.as_str());
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

// ---- bottom: status bar and log ----

fn status_bar(ui: &mut egui::Ui, editor: &Editor, state: &mut UiState) {
    ui.horizontal(|ui| {
        let errors = editor.log.iter().filter(|e| e.error).count();
        let log_label = format!("Log ({})", editor.log.len());
        ui.toggle_value(&mut state.log_open, log_label)
            .on_hover_text(format!(
                "Show every message ({errors} error{})",
                if errors == 1 { "" } else { "s" }
            ));
        ui.separator();
        ui.label(selection_summary(editor));
        if let Some(touching) = &editor.touching {
            ui.separator();
            ui.label(
                egui::RichText::new(format!("touching: {touching}"))
                    .color(TOUCHING)
                    .strong(),
            );
        }
        ui.separator();
        let contacts = contact_count(&editor.world);
        ui.label(format!(
            "{contacts} contact{}",
            if contacts == 1 { "" } else { "s" }
        ));
        if !editor.world.switches().world_on() {
            ui.separator();
            ui.label(
                egui::RichText::new("Collisions OFF (world)")
                    .color(TOUCHING)
                    .strong(),
            );
        }
        if let Some(last) = editor.log.iter().rev().find(|e| e.error) {
            ui.separator();
            ui.colored_label(ERROR, &last.text);
        }
        ui.separator();
        ui.label(egui::RichText::new(GESTURES).weak());
    });
}

/// "Nothing selected", "Selected: clasp_mug", or the first few names and a count.
pub fn selection_summary(editor: &Editor) -> String {
    let names: Vec<&str> = editor
        .selection
        .iter()
        .filter_map(|&id| editor.world.body(id))
        .map(|b| b.name.as_str())
        .collect();
    match names.len() {
        0 => "Nothing selected".into(),
        1..=3 => format!("Selected: {}", names.join(", ")),
        n => format!("Selected: {}, … ({n} bodies)", names[..3].join(", ")),
    }
}

fn log_panel(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    ui.horizontal(|ui| {
        ui.strong("Log");
        if ui.button("Clear").clicked() {
            editor.log.clear();
            state.toasts.forget_log();
        }
        if ui.button("Close").clicked() {
            state.log_open = false;
        }
    });
    egui::ScrollArea::vertical()
        .id_salt("log_scroll")
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for entry in &editor.log {
                if entry.error {
                    ui.colored_label(ERROR, &entry.text);
                } else {
                    ui.label(&entry.text);
                }
            }
        });
}

// ---- floating: notifications and help ----

fn show_toasts(ctx: &egui::Context, view: egui::Rect, toasts: &Toasts, now: f64) {
    if toasts.active.is_empty() {
        return;
    }
    egui::Area::new(egui::Id::new("toasts"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::RIGHT_TOP)
        .fixed_pos(view.right_top() + egui::vec2(-12.0, 12.0))
        .interactable(false)
        .show(ctx, |ui| {
            // Right-aligned, each as wide as its text.
            ui.with_layout(egui::Layout::top_down(egui::Align::Max), |ui| {
                for toast in &toasts.active {
                    ui.scope(|ui| {
                        ui.multiply_opacity(Toasts::opacity(toast, now));
                        egui::Frame::popup(ui.style())
                            .fill(egui::Color32::from_rgb(70, 24, 20))
                            .stroke(egui::Stroke::new(1.0, ERROR))
                            .show(ui, |ui| {
                                ui.set_max_width(380.0);
                                ui.label(
                                    egui::RichText::new(&toast.text).color(egui::Color32::WHITE),
                                );
                            });
                    });
                    ui.add_space(6.0);
                }
            });
        });
}

fn help_window(ctx: &egui::Context, editor: &mut Editor) {
    if !editor.view.help_shown {
        return;
    }
    let mut open = true;
    egui::Window::new("Gestures and shortcuts")
        .id(egui::Id::new("help"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .show(ctx, |ui| {
            egui::Grid::new("help_grid")
                .striped(true)
                .num_columns(2)
                .show(ui, |ui| {
                    for (gesture, effect) in GESTURES_AND_SHORTCUTS {
                        ui.label(egui::RichText::new(*gesture).strong());
                        ui.label(*effect);
                        ui.end_row();
                    }
                });
            ui.add_space(6.0);
            ui.label(
                egui::RichText::new(
                    "Every move stops where bodies touch; Toggle Collision lets them pass.",
                )
                .weak(),
            );
        });
    editor.view.help_shown = open;
}

#[cfg(test)]
mod tests {
    use super::*;

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
            LogEntry {
                error: false,
                text: "opened".into(),
            },
            LogEntry {
                error: true,
                text: "bad.off: no faces".into(),
            },
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
        log.push(LogEntry {
            error: true,
            text: "again".into(),
        });
        toasts.update(&log, 17.5);
        assert_eq!(toasts.active.len(), 1);
        // Only the newest few show.
        for i in 0..10 {
            log.push(LogEntry {
                error: true,
                text: format!("error {i}"),
            });
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
    fn the_help_lists_every_shortcut() {
        let keys: Vec<&str> = GESTURES_AND_SHORTCUTS.iter().map(|(k, _)| *k).collect();
        for shortcut in [
            "Ctrl+O",
            "Ctrl+S",
            "Ctrl+Shift+S",
            "Ctrl+Z",
            "Ctrl+Shift+Z, or Ctrl+Y",
            "Delete",
            "F",
            "F1",
            "Ctrl+G",
            "Ctrl+Shift+G",
        ] {
            assert!(keys.contains(&shortcut), "{shortcut} is missing");
        }
        let all = format!("{GESTURES_AND_SHORTCUTS:?}");
        for gesture in ["Shift+click", "Double-click", "Esc", "wheel", "Drop a file"] {
            assert!(all.contains(gesture), "{gesture} is missing");
        }
    }

    #[test]
    fn undo_labels_say_what_they_undo() {
        assert_eq!(undo_label("Undo", Some("move")), "Undo move");
        assert_eq!(undo_label("Redo", None), "Redo");
    }
}
