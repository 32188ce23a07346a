//! How each contact pushes: a rigid point contact (GraspIt's 8-edge friction pyramid) or, when
//! either body is soft, a soft contact (graspit-spec §4.4): each body's neighbourhood round the
//! contact, nearby contacts merged, both surfaces fitted, the contact area and the torsional
//! friction it carries. Every contact of the world is modelled so, for every pair of bodies,
//! and a grasp's wrenches come from these models.

use std::collections::HashSet;

use clasp_collide::{CollisionEngine, Placed};
use nalgebra::{Point3, Unit, Vector3};

use super::{
    Contact, contact_frame, graspit_soft,
    model::{ContactMode, ContactModel, ContactOptions, SoftContact},
    soft::{
        curvature::{Quadric, relative_radii},
        fallback::SoftFallback,
        fit::{check_smooth, fit_quadric, neighbourhood_radius},
        friction::{ellipsoid_edges, mattress_contact, pyramid_edges},
        patch::patch_grid,
    },
};
use crate::{body::Body, pose::Pose};

/// The contacts of one pair of bodies, seen from `object`'s side, modelled: point contacts, or
/// soft contacts (nearby ones merged) when either body is soft. Each with its friction edges.
pub(crate) fn model_pair(
    engine: &dyn CollisionEngine,
    object: &Body,
    hand: &Body,
    contacts: &[&Contact],
    options: &ContactOptions,
) -> Vec<(Contact, ContactModel, Vec<[f64; 6]>)> {
    model_patches(engine, object, hand, contacts, options)
        .into_iter()
        .map(|m| (m.contact, m.model, m.edges))
        .collect()
}

/// One modelled contact, and the contacts it stands for: itself, and those merged into its
/// soft patch.
pub(crate) struct Modelled {
    pub contact: Contact,
    pub model: ContactModel,
    pub edges: Vec<[f64; 6]>,
    pub members: Vec<Contact>,
}

/// [`model_pair`], each modelled contact with the contacts merged into it.
pub(crate) fn model_patches(
    engine: &dyn CollisionEngine,
    object: &Body,
    hand: &Body,
    contacts: &[&Contact],
    options: &ContactOptions,
) -> Vec<Modelled> {
    let pyramid = || pyramid_edges(options.friction_edges);
    let youngs = [object.youngs, hand.youngs]
        .into_iter()
        .flatten()
        .filter(|e| e.is_finite() && *e > 0.0)
        .fold(None, |m: Option<f64>, e| Some(m.map_or(e, |m| m.max(e))));
    let Some(youngs) = youngs.filter(|_| options.soft_contacts) else {
        return contacts
            .iter()
            .map(|c| Modelled {
                contact: (*c).clone(),
                model: ContactModel::Point,
                edges: pyramid(),
                members: vec![(*c).clone()],
            })
            .collect();
    };
    let radius = neighbourhood_radius(youngs);
    merge(neighbourhoods(engine, object, hand, contacts, radius))
        .into_iter()
        .map(|n| {
            let soft = if options.mode == ContactMode::GraspIt {
                graspit_soft::soft_contact(
                    [object, hand],
                    &n.contact,
                    [&n.object_points, &n.hand_points],
                    youngs,
                    options.normal_force,
                    n.merged,
                )
            } else {
                soft_contact(object, hand, &n, youngs, options.normal_force)
            };
            let (model, edges) =
                match soft.and_then(|s| Ok((ellipsoid_edges(s.area.torsion_radius)?, s))) {
                    Ok((edges, s)) => (ContactModel::Soft(Box::new(s)), edges),
                    Err(reason) => (ContactModel::PointFallback(reason), pyramid()),
                };
            Modelled {
                contact: n.contact,
                model,
                edges,
                members: n.members,
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
    /// The contacts merged into it, itself first.
    members: Vec<Contact>,
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
            members: vec![(*c).clone()],
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
                    kept.members.extend(gone.members);
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
    let relative_radii = relative_radii(&object_curvature, &hand_curvature, cosine.acos())?;
    let area = mattress_contact(normal_force, youngs, relative_radii)?;
    Ok(SoftContact {
        fit: object_fit,
        other_fit: hand_fit,
        relative_radii,
        area,
        patch: patch_grid(&object_fit, &object_frame)?,
        other_patch: patch_grid(&hand_fit, &hand_frame)?,
        merged: n.merged,
    })
}

/// The quadric of a body's surface points (body frame) in a contact frame (world).
fn fit(body: &Body, frame: &Pose, points: &[Point3<f64>]) -> Result<Quadric, SoftFallback> {
    let to_frame = frame.inverse() * body.pose;
    let in_frame: Vec<Point3<f64>> = points.iter().map(|p| to_frame * p).collect();
    check_smooth(&in_frame)?;
    fit_quadric(&in_frame)
}
