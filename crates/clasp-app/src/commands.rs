//! Every user command, defined once: its name, its keys, and what it does in words. The menus,
//! the toolbar's tooltips, the F1 help and the keyboard all read this table, so no copy of a
//! shortcut can drift from another (the way rerun's `re_ui` keeps its commands).
//!
//! Shortcuts are off while egui wants the keyboard (a text or number field is being edited).

use bevy::prelude::*;

use clasp_core::RobotId;

use crate::{
    dialog::{self, file_dialogs::FileDialogs, purpose::DialogPurpose},
    editor::{requests::Editor, resources::Framing, resources::Selection},
    systems::ClaspSystems,
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
    Plan,
    NextGrasp,
    PreviousGrasp,
    SelectNone,
    PlayPause,
    StepOnce,
    TestGrasp,
}

/// A key with the modifiers held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortcut {
    pub modifiers: Modifiers,
    pub key: KeyCode,
}

/// One command: what it is called, its keys (the first is the one menus show), and what it
/// does, as the help and tooltips say it.
#[derive(Debug, Clone, Copy)]
pub struct Command {
    pub action: Action,
    pub name: &'static str,
    pub keys: &'static [Shortcut],
    pub help: &'static str,
}

const fn keys(modifiers: Modifiers, key: KeyCode) -> Shortcut {
    Shortcut { modifiers, key }
}

/// Every command with a key.
pub const COMMANDS: &[Command] = &[
    Command {
        action: Action::OpenWorld,
        name: "Open World…",
        keys: &[keys(Modifiers::CTRL, KeyCode::KeyO)],
        help: "open a world",
    },
    Command {
        action: Action::Save,
        name: "Save World",
        keys: &[keys(Modifiers::CTRL, KeyCode::KeyS)],
        help: "save the world (asks for a file the first time)",
    },
    Command {
        action: Action::SaveAs,
        name: "Save World As…",
        keys: &[keys(Modifiers::CTRL_SHIFT, KeyCode::KeyS)],
        help: "save the world as another file",
    },
    Command {
        action: Action::Undo,
        name: "Undo",
        keys: &[keys(Modifiers::CTRL, KeyCode::KeyZ)],
        help: "undo",
    },
    Command {
        action: Action::Redo,
        name: "Redo",
        keys: &[
            keys(Modifiers::CTRL_SHIFT, KeyCode::KeyZ),
            keys(Modifiers::CTRL, KeyCode::KeyY),
        ],
        help: "redo",
    },
    Command {
        action: Action::Delete,
        name: "Delete",
        keys: &[keys(Modifiers::NONE, KeyCode::Delete)],
        help: "delete the selected bodies and robots",
    },
    Command {
        action: Action::SelectNone,
        name: "Select None",
        keys: &[keys(Modifiers::NONE, KeyCode::Escape)],
        help: "clear the selection",
    },
    Command {
        action: Action::ViewAll,
        name: "View All",
        keys: &[keys(Modifiers::NONE, KeyCode::KeyF)],
        help: "view all",
    },
    Command {
        action: Action::ToggleHelp,
        name: "Gestures and shortcuts",
        keys: &[keys(Modifiers::NONE, KeyCode::F1)],
        help: "show or hide this help",
    },
    Command {
        action: Action::AutoGrasp,
        name: "Auto Grasp",
        keys: &[keys(Modifiers::CTRL, KeyCode::KeyG)],
        help: "auto grasp: close the selected robot's fingers (else the first hand's) until they touch",
    },
    Command {
        action: Action::AutoOpen,
        name: "Auto Open",
        keys: &[keys(Modifiers::CTRL_SHIFT, KeyCode::KeyG)],
        help: "auto open: open them again",
    },
    Command {
        action: Action::TestGrasp,
        name: "Test Grasp",
        keys: &[keys(Modifiers::CTRL, KeyCode::KeyT)],
        help: "the physics test of the grasp: the hand squeezes, gravity pulls the object along each axis in turn; held or not",
    },
    Command {
        action: Action::Plan,
        name: "Plan…",
        keys: &[keys(Modifiers::CTRL, KeyCode::KeyP)],
        help: "open the grasp planner (GraspIt's EigenGrasp planner) for the current hand",
    },
    Command {
        action: Action::NextGrasp,
        name: "Next planned grasp",
        keys: &[keys(Modifiers::NONE, KeyCode::Period)],
        help: "put the hand at the next grasp the planner found",
    },
    Command {
        action: Action::PreviousGrasp,
        name: "Previous planned grasp",
        keys: &[keys(Modifiers::NONE, KeyCode::Comma)],
        help: "put the hand at the previous grasp the planner found",
    },
    Command {
        action: Action::PlayPause,
        name: "Play / Pause",
        keys: &[keys(Modifiers::NONE, KeyCode::Space)],
        help: "play the dynamics (bodies fall, slide and rest; drag one to push) or pause them",
    },
    Command {
        action: Action::StepOnce,
        name: "Step",
        keys: &[keys(Modifiers::NONE, KeyCode::ArrowRight)],
        help: "pause and advance the dynamics one time step",
    },
];

