//! A hand's grasp of an object: the hand's contacts on the object as point or soft contacts,
//! their wrenches, and the grasp's quality (graspit-spec §4.3, §4.4, §8).

use std::collections::HashSet;

use clasp_collide::{CollisionEngine, Placed};
use nalgebra::{Point3, Unit, Vector3};

use crate::{
    Body, BodyId, BodyKind, Contact, Pose, World, contact_frame,
    quality::{self, Quality, QualityError, Wrench, WrenchSpaceKind, contact_wrenches},
    soft::{self, ContactArea, Quadric, SoftFallback},
};

/// How a grasp's contacts are modelled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraspOptions {
    /// Edges of a point contact's friction pyramid (GraspIt: 8).
    pub friction_edges: usize,
    /// Contacts with a body that has a Young's modulus become soft contacts (GraspIt's
    /// `softContactsON`, on by default).
    pub soft_contacts: bool,
    /// The normal force (N) that sizes a soft contact's area (GraspIt's statics: 5 N).
    pub normal_force: f64,
}

impl Default for GraspOptions {
    fn default() -> Self {
        GraspOptions {
            friction_edges: soft::POINT_CONTACT_EDGES,
            soft_contacts: true,
            normal_force: soft::DEFAULT_NORMAL_FORCE,
        }
    }
}

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

/// How one contact pushes the object.
#[derive(Debug, Clone, PartialEq)]
pub enum ContactModel {
    /// A rigid point contact: the friction cone as a pyramid.
    Point,
    /// A soft body was involved but its surface could not be fitted: a point contact, and why.
    PointFallback(SoftFallback),
    /// A soft contact: the fitted surfaces and the torsional friction they allow.
    Soft(Box<SoftContact>),
}

/// A soft contact's fitted surfaces, contact area and drawable patches.
#[derive(Debug, Clone, PartialEq)]
pub struct SoftContact {
    /// The object's surface in the object-side contact frame (z into the object).
    pub object_fit: Quadric,
    /// The hand's surface in the hand-side contact frame (z into the link).
    pub hand_fit: Quadric,
    /// The two relative principal radii (mm), ascending.
    pub relative_radii: [f64; 2],
    pub area: ContactArea,
    /// The fitted surfaces sampled on a 21 × 21 grid (world, row-major) for drawing.
    pub object_patch: Vec<Point3<f64>>,
    pub hand_patch: Vec<Point3<f64>>,
    /// How many nearby contacts were merged into this one (their neighbourhoods overlapped).
    pub merged: usize,
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

    /// The grasp of `object` by `robot` as the world's contacts stand now.
    pub fn grasp(
        &self,
        robot: usize,
        object: BodyId,
        options: &GraspOptions,
    ) -> Result<Grasp, GraspError> {
        if self.robot(robot).is_none() {
            return Err(GraspError::NoSuchRobot(robot));
        }
        evaluate_grasp(
            &self.engine,
            |id| self.body(id),
            &self.contacts,
            (robot, object),
            options,
        )
    }
}

