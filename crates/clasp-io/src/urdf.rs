//! URDF robots (ROS's Unified Robot Description Format) as Clasp robots.
//!
//! The root link is the palm; each path from it through movable joints is a chain. Fixed joints
//! are folded away: a fixed child's geometry joins its parent's body, and a link with no
//! geometry of its own whose geometry all comes from one fixed descendant takes that
//! descendant's frame (so a URDF can place a link frame off its joint axis, as a
//! Denavit–Hartenberg frame is). Every movable joint that does not `<mimic>` another is a DOF,
//! in file order; mimic joints become couplings. Units: metres become millimetres, radians stay.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
};

use clasp_collide::TriMesh;
use clasp_core::{
    Body, BodyKind, Chain, Coupling, Dof, DofKind, Joint, JointDynamics, JointFrame, JointKind,
    Link, Pose, Robot,
};
use nalgebra::{Translation3, Unit, UnitQuaternion, Vector3};

use crate::{
    error::LoadError,
    geometry::{GeometryFormat, load_mesh_file, scaled},
    primitives::{self, primitive_mesh},
    source::FileSource,
    xml::{Element, attribute, number_attribute, read_rooted},
};

/// URDF lengths are metres; Clasp's are millimetres.
const MM_PER_M: f64 = 1000.0;

