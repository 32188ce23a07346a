//! Clasp for Python (`import clasp`): the world with its bodies and robots, moves that stop at
//! contact, collision switches, groups and masks, contacts, grasps and their quality, and
//! batches of grasps evaluated in parallel. Poses are 4×4 numpy arrays, meshes numpy vertex and
//! face arrays; errors are `clasp.LoadError` (with `file` and `line`), `clasp.MoveError` and
//! `clasp.QualityError`. Calls that take long release the GIL.
//!
//! The Python side of the package (`python/clasp`) adds the exceptions, pose helpers, and the
//! dataset job that runs batches on one machine, a Slurm array or a Ray cluster.

mod batch;
mod body_properties;
mod collisions;
mod contact;
mod convert;
mod dynamics;
mod errors;
mod grasps;
mod hold;
mod ids;
mod moves;
mod recordings;
mod render;
mod world;

use pyo3::prelude::*;

#[pymodule]
fn _clasp(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<world::PyWorld>()?;
    m.add_class::<ids::PyBodyId>()?;
    m.add_class::<contact::PyContact>()?;
    m.add_class::<moves::PyMoveOutcome>()?;
    m.add_class::<grasps::PyQuality>()?;
    m.add_function(wrap_pyfunction!(grasps::grasp_candidates, m)?)?;
    m.add_function(wrap_pyfunction!(world::objects_in, m)?)?;
    m.add(
        "DEFAULT_CONTACT_THRESHOLD",
        clasp_collide::DEFAULT_CONTACT_THRESHOLD,
    )?;
    m.add("VIRTUAL_MAX_RADIUS", clasp_core::VIRTUAL_MAX_RADIUS)?;
    m.add("TEST_PRESETS", clasp_core::PRESETS.to_vec())?;
    Ok(())
}
