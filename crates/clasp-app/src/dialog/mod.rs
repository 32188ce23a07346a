//! File dialogs: the native one over the XDG portal, an in-app browser where none answers,
//! files dropped on the window, and the chosen files loading in the background.
//!
//! The native dialog runs on a task and is polled each frame, so the app never waits for it.
//! Where no portal answers (no session bus, `CLASP_FILE_BROWSER=1`, or a dialog that answers
//! "nothing chosen" before anyone could have looked at it) Clasp's own browser opens instead,
//! and keeps opening from then on.

use std::time::Duration;

use bevy::{
    prelude::*,
    tasks::{block_on, poll_once},
    window::FileDragAndDrop,
};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub mod browser;
pub mod file_dialogs;
pub mod loading;
pub mod purpose;
pub mod unsaved;

pub use browser::*;
pub use file_dialogs::FileDialogs;
pub use loading::*;
pub use purpose::*;

use crate::{
    editor::{requests::Editor, resources::Document},
    systems::ClaspSystems,
};

/// A native dialog that answers "nothing chosen" sooner than this had no one to ask.
const NO_DIALOG_WITHIN: Duration = Duration::from_millis(300);

/// Save: to the world's own file, or through Save As when it has none yet.
pub fn save(editor: &mut Editor, dialogs: &mut FileDialogs) {
    if editor.doc.path.is_some() {
        editor.save(None);
    } else {
        dialogs.request(DialogPurpose::SaveAs);
    }
}

pub struct DialogPlugin;

impl Plugin for DialogPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FileDialogs>()
            .init_resource::<Loads>()
            .init_resource::<unsaved::UnsavedPrompt>()
            .add_systems(
                Update,
                // A load started this frame is looked at first in the next.
                (
                    take_dropped_files,
                    open_requested,
                    poll_native,
                    finish_loads,
                    use_chosen,
                    unsaved::ask_before_closing,
                )
                    .chain()
                    .in_set(ClaspSystems::Requests),
            )
            .add_systems(EguiPrimaryContextPass, (show_browser, unsaved::show_prompt));
    }
}

/// A file dropped on the window: a world opens, anything else is imported.
fn take_dropped_files(mut drops: MessageReader<FileDragAndDrop>, mut dialogs: ResMut<FileDialogs>) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            let purpose = purpose_for_file(path_buf);
            dialogs.deliver(purpose, path_buf.clone());
        }
    }
}

fn open_requested(mut dialogs: ResMut<FileDialogs>, document: Res<Document>) {
    if dialogs.requests.is_empty() {
        return;
    }
    if dialogs.native.is_some() {
        // The native dialog is modal to the user: whatever was asked meanwhile waits.
        return;
    }
    let purpose = dialogs.requests.remove(0);
    if dialogs.use_browser {
        // A new request replaces what the browser was open for.
        dialogs.requests.clear();
        dialogs.open_browser(purpose, &document);
    } else {
        dialogs.browser = None;
        dialogs.open_native(purpose, &document);
    }
}

fn poll_native(mut dialogs: ResMut<FileDialogs>, mut editor: Editor) {
    let Some(native) = dialogs.native.as_mut() else {
        return;
    };
    let Some((chosen, open_for)) = block_on(poll_once(&mut native.task)) else {
        return;
    };
    let purpose = native.purpose;
    dialogs.native = None;
    match chosen {
        Some(path) => dialogs.deliver(purpose, path),
        None if open_for < NO_DIALOG_WITHIN => {
            // Nothing is there to show a dialog: use our own from now on.
            dialogs.use_browser = true;
            editor.info("no system file dialog answered: using Clasp's file browser");
            dialogs.open_browser(purpose, &editor.doc);
        }
        None => {}
    }
}

