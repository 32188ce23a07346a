//! Moves that stop at contact (graspit-spec §2), for a free body or a robot, against the bodies
//! around it.
//!
//! A move follows a straight path in configuration space (a pose, or DOF values) from t = 0 to
//! t = 1 in sub-steps. Each sub-step is sized by conservative advancement: no point of a moving
//! body travels farther than 90 % of its distance to anything it may meet, so nothing is passed
//! through, however thin; only when bodies are closer than the world's minimum step does a
//! sub-step take the minimum step and check for collision. A sub-step that collides is bisected
//! until the gap is in (0, threshold/2), and the move stops there. A pair already interpenetrating
//! when the move starts may move any way that does not deepen the overlap.

use std::f64::consts::FRAC_PI_4;

use clasp_collide::{CollisionEngine, FastEngine, Placed};
use nalgebra::{Point3, UnitQuaternion, Vector3};

use crate::{
    Body, BodyId, CollisionSwitches, Contact, Pose, Robot, RobotBody,
    contact::{Side, contact_pair},
};

/// The most sub-steps one move takes; a move this long stops where it got to.
const MAX_SUBSTEPS: usize = 100_000;
/// Bisection halvings before settling on the last free point (GraspIt allows about 67).
const MAX_BISECTIONS: usize = 64;
/// How much larger than the chord a point's path over one sub-step can be (sub-steps turn at
/// most π/4, where arc/chord is 1.03).
const ARC_FACTOR: f64 = 1.1;
/// The share of a gap a sub-step may close.
const ADVANCE_SHARE: f64 = 0.9;

/// One body around the mover, and the robot it belongs to, if any.
#[derive(Clone, Copy)]
pub(crate) struct Part<'a> {
    pub id: BodyId,
    pub body: &'a Body,
    pub robot: Option<&'a Robot>,
}

/// What moves: a free body or a robot.
pub(crate) enum Mover<'a> {
    Body { index: usize, body: &'a mut Body },
    Robot { index: usize, robot: &'a mut Robot },
}

/// The world's settings a move obeys.
#[derive(Clone, Copy)]
pub(crate) struct Rules<'a> {
    pub switches: &'a CollisionSwitches,
    pub threshold: f64,
    pub min_step: f64,
}

/// How a move ended.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MoveOutcome {
    /// The move reached its target.
    pub completed: bool,
    /// The pairs that stopped it, the mover's body first.
    pub stopped_by: Vec<(BodyId, BodyId)>,
    /// It stopped because it would have deepened an existing overlap.
    pub blocked_by_overlap: bool,
}

/// A straight path in configuration space.
#[derive(Debug, Clone)]
enum Path {
    Rigid { from: Pose, to: Pose },
    Joints { from: Vec<f64>, to: Vec<f64> },
}

/// Whether two bodies may collide: the switches, a robot file's rules, and bodies that have
/// triangles.
pub(crate) fn allowed<'a>(switches: &CollisionSwitches, a: Part<'a>, b: Part<'a>) -> bool {
    if a.body.mesh().is_empty() || b.body.mesh().is_empty() || !switches.allow(a.id, b.id) {
        return false;
    }
    let own = |part: Part<'a>| part.robot.zip(part.id.robot_body());
    match (own(a), own(b)) {
        (Some((robot, ra)), Some((_, rb))) if a.id.robot() == b.id.robot() => {
            robot.self_pair_checked(ra, rb)
        }
        (ra, rb) => {
            ra.is_none_or(|(robot, which)| robot.collides(which))
                && rb.is_none_or(|(robot, which)| robot.collides(which))
        }
    }
}

