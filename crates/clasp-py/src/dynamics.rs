//! `clasp.World`'s dynamics: gravity, the time step, body types, velocities, and stepping; each
//! contact then carries the impulse the step applied.

use std::path::{Path, PathBuf};

use clasp_core::{BodyType, ContactSolver, Recording, RobotId, Velocity, World, steps_per_moment};
use numpy::PyArray1;
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{
    contact::PyContact,
    convert,
    errors::move_error,
    ids::PyBodyId,
    recordings::{check_record_path, write_recording},
    world::PyWorld,
};

/// How often a long run looks whether Python has a signal (Ctrl-C) to raise.
const SIGNAL_LOOK: std::time::Duration = std::time::Duration::from_millis(100);

/// Three numbers as numpy gives them back.
type Vector<'py> = Bound<'py, PyArray1<f64>>;

#[pymethods]
impl PyWorld {
    /// The acceleration of gravity (3,), mm/s² (default 9,810 along −z).
    #[getter]
    fn gravity<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::vector_array(py, &self.world.gravity())
    }

    #[setter]
    fn set_gravity(&mut self, gravity: &Bound<'_, PyAny>) -> PyResult<()> {
        self.world
            .set_gravity(convert::vector3(gravity)?)
            .map_err(move_error)
    }

    /// Seconds a step advances (default 0.001).
    #[getter]
    fn time_step(&self) -> f64 {
        self.world.time_step()
    }

    #[setter]
    fn set_time_step(&mut self, seconds: f64) -> PyResult<()> {
        self.world.set_time_step(seconds).map_err(move_error)
    }

    /// How a step solves its contacts: ``"newton"`` (the default: Newton's method on the
    /// velocities, Coulomb's law, settled to the tolerance), ``"sweeps"`` (one contact at a
    /// time, RaiSim's) or ``"lcp"`` (GraspIt's).
    #[getter]
    fn contact_solver(&self) -> &'static str {
        match self.world.contact_solver() {
            ContactSolver::Newton => "newton",
            ContactSolver::PerContact => "sweeps",
            ContactSolver::Lcp => "lcp",
        }
    }

    #[setter]
    fn set_contact_solver(&mut self, name: &str) -> PyResult<()> {
        let solver = match name {
            "newton" => ContactSolver::Newton,
            "sweeps" => ContactSolver::PerContact,
            "lcp" => ContactSolver::Lcp,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "no contact solver {name:?}: newton, sweeps or lcp"
                )));
            }
        };
        self.world.set_contact_solver(solver);
        Ok(())
    }

    /// A body's velocity: its centre of gravity's (3,), mm/s, and its angular velocity (3,),
    /// rad/s, world axes.
    fn velocity<'py>(&self, py: Python<'py>, id: PyBodyId) -> PyResult<(Vector<'py>, Vector<'py>)> {
        let v = self.body(id)?.velocity();
        Ok((
            convert::vector_array(py, &v.linear),
            convert::vector_array(py, &v.angular),
        ))
    }

    /// A body's type: "static", "dynamic" or "kinematic".
    fn body_type(&self, id: PyBodyId) -> PyResult<&'static str> {
        Ok(self.body(id)?.body_type().name())
    }

    /// Makes a free body "static", "dynamic" (moved by forces) or "kinematic" (moved by the
    /// velocity it is given, pushing what it meets); anything else raises `MoveError`.
    fn set_body_type(&mut self, id: PyBodyId, body_type: &str) -> PyResult<()> {
        let wanted = BodyType::from_name(body_type).ok_or_else(|| {
            move_error(format!(
                "a body type is static, dynamic or kinematic, not {body_type:?}"
            ))
        })?;
        self.world.set_body_type(id.0, wanted).map_err(move_error)
    }

    /// A robot's contacts as one list over its palm, links and mount, each seen from the
    /// robot's body (RaiSim's `getContacts` of an articulated system).
    fn robot_contacts(&self, robot: usize) -> PyResult<Vec<PyContact>> {
        let robot = RobotId::from_index(robot);
        self.robot(robot)?;
        Ok(self
            .world
            .robot_contacts(robot)
            .cloned()
            .map(PyContact)
            .collect())
    }

    /// Gives a dynamic or kinematic free body a velocity (mm/s of its centre, rad/s); anything
    /// else, or a number that is not finite, raises `MoveError` and changes nothing.
    #[pyo3(signature = (id, linear, angular=None))]
    fn set_velocity(
        &mut self,
        id: PyBodyId,
        linear: &Bound<'_, PyAny>,
        angular: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let angular = angular
            .map(convert::vector3)
            .transpose()?
            .unwrap_or_default();
        let velocity = Velocity::new(convert::vector3(linear)?, angular);
        self.world.set_velocity(id.0, velocity).map_err(move_error)
    }

    /// Advances the world one time step; a step that cannot be taken raises `MoveError` with
    /// the world as it was.
    fn step(&mut self, py: Python<'_>) -> PyResult<()> {
        let world: &mut World = &mut self.world;
        py.detach(|| world.step()).map_err(move_error)
    }

    /// Moves each dynamic body that is inside another the shortest way out; returns what moved:
    /// a list of (moved body id, body it was in, the move (3,) in mm). Raises `MoveError`,
    /// changing nothing, where a pair cannot be separated.
    fn resolve_overlaps(&mut self) -> PyResult<Vec<(PyBodyId, PyBodyId, [f64; 3])>> {
        let separated = self.world.resolve_overlaps().map_err(move_error)?;
        Ok(separated
            .into_iter()
            .map(|s| {
                (
                    PyBodyId(s.moved),
                    PyBodyId(s.from),
                    [s.by.x, s.by.y, s.by.z],
                )
            })
            .collect())
    }

    /// Steps for `seconds` of simulated time; returns the steps taken. A step that fails raises
    /// `MoveError`, the world left at its last good step; Ctrl-C raises `KeyboardInterrupt`,
    /// the world left at its last whole step. Bodies that start inside one another raise
    /// `MoveError` naming them, unless `resolve_overlaps` separates them first. `record` (a
    /// path) keeps the run, a moment every 0.01 s: `.clasprec` for Clasp's app (its world
    /// written beside it), `.rrd` for rerun's viewer (needs `pip install rerun-sdk`).
    #[pyo3(signature = (seconds, resolve_overlaps = false, record = None))]
    fn simulate(
        &mut self,
        py: Python<'_>,
        seconds: f64,
        resolve_overlaps: bool,
        record: Option<PathBuf>,
    ) -> PyResult<usize> {
        check_record_path(py, record.as_deref())?;
        if resolve_overlaps {
            self.resolve_overlaps()?;
        }
        if let Some(path) = record {
            return self.simulate_recorded(py, seconds, &path);
        }
        let world: &mut World = &mut self.world;
        let mut interrupted = None;
        let steps = py.detach(|| world.simulate_until(seconds, stop_on_signal(&mut interrupted)));
        match interrupted {
            Some(error) => Err(error),
            None => steps.map_err(move_error),
        }
    }
}

