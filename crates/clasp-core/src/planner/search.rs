//! What the planner searches and how it scores a state. A state is the hand's pose round the
//! object — the direction it comes from (polar and azimuth angles about the object's centre),
//! its roll about that line and the distance of its approach point from the centre — and its
//! eigengrasp amplitudes. A state whose hand touches nothing is legal; its energy says how
//! close the hand's virtual contacts are to the object (contact energy) or how good a grasp
//! they would make there (potential quality), both after GraspIt's.

use std::{f64::consts::PI, sync::Arc};

use clasp_collide::{CollisionEngine, Placed};
use nalgebra::{Point3, Unit, Vector3};

use super::{
    anneal::Variable,
    distance_grid::DistanceGrid,
    shares::{StateShares, timed},
};
use crate::{
    body::Body,
    grasp::quality::{self, WrenchSpaceKind},
    ids::{BodyId, RobotBody},
    motion::gaps::Ball,
    pose::Pose,
    robot::{
        Robot, eigengrasp::EigenSpace, reach_ball::ReachBall,
        virtual_contacts::PlacedVirtualContact,
    },
};

/// How a state is scored: lower is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PlanEnergy {
    /// GraspIt's contact energy: the mean over the virtual contacts of the distance to the
    /// object plus 50 × (1 − the cosine between the contact's normal and the way to the object).
    Contact,
    /// The contact energy plus `QUALITY_WEIGHT` × the potential quality (at least −1): states
    /// whose contacts lie near the object *and* could press against each other rank first.
    /// The contact energy alone also ranks a hand wrapped round one side of the object well,
    /// the grasp a table or an arm leaves (a glass lying by a table's edge: 0 force-closure
    /// grasps of 10 with the contact energy, 10 with this), at a fraction of what closing
    /// every state costs.
    ContactQuality,
    /// The searches take [`PlanEnergy::Contact`] and [`PlanEnergy::ContactQuality`] in turn,
    /// and their states are closed in turn by each search's own ranking; where something the
    /// hand must not touch lies within the hand's length of the object (a table, an arm), all
    /// take [`PlanEnergy::ContactQuality`]. Neither energy does well everywhere: the quality
    /// term finds the grasps a table or an arm leaves, and loses the Barrett's grasps of
    /// GraspIt's flask alone (3–5 force-closure grasps of 10, where the contact energy finds
    /// 10); the contact energy finds none on an arm (docs/benchmarks.md). A space asked to
    /// score one state with it scores it as [`PlanEnergy::ContactQuality`].
    #[default]
    Mixed,
    /// GraspIt's potential quality: the epsilon of the wrenches the virtual contacts near the
    /// object (within 50 mm, facing it) would make, negated; +1 when they make none.
    Quality,
    /// GraspIt's auto-grasp quality: the hand closed at the state (Auto Grasp, in a domain of
    /// its own) and scored, −(30 × volume + 100 × epsilon), epsilon 0 where not force-closure.
    /// The real quality of every state, at the cost of a grasp trial each (milliseconds, where
    /// the others take microseconds): for short searches, or a guided planner's children.
    AutoGrasp,
}

/// What the potential quality weighs in [`PlanEnergy::ContactQuality`], against contact
/// energies of 10–30 (mm, the mean gap plus the angle term) in a good state: 10 was too
/// little for a book lying on a table, 30 enough (docs/benchmarks.md).
pub const QUALITY_WEIGHT: f64 = 30.0;

impl PlanEnergy {
    const ALL: [PlanEnergy; 5] = [
        PlanEnergy::Mixed,
        PlanEnergy::ContactQuality,
        PlanEnergy::Contact,
        PlanEnergy::Quality,
        PlanEnergy::AutoGrasp,
    ];

    /// The name `--energy` and Python's `energy` take (and [`str::parse`] reads).
    pub fn name(self) -> &'static str {
        match self {
            PlanEnergy::Mixed => "mixed",
            PlanEnergy::ContactQuality => "contact-quality",
            PlanEnergy::Contact => "contact",
            PlanEnergy::Quality => "quality",
            PlanEnergy::AutoGrasp => "autograsp",
        }
    }

    /// The energy search `index` of a plan scores states by; `crowded`: something the hand
    /// must not touch lies within its length of the object.
    pub fn of_search(self, index: usize, crowded: bool) -> PlanEnergy {
        match self {
            PlanEnergy::Mixed if index.is_multiple_of(2) && !crowded => PlanEnergy::Contact,
            PlanEnergy::Mixed => PlanEnergy::ContactQuality,
            other => other,
        }
    }
}

