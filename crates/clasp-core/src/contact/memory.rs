//! What a dynamics step keeps for the next: the engine's contacts between each pair it searched, with
//! the poses and geometry they were found at, and the impulses it applied. A step finds the
//! contacts once, after its moves; the next step's solve uses them again while nothing has
//! moved (a user's drag between steps changes a pose, and that pair is searched again), and
//! starts each contact from the impulse it had (warm start: a resting stack settles in a few
//! sweeps instead of hundreds).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use nalgebra::{Point3, Vector3};

use clasp_collide::{CollisionEngine, Geometry};

use crate::{contact::filter::Part, ids::BodyId, pose::Pose};

/// A contact a step solved, as the next one looks for it.
#[derive(Debug, Clone)]
pub(crate) struct Pushed {
    pub body: BodyId,
    pub other: BodyId,
    /// On A (the pair's smaller id), world frame.
    pub point: Point3<f64>,
    /// From B on A, world frame.
    pub impulse: Vector3<f64>,
}

/// A pair's search: where both stood, what they were, the threshold, what the engine found.
#[derive(Debug, Clone)]
struct Found {
    poses: (Pose, Pose),
    geometry: (Arc<Geometry>, Arc<Geometry>),
    threshold: f64,
    /// `None` where the two interpenetrate.
    contacts: Option<Vec<clasp_collide::Contact>>,
}

/// A warm start's contact must lie this close (mm) to the one solved the step before.
const SAME_CONTACT: f64 = 0.5;

#[derive(Debug, Clone, Default)]
pub(crate) struct StepMemory {
    found: HashMap<(BodyId, BodyId), Found>,
    pub pushed: Vec<Pushed>,
}

impl StepMemory {
    /// What the engine finds between `a` and `b` (A first) within `threshold`, `None` where
    /// they interpenetrate: remembered if neither moved nor changed since, else searched and
    /// remembered.
    pub fn contacts(
        &mut self,
        engine: &dyn CollisionEngine,
        (a, b): (Part, Part),
        threshold: f64,
    ) -> Option<&[clasp_collide::Contact]> {
        let same = |f: &Found| {
            f.poses == (a.body.pose, b.body.pose)
                && Arc::ptr_eq(&f.geometry.0, &a.body.geometry)
                && Arc::ptr_eq(&f.geometry.1, &b.body.geometry)
                && f.threshold == threshold
        };
        let key = (a.id, b.id);
        if !self.found.get(&key).is_some_and(same) {
            let contacts = engine.contacts(a.placed(), b.placed(), threshold).ok();
            let found = Found {
                poses: (a.body.pose, b.body.pose),
                geometry: (a.body.geometry.clone(), b.body.geometry.clone()),
                threshold,
                contacts,
            };
            self.found.insert(key, found);
        }
        self.found[&key].contacts.as_deref()
    }

    /// Forgets every pair but these (those of the step just taken).
    pub fn keep_only(&mut self, pairs: &HashSet<(BodyId, BodyId)>) {
        self.found.retain(|key, _| pairs.contains(key));
    }

    /// The impulse (from B on A, world frame) the last step applied at a contact of this pair
    /// near `point` on A, if any.
    pub fn impulse_near(
        &self,
        body: BodyId,
        other: BodyId,
        point: &Point3<f64>,
    ) -> Option<Vector3<f64>> {
        self.pushed
            .iter()
            .filter(|p| p.body == body && p.other == other)
            .map(|p| ((p.point - point).norm(), p.impulse))
            .filter(|(distance, _)| *distance < SAME_CONTACT)
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, impulse)| impulse)
    }
}
