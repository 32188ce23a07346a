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

/// How amplitudes and DOF values map into each other for one robot (GraspIt's
/// `EigenGraspInterface`, not rigid: what lies outside the eigengrasps' span is kept). With E
/// the unit eigengrasps as rows, `n` the per-DOF normalisation and `o` the origin, a posture
/// `q` has amplitudes `a = (E Eᵀ)⁻¹ E ((q − o) / n)`, and amplitudes go back as
/// `q = (Eᵀ a) · n + o`, so that amplitudes → DOF values → amplitudes is the identity.
#[derive(Debug, Clone, PartialEq)]
pub struct EigenSpace {
    /// Unit eigengrasps, one row each.
    directions: nalgebra::DMatrix<f64>,
    /// `(E Eᵀ)⁻¹ E`: DOF space to amplitudes.
    projection: nalgebra::DMatrix<f64>,
    norm: Vec<f64>,
    origin: Vec<f64>,
    /// Each DOF's limits, which bound the amplitudes' ranges.
    limits: Vec<(f64, f64)>,
}

/// Why an eigengrasp file does not fit a robot.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EigenError {
    #[error("the eigengrasps span {dimensions} DOFs (or none); the robot has {dofs}")]
    Dimensions { dimensions: usize, dofs: usize },
    #[error("the eigengrasps are not independent: no projection onto them exists")]
    Dependent,
    #[error("expected {expected} amplitudes, got {got}")]
    AmplitudeCount { expected: usize, got: usize },
}

impl EigenSpace {
    /// The space of `grasps` for a robot whose DOFs have these limits. Without an origin in
    /// the file, the middle of each DOF's range; an origin outside a range is moved onto it
    /// (both as GraspIt does). A DOF without finite limits has its origin at 0.
    pub fn new(grasps: &EigenGrasps, limits: &[(f64, f64)]) -> Result<Self, EigenError> {
        // Each eigengrasp has a value per DOF, those the file leaves out 0. The file's own
        // `dimensions` is not trusted: GraspIt's MicoGripper file says 1 for its four DOFs.
        let dofs = limits.len();
        let longest = grasps
            .grasps
            .iter()
            .map(|g| g.values.len())
            .max()
            .unwrap_or(0);
        if longest > dofs || grasps.grasps.is_empty() {
            return Err(EigenError::Dimensions {
                dimensions: longest,
                dofs,
            });
        }
        let rows: Vec<Vec<f64>> = grasps
            .grasps
            .iter()
            .map(|g| {
                let length = g.values.iter().map(|v| v * v).sum::<f64>().sqrt();
                (0..dofs)
                    .map(|d| {
                        g.values.get(d).copied().unwrap_or(0.0) / length.max(f64::MIN_POSITIVE)
                    })
                    .collect()
            })
            .collect();
        let directions = nalgebra::DMatrix::from_fn(rows.len(), dofs, |e, d| rows[e][d]);
        let gram = &directions * directions.transpose();
        let projection = gram.try_inverse().ok_or(EigenError::Dependent)? * &directions;
        let norm = match &grasps.norm {
            Some(n) => (0..dofs)
                .map(|d| {
                    n.values
                        .get(d)
                        .copied()
                        .filter(|v| *v != 0.0)
                        .unwrap_or(1.0)
                })
                .collect(),
            None => vec![1.0; dofs],
        };
        let origin = limits
            .iter()
            .enumerate()
            .map(|(d, &(min, max))| {
                let given = grasps
                    .origin
                    .as_ref()
                    .and_then(|o| o.values.get(d).copied());
                match given {
                    Some(v) if min <= max => v.clamp(min, max),
                    Some(v) => v,
                    None if min.is_finite() && max.is_finite() => (min + max) / 2.0,
                    None => 0.0,
                }
            })
            .collect();
        Ok(Self {
            directions,
            projection,
            norm,
            origin,
            limits: limits.to_vec(),
        })
    }