/// GraspIt's auto-grasp quality energy of a closed grasp's quality.
pub fn auto_grasp_energy(quality: Option<&crate::grasp::quality::Quality>) -> f64 {
    let Some(q) = quality else {
        return 0.0;
    };
    let epsilon = q.epsilon.unwrap_or(0.0).max(0.0);
    -(30.0 * q.volume.unwrap_or(0.0).max(0.0)) - 100.0 * epsilon
}

/// Closes the hand at a palm pose and DOF values in domain `number` and gives its auto-grasp
/// quality energy: what [`PlanEnergy::AutoGrasp`] asks of the world.
pub type Closing<'a> = dyn Fn(u32, Pose, &[f64]) -> f64 + Sync + 'a;

impl std::str::FromStr for PlanEnergy {
    type Err = String;

    /// "mixed", "contact-quality", "contact", "quality" or "autograsp".
    fn from_str(text: &str) -> Result<Self, String> {
        PlanEnergy::ALL
            .into_iter()
            .find(|energy| energy.name() == text)
            .ok_or_else(|| {
                format!(
                    "the energy is mixed, contact-quality, contact, quality or autograsp, not {text:?}"
                )
            })
    }
}

/// The search round one object: the variables, and what a state needs to be placed and scored.
#[derive(Clone)]
pub struct Space<'a> {
    pub variables: Vec<Variable>,
    pub centre: Point3<f64>,
    /// The object's size, for comparing states (GraspIt's `maxRadius`).
    pub radius: f64,
    pub eigen: EigenSpace,
    pub origin: Vec<f64>,
    pub limits: Vec<(f64, f64)>,
    pub object: &'a Body,
    /// What the hand must not touch: the pairs the world's rule checks, the object's first.
    pub checks: Vec<Check<'a>>,
    pub engine: &'a dyn CollisionEngine,
    pub energy: PlanEnergy,
    /// How the world closes the hand, for [`PlanEnergy::AutoGrasp`].
    pub closing: Option<&'a Closing<'a>>,
    /// The object's closest points on a grid, read instead of the engine where it has them.
    pub grid: Option<Arc<DistanceGrid>>,
    /// For a hand an arm carries (and only its reachable grasps asked for): where the arm
    /// certainly cannot put the palm, an illegal state, as in GraspIt, whose planner moves
    /// such a hand by its arm's inverse kinematics.
    pub reach: Option<ReachBall>,
}

/// A pair the world's one rule checks between a body of the planning hand and something else.
#[derive(Clone)]
pub struct Check<'a> {
    pub part: RobotBody,
    pub other: Against<'a>,
}

/// The other side of a check: a body of the world, or another body of the hand itself.
#[derive(Clone)]
pub enum Against<'a> {
    World(BodyId, &'a Body),
    Hand(RobotBody),
}

/// What placing the hand at a state found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scored {
    /// The hand touches something it must not, or is where the arm carrying it cannot reach.
    Illegal,
    /// Legal, with an energy at or above what was asked for.
    NotBelow,
    /// Legal, with this energy.
    Energy(f64),
}

/// How far a contact is from the object, and the cosine between its normal and `to_object`,
/// the way to the object's closest point (1 on the surface).
fn gap_and_facing(contact: &PlacedVirtualContact, to_object: &Vector3<f64>) -> (f64, f64) {
    let d = to_object.norm();
    let cosine = if d > 0.0 {
        contact.normal.normalize().dot(&(to_object / d))
    } else {
        1.0
    };
    (d, cosine)
}

/// One contact's share of the contact energy: its distance plus 50 × (1 − the cosine).
fn contact_term(contact: &PlacedVirtualContact, to_object: &Vector3<f64>) -> f64 {
    let (d, cosine) = gap_and_facing(contact, to_object);
    d + 50.0 * (1.0 - cosine)
}

/// The potential quality of contacts' wrenches: their epsilon negated, +1 when fewer than three
/// contacts count or they are not force-closure.
fn potential_epsilon(wrenches: &[Vec<quality::Wrench>]) -> f64 {
    if wrenches.len() < 3 {
        return 1.0;
    }

    match quality::quality(wrenches, WrenchSpaceKind::L1, false) {
        Ok(q) => q.epsilon.map_or(1.0, |e| -e),
        Err(_) => 1.0,
    }
}

