//! Inventor ASCII (1.0, 2.0, 2.1) and VRML (1.0, 2.0) geometry: the node subset GraspIt's model
//! files use, walked as Coin's triangle callback walks it.
//!
//! Grouping and transform nodes build the model matrix (a Separator saves and restores it,
//! as do all VRML 2 grouping nodes); coordinates come from Coordinate3, VertexProperty or a
//! VRML 2 `coord`; faces from FaceSet, IndexedFaceSet, TriangleStripSet and
//! IndexedTriangleStripSet; Cube, Sphere, Cylinder, Cone (and VRML 2 Box) are tessellated as
//! Coin does by default; `File` includes other files. Materials only give the display colour;
//! normals, textures, lights and the like are read and ignored.

mod fields;
mod lexer;
mod shapes;
mod tree;

use std::path::{Path, PathBuf};

use nalgebra::{Matrix4, Rotation3, Unit, Vector3};

use crate::{error::LoadError, mesh_builder::MeshBuilder, mesh_file::MeshFile, source::FileSource};
use lexer::Lexer;
use tree::{Node, NodeId, Tree, Value, parse_tree};

/// `File` nodes may include files that include files, up to this depth.
const MAX_INCLUDE_DEPTH: usize = 8;
/// Grouping deeper than this is refused (the parser already bounds nesting; USE can not loop).
const MAX_WALK_DEPTH: usize = 256;

/// Parses an Inventor or VRML file (told apart by its header) into triangles; `File` nodes
/// are read through `source`, relative to the including file.
pub fn parse_inventor(
    bytes: &[u8],
    file: &Path,
    source: &dyn FileSource,
) -> Result<MeshFile, LoadError> {
    let mut reader = Reader {
        source,
        builder: MeshBuilder::new(),
        color: None,
    };
    reader.read(bytes, file, Matrix4::identity(), 0)?;
    let color = reader.color;
    Ok(MeshFile {
        mesh: reader.builder.finish(file)?,
        color,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// Inventor 1.0–2.1 and VRML 1.0, which share their node semantics.
    Inventor,
    Vrml2,
}

/// The dialect named by the first line, and where the rest starts.
fn header(bytes: &[u8], file: &Path) -> Result<(Dialect, usize), LoadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len());
    let first = String::from_utf8_lossy(&bytes[..end]);
    let words: Vec<&str> = first.split_whitespace().collect();
    let dialect = match words.as_slice() {
        ["#Inventor", "V1.0" | "V2.0" | "V2.1", "ascii", ..] => Dialect::Inventor,
        ["#VRML", "V1.0", "ascii", ..] => Dialect::Inventor,
        ["#VRML", "V2.0", "utf8", ..] => Dialect::Vrml2,
        ["#Inventor", _, "binary", ..] => {
            return Err(LoadError::new(
                file,
                Some(1),
                "binary Inventor files are not supported; convert it to ASCII (ivcat -a)",
            ));
        }
        _ => {
            return Err(LoadError::new(
                file,
                Some(1),
                format!(
                    "expected an Inventor (\"#Inventor V2.1 ascii\") or VRML (\"#VRML V2.0 utf8\") header, found \"{}\"",
                    first.chars().take(60).collect::<String>()
                ),
            ));
        }
    };
    Ok((dialect, end))
}

struct Reader<'s> {
    source: &'s dyn FileSource,
    builder: MeshBuilder,
    color: Option<[f32; 3]>,
}

impl Reader<'_> {
    fn read(
        &mut self,
        bytes: &[u8],
        file: &Path,
        matrix: Matrix4<f64>,
        include_depth: usize,
    ) -> Result<(), LoadError> {
        let (dialect, start) = header(bytes, file)?;
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let tree = parse_tree(Lexer::new(bytes, 1, start))
            .map_err(|e| LoadError::new(file, Some(e.line), e.message))?;
        let mut walker = Walker {
            tree: &tree,
            file,
            dialect,
            include_depth,
            reader: self,
        };
        let mut state = State {
            matrix,
            coords: None,
        };
        for &root in &tree.roots {
            walker.walk(root, &mut state, 0)?;
        }
        Ok(())
    }
}

/// What a traversal carries from node to node.
#[derive(Clone, Copy)]
struct State<'t> {
    matrix: Matrix4<f64>,
    coords: Option<&'t [f64]>,
}

struct Walker<'t, 'r, 's> {
    tree: &'t Tree,
    file: &'t Path,
    dialect: Dialect,
    include_depth: usize,
    reader: &'r mut Reader<'s>,
}

