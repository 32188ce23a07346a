//! What a render gives: the colour, the depth and the body of every pixel, and the points
//! the depth stands for.

use clasp_core::BodyId;
use nalgebra::Point3;

use crate::camera::Camera;

/// One render, row by row from the top left.
#[derive(Debug, Clone, PartialEq)]
pub struct Images {
    pub camera: Camera,
    /// sRGB, 3 bytes a pixel.
    pub rgb: Vec<u8>,
    /// Distance along the view axis (the camera's z), mm; infinite where nothing is seen.
    pub depth: Vec<f32>,
    /// The index in `bodies` of the body seen at each pixel; −1 where none is.
    pub segmentation: Vec<i32>,
    /// The bodies by index: the world's `body_ids()` when the scene was made.
    pub bodies: Vec<BodyId>,
}

/// The frame a point cloud is given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloudFrame {
    World,
    /// OpenCV's camera axes: x right, y down, z forward.
    Camera,
}

/// The points a depth image stands for, one per pixel that sees a body, with that body's
/// index and the pixel it came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointCloud {
    pub points: Vec<Point3<f64>>,
    pub segmentation: Vec<i32>,
    /// (column, row) of each point's pixel.
    pub pixels: Vec<(u32, u32)>,
}

impl Images {
    pub fn width(&self) -> u32 {
        self.camera.width
    }

    pub fn height(&self) -> u32 {
        self.camera.height
    }

    /// The point each pixel's centre sees at its depth, in `frame`.
    pub fn point_cloud(&self, frame: CloudFrame) -> PointCloud {
        let k = self.camera.intrinsics();
        let mut cloud = PointCloud::default();
        let width = self.width() as usize;
        for (i, &z) in self.depth.iter().enumerate() {
            if !z.is_finite() {
                continue;
            }
            let (column, row) = ((i % width) as u32, (i / width) as u32);
            let z = z as f64;
            let seen = Point3::new(
                (column as f64 + 0.5 - k.cx) * z / k.fx,
                (row as f64 + 0.5 - k.cy) * z / k.fy,
                z,
            );
            cloud.points.push(match frame {
                CloudFrame::Camera => seen,
                CloudFrame::World => self.camera.pose * seen,
            });
            cloud.segmentation.push(self.segmentation[i]);
            cloud.pixels.push((column, row));
        }
        cloud
    }
}
