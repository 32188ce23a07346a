//! How a robot's MJCF joints follow its DOFs: each hinge or slide joint drives a DOF of its own
//! unless an `<equality><joint>` holds it to another, whose DOF it then follows; ranges and
//! refs in Clasp's units; and the DOFs' gains and effort limits from position actuators.

use clasp_core::{Coupling, Dof, JointKind};

use super::{
    MM_PER_M,
    document::{Compiler, Document, Node},
    frames::angle,
};
use crate::{
    error::LoadError,
    si_units::{CLASP_PER_NEWTON, CLASP_PER_NEWTON_METRE},
};

/// How a joint follows its DOF, and its limits on ratio · DOF.
#[derive(Clone, Copy)]
pub(super) struct Following {
    pub(super) coupling: Coupling,
    pub(super) min: f64,
    pub(super) max: f64,
    /// The DOF is this joint's own (no equality holds it to another joint).
    pub(super) own_dof: bool,
    /// The joint's `ref` (Clasp's units): where MuJoCo's `qpos0` puts it.
    pub(super) reference: f64,
}

/// A joint of a robot as read, before the couplings are known.
pub(super) struct JointRecord<'a> {
    pub(super) node: &'a Node,
    pub(super) kind: JointKind,
    pub(super) chain: usize,
    pub(super) index: usize,
}

/// Each joint's coupling (its value q, in Clasp's units, is ratio · DOF + offset + its
/// `ref`: MuJoCo turns a joint by q − ref) and its limits on ratio · DOF.
pub(super) fn joint_couplings<'a>(
    document: &'a Document,
    records: &[JointRecord<'a>],
) -> Result<Vec<Following>, LoadError> {
    let held = held_joints(document, records)?;
    let mut dof_of: Vec<Option<usize>> = vec![None; records.len()];
    let mut next_dof = 0;
    for (r, dof) in dof_of.iter_mut().enumerate() {
        if held[r].is_none() {
            *dof = Some(next_dof);
            next_dof += 1;
        }
    }
    let references: Vec<f64> = records
        .iter()
        .map(|r| {
            Ok(in_clasp_units(
                &document.compiler,
                r,
                r.node.number("ref")?.unwrap_or(0.0),
            ))
        })
        .collect::<Result<_, LoadError>>()?;
    let follow = Follow {
        records,
        held: &held,
        dof_of: &dof_of,
        references: &references,
    };
    (0..records.len())
        .map(|r| {
            let (dof, a, b) = follow.value(r, 0)?;
            let (lower, upper) = limits(&document.compiler, &records[r])?;
            Ok(Following {
                coupling: Coupling {
                    dof,
                    ratio: a,
                    offset: b - references[r],
                },
                min: in_clasp_units(&document.compiler, &records[r], lower) - b,
                max: in_clasp_units(&document.compiler, &records[r], upper) - b,
                own_dof: held[r].is_none(),
                reference: references[r],
            })
        })
        .collect()
}

/// An attribute's joint value (range, ref: the compiler's angle unit, metres) in Clasp's
/// units.
fn in_clasp_units(compiler: &Compiler, record: &JointRecord, value: f64) -> f64 {
    match record.kind {
        JointKind::Revolute => angle(value, compiler),
        JointKind::Prismatic => value * MM_PER_M,
    }
}

/// For each joint held by an `<equality><joint>` to another: (that joint, c0, c1, the
/// equality).
#[allow(clippy::type_complexity)]
fn held_joints<'a>(
    document: &'a Document,
    records: &[JointRecord<'a>],
) -> Result<Vec<Option<(usize, f64, f64, &'a Node)>>, LoadError> {
    let find = |name: &str| {
        records
            .iter()
            .position(|r| r.node.attribute("name") == Some(name))
    };
    let mut held = vec![None; records.len()];
    for equality in &document.equalities {
        match equality.tag.as_str() {
            "joint" => {}
            "connect" | "weld" | "flex" => {
                return Err(equality.error(format!(
                    "<{}> equality closes a loop of bodies; Clasp's robots are trees",
                    equality.tag
                )));
            }
            _ => continue, // Tendon equalities: tendons are skipped.
        }
        if equality.attribute("active") == Some("false") {
            continue;
        }
        let name1 = equality.attribute("joint1").unwrap_or_default();
        let Some(first) = find(name1) else {
            continue; // A joint of another robot.
        };
        let Some(name2) = equality.attribute("joint2") else {
            return Err(equality.error(format!(
                "<joint> equality holds \"{name1}\" at a constant; Clasp holds joints only to \
                 other joints"
            )));
        };
        let second = find(name2).ok_or_else(|| {
            equality.error(format!(
                "<joint> equality names joint \"{name2}\", which is not a hinge or slide \
                 joint of the same robot"
            ))
        })?;
        let coefficients = equality.numbers("polycoef")?.unwrap_or(vec![0.0, 1.0]);
        let (c0, c1) = (
            coefficients.first().copied().unwrap_or(0.0),
            coefficients.get(1).copied().unwrap_or(0.0),
        );
        if coefficients.iter().skip(2).any(|&c| c != 0.0) || c1 == 0.0 {
            return Err(equality
                .error("<joint> equality polycoef must be of degree one (c0 c1 0 0 0, c1 not 0)"));
        }
        if held[first].is_some() {
            return Err(equality.error(format!("joint \"{name1}\" is held twice")));
        }
        held[first] = Some((second, c0, c1, equality));
    }
    Ok(held)
}

