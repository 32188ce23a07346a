//! What a move or a contact search sees, in two layers: the shared world (domain 0, read-only)
//! and the bodies of the owner that moves them (the world itself, or a domain with its own
//! bodies and robots). Ids are numbered across both so that they never clash. The world and
//! its domains both run their moves and find their contacts here.

use rayon::prelude::*;

use super::error::MoveError;
use crate::{
    body::Body,
    contact::{
        Contact,
        filter::{CollisionSwitches, Part, checked},
        search::{number_contacts, pair_contacts},
    },
    ids::{BodyId, Element, RobotId},
    motion::{Carried, Motion, Mover, Rules, gaps::GapMemory},
    robot::{
        Robot,
        mount::{Connection, carried_by},
    },
};

/// Bodies and robots in slots, the first numbered `first_body_slot` and `first_robot_slot`, in one domain.
#[derive(Clone, Copy)]
pub(crate) struct Layer<'a> {
    pub bodies: &'a [Option<Body>],
    pub robots: &'a [Option<Robot>],
    pub first_body_slot: usize,
    pub first_robot_slot: usize,
    pub domain: u32,
    /// Bodies and robots of this layer left out of view (the originals of a domain's clones).
    pub hidden: &'a [Element],
}

impl<'a> Layer<'a> {
    /// A layer of nothing: what the world's own moves share with.
    pub fn empty() -> Self {
        Layer {
            bodies: &[],
            robots: &[],
            first_body_slot: 0,
            first_robot_slot: 0,
            domain: 0,
            hidden: &[],
        }
    }

    /// A visible robot of the layer.
    pub fn robot(&self, id: RobotId) -> Option<&'a Robot> {
        if self.hides(Element::Robot(id)) {
            return None;
        }
        let local = id.index().checked_sub(self.first_robot_slot)?;
        self.robots.get(local)?.as_ref()
    }

    /// A body of the layer: a free body, or a visible robot's.
    pub fn body(&self, id: BodyId) -> Option<&'a Body> {
        match (id.robot(), id.robot_body()) {
            (Some(robot), Some(which)) => self.robot(robot)?.body(which),
            _ => {
                let i = id.free_index()?;
                if self.hides(Element::Body(i)) {
                    return None;
                }
                self.bodies
                    .get(i.checked_sub(self.first_body_slot)?)?
                    .as_ref()
            }
        }
    }

    /// Every body of the layer: free bodies, then each visible robot's palm and links.
    pub fn parts(&self) -> Vec<Part<'a>> {
        let mut parts = free_parts(self.bodies, self.first_body_slot, self.domain, |i| {
            !self.hides(Element::Body(i))
        });
        parts.extend(robot_parts(
            self.robots,
            self.first_robot_slot,
            self.domain,
            |r| !self.hides(Element::Robot(r)),
        ));
        parts
    }

    /// Whether the layer leaves this body or robot out of view.
    fn hides(&self, element: Element) -> bool {
        self.hidden.contains(&element)
    }
}

fn free_parts(
    bodies: &[Option<Body>],
    first: usize,
    domain: u32,
    shown: impl Fn(usize) -> bool,
) -> Vec<Part<'_>> {
    slots(bodies)
        .map(|(i, body)| (first + i, body))
        .filter(|&(i, _)| shown(i))
        .map(|(i, body)| Part {
            id: BodyId::Free(i),
            body,
            robot: None,
            domain,
        })
        .collect()
}

fn robot_parts(
    robots: &[Option<Robot>],
    first: usize,
    domain: u32,
    shown: impl Fn(RobotId) -> bool,
) -> Vec<Part<'_>> {
    slots(robots)
        .map(|(r, robot)| (RobotId::from_index(first + r), robot))
        .filter(|&(r, _)| shown(r))
        .flat_map(|(r, robot)| parts_of_robot(r, robot, domain))
        .collect()
}

/// The bodies of robot number `r`.
fn parts_of_robot(r: RobotId, robot: &Robot, domain: u32) -> Vec<Part<'_>> {
    robot
        .parts()
        .into_iter()
        .filter_map(move |which| {
            Some(Part {
                id: BodyId::of_robot(r, which),
                body: robot.body(which)?,
                robot: Some(robot),
                domain,
            })
        })
        .collect()
}

/// The pairs an owner checks: its bodies among themselves and against the shared layer.
pub(crate) fn checked_pairs<'a>(
    switches: &CollisionSwitches,
    shared: &Layer<'a>,
    own: &Layer<'a>,
) -> Vec<(Part<'a>, Part<'a>)> {
    let (own, shared) = (own.parts(), shared.parts());
    let mut pairs = Vec::new();
    for (i, a) in own.iter().enumerate() {
        for b in own[i + 1..].iter().chain(&shared) {
            if checked(switches, *a, *b) {
                pairs.push((*a, *b));
            }
        }
    }
    pairs
}

