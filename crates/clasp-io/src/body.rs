//! GraspIt body XML: geometry, material and mass of one rigid body.

use std::{path::Path, sync::Arc};

use clasp_collide::TriMesh;
use clasp_core::{Body, BodyKind, Material, Pose};
use nalgebra::{Point3, Vector3};

use crate::{
    FileSource, LoadError,
    off::parse_off,
    transform::parse_transform,
    xml::{Element, fixed_numbers, number, parse_document, required},
};

/// Loads a body XML file; the body is named after the file and placed at the origin.
pub fn load_body(source: &dyn FileSource, path: &Path, kind: BodyKind) -> Result<Body, LoadError> {
    let text = read(source, path)?;
    let root = parse_document(&text, path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let material = match root.child("material") {
        // GraspIt's own default for a body without a material.
        None => Material::Wood,
        Some(m) => m.text().parse().map_err(|e: clasp_core::UnknownMaterial| {
            LoadError::new(path, Some(m.line), e.to_string())
        })?,
    };
    let mass = match root.child("mass") {
        None => None,
        Some(m) => Some(positive(m, path)?),
    };
    let mesh = load_geometry(source, path, &root)?;
    Ok(Body {
        name,
        kind,
        pose: Pose::identity(),
        mesh: Arc::new(mesh),
        material,
        mass,
        color: None,
    })
}

pub(crate) fn read(source: &dyn FileSource, path: &Path) -> Result<String, LoadError> {
    source
        .read_to_string(path)
        .map_err(|e| LoadError::new(path, None, format!("cannot read the file: {e}")))
}

fn positive(element: &Element, file: &Path) -> Result<f64, LoadError> {
    let value = number(element, file)?;
    if value <= 0.0 {
        return Err(LoadError::new(
            file,
            Some(element.line),
            format!("<{}> must be positive, found {value}", element.name),
        ));
    }
    Ok(value)
}

/// Reads the geometry file and applies scaling, then the offset transform, as GraspIt does.
fn load_geometry(
    source: &dyn FileSource,
    path: &Path,
    root: &Element,
) -> Result<TriMesh, LoadError> {
    let geometry = required(root, "geometryFile", path)?;
    let geometry_path = path.parent().unwrap_or(Path::new("")).join(geometry.text());
    let kind = geometry.attribute("type").unwrap_or("Inventor");
    let extension = geometry_path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if !kind.eq_ignore_ascii_case("off") && extension != "off" {
        return Err(LoadError::new(
            path,
            Some(geometry.line),
            format!(
                "geometry \"{}\" of type \"{kind}\": only OFF geometry can be read so far",
                geometry.text()
            ),
        ));
    }
    if !source.is_file(&geometry_path) {
        return Err(LoadError::new(
            path,
            Some(geometry.line),
            format!("geometry file {} does not exist", geometry_path.display()),
        ));
    }
    let mesh = parse_off(&read(source, &geometry_path)?, &geometry_path)?;
    let scale = scaling(root, path)?;
    let offset = match root.child("geometryOffset") {
        None => Pose::identity(),
        Some(o) => parse_transform(required(o, "transform", path)?, path)?,
    };
    if scale == Vector3::repeat(1.0) && offset == Pose::identity() {
        return Ok(mesh);
    }
    let vertices = mesh
        .vertices()
        .iter()
        .map(|v| offset * Point3::from(v.coords.component_mul(&scale)))
        .collect();
    TriMesh::new(vertices, mesh.triangles().to_vec())
        .map_err(|e| LoadError::new(path, Some(geometry.line), e.to_string()))
}

fn scaling(root: &Element, path: &Path) -> Result<Vector3<f64>, LoadError> {
    if let Some(uniform) = root.child("geometryScaling") {
        return Ok(Vector3::repeat(positive(uniform, path)?));
    }
    let mut scale = Vector3::repeat(1.0);
    for (axis, tag) in ["geometryScalingX", "geometryScalingY", "geometryScalingZ"]
        .iter()
        .enumerate()
    {
        if let Some(s) = root.child(tag) {
            scale[axis] = positive(s, path)?;
        }
    }
    Ok(scale)
}

/// Reads `x y z` from an element.
pub(crate) fn point(element: &Element, file: &Path) -> Result<Point3<f64>, LoadError> {
    Ok(Point3::from(fixed_numbers::<3>(element, file)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Embedded;

    const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";

    fn load(xml: &'static str) -> Result<Body, LoadError> {
        let files = Embedded::new([("b/body.xml", xml), ("b/tri.off", TRIANGLE)]);
        load_body(&files, Path::new("b/body.xml"), BodyKind::Graspable)
    }

    #[test]
    fn reads_material_mass_and_scaled_offset_geometry() {
        let body = load(
            "<root><material>rubber</material><mass>250</mass>\
             <geometryFile type=\"off\">tri.off</geometryFile><geometryScaling>10</geometryScaling>\
             <geometryOffset><transform><translation>0 0 5</translation></transform></geometryOffset></root>",
        )
        .unwrap();
        assert_eq!(body.name, "body");
        assert_eq!(body.material, Material::Rubber);
        assert_eq!(body.mass, Some(250.0));
        assert_eq!(body.mesh.vertices()[1], Point3::new(10.0, 0.0, 5.0));
    }

    #[test]
    fn a_missing_material_is_wood_as_in_graspit() {
        let body = load("<root><geometryFile>tri.off</geometryFile></root>").unwrap();
        assert_eq!(body.material, Material::Wood);
        assert_eq!(body.mass, None);
    }

    #[test]
    fn errors_name_file_line_and_problem() {
        let err = load(
            "<root>\n<material>cheese</material>\n<geometryFile>tri.off</geometryFile></root>",
        )
        .unwrap_err();
        assert_eq!(
            (err.file.as_path(), err.line),
            (Path::new("b/body.xml"), Some(2))
        );
        assert!(err.message.contains("cheese"), "{err}");
        let err = load("<root>\n<geometryFile>missing.off</geometryFile></root>").unwrap_err();
        assert!(err.message.contains("does not exist"), "{err}");
        let err =
            load("<root><mass>-3</mass><geometryFile>tri.off</geometryFile></root>").unwrap_err();
        assert!(err.message.contains("must be positive"), "{err}");
        let err = load("<root><material>wood</material></root>").unwrap_err();
        assert!(err.message.contains("<geometryFile>"), "{err}");
        let err = load("<root><geometryFile>cup.iv</geometryFile></root>").unwrap_err();
        assert!(err.message.contains("only OFF"), "{err}");
    }
}
