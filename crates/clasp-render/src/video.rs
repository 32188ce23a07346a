//! Videos of recorded runs: each frame drawn by the headless renderer with the bodies where
//! the recording had them at that time, and written as an animated GIF by a pure-Rust encoder
//! (the image-rs `gif` crate: no program to install, plays in every browser and slide deck),
//! or as MP4, WebM, MKV or MOV by the `ffmpeg` program when it is on the PATH (no well-kept
//! pure-Rust encoder of those exists; ffmpeg is what every video tool uses).

use std::{
    fs::File,
    io::{BufWriter, Write},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
};

use clasp_core::{Recording, World};

use crate::{camera::Camera, error::RenderError, gpu::Renderer};

/// Frames a second when none is asked for.
pub const DEFAULT_FPS: u32 = 30;

/// Why a video could not be made.
#[derive(Debug, thiserror::Error)]
pub enum VideoError {
    #[error("{file}: {message}")]
    File { file: PathBuf, message: String },
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    Playback(#[from] clasp_core::PlaybackError),
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VideoSummary {
    pub frames: usize,
    /// The file's frame size: the camera's, an odd side padded by one for ffmpeg's encoders.
    pub size: (u32, u32),
    pub fps: u32,
}

/// Renders `recording` of a run in `world` (the world it was recorded in) from `camera`, `fps`
/// frames a second of simulated time from its first moment to its last, into `path` (by its
/// extension: `.gif`, or `.mp4`/`.webm`/`.mkv`/`.mov` through ffmpeg).
pub fn render_video(
    renderer: &Renderer,
    world: &World,
    recording: &Recording,
    camera: &Camera,
    fps: u32,
    path: &Path,
) -> Result<VideoSummary, VideoError> {
    let fail = |message: String| VideoError::File {
        file: path.to_path_buf(),
        message,
    };
    check_video(path, fps)?;
    let (Some(first), Some(last)) = (recording.moments.first(), recording.moments.last()) else {
        return Err(fail("the recording has no moments to draw".into()));
    };
    let size = (camera.width, camera.height);
    let mut writer = VideoWriter::create(path, size, fps)?;
    let scene = renderer.scene(world)?;
    let mut posed = world.clone();
    // A hair added: a span of whole frames that rounding left a hair short keeps its last.
    let frames = ((last.time - first.time) * fps as f64 + 1e-6).floor() as usize + 1;
    for k in 0..frames {
        // A hair past the frame's time, so a moment recorded at it is the one shown.
        let time = first.time + k as f64 / fps as f64 + 1e-9;
        if let Some(moment) = recording.at(time) {
            posed = moment.applied_to(posed)?;
        }
        let images = renderer.render(&scene, &posed, camera)?;
        writer.push(&images.rgb)?;
    }
    let size = writer.file_size();
    writer.finish()?;
    Ok(VideoSummary { frames, size, fps })
}

/// A video file being written, frame by frame (sRGB, 3 bytes a pixel).
pub struct VideoWriter {
    path: PathBuf,
    size: (u32, u32),
    fps: u32,
    /// Frames written so far.
    written: u64,
    sink: Sink,
}

/// The most frames a second a GIF plays at: its delays are whole hundredths of a second, and
/// players draw a delay under 2 hundredths as 10.
const GIF_MAX_FPS: u32 = 50;

/// Which encoder a file's extension asks for.
enum Encoder {
    Gif,
    Ffmpeg,
}

/// Refuses, before anything is drawn, a video file of a kind Clasp does not write, or a frame
/// rate it cannot play at (1 to 240 a second; a GIF at most 50).
pub fn check_video(path: &Path, fps: u32) -> Result<(), VideoError> {
    let most = match encoder_for(path)? {
        Encoder::Gif => GIF_MAX_FPS,
        Encoder::Ffmpeg => 240,
    };
    match (1..=most).contains(&fps) {
        true => Ok(()),
        false => Err(VideoError::File {
            file: path.to_path_buf(),
            message: format!("{fps} frames a second: give 1 to {most} for this kind of video"),
        }),
    }
}

fn encoder_for(path: &Path) -> Result<Encoder, VideoError> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("gif") => Ok(Encoder::Gif),
        Some("mp4" | "webm" | "mkv" | "mov") => Ok(Encoder::Ffmpeg),
        _ => Err(VideoError::File {
            file: path.to_path_buf(),
            message: "a video is a .gif (written by Clasp) or .mp4, .webm, .mkv or .mov (written by ffmpeg)".into(),
        }),
    }
}

enum Sink {
    Gif(Box<gif::Encoder<BufWriter<File>>>),
    Ffmpeg(Child),
}

