//! A body's velocity, as GraspIt's dynamic state keeps it (v, 6×1): the linear velocity of its
//! centre of gravity and its angular velocity, both in world coordinates.

use nalgebra::Vector3;

/// Millimetres a second (of the centre of gravity) and radians a second, world axes.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Velocity {
    pub linear: Vector3<f64>,
    pub angular: Vector3<f64>,
}

impl Velocity {
    pub const ZERO: Velocity = Velocity {
        linear: Vector3::new(0.0, 0.0, 0.0),
        angular: Vector3::new(0.0, 0.0, 0.0),
    };

    pub fn new(linear: Vector3<f64>, angular: Vector3<f64>) -> Self {
        Velocity { linear, angular }
    }

    /// Every component a finite number.
    pub fn is_finite(&self) -> bool {
        self.linear
            .iter()
            .chain(self.angular.iter())
            .all(|x| x.is_finite())
    }

    /// The velocity of the body's point at `offset` from its centre of gravity (world axes).
    pub fn at(&self, offset: &Vector3<f64>) -> Vector3<f64> {
        self.linear + self.angular.cross(offset)
    }
}
