//! Runs kept from Python: `simulate(..., record=)` and `test_grasp(..., record=)` write a
//! recording (`.clasprec` for Clasp's app, `.rrd` for rerun's viewer, written with this very
//! Python, which has `rerun-sdk` when the rerun extra is installed), and `render_video` draws a
//! simulated run as a video.

use std::path::{Path, PathBuf};

use clasp_core::{Recording, World};
use clasp_render::{check_video, render_video};
use pyo3::{
    exceptions::{PyImportError, PyValueError},
    prelude::*,
};

use crate::{errors::move_error, world::PyWorld};

/// Refuses, before any run, a recording file of a kind Clasp does not write, or an `.rrd` when
/// this Python has no rerun SDK to write it with.
pub(crate) fn check_record_path(py: Python<'_>, path: Option<&Path>) -> PyResult<()> {
    let Some(path) = path else {
        return Ok(());
    };
    let kind = clasp_io::recording_kind(path).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if kind == clasp_io::RecordingKind::Rerun && py.import("rerun").is_err() {
        return Err(PyImportError::new_err(format!(
            "{}: writing .rrd needs the rerun SDK (pip install rerun-sdk), or record to a .clasprec file",
            path.display()
        )));
    }
    Ok(())
}

/// Writes `recording` of a run that began in `start`, by the file's extension.
pub(crate) fn write_recording(
    py: Python<'_>,
    path: &Path,
    recording: &Recording,
    start: &World,
) -> PyResult<()> {
    let python: PathBuf = py.import("sys")?.getattr("executable")?.extract()?;
    py.detach(|| clasp_io::save_any_recording(recording, start, path, None, &python))
        .map_err(move_error)
}

#[pymethods]
impl PyWorld {
    /// Simulates `seconds` and draws the run as a video at `path`: `.gif` (Clasp's own
    /// encoder) or `.mp4`, `.webm`, `.mkv`, `.mov` (through the ffmpeg program), `fps` frames a
    /// second of simulated time, the camera as `render` takes it. Returns the frames written.
    /// The world is left where the run ended; a video that cannot be written (no ffmpeg, a
    /// folder that is not there) takes the run back.
    #[pyo3(signature = (path, seconds, width=640, height=480, fps=30, camera=None, look_from=None, fov=45.0))]
    #[allow(clippy::too_many_arguments)]
    fn render_video(
        &mut self,
        py: Python<'_>,
        path: PathBuf,
        seconds: f64,
        width: u32,
        height: u32,
        fps: u32,
        camera: Option<&Bound<'_, PyAny>>,
        look_from: Option<[f64; 3]>,
        fov: f64,
    ) -> PyResult<usize> {
        check_video(&path, fps).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let camera = self.camera(camera, look_from, fov, (width, height))?;
        let renderer = crate::render::renderer()?;
        let (start, run) = self.recorded_run(py, seconds);
        let video = run.and_then(|(recording, _)| {
            py.detach(|| render_video(renderer, &start, &recording, &camera, fps, &path))
                .map_err(move_error)
        });
        match video {
            Ok(video) => Ok(video.frames),
            Err(error) => {
                self.world = start;
                Err(error)
            }
        }
    }
}