/// The contacts of one pair (both sides of each), pruned as GraspIt prunes them; none when
/// the pair interpenetrates.
pub(crate) fn pair_contacts<'a>(a: Part<'a>, b: Part<'a>, threshold: f64) -> Vec<Contact> {
    let (a, b) = if a.id <= b.id { (a, b) } else { (b, a) };
    let Ok(found) = FastEngine.contacts(placed(a.body), placed(b.body), threshold) else {
        return Vec::new();
    };
    let side = |p: Part<'a>| Side {
        id: p.id,
        body: p.body,
        local_index: p
            .robot
            .zip(p.id.robot_body())
            .and_then(|(r, which)| r.local_index(which)),
    };
    clasp_collide::pruning::prune_contacts(&found)
        .iter()
        .filter_map(|c| contact_pair(side(a), side(b), c))
        .flatten()
        .collect()
}

fn placed(body: &Body) -> Placed<'_> {
    Placed::new(&body.geometry, body.pose)
}

/// A ball around a body, in its own frame: the centre and radius of its box.
#[derive(Debug, Clone, Copy)]
struct Ball {
    centre: Point3<f64>,
    radius: f64,
}

impl Ball {
    fn of(body: &Body) -> Ball {
        let (lo, hi) = body.mesh().bounding_box();
        Ball {
            centre: nalgebra::center(&lo, &hi),
            radius: (hi - lo).norm() / 2.0,
        }
    }

    /// How far any point of the body can travel between two poses over a sub-step.
    fn travel(&self, from: &Pose, to: &Pose) -> f64 {
        let centre = (to * self.centre - from * self.centre).norm();
        let turn = (to.rotation * from.rotation.inverse()).angle();
        ARC_FACTOR * (centre + turn * self.radius)
    }
}

/// Which side of a pair a body is on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    /// One of the mover's bodies, by index into the move's list of them.
    Mover(usize),
    /// One of the mover's bodies that stays still in this move (a joint move's palm).
    Still(BodyId),
    /// One of the bodies around, by index.
    Other(usize),
}

#[derive(Debug, Clone, Copy)]
struct Pair {
    a: Slot,
    b: Slot,
}

/// A move in progress: the mover, what surrounds it, and the rules.
pub(crate) struct Motion<'m, 'o> {
    pub mover: Mover<'m>,
    pub others: &'o [Part<'o>],
    pub rules: Rules<'o>,
}

impl Motion<'_, '_> {
    fn robot(&self) -> Option<&Robot> {
        match &self.mover {
            Mover::Robot { robot, .. } => Some(robot),
            Mover::Body { .. } => None,
        }
    }

    /// The mover's bodies by id: a free body, or the palm and links of a robot.
    pub fn mover_ids(&self) -> Vec<BodyId> {
        match &self.mover {
            Mover::Body { index, .. } => vec![BodyId::Free(*index)],
            Mover::Robot { index, robot } => robot
                .parts()
                .into_iter()
                .map(|p| BodyId::of_robot(*index, p))
                .collect(),
        }
    }

