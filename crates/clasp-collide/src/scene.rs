//! Bodies registered with an engine: their shared geometry, their poses and the collision
//! filter, and the queries over many pairs at once, run in parallel with rayon.

use std::sync::Arc;

use nalgebra::Isometry3;
use rayon::prelude::*;

use crate::{
    BodyFilter, BodyIndex, CollisionEngine, CollisionFilter, Contact, FastEngine, FilterError,
    Geometry, Interpenetrating, Placed, PointDistance, Separation, triangle::Point,
};

/// What the scene refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SceneError {
    #[error("no body {0} is in the collision scene")]
    NoSuchBody(BodyIndex),
    #[error("a pose with a coordinate that is not a finite number")]
    NonFinitePose,
    #[error(transparent)]
    Filter(#[from] FilterError),
}

#[derive(Debug, Clone)]
struct Entry {
    geometry: Arc<Geometry>,
    pose: Isometry3<f64>,
}

/// What a contact query found for one pair.
pub type PairContacts = PairResult<Result<Vec<Contact>, Interpenetrating>>;

/// A pair of bodies and what a query found for it.
#[derive(Debug, Clone, PartialEq)]
pub struct PairResult<T> {
    pub a: BodyIndex,
    pub b: BodyIndex,
    pub result: T,
}

/// The bodies one engine sees. Removing a body leaves its index unused; clones share their
/// original's geometry (mesh and tree) through an `Arc`, so they stay valid when it goes.
#[derive(Debug, Clone, Default)]
pub struct CollisionScene<E = FastEngine> {
    engine: E,
    bodies: Vec<Option<Entry>>,
    filter: CollisionFilter,
}

impl<E: CollisionEngine> CollisionScene<E> {
    pub fn new(engine: E) -> Self {
        Self {
            engine,
            bodies: Vec::new(),
            filter: CollisionFilter::default(),
        }
    }

    pub fn engine(&self) -> &E {
        &self.engine
    }

    pub fn add_body(
        &mut self,
        geometry: Arc<Geometry>,
        pose: Isometry3<f64>,
        settings: BodyFilter,
    ) -> Result<BodyIndex, SceneError> {
        check_pose(&pose)?;
        let index = self.filter.add_body(settings)?;
        self.bodies.push(Some(Entry { geometry, pose }));
        Ok(index)
    }

    /// A new body with the original's geometry, pose and settings, in `domain`: the way a
    /// parallel evaluation gets its own copy of a hand while sharing the rest of the scene.
    pub fn clone_body(
        &mut self,
        original: BodyIndex,
        domain: u32,
    ) -> Result<BodyIndex, SceneError> {
        let entry = self.entry(original)?.clone();
        let settings = BodyFilter {
            domain,
            ..*self.filter.body(original)?
        };
        let index = self.filter.add_body(settings)?;
        self.bodies.push(Some(entry));
        Ok(index)
    }

    pub fn remove_body(&mut self, body: BodyIndex) -> Result<(), SceneError> {
        self.entry(body)?;
        self.filter.set_body_enabled(body, false)?;
        self.bodies[body] = None;
        Ok(())
    }

    pub fn contains(&self, body: BodyIndex) -> bool {
        matches!(self.bodies.get(body), Some(Some(_)))
    }

    pub fn geometry(&self, body: BodyIndex) -> Result<&Arc<Geometry>, SceneError> {
        Ok(&self.entry(body)?.geometry)
    }

    /// Moves a body; a pose with NaN or infinite parts is refused and changes nothing.
    pub fn set_pose(&mut self, body: BodyIndex, pose: Isometry3<f64>) -> Result<(), SceneError> {
        check_pose(&pose)?;
        self.entry_mut(body)?.pose = pose;
        Ok(())
    }

    pub fn pose(&self, body: BodyIndex) -> Result<Isometry3<f64>, SceneError> {
        Ok(self.entry(body)?.pose)
    }

    pub fn filter(&self) -> &CollisionFilter {
        &self.filter
    }

    /// The switches, groups and domains. A removed body stays switched off.
    pub fn filter_mut(&mut self) -> &mut CollisionFilter {
        &mut self.filter
    }

