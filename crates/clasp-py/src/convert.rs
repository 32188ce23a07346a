//! Conversions between numpy arrays and Clasp's types: 4×4 poses, points, vertex and face
//! arrays. Anything array-like is accepted (lists, numpy arrays of any number type); bad shapes
//! and non-rigid poses are a `ValueError` saying what was expected.

use clasp_core::Pose;
use nalgebra::{Matrix3, Point3, Rotation3, Translation3, UnitQuaternion, Vector3};
use numpy::{
    Element, IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods,
    ndarray::Array2,
};
use pyo3::{exceptions::PyValueError, prelude::*};

/// How far a pose's rotation may be from orthonormal (rounding in a user's arithmetic).
const ROTATION_TOLERANCE: f64 = 1e-6;

/// `value` as a C-contiguous 2-D numpy array of `dtype` ("float64", "int64").
pub fn array2<'py, T: Element>(
    value: &Bound<'py, PyAny>,
    dtype: &str,
) -> PyResult<PyReadonlyArray2<'py, T>> {
    let numpy = value.py().import("numpy")?;
    let given = numpy.call_method1("asarray", (value,))?;
    let array = numpy.call_method1("ascontiguousarray", (&given, dtype))?;
    if dtype == "int64"
        && !numpy
            .call_method1("array_equal", (&given, &array))?
            .is_truthy()?
    {
        return Err(PyValueError::new_err(
            "expected whole numbers (indices), got fractions",
        ));
    }
    if array.getattr("ndim")?.extract::<usize>()? != 2 {
        return Err(PyValueError::new_err(format!(
            "expected a 2-D array, got shape {}",
            array.getattr("shape")?
        )));
    }
    array.extract()
}

/// `value` as a 1-D float64 numpy array.
pub fn array1<'py>(value: &Bound<'py, PyAny>) -> PyResult<numpy::PyReadonlyArray1<'py, f64>> {
    let numpy = value.py().import("numpy")?;
    let array = numpy.call_method1("ascontiguousarray", (value, "float64"))?;
    if array.getattr("ndim")?.extract::<usize>()? != 1 {
        return Err(PyValueError::new_err(format!(
            "expected a 1-D array, got shape {}",
            array.getattr("shape")?
        )));
    }
    array.extract()
}

/// Three numbers from anything array-like.
pub fn vector3(value: &Bound<'_, PyAny>) -> PyResult<Vector3<f64>> {
    let array = array1(value)?;
    let v = array.as_slice()?;
    match v {
        [x, y, z] => Ok(Vector3::new(*x, *y, *z)),
        _ => Err(PyValueError::new_err(format!(
            "expected 3 numbers, got {}",
            v.len()
        ))),
    }
}

/// A direction as a unit vector: kept as it is when it already has unit length (so a
/// direction Clasp gave comes back to the bit), else normalised.
pub fn unit(v: Vector3<f64>) -> PyResult<nalgebra::Unit<Vector3<f64>>> {
    let norm = v.norm();
    if !(norm.is_finite() && norm > 1e-12) {
        return Err(PyValueError::new_err(format!(
            "a direction of length {norm}"
        )));
    }
    Ok(match (norm - 1.0).abs() < 1e-12 {
        true => nalgebra::Unit::new_unchecked(v),
        false => nalgebra::Unit::new_normalize(v),
    })
}

/// A 4×4 rigid transform (rotation and translation, last row 0 0 0 1) as a pose, in mm.
pub fn pose(value: &Bound<'_, PyAny>) -> PyResult<Pose> {
    let array = array2::<f64>(value, "float64")?;
    if array.shape() != [4, 4] {
        return Err(PyValueError::new_err(format!(
            "a pose is a 4x4 matrix, got shape {:?}",
            array.shape()
        )));
    }
    let m = array.as_array();
    if m.iter().any(|x| !x.is_finite()) {
        return Err(PyValueError::new_err(
            "a pose with a coordinate that is not a finite number",
        ));
    }
    let last = [m[[3, 0]], m[[3, 1]], m[[3, 2]], m[[3, 3]]];
    let off = last
        .iter()
        .zip([0.0, 0.0, 0.0, 1.0])
        .map(|(x, want)| (x - want).abs());
    if off.fold(0.0, f64::max) > ROTATION_TOLERANCE {
        return Err(PyValueError::new_err(format!(
            "a pose's last row is 0 0 0 1, not {last:?}"
        )));
    }
    let rotation = Matrix3::from_fn(|r, c| m[[r, c]]);
    let error = (rotation.transpose() * rotation - Matrix3::identity()).norm();
    if error > ROTATION_TOLERANCE || rotation.determinant() < 0.0 {
        return Err(PyValueError::new_err(
            "a pose's upper-left 3x3 block must be a rotation (orthonormal, determinant +1)",
        ));
    }
    let rotation = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix(&rotation));
    let translation = Translation3::new(m[[0, 3]], m[[1, 3]], m[[2, 3]]);
    Ok(Pose::from_parts(translation, rotation))
}

/// A pose as a 4×4 numpy array.
pub fn pose_array<'py>(py: Python<'py>, pose: &Pose) -> Bound<'py, PyArray2<f64>> {
    let m = pose.to_homogeneous();
    Array2::from_shape_fn((4, 4), |(r, c)| m[(r, c)]).into_pyarray(py)
}

/// Poses as an N×4×4 numpy array.
pub fn poses_array<'py>(py: Python<'py>, poses: &[Pose]) -> Bound<'py, numpy::PyArray3<f64>> {
    let array = numpy::ndarray::Array3::from_shape_fn((poses.len(), 4, 4), |(k, r, c)| {
        poses[k].to_homogeneous()[(r, c)]
    });
    array.into_pyarray(py)
}

pub fn point_array<'py>(py: Python<'py>, p: &Point3<f64>) -> Bound<'py, PyArray1<f64>> {
    vec![p.x, p.y, p.z].into_pyarray(py)
}

pub fn vector_array<'py>(py: Python<'py>, v: &Vector3<f64>) -> Bound<'py, PyArray1<f64>> {
    vec![v.x, v.y, v.z].into_pyarray(py)
}

/// Rows of equal length as an N×M numpy array ((0, M) when there are none).
pub fn rows_array<'py, const M: usize>(
    py: Python<'py>,
    rows: &[[f64; M]],
) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((rows.len(), M), |(r, c)| rows[r][c]).into_pyarray(py)
}

/// Vectors of one length as an N×M numpy array.
pub fn matrix_array<'py>(
    py: Python<'py>,
    rows: &[Vec<f64>],
    width: usize,
) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((rows.len(), width), |(r, c)| rows[r][c]).into_pyarray(py)
}

/// A bool as Python writes it, for reprs.
pub fn python_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}
