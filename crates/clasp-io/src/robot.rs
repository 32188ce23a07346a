//! GraspIt robot XML: palm, DOFs, Denavit–Hartenberg chains and links.

use std::path::{Path, PathBuf};

use clasp_core::{
    Approach, BodyKind, Chain, CollisionRule, Coupling, Dof, DofKind, EigenGrasp, EigenGrasps,
    Joint, JointDynamics, JointFrame, JointKind, Link, Robot, RobotBody,
};
use nalgebra::Unit;

use crate::{
    body::{load_body, point},
    error::LoadError,
    source::{FileSource, read},
    transform::parse_transform,
    virtual_contacts::load_virtual_contacts,
    xml::{
        Element, integer_attribute, number, number_attribute, parse_document, read_rooted, required,
    },
};

/// Loads a robot XML file; body files are read from the `iv/` folder beside it.
pub fn load_robot(source: &dyn FileSource, path: &Path) -> Result<Robot, LoadError> {
    let root = parse_document(&read(source, path)?, path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let robot_dir = path.parent().unwrap_or(Path::new(""));
    // Link files may sit in subfolders of iv/ (`2008/wrist.xml`); their geometry is relative to
    // the body file, so it follows them.
    let parts = robot_dir.join("iv");
    let body_path = |element: &Element| existing(source, parts.join(element.text()), element, path);

    let palm_element = required(&root, "palm", path)?;
    let mut palm = load_body(source, &body_path(palm_element)?, BodyKind::Palm)?;
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
            let mut body = load_body(source, &body_path(link)?, BodyKind::Link)?;
            body.name = format!("{name}_chain{c}_link{l}");
            Ok(body)
        })?;
        chains.push(chain);
    }
    let approach = root
        .child("approachDirection")
        .map(|a| parse_approach(a, path))
        .transpose()?;
    let collision_rules = parse_collision_rules(&root, &chains, path)?;
    let eigen_grasps = match root.child("eigenGrasps") {
        // Relative to the robot's folder, unlike the body files.
        Some(e) => Some(load_eigen_grasps(
            source,
            &existing(source, robot_dir.join(e.text()), e, path)?,
            dofs.len(),
        )?),
        None => None,
    };
    let virtual_contacts = match root.child("virtualContacts") {
        // Relative to the robot's folder, as the eigengrasps are.
        Some(v) => Some(load_virtual_contacts(
            source,
            &existing(source, robot_dir.join(v.text()), v, path)?,
        )?),
        None => None,
    };
    let mut robot = Robot::new(name, palm, dofs, chains, approach);
    robot.source = Some(path.to_path_buf());
    robot.robot_type = root.attribute("type").map(str::to_owned);
    robot.db_name = root.attribute("DBName").map(str::to_owned);
    robot.eigen_grasps = eigen_grasps;
    robot.virtual_contacts = virtual_contacts;
    Ok(robot.with_collision_rules(collision_rules))
}

/// The link attributes `collisionRule`/`targetChain`/`targetLink` and the robot-level
/// `<disableCollision body1_chain body1_link body2_chain body2_link/>` (chain < 0: the palm).
fn parse_collision_rules(
    root: &Element,
    chains: &[Chain],
    file: &Path,
) -> Result<Vec<CollisionRule>, LoadError> {
    let mut rules = Vec::new();
    for (c, chain) in root.children_named("chain").enumerate() {
        for (l, link) in chain.children_named("link").enumerate() {
            let this = RobotBody::Link { chain: c, link: l };
            match link.attribute("collisionRule") {
                None => {}
                Some("Off") => rules.push(CollisionRule::Off(this)),
                Some("OverlappingPair") => {
                    let target_chain = match link.attribute("targetChain") {
                        Some("base") => -1,
                        Some(_) => integer_attribute(link, "targetChain", file)?,
                        None => c as i64,
                    };
                    let target = robot_body(link, target_chain, "targetLink", chains, file)?;
                    rules.push(CollisionRule::Pair(this, target));
                }
                Some(other) => {
                    return Err(LoadError::new(
                        file,
                        Some(link.line),
                        format!("collisionRule \"{other}\" is not Off or OverlappingPair"),
                    ));
                }
            }
        }
    }
    for rule in root.children_named("disableCollision") {
        let body = |n: u8| -> Result<RobotBody, LoadError> {
            let chain = integer_attribute(rule, &format!("body{n}_chain"), file)?;
            robot_body(rule, chain, &format!("body{n}_link"), chains, file)
        };
        rules.push(CollisionRule::Pair(body(1)?, body(2)?));
    }
    Ok(rules)
}

