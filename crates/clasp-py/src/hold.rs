//! `clasp.World`'s hands in the dynamics: driving a robot's DOF controllers, and the physics
//! test of a grasp (gravity along each axis direction in turn), alone or for a batch.

use clasp_core::{HoldSettings, HoldTest, RobotId};
use numpy::{IntoPyArray, PyArray1, ndarray::Array2};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::{
    errors::move_error,
    ids::PyBodyId,
    recordings::{check_record_path, write_recording},
    world::PyWorld,
};

/// The test's settings from Python's keywords: a preset by name (`clasp`, the default,
/// `dexgraspnet`, `bodex`, `graspgen`), each figure given replacing the preset's (angles in
/// degrees, as users write them). An unknown preset raises `ValueError`.
pub fn hold_settings(
    preset: Option<&str>,
    seconds: Option<f64>,
    squeeze: Option<f64>,
    max_displacement: Option<f64>,
    max_rotation: Option<f64>,
) -> PyResult<HoldSettings> {
    let name = preset.unwrap_or("clasp");
    let base = HoldSettings::preset(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown test preset {name:?}: one of {}",
            clasp_core::PRESETS.join(", ")
        ))
    })?;
    Ok(HoldSettings {
        seconds: seconds.unwrap_or(base.seconds),
        squeeze: squeeze.unwrap_or(base.squeeze),
        max_displacement: max_displacement.unwrap_or(base.max_displacement),
        max_rotation: max_rotation.map_or(base.max_rotation, f64::to_radians),
        ..base
    })
}

/// Several tests as arrays, one row each: `held` (N,) bool, `hold_displacement` and
/// `hold_rotation` (N, R; mm and degrees, R the test's runs: pulled along +x, −x, +y, −y,
/// +z, −z, or GraspGen's one), and the squeeze's `squeeze_force` (N,; the normal force on
/// the object, N) and `fingers_on_object` (N, C; each finger). A grasp that could not be
/// tested (`None`: the hand in the object) did not hold; its figures are NaN, its fingers
/// touch nothing.
pub fn hold_arrays<'py>(
    py: Python<'py>,
    tests: &[Option<HoldTest>],
    into: &Bound<'py, PyDict>,
) -> PyResult<()> {
    let runs = tests
        .iter()
        .flatten()
        .map(|t| t.directions.len())
        .next()
        .unwrap_or(6);
    let column = |f: &dyn Fn(&clasp_core::DirectionHold) -> f64| {
        let values: Vec<f64> = tests
            .iter()
            .flat_map(|t| match t {
                Some(t) => t.directions.iter().map(f).collect::<Vec<_>>(),
                None => vec![f64::NAN; runs],
            })
            .collect();
        Array2::from_shape_vec((tests.len(), runs), values).expect("the same runs every test")
    };
    let chains = tests
        .iter()
        .flatten()
        .map(|t| t.squeeze.fingers.len())
        .next()
        .unwrap_or(0);
    let on_object: Vec<bool> = tests
        .iter()
        .flat_map(|t| match t {
            Some(t) => t.squeeze.fingers.iter().map(|f| f.on_object).collect(),
            None => vec![false; chains],
        })
        .collect();
    let on_object =
        Array2::from_shape_vec((tests.len(), chains), on_object).expect("one hand's fingers");
    let force: Vec<f64> = tests
        .iter()
        .map(|t| {
            t.as_ref()
                .map_or(f64::NAN, |t| t.squeeze.normal_force * 1e-6)
        })
        .collect();
    into.set_item("squeeze_force", force.into_pyarray(py))?;
    into.set_item("fingers_on_object", on_object.into_pyarray(py))?;
    let held: Vec<bool> = tests
        .iter()
        .map(|t| t.as_ref().is_some_and(|t| t.held))
        .collect();
    into.set_item("held", held.into_pyarray(py))?;
    into.set_item(
        "hold_displacement",
        column(&|d| d.displacement).into_pyarray(py),
    )?;
    into.set_item(
        "hold_rotation",
        column(&|d| d.rotation.to_degrees()).into_pyarray(py),
    )?;
    Ok(())
}

#[pymethods]
impl PyWorld {
    /// Puts a robot in the dynamics: its DOF controllers drive it towards `targets` (one per
    /// DOF, within its limits) with at most 0.8 of each DOF's effort; its palm stays.
    fn drive_robot(&mut self, robot: usize, targets: Vec<f64>) -> PyResult<()> {
        self.world
            .drive_robot(RobotId::from_index(robot), &targets)
            .map_err(move_error)
    }

