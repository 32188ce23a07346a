//! `clasp.World`'s bodies as they are made: name, material, mass, centre of gravity, inertia
//! and Young's modulus, each read and changed (what a body moves like is in `dynamics.rs`,
//! what it meets in `collisions.rs`). A change is refused with `MoveError`, changing nothing,
//! where the numbers are not ones a body can have; Save keeps every change.

use clasp_core::Material;
use nalgebra::{Matrix3, Point3};
use numpy::{PyArray1, PyArray2, PyUntypedArrayMethods};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{convert, errors::move_error, ids::PyBodyId, world::PyWorld};

#[pymethods]
impl PyWorld {
    /// Renames a body (what saved files and the app call it).
    fn set_body_name(&mut self, id: PyBodyId, name: &str) -> PyResult<()> {
        self.world.set_body_name(id.0, name).map_err(move_error)
    }

    /// Changes a body's material ("glass", "rubber", … or "generic"), and so its friction.
    fn set_material(&mut self, id: PyBodyId, material: &str) -> PyResult<()> {
        let material: Material = material
            .parse()
            .map_err(|e: clasp_core::UnknownMaterial| PyValueError::new_err(e.to_string()))?;
        self.world.set_material(id.0, material).map_err(move_error)
    }

    /// The body's mass, g.
    fn body_mass(&self, id: PyBodyId) -> PyResult<f64> {
        Ok(self.body(id)?.mass.mass)
    }

    /// The body's centre of gravity (3,), mm, in its own frame.
    fn body_centre<'py>(
        &self,
        py: Python<'py>,
        id: PyBodyId,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(convert::point_array(py, &self.body(id)?.mass.cog))
    }

    /// The body's inertia (3, 3) about its centre, body axes, per unit mass (mm²), as a
    /// GraspIt body file's `<inertia_matrix>` gives it: times `body_mass` for g·mm².
    fn body_inertia<'py>(
        &self,
        py: Python<'py>,
        id: PyBodyId,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let inertia = self.body(id)?.mass.inertia;
        let rows: Vec<Vec<f64>> = inertia
            .row_iter()
            .map(|r| r.iter().copied().collect())
            .collect();
        Ok(convert::matrix_array(py, &rows, 3))
    }

    /// Changes what is given of a body's mass (g), centre of gravity ((3,), mm, body frame)
    /// and inertia ((3, 3) per unit mass, mm², about the centre); the rest stays.
    #[pyo3(signature = (id, mass=None, centre=None, inertia=None))]
    fn set_mass(
        &mut self,
        id: PyBodyId,
        mass: Option<f64>,
        centre: Option<&Bound<'_, PyAny>>,
        inertia: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut properties = self.body(id)?.mass.clone();
        if let Some(mass) = mass {
            properties.mass = mass;
        }
        if let Some(centre) = centre {
            properties.cog = Point3::from(convert::vector3(centre)?);
        }
        if let Some(inertia) = inertia {
            properties.inertia = matrix3(inertia)?;
        }
        self.world
            .set_mass_properties(id.0, properties)
            .map_err(move_error)
    }

    /// The body's Young's modulus in Pa (a soft body), or None (a rigid one).
    fn body_youngs(&self, id: PyBodyId) -> PyResult<Option<f64>> {
        Ok(self.body(id)?.youngs)
    }

    /// Makes a body soft with a Young's modulus in Pa, or rigid with None; its contacts are
    /// found again (a soft body's are fitted patches).
    fn set_youngs(&mut self, id: PyBodyId, youngs: Option<f64>) -> PyResult<()> {
        self.world.set_youngs(id.0, youngs).map_err(move_error)
    }
}

/// Nine numbers as a 3×3 array-like, row by row.
fn matrix3(value: &Bound<'_, PyAny>) -> PyResult<Matrix3<f64>> {
    let array = convert::array2::<f64>(value, "float64")?;
    let shape = array.shape();
    if shape != [3, 3] {
        return Err(PyValueError::new_err(format!(
            "expected a 3×3 matrix, got shape {shape:?}"
        )));
    }
    Ok(Matrix3::from_row_slice(array.as_slice()?))
}
