//! Before a world with unsaved edits is closed or another opened in its place, the app asks:
//! Save (Save As where the world has no file yet), Don't Save, or Cancel.
//!
//! Every way out passes here: Open World, Open Recent and a dropped world (all delivered as a
//! chosen file, read and checked first: the question comes once the new world is ready, and a
//! file that does not load asks nothing), File → Quit and the window's close button.

use std::path::PathBuf;

use bevy::{prelude::*, window::WindowCloseRequested};
use bevy_egui::{EguiContexts, egui};

use super::{file_dialogs::FileDialogs, loading::ReadyWorld, purpose::DialogPurpose};
use crate::editor::requests::Editor;

/// What the user asked for that would lose unsaved edits, waiting for an answer.
#[derive(Resource, Default)]
pub struct UnsavedPrompt {
    pub pending: Option<Leaving>,
    /// The world read for `Leaving::Open`, ready to take the place of the one open.
    ready: Option<ReadyWorld>,
}

/// Leaving the world as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Leaving {
    /// Another world (or recording) opens in its place.
    Open(PathBuf),
    /// The app closes.
    Quit,
}

/// The answers the prompt offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Save to the world's file, then go on; where it has none, Save As opens and the user
    /// stays (the edits are not saved until a file is chosen).
    Save,
    /// Go on, the edits lost.
    DontSave,
    /// Stay.
    Cancel,
}

impl UnsavedPrompt {
    /// Quit: asks first where the world has unsaved edits; otherwise true, to close now.
    pub fn quit(&mut self, editor: &mut Editor) -> bool {
        if editor.has_unsaved_edits() {
            self.pending = Some(Leaving::Quit);
            self.ready = None;
            return false;
        }
        true
    }

    /// A world read and checked would replace one with unsaved edits: ask.
    pub(super) fn ask(&mut self, ready: ReadyWorld) {
        self.pending = Some(Leaving::Open(ready.path().to_path_buf()));
        self.ready = Some(ready);
    }

    /// The user's answer to the question asked; true when the app should close now.
    pub fn answer(
        &mut self,
        answer: Answer,
        editor: &mut Editor,
        dialogs: &mut FileDialogs,
    ) -> bool {
        let Some(leave) = self.pending.take() else {
            return false;
        };
        let ready = self.ready.take();
        let go = |editor: &mut Editor| match leave {
            Leaving::Open(_) => {
                if let Some(ready) = ready {
                    ready.open(editor);
                }
                false
            }
            Leaving::Quit => true,
        };
        match answer {
            Answer::Cancel => false,
            Answer::DontSave => go(editor),
            Answer::Save if editor.doc.path.is_none() => {
                dialogs.request(DialogPurpose::SaveAs);
                false
            }
            // A save that fails is reported, and the world stays open with its edits.
            Answer::Save => editor.save(None) && go(editor),
        }
    }
}

/// The window's close button asks as File → Quit does.
pub(super) fn ask_before_closing(
    mut closes: MessageReader<WindowCloseRequested>,
    mut prompt: ResMut<UnsavedPrompt>,
    mut editor: Editor,
    mut exit: MessageWriter<AppExit>,
) {
    if closes.read().count() == 0 {
        return;
    }
    if prompt.quit(&mut editor) {
        exit.write(AppExit::Success);
    }
}

/// The question, while one is pending.
pub(super) fn show_prompt(
    mut contexts: EguiContexts,
    mut prompt: ResMut<UnsavedPrompt>,
    mut dialogs: ResMut<FileDialogs>,
    mut editor: Editor,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let Some(leave) = prompt.pending.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let name = editor
        .doc
        .path
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or_else(
            || "This world".to_owned(),
            |n| n.to_string_lossy().into_owned(),
        );
    let going = match leave {
        Leaving::Open(_) => "before another world opens",
        Leaving::Quit => "before Clasp closes",
    };
    let save = match editor.doc.path {
        Some(_) => "Save",
        None => "Save As…",
    };
    let modal = egui::Modal::new(egui::Id::new("unsaved edits")).show(ctx, |ui| {
        ui.heading("Unsaved edits");
        ui.label(format!(
            "{name} has edits that are not saved. Save them {going}?"
        ));
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let mut answer = None;
            if ui.button(save).clicked() {
                answer = Some(Answer::Save);
            }
            if ui.button("Don't Save").clicked() {
                answer = Some(Answer::DontSave);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(Answer::Cancel);
            }
            answer
        })
        .inner
    });
    let answer = match modal.inner {
        Some(answer) => answer,
        // Escape or a click beside the question cancels it.
        None if modal.should_close() => Answer::Cancel,
        None => return Ok(()),
    };
    if prompt.answer(answer, &mut editor, &mut dialogs) {
        exit.write(AppExit::Success);
    }
    Ok(())
}
