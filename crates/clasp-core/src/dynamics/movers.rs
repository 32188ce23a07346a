//! What a step moves, and where each of them stands in the solver's problem.

use crate::{
    body::{Body, BodyType, velocity::Velocity},
    ids::{BodyId, RobotId},
    robot::{Robot, mount::carried_by},
    world::{layers::slots, stage::Stage},
};

/// A contact's side that moves: a free body, or one body of a driven robot's assembly (see
/// [`Assembly`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Body(usize),
    Link { assembly: usize, link: usize },
}

/// The free bodies and robots a step moves.
#[derive(Debug, Clone)]
pub(crate) struct Movers {
    /// Free bodies: the dynamic ones first, then the kinematic ones.
    pub bodies: Vec<usize>,
    /// How many of `bodies` are dynamic.
    pub dynamic: usize,
    /// The driven robots, each with the robots it carries: one articulated body apiece.
    pub assemblies: Vec<Assembly>,
}

/// A driven robot and every robot it carries (an arm and its hand), moved as one articulated
/// body: its generalized coordinates are its driven members' DOFs, member by member.
#[derive(Debug, Clone)]
pub(crate) struct Assembly {
    /// The robot at the bottom first, then each carried one after its carrier.
    pub members: Vec<Member>,
    /// Whether the bottom robot's palm moves (a free or kinematic base).
    pub moving_base: bool,
}

/// One robot of an assembly, and where its DOFs and bodies stand among the assembly's.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub robot: RobotId,
    /// Its DOFs as generalized coordinates: none for a robot its controllers do not drive
    /// (it rides on its carrier as it stands).
    pub dofs: usize,
    /// Its first DOF among the assembly's coordinates.
    pub first_dof: usize,
    /// Its first body among the assembly's: its links chain by chain, then its palm, then its
    /// mount piece if it has one.
    pub first_body: usize,
    /// Where each chain's links start, from `first_body`.
    chain_starts: Vec<usize>,
    links: usize,
    has_mount: bool,
    /// The assembly's body that carries it (its carrier's chain end); `None` at the bottom.
    pub carried_on: Option<usize>,
}

impl Member {
    fn new(robot: RobotId, of: &Robot, first_dof: usize, first_body: usize) -> Self {
        let mut chain_starts = Vec::with_capacity(of.chains().len());
        let mut links = 0;
        for chain in of.chains() {
            chain_starts.push(links);
            links += chain.links.len();
        }
        Member {
            robot,
            dofs: if of.dof_targets().is_some() {
                of.dofs.len()
            } else {
                0
            },
            first_dof,
            first_body,
            chain_starts,
            links,
            has_mount: of.mount().is_some(),
            carried_on: None,
        }
    }

    /// Its palm among the assembly's bodies.
    pub fn palm(&self) -> usize {
        self.first_body + self.links
    }

    /// How many bodies it adds to the assembly.
    fn bodies(&self) -> usize {
        self.links + 1 + usize::from(self.has_mount)
    }

    /// The last link of `chain` among the assembly's bodies (the palm for a chain without one).
    fn chain_end(&self, chain: usize) -> usize {
        let start = self.chain_starts.get(chain).copied();
        let end = self
            .chain_starts
            .get(chain + 1)
            .copied()
            .unwrap_or(self.links);
        match start {
            Some(s) if end > s => self.first_body + end - 1,
            _ => self.palm(),
        }
    }
}

impl Assembly {
    /// The robot at the bottom, `root`, and all it carries, as they stand on `stage`.
    fn of(stage: &Stage, root: RobotId) -> Option<Self> {
        let mut members: Vec<Member> = Vec::new();
        let (mut dofs, mut bodies) = (0, 0);
        for id in std::iter::once(root).chain(carried_by(&stage.connections, root)) {
            let robot = stage.robot(id)?;
            let mut member = Member::new(id, robot, dofs, bodies);
            if let Some(c) = stage.carrying(id).filter(|_| id != root) {
                let carrier = members.iter().find(|m| m.robot == c.parent_robot)?;
                member.carried_on = Some(carrier.chain_end(c.parent_chain));
            }
            dofs += member.dofs;
            bodies += member.bodies();
            members.push(member);
        }
        let bottom = stage.robot(root)?;
        Some(Assembly {
            members,
            moving_base: bottom.has_free_base() || bottom.base_velocity() != Velocity::ZERO,
        })
    }

