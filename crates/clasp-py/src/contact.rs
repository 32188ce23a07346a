//! `clasp.Contact`: one side of a contact with every field of the Rust contact API (RaiSim's),
//! and the same contacts as numpy arrays for many at once.

use clasp_core::{Contact, ContactModel};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::{prelude::*, types::PyDict};

use crate::{convert, ids::PyBodyId};

/// One side of a contact, seen from the body it is on. Points and normals are in world
/// coordinates, mm; the normal points to object A (the pair's smaller id), the same on both
/// sides, and `inward` gives the normal into this body (GraspIt's).
#[pyclass(name = "Contact", module = "clasp", frozen)]
pub struct PyContact(pub Contact);

#[pymethods]
impl PyContact {
    /// The body this side of the contact is on.
    #[getter]
    fn body(&self) -> PyBodyId {
        PyBodyId(self.0.body)
    }
    /// The body it touches.
    #[getter]
    fn other(&self) -> PyBodyId {
        PyBodyId(self.0.other)
    }
    /// This contact's place in its body's list (`World.contacts_of(body)`).
    #[getter]
    fn index(&self) -> usize {
        self.0.index
    }
    /// The same contact's place in the other body's list; None when the other is static.
    #[getter]
    fn pair_index(&self) -> Option<usize> {
        self.0.pair_index
    }
    /// True on the side of the pair's first body, object A.
    #[getter]
    fn is_object_a(&self) -> bool {
        self.0.is_object_a
    }
    /// The point on this body (3,), world mm.
    #[getter]
    fn point<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::point_array(py, &self.0.point)
    }
    /// The point on the other body (3,), world mm.
    #[getter]
    fn other_point<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::point_array(py, &self.0.other_point)
    }
    /// Unit normal (3,) pointing to object A.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::vector_array(py, &self.0.normal)
    }
    /// Unit normal (3,) into this body.
    #[getter]
    fn inward<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::vector_array(py, &self.0.inward())
    }
    /// The impulse (3,) the last dynamics step applied here, from B on A, in the contact frame
    /// (x, y tangent, z along `normal`), g·mm/s; zeros from a contact query alone.
    #[getter]
    fn impulse<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::vector_array(py, &self.0.impulse)
    }
    /// The contact's apparent inverse inertia (3, 3) in the last step's problem, contact frame,
    /// 1/g (RaiSim's `getInvInertia`); zeros from a contact query alone.
    #[getter]
    fn inverse_inertia<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        let g = &self.0.inverse_inertia;
        let rows: Vec<Vec<f64>> = (0..3)
            .map(|r| (0..3).map(|c| g[(r, c)]).collect())
            .collect();
        convert::matrix_array(py, &rows, 3)
    }
    /// The contact's place in the last step's contact problem, else None.
    #[getter]
    fn index_in_contact_problem(&self) -> Option<usize> {
        self.0.index_in_contact_problem
    }
    /// The same impulse in world axes (`frame`'s rotation times `impulse`).
    #[getter]
    fn world_impulse<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        convert::vector_array(py, &self.0.world_impulse())
    }
    /// The contact frame (4, 4): origin at `point`, z along `normal`.
    #[getter]
    fn frame<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        convert::pose_array(py, &self.0.frame)
    }
    /// Distance between the two points, mm (below the world's contact threshold).
    #[getter]
    fn separation(&self) -> f64 {
        self.0.separation
    }
    /// How far the two bodies overlap here, mm (RaiSim's depth): minus `separation`, so never
    /// positive where moves stop at contact.
    #[getter]
    fn depth(&self) -> f64 {
        self.0.depth()
    }
    /// The triangle of this body the point lies on.
    #[getter]
    fn triangle(&self) -> usize {
        self.0.triangle
    }
    /// The triangle of the other body the other point lies on.
    #[getter]
    fn other_triangle(&self) -> usize {
        self.0.other_triangle
    }
    /// Both bodies are parts of one robot.
    #[getter]
    fn is_self_collision(&self) -> bool {
        self.0.is_self_collision
    }
    /// Set on the second side of a self-collision, so a robot's contacts count each once.
    #[getter]
    fn skip(&self) -> bool {
        self.0.skip
    }
    /// This body's index within its robot (0 the palm), None for a free body.
    #[getter]
    fn local_index(&self) -> Option<usize> {
        self.0.local_index
    }
    /// "static", "dynamic" or "kinematic".
    #[getter]
    fn body_type(&self) -> &'static str {
        self.0.body_type.name()
    }
    /// "static", "dynamic" or "kinematic", for the other body.
    #[getter]
    fn other_type(&self) -> &'static str {
        self.0.other_type.name()
    }
    /// Static (Coulomb) friction of the two materials.
    #[getter]
    fn static_friction(&self) -> f64 {
        self.0.static_friction
    }
    /// Kinetic friction of the two materials.
    #[getter]
    fn kinetic_friction(&self) -> f64 {
        self.0.kinetic_friction
    }
    /// "point", "soft", or "point_fallback" (a soft body whose surface could not be fitted).
    #[getter]
    fn model(&self) -> &'static str {
        match &self.0.model {
            ContactModel::Point => "point",
            ContactModel::PointFallback(_) => "point_fallback",
            ContactModel::Soft(_) => "soft",
        }
    }
    /// For a soft contact: the semi-axes of its contact area, its indentation and torsion radius
    /// (mm), its two relative principal radii and how many contacts were merged into it; for a
    /// point fallback, why the surface could not be fitted; else None.
    #[getter]
    fn soft<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let details = PyDict::new(py);
        match &self.0.model {
            ContactModel::Point => return Ok(None),
            ContactModel::PointFallback(why) => details.set_item("fallback", why.to_string())?,
            ContactModel::Soft(soft) => {
                details.set_item("semi_axes", soft.area.semi_axes.to_vec())?;
                details.set_item("indentation", soft.area.indentation)?;
                details.set_item("torsion_radius", soft.area.torsion_radius)?;
                details.set_item("relative_radii", soft.relative_radii.to_vec())?;
                details.set_item("merged", soft.merged)?;
            }
        }
        Ok(Some(details))
    }
    /// The friction cone's (or soft ellipsoid's) edges (K, 6), in this side's inward frame.
    #[getter]
    fn friction_edges<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        convert::rows_array(py, &self.0.friction_edges)
    }

    fn __repr__(&self) -> String {
        let p = self.0.point;
        format!(
            "Contact(body={}, other={}, point=[{:.3}, {:.3}, {:.3}], separation={:.4})",
            PyBodyId(self.0.body).__repr__(),
            PyBodyId(self.0.other).__repr__(),
            p.x,
            p.y,
            p.z,
            self.0.separation
        )
    }
}

