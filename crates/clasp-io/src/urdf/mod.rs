//! URDF robots (ROS's Unified Robot Description Format) as Clasp robots.
//!
//! The root link is the palm; each path from it through movable joints is a chain, and where a
//! link has several movable joints the first goes on and the others start branches on it (a
//! wrist carrying a palm of fingers, a thumb base off the palm). Fixed joints
//! are folded away: a fixed child's geometry joins its parent's body, and a link with no
//! geometry of its own whose geometry all comes from one fixed descendant takes that
//! descendant's frame (so a URDF can place a link frame off its joint axis, as a
//! Denavit–Hartenberg frame is). Every movable joint that does not `<mimic>` another is a DOF,
//! in file order; mimic joints become couplings. Units: metres become millimetres, radians stay.

mod assembly;
mod model;
mod shapes;
#[cfg(test)]
mod tests;

use std::path::Path;

use clasp_core::{Dof, DofKind, Robot};

use crate::{
    error::LoadError, hand_settings::apply_hand_settings, source::FileSource, xml::read_rooted,
};
use assembly::Builder;
use model::Model;

/// Loads a URDF file. Mesh files are found relative to it, or for `package://NAME/...` in a
/// folder `NAME` beside it or beside one of its parent folders.
pub fn load_urdf(source: &dyn FileSource, path: &Path) -> Result<Robot, LoadError> {
    let root = read_rooted(source, path, "robot")?;
    let model = Model::parse(&root, path)?;
    let couplings = model.couplings()?;
    let builder = Builder {
        source,
        file: path,
        model: &model,
        couplings: &couplings,
    };
    let (palm, chains) = builder.build()?;
    let dofs = model
        .joints
        .iter()
        .filter(|j| j.drives_a_dof())
        .map(|joint| {
            // A URDF says nothing about which way a joint closes a grasp: inferred below.
            let mut dof = Dof::new(DofKind::Rigid, 1.0, 0.0);
            dof.name = joint.name.to_owned();
            dof.max_effort = joint.effort.unwrap_or(Dof::DEFAULT_MAX_EFFORT);
            dof
        })
        .collect();
    let name = root
        .attribute("name")
        .map(str::to_owned)
        .unwrap_or_else(|| {
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
    let mut robot = Robot::new(name, palm, dofs, chains, None);
    robot.source = Some(path.to_path_buf());
    // What a GraspIt robot file says and a URDF does not, from the kinematics; a URDF's
    // zero is no posture to start a grasp from where it shuts a gripper's jaws.
    let inferred = robot.infer_hand();
    robot.apply_inference(&inferred);
    robot.open_sliding_jaws(&inferred);
    apply_hand_settings(source, path, &mut robot)?;
    Ok(robot)
}
