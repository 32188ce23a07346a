//! The fitted surface round a contact as the app draws it: a grid raised to the quadric's
//! height, in the world.

use nalgebra::Point3;

use super::{curvature::Quadric, fallback::SoftFallback};
use crate::pose::Pose;

/// How many points a side of the drawn soft-contact patch has (a 20×20 quad mesh).
pub const PATCH_SIDE: usize = 21;

/// The spacing (mm) of the drawn soft-contact patch's grid: 21 points span −7 to 7 mm.
pub const PATCH_SPACING: f64 = 0.7;

/// The fitted surface around a contact, for drawing: a [`PATCH_SIDE`]² grid at
/// [`PATCH_SPACING`] mm (x and y from −7 to 7 mm) in the contact frame, raised to the quadric's
/// height and mapped to the world by `frame` (the contact frame's pose). Row-major: point
/// `row·21 + col` is at x = (col − 10)·0.7, y = (row − 10)·0.7, so the centre (index 220) is
/// the contact point. The app draws it as a 20×20 quad mesh.
pub fn patch_grid(quadric: &Quadric, frame: &Pose) -> Result<Vec<Point3<f64>>, SoftFallback> {
    let frame_finite = frame.translation.vector.iter().all(|v| v.is_finite())
        && frame.rotation.coords.iter().all(|v| v.is_finite());
    if !quadric.is_finite() || !frame_finite {
        return Err(SoftFallback::NonFinite);
    }
    let half = (PATCH_SIDE / 2) as f64;
    let mut points = Vec::with_capacity(PATCH_SIDE * PATCH_SIDE);
    for row in 0..PATCH_SIDE {
        for col in 0..PATCH_SIDE {
            let x = (col as f64 - half) * PATCH_SPACING;
            let y = (row as f64 - half) * PATCH_SPACING;
            let world = frame * Point3::new(x, y, quadric.raw_height(x, y));
            if !world.coords.iter().all(|v| v.is_finite()) {
                return Err(SoftFallback::NonFinite);
            }
            points.push(world);
        }
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use nalgebra::{Translation3, UnitQuaternion};

    use super::*;

    #[test]
    fn patch_grid_maps_the_quadric_to_the_world() {
        let q = Quadric {
            a: 0.05,
            b: 0.02,
            c: -0.01,
        };
        let frame = Pose::from_parts(
            Translation3::new(10.0, -4.0, 25.0),
            UnitQuaternion::from_euler_angles(0.3, -0.7, 1.2),
        );
        let grid = patch_grid(&q, &frame).unwrap();
        assert_eq!(grid.len(), PATCH_SIDE * PATCH_SIDE);
        assert_eq!(grid.len(), 441);
        assert!(grid.iter().all(|p| p.coords.iter().all(|v| v.is_finite())));
        let centre = grid[PATCH_SIDE * PATCH_SIDE / 2];
        assert!((centre - Point3::new(10.0, -4.0, 25.0)).norm() < 1e-12);
        // Row-major from (−7, −7): the first point, the one after it, and the one a row later.
        let local = |x: f64, y: f64| frame * Point3::new(x, y, q.raw_height(x, y));
        assert!((grid[0] - local(-7.0, -7.0)).norm() < 1e-12);
        assert!((grid[1] - local(-6.3, -7.0)).norm() < 1e-12);
        assert!((grid[PATCH_SIDE] - local(-7.0, -6.3)).norm() < 1e-12);
        assert!((grid[440] - local(7.0, 7.0)).norm() < 1e-12);
        let bad = Pose::from_parts(
            Translation3::new(f64::NAN, 0.0, 0.0),
            UnitQuaternion::identity(),
        );
        assert_eq!(patch_grid(&q, &bad), Err(SoftFallback::NonFinite));
        let bad_q = Quadric {
            a: f64::INFINITY,
            b: 0.0,
            c: 0.0,
        };
        assert_eq!(patch_grid(&bad_q, &frame), Err(SoftFallback::NonFinite));
    }
}
