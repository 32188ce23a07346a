//! `clasp.World`'s grasps: the quality of a grasp as the contacts stand, of a hand's virtual
//! contacts, and batches of grasps with the candidates they start from.

use std::path::PathBuf;

use clasp_core::{ContactOptions, Quality, WrenchSpaceKind};
use numpy::IntoPyArray;
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::{
    batch,
    convert::{self, python_bool},
    errors::{move_error, quality_error},
    hold,
    ids::PyBodyId,
    recordings::{check_record_path, write_recording},
    world::PyWorld,
};

/// A grasp's quality: force closure, the Ferrari–Canny epsilon (None when not force-closure),
/// the wrench space's volume (None unless asked for), the wrench space ("l1" or "linf"), and
/// how many contacts and wrenches made it.
#[pyclass(name = "Quality", module = "clasp", frozen, get_all)]
pub struct PyQuality {
    pub force_closure: bool,
    pub epsilon: Option<f64>,
    pub volume: Option<f64>,
    pub wrench_space: &'static str,
    pub contacts: usize,
    pub wrenches: usize,
}

#[pymethods]
impl PyQuality {
    fn __repr__(&self) -> String {
        let number = |x: Option<f64>| x.map_or("None".to_owned(), |x| format!("{x}"));
        format!(
            "Quality(force_closure={}, epsilon={}, volume={}, wrench_space='{}')",
            python_bool(self.force_closure),
            number(self.epsilon),
            number(self.volume),
            self.wrench_space
        )
    }
}

impl From<Quality> for PyQuality {
    fn from(q: Quality) -> Self {
        Self {
            force_closure: q.force_closure,
            epsilon: q.epsilon,
            volume: q.volume,
            wrench_space: q.wrench_space.name(),
            contacts: q.contacts,
            wrenches: q.wrenches,
        }
    }
}

/// "l1" or "linf".
pub fn wrench_space(name: &str) -> PyResult<WrenchSpaceKind> {
    name.parse::<WrenchSpaceKind>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// "epsilon" or "volume": whether the volume is computed too.
pub fn with_volume(metric: &str) -> PyResult<bool> {
    match metric {
        "epsilon" => Ok(false),
        "volume" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "the metric is \"epsilon\" or \"volume\", not {other:?}"
        ))),
    }
}

#[pymethods]
impl PyWorld {
    // ---- Grasps ----