/// The pose variables before the amplitudes: polar angle, azimuth, roll, distance.
const POSE_VARIABLES: usize = 4;

impl<'a> Space<'a> {
    /// The variables for this hand round a body of radius `radius` at `centre`: angles over
    /// the sphere, the roll all round, the distance from inside the object to a hand's reach
    /// beyond it, and each eigengrasp amplitude from one DOF limit to the other.
    pub fn variables(
        hand: &Robot,
        eigen: &EigenSpace,
        origin: &[f64],
        radius: f64,
    ) -> Vec<Variable> {
        let angle = |min, max, jump, circular| Variable {
            min,
            max,
            jump,
            circular,
        };
        let far = radius + hand.reach();
        let mut variables = vec![
            angle(0.0, PI, PI / 5.0, false),
            angle(-PI, PI, PI / 2.0, true),
            angle(-PI, PI, PI / 2.0, true),
            Variable {
                min: 0.0,
                max: far,
                jump: far / 2.0,
                circular: false,
            },
        ];
        for e in 0..eigen.len() {
            let (low, high) = eigen.amplitude_range(e, origin);
            let (low, high) = (low.max(-4.0), high.min(4.0));
            variables.push(Variable {
                min: low,
                max: high,
                jump: (high - low) / 4.0,
                circular: false,
            });
        }
        variables
    }

    /// The space a guided planner's child searches: states scored by closing the hand as
    /// `closing` does, neighbours' jumps shortened by the child's confidence in its seed
    /// (`[palm, posture]`: a jump `1 − confidence` as long).
    pub fn child<'c>(&self, closing: &'c Closing<'c>, confidence: [f64; 2]) -> Space<'c>
    where
        'a: 'c,
    {
        let mut child: Space<'c> = self.clone();
        child.energy = PlanEnergy::AutoGrasp;
        child.closing = Some(closing);
        for (i, variable) in child.variables.iter_mut().enumerate() {
            let trust = confidence[usize::from(i >= POSE_VARIABLES)];
            variable.jump *= 1.0 - trust;
        }
        child
    }

    /// A state where the search starts: the hand far out along +z, open at the origin posture.
    pub fn start(&self) -> Vec<f64> {
        let mut state = vec![0.0; self.variables.len()];
        state[3] = self.variables[3].max;
        state
    }

    /// Where a state puts the hand's palm, and its DOF values.
    pub fn placement(&self, hand: &Robot, state: &[f64]) -> (Pose, Vec<f64>) {
        let (theta, phi, roll, distance) = (state[0], state[1], state[2], state[3]);
        let out = Vector3::new(
            theta.sin() * phi.cos(),
            theta.sin() * phi.sin(),
            theta.cos(),
        );
        let towards = Unit::new_normalize(-out);
        let palm = hand.pose_aiming_at(self.centre, towards, distance, roll);
        let amplitudes = &state[POSE_VARIABLES..];
        let dofs = self
            .eigen
            .dofs_for(amplitudes, &self.origin)
            .unwrap_or_else(|_| self.origin.clone())
            .into_iter()
            .zip(&self.limits)
            .map(|(v, &(min, max))| v.clamp(min, max.max(min)))
            .collect();
        (palm, dofs)
    }

    /// Puts `hand` at the state and scores it: whether the hand touches the object or an
    /// obstacle (an illegal state), else its energy, or only that the energy is not below
    /// `below` (all the annealing's accept test needs to turn a state down; the contact
    /// energy then stops asking for distances as soon as it knows). `first`: the check to
    /// try first, the one that found the last touch.
    pub fn evaluate(
        &self,
        hand: &mut Robot,
        state: &[f64],
        below: f64,
        first: &mut usize,
        domain: u32,
        shares: &mut StateShares,
    ) -> Scored {
        let (palm, dofs) = timed(&mut shares.placement, || {
            let (palm, dofs) = self.placement(hand, state);
            hand.set_pose(palm);
            hand.force_dof_values(&dofs);
            (palm, dofs)
        });
        if self.reach.is_some_and(|ball| !ball.admits(&palm)) {
            return Scored::Illegal;
        }
        if timed(&mut shares.collision, || self.touches(hand, first)) {
            return Scored::Illegal;
        }
        let contacts = timed(&mut shares.placement, || hand.virtual_contacts_placed());
        let energy = match self.energy {
            PlanEnergy::Contact => timed(&mut shares.distances, || {
                self.contact_energy(&contacts, below).map(|(e, _)| e)
            }),
            PlanEnergy::ContactQuality | PlanEnergy::Mixed => {
                self.contact_and_quality(&contacts, below, shares)
            }
            PlanEnergy::Quality => {
                let to_object = timed(&mut shares.distances, || self.to_object(&contacts));
                timed(&mut shares.quality, || {
                    Some(self.potential_quality(&contacts, &to_object)).filter(|&e| e < below)
                })
            }
            PlanEnergy::AutoGrasp => timed(&mut shares.quality, || {
                self.closing
                    .map(|close| close(domain, palm, &dofs))
                    .filter(|&e| e < below)
            }),
        };
        energy.map_or(Scored::NotBelow, Scored::Energy)
    }

