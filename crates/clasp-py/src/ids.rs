//! `clasp.BodyId`: names one body of a world, as Rust's `BodyId` does.

use clasp_core::{BodyId, Element, RobotId};
use pyo3::{prelude::*, types::PyTuple};

/// One body of a world: a free body (`BodyId.free(i)`), a robot's palm (`BodyId.palm(r)`), a
/// link (`BodyId.link(r, chain, link)`) or the mount piece of a mounted robot
/// (`BodyId.mount(r)`). Equal ids name the same body; ids are hashable.
#[pyclass(name = "BodyId", module = "clasp", frozen, eq, hash, from_py_object)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyBodyId(pub BodyId);

#[pymethods]
impl PyBodyId {
    /// The free body (obstacle or graspable) with this index.
    #[staticmethod]
    fn free(index: usize) -> Self {
        Self(BodyId::Free(index))
    }

    /// The palm of robot `robot`.
    #[staticmethod]
    fn palm(robot: usize) -> Self {
        Self(BodyId::Palm {
            robot: RobotId::from_index(robot),
        })
    }

    /// Link `link` of chain `chain` of robot `robot`.
    #[staticmethod]
    fn link(robot: usize, chain: usize, link: usize) -> Self {
        Self(BodyId::Link {
            robot: RobotId::from_index(robot),
            chain,
            link,
        })
    }

    /// The mount piece of robot `robot`, mounted on another.
    #[staticmethod]
    fn mount(robot: usize) -> Self {
        Self(BodyId::Mount {
            robot: RobotId::from_index(robot),
        })
    }

    /// "free", "palm", "link" or "mount".
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            BodyId::Free(_) => "free",
            BodyId::Palm { .. } => "palm",
            BodyId::Link { .. } => "link",
            BodyId::Mount { .. } => "mount",
        }
    }

    /// The free body's index, or None for a robot's body.
    #[getter]
    fn index(&self) -> Option<usize> {
        self.0.free_index()
    }

    /// The robot the body belongs to, or None for a free body.
    #[getter]
    fn robot(&self) -> Option<usize> {
        self.0.robot().map(RobotId::index)
    }

    /// The chain of a link, else None.
    #[getter]
    fn chain(&self) -> Option<usize> {
        match self.0 {
            BodyId::Link { chain, .. } => Some(chain),
            _ => None,
        }
    }

    /// The link's place in its chain, else None.
    #[getter]
    fn link_index(&self) -> Option<usize> {
        match self.0 {
            BodyId::Link { link, .. } => Some(link),
            _ => None,
        }
    }

    /// Pickles as the call that makes it again (so ids travel to Ray tasks and copy).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let class = py.get_type::<PyBodyId>();
        let (maker, args) = match self.0 {
            BodyId::Free(i) => ("free", vec![i]),
            BodyId::Palm { robot } => ("palm", vec![robot.index()]),
            BodyId::Link { robot, chain, link } => ("link", vec![robot.index(), chain, link]),
            BodyId::Mount { robot } => ("mount", vec![robot.index()]),
        };
        Ok((class.getattr(maker)?, PyTuple::new(py, args)?))
    }

    pub fn __repr__(&self) -> String {
        match self.0 {
            BodyId::Free(i) => format!("BodyId.free({i})"),
            BodyId::Palm { robot } => format!("BodyId.palm({robot})"),
            BodyId::Link { robot, chain, link } => format!("BodyId.link({robot}, {chain}, {link})"),
            BodyId::Mount { robot } => format!("BodyId.mount({robot})"),
        }
    }
}

impl PyBodyId {
    /// What a user selects and moves when this body is named: the body, or its robot.
    pub fn element(&self) -> Element {
        self.0.element()
    }
}
