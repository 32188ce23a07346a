//! `grasp`: load a world file, approach (when asked) and auto-grasp with its hand, print the
//! DOF values and the contacts, and (when asked) the physics test of the grasp; and those two
//! moves, which `quality` makes too.

use std::{fmt::Write as _, path::Path};

use clasp_core::{
    HoldSettings, HoldTest, LiftTest, MoveOutcome, Recording, RobotId, Squeeze, World,
};
use serde_json::json;

use crate::{
    contacts::physical_contacts,
    output::{Failure, Format, world_error},
    record::Playback,
    render::{approach_json, contact_json, contact_line, count, moves_text, pairs_json},
    world_file::{load, pick_robot},
};

/// What `grasp` is asked to do.
pub struct GraspRequest<'a> {
    /// The robot's index or name; by default the world's first hand.
    pub robot: Option<&'a str>,
    pub approach: bool,
    /// The physics test to run on the grasp, if any.
    pub hold: Option<HoldSettings>,
    /// GraspIt's lift to run on the grasp: the height the palm rises, mm.
    pub lift: Option<f64>,
    /// What of the physics test to keep: a recording, a video.
    pub playback: Playback,
}

/// How fast the palm rises in `--lift`, mm/s.
const LIFT_SPEED: f64 = 100.0;

/// Approaches (when asked) and auto-grasps with the robot chosen, then reports its DOF values,
/// the world's contacts and (when asked) the physics test of the grasp of the world's object.
pub fn grasp(
    file: &Path,
    root: Option<&Path>,
    request: &GraspRequest,
    format: Format,
) -> Result<String, Failure> {
    request.playback.check()?;
    if request.playback.wanted() && request.hold.is_none() {
        return Err("--record and --video keep the physics test: add --test".into());
    }
    let mut world = load(file, root)?;
    let robot = pick_robot(&world, file, request.robot)?;
    let approach = request.approach;
    let approached = approach
        .then(|| approach_hand(&mut world, file, robot))
        .transpose()?;
    let grasped = close_hand(&mut world, file, robot)?;
    let test = request
        .hold
        .map(|settings| hold_test(&world, file, robot, &settings))
        .transpose()?;
    let wrote = match &test {
        Some(test) if request.playback.wanted() => {
            let object = world.grasped_object().ok_or("the world has no object")?;
            let recording = Recording::of_hold_test(&world, robot, object, test)
                .map_err(|e| world_error(file, e))?;
            request.playback.write(&recording, &world, root)?
        }
        _ => String::new(),
    };
    let lift = request
        .lift
        .map(|height| lift_test(&world, file, robot, height))
        .transpose()?;
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
            "test": test.as_ref().map(test_json),
            "wrote": wrote.lines().collect::<Vec<_>>(),
            "lift": lift.as_ref().map(|l| json!({
                "held": l.held,
                "raised": l.raised,
                "slipped": l.slipped,
                "turned_degrees": l.turned.to_degrees(),
            })),
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
            if let Some(test) = &test {
                text.push('\n');
                text.push_str(&test_text(test));
            }
            if !wrote.is_empty() {
                text.push('\n');
                text.push_str(wrote.trim_end());
            }
            if let Some(l) = &lift {
                let _ = write!(
                    text,
                    "\nlift: the object rose {:.2} mm, slipping {:.2} mm and turning {:.2}° in the hand: {}",
                    l.raised,
                    l.slipped,
                    l.turned.to_degrees(),
                    if l.held { "held" } else { "let go" }
                );
            }
            text
        }
    })
}

/// The physics test of the robot's grasp of the world's object (its first graspable body).
fn hold_test(
    world: &World,
    file: &Path,
    robot: RobotId,
    settings: &HoldSettings,
) -> Result<HoldTest, Failure> {
    let object = world
        .grasped_object()
        .ok_or_else(|| world_error(file, "the world has no graspable body to test the grasp on"))?;
    world
        .test_grasp(robot, object, settings)
        .map_err(|e| world_error(file, e))
}

