//! `quality`: load a world file, approach and auto-grasp when asked, then evaluate the hand's
//! grasp of the world's object (or its virtual contacts) and print its contacts and quality.

use std::{fmt::Write as _, path::Path};

use clasp_core::{GraspError, RobotId, World, WrenchSpaceKind};
use serde_json::json;

use crate::{
    grasp::{approach_hand, close_hand},
    output::{Failure, Format, world_error},
    render::{
        approach_json, body_json, body_name, count, grasp_contact_json, grasp_contact_line,
        moves_text, pairs_json,
    },
    world_file::{load, pick_robot},
};

/// The quality measure `quality` reports besides force closure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// The radius of the largest ball round the origin inside the wrench space.
    Epsilon,
    /// Epsilon and the wrench space's 6D volume (builds the whole hull: slower).
    Volume,
}

impl Metric {
    fn name(self) -> &'static str {
        match self {
            Metric::Epsilon => "epsilon",
            Metric::Volume => "volume",
        }
    }
}

/// What `quality` evaluates: which robot, which measure, in which wrench space, after which
/// moves.
#[derive(Debug, Clone)]
pub struct QualityRequest {
    /// A robot's index or name; `None` for the world's first hand.
    pub robot: Option<String>,
    pub metric: Metric,
    pub wrench_space: WrenchSpaceKind,
    pub approach: bool,
    pub auto: bool,
    /// The contact threshold (mm) instead of the world's.
    pub threshold: Option<f64>,
    /// GraspIt's contacts ([`World::set_graspit_contacts`]): its threshold (unless `threshold`
    /// is given), search order, pruning and soft contacts.
    pub graspit: bool,
    /// Score the hand's virtual contacts instead of its contacts on the object.
    pub on_virtual: bool,
}

/// Approaches and auto-grasps when asked, as `grasp` does, then evaluates the grasp of the
/// world's grasped object by the robot: its contacts and its quality.
pub fn quality(
    file: &Path,
    root: Option<&Path>,
    request: &QualityRequest,
    format: Format,
) -> Result<String, Failure> {
    let mut world = load(file, root)?;
    if request.graspit {
        world.set_graspit_contacts(true);
    }
    if let Some(mm) = request.threshold {
        world
            .set_contact_threshold(mm)
            .map_err(|e| world_error(file, e))?;
    }
    let robot = pick_robot(&world, file, request.robot.as_deref())?;
    if request.on_virtual {
        return virtual_quality(&world, file, robot, request, format);
    }
    let object = world
        .grasped_object()
        .ok_or_else(|| world_error(file, GraspError::NoObject))?;
    let approached = request
        .approach
        .then(|| approach_hand(&mut world, file, robot))
        .transpose()?;
    let grasped = request
        .auto
        .then(|| close_hand(&mut world, file, robot))
        .transpose()?;
    let grasp = world
        .grasp(robot, object, &world.settings().contact_options)
        .map_err(|e| world_error(file, e))?;
    let quality = match request.metric {
        Metric::Epsilon => grasp.quality(request.wrench_space),
        Metric::Volume => grasp.quality_with_volume(request.wrench_space),
    }
    .map_err(|e| world_error(file, e))?;
    let hand = &world
        .find_robot(robot)
        .map_err(|e| world_error(file, e))?
        .name;
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": hand,
            "robot_index": robot.index(),
            "object": body_json(&world, object),
            "approach": approached.as_ref().map(|a| approach_json(&world, a)),
            "auto_grasp": grasped.as_ref().map(|g| json!({
                "stopped_by": pairs_json(&world, &g.stopped_by),
                "blocked_by_overlap": g.blocked_by_overlap,
            })),
            "wrench_space": quality.wrench_space.name(),
            "metric": request.metric.name(),
            "force_closure": quality.force_closure,
            "epsilon": quality.epsilon,
            "volume": quality.volume,
            "cog": [grasp.cog.x, grasp.cog.y, grasp.cog.z],
            "max_radius": grasp.max_radius,
            "wrenches": quality.wrenches,
            "contacts": grasp.contacts.iter().map(|c| grasp_contact_json(&world, c)).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = moves_text(&world, approached.as_ref(), grasped.as_ref());
            let _ = writeln!(
                text,
                "{} grasped by {} (robot {robot}): {}",
                body_name(&world, object),
                hand,
                count(grasp.contacts.len(), "contact")
            );
            for contact in &grasp.contacts {
                let _ = writeln!(text, "{}", grasp_contact_line(&world, contact));
            }
            let _ = writeln!(text, "{quality}");
            let _ = write!(
                text,
                "force-closure: {}",
                if quality.force_closure { "yes" } else { "no" }
            );
            text
        }
    })
}

/// `quality --virtual`: the quality of the hand's virtual contacts where they stand.
fn virtual_quality(
    world: &World,
    file: &Path,
    robot: RobotId,
    request: &QualityRequest,
    format: Format,
) -> Result<String, Failure> {
    let hand = world.find_robot(robot).map_err(|e| world_error(file, e))?;
    let contacts = hand.virtual_contacts_placed().len();
    if contacts == 0 {
        let why = format!("robot {robot} ({}) has no virtual contacts", hand.name);
        return Err(world_error(file, why));
    }
    let with_volume = request.metric == Metric::Volume;
    let quality = hand
        .virtual_quality(request.wrench_space, with_volume)
        .map_err(|e| world_error(file, e))?;
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "robot": hand.name,
            "robot_index": robot.index(),
            "virtual_contacts": contacts,
            "wrench_space": quality.wrench_space.name(),
            "metric": request.metric.name(),
            "force_closure": quality.force_closure,
            "epsilon": quality.epsilon,
            "volume": quality.volume,
            "max_radius": clasp_core::VIRTUAL_MAX_RADIUS,
            "wrenches": quality.wrenches,
        })
        .to_string(),
        Format::Text => format!(
            "{} (robot {robot}) on {}: {quality}\nforce-closure: {}",
            hand.name,
            count(contacts, "virtual contact"),
            if quality.force_closure { "yes" } else { "no" }
        ),
    })
}
