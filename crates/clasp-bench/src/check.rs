//! The correctness gate before timing: our fast engine's answers against the brute-force
//! reference, on a window of the object around the link (every triangle that can matter), and
//! against what the configuration must give.

use clasp_collide::{
    CollisionEngine, DEFAULT_CONTACT_THRESHOLD, FastEngine, Geometry, Placed, ReferenceEngine,
    TriMesh,
};
use nalgebra::{Isometry3, Point3};

use crate::scenes::Config;

#[derive(Default)]
pub struct Checks {
    pub passed: usize,
    pub failed: usize,
    pub failures: Vec<String>,
}

impl Checks {
    pub fn expect(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if ok {
            self.passed += 1;
        } else {
            let message = what();
            eprintln!("FAILED: {message}");
            self.failures.push(message);
            self.failed += 1;
        }
    }

    /// Checks collide, distance and contacts of the link at `pose` against the object.
    pub fn pair(
        &mut self,
        object: &Geometry,
        link: &Geometry,
        pose: &Isometry3<f64>,
        config: Config,
        label: &str,
    ) {
        let link_at = Placed::new(link, *pose);
        let object_at = Placed::new(object, Isometry3::identity());
        let collide = FastEngine.collide(link_at, object_at);
        let expected = !matches!(config, Config::Gap(_));
        self.expect(collide == expected, || {
            format!("{label}: collide {collide}, the configuration says {expected}")
        });
        let distance = FastEngine.distance(link_at, object_at);
        if let (Config::Gap(g), Ok(s)) = (config, &distance) {
            self.expect((s.distance - g).abs() < 1e-5, || {
                format!("{label}: placed at {} not {g}", s.distance)
            });
        }
        // The reference sees the object whole when the link may be inside it, else a window.
        let reach = distance.map_or(0.0, |s| s.distance) + DEFAULT_CONTACT_THRESHOLD + 1.0;
        let (window, kept) = if config == Config::Inside {
            (
                object.clone(),
                (0..object.mesh().triangles().len()).collect(),
            )
        } else {
            window(object.mesh(), link_at, reach)
        };
        let window_at = Placed::new(&window, Isometry3::identity());
        let reference = ReferenceEngine;
        self.expect(reference.collide(link_at, window_at) == collide, || {
            format!("{label}: collide differs from the reference")
        });
        let reference_distance = reference.distance(link_at, window_at);
        let agree = match (&distance, &reference_distance) {
            (Ok(f), Ok(r)) => (f.distance - r.distance).abs() <= 1e-6 * r.distance + 1e-9,
            (Err(_), Err(_)) => true,
            _ => false,
        };
        self.expect(agree, || {
            format!("{label}: distance {distance:?} vs reference {reference_distance:?}")
        });
        let pairs = |found: Result<Vec<clasp_collide::MeshContact>, _>,
                     map: &dyn Fn(usize) -> usize| {
            found.map(|cs| {
                let mut p: Vec<(usize, usize)> = cs
                    .iter()
                    .map(|c| (c.triangle_a, map(c.triangle_b)))
                    .collect();
                p.sort();
                p.dedup();
                p
            })
        };
        let ours = pairs(
            FastEngine.contacts(link_at, object_at, DEFAULT_CONTACT_THRESHOLD),
            &|t| t,
        );
        let theirs = pairs(
            reference.contacts(link_at, window_at, DEFAULT_CONTACT_THRESHOLD),
            &|t| kept[t],
        );
        self.expect(ours == theirs, || {
            format!("{label}: contact pairs differ from the reference")
        });
        if config == Config::Gap(0.05) {
            self.expect(ours.as_ref().is_ok_and(|p| !p.is_empty()), || {
                format!("{label}: no contacts at 0.05 mm")
            });
        }
    }
}

/// The object's triangles whose bounding boxes come within `reach` of the link's, as a mesh,
/// with the index each had in the object.
fn window(object: &TriMesh, link: Placed, reach: f64) -> (Geometry, Vec<usize>) {
    let corners: Vec<Point3<f64>> = link
        .mesh()
        .vertices()
        .iter()
        .map(|v| link.pose * v)
        .collect();
    let (mut lo, mut hi) = (corners[0], corners[0]);
    for c in &corners {
        lo = lo.inf(c);
        hi = hi.sup(c);
    }
    let near = |t: usize| {
        let p = object.triangle_points(t);
        (0..3).all(|k| {
            let (a, b) = (
                p.iter().map(|q| q[k]).fold(f64::INFINITY, f64::min),
                p.iter().map(|q| q[k]).fold(f64::NEG_INFINITY, f64::max),
            );
            b >= lo[k] - reach && a <= hi[k] + reach
        })
    };
    let kept: Vec<usize> = (0..object.triangles().len()).filter(|&t| near(t)).collect();
    let triangles = kept.iter().map(|&t| object.triangles()[t]).collect();
    let mesh =
        TriMesh::new(object.vertices().to_vec(), triangles).expect("a window of a valid mesh");
    (Geometry::new(mesh), kept)
}