    /// The quality of the grasp of `object` (default: the grasped object) by `robot` (default:
    /// the current hand) as the contacts stand: `metric` "epsilon" or "volume" (epsilon and
    /// the wrench space's volume), `gws` "l1" or "linf".
    #[pyo3(signature = (robot=None, object=None, metric="epsilon", gws="l1"))]
    fn grasp_quality(
        &self,
        py: Python<'_>,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        metric: &str,
        gws: &str,
    ) -> PyResult<PyQuality> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let (kind, volume) = (wrench_space(gws)?, with_volume(metric)?);
        let world = &self.world;
        let quality = py.detach(|| {
            let grasp = world
                .grasp(robot, object, &ContactOptions::default())
                .map_err(|e| e.to_string())?;
            let quality = match volume {
                true => grasp.quality_with_volume(kind),
                false => grasp.quality(kind),
            };
            quality.map_err(|e| e.to_string())
        });
        quality.map(Into::into).map_err(quality_error)
    }

    /// The quality of `robot`'s virtual contacts where they stand, with no object (GraspIt's
    /// planner's): torques about the centre of the contacts, over 150 mm.
    #[pyo3(signature = (robot=None, metric="epsilon", gws="l1"))]
    fn virtual_quality(
        &self,
        py: Python<'_>,
        robot: Option<usize>,
        metric: &str,
        gws: &str,
    ) -> PyResult<PyQuality> {
        let hand = self.robot(self.hand(robot)?)?;
        if hand.virtual_contacts_placed().is_empty() {
            return Err(quality_error(format!(
                "robot {} has no virtual contacts",
                hand.name
            )));
        }
        let (kind, volume) = (wrench_space(gws)?, with_volume(metric)?);
        py.detach(|| hand.virtual_quality(kind, volume))
            .map(Into::into)
            .map_err(quality_error)
    }

    /// Tries many grasps of `robot` (default: the current hand) on `object` (default: the
    /// grasped object) at once, in parallel on the machine's cores (`threads`, default all):
    /// each candidate in a domain of its own, on a clone of the hand, started, approached,
    /// auto-grasped and scored. `candidates` holds aims — `direction` (N, 3), `roll` (N,),
    /// `dofs` (N, D), as `clasp.grasp_candidates` draws them — or explicit starts — `palm`
    /// (N, 4, 4), `dofs`, `approach` (N,). Returns numpy arrays, a row per candidate: `palm`
    /// (N, 4, 4), `dofs` (N, D), `contacts` (N,), `force_closure` (N,), `epsilon` and `volume`
    /// (N,; NaN when not force-closure or not asked), `seconds` (N,); for a hand an arm
    /// carries, `reachable` (N,): whether the arm holds the hand there with arm and hand in
    /// nothing. Each grasp is what it would be alone. With `test`, each grasp's physics test
    /// (`test_preset` names it: `clasp`, the default, `dexgraspnet`, `bodex`, `graspgen`;
    /// `test_seconds` its pull) adds `held`, `hold_displacement`, `hold_rotation`,
    /// `squeeze_force` and `fingers_on_object`; `test_record` (a path or None per candidate)
    /// keeps each test's runs as a recording there (`.clasprec` or `.rrd`).
    #[pyo3(signature = (candidates, robot=None, object=None, metric="epsilon", gws="l1", threads=None, test=false, test_seconds=None, test_preset=None, test_record=None))]
    // Python's keyword arguments, each with its default: a struct would not be Python.
    #[allow(clippy::too_many_arguments)]
    fn grasp_batch<'py>(
        &self,
        py: Python<'py>,
        candidates: &Bound<'py, PyAny>,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        metric: &str,
        gws: &str,
        threads: Option<usize>,
        test: bool,
        test_seconds: Option<f64>,
        test_preset: Option<&str>,
        test_record: Option<Vec<Option<PathBuf>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let records = test_record.unwrap_or_default();
        if !records.is_empty() && !test {
            return Err(PyValueError::new_err(
                "test_record keeps the physics test's runs: it needs test=True",
            ));
        }
        for path in records.iter().flatten() {
            check_record_path(py, Some(path))?;
        }
        let hand = self.robot(robot)?;
        let candidates = batch::candidates_from(&self.world, hand, object, candidates)?;
        batch::check_dofs(hand, &candidates)?;
        if !records.is_empty() && records.len() != candidates.len() {
            return Err(PyValueError::new_err(format!(
                "test_record has {} entries for {} candidates: give one path (or None) each",
                records.len(),
                candidates.len()
            )));
        }
        let quality = clasp_core::BatchQuality {
            wrench_space: wrench_space(gws)?,
            volume: with_volume(metric)?,
        };
        let pool = batch::pool(threads)?;
        let world = &self.world;
        let grasps = py
            .detach(|| batch::run(world, robot, object, &candidates, quality, pool.as_ref()))
            .map_err(move_error)?;
        let arrays = batch::result_arrays(py, &grasps, self.robot(robot)?.dofs.len())?;
        if world.carrier(robot).is_some() {
            // The trials closed a free clone of the hand: whether its arm can hold each one.
            let reachable: Vec<bool> = py.detach(|| {
                grasps
                    .iter()
                    .map(|g| world.arm_reaches(robot, &g.trial))
                    .collect()
            });
            arrays.set_item("reachable", reachable.into_pyarray(py))?;
        }
        if test {
            let settings = hold::hold_settings(test_preset, test_seconds, None, None, None)?;
            let trials: Vec<_> = grasps.iter().map(|g| g.trial.clone()).collect();
            let tests =
                py.detach(|| batch::tests(world, robot, object, &trials, &settings, pool.as_ref()));
            hold::hold_arrays(py, &tests, &arrays)?;
            for ((path, trial), test) in records.iter().zip(&trials).zip(&tests) {
                if let (Some(path), Some(test)) = (path, test) {
                    record_test(py, world, robot, object, trial, test, path)?;
                }
            }
        }
        Ok(arrays)
    }
    /// Plans grasps of `object` (default: the grasped object) with `robot` (default: the
    /// current hand, which needs virtual contacts), after GraspIt's EigenGrasp planner:
    /// `searches` independent simulated-annealing searches of `steps` steps over the hand's pose
    /// round the object and its eigengrasp amplitudes, scored by `energy` ("mixed",
    /// "contact-quality", "contact", "quality" or "autograsp"), on `threads` threads; their best states closed and scored. Returns the
    /// `grasps` best, as `grasp_batch` does (`palm`, `dofs`, `contacts`, `force_closure`,
    /// `epsilon`, `volume`), with each one's `energy`, and the run's `search_energies` (the
    /// energy each search took: "mixed" chooses, and where a table or an arm lies within
    /// the hand's length of the object, all take "contact-quality"), `refined` (how many of
    /// its first kept states a plan short of its grasps refined with child searches that
    /// close the hand), `steps`, `evaluations`,
    /// `seconds` and `search_seconds`, `shares` (where the searches' time went, in seconds:
    /// `placement`, `collision`, `distances`, `quality`, `search`), and `why_empty`.
    /// `distance_grid`: the virtual contacts' distances read from a grid of the object's
    /// closest points instead of asked of the engine state by state (GraspIt's way).
    /// `annealing` sets the annealing's
    /// parameters by GraspIt's names (`yc`, `hc`, `ydims`, `hdims`, `nbr_adj`, `err_adj`,
    /// `t0`, `k0`, `attempts`; GraspIt's defaults for those not given). `guided`: GraspIt's
    /// guided planner, that many of the best states seeding child searches that close the
    /// hand. With `test` (or a `preset` naming the test), each grasp closed is put through
    /// the physics test and the planner closes states until `grasps` distinct ones hold:
    /// those first, with the test's arrays, `closed`, `tested` and `why_short_of_held`; a
    /// grasp that failed with the object still in the hand is tried again where its squeeze
    /// settled it (`settled` (N,) marks those grasps, `settled_tested` counts them). The
    /// same seed gives the same grasps.
    #[pyo3(signature = (steps=10_000, grasps=10, energy="mixed", seed=0, searches=4, robot=None, object=None, threads=None, test=false, preset=None, annealing=None, guided=None, distance_grid=false))]
    // Python's keyword arguments, each with its default: a struct would not be Python.
    #[allow(clippy::too_many_arguments)]
    fn plan<'py>(
        &self,
        py: Python<'py>,
        steps: u64,
        grasps: usize,
        energy: &str,
        seed: u64,
        searches: usize,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        threads: Option<usize>,
        test: bool,
        preset: Option<&str>,
        annealing: Option<std::collections::HashMap<String, f64>>,
        guided: Option<usize>,
        distance_grid: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let test = match test || preset.is_some() {
            true => Some(hold::hold_settings(preset, None, None, None, None)?),
            false => None,
        };
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let energy: clasp_core::PlanEnergy = energy.parse().map_err(PyValueError::new_err)?;
        let mut schedule = clasp_core::Annealing::default();
        for (name, value) in annealing.unwrap_or_default() {
            schedule.set(&name, value).map_err(PyValueError::new_err)?;
        }
        let settings = clasp_core::PlanSettings {
            steps,
            grasps,
            energy,
            seed,
            searches,
            distance_grid,
            annealing: schedule,
            guided: guided.map(|children| clasp_core::GuidedPlanning {
                children,
                ..clasp_core::GuidedPlanning::default()
            }),
            test,
            ..clasp_core::PlanSettings::default()
        };
        let pool = batch::pool(threads)?;
        let world = &self.world;
        let progress = clasp_core::PlanProgress::default();
        let run = || world.plan(robot, object, &settings, &progress);
        let plan = py
            .detach(|| match &pool {
                Some(pool) => pool.install(run),
                None => run(),
            })
            .map_err(move_error)?;
        // Tested in the plan where asked (a parallel gripper's always are).
        let tests: Vec<Option<clasp_core::HoldTest>> =
            plan.grasps.iter().map(|g| g.test.clone()).collect();
        let trials: Vec<_> = plan.grasps.iter().map(|g| &g.grasp).collect();
        let arrays = batch::trial_arrays(py, &trials, self.robot(robot)?.dofs.len())?;
        let energies: Vec<f64> = plan.grasps.iter().map(|g| g.energy).collect();
        arrays.set_item("energy", energies.into_pyarray(py))?;
        let searches: Vec<&str> = plan.search_energies.iter().map(|e| e.name()).collect();
        arrays.set_item("search_energies", searches)?;
        arrays.set_item("refined", plan.refined)?;
        arrays.set_item("steps", plan.steps)?;
        arrays.set_item("evaluations", plan.evaluations)?;
        arrays.set_item("seconds", plan.seconds)?;
        arrays.set_item("search_seconds", plan.search_seconds)?;
        let shares = PyDict::new(py);
        for (name, seconds) in plan.shares.named() {
            shares.set_item(name, seconds)?;
        }
        arrays.set_item("shares", shares)?;
        arrays.set_item("why_empty", plan.why_empty())?;
        if tests.iter().any(Option::is_some) {
            hold::hold_arrays(py, &tests, &arrays)?;
            arrays.set_item("closed", plan.closed)?;
            arrays.set_item("tested", plan.tested)?;
            let settled: Vec<bool> = plan.grasps.iter().map(|g| g.settled).collect();
            arrays.set_item("settled", settled.into_pyarray(py))?;
            arrays.set_item("settled_tested", plan.settled_tested)?;
            arrays.set_item("why_short_of_held", plan.why_short_of_held(grasps))?;
        }
        Ok(arrays)
    }
}