    pub fn placed(&self, body: BodyIndex) -> Result<Placed<'_>, SceneError> {
        let entry = self.entry(body)?;
        Ok(Placed::new(&entry.geometry, entry.pose))
    }

    fn entry(&self, body: BodyIndex) -> Result<&Entry, SceneError> {
        self.bodies
            .get(body)
            .and_then(Option::as_ref)
            .ok_or(SceneError::NoSuchBody(body))
    }

    fn entry_mut(&mut self, body: BodyIndex) -> Result<&mut Entry, SceneError> {
        self.bodies
            .get_mut(body)
            .and_then(Option::as_mut)
            .ok_or(SceneError::NoSuchBody(body))
    }

    /// The pairs an evaluation in `domain` checks (see [`CollisionFilter::should_check_in`]).
    pub fn checked_pairs(&self, domain: u32) -> Vec<(BodyIndex, BodyIndex)> {
        self.filter
            .pairs_in(domain)
            .into_iter()
            .filter(|&(a, b)| self.contains(a) && self.contains(b))
            .collect()
    }

    /// The checked pairs that also involve one of `bodies`: GraspIt's interest list.
    pub fn checked_pairs_involving(
        &self,
        domain: u32,
        bodies: &[BodyIndex],
    ) -> Vec<(BodyIndex, BodyIndex)> {
        let mut pairs = self.checked_pairs(domain);
        pairs.retain(|(a, b)| bodies.contains(a) || bodies.contains(b));
        pairs
    }

    fn placed_pair(
        &self,
        (a, b): (BodyIndex, BodyIndex),
    ) -> Result<(Placed<'_>, Placed<'_>), SceneError> {
        Ok((self.placed(a)?, self.placed(b)?))
    }

    /// Runs `query` on every pair, in parallel, keeping the pairs' order.
    pub fn map_pairs<T: Send>(
        &self,
        pairs: &[(BodyIndex, BodyIndex)],
        query: impl Fn(&E, Placed, Placed) -> T + Sync,
    ) -> Result<Vec<PairResult<T>>, SceneError> {
        let placed: Vec<_> = pairs
            .iter()
            .map(|&pair| self.placed_pair(pair))
            .collect::<Result<_, _>>()?;
        Ok(pairs
            .par_iter()
            .zip(placed.par_iter())
            .map(|(&(a, b), (pa, pb))| PairResult {
                a,
                b,
                result: query(&self.engine, *pa, *pb),
            })
            .collect())
    }

    /// The pairs among `pairs` that interpenetrate.
    pub fn colliding_pairs(
        &self,
        pairs: &[(BodyIndex, BodyIndex)],
    ) -> Result<Vec<(BodyIndex, BodyIndex)>, SceneError> {
        let found = self.map_pairs(pairs, |e, a, b| e.collide(a, b))?;
        Ok(found
            .into_iter()
            .filter(|p| p.result)
            .map(|p| (p.a, p.b))
            .collect())
    }

    /// Whether any of `pairs` interpenetrates; stops looking at the first that does.
    pub fn any_collision(&self, pairs: &[(BodyIndex, BodyIndex)]) -> Result<bool, SceneError> {
        let placed: Vec<_> = pairs
            .iter()
            .map(|&pair| self.placed_pair(pair))
            .collect::<Result<_, _>>()?;
        Ok(placed.par_iter().any(|(a, b)| self.engine.collide(*a, *b)))
    }

    /// The contacts of every pair closer than `threshold`, pairs without contacts left out.
    pub fn contacts(
        &self,
        pairs: &[(BodyIndex, BodyIndex)],
        threshold: f64,
    ) -> Result<Vec<PairContacts>, SceneError> {
        let mut found = self.map_pairs(pairs, |e, a, b| e.contacts(a, b, threshold))?;
        found.retain(|p| p.result.as_ref().map_or(true, |c| !c.is_empty()));
        Ok(found)
    }

    pub fn distances(
        &self,
        pairs: &[(BodyIndex, BodyIndex)],
    ) -> Result<Vec<PairResult<Result<Separation, Interpenetrating>>>, SceneError> {
        self.map_pairs(pairs, |e, a, b| e.distance(a, b))
    }

    /// The distance from each (body, world point) to the body, in parallel.
    pub fn point_distances(
        &self,
        queries: &[(BodyIndex, Point)],
    ) -> Result<Vec<PointDistance>, SceneError> {
        let placed: Vec<_> = queries
            .iter()
            .map(|(body, _)| self.placed(*body))
            .collect::<Result<_, _>>()?;
        Ok(placed
            .par_iter()
            .zip(queries.par_iter())
            .map(|(body, (_, point))| self.engine.point_distance(*body, point))
            .collect())
    }
}

/// Whether every part of a pose is a finite number.
pub fn pose_is_finite(pose: &Isometry3<f64>) -> bool {
    pose.translation.vector.iter().all(|c| c.is_finite())
        && pose.rotation.coords.iter().all(|c| c.is_finite())
}

fn check_pose(pose: &Isometry3<f64>) -> Result<(), SceneError> {
    if pose_is_finite(pose) {
        Ok(())
    } else {
        Err(SceneError::NonFinitePose)
    }
}
