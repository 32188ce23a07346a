//! The file dialogs' state: what was asked, the native dialog or the in-app browser open for
//! it, and the files chosen, waiting to be used.

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task},
};

use super::{
    browser::{FileBrowser, save_name, start_folder},
    purpose::DialogPurpose,
};
use crate::editor::resources::Document;
use clasp_io::MeshReading;

/// The open dialogs and the files chosen in them, waiting to be used.
#[derive(Resource)]
pub struct FileDialogs {
    /// Use the in-app browser, never the native dialog: set when no portal is there, by
    /// `CLASP_FILE_BROWSER=1`, or after a native dialog answered at once.
    pub use_browser: bool,
    pub(super) requests: Vec<DialogPurpose>,
    pub(super) native: Option<NativeDialog>,
    pub(super) browser: Option<FileBrowser>,
    pub(super) chosen: Vec<(DialogPurpose, PathBuf)>,
    /// How an imported bare mesh is read: its units and up axis, as the in-app browser last
    /// set them (each decided by the file where not set).
    pub mesh_reading: MeshReading,
}

pub(super) struct NativeDialog {
    pub(super) purpose: DialogPurpose,
    /// The chosen path and how long the dialog was open.
    pub(super) task: Task<(Option<PathBuf>, Duration)>,
}

impl Default for FileDialogs {
    fn default() -> Self {
        let no_bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|v| v.is_empty());
        let asked = std::env::var_os("CLASP_FILE_BROWSER").is_some_and(|v| v == "1");
        Self {
            use_browser: no_bus || asked,
            requests: Vec::new(),
            native: None,
            browser: None,
            chosen: Vec::new(),
            mesh_reading: MeshReading::default(),
        }
    }
}

impl FileDialogs {
    /// Asks for a file; the dialog opens on the next frame. While one is open, others wait.
    pub fn request(&mut self, purpose: DialogPurpose) {
        self.requests.push(purpose);
    }

    /// Hands over a chosen file, as a dialog does when the user confirms; it is used on the
    /// next frame.
    pub fn deliver(&mut self, purpose: DialogPurpose, path: PathBuf) {
        self.chosen.push((purpose, path));
    }

    /// Whether a native dialog or the browser is open.
    pub fn is_open(&self) -> bool {
        self.native.is_some() || self.browser.is_some()
    }

    /// What the in-app browser is open for, if it is.
    pub fn browser_purpose(&self) -> Option<DialogPurpose> {
        self.browser.as_ref().map(|b| b.purpose)
    }

    /// The in-app browser, if it is open.
    pub fn browser(&self) -> Option<&FileBrowser> {
        self.browser.as_ref()
    }

    pub fn browser_mut(&mut self) -> Option<&mut FileBrowser> {
        self.browser.as_mut()
    }

    pub(super) fn open_browser(&mut self, purpose: DialogPurpose, document: &Document) {
        let mut browser = FileBrowser::new(
            purpose,
            &start_folder(document.path.as_deref()),
            document.path.as_deref(),
        );
        browser.mesh_reading = self.mesh_reading;
        self.browser = Some(browser);
    }

    pub(super) fn open_native(&mut self, purpose: DialogPurpose, document: &Document) {
        let mut dialog = rfd::AsyncFileDialog::new()
            .set_title(purpose.title())
            .add_filter(purpose.filter_name(), purpose.extensions())
            .set_directory(start_folder(document.path.as_deref()));
        if purpose.saves() {
            dialog = dialog
                .set_file_name(save_name(document.path.as_deref()))
                .set_can_create_directories(true);
        }
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let opened = Instant::now();
            let chosen = if purpose.saves() {
                dialog.save_file().await
            } else {
                dialog.pick_file().await
            };
            (chosen.map(PathBuf::from), opened.elapsed())
        });
        self.native = Some(NativeDialog { purpose, task });
    }
}
