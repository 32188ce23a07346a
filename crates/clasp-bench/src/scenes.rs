//! The benchmark's meshes and poses (collision-benchmark.md §5.3): closed objects at four
//! sizes, a capsule finger link, and link poses at set gaps from sites on each object, found by
//! moving the link along the line of its closest points until the distance is the target.

use std::sync::Arc;

use clasp_collide::{
    CollisionEngine, FastEngine, Geometry, Placed, TriMesh,
    shapes::{bumpy_sphere, capsule, gentle_bumps, subdivided_box, torus},
};
use clasp_random::SplitMix64;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

/// Random scenes from Clasp's one seeded generator: the same scenes on every run.
#[derive(Clone)]
pub struct Random(SplitMix64);

impl Random {
    pub fn new(seed: u64) -> Self {
        Random(SplitMix64::new(seed))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    pub fn unit(&mut self) -> f64 {
        self.0.unit()
    }

    pub fn rotation(&mut self) -> UnitQuaternion<f64> {
        let axis = Vector3::new(self.unit() - 0.5, self.unit() - 0.5, self.unit() - 0.5);
        UnitQuaternion::from_scaled_axis(axis.normalize() * (0.3 + 2.5 * self.unit()))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Torus,
    Blob,
    FlatBox,
}

impl Shape {
    pub const ALL: [Shape; 3] = [Shape::Torus, Shape::Blob, Shape::FlatBox];

    pub fn name(self) -> &'static str {
        match self {
            Shape::Torus => "torus",
            Shape::Blob => "blob",
            Shape::FlatBox => "box",
        }
    }

    /// The mesh nearest `size` triangles (1k, 10k, 100k, 1M classes).
    pub fn mesh(self, size: usize) -> Option<TriMesh> {
        let mesh = match (self, size) {
            (Shape::Torus, 1_000) => torus(40.0, 15.0, 32, 16),
            (Shape::Torus, 10_000) => torus(40.0, 15.0, 100, 50),
            (Shape::Torus, 100_000) => torus(40.0, 15.0, 316, 158),
            (Shape::Torus, 1_000_000) => torus(40.0, 15.0, 1000, 500),
            (Shape::Blob, 1_000) => bumpy_sphere(50.0, 3, gentle_bumps(3.0)),
            (Shape::Blob, 10_000) => bumpy_sphere(50.0, 5, gentle_bumps(3.0)),
            (Shape::Blob, 100_000) => bumpy_sphere(50.0, 6, gentle_bumps(3.0)),
            (Shape::Blob, 1_000_000) => bumpy_sphere(50.0, 8, gentle_bumps(3.0)),
            (Shape::FlatBox, 1_000) => subdivided_box(BOX_LO, BOX_HI, 9),
            (Shape::FlatBox, 10_000) => subdivided_box(BOX_LO, BOX_HI, 29),
            (Shape::FlatBox, 100_000) => subdivided_box(BOX_LO, BOX_HI, 91),
            _ => return None,
        };
        Some(mesh)
    }

    /// A point well inside the object, for the "fully inside" configuration.
    pub fn inside(self) -> Point3<f64> {
        match self {
            Shape::Torus => Point3::new(40.0, 0.0, 0.0),
            Shape::Blob | Shape::FlatBox => Point3::origin(),
        }
    }
}

const BOX_LO: [f64; 3] = [-40.0, -30.0, -20.0];
const BOX_HI: [f64; 3] = [40.0, 30.0, 20.0];

/// A finger segment: a capsule 30 mm long, 9 mm in radius, about 1.5k triangles.
pub fn finger_link() -> TriMesh {
    capsule(9.0, 30.0, 40)
}

/// A small link that fits inside every object.
pub fn small_link() -> TriMesh {
    capsule(3.0, 5.0, 16)
}

/// One configuration of the link against the object.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Config {
    /// Separated by this many millimetres.
    Gap(f64),
    /// Pushed this far into the object.
    Penetrating(f64),
    Inside,
}

impl Config {
    pub fn name(self) -> String {
        match self {
            Config::Gap(g) => format!("gap {g}"),
            Config::Penetrating(d) => format!("pen {d}"),
            Config::Inside => "inside".into(),
        }
    }

