//! GraspIt's `<transform>` element: translations and rotations composed in order.

use std::path::Path;

use clasp_core::Pose;
use nalgebra::{Matrix3, Quaternion, Rotation3, Translation3, UnitQuaternion, Vector3};

use crate::{
    error::LoadError,
    xml::{Element, fixed_numbers},
};

/// Composes a `<transform>`'s children in order, each in the frame the earlier ones produce.
pub(crate) fn parse_transform(element: &Element, file: &Path) -> Result<Pose, LoadError> {
    element
        .children
        .iter()
        .try_fold(Pose::identity(), |total, step| {
            Ok(total * parse_step(step, file)?)
        })
}

fn parse_step(step: &Element, file: &Path) -> Result<Pose, LoadError> {
    let error = |message: String| LoadError::new(file, Some(step.line), message);
    match step.name.as_str() {
        "translation" => {
            let [x, y, z] = fixed_numbers::<3>(step, file)?;
            Ok(Pose::translation(x, y, z))
        }
        "rotation" => {
            let mut parts = step.text().split_whitespace();
            let (Some(angle), Some(axis), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(error(format!("<rotation> needs \"degrees axis\", found \"{}\"", step.text())));
            };
            let angle: f64 = angle
                .parse()
                .ok()
                .filter(|a: &f64| a.is_finite())
                .ok_or_else(|| error(format!("<rotation> angle \"{angle}\" is not a number")))?;
            let axis = match axis {
                "x" | "X" => Vector3::x_axis(),
                "y" | "Y" => Vector3::y_axis(),
                "z" | "Z" => Vector3::z_axis(),
                other => return Err(error(format!("<rotation> axis \"{other}\" is not x, y or z"))),
            };
            Ok(rotation(UnitQuaternion::from_axis_angle(&axis, angle.to_radians())))
        }
        "rotationMatrix" => {
            // GraspIt fills the matrix column by column.
            let m = fixed_numbers::<9>(step, file)?;
            let matrix = Matrix3::from_column_slice(&m);
            if (matrix.transpose() * matrix - Matrix3::identity()).abs().max() > 1e-3 || matrix.determinant() < 0.0 {
                return Err(error("<rotationMatrix> is not a rotation".into()));
            }
            let r = Rotation3::from_matrix_eps(&matrix, f64::EPSILON, 0, Rotation3::identity());
            Ok(rotation(UnitQuaternion::from_rotation_matrix(&r)))
        }
        "fullTransform" => parse_full_transform(step.text()).ok_or_else(|| {
            error(format!(
                "<fullTransform> needs \"(w x y z)[x y z]\" with a non-zero quaternion, found \"{}\"",
                step.text()
            ))
        }),
        other => Err(error(format!(
            "<{other}> is not a transform step (translation, rotation, rotationMatrix, fullTransform)"
        ))),
    }
}

fn rotation(q: UnitQuaternion<f64>) -> Pose {
    Pose::from_parts(Translation3::identity(), q)
}

/// Reads GraspIt's `(w x y z)[x y z]` text.
pub(crate) fn parse_full_transform(text: &str) -> Option<Pose> {
    let inner = text.trim().strip_prefix('(')?;
    let (quaternion, rest) = inner.split_once(')')?;
    let translation = rest.trim().strip_prefix('[')?.strip_suffix(']')?;
    let numbers = |s: &str| -> Option<Vec<f64>> {
        s.split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect()
    };
    let (q, t) = (numbers(quaternion)?, numbers(translation)?);
    let ([w, x, y, z], [tx, ty, tz]) =
        (<[f64; 4]>::try_from(q).ok()?, <[f64; 3]>::try_from(t).ok()?);
    let q = Quaternion::new(w, x, y, z);
    if q.norm() < 1e-9 {
        return None;
    }
    Some(Pose::from_parts(
        Translation3::new(tx, ty, tz),
        UnitQuaternion::from_quaternion(q),
    ))
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;
    use crate::xml::parse_document;

    fn transform(body: &str) -> Result<Pose, LoadError> {
        let root = parse_document(
            &format!("<transform>{body}</transform>"),
            Path::new("t.xml"),
        )
        .unwrap();
        parse_transform(&root, Path::new("t.xml"))
    }

    fn assert_maps(pose: &Pose, from: [f64; 3], to: [f64; 3]) {
        let got = pose * Point3::from(from);
        assert!(
            (got - Point3::from(to)).norm() < 1e-9,
            "got {got}, want {to:?}"
        );
    }

    #[test]
    fn later_steps_act_in_the_frame_of_earlier_ones() {
        let pose = transform("<translation>10 0 0</translation><rotation>90 z</rotation>").unwrap();
        assert_maps(&pose, [1.0, 0.0, 0.0], [10.0, 1.0, 0.0]);
        let pose = transform("<rotation>90 z</rotation><translation>10 0 0</translation>").unwrap();
        assert_maps(&pose, [0.0, 0.0, 0.0], [0.0, 10.0, 0.0]);
    }

    #[test]
    fn rotation_matrix_numbers_fill_columns() {
        // Columns (0,1,0), (-1,0,0), (0,0,1): 90 degrees about z.
        let pose = transform("<rotationMatrix>0 1 0 -1 0 0 0 0 1</rotationMatrix>").unwrap();
        assert_maps(&pose, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        assert!(transform("<rotationMatrix>2 0 0 0 1 0 0 0 1</rotationMatrix>").is_err());
    }

    #[test]
    fn full_transform_reads_graspits_signed_text() {
        let pose = transform("<fullTransform>(+0.7071067811865476 +0 +0 +0.7071067811865476)[+1 -2 +3]</fullTransform>").unwrap();
        assert_maps(&pose, [1.0, 0.0, 0.0], [1.0, -1.0, 3.0]);
        assert!(transform("<fullTransform>(0 0 0 0)[1 2 3]</fullTransform>").is_err());
        assert!(transform("<fullTransform>1 0 0 0 1 2 3</fullTransform>").is_err());
    }

    #[test]
    fn bad_steps_name_the_problem() {
        let err = transform("<rotation>90 w</rotation>").unwrap_err();
        assert!(err.message.contains("\"w\""), "{err}");
        let err = transform("<scale>2</scale>").unwrap_err();
        assert!(err.message.contains("<scale>"), "{err}");
    }
}
