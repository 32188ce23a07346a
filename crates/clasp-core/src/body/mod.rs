//! Rigid bodies: their mesh and pose, kind (obstacle or graspable), material and friction,
//! compliance, collision groups and mass.

use nalgebra::Vector3;
use std::{fmt, path::PathBuf, str::FromStr, sync::Arc};

use clasp_collide::{CollisionGroups, Geometry, TriMesh};

pub mod mass;
#[cfg(test)]
pub(crate) mod test_bodies;
pub mod velocity;

use crate::pose::Pose;
use mass::MassProperties;
use velocity::Velocity;

/// What part a body plays in the world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyKind {
    /// A static body: it never moves unless the user moves it.
    Obstacle,
    /// A dynamic body that hands grasp.
    Graspable,
    /// The palm of a robot.
    Palm,
    /// A link of a robot's kinematic chain.
    Link,
}

impl BodyKind {
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Obstacle => "obstacle",
            BodyKind::Graspable => "graspable",
            BodyKind::Palm => "palm",
            BodyKind::Link => "link",
        }
    }
}

/// GraspIt's surface materials, plus `Generic` for bodies whose file names none; friction
/// between two bodies depends on the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Material {
    /// Mid-range friction with everything (static 0.5, kinetic 0.4) except frictionless.
    Generic,
    Frictionless,
    Glass,
    Metal,
    Plastic,
    Wood,
    Rubber,
    Stone,
}

impl Material {
    pub const ALL: [Material; 8] = [
        Material::Generic,
        Material::Frictionless,
        Material::Glass,
        Material::Metal,
        Material::Plastic,
        Material::Wood,
        Material::Rubber,
        Material::Stone,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Material::Generic => "generic",
            Material::Frictionless => "frictionless",
            Material::Glass => "glass",
            Material::Metal => "metal",
            Material::Plastic => "plastic",
            Material::Wood => "wood",
            Material::Rubber => "rubber",
            Material::Stone => "stone",
        }
    }

    /// GraspIt's static friction coefficient between two materials (`World::setDefaults`).
    pub fn static_friction(self, other: Material) -> f64 {
        friction_entry(self, other, &STATIC_FRICTION, 0.5)
    }

    /// GraspIt's kinetic friction coefficient between two materials.
    pub fn kinetic_friction(self, other: Material) -> f64 {
        friction_entry(self, other, &KINETIC_FRICTION, 0.4)
    }

    /// Row in GraspIt's tables: glass, metal, plastic, wood, rubber, stone.
    fn table_index(self) -> Option<usize> {
        match self {
            Material::Generic | Material::Frictionless => None,
            Material::Glass => Some(0),
            Material::Metal => Some(1),
            Material::Plastic => Some(2),
            Material::Wood => Some(3),
            Material::Rubber => Some(4),
            Material::Stone => Some(5),
        }
    }
}

/// GraspIt's symmetric tables over glass, metal, plastic, wood, rubber, stone.
const STATIC_FRICTION: [[f64; 6]; 6] = [
    [0.2, 0.2, 0.2, 0.3, 1.0, 0.3],
    [0.2, 0.2, 0.2, 0.3, 1.0, 0.4],
    [0.2, 0.2, 0.3, 0.4, 1.0, 0.4],
    [0.3, 0.3, 0.4, 0.4, 1.0, 0.6],
    [1.0, 1.0, 1.0, 1.0, 2.0, 1.5],
    [0.3, 0.4, 0.4, 0.6, 1.5, 0.7],
];
const KINETIC_FRICTION: [[f64; 6]; 6] = [
    [0.1, 0.1, 0.1, 0.2, 0.9, 0.2],
    [0.1, 0.1, 0.1, 0.2, 0.9, 0.3],
    [0.1, 0.1, 0.2, 0.3, 0.9, 0.3],
    [0.2, 0.2, 0.3, 0.3, 0.9, 0.5],
    [0.9, 0.9, 0.9, 0.9, 1.9, 1.4],
    [0.2, 0.3, 0.3, 0.5, 1.4, 0.6],
];

