//! A hand's own settings beside its URDF or MJCF file (`NAME.clasp.xml` beside `NAME.urdf`
//! or `NAME.xml`): what Clasp would otherwise work out from the kinematics, set by the user.
//!
//! ```xml
//! <claspHand>
//!   <approach><reference>0 0 40</reference><direction>1 0 0</direction></approach>
//!   <dof index="13" velocity="0" effort="0.7"/>   <!-- Auto Grasp leaves it; N·m (N) -->
//!   <material>rubber</material>                   <!-- every body of the hand -->
//! </claspHand>
//! ```
//!
//! Every element is optional. An approach is in the palm's frame, mm; a DOF's `velocity` is
//! its Auto Grasp velocity (its sign the closing sense, 0 to leave it alone), `effort` in N·m
//! (N for a sliding DOF), `kind` GraspIt's `r` (rigid) or `b` (breakaway). A malformed file is
//! an error naming its line, and the hand is not loaded. [`hand_settings_xml`] writes a hand's
//! settings as they stand, what Clasp worked out included: a file to start editing from.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use clasp_core::{DofKind, HandApproach, Robot};
use nalgebra::{Point3, Unit, Vector3};

use crate::{
    body::material,
    error::{LoadError, SaveError},
    si_units::{effort_from_si, effort_to_si},
    source::FileSource,
    xml::{Element, attribute, fixed_numbers, integer_attribute, number_attribute, read_rooted},
};

/// Where a hand file's settings are: `NAME.clasp.xml` beside `NAME.EXT`.
pub fn hand_settings_path(hand_file: &Path) -> PathBuf {
    let stem = hand_file.file_stem().unwrap_or_default().to_string_lossy();
    hand_file.with_file_name(format!("{stem}.clasp.xml"))
}

/// `robot`'s settings as the file beside its URDF or MJCF says them, whether worked out or
/// set: its approach, every DOF's Auto Grasp velocity, effort and kind, and the material its
/// bodies share (none where they differ). Read back, the file gives the hand these very values.
pub fn hand_settings_xml(robot: &Robot) -> String {
    let mut xml = String::from(concat!(
        "<!-- Clasp's settings for the hand beside this file (docs/hands.md). The approach is in\n",
        "     the palm's frame, mm; a DOF's velocity is its Auto Grasp velocity (its sign the way it\n",
        "     closes, 0: left where it is), effort N·m (N for a sliding DOF), kind r (rigid) or b\n",
        "     (breakaway). What you delete is worked out from the kinematics again. -->\n",
        "<claspHand>\n",
    ));
    for doubt in robot.infer_hand().doubts {
        let _ = writeln!(xml, "  <!-- Not sure: {} -->", doubt.replace("--", "-"));
    }
    if let Some(a) = &robot.approach {
        let (r, d) = (a.reference, a.direction);
        let _ = writeln!(
            xml,
            "  <approach><reference>{} {} {}</reference><direction>{} {} {}</direction></approach>",
            r.x, r.y, r.z, d.x, d.y, d.z
        );
    }
    for (index, dof) in robot.dofs.iter().enumerate() {
        let _ = write!(
            xml,
            "  <dof index=\"{index}\" velocity=\"{}\"",
            dof.default_velocity
        );
        if dof.max_effort.is_finite() && dof.max_effort > 0.0 {
            let effort = effort_to_si(dof.max_effort, robot.dof_is_revolute(index));
            let _ = write!(xml, " effort=\"{effort}\"");
        }
        match dof.kind {
            DofKind::Rigid => xml.push_str(" kind=\"r\""),
            DofKind::Breakaway => xml.push_str(" kind=\"b\""),
            // A compliant DOF comes from GraspIt's robot files, never from this file.
            DofKind::Compliant => {}
        }
        match dof.name.is_empty() {
            true => xml.push_str("/>\n"),
            false => {
                let _ = writeln!(xml, "/>  <!-- {} -->", dof.name.replace("--", "-"));
            }
        }
    }
    let mut materials = robot.bodies().map(|b| b.material);
    if let Some(first) = materials.next()
        && materials.all(|m| m == first)
    {
        let _ = writeln!(xml, "  <material>{first}</material>");
    }
    xml.push_str("</claspHand>\n");
    xml
}