impl VideoWriter {
    /// Starts a video at `path`; the extension chooses the encoder.
    pub fn create(path: &Path, size: (u32, u32), fps: u32) -> Result<VideoWriter, VideoError> {
        let fail = |message: String| VideoError::File {
            file: path.to_path_buf(),
            message,
        };
        let sink = match encoder_for(path)? {
            Encoder::Gif => Sink::Gif(Box::new(gif_encoder(path, size).map_err(fail)?)),
            Encoder::Ffmpeg => Sink::Ffmpeg(ffmpeg(path, size, fps).map_err(fail)?),
        };
        Ok(VideoWriter {
            path: path.to_path_buf(),
            size,
            fps: fps.max(1),
            written: 0,
            sink,
        })
    }

    /// The size of the file's frames: ffmpeg's 4:2:0 encoders pad an odd side by one pixel.
    pub fn file_size(&self) -> (u32, u32) {
        let (w, h) = self.size;
        match self.sink {
            Sink::Gif(_) => (w, h),
            Sink::Ffmpeg(_) => (w + w % 2, h + h % 2),
        }
    }

    /// Adds a frame.
    pub fn push(&mut self, rgb: &[u8]) -> Result<(), VideoError> {
        let (w, h) = self.size;
        let fail = |message: String| VideoError::File {
            file: self.path.clone(),
            message,
        };
        if rgb.len() != (w * h * 3) as usize {
            return Err(fail(format!(
                "a frame of {} bytes is not {w}×{h} RGB",
                rgb.len()
            )));
        }
        match &mut self.sink {
            Sink::Gif(encoder) => {
                // Speed 10 of 1..30: NeuQuant's palette, good for flat-shaded scenes.
                let mut frame = gif::Frame::from_rgb_speed(w as u16, h as u16, rgb, 10);
                frame.delay = gif_delay(self.written, self.fps);
                self.written += 1;
                encoder.write_frame(&frame).map_err(|e| fail(e.to_string()))
            }
            Sink::Ffmpeg(child) => child
                .stdin
                .as_mut()
                .ok_or("ffmpeg closed its input".to_string())
                .and_then(|stdin| {
                    stdin
                        .write_all(rgb)
                        .map_err(|e| format!("ffmpeg stopped: {e}"))
                })
                .map_err(fail),
        }
    }

    /// Ends the file.
    pub fn finish(self) -> Result<(), VideoError> {
        let fail = |message: String| VideoError::File {
            file: self.path.clone(),
            message,
        };
        match self.sink {
            Sink::Gif(encoder) => {
                let mut out = encoder.into_inner().map_err(|e| fail(e.to_string()))?;
                out.flush().map_err(|e| fail(e.to_string()))
            }
            Sink::Ffmpeg(mut child) => {
                drop(child.stdin.take());
                let output = child.wait_with_output().map_err(|e| fail(e.to_string()))?;
                match output.status.success() {
                    true => Ok(()),
                    false => Err(fail(format!(
                        "ffmpeg failed: {}",
                        String::from_utf8_lossy(&output.stderr).trim()
                    ))),
                }
            }
        }
    }
}

/// Frame `k`'s delay, hundredths of a second: the rounding spread over the frames (30 fps
/// is 3, 4, 3, 3, 4, 3, …), so the video plays at its rate.
fn gif_delay(k: u64, fps: u32) -> u16 {
    let at = |k: u64| (k as f64 * 100.0 / fps as f64).round() as u64;
    (at(k + 1) - at(k)) as u16
}

fn gif_encoder(path: &Path, (w, h): (u32, u32)) -> Result<gif::Encoder<BufWriter<File>>, String> {
    if w > u16::MAX as u32 || h > u16::MAX as u32 {
        return Err(format!("a GIF is at most 65535 pixels a side, not {w}×{h}"));
    }
    let file = File::create(path).map_err(|e| format!("cannot write: {e}"))?;
    let mut encoder = gif::Encoder::new(BufWriter::new(file), w as u16, h as u16, &[])
        .map_err(|e| e.to_string())?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| e.to_string())?;
    Ok(encoder)
}

/// ffmpeg reading raw RGB frames on stdin; even sizes padded, as H.264's 4:2:0 needs.
fn ffmpeg(path: &Path, (w, h): (u32, u32), fps: u32) -> Result<Child, String> {
    Command::new("ffmpeg")
        .args(["-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24"])
        .args(["-s", &format!("{w}x{h}"), "-r", &fps.to_string(), "-i", "-"])
        .args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p"])
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            format!("writing this video needs the ffmpeg program, which could not start ({e}): install ffmpeg, or write a .gif")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gif_delays_add_up_to_the_frame_rate() {
        for fps in [1, 7, 24, 25, 30, 50] {
            let total: u64 = (0..fps as u64 * 10).map(|k| gif_delay(k, fps) as u64).sum();
            assert_eq!(total, 1000, "{fps} fps: ten seconds");
            assert!((0..300).all(|k| gif_delay(k, fps) >= 2), "{fps} fps");
        }
        assert!(check_video(Path::new("a.gif"), 60).is_err());
        assert!(check_video(Path::new("a.mp4"), 60).is_ok());
        assert!(check_video(Path::new("a.mp4"), 0).is_err());
    }
}
