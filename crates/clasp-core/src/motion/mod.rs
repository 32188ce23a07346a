//! Moves that stop at contact (graspit-spec §2), for a free body or a robot, against the bodies
//! around it.
//!
//! A move follows a straight path in configuration space (a pose, or DOF values) from t = 0 to
//! t = 1 in sub-steps ([`path`]). Each sub-step is sized by conservative advancement
//! ([`advance`]): no point of a moving body travels farther than 90 % of a certified lower bound
//! on its gap to anything it may meet, so nothing is passed through, however thin; only when
//! bodies are closer than the world's minimum step does a sub-step take the minimum step and
//! check for collision. The bounds come cheap where they can ([`gaps`]): balls around the
//! bodies, what an earlier query (in this move or an earlier one) left of a gap, and distance
//! queries with a cut-off that stop as soon as they know enough. A sub-step that collides is
//! bisected until the gap is in (0, threshold/2) and the move stops there ([`bisect`]). A pair
//! already interpenetrating when the move starts may move any way that does not deepen the
//! overlap ([`overlap`]). Joint moves, Auto Grasp and approach are in [`joints`].

mod advance;
mod bisect;
pub(crate) mod gaps;
mod joints;
mod overlap;
mod path;

use clasp_collide::{CollisionEngine, Placed};

use gaps::{GapMemory, Known, PairBalls};

use crate::{
    body::Body,
    contact::{
        Contact,
        filter::{CollisionSwitches, Part, checked},
        model::ContactOptions,
        search::pair_contacts,
    },
    ids::{BodyId, RobotId},
    pose::Pose,
    robot::{Robot, mount::Connection},
};

/// What moves: a free body, or a robot with every robot it carries.
pub(crate) enum Mover<'a> {
    Body {
        index: usize,
        body: &'a mut Body,
    },
    Robot {
        index: RobotId,
        robot: &'a mut Robot,
        /// The robots it carries, each after its carrier.
        carried: Vec<Carried<'a>>,
    },
}

/// A robot carried by the moving one, directly or through another carried robot.
pub(crate) struct Carried<'a> {
    pub index: RobotId,
    pub robot: &'a mut Robot,
    /// How it is mounted on its carrier.
    pub connection: Connection,
}

/// Which queries a move asks of the collision engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoveQueries {
    /// Bounds where bounds do: distances with a cut-off and a seed, bisection probes that only
    /// tell "colliding", "within threshold/2" or "farther", and gaps remembered from move to move.
    #[default]
    Bounded,
    /// Exact distances at every step and nothing remembered: the move as it was before
    /// bounded queries, kept so that benchmarks can measure both side by side.
    Exact,
}

/// The world's settings a move obeys.
#[derive(Clone, Copy)]
pub(crate) struct Rules<'a> {
    pub engine: &'a dyn CollisionEngine,
    pub switches: &'a CollisionSwitches,
    pub threshold: f64,
    /// How the contacts a move ends with are modelled.
    pub contact_options: ContactOptions,
    pub min_step: f64,
    pub queries: MoveQueries,
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

fn placed(body: &Body) -> Placed<'_> {
    Placed::new(&body.geometry, body.pose)
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

/// A pair checked along the move: its bodies' balls and what is known of its gap.
#[derive(Debug, Clone, Copy)]
struct Tracked {
    pair: Pair,
    balls: PairBalls,
    known: Known,
}

/// A pair that interpenetrated when the move started, and how deep.
#[derive(Debug, Clone, Copy)]
struct Overlap {
    pair: Pair,
    balls: PairBalls,
    depth: f64,
}

/// The pairs of one move: free ones and ones overlapping at the start.
struct Run {
    free: Vec<Tracked>,
    overlaps: Vec<Overlap>,
}

/// A move in progress: the mover, what surrounds it, the rules, and what earlier moves
/// learnt of the gaps.
pub(crate) struct Motion<'m, 'o> {
    pub mover: Mover<'m>,
    pub others: &'o [Part<'o>],
    pub rules: Rules<'o>,
    pub memory: &'m mut GapMemory,
    /// The domain of the mover's bodies (0: the shared world).
    pub domain: u32,
}