/// Writes `robot`'s settings ([`hand_settings_xml`]) beside `hand_file`, its URDF or MJCF,
/// and returns where; refused where a settings file is there already (it is the user's).
pub fn save_hand_settings(robot: &Robot, hand_file: &Path) -> Result<PathBuf, SaveError> {
    let path = hand_settings_path(hand_file);
    let refuse = |message: String| SaveError::new(&path, message);
    if path.exists() {
        return Err(refuse(
            "a settings file is there already: edit it, or move it away to write it again".into(),
        ));
    }
    std::fs::write(&path, hand_settings_xml(robot)).map_err(|e| refuse(e.to_string()))?;
    Ok(path)
}

/// Writes `robot`'s settings ([`hand_settings_xml`]) beside `hand_file`, replacing a file
/// there: the app's Save, where the user changed them on purpose. Returns where.
pub fn write_hand_settings(robot: &Robot, hand_file: &Path) -> Result<PathBuf, SaveError> {
    let path = hand_settings_path(hand_file);
    std::fs::write(&path, hand_settings_xml(robot))
        .map_err(|e| SaveError::new(&path, e.to_string()))?;
    Ok(path)
}

/// Applies the settings file beside `hand_file`, if there is one.
pub(crate) fn apply_hand_settings(
    source: &dyn FileSource,
    hand_file: &Path,
    robot: &mut Robot,
) -> Result<(), LoadError> {
    let path = hand_settings_path(hand_file);
    if !source.is_file(&path) {
        return Ok(());
    }
    let root = read_rooted(source, &path, "claspHand")?;
    if let Some(approach) = root.child("approach") {
        robot.approach = Some(read_approach(approach, &path)?);
    }
    for element in root.children_named("dof") {
        set_dof(robot, element, &path)?;
    }
    if let Some(element) = root.child("material") {
        let chosen = material(element, &path)?;
        for which in robot.parts() {
            robot.edit_body(which, |body| body.material = chosen);
        }
    }
    Ok(())
}

fn read_approach(element: &Element, path: &Path) -> Result<HandApproach, LoadError> {
    let error = |message: &str| LoadError::new(path, Some(element.line), message);
    let reference = match element.child("reference") {
        Some(r) => Point3::from(fixed_numbers::<3>(r, path)?),
        None => Point3::origin(),
    };
    let direction = element
        .child("direction")
        .ok_or_else(|| error("<approach> needs a <direction>"))?;
    let direction = Unit::try_new(Vector3::from(fixed_numbers::<3>(direction, path)?), 1e-12)
        .ok_or_else(|| error("the approach <direction> has zero length"))?;
    Ok(HandApproach {
        reference,
        direction,
    })
}

fn set_dof(robot: &mut Robot, element: &Element, path: &Path) -> Result<(), LoadError> {
    let error = |message: String| LoadError::new(path, Some(element.line), message);
    let index = integer_attribute(element, "index", path)?;
    let count = robot.dofs.len();
    let dof = usize::try_from(index)
        .ok()
        .filter(|&d| d < count)
        .ok_or_else(|| error(format!("DOF {index} does not exist: the hand has {count}")))?;
    let revolute = robot.dof_is_revolute(dof);
    if element.attribute("velocity").is_some() {
        robot.dofs[dof].default_velocity = number_attribute(element, "velocity", path)?;
    }
    if element.attribute("effort").is_some() {
        let effort = number_attribute(element, "effort", path)?;
        if effort <= 0.0 {
            return Err(error(format!("DOF {dof} effort {effort} is not positive")));
        }
        robot.dofs[dof].max_effort = effort_from_si(effort, revolute);
    }
    if element.attribute("kind").is_some() {
        robot.dofs[dof].kind = match attribute(element, "kind", path)? {
            "r" => DofKind::Rigid,
            "b" => DofKind::Breakaway,
            other => {
                return Err(error(format!(
                    "DOF kind \"{other}\": r (rigid) or b (breakaway)"
                )));
            }
        };
    }
    Ok(())
}
