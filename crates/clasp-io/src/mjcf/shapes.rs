//! MJCF geoms as triangle meshes, in millimetres in their body's frame: primitives
//! tessellated as the other readers tessellate them, meshes read from their files and scaled.

use std::{collections::HashMap, path::PathBuf};

use clasp_collide::TriMesh;
use clasp_core::Pose;
use nalgebra::{Point3, Vector3};

use super::{
    MM_PER_M,
    document::{Document, Node},
    frames::{from_to, placement},
};
use crate::{
    error::LoadError,
    geometry::{GeometryFormat, load_mesh_file, scaled},
    primitives::{self, primitive_mesh},
    source::FileSource,
};

/// Half the side of the square a plane with no size of its own is cut to (MuJoCo's planes are
/// infinite; Clasp's bodies are meshes).
const INFINITE_PLANE_HALF_SIDE: f64 = 5000.0;
/// A plane is a slab this thick below its surface, so that it encloses a volume.
const PLANE_THICKNESS: f64 = 10.0;

/// What `<asset>` names: meshes (their file and scale) and materials' colours.
pub(super) struct Assets<'a> {
    meshes: HashMap<String, (&'a Node, PathBuf, [f64; 3])>,
    colors: HashMap<String, [f32; 3]>,
}

impl<'a> Assets<'a> {
    pub fn read(document: &'a Document) -> Result<Self, LoadError> {
        let mut assets = Assets {
            meshes: HashMap::new(),
            colors: HashMap::new(),
        };
        for node in &document.assets {
            match node.tag.as_str() {
                "mesh" => {
                    let file = node.attribute("file").ok_or_else(|| {
                        node.error(
                            "<mesh> has no file; Clasp reads meshes from files, not vertex lists",
                        )
                    })?;
                    let name = node.attribute("name").map_or_else(
                        || {
                            let stem = std::path::Path::new(file).file_stem();
                            stem.map_or(String::new(), |s| s.to_string_lossy().into_owned())
                        },
                        str::to_owned,
                    );
                    let scale = node.array::<3>("scale")?.unwrap_or([1.0; 3]);
                    if scale.contains(&0.0) {
                        return Err(node.error("<mesh> scale has a zero factor"));
                    }
                    let path = document.compiler.mesh_folder.join(file);
                    if assets
                        .meshes
                        .insert(name.clone(), (node, path, scale))
                        .is_some()
                    {
                        return Err(node.error(format!("a second mesh named \"{name}\"")));
                    }
                }
                "material" => {
                    if let (Some(name), Some([r, g, b, _])) =
                        (node.attribute("name"), node.array::<4>("rgba")?)
                    {
                        assets
                            .colors
                            .insert(name.to_owned(), [r, g, b].map(|c| c as f32));
                    }
                }
                _ => {}
            }
        }
        Ok(assets)
    }

    /// The geom's colour: its `rgba`, else its material's.
    pub fn color(&self, geom: &Node) -> Result<Option<[f32; 3]>, LoadError> {
        if let Some([r, g, b, _]) = geom.array::<4>("rgba")? {
            return Ok(Some([r, g, b].map(|c| c as f32)));
        }
        Ok(geom
            .attribute("material")
            .and_then(|m| self.colors.get(m).copied()))
    }

    /// The geom's surface in its own frame (mm), and where that frame sits in its body's.
    pub fn geom_mesh(
        &self,
        source: &dyn FileSource,
        geom: &Node,
        document: &Document,
    ) -> Result<(TriMesh, Pose), LoadError> {
        let kind = geom_type(geom);
        let segment = match kind {
            "capsule" | "cylinder" | "box" | "ellipsoid" => from_to(geom)?,
            _ => None,
        };
        let pose = match segment {
            Some((pose, _)) => pose,
            None => placement(geom, &document.compiler)?,
        };
        let mesh = match kind {
            "mesh" => self.mesh(source, geom)?,
            other => self.primitive(geom, other, segment.map(|(_, half)| half))?,
        };
        Ok((mesh, pose))
    }