impl Mover<'_> {
    /// The moving robot, or one it carries, by index.
    fn robot_at(&self, wanted: RobotId) -> Option<&Robot> {
        match self {
            Mover::Robot { index, robot, .. } if *index == wanted => Some(robot),
            Mover::Robot { carried, .. } => carried
                .iter()
                .find(|c| c.index == wanted)
                .map(|c| &*c.robot),
            Mover::Body { .. } => None,
        }
    }

    /// Puts each carried robot at the end of its carrier's chain, carriers first.
    fn carry(&mut self) {
        let Mover::Robot {
            index,
            robot,
            carried,
        } = self
        else {
            return;
        };
        for k in 0..carried.len() {
            let (placed, rest) = carried.split_at_mut(k);
            let c = &mut rest[0];
            let carrier = if c.connection.parent_robot == *index {
                Some(&**robot)
            } else {
                placed
                    .iter()
                    .find(|p| p.index == c.connection.parent_robot)
                    .map(|p| &*p.robot)
            };
            if let Some(pose) = carrier.and_then(|r| c.connection.carried_pose(r)) {
                c.robot.set_pose(pose);
            }
        }
    }

    /// How a robot the mover carries is mounted.
    fn carrier(&self, robot: RobotId) -> Option<&Connection> {
        match self {
            Mover::Robot { carried, .. } => carried
                .iter()
                .find(|c| c.index == robot)
                .map(|c| &c.connection),
            Mover::Body { .. } => None,
        }
    }

    /// The chain of the moving robot that carries `robot`, through any robots between.
    fn carrying_chain(&self, robot: RobotId) -> Option<usize> {
        let Mover::Robot { index, .. } = self else {
            return None;
        };
        let mut connection = self.carrier(robot)?;
        while connection.parent_robot != *index {
            connection = self.carrier(connection.parent_robot)?;
        }
        Some(connection.parent_chain)
    }

    /// Every robot of the mover with its index: the moving one, then those it carries.
    fn robots(&self) -> Vec<(RobotId, &Robot)> {
        match self {
            Mover::Robot {
                index,
                robot,
                carried,
            } => std::iter::once((*index, &**robot))
                .chain(carried.iter().map(|c| (c.index, &*c.robot)))
                .collect(),
            Mover::Body { .. } => Vec::new(),
        }
    }
}

impl Motion<'_, '_> {
    fn robot(&self) -> Option<&Robot> {
        match &self.mover {
            Mover::Robot { robot, .. } => Some(robot),
            Mover::Body { .. } => None,
        }
    }

    /// Puts the mover at a pose without checking collisions (a robot by its palm, with what
    /// it carries).
    pub fn place(&mut self, pose: Pose) {
        match &mut self.mover {
            Mover::Body { body, .. } => body.pose = pose,
            Mover::Robot { robot, .. } => robot.set_pose(pose),
        }
        self.mover.carry();
    }

    /// Sets a robot mover's DOFs without checking them or collisions; the caller has checked
    /// the values against the limits.
    pub fn force_dofs(&mut self, values: &[f64]) {
        if let Mover::Robot { robot, .. } = &mut self.mover {
            robot.force_dof_values(values);
        }
        self.mover.carry();
    }

    /// Sets a robot mover's breakaway states (checked by the caller), then carries what it
    /// carries.
    pub fn force_breakaway(&mut self, states: &[Vec<Option<f64>>]) {
        if let Mover::Robot { robot, .. } = &mut self.mover {
            for (dof, states) in states.iter().enumerate() {
                let _ = robot.set_breakaway(dof, states);
            }
        }
        self.mover.carry();
    }

    /// The mover's bodies by id: a free body, or the bodies of a robot and what it carries.
    pub fn mover_ids(&self) -> Vec<BodyId> {
        match &self.mover {
            Mover::Body { index, .. } => vec![BodyId::Free(*index)],
            Mover::Robot { .. } => self
                .mover
                .robots()
                .into_iter()
                .flat_map(|(r, robot)| {
                    robot
                        .parts()
                        .into_iter()
                        .map(move |p| BodyId::of_robot(r, p))
                })
                .collect(),
        }
    }

    /// The poses of the mover's bodies, to tell whether anything moved.
    pub fn mover_poses(&self) -> Vec<Pose> {
        self.mover_ids()
            .into_iter()
            .filter_map(|id| Some(self.mover_part(id)?.body.pose))
            .collect()
    }

    fn mover_part(&self, id: BodyId) -> Option<Part<'_>> {
        match &self.mover {
            Mover::Body { index, body } => (id == BodyId::Free(*index)).then_some(Part {
                id,
                body,
                robot: None,
                domain: self.domain,
            }),
            Mover::Robot { .. } => {
                let robot = self.mover.robot_at(id.robot()?)?;
                Some(Part {
                    id,
                    body: robot.body(id.robot_body()?)?,
                    robot: Some(robot),
                    domain: self.domain,
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

    /// The two bodies of a pair. Pairs are made only of bodies that exist, and a move adds or
    /// removes none.
    fn pair_parts(&self, pair: Pair, moving: &[BodyId]) -> (Part<'_>, Part<'_>) {
        let part = |slot| self.part(slot, moving).expect("pairs name existing bodies");
        (part(pair.a), part(pair.b))
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
                if checked(switches, part, *other) {
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
                if checked(self.rules.switches, a, b) {
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
                if checked(self.rules.switches, part, *other) {
                    found.extend(pair_contacts(
                        self.rules.engine,
                        part,
                        *other,
                        self.rules.threshold,
                        &self.rules.contact_options,
                    ));
                }
            }
            for &own in &ids[i + 1..] {
                if let Some(b) = self.mover_part(own)
                    && checked(self.rules.switches, part, b)
                {
                    found.extend(pair_contacts(
                        self.rules.engine,
                        part,
                        b,
                        self.rules.threshold,
                        &self.rules.contact_options,
                    ));
                }
            }
        }
        found
    }
}
