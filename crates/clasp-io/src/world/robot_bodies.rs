//! What a world file says of each of a robot's bodies: its collision groups, and the edits of
//! its body file (`<bodyGroups>` and `<bodyEdits>`, each naming the palm or a chain's link).

use std::{fmt::Write as _, path::Path};

use clasp_core::{Body, CollisionGroups, Robot, RobotBody};

use crate::{
    error::LoadError,
    groups::{groups_xml, read_groups},
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
        let error = |message: &str| LoadError::new(file, Some(one.line), message);
        let which = match (
            one.attribute("body"),
            one.attribute("chain"),
            one.attribute("link"),
        ) {
            (Some("palm"), None, None) => RobotBody::Palm,
            (None, Some(chain), Some(link)) => RobotBody::Link {
                chain: chain
                    .trim()
                    .parse()
                    .map_err(|_| error("chain must be a number"))?,
                link: link
                    .trim()
                    .parse()
                    .map_err(|_| error("link must be a number"))?,
            },
            _ => {
                return Err(error(
                    "<bodyGroups> names body=\"palm\", or a chain and a link",
                ));
            }
        };
        let start = robot
            .body(which)
            .ok_or_else(|| error("the robot has no such body"))?
            .groups();
        robot.set_body_groups(which, read_groups(one, file, start)?);
    }
    Ok(())
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
        let names = match which {
            RobotBody::Palm => "body=\"palm\"".to_owned(),
            RobotBody::Link { chain, link } => format!("chain=\"{chain}\" link=\"{link}\""),
            // The mount piece comes with the connection, after the robot's groups are read.
            RobotBody::Mount => continue,
        };
        let _ = writeln!(xml, "\t\t<bodyGroups {names}>");
        xml.push_str(&groups_xml(groups, "\t\t\t"));
        xml.push_str("\t\t</bodyGroups>\n");
    }
    xml
}
