use std::{fmt, str::FromStr, sync::Arc};

use clasp_collide::TriMesh;

use crate::Pose;

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

/// GraspIt's surface materials; friction between two bodies depends on the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Material {
    Frictionless,
    Glass,
    Metal,
    Plastic,
    Wood,
    Rubber,
    Stone,
}

impl Material {
    pub const ALL: [Material; 7] = [
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
            Material::Frictionless => "frictionless",
            Material::Glass => "glass",
            Material::Metal => "metal",
            Material::Plastic => "plastic",
            Material::Wood => "wood",
            Material::Rubber => "rubber",
            Material::Stone => "stone",
        }
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
    "unknown material \"{0}\" (known: frictionless, glass, metal, plastic, wood, rubber, stone)"
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

/// A rigid body: a shared triangle mesh placed in the world.
#[derive(Debug, Clone)]
pub struct Body {
    pub name: String,
    pub kind: BodyKind,
    /// The body's frame in world coordinates.
    pub pose: Pose,
    /// Geometry in the body's frame, shared by every clone of the body.
    pub mesh: Arc<TriMesh>,
    pub material: Material,
    /// Mass in grams, where the file gives one.
    pub mass: Option<f64>,
    /// Display colour (linear RGB in 0..1), where the geometry file gives one.
    pub color: Option<[f32; 3]>,
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
}