impl<'t> Walker<'t, '_, '_> {
    fn error(&self, line: usize, message: impl Into<String>) -> LoadError {
        LoadError::new(self.file, Some(line), message)
    }

    fn walk(&mut self, id: NodeId, state: &mut State<'t>, depth: usize) -> Result<(), LoadError> {
        let node = &self.tree.nodes[id];
        if depth > MAX_WALK_DEPTH {
            return Err(self.error(node.line, "the scene graph nests too deeply"));
        }
        match (node.kind.as_str(), self.dialect) {
            ("Separator" | "TransformSeparator" | "Selection" | "WWWAnchor", _) => {
                self.separate(node, state, depth)
            }
            ("Transform", Dialect::Vrml2) => {
                let mut inner = *state;
                inner.matrix *= self.transform(node)?;
                self.group(node, &mut inner, depth)
            }
            ("Group" | "Collision" | "Anchor" | "Billboard", Dialect::Vrml2) => {
                self.separate(node, state, depth)
            }
            ("Group", Dialect::Inventor) => self.group(node, state, depth),
            ("Switch", Dialect::Vrml2) => self.vrml_switch(node, state, depth),
            ("Switch", _) => self.switch(node, state, depth),
            ("LOD", _) => match node.children.first() {
                // Without a viewer, the most detailed level.
                Some(&child) => self.walk(child, state, depth + 1),
                None => Ok(()),
            },
            ("Shape", Dialect::Vrml2) => self.vrml_shape(node, state),
            ("File", _) => self.include(node, state),
            ("Transform" | "Translation" | "Rotation" | "RotationXYZ" | "Scale", _)
            | ("MatrixTransform", _) => {
                state.matrix *= self.transform(node)?;
                Ok(())
            }
            ("ResetTransform", _) => {
                state.matrix = Matrix4::identity();
                Ok(())
            }
            ("Coordinate3", _) => {
                state.coords = self.points(node, "point")?;
                Ok(())
            }
            ("VertexProperty", _) => {
                state.coords = self.points(node, "vertex")?;
                Ok(())
            }
            ("Material", _) => self.material(node, "diffuseColor"),
            ("BaseColor", _) => self.material(node, "rgb"),
            _ => self.shape(node, state),
        }
    }

    fn separate(
        &mut self,
        node: &'t Node,
        state: &State<'t>,
        depth: usize,
    ) -> Result<(), LoadError> {
        let mut inner = *state;
        self.group(node, &mut inner, depth)
    }

    /// Walks the children in order, sharing the state (VRML 2 children come from the field).
    fn group(
        &mut self,
        node: &'t Node,
        state: &mut State<'t>,
        depth: usize,
    ) -> Result<(), LoadError> {
        for &child in &node.children {
            self.walk(child, state, depth + 1)?;
        }
        if let Some(Value::Nodes(children)) = node.field("children").map(|f| &f.value) {
            for &child in children {
                self.walk(child, state, depth + 1)?;
            }
        }
        Ok(())
    }

    /// `whichChild`: −1 none (the default), −3 all, else that child.
    fn switch(
        &mut self,
        node: &'t Node,
        state: &mut State<'t>,
        depth: usize,
    ) -> Result<(), LoadError> {
        let which = self.scalar(node, "whichChild")?.unwrap_or(-1.0);
        if which == -3.0 {
            return self.group(node, state, depth);
        }
        match node.children.get(which as usize).filter(|_| which >= 0.0) {
            Some(&child) => self.walk(child, state, depth + 1),
            None => Ok(()),
        }
    }

    /// VRML 2's Switch: `whichChoice` picks one of the `choice` nodes, −1 (the default) none.
    fn vrml_switch(
        &mut self,
        node: &'t Node,
        state: &State<'t>,
        depth: usize,
    ) -> Result<(), LoadError> {
        let which = self.scalar(node, "whichChoice")?.unwrap_or(-1.0);
        let choices = match node.field("choice").map(|f| &f.value) {
            Some(Value::Nodes(choices)) => choices.as_slice(),
            _ => &[],
        };
        match choices.get(which as usize).filter(|_| which >= 0.0) {
            Some(&child) => {
                let mut inner = *state;
                self.walk(child, &mut inner, depth + 1)
            }
            None => Ok(()),
        }
    }

    fn material(&mut self, node: &'t Node, field: &str) -> Result<(), LoadError> {
        if self.reader.color.is_none()
            && let Some(rgb) = self.numbers(node, field)?.filter(|v| v.len() >= 3)
        {
            self.reader.color = Some([rgb[0], rgb[1], rgb[2]].map(|c| c.clamp(0.0, 1.0) as f32));
        }
        Ok(())
    }

