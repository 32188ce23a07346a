//! parry3d 0.31 on the same meshes and poses: its fair counterparts of our queries
//! (collision-benchmark.md §5.4), each run in both argument orders.

use clasp_collide::TriMesh as OurMesh;
use nalgebra::Isometry3;
use parry3d::math::{Pose, Vector};
use parry3d::query::{self, ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d::shape::TriMesh;

pub struct ParryMesh(pub TriMesh);

impl ParryMesh {
    pub fn new(mesh: &OurMesh) -> Self {
        let vertices = mesh
            .vertices()
            .iter()
            .map(|p| Vector::new(p.x as f32, p.y as f32, p.z as f32))
            .collect();
        Self(TriMesh::new(vertices, mesh.triangles().to_vec()).expect("a valid mesh"))
    }

    pub fn memory_bytes(&self) -> usize {
        self.0.bvh().total_memory_size()
    }
}

pub fn pose(p: &Isometry3<f64>) -> Pose {
    let t = p.translation.vector;
    let q = p.rotation.coords;
    Pose::from_parts(
        parry3d::math::Vec3::new(t.x as f32, t.y as f32, t.z as f32),
        parry3d::math::Rot3::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32),
    )
}

pub fn intersect(a: &ParryMesh, pa: &Pose, b: &ParryMesh, pb: &Pose) -> bool {
    query::intersection_test(pa, &a.0, pb, &b.0)
        .expect("supported")
        .intersecting
}

pub fn distance(a: &ParryMesh, pa: &Pose, b: &ParryMesh, pb: &Pose) -> f64 {
    query::distance(pa, &a.0, pb, &b.0)
        .expect("supported")
        .distance as f64
}

/// All contact points within `prediction`, stateless (a fresh workspace each call).
pub fn contacts(a: &ParryMesh, pa: &Pose, b: &ParryMesh, pb: &Pose, prediction: f64) -> usize {
    let pos12 = pa.inv_mul(pb);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    DefaultQueryDispatcher
        .contact_manifolds(
            &pos12,
            &a.0,
            &b.0,
            prediction as f32,
            &mut manifolds,
            &mut workspace,
        )
        .expect("supported");
    manifolds.iter().map(|m| m.points.len()).sum()
}