    /// A primitive in its own frame; `half_length` is the half-length a `fromto` gives.
    fn primitive(
        &self,
        geom: &Node,
        kind: &str,
        half_length: Option<f64>,
    ) -> Result<TriMesh, LoadError> {
        let size = geom.numbers("size")?.unwrap_or_default();
        let needed = match (kind, half_length) {
            ("sphere", _) | ("capsule" | "cylinder", Some(_)) => 1,
            ("capsule" | "cylinder", None) | ("box" | "ellipsoid", Some(_)) | ("plane", _) => 2,
            ("box" | "ellipsoid", None) => 3,
            (other, _) => {
                return Err(geom.error(format!(
                    "geom type \"{other}\" is not one Clasp reads (plane, sphere, capsule, \
                     ellipsoid, cylinder, box, mesh)"
                )));
            }
        };
        let mut size: Vec<f64> = size.iter().take(needed).map(|s| s * MM_PER_M).collect();
        if size.len() < needed {
            return Err(geom.error(format!(
                "a {kind} geom needs {needed} size numbers; it has {}",
                size.len()
            )));
        }
        size.extend(half_length);
        let positive = kind == "plane" || size.iter().all(|&s| s > 0.0);
        if !positive {
            return Err(geom.error(format!("a {kind} geom's sizes must be positive")));
        }
        let triangles = match kind {
            "sphere" => primitives::sphere(size[0]),
            "capsule" => primitives::capsule(size[0], size[1]),
            "cylinder" => primitives::cylinder(size[0], 2.0 * size[1], primitives::Parts::ALL),
            "ellipsoid" => primitives::sphere(1.0),
            "box" => primitives::cube(2.0 * size[0], 2.0 * size[1], 2.0 * size[2]),
            _ => plane(&size),
        };
        let round = matches!(kind, "sphere" | "capsule" | "cylinder" | "ellipsoid");
        let mesh = primitive_mesh(&triangles, round).map_err(|e| geom.error(e.to_string()))?;
        if kind != "ellipsoid" {
            return Ok(mesh);
        }
        let radii = Vector3::new(size[0], size[1], size[2]);
        let vertices = mesh
            .vertices()
            .iter()
            .map(|v| Point3::from(v.coords.component_mul(&radii)))
            .collect();
        TriMesh::new(vertices, mesh.triangles().to_vec()).map_err(|e| geom.error(e.to_string()))
    }

    /// A mesh asset's file, scaled into millimetres.
    fn mesh(&self, source: &dyn FileSource, geom: &Node) -> Result<TriMesh, LoadError> {
        let name = geom
            .attribute("mesh")
            .ok_or_else(|| geom.error("a mesh geom has no mesh attribute"))?;
        let (asset, path, scale) = self.meshes.get(name).ok_or_else(|| {
            geom.error(format!(
                "<geom> names mesh \"{name}\", which no <mesh> asset defines"
            ))
        })?;
        if !source.is_file(path) {
            return Err(asset.error(format!(
                "missing mesh file {}: it does not exist",
                path.display()
            )));
        }
        let file = load_mesh_file(source, path, GeometryFormat::of(path, None))?;
        let factor = Vector3::from(*scale) * MM_PER_M;
        scaled(&file.mesh, factor).map_err(|e| asset.error(format!("{}: {e}", path.display())))
    }
}

/// The geom's type; MuJoCo's default is a sphere, and a geom naming a mesh is a mesh.
fn geom_type(geom: &Node) -> &str {
    match (geom.attribute("type"), geom.attribute("mesh")) {
        (Some(kind), _) => kind,
        (None, Some(_)) => "mesh",
        (None, None) => "sphere",
    }
}

/// Whether MuJoCo collides the geom: one of `contype` and `conaffinity` (both 1 by default)
/// is not 0. Geoms with both 0 are drawn only.
pub(super) fn collides(geom: &Node) -> bool {
    let bits = |key: &str| geom.attribute(key).is_none_or(|v| v.trim() != "0");
    bits("contype") || bits("conaffinity")
}

/// A plane cut to its size (or a wide square where it has none), as a slab below z = 0.
fn plane(size: &[f64]) -> Vec<primitives::Triangle> {
    let half = |s: f64| if s > 0.0 { s } else { INFINITE_PLANE_HALF_SIDE };
    let (x, y) = (half(size[0]), half(size[1]));
    primitives::cube(2.0 * x, 2.0 * y, PLANE_THICKNESS)
        .into_iter()
        .map(|t| t.map(|p| p - Vector3::z() * (PLANE_THICKNESS / 2.0)))
        .collect()
}