    /// A `File` node: the named file, relative to this one, walked in its own separator.
    fn include(&mut self, node: &'t Node, state: &State<'t>) -> Result<(), LoadError> {
        let name = match node.field("name").map(|f| &f.value) {
            Some(Value::Word(name)) => name.clone(),
            _ => return Err(self.error(node.line, "File has no name")),
        };
        if self.include_depth >= MAX_INCLUDE_DEPTH {
            return Err(self.error(
                node.line,
                format!("File \"{name}\": includes nest deeper than {MAX_INCLUDE_DEPTH} files"),
            ));
        }
        let path: PathBuf = self.file.parent().unwrap_or(Path::new("")).join(&name);
        let bytes = self.reader.source.read_bytes(&path).map_err(|e| {
            self.error(
                node.line,
                format!(
                    "missing geometry file {} (File include): {e}",
                    path.display()
                ),
            )
        })?;
        self.reader
            .read(&bytes, &path, state.matrix, self.include_depth + 1)
    }

    /// A node's transform as a matrix; nodes that are not transforms give the identity.
    fn transform(&self, node: &'t Node) -> Result<Matrix4<f64>, LoadError> {
        let vector = |name: &str, default: [f64; 3]| -> Result<Vector3<f64>, LoadError> {
            Ok(Vector3::from(
                self.fixed::<3>(node, name)?.unwrap_or(default),
            ))
        };
        let rotation = |name: &str| -> Result<Matrix4<f64>, LoadError> {
            Ok(match self.fixed::<4>(node, name)? {
                Some([x, y, z, angle]) => axis_angle(Vector3::new(x, y, z), angle),
                None => Matrix4::identity(),
            })
        };
        let translate = |v: Vector3<f64>| Matrix4::new_translation(&v);
        Ok(match node.kind.as_str() {
            "Translation" => translate(vector("translation", [0.0; 3])?),
            "Rotation" => rotation("rotation")?,
            "Scale" => Matrix4::new_nonuniform_scaling(&vector("scaleFactor", [1.0; 3])?),
            "RotationXYZ" => {
                let angle = self.scalar(node, "angle")?.unwrap_or(0.0);
                let axis = match node.field("axis").map(|f| &f.value) {
                    Some(Value::Word(w)) if w == "Y" => Vector3::y(),
                    Some(Value::Word(w)) if w == "Z" => Vector3::z(),
                    _ => Vector3::x(),
                };
                axis_angle(axis, angle)
            }
            "MatrixTransform" => match self.fixed::<16>(node, "matrix")? {
                // Inventor multiplies row vectors: the file's rows are our columns.
                Some(m) => Matrix4::from_row_slice(&m).transpose(),
                None => Matrix4::identity(),
            },
            "Transform" => {
                let scale_name = if self.dialect == Dialect::Vrml2 {
                    "scale"
                } else {
                    "scaleFactor"
                };
                let center = vector("center", [0.0; 3])?;
                let scale_orientation = rotation("scaleOrientation")?;
                let inverse_orientation = scale_orientation.transpose();
                translate(vector("translation", [0.0; 3])?)
                    * translate(center)
                    * rotation("rotation")?
                    * scale_orientation
                    * Matrix4::new_nonuniform_scaling(&vector(scale_name, [1.0; 3])?)
                    * inverse_orientation
                    * translate(-center)
            }
            _ => Matrix4::identity(),
        })
    }
}