impl Action {
    /// The command table's entry for this action.
    pub fn command(self) -> &'static Command {
        COMMANDS
            .iter()
            .find(|c| c.action == self)
            .expect("every action is in the command table")
    }
}

impl Command {
    /// Its keys as a user reads them: "Ctrl+Shift+Z, or Ctrl+Y".
    pub fn keys_text(&self) -> String {
        let texts: Vec<String> = self.keys.iter().map(Shortcut::text).collect();
        texts.join(", or ")
    }

    /// The key a menu shows beside the command.
    pub fn shortcut_text(&self) -> String {
        self.keys.first().map_or_else(String::new, Shortcut::text)
    }

    /// A tooltip: what it does, and its key.
    pub fn tooltip(&self) -> String {
        let mut help = self.help.to_owned();
        if let Some(first) = help.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        format!("{help} ({})", self.shortcut_text())
    }
}

impl Shortcut {
    /// "Ctrl+Shift+S", "F1", "Delete", "Esc".
    pub fn text(&self) -> String {
        let mut text = String::new();
        if self.modifiers.ctrl {
            text.push_str("Ctrl+");
        }
        if self.modifiers.shift {
            text.push_str("Shift+");
        }
        let key = match self.key {
            KeyCode::Escape => "Esc".to_owned(),
            KeyCode::Delete => "Delete".to_owned(),
            KeyCode::ArrowRight => "→".to_owned(),
            other => {
                let name = format!("{other:?}");
                name.strip_prefix("Key").unwrap_or(&name).to_owned()
            }
        };
        text + &key
    }
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

    /// The modifiers held this frame. One let go this frame still counts: on a slow frame a
    /// quick Ctrl+G arrives whole, Ctrl already released when the frame looks at G.
    pub fn of(keys: &ButtonInput<KeyCode>) -> Self {
        let held = |codes: &[KeyCode]| {
            codes
                .iter()
                .any(|&k| keys.pressed(k) || keys.just_released(k))
        };
        Self {
            ctrl: held(&[
                KeyCode::ControlLeft,
                KeyCode::ControlRight,
                KeyCode::SuperLeft,
                KeyCode::SuperRight,
            ]),
            shift: held(&[KeyCode::ShiftLeft, KeyCode::ShiftRight]),
            alt: held(&[KeyCode::AltLeft, KeyCode::AltRight]),
        }
    }
}

/// The action a key press with these modifiers asks for, if any.
pub fn action_for(key: KeyCode, modifiers: Modifiers) -> Option<Action> {
    let pressed = Shortcut { modifiers, key };
    COMMANDS
        .iter()
        .find(|c| c.keys.contains(&pressed))
        .map(|c| c.action)
}

