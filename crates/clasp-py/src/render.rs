//! `clasp.World`'s pictures: a headless render (RGB, depth, body mask) and the point cloud its
//! depth stands for. One renderer (GPU device) serves the process, opened on first use.

use std::sync::OnceLock;

use clasp_render::{Camera, CloudFrame, Images, Renderer};
use numpy::{IntoPyArray, ndarray::Array2, ndarray::Array3};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::{convert, errors::move_error, ids::PyBodyId, world::PyWorld};

/// The process's renderer, or why there is none.
pub(crate) fn renderer() -> PyResult<&'static Renderer> {
    static RENDERER: OnceLock<Result<Renderer, String>> = OnceLock::new();
    RENDERER
        .get_or_init(|| Renderer::new().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(move_error)
}

impl PyWorld {
    /// The camera the keywords describe: a 4×4 pose, a direction to frame the object from,
    /// or the world's default view.
    pub(crate) fn camera(
        &self,
        camera: Option<&Bound<'_, PyAny>>,
        look_from: Option<[f64; 3]>,
        fov: f64,
        size: (u32, u32),
    ) -> PyResult<Camera> {
        let fov = fov.to_radians();
        let made = match (camera, look_from) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err("give camera or look_from, not both"));
            }
            (Some(pose), None) => {
                let camera = Camera {
                    pose: convert::pose(pose)?,
                    fov_y: fov,
                    width: size.0,
                    height: size.1,
                };
                camera.check().map(|()| camera)
            }
            (None, Some(direction)) => {
                let object = self.object(None)?;
                Camera::framing(&self.world, object, direction.into(), fov, size)
            }
            (None, None) => Camera::default_for(&self.world, fov, size),
        };
        made.map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn images(
        &self,
        py: Python<'_>,
        camera: Option<&Bound<'_, PyAny>>,
        look_from: Option<[f64; 3]>,
        fov: f64,
        size: (u32, u32),
    ) -> PyResult<Images> {
        let camera = self.camera(camera, look_from, fov, size)?;
        let renderer = renderer()?;
        let world = &self.world;
        py.detach(|| renderer.render_world(world, &camera))
            .map_err(|e| match e {
                clasp_render::RenderError::BadSize(_)
                | clasp_render::RenderError::BadCamera(_)
                | clasp_render::RenderError::CameraInside(_) => {
                    PyValueError::new_err(e.to_string())
                }
                other => move_error(other),
            })
    }
}

#[pymethods]
impl PyWorld {
    /// Renders the world headless (no window: Vulkan on a GPU, or Mesa's software Vulkan).
    /// The camera: `camera` (4×4 camera-to-world pose, OpenCV axes: x right, y down, z
    /// forward, mm), or `look_from` (a direction to frame the grasped object from), else the
    /// world's saved camera or a view of it all; `fov` is vertical, degrees. Returns `rgb`
    /// (H, W, 3) uint8, `depth` (H, W) float32 (mm along the view axis, inf where nothing is
    /// seen), `segmentation` (H, W) int32 (index into `bodies`, −1 where no body is),
    /// `bodies`, `intrinsics` (3×3 K) and `camera` (4×4). Bad sizes (0 or over 16384), a
    /// camera inside a body or with a NaN pose raise `ValueError`.
    #[pyo3(signature = (camera=None, width=640, height=480, look_from=None, fov=45.0))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        camera: Option<&Bound<'py, PyAny>>,
        width: u32,
        height: u32,
        look_from: Option<[f64; 3]>,
        fov: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let images = self.images(py, camera, look_from, fov, (width, height))?;
        let (w, h) = (width as usize, height as usize);
        let out = PyDict::new(py);
        put_camera(py, &images, &out)?;
        // The images move into numpy's arrays: no copy of them is made.
        let rgb = Array3::from_shape_vec((h, w, 3), images.rgb).map_err(shape_error)?;
        out.set_item("rgb", rgb.into_pyarray(py))?;
        let depth = Array2::from_shape_vec((h, w), images.depth).map_err(shape_error)?;
        out.set_item("depth", depth.into_pyarray(py))?;
        let mask = Array2::from_shape_vec((h, w), images.segmentation).map_err(shape_error)?;
        out.set_item("segmentation", mask.into_pyarray(py))?;
        Ok(out)
    }

    /// The points the depth of a render (as `render` takes its camera) stands for, one per
    /// pixel that sees a body: `points` (N, 3) mm in `frame` ("world" or "camera", OpenCV
    /// axes), `segmentation` (N,) the body's index in `bodies`, `pixels` (N, 2) column and row,
    /// with `intrinsics` and `camera`.
    #[pyo3(signature = (camera=None, width=640, height=480, look_from=None, fov=45.0, frame="world"))]
    #[allow(clippy::too_many_arguments)]
    fn point_cloud<'py>(
        &self,
        py: Python<'py>,
        camera: Option<&Bound<'py, PyAny>>,
        width: u32,
        height: u32,
        look_from: Option<[f64; 3]>,
        fov: f64,
        frame: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let frame = match frame {
            "world" => CloudFrame::World,
            "camera" => CloudFrame::Camera,
            other => {
                return Err(PyValueError::new_err(format!(
                    "frame is \"world\" or \"camera\", not {other:?}"
                )));
            }
        };
        let images = self.images(py, camera, look_from, fov, (width, height))?;
        let cloud = images.point_cloud(frame);
        let out = PyDict::new(py);
        let points: Vec<[f64; 3]> = cloud.points.iter().map(|p| [p.x, p.y, p.z]).collect();
        out.set_item("points", convert::rows_array(py, &points))?;
        out.set_item("segmentation", cloud.segmentation.into_pyarray(py))?;
        let pixels = Array2::from_shape_fn((cloud.pixels.len(), 2), |(k, c)| match c {
            0 => cloud.pixels[k].0 as i64,
            _ => cloud.pixels[k].1 as i64,
        });
        out.set_item("pixels", pixels.into_pyarray(py))?;
        put_camera(py, &images, &out)?;
        Ok(out)
    }
}

/// The render's `bodies`, `intrinsics` and `camera`.
fn put_camera<'py>(py: Python<'py>, images: &Images, out: &Bound<'py, PyDict>) -> PyResult<()> {
    let bodies: Vec<PyBodyId> = images.bodies.iter().map(|&id| PyBodyId(id)).collect();
    out.set_item("bodies", bodies)?;
    let k = images.camera.intrinsics().matrix();
    out.set_item(
        "intrinsics",
        Array2::from_shape_fn((3, 3), |(r, c)| k[(r, c)]).into_pyarray(py),
    )?;
    out.set_item("camera", convert::pose_array(py, &images.camera.pose))?;
    Ok(())
}

fn shape_error(e: impl std::fmt::Display) -> PyErr {
    move_error(format!("a render of the wrong size: {e}"))
}
