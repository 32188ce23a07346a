//! What a world file says of each of a robot's bodies: its collision groups, and the edits of
//! its body file (`<bodyGroups>` and `<bodyEdits>`, each naming the palm or a chain's link).

use std::{fmt::Write as _, path::Path};

use clasp_core::{Body, CollisionGroups, Robot, RobotBody};

use crate::{
    body_edits::{body_edits_xml, read_body_edits},
    error::LoadError,
    groups::{groups_xml, read_groups},
    robot_file::load_any_robot,
    source::Disk,
    xml::Element,
};

/// A `<robot>` element's groups: `<collisionGroup>`/`<collisionMask>` for every body, then
/// `<bodyGroups body="palm">` or `<bodyGroups chain="0" link="1">` for one.
pub(super) fn read_robot_groups(
    robot: &mut Robot,
    element: &Element,
    file: &Path,
) -> Result<(), LoadError> {
    let has_own =
        element.child("collisionGroup").is_some() || element.child("collisionMask").is_some();
    if has_own {
        for which in robot.parts() {
            let start = robot
                .body(which)
                .map_or(CollisionGroups::MOVABLE, Body::groups);
            robot.set_body_groups(which, read_groups(element, file, start)?);
        }
    }
    for one in element.children_named("bodyGroups") {
        let which = named_body(robot, one, file)?;
        let start = robot
            .body(which)
            .map_or(CollisionGroups::MOVABLE, Body::groups);
        robot.set_body_groups(which, read_groups(one, file, start)?);
    }
    Ok(())
}

/// `<bodyEdits body="palm">` or `<bodyEdits chain="0" link="1">`: what the world changes of
/// that body's file (as a free body's edits beside its `<filename>`, [`read_body_edits`]).
pub(super) fn read_robot_body_edits(
    robot: &mut Robot,
    element: &Element,
    file: &Path,
) -> Result<(), LoadError> {
    for one in element.children_named("bodyEdits") {
        let which = named_body(robot, one, file)?;
        robot
            .edit_body(which, |body| read_body_edits(body, one, file))
            .transpose()?;
    }
    Ok(())
}

/// The body a `<bodyGroups>` or `<bodyEdits>` names by its attributes.
fn named_body(robot: &Robot, element: &Element, file: &Path) -> Result<RobotBody, LoadError> {
    let error = |message: String| LoadError::new(file, Some(element.line), message);
    let number = |text: &str, what: &str| {
        text.trim()
            .parse()
            .map_err(|_| error(format!("{what} must be a number")))
    };
    let which = match (
        element.attribute("body"),
        element.attribute("chain"),
        element.attribute("link"),
    ) {
        (Some("palm"), None, None) => RobotBody::Palm,
        (None, Some(chain), Some(link)) => RobotBody::Link {
            chain: number(chain, "chain")?,
            link: number(link, "link")?,
        },
        _ => {
            return Err(error(format!(
                "<{}> names body=\"palm\", or a chain and a link",
                element.name
            )));
        }
    };
    match robot.body(which) {
        Some(_) => Ok(which),
        None => Err(error("the robot has no such body".to_owned())),
    }
}

/// The attributes that name a body of a robot; `None` for the mount piece, which comes with
/// the connection, after the robot's own bodies are read.
fn body_attributes(which: RobotBody) -> Option<String> {
    match which {
        RobotBody::Palm => Some("body=\"palm\"".to_owned()),
        RobotBody::Link { chain, link } => Some(format!("chain=\"{chain}\" link=\"{link}\"")),
        RobotBody::Mount => None,
    }
}

/// A `<robot>`'s groups as [`read_robot_groups`] reads them: one `<bodyGroups>` for each body
/// not in RaiSim's default.
pub(super) fn robot_groups_xml(robot: &Robot) -> String {
    let mut xml = String::new();
    for which in robot.parts() {
        let Some(groups) = robot.body(which).map(Body::groups) else {
            continue;
        };
        if groups == CollisionGroups::MOVABLE {
            continue;
        }
        let Some(names) = body_attributes(which) else {
            continue;
        };
        let _ = writeln!(xml, "\t\t<bodyGroups {names}>");
        xml.push_str(&groups_xml(groups, "\t\t\t"));
        xml.push_str("\t\t</bodyGroups>\n");
    }
    xml
}

/// A `<robot>`'s body edits as [`read_robot_body_edits`] reads them: one `<bodyEdits>` for each
/// body from a file whose name, material, mass or Young's modulus was changed.
pub(super) fn robot_body_edits_xml(robot: &Robot) -> String {
    // What the robot's files give is read again, to write only what was changed.
    let as_loaded = robot
        .source
        .as_ref()
        .and_then(|file| load_any_robot(&Disk, file).ok());
    let mut xml = String::new();
    for which in robot.parts() {
        let (Some(body), Some(names)) = (robot.body(which), body_attributes(which)) else {
            continue;
        };
        let loaded_body = as_loaded.as_ref().and_then(|r| r.body(which));
        let edits = body_edits_xml(body, loaded_body, "\t\t\t");
        if !edits.is_empty() {
            let _ = write!(xml, "\t\t<bodyEdits {names}>\n{edits}\t\t</bodyEdits>\n");
        }
    }
    xml
}
