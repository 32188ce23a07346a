use std::{
    collections::HashMap,
    io,
    path::{Component, Path, PathBuf},
};

use crate::error::LoadError;

/// Where loaders read files from.
pub trait FileSource {
    fn read_to_string(&self, path: &Path) -> io::Result<String>;
    /// The raw bytes, for binary formats (PLY, STL).
    fn read_bytes(&self, path: &Path) -> io::Result<Vec<u8>>;
    fn is_file(&self, path: &Path) -> bool;
    /// A file in the same folder whose name equals `path`'s but for case, if there is one.
    fn find_ignoring_case(&self, path: &Path) -> Option<PathBuf> {
        let _ = path;
        None
    }
}

/// Whether two paths' last parts are equal but for ASCII case.
fn same_name_ignoring_case(a: &Path, b: &Path) -> bool {
    match (a.file_name(), b.file_name()) {
        (Some(a), Some(b)) => a
            .to_string_lossy()
            .eq_ignore_ascii_case(&b.to_string_lossy()),
        _ => false,
    }
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk;

impl FileSource for Disk {
    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        std::fs::read_to_string(path)
    }

    fn read_bytes(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn find_ignoring_case(&self, path: &Path) -> Option<PathBuf> {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        std::fs::read_dir(folder)
            .ok()?
            .filter_map(Result::ok)
            .map(|entry| path.with_file_name(entry.file_name()))
            .find(|candidate| same_name_ignoring_case(candidate, path) && candidate.is_file())
    }
}

/// Files compiled into a binary, by relative path (`models/worlds/default.xml`).
#[derive(Debug, Clone, Default)]
pub struct Embedded {
    files: HashMap<PathBuf, &'static str>,
}

impl Embedded {
    pub fn new(files: impl IntoIterator<Item = (&'static str, &'static str)>) -> Self {
        Self {
            files: files
                .into_iter()
                .map(|(path, text)| (normalize(Path::new(path)), text))
                .collect(),
        }
    }
}

impl FileSource for Embedded {
    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        self.files
            .get(&normalize(path))
            .map(|text| text.to_string())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not among the embedded files"))
    }

    fn read_bytes(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.read_to_string(path).map(String::into_bytes)
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(&normalize(path))
    }

    fn find_ignoring_case(&self, path: &Path) -> Option<PathBuf> {
        let wanted = normalize(path);
        self.files
            .keys()
            .find(|k| k.parent() == wanted.parent() && same_name_ignoring_case(k, &wanted))
            .cloned()
    }
}

/// Removes `.` and resolves `..` lexically, so `a/b/../c` and `a/c` name the same embedded file.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

pub(crate) fn read(source: &dyn FileSource, path: &Path) -> Result<String, LoadError> {
    utf8_text(read_bytes(source, path)?, path)
}

pub(crate) fn read_bytes(source: &dyn FileSource, path: &Path) -> Result<Vec<u8>, LoadError> {
    source
        .read_bytes(path)
        .map_err(|e| LoadError::new(path, None, format!("cannot read the file: {e}")))
}

/// The bytes as text; a byte that is not UTF-8 is reported with its line.
pub(crate) fn utf8_text(bytes: Vec<u8>, path: &Path) -> Result<String, LoadError> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        LoadError::new(
            path,
            Some(line),
            "expected UTF-8 text, found a byte that is not",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_paths_are_normalized() {
        let files = Embedded::new([("models/a.xml", "<root/>")]);
        assert!(files.is_file(Path::new("./models/x/../a.xml")));
        assert_eq!(
            files.read_to_string(Path::new("models/a.xml")).unwrap(),
            "<root/>"
        );
        assert!(!files.is_file(Path::new("models/b.xml")));
        assert!(files.read_to_string(Path::new("b.xml")).is_err());
    }

    #[test]
    fn names_are_matched_ignoring_case_only_in_the_same_folder() {
        let files = Embedded::new([("models/soap.IV", "#Inventor V2.0 ascii\n")]);
        assert_eq!(
            files.find_ignoring_case(Path::new("models/soap.iv")),
            Some(PathBuf::from("models/soap.IV"))
        );
        assert_eq!(files.find_ignoring_case(Path::new("other/soap.iv")), None);
        let dir = std::env::temp_dir().join(format!("clasp-case-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Mug.OFF"), "OFF\n0 0 0\n").unwrap();
        assert_eq!(
            Disk.find_ignoring_case(&dir.join("mug.off")),
            Some(dir.join("Mug.OFF"))
        );
        assert_eq!(Disk.find_ignoring_case(&dir.join("cup.off")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