    fn mover_part(&self, id: BodyId) -> Option<Part<'_>> {
        match &self.mover {
            Mover::Body { index, body } => (id == BodyId::Free(*index)).then_some(Part {
                id,
                body,
                robot: None,
            }),
            Mover::Robot { robot, .. } => {
                let body = robot.body(id.robot_body()?)?;
                Some(Part {
                    id,
                    body,
                    robot: Some(robot),
                })
            }
        }
    }

    fn part(&self, slot: Slot, moving: &[BodyId]) -> Option<Part<'_>> {
        match slot {
            Slot::Mover(i) => self.mover_part(moving[i]),
            Slot::Still(id) => self.mover_part(id),
            Slot::Other(i) => self.others.get(i).copied(),
        }
    }

    /// The pairs a move of `moving` checks: each against the bodies around, and, when
    /// `with_own` is set, against the mover's other bodies (a joint move).
    fn pairs(&self, moving: &[BodyId], with_own: bool) -> Vec<Pair> {
        let switches = self.rules.switches;
        let mut pairs = Vec::new();
        for (i, &id) in moving.iter().enumerate() {
            let Some(part) = self.mover_part(id) else {
                continue;
            };
            for (j, other) in self.others.iter().enumerate() {
                if allowed(switches, part, *other) {
                    pairs.push(Pair {
                        a: Slot::Mover(i),
                        b: Slot::Other(j),
                    });
                }
            }
        }
        if with_own {
            pairs.extend(self.own_pairs(moving));
        }
        pairs
    }

    /// Pairs of a moving body with a still one of the same robot, or two moving ones once.
    fn own_pairs(&self, moving: &[BodyId]) -> Vec<Pair> {
        let all = self.mover_ids();
        let mut pairs = Vec::new();
        for (i, &id) in moving.iter().enumerate() {
            for &other in &all {
                let other_moving = moving.iter().position(|&m| m == other);
                if other == id || other_moving.is_some_and(|k| k < i) {
                    continue;
                }
                let (Some(a), Some(b)) = (self.mover_part(id), self.mover_part(other)) else {
                    continue;
                };
                if allowed(self.rules.switches, a, b) {
                    let b_slot = match other_moving {
                        Some(k) => Slot::Mover(k),
                        None => Slot::Still(other),
                    };
                    pairs.push(Pair {
                        a: Slot::Mover(i),
                        b: b_slot,
                    });
                }
            }
        }
        pairs
    }

    /// Every contact of the mover's bodies with the bodies around and among themselves.
    pub fn contacts(&self) -> Vec<Contact> {
        let ids = self.mover_ids();
        let mut found = Vec::new();
        for (i, &id) in ids.iter().enumerate() {
            let Some(part) = self.mover_part(id) else {
                continue;
            };
            for other in self.others {
                if allowed(self.rules.switches, part, *other) {
                    found.extend(pair_contacts(part, *other, self.rules.threshold));
                }
            }
            for &own in &ids[i + 1..] {
                if let Some(b) = self.mover_part(own)
                    && allowed(self.rules.switches, part, b)
                {
                    found.extend(pair_contacts(part, b, self.rules.threshold));
                }
            }
        }
        found
    }

    fn apply(&mut self, path: &Path, t: f64) {
        match (&mut self.mover, path) {
            (Mover::Body { body, .. }, Path::Rigid { from, to }) => {
                body.pose = interpolate(from, to, t)
            }
            (Mover::Robot { robot, .. }, Path::Rigid { from, to }) => {
                robot.set_pose(interpolate(from, to, t))
            }
            (Mover::Robot { robot, .. }, Path::Joints { from, to }) => {
                let values: Vec<f64> = from
                    .iter()
                    .zip(to)
                    .map(|(a, b)| if t >= 1.0 { *b } else { a + (b - a) * t })
                    .collect();
                robot.force_dof_values(&values);
            }
            (Mover::Body { .. }, Path::Joints { .. }) => {}
        }
    }

    /// The most any joint chain (or the rigid mover) turns over the whole path, radians.
    fn path_turn(&self, path: &Path) -> f64 {
        match path {
            Path::Rigid { from, to } => (to.rotation * from.rotation.inverse()).angle(),
            Path::Joints { from, to } => self.robot().map_or(0.0, |robot| {
                robot
                    .chains
                    .iter()
                    .map(|chain| {
                        chain
                            .joints
                            .iter()
                            .filter(|j| j.kind == crate::JointKind::Revolute)
                            .map(|j| {
                                let dof = j.coupling.dof;
                                (j.coupling.ratio * (to[dof] - from[dof])).abs()
                            })
                            .sum::<f64>()
                    })
                    .fold(0.0, f64::max)
            }),
        }
    }

    fn poses(&self, moving: &[BodyId]) -> Vec<Pose> {
        moving
            .iter()
            .map(|&id| {
                self.mover_part(id)
                    .map_or(Pose::identity(), |p| p.body.pose)
            })
            .collect()
    }

    /// Moves the mover's `moving` bodies along `path` until the end or the first contact.
    fn run(&mut self, path: &Path, moving: &[BodyId], with_own: bool) -> MoveOutcome {
        let pairs = self.pairs(moving, with_own);
        let balls: Vec<Ball> = moving
            .iter()
            .map(|&id| self.mover_part(id).map_or(ZERO_BALL, |p| Ball::of(p.body)))
            .collect();
        let other_balls = self.others.iter().map(|p| Ball::of(p.body)).collect();
        let still_balls = self
            .mover_ids()
            .into_iter()
            .filter(|id| !moving.contains(id))
            .filter_map(|id| Some((id, Ball::of(self.mover_part(id)?.body))))
            .collect();
        let mut run = Run {
            pairs: Vec::new(),
            overlaps: Vec::new(),
            balls,
            other_balls,
            still_balls,
            gaps: Vec::new(),
        };
        for pair in pairs {
            let (a, b) = self.pair_parts(pair, moving);
            if FastEngine.collide(placed(a.body), placed(b.body)) {
                let depth = overlap_depth(a.body, b.body);
                run.overlaps.push((pair, depth));
            } else {
                run.pairs.push(pair);
            }
        }
        self.advance(path, moving, &mut run)
    }

    /// The two bodies of a pair. Pairs are made only of bodies that exist, and a move adds or
    /// removes none.
    fn pair_parts(&self, pair: Pair, moving: &[BodyId]) -> (Part<'_>, Part<'_>) {
        let part = |slot| self.part(slot, moving).expect("pairs name existing bodies");
        (part(pair.a), part(pair.b))
    }

    fn advance(&mut self, path: &Path, moving: &[BodyId], run: &mut Run) -> MoveOutcome {
        let turn = self.path_turn(path);
        let mut t: f64 = 0.0;
        for _ in 0..MAX_SUBSTEPS {
            if t >= 1.0 {
                return MoveOutcome {
                    completed: true,
                    ..MoveOutcome::default()
                };
            }
            let (next, travel) = self.substep(path, moving, run, t, turn);
            let gaps = std::mem::take(&mut run.gaps);
            let hits: Vec<Pair> = run
                .pairs
                .iter()
                .enumerate()
                .filter(|(k, _)| travel[*k] > ADVANCE_SHARE * gaps[*k])
                .map(|(_, p)| *p)
                .filter(|p| self.pair_collides(*p, moving))
                .collect();
            if !hits.is_empty() {
                return self.stop_between(path, moving, run, t, next, hits);
            }
            // What is known of each gap carries over, less how far the pair may have closed.
            run.gaps = gaps
                .iter()
                .zip(&travel)
                .map(|(g, d)| (g - d).max(0.0))
                .collect();
            if let Some(outcome) = self.check_overlaps(path, moving, run, t) {
                return outcome;
            }
            t = next;
        }
        MoveOutcome::default()
    }

    /// Chooses the next sub-step from `t` and leaves the mover there: as long as no pair
    /// closes more than 90 % of its gap, or the minimum step. A gap is known as a lower bound
    /// (the balls' gap, or what an earlier exact distance leaves of it); a pair whose bound
    /// limits the step gets its exact distance. Returns the new t and each pair's travel;
    /// `run.gaps` holds the gaps at `t`.
    fn substep(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &mut Run,
        t: f64,
        turn: f64,
    ) -> (f64, Vec<f64>) {
        let start = self.poses(moving);
        let balls = self.ball_gaps(run, &start);
        run.gaps.resize(balls.len(), 0.0);
        for (known, ball) in run.gaps.iter_mut().zip(balls) {
            *known = known.max(ball);
        }
        let mut gaps = std::mem::take(&mut run.gaps);
        let mut exact = vec![false; gaps.len()];
        let mut dt = (1.0 - t).min(if turn > 0.0 { FRAC_PI_4 / turn } else { 1.0 });
        loop {
            self.apply(path, t + dt);
            let travel = self.travel(run, moving, &start);
            let limiting: Vec<usize> = (0..gaps.len())
                .filter(|&k| !exact[k] && travel[k] > ADVANCE_SHARE * gaps[k])
                .collect();
            if !limiting.is_empty() {
                self.apply(path, t);
                for k in limiting {
                    gaps[k] = self.exact_gap(run.pairs[k], moving);
                    exact[k] = true;
                }
                continue;
            }
            let free = travel
                .iter()
                .zip(gaps.iter())
                .map(|(d, &g)| d / self.allowance(g));
            let overlapping = travel[gaps.len()..].iter().map(|d| d / self.rules.min_step);
            let worst = free.chain(overlapping).fold(0.0, f64::max);
            if worst <= 1.0 || dt < 1e-12 {
                run.gaps = gaps;
                return ((t + dt).min(1.0), travel);
            }
            dt *= 0.95 / worst;
        }
    }

    /// A lower bound of each free pair's gap: the gap between the balls around the bodies.
    fn ball_gaps(&self, run: &Run, poses: &[Pose]) -> Vec<f64> {
        run.pairs
            .iter()
            .map(|pair| {
                let (ca, ra) = self.ball_in_world(run, pair.a, poses);
                let (cb, rb) = self.ball_in_world(run, pair.b, poses);
                ((ca - cb).norm() - ra - rb).max(0.0)
            })
            .collect()
    }

    fn ball_in_world(&self, run: &Run, slot: Slot, poses: &[Pose]) -> (Point3<f64>, f64) {
        let (ball, pose) = match slot {
            Slot::Mover(i) => (run.balls[i], poses[i]),
            Slot::Still(id) => match (self.mover_part(id), run.still_balls.get(&id)) {
                (Some(part), Some(ball)) => (*ball, part.body.pose),
                _ => (ZERO_BALL, Pose::identity()),
            },
            Slot::Other(j) => (run.other_balls[j], self.others[j].body.pose),
        };
        (pose * ball.centre, ball.radius)
    }

    /// The exact gap of a free pair at the current configuration (0 if it touches).
    fn exact_gap(&self, pair: Pair, moving: &[BodyId]) -> f64 {
        let (a, b) = self.pair_parts(pair, moving);
        FastEngine
            .distance(placed(a.body), placed(b.body))
            .map_or(0.0, |sep| sep.distance)
    }

    fn allowance(&self, gap: f64) -> f64 {
        (ADVANCE_SHARE * gap).max(self.rules.min_step)
    }

    /// How far each pair's bodies close in on each other at most since `start`: first the
    /// free pairs, then the overlapping ones.
    fn travel(&self, run: &Run, moving: &[BodyId], start: &[Pose]) -> Vec<f64> {
        let now = self.poses(moving);
        let body_travel: Vec<f64> = run
            .balls
            .iter()
            .enumerate()
            .map(|(i, ball)| ball.travel(&start[i], &now[i]))
            .collect();
        let slot_travel = |slot: Slot| match slot {
            Slot::Mover(i) => body_travel[i],
            Slot::Still(_) | Slot::Other(_) => 0.0,
        };
        // Two moving bodies of one robot often move together (neighbouring fingers): what
        // counts is how far one moves as seen from the other.
        let pair_travel = |p: &Pair| match (p.a, p.b) {
            (Slot::Mover(i), Slot::Mover(j)) => {
                let relative = |k: usize, poses: &[Pose]| poses[j].inverse() * poses[k];
                let own = run.balls[i].travel(&relative(i, start), &relative(i, &now));
                own.min(body_travel[i] + body_travel[j])
            }
            _ => slot_travel(p.a) + slot_travel(p.b),
        };
        run.pairs
            .iter()
            .chain(run.overlaps.iter().map(|(p, _)| p))
            .map(pair_travel)
            .collect()
    }

    fn pair_collides(&self, pair: Pair, moving: &[BodyId]) -> bool {
        let (a, b) = self.pair_parts(pair, moving);
        FastEngine.collide(placed(a.body), placed(b.body))
    }

    /// The smallest gap among `pairs`, or `None` when one interpenetrates.
    fn min_gap(&self, pairs: &[Pair], moving: &[BodyId]) -> Option<f64> {
        pairs.iter().try_fold(f64::INFINITY, |gap, &pair| {
            let (a, b) = self.pair_parts(pair, moving);
            let sep = FastEngine.distance(placed(a.body), placed(b.body)).ok()?;
            Some(gap.min(sep.distance))
        })
    }

    /// A sub-step from `lo` (free) to `hi` met `hits`: bisect to a gap in (0, threshold/2),
    /// make sure no other pair collides there, and stop.
    fn stop_between(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &Run,
        lo: f64,
        hi: f64,
        mut hits: Vec<Pair>,
    ) -> MoveOutcome {
        let mut at = self.bisect(path, moving, lo, hi, &hits);
        loop {
            let more: Vec<Pair> = run
                .pairs
                .iter()
                .copied()
                .filter(|p| self.pair_collides(*p, moving))
                .collect();
            if more.is_empty() {
                break;
            }
            at = self.bisect(path, moving, lo, at, &more);
            hits.extend(more);
        }
        // The pairs that met: only those now within the threshold stopped the move; a pair
        // that would have collided later along the sub-step is still clear.
        let threshold = self.rules.threshold;
        let stopped_by = hits
            .iter()
            .filter(|&&p| self.min_gap(&[p], moving).is_some_and(|g| g < threshold))
            .map(|&p| {
                let (a, b) = self.pair_parts(p, moving);
                (a.id, b.id)
            })
            .collect();
        MoveOutcome {
            completed: false,
            stopped_by,
            blocked_by_overlap: false,
        }
    }

    /// GraspIt's `interpolateTo`: halves [lo, hi] until the gap of `pairs` is in
    /// (0, threshold/2); settles on the last free point if it never gets there. Leaves the
    /// mover there and returns t.
    fn bisect(&mut self, path: &Path, moving: &[BodyId], lo: f64, hi: f64, pairs: &[Pair]) -> f64 {
        let band = self.rules.threshold / 2.0;
        let (mut lo, mut hi) = (lo, hi);
        self.apply(path, lo);
        if self
            .min_gap(pairs, moving)
            .is_some_and(|g| g > 0.0 && g < band)
        {
            return lo;
        }
        for _ in 0..MAX_BISECTIONS {
            let mid = 0.5 * (lo + hi);
            self.apply(path, mid);
            match self.min_gap(pairs, moving) {
                Some(gap) if gap > 0.0 && gap < band => return mid,
                Some(gap) if gap > 0.0 => lo = mid,
                _ => hi = mid,
            }
        }
        self.apply(path, lo);
        lo
    }

    /// Overlapping pairs may not get deeper; one that comes apart is checked like any other
    /// from then on. Stops the move at `t` (the last accepted point) if one deepens.
    fn check_overlaps(
        &mut self,
        path: &Path,
        moving: &[BodyId],
        run: &mut Run,
        t: f64,
    ) -> Option<MoveOutcome> {
        let tolerance = self.rules.threshold / 2.0;
        let mut apart = Vec::new();
        for (k, &(pair, depth)) in run.overlaps.iter().enumerate() {
            let (a, b) = self.pair_parts(pair, moving);
            if !FastEngine.collide(placed(a.body), placed(b.body)) {
                apart.push(k);
            } else if overlap_depth(a.body, b.body) > depth + tolerance {
                let stopped_by = vec![(a.id, b.id)];
                self.apply(path, t);
                return Some(MoveOutcome {
                    completed: false,
                    stopped_by,
                    blocked_by_overlap: true,
                });
            }
        }
        for k in apart.into_iter().rev() {
            let (pair, _) = run.overlaps.remove(k);
            run.pairs.push(pair);
        }
        None
    }
}

