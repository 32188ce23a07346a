//! What a file is chosen for, and what that asks of its name.

use std::path::{Path, PathBuf};

use clasp_io::{Disk, FileKind};

use crate::{files::ImportKind, files::import_kind_of};

/// What a file is chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogPurpose {
    OpenWorld,
    Import(ImportKind),
    SaveAs,
    /// File → Save Recording As: the timeline as a recording.
    SaveRecording,
}

impl DialogPurpose {
    pub fn title(self) -> &'static str {
        match self {
            DialogPurpose::OpenWorld => "Open World",
            DialogPurpose::Import(ImportKind::Object) => "Import Object",
            DialogPurpose::Import(ImportKind::Obstacle) => "Import Obstacle",
            DialogPurpose::Import(ImportKind::Robot) => "Import Robot",
            DialogPurpose::SaveAs => "Save World As",
            DialogPurpose::SaveRecording => "Save Recording As",
        }
    }

    /// Whether the file chosen is one to write (a name may be typed), not one to read.
    pub fn saves(self) -> bool {
        matches!(self, DialogPurpose::SaveAs | DialogPurpose::SaveRecording)
    }

    /// Whether the file chosen may be a bare mesh, whose units and up axis can be set.
    pub fn imports_mesh(self) -> bool {
        matches!(
            self,
            DialogPurpose::Import(ImportKind::Object | ImportKind::Obstacle)
        )
    }

    /// The extension a name typed without one gets.
    pub fn default_extension(self) -> &'static str {
        match self {
            DialogPurpose::SaveRecording => "clasprec",
            _ => "xml",
        }
    }

    /// The file name extensions offered (lower case, no dot). Robots come as GraspIt XML or
    /// URDF only; bodies also as bare meshes.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            DialogPurpose::OpenWorld => &["xml", "clasprec"],
            DialogPurpose::SaveAs => &["xml"],
            DialogPurpose::SaveRecording => &["clasprec", "rrd"],
            DialogPurpose::Import(ImportKind::Robot) => &["xml", "urdf"],
            DialogPurpose::Import(_) => &[
                "xml", "urdf", "off", "ply", "obj", "stl", "iv", "wrl", "glb", "gltf",
            ],
        }
    }

    pub(super) fn filter_name(self) -> &'static str {
        match self {
            DialogPurpose::OpenWorld => "World (GraspIt XML, MJCF) or Clasp recording",
            DialogPurpose::SaveAs => "GraspIt world (*.xml)",
            DialogPurpose::SaveRecording => "Recording (Clasp's .clasprec, rerun's .rrd)",
            DialogPurpose::Import(ImportKind::Robot) => "Robot (GraspIt XML, URDF)",
            DialogPurpose::Import(_) => "Body (GraspIt XML, URDF, mesh)",
        }
    }

    /// The confirming button's label.
    pub(super) fn action(self) -> &'static str {
        match self {
            DialogPurpose::OpenWorld => "Open",
            DialogPurpose::Import(_) => "Import",
            DialogPurpose::SaveAs | DialogPurpose::SaveRecording => "Save",
        }
    }
}

/// What a dropped file (or a recent file) does: a world (GraspIt's or MuJoCo's) opens, anything else is imported,
/// robots as robots.
pub fn purpose_for_file(path: &Path) -> DialogPurpose {
    if crate::files::is_recording(path) {
        return DialogPurpose::OpenWorld;
    }
    match FileKind::of(&Disk, path) {
        Ok(kind) if kind.is_world() => DialogPurpose::OpenWorld,
        _ => DialogPurpose::Import(import_kind_of(path)),
    }
}

/// GraspIt's Save As: a name without an extension gets `.xml`.
pub fn with_xml_extension(path: &Path) -> PathBuf {
    with_extension_or(path, "xml")
}

/// A name without an extension gets `extension`.
pub fn with_extension_or(path: &Path, extension: &str) -> PathBuf {
    if path.extension().is_some() {
        path.to_path_buf()
    } else {
        path.with_extension(extension)
    }
}
