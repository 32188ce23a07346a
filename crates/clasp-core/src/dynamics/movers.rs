//! What a step moves, and where each of them stands in the solver's problem.

use clasp_collide::CollisionEngine;

use crate::{
    body::{Body, BodyType},
    ids::{BodyId, RobotId},
    world::World,
};

use super::solver::Side;

/// The free bodies and robots a step moves.
#[derive(Debug, Clone)]
pub(crate) struct Movers {
    /// Free bodies: the dynamic ones first, then the kinematic ones.
    pub bodies: Vec<usize>,
    /// How many of `bodies` are dynamic.
    pub dynamic: usize,
    /// Robots their DOF controllers drive.
    pub robots: Vec<RobotId>,
    /// Per robot, where each chain's links start in its list of links.
    chain_starts: Vec<Vec<usize>>,
    /// Per robot, the palm's place in its list of links, where its base moves.
    moving_palms: Vec<Option<usize>>,
}

impl Movers {
    pub fn of<E: CollisionEngine>(world: &World<E>) -> Self {
        let of_type = |wanted: fn(&Body) -> bool| {
            world
                .free_bodies()
                .filter(move |(_, b)| wanted(b))
                .map(|(i, _)| i)
        };
        let mut bodies: Vec<usize> = of_type(Body::is_dynamic).collect();
        let dynamic = bodies.len();
        bodies.extend(of_type(|b| b.body_type() == BodyType::Kinematic));
        let driven: Vec<_> = world
            .robots()
            .filter(|(_, r)| r.dof_targets().is_some())
            .collect();
        let moving_palms = driven
            .iter()
            .map(|(_, robot)| {
                let links = robot.chains().iter().map(|c| c.links.len()).sum();
                let moving = robot.has_free_base()
                    || robot.base_velocity() != crate::body::velocity::Velocity::ZERO;
                moving.then_some(links)
            })
            .collect();
        let chain_starts = driven
            .iter()
            .map(|(_, robot)| {
                let mut start = 0;
                robot
                    .chains()
                    .iter()
                    .map(|c| {
                        let here = start;
                        start += c.links.len();
                        here
                    })
                    .collect()
            })
            .collect();
        Movers {
            bodies,
            dynamic,
            robots: driven.iter().map(|(id, _)| *id).collect(),
            chain_starts,
            moving_palms,
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

    /// Whether the step moves this body (a driven robot's palm only where its base moves).
    pub fn moves(&self, id: BodyId) -> bool {
        self.side(id).is_some()
    }

    /// Where a body stands in the problem; `None` for one that stays.
    pub fn side(&self, id: BodyId) -> Option<Side> {
        match id {
            BodyId::Free(i) => self.bodies.iter().position(|&b| b == i).map(Side::Body),
            BodyId::Link { robot, chain, link } => {
                let k = self.robots.iter().position(|&r| r == robot)?;
                let start = self.chain_starts[k].get(chain)?;
                Some(Side::Link {
                    robot: k,
                    link: start + link,
                })
            }
            BodyId::Palm { robot } => {
                let k = self.robots.iter().position(|&r| r == robot)?;
                let link = self.moving_palms[k]?;
                Some(Side::Link { robot: k, link })
            }
            _ => None,
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
