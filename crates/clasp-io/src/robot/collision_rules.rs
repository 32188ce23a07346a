//! Which of a robot's bodies may touch: GraspIt's link attributes `collisionRule`,
//! `targetChain` and `targetLink`, and the robot's `<disableCollision>` elements.

use std::path::Path;

use clasp_core::{Chain, CollisionRule, RobotBody};

use crate::{
    error::LoadError,
    xml::{Element, integer_attribute},
};

/// The link attributes `collisionRule`/`targetChain`/`targetLink` and the robot-level
/// `<disableCollision body1_chain body1_link body2_chain body2_link/>` (chain < 0: the palm).
pub(super) fn parse_collision_rules(
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
