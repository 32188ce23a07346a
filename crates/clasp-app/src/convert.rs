//! The one place where core types (nalgebra, f64, millimetres) become Bevy types (glam, f32),
//! and back. Both use millimetres and Z up, so nothing is rescaled or swapped.

use bevy::{
    asset::RenderAssetUsages,
    mesh::{Indices, Mesh, PrimitiveTopology},
    prelude::*,
};
use clasp_core::{Pose, TriMesh};

pub fn transform(pose: &Pose) -> Transform {
    let t = pose.translation.vector;
    let q = pose.rotation.quaternion();
    Transform {
        translation: Vec3::new(t.x as f32, t.y as f32, t.z as f32),
        rotation: Quat::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32).normalize(),
        scale: Vec3::ONE,
    }
}

pub fn point(p: &nalgebra::Point3<f64>) -> Vec3 {
    Vec3::new(p.x as f32, p.y as f32, p.z as f32)
}

/// A Bevy point (a ray's origin, say) as a core point.
pub fn core_point(p: Vec3) -> nalgebra::Point3<f64> {
    nalgebra::Point3::new(p.x.into(), p.y.into(), p.z.into())
}

/// A Bevy direction as a core vector.
pub fn core_vector(v: Vec3) -> nalgebra::Vector3<f64> {
    nalgebra::Vector3::new(v.x.into(), v.y.into(), v.z.into())
}

/// A Bevy rotation as a core one.
pub fn core_rotation(q: Quat) -> nalgebra::UnitQuaternion<f64> {
    nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
        q.w.into(),
        q.x.into(),
        q.y.into(),
        q.z.into(),
    ))
}

/// Faces meeting at more than this angle keep a hard edge; gentler ones are shaded smooth.
const CREASE_ANGLE_DEGREES: f32 = 40.0;

/// A render mesh for a collision mesh: each triangle corner gets the average normal of the
/// faces around its vertex that bend less than the crease angle from its own face.
pub fn render_mesh(mesh: &TriMesh) -> Mesh {
    let points: Vec<Vec3> = mesh.vertices().iter().map(point).collect();
    let face_normals: Vec<Vec3> = mesh
        .triangles()
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| points[i as usize]);
            (b - a).cross(c - a).normalize_or_zero()
        })
        .collect();
    let mut faces_at_vertex = vec![Vec::new(); points.len()];
    for (f, tri) in mesh.triangles().iter().enumerate() {
        for &v in tri {
            faces_at_vertex[v as usize].push(f);
        }
    }
    let min_cos = CREASE_ANGLE_DEGREES.to_radians().cos();
    let mut positions = Vec::with_capacity(mesh.triangles().len() * 3);
    let mut normals = Vec::with_capacity(positions.capacity());
    for (f, tri) in mesh.triangles().iter().enumerate() {
        let own = face_normals[f];
        for &v in tri {
            let smooth: Vec3 = faces_at_vertex[v as usize]
                .iter()
                .map(|&g| face_normals[g])
                .filter(|n| n.dot(own) >= min_cos)
                .sum();
            positions.push(points[v as usize].to_array());
            normals.push(smooth.try_normalize().unwrap_or(own).to_array());
        }
    }
    let indices = (0..positions.len() as u32).collect();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_indices(Indices::U32(indices))
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Translation3, UnitQuaternion, Vector3};

    use super::*;

    #[test]
    fn poses_become_equal_transforms() {
        let pose = Pose::from_parts(
            Translation3::new(1.0, 2.0, 3.0),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.5),
        );
        let p = Point3::new(4.0, -5.0, 6.0);
        let expected = point(&(pose * p));
        let got = transform(&pose).transform_point(point(&p));
        assert!(got.distance(expected) < 1e-5, "{got} vs {expected}");
    }

    #[test]
    fn sharp_edges_stay_hard() {
        let v = |x, y, z| Point3::new(x, y, z);
        let vertices = vec![v(0., 0., 0.), v(1., 0., 0.), v(0., 1., 0.), v(0., 0., 1.)];
        let tet = TriMesh::new(vertices, vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]).unwrap();
        let mesh = render_mesh(&tet);
        let normals = mesh
            .attribute(Mesh::ATTRIBUTE_NORMAL)
            .unwrap()
            .as_float3()
            .unwrap();
        // Every tetrahedron edge is sharper than the crease angle: each corner has its face's normal.
        assert_eq!(normals[0], [0.0, 0.0, -1.0]);
        assert_eq!(normals.len(), 12);
    }
}
