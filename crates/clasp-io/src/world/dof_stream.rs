//! GraspIt's stream of DOF values (`<dofValues>`): per DOF its value, and for a breakaway DOF
//! the state of each joint it drives; read, written, and rounded values put back in limits.

use clasp_core::{DofKind, Robot};

/// How far outside its limits a saved DOF value may lie and still load, clamped, with a
/// warning (rad or mm): GraspIt writes DOF values with six significant digits and reads them
/// without checking, so a DOF saved at its limit can read a hair outside it.
pub const DOF_ROUNDING: f64 = 1e-4;

/// Clamps each DOF value outside its limits by no more than [`DOF_ROUNDING`] into them, and
/// says so; a value further out is left for [`Robot::set_dof_values`] to refuse.
pub(super) fn clamp_rounded_dofs(robot: &Robot, values: &mut [f64]) -> Vec<String> {
    let mut messages = Vec::new();
    for (dof, value) in values.iter_mut().enumerate() {
        let (min, max) = robot.dof_limits(dof);
        let clamped = value.clamp(min, max.max(min));
        let outside = (*value - clamped).abs();
        if outside > 0.0 && outside <= DOF_ROUNDING {
            messages.push(format!(
                "{}: DOF {dof} reads {value}, {outside:.1e} outside its limits [{min}, {max}] \
                 (six-digit rounding): clamped to {clamped}",
                robot.name
            ));
            *value = clamped;
        }
    }
    messages
}

/// A robot's DOF stream as read: each DOF's value, and for a breakaway DOF where each of its
/// joints broke away (`None` for one that follows its DOF).
pub(super) struct DofStream {
    pub(super) values: Vec<f64>,
    pub(super) breakaway: Vec<Vec<Option<f64>>>,
}

/// Reads GraspIt's DOF stream: per DOF its value; a breakaway DOF then has, per joint it drives,
/// `0`, or `1` followed by the value at which that joint broke away.
pub(super) fn parse_dof_stream(robot: &Robot, text: &str) -> Result<DofStream, String> {
    let mut tokens = text.split_whitespace();
    let mut next = |what: &str| -> Result<f64, String> {
        let token = tokens
            .next()
            .ok_or_else(|| format!("<dofValues> ends before {what}"))?;
        token
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("<dofValues> holds \"{token}\", which is not a finite number"))
    };
    let mut stream = DofStream {
        values: Vec::with_capacity(robot.dofs.len()),
        breakaway: Vec::with_capacity(robot.dofs.len()),
    };
    for (i, dof) in robot.dofs.iter().enumerate() {
        stream.values.push(next(&format!("the value of DOF {i}"))?);
        let mut states = Vec::new();
        if dof.kind == DofKind::Breakaway {
            for _ in robot.dof_joints(i) {
                let state = next(&format!("the breakaway state of DOF {i}"))?;
                states.push(match state {
                    0.0 => None,
                    1.0 => Some(next(&format!("the breakaway value of DOF {i}"))?),
                    _ => {
                        return Err(format!(
                            "a breakaway state of DOF {i} is {state}, not 0 or 1"
                        ));
                    }
                });
            }
        }
        stream.breakaway.push(states);
    }
    Ok(stream)
}

/// GraspIt's DOF stream: each value, and for a breakaway DOF a `0` (not broken away) per joint.
pub(super) fn dof_stream(robot: &Robot) -> String {
    let mut parts = Vec::new();
    for (i, (dof, value)) in robot.dofs.iter().zip(robot.dof_values()).enumerate() {
        parts.push(value.to_string());
        if dof.kind == DofKind::Breakaway {
            for (chain, joint) in robot.dof_joints(i) {
                parts.push(match robot.breakaway(chain, joint) {
                    Some(at) => format!("1 {at}"),
                    None => "0".to_owned(),
                });
            }
        }
    }
    parts.join(" ")
}
