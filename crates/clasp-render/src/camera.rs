//! Where a render looks from: a pinhole camera with OpenCV's axes (x right, y down, z forward,
//! the convention datasets and point-cloud tools use), a pose in the world, a vertical field
//! of view and an image size; its intrinsics follow.

use clasp_core::{BodyId, Pose, World};
use nalgebra::{Matrix3, Point3, Rotation3, UnitQuaternion, Vector3};

use crate::error::RenderError;

/// The largest width or height a render may have (GPUs' usual texture limit).
pub const MAX_SIZE: u32 = 16384;

/// A pinhole camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Camera to world: its origin is the eye; +z looks into the scene, +y is down the image.
    pub pose: Pose,
    /// Vertical field of view, radians.
    pub fov_y: f64,
    pub width: u32,
    pub height: u32,
}

/// The pinhole's intrinsics in pixels: a point (x, y, z) of the camera's frame lands at
/// u = fx·x/z + cx, v = fy·y/z + cy; pixel (i, j) covers u ∈ [i, i+1), v ∈ [j, j+1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intrinsics {
    pub fx: f64,
    pub fy: f64,
    pub cx: f64,
    pub cy: f64,
}

impl Intrinsics {
    /// As the 3×3 matrix K.
    pub fn matrix(&self) -> Matrix3<f64> {
        Matrix3::new(self.fx, 0.0, self.cx, 0.0, self.fy, self.cy, 0.0, 0.0, 1.0)
    }
}

/// The field of view a camera gets when none is given: the app's (45°, Bevy's default).
pub const DEFAULT_FOV_Y: f64 = std::f64::consts::FRAC_PI_4;

impl Camera {
    /// A camera at `eye` looking at `target`, `up` (world) towards the top of the image.
    pub fn looking_at(
        eye: Point3<f64>,
        target: Point3<f64>,
        up: Vector3<f64>,
        fov_y: f64,
        (width, height): (u32, u32),
    ) -> Result<Self, RenderError> {
        let forward = (target - eye)
            .try_normalize(1e-9)
            .ok_or(RenderError::BadCamera(
                "the camera looks at its own position".into(),
            ))?;
        let right = forward
            .cross(&up)
            .try_normalize(1e-9)
            .ok_or(RenderError::BadCamera(
                "the camera's up is along its view".into(),
            ))?;
        let down = forward.cross(&right);
        let rotation =
            Rotation3::from_matrix_unchecked(Matrix3::from_columns(&[right, down, forward]));
        let camera = Self {
            pose: Pose::from_parts(
                eye.coords.into(),
                UnitQuaternion::from_rotation_matrix(&rotation),
            ),
            fov_y,
            width,
            height,
        };
        camera.check()?;
        Ok(camera)
    }

    /// A camera looking at `body` from `direction` (world, from the body towards the eye),
    /// far enough that the body's bounding ball fills the view's height; z up the image unless
    /// it looks along z.
    pub fn framing(
        world: &World,
        body: BodyId,
        direction: Vector3<f64>,
        fov_y: f64,
        size: (u32, u32),
    ) -> Result<Self, RenderError> {
        let found = world.body(body).ok_or(RenderError::NoSuchBody(body))?;
        let (centre, radius) = found.geometry().bounding_ball();
        let centre = found.pose() * centre;
        let direction = direction
            .try_normalize(1e-9)
            .filter(|d| d.iter().all(|x| x.is_finite()))
            .ok_or(RenderError::BadCamera(
                "the view direction is not a direction".into(),
            ))?;
        let distance = standoff(radius, fov_y);
        let up = match direction.z.abs() > 0.99 {
            true => Vector3::y(),
            false => Vector3::z(),
        };
        Self::looking_at(centre + direction * distance, centre, up, fov_y, size)
    }

