//! GraspIt body XML: geometry, material and mass of one rigid body.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use clasp_collide::{Geometry, TriMesh};
use clasp_core::{
    Body, BodyKind, CollisionGroups, Compliance, GivenMass, MassProperties, Material, Pose,
};
use nalgebra::{Matrix3, Point3, Vector3};

use crate::{
    error::LoadError,
    geometry::{GeometryFormat, load_mesh_file},
    groups::read_groups,
    mesh_file::MeshFile,
    source::{FileSource, read},
    transform::parse_transform,
    xml::{Element, fixed_numbers, number, parse_document, required},
};

/// Loads a body XML file; the body is named after the file and placed at the origin.
///
/// Units as GraspIt reads them: mass in grams, `cog` in mm, `inertia_matrix` per unit mass in
/// mm², `youngs` in Pa (GraspIt's code uses the number as Pa; one manual page says MPa).
/// Missing mass, centre of gravity or inertia come from the mesh ([`MassProperties::complete`]).
pub fn load_body(source: &dyn FileSource, path: &Path, kind: BodyKind) -> Result<Body, LoadError> {
    let text = read(source, path)?;
    let root = parse_document(&text, path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut body = body_from_element(source, path, &root, kind, &[folder])?;
    body.name = name;
    body.source = Some(path.to_path_buf());
    Ok(body)
}

/// Builds a body from a body element (a body file's `<root>`, or a world file's inline
/// `<body>`). Its geometry file is looked up in each folder in turn. The body is named after
/// its geometry file and has no source file; the caller sets both where it knows better.
pub(crate) fn body_from_element(
    source: &dyn FileSource,
    path: &Path,
    root: &Element,
    kind: BodyKind,
    geometry_folders: &[PathBuf],
) -> Result<Body, LoadError> {
    let material = match root.child("material").filter(|m| !m.text().is_empty()) {
        // GraspIt falls back to wood; Clasp to a mid-range friction with everything.
        None => Material::Generic,
        Some(m) => material(m, path)?,
    };
    let youngs = root
        .child("youngs")
        .map(|y| positive(y, path))
        .transpose()?;
    let compliance = compliance(root, path)?;
    let given = GivenMass {
        mass: root.child("mass").map(|m| positive(m, path)).transpose()?,
        cog: root.child("cog").map(|c| point(c, path)).transpose()?,
        inertia: root
            .child("inertia_matrix")
            .map(|i| inertia(i, path))
            .transpose()?,
    };
    let (geometry, geometry_path) = load_geometry(source, path, root, geometry_folders)?;
    let mass = MassProperties::complete(&geometry.mesh, given);
    let groups = read_groups(
        root,
        path,
        CollisionGroups::default_for(kind == BodyKind::Obstacle),
    )?;
    let name = geometry_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut body = Body::from_parts(name, kind, Arc::new(Geometry::new(geometry.mesh)), mass)
        .in_groups(groups);
    body.material = material;
    body.youngs = youngs;
    body.compliance = compliance;
    body.color = geometry.color;
    body.lines.inertia = root.child("inertia_matrix").map(|i| i.line);
    Ok(body)
}

/// A `<material>`: one of the seven materials, or generic.
pub(crate) fn material(element: &Element, file: &Path) -> Result<Material, LoadError> {
    element
        .text()
        .parse()
        .map_err(|e: clasp_core::UnknownMaterial| {
            LoadError::new(file, Some(element.line), e.to_string())
        })
}

pub(crate) fn positive(element: &Element, file: &Path) -> Result<f64, LoadError> {
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

/// Both compliances or neither.
fn compliance(root: &Element, path: &Path) -> Result<Option<Compliance>, LoadError> {
    match (
        root.child("normalCompliance"),
        root.child("shearCompliance"),
    ) {
        (None, None) => Ok(None),
        (Some(n), Some(s)) => Ok(Some(Compliance {
            normal: positive(n, path)?,
            shear: positive(s, path)?,
        })),
        (Some(one), None) | (None, Some(one)) => Err(LoadError::new(
            path,
            Some(one.line),
            "<normalCompliance> and <shearCompliance> go together; only one is given",
        )),
    }
}

/// Nine numbers, row by row, per unit mass, as written: one the dynamics cannot turn with
/// (GraspIt's own `objects/flask.xml` gives a tensor that is not symmetric) is repaired where
/// the mass properties are completed (`MassProperties::inertia_repair`).
pub(crate) fn inertia(element: &Element, file: &Path) -> Result<Matrix3<f64>, LoadError> {
    Ok(Matrix3::from_row_slice(&fixed_numbers::<9>(element, file)?))
}

/// Reads the geometry file and applies scaling, then the offset transform, as GraspIt does.
/// Returns the mesh and the path it was read from.
fn load_geometry(
    source: &dyn FileSource,
    path: &Path,
    root: &Element,
    folders: &[PathBuf],
) -> Result<(MeshFile, PathBuf), LoadError> {
    let geometry = required(root, "geometryFile", path)?;
    let tried: Vec<PathBuf> = folders.iter().map(|f| f.join(geometry.text())).collect();
    let Some(geometry_path) = tried.iter().find_map(|p| find_file(source, p)) else {
        let places: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
        return Err(LoadError::new(
            path,
            Some(geometry.line),
            format!(
                "missing geometry file {}: it does not exist",
                places.join(", nor ")
            ),
        ));
    };
    let format = GeometryFormat::of(&geometry_path, geometry.attribute("type"));
    let mut file = load_mesh_file(source, &geometry_path, format)?;
    let scale = scaling(root, path)?;
    let offset = match root.child("geometryOffset") {
        None => Pose::identity(),
        Some(o) => parse_transform(required(o, "transform", path)?, path)?,
    };
    if scale == Vector3::repeat(1.0) && offset == Pose::identity() {
        return Ok((file, geometry_path));
    }
    let vertices = file
        .mesh
        .vertices()
        .iter()
        .map(|v| offset * Point3::from(v.coords.component_mul(&scale)))
        .collect();
    file.mesh = TriMesh::new(vertices, file.mesh.triangles().to_vec())
        .map_err(|e| LoadError::new(path, Some(geometry.line), e.to_string()))?;
    Ok((file, geometry_path))
}

/// The file itself, or else one in the same folder whose name differs only in case: GraspIt's
/// `objects/soap.xml` names `soap.iv` for the file `soap.IV`, which only loads on
/// case-insensitive file systems.
fn find_file(source: &dyn FileSource, path: &Path) -> Option<PathBuf> {
    if source.is_file(path) {
        return Some(path.to_path_buf());
    }
    source.find_ignoring_case(path)
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
    use crate::source::Embedded;

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
        assert_eq!(body.mass.mass, 250.0);
        assert_eq!(body.mesh().vertices()[1], Point3::new(10.0, 0.0, 5.0));
    }

    #[test]
    fn a_missing_material_is_generic_and_missing_mass_is_computed() {
        let body = load("<root><geometryFile>tri.off</geometryFile></root>").unwrap();
        assert_eq!(body.material, Material::Generic);
        // One open triangle: a shell estimate, flagged.
        assert!(body.mass.open_mesh_estimate);
        assert_eq!(body.mass.mass, clasp_core::DEFAULT_MASS);
        assert!((body.mass.cog - Point3::new(1.0 / 3.0, 1.0 / 3.0, 0.0)).norm() < 1e-12);
    }

    #[test]
    fn reads_youngs_compliance_cog_and_inertia() {
        let body = load(
            "<root><youngs>1500000</youngs><normalCompliance>2</normalCompliance>\
             <shearCompliance>3</shearCompliance><mass>10</mass><cog>1 2 3</cog>\
             <inertia_matrix>4 0 0 0 5 0 0 0 6</inertia_matrix>\
             <geometryFile>tri.off</geometryFile></root>",
        )
        .unwrap();
        assert_eq!(body.youngs, Some(1.5e6));
        assert_eq!(
            body.compliance,
            Some(Compliance {
                normal: 2.0,
                shear: 3.0
            })
        );
        assert_eq!(body.mass.cog, Point3::new(1.0, 2.0, 3.0));
        assert_eq!(body.mass.inertia[(2, 2)], 6.0);
        assert!(!body.mass.open_mesh_estimate);
        let err = load("<root><normalCompliance>2</normalCompliance><geometryFile>tri.off</geometryFile></root>").unwrap_err();
        assert!(err.message.contains("go together"), "{err}");
        // Not symmetric (GraspIt's flask: 47.542 typed against 0): its symmetric part, said.
        let body = load("<root><mass>1</mass><cog>0 0 0</cog><inertia_matrix>400 2 0 0 400 0 0 0 400</inertia_matrix><geometryFile>tri.off</geometryFile></root>").unwrap();
        assert_eq!(
            (body.mass.inertia[(0, 1)], body.mass.inertia[(1, 0)]),
            (1.0, 1.0)
        );
        let repair = body.mass.inertia_repair.as_deref().unwrap();
        assert!(repair.contains("not symmetric") && repair.contains("symmetric part"));
        // Far from symmetric, or a negative moment: kept as written, for the dynamics to refuse.
        for wrong in ["4 1 0 0 4 0 0 0 4", "-400 0 0 0 400 0 0 0 400"] {
            let text = format!(
                "<root><mass>1</mass><cog>0 0 0</cog><inertia_matrix>{wrong}</inertia_matrix><geometryFile>tri.off</geometryFile></root>"
            );
            let body = load(Box::leak(text.into_boxed_str())).unwrap();
            assert_eq!(body.mass.inertia_repair, None, "{wrong}");
            assert_eq!(
                body.mass.inertia[(0, 0)].abs(),
                wrong
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse::<f64>()
                    .unwrap()
                    .abs()
            );
        }
        // All zeros (GraspIt's gun): the mesh's, said; a good one is kept as it is, unsaid.
        let body = load("<root><mass>1</mass><cog>0 0 0</cog><inertia_matrix>0 0 0 0 0 0 0 0 0</inertia_matrix><geometryFile>tri.off</geometryFile></root>").unwrap();
        assert!(body.mass.inertia.amax() > 0.0);
        assert!(
            body.mass
                .inertia_repair
                .unwrap()
                .contains("the mesh's is used")
        );
        let body = load("<root><mass>1</mass><cog>0 0 0</cog><inertia_matrix>4 1 0 1 4 0 0 0 4</inertia_matrix><geometryFile>tri.off</geometryFile></root>").unwrap();
        assert_eq!(body.mass.inertia_repair, None);
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
        assert!(
            err.message.contains("missing geometry file b/missing.off"),
            "{err}"
        );
        assert_eq!(err.line, Some(2));
        let err =
            load("<root><mass>-3</mass><geometryFile>tri.off</geometryFile></root>").unwrap_err();
        assert!(err.message.contains("must be positive"), "{err}");
        let err = load("<root><material>wood</material></root>").unwrap_err();
        assert!(err.message.contains("<geometryFile>"), "{err}");
    }
}