    /// The robot at the bottom.
    pub fn root(&self) -> RobotId {
        self.members[0].robot
    }

    /// Its generalized coordinates besides a free base's.
    pub fn dofs(&self) -> usize {
        self.members.iter().map(|m| m.dofs).sum()
    }

    /// Where a robot's body stands among the assembly's; `None` for one not in it, or the
    /// bottom robot's palm or mount piece where its base stays.
    fn body(&self, id: BodyId) -> Option<usize> {
        let robot = id.robot()?;
        let (k, member) = self
            .members
            .iter()
            .enumerate()
            .find(|(_, m)| m.robot == robot)?;
        let moves = k > 0 || self.moving_base;
        match id {
            BodyId::Link { chain, link, .. } => {
                let start = member.chain_starts.get(chain)?;
                Some(member.first_body + start + link)
            }
            BodyId::Palm { .. } => moves.then(|| member.palm()),
            BodyId::Mount { .. } => (moves && member.has_mount).then(|| member.palm() + 1),
            _ => None,
        }
    }
}

impl Movers {
    /// What moves among a stage's own bodies and robots (to a domain, the shared world stays).
    pub fn of(stage: &Stage) -> Self {
        let of_type = |wanted: fn(&Body) -> bool| {
            slots(&stage.bodies)
                .filter(move |(_, b)| wanted(b))
                .map(|(i, _)| stage.first_body_slot + i)
        };
        let mut bodies: Vec<usize> = of_type(Body::is_dynamic).collect();
        let dynamic = bodies.len();
        bodies.extend(of_type(|b| b.body_type() == BodyType::Kinematic));
        let driven = |id: RobotId| stage.robot(id).is_some_and(|r| r.dof_targets().is_some());
        // A driven robot is the bottom of an assembly unless a driven robot carries it,
        // directly or through others.
        let carried_by_driven = |id: RobotId| {
            let mut at = id;
            while let Some(c) = stage.carrying(at) {
                if driven(c.parent_robot) {
                    return true;
                }
                at = c.parent_robot;
            }
            false
        };
        let assemblies = slots(&stage.robots)
            .map(|(r, _)| RobotId::from_index(stage.first_robot_slot + r))
            .filter(|&id| driven(id) && !carried_by_driven(id))
            .filter_map(|id| Assembly::of(stage, id))
            .collect();
        Movers {
            bodies,
            dynamic,
            assemblies,
        }
    }

    /// The dynamic free bodies.
    pub fn dynamic(&self) -> &[usize] {
        &self.bodies[..self.dynamic]
    }

    /// The kinematic free bodies.
    pub fn kinematic(&self) -> &[usize] {
        &self.bodies[self.dynamic..]
    }

    /// Every robot the step moves, each assembly's bottom robot before those it carries.
    pub fn robots(&self) -> impl Iterator<Item = RobotId> + '_ {
        self.assemblies
            .iter()
            .flat_map(|a| a.members.iter().map(|m| m.robot))
    }

    /// Whether the step moves this body (an assembly's bottom palm only where its base moves).
    pub fn moves(&self, id: BodyId) -> bool {
        self.side(id).is_some()
    }

    /// Where a body stands in the problem; `None` for one that stays.
    pub fn side(&self, id: BodyId) -> Option<Side> {
        match id {
            BodyId::Free(i) => self.bodies.iter().position(|&b| b == i).map(Side::Body),
            _ => self
                .assemblies
                .iter()
                .enumerate()
                .find_map(|(k, a)| a.body(id).map(|link| Side::Link { assembly: k, link })),
        }
    }

    /// Whether a side answers a push (dynamic bodies and driven robots; kinematic bodies go
    /// their way whatever pushes them).
    pub fn pushes_back(&self, side: Side) -> bool {
        match side {
            Side::Body(k) => k < self.dynamic,
            Side::Link { .. } => true,
        }
    }
}
