//! `clasp.World`'s moves: poses, DOFs, eigengrasps, aiming, approach, Auto Grasp and Auto
//! Open, each stopping at contact where it moves, and the current hand.

use clasp_core::{MoveOutcome, RobotId};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{
    convert::{self, python_bool},
    errors::move_error,
    ids::PyBodyId,
    world::PyWorld,
};

/// How a move ended: whether it reached its target, the pairs that stopped it (the mover's
/// body first), and whether it stopped because it would have deepened an overlap.
#[pyclass(name = "MoveOutcome", module = "clasp", frozen, get_all)]
pub struct PyMoveOutcome {
    pub completed: bool,
    pub stopped_by: Vec<(PyBodyId, PyBodyId)>,
    pub blocked_by_overlap: bool,
}

#[pymethods]
impl PyMoveOutcome {
    fn __repr__(&self) -> String {
        let pairs: Vec<String> = self
            .stopped_by
            .iter()
            .map(|(a, b)| format!("({}, {})", a.__repr__(), b.__repr__()))
            .collect();
        format!(
            "MoveOutcome(completed={}, stopped_by=[{}], blocked_by_overlap={})",
            python_bool(self.completed),
            pairs.join(", "),
            python_bool(self.blocked_by_overlap)
        )
    }
}

impl From<MoveOutcome> for PyMoveOutcome {
    fn from(outcome: MoveOutcome) -> Self {
        Self {
            completed: outcome.completed,
            stopped_by: outcome
                .stopped_by
                .into_iter()
                .map(|(a, b)| (PyBodyId(a), PyBodyId(b)))
                .collect(),
            blocked_by_overlap: outcome.blocked_by_overlap,
        }
    }
}

#[pymethods]
impl PyWorld {
    // ---- Moves ----

    /// Puts a body (or the robot it belongs to, by its palm) at `pose` without checking
    /// collisions (GraspIt's `setTran`).
    fn set_pose(&mut self, id: PyBodyId, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let pose = convert::pose(pose)?;
        self.world.set_pose(id.element(), pose).map_err(move_error)
    }

    /// Moves a body (or its robot, by the palm) toward `pose`, stopping at the first contact.
    fn move_to(
        &mut self,
        py: Python<'_>,
        id: PyBodyId,
        pose: &Bound<'_, PyAny>,
    ) -> PyResult<PyMoveOutcome> {
        let pose = convert::pose(pose)?;
        let world = &mut self.world;
        let outcome = py.detach(|| world.move_to(id.element(), pose));
        outcome.map(Into::into).map_err(move_error)
    }

    /// Puts `robot`'s palm (default: the current hand's) at `pose` without checking
    /// collisions; a hand an arm carries is put there by its arm (inverse kinematics), and a
    /// pose the arm cannot reach raises, changing nothing.
    #[pyo3(signature = (pose, robot=None))]
    fn place_hand(&mut self, pose: &Bound<'_, PyAny>, robot: Option<usize>) -> PyResult<()> {
        let (pose, robot) = (convert::pose(pose)?, self.hand(robot)?);
        self.world.place_hand(robot, pose).map_err(move_error)
    }

    /// Moves `robot`'s palm (default: the current hand's) along the straight path to `pose`,
    /// stopping at the first contact; a hand an arm carries is moved by its arm, its posture
    /// kept on the way (a path the arm cannot follow raises, changing nothing).
    #[pyo3(signature = (pose, robot=None))]
    fn move_hand(
        &mut self,
        py: Python<'_>,
        pose: &Bound<'_, PyAny>,
        robot: Option<usize>,
    ) -> PyResult<PyMoveOutcome> {
        let (pose, robot) = (convert::pose(pose)?, self.hand(robot)?);
        let world = &mut self.world;
        py.detach(|| world.move_hand_to(robot, pose))
            .map(Into::into)
            .map_err(move_error)
    }

    /// Sets a robot's DOFs without checking collisions; values outside the limits raise.
    fn set_dofs(&mut self, robot: usize, values: Vec<f64>) -> PyResult<()> {
        self.world
            .set_dof_values(RobotId::from_index(robot), &values)
            .map_err(move_error)
    }

