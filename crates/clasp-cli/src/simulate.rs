//! `simulate`: load a world file, step its dynamics for some seconds (dynamic bodies fall,
//! slide and rest on its contacts, kinematic ones move as their velocities say), and print
//! where each body that moves ended, how fast it moves, and every contact with the impulse of
//! the last step, as text or one JSON document.

use std::{fmt::Write as _, path::Path};

use clasp_core::{Recording, World};
use serde_json::json;

use crate::{
    contacts::physical_contacts,
    output::{Failure, Format, world_error},
    record::Playback,
    render::{body_name, contact_json, count, pose_row},
    stepping::SteppingArgs,
    world_file::load,
};

/// What a simulation run does: how long, at what step (the world's when `None`), and whether
/// bodies that start inside one another are first separated.
pub struct SimulateRequest {
    pub seconds: f64,
    pub stepping: SteppingArgs,
    pub resolve_overlaps: bool,
    /// What of the run to keep: a recording, a video.
    pub playback: Playback,
}

pub fn simulate(
    file: &Path,
    root: Option<&Path>,
    request: &SimulateRequest,
    format: Format,
) -> Result<String, Failure> {
    request.playback.check()?;
    let mut world = load(file, root)?;
    request.stepping.apply(&mut world, file)?;
    let separated = match request.resolve_overlaps {
        true => world.resolve_overlaps().map_err(|e| world_error(file, e))?,
        false => Vec::new(),
    };
    let start = world.clone();
    let mut recording = Recording::default();
    let every = clasp_core::steps_per_moment(world.time_step());
    let steps = match request.playback.wanted() {
        true => world.simulate_recorded(request.seconds, every, &mut recording),
        false => world.simulate(request.seconds),
    }
    .map_err(|e| world_error(file, e))?;
    let wrote = request.playback.write(&recording, &start, root)?;
    let separations: Vec<String> = separated
        .iter()
        .map(|s| {
            format!(
                "{} moved ({:.3}, {:.3}, {:.3}) mm out of {}",
                body_name(&world, s.moved),
                s.by.x,
                s.by.y,
                s.by.z,
                body_name(&world, s.from)
            )
        })
        .collect();
    let moving: Vec<usize> = world
        .free_bodies()
        .filter(|(_, b)| !b.is_static())
        .map(|(i, _)| i)
        .collect();
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "seconds": steps as f64 * world.time_step(),
            "steps": steps,
            "time_step": world.time_step(),
            "separated": separations,
            "bodies": moving.iter().map(|&i| body_state(&world, i)).collect::<Vec<_>>(),
            "contacts": physical_contacts(&world).iter().map(|c| contact_json(&world, c)).collect::<Vec<_>>(),
            "wrote": wrote.lines().collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text: String = separations.iter().map(|s| format!("{s}\n")).collect();
            text.push_str(&wrote);
            let _ = writeln!(
                text,
                "{} of {} s",
                count(steps, "step"),
                world.time_step()
            );
            for &i in &moving {
                let Some(body) = world.free_body(i) else { continue };
                let (c, v) = (body.world_cog(), body.velocity().linear);
                let _ = writeln!(
                    text,
                    "{}: centre ({:.3}, {:.3}, {:.3}) mm, velocity ({:.3}, {:.3}, {:.3}) mm/s",
                    body_name(&world, clasp_core::BodyId::Free(i)),
                    c.x, c.y, c.z, v.x, v.y, v.z
                );
            }
            let contacts = physical_contacts(&world);
            let _ = write!(text, "{}", count(contacts.len(), "contact"));
            text
        }
    })
}

/// A free body's pose (its 4×4 matrix's 16 numbers) and velocity.
fn body_state(world: &World, i: usize) -> serde_json::Value {
    let Some(body) = world.free_body(i) else {
        return serde_json::Value::Null;
    };
    let v = body.velocity();
    json!({
        "index": i,
        "name": body.name,
        "body_type": body.body_type().name(),
        "pose": pose_row(&body.pose()),
        "linear_velocity": [v.linear.x, v.linear.y, v.linear.z],
        "angular_velocity": [v.angular.x, v.angular.y, v.angular.z],
    })
}