    /// Whether the hand, placed, touches anything the world's rule checks it against (GraspIt's
    /// `noCollision(hand)`: the object, obstacles, other robots, its own other links). The
    /// checks start from `first`, the one that last found a touch (a search's neighbours are
    /// near each other, and what one touched the next often does), which becomes the one
    /// that finds this touch.
    fn touches(&self, hand: &Robot, first: &mut usize) -> bool {
        let count = self.checks.len();
        let found = (0..count)
            .map(|i| (i + *first) % count)
            .find(|&i| self.check_touches(hand, &self.checks[i]));
        if let Some(i) = found {
            *first = i;
        }
        found.is_some()
    }

    fn check_touches(&self, hand: &Robot, check: &Check) -> bool {
        let other = match check.other {
            Against::World(_, body) => Some(body),
            Against::Hand(which) => hand.body(which),
        };
        let (Some(part), Some(other)) = (hand.body(check.part), other) else {
            return false;
        };
        // The bodies' balls (kept with their geometry) rule out most pairs without a query,
        // and the part's ball against the other's box most of the rest near a table or an arm.
        let ball = Ball::of(part);
        if ball.gap(&part.pose(), &Ball::of(other), &other.pose()) > 0.0 {
            return false;
        }
        let in_other = other
            .pose()
            .inverse_transform_point(&(part.pose() * ball.centre));
        !other.geometry().ball_misses(&in_other, ball.radius)
            && self.engine.collide(
                Placed::new(part.geometry(), part.pose()),
                Placed::new(other.geometry(), other.pose()),
            )
    }

    /// For each contact, the way to the closest point of the object (world mm).
    fn to_object(&self, contacts: &[PlacedVirtualContact]) -> Vec<Vector3<f64>> {
        contacts
            .iter()
            .filter_map(|c| self.way_to_object(&c.location, f64::INFINITY))
            .collect()
    }

    /// The way from a world point to the object's closest point if it is shorter than
    /// `cutoff`: read from the grid where it has one, else asked of the engine.
    fn way_to_object(&self, point: &Point3<f64>, cutoff: f64) -> Option<Vector3<f64>> {
        let pose = self.object.pose();
        let geometry = self.object.geometry();
        let from_grid = self.grid.as_ref().and_then(|grid| {
            let local = pose.inverse_transform_point(point);
            grid.way(self.engine, geometry, &local)
        });
        match from_grid {
            Some(way) => Some(pose.rotation * way).filter(|w| w.norm() < cutoff),
            None => self
                .engine
                .point_distance_below(Placed::new(geometry, pose), point, cutoff)
                .map(|near| near.closest - point),
        }
    }

    /// [`PlanEnergy::ContactQuality`]'s energy if it is below `below`, else `None`. The quality
    /// term is at least −`QUALITY_WEIGHT` × a bound on the epsilon found without the hull,
    /// so a state that bound cannot bring below `below` is turned down before the hull is
    /// built; the quality reuses the contact energy's closest points.
    fn contact_and_quality(
        &self,
        contacts: &[PlacedVirtualContact],
        below: f64,
        shares: &mut StateShares,
    ) -> Option<f64> {
        let (energy, to_object) = timed(&mut shares.distances, || {
            self.contact_energy(contacts, below + QUALITY_WEIGHT)
        })?;
        timed(&mut shares.quality, || {
            self.quality_term(contacts, &to_object, energy, below)
        })
    }

