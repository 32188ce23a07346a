//! Clasp's headless renderer: a world as a camera sees it — colour in the app's look, depth
//! along the view axis in millimetres, and which body each pixel shows — with no window and no
//! X server. It draws with wgpu on Vulkan: a GPU's driver where there is one, Mesa's software
//! lavapipe where there is none.
//!
//! A [`Renderer`] holds the device; a [`Scene`] holds a world's meshes on it, uploaded once and
//! drawn at the poses the world has at each render, so a dataset's many views and grasps of
//! one scene cost a draw and a read-back each.

mod camera;
mod gpu;
mod images;
mod video;

pub use camera::{Camera, DEFAULT_FOV_Y, Intrinsics, MAX_SIZE};
pub use gpu::{Renderer, Scene};
pub use images::{CloudFrame, Images, PointCloud};
pub use video::{DEFAULT_FPS, VideoError, VideoSummary, VideoWriter, check_video, render_video};

use clasp_core::BodyId;

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(
        "no GPU adapter (not even a software one): install Mesa's Vulkan drivers (mesa-vulkan-drivers) — {0}"
    )]
    NoAdapter(String),
    #[error("the GPU refused the device: {0}")]
    Device(String),
    #[error("{0}")]
    BadSize(String),
    #[error("{0}")]
    BadCamera(String),
    #[error("the camera is inside {0}: move it out to see anything")]
    CameraInside(String),
    #[error("there is no body {0:?}")]
    NoSuchBody(BodyId),
    #[error("the world has no bodies to frame")]
    Empty,
    #[error("the world's bodies changed since its scene was made: make the scene again")]
    StaleScene,
    #[error("reading the image back from the GPU failed: {0}")]
    Readback(String),
}
