//! The nodes that make triangles: face sets and triangle strips, plain or indexed, over the
//! coordinates in force, and the primitives, tessellated as Coin does; each in world
//! coordinates, turned back outward where its transform mirrors it.

use nalgebra::{Matrix4, Point3};

use super::{
    State, Walker,
    tree::{Node, Value},
};
use crate::{
    error::LoadError,
    primitives::{self, Parts, Triangle},
};

impl<'t> Walker<'t, '_, '_> {
    /// Shapes that make triangles; anything else is ignored.
    pub(super) fn shape(&mut self, node: &'t Node, state: &State<'t>) -> Result<(), LoadError> {
        match node.kind.as_str() {
            "FaceSet" => self.face_set(node, state, false),
            "TriangleStripSet" => self.face_set(node, state, true),
            "IndexedFaceSet" => self.indexed(node, state, false),
            "IndexedTriangleStripSet" => self.indexed(node, state, true),
            "Cube" | "Box" | "Sphere" | "Cylinder" | "Cone" => {
                let triangles = self.primitive(node)?;
                self.emit(&triangles, &state.matrix, node.line)
            }
            _ => Ok(()),
        }
    }

    /// A VRML 2 Shape: the colour of its appearance and the triangles of its geometry.
    pub(super) fn vrml_shape(
        &mut self,
        node: &'t Node,
        state: &State<'t>,
    ) -> Result<(), LoadError> {
        if let Some(appearance) = self.node_field(node, "appearance")
            && let Some(material) = self.node_field(appearance, "material")
        {
            self.material(material, "diffuseColor")?;
        }
        let Some(geometry) = self.node_field(node, "geometry") else {
            return Ok(());
        };
        let mut inner = *state;
        if let Some(coord) = self.node_field(geometry, "coord") {
            inner.coords = self.points(coord, "point")?;
        }
        self.shape(geometry, &inner)
    }

