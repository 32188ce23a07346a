//! File dialogs: the native one over the XDG portal, an in-app browser where none answers, and
//! files dropped on the window.
//!
//! The native dialog runs on a task and is polled each frame, so the app never waits for it.
//! Where no portal answers (no session bus, `CLASP_FILE_BROWSER=1`, or a dialog that answers
//! "nothing chosen" before anyone could have looked at it) Clasp's own browser opens instead,
//! and keeps opening from then on.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, block_on, poll_once},
    window::FileDragAndDrop,
};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use clasp_io::{Disk, FileKind};

use crate::{
    editor::{Editor, ImportKind},
    files::import_kind_of,
};

/// A native dialog that answers "nothing chosen" sooner than this had no one to ask.
const NO_DIALOG_WITHIN: Duration = Duration::from_millis(300);

/// What a file is chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogPurpose {
    OpenWorld,
    Import(ImportKind),
    SaveAs,
}

impl DialogPurpose {
    pub fn title(self) -> &'static str {
        match self {
            DialogPurpose::OpenWorld => "Open World",
            DialogPurpose::Import(ImportKind::Object) => "Import Object",
            DialogPurpose::Import(ImportKind::Obstacle) => "Import Obstacle",
            DialogPurpose::Import(ImportKind::Robot) => "Import Robot",
            DialogPurpose::SaveAs => "Save World As",
        }
    }

    /// The file name extensions offered (lower case, no dot). Robots come as GraspIt XML or
    /// URDF only; bodies also as bare meshes.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            DialogPurpose::OpenWorld | DialogPurpose::SaveAs => &["xml"],
            DialogPurpose::Import(ImportKind::Robot) => &["xml", "urdf"],
            DialogPurpose::Import(_) => &["xml", "urdf", "off", "ply", "obj", "stl", "iv", "wrl"],
        }
    }

    fn filter_name(self) -> &'static str {
        match self {
            DialogPurpose::OpenWorld | DialogPurpose::SaveAs => "GraspIt world (*.xml)",
            DialogPurpose::Import(ImportKind::Robot) => "Robot (GraspIt XML, URDF)",
            DialogPurpose::Import(_) => "Body (GraspIt XML, URDF, mesh)",
        }
    }

    /// The confirming button's label.
    fn action(self) -> &'static str {
        match self {
            DialogPurpose::OpenWorld => "Open",
            DialogPurpose::Import(_) => "Import",
            DialogPurpose::SaveAs => "Save",
        }
    }
}

/// What a dropped file (or a recent file) does: a world opens, anything else is imported,
/// robots as robots.
pub fn purpose_for_file(path: &Path) -> DialogPurpose {
    match FileKind::of(&Disk, path) {
        Ok(FileKind::World) => DialogPurpose::OpenWorld,
        _ => DialogPurpose::Import(import_kind_of(path)),
    }
}

/// Does what a chosen file was chosen for: opens, imports or saves. A file that does not load
/// changes nothing and is reported in the log.
pub fn apply_choice(editor: &mut Editor, purpose: DialogPurpose, path: &Path) -> bool {
    match purpose {
        DialogPurpose::OpenWorld => editor.open_world(path),
        DialogPurpose::Import(kind) => editor.import(path, kind),
        DialogPurpose::SaveAs => editor.save(Some(&with_xml_extension(path))),
    }
}

/// Save: to the world's own file, or through Save As when it has none yet.
pub fn save(editor: &mut Editor, dialogs: &mut FileDialogs) {
    if editor.path.is_some() {
        editor.save(None);
    } else {
        dialogs.request(DialogPurpose::SaveAs);
    }
}

/// GraspIt's Save As: a name without an extension gets `.xml`.
pub fn with_xml_extension(path: &Path) -> PathBuf {
    if path.extension().is_some() {
        path.to_path_buf()
    } else {
        path.with_extension("xml")
    }
}

/// The open dialogs and the files chosen in them, waiting to be used.
#[derive(Resource)]
pub struct FileDialogs {
    /// Use the in-app browser, never the native dialog: set when no portal is there, by
    /// `CLASP_FILE_BROWSER=1`, or after a native dialog answered at once.
    pub use_browser: bool,
    requests: Vec<DialogPurpose>,
    native: Option<NativeDialog>,
    browser: Option<FileBrowser>,
    chosen: Vec<(DialogPurpose, PathBuf)>,
}

