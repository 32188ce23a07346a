//! The object's closest points on a grid, for the planner's energies (issue 55, item 3): a
//! virtual contact's way to the object read from the eight grid nodes round it instead of a
//! walk of the object's tree. Each node asks the collision engine for its exact closest point
//! the first time a contact comes near it, so only the shell the hand explores is ever filled.
//! Whether the hand touches anything is still decided by the engine, exactly.

use std::sync::OnceLock;

use clasp_collide::{CollisionEngine, Geometry, Placed};
use nalgebra::{Point3, Vector3};

use crate::pose::Pose;

/// How far beyond the object's bounding box the grid reaches (mm): the potential quality
/// counts contacts within 50 mm, and states whose contacts are farther are far from grasps.
const MARGIN: f64 = 50.0;

/// Cells across the object's bounding ball's radius: 3.6 mm cells for a torus 80 mm across,
/// read within 0.62 mm of the exact distance (the test below). Measured before cells the
/// surface may cross were read exactly: 32 cells 0.40 mm, but filling the nodes then cost
/// more than the engine's queries saved on GraspIt's objects; 16 cells 0.94 mm; 8 cells 2.8 mm.
const CELLS_PER_RADIUS: f64 = 16.0;

/// Objects of fewer triangles are asked exactly: the engine's walk is short there, and the
/// grid gained nothing (GraspIt's phone and book, boxes of tens of triangles: 4–7 % fewer
/// states a second with it; its mug, glass and flask, thousands: 19–28 % more).
const FEWEST_TRIANGLES: usize = 256;

/// The object's closest points at the nodes of a regular grid in its own frame.
pub struct DistanceGrid {
    /// The first node (the box's low corner less the margin), object frame.
    low: Point3<f64>,
    cell: f64,
    /// Nodes along x, y and z.
    counts: [usize; 3],
    /// Each node's way to the object's closest point, found on first use.
    ways: Vec<OnceLock<[f32; 3]>>,
}

impl DistanceGrid {
    /// An empty grid round `geometry`'s bounding box (object frame), of cells a
    /// [`CELLS_PER_RADIUS`]th of half the box's diagonal (the planner's radius of the object).
    pub fn new(geometry: &Geometry) -> Self {
        let (lo, hi) = geometry.mesh().bounding_box();
        let radius = (hi - lo).norm() / 2.0;
        let cell = (radius / CELLS_PER_RADIUS).max(0.5);
        let low = lo - Vector3::repeat(MARGIN);
        let span = hi - lo + Vector3::repeat(2.0 * MARGIN);
        let counts = [0, 1, 2].map(|a| (span[a] / cell).ceil() as usize + 1);
        let ways = (0..counts.iter().product())
            .map(|_| OnceLock::new())
            .collect();
        DistanceGrid {
            low,
            cell,
            counts,
            ways,
        }
    }

    /// Whether a grid pays for `geometry` ([`FEWEST_TRIANGLES`]).
    pub fn pays_for(geometry: &Geometry) -> bool {
        geometry.mesh().triangles().len() >= FEWEST_TRIANGLES
    }

