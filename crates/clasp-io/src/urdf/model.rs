//! The links and joints of a URDF file, read and checked to form one tree, and the couplings
//! its mimic joints make; lengths in millimetres.

use std::{collections::HashMap, path::Path};

use clasp_core::{Coupling, Pose};
use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};

use crate::{
    error::LoadError,
    si_units::effort_from_si,
    xml::{Element, attribute, number_attribute},
};

/// URDF lengths are metres; Clasp's are millimetres.
pub(super) const MM_PER_M: f64 = 1000.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UrdfKind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
}

#[derive(Debug)]
struct Mimic<'a> {
    joint: &'a str,
    multiplier: f64,
    offset: f64,
    line: usize,
}

#[derive(Debug)]
pub(super) struct UrdfJoint<'a> {
    pub(super) name: &'a str,
    pub(super) line: usize,
    pub(super) kind: UrdfKind,
    pub(super) parent: &'a str,
    pub(super) child: &'a str,
    /// In millimetres.
    pub(super) origin: Pose,
    pub(super) axis: Unit<Vector3<f64>>,
    /// The limits on the joint position, in Clasp's units; infinite for continuous joints.
    pub(super) lower: f64,
    pub(super) upper: f64,
    /// `<limit effort>` in GraspIt's DOF units (N·mm·1e6 for a torque, N·1e6 for a force).
    pub(super) effort: Option<f64>,
    mimic: Option<Mimic<'a>>,
}

impl UrdfJoint<'_> {
    pub(super) fn drives_a_dof(&self) -> bool {
        self.kind != UrdfKind::Fixed && self.mimic.is_none()
    }

    /// Millimetres per URDF unit of this joint's position.
    fn scale(&self) -> f64 {
        if self.kind == UrdfKind::Prismatic {
            MM_PER_M
        } else {
            1.0
        }
    }
}

/// The links and joints of a URDF file, checked to form one tree.
pub(super) struct Model<'a> {
    pub(super) file: &'a Path,
    pub(super) links: HashMap<&'a str, &'a Element>,
    pub(super) joints: Vec<UrdfJoint<'a>>,
    pub(super) root: &'a str,
}

impl<'a> Model<'a> {
    pub(super) fn parse(root: &'a Element, file: &'a Path) -> Result<Self, LoadError> {
        let error = |line, message: String| LoadError::new(file, Some(line), message);
        let mut links = HashMap::new();
        for link in root.children_named("link") {
            let name = attribute(link, "name", file)?;
            if links.insert(name, link).is_some() {
                return Err(error(link.line, format!("a second link named \"{name}\"")));
            }
        }
        let mut joints: Vec<UrdfJoint> = Vec::new();
        for element in root.children_named("joint") {
            let joint = parse_joint(element, file)?;
            if joints.iter().any(|j| j.name == joint.name) {
                return Err(error(
                    joint.line,
                    format!("a second joint named \"{}\"", joint.name),
                ));
            }
            for end in [joint.parent, joint.child] {
                if !links.contains_key(end) {
                    return Err(error(
                        joint.line,
                        format!(
                            "joint \"{}\" names link \"{end}\", which the file does not define",
                            joint.name
                        ),
                    ));
                }
            }
            if let Some(other) = joints.iter().find(|j| j.child == joint.child) {
                return Err(error(
                    joint.line,
                    format!(
                        "link \"{}\" is the child of both joint \"{}\" and joint \"{}\"",
                        joint.child, other.name, joint.name
                    ),
                ));
            }
            joints.push(joint);
        }
        let mut roots: Vec<&str> = root
            .children_named("link")
            .filter_map(|l| l.attribute("name"))
            .filter(|name| !joints.iter().any(|j| j.child == *name))
            .collect();
        let root_link = match roots.len() {
            1 => roots.remove(0),
            0 => {
                return Err(error(
                    root.line,
                    "the robot has no root link: its joints form a loop".into(),
                ));
            }
            _ => {
                return Err(error(
                    root.line,
                    format!(
                        "the robot has several root links ({}); a URDF is one tree",
                        roots.join(", ")
                    ),
                ));
            }
        };
        let model = Model {
            file,
            links,
            joints,
            root: root_link,
        };
        model.check_reachable()?;
        Ok(model)
    }

