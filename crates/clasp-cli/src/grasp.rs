//! `grasp`: load a world file, approach (when asked) and auto-grasp with its hand, and print
//! the DOF values and the contacts; and those two moves, which `quality` makes too.

use std::{fmt::Write as _, path::Path};

use clasp_core::{MoveOutcome, RobotId, World};
use serde_json::json;

use crate::{
    contacts::physical_contacts,
    output::{Failure, Format, world_error},
    render::{approach_json, contact_json, contact_line, count, moves_text, pairs_json},
    world_file::{load, pick_robot},
};

/// Approaches (when asked) and auto-grasps with the robot chosen (by default the world's first
/// hand), then reports its DOF values and the world's contacts.
pub fn grasp(
    file: &Path,
    root: Option<&Path>,
    robot: Option<&str>,
    approach: bool,
    format: Format,
) -> Result<String, Failure> {
    let mut world = load(file, root)?;
    let robot = pick_robot(&world, file, robot)?;
    let approached = approach
        .then(|| approach_hand(&mut world, file, robot))
        .transpose()?;
    let grasped = close_hand(&mut world, file, robot)?;
    let hand = world.find_robot(robot).map_err(|e| world_error(file, e))?;
    let dofs = hand.dof_values().to_vec();
    let contacts = physical_contacts(&world);
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": hand.name,
            "approach": approached.as_ref().map(|a| approach_json(&world, a)),
            "dof_values": dofs,
            "stopped_by": pairs_json(&world, &grasped.stopped_by),
            "blocked_by_overlap": grasped.blocked_by_overlap,
            "threshold": world.settings().contact_threshold,
            "count": contacts.len(),
            "contacts": contacts.iter().map(|c| contact_json(&world, c)).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = moves_text(&world, approached.as_ref(), Some(&grasped));
            let values: Vec<String> = dofs.iter().map(|v| format!("{v:.6}")).collect();
            let _ = writeln!(text, "DOF values (rad or mm): {}", values.join(" "));
            for contact in &contacts {
                let _ = writeln!(text, "{}", contact_line(&world, contact));
            }
            let _ = write!(text, "{}", count(contacts.len(), "contact"));
            text
        }
    })
}

/// `--approach`: moves the robot along its approach direction until it touches something, at
/// most the world's bounding-box diagonal. Returns what stopped it and that distance.
pub(crate) fn approach_hand(
    world: &mut World,
    file: &Path,
    robot: RobotId,
) -> Result<(MoveOutcome, f64), Failure> {
    let distance = world
        .bounding_box()
        .map_or(0.0, |(lo, hi)| (hi - lo).norm());
    let outcome = world
        .approach_to_contact(robot, distance)
        .map_err(|e| world_error(file, e))?;
    Ok((outcome, distance))
}

/// `--auto`: closes every finger of the robot until it touches something or reaches its limit.
pub(crate) fn close_hand(
    world: &mut World,
    file: &Path,
    robot: RobotId,
) -> Result<MoveOutcome, Failure> {
    world.auto_grasp(robot).map_err(|e| world_error(file, e))
}