    /// The way from `point` (object frame) to the object's closest point, read from the grid:
    /// its length the eight nodes' distances interpolated, its direction their ways
    /// interpolated. `None` outside the grid, or where the nodes' ways cancel (a point midway
    /// between two sides): there the caller asks the engine.
    pub fn way(
        &self,
        engine: &dyn CollisionEngine,
        geometry: &Geometry,
        point: &Point3<f64>,
    ) -> Option<Vector3<f64>> {
        let at = (point - self.low) / self.cell;
        let mut base = [0; 3];
        let mut t = [0.0; 3];
        for a in 0..3 {
            let cell = at[a].floor();
            if !(cell >= 0.0 && cell + 1.0 < self.counts[a] as f64) {
                return None;
            }
            base[a] = cell as usize;
            t[a] = at[a] - cell;
        }
        let (mut distance, mut way, mut nearest) = (0.0, Vector3::zeros(), f64::INFINITY);
        for corner in 0..8 {
            let offset = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1];
            let weight: f64 = (0..3)
                .map(|a| if offset[a] == 1 { t[a] } else { 1.0 - t[a] })
                .product();
            if weight == 0.0 {
                continue;
            }
            let node = [0, 1, 2].map(|a| base[a] + offset[a]);
            let to = self.node_way(engine, geometry, node);
            let length = to.norm();
            nearest = nearest.min(length);
            distance += weight * length;
            way += weight * to;
        }
        // A cell the surface may pass through (a node within its diagonal of it) is read
        // exactly: across a thin wall the nodes' ways point to opposite sides.
        if nearest <= self.cell * 3.0_f64.sqrt() {
            return None;
        }
        let length = way.norm();
        // Ways that mostly cancel give no direction worth trusting.
        (length > 0.5 * distance && length > 0.0).then(|| way * (distance / length))
    }

    fn node_way(
        &self,
        engine: &dyn CollisionEngine,
        geometry: &Geometry,
        node: [usize; 3],
    ) -> Vector3<f64> {
        let index = node[0] + self.counts[0] * (node[1] + self.counts[1] * node[2]);
        let way = self.ways[index].get_or_init(|| {
            let at = self.low + Vector3::from(node.map(|n| n as f64)) * self.cell;
            let near = engine.point_distance(Placed::new(geometry, Pose::identity()), &at);
            (near.closest - at).map(|x| x as f32).into()
        });
        Vector3::from(*way).map(f64::from)
    }
}

#[cfg(test)]
mod tests {
    use clasp_collide::{FastEngine, shapes};
    use clasp_random::SplitMix64;

    use super::*;

    /// Points round a torus (a ring 60 mm across, a tube 20 mm thick: curved everywhere, with a
    /// hole whose centre is equally far from all round it), at most `reach` mm from its surface.
    fn torus_and_points(reach: f64) -> (Geometry, Vec<Point3<f64>>) {
        let geometry = Geometry::new(shapes::torus(30.0, 10.0, 48, 24));
        let engine = FastEngine;
        let mut random = SplitMix64::new(7);
        let mut points = Vec::new();
        while points.len() < 2000 {
            let p = Point3::from([0, 1, 2].map(|_| random.range(-100.0, 100.0)));
            let near = engine.point_distance(Placed::new(&geometry, Pose::identity()), &p);
            if near.distance <= reach {
                points.push(p);
            }
        }
        (geometry, points)
    }

    #[test]
    fn the_grid_reads_the_objects_distance_within_a_fraction_of_a_cell() {
        let (geometry, points) = torus_and_points(MARGIN);
        let engine = FastEngine;
        let grid = DistanceGrid::new(&geometry);
        // A point this far off has every node round it clear of the surface by a diagonal.
        let clear = 2.0 * grid.cell * 3.0_f64.sqrt();
        let (mut worst, mut read, mut astray, mut unread_far) = (0.0_f64, 0, 0, 0);
        for p in &points {
            let exact = engine.point_distance(Placed::new(&geometry, Pose::identity()), p);
            let Some(way) = grid.way(&engine, &geometry, p) else {
                unread_far += usize::from(exact.distance > clear);
                continue;
            };
            read += 1;
            worst = worst.max((way.norm() - exact.distance).abs());
            let towards = way.normalize().dot(&(exact.closest - p).normalize());
            astray += usize::from(exact.distance > 1.0 && towards < 0.95);
        }
        println!(
            "{read} of {} read, worst error {worst:.3} mm, {astray} more than 18 deg astray, cells {:.2} mm",
            points.len(),
            grid.cell
        );
        assert!(
            unread_far <= points.len() / 100,
            "{unread_far} far points unread"
        );
        assert!(worst < 0.3 * grid.cell, "{worst} mm");
        assert!(astray <= points.len() / 100, "{astray} astray");
    }
}