const ZERO_BALL: Ball = Ball {
    centre: Point3::new(0.0, 0.0, 0.0),
    radius: 0.0,
};

/// The pairs of one move, split into free ones and ones overlapping at the start (with their
/// depth then), and the balls of the moving bodies.
struct Run {
    pairs: Vec<Pair>,
    overlaps: Vec<(Pair, f64)>,
    balls: Vec<Ball>,
    other_balls: Vec<Ball>,
    /// The balls of the mover's bodies that stay still in this move.
    still_balls: std::collections::HashMap<BodyId, Ball>,
    /// A lower bound of each free pair's gap at the current configuration.
    gaps: Vec<f64>,
}

/// The pose a fraction `t` of the way: translation along the line, rotation along the shorter
/// arc.
fn interpolate(from: &Pose, to: &Pose, t: f64) -> Pose {
    if t >= 1.0 {
        return *to;
    }
    let translation = from.translation.vector.lerp(&to.translation.vector, t);
    let mut delta = from.rotation.inverse() * to.rotation;
    if delta.w < 0.0 {
        delta = UnitQuaternion::new_unchecked(-delta.into_inner());
    }
    let rotation = from.rotation * delta.powf(t);
    Pose::from_parts(translation.into(), rotation)
}

/// How deep two interpenetrating bodies are in each other: the deepest vertex of either inside
/// the other, measured to the other's surface. A vertex is inside when it lies behind the
/// triangle closest to it.
pub(crate) fn overlap_depth(a: &Body, b: &Body) -> f64 {
    vertex_depth(a, b).max(vertex_depth(b, a))
}

