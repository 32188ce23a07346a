use std::{
    collections::HashMap,
    io,
    path::{Component, Path, PathBuf},
};

/// Where loaders read files from.
pub trait FileSource {
    fn read_to_string(&self, path: &Path) -> io::Result<String>;
    /// The raw bytes, for binary formats (PLY, STL).
    fn read_bytes(&self, path: &Path) -> io::Result<Vec<u8>>;
    fn is_file(&self, path: &Path) -> bool;
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
}
