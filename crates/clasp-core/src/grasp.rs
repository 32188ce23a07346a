//! A hand's grasp of an object: the hand's contacts on the object as point or soft contacts,
//! their wrenches, and the grasp's quality (graspit-spec §4.3, §4.4, §8).

use clasp_collide::CollisionEngine;
use nalgebra::Point3;

use crate::{
    Body, BodyId, BodyKind, Contact, ContactModel, ContactOptions, World,
    contact_model::model_pair,
    quality::{self, Quality, QualityError, Wrench, WrenchSpaceKind, contact_wrenches},
};

/// Why a grasp could not be formed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GraspError {
    #[error("there is no robot {0} in the world")]
    NoSuchRobot(usize),
    #[error("the world has no graspable object")]
    NoObject,
    #[error("{0:?} is not a free body of the world, so it cannot be grasped")]
    NotAnObject(BodyId),
}

/// One contact of the grasp, seen from the object.
#[derive(Debug, Clone, PartialEq)]
pub struct GraspContact {
    /// The object's side of the contact: point on the object, normal into it.
    pub contact: Contact,
    /// The Coulomb coefficient its wrenches use (static, as GraspIt's).
    pub friction: f64,
    pub model: ContactModel,
    /// One wrench per friction edge, in the object's frame, for a unit normal force.
    pub wrenches: Vec<Wrench>,
}

/// A hand's contacts on an object and what they can push.
#[derive(Debug, Clone, PartialEq)]
pub struct Grasp {
    pub robot: usize,
    pub object: BodyId,
    /// The object's centre of gravity (its frame): torques are about it.
    pub cog: Point3<f64>,
    /// The largest distance from the centre of gravity to the object's surface (mm): torques
    /// are divided by it.
    pub max_radius: f64,
    pub contacts: Vec<GraspContact>,
}

impl Grasp {
    /// The grasp's epsilon quality and force closure in the chosen wrench space.
    pub fn quality(&self, kind: WrenchSpaceKind) -> Result<Quality, QualityError> {
        quality::quality(&self.wrenches(), kind, false)
    }

    /// Epsilon and the volume quality, which builds the whole wrench-space hull.
    pub fn quality_with_volume(&self, kind: WrenchSpaceKind) -> Result<Quality, QualityError> {
        quality::quality(&self.wrenches(), kind, true)
    }

    /// Each contact's wrenches.
    pub fn wrenches(&self) -> Vec<Vec<Wrench>> {
        self.contacts.iter().map(|c| c.wrenches.clone()).collect()
    }
}

impl<E: CollisionEngine> World<E> {
    /// The object hands grasp: GraspIt's rule, the first graspable body.
    pub fn grasped_object(&self) -> Option<BodyId> {
        self.free_bodies()
            .find(|(_, b)| b.kind == BodyKind::Graspable)
            .map(|(i, _)| BodyId::Free(i))
    }

    /// The hand that grasps, approaches and auto-grasps when none is named (GraspIt's
    /// `getCurrentHand`): the one chosen with [`World::set_current_hand`] while it is there,
    /// else the first robot that is a hand, so an arm listed before the hand it carries is
    /// passed over.
    pub fn current_hand(&self) -> Option<usize> {
        self.chosen_hand
            .filter(|&r| self.robot(r).is_some())
            .or_else(|| {
                // A hand that carries another robot is an arm in all but its file's type
                // (the TX60L is typed `Hand`): the hand it carries grasps.
                let hands = || self.robots().filter(|(_, r)| r.is_hand()).map(|(i, _)| i);
                let carrying = |r: usize| self.connections.iter().any(|c| c.parent_robot == r);
                hands().find(|&r| !carrying(r)).or_else(|| hands().next())
            })
    }

    /// Chooses the robot that grasps when none is named (any robot may be chosen: an arm with
    /// a gripper of its own, say). Returns false, changing nothing, if there is no such robot.
    pub fn set_current_hand(&mut self, robot: usize) -> bool {
        let there = self.robot(robot).is_some();
        if there {
            self.chosen_hand = Some(robot);
        }
        there
    }

    /// The grasp of `object` by `robot` as the world's contacts stand now.
    pub fn grasp(
        &self,
        robot: usize,
        object: BodyId,
        options: &ContactOptions,
    ) -> Result<Grasp, GraspError> {
        if self.robot(robot).is_none() {
            return Err(GraspError::NoSuchRobot(robot));
        }
        evaluate_grasp(
            &self.engine,
            |id| self.body(id),
            &self.contacts,
            (robot, object),
            (options, &self.settings.contact_options),
        )
    }
}

/// The grasp of `object` by `robot` (which the caller has checked) in a world or a domain:
/// its bodies by id, and both sides of its contacts, modelled with the world's options. A grasp
/// asked with those options takes the contacts' own models; other options model them again.
pub(crate) fn evaluate_grasp<'a>(
    engine: &dyn CollisionEngine,
    body_of: impl Fn(BodyId) -> Option<&'a Body>,
    all_contacts: &[Contact],
    (robot, object): (usize, BodyId),
    (options, modelled_with): (&ContactOptions, &ContactOptions),
) -> Result<Grasp, GraspError> {
    let (BodyId::Free(_), Some(body)) = (object, body_of(object)) else {
        return Err(GraspError::NotAnObject(object));
    };
    let cog = body.mass.cog;
    let max_radius = quality::max_radius(body.mesh().vertices(), &cog);
    let touching: Vec<&Contact> = all_contacts
        .iter()
        .filter(|c| c.body == object && c.other.robot() == Some(robot))
        .collect();
    let mut contacts = Vec::new();
    for link in distinct_others(&touching) {
        let Some(hand) = body_of(link) else {
            continue;
        };
        let on_link: Vec<&Contact> = touching
            .iter()
            .copied()
            .filter(|c| c.other == link)
            .collect();
        let models = if options == modelled_with {
            on_link
                .iter()
                .map(|c| ((*c).clone(), c.model.clone(), c.friction_edges.clone()))
                .collect()
        } else {
            model_pair(engine, body, hand, &on_link, options)
        };
        for (contact, model, edges) in models {
            let frame = body.pose.inverse() * contact.inward_frame();
            let friction = contact.static_friction;
            let wrenches = contact_wrenches(&frame, &edges, friction, &cog, max_radius);
            contacts.push(GraspContact {
                contact,
                friction,
                model,
                wrenches,
            });
        }
    }
    Ok(Grasp {
        robot,
        object,
        cog,
        max_radius,
        contacts,
    })
}

/// The bodies the contacts touch, in first-seen order.
fn distinct_others(contacts: &[&Contact]) -> Vec<BodyId> {
    let mut seen = Vec::new();
    for c in contacts {
        if !seen.contains(&c.other) {
            seen.push(c.other);
        }
    }
    seen
}
