use std::{fmt, path::PathBuf};

/// A file could not be loaded: which file, which line (where known), and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct LoadError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl LoadError {
    pub fn new(file: impl Into<PathBuf>, line: Option<usize>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        located(f, &self.file, self.line, &self.message)
    }
}

/// A file was loaded, but something in it was read with a change (a DOF value a hair outside
/// its limits, clamped): which file, which line, and what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadWarning {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for LoadWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        located(f, &self.file, self.line, &self.message)
    }
}

/// "file:line: message", or "file: message" where the line is not known.
fn located(
    f: &mut fmt::Formatter<'_>,
    file: &std::path::Path,
    line: Option<usize>,
    message: &str,
) -> fmt::Result {
    match line {
        Some(line) => write!(f, "{}:{}: {}", file.display(), line, message),
        None => write!(f, "{}: {}", file.display(), message),
    }
}

/// A file could not be written: which file, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}: {message}", file.display())]
pub struct SaveError {
    pub file: PathBuf,
    pub message: String,
}

impl SaveError {
    pub fn new(file: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            message: message.into(),
        }
    }
}