/// Contacts as numpy arrays, one row per contact: points, other points, normals, separations,
/// frictions, the last step's impulses (contact frame and world axes), and the two bodies as
/// (kind, robot or index, chain, link) integer rows.
pub fn contact_arrays<'py>(py: Python<'py>, contacts: &[&Contact]) -> PyResult<Bound<'py, PyDict>> {
    let rows = |f: &dyn Fn(&Contact) -> [f64; 3]| -> Vec<[f64; 3]> {
        contacts.iter().map(|c| f(c)).collect()
    };
    let arrays = PyDict::new(py);
    arrays.set_item(
        "point",
        convert::rows_array(py, &rows(&|c| c.point.coords.into())),
    )?;
    let other = rows(&|c| c.other_point.coords.into());
    arrays.set_item("other_point", convert::rows_array(py, &other))?;
    arrays.set_item(
        "normal",
        convert::rows_array(py, &rows(&|c| c.normal.into_inner().into())),
    )?;
    let column = |f: &dyn Fn(&Contact) -> f64| contacts.iter().map(|c| f(c)).collect::<Vec<_>>();
    arrays.set_item("separation", column(&|c| c.separation).into_pyarray(py))?;
    arrays.set_item(
        "static_friction",
        column(&|c| c.static_friction).into_pyarray(py),
    )?;
    arrays.set_item(
        "kinetic_friction",
        column(&|c| c.kinetic_friction).into_pyarray(py),
    )?;
    // The last step's impulse (from B on A; zero where no step solved the contact), in its
    // contact frame and in world axes.
    arrays.set_item(
        "impulse",
        convert::rows_array(py, &rows(&|c| c.impulse.into())),
    )?;
    arrays.set_item(
        "world_impulse",
        convert::rows_array(py, &rows(&|c| c.world_impulse().into())),
    )?;
    let ids = |f: &dyn Fn(&Contact) -> clasp_core::BodyId| -> Vec<[i64; 4]> {
        contacts.iter().map(|c| id_row(f(c))).collect()
    };
    let as_array = |rows: Vec<[i64; 4]>| {
        numpy::ndarray::Array2::from_shape_fn((rows.len(), 4), |(r, k)| rows[r][k]).into_pyarray(py)
    };
    arrays.set_item("body", as_array(ids(&|c| c.body)))?;
    arrays.set_item("other", as_array(ids(&|c| c.other)))?;
    Ok(arrays)
}

/// A body id as four integers: kind (0 free, 1 palm, 2 link, 3 mount), the free body's index
/// or the robot, then chain and link (-1 where they do not apply).
fn id_row(id: clasp_core::BodyId) -> [i64; 4] {
    use clasp_core::BodyId;
    let n = |x: usize| x as i64;
    match id {
        BodyId::Free(i) => [0, n(i), -1, -1],
        BodyId::Palm { robot } => [1, n(robot.index()), -1, -1],
        BodyId::Link { robot, chain, link } => [2, n(robot.index()), n(chain), n(link)],
        BodyId::Mount { robot } => [3, n(robot.index()), -1, -1],
    }
}
