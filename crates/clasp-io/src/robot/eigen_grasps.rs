//! A robot's eigengrasp file: the DOF-space directions a planner searches along.

use std::path::Path;

use clasp_core::{EigenGrasp, EigenGrasps};

use crate::{
    error::LoadError,
    source::FileSource,
    xml::{Element, integer_attribute, number_attribute, read_rooted},
};

/// An eigengrasp file: `<EigenGrasps dimensions="N">` with `<EG>` elements and optional
/// `<ORIGIN>` and `<NORM>`, each holding `<EigenValue value/>`, `<DimVals d0=.. />` and
/// optional `<Limits min max/>`. Its dimensions must match the robot's DOF count.
pub(super) fn load_eigen_grasps(
    source: &dyn FileSource,
    path: &Path,
    dof_count: usize,
) -> Result<EigenGrasps, LoadError> {
    let root = read_rooted(source, path, "EigenGrasps")?;
    // The vectors have one value per robot DOF. The `dimensions` attribute must be a count, but
    // GraspIt's own MicoGripper file says 1 for its 4-DOF hand, so it is not checked against
    // the DOFs; `DimVals` naming a DOF the robot lacks is an error instead.
    let dimensions = integer_attribute(&root, "dimensions", path)?;
    if dimensions < 0 {
        return Err(LoadError::new(
            path,
            Some(root.line),
            format!("dimensions=\"{dimensions}\" is negative"),
        ));
    }
    let grasps = root
        .children_named("EG")
        .map(|g| parse_eigen_grasp(g, dof_count, path))
        .collect::<Result<Vec<_>, _>>()?;
    if grasps.is_empty() {
        return Err(LoadError::new(
            path,
            Some(root.line),
            "the file has no <EG>",
        ));
    }
    let optional = |tag: &str| {
        root.child(tag)
            .map(|e| parse_eigen_grasp(e, dof_count, path))
            .transpose()
    };
    Ok(EigenGrasps {
        dimensions: dof_count,
        grasps,
        origin: optional("ORIGIN")?,
        norm: optional("NORM")?,
    })
}

fn parse_eigen_grasp(
    element: &Element,
    dimensions: usize,
    file: &Path,
) -> Result<EigenGrasp, LoadError> {
    let eigenvalue = match element.child("EigenValue") {
        Some(e) => number_attribute(e, "value", file)?,
        None => 0.0,
    };
    let mut values = vec![0.0; dimensions];
    if let Some(dim_vals) = element.child("DimVals") {
        for (key, _) in &dim_vals.attributes {
            let dof = key
                .strip_prefix('d')
                .and_then(|d| d.parse::<usize>().ok())
                .filter(|&d| d < dimensions)
                .ok_or_else(|| {
                    LoadError::new(
                        file,
                        Some(dim_vals.line),
                        format!(
                            "<DimVals> attribute {key} names no DOF of the robot (d0 to d{})",
                            dimensions.saturating_sub(1)
                        ),
                    )
                })?;
            values[dof] = number_attribute(dim_vals, key, file)?;
        }
    }
    let limits = match element.child("Limits") {
        None => None,
        Some(l) => {
            let (min, max) = (
                number_attribute(l, "min", file)?,
                number_attribute(l, "max", file)?,
            );
            if min > max {
                return Err(LoadError::new(
                    file,
                    Some(l.line),
                    format!("<Limits> are reversed: min {min} > max {max}"),
                ));
            }
            Some((min, max))
        }
    };
    Ok(EigenGrasp {
        eigenvalue,
        values,
        limits,
    })
}
