//! A GraspIt `<chain>`: its Denavit–Hartenberg joints, each driven by a DOF expression and
//! with its friction and spring, and its links, each after the joints it follows.

use std::path::Path;

use clasp_core::{Chain, Coupling, Joint, JointDynamics, JointFrame, JointKind, Link};

use crate::{
    error::LoadError,
    transform::parse_transform,
    xml::{Element, number, required},
};

pub(super) type LinkLoader<'a> =
    dyn Fn(&Element, usize) -> Result<clasp_core::Body, LoadError> + 'a;

pub(super) fn parse_chain(
    element: &Element,
    file: &Path,
    dof_count: usize,
    load_link: &LinkLoader,
) -> Result<Chain, LoadError> {
    let base = match element.child("transform") {
        Some(t) => parse_transform(t, file)?,
        None => clasp_core::Pose::identity(),
    };
    let joints = element
        .children_named("joint")
        .map(|j| parse_joint(j, file, dof_count))
        .collect::<Result<Vec<_>, _>>()?;
    let mut links = Vec::new();
    // Each link sits after the joints its dynamic joint type consumes.
    let mut consumed = 0usize;
    for (l, link) in element.children_named("link").enumerate() {
        consumed += match link.attribute("dynamicJointType").unwrap_or("Revolute") {
            "Revolute" | "Prismatic" => 1,
            "Universal" => 2,
            "Ball" => 3,
            "Fixed" => 0,
            other => {
                return Err(LoadError::new(
                    file,
                    Some(link.line),
                    format!(
                        "dynamicJointType \"{other}\" is not Revolute, Prismatic, Universal, Ball or Fixed"
                    ),
                ));
            }
        };
        if consumed > joints.len() {
            return Err(LoadError::new(
                file,
                Some(link.line),
                format!(
                    "link {l} needs joint {consumed} but the chain has {} joints",
                    joints.len()
                ),
            ));
        }
        links.push(Link {
            body: load_link(link, l)?,
            frame: consumed.checked_sub(1),
        });
    }
    Ok(Chain::from_palm(base, joints, links))
}

fn parse_joint(element: &Element, file: &Path, dof_count: usize) -> Result<Joint, LoadError> {
    let kind = match element.attribute("type") {
        Some("Revolute") => JointKind::Revolute,
        Some("Prismatic") => JointKind::Prismatic,
        other => {
            return Err(LoadError::new(
                file,
                Some(element.line),
                format!("joint type {other:?} is not Revolute or Prismatic"),
            ));
        }
    };
    let driven = match kind {
        JointKind::Revolute => "theta",
        JointKind::Prismatic => "d",
    };
    let field = |name: &str| required(element, name, file);
    let expression = field(driven)?;
    let mut coupling = parse_dof_expression(expression.text()).map_err(|message| {
        LoadError::new(
            file,
            Some(expression.line),
            format!("<{driven}>: {message}"),
        )
    })?;
    if coupling.dof >= dof_count {
        return Err(LoadError::new(
            file,
            Some(expression.line),
            format!(
                "<{driven}> drives DOF {} but the robot has {dof_count} DOFs",
                coupling.dof
            ),
        ));
    }
    let fixed = |name: &str| -> Result<f64, LoadError> {
        if name == driven {
            return Ok(0.0);
        }
        number(field(name)?, file)
    };
    // Angles are degrees in the file; a prismatic joint's limits are millimetres.
    let (theta, d, a, alpha) = (
        fixed("theta")?.to_radians(),
        fixed("d")?,
        fixed("a")?,
        fixed("alpha")?.to_radians(),
    );
    let (mut min, mut max) = (
        number(field("minValue")?, file)?,
        number(field("maxValue")?, file)?,
    );
    if kind == JointKind::Revolute {
        coupling.offset = coupling.offset.to_radians();
        (min, max) = (min.to_radians(), max.to_radians());
    }
    if min > max {
        // GraspIt's own M7tool, baxter and fetch_gripper files write some limits high to low;
        // GraspIt then computes an empty DOF range. Clasp reads them as the interval they span.
        (min, max) = (max, min);
    }
    Ok(Joint {
        kind,
        coupling,
        frame: JointFrame::DenavitHartenberg { theta, d, a, alpha },
        min,
        max,
        dynamics: parse_joint_dynamics(element, file, kind)?,
    })
}

