//! A URDF link's shapes: boxes, cylinders and spheres tessellated as GraspIt's are, and mesh
//! files, found relative to the URDF or in a `package://` folder, all in millimetres.

use std::path::{Path, PathBuf};

use clasp_collide::TriMesh;
use nalgebra::Vector3;

use super::model::{MM_PER_M, vector_attribute};
use crate::{
    error::LoadError,
    geometry::{GeometryFormat, load_mesh_file, scaled},
    primitives::{self, primitive_mesh},
    source::FileSource,
    xml::{Element, attribute, number_attribute},
};

/// One `<collision>` or `<visual>` element's shape, in millimetres in its own frame.
pub(super) fn shape(
    source: &dyn FileSource,
    file: &Path,
    element: &Element,
) -> Result<(TriMesh, Option<[f32; 3]>), LoadError> {
    let error = |line: usize, message: &str| LoadError::new(file, Some(line), message);
    let geometry = element.child("geometry").ok_or_else(|| {
        error(
            element.line,
            &format!("<{}> has no <geometry>", element.name),
        )
    })?;
    let shape = geometry
        .children
        .first()
        .ok_or_else(|| error(geometry.line, "<geometry> is empty"))?;
    let size = |key: &str| -> Result<f64, LoadError> {
        let value = number_attribute(shape, key, file)?;
        if value <= 0.0 {
            return Err(error(
                shape.line,
                &format!("<{}> {key} must be positive, found {value}", shape.name),
            ));
        }
        Ok(value * MM_PER_M)
    };
    let mesh = match shape.name.as_str() {
        "box" => {
            let [x, y, z] = vector_attribute(shape, "size", file)?.ok_or_else(|| {
                error(shape.line, "<box> has no size attribute, which is required")
            })?;
            if x.min(y).min(z) <= 0.0 {
                return Err(error(shape.line, "<box> sizes must be positive"));
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
        "mesh" => return mesh(source, file, shape),
        other => {
            return Err(error(
                shape.line,
                &format!("<{other}> is not a geometry Clasp reads (mesh, box, cylinder, sphere)"),
            ));
        }
    };
    let mesh = mesh.map_err(|e| error(shape.line, &e.to_string()))?;
    Ok((mesh, None))
}

/// A mesh file, scaled (its coordinates are metres, as URDF's are) into millimetres.
fn mesh(
    source: &dyn FileSource,
    file: &Path,
    shape: &Element,
) -> Result<(TriMesh, Option<[f32; 3]>), LoadError> {
    let error = |line: usize, message: &str| LoadError::new(file, Some(line), message);
    let filename = attribute(shape, "filename", file)?;
    let path = resolve_mesh(source, file, filename, shape.line)?;
    let scale = vector_attribute(shape, "scale", file)?.unwrap_or([1.0; 3]);
    if scale.contains(&0.0) {
        return Err(error(shape.line, "<mesh> scale has a zero factor"));
    }
    let loaded = load_mesh_file(source, &path, GeometryFormat::of(&path, None))?;
    let factor = Vector3::from(scale) * MM_PER_M;
    let mesh = scaled(&loaded.mesh, factor)
        .map_err(|e| error(shape.line, &format!("{}: {e}", path.display())))?;
    Ok((mesh, loaded.color))
}

/// A link's `<collision>` elements, or its `<visual>` ones when it has no collision geometry.
pub(super) fn geometry_elements(link: &Element) -> Vec<&Element> {
    let collision: Vec<&Element> = link.children_named("collision").collect();
    if collision.is_empty() {
        link.children_named("visual").collect()
    } else {
        collision
    }
}

/// A link's `<visual>` elements where it also has `<collision>` ones that are not the same
/// shapes at the same origins (the Allegro's meshes over its collision boxes); none otherwise.
pub(super) fn drawn_otherwise(link: &Element) -> Vec<&Element> {
    let collision: Vec<&Element> = link.children_named("collision").collect();
    let visual: Vec<&Element> = link.children_named("visual").collect();
    let same = collision.len() == visual.len()
        && collision.iter().zip(&visual).all(|(c, v)| {
            ["geometry", "origin"]
                .iter()
                .all(|tag| same_element(c.child(tag), v.child(tag)))
        });
    match collision.is_empty() || same {
        true => Vec::new(),
        false => visual,
    }
}

/// Whether two elements say the same (tags, attributes and children; not where they stand in
/// the file).
fn same_element(a: Option<&Element>, b: Option<&Element>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.name == b.name
                && a.attributes == b.attributes
                && a.children.len() == b.children.len()
                && (a.children.iter().zip(&b.children)).all(|(x, y)| same_element(Some(x), Some(y)))
        }
        _ => false,
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
