//! What a dynamics step keeps for the next: the engine's contacts between each pair it
//! searched, with the poses and geometry they were found at (used again while neither body
//! moved), the triangle pairs within the contact threshold plus a margin (the next steps find
//! the pair's contacts among those alone while the bodies stay within the margin), and the
//! impulse it applied at each contact, by the contact's identity, and at each
//! driven DOF: the next step starts the same contact and the same controller from it (warm
//! start: a resting stack settles in a few sweeps instead of hundreds).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use nalgebra::{Point3, Vector3};

use clasp_collide::{CollisionEngine, Geometry};

use crate::{
    contact::{
        Contact,
        filter::Part,
        kept::{Kept, KeptEngine, KeptFor, Persistence},
    },
    ids::{BodyId, RobotId},
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
    /// How far it lies from a contact at these points (the nearer of its two, each in its
    /// body's frame: 0 to rounding at the same vertex), and whether its triangles differ,
    /// which tells apart contacts at one place (a vertex on two triangles of a face).
    fn unlikeness(
        &self,
        triangles: (usize, usize),
        local: &(Point3<f64>, Point3<f64>),
    ) -> (f64, bool) {
        let apart = (self.local.0 - local.0)
            .norm()
            .min((self.local.1 - local.1).norm());
        let place = if apart < ROUNDING { 0.0 } else { apart };
        (place, self.triangles != triangles)
    }
}

/// How a step's contact solve ended (MuJoCo's `solver_niter` and its warnings): a solve that
/// ran out of sweeps ([`crate::SolverSettings::max_iterations`]) before its impulses settled
/// gives an answer that depends on where it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SolveReport {
    /// The sweeps it took.
    pub sweeps: usize,
    /// Whether its impulses settled (none changing by more than
    /// [`crate::SolverSettings::tolerance`] of the largest, the DOF controllers' neither) within
    /// the cap.
    pub settled: bool,
    /// Whether Newton's method ([`crate::ContactSolver::Newton`]) found no answer under
    /// Coulomb's law within its tries (sliding contacts that jam) and solved the convex
    /// relaxation instead, in which sliding contacts push their sides apart a little.
    pub relaxed: bool,
}

/// How a stage's steps' contact solves ended, so far (MuJoCo's warning counters and
/// `solver_niter`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SolverStats {
    /// Steps taken.
    pub steps: usize,
    /// Of those, the steps whose solve ran out of sweeps before it settled.
    pub unsettled: usize,
    /// Of those, the steps Newton's method solved on the convex relaxation
    /// ([`SolveReport::relaxed`]).
    pub relaxed: usize,
    /// Times a body that an impact's solve left free to move still could not move at all,
    /// and was held where it stood with no velocity (`dynamics/step.rs`, `held_fast`).
    pub held_fast: usize,
    /// The last step's.
    pub last: SolveReport,
    /// How many steps' solves took each number of sweeps (the index).
    pub sweeps: Vec<usize>,
}

impl SolverStats {
    /// Counts a step's solve.
    pub fn count(&mut self, report: SolveReport) {
        self.steps += 1;
        self.unsettled += usize::from(!report.settled);
        self.relaxed += usize::from(report.relaxed);
        self.last = report;
        if self.sweeps.len() <= report.sweeps {
            self.sweeps.resize(report.sweeps + 1, 0);
        }
        self.sweeps[report.sweeps] += 1;
    }

    /// Adds another stage's counts (a run's directions, a batch's grasps).
    pub fn add(&mut self, other: &SolverStats) {
        self.steps += other.steps;
        self.unsettled += other.unsettled;
        self.relaxed += other.relaxed;
        self.held_fast += other.held_fast;
        if self.sweeps.len() < other.sweeps.len() {
            self.sweeps.resize(other.sweeps.len(), 0);
        }
        for (mine, theirs) in self.sweeps.iter_mut().zip(&other.sweeps) {
            *mine += theirs;
        }
    }