/// The optional friction and spring values; a negative stiffness is refused, as GraspIt does.
fn parse_joint_dynamics(
    element: &Element,
    file: &Path,
    kind: JointKind,
) -> Result<JointDynamics, LoadError> {
    let optional = |name: &str| element.child(name).map(|v| number(v, file)).transpose();
    let spring_stiffness = optional("springStiffness")?.unwrap_or(0.0);
    if spring_stiffness < 0.0 {
        return Err(LoadError::new(
            file,
            element.child("springStiffness").map(|e| e.line),
            format!("<springStiffness> must not be negative, found {spring_stiffness}"),
        ));
    }
    let mut rest_value = optional("restValue")?.unwrap_or(0.0);
    if kind == JointKind::Revolute {
        // Degrees, like every angle in the file.
        rest_value = rest_value.to_radians();
    }
    Ok(JointDynamics {
        viscous_friction: optional("viscousFriction")?.unwrap_or(0.0),
        coulomb_friction: optional("CoulombFriction")?.unwrap_or(0.0),
        spring_stiffness,
        rest_value,
    })
}

/// Reads a joint's DOF expression: `dN`, optionally `*ratio`, optionally `+offset` or `-offset`.
///
/// `d1-2.46` means offset −2.46 (GraspIt's own scanner silently reads 0 there). The offset keeps
/// the file's unit (degrees or millimetres).
pub fn parse_dof_expression(text: &str) -> Result<Coupling, String> {
    let text = text.trim();
    let bad = || format!("\"{text}\" is not a DOF expression like d1, d1*0.5 or d1*0.5+40");
    let rest = text.strip_prefix('d').ok_or_else(bad)?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let dof: usize = rest[..digits].parse().map_err(|_| bad())?;
    let mut rest = &rest[digits..];
    let mut ratio = 1.0;
    if let Some(after) = rest.strip_prefix('*') {
        let end = offset_start(after).unwrap_or(after.len());
        ratio = after[..end].parse::<f64>().map_err(|_| bad())?;
        rest = &after[end..];
    }
    let offset = if rest.is_empty() {
        0.0
    } else {
        let signed = rest.strip_prefix('+').unwrap_or(rest);
        signed.parse::<f64>().map_err(|_| bad())?
    };
    if !(ratio.is_finite() && offset.is_finite()) || ratio == 0.0 {
        return Err(bad());
    }
    Ok(Coupling { dof, ratio, offset })
}

/// Where the offset starts in the text after `*`: the first `+`, or a `-` that follows a digit.
fn offset_start(after_star: &str) -> Option<usize> {
    let bytes = after_star.as_bytes();
    (1..bytes.len()).find(|&i| {
        bytes[i] == b'+'
            || (bytes[i] == b'-' && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b'.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coupling(text: &str) -> (usize, f64, f64) {
        let c = parse_dof_expression(text).unwrap();
        (c.dof, c.ratio, c.offset)
    }

    #[test]
    fn dof_expressions_in_every_form_graspit_files_use() {
        assert_eq!(coupling("d0"), (0, 1.0, 0.0));
        assert_eq!(coupling("d3+5"), (3, 1.0, 5.0));
        assert_eq!(coupling("d1*0.333333333+40"), (1, 0.333333333, 40.0));
        assert_eq!(coupling("d0*-1+-32.75"), (0, -1.0, -32.75));
        assert_eq!(coupling("d2*-0.5"), (2, -0.5, 0.0));
        assert_eq!(coupling("d12+-7"), (12, 1.0, -7.0));
        // GraspIt reads this offset as 0; it means -2.46.
        assert_eq!(coupling("d1-2.46"), (1, 1.0, -2.46));
        assert_eq!(coupling("d1*0.5-3"), (1, 0.5, -3.0));
    }

    #[test]
    fn bad_dof_expressions_are_refused() {
        for bad in ["", "x1", "d", "d1*", "d1*0+2", "d1+", "d1+abc", "d1*1e999"] {
            assert!(parse_dof_expression(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
