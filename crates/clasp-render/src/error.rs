//! What the renderer refuses, and why: its one error type.

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
