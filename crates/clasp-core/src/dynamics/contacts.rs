//! The contacts of a step: those the solver works on (merged only within the contact
//! threshold, every row of a soft patch kept), the world's contacts found once the bodies have
//! moved, each solved contact as the solver sees it, and the impulses a step keeps for the
//! next (its warm start) and puts on the world's contacts.

use std::collections::HashSet;

use clasp_collide::{CollisionEngine, pruning::DUPLICATE_DISTANCE};
use nalgebra::{Matrix3, Vector3};

use super::{
    movers::{Movers, Side},
    solver::{Mobiles, Row},
};
use crate::{
    contact::{
        Contact, KINETIC_SPEED,
        filter::Part,
        memory::Pushed,
        model::{ContactModel, ContactOptions},
        search::{ContactUse, contacts_found, number_contacts},
    },
    ids::BodyId,
    world::{
        World,
        error::MoveError,
        layers::{self, Layer},
        stage::Backdrop,
    },
};

/// One contact of a step's problem as solved.
pub(super) struct Solved {
    pub contact: Contact,
    /// From B on A, contact frame.
    pub impulse: Vector3<f64>,
    /// Its Delassus block, contact frame.
    pub inverse_inertia: Matrix3<f64>,
    /// Its place in the step's first problem; `None` in an impact's.
    pub index: Option<usize>,
}

/// The contacts of one solve.
pub(super) type Applied = Vec<Solved>;

/// What a search of the pairs with a moving body found.
#[derive(Default)]
struct Searched {
    pairs: HashSet<(BodyId, BodyId)>,
    contacts: Vec<Contact>,
    /// The pairs that interpenetrate.
    overlapping: Vec<(BodyId, BodyId)>,
}

impl<E: CollisionEngine> World<E> {
    /// The contacts the solver works on: every checked pair with a moving body, as the world
    /// finds its contacts but merged only within the contact threshold (GraspIt's 3 mm merge,
    /// right for a grasp's wrench space, would hide the vertex a faceted body is about to
    /// pivot on). The engine's answers come from the step's memory where nothing moved since.
    /// Refused where a pair interpenetrates: moves never leave bodies so, and a world that
    /// starts so is not simulated silently.
    pub(super) fn fine_contacts(&mut self, movers: &Movers) -> Result<Vec<Contact>, MoveError> {
        let threshold = self.settings.contact_threshold;
        let searched = self.search_pairs(movers, |engine, pair, found, options| {
            contacts_found(
                engine,
                pair,
                found,
                threshold,
                options,
                ContactUse::Dynamics,
            )
        });
        self.refuse_overlaps(&searched.overlapping)?;
        Ok(searched.contacts)
    }

    /// After a step's moves, the world's contacts of every pair with a moving body, found
    /// once for them all; the memory keeps those pairs' searches for the next step.
    pub(super) fn find_step_contacts(&mut self, movers: &Movers) {
        let searched = self.search_pairs(movers, |engine, pair, found, options| {
            contacts_found(
                engine,
                pair,
                found,
                DUPLICATE_DISTANCE,
                options,
                ContactUse::Grasp,
            )
        });
        self.step_memory.keep_only(&searched.pairs);
        let contacts = &mut self.stage.contacts;
        contacts.retain(|c| !movers.moves(c.body) && !movers.moves(c.other));
        contacts.extend(searched.contacts);
        number_contacts(contacts);
    }

    /// Every checked pair with a moving body (A first), and the contacts `make` makes of what
    /// the engine finds between each, the search taken from the step's memory where it can be;
    /// the pairs that interpenetrate apart.
    fn search_pairs(
        &mut self,
        movers: &Movers,
        make: impl Fn(
            &dyn CollisionEngine,
            (Part, Part),
            &[clasp_collide::Contact],
            &ContactOptions,
        ) -> Vec<Contact>,
    ) -> Searched {
        let World {
            engine,
            stage,
            settings,
            step_memory,
            ..
        } = self;
        let backdrop = Backdrop::alone(engine, *settings);
        let rules = backdrop.rules(&stage.switches);
        let layer = stage.layer();
        let mut searched = Searched::default();
        for (a, b) in layers::checked_pairs(rules.switches, &Layer::empty(), &layer) {
            if !(movers.moves(a.id) || movers.moves(b.id)) {
                continue;
            }
            let (a, b) = if a.id <= b.id { (a, b) } else { (b, a) };
            match step_memory.contacts(rules.engine, (a, b), settings.contact_threshold) {
                Some(found) => searched.contacts.extend(make(
                    rules.engine,
                    (a, b),
                    found,
                    &settings.contact_options,
                )),
                None => searched.overlapping.push((a.id, b.id)),
            }
            searched.pairs.insert((a.id, b.id));
        }
        searched
    }

