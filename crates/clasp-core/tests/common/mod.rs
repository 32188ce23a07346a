//! What several clasp-core test files share.

use clasp_collide::{CollisionEngine, Placed, ReferenceEngine};
use clasp_core::Body;

/// The gap between two bodies by the brute-force reference engine; `None` when they
/// interpenetrate.
pub fn reference_distance(a: &Body, b: &Body) -> Option<f64> {
    ReferenceEngine
        .distance(
            Placed::new(&a.geometry(), a.pose()),
            Placed::new(&b.geometry(), b.pose()),
        )
        .ok()
        .map(|s| s.distance)
}
