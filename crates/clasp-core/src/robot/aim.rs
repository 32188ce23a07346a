//! Placing a hand round an object: the palm moved along its approach direction, aimed at a
//! target, or set round it; and how far the hand reaches from its palm.

use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};

use super::Robot;
use crate::pose::Pose;

impl Robot {
    /// The palm moved `distance` mm along its approach direction (the palm's z where its file
    /// gives none), not turned.
    pub fn approached(&self, distance: f64) -> Pose {
        let start = self.pose();
        let shift = start.rotation * self.approach_direction().into_inner() * distance;
        Pose::from_parts((start.translation.vector + shift).into(), start.rotation)
    }

    /// The way the palm approaches, in its own frame: its file's approach direction, else its
    /// z.
    pub fn approach_direction(&self) -> Unit<Vector3<f64>> {
        self.approach
            .as_ref()
            .map_or(Vector3::z_axis(), |a| a.direction)
    }

    /// The palm pose that puts the approach reference point `distance` mm from `target`,
    /// approaching it along `towards` (from the hand to the target), turned `roll` radians
    /// about that line: how a planner or a batch places a hand round an object. A robot
    /// without an approach direction approaches along its palm's z from its origin.
    pub fn pose_aiming_at(
        &self,
        target: nalgebra::Point3<f64>,
        towards: Unit<Vector3<f64>>,
        distance: f64,
        roll: f64,
    ) -> Pose {
        let (reference, direction) = self
            .approach
            .as_ref()
            .map_or((nalgebra::Point3::origin(), Vector3::z_axis()), |a| {
                (a.reference, a.direction)
            });
        let aim =
            UnitQuaternion::rotation_between_axis(&direction, &towards).unwrap_or_else(|| {
                // Opposite directions: any half turn about an axis across them.
                let across = Unit::new_normalize(
                    direction
                        .cross(&Vector3::x())
                        .try_normalize(1e-6)
                        .unwrap_or_else(Vector3::y),
                );
                UnitQuaternion::from_axis_angle(&across, std::f64::consts::PI)
            });
        let rotation = UnitQuaternion::from_axis_angle(&towards, roll) * aim;
        let start = target - towards.into_inner() * distance;
        let origin = start - rotation * reference.coords;
        Pose::from_parts(Translation3::from(origin.coords), rotation)
    }

    /// `count` palm poses round `target`, `distance` mm away, each aimed at it horizontally
    /// from its own side, evenly round the vertical: where a batch of grasps starts.
    pub fn poses_round(
        &self,
        target: nalgebra::Point3<f64>,
        count: usize,
        distance: f64,
    ) -> Vec<Pose> {
        (0..count)
            .map(|k| {
                let angle = std::f64::consts::TAU * k as f64 / count as f64;
                let towards = Unit::new_normalize(Vector3::new(-angle.cos(), -angle.sin(), 0.0));
                self.pose_aiming_at(target, towards, distance, 0.0)
            })
            .collect()
    }

    /// How far the robot reaches from its palm's origin (mm): the farthest corner of any of
    /// its bodies' boxes, with its DOFs as they are, wherever the robot stands.
    pub fn reach(&self) -> f64 {
        let palm = self.pose().inverse();
        self.bodies()
            .filter(|b| !b.mesh().is_empty())
            .flat_map(|b| {
                let (lo, hi) = b.mesh().bounding_box();
                let local = palm * b.pose();
                (0..8).map(move |k| {
                    let corner = nalgebra::Point3::new(
                        if k & 1 == 0 { lo.x } else { hi.x },
                        if k & 2 == 0 { lo.y } else { hi.y },
                        if k & 4 == 0 { lo.z } else { hi.z },
                    );
                    (local * corner).coords.norm()
                })
            })
            .fold(0.0, f64::max)
    }
}
