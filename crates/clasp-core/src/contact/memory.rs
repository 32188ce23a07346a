//! What a dynamics step keeps for the next: the engine's contacts between each pair it
//! searched, with the poses and geometry they were found at (used again while neither body
//! moved), and the impulse it applied at each contact, by the contact's identity: the next
//! step starts the same contact from it (warm start: a resting stack settles in a few sweeps
//! instead of hundreds).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use nalgebra::{Point3, Vector3};

use clasp_collide::{CollisionEngine, Geometry};

use crate::{
    contact::{Contact, filter::Part},
    ids::BodyId,
    pose::Pose,
};

/// A contact a step solved, as the next step knows it again: by its pair, the feature that
/// touches — where it lies on each body, in the body's own frame (a vertex touching a face
/// stays at the same point of its own body however both move; only the face's point slides)
/// — and the triangle of each body it lies on (the engine may name another triangle round the
/// same vertex from one step to the next).
#[derive(Debug, Clone)]
pub(crate) struct Pushed {
    /// Its triangle on each body.
    pub triangles: (usize, usize),
    /// Where it lay on each body, in the body's own frame.
    pub local: (Point3<f64>, Point3<f64>),
    /// From B on A, world frame.
    pub impulse: Vector3<f64>,
}

impl Pushed {
    /// How well it answers to a contact with these triangles at these points: its triangles
    /// first, then how near the nearer of its two points lies.
    fn unlikeness(
        &self,
        triangles: (usize, usize),
        local: &(Point3<f64>, Point3<f64>),
    ) -> (bool, f64) {
        let apart = (self.local.0 - local.0)
            .norm()
            .min((self.local.1 - local.1).norm());
        (self.triangles != triangles, apart)
    }
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

/// A contact is the same as last step's where one of its points lies this close (mm, in its
/// body's own frame) to where that one's lay: a step slides a contact micrometres.
const SAME_PLACE: f64 = 0.5;

#[derive(Debug, Clone, Default)]
pub(crate) struct StepMemory {
    found: HashMap<(BodyId, BodyId), Found>,
    /// By pair (A first).
    pub pushed: HashMap<(BodyId, BodyId), Vec<Pushed>>,
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

    /// The impulse (from B on A, world frame) the last step applied at contact `c` (A's side)
    /// lying at `local` on each body, if the step had it.
    pub fn impulse_of(
        &self,
        c: &Contact,
        local: &(Point3<f64>, Point3<f64>),
    ) -> Option<Vector3<f64>> {
        let triangles = (c.triangle, c.other_triangle);
        self.pushed
            .get(&(c.body, c.other))?
            .iter()
            .map(|p| (p.unlikeness(triangles, local), p.impulse))
            .filter(|((_, apart), _)| *apart < SAME_PLACE)
            .min_by(|x, y| x.0.0.cmp(&y.0.0).then(x.0.1.total_cmp(&y.0.1)))
            .map(|(_, impulse)| impulse)
    }
}