/// GraspIt's lift of the world's object: the palm rises `height` mm.
fn lift_test(world: &World, file: &Path, robot: RobotId, height: f64) -> Result<LiftTest, Failure> {
    let object = world
        .grasped_object()
        .ok_or_else(|| world_error(file, "the world has no graspable body to lift"))?;
    world
        .lift_grasp(robot, object, height, LIFT_SPEED, &HoldSettings::default())
        .map_err(|e| world_error(file, e))
}

/// How the hand pressed after the squeeze: each DOF's effort against its limit (N·mm, or N
/// for a prismatic DOF), the normal force on the object, what each finger touches.
fn squeeze_text(squeeze: &Squeeze) -> String {
    let mut text = String::from("squeeze:");
    for (dof, (effort, limit)) in squeeze
        .dof_efforts
        .iter()
        .zip(&squeeze.effort_limits)
        .enumerate()
    {
        let _ = write!(
            text,
            " DOF {dof} {:.3} of {:.3},",
            effort * 1e-6,
            limit * 1e-6
        );
    }
    let _ = writeln!(
        text,
        " normal force on the object {:.3} N",
        squeeze.normal_force * 1e-6
    );
    for (chain, finger) in squeeze.fingers.iter().enumerate() {
        let mut on = Vec::new();
        if finger.on_object {
            on.push("the object".to_owned());
        }
        on.extend(finger.on_fingers.iter().map(|f| format!("finger {f}")));
        if finger.on_palm {
            on.push("the palm".to_owned());
        }
        let on = if on.is_empty() {
            "nothing".to_owned()
        } else {
            on.join(", ")
        };
        let _ = writeln!(text, "  finger {chain} touches {on}");
    }
    text
}

pub(crate) fn test_json(test: &HoldTest) -> serde_json::Value {
    let squeeze = &test.squeeze;
    json!({
        "held": test.held,
        "squeeze": {
            "dof_efforts": squeeze.dof_efforts,
            "effort_limits": squeeze.effort_limits,
            "normal_force": squeeze.normal_force,
            "fingers": squeeze.fingers.iter().map(|f| json!({
                "on_object": f.on_object,
                "on_fingers": f.on_fingers,
                "on_palm": f.on_palm,
            })).collect::<Vec<_>>(),
        },
        "directions": test.directions.iter().map(|d| json!({
            "gravity": [d.gravity.x, d.gravity.y, d.gravity.z],
            "displacement": d.displacement,
            "rotation_degrees": d.rotation.to_degrees(),
            "speed": d.speed,
            "rested": d.rested,
            "held": d.held,
            "steps": d.solves.steps,
            "unsettled_steps": d.solves.unsettled,
            "relaxed_steps": d.solves.relaxed,
            "held_fast": d.solves.held_fast,
            "sweeps_median": d.solves.sweeps_percentile(0.5),
            "sweeps_p99": d.solves.sweeps_percentile(0.99),
        })).collect::<Vec<_>>(),
    })
}

fn test_text(test: &HoldTest) -> String {
    let mut text = squeeze_text(&test.squeeze);
    text.push_str("physics test (each run from the squeeze):\n");
    for d in &test.directions {
        let axis = d.gravity.normalize();
        let _ = writeln!(
            text,
            "  pulled ({:+.0}, {:+.0}, {:+.0}): moved {:.2} mm, turned {:.2}°, {}: {}",
            axis.x,
            axis.y,
            axis.z,
            d.displacement,
            d.rotation.to_degrees(),
            match d.rested {
                true => "at rest".to_owned(),
                false => format!("still moving at {:.1} mm/s", d.speed),
            },
            if d.held { "held" } else { "let go" }
        );
    }
    let (steps, unsettled) = test.directions.iter().fold((0, 0), |(s, u), d| {
        (s + d.solves.steps, u + d.solves.unsettled)
    });
    if unsettled > 0 {
        // The answer then depends on where the solves started, not on the physics alone.
        let _ = writeln!(
            text,
            "{unsettled} of {steps} steps' contact solves did not settle"
        );
    }
    let _ = write!(text, "held: {}", if test.held { "yes" } else { "no" });
    text
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