/// The grasp of `object` by `robot` (which the caller has checked) in a world or a domain:
/// its bodies by id, and both sides of its contacts.
pub(crate) fn evaluate_grasp<'a>(
    engine: &dyn CollisionEngine,
    body_of: impl Fn(BodyId) -> Option<&'a Body>,
    all_contacts: &[Contact],
    (robot, object): (usize, BodyId),
    options: &GraspOptions,
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
        for (contact, model, edges) in model_pair(engine, body, hand, &on_link, options) {
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

/// The contacts between the object and one link, modelled: point contacts, or soft contacts
/// (nearby ones merged) when either body is soft. Each with its friction edges.
fn model_pair(
    engine: &dyn CollisionEngine,
    object: &Body,
    hand: &Body,
    contacts: &[&Contact],
    options: &GraspOptions,
) -> Vec<(Contact, ContactModel, Vec<[f64; 6]>)> {
    let pyramid = || soft::pyramid_edges(options.friction_edges);
    let youngs = [object.youngs, hand.youngs]
        .into_iter()
        .flatten()
        .filter(|e| e.is_finite() && *e > 0.0)
        .fold(None, |m: Option<f64>, e| Some(m.map_or(e, |m| m.max(e))));
    let Some(youngs) = youngs.filter(|_| options.soft_contacts) else {
        return contacts
            .iter()
            .map(|c| ((*c).clone(), ContactModel::Point, pyramid()))
            .collect();
    };
    let radius = soft::neighbourhood_radius(youngs);
    merge(neighbourhoods(engine, object, hand, contacts, radius))
        .into_iter()
        .map(|n| {
            let soft = soft_contact(object, hand, &n, youngs, options.normal_force);
            match soft.and_then(|s| Ok((soft::ellipsoid_edges(s.area.torsion_radius)?, s))) {
                Ok((edges, s)) => (n.contact, ContactModel::Soft(Box::new(s)), edges),
                Err(reason) => (n.contact, ContactModel::PointFallback(reason), pyramid()),
            }
        })
        .collect()
}

/// A contact with the surface points round it on each body (each body's frame).
struct Neighbourhood {
    contact: Contact,
    object_points: Vec<Point3<f64>>,
    hand_points: Vec<Point3<f64>>,
    merged: usize,
}

fn neighbourhoods(
    engine: &dyn CollisionEngine,
    object: &Body,
    hand: &Body,
    contacts: &[&Contact],
    radius: f64,
) -> Vec<Neighbourhood> {
    contacts
        .iter()
        .map(|c| Neighbourhood {
            contact: (*c).clone(),
            object_points: region(engine, object, &c.point, &c.inward(), radius),
            hand_points: region(engine, hand, &c.other_point, &-c.inward(), radius),
            merged: 0,
        })
        .collect()
}

/// GraspIt's bodyRegion: the vertices of the triangles within `radius` of a contact point that
/// face against the inward normal, and the point itself; in the body's frame.
fn region(
    engine: &dyn CollisionEngine,
    body: &Body,
    point: &Point3<f64>,
    inward: &Unit<Vector3<f64>>,
    radius: f64,
) -> Vec<Point3<f64>> {
    let local_point = body.pose.inverse_transform_point(point);
    let local_normal = body.pose.inverse_transform_vector(inward);
    let placed = Placed::new(&body.geometry, body.pose);
    let mut points = engine.region(placed, &local_point, &local_normal, radius);
    points.push(local_point);
    points
}

/// GraspIt's mergeSoftNeighborhoods: contacts whose object-side neighbourhoods share a vertex
/// are one contact patch; the closest of them stays, with the union of their neighbourhoods.
fn merge(mut all: Vec<Neighbourhood>) -> Vec<Neighbourhood> {
    let key = |p: &Point3<f64>| [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()];
    'again: loop {
        for i in 0..all.len() {
            let vertices: HashSet<[u64; 3]> = all[i].object_points.iter().map(key).collect();
            for j in i + 1..all.len() {
                if all[j]
                    .object_points
                    .iter()
                    .any(|p| vertices.contains(&key(p)))
                {
                    let (keep, drop) = if all[j].contact.separation < all[i].contact.separation {
                        (j, i)
                    } else {
                        (i, j)
                    };
                    let gone = all.remove(drop);
                    let kept = &mut all[if keep > drop { keep - 1 } else { keep }];
                    union(&mut kept.object_points, gone.object_points);
                    union(&mut kept.hand_points, gone.hand_points);
                    kept.merged += 1 + gone.merged;
                    continue 'again;
                }
            }
        }
        return all;
    }
}

fn union(into: &mut Vec<Point3<f64>>, from: Vec<Point3<f64>>) {
    for p in from {
        if !into.contains(&p) {
            into.push(p);
        }
    }
}

/// Fits both surfaces, combines their curvatures and sizes the contact area.
fn soft_contact(
    object: &Body,
    hand: &Body,
    n: &Neighbourhood,
    youngs: f64,
    normal_force: f64,
) -> Result<SoftContact, SoftFallback> {
    let object_frame = n.contact.inward_frame();
    let hand_frame = contact_frame(n.contact.other_point, -n.contact.inward());
    let object_fit = fit(object, &object_frame, &n.object_points)?;
    let hand_fit = fit(hand, &hand_frame, &n.hand_points)?;
    let (object_curvature, hand_curvature) = (object_fit.curvature()?, hand_fit.curvature()?);
    let direction =
        |frame: &Pose, angle: f64| frame.rotation * Vector3::new(angle.cos(), angle.sin(), 0.0);
    let cosine = direction(&object_frame, object_curvature.angle)
        .dot(&direction(&hand_frame, hand_curvature.angle))
        .clamp(-1.0, 1.0);
    let relative_radii = soft::relative_radii(&object_curvature, &hand_curvature, cosine.acos())?;
    let area = soft::mattress_contact(normal_force, youngs, relative_radii)?;
    Ok(SoftContact {
        object_fit,
        hand_fit,
        relative_radii,
        area,
        object_patch: soft::patch_grid(&object_fit, &object_frame)?,
        hand_patch: soft::patch_grid(&hand_fit, &hand_frame)?,
        merged: n.merged,
    })
}

/// The quadric of a body's surface points (body frame) in a contact frame (world).
fn fit(body: &Body, frame: &Pose, points: &[Point3<f64>]) -> Result<Quadric, SoftFallback> {
    let to_frame = frame.inverse() * body.pose;
    let in_frame: Vec<Point3<f64>> = points.iter().map(|p| to_frame * p).collect();
    soft::check_smooth(&in_frame)?;
    soft::fit_quadric(&in_frame)
}
