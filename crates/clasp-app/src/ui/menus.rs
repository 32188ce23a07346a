//! The menu bar (File, Edit, View, Grasp, Simulate) and the toolbar, with the Toggle Collision
//! and Play buttons.

use super::state::UiState;
use crate::commands::{Action, grasping_robot, perform};
use crate::dialog::{file_dialogs::FileDialogs, purpose::DialogPurpose, purpose::purpose_for_file};
use crate::{editor::requests::Editor, files::ImportKind};
use bevy::prelude::*;
use bevy_egui::egui;

/// The menu bar; true when Quit was chosen.
pub(super) fn menu_bar(
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
        // A click in the View menu leaves it open: its checkboxes toggle one after another,
        // and a click on the threshold field starts typing there.
        let stays_open = egui::containers::menu::MenuConfig::new()
            .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
        let (view, _) = egui::containers::menu::MenuButton::new("View")
            .config(stays_open)
            .ui(ui, |ui| view_menu(ui, editor, dialogs, state));
        state.view_menu = Some(view.rect);
        ui.menu_button("Grasp", |ui| grasp_menu(ui, editor, dialogs));
        ui.menu_button("Simulate", |ui| simulate_menu(ui, editor, dialogs));
        ui.menu_button("Help", |ui| {
            if item(ui, Action::ToggleHelp) {
                editor.view.help_shown = true;
            }
        });
    });
    quit
}

/// A menu item for a command: its name and its key, from the command table.
pub(super) fn item(ui: &mut egui::Ui, action: Action) -> bool {
    enabled_item(ui, action, action.command().name, true)
}

/// A menu item for a command under another label ("Undo move"), enabled or not.
pub(super) fn enabled_item(ui: &mut egui::Ui, action: Action, label: &str, enabled: bool) -> bool {
    let command = action.command();
    ui.add_enabled(
        enabled,
        egui::Button::new(label).shortcut_text(command.shortcut_text()),
    )
    .clicked()
}