fn friction_entry(a: Material, b: Material, table: &[[f64; 6]; 6], generic: f64) -> f64 {
    if a == Material::Frictionless || b == Material::Frictionless {
        return 0.0;
    }
    match (a.table_index(), b.table_index()) {
        (Some(i), Some(j)) => table[i][j],
        _ => generic,
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name was not one of the seven materials.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown material \"{0}\" (known: generic, frictionless, glass, metal, plastic, wood, rubber, stone)"
)]
pub struct UnknownMaterial(pub String);

impl FromStr for Material {
    type Err = UnknownMaterial;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Material::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| UnknownMaterial(wanted.to_owned()))
    }
}

/// Soft-contact compliances from a body file (both are given, or neither).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Compliance {
    pub normal: f64,
    pub shear: f64,
}

/// How the dynamics treats a body (RaiSim's body types): a static body stays where the user
/// puts it; a dynamic one moves under force; a kinematic one moves by the velocity it is given
/// (a hand in the scene), pushing what it meets, and nothing pushes it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyType {
    Static,
    Dynamic,
    Kinematic,
}

impl BodyType {
    pub const ALL: [BodyType; 3] = [BodyType::Static, BodyType::Dynamic, BodyType::Kinematic];

    /// Obstacles are static (GraspIt's static bodies); everything else is dynamic.
    pub fn default_for(kind: BodyKind) -> Self {
        match kind {
            BodyKind::Obstacle => BodyType::Static,
            _ => BodyType::Dynamic,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BodyType::Static => "static",
            BodyType::Dynamic => "dynamic",
            BodyType::Kinematic => "kinematic",
        }
    }

    /// The type a name as [`BodyType::name`] writes it stands for.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Where a body's files say what an error about it may point at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceLines {
    /// The line of its body file ([`Body::source`]) that gives its inertia, if one does.
    pub inertia: Option<usize>,
    /// The world file and line that placed it, if a world file did.
    pub placed: Option<(PathBuf, usize)>,
}

/// A rigid body: a shared triangle mesh placed in the world. Its pose, geometry and collision
/// groups change only through the [`crate::World`] that holds it, which keeps its contacts true.
#[derive(Debug, Clone)]
pub struct Body {
    pub name: String,
    pub kind: BodyKind,
    /// The body's frame in world coordinates.
    pub(crate) pose: Pose,
    /// The mesh in the body's frame with its bounding-volume tree, built once and shared by
    /// every clone of the body.
    pub(crate) geometry: Arc<Geometry>,
    /// RaiSim's collision group and mask.
    pub(crate) groups: CollisionGroups,
    pub material: Material,
    /// Mass, centre of gravity and inertia (from the file, else from the mesh).
    pub mass: MassProperties,
    /// Young's modulus in Pa, as GraspIt's code reads `<youngs>`; a body with one is soft.
    pub youngs: Option<f64>,
    pub compliance: Option<Compliance>,
    /// Display colour (linear RGB in 0..1), where the geometry file gives one.
    pub color: Option<[f32; 3]>,
    /// What the body looks like where its file draws it otherwise than it collides (a URDF
    /// link's `<visual>` meshes beside its `<collision>` boxes), in the body's frame: drawn by
    /// the app and the renderer instead of the collision mesh; shared by every clone.
    pub visual: Option<Arc<TriMesh>>,
    /// The body file it was loaded from, for saving worlds; `None` for bodies built in code.
    pub source: Option<PathBuf>,
    /// Where its files say what errors may have to point at.
    pub lines: SourceLines,
    /// How fast it moves (dynamic and kinematic bodies); changes only through the world.
    pub(crate) velocity: Velocity,
    /// Static, dynamic or kinematic; changes only through the world.
    pub(crate) body_type: BodyType,
    /// A force on its centre of gravity besides gravity (g·mm/s², world axes: MuJoCo's
    /// `xfrc_applied`), for a dynamic body; changes only through the world.
    pub(crate) external_force: Vector3<f64>,
}