    /// Every link must hang from the root; one that does not sits on a loop of joints.
    fn check_reachable(&self) -> Result<(), LoadError> {
        let mut reached = vec![self.root];
        let mut next = 0;
        while let Some(&link) = reached.get(next) {
            reached.extend(
                self.joints
                    .iter()
                    .filter(|j| j.parent == link)
                    .map(|j| j.child),
            );
            next += 1;
        }
        match self.links.iter().find(|(name, _)| !reached.contains(name)) {
            None => Ok(()),
            Some((name, link)) => Err(LoadError::new(
                self.file,
                Some(link.line),
                format!(
                    "link \"{name}\" is not reached from the root link \"{}\": its joints form a loop",
                    self.root
                ),
            )),
        }
    }

    fn joint(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The coupling of every movable joint (`None` for fixed ones): non-mimic joints drive their
    /// own DOF, in file order; a mimic joint follows the joint it names, through any chain of
    /// mimics.
    pub(super) fn couplings(&self) -> Result<Vec<Option<Coupling>>, LoadError> {
        let mut dof = 0;
        let own: Vec<Option<usize>> = self
            .joints
            .iter()
            .map(|j| {
                j.drives_a_dof().then(|| {
                    dof += 1;
                    dof - 1
                })
            })
            .collect();
        (0..self.joints.len())
            .map(|j| match self.joints[j].kind {
                UrdfKind::Fixed => Ok(None),
                _ => self.coupling(j, &own, 0).map(Some),
            })
            .collect()
    }

    fn coupling(
        &self,
        j: usize,
        own: &[Option<usize>],
        depth: usize,
    ) -> Result<Coupling, LoadError> {
        let joint = &self.joints[j];
        let Some(mimic) = &joint.mimic else {
            let dof = own[j].unwrap_or_default();
            return Ok(Coupling {
                dof,
                ratio: 1.0,
                offset: 0.0,
            });
        };
        let error = |message: String| LoadError::new(self.file, Some(mimic.line), message);
        if depth > self.joints.len() {
            return Err(error(format!(
                "joint \"{}\" mimics itself through a loop of mimic joints",
                joint.name
            )));
        }
        let leader = self.joint(mimic.joint).ok_or_else(|| {
            error(format!(
                "<mimic> names joint \"{}\", which the file does not define",
                mimic.joint
            ))
        })?;
        if self.joints[leader].kind == UrdfKind::Fixed {
            return Err(error(format!(
                "<mimic> names fixed joint \"{}\", which does not move",
                mimic.joint
            )));
        }
        let base = self.coupling(leader, own, depth + 1)?;
        // position = multiplier · leader position + offset, each in its joint's URDF unit.
        let factor = joint.scale() * mimic.multiplier / self.joints[leader].scale();
        Ok(Coupling {
            dof: base.dof,
            ratio: factor * base.ratio,
            offset: factor * base.offset + joint.scale() * mimic.offset,
        })
    }
}

fn parse_joint<'a>(element: &'a Element, file: &Path) -> Result<UrdfJoint<'a>, LoadError> {
    let error = |message: String| LoadError::new(file, Some(element.line), message);
    let name = attribute(element, "name", file)?;
    let kind = match attribute(element, "type", file)? {
        "revolute" => UrdfKind::Revolute,
        "continuous" => UrdfKind::Continuous,
        "prismatic" => UrdfKind::Prismatic,
        "fixed" => UrdfKind::Fixed,
        other => {
            return Err(error(format!(
                "joint \"{name}\" has type \"{other}\"; Clasp reads revolute, continuous, prismatic and fixed joints"
            )));
        }
    };
    let link_of = |tag: &str| -> Result<&'a str, LoadError> {
        let end = element.child(tag).ok_or_else(|| {
            error(format!(
                "joint \"{name}\" has no <{tag}>, which is required"
            ))
        })?;
        attribute(end, "link", file)
    };
    let axis = match element.child("axis") {
        None => Vector3::x(),
        Some(a) => Vector3::from(vector_attribute(a, "xyz", file)?.unwrap_or([1.0, 0.0, 0.0])),
    };
    let axis = Unit::try_new(axis, 1e-9)
        .ok_or_else(|| error(format!("joint \"{name}\" has an axis of zero length")))?;
    let mut joint = UrdfJoint {
        name,
        line: element.line,
        kind,
        parent: link_of("parent")?,
        child: link_of("child")?,
        origin: origin(element, file)?,
        axis,
        lower: f64::NEG_INFINITY,
        upper: f64::INFINITY,
        effort: None,
        mimic: element
            .child("mimic")
            .map(|m| parse_mimic(m, file))
            .transpose()?,
    };
    if matches!(kind, UrdfKind::Revolute | UrdfKind::Prismatic) {
        let limit = element.child("limit").ok_or_else(|| {
            error(format!(
                "{} joint \"{name}\" has no <limit>, which is required",
                attribute(element, "type", file).unwrap_or_default()
            ))
        })?;
        let bound = |key: &str| match limit.attribute(key) {
            None => Ok(0.0), // URDF's default
            Some(_) => number_attribute(limit, key, file),
        };
        let (lower, upper) = (bound("lower")?, bound("upper")?);
        if lower > upper {
            return Err(LoadError::new(
                file,
                Some(limit.line),
                format!("joint \"{name}\" limits are reversed: lower {lower} > upper {upper}"),
            ));
        }
        (joint.lower, joint.upper) = (lower * joint.scale(), upper * joint.scale());
    }
    if let Some(limit) = element
        .child("limit")
        .filter(|l| l.attribute("effort").is_some())
    {
        let effort = number_attribute(limit, "effort", file)?;
        if effort < 0.0 {
            return Err(LoadError::new(
                file,
                Some(limit.line),
                format!("joint \"{name}\" effort {effort} is negative"),
            ));
        }
        joint.effort = Some(effort_from_si(effort, joint.kind != UrdfKind::Prismatic));
    }
    Ok(joint)
}

