//! `--record` and `--video`: a command's run kept as a recording (rerun's `.rrd`, or Clasp's
//! own `.clasprec` that the app opens) and drawn as a video by the headless renderer.

use std::path::{Path, PathBuf};

use clap::Args;
use clasp_core::{Recording, World};
use clasp_render::{DEFAULT_FPS, Renderer, check_video, render_video};

use crate::{
    flag_values::{numbers, picture_size},
    output::Failure,
    picture::{View, camera},
};

/// What a run keeps of itself: a recording, a video, or both.
#[derive(Debug, Clone, Default, Args)]
pub struct Playback {
    /// Record the run: FILE.rrd for rerun's viewer (written through rerun's Python SDK:
    /// `pip install rerun-sdk`; $CLASP_PYTHON chooses the Python), or FILE.clasprec for
    /// Clasp's app (its world is written beside it as FILE.clasprec.xml).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Draw the run as a video: FILE.gif (Clasp's own encoder), or .mp4, .webm, .mkv, .mov
    /// (through the ffmpeg program).
    #[arg(long, value_name = "FILE")]
    pub video: Option<PathBuf>,
    /// The video's size (default 640x480).
    #[arg(long, value_name = "WxH", value_parser = picture_size, default_value = "640x480", requires = "video")]
    pub size: (u32, u32),
    /// The video's frames a second of simulated time (default 30).
    #[arg(long, value_name = "N", requires = "video")]
    pub fps: Option<u32>,
    /// The video's camera at EX,EY,EZ looking at TX,TY,TZ (mm, z up), as `render` takes it.
    #[arg(long, value_name = "EX,EY,EZ,TX,TY,TZ", value_parser = numbers::<6>, allow_hyphen_values = true, requires = "video")]
    pub camera: Option<[f64; 6]>,
    /// The video looks at the world's object from direction DX,DY,DZ, framing it.
    #[arg(long, value_name = "DX,DY,DZ", value_parser = numbers::<3>, allow_hyphen_values = true, conflicts_with = "camera", requires = "video")]
    pub look_from: Option<[f64; 3]>,
    /// The video's vertical field of view in degrees (default 45).
    #[arg(long, value_name = "DEG", requires = "video")]
    pub fov: Option<f64>,
}

impl Playback {
    /// Whether the run is to be kept at all.
    pub fn wanted(&self) -> bool {
        self.record.is_some() || self.video.is_some()
    }

    /// Refuses, before any run, a recording file of a kind Clasp does not write (or a `.rrd`
    /// with no Python to write it), and a video of a kind or frame rate it does not.
    pub fn check(&self) -> Result<(), Failure> {
        if let Some(path) = &self.record {
            let kind = clasp_io::recording_kind(path).map_err(|e| e.to_string())?;
            if kind == clasp_io::RecordingKind::Rerun {
                clasp_io::check_rrd_python(&clasp_io::rrd_python(), path)
                    .map_err(|e| e.to_string())?;
            }
        }
        if let Some(path) = &self.video {
            check_video(path, self.fps()).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The video's frames a second.
    fn fps(&self) -> u32 {
        self.fps.unwrap_or(DEFAULT_FPS)
    }

    /// Writes what was asked of `recording`, a run that began in `start`; says what was
    /// written, a line each.
    pub fn write(
        &self,
        recording: &Recording,
        start: &World,
        root: Option<&Path>,
    ) -> Result<String, Failure> {
        let mut said = String::new();
        if let Some(path) = &self.record {
            clasp_io::save_any_recording(recording, start, path, root, &clasp_io::rrd_python())
                .map_err(|e| e.to_string())?;
            said.push_str(&format!(
                "recorded {} moments to {}\n",
                recording.moments.len(),
                path.display()
            ));
        }
        if let Some(path) = &self.video {
            let view = View {
                look_at: self.camera,
                look_from: self.look_from,
                fov_degrees: self.fov,
                size: self.size,
            };
            let camera = camera(start, &view).map_err(|e| format!("{}: {e}", path.display()))?;
            let renderer = Renderer::new().map_err(|e| e.to_string())?;
            let fps = self.fps();
            let video = render_video(&renderer, start, recording, &camera, fps, path)
                .map_err(|e| e.to_string())?;
            said.push_str(&format!(
                "wrote {} frames of {}x{} at {} fps to {}\n",
                video.frames,
                video.size.0,
                video.size.1,
                video.fps,
                path.display()
            ));
        }
        Ok(said)
    }
}