/// Loads a URDF file. Mesh files are found relative to it, or for `package://NAME/...` in a
/// folder `NAME` beside it or beside one of its parent folders.
pub fn load_urdf(source: &dyn FileSource, path: &Path) -> Result<Robot, LoadError> {
    let root = read_rooted(source, path, "robot")?;
    let model = Model::parse(&root, path)?;
    let couplings = model.couplings()?;
    let dof_count = model.joints.iter().filter(|j| j.drives_a_dof()).count();
    let builder = Builder {
        source,
        file: path,
        model: &model,
        couplings: &couplings,
    };
    let (palm, chains) = builder.build()?;
    let dofs = (0..dof_count)
        // A URDF says nothing about which way a joint closes a grasp: all close positive.
        .map(|_| Dof::new(DofKind::Rigid, 1.0, 0.0))
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
    Ok(robot)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UrdfKind {
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
struct UrdfJoint<'a> {
    name: &'a str,
    line: usize,
    kind: UrdfKind,
    parent: &'a str,
    child: &'a str,
    /// In millimetres.
    origin: Pose,
    axis: Unit<Vector3<f64>>,
    /// The limits on the joint position, in Clasp's units; infinite for continuous joints.
    lower: f64,
    upper: f64,
    mimic: Option<Mimic<'a>>,
}

impl UrdfJoint<'_> {
    fn drives_a_dof(&self) -> bool {
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
struct Model<'a> {
    file: &'a Path,
    links: HashMap<&'a str, &'a Element>,
    joints: Vec<UrdfJoint<'a>>,
    root: &'a str,
}

impl<'a> Model<'a> {
    fn parse(root: &'a Element, file: &'a Path) -> Result<Self, LoadError> {
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
    fn couplings(&self) -> Result<Vec<Option<Coupling>>, LoadError> {
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
fn origin(element: &Element, file: &Path) -> Result<Pose, LoadError> {
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
fn vector_attribute(
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

/// A link and everything fixed to it: geometry in the group's frame, and the movable joints
/// leaving it with their parent link's pose in that frame.
#[derive(Default)]
struct Group<'a> {
    /// (link name, the link's pose in the group frame)
    links: Vec<(&'a str, Pose)>,
    movable: Vec<(usize, Pose)>,
}

impl Group<'_> {
    /// Re-expresses the group in the frame `new_frame` (given in the old one).
    fn move_frame(&mut self, new_frame: Pose) {
        let inverse = new_frame.inverse();
        let poses = self.links.iter_mut().map(|(_, pose)| pose);
        for pose in poses.chain(self.movable.iter_mut().map(|(_, pose)| pose)) {
            *pose = inverse * *pose;
        }
    }
}

struct Builder<'a> {
    source: &'a dyn FileSource,
    file: &'a Path,
    model: &'a Model<'a>,
    couplings: &'a [Option<Coupling>],
}

impl<'a> Builder<'a> {
    fn build(&self) -> Result<(Body, Vec<Chain>), LoadError> {
        let palm_group = self.group(self.model.root);
        let palm = self
            .body(&palm_group, BodyKind::Palm, self.model.root)?
            .ok_or_else(|| {
                LoadError::new(
                    self.file,
                    Some(self.model.links[self.model.root].line),
                    format!(
                        "the root link \"{}\" has no geometry, nor has any link fixed to it",
                        self.model.root
                    ),
                )
            })?;
        let chains = palm_group
            .movable
            .iter()
            .map(|&(joint, base)| self.chain(joint, base))
            .collect::<Result<_, _>>()?;
        Ok((palm, chains))
    }

    /// The link and the links fixed to it, in its frame.
    fn group(&self, link: &'a str) -> Group<'a> {
        let mut group = Group::default();
        let mut pending = vec![(link, Pose::identity())];
        while let Some((link, pose)) = pending.pop() {
            group.links.push((link, pose));
            for (j, joint) in self
                .model
                .joints
                .iter()
                .enumerate()
                .filter(|(_, j)| j.parent == link)
            {
                if joint.kind == UrdfKind::Fixed {
                    pending.push((joint.child, pose * joint.origin));
                } else {
                    group.movable.push((j, pose));
                }
            }
        }
        group.movable.sort_by_key(|&(j, _)| j);
        group
    }

    /// One chain from a joint leaving the palm to its leaf.
    fn chain(&self, first: usize, base: Pose) -> Result<Chain, LoadError> {
        let mut chain = Chain {
            base,
            joints: Vec::new(),
            links: Vec::new(),
        };
        let mut next = Some((first, Pose::identity()));
        while let Some((j, parent_pose)) = next {
            let joint = &self.model.joints[j];
            let mut group = self.group(joint.child);
            let (tip, name) = self
                .body_frame(&group)
                .unwrap_or((Pose::identity(), joint.child));
            group.move_frame(tip);
            let coupling = self.couplings[j]
                .ok_or_else(|| self.error(joint.line, "a fixed joint has no coupling"))?;
            chain.joints.push(Joint {
                kind: if joint.kind == UrdfKind::Prismatic {
                    JointKind::Prismatic
                } else {
                    JointKind::Revolute
                },
                coupling,
                frame: JointFrame::Axis {
                    origin: parent_pose * joint.origin,
                    axis: joint.axis,
                    tip,
                },
                // Clasp limits the joint value without the coupling's offset.
                min: joint.lower - coupling.offset,
                max: joint.upper - coupling.offset,
                dynamics: JointDynamics::default(),
            });
            if let Some(body) = self.body(&group, BodyKind::Link, name)? {
                chain.links.push(Link {
                    body,
                    frame: Some(chain.joints.len() - 1),
                });
            }
            if group.movable.len() > 1 {
                let names: Vec<&str> = group
                    .movable
                    .iter()
                    .map(|&(m, _)| self.model.joints[m].name)
                    .collect();
                return Err(self.error(
                    self.model.links[joint.child].line,
                    &format!("the robot branches below its root at link \"{}\" (joints {}); Clasp's chains run from the palm without branching", joint.child, names.join(", ")),
                ));
            }
            next = group.movable.first().copied();
        }
        Ok(chain)
    }

    /// Where the body of a group sits and whose name it takes: its link's, unless all of the
    /// group's geometry belongs to one link, whose frame and name it takes (`None`: its own).
    fn body_frame(&self, group: &Group<'a>) -> Option<(Pose, &'a str)> {
        let mut with_geometry = group
            .links
            .iter()
            .filter(|(name, _)| !geometry_elements(self.model.links[name]).is_empty());
        match (with_geometry.next(), with_geometry.next()) {
            (Some(&(name, pose)), None) => Some((pose, name)),
            _ => None,
        }
    }

    /// The group's geometry merged into one body, or `None` when it has none.
    fn body(&self, group: &Group, kind: BodyKind, name: &str) -> Result<Option<Body>, LoadError> {
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        let mut color = None;
        for &(link, pose) in &group.links {
            for element in geometry_elements(self.model.links[link]) {
                let (part, part_color) = self.geometry(element)?;
                let placed = pose * origin(element, self.file)?;
                let first = vertices.len() as u32;
                vertices.extend(part.vertices().iter().map(|v| placed * v));
                triangles.extend(part.triangles().iter().map(|t| t.map(|i| i + first)));
                color = color.or(part_color);
            }
        }
        if triangles.is_empty() {
            return Ok(None);
        }
        let line = self.model.links[name].line;
        let mesh = TriMesh::new(vertices, triangles)
            .map_err(|e| self.error(line, &format!("link \"{name}\": {e}")))?;
        let mut body = Body::from_mesh(name, kind, mesh);
        body.color = color;
        body.source = Some(self.file.to_path_buf());
        Ok(Some(body))
    }

    /// One `<collision>` or `<visual>` element's shape, in millimetres in its own frame.
    fn geometry(&self, element: &Element) -> Result<(TriMesh, Option<[f32; 3]>), LoadError> {
        let geometry = element.child("geometry").ok_or_else(|| {
            self.error(
                element.line,
                &format!("<{}> has no <geometry>", element.name),
            )
        })?;
        let shape = geometry
            .children
            .first()
            .ok_or_else(|| self.error(geometry.line, "<geometry> is empty"))?;
        let size = |key: &str| -> Result<f64, LoadError> {
            let value = number_attribute(shape, key, self.file)?;
            if value <= 0.0 {
                return Err(self.error(
                    shape.line,
                    &format!("<{}> {key} must be positive, found {value}", shape.name),
                ));
            }
            Ok(value * MM_PER_M)
        };
        let mesh = match shape.name.as_str() {
            "box" => {
                let [x, y, z] = vector_attribute(shape, "size", self.file)?.ok_or_else(|| {
                    self.error(shape.line, "<box> has no size attribute, which is required")
                })?;
                if x.min(y).min(z) <= 0.0 {
                    return Err(self.error(shape.line, "<box> sizes must be positive"));
                }
                primitive_mesh(
                    &primitives::cube(x * MM_PER_M, y * MM_PER_M, z * MM_PER_M),
                    false,
                )
            }
            "cylinder" => primitive_mesh(
                &primitives::cylinder(size("radius")?, size("length")?, primitives::Parts::ALL),
                true,
            ),
            "sphere" => primitive_mesh(&primitives::sphere(size("radius")?), true),
            "mesh" => return self.mesh(shape),
            other => {
                return Err(self.error(
                    shape.line,
                    &format!(
                        "<{other}> is not a geometry Clasp reads (mesh, box, cylinder, sphere)"
                    ),
                ));
            }
        };
        let mesh = mesh.map_err(|e| self.error(shape.line, &e.to_string()))?;
        Ok((mesh, None))
    }

    /// A mesh file, scaled (its coordinates are metres, as URDF's are) into millimetres.
    fn mesh(&self, shape: &Element) -> Result<(TriMesh, Option<[f32; 3]>), LoadError> {
        let filename = attribute(shape, "filename", self.file)?;
        let path = resolve_mesh(self.source, self.file, filename, shape.line)?;
        let scale = vector_attribute(shape, "scale", self.file)?.unwrap_or([1.0; 3]);
        if scale.contains(&0.0) {
            return Err(self.error(shape.line, "<mesh> scale has a zero factor"));
        }
        let file = load_mesh_file(self.source, &path, GeometryFormat::of(&path, None))?;
        let factor = Vector3::from(scale) * MM_PER_M;
        let mesh = scaled(&file.mesh, factor)
            .map_err(|e| self.error(shape.line, &format!("{}: {e}", path.display())))?;
        Ok((mesh, file.color))
    }

    fn error(&self, line: usize, message: &str) -> LoadError {
        LoadError::new(self.file, Some(line), message)
    }
}

/// A link's `<collision>` elements, or its `<visual>` ones when it has no collision geometry.
fn geometry_elements(link: &Element) -> Vec<&Element> {
    let collision: Vec<&Element> = link.children_named("collision").collect();
    if collision.is_empty() {
        link.children_named("visual").collect()
    } else {
        collision
    }
}

/// Finds a mesh file: relative to the URDF, absolute (`file://`), or `package://NAME/rest` in a
/// folder NAME in the URDF's folder or one of its parents.
fn resolve_mesh(
    source: &dyn FileSource,
    urdf: &Path,
    filename: &str,
    line: usize,
) -> Result<PathBuf, LoadError> {
    let folder = urdf.parent().unwrap_or(Path::new(""));
    let Some(rest) = filename.strip_prefix("package://") else {
        let path = match filename.strip_prefix("file://") {
            Some(absolute) => PathBuf::from(absolute),
            None => folder.join(filename),
        };
        if !source.is_file(&path) {
            return Err(LoadError::new(
                urdf,
                Some(line),
                format!("missing mesh file {}: it does not exist", path.display()),
            ));
        }
        return Ok(path);
    };
    let Some((package, inner)) = rest.split_once('/') else {
        return Err(LoadError::new(
            urdf,
            Some(line),
            format!("\"{filename}\" is not package://NAME/path"),
        ));
    };
    let tried: Vec<PathBuf> = folder
        .ancestors()
        .map(|dir| dir.join(package).join(inner))
        .collect();
    tried
        .iter()
        .find(|p| source.is_file(p))
        .cloned()
        .ok_or_else(|| {
            let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
            LoadError::new(
                urdf,
                Some(line),
                format!("missing mesh file {filename}: tried {}", places.join(", ")),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Embedded;
    use nalgebra::Point3;

    const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n10 0 0\n0 10 0\n3 0 1 2\n";

    /// A parallel gripper on an empty mounting link: prismatic fingers, the right one mimics.
    const GRIPPER: &str = r#"<?xml version="1.0"?>
<robot name="gripper">
  <link name="base"/>
  <joint name="mount" type="fixed">
    <parent link="base"/><child link="palm"/><origin xyz="0 0 0.01"/>
  </joint>
  <link name="palm">
    <visual><geometry><sphere radius="1"/></geometry></visual>
    <collision><geometry><box size="0.04 0.02 0.01"/></geometry></collision>
  </link>
  <joint name="left" type="prismatic">
    <parent link="palm"/><child link="left_finger"/>
    <origin xyz="0.01 0 0.005"/><axis xyz="1 0 0"/><limit lower="0" upper="0.02"/>
  </joint>
  <link name="left_finger">
    <visual><origin xyz="0 0 0.01"/>
      <geometry><mesh filename="package://parts/meshes/tri.off" scale="0.001 0.001 0.001"/></geometry>
    </visual>
  </link>
  <joint name="right" type="prismatic">
    <parent link="palm"/><child link="right_finger"/>
    <origin xyz="-0.01 0 0.005"/><axis xyz="-1 0 0"/><limit lower="0" upper="0.02"/>
    <mimic joint="left"/>
  </joint>
  <link name="right_finger">
    <collision><geometry><mesh filename="../meshes/tri.off" scale="0.001 0.001 0.001"/></geometry></collision>
  </link>
</robot>
"#;

    fn load(urdf: &'static str) -> Result<Robot, LoadError> {
        let files = Embedded::new([
            ("ws/parts/urdf/robot.urdf", urdf),
            ("ws/parts/meshes/tri.off", TRIANGLE),
        ]);
        load_urdf(&files, Path::new("ws/parts/urdf/robot.urdf"))
    }

    fn origin_of(body: &Body) -> Point3<f64> {
        body.pose() * Point3::origin()
    }

    fn assert_at(got: Point3<f64>, want: [f64; 3]) {
        assert!(
            (got - Point3::from(want)).norm() < 1e-9,
            "got {got}, want {want:?}"
        );
    }

    #[test]
    fn a_gripper_folds_fixed_joints_into_the_palm_and_mimics_a_finger() {
        let mut robot = load(GRIPPER).unwrap();
        assert_eq!(robot.name, "gripper");
        assert_eq!((robot.dofs.len(), robot.chains().len()), (1, 2));
        assert_eq!(robot.palm().name, "base");
        // The collision box, not the visual sphere, lifted 10 mm by the fixed joint.
        assert_eq!(robot.palm().mesh().triangles().len(), 12);
        let (lo, hi) = robot.palm().mesh().bounding_box();
        assert_at(lo, [-20.0, -10.0, 5.0]);
        assert_at(hi, [20.0, 10.0, 15.0]);
        assert_eq!(robot.dof_limits(0), (0.0, 20.0));
        robot.set_dof_values(&[10.0]).unwrap();
        let (left, right) = (
            &robot.chains()[0].links[0].body,
            &robot.chains()[1].links[0].body,
        );
        assert_eq!(
            (left.name.as_str(), right.name.as_str()),
            ("left_finger", "right_finger")
        );
        assert_at(origin_of(left), [20.0, 0.0, 15.0]);
        assert_at(origin_of(right), [-20.0, 0.0, 15.0]);
        // The visual origin lifts the left finger's mesh 10 mm; the mesh scale makes mm of mm.
        assert_at(left.mesh().vertices()[1], [10.0, 0.0, 10.0]);
        assert_at(right.mesh().vertices()[1], [10.0, 0.0, 0.0]);
    }

    /// One finger: the proximal link's geometry hangs 50 mm out along x by a fixed joint from a
    /// frame without geometry, so the link takes that frame, as a Denavit–Hartenberg link does.
    const FINGER: &str = r#"<robot name="finger">
  <link name="palm"><collision><geometry><cylinder radius="0.02" length="0.01"/></geometry></collision></link>
  <joint name="j1" type="revolute">
    <parent link="palm"/><child link="prox_frame"/>
    <origin xyz="0 0.02 0" rpy="0 0 1.5707963267948966"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1"/>
  </joint>
  <link name="prox_frame"/>
  <joint name="prox_fix" type="fixed">
    <parent link="prox_frame"/><child link="prox"/><origin xyz="0.05 0 0"/>
  </joint>
  <link name="prox"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
  <joint name="j2" type="revolute">
    <parent link="prox"/><child link="dist"/>
    <axis xyz="0 0 1"/><limit lower="0" upper="1"/>
    <mimic joint="j1" multiplier="0.5" offset="0.25"/>
  </joint>
  <link name="dist"><visual><origin xyz="0.02 0 0"/><geometry><box size="0.04 0.01 0.01"/></geometry></visual></link>
  <joint name="spin" type="continuous">
    <parent link="dist"/><child link="tip"/><origin xyz="0.04 0 0"/><axis xyz="1 0 0"/>
  </joint>
  <link name="tip"/>
</robot>"#;

    #[test]
    fn a_link_takes_the_frame_of_its_only_geometry_and_mimic_offsets_apply() {
        let mut robot = load(FINGER).unwrap();
        assert_eq!(robot.dofs.len(), 2, "j1 and the continuous spin");
        let chain = &robot.chains()[0];
        assert_eq!((chain.joints.len(), chain.links.len()), (3, 2));
        assert_eq!(chain.links[0].body.name, "prox");
        let c = chain.joints[1].coupling;
        assert_eq!((c.dof, c.ratio, c.offset), (0, 0.5, 0.25));
        // j2's own limits [0, 1] on 0.5·j1 + 0.25 allow j1 in [-0.5, 1.5]; j1's own say [-1, 1].
        let (lo, hi) = robot.dof_limits(0);
        assert!(
            (lo + 0.5).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12,
            "{lo} {hi}"
        );
        assert_eq!(robot.dof_limits(1), (f64::NEG_INFINITY, f64::INFINITY));
        let q = 0.5;
        robot.set_dof_values(&[q, 3.0]).unwrap();
        // j1 sits at (0, 20, 0) turned 90° + q about z; prox is 50 mm out along its x.
        let a1 = std::f64::consts::FRAC_PI_2 + q;
        let prox = [50.0 * a1.cos(), 20.0 + 50.0 * a1.sin(), 0.0];
        assert_at(origin_of(&robot.chains()[0].links[0].body), prox);
        // dist turns a further 0.5·q + 0.25 at prox's origin; its box centre is 20 mm out.
        let dist = &robot.chains()[0].links[1].body;
        assert_at(origin_of(dist), prox);
        let a2 = a1 + 0.5 * q + 0.25;
        let centre = dist.pose() * Point3::new(20.0, 0.0, 0.0);
        assert_at(
            centre,
            [prox[0] + 20.0 * a2.cos(), prox[1] + 20.0 * a2.sin(), 0.0],
        );
    }

    #[test]
    fn primitives_are_closed_outward_and_tessellated_like_graspit() {
        let cube = primitive_mesh(&primitives::cube(2.0, 4.0, 6.0), false).unwrap();
        assert!(cube.is_closed());
        assert_eq!(cube.triangles().len(), 12);
        assert!((cube.signed_volume() - 48.0).abs() < 1e-9);
        let cyl = primitive_mesh(
            &primitives::cylinder(2.0, 5.0, primitives::Parts::ALL),
            true,
        )
        .unwrap();
        assert!(cyl.is_closed());
        assert_eq!(cyl.triangles().len(), 2 * 20 + 2 * 18);
        let n = 20.0;
        let polygon = 0.5 * n * 4.0 * (std::f64::consts::TAU / n).sin();
        assert!((cyl.signed_volume() - polygon * 5.0).abs() < 1e-9);
        let (lo, hi) = cyl.bounding_box();
        assert!((lo.z + 2.5).abs() < 1e-12 && (hi.z - 2.5).abs() < 1e-12);
        let ball = primitive_mesh(&primitives::sphere(10.0), true).unwrap();
        assert!(ball.is_closed());
        assert_eq!(ball.vertices().len(), 2 + 13 * 15);
        assert_eq!(ball.triangles().len(), 2 * 15 + 2 * 15 * 12);
        let exact = 4.0 / 3.0 * std::f64::consts::PI * 1000.0;
        assert!(ball.signed_volume() > 0.9 * exact && ball.signed_volume() < exact);
    }

    fn error_of(urdf: &'static str) -> LoadError {
        let err = load(urdf).unwrap_err();
        assert_eq!(err.file, Path::new("ws/parts/urdf/robot.urdf"));
        err
    }

    #[test]
    fn a_missing_package_lists_the_places_tried() {
        let urdf = r#"<robot name="r"><link name="a">
<visual><geometry><mesh filename="package://nowhere/m.stl"/></geometry></visual></link></robot>"#;
        let err = error_of(urdf);
        assert_eq!(err.line, Some(2), "{err}");
        for place in [
            "ws/parts/urdf/nowhere/m.stl",
            "ws/parts/nowhere/m.stl",
            "ws/nowhere/m.stl",
        ] {
            assert!(err.message.contains(place), "{err}");
        }
        let urdf = r#"<robot name="r"><link name="a">
<visual><geometry><mesh filename="gone.off"/></geometry></visual></link></robot>"#;
        assert!(
            error_of(urdf)
                .message
                .contains("missing mesh file ws/parts/urdf/gone.off")
        );
    }

    #[test]
    fn branching_below_the_root_is_refused() {
        let urdf = r#"<robot name="r">
<link name="palm"><visual><geometry><sphere radius="0.01"/></geometry></visual></link>
<link name="a"/><link name="b"/><link name="c"/>
<joint name="ja" type="continuous"><parent link="palm"/><child link="a"/></joint>
<joint name="jb" type="continuous"><parent link="a"/><child link="b"/></joint>
<joint name="jc" type="continuous"><parent link="a"/><child link="c"/></joint>
</robot>"#;
        let err = error_of(urdf);
        assert_eq!(err.line, Some(3), "{err}");
        assert!(
            err.message
                .contains("branches below its root at link \"a\" (joints jb, jc)"),
            "{err}"
        );
    }

    #[test]
    fn bad_joints_name_the_line_and_the_problem() {
        let joint = |body: &str| -> LoadError {
            let urdf = format!(
                "<robot name=\"r\">\n<link name=\"palm\"><visual><geometry><sphere radius=\"0.01\"/></geometry></visual></link>\n<link name=\"a\"/>\n{body}\n</robot>"
            );
            error_of(Box::leak(urdf.into_boxed_str()))
        };
        let ends = "<parent link=\"palm\"/><child link=\"a\"/>";
        let cases = [
            (format!("<joint name=\"j\" type=\"floating\">{ends}</joint>"), "type \"floating\""),
            (format!("<joint name=\"j\" type=\"revolute\">{ends}</joint>"), "has no <limit>"),
            (
                format!("<joint name=\"j\" type=\"revolute\">{ends}<limit lower=\"1\" upper=\"0\"/></joint>"),
                "limits are reversed",
            ),
            (
                format!("<joint name=\"j\" type=\"fixed\">{ends}<origin xyz=\"0 nan 0\"/></joint>"),
                "xyz=\"0 nan 0\" is not 3 finite numbers",
            ),
            (
                format!("<joint name=\"j\" type=\"continuous\">{ends}<axis xyz=\"0 0 0\"/></joint>"),
                "axis of zero length",
            ),
            (
                "<joint name=\"j\" type=\"fixed\"><parent link=\"palm\"/><child link=\"z\"/></joint>".into(),
                "names link \"z\"",
            ),
            (
                format!("<joint name=\"j\" type=\"continuous\">{ends}<mimic joint=\"j\"/></joint>"),
                "loop of mimic joints",
            ),
            (
                format!("<joint name=\"j\" type=\"continuous\">{ends}<mimic joint=\"k\"/></joint>"),
                "names joint \"k\"",
            ),
        ];
        for (body, message) in cases {
            let err = joint(&body);
            assert_eq!(err.line, Some(4), "{body}: {err}");
            assert!(err.message.contains(message), "{body}: {err}");
        }
        let err = joint("");
        assert!(
            err.message.contains("several root links (palm, a)"),
            "{err}"
        );
    }
}