    /// How many eigengrasps (amplitudes) the space has.
    pub fn len(&self) -> usize {
        self.directions.nrows()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The amplitudes of a posture.
    pub fn amplitudes(&self, dofs: &[f64]) -> Vec<f64> {
        let x = nalgebra::DVector::from_fn(self.origin.len(), |d, _| {
            (dofs[d] - self.origin[d]) / self.norm[d]
        });
        (&self.projection * x).iter().copied().collect()
    }

    /// The posture `current` becomes when its amplitudes are set to `amplitudes`: the change in
    /// amplitudes added along the eigengrasps; what lies outside their span is kept.
    pub fn dofs_for(&self, amplitudes: &[f64], current: &[f64]) -> Result<Vec<f64>, EigenError> {
        if amplitudes.len() != self.len() {
            return Err(EigenError::AmplitudeCount {
                expected: self.len(),
                got: amplitudes.len(),
            });
        }
        let now = self.amplitudes(current);
        let change = nalgebra::DVector::from_fn(self.len(), |e, _| amplitudes[e] - now[e]);
        let step = self.directions.transpose() * change;
        Ok((0..current.len())
            .map(|d| current[d] + step[d] * self.norm[d])
            .collect())
    }

    /// The range amplitude `e` can take from `current` while every DOF it moves stays within
    /// its limits (GraspIt's `setMinMax`, strict).
    pub fn amplitude_range(&self, e: usize, current: &[f64]) -> (f64, f64) {
        let now = self.amplitudes(current)[e];
        let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
        for (d, &(min, max)) in self.limits.iter().enumerate() {
            let rate = self.directions[(e, d)] * self.norm[d];
            if rate == 0.0 {
                continue;
            }
            let (a, b) = ((min - current[d]) / rate, (max - current[d]) / rate);
            low = low.max(a.min(b));
            high = high.min(a.max(b));
        }
        (now + low, now + high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Barrett's file: a spread eigengrasp and a close-all-three one, with an origin.
    fn barrett_like() -> EigenGrasps {
        let eg = |eigenvalue, values: Vec<f64>| EigenGrasp {
            eigenvalue,
            values,
            limits: None,
        };
        EigenGrasps {
            dimensions: 4,
            grasps: vec![
                eg(0.51, vec![1.0, 0.0, 0.0, 0.0]),
                eg(0.25, vec![0.0, 1.0, 1.0, 1.0]),
            ],
            origin: Some(eg(0.0, vec![1.13, 0.79, 0.79, 0.79])),
            norm: None,
        }
    }

    const LIMITS: [(f64, f64); 4] = [(0.0, 3.0), (0.0, 2.44), (0.0, 2.44), (0.0, 2.44)];

    #[test]
    fn amplitudes_set_are_the_amplitudes_read_and_the_rest_of_the_posture_is_kept() {
        let space = EigenSpace::new(&barrett_like(), &LIMITS).unwrap();
        assert_eq!(space.len(), 2);
        let origin = [1.13, 0.79, 0.79, 0.79];
        let at_origin = space.amplitudes(&origin);
        assert!(at_origin.iter().all(|a| a.abs() < 1e-12), "{at_origin:?}");
        // Off the span: finger 3 bent further than the others.
        let current = [1.0, 0.5, 0.5, 0.9];
        let dofs = space.dofs_for(&[0.2, 0.3], &current).unwrap();
        let back = space.amplitudes(&dofs);
        assert!(
            (back[0] - 0.2).abs() < 1e-12 && (back[1] - 0.3).abs() < 1e-12,
            "{back:?}"
        );
        // The close-all eigengrasp moves the three fingers alike, keeping finger 3 ahead.
        assert!((dofs[3] - dofs[1] - 0.4).abs() < 1e-12, "{dofs:?}");
        assert!((dofs[0] - (1.13 + 0.2)).abs() < 1e-12);
        // Its unit direction is (0, 1, 1, 1)/√3: amplitude 1 bends each finger 1/√3 rad.
        let bent = space.dofs_for(&[0.2, 1.3], &dofs).unwrap();
        assert!((bent[1] - dofs[1] - 1.0 / 3f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn an_amplitude_s_range_keeps_every_dof_within_its_limits() {
        let space = EigenSpace::new(&barrett_like(), &LIMITS).unwrap();
        let current = [1.0, 0.5, 0.5, 0.9];
        let (low, high) = space.amplitude_range(1, &current);
        for amplitude in [low, high] {
            let mut a = space.amplitudes(&current);
            a[1] = amplitude;
            let dofs = space.dofs_for(&a, &current).unwrap();
            for (d, &(min, max)) in LIMITS.iter().enumerate() {
                assert!(
                    dofs[d] >= min - 1e-9 && dofs[d] <= max + 1e-9,
                    "DOF {d}: {dofs:?}"
                );
            }
        }
        // Finger 3 (0.9) reaches 2.44 first closing, fingers 1 and 2 (0.5) reach 0 first opening.
        let now = space.amplitudes(&current)[1];
        let step = 1.0 / 3f64.sqrt();
        assert!((high - now - (2.44 - 0.9) / step).abs() < 1e-9);
        assert!((now - low - 0.5 / step).abs() < 1e-9);
        assert_eq!(
            EigenSpace::new(&barrett_like(), &LIMITS[..3]),
            Err(EigenError::Dimensions {
                dimensions: 4,
                dofs: 3
            })
        );
    }

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
