//! A command's world: its file loaded (what was read with a change said on stderr), and the
//! robot the command acts with.

use std::path::Path;

use clasp_core::{RobotId, World};
use clasp_io::Disk;

use crate::output::{Failure, one_line, world_error};

pub(crate) fn load(file: &Path, root: Option<&Path>) -> Result<World, Failure> {
    load_saying_warnings(file, root).map_err(|error| one_line(&error))
}

/// Loads a world file; what was read with a change (a DOF a rounding outside its limits,
/// clamped) is said on stderr, a line each.
pub(crate) fn load_saying_warnings(
    file: &Path,
    root: Option<&Path>,
) -> Result<World, clasp_io::LoadError> {
    let (world, warnings) = clasp_io::load_world_with_warnings(&Disk, file, root)?;
    warnings.iter().for_each(say_warning);
    Ok(world)
}

/// Says on stderr what a file was read with a change, one line.
pub(crate) fn say_warning(warning: &clasp_io::LoadWarning) {
    eprintln!("{}", warning_line(warning));
}

/// The line that says a file was read with a change.
pub(crate) fn warning_line(warning: &clasp_io::LoadWarning) -> String {
    format!("clasp-cli: warning: {warning}")
}

/// The robot `--robot` names, by index (0 is the first) or by name; without it, the world's
/// current hand: its first robot that is a hand (GraspIt's `getCurrentHand`), so an arm that
/// carries a hand is passed over.
pub(crate) fn pick_robot(
    world: &World,
    file: &Path,
    choice: Option<&str>,
) -> Result<RobotId, Failure> {
    let names = || {
        let names: Vec<String> = world
            .robots()
            .map(|(i, r)| format!("{i} {}", r.name))
            .collect();
        if names.is_empty() {
            "it has no robot".to_string()
        } else {
            format!("its robots: {}", names.join(", "))
        }
    };
    let Some(choice) = choice else {
        return world.current_hand().ok_or_else(|| {
            world_error(
                file,
                format!("the world has no hand to grasp with ({})", names()),
            )
        });
    };
    let by_index = choice
        .parse::<usize>()
        .ok()
        .map(RobotId::from_index)
        .filter(|&i| world.robot(i).is_some());
    let by_name = || {
        world
            .robots()
            .find(|(_, r)| r.name == choice)
            .map(|(i, _)| i)
    };
    by_index.or_else(by_name).ok_or_else(|| {
        world_error(
            file,
            format!("the world has no robot \"{choice}\" ({})", names()),
        )
    })
}