/// The palm for a negative chain index, else the link named by the `link_attribute`, which
/// must exist.
fn robot_body(
    element: &Element,
    chain: i64,
    link_attribute: &str,
    chains: &[Chain],
    file: &Path,
) -> Result<RobotBody, LoadError> {
    if chain < 0 {
        return Ok(RobotBody::Palm);
    }
    let link = integer_attribute(element, link_attribute, file)?;
    let exists = usize::try_from(chain)
        .ok()
        .and_then(|c| chains.get(c))
        .is_some_and(|c| usize::try_from(link).is_ok_and(|l| l < c.links.len()));
    if !exists {
        return Err(LoadError::new(
            file,
            Some(element.line),
            format!(
                "<{}> names chain {chain} link {link}, which the robot does not have",
                element.name
            ),
        ));
    }
    Ok(RobotBody::Link {
        chain: chain as usize,
        link: link as usize,
    })
}

/// The file an element names, or an error at that element's line when it does not exist.
fn existing(
    source: &dyn FileSource,
    file: PathBuf,
    element: &Element,
    robot_file: &Path,
) -> Result<PathBuf, LoadError> {
    if source.is_file(&file) {
        return Ok(file);
    }
    Err(LoadError::new(
        robot_file,
        Some(element.line),
        format!(
            "<{}> names {}, which does not exist",
            element.name,
            file.display()
        ),
    ))
}

