//! Keyboard shortcuts, and the requests they share with the menus and the toolbar.
//!
//! Esc (clear the selection) lives with the selection. Shortcuts are off while egui wants the
//! keyboard (a text or number field is being edited).

use bevy::prelude::*;

use crate::{
    dialog::{self, DialogPurpose, FileDialogs},
    editor::Editor,
};

/// A request the keyboard, a menu or a button makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    OpenWorld,
    Save,
    SaveAs,
    Undo,
    Redo,
    Delete,
    ToggleHelp,
    ViewAll,
    AutoGrasp,
    AutoOpen,
}

/// Which modifier keys are held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Ctrl (or the Command/Super key).
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
}

impl Modifiers {
    pub const NONE: Self = Self {
        ctrl: false,
        shift: false,
        alt: false,
    };
    pub const CTRL: Self = Self {
        ctrl: true,
        shift: false,
        alt: false,
    };
    pub const CTRL_SHIFT: Self = Self {
        ctrl: true,
        shift: true,
        alt: false,
    };

    pub fn of(keys: &ButtonInput<KeyCode>) -> Self {
        Self {
            ctrl: keys.any_pressed([
                KeyCode::ControlLeft,
                KeyCode::ControlRight,
                KeyCode::SuperLeft,
                KeyCode::SuperRight,
            ]),
            shift: keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]),
            alt: keys.any_pressed([KeyCode::AltLeft, KeyCode::AltRight]),
        }
    }
}

/// The action a key press with these modifiers asks for, if any.
pub fn action_for(key: KeyCode, modifiers: Modifiers) -> Option<Action> {
    let Modifiers { ctrl, shift, alt } = modifiers;
    if alt {
        return None;
    }
    let action = match (ctrl, shift, key) {
        (true, false, KeyCode::KeyO) => Action::OpenWorld,
        (true, false, KeyCode::KeyS) => Action::Save,
        (true, true, KeyCode::KeyS) => Action::SaveAs,
        (true, false, KeyCode::KeyZ) => Action::Undo,
        (true, true, KeyCode::KeyZ) | (true, false, KeyCode::KeyY) => Action::Redo,
        (true, false, KeyCode::KeyG) => Action::AutoGrasp,
        (true, true, KeyCode::KeyG) => Action::AutoOpen,
        (false, false, KeyCode::Delete) => Action::Delete,
        (false, false, KeyCode::F1) => Action::ToggleHelp,
        (false, false, KeyCode::KeyF) => Action::ViewAll,
        _ => return None,
    };
    Some(action)
}

/// The robot Auto Grasp and Auto Open act on: the selected one, else the first.
pub fn grasping_robot(editor: &Editor) -> Option<usize> {
    editor
        .selected_robot()
        .or(editor.world.robots().next().map(|(r, _)| r))
}

/// Carries out an action. File actions only ask for a dialog; it opens on the next frame.
pub fn perform(action: Action, editor: &mut Editor, dialogs: &mut FileDialogs) {
    match action {
        Action::OpenWorld => dialogs.request(DialogPurpose::OpenWorld),
        Action::Save => dialog::save(editor, dialogs),
        Action::SaveAs => dialogs.request(DialogPurpose::SaveAs),
        Action::Undo => {
            if !editor.dragging() {
                editor.undo();
            }
        }
        Action::Redo => {
            if !editor.dragging() {
                editor.redo();
            }
        }
        Action::Delete => editor.delete_selection(),
        Action::ToggleHelp => editor.view.help_shown = !editor.view.help_shown,
        Action::ViewAll => editor.frame_request = editor.world.bounding_box(),
        Action::AutoGrasp | Action::AutoOpen => match grasping_robot(editor) {
            Some(robot) => editor.auto_grasp(robot, action == Action::AutoGrasp),
            None => editor.error("there is no robot to grasp with: import one first"),
        },
    }
}

pub struct ShortcutsPlugin;

impl Plugin for ShortcutsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            keyboard_shortcuts.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
        );
    }
}

fn keyboard_shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    mut editor: ResMut<Editor>,
    mut dialogs: ResMut<FileDialogs>,
) {
    let modifiers = Modifiers::of(&keys);
    let actions: Vec<Action> = keys
        .get_just_pressed()
        .filter_map(|&key| action_for(key, modifiers))
        .collect();
    for action in actions {
        perform(action, &mut editor, &mut dialogs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shortcut_asks_for_its_action() {
        let cases = [
            (KeyCode::KeyO, Modifiers::CTRL, Action::OpenWorld),
            (KeyCode::KeyS, Modifiers::CTRL, Action::Save),
            (KeyCode::KeyS, Modifiers::CTRL_SHIFT, Action::SaveAs),
            (KeyCode::KeyZ, Modifiers::CTRL, Action::Undo),
            (KeyCode::KeyZ, Modifiers::CTRL_SHIFT, Action::Redo),
            (KeyCode::KeyY, Modifiers::CTRL, Action::Redo),
            (KeyCode::KeyG, Modifiers::CTRL, Action::AutoGrasp),
            (KeyCode::KeyG, Modifiers::CTRL_SHIFT, Action::AutoOpen),
            (KeyCode::Delete, Modifiers::NONE, Action::Delete),
            (KeyCode::F1, Modifiers::NONE, Action::ToggleHelp),
            (KeyCode::KeyF, Modifiers::NONE, Action::ViewAll),
        ];
        for (key, modifiers, action) in cases {
            assert_eq!(
                action_for(key, modifiers),
                Some(action),
                "{key:?} {modifiers:?}"
            );
        }
    }

    #[test]
    fn other_combinations_ask_for_nothing() {
        let alt = Modifiers {
            alt: true,
            ..Modifiers::CTRL
        };
        let shift = Modifiers {
            shift: true,
            ..Modifiers::NONE
        };
        for (key, modifiers) in [
            (KeyCode::KeyO, Modifiers::NONE),
            (KeyCode::KeyZ, Modifiers::NONE),
            (KeyCode::KeyZ, alt),
            (KeyCode::KeyG, Modifiers::NONE),
            (KeyCode::KeyY, Modifiers::CTRL_SHIFT),
            (KeyCode::KeyF, Modifiers::CTRL),
            (KeyCode::KeyF, shift),
            (KeyCode::Delete, Modifiers::CTRL),
            (KeyCode::F1, Modifiers::CTRL),
            (KeyCode::Escape, Modifiers::NONE),
            (KeyCode::KeyA, Modifiers::CTRL),
        ] {
            assert_eq!(action_for(key, modifiers), None, "{key:?} {modifiers:?}");
        }
    }

    #[test]
    fn modifiers_are_read_from_either_side_of_the_keyboard() {
        let mut keys = ButtonInput::<KeyCode>::default();
        assert_eq!(Modifiers::of(&keys), Modifiers::NONE);
        keys.press(KeyCode::ControlRight);
        keys.press(KeyCode::ShiftLeft);
        assert_eq!(Modifiers::of(&keys), Modifiers::CTRL_SHIFT);
        keys.release_all();
        keys.press(KeyCode::SuperLeft);
        assert_eq!(
            Modifiers::of(&keys),
            Modifiers::CTRL,
            "Command counts as Ctrl"
        );
    }
}