pub(super) fn file_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) -> bool {
    if item(ui, Action::OpenWorld) {
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
    if item(ui, Action::Save) {
        perform(Action::Save, editor, dialogs);
    }
    if item(ui, Action::SaveAs) {
        perform(Action::SaveAs, editor, dialogs);
    }
    let recorded = editor.timeline.len() > 1;
    if ui
        .add_enabled(recorded, egui::Button::new("Save Recording As…"))
        .on_hover_text("The timeline's moments as a recording: .clasprec (Clasp opens it) or .rrd (rerun's viewer)")
        .clicked()
    {
        dialogs.request(DialogPurpose::SaveRecording);
    }
    ui.separator();
    ui.add_enabled_ui(!editor.doc.recent.is_empty(), |ui| {
        ui.menu_button("Open Recent", |ui| {
            for path in editor.doc.recent.clone() {
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

pub(super) fn edit_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) {
    let undo = undo_label("Undo", editor.can_undo());
    let redo = undo_label("Redo", editor.can_redo());
    if enabled_item(ui, Action::Undo, &undo, editor.can_undo().is_some()) {
        perform(Action::Undo, editor, dialogs);
    }
    if enabled_item(ui, Action::Redo, &redo, editor.can_redo().is_some()) {
        perform(Action::Redo, editor, dialogs);
    }
    ui.separator();
    let any = !editor.selection.is_empty();
    for action in [Action::Delete, Action::SelectNone] {
        if enabled_item(ui, action, action.command().name, any) {
            perform(action, editor, dialogs);
        }
    }
}

/// "Undo move", or plain "Undo" when there is nothing to undo.
pub fn undo_label(verb: &str, what: Option<&str>) -> String {
    match what {
        Some(what) => format!("{verb} {what}"),
        None => verb.to_string(),
    }
}

pub(super) fn view_menu(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    dialogs: &mut FileDialogs,
    state: &mut UiState,
) {
    if item(ui, Action::ViewAll) {
        perform(Action::ViewAll, editor, dialogs);
        ui.close();
    }
    ui.separator();
    // The widgets edit a copy: the settings are written, and the scene redrawn, only when one
    // of them changes.
    let mut view = editor.view.clone();
    ui.checkbox(&mut view.wireframe, "Wireframe");
    ui.checkbox(&mut view.transparent, "Transparency");
    ui.checkbox(&mut view.contacts_shown, "Contacts");
    ui.checkbox(&mut view.virtual_contacts_shown, "Virtual contacts")
        .on_hover_text("The hands' predefined contact points (their virtual contact files)");
    let approach = ui
        .checkbox(&mut view.approach_shown, "Approach and closing")
        .on_hover_text(
            "Where each hand's palm faces (orange: its approach, from its file or worked out of \
             its kinematics) and which way Auto Grasp moves each fingertip (green)",
        );
    state.approach_toggle = Some(approach.rect);
    ui.checkbox(&mut view.frame_rate_shown, "Frame rate")
        .on_hover_text(
            "Frames a second and frame times over the last 1,000 frames, in the status bar",
        );
    ui.separator();
    ui.add(
        egui::Slider::new(&mut view.cone_height, 2.0..=100.0)
            .text("Cone size")
            .suffix(" mm"),
    )
    .on_hover_text("Height of the friction cones that mark contacts");
    if view != *editor.view {
        *editor.view = view;
    }
    ui.horizontal(|ui| {
        ui.label("Contact threshold");
        threshold_field(ui, editor, state);
    });
}

/// Play or Pause, Step, and what a run shows.
pub(super) fn simulate_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) {
    let label = play_label(editor);
    if enabled_item(ui, Action::PlayPause, label, true) {
        perform(Action::PlayPause, editor, dialogs);
        ui.close();
    }
    if item(ui, Action::StepOnce) {
        perform(Action::StepOnce, editor, dialogs);
    }
    ui.separator();
    let mut view = editor.view.clone();
    ui.checkbox(&mut view.forces_shown, "Contact forces")
        .on_hover_text(
            "An arrow per contact pushed in the last step; the largest is 1.5 cones long",
        );
    ui.checkbox(&mut view.plot_shown, "Plot of the selected body")
        .on_hover_text("Its height, speed and kinetic energy while the dynamics plays");
    if view != *editor.view {
        *editor.view = view;
    }
}

/// "Play" or "Pause", as the dynamics stands.
pub fn play_label(editor: &Editor) -> &'static str {
    match editor.simulation.playing {
        true => "Pause",
        false => "Play",
    }
}

/// The contact threshold, mm: a typed or dragged value applies when the typing or the drag ends.
pub(super) fn threshold_field(ui: &mut egui::Ui, editor: &mut Editor, state: &mut UiState) {
    let current = editor.doc.world.settings().contact_threshold;
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
    state.threshold_field = Some(response.rect);
    // While dragged or typed into, the value is a draft: contacts are found again, and an undo
    // step is made, once when the drag or the typing ends (Enter or a click elsewhere).
    if response.dragged() || response.has_focus() {
        if response.changed() {
            state.threshold_draft = Some(value);
        }
        return;
    }
    let draft = state.threshold_draft.take();
    let chosen = if response.changed() {
        Some(value)
    } else {
        draft
    };
    if let Some(threshold) = chosen.filter(|&t| t != current) {
        editor.set_contact_threshold(threshold);
    }
}

pub(super) fn grasp_menu(ui: &mut egui::Ui, editor: &mut Editor, dialogs: &mut FileDialogs) {
    let robot = grasping_robot(&editor.doc.world, &editor.selection);
    let hover = robot
        .and_then(|r| editor.doc.world.robot(r))
        .map_or("there is no robot".into(), |r| {
            format!("{}'s fingers", r.name)
        });
    for (action, verb) in [(Action::AutoGrasp, "Close"), (Action::AutoOpen, "Open")] {
        let command = action.command();
        let clicked = ui
            .add_enabled(
                robot.is_some(),
                egui::Button::new(command.name).shortcut_text(command.shortcut_text()),
            )
            .on_hover_text(format!("{verb} {hover}"))
            .clicked();
        if clicked {
            perform(action, editor, dialogs);
        }
    }
    ui.separator();
    let command = Action::Plan.command();
    let plan = ui
        .add_enabled(
            robot.is_some(),
            egui::Button::new(command.name).shortcut_text(command.shortcut_text()),
        )
        .on_hover_text("GraspIt's EigenGrasp planner: search for grasps of the object");
    if plan.clicked() {
        perform(Action::Plan, editor, dialogs);
    }
    let command = Action::TestGrasp.command();
    let testing = editor.grasp_test.running();
    let test = ui
        .add_enabled(
            robot.is_some() && !testing,
            egui::Button::new(command.name).shortcut_text(command.shortcut_text()),
        )
        .on_hover_text(command.tooltip());
    if test.clicked() {
        perform(Action::TestGrasp, editor, dialogs);
        ui.close();
    }
}

/// Where the toolbar's buttons a script presses are, egui points.
pub(super) struct ToolbarRects {
    pub play: egui::Rect,
    pub toggle_collision: egui::Rect,
    pub import_object: egui::Rect,
}

/// The toolbar; gives where the buttons a script presses are.
pub(super) fn toolbar(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    dialogs: &mut FileDialogs,
) -> ToolbarRects {
    ui.horizontal(|ui| {
        if ui
            .button("Open")
            .on_hover_text(Action::OpenWorld.command().tooltip())
            .clicked()
        {
            perform(Action::OpenWorld, editor, dialogs);
        }
        let import_object = ui
            .button("Import Object")
            .on_hover_text("Add a body to grasp: GraspIt XML, URDF or a mesh");
        if import_object.clicked() {
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
            .on_hover_text(Action::Save.command().tooltip())
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
        let key = Action::Undo.command().shortcut_text();
        if ui
            .add_enabled(editor.can_undo().is_some(), egui::Button::new("Undo"))
            .on_hover_text(format!("{undo} ({key})"))
            .on_disabled_hover_text("Nothing to undo")
            .clicked()
        {
            perform(Action::Undo, editor, dialogs);
        }
        let redo = undo_label("Redo", editor.can_redo());
        let key = Action::Redo.command().shortcut_text();
        if ui
            .add_enabled(editor.can_redo().is_some(), egui::Button::new("Redo"))
            .on_hover_text(format!("{redo} ({key})"))
            .on_disabled_hover_text("Nothing to redo")
            .clicked()
        {
            perform(Action::Redo, editor, dialogs);
        }
        ui.separator();
        let robot = grasping_robot(&editor.doc.world, &editor.selection).is_some();
        for action in [Action::AutoGrasp, Action::AutoOpen] {
            let command = action.command();
            if ui
                .add_enabled(robot, egui::Button::new(command.name))
                .on_hover_text(command.tooltip())
                .clicked()
            {
                perform(action, editor, dialogs);
            }
        }
        ui.separator();
        let play = ui
            .add(egui::Button::new(play_label(editor)).selected(editor.simulation.playing))
            .on_hover_text(Action::PlayPause.command().tooltip());
        if play.clicked() {
            perform(Action::PlayPause, editor, dialogs);
        }
        ToolbarRects {
            play: play.rect,
            toggle_collision: toggle.rect,
            import_object: import_object.rect,
        }
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
    let now = if editor.collisions_on() { "on" } else { "off" };
    format!(
        "Switches collisions of {}; now {now}",
        editor.collision_target()
    )
}