struct NativeDialog {
    purpose: DialogPurpose,
    /// The chosen path and how long the dialog was open.
    task: Task<(Option<PathBuf>, Duration)>,
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

    fn open_browser(&mut self, purpose: DialogPurpose, editor: &Editor) {
        self.browser = Some(FileBrowser::new(
            purpose,
            &start_folder(editor.path.as_deref()),
            editor.path.as_deref(),
        ));
    }

    fn open_native(&mut self, purpose: DialogPurpose, editor: &Editor) {
        let mut dialog = rfd::AsyncFileDialog::new()
            .set_title(purpose.title())
            .add_filter(purpose.filter_name(), purpose.extensions())
            .set_directory(start_folder(editor.path.as_deref()));
        if purpose == DialogPurpose::SaveAs {
            dialog = dialog
                .set_file_name(save_name(editor.path.as_deref()))
                .set_can_create_directories(true);
        }
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let opened = Instant::now();
            let chosen = if purpose == DialogPurpose::SaveAs {
                dialog.save_file().await
            } else {
                dialog.pick_file().await
            };
            (chosen.map(PathBuf::from), opened.elapsed())
        });
        self.native = Some(NativeDialog { purpose, task });
    }
}

/// Where a dialog starts: the open world's folder, else the current folder.
pub fn start_folder(world_path: Option<&Path>) -> PathBuf {
    world_path
        .and_then(Path::parent)
        .filter(|p| p.is_dir())
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The name Save As suggests: the world's own, else `world.xml`.
fn save_name(world_path: Option<&Path>) -> String {
    world_path
        .and_then(Path::file_name)
        .map_or("world.xml".into(), |n| n.to_string_lossy().into_owned())
}

/// Whether a file's extension is one of `extensions` (case does not matter).
pub fn matches_extensions(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// One line of the browser's listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserEntry {
    pub name: String,
    pub path: PathBuf,
    pub is_dir: bool,
}

/// A folder's sub-folders, then its files with one of `extensions`, each group by name (case
/// ignored); hidden entries (a leading dot) are left out.
pub fn list_folder(dir: &Path, extensions: &[&str]) -> std::io::Result<Vec<BrowserEntry>> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        // Follows links, so a link to a folder lists as a folder.
        let is_dir = path.is_dir();
        if is_dir || matches_extensions(&path, extensions) {
            entries.push(BrowserEntry { name, path, is_dir });
        }
    }
    entries.sort_by(|a, b| {
        b.is_dir
            .cmp(&a.is_dir)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(entries)
}

/// Where Save As writes: `name` in `dir` (or `name` itself when it is absolute), with `.xml`
/// added when it has no extension; `None` for an empty name.
pub fn save_target(dir: &Path, name: &str) -> Option<PathBuf> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    Some(with_xml_extension(&dir.join(name)))
}

/// Clasp's own file browser, for where no native dialog answers.
#[derive(Debug, Clone)]
pub struct FileBrowser {
    pub purpose: DialogPurpose,
    pub dir: PathBuf,
    /// The path field's text.
    pub path_text: String,
    pub entries: Vec<BrowserEntry>,
    /// The file picked in the listing (Open and Import).
    pub selected: Option<PathBuf>,
    /// The file name field (Save As).
    pub file_name: String,
    /// Why the folder could not be listed, or the last refused request.
    pub problem: Option<String>,
    /// Where the path field was last drawn, egui points (for scripts and tests to press it).
    pub path_field: Option<egui::Rect>,
}

/// What the browser's user did this frame.
#[derive(Debug, Clone, PartialEq)]
pub enum BrowserOutcome {
    Open,
    Chosen(PathBuf),
    Cancelled,
}

impl FileBrowser {
    pub fn new(purpose: DialogPurpose, dir: &Path, world_path: Option<&Path>) -> Self {
        let mut browser = Self {
            purpose,
            dir: dir.to_path_buf(),
            path_text: String::new(),
            entries: Vec::new(),
            selected: None,
            file_name: if purpose == DialogPurpose::SaveAs {
                save_name(world_path)
            } else {
                String::new()
            },
            problem: None,
            path_field: None,
        };
        browser.enter(dir);
        browser
    }

