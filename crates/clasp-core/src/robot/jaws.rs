//! A parallel gripper's jaws, as the kinematics give them: two fingers that every closing DOF
//! slides toward each other (the Panda's, a Robotiq 2F's in its prismatic models). What the
//! antipodal candidates need: the line the jaws close along, the point between them, and how
//! wide they open.

use nalgebra::{Point3, Unit, Vector3};

use super::{Robot, inference::DofRole};

/// A parallel gripper's jaws in the palm's frame.
#[derive(Debug, Clone, PartialEq)]
pub struct ParallelJaws {
    /// The way from the first jaw to the second.
    pub closing: Unit<Vector3<f64>>,
    /// Midway between the jaws (their fingers' box centres).
    pub centre: Point3<f64>,
    /// How much wider the jaws stand open than shut (mm): the widest object they take.
    pub opening: f64,
}

impl Robot {
    /// The robot's jaws where it is a parallel gripper: two fingers, and every DOF that closes
    /// slides; `None` otherwise (a hand whose fingers turn, or a gripper that cannot open).
    pub fn parallel_jaws(&self) -> Option<ParallelJaws> {
        let fingers = self.finger_chains();
        let roles = self.infer_hand().roles;
        let closing: Vec<(usize, f64)> = roles
            .iter()
            .enumerate()
            .filter_map(|(d, role)| match role {
                DofRole::Closes { sense } => Some((d, *sense)),
                _ => None,
            })
            .collect();
        let slides = closing.iter().all(|&(d, _)| !self.dof_is_revolute(d));
        if fingers.len() != 2 || closing.is_empty() || !slides {
            return None;
        }
        // Each closing DOF at the end it opens from, then at the end it closes to.
        let at_end = |closed: bool| {
            let mut values = self.dof_values.clone();
            for &(d, sense) in &closing {
                let (lo, hi) = self.dof_limits(d);
                values[d] = if (sense > 0.0) == closed { hi } else { lo };
            }
            values
        };
        let palm = self.pose().inverse();
        let tips = |values: &[f64]| -> Vec<Point3<f64>> {
            let tips = self.fingertips(&fingers, &self.within_limits(values));
            tips.iter().map(|t| palm * t).collect()
        };
        let (open, shut) = (tips(&at_end(false)), tips(&at_end(true)));
        let opening = (open[1] - open[0]).norm() - (shut[1] - shut[0]).norm();
        let closing = Unit::try_new(open[1] - open[0], 1e-9)?;
        (opening.is_finite() && opening > 0.0).then(|| ParallelJaws {
            closing,
            centre: nalgebra::center(&open[0], &open[1]),
            opening,
        })
    }
}