fn parse_mimic<'a>(element: &'a Element, file: &Path) -> Result<Mimic<'a>, LoadError> {
    let optional = |key: &str, default: f64| match element.attribute(key) {
        None => Ok(default),
        Some(_) => number_attribute(element, key, file),
    };
    let multiplier = optional("multiplier", 1.0)?;
    if multiplier == 0.0 {
        return Err(LoadError::new(
            file,
            Some(element.line),
            "<mimic> multiplier 0 would hold the joint still; make it fixed instead",
        ));
    }
    Ok(Mimic {
        joint: attribute(element, "joint", file)?,
        multiplier,
        offset: optional("offset", 0.0)?,
        line: element.line,
    })
}

/// An element's `<origin xyz rpy>` in millimetres; identity when absent. `rpy` turns about the
/// fixed x, then y, then z axes.
pub(super) fn origin(element: &Element, file: &Path) -> Result<Pose, LoadError> {
    let Some(origin) = element.child("origin") else {
        return Ok(Pose::identity());
    };
    let [x, y, z] = vector_attribute(origin, "xyz", file)?.unwrap_or_default();
    let [roll, pitch, yaw] = vector_attribute(origin, "rpy", file)?.unwrap_or_default();
    Ok(Pose::from_parts(
        Translation3::new(x * MM_PER_M, y * MM_PER_M, z * MM_PER_M),
        UnitQuaternion::from_euler_angles(roll, pitch, yaw),
    ))
}

/// Three finite numbers from an attribute such as `xyz="0 0 1"`; `None` when it is absent.
pub(super) fn vector_attribute(
    element: &Element,
    key: &str,
    file: &Path,
) -> Result<Option<[f64; 3]>, LoadError> {
    numbers_attribute::<3>(element, key, file)
}

fn numbers_attribute<const N: usize>(
    element: &Element,
    key: &str,
    file: &Path,
) -> Result<Option<[f64; N]>, LoadError> {
    let Some(text) = element.attribute(key) else {
        return Ok(None);
    };
    let values: Option<Vec<f64>> = text
        .split_whitespace()
        .map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect();
    values
        .and_then(|v| <[f64; N]>::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| {
            LoadError::new(
                file,
                Some(element.line),
                format!(
                    "<{}> {key}=\"{text}\" is not {N} finite numbers",
                    element.name
                ),
            )
        })
}