fn vertex_depth(body: &Body, container: &Body) -> f64 {
    let (lo, hi) = container.mesh().bounding_box();
    let to_container = container.pose.inverse() * body.pose;
    let here = Placed::new(&container.geometry, Pose::identity());
    body.mesh()
        .vertices()
        .iter()
        .map(|v| to_container * v)
        .filter(|p| (0..3).all(|k| p[k] >= lo[k] && p[k] <= hi[k]))
        .map(|p| {
            let near = FastEngine.point_distance(here, &p);
            let normal: Vector3<f64> = container.mesh().triangle_normal(near.triangle);
            if (p - near.closest).dot(&normal) < 0.0 {
                near.distance
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max)
}

impl Motion<'_, '_> {
    /// Moves the whole mover (a body, or a robot by its palm) toward `target`, stopping at the
    /// first contact.
    pub fn move_to(&mut self, target: Pose) -> MoveOutcome {
        let from = match &self.mover {
            Mover::Body { body, .. } => body.pose,
            Mover::Robot { robot, .. } => robot.pose(),
        };
        let moving = self.mover_ids();
        self.run(&Path::Rigid { from, to: target }, &moving, false)
    }

    /// Moves a robot's DOFs toward `target`, each at its `speed` (0 holds it), until each
    /// reaches its target or its chain touches something (GraspIt's `moveDOFToContacts`):
    /// a contact on a link stops every DOF driving that link's chain up to it; the others go on.
    pub fn move_dofs(&mut self, target: &[f64], speeds: &[f64]) -> MoveOutcome {
        let Mover::Robot { robot, .. } = &self.mover else {
            return MoveOutcome::default();
        };
        let count = robot.dofs.len();
        let mut held = vec![false; count];
        let mut outcome = MoveOutcome::default();
        // Each segment ends where a DOF reaches its target or a chain stops.
        for _ in 0..=2 * count + 1 {
            let current = self
                .robot()
                .map(|r| r.dof_values().to_vec())
                .unwrap_or_default();
            let active: Vec<usize> = (0..count)
                .filter(|&i| !held[i] && speeds[i] > 0.0 && (target[i] - current[i]).abs() > 1e-12)
                .collect();
            if active.is_empty() {
                break;
            }
            let end = segment_end(&current, target, speeds, &active);
            let moving = self.links_moved_by(&active);
            let step = self.run(
                &Path::Joints {
                    from: current,
                    to: end,
                },
                &moving,
                true,
            );
            if step.completed {
                continue;
            }
            let stopping = self.dofs_stopped_by(&step.stopped_by);
            let mut stopped: Vec<usize> = active
                .iter()
                .copied()
                .filter(|dof| stopping.contains(dof))
                .collect();
            // A stop that names no moving DOF (an overlap, say) holds every DOF that moved.
            if stopped.is_empty() {
                stopped = active;
            }
            for dof in stopped {
                held[dof] = true;
            }
            outcome.blocked_by_overlap |= step.blocked_by_overlap;
            outcome.stopped_by.extend(step.stopped_by);
        }
        outcome.completed = outcome.stopped_by.is_empty();
        outcome
    }

    fn links_moved_by(&self, dofs: &[usize]) -> Vec<BodyId> {
        match &self.mover {
            Mover::Robot { index, robot } => robot
                .links_moved_by(dofs)
                .into_iter()
                .map(|p| BodyId::of_robot(*index, p))
                .collect(),
            Mover::Body { .. } => Vec::new(),
        }
    }

    /// The DOFs that the mover's links in these pairs stop.
    fn dofs_stopped_by(&self, pairs: &[(BodyId, BodyId)]) -> Vec<usize> {
        let Mover::Robot { index, robot } = &self.mover else {
            return Vec::new();
        };
        pairs
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|id| id.robot() == Some(*index))
            .filter_map(|id| match id.robot_body()? {
                RobotBody::Link { chain, link } => {
                    let joint = robot.chains[chain].links[link].frame?;
                    Some(robot.dofs_behind(chain, joint))
                }
                RobotBody::Palm => None,
            })
            .flatten()
            .collect()
    }

    /// Closes (or, with `closing` false, opens) every DOF at its default velocity until it
    /// reaches its limit or its chain touches something: GraspIt's Auto Grasp and Auto Open.
    pub fn auto_grasp(&mut self, closing: bool) -> MoveOutcome {
        let Some(robot) = self.robot() else {
            return MoveOutcome::default();
        };
        let sense = if closing { 1.0 } else { -1.0 };
        let (mut target, mut speeds) = (Vec::new(), Vec::new());
        for (i, dof) in robot.dofs.iter().enumerate() {
            let velocity = dof.default_velocity * sense;
            let (min, max) = robot.dof_limits(i);
            let current = robot.dof_values()[i];
            // A joint without limits (a URDF continuous joint) turns half a turn at most.
            let goal = match velocity {
                v if v > 0.0 => max.min(current + std::f64::consts::PI),
                v if v < 0.0 => min.max(current - std::f64::consts::PI),
                _ => current,
            };
            target.push(goal);
            speeds.push(velocity.abs());
        }
        self.move_dofs(&target, &speeds)
    }

    /// Moves a robot along its approach direction (the palm's z axis if its file gives none)
    /// until it touches something, at most `distance` mm. If it meets nothing it goes back
    /// where it was, and the outcome says the move completed.
    pub fn approach(&mut self, distance: f64) -> MoveOutcome {
        let Some(robot) = self.robot() else {
            return MoveOutcome::default();
        };
        let start = robot.pose();
        let direction = robot
            .approach
            .as_ref()
            .map_or(Vector3::z(), |a| a.direction.into_inner());
        let shift = start.rotation * direction * distance;
        let target = Pose::from_parts((start.translation.vector + shift).into(), start.rotation);
        let outcome = self.move_to(target);
        if outcome.completed
            && let Mover::Robot { robot, .. } = &mut self.mover
        {
            robot.set_pose(start);
        }
        outcome
    }
}

/// Where each active DOF is when the first of them reaches its target, each moving at its
/// speed; the rest stay.
fn segment_end(current: &[f64], target: &[f64], speeds: &[f64], active: &[usize]) -> Vec<f64> {
    let time = active
        .iter()
        .map(|&i| (target[i] - current[i]).abs() / speeds[i])
        .fold(f64::INFINITY, f64::min);
    let mut end = current.to_vec();
    for &i in active {
        let reach = (target[i] - current[i]).abs();
        end[i] = if reach <= speeds[i] * time * (1.0 + 1e-12) {
            target[i]
        } else {
            current[i] + (target[i] - current[i]).signum() * speeds[i] * time
        };
    }
    end
}