/// A `stop` for a long run: a few times a second it takes the GIL to see whether Python has a
/// signal (Ctrl-C) to raise, and keeps what was raised in `interrupted`.
fn stop_on_signal(interrupted: &mut Option<PyErr>) -> impl FnMut() -> bool + '_ {
    let mut last_look = std::time::Instant::now();
    move || {
        // Python's signal handlers run only with the GIL.
        if last_look.elapsed() < SIGNAL_LOOK {
            return false;
        }
        last_look = std::time::Instant::now();
        *interrupted = Python::attach(|py| py.check_signals().err());
        interrupted.is_some()
    }
}

impl PyWorld {
    /// A run of `seconds` kept as a recording, a moment every [`clasp_core::RECORD_INTERVAL`]
    /// (Ctrl-C raising `KeyboardInterrupt`): the world it began in, and the recording and the
    /// steps taken, or why the run stopped. What to do with the world on a failure is the
    /// caller's.
    pub(crate) fn recorded_run(
        &mut self,
        py: Python<'_>,
        seconds: f64,
    ) -> (World, PyResult<(Recording, usize)>) {
        let start = self.world.clone();
        let mut recording = Recording::default();
        let every = steps_per_moment(self.world.time_step());
        let world = &mut self.world;
        let mut interrupted = None;
        let stop = stop_on_signal(&mut interrupted);
        let steps =
            py.detach(|| world.simulate_recorded_until(seconds, every, &mut recording, stop));
        let run = match interrupted {
            Some(error) => Err(error),
            None => steps.map(|steps| (recording, steps)).map_err(move_error),
        };
        (start, run)
    }

    /// `simulate` keeping its run in a recording file. A run the file cannot be written for
    /// is taken back: the world stands where it started.
    fn simulate_recorded(&mut self, py: Python<'_>, seconds: f64, path: &Path) -> PyResult<usize> {
        let (start, run) = self.recorded_run(py, seconds);
        let (recording, steps) = run?;
        if let Err(error) = write_recording(py, path, &recording, &start) {
            self.world = start;
            return Err(error);
        }
        Ok(steps)
    }
}
