use std::path::PathBuf;

/// Clasp: load robot hands and objects, move them, and see where they touch.
///
/// With no FILE, the built-in default scene opens: Clasp's three-fingered hand beside a mug.
#[derive(Debug, Clone, Default, clap::Parser)]
#[command(name = "clasp", version)]
pub struct Args {
    /// A world to open instead of the default scene (a GraspIt world file or a MuJoCo MJCF model,
    /// .xml), then body and robot
    /// files (GraspIt XML, URDF) and meshes (OFF, PLY, OBJ, STL, Inventor) to import beside it.
    /// A first file that is not a world is imported into an empty world.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Save a PNG of the window once the scene has rendered (with --exit-after: just before the
    /// exit, so it shows what the run did).
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,

    /// Quit cleanly after this many seconds (after the screenshot, if one was asked for).
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub exit_after: Option<f64>,

    /// On exit, write the world's state as JSON: each body's name, kind and pose, each robot's
    /// DOF values, the collision switches, the contacts, the grasp quality and the camera.
    /// It is also rewritten every half second while the app runs, for scripts that drive it.
    #[arg(long, value_name = "PATH")]
    pub state_out: Option<PathBuf>,

    /// Start with the dynamics playing, as if Play were pressed (Space pauses).
    #[arg(long)]
    pub play: bool,

    /// The window's size in logical pixels (default 1280x800).
    #[arg(long, value_name = "WxH", value_parser = window_size)]
    pub size: Option<(u32, u32)>,

    /// Draw as fast as the GPU can instead of at the display's refresh: for measuring the
    /// frame rate (View → Frame rate; the state file's `frame_rate`).
    #[arg(long)]
    pub no_vsync: bool,

    /// Draw N frames into an offscreen image, with no window and no window system (no X
    /// server: a GPU machine without a display, or CI), as fast as the GPU allows; print the
    /// frame counter's figures (fps, median and p99 frame time) and exit. `--size` is the
    /// image's size, `--screenshot` saves the last frame, `--play` runs the dynamics.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub offscreen: Option<u64>,
}

fn window_size(text: &str) -> Result<(u32, u32), String> {
    let parsed = text.split_once(['x', 'X']).and_then(|(w, h)| {
        let side = |s: &str| {
            s.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| (1..=16384).contains(&n))
        };
        Some((side(w)?, side(h)?))
    });
    parsed.ok_or_else(|| format!("\"{text}\" is not a window size like 1920x1080"))
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("\"{text}\" is not a number of seconds (0 or more)")),
    }
}