    /// Frees a driven robot's base (its palm moves by the forces on the hand: gravity, contacts,
    /// the fingers' reactions), or fixes it again where it stands; a hand carried by an arm
    /// raises `MoveError`.
    #[pyo3(signature = (robot, free=true))]
    fn set_free_base(&mut self, robot: usize, free: bool) -> PyResult<()> {
        self.world
            .set_free_base(RobotId::from_index(robot), free)
            .map_err(move_error)
    }

    /// Whether a robot's base is free.
    fn has_free_base(&self, robot: usize) -> PyResult<bool> {
        let robot = self
            .world
            .find_robot(RobotId::from_index(robot))
            .map_err(move_error)?;
        Ok(robot.has_free_base())
    }

    /// Takes a robot out of the dynamics: it stays where it is and stops.
    fn release_robot(&mut self, robot: usize) -> PyResult<()> {
        self.world
            .release_robot(RobotId::from_index(robot))
            .map_err(move_error)
    }

    /// A robot's DOF velocities (rad/s, or mm/s for prismatic DOFs): zero unless driven.
    fn dof_velocities<'py>(
        &self,
        py: Python<'py>,
        robot: usize,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let r = self.robot(RobotId::from_index(robot))?;
        Ok(r.dof_velocities().to_vec().into_pyarray(py))
    }

    /// GraspIt's lift: the hand squeezes, then its palm rises `height` mm at `speed` mm/s
    /// under gravity (−z), hand and object alone. Returns `held` (the object followed within
    /// `max_displacement` mm and `max_rotation` degrees of the palm), `raised` (mm the object
    /// rose), `slipped` (mm) and `turned` (degrees) relative to the palm.
    #[pyo3(signature = (robot=None, object=None, height=100.0, speed=100.0, max_displacement=20.0, max_rotation=15.0))]
    // Python's keyword arguments, each with its default: a struct would not be Python.
    #[allow(clippy::too_many_arguments)]
    fn lift_grasp<'py>(
        &self,
        py: Python<'py>,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        height: f64,
        speed: f64,
        max_displacement: f64,
        max_rotation: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let settings = hold_settings(None, None, None, Some(max_displacement), Some(max_rotation))?;
        let world = &self.world;
        let lift = py
            .detach(|| world.lift_grasp(robot, object, height, speed, &settings))
            .map_err(move_error)?;
        let answer = PyDict::new(py);
        answer.set_item("held", lift.held)?;
        answer.set_item("raised", lift.raised)?;
        answer.set_item("slipped", lift.slipped)?;
        answer.set_item("turned", lift.turned.to_degrees())?;
        Ok(answer)
    }

    /// GraspIt's dynamic Auto Grasp: the closing DOFs driven closed by their controllers, the
    /// world stepping, until the hand stops (the contact forces balance the controllers) or
    /// `max_seconds` pass; returns the seconds it took. The robot stays driven; each contact
    /// then carries its impulse.
    #[pyo3(signature = (robot=None, max_seconds=2.0))]
    fn dynamic_auto_grasp(
        &mut self,
        py: Python<'_>,
        robot: Option<usize>,
        max_seconds: f64,
    ) -> PyResult<f64> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.dynamic_auto_grasp(robot, max_seconds))
            .map_err(move_error)
    }

    /// The physics test of the grasp `robot` (default: the current hand) has on `object`
    /// (default: the grasped object) where they stand: the hand squeezes (each closing DOF
    /// driven `squeeze` past where it is) and gravity pulls the object along +x, −x, +y, −y,
    /// +z, −z in turn for `seconds` each, the hand and object alone. `preset` names the test
    /// (`clasp`, the default, or the field's: `dexgraspnet`, `bodex`, `graspgen`; each figure
    /// given replaces the preset's). Returns `held` (every run), and per run `displacement`
    /// (mm), `rotation` (degrees), `speed` (the object's at the end, mm/s), `rested` (at rest by
    /// pose and speed), `direction_held`, `steps` and `unsettled_steps` (the steps that made
    /// each answer, and those whose contact solve ran out of iterations before it settled),
    /// `relaxed_steps` (those Newton's method solved on the convex relaxation: sliding
    /// contacts that jam), `held_fast` (times the object, free to move by its impact's solve,
    /// still could not move and was held with no velocity), and `sweeps_median` and
    /// `sweeps_p99` (the iterations those steps' solves took);
    /// and how the hand pressed after the squeeze: `dof_efforts` and `effort_limits` (per DOF,
    /// N·mm, or N for a prismatic DOF), `squeeze_force` (the normal force on the object, N),
    /// `fingers_on_object` and `fingers_on_palm` (per finger), `fingers_on_fingers` (per
    /// finger, the other fingers it touches). `record` (a path) keeps the test's runs one after
    /// another, a moment every 0.01 s: `.clasprec` (Clasp's app) or `.rrd` (rerun's viewer).
    #[pyo3(signature = (robot=None, object=None, seconds=None, squeeze=None, max_displacement=None, max_rotation=None, preset=None, record=None))]
    // Python's keyword arguments, each with its default: a struct would not be Python.
    #[allow(clippy::too_many_arguments)]
    fn test_grasp<'py>(
        &self,
        py: Python<'py>,
        robot: Option<usize>,
        object: Option<PyBodyId>,
        seconds: Option<f64>,
        squeeze: Option<f64>,
        max_displacement: Option<f64>,
        max_rotation: Option<f64>,
        preset: Option<&str>,
        record: Option<std::path::PathBuf>,
    ) -> PyResult<Bound<'py, PyDict>> {
        check_record_path(py, record.as_deref())?;
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let settings = hold_settings(preset, seconds, squeeze, max_displacement, max_rotation)?;
        let world = &self.world;
        let test = py
            .detach(|| world.test_grasp(robot, object, &settings))
            .map_err(move_error)?;
        if let Some(path) = record {
            let recording = clasp_core::Recording::of_hold_test(world, robot, object, &test)
                .map_err(move_error)?;
            write_recording(py, &path, &recording, world)?;
        }
        let answer = PyDict::new(py);
        answer.set_item("held", test.held)?;
        let of = |f: &dyn Fn(&clasp_core::DirectionHold) -> f64| -> Vec<f64> {
            test.directions.iter().map(f).collect()
        };
        answer.set_item("displacement", of(&|d| d.displacement).into_pyarray(py))?;
        answer.set_item(
            "rotation",
            of(&|d| d.rotation.to_degrees()).into_pyarray(py),
        )?;
        answer.set_item("speed", of(&|d| d.speed).into_pyarray(py))?;
        let rested: Vec<bool> = test.directions.iter().map(|d| d.rested).collect();
        answer.set_item("rested", rested.into_pyarray(py))?;
        let held: Vec<bool> = test.directions.iter().map(|d| d.held).collect();
        answer.set_item("direction_held", held.into_pyarray(py))?;
        let count = |f: &dyn Fn(&clasp_core::DirectionHold) -> usize| -> Vec<u64> {
            test.directions.iter().map(|d| f(d) as u64).collect()
        };
        answer.set_item("steps", count(&|d| d.solves.steps).into_pyarray(py))?;
        answer.set_item(
            "unsettled_steps",
            count(&|d| d.solves.unsettled).into_pyarray(py),
        )?;
        answer.set_item(
            "relaxed_steps",
            count(&|d| d.solves.relaxed).into_pyarray(py),
        )?;
        answer.set_item("held_fast", count(&|d| d.solves.held_fast).into_pyarray(py))?;
        let sweeps = |q: f64| count(&|d| d.solves.sweeps_percentile(q));
        answer.set_item("sweeps_median", sweeps(0.5).into_pyarray(py))?;
        answer.set_item("sweeps_p99", sweeps(0.99).into_pyarray(py))?;
        squeeze_items(py, &test.squeeze, &answer)?;
        Ok(answer)
    }
}

