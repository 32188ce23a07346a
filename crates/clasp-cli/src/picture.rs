//! `render`: a world as a camera sees it, headless — the colour image as PNG, and on request the
//! depth (mm along the view axis: 16-bit PNG, 0 where nothing is seen, or float32 `.npy`, inf
//! there) and the body mask (16-bit PNG of the body's index + 1, 0 where none is; or int32
//! `.npy`, −1 there); it prints the camera, its intrinsics and the index of each body.

use std::path::{Path, PathBuf};

use clasp_core::World;
use clasp_render::{Camera, DEFAULT_FOV_Y, Images, Renderer};
use nalgebra::{Point3, Vector3};
use serde_json::json;

use crate::{
    output::{Failure, Format, world_error},
    world_file::load,
};

/// Where the camera is, as the command line gives it.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// Eye and target, world mm.
    pub look_at: Option<[f64; 6]>,
    /// From this direction at the grasped object (or the first body), framing it.
    pub look_from: Option<[f64; 3]>,
    pub fov_degrees: Option<f64>,
    pub size: (u32, u32),
}

/// What to write.
pub struct Outputs {
    pub rgb: PathBuf,
    pub depth: Option<PathBuf>,
    pub mask: Option<PathBuf>,
}

pub fn render(
    file: &Path,
    root: Option<&Path>,
    view: &View,
    outputs: &Outputs,
    format: Format,
) -> Result<String, Failure> {
    let world = load(file, root)?;
    let camera = camera(&world, view).map_err(|e| world_error(file, e))?;
    let renderer = Renderer::new().map_err(|e| e.to_string())?;
    let images = renderer
        .render_world(&world, &camera)
        .map_err(|e| world_error(file, e))?;
    write_rgb(&outputs.rgb, &images)?;
    if let Some(path) = &outputs.depth {
        write_depth(path, &images)?;
    }
    if let Some(path) = &outputs.mask {
        write_mask(path, &images)?;
    }
    Ok(describe(&world, &images, renderer.adapter(), format))
}

pub(crate) fn camera(world: &World, view: &View) -> Result<Camera, clasp_render::RenderError> {
    let fov = view.fov_degrees.map_or(DEFAULT_FOV_Y, f64::to_radians);
    if let Some([x, y, z, tx, ty, tz]) = view.look_at {
        let up = Vector3::z();
        return Camera::looking_at(
            Point3::new(x, y, z),
            Point3::new(tx, ty, tz),
            up,
            fov,
            view.size,
        );
    }
    if let Some(direction) = view.look_from {
        let body = world
            .grasped_object()
            .or_else(|| world.body_ids().first().copied())
            .ok_or(clasp_render::RenderError::Empty)?;
        return Camera::framing(world, body, Vector3::from(direction), fov, view.size);
    }
    Camera::default_for(world, fov, view.size)
}

fn describe(world: &World, images: &Images, adapter: &str, format: Format) -> String {
    let k = images.camera.intrinsics();
    let names: Vec<String> = images
        .bodies
        .iter()
        .map(|&id| world.body(id).map_or(String::new(), |b| b.name.clone()))
        .collect();
    let seen = |index: usize| {
        images
            .segmentation
            .iter()
            .filter(|&&s| s == index as i32)
            .count()
    };
    match format {
        Format::Json => json!({
            "width": images.width(),
            "height": images.height(),
            "intrinsics": {"fx": k.fx, "fy": k.fy, "cx": k.cx, "cy": k.cy},
            "camera_to_world": crate::render::pose_row(&images.camera.pose),
            "bodies": names.iter().enumerate().map(|(i, n)| json!({"index": i, "name": n, "pixels": seen(i)})).collect::<Vec<_>>(),
            "adapter": adapter,
        })
        .to_string(),
        Format::Text => {
            let mut text = format!(
                "{}×{} from ({:.1}, {:.1}, {:.1}) mm, fx = fy = {:.2} px; {adapter}",
                images.width(),
                images.height(),
                images.camera.eye().x,
                images.camera.eye().y,
                images.camera.eye().z,
                k.fx
            );
            for (i, name) in names.iter().enumerate() {
                text += &format!("\n  {i}: {name} ({} pixels)", seen(i));
            }
            text
        }
    }
}

fn write_rgb(path: &Path, images: &Images) -> Result<(), Failure> {
    let picture = image::RgbImage::from_raw(images.width(), images.height(), images.rgb.clone())
        .ok_or_else(|| format!("{}: the image has the wrong size", path.display()))?;
    picture.save(path).map_err(|e| world_error(path, e))
}

fn is_npy(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

fn write_depth(path: &Path, images: &Images) -> Result<(), Failure> {
    if is_npy(path) {
        let bytes: Vec<u8> = images.depth.iter().flat_map(|d| d.to_le_bytes()).collect();
        return write_npy(path, "<f4", images, &bytes);
    }
    // Whole millimetres, 0 where nothing is seen (the usual depth PNG).
    let mm = images
        .depth
        .iter()
        .map(|&d| {
            if d.is_finite() {
                d.round().clamp(1.0, 65535.0) as u16
            } else {
                0
            }
        })
        .collect();
    write_png16(path, images, mm)
}

fn write_mask(path: &Path, images: &Images) -> Result<(), Failure> {
    if is_npy(path) {
        let bytes: Vec<u8> = images
            .segmentation
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect();
        return write_npy(path, "<i4", images, &bytes);
    }
    let labels = images
        .segmentation
        .iter()
        .map(|&s| (s + 1).clamp(0, 65535) as u16)
        .collect();
    write_png16(path, images, labels)
}

fn write_png16(path: &Path, images: &Images, values: Vec<u16>) -> Result<(), Failure> {
    let picture = image::ImageBuffer::<image::Luma<u16>, Vec<u16>>::from_raw(
        images.width(),
        images.height(),
        values,
    )
    .ok_or_else(|| format!("{}: the image has the wrong size", path.display()))?;
    picture.save(path).map_err(|e| world_error(path, e))
}

/// NumPy's `.npy` (version 1.0): its header, padded to 64 bytes, then the array row by row.
fn write_npy(path: &Path, dtype: &str, images: &Images, data: &[u8]) -> Result<(), Failure> {
    let mut header = format!(
        "{{'descr': '{dtype}', 'fortran_order': False, 'shape': ({}, {}), }}",
        images.height(),
        images.width()
    );
    let unpadded = 10 + header.len() + 1;
    header += &" ".repeat(unpadded.next_multiple_of(64) - unpadded);
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(data);
    std::fs::write(path, bytes).map_err(|e| world_error(path, e))
}