/// The robot Auto Grasp and Auto Open act on: the selected one, else the world's current hand
/// (its first hand: an arm is passed over).
pub fn grasping_robot(world: &clasp_core::World, selection: &Selection) -> Option<RobotId> {
    selection.robot().or(world.current_hand())
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
        Action::SelectNone => {
            if !editor.selection.is_empty() {
                editor.clear_selection();
            }
        }
        Action::ToggleHelp => editor.view.help_shown = !editor.view.help_shown,
        Action::ViewAll => {
            editor.framing.0 = editor
                .doc
                .world
                .bounding_box()
                .map(|(lo, hi)| Framing::Bounds(lo, hi))
        }
        Action::Plan => editor.view.planner_shown = true,
        Action::NextGrasp | Action::PreviousGrasp => {
            editor.step_planned(action == Action::NextGrasp)
        }
        Action::PlayPause => editor.toggle_play(),
        Action::StepOnce => editor.step_once(),
        Action::TestGrasp => editor.start_grasp_test(),
        Action::AutoGrasp | Action::AutoOpen => {
            match grasping_robot(&editor.doc.world, &editor.selection) {
                Some(robot) => editor.auto_grasp(robot, action == Action::AutoGrasp),
                None => editor.error("there is no robot to grasp with: import one first"),
            }
        }
    }
}

pub struct CommandsPlugin;

impl Plugin for CommandsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            keyboard_shortcuts
                .run_if(not(bevy_egui::input::egui_wants_any_keyboard_input))
                .in_set(ClaspSystems::Requests),
        );
    }
}

fn keyboard_shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    mut editor: Editor,
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
            (KeyCode::Escape, Modifiers::NONE, Action::SelectNone),
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
            (KeyCode::Escape, Modifiers::CTRL),
            (KeyCode::KeyA, Modifiers::CTRL),
        ] {
            assert_eq!(action_for(key, modifiers), None, "{key:?} {modifiers:?}");
        }
    }

    #[test]
    fn every_action_has_one_entry_and_no_key_asks_for_two() {
        for (i, a) in COMMANDS.iter().enumerate() {
            assert_eq!(a.action.command().name, a.name);
            for b in &COMMANDS[i + 1..] {
                assert_ne!(a.action, b.action);
                assert!(
                    a.keys.iter().all(|k| !b.keys.contains(k)),
                    "{} and {}",
                    a.name,
                    b.name
                );
            }
        }
        assert_eq!(
            Action::Redo.command().keys_text(),
            "Ctrl+Shift+Z, or Ctrl+Y"
        );
        assert_eq!(Action::Delete.command().shortcut_text(), "Delete");
        assert_eq!(Action::SelectNone.command().shortcut_text(), "Esc");
        assert_eq!(Action::ToggleHelp.command().shortcut_text(), "F1");
        assert_eq!(
            Action::OpenWorld.command().tooltip(),
            "Open a world (Ctrl+O)"
        );
    }

    #[test]
    fn modifiers_are_read_from_either_side_of_the_keyboard() {
        let mut keys = ButtonInput::<KeyCode>::default();
        assert_eq!(Modifiers::of(&keys), Modifiers::NONE);
        keys.press(KeyCode::ControlRight);
        keys.press(KeyCode::ShiftLeft);
        assert_eq!(Modifiers::of(&keys), Modifiers::CTRL_SHIFT);
        keys.release_all();
        assert_eq!(
            Modifiers::of(&keys),
            Modifiers::CTRL_SHIFT,
            "let go this frame: still held for a key of the same frame"
        );
        // The next frame.
        keys.clear();
        assert_eq!(Modifiers::of(&keys), Modifiers::NONE);
        keys.press(KeyCode::SuperLeft);
        assert_eq!(
            Modifiers::of(&keys),
            Modifiers::CTRL,
            "Command counts as Ctrl"
        );
    }
}