    /// Shows another folder; one that cannot be read is reported and the listing is emptied.
    pub fn enter(&mut self, dir: &Path) {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        self.path_text = dir.display().to_string();
        self.selected = None;
        match list_folder(&dir, self.purpose.extensions()) {
            Ok(entries) => {
                self.entries = entries;
                self.problem = None;
            }
            Err(e) => {
                self.entries.clear();
                self.problem = Some(format!("cannot list {}: {e}", dir.display()));
            }
        }
        self.dir = dir;
    }

    /// The parent folder.
    pub fn up(&mut self) {
        if let Some(parent) = self.dir.parent().map(Path::to_path_buf) {
            self.enter(&parent);
        }
    }

    /// A click on an entry: a file is picked (and named, for Save As); a folder only marked.
    pub fn pick(&mut self, entry: &BrowserEntry) {
        self.selected = Some(entry.path.clone());
        if !entry.is_dir && self.purpose == DialogPurpose::SaveAs {
            self.file_name = entry.name.clone();
        }
    }

    /// A double-click: a folder is entered, a file chosen.
    pub fn activate(&mut self, entry: &BrowserEntry) -> Option<PathBuf> {
        if entry.is_dir {
            self.enter(&entry.path.clone());
            None
        } else {
            self.pick(entry);
            self.confirm()
        }
    }

    /// The path field confirmed with Enter: a folder is entered, a file chosen (for Save As,
    /// a new name in an existing folder too).
    pub fn go_to_typed_path(&mut self) -> Option<PathBuf> {
        let typed = PathBuf::from(self.path_text.trim());
        if typed.is_dir() {
            self.enter(&typed);
            return None;
        }
        if self.purpose == DialogPurpose::SaveAs {
            let parent = typed.parent().filter(|p| p.is_dir()).map(Path::to_path_buf);
            if let (Some(parent), Some(name)) = (parent, typed.file_name()) {
                let name = name.to_string_lossy().into_owned();
                self.enter(&parent);
                self.file_name = name;
                return self.confirm();
            }
        } else if typed.is_file() {
            return Some(typed);
        }
        self.problem = Some(format!("{} does not exist", typed.display()));
        None
    }

    /// The Open/Import/Save button: the picked file, or for Save As the named one.
    pub fn confirm(&mut self) -> Option<PathBuf> {
        match self.purpose {
            DialogPurpose::SaveAs => {
                let target = save_target(&self.dir, &self.file_name);
                if target.as_ref().is_some_and(|t| t.is_dir()) {
                    self.problem = Some("that is a folder: give a file name".into());
                    return None;
                }
                target
            }
            _ => match &self.selected {
                Some(path) if path.is_file() => Some(path.clone()),
                Some(path) if path.is_dir() => {
                    let path = path.clone();
                    self.enter(&path);
                    None
                }
                _ => None,
            },
        }
    }

    fn can_confirm(&self) -> bool {
        match self.purpose {
            DialogPurpose::SaveAs => !self.file_name.trim().is_empty(),
            _ => self.selected.is_some(),
        }
    }

