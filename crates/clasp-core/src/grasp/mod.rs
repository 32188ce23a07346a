//! A hand's grasp of an object: the hand's contacts on the object as point or soft contacts,
//! their wrenches, and the grasp's quality (graspit-spec §4.3, §4.4, §8).

use clasp_collide::CollisionEngine;
use nalgebra::Point3;

pub mod antipodal;
pub mod batch;
pub mod hold;
pub mod hold_settings;
pub mod hull;
pub mod quality;
pub mod squeeze;
pub mod trial;
pub mod virtual_quality;

use quality::{Quality, QualityError, Wrench, WrenchSpaceKind, contact_wrenches};

use crate::{
    contact::{
        Contact,
        model::{ContactModel, ContactOptions},
        modelling::model_pair,
    },
    ids::{BodyId, RobotId},
    world::{
        World,
        domain::Domain,
        stage::{Backdrop, Stage},
    },
};

/// Why a grasp could not be formed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GraspError {
    #[error("there is no robot {0} in the world")]
    NoSuchRobot(RobotId),
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
    pub robot: RobotId,
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
    /// The grasp of `object` by `robot` as the world's contacts stand now.
    pub fn grasp(
        &self,
        robot: RobotId,
        object: BodyId,
        options: &ContactOptions,
    ) -> Result<Grasp, GraspError> {
        self.stage.grasp(&self.backdrop(), robot, object, options)
    }
}

impl<E: CollisionEngine> Domain<'_, E> {
    /// The grasp of `object` (the world's or the domain's) by one of the domain's robots.
    pub fn grasp(
        &self,
        robot: RobotId,
        object: BodyId,
        options: &ContactOptions,
    ) -> Result<Grasp, GraspError> {
        self.stage.grasp(&self.backdrop(), robot, object, options)
    }
}

impl Stage {
    /// The grasp of `object` (any body the stage sees) by one of the stage's robots, as its
    /// contacts stand: modelled with the world's options, the contacts' own models serve; other
    /// options model them again.
    pub(crate) fn grasp(
        &self,
        backdrop: &Backdrop,
        robot: RobotId,
        object: BodyId,
        options: &ContactOptions,
    ) -> Result<Grasp, GraspError> {
        if self.robot(robot).is_none() {
            return Err(GraspError::NoSuchRobot(robot));
        }
        let (BodyId::Free(_), Some(body)) = (object, self.visible_body(backdrop, object)) else {
            return Err(GraspError::NotAnObject(object));
        };
        let modelled_with = &backdrop.settings.contact_options;
        let cog = body.mass.cog;
        let max_radius = body.geometry.farthest_vertex_distance(&cog);
        let touching: Vec<&Contact> = self
            .contacts
            .iter()
            .filter(|c| c.body == object && c.other.robot() == Some(robot))
            .collect();
        let mut contacts = Vec::new();
        for link in distinct_others(&touching) {
            let Some(hand) = self.visible_body(backdrop, link) else {
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
                model_pair(backdrop.engine, body, hand, &on_link, options)
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
