//! GraspIt robot XML: palm, DOFs, Denavit–Hartenberg chains and links.

use std::path::{Path, PathBuf};

use clasp_core::{
    Approach, BodyKind, Chain, Coupling, Dof, DofKind, Joint, JointKind, Link, Robot,
};
use nalgebra::Unit;

use crate::{
    FileSource, LoadError,
    body::{load_body, point, read},
    transform::parse_transform,
    xml::{Element, number, parse_document, required},
};

/// Loads a robot XML file; body files are read from the `iv/` folder beside it.
pub fn load_robot(source: &dyn FileSource, path: &Path) -> Result<Robot, LoadError> {
    let root = parse_document(&read(source, path)?, path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parts = path.parent().unwrap_or(Path::new("")).join("iv");
    let body_path = |element: &Element| -> PathBuf { parts.join(element.text()) };

    let palm_element = required(&root, "palm", path)?;
    let mut palm = load_body(source, &body_path(palm_element), BodyKind::Palm)?;
    palm.name = format!("{name}Base");

    let dofs = root
        .children_named("dof")
        .map(|d| parse_dof(d, path))
        .collect::<Result<Vec<_>, _>>()?;
    if dofs.is_empty() {
        return Err(LoadError::new(
            path,
            Some(root.line),
            "the robot has no <dof>",
        ));
    }
    let mut chains = Vec::new();
    for (c, chain) in root.children_named("chain").enumerate() {
        let chain = parse_chain(chain, path, dofs.len(), &|link: &Element, l: usize| {
            let mut body = load_body(source, &body_path(link), BodyKind::Link)?;
            body.name = format!("{name}_chain{c}_link{l}");
            Ok(body)
        })?;
        chains.push(chain);
    }
    let approach = root
        .child("approachDirection")
        .map(|a| parse_approach(a, path))
        .transpose()?;
    let mut robot = Robot::new(name, palm, dofs, chains, approach);
    robot.source = Some(path.to_path_buf());
    Ok(robot)
}

fn parse_dof(element: &Element, file: &Path) -> Result<Dof, LoadError> {
    let kind = match element.attribute("type").unwrap_or("r") {
        "r" => DofKind::Rigid,
        "b" => DofKind::Breakaway,
        "c" => DofKind::Compliant,
        other => {
            return Err(LoadError::new(
                file,
                Some(element.line),
                format!("DOF type \"{other}\" is not r, b or c"),
            ));
        }
    };
    let default_value = match element.child("defaultValue") {
        // Written in degrees, even for prismatic DOFs, as GraspIt reads it.
        Some(v) => number(v, file)?.to_radians(),
        None => 0.0,
    };
    Ok(Dof {
        kind,
        default_velocity: number(required(element, "defaultVelocity", file)?, file)?,
        default_value,
    })
}

type LinkLoader<'a> = dyn Fn(&Element, usize) -> Result<clasp_core::Body, LoadError> + 'a;

fn parse_chain(
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
    Ok(Chain {
        base,
        joints,
        links,
    })
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
        return Err(LoadError::new(
            file,
            Some(element.line),
            format!("joint limits are reversed: minValue {min} > maxValue {max}"),
        ));
    }
    Ok(Joint {
        kind,
        coupling,
        theta,
        d,
        a,
        alpha,
        min,
        max,
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

fn parse_approach(element: &Element, file: &Path) -> Result<Approach, LoadError> {
    let reference = point(required(element, "referenceLocation", file)?, file)?;
    let direction_element = required(element, "direction", file)?;
    let direction = point(direction_element, file)?.coords;
    let direction = Unit::try_new(direction, 1e-9).ok_or_else(|| {
        LoadError::new(
            file,
            Some(direction_element.line),
            "the approach direction has zero length",
        )
    })?;
    Ok(Approach {
        reference,
        direction,
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