    fn node_field(&self, node: &Node, name: &str) -> Option<&'t Node> {
        match node.field(name).map(|f| &f.value) {
            Some(Value::Nodes(nodes)) => nodes.first().map(|&id| &self.tree.nodes[id]),
            _ => None,
        }
    }

    /// The coordinates a shape uses: its own `vertexProperty`, else the current ones.
    fn coordinates(&self, node: &'t Node, state: &State<'t>) -> Result<&'t [f64], LoadError> {
        if let Some(property) = self.node_field(node, "vertexProperty")
            && let Some(points) = self.points(property, "vertex")?
        {
            return Ok(points);
        }
        state.coords.ok_or_else(|| {
            self.error(
                node.line,
                format!("{} has no coordinates before it", node.kind),
            )
        })
    }

    /// Non-indexed faces (or strips): `numVertices` consecutive points each, from `startIndex`.
    fn face_set(
        &mut self,
        node: &'t Node,
        state: &State<'t>,
        strips: bool,
    ) -> Result<(), LoadError> {
        let coords = self.coordinates(node, state)?;
        let total = coords.len() / 3;
        let mut next = self.scalar(node, "startIndex")?.unwrap_or(0.0).max(0.0) as usize;
        let counts = self.numbers(node, "numVertices")?.unwrap_or(&[-1.0]);
        let mut corners = Vec::new();
        for &count in counts {
            let count = if count < 0.0 {
                total.saturating_sub(next)
            } else {
                count as usize
            };
            if next.saturating_add(count) > total {
                return Err(self.error(
                    node.line,
                    format!(
                        "{} needs vertices {}..{} but only {total} coordinates are there",
                        node.kind,
                        next,
                        next.saturating_add(count)
                    ),
                ));
            }
            corners.clear();
            corners.extend((next..next + count).map(|i| i as u32));
            self.polygon(&corners, coords, &state.matrix, strips, node.line)?;
            next += count;
        }
        Ok(())
    }

    /// Indexed faces (or strips) separated by −1 in `coordIndex`.
    fn indexed(
        &mut self,
        node: &'t Node,
        state: &State<'t>,
        strips: bool,
    ) -> Result<(), LoadError> {
        let coords = self.coordinates(node, state)?;
        let total = coords.len() / 3;
        let line = node.field("coordIndex").map_or(node.line, |f| f.line);
        let indices = self.numbers(node, "coordIndex")?.unwrap_or(&[]);
        let mut corners = Vec::new();
        for &index in indices.iter().chain([-1.0].iter()) {
            if index == -1.0 {
                self.polygon(&corners, coords, &state.matrix, strips, line)?;
                corners.clear();
            } else if index >= 0.0 && index.fract() == 0.0 && (index as usize) < total {
                corners.push(index as u32);
            } else {
                return Err(self.error(
                    line,
                    format!("coordIndex {index} is not a coordinate number below {total} (or -1)"),
                ));
            }
        }
        Ok(())
    }

    /// One face as a fan, or one strip with alternating orientation, in world coordinates.
    fn polygon(
        &mut self,
        corners: &[u32],
        coords: &[f64],
        matrix: &Matrix4<f64>,
        strip: bool,
        line: usize,
    ) -> Result<(), LoadError> {
        if corners.len() < 3 {
            return Ok(());
        }
        let mut ids = Vec::with_capacity(corners.len());
        for &c in corners {
            let i = c as usize * 3;
            let local = Point3::new(coords[i], coords[i + 1], coords[i + 2]);
            ids.push(self.vertex(matrix, local, line)?);
        }
        let flip = mirrors(matrix);
        for k in 0..ids.len() - 2 {
            let triangle = match (strip, k % 2) {
                (true, 0) => [ids[k], ids[k + 1], ids[k + 2]],
                (true, _) => [ids[k + 1], ids[k], ids[k + 2]],
                (false, _) => [ids[0], ids[k + 1], ids[k + 2]],
            };
            self.triangle(triangle, flip);
        }
        Ok(())
    }

    fn vertex(
        &mut self,
        matrix: &Matrix4<f64>,
        local: Point3<f64>,
        line: usize,
    ) -> Result<u32, LoadError> {
        let p = matrix.transform_point(&local);
        if !p.coords.iter().all(|c| c.is_finite()) {
            return Err(self.error(
                line,
                "a vertex is not finite after its transforms (a zero scale or a bad matrix?)",
            ));
        }
        Ok(self.reader.builder.vertex(p))
    }

    fn emit(
        &mut self,
        triangles: &[Triangle],
        matrix: &Matrix4<f64>,
        line: usize,
    ) -> Result<(), LoadError> {
        let flip = mirrors(matrix);
        for t in triangles {
            let mut ids = [0; 3];
            for (id, &p) in ids.iter_mut().zip(t) {
                *id = self.vertex(matrix, p, line)?;
            }
            self.triangle(ids, flip);
        }
        Ok(())
    }

    /// Adds a triangle, turned back outward when its transform mirrors it.
    fn triangle(&mut self, mut corners: [u32; 3], flip: bool) {
        if flip {
            corners.swap(1, 2);
        }
        self.reader.builder.triangle(corners);
    }

    fn primitive(&self, node: &'t Node) -> Result<Vec<Triangle>, LoadError> {
        let scalar = |name: &str, default: f64| -> Result<f64, LoadError> {
            let value = self.scalar(node, name)?.unwrap_or(default);
            if value < 0.0 {
                return Err(self.error(
                    node.line,
                    format!("{} {name} {value} is negative", node.kind),
                ));
            }
            Ok(value)
        };
        let parts = self.parts(node)?;
        Ok(match node.kind.as_str() {
            "Cube" => primitives::cube(
                scalar("width", 2.0)?,
                scalar("height", 2.0)?,
                scalar("depth", 2.0)?,
            ),
            "Box" => {
                let [x, y, z] = self.fixed::<3>(node, "size")?.unwrap_or([2.0; 3]);
                primitives::cube(x.abs(), y.abs(), z.abs())
            }
            "Sphere" => primitives::sphere(scalar("radius", 1.0)?),
            "Cylinder" => {
                primitives::cylinder(scalar("radius", 1.0)?, scalar("height", 2.0)?, parts)
            }
            _ => primitives::cone(scalar("bottomRadius", 1.0)?, scalar("height", 2.0)?, parts),
        })
    }

    /// Inventor's `parts` mask, or VRML 2's `side`, `top` and `bottom` switches.
    fn parts(&self, node: &'t Node) -> Result<Parts, LoadError> {
        if let Some(Value::Word(mask)) = node.field("parts").map(|f| &f.value) {
            return Ok(Parts::from_mask(mask));
        }
        let switch = |name: &str| match node.field(name).map(|f| &f.value) {
            Some(Value::Word(w)) => w != "FALSE",
            _ => true,
        };
        Ok(Parts {
            sides: switch("side"),
            top: switch("top"),
            bottom: switch("bottom"),
        })
    }
}

/// Whether a transform mirrors (its linear part has a negative determinant).
fn mirrors(matrix: &Matrix4<f64>) -> bool {
    matrix.fixed_view::<3, 3>(0, 0).determinant() < 0.0
}