    /// The sweeps within which the share `q` (0 to 1) of the steps' solves ended: 0.5 the
    /// median, 0.99 the 99th percentile; 0 before any step.
    pub fn sweeps_percentile(&self, q: f64) -> usize {
        let wanted = (q.clamp(0.0, 1.0) * self.steps as f64).ceil().max(1.0) as usize;
        let mut seen = 0;
        for (sweeps, &count) in self.sweeps.iter().enumerate() {
            seen += count;
            if seen >= wanted {
                return sweeps;
            }
        }
        0
    }
}

/// How a stage's steps found their pairs' contacts, so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Pairs searched in full (their trees walked).
    pub searched: usize,
    /// Pairs whose contacts were found among the triangle pairs kept from an earlier search.
    pub kept: usize,
    /// Pairs whose contacts were the last step's, neither body having moved.
    pub unmoved: usize,
    /// Under [`Persistence::checked`]: the kept pairs whose contacts differed from a full
    /// search's (never, if the margin's reasoning holds).
    pub differed: usize,
}

/// Where a stage's steps spent their time so far, in seconds (MuJoCo's `mjData.timer`): what a
/// benchmark says limits a figure by.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepTimers {
    /// Steps timed.
    pub steps: usize,
    /// The steps' whole time.
    pub total: f64,
    /// Finding the pairs' contacts (full searches and the kept pairs' tests).
    pub search: f64,
    /// Building the contact problems from the contacts found: the robots' articulated bodies,
    /// the rows, the Delassus blocks, the warm start and the motors.
    pub build: f64,
    /// The contact solves (the per-contact sweeps or the LCP).
    pub solve: f64,
    /// The moves, to where the velocities take what moves, stopping at contact.
    pub moves: f64,
}

/// A pair's search: where both stood, what they were, the threshold, what the engine found.
#[derive(Debug, Clone)]
struct Found {
    poses: (Pose, Pose),
    geometry: (Arc<Geometry>, Arc<Geometry>),
    threshold: f64,
    /// `None` where the two interpenetrate.
    contacts: Option<Vec<clasp_collide::MeshContact>>,
    /// The triangle pairs kept from the pair's last full search, if it kept any.
    kept: Option<Kept>,
}

impl Found {
    /// Whether this search was of these two geometries at this threshold.
    fn is_of(&self, (a, b): (&Part, &Part), threshold: f64) -> bool {
        Arc::ptr_eq(&self.geometry.0, &a.body.geometry)
            && Arc::ptr_eq(&self.geometry.1, &b.body.geometry)
            && self.threshold == threshold
    }
}

/// How many of its last step's moves a fast pair's search keeps triangle pairs for.
const RUSH_AHEAD: f64 = 1.5;
/// The most a search keeps beyond the threshold (mm), however fast the pair.
const MAX_MARGIN: f64 = 5.0;

/// A contact is the same as last step's where one of its points lies this close (mm, in its
/// body's own frame) to where that one's lay: a step slides a contact micrometres.
const SAME_PLACE: f64 = 0.5;

/// Points closer than this (mm) are one point: a vertex's place in its body's frame, found
/// again through the body's pose.
const ROUNDING: f64 = 1e-6;

/// A step memory's searches while its moves use them.
pub(crate) struct Lent(HashMap<(BodyId, BodyId), Found>);