    /// [`Self::contact_and_quality`] once the contact energy `energy` is known.
    fn quality_term(
        &self,
        contacts: &[PlacedVirtualContact],
        to_object: &[Vector3<f64>],
        energy: f64,
        below: f64,
    ) -> Option<f64> {
        let wrenches = self.potential_wrenches(contacts, to_object);
        let bound = match wrenches.len() {
            0..3 => 0.0,
            _ => quality::epsilon_bound(&wrenches.concat()).min(1.0),
        };
        let quality = if bound <= 0.0 {
            1.0
        } else if energy - QUALITY_WEIGHT * bound >= below {
            return None;
        } else {
            potential_epsilon(&wrenches).max(-1.0)
        };
        Some(energy + QUALITY_WEIGHT * quality).filter(|&e| e < below)
    }

    /// GraspIt's contact energy if it is below `below`, with each contact's way to the
    /// object's closest point, else `None`. Each contact's term (its
    /// distance plus the angle term, never negative) is at least its distance to the object's
    /// bounding ball, so the terms not yet asked for are bounded from below at no cost, and
    /// each closest point is asked for only within what is left of the budget: a state the
    /// annealing would turn down is known as such after a few cheap queries. The energy of a
    /// state below is the same, to the bit, as asking for every distance.
    fn contact_energy(
        &self,
        contacts: &[PlacedVirtualContact],
        below: f64,
    ) -> Option<(f64, Vec<Vector3<f64>>)> {
        if contacts.is_empty() {
            return None;
        }
        let (centre, radius) = self.object.geometry().bounding_ball();
        let centre = self.object.pose() * centre;
        let budget = below * contacts.len() as f64;
        // `later[i]`: the sum of the lower bounds of the contacts after the i-th.
        let mut later = vec![0.0; contacts.len()];
        for i in (1..contacts.len()).rev() {
            let bound = ((contacts[i].location - centre).norm() - radius).max(0.0);
            later[i - 1] = later[i] + bound;
        }
        let mut total = 0.0;
        let mut to_object = Vec::with_capacity(contacts.len());
        for (c, after) in contacts.iter().zip(later) {
            let way = self.way_to_object(&c.location, budget - total - after)?;
            total += contact_term(c, &way);
            to_object.push(way);
            if total + after >= budget {
                return None;
            }
        }
        Some((total / contacts.len() as f64, to_object))
    }

    /// The epsilon of the wrenches the contacts near the object would make (see
    /// [`Self::potential_wrenches`]), negated; +1 when fewer than three contacts count or the
    /// grasp is not force-closure. `to_object`: each contact's way to the object's closest point.
    fn potential_quality(
        &self,
        contacts: &[PlacedVirtualContact],
        to_object: &[Vector3<f64>],
    ) -> f64 {
        potential_epsilon(&self.potential_wrenches(contacts, to_object))
    }

    /// The wrenches of the contacts near the object, each contact's scaled by how near and how
    /// square it is (1 + cos(π d / 50) when facing the object within 50 mm).
    fn potential_wrenches(
        &self,
        contacts: &[PlacedVirtualContact],
        to_object: &[Vector3<f64>],
    ) -> Vec<Vec<quality::Wrench>> {
        let cog = self.object.pose() * self.object.mass.cog;
        let mut wrenches = Vec::new();
        for (c, p) in contacts.iter().zip(to_object) {
            let (d, cosine) = gap_and_facing(c, p);
            if cosine < 0.7 || d > 50.0 {
                continue;
            }
            let scale = (PI * d / 50.0).cos() + 1.0;
            if scale <= 0.25 {
                continue;
            }
            let frame = Pose::from_parts(c.location.coords.into(), c.frame.rotation);
            let edges = &c.contact.friction_edges;
            let mut w =
                quality::contact_wrenches(&frame, edges, c.contact.friction, &cog, self.radius);
            for wrench in &mut w {
                wrench.iter_mut().for_each(|x| *x *= scale);
            }
            wrenches.push(w);
        }
        wrenches
    }

    /// How far apart two states put the hand, given where they put its palm, GraspIt's way:
    /// the larger of the palms' distance over the object's radius and half their turn over π.
    pub fn distance(&self, a: &Pose, b: &Pose) -> f64 {
        let shift = (a.translation.vector - b.translation.vector).norm() / self.radius;
        let turn = 0.5 * a.rotation.angle_to(&b.rotation) / PI;
        shift.max(turn)
    }
}
