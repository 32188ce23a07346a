//! Clasp's headless renderer: a world as a camera sees it — colour in the app's look, depth
//! along the view axis in millimetres, and which body each pixel shows — with no window and no
//! X server. It draws with wgpu on Vulkan: a GPU's driver where there is one, Mesa's software
//! lavapipe where there is none.
//!
//! A [`Renderer`] holds the device; a [`Scene`] holds a world's meshes on it, uploaded once and
//! drawn at the poses the world has at each render, so a dataset's many views and grasps of
//! one scene cost a draw and a read-back each.

mod camera;
mod error;
mod gpu;
mod images;
mod pipeline;
mod targets;
mod video;

pub use camera::{Camera, DEFAULT_FOV_Y, Intrinsics, MAX_SIZE};
pub use error::RenderError;
pub use gpu::{DEVICE_SELECT_OFF, Renderer, Scene, quiet_device_select};
pub use images::{CloudFrame, Images, PointCloud};
pub use video::{DEFAULT_FPS, VideoError, VideoSummary, VideoWriter, check_video, render_video};