impl Lent {
    /// `engine`, asking among the triangle pairs these searches kept wherever they still hold.
    pub fn engine<'a>(&'a self, engine: &'a dyn CollisionEngine) -> KeptEngine<'a> {
        let kept = self
            .0
            .values()
            .filter_map(|f| {
                let geometry = (&*f.geometry.0, &*f.geometry.1);
                Some(KeptFor {
                    geometry,
                    kept: f.kept.as_ref()?,
                })
            })
            .collect();
        KeptEngine { engine, kept }
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) struct StepMemory {
    found: HashMap<(BodyId, BodyId), Found>,
    /// By pair (A first).
    pub pushed: HashMap<(BodyId, BodyId), Vec<Pushed>>,
    /// The generalized impulse each driven DOF's controller applied, by robot and DOF.
    pub efforts: HashMap<(RobotId, usize), f64>,
    /// How the steps' contact solves ended.
    pub solves: SolverStats,
    /// How the steps found their pairs' contacts.
    pub searches: SearchStats,
    /// Where the steps' time went.
    pub timers: StepTimers,
}

impl StepMemory {
    /// What the engine finds between `a` and `b` (A first) within `threshold`, `None` where
    /// they interpenetrate: remembered if neither moved nor changed since; found among the
    /// triangle pairs kept from the pair's last full search while they stay within the
    /// persistence margin; else searched in full (keeping the triangle pairs within the
    /// threshold plus the margin) and remembered.
    pub fn contacts(
        &mut self,
        engine: &dyn CollisionEngine,
        (a, b): (Part, Part),
        threshold: f64,
        persistence: &Persistence,
    ) -> Option<&[clasp_collide::MeshContact]> {
        let key = (a.id, b.id);
        let poses = (a.body.pose, b.body.pose);
        let earlier = self
            .found
            .remove(&key)
            .filter(|f| f.is_of((&a, &b), threshold));
        // B in A's frame: where a kept set is judged from.
        let now = a.body.pose.inv_mul(&b.body.pose);
        // The kept pairs that may now lie within the threshold, where the kept set holds.
        let among = |f: &Found| {
            let kept = f.kept.as_ref()?;
            kept.among(&b.body.geometry, &now, threshold, false)
        };
        let kept_pairs = earlier
            .as_ref()
            .filter(|f| f.poses != poses && persistence.margin > 0.0)
            .and_then(among);
        let found = match (earlier, kept_pairs) {
            (Some(f), _) if f.poses == poses => {
                self.searches.unmoved += 1;
                f
            }
            (Some(mut f), Some(pairs)) => {
                self.searches.kept += 1;
                let contacts = engine
                    .contacts_among(a.placed(), b.placed(), threshold, &pairs)
                    .ok();
                if persistence.checked {
                    let full = engine.contacts(a.placed(), b.placed(), threshold).ok();
                    self.searches.differed += usize::from(full != contacts);
                }
                (f.poses, f.contacts) = (poses, contacts);
                f
            }
            (earlier, _) => {
                self.searches.searched += 1;
                // A pair that moves fast keeps what this step's moves will reach too: 1.5 times
                // as far as it moved in the last step (the step's moves then ask among the kept
                // pairs instead of walking both trees at every probe).
                let margin = match earlier {
                    Some(f) if persistence.margin > 0.0 => {
                        let before = f.poses.0.inv_mul(&f.poses.1);
                        let moved = b.body.geometry.farthest_move(&before, &now);
                        persistence.margin.max(RUSH_AHEAD * moved).min(MAX_MARGIN)
                    }
                    _ => persistence.margin,
                };
                search((&a, &b), engine, threshold, margin)
            }
        };
        self.found.insert(key, found);
        self.found[&key].contacts.as_deref()
    }

    /// The searches, lent out for a step's moves to ask among their kept triangle pairs
    /// ([`Lent::engine`]); put back with [`Self::put_back`].
    pub fn lend(&mut self) -> Lent {
        Lent(std::mem::take(&mut self.found))
    }

    pub fn put_back(&mut self, lent: Lent) {
        self.found = lent.0;
    }

    /// Forgets every pair but these (those of the step just taken).
    pub fn keep_only(&mut self, pairs: &HashSet<(BodyId, BodyId)>) {
        self.found.retain(|key, _| pairs.contains(key));
    }

    /// The impulse (from B on A, world frame) the last step applied at the contact `c` (A's
    /// side) that lies at `local` on each body, if the step had that contact.
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
            .filter(|((apart, _), _)| *apart < SAME_PLACE)
            .min_by(|x, y| x.0.0.total_cmp(&y.0.0).then(x.0.1.cmp(&y.0.1)))
            .map(|(_, impulse)| impulse)
    }
}

