//! The contacts of a step: those the solver works on (merged only within the contact
//! threshold, every row of a soft patch kept), each as the solver sees it, the impulses a step
//! keeps for the next (its warm start, by each contact's identity), and the step's problem
//! made the stage's contacts: one record, what was solved is what is reported.

use std::{
    collections::{HashMap, HashSet},
    time::Instant,
};

use nalgebra::{Point3, Vector3};

use super::{
    Stepping,
    movers::{Movers, Side},
    overlaps::refuse_overlaps,
    patches,
    problem::{Mobiles, Row},
};
use crate::{
    contact::{
        Contact, KINETIC_SPEED,
        memory::Pushed,
        model::ContactModel,
        search::{ContactUse, contacts_found, number_contacts},
    },
    ids::BodyId,
    world::{error::MoveError, layers},
};

/// Where a contact lies on each of its two bodies, each in the body's own frame.
pub(super) type Places = (Point3<f64>, Point3<f64>);

/// What a search of the pairs with a moving body found.
#[derive(Default)]
struct Searched {
    pairs: HashSet<(BodyId, BodyId)>,
    contacts: Vec<Contact>,
    /// The pairs that interpenetrate.
    overlapping: Vec<(BodyId, BodyId)>,
}

impl Stepping<'_> {
    /// The contacts the solver works on, both sides of each together (A's first): every
    /// checked pair with a moving body, as the world finds its contacts but merged only within
    /// the contact threshold (GraspIt's 3 mm merge, right for a grasp's wrench space, would
    /// hide the vertex a faceted body is about to pivot on). The engine's answers come from
    /// the step's memory where nothing moved since. Refused where a pair interpenetrates:
    /// moves never leave bodies so, and a world that starts so is not simulated silently.
    /// A soft patch keeps its corners where the solver settings say so (the step's collide
    /// stage).
    pub(super) fn collide(&mut self, movers: &Movers) -> Result<Vec<Contact>, MoveError> {
        let searching = Instant::now();
        let searched = self.search_pairs(movers);
        refuse_overlaps(&searched.overlapping, |id| self.body_name(id))?;
        self.stage.step_memory.keep_only(&searched.pairs);
        let corners = self.backdrop.settings.dynamics.solver.corners_per_patch;
        let contacts = patches::keep_corners(searched.contacts, corners);
        self.stage.step_memory.timers.search += searching.elapsed().as_secs_f64();
        Ok(contacts)
    }

    /// Every checked pair with a moving body (A first) and its contacts, the engine's search
    /// taken from the step's memory where it can be; the pairs that interpenetrate apart.
    fn search_pairs(&mut self, movers: &Movers) -> Searched {
        let (backdrop, settings) = (self.backdrop, self.backdrop.settings);
        let threshold = settings.contact_threshold;
        // The memory is written while the stage's bodies are read.
        let mut memory = std::mem::take(&mut self.stage.step_memory);
        let rules = backdrop.rules(&self.stage.switches);
        let layer = self.stage.layer();
        let mut searched = Searched::default();
        for (a, b) in layers::checked_pairs(rules.switches, &backdrop.shared, &layer) {
            if !(movers.moves(a.id) || movers.moves(b.id)) {
                continue;
            }
            let (a, b) = if a.id <= b.id { (a, b) } else { (b, a) };
            let persistence = &settings.dynamics.persistence;
            match memory.contacts(rules.engine, (a, b), threshold, persistence) {
                Some(found) => searched.contacts.extend(contacts_found(
                    rules.engine,
                    (a, b),
                    found,
                    threshold,
                    &settings.contact_options,
                    ContactUse::Dynamics,
                )),
                None => searched.overlapping.push((a.id, b.id)),
            }
            searched.pairs.insert((a.id, b.id));
        }
        self.stage.step_memory = memory;
        searched
    }

    /// Where a contact lies on each of its bodies, in the body's own frame.
    pub(super) fn local_points(&self, c: &Contact) -> Places {
        let local = |id: BodyId, point: &Point3<f64>| {
            self.body(id)
                .map_or(*point, |body| body.pose.inverse_transform_point(point))
        };
        (local(c.body, &c.point), local(c.other, &c.other_point))
    }

    /// Each contact's impulse to start from: the one the last step applied at the same
    /// contact (RaiSim's warm start), in this contact's frame, cut to its cone; zero for a new
    /// contact. `placed`: each row's contact (A's side) and where it lies on its bodies.
    pub(super) fn warm_start<'c>(
        &self,
        rows: &[Row],
        placed: impl Iterator<Item = (&'c Contact, &'c Places)>,
    ) -> Vec<Vector3<f64>> {
        let memory = &self.stage.step_memory;
        rows.iter()
            .zip(placed)
            .map(|(row, (c, local))| {
                let last = memory.impulse_of(c, local);
                let Some(impulse) = last else {
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

    /// Keeps the impulses of the step's first solve (its solved contacts, A's sides, where
    /// they lay before anything moved) for the next step to start from.
    pub(super) fn remember_impulses<'c>(
        &mut self,
        placed: impl Iterator<Item = (&'c Contact, &'c Places)>,
    ) {
        let mut pushed: HashMap<(BodyId, BodyId), Vec<Pushed>> = HashMap::new();
        for (c, local) in placed {
            pushed.entry((c.body, c.other)).or_default().push(Pushed {
                triangles: (c.triangle, c.other_triangle),
                local: *local,
                impulse: c.frame.rotation * c.impulse,
            });
        }
        self.stage.step_memory.pushed = pushed;
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
        let given = self.backdrop.settings.dynamics.contact_friction;
        let friction = given.map_or_else(|| c.friction(tangential.norm()), |f| f.coefficient);
        let own_torsion = match &c.model {
            ContactModel::Soft(soft) => Some(soft.area.torsion_radius),
            _ => None,
        };
        // The solver holds torsion up to friction × radius × the normal impulse.
        let given_torsion = given
            .filter(|f| f.torsional > 0.0 && f.coefficient > 0.0)
            .map(|f| f.torsional / f.coefficient);
        Row {
            a,
            b,
            lever_a,
            lever_b,
            frame: rotation,
            friction,
            slip: (tangential.norm() > KINETIC_SPEED).then(|| in_frame.normalize()),
            torsion_radius: match (own_torsion, given_torsion) {
                (Some(own), Some(given)) => Some(own.max(given)),
                (own, given) => own.or(given),
            },
        }
    }

    /// Makes the step's contact problem the stage's contacts: its pairs' contacts before
    /// are replaced by those the step solved, both sides, numbered.
    pub(super) fn report(&mut self, movers: &Movers, problem: Vec<Contact>) {
        let contacts = &mut self.stage.contacts;
        contacts.retain(|c| !movers.moves(c.body) && !movers.moves(c.other));
        contacts.extend(problem);
        number_contacts(contacts);
    }
}

/// Adds an impact's impulses to the step's problem: onto the same contact (the same side of
/// the same pair, on the same triangles, at the same place) where the problem has it, else as
/// a contact of its own with no place in the problem.
pub(super) fn add_impact(problem: &mut Vec<Contact>, impact: Vec<Contact>) {
    let same = |p: &Contact, c: &Contact| {
        (p.body, p.other, p.triangle, p.other_triangle)
            == (c.body, c.other, c.triangle, c.other_triangle)
            && (p.point - c.point).norm() < SAME_PLACE
    };
    for c in impact.into_iter().filter(|c| c.impulse != Vector3::zeros()) {
        let same = problem.iter_mut().find(|p| same(p, &c));
        match same {
            Some(p) => p.impulse += p.frame.rotation.inverse() * (c.frame.rotation * c.impulse),
            None => problem.push(c),
        }
    }
}

/// An impact's contact lies this close (mm) to the problem's contact it adds to: a body moves
/// micrometres within a step.
const SAME_PLACE: f64 = 0.5;