/// A rotation by `angle` radians about `axis`; a zero axis is no rotation.
fn axis_angle(axis: Vector3<f64>, angle: f64) -> Matrix4<f64> {
    match Unit::try_new(axis, 1e-12) {
        Some(axis) => Rotation3::from_axis_angle(&axis, angle).to_homogeneous(),
        None => Matrix4::identity(),
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Point3;

    use super::*;
    use crate::source::Embedded;

    fn parse(text: &'static str) -> Result<MeshFile, LoadError> {
        let files = Embedded::new([("m/inc.iv", INCLUDED)]);
        parse_inventor(text.as_bytes(), Path::new("m/test.iv"), &files)
    }

    const INCLUDED: &str = "#Inventor V2.1 ascii\nCube { width 2 height 2 depth 2 }\n";

    fn assert_near(p: &Point3<f64>, want: [f64; 3]) {
        assert!((p - Point3::from(want)).norm() < 1e-12, "{p} != {want:?}");
    }

    #[test]
    fn face_sets_follow_the_transform_stack() {
        let file = parse(
            "#Inventor V2.0 ascii\nSeparator {\n Material { diffuseColor 1 0 0 }\n\
             Translation { translation 10 0 0 }\n RotationXYZ { axis Z angle 1.5707963267948966 }\n\
             Scale { scaleFactor 2 2 2 }\n Coordinate3 { point [ 0 0 0, 1 0 0, 1 1 0, 0 1 0 ] }\n\
             FaceSet { numVertices [ 4 ] }\n}\nSeparator { Coordinate3 { point [ 0 0 5, 1 0 5, 0 1 5 ] }\n\
             IndexedFaceSet { coordIndex [ 0, 1, 2, -1 ] } }\n",
        )
        .unwrap();
        let mesh = &file.mesh;
        assert_eq!(mesh.triangles().len(), 3);
        // (1, 0, 0) scaled to (2, 0, 0), turned to (0, 2, 0), moved to (10, 2, 0).
        assert_near(&mesh.vertices()[1], [10.0, 2.0, 0.0]);
        // The second Separator does not see the first one's transforms.
        assert_near(
            &mesh.vertices()[mesh.triangles()[2][1] as usize],
            [1.0, 0.0, 5.0],
        );
        assert_eq!(file.color, Some([1.0, 0.0, 0.0]));
    }

    #[test]
    fn strips_alternate_and_vertex_properties_hold_coordinates() {
        let file = parse(
            "#Inventor V2.1 ascii\nIndexedTriangleStripSet {\n vertexProperty VertexProperty {\n\
             vertex [ 0 0 0, 1 0 0, 0 1 0, 1 1 0 ] }\n coordIndex [ 0, 1, 2, 3, -1 ] }\n",
        )
        .unwrap();
        // Both triangles of the strip face the same way (+z).
        for t in 0..2 {
            assert!(file.mesh.triangle_normal(t).z > 0.0);
        }
    }

    #[test]
    fn vrml2_shapes_transforms_and_switches() {
        let file = parse(
            "#VRML V2.0 utf8\nTransform { scale 10 10 10 translation 0 0 1 children [\n\
             Shape { appearance Appearance { material Material { diffuseColor 0 0 1 } }\n\
             geometry IndexedFaceSet { coord Coordinate { point [ 0 0 0, 1 0 0, 0 1 0 ] }\n\
             coordIndex [ 0 1 2 -1 ] } }\n\
             Switch { whichChoice -1 choice [ Shape { geometry Box { } } ] } ] }\n",
        )
        .unwrap();
        assert_eq!(file.mesh.triangles().len(), 1);
        assert_near(&file.mesh.vertices()[1], [10.0, 0.0, 1.0]);
        assert_eq!(file.color, Some([0.0, 0.0, 1.0]));
    }

    #[test]
    fn primitives_includes_and_mirrors_stay_closed_and_outward() {
        let file = parse(
            "#Inventor V2.1 ascii\nSeparator { Scale { scaleFactor -1 1 1 }\n\
             File { name \"inc.iv\" } Translation { translation 0 5 0 } Sphere { radius 2 } }\n",
        )
        .unwrap();
        assert_eq!(file.mesh.triangles().len(), 12 + 390);
        assert!(file.mesh.is_closed());
        let props = clasp_core::MassProperties::complete(&file.mesh, Default::default());
        assert!(
            props.mass > 0.0,
            "mirrored triangles were not turned back outward"
        );
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let err = parse("#Inventor V2.1 ascii\nSeparator {\n Coordinate3 { point [ 0 0 0, 1 0 0, 0 1 0 ] }\n IndexedFaceSet {\n coordIndex [ 0, 1, 7 ] }\n}\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m/test.iv:5: coordIndex 7 is not a coordinate number below 3 (or -1)"
        );
        let err = parse("#Inventor V2.1 ascii\nFile { name \"gone.iv\" }\n").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(
            err.message.contains("missing geometry file m/gone.iv"),
            "{err}"
        );
        let err = parse("solid stl\n").unwrap_err();
        assert_eq!(err.line, Some(1));
        let err = parse("#Inventor V2.1 binary\n").unwrap_err();
        assert!(err.message.contains("binary"), "{err}");
        let err = parse("#Inventor V2.1 ascii\nFaceSet { numVertices [ 3 ] }\n").unwrap_err();
        assert!(err.message.contains("no coordinates"), "{err}");
        let err = parse("#Inventor V2.1 ascii\nScale { scaleFactor 1 1 }\n").unwrap_err();
        assert!(err.message.contains("needs 3 numbers"), "{err}");
    }

    #[test]
    fn an_empty_scene_is_an_empty_mesh() {
        assert!(
            parse("#Inventor V2.1 ascii\nSeparator { }\n")
                .unwrap()
                .mesh
                .is_empty()
        );
    }
}
