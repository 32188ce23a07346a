//! Eigengrasps: directions in DOF space that span a hand's typical postures (GraspIt's
//! eigengrasp files), used to search grasps in fewer dimensions than the hand has DOFs.

/// One eigengrasp: a direction in DOF space with its weight.
#[derive(Debug, Clone, PartialEq)]
pub struct EigenGrasp {
    /// The file's `EigenValue`: how much of the posture variance this direction explains.
    pub eigenvalue: f64,
    /// One value per DOF (`DimVals`; DOFs the file leaves out are 0).
    pub values: Vec<f64>,
    /// The amplitude range the file allows (`Limits min max`), if it gives one.
    pub limits: Option<(f64, f64)>,
}

/// A robot's eigengrasps, with the origin and normalisation GraspIt's files may add.
#[derive(Debug, Clone, PartialEq)]
pub struct EigenGrasps {
    /// The number of DOFs each eigengrasp spans (the file's `dimensions`).
    pub dimensions: usize,
    pub grasps: Vec<EigenGrasp>,
    /// The DOF values amplitude zero stands for (`<ORIGIN>`); `None` when the file gives none.
    pub origin: Option<EigenGrasp>,
    /// Per-DOF normalisation (`<NORM>`); `None` when the file gives none.
    pub norm: Option<EigenGrasp>,
}

impl EigenGrasps {
    /// One unit eigengrasp per DOF: what GraspIt uses for a robot without an eigengrasp file.
    pub fn identity(dimensions: usize) -> Self {
        let grasps = (0..dimensions)
            .map(|d| EigenGrasp {
                eigenvalue: 1.0,
                values: (0..dimensions)
                    .map(|i| f64::from(u8::from(i == d)))
                    .collect(),
                limits: None,
            })
            .collect();
        Self {
            dimensions,
            grasps,
            origin: None,
            norm: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_has_one_unit_direction_per_dof() {
        let eg = EigenGrasps::identity(3);
        assert_eq!(eg.grasps.len(), 3);
        assert_eq!(eg.grasps[1].values, vec![0.0, 1.0, 0.0]);
        assert!(
            eg.grasps
                .iter()
                .all(|g| g.eigenvalue == 1.0 && g.limits.is_none())
        );
    }
}
