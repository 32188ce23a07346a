//! Batches of grasps from Python, on clasp-core's batch: candidates from numpy arrays, the
//! batch on a pool of the threads asked for, and its answers as numpy arrays.

use clasp_core::{
    BatchGrasp, BatchQuality, BodyId, GraspCandidate, GraspTrial, MoveError, Robot, RobotId, World,
};
use numpy::IntoPyArray;
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::{convert, errors::move_error};

/// The candidates a mapping describes: aims (`direction` (N, 3), `roll` (N,), `dofs` (N, D)),
/// turned into starts round the object as `clasp.grasp_candidates` turns them, or else
/// explicit starts (`palm` (N, 4, 4), `dofs`, `approach` (N,)).
pub fn candidates_from(
    world: &World,
    hand: &Robot,
    object: BodyId,
    candidates: &Bound<'_, PyAny>,
) -> PyResult<Vec<GraspCandidate>> {
    let field = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match candidates.get_item(name) {
            Ok(value) => Ok(Some(value)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(candidates.py()) => Ok(None),
            Err(e) => Err(e),
        }
    };
    let dofs = field("dofs")?.ok_or_else(|| missing("dofs"))?;
    let dofs = convert::array2::<f64>(&dofs, "float64")?;
    let dofs = dofs.as_array();
    if let (Some(directions), Some(rolls)) = (field("direction")?, field("roll")?) {
        let directions = convert::array2::<f64>(&directions, "float64")?;
        let rolls = convert::array1(&rolls)?;
        let (directions, rolls) = (directions.as_array(), rolls.as_array());
        same_count(&[directions.nrows(), rolls.len(), dofs.nrows()])?;
        if directions.ncols() != 3 {
            return Err(PyValueError::new_err(format!(
                "directions are (N, 3), not (N, {})",
                directions.ncols()
            )));
        }
        let aims = (0..rolls.len())
            .map(|k| {
                let d = directions.row(k);
                Ok(clasp_core::GraspAim {
                    towards: convert::unit(nalgebra::Vector3::new(d[0], d[1], d[2]))?,
                    roll: rolls[k],
                    dofs: dofs.row(k).to_vec(),
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        return clasp_core::aimed_candidates(world, hand, object, &aims).map_err(move_error);
    }
    let palms = field("palm")?.ok_or_else(|| missing("palm"))?;
    let approach = field("approach")?.ok_or_else(|| missing("approach"))?;
    let approach = convert::array1(&approach)?;
    let approach = approach.as_array();
    let count: usize = palms.len()?;
    same_count(&[count, approach.len(), dofs.nrows()])?;
    // Optional: which approaches go through (a gripper's); none where it is not given.
    let through: Option<Vec<bool>> = field("through")?.map(|t| t.extract()).transpose()?;
    if let Some(through) = &through {
        same_count(&[count, through.len()])?;
    }
    (0..count)
        .map(|k| {
            Ok(GraspCandidate {
                palm: convert::pose(&palms.get_item(k)?)?,
                dofs: dofs.row(k).to_vec(),
                approach: approach[k],
                through: through.as_ref().is_some_and(|t| t[k]),
            })
        })
        .collect()
}

fn missing(name: &str) -> PyErr {
    PyValueError::new_err(format!(
        "grasp candidates need \"{name}\": aims (direction, roll, dofs) or starts (palm, dofs, approach)"
    ))
}

fn same_count(counts: &[usize]) -> PyResult<()> {
    if counts.windows(2).all(|w| w[0] == w[1]) {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "the candidates' arrays have different lengths: {counts:?}"
        )))
    }
}

/// Each candidate's DOF values fit the hand: one per DOF, finite, within the limits; the
/// first that does not is a `ValueError` naming its row.
pub fn check_dofs(hand: &Robot, candidates: &[GraspCandidate]) -> PyResult<()> {
    for (k, candidate) in candidates.iter().enumerate() {
        if let Err(why) = hand.check_dof_values(&candidate.dofs) {
            return Err(PyValueError::new_err(format!("candidate {k}: {why}")));
        }
    }
    Ok(())
}

/// A pool of `threads` threads (1 or more), or None for rayon's pool of every core.
pub fn pool(threads: Option<usize>) -> PyResult<Option<rayon::ThreadPool>> {
    match threads {
        None => Ok(None),
        Some(0) => Err(PyValueError::new_err(
            "threads must be 1 or more (None: every core)",
        )),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}"))),
    }
}

/// Runs a batch on `pool` (rayon's pool of every core when None).
pub fn run(
    world: &World,
    robot: RobotId,
    object: BodyId,
    candidates: &[GraspCandidate],
    quality: BatchQuality,
    pool: Option<&rayon::ThreadPool>,
) -> Result<Vec<BatchGrasp>, MoveError> {
    let batch = || world.grasp_batch(robot, object, candidates, quality);
    match pool {
        None => batch(),
        Some(pool) => pool.install(batch),
    }
}

/// The physics test of each grasp (`World::test_grasps`) on `pool`; `None` for a grasp that
/// cannot be tested (the hand in the object).
pub fn tests(
    world: &World,
    robot: RobotId,
    object: BodyId,
    grasps: &[GraspTrial],
    settings: &clasp_core::HoldSettings,
    pool: Option<&rayon::ThreadPool>,
) -> Vec<Option<clasp_core::HoldTest>> {
    let test = || world.test_grasps(robot, object, grasps, settings);
    match pool {
        None => test(),
        Some(pool) => pool.install(test),
    }
    .into_iter()
    .map(Result::ok)
    .collect()
}

/// Grasps' answers as numpy arrays, a row per grasp: palm, DOFs, contacts, force closure,
/// epsilon and volume (NaN where there is none).
pub fn trial_arrays<'py>(
    py: Python<'py>,
    trials: &[&GraspTrial],
    dof_count: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let arrays = PyDict::new(py);
    let palms: Vec<_> = trials.iter().map(|t| t.palm).collect();
    let dofs: Vec<Vec<f64>> = trials.iter().map(|t| t.dof_values.clone()).collect();
    let quality = |f: &dyn Fn(&clasp_core::Quality) -> Option<f64>| {
        let column = trials
            .iter()
            .map(|t| t.quality.as_ref().and_then(f).unwrap_or(f64::NAN));
        column.collect::<Vec<f64>>().into_pyarray(py)
    };
    arrays.set_item("palm", convert::poses_array(py, &palms))?;
    arrays.set_item("dofs", convert::matrix_array(py, &dofs, dof_count))?;
    let contacts: Vec<i64> = trials.iter().map(|t| t.contacts.len() as i64).collect();
    arrays.set_item("contacts", contacts.into_pyarray(py))?;
    let closure: Vec<bool> = trials.iter().map(|t| t.force_closure()).collect();
    arrays.set_item("force_closure", closure.into_pyarray(py))?;
    arrays.set_item("epsilon", quality(&|q| q.epsilon))?;
    arrays.set_item("volume", quality(&|q| q.volume))?;
    Ok(arrays)
}

/// A batch's answers as numpy arrays: each grasp's (`trial_arrays`) and the seconds it took.
pub fn result_arrays<'py>(
    py: Python<'py>,
    grasps: &[BatchGrasp],
    dof_count: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let trials: Vec<&GraspTrial> = grasps.iter().map(|g| &g.trial).collect();
    let arrays = trial_arrays(py, &trials, dof_count)?;
    let seconds: Vec<f64> = grasps.iter().map(|g| g.seconds).collect();
    arrays.set_item("seconds", seconds.into_pyarray(py))?;
    Ok(arrays)
}