    pub const MATRIX: [Config; 5] = [
        Config::Gap(0.05),
        Config::Gap(1.0),
        Config::Penetrating(0.5),
        Config::Gap(10.0),
        Config::Inside,
    ];
}

/// A site on the object's surface: a point and the outward normal there.
#[derive(Debug, Clone, Copy)]
pub struct Site {
    pub point: Point3<f64>,
    pub normal: Vector3<f64>,
}

/// `count` sites at the centroids of random triangles, away from the poles of the axes (a
/// contact at a bounding-box extreme flatters every AABB tree).
pub fn sites(mesh: &TriMesh, count: usize, rng: &mut Random) -> Vec<Site> {
    let mut out = Vec::new();
    while out.len() < count {
        let t = (rng.next() % mesh.triangles().len() as u64) as usize;
        let [a, b, c] = mesh.triangle_points(t);
        let normal = mesh.triangle_normal(t);
        if normal.amax() > 0.9 && rng.unit() < 0.8 {
            continue;
        }
        out.push(Site {
            point: Point3::from((a.coords + b.coords + c.coords) / 3.0),
            normal,
        });
    }
    out
}

/// The link's pose for a configuration at a site: turned at random, then moved along the line
/// of the closest points until the gap is the target within 1e-6 mm.
pub fn place(
    object: &Geometry,
    link: &Geometry,
    site: &Site,
    config: Config,
    rng: &mut Random,
) -> Isometry3<f64> {
    let rotation = rng.rotation();
    let object_at = Placed::new(object, Isometry3::identity());
    let start = site.point + site.normal * 60.0;
    let mut pose = Isometry3::from_parts(Translation3::from(start.coords), rotation);
    let target = match config {
        Config::Gap(g) => g,
        Config::Penetrating(_) => 0.05,
        Config::Inside => unreachable!("inside poses are not placed at sites"),
    };
    for _ in 0..60 {
        let Ok(s) = FastEngine.distance(object_at, Placed::new(link, pose)) else {
            break;
        };
        if (s.distance - target).abs() < 1e-6 {
            break;
        }
        // Move the link towards the object along the line joining the closest points.
        let towards = (s.point_a - pose * s.point_b) / s.distance;
        pose = Translation3::from(towards * (s.distance - target)) * pose;
    }
    if let Config::Penetrating(depth) = config {
        pose = Translation3::from(-site.normal * (depth + 0.05)) * pose;
    }
    pose
}

/// The small link's pose well inside the object.
pub fn inside_pose(shape: Shape, rng: &mut Random) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(shape.inside().coords), rng.rotation())
}

/// A 20-link hand at a grasp: four fingertips 0.05 mm from the object at four sites, the other
/// sixteen links (palm and finger segments) open, 5–40 mm away.
pub fn grasp(object: &Geometry, rng: &mut Random) -> Vec<(Arc<Geometry>, Isometry3<f64>)> {
    let link = Arc::new(Geometry::new(finger_link()));
    let palm = Arc::new(Geometry::new(subdivided_box(
        [-45.0, -40.0, -12.5],
        [45.0, 40.0, 12.5],
        18,
    )));
    let all_sites = sites(object.mesh(), 20, rng);
    let mut hand = Vec::new();
    for (k, site) in all_sites.iter().enumerate() {
        let gap = if k < 4 { 0.05 } else { 5.0 + 2.0 * k as f64 };
        let geometry = if k == 19 { palm.clone() } else { link.clone() };
        let pose = place(object, &geometry, site, Config::Gap(gap), rng);
        hand.push((geometry, pose));
    }
    hand
}

/// A sphere of radius 40 mm about the origin: a finely subdivided cube (`cells` a side) with
/// every vertex pushed out onto the sphere, so the triangles are of much the same size
/// everywhere; 12·cells² triangles.
pub fn sphere_mesh(cells: usize) -> TriMesh {
    let cube = subdivided_box([-1.0; 3], [1.0; 3], cells);
    let vertices = cube
        .vertices()
        .iter()
        .map(|v| Point3::from(v.coords.normalize() * 40.0))
        .collect();
    TriMesh::new(vertices, cube.triangles().to_vec()).expect("a cube's triangles on a sphere")
}