impl Body {
    /// The force on its centre of gravity besides gravity, g·mm/s² ([`crate::World::set_external_force`]).
    pub fn external_force(&self) -> Vector3<f64> {
        self.external_force
    }

    /// The colour the body is drawn in (linear RGB, 0..1), by the app and the renderer alike:
    /// the file's where it gives one, else one that suggests the material.
    pub fn display_color(&self) -> [f32; 3] {
        if let Some(color) = self.color {
            return color;
        }
        let srgb = match (self.kind, self.material) {
            (_, Material::Glass) => [0.62, 0.78, 0.86],
            (_, Material::Metal) => [0.70, 0.71, 0.74],
            (_, Material::Wood) => [0.72, 0.55, 0.36],
            (_, Material::Rubber) => [0.26, 0.27, 0.30],
            (_, Material::Stone) => [0.55, 0.54, 0.50],
            (_, Material::Frictionless) => [0.85, 0.85, 0.90],
            (_, Material::Generic) => [0.66, 0.68, 0.62],
            (BodyKind::Palm | BodyKind::Link, Material::Plastic) => [0.80, 0.81, 0.84],
            (_, Material::Plastic) => [0.90, 0.45, 0.20],
        };
        srgb.map(srgb_to_linear)
    }

    /// A body of a mesh with its mass properties computed from it, at the origin; builds the
    /// mesh's tree.
    pub fn from_mesh(name: impl Into<String>, kind: BodyKind, mesh: TriMesh) -> Self {
        let mass = MassProperties::complete(&mesh, Default::default());
        Self::from_parts(name, kind, Arc::new(Geometry::new(mesh)), mass)
    }

    /// A body of built geometry and given mass properties at the origin, generic material,
    /// RaiSim's default groups for its kind.
    pub fn from_parts(
        name: impl Into<String>,
        kind: BodyKind,
        geometry: Arc<Geometry>,
        mass: MassProperties,
    ) -> Self {
        Self {
            name: name.into(),
            kind,
            pose: Pose::identity(),
            geometry,
            groups: CollisionGroups::default_for(kind == BodyKind::Obstacle),
            material: Material::Generic,
            mass,
            youngs: None,
            compliance: None,
            color: None,
            visual: None,
            source: None,
            lines: SourceLines::default(),
            velocity: Velocity::ZERO,
            body_type: BodyType::default_for(kind),
            external_force: Vector3::zeros(),
        }
    }

    /// The triangles, in the body's frame.
    pub fn mesh(&self) -> &TriMesh {
        self.geometry.mesh()
    }

    /// The triangles to draw, in the body's frame: its visual mesh where it has one, else the
    /// mesh it collides with.
    pub fn shown_mesh(&self) -> &TriMesh {
        self.visual.as_deref().unwrap_or(self.mesh())
    }

    /// The body's frame in world coordinates.
    pub fn pose(&self) -> Pose {
        self.pose
    }

    /// The mesh with its tree, shared by every clone of the body.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// Its velocity: zero until a world's dynamics or the user gives it one.
    pub fn velocity(&self) -> Velocity {
        self.velocity
    }

    /// Static, dynamic or kinematic ([`BodyType::default_for`] its kind unless set).
    pub fn body_type(&self) -> BodyType {
        self.body_type
    }

    /// Its inertia about its centre of gravity, world axes, g·mm².
    pub fn world_inertia(&self) -> nalgebra::Matrix3<f64> {
        let rotation = self.pose.rotation.to_rotation_matrix().into_inner();
        rotation * (self.mass.inertia * self.mass.mass) * rotation.transpose()
    }

    /// Its kinetic energy, g·mm²/s² (nanojoules).
    pub fn kinetic_energy(&self) -> f64 {
        let v = self.velocity;
        0.5 * self.mass.mass * v.linear.norm_squared()
            + 0.5 * v.angular.dot(&(self.world_inertia() * v.angular))
    }

    /// How fast its fastest point may move (mm/s): its centre of gravity's speed plus its
    /// spin times the farthest its surface reaches from the centre (a bound, cheap and sure).
    pub fn fastest_point_speed(&self) -> f64 {
        self.fastest_point_speed_at(&self.velocity)
    }

