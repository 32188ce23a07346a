//! Clasp's own file browser, for desktops where no file-dialog portal answers: a folder's
//! listing filtered by the purpose's extensions, a path field, and a file name for Save As.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui;
use clasp_io::{LengthUnit, MeshReading, UpAxis};

use super::purpose::{DialogPurpose, with_extension_or};

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
pub(super) fn save_name(world_path: Option<&Path>) -> String {
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
pub fn save_target(dir: &Path, name: &str, purpose: DialogPurpose) -> Option<PathBuf> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    Some(with_extension_or(
        &dir.join(name),
        purpose.default_extension(),
    ))
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
    /// The path field takes the keyboard when an Open or Import browser opens: a path can be
    /// typed at once. (Saving, the name field is what is typed into.)
    focus_path: bool,
    /// How an imported bare mesh is read (an object's or an obstacle's import shows it).
    pub mesh_reading: MeshReading,
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
            file_name: if purpose == DialogPurpose::SaveRecording {
                "run.clasprec".into()
            } else if purpose == DialogPurpose::SaveAs {
                save_name(world_path)
            } else {
                String::new()
            },
            problem: None,
            path_field: None,
            focus_path: !matches!(
                purpose,
                DialogPurpose::SaveAs | DialogPurpose::SaveRecording
            ),
            mesh_reading: MeshReading::default(),
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
        if !entry.is_dir && self.purpose.saves() {
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
        if self.purpose.saves() {
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
            DialogPurpose::SaveAs | DialogPurpose::SaveRecording => {
                let target = save_target(&self.dir, &self.file_name, self.purpose);
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

    pub(super) fn can_confirm(&self) -> bool {
        match self.purpose {
            DialogPurpose::SaveAs | DialogPurpose::SaveRecording => {
                !self.file_name.trim().is_empty()
            }
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
                    let mut output = egui::TextEdit::singleline(&mut self.path_text)
                        .desired_width(f32::INFINITY)
                        .hint_text("a folder or a file; Enter goes there")
                        .show(ui);
                    let field = output.response.response.clone();
                    self.path_field = Some(field.rect);
                    // Opened: the whole path selected, so what is typed replaces it.
                    if std::mem::take(&mut self.focus_path) {
                        field.request_focus();
                        let all = egui::text::CCursorRange::select_all(&output.galley);
                        output.state.cursor.set_char_range(Some(all));
                        output.state.store(ui.ctx(), field.id);
                    }
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
                let footer = if self.purpose.saves() { 86.0 } else { 58.0 };
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
                if self.purpose.saves() {
                    ui.horizontal(|ui| {
                        ui.label("File name:");
                        ui.text_edit_singleline(&mut self.file_name);
                    });
                    if let Some(target) = save_target(&self.dir, &self.file_name, self.purpose)
                        && target.is_file()
                    {
                        ui.colored_label(
                            egui::Color32::from_rgb(240, 170, 60),
                            format!("{} exists and will be replaced", target.display()),
                        );
                    }
                }
                if self.purpose.imports_mesh() {
                    mesh_reading_row(ui, &mut self.mesh_reading);
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

/// The import's units and up axis, each "from the file" (glTF's, else the mesh's size) unless
/// chosen.
fn mesh_reading_row(ui: &mut egui::Ui, reading: &mut MeshReading) {
    ui.horizontal(|ui| {
        ui.label("Mesh units:");
        egui::ComboBox::from_id_salt("mesh_units")
            .selected_text(reading.units.map_or("from the file", |u| u.name()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut reading.units, None, "from the file");
                for unit in [LengthUnit::Metres, LengthUnit::Millimetres] {
                    ui.selectable_value(&mut reading.units, Some(unit), unit.name());
                }
            })
            .response
            .on_hover_text(
                "OBJ, STL, PLY and OFF carry no unit: from the file, glTF is metres and the \
                 others are metres under 2 across, else millimetres (the log says which)",
            );
        ui.label("Up:");
        egui::ComboBox::from_id_salt("mesh_up")
            .selected_text(reading.up.map_or("from the file", |u| u.name()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut reading.up, None, "from the file");
                for up in [UpAxis::Y, UpAxis::Z] {
                    ui.selectable_value(&mut reading.up, Some(up), up.name());
                }
            })
            .response
            .on_hover_text("From the file: glTF is Y up (turned to Clasp's Z up), the rest Z up");
    });
}