    /// Each contact's impulse to start from: the one the last step applied at it (RaiSim's
    /// warm start), in this contact's frame, cut to its cone; zero for a new contact.
    pub(super) fn warm_start(&self, rows: &[Row], contacts: &[Contact]) -> Vec<Vector3<f64>> {
        rows.iter()
            .zip(contacts)
            .map(|(row, c)| {
                let Some(impulse) = self.step_memory.impulse_near(c.body, c.other, &c.point) else {
                    return Vector3::zeros();
                };
                let local = row.frame.transpose() * impulse;
                let normal = local.z.max(0.0);
                let limit = row.friction * normal;
                let tangential = local.xy();
                let tangential = match tangential.norm() > limit {
                    true => tangential * (limit / tangential.norm()),
                    false => tangential,
                };
                Vector3::new(tangential.x, tangential.y, normal)
            })
            .collect()
    }

    /// Keeps the impulses of the step's first solve for the next step to start from.
    pub(super) fn remember_impulses(&mut self, applied: &[Solved]) {
        self.step_memory.pushed = applied
            .iter()
            .filter(|s| s.index.is_some())
            .map(|s| Pushed {
                body: s.contact.body,
                other: s.contact.other,
                point: s.contact.point,
                impulse: s.contact.frame.rotation * s.impulse,
            })
            .collect();
    }

    /// One contact as the solver sees it, its sides where `movers` put them.
    pub(super) fn row(
        &self,
        c: &Contact,
        (a, b): (Option<Side>, Option<Side>),
        mobiles: &Mobiles,
    ) -> Row {
        let lever = |id: BodyId, point| {
            self.body(id)
                .map_or(Vector3::zeros(), |body| point - body.world_cog())
        };
        let (lever_a, lever_b) = (lever(c.body, c.point), lever(c.other, c.other_point));
        let rotation = c.frame.rotation.to_rotation_matrix().into_inner();
        // Friction by the slip at the step's start: kinetic above KINETIC_SPEED, else static.
        let velocity = |side: Option<Side>, id: BodyId, r: &Vector3<f64>| match side {
            Some(Side::Link { assembly, link }) => {
                mobiles.robots[assembly].start_point_velocity(link, r)
            }
            _ => self
                .body(id)
                .map_or(Vector3::zeros(), |body| body.velocity.at(r)),
        };
        let slip = velocity(a, c.body, &lever_a) - velocity(b, c.other, &lever_b);
        let tangential = slip - c.normal.into_inner() * c.normal.dot(&slip);
        let in_frame = (rotation.transpose() * tangential).xy();
        Row {
            a,
            b,
            lever_a,
            lever_b,
            frame: rotation,
            friction: c.friction(tangential.norm()),
            slip: (tangential.norm() > KINETIC_SPEED).then(|| in_frame.normalize()),
            torsion_radius: match &c.model {
                ContactModel::Soft(soft) => Some(soft.area.torsion_radius),
                _ => None,
            },
        }
    }

    /// Puts on each contact the impulse this step applied there, with its inverse inertia and
    /// place in the problem: each solved contact goes to the contact of the same pair nearest
    /// to where it was (a step moves contacts a little, and a corner's contact may now lie on a
    /// neighbouring triangle), both sides; every other contact carries zero and no place.
    pub(super) fn keep_impulses(&mut self, applied: &[Solved]) {
        let contacts = &mut self.stage.contacts;
        for contact in contacts.iter_mut() {
            contact.impulse = Vector3::zeros();
            contact.inverse_inertia = Matrix3::zeros();
            contact.index_in_contact_problem = None;
        }
        for entry in applied {
            let (solved, impulse) = (&entry.contact, &entry.impulse);
            let same_pair =
                |c: &Contact| c.is_object_a && c.body == solved.body && c.other == solved.other;
            let nearest = contacts
                .iter()
                .enumerate()
                .filter(|(_, c)| same_pair(c))
                .min_by(|(_, x), (_, y)| {
                    let distance = |c: &Contact| (c.point - solved.point).norm();
                    distance(x).total_cmp(&distance(y))
                })
                .map(|(k, c)| (k, (c.body, c.other, c.point)));
            let Some((k, (body, other, point))) = nearest else {
                continue;
            };
            // The solved contact's frame may differ from this one's by a little: through the world.
            let to_here = (contacts[k].frame.rotation.inverse() * solved.frame.rotation)
                .to_rotation_matrix()
                .into_inner();
            let here = to_here * impulse;
            let block = to_here * entry.inverse_inertia * to_here.transpose();
            // Its other side: the same two bodies the other way round, the points swapped.
            let twin = contacts
                .iter()
                .position(|c| c.body == other && c.other == body && c.other_point == point);
            for side in std::iter::once(k).chain(twin) {
                let contact = &mut contacts[side];
                contact.impulse += here;
                if contact.index_in_contact_problem.is_none() && entry.index.is_some() {
                    contact.index_in_contact_problem = entry.index;
                    contact.inverse_inertia = block;
                }
            }
        }
    }
}