/// How the hand pressed after the squeeze, as `test_grasp` returns it (N·mm and N).
fn squeeze_items<'py>(
    py: Python<'py>,
    squeeze: &clasp_core::Squeeze,
    into: &Bound<'py, PyDict>,
) -> PyResult<()> {
    let newtons = |values: &[f64]| values.iter().map(|v| v * 1e-6).collect::<Vec<f64>>();
    into.set_item(
        "dof_efforts",
        newtons(&squeeze.dof_efforts).into_pyarray(py),
    )?;
    into.set_item(
        "effort_limits",
        newtons(&squeeze.effort_limits).into_pyarray(py),
    )?;
    into.set_item("squeeze_force", squeeze.normal_force * 1e-6)?;
    let fingers = &squeeze.fingers;
    let on_object: Vec<bool> = fingers.iter().map(|f| f.on_object).collect();
    let on_palm: Vec<bool> = fingers.iter().map(|f| f.on_palm).collect();
    let on_fingers: Vec<Vec<usize>> = fingers.iter().map(|f| f.on_fingers.clone()).collect();
    into.set_item("fingers_on_object", on_object.into_pyarray(py))?;
    into.set_item("fingers_on_palm", on_palm.into_pyarray(py))?;
    into.set_item("fingers_on_fingers", on_fingers)?;
    Ok(())
}