    /// The world's saved viewpoint (GraspIt's `<camera>`, Inventor's camera: it looks along
    /// its −z with +y up), or `None` where the world has none.
    pub fn saved(world: &World, fov_y: f64, (width, height): (u32, u32)) -> Option<Self> {
        let saved = world.camera?;
        // Inventor's axes to OpenCV's: a half turn about x.
        let flip = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI);
        Some(Self {
            pose: Pose::from_parts(saved.position.coords.into(), saved.orientation * flip),
            fov_y,
            width,
            height,
        })
    }

    /// The camera the renderer falls back on: the world's saved one, else looking at the whole
    /// world from the front left and above, as the app opens it; `fov_y` vertical.
    pub fn default_for(world: &World, fov_y: f64, size: (u32, u32)) -> Result<Self, RenderError> {
        if let Some(saved) = Self::saved(world, fov_y, size) {
            return Ok(saved);
        }
        let (low, high) = world_box(world).ok_or(RenderError::Empty)?;
        let centre = Point3::from((low.coords + high.coords) / 2.0);
        let radius = ((high - low).norm() / 2.0).max(1.0);
        let direction = Vector3::new(-0.6, -1.0, 0.7).normalize();
        let eye = centre + direction * standoff(radius, fov_y);
        Self::looking_at(eye, centre, Vector3::z(), fov_y, size)
    }

    pub fn intrinsics(&self) -> Intrinsics {
        let f = self.height as f64 / 2.0 / (self.fov_y / 2.0).tan();
        Intrinsics {
            fx: f,
            fy: f,
            cx: self.width as f64 / 2.0,
            cy: self.height as f64 / 2.0,
        }
    }

    /// The eye, world mm.
    pub fn eye(&self) -> Point3<f64> {
        self.pose.translation.vector.into()
    }

    /// Refuses a size of 0 or over [`MAX_SIZE`], a field of view outside (0°, 180°) and a pose
    /// that is not finite.
    pub fn check(&self) -> Result<(), RenderError> {
        for (name, side) in [("width", self.width), ("height", self.height)] {
            if side == 0 || side > MAX_SIZE {
                return Err(RenderError::BadSize(format!(
                    "the image {name} is {side}: it must be 1 to {MAX_SIZE} pixels"
                )));
            }
        }
        // The field of view first: a pose framed with a bad one is not finite either.
        if !(self.fov_y.is_finite() && self.fov_y > 0.0 && self.fov_y < std::f64::consts::PI) {
            return Err(RenderError::BadCamera(format!(
                "the field of view is {}°: it must lie between 0° and 180°",
                self.fov_y.to_degrees()
            )));
        }
        let m = self.pose.to_homogeneous();
        if !m.iter().all(|x| x.is_finite()) {
            return Err(RenderError::BadCamera(
                "the camera's pose is not finite (NaN or infinite)".into(),
            ));
        }
        Ok(())
    }
}

/// How far from a ball's centre a camera stands for the ball to fill its view's height, with
/// a margin.
fn standoff(radius: f64, fov_y: f64) -> f64 {
    radius / (fov_y / 2.0).sin() * 1.05
}

/// The box round every body of the world, or `None` for an empty world.
pub(crate) fn world_box(world: &World) -> Option<(Point3<f64>, Point3<f64>)> {
    let mut corners = world.body_ids().into_iter().filter_map(|id| {
        let body = world.body(id)?;
        let (centre, radius) = body.geometry().bounding_ball();
        let centre = body.pose() * centre;
        let r = Vector3::repeat(radius);
        Some((centre - r, centre + r))
    });
    let first = corners.next()?;
    Some(corners.fold(first, |(low, high), (l, h)| (low.inf(&l), high.sup(&h))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_graspit_camera_looks_along_its_minus_z_with_y_up_the_image() {
        let mut world = World::default();
        // Inventor's camera turned so that its −z looks along world +y and its +y is world +z.
        let orientation =
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2);
        world.camera = Some(clasp_core::Camera {
            position: Point3::new(0.0, -500.0, 50.0),
            orientation,
            focal_distance: 500.0,
        });
        let camera = Camera::saved(&world, DEFAULT_FOV_Y, (64, 48)).unwrap();
        let axis = |v: Vector3<f64>| camera.pose.rotation * v;
        assert!(
            (axis(Vector3::z()) - Vector3::y()).norm() < 1e-12,
            "forward is world +y"
        );
        assert!(
            (axis(Vector3::y()) + Vector3::z()).norm() < 1e-12,
            "down the image is world −z"
        );
        assert!(
            (axis(Vector3::x()) - Vector3::x()).norm() < 1e-12,
            "right is world +x"
        );
        assert_eq!(camera.eye(), Point3::new(0.0, -500.0, 50.0));
        assert!(Camera::saved(&World::default(), DEFAULT_FOV_Y, (64, 48)).is_none());
    }

    #[test]
    fn looking_at_puts_the_target_on_the_optical_axis() {
        let eye = Point3::new(100.0, -200.0, 300.0);
        let target = Point3::new(-10.0, 20.0, 5.0);
        let camera = Camera::looking_at(eye, target, Vector3::z(), 0.9, (640, 480)).unwrap();
        let seen = camera.pose.inverse() * target;
        assert!(seen.x.abs() < 1e-9 && seen.y.abs() < 1e-9 && seen.z > 0.0);
        // World up is up the image: a point above the target is seen above the centre.
        let above = camera.pose.inverse() * (target + Vector3::z() * 10.0);
        assert!(above.y < 0.0);
        let k = camera.intrinsics();
        assert_eq!((k.cx, k.cy), (320.0, 240.0));
        assert!((k.fy - 240.0 / (0.45f64).tan()).abs() < 1e-9);
    }
}
