//! How a saved world names the files it refers to: relative to the GraspIt root when under it,
//! else to the world's own folder; and text escaped for XML.

use std::path::{Component, Path, PathBuf};

/// Text as it stands in XML (`&`, `<` and the like escaped).
pub(super) fn escape(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

/// How a saved world names a file: relative to the GraspIt root when the file is under it,
/// else relative to the world's folder (with `..` as needed), with `/` between parts.
pub(super) fn reference(file: &Path, world_folder: &Path, graspit_root: Option<&Path>) -> String {
    let file = absolute(file);
    let relative = match graspit_root.and_then(|root| file.strip_prefix(root).ok()) {
        Some(under_root) => under_root.to_path_buf(),
        None => relative_to(&file, world_folder),
    };
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// `file` as seen from `folder`; both absolute and normalized. Falls back to the absolute path
/// when they share no root (another drive).
pub(super) fn relative_to(file: &Path, folder: &Path) -> PathBuf {
    let (a, b): (Vec<Component>, Vec<Component>) =
        (file.components().collect(), folder.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return file.to_path_buf();
    }
    let ups = std::iter::repeat_n(Component::ParentDir, b.len() - common);
    ups.chain(a[common..].iter().copied()).collect()
}

/// An absolute path with `.` and `..` removed lexically (symbolic links are kept as named).
pub(super) fn absolute(path: &Path) -> PathBuf {
    lexical(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// Drops `.` and cancels each `..` against the folder before it; leading `..`s stay.
pub(super) fn lexical(path: &Path) -> PathBuf {
    let mut parts: Vec<Component> = Vec::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if matches!(parts.last(), Some(Component::Normal(_))) => {
                parts.pop();
            }
            // Above the root is the root.
            Component::ParentDir if matches!(parts.last(), Some(Component::RootDir)) => {}
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}
