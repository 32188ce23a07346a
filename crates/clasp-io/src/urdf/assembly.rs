//! The robot put together from a URDF model: the root link's group is the palm, and each
//! movable joint leaving it starts a chain, with fixed links folded into their parents' bodies.

use std::{path::Path, sync::Arc};

use clasp_collide::TriMesh;
use clasp_core::{
    Body, BodyKind, Chain, Coupling, Joint, JointDynamics, JointFrame, JointKind, Link,
    MassProperties, Pose,
};

use nalgebra::Matrix3;

use super::{
    model::{Model, UrdfKind, origin},
    shapes::{drawn_otherwise, geometry_elements, shape},
};
use crate::{
    chain_tree::{Branch, chain_tree},
    error::LoadError,
    si_units::{MassPart, si_mass_part},
    source::FileSource,
    xml::{Element, number_attribute},
};

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

/// What the assembly reads from: the model, its couplings, and where its mesh files are.
pub(super) struct Builder<'a> {
    pub(super) source: &'a dyn FileSource,
    pub(super) file: &'a Path,
    pub(super) model: &'a Model<'a>,
    pub(super) couplings: &'a [Option<Coupling>],
}

/// A mesh with the first colour its files give.
type ColoredMesh = (TriMesh, Option<[f32; 3]>);

impl<'a> Builder<'a> {
    pub(super) fn build(&self) -> Result<(Body, Vec<Chain>), LoadError> {
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
        let roots = palm_group.movable.clone();
        let chains = chain_tree(roots, |joint, base, _| self.chain(joint, base))?;
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

    /// One chain from a joint to a leaf, following the first movable joint where a link has
    /// several; the others start branches.
    fn chain(&self, first: usize, base: Pose) -> Result<(Chain, Vec<Branch<usize>>), LoadError> {
        let mut chain = Chain::from_palm(base, Vec::new(), Vec::new());
        let mut branches = Vec::new();
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
            let at = chain.joints.len() - 1;
            if let Some(body) = self.body(&group, BodyKind::Link, name)? {
                chain.links.push(Link {
                    body,
                    frame: Some(at),
                });
            }
            let mut movable = group.movable.into_iter();
            next = movable.next();
            branches.extend(movable.map(|(first, base)| Branch {
                first,
                base,
                on_joint: at,
            }));
        }
        Ok((chain, branches))
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

    /// The group's geometry merged into one body, or `None` when it has none; with the
    /// group's `<visual>` meshes as the body's look where they differ from its collision ones
    /// and can be read.
    fn body(&self, group: &Group, kind: BodyKind, name: &str) -> Result<Option<Body>, LoadError> {
        let Some((mesh, color)) = self.merged(group, name, geometry_elements)? else {
            return Ok(None);
        };
        let mut body = Body::from_mesh(name, kind, mesh);
        body.color = color;
        // The look is only a look: a hand whose visual meshes are not shipped (dex-urdf's
        // Inspire names files it leaves out) loads and is drawn by its collision meshes.
        let look = self.merged(group, name, drawn_otherwise).ok().flatten();
        body.visual = look.map(|(mesh, _)| Arc::new(mesh));
        body.source = Some(self.file.to_path_buf());
        if let Some(mass) = self.group_mass(group)? {
            body.mass = mass;
        }
        Ok(Some(body))
    }

    /// The shapes `elements` picks from each link of the group, merged into one mesh in the
    /// group's frame, with the first colour a mesh file gives; `None` where there are none.
    fn merged(
        &self,
        group: &Group,
        name: &str,
        elements: fn(&'a Element) -> Vec<&'a Element>,
    ) -> Result<Option<ColoredMesh>, LoadError> {
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        let mut color = None;
        for &(link, pose) in &group.links {
            for element in elements(self.model.links[link]) {
                let (part, part_color) = shape(self.source, self.file, element)?;
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
        Ok(Some((mesh, color)))
    }

    /// The group's `<inertial>`s as one: their masses summed, about their common centre
    /// (parallel axes), in the group's frame; `None` where no link of it has one, or they
    /// weigh nothing (the mesh's volume then gives the mass).
    fn group_mass(&self, group: &Group) -> Result<Option<MassProperties>, LoadError> {
        let mut parts = Vec::new();
        for &(link, pose) in &group.links {
            if let Some(inertial) = self.model.links[link].child("inertial") {
                parts.push(self.inertial(inertial, pose)?);
            }
        }
        Ok(MassProperties::of_parts(&parts))
    }

    /// One `<inertial>`, its link at `pose` in the group's frame: grams, its centre (mm), its
    /// inertia about that centre in the group's axes (g·mm²).
    fn inertial(&self, inertial: &Element, pose: Pose) -> Result<MassPart, LoadError> {
        let frame = pose * origin(inertial, self.file)?;
        let line = inertial.line;
        let mass = match inertial.child("mass") {
            Some(mass) => number_attribute(mass, "value", self.file)?,
            None => return Err(self.error(line, "<inertial> has no <mass>")),
        };
        if mass < 0.0 {
            return Err(self.error(line, &format!("<inertial> mass {mass} is negative")));
        }
        let own = match inertial.child("inertia") {
            Some(i) => {
                let get = |key: &str| match i.attribute(key) {
                    None => Ok(0.0),
                    Some(_) => number_attribute(i, key, self.file),
                };
                let (xx, yy, zz) = (get("ixx")?, get("iyy")?, get("izz")?);
                let (xy, xz, yz) = (get("ixy")?, get("ixz")?, get("iyz")?);
                Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz)
            }
            None => Matrix3::zeros(),
        };
        Ok(si_mass_part(mass, frame, own))
    }

    fn error(&self, line: usize, message: &str) -> LoadError {
        LoadError::new(self.file, Some(line), message)
    }
}
