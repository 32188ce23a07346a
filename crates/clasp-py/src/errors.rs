//! Clasp's errors as the Python exceptions `clasp.errors` defines: a file that cannot be loaded
//! is a `LoadError` carrying its file and line, one that cannot be written a `SaveError`; a
//! refused request is a `MoveError`; a grasp that cannot be scored is a `QualityError`.

use pyo3::prelude::*;

/// The exception `name` of `clasp.errors`, made with a message, and a file and line if given.
fn raise(name: &str, message: String, file: Option<String>, line: Option<usize>) -> PyErr {
    Python::attach(|py| {
        let made = py
            .import("clasp.errors")
            .and_then(|errors| errors.getattr(name))
            .and_then(|class| class.call1((message, file, line)));
        match made {
            Ok(error) => PyErr::from_value(error),
            Err(error) => error,
        }
    })
}

pub fn load_error(error: clasp_io::LoadError) -> PyErr {
    let file = error.file.display().to_string();
    raise("LoadError", error.to_string(), Some(file), error.line)
}

pub fn save_error(error: clasp_io::SaveError) -> PyErr {
    let file = error.file.display().to_string();
    raise("SaveError", error.to_string(), Some(file), None)
}

pub fn move_error(error: impl std::fmt::Display) -> PyErr {
    raise("MoveError", error.to_string(), None, None)
}

pub fn quality_error(error: impl std::fmt::Display) -> PyErr {
    raise("QualityError", error.to_string(), None, None)
}