    /// The same bound for the body moving at `velocity` (a change of its velocity, say).
    pub fn fastest_point_speed_at(&self, velocity: &Velocity) -> f64 {
        let (centre, radius) = self.geometry.bounding_ball();
        let reach = radius + (centre - self.mass.cog).norm();
        velocity.linear.norm() + velocity.angular.norm() * reach
    }

    /// The centre of gravity in world coordinates.
    pub fn world_cog(&self) -> nalgebra::Point3<f64> {
        self.pose * self.mass.cog
    }

    /// The body's collision group and mask (RaiSim's defaults unless set).
    pub fn groups(&self) -> CollisionGroups {
        self.groups
    }

    /// The same body at another pose: for bodies not yet in a world (a world moves its own).
    pub fn at(mut self, pose: Pose) -> Self {
        self.pose = pose;
        self
    }

    /// The same body of another type: for bodies not yet in a world.
    pub fn of_type(mut self, body_type: BodyType) -> Self {
        self.body_type = body_type;
        if body_type == BodyType::Static {
            self.velocity = Velocity::ZERO;
        }
        self
    }

    /// The same body moving: for bodies not yet in a world (a world checks the velocities it
    /// is given, [`crate::World::set_velocity`]).
    pub fn moving(mut self, velocity: Velocity) -> Self {
        self.velocity = velocity;
        self
    }

    /// The same body in other collision groups: for bodies not yet in a world.
    pub fn in_groups(mut self, groups: CollisionGroups) -> Self {
        self.groups = groups;
        self
    }

    /// Whether the body stays where it is put (by default the obstacles, GraspIt's static
    /// bodies).
    pub fn is_static(&self) -> bool {
        self.body_type == BodyType::Static
    }

    /// Whether a world's dynamics moves it under force (by default the graspable bodies;
    /// robots' bodies move only with their robots until robots join the dynamics).
    pub fn is_dynamic(&self) -> bool {
        self.body_type == BodyType::Dynamic
            && matches!(self.kind, BodyKind::Obstacle | BodyKind::Graspable)
    }
}

/// The corners of the world-space box round some bodies where they stand, or `None` for none.
pub fn bounding_box<'a>(
    bodies: impl IntoIterator<Item = &'a Body>,
) -> Option<(nalgebra::Point3<f64>, nalgebra::Point3<f64>)> {
    bodies
        .into_iter()
        .flat_map(|b| b.mesh().vertices().iter().map(move |v| b.pose * v))
        .fold(None, |acc, p| match acc {
            None => Some((p, p)),
            Some((lo, hi)) => Some((lo.inf(&p), hi.sup(&p))),
        })
}

/// An sRGB-encoded channel as the linear value it stands for.
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_names_round_trip() {
        for m in Material::ALL {
            assert_eq!(m.name().parse::<Material>(), Ok(m));
        }
        assert_eq!(" Rubber ".parse::<Material>(), Ok(Material::Rubber));
        assert_eq!(
            "ceramic".parse::<Material>(),
            Err(UnknownMaterial("ceramic".into()))
        );
    }

    #[test]
    fn friction_follows_graspits_tables_and_generic_is_mid_range() {
        use Material::*;
        assert_eq!(Wood.static_friction(Stone), 0.6);
        assert_eq!(Stone.static_friction(Wood), 0.6);
        assert_eq!(Rubber.kinetic_friction(Rubber), 1.9);
        assert_eq!(Glass.static_friction(Frictionless), 0.0);
        assert_eq!(Generic.static_friction(Metal), 0.5);
        assert_eq!(Generic.kinetic_friction(Generic), 0.4);
        assert_eq!(Generic.static_friction(Frictionless), 0.0);
        for a in Material::ALL {
            for b in Material::ALL {
                assert_eq!(a.static_friction(b), b.static_friction(a));
                assert!(a.kinetic_friction(b) <= a.static_friction(b));
            }
        }
    }
}