    /// Draws the browser window; says whether the user chose, cancelled, or neither yet.
    pub fn show(&mut self, ctx: &egui::Context) -> BrowserOutcome {
        let mut outcome = BrowserOutcome::Open;
        let mut open = true;
        egui::Window::new(self.purpose.title())
            .id(egui::Id::new("file_browser"))
            .collapsible(false)
            .resizable(true)
            .default_size([560.0, 420.0])
            .pivot(egui::Align2::CENTER_CENTER)
            .default_pos(ctx.content_rect().center())
            .open(&mut open)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    if ui
                        .button("⬆ Up")
                        .on_hover_text("The folder above")
                        .clicked()
                    {
                        self.up();
                    }
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.path_text)
                            .desired_width(f32::INFINITY)
                            .hint_text("a folder or a file; Enter goes there"),
                    );
                    self.path_field = Some(field.rect);
                    if field.lost_focus()
                        && ui.input(|i| i.key_pressed(egui::Key::Enter))
                        && let Some(path) = self.go_to_typed_path()
                    {
                        outcome = BrowserOutcome::Chosen(path);
                    }
                });
                ui.label(
                    egui::RichText::new(format!(
                        "Folders, and files ending in .{}",
                        self.purpose.extensions().join(", .")
                    ))
                    .small()
                    .weak(),
                );
                ui.separator();
                let footer = if self.purpose == DialogPurpose::SaveAs {
                    86.0
                } else {
                    58.0
                };
                egui::ScrollArea::vertical()
                    .id_salt("browser_list")
                    .max_height((ui.available_height() - footer).max(80.0))
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        if self.entries.is_empty() && self.problem.is_none() {
                            ui.label(egui::RichText::new("(nothing to show here)").weak());
                        }
                        let entries = self.entries.clone();
                        for entry in &entries {
                            let label = if entry.is_dir {
                                format!("📁 {}", entry.name)
                            } else {
                                format!("    {}", entry.name)
                            };
                            let picked = self.selected.as_ref() == Some(&entry.path);
                            let row = ui.selectable_label(picked, label);
                            if row.double_clicked() {
                                if let Some(path) = self.activate(entry) {
                                    outcome = BrowserOutcome::Chosen(path);
                                }
                                break;
                            } else if row.clicked() {
                                self.pick(entry);
                            }
                        }
                    });
                ui.separator();
                if self.purpose == DialogPurpose::SaveAs {
                    ui.horizontal(|ui| {
                        ui.label("File name:");
                        ui.text_edit_singleline(&mut self.file_name);
                    });
                    if let Some(target) = save_target(&self.dir, &self.file_name)
                        && target.is_file()
                    {
                        ui.colored_label(
                            egui::Color32::from_rgb(240, 170, 60),
                            format!("{} exists and will be replaced", target.display()),
                        );
                    }
                }
                if let Some(problem) = &self.problem {
                    ui.colored_label(egui::Color32::from_rgb(255, 110, 90), problem);
                }
                ui.horizontal(|ui| {
                    let confirm = ui
                        .add_enabled(self.can_confirm(), egui::Button::new(self.purpose.action()));
                    if confirm.clicked()
                        && let Some(path) = self.confirm()
                    {
                        outcome = BrowserOutcome::Chosen(path);
                    }
                    if ui.button("Cancel").clicked() {
                        outcome = BrowserOutcome::Cancelled;
                    }
                });
            });
        if !open && outcome == BrowserOutcome::Open {
            outcome = BrowserOutcome::Cancelled;
        }
        outcome
    }
}

pub struct DialogPlugin;

impl Plugin for DialogPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FileDialogs>()
            .add_systems(
                Update,
                (take_dropped_files, open_requested, poll_native, use_chosen).chain(),
            )
            .add_systems(EguiPrimaryContextPass, show_browser);
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

fn open_requested(mut dialogs: ResMut<FileDialogs>, editor: Res<Editor>) {
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
        dialogs.open_browser(purpose, &editor);
    } else {
        dialogs.browser = None;
        dialogs.open_native(purpose, &editor);
    }
}

fn poll_native(mut dialogs: ResMut<FileDialogs>, mut editor: ResMut<Editor>) {
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
            dialogs.open_browser(purpose, &editor);
        }
        None => {}
    }
}

fn use_chosen(mut dialogs: ResMut<FileDialogs>, mut editor: ResMut<Editor>) {
    for (purpose, path) in std::mem::take(&mut dialogs.chosen) {
        apply_choice(&mut editor, purpose, &path);
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
            dialogs.browser = None;
            dialogs.deliver(purpose, path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(save_target(dir, " grasp "), Some(dir.join("grasp.xml")));
        assert_eq!(save_target(dir, "grasp.xml"), Some(dir.join("grasp.xml")));
        assert_eq!(
            save_target(dir, "grasp.world"),
            Some(dir.join("grasp.world"))
        );
        assert_eq!(save_target(dir, "  "), None);
        assert_eq!(
            save_target(dir, "/elsewhere/g"),
            Some(PathBuf::from("/elsewhere/g.xml"))
        );
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
