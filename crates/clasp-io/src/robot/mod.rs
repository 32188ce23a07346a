//! GraspIt robot XML: palm, DOFs, Denavit–Hartenberg chains and links.

pub(crate) mod chain;
mod collision_rules;
mod eigen_grasps;

use std::path::{Path, PathBuf};

use clasp_core::{BodyKind, Dof, DofKind, HandApproach, Robot};
use nalgebra::Unit;

use crate::{
    body::{load_body, point},
    error::LoadError,
    source::{FileSource, read},
    virtual_contacts::load_virtual_contacts,
    xml::{Element, number, parse_document, required},
};
use chain::parse_chain;
use collision_rules::parse_collision_rules;
use eigen_grasps::load_eigen_grasps;

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
    // GraspIt's `<dof>`s carry no names: each is named by the joints it drives, "chain 0
    // joint 0, chain 1 joint 0" for a Barrett's spread.
    for d in 0..robot.dofs.len() {
        let driven: Vec<String> = robot
            .dof_joints(d)
            .iter()
            .map(|(c, j)| format!("chain {c} joint {j}"))
            .collect();
        robot.dofs[d].name = driven.join(", ");
    }
    robot.source = Some(path.to_path_buf());
    robot.robot_type = root.attribute("type").map(str::to_owned);
    robot.db_name = root.attribute("DBName").map(str::to_owned);
    robot.eigen_grasps = eigen_grasps;
    robot.virtual_contacts = virtual_contacts;
    Ok(robot.with_collision_rules(collision_rules))
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
        // Named once the chains say which joints it drives.
        name: String::new(),
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

fn parse_approach(element: &Element, file: &Path) -> Result<HandApproach, LoadError> {
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
    Ok(HandApproach {
        reference,
        direction,
    })
}

#[cfg(test)]
mod tests {
    use clasp_core::{CollisionRule, JointDynamics, RobotBody};

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
        // Named by the joints it drives, as GraspIt's file names none.
        let named = |name: &str| Dof {
            name: name.to_owned(),
            ..Dof::new(DofKind::Rigid, 0.0, 0.0)
        };
        assert_eq!(robot.dofs[0], named("chain 0 joint 0"));
        assert_eq!(robot.dofs[1].name, "chain 1 joint 0, chain 1 joint 1");
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
}