/// `count` grasp candidates for `robot` (default: the current hand) round `object` (default:
/// the grasped object), drawn from `seed`: approach directions uniform over the sphere, rolls
/// about them, and the DOFs Auto Grasp leaves alone (the Barrett's spread) uniform within their
/// limits. Returns the aims, `direction` (N, 3), `roll` (N,) and `dofs` (N, D), and where they
/// start the hand, `palm` (N, 4, 4) and `approach` (N,): what `World.grasp_batch` takes. A
/// parallel gripper's are antipodal pairs on the object instead, given by their starts alone
/// (`palm`, `dofs`, `approach`, and `through` (N,), true: the approach goes all the way). The
/// same seed gives the same candidates.
#[pyfunction]
#[pyo3(signature = (world, count, seed=0, robot=None, object=None))]
pub fn grasp_candidates<'py>(
    py: Python<'py>,
    world: &PyWorld,
    count: usize,
    seed: u64,
    robot: Option<usize>,
    object: Option<PyBodyId>,
) -> PyResult<Bound<'py, PyDict>> {
    let (robot, object) = (world.hand(robot)?, world.object(object)?);
    let hand = world.robot(robot)?;
    let arrays = PyDict::new(py);
    let candidates = match hand.parallel_jaws() {
        Some(jaws) => {
            clasp_core::antipodal_candidates(&world.world, hand, &jaws, object, count, seed)
                .map_err(move_error)?
        }
        None => {
            let aims = clasp_core::draw_aims(hand, count, seed);
            let directions: Vec<[f64; 3]> =
                aims.iter().map(|a| a.towards.into_inner().into()).collect();
            let rolls: Vec<f64> = aims.iter().map(|a| a.roll).collect();
            arrays.set_item("direction", convert::rows_array(py, &directions))?;
            arrays.set_item("roll", rolls.into_pyarray(py))?;
            clasp_core::aimed_candidates(&world.world, hand, object, &aims).map_err(move_error)?
        }
    };
    let dofs: Vec<Vec<f64>> = candidates.iter().map(|c| c.dofs.clone()).collect();
    let palms: Vec<_> = candidates.iter().map(|c| c.palm).collect();
    let approach: Vec<f64> = candidates.iter().map(|c| c.approach).collect();
    let through: Vec<bool> = candidates.iter().map(|c| c.through).collect();
    arrays.set_item("dofs", convert::matrix_array(py, &dofs, hand.dofs.len()))?;
    arrays.set_item("palm", convert::poses_array(py, &palms))?;
    arrays.set_item("approach", approach.into_pyarray(py))?;
    arrays.set_item("through", through.into_pyarray(py))?;
    Ok(arrays)
}

/// Writes a batch grasp's physics test as a recording: the grasp put back in the world, the
/// test's runs one after another.
fn record_test(
    py: Python<'_>,
    world: &clasp_core::World,
    robot: clasp_core::RobotId,
    object: clasp_core::BodyId,
    trial: &clasp_core::GraspTrial,
    test: &clasp_core::HoldTest,
    path: &std::path::Path,
) -> PyResult<()> {
    let mut placed = world.clone();
    placed.put_grasp(robot, trial).map_err(move_error)?;
    let recording =
        clasp_core::Recording::of_hold_test(&placed, robot, object, test).map_err(move_error)?;
    write_recording(py, path, &recording, &placed)
}
