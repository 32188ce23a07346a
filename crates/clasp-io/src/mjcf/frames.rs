//! Where an MJCF element sits: `pos` and one of MuJoCo's five ways to write an orientation
//! (`quat`, `axisangle`, `euler`, `xyaxes`, `zaxis`), and a geom's `fromto`.

use clasp_core::Pose;
use nalgebra::{Matrix3, Rotation3, Translation3, Unit, UnitQuaternion, Vector3};

use super::{MM_PER_M, document::Compiler, document::Node};
use crate::error::LoadError;

const ORIENTATIONS: [&str; 5] = ["quat", "axisangle", "euler", "xyaxes", "zaxis"];

/// The element's frame in its parent's, in millimetres.
pub(super) fn placement(node: &Node, compiler: &Compiler) -> Result<Pose, LoadError> {
    let [x, y, z] = node.array::<3>("pos")?.unwrap_or_default();
    Ok(Pose::from_parts(
        Translation3::from(Vector3::new(x, y, z) * MM_PER_M),
        orientation(node, compiler)?,
    ))
}

/// An angle in radians from the file's unit.
pub(super) fn angle(value: f64, compiler: &Compiler) -> f64 {
    if compiler.degrees {
        value.to_radians()
    } else {
        value
    }
}

fn orientation(node: &Node, compiler: &Compiler) -> Result<UnitQuaternion<f64>, LoadError> {
    let given: Vec<&str> = ORIENTATIONS
        .into_iter()
        .filter(|key| node.attribute(key).is_some())
        .collect();
    if given.len() > 1 {
        return Err(node.error(format!(
            "<{}> gives its orientation twice ({}); MuJoCo takes one",
            node.tag,
            given.join(" and ")
        )));
    }
    let zero = |what: &str| node.error(format!("<{}> {what} has zero length", node.tag));
    match given.first().copied() {
        None => Ok(UnitQuaternion::identity()),
        Some("quat") => {
            let [w, x, y, z] = node.array::<4>("quat")?.unwrap_or_default();
            let q = nalgebra::Quaternion::new(w, x, y, z);
            UnitQuaternion::try_new(q, 1e-12).ok_or_else(|| zero("quat"))
        }
        Some("axisangle") => {
            let [x, y, z, a] = node.array::<4>("axisangle")?.unwrap_or_default();
            let axis = Unit::try_new(Vector3::new(x, y, z), 1e-12).ok_or_else(|| zero("axis"))?;
            Ok(UnitQuaternion::from_axis_angle(&axis, angle(a, compiler)))
        }
        Some("euler") => {
            let angles = node.array::<3>("euler")?.unwrap_or_default();
            Ok(euler(
                angles.map(|a| angle(a, compiler)),
                compiler.euler_sequence,
            ))
        }
        Some("xyaxes") => {
            let [ax, ay, az, bx, by, bz] = node.array::<6>("xyaxes")?.unwrap_or_default();
            let x = Unit::try_new(Vector3::new(ax, ay, az), 1e-12).ok_or_else(|| zero("x axis"))?;
            let y = Vector3::new(bx, by, bz);
            let y = Unit::try_new(y - x.into_inner() * x.dot(&y), 1e-12)
                .ok_or_else(|| node.error("<xyaxes> y axis is parallel to its x axis"))?;
            let z = x.cross(&y);
            let matrix = Matrix3::from_columns(&[x.into_inner(), y.into_inner(), z]);
            Ok(UnitQuaternion::from_rotation_matrix(
                &Rotation3::from_matrix_unchecked(matrix),
            ))
        }
        Some(_) => {
            let [x, y, z] = node.array::<3>("zaxis")?.unwrap_or_default();
            let axis = Unit::try_new(Vector3::new(x, y, z), 1e-12).ok_or_else(|| zero("zaxis"))?;
            Ok(turn_z_onto(&axis))
        }
    }
}

/// The shortest turn taking +z onto `axis` (half a turn about x when it points down).
pub(super) fn turn_z_onto(axis: &Unit<Vector3<f64>>) -> UnitQuaternion<f64> {
    UnitQuaternion::rotation_between(&Vector3::z(), axis).unwrap_or_else(|| {
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
    })
}

/// MuJoCo's Euler angles: each letter turns about its axis, about the turned frame's axis
/// (lower case) or the fixed frame's (upper case).
fn euler(angles: [f64; 3], sequence: [u8; 3]) -> UnitQuaternion<f64> {
    let mut turned = UnitQuaternion::identity();
    for (a, letter) in angles.into_iter().zip(sequence) {
        let axis = match letter.to_ascii_lowercase() {
            b'x' => Vector3::x_axis(),
            b'y' => Vector3::y_axis(),
            _ => Vector3::z_axis(),
        };
        let turn = UnitQuaternion::from_axis_angle(&axis, a);
        turned = if letter.is_ascii_lowercase() {
            turned * turn
        } else {
            turn * turned
        };
    }
    turned
}

/// A geom's `fromto` segment, in millimetres: its middle and its z axis along it, and its
/// half-length. `None` when the geom has none.
pub(super) fn from_to(node: &Node) -> Result<Option<(Pose, f64)>, LoadError> {
    let Some([ax, ay, az, bx, by, bz]) = node.array::<6>("fromto")? else {
        return Ok(None);
    };
    let (a, b) = (
        Vector3::new(ax, ay, az) * MM_PER_M,
        Vector3::new(bx, by, bz) * MM_PER_M,
    );
    let along = Unit::try_new(b - a, 1e-12)
        .ok_or_else(|| node.error("<geom> fromto has its two ends at one point"))?;
    let middle = Translation3::from((a + b) / 2.0);
    Ok(Some((
        Pose::from_parts(middle, turn_z_onto(&along)),
        (b - a).norm() / 2.0,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_sequences_turn_about_moving_or_fixed_axes() {
        let (a, b) = (0.3, -0.7);
        let rx = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), a);
        let ry = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), b);
        // Rotating axes compose on the right, fixed ones on the left.
        assert!(euler([a, b, 0.0], *b"xyz").angle_to(&(rx * ry)) < 1e-12);
        assert!(euler([a, b, 0.0], *b"XYZ").angle_to(&(ry * rx)) < 1e-12);
    }
}