/// Every contact of an owner's bodies, both sides of each, numbered; all pairs in parallel
/// (GraspIt's `findAllContacts`).
pub(crate) fn find_contacts(rules: &Rules, shared: &Layer, own: &Layer) -> Vec<Contact> {
    let mut found: Vec<Contact> = checked_pairs(rules.switches, shared, own)
        .par_iter()
        .flat_map_iter(|(a, b)| {
            pair_contacts(
                rules.engine,
                *a,
                *b,
                rules.threshold,
                &rules.contact_options,
            )
        })
        .collect();
    number_contacts(&mut found);
    found
}

/// The owner's bodies and robots, which its moves change.
pub(crate) struct OwnLayer<'a> {
    pub bodies: &'a mut [Option<Body>],
    pub robots: &'a mut [Option<Robot>],
    pub first_body_slot: usize,
    pub first_robot_slot: usize,
    pub domain: u32,
    /// Which of its robots carry which.
    pub connections: &'a [Connection],
}

/// Runs `act` on a motion of one of the owner's elements (a robot with the robots it
/// carries) against everything else it sees, then, if anything moved, puts the mover's new
/// contacts in place of its old ones in `contacts`. An element the owner does not hold is
/// refused.
pub(crate) fn run_motion<R>(
    shared: Layer,
    own: OwnLayer,
    element: Element,
    rules: Rules,
    memory: &mut GapMemory,
    contacts: Option<&mut Vec<Contact>>,
    act: impl FnOnce(&mut Motion) -> R,
) -> Result<R, MoveError> {
    let missing = MoveError::NoSuchElement(element);
    let mut others = shared.parts();
    let domain = own.domain;
    let layer = |bodies, robots, first_body_slot, first_robot_slot| Layer {
        bodies,
        robots,
        first_body_slot,
        first_robot_slot,
        domain,
        hidden: &[],
    };
    let mover = match element {
        Element::Body(i) => {
            let local = i.checked_sub(own.first_body_slot).ok_or(missing.clone())?;
            if own.bodies.get(local).is_none_or(Option::is_none) {
                return Err(missing);
            }
            let (left, rest) = own.bodies.split_at_mut(local);
            let (body, right) = rest.split_first_mut().ok_or(missing.clone())?;
            let robots: &[Option<Robot>] = own.robots;
            others.extend(layer(left, robots, own.first_body_slot, own.first_robot_slot).parts());
            others.extend(layer(right, &[], i + 1, 0).parts());
            Mover::Body {
                index: i,
                body: body.as_mut().ok_or(missing)?,
            }
        }
        Element::Robot(r) => {
            let bodies: &[Option<Body>] = own.bodies;
            others.extend(layer(bodies, &[], own.first_body_slot, 0).parts());
            let group = carried_by(own.connections, r);
            let (mut moving, mut carried) = (None, Vec::new());
            for (local, slot) in own.robots.iter_mut().enumerate() {
                let index = RobotId::from_index(own.first_robot_slot + local);
                let Some(robot) = slot.as_mut() else { continue };
                let connection = own.connections.iter().find(|c| c.child_robot == index);
                match connection {
                    _ if index == r => moving = Some(robot),
                    Some(c) if group.contains(&index) => carried.push(Carried {
                        index,
                        robot,
                        connection: c.clone(),
                    }),
                    _ => others.extend(parts_of_robot(index, robot, domain)),
                }
            }
            carried.sort_by_key(|c| group.iter().position(|&g| g == c.index));
            Mover::Robot {
                index: r,
                robot: moving.ok_or(missing)?,
                carried,
            }
        }
    };
    let mut motion = Motion {
        mover,
        others: &others,
        rules,
        memory,
        domain,
    };
    let before = motion.mover_poses();
    let result = act(&mut motion);
    // A move that moved nothing (a drag held at contact) leaves the contacts as they were; a
    // caller that finds them itself (a dynamics step, once for all its moves) passes none.
    if let Some(contacts) = contacts
        && motion.mover_poses() != before
    {
        let ids = motion.mover_ids();
        let found = motion.contacts();
        contacts.retain(|c| !ids.contains(&c.body) && !ids.contains(&c.other));
        contacts.extend(found);
        number_contacts(contacts);
    }
    Ok(result)
}

/// The filled slots of a list, with their indices.
pub(crate) fn slots<T>(list: &[Option<T>]) -> impl Iterator<Item = (usize, &T)> {
    list.iter()
        .enumerate()
        .filter_map(|(i, slot)| Some((i, slot.as_ref()?)))
}
