//! What a command gives back: its output `Format` (text or JSON) and its `Failure`, one line on
//! stderr naming the file (`world_error`, `one_line`).

use std::path::Path;

use clasp_io::LoadError;

/// What a command prints: readable text or one JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// A command's failure as one line on stderr, naming the file.
pub type Failure = String;

/// A failure of the core on this file's world, as one line naming the file.
pub(crate) fn world_error(file: &Path, error: impl std::fmt::Display) -> Failure {
    format!("{}: {error}", file.display()).replace(['\n', '\r'], " ")
}

/// An error as one line, whatever its message holds.
pub(crate) fn one_line(error: &LoadError) -> String {
    error.to_string().replace(['\n', '\r'], " ")
}
