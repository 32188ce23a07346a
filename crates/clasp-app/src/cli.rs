use std::path::PathBuf;

/// Clasp: load robot hands and objects, move them, and see where they touch.
///
/// With no FILE, the built-in default scene opens: Clasp's three-fingered hand beside a mug.
#[derive(Debug, Clone, Default, clap::Parser)]
#[command(name = "clasp", version)]
pub struct Args {
    /// GraspIt world file (.xml) to open instead of the default scene. Importing single bodies,
    /// robots and mesh files is not there yet.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Save a PNG of the window once the scene has rendered.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,

    /// Quit cleanly after this many seconds (after the screenshot, if one was asked for).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub exit_after: Option<f64>,

    /// On exit, write the world's state as JSON: each body's name, kind and pose, and each
    /// robot's DOF values.
    #[arg(long, value_name = "PATH")]
    pub state_out: Option<PathBuf>,
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("\"{text}\" is not a number of seconds (0 or more)")),
    }
}