/// An eigengrasp file: `<EigenGrasps dimensions="N">` with `<EG>` elements and optional
/// `<ORIGIN>` and `<NORM>`, each holding `<EigenValue value/>`, `<DimVals d0=.. />` and
/// optional `<Limits min max/>`. Its dimensions must match the robot's DOF count.
fn load_eigen_grasps(
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
    // GraspIt requires these four; Clasp reads a missing one as the common default.
    let or_default = |name: &str, default: f64| match element.child(name) {
        Some(v) => number(v, file),
        None => Ok(default),
    };
    let breakaway_torque = or_default("breakAwayTorque", 0.0)?;
    if breakaway_torque < 0.0 {
        return Err(LoadError::new(
            file,
            element.child("breakAwayTorque").map(|e| e.line),
            format!("<breakAwayTorque> must not be negative, found {breakaway_torque}"),
        ));
    }
    Ok(Dof {
        kind,
        default_velocity: number(required(element, "defaultVelocity", file)?, file)?,
        default_value,
        max_effort: or_default("maxEffort", Dof::DEFAULT_MAX_EFFORT)?,
        kp: or_default("Kp", Dof::DEFAULT_KP)?,
        kd: or_default("Kd", Dof::DEFAULT_KD)?,
        dragger_scale: or_default("draggerScale", Dof::DEFAULT_DRAGGER_SCALE)?,
        breakaway_torque,
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
    use crate::source::Embedded;

    const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const BODY: &str = "<root><geometryFile>tri.off</geometryFile></root>";

    /// A two-DOF, two-chain robot; `dof0`, `chain1` and `extra` splice in the parts under test.
    fn robot_xml(dof0: &str, chain1: &str, extra: &str) -> String {
        format!(
            r#"<?xml version="1.0" ?>
<!-- McHand-style comment -- with double dashes -->
<robot type="Hand" DBName="Tiny">
  <palm>palm.xml</palm>
  <dof type="r"><defaultVelocity>0</defaultVelocity>{dof0}</dof>
  <dof type="b"><defaultVelocity>1</defaultVelocity><maxEffort>2.5e+9</maxEffort>
    <Kp>1.0e+9</Kp><Kd>1.0e+5</Kd><draggerScale>15</draggerScale>
    <breakAwayTorque>0.5</breakAwayTorque></dof>
  <chain>
    <joint type="Revolute"><theta>d0</theta><d>0</d><a>10</a><alpha>0</alpha>
      <minValue>0</minValue><maxValue>90</maxValue><viscousFriction>5.0e+7</viscousFriction>
      <CoulombFriction>2</CoulombFriction><springStiffness>4</springStiffness>
      <restValue>-30</restValue></joint>
    <link dynamicJointType="Revolute">sub/link.xml</link>
  </chain>
  <chain>
    <joint type="Revolute"><theta>d1-2.46</theta><d>0</d><a>10</a><alpha>0</alpha>
      <minValue>0</minValue><maxValue>90</maxValue></joint>
    <joint type="Revolute"><theta>d1</theta><d>0</d><a>10</a><alpha>0</alpha>
      <minValue>0</minValue><maxValue>90</maxValue></joint>
    {chain1}
  </chain>
  {extra}
</robot>
"#
        )
    }

    const TWO_LINKS: &str = r#"<link dynamicJointType="Revolute">link.xml</link>
    <link dynamicJointType="Revolute">link.xml</link>"#;

    fn load_with(xml: String, eigen: &'static str) -> Result<Robot, LoadError> {
        let xml: &'static str = Box::leak(xml.into_boxed_str());
        let files = Embedded::new([
            ("r/tiny.xml", xml),
            ("r/iv/palm.xml", BODY),
            ("r/iv/link.xml", BODY),
            ("r/iv/tri.off", TRIANGLE),
            ("r/iv/sub/link.xml", BODY),
            ("r/iv/sub/tri.off", TRIANGLE),
            ("r/eigen/tiny.xml", eigen),
        ]);
        load_robot(&files, Path::new("r/tiny.xml"))
    }

    fn load(xml: String) -> Result<Robot, LoadError> {
        load_with(xml, "")
    }

    #[test]
    fn keeps_every_dof_and_joint_field_with_defaults_for_missing_ones() {
        let robot = load(robot_xml("", TWO_LINKS, "")).unwrap();
        assert_eq!(robot.robot_type.as_deref(), Some("Hand"));
        assert_eq!(robot.db_name.as_deref(), Some("Tiny"));
        // DOF 0 gives none of the four GraspIt requires: the documented defaults.
        assert_eq!(robot.dofs[0], Dof::new(DofKind::Rigid, 0.0, 0.0));
        let d1 = &robot.dofs[1];
        assert_eq!(d1.kind, DofKind::Breakaway);
        assert_eq!(
            (
                d1.max_effort,
                d1.kp,
                d1.kd,
                d1.dragger_scale,
                d1.breakaway_torque
            ),
            (2.5e9, 1.0e9, 1.0e5, 15.0, 0.5)
        );
        let dynamics = robot.chains()[0].joints[0].dynamics;
        assert_eq!(dynamics.viscous_friction, 5.0e7);
        assert_eq!(dynamics.coulomb_friction, 2.0);
        assert_eq!(dynamics.spring_stiffness, 4.0);
        assert!((dynamics.rest_value + 30f64.to_radians()).abs() < 1e-15);
        assert_eq!(
            robot.chains()[1].joints[1].dynamics,
            JointDynamics::default()
        );
        // `d1-2.46` is an offset of -2.46 degrees, not GraspIt's silent 0.
        let offset = robot.chains()[1].joints[0].coupling.offset;
        assert!((offset + 2.46f64.to_radians()).abs() < 1e-15);
        assert!(robot.eigen_grasps.is_none() && robot.collision_rules().is_empty());
    }

    #[test]
    fn link_files_in_subfolders_find_their_geometry_beside_them() {
        let robot = load(robot_xml("", TWO_LINKS, "")).unwrap();
        let link = &robot.chains()[0].links[0].body;
        assert_eq!(link.source.as_deref(), Some(Path::new("r/iv/sub/link.xml")));
        assert_eq!(link.mesh().triangles().len(), 1);
    }

    #[test]
    fn reversed_joint_limits_read_as_the_interval_they_span() {
        let xml = robot_xml("", TWO_LINKS, "").replacen(
            "<minValue>0</minValue><maxValue>90</maxValue>",
            "<minValue>30</minValue><maxValue>-4</maxValue>",
            1,
        );
        let robot = load(xml).unwrap();
        let (lo, hi) = robot.dof_limits(0);
        assert!((lo + 4f64.to_radians()).abs() < 1e-15 && (hi - 30f64.to_radians()).abs() < 1e-15);
    }

    #[test]
    fn a_dof_value_that_is_not_a_number_names_its_line() {
        let err = load(robot_xml("\n<Kp>lots</Kp>", TWO_LINKS, "")).unwrap_err();
        assert_eq!(err.line, Some(6), "{err}");
        assert!(err.message.contains("<Kp> holds \"lots\""), "{err}");
        let err = load(robot_xml(
            "<breakAwayTorque>-1</breakAwayTorque>",
            TWO_LINKS,
            "",
        ))
        .unwrap_err();
        assert!(err.message.contains("must not be negative"), "{err}");
        let xml = robot_xml("", TWO_LINKS, "").replace(">4<", ">-4<");
        let err = load(xml).unwrap_err();
        assert!(
            err.message
                .contains("<springStiffness> must not be negative"),
            "{err}"
        );
    }

    #[test]
    fn reads_collision_rules_from_links_and_disable_collision() {
        let chain1 = r#"<link dynamicJointType="Revolute" collisionRule="Off">link.xml</link>
    <link dynamicJointType="Revolute" collisionRule="OverlappingPair" targetLink="0">link.xml</link>"#;
        let extra =
            r#"<disableCollision body1_chain="-1" body1_link="0" body2_chain="1" body2_link="1"/>"#;
        let xml = robot_xml("", chain1, extra).replace(
            r#"<link dynamicJointType="Revolute">sub/link.xml</link>"#,
            r#"<link dynamicJointType="Revolute" collisionRule="OverlappingPair" targetChain="base">sub/link.xml</link>"#,
        );
        let robot = load(xml).unwrap();
        let link = |chain, link| RobotBody::Link { chain, link };
        assert_eq!(
            robot.collision_rules(),
            vec![
                CollisionRule::Pair(link(0, 0), RobotBody::Palm),
                CollisionRule::Off(link(1, 0)),
                CollisionRule::Pair(link(1, 1), link(1, 0)),
                CollisionRule::Pair(RobotBody::Palm, link(1, 1)),
            ]
        );
    }

    #[test]
    fn collision_rules_must_name_existing_bodies() {
        let extra =
            r#"<disableCollision body1_chain="0" body1_link="3" body2_chain="1" body2_link="1"/>"#;
        let err = load(robot_xml("", TWO_LINKS, extra)).unwrap_err();
        assert!(err.message.contains("chain 0 link 3"), "{err}");
        let extra = r#"<disableCollision body1_chain="0" body2_chain="1" body2_link="1"/>"#;
        let err = load(robot_xml("", TWO_LINKS, extra)).unwrap_err();
        assert!(err.message.contains("no body1_link attribute"), "{err}");
        let chain1 = r#"<link collisionRule="Sometimes">link.xml</link><link>link.xml</link>"#;
        let err = load(robot_xml("", chain1, "")).unwrap_err();
        assert!(err.message.contains("\"Sometimes\""), "{err}");
    }

    const EIGEN: &str = r#"<?xml version="1.0" ?>
<EigenGrasps dimensions="2">
  <EG><EigenValue value="0.5"/><Limits min="-1" max="2"/><DimVals d0="1.0"/></EG>
  <EG><EigenValue value="0.25"/><DimVals d1="1" d0="-0.5"/></EG>
  <ORIGIN><EigenValue value="0.0"/><DimVals d0="0.3" d1="0.7"/></ORIGIN>
</EigenGrasps>
"#;

    fn with_eigen(eigen: &'static str) -> Result<Robot, LoadError> {
        let extra = "<eigenGrasps>eigen/tiny.xml</eigenGrasps>";
        load_with(robot_xml("", TWO_LINKS, extra), eigen)
    }

    #[test]
    fn reads_the_eigengrasp_file_beside_the_robot() {
        let eigen = with_eigen(EIGEN).unwrap().eigen_grasps.unwrap();
        assert_eq!(eigen.dimensions, 2);
        assert_eq!(eigen.grasps.len(), 2);
        assert_eq!(eigen.grasps[0].eigenvalue, 0.5);
        assert_eq!(eigen.grasps[0].values, vec![1.0, 0.0]);
        assert_eq!(eigen.grasps[0].limits, Some((-1.0, 2.0)));
        assert_eq!(eigen.grasps[1].values, vec![-0.5, 1.0]);
        assert_eq!(eigen.grasps[1].limits, None);
        assert_eq!(eigen.origin.unwrap().values, vec![0.3, 0.7]);
        assert_eq!(eigen.norm, None);
    }

    #[test]
    fn bad_eigengrasp_files_name_file_line_and_problem() {
        let err = with_eigen(r#"<EigenGrasps dimensions="-3"><EG/></EigenGrasps>"#).unwrap_err();
        assert_eq!(err.file, Path::new("r/eigen/tiny.xml"));
        assert!(err.message.contains("negative"), "{err}");
        let err = with_eigen(
            "<EigenGrasps dimensions=\"2\">\n<EG><DimVals d2=\"1\"/></EG></EigenGrasps>",
        )
        .unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        assert!(
            err.message
                .contains("d2 names no DOF of the robot (d0 to d1)"),
            "{err}"
        );
        let err =
            with_eigen(r#"<EigenGrasps dimensions="2"><EG><DimVals d0="x"/></EG></EigenGrasps>"#)
                .unwrap_err();
        assert!(
            err.message.contains("d0=\"x\" is not a finite number"),
            "{err}"
        );
        let err = with_eigen(
            r#"<EigenGrasps dimensions="2"><EG><Limits min="2" max="1"/></EG></EigenGrasps>"#,
        )
        .unwrap_err();
        assert!(err.message.contains("reversed"), "{err}");
        let err = with_eigen(r#"<EigenGrasps dimensions="2"></EigenGrasps>"#).unwrap_err();
        assert!(err.message.contains("no <EG>"), "{err}");
    }

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