/// A pair searched in full: its contacts, and with a margin, the triangle pairs within the
/// threshold plus the margin (the contacts found among those, which are the same).
fn search(
    (a, b): (&Part, &Part),
    engine: &dyn CollisionEngine,
    threshold: f64,
    margin: f64,
) -> Found {
    let near = (margin > 0.0)
        .then(|| engine.near_triangles(a.placed(), b.placed(), threshold + margin))
        .flatten();
    let contacts = match &near {
        Some(near) => engine.contacts_among(a.placed(), b.placed(), threshold, &near.pairs),
        None => engine.contacts(a.placed(), b.placed(), threshold),
    };
    Found {
        poses: (a.body.pose, b.body.pose),
        geometry: (a.body.geometry.clone(), b.body.geometry.clone()),
        threshold,
        contacts: contacts.ok(),
        kept: near.map(|near| Kept::new(a.body.pose.inv_mul(&b.body.pose), near)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::{Body, BodyKind};
    use crate::contact::search::{Side, contact_pair};
    use clasp_collide::shapes;

    /// Both sides of an engine contact between a box (A) and a floor (B) standing as given.
    fn contact(box_at: Pose, floor_at: Pose, found: &clasp_collide::MeshContact) -> Contact {
        let cube = Body::from_mesh(
            "box",
            BodyKind::Graspable,
            shapes::cuboid([-10.0; 3], [10.0; 3]),
        )
        .at(box_at);
        let floor = Body::from_mesh(
            "floor",
            BodyKind::Obstacle,
            shapes::cuboid([-100.0; 3], [100.0; 3]),
        )
        .at(floor_at);
        let side = |id, body| Side {
            id,
            body,
            local_index: None,
        };
        let [on_a, _] = contact_pair(
            side(BodyId::Free(0), &cube),
            side(BodyId::Free(1), &floor),
            found,
        )
        .unwrap();
        on_a
    }

    #[test]
    fn a_contact_is_known_again_by_its_place_on_its_bodies_however_far_they_moved() {
        // Two corners of the box's bottom on one floor triangle: the same triangle pair.
        let corner = |x: f64| clasp_collide::MeshContact {
            triangle_a: 3,
            triangle_b: 7,
            point_a: Point3::new(x, -10.0, -10.0),
            point_b: Point3::new(x, -10.0, 100.0),
            normal_a: Vector3::z(),
            separation: 0.0,
        };
        let floor_at = Pose::translation(0.0, 0.0, -110.0);
        let mut memory = StepMemory::default();
        let push = |x: f64, z: f64| Pushed {
            triangles: (3, 7),
            local: (Point3::new(x, -10.0, -10.0), Point3::new(x, -10.0, 100.0)),
            impulse: Vector3::new(0.0, 0.0, z),
        };
        memory.pushed.insert(
            (BodyId::Free(0), BodyId::Free(1)),
            vec![push(-10.0, 1.0), push(10.0, 2.0)],
        );
        // The box slid 2 mm along the floor since (2 m/s for 1 ms), farther than any search by
        // position would look: each corner is its own vertex of the box still.
        let slid = Pose::translation(2.0, 0.0, 0.0);
        for (x, z) in [(-10.0, 1.0), (10.0, 2.0)] {
            let mut found = corner(x);
            found.point_b.x += 2.0;
            let c = contact(slid, floor_at, &found);
            let local = (found.point_a, found.point_b);
            assert_eq!(
                memory.impulse_of(&c, &local),
                Some(Vector3::new(0.0, 0.0, z))
            );
        }
        // The same corner named on another triangle round it is still that corner.
        let mut found = corner(10.0);
        found.triangle_a = 4;
        let c = contact(Pose::identity(), floor_at, &found);
        let local = (found.point_a, found.point_b);
        assert_eq!(
            memory.impulse_of(&c, &local),
            Some(Vector3::new(0.0, 0.0, 2.0))
        );
        // A contact in the middle of the bottom is new.
        let mut found = corner(0.0);
        found.point_a.y = 0.0;
        found.point_b.y = 0.0;
        let c = contact(Pose::identity(), floor_at, &found);
        let local = (found.point_a, found.point_b);
        assert_eq!(memory.impulse_of(&c, &local), None);
    }
}