/// Files chosen to open or import load in the background (see `loading`): a world opens once
/// it has loaded and unsaved edits are answered for (`unsaved`). A world is saved at once.
fn use_chosen(
    mut dialogs: ResMut<FileDialogs>,
    mut loads: ResMut<Loads>,
    time: Res<Time>,
    mut editor: Editor,
) {
    if dialogs.chosen.is_empty() {
        return;
    }
    let now = time.elapsed_secs_f64();
    for (purpose, path) in std::mem::take(&mut dialogs.chosen) {
        match purpose {
            DialogPurpose::OpenWorld => loads.start(LoadPurpose::OpenWorld, path, now),
            DialogPurpose::Import(kind) => {
                let purpose = LoadPurpose::Import(kind, dialogs.mesh_reading);
                loads.start(purpose, path, now);
            }
            DialogPurpose::SaveAs => {
                editor.save(Some(&with_xml_extension(&path)));
            }
            DialogPurpose::SaveRecording => {
                editor.save_recording(&with_extension_or(&path, "clasprec"));
            }
        }
    }
}

fn show_browser(mut contexts: EguiContexts, mut dialogs: ResMut<FileDialogs>) -> Result {
    let Some(browser) = dialogs.browser.as_mut() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    match browser.show(ctx) {
        BrowserOutcome::Open => {}
        BrowserOutcome::Cancelled => dialogs.browser = None,
        BrowserOutcome::Chosen(path) => {
            let purpose = browser.purpose;
            dialogs.mesh_reading = browser.mesh_reading;
            dialogs.browser = None;
            dialogs.deliver(purpose, path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::ImportKind;
    use std::path::{Path, PathBuf};

    /// A fresh folder of its own for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("clasp-dialog-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn touch(dir: &Path, names: &[&str]) {
        for name in names {
            std::fs::write(dir.join(name), "x").unwrap();
        }
    }

    fn names(entries: &[BrowserEntry]) -> Vec<&str> {
        entries.iter().map(|e| e.name.as_str()).collect()
    }

    #[test]
    fn the_listing_shows_folders_first_then_matching_files_by_name() {
        let dir = scratch("listing");
        std::fs::create_dir(dir.join("robots")).unwrap();
        std::fs::create_dir(dir.join("Objects")).unwrap();
        std::fs::create_dir(dir.join(".hidden")).unwrap();
        touch(
            &dir,
            &[
                "world.xml",
                "Mug.OFF",
                "notes.txt",
                "arm.urdf",
                ".secret.xml",
                "b.stl",
            ],
        );
        let imports =
            list_folder(&dir, DialogPurpose::Import(ImportKind::Object).extensions()).unwrap();
        assert_eq!(
            names(&imports),
            [
                "Objects",
                "robots",
                "arm.urdf",
                "b.stl",
                "Mug.OFF",
                "world.xml"
            ]
        );
        assert!(imports[0].is_dir && imports[1].is_dir && !imports[2].is_dir);
        let worlds = list_folder(&dir, DialogPurpose::OpenWorld.extensions()).unwrap();
        assert_eq!(names(&worlds), ["Objects", "robots", "world.xml"]);
        let robots =
            list_folder(&dir, DialogPurpose::Import(ImportKind::Robot).extensions()).unwrap();
        assert_eq!(
            names(&robots),
            ["Objects", "robots", "arm.urdf", "world.xml"]
        );
        assert!(list_folder(&dir.join("missing"), &["xml"]).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn extensions_match_without_regard_to_case() {
        assert!(matches_extensions(Path::new("a/b.XmL"), &["xml"]));
        assert!(!matches_extensions(Path::new("a/b.xml.bak"), &["xml"]));
        assert!(!matches_extensions(Path::new("a/xml"), &["xml"]));
    }

    #[test]
    fn save_as_adds_xml_to_a_bare_name_only() {
        let dir = Path::new("/tmp/w");
        let save_as = |name| save_target(dir, name, DialogPurpose::SaveAs);
        assert_eq!(save_as(" grasp "), Some(dir.join("grasp.xml")));
        assert_eq!(save_as("grasp.xml"), Some(dir.join("grasp.xml")));
        assert_eq!(save_as("grasp.world"), Some(dir.join("grasp.world")));
        assert_eq!(save_as("  "), None);
        assert_eq!(
            save_as("/elsewhere/g"),
            Some(PathBuf::from("/elsewhere/g.xml"))
        );
        // A recording's bare name is Clasp's own kind; rerun's is kept.
        let record = |name| save_target(dir, name, DialogPurpose::SaveRecording);
        assert_eq!(record("run"), Some(dir.join("run.clasprec")));
        assert_eq!(record("run.rrd"), Some(dir.join("run.rrd")));
    }

    #[test]
    fn the_browser_enters_folders_goes_up_and_chooses_files() {
        let dir = scratch("browse");
        std::fs::create_dir(dir.join("inner")).unwrap();
        touch(&dir.join("inner"), &["cup.off", "readme.md"]);
        let mut browser = FileBrowser::new(DialogPurpose::Import(ImportKind::Object), &dir, None);
        let dir = dir.canonicalize().unwrap();
        assert_eq!(browser.dir, dir);
        assert_eq!(browser.path_text, dir.display().to_string());
        let inner = browser.entries[0].clone();
        assert!(inner.is_dir);
        // A click only marks a folder; the button or a double-click enters it.
        browser.pick(&inner);
        assert!(browser.can_confirm());
        assert_eq!(browser.confirm(), None);
        assert_eq!(browser.dir, dir.join("inner"));
        assert_eq!(names(&browser.entries), ["cup.off"]);
        assert!(!browser.can_confirm(), "entering clears the pick");
        let cup = browser.entries[0].clone();
        assert_eq!(browser.activate(&cup), Some(dir.join("inner/cup.off")));
        browser.up();
        assert_eq!(browser.dir, dir);
        assert_eq!(browser.activate(&inner), None);
        assert_eq!(browser.dir, dir.join("inner"));
        // A typed path: a folder is entered, a file chosen, a missing one reported.
        browser.path_text = dir.display().to_string();
        assert_eq!(browser.go_to_typed_path(), None);
        assert_eq!(browser.dir, dir);
        browser.path_text = dir.join("inner/cup.off").display().to_string();
        assert_eq!(browser.go_to_typed_path(), Some(dir.join("inner/cup.off")));
        browser.path_text = dir.join("nowhere/x.off").display().to_string();
        assert_eq!(browser.go_to_typed_path(), None);
        assert!(
            browser
                .problem
                .as_deref()
                .unwrap()
                .contains("does not exist")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_save_as_browser_names_the_file_in_its_folder() {
        let dir = scratch("save");
        touch(&dir, &["old.xml"]);
        let world = dir.join("mine.xml");
        let mut browser = FileBrowser::new(DialogPurpose::SaveAs, &dir, Some(&world));
        let dir = dir.canonicalize().unwrap();
        assert_eq!(
            browser.file_name, "mine.xml",
            "the world's own name is offered"
        );
        let old = browser.entries[0].clone();
        browser.pick(&old);
        assert_eq!(browser.file_name, "old.xml");
        browser.file_name = "grasp".into();
        assert_eq!(browser.confirm(), Some(dir.join("grasp.xml")));
        browser.file_name = String::new();
        assert!(!browser.can_confirm());
        assert_eq!(browser.confirm(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dialogs_start_in_the_world_folder_or_the_current_one() {
        let dir = scratch("start");
        assert_eq!(start_folder(Some(&dir.join("w.xml"))), dir);
        let here = std::env::current_dir().unwrap();
        assert_eq!(start_folder(None), here);
        assert_eq!(start_folder(Some(Path::new("/no/such/folder/w.xml"))), here);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bare_name_saves_as_xml() {
        assert_eq!(
            with_xml_extension(Path::new("/a/b")),
            PathBuf::from("/a/b.xml")
        );
        assert_eq!(
            with_xml_extension(Path::new("/a/b.XML")),
            PathBuf::from("/a/b.XML")
        );
    }
}