/// A joint's range in its MJCF unit; infinite when it is not limited.
fn limits(compiler: &Compiler, record: &JointRecord) -> Result<(f64, f64), LoadError> {
    let node = record.node;
    let range = node.array::<2>("range")?;
    let limited = match node.attribute("limited") {
        Some("true") => true,
        Some("false") => false,
        Some("auto") | None => compiler.auto_limits && range.is_some(),
        Some(other) => {
            return Err(node.error(format!(
                "<joint> limited=\"{other}\" is not true, false or auto"
            )));
        }
    };
    if !limited {
        return Ok((f64::NEG_INFINITY, f64::INFINITY));
    }
    let [lower, upper] =
        range.ok_or_else(|| node.error("a limited <joint> has no range, which it needs"))?;
    if lower > upper {
        return Err(node.error(format!("<joint> range is reversed: {lower} > {upper}")));
    }
    Ok((lower, upper))
}

/// Each DOF's gain and effort limit from the position actuators on its joints.
pub(super) fn actuate(
    document: &Document,
    records: &[JointRecord],
    couplings: &[Following],
    dofs: &mut [Dof],
) -> Result<(), LoadError> {
    for actuator in &document.actuators {
        let Some(joint) = actuator.attribute("joint") else {
            continue; // Tendon and site actuators.
        };
        let Some(r) = records
            .iter()
            .position(|r| r.node.attribute("name") == Some(joint))
        else {
            continue; // Another robot's joint.
        };
        let (torque_or_force, gain) = match records[r].kind {
            JointKind::Revolute => (CLASP_PER_NEWTON_METRE, CLASP_PER_NEWTON_METRE),
            JointKind::Prismatic => (CLASP_PER_NEWTON, CLASP_PER_NEWTON / MM_PER_M),
        };
        let dof = &mut dofs[couplings[r].coupling.dof];
        if actuator.tag == "position"
            && let Some(kp) = actuator.number("kp")?
        {
            dof.kp = kp * gain;
        }
        let limited = actuator.flag("forcelimited")?.unwrap_or(true);
        if let (true, Some([low, high])) = (limited, actuator.array::<2>("forcerange")?) {
            dof.max_effort = low.abs().max(high.abs()) * torque_or_force;
        }
    }
    Ok(())
}

/// Clasp's units per qpos unit (radians whatever the compiler's angle; metres).
pub(super) fn qpos_to_clasp(kind: JointKind) -> f64 {
    match kind {
        JointKind::Revolute => 1.0,
        JointKind::Prismatic => MM_PER_M,
    }
}

/// The joints' equalities, followed: each joint's value as a · DOF + b.
struct Follow<'r, 'a> {
    records: &'r [JointRecord<'a>],
    held: &'r [Option<(usize, f64, f64, &'a Node)>],
    dof_of: &'r [Option<usize>],
    /// Each joint's `ref`, Clasp's units.
    references: &'r [f64],
}

impl Follow<'_, '_> {
    /// Joint r's value (Clasp's units) as a · DOF + b.
    fn value(&self, r: usize, depth: usize) -> Result<(usize, f64, f64), LoadError> {
        let Some((leader, c0, c1, equality)) = self.held[r] else {
            return Ok((self.dof_of[r].unwrap_or_default(), 1.0, 0.0));
        };
        if depth > self.records.len() {
            return Err(equality.error("joint equalities form a loop"));
        }
        let (dof, a, b) = self.value(leader, depth + 1)?;
        // MuJoCo's q1 − ref1 = c0 + c1 · (q2 − ref2), in qpos units.
        let s1 = qpos_to_clasp(self.records[r].kind);
        let factor = s1 * c1 / qpos_to_clasp(self.records[leader].kind);
        let (ref1, ref2) = (self.references[r], self.references[leader]);
        Ok((dof, factor * a, ref1 + s1 * c0 + factor * (b - ref2)))
    }
}