    /// Moves a robot's DOFs toward `values` together; each chain stops at its first contact.
    fn move_dofs(
        &mut self,
        py: Python<'_>,
        robot: usize,
        values: Vec<f64>,
    ) -> PyResult<PyMoveOutcome> {
        let world = &mut self.world;
        let robot = RobotId::from_index(robot);
        let outcome = py.detach(|| world.move_dofs_to(robot, &values));
        outcome.map(Into::into).map_err(move_error)
    }

    /// Moves a robot's DOFs to the posture with these eigengrasp amplitudes, stopping at
    /// contact.
    fn move_eigen(
        &mut self,
        py: Python<'_>,
        robot: usize,
        amplitudes: Vec<f64>,
    ) -> PyResult<PyMoveOutcome> {
        let world = &mut self.world;
        let robot = RobotId::from_index(robot);
        let outcome = py.detach(|| world.move_eigen_amplitudes(robot, &amplitudes));
        outcome.map(Into::into).map_err(move_error)
    }

    /// Closes every finger of `robot` (default: the current hand) until it touches something
    /// or reaches its limit (GraspIt's Auto Grasp).
    #[pyo3(signature = (robot=None))]
    fn auto_grasp(&mut self, py: Python<'_>, robot: Option<usize>) -> PyResult<PyMoveOutcome> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.auto_grasp(robot))
            .map(Into::into)
            .map_err(move_error)
    }

    /// Opens every finger the same way (GraspIt's Auto Open).
    #[pyo3(signature = (robot=None))]
    fn auto_open(&mut self, py: Python<'_>, robot: Option<usize>) -> PyResult<PyMoveOutcome> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.auto_open(robot))
            .map(Into::into)
            .map_err(move_error)
    }

    /// Puts `robot` (default: the current hand) where a grasp candidate with this aim starts
    /// it: pointed at the centre of `object` (default: the grasped object) from `direction`
    /// (from the hand toward the object), turned `roll` radians about that line, clear of the
    /// object (its reach plus the object's radius away); a hand an arm carries is put there by
    /// its arm. Collisions are not checked. Returns
    /// how far a candidate may approach from there (mm).
    #[pyo3(signature = (direction, roll=0.0, robot=None, object=None))]
    fn aim(
        &mut self,
        direction: Vec<f64>,
        roll: f64,
        robot: Option<usize>,
        object: Option<PyBodyId>,
    ) -> PyResult<f64> {
        let (robot, object) = (self.hand(robot)?, self.object(object)?);
        let [x, y, z] = direction[..] else {
            return Err(PyValueError::new_err("a direction has three coordinates"));
        };
        let hand = self.robot(robot)?;
        let aim = clasp_core::GraspAim {
            towards: convert::unit(nalgebra::Vector3::new(x, y, z))?,
            roll,
            dofs: hand.dof_values().to_vec(),
        };
        let candidates =
            clasp_core::aimed_candidates(&self.world, hand, object, &[aim]).map_err(move_error)?;
        self.world
            .place_hand(robot, candidates[0].palm)
            .map_err(move_error)?;
        Ok(candidates[0].approach)
    }

    /// Moves `robot` (default: the current hand) along its approach direction until it touches
    /// something, at most `distance` mm; if it meets nothing it stays where it was. A hand an
    /// arm carries is moved by its arm, as far as the arm can follow.
    #[pyo3(signature = (distance=500.0, robot=None))]
    fn approach(
        &mut self,
        py: Python<'_>,
        distance: f64,
        robot: Option<usize>,
    ) -> PyResult<PyMoveOutcome> {
        let robot = self.hand(robot)?;
        let world = &mut self.world;
        py.detach(|| world.approach_to_contact(robot, distance))
            .map(Into::into)
            .map_err(move_error)
    }

    // ---- Hands and objects ----

    /// The robot that grasps when none is named: the one chosen, else the first hand.
    #[getter]
    fn current_hand(&self) -> Option<usize> {
        self.world.current_hand().map(RobotId::index)
    }

    #[setter]
    fn set_current_hand(&mut self, robot: usize) -> PyResult<()> {
        let robot = RobotId::from_index(robot);
        self.robot(robot)?;
        self.world.set_current_hand(robot);
        Ok(())
    }

    /// The object hands grasp: the first graspable body, or None.
    #[getter]
    fn grasped_object(&self) -> Option<PyBodyId> {
        self.world.grasped_object().map(PyBodyId)
    }
}
