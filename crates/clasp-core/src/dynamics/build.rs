//! The step's build stage: one [`ContactProblem`] from the contacts the step collided (the
//! mobiles, a row per solvable contact, the Delassus blocks, the motors and the warm start),
//! and the solution written back onto those contacts and into the step's memory.

use std::time::Instant;

use nalgebra::Vector3;

use super::{
    Stepping,
    contacts::Places,
    mass::{mobile, pusher},
    movers::{Movers, Side},
    problem::{ContactProblem, Mobiles, Row, Solution, delassus_blocks},
};
use crate::{contact::Contact, ids::BodyId, world::error::MoveError};

/// Which of a step's solves: the step's own, gravity's share of it added, or an impact's
/// within it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Solve {
    Step { gravity: Vector3<f64> },
    Impact,
}

/// The stage's contacts a problem was posed from (both sides of each, A's first), which of
/// them it solves, and where those lie on their bodies (the step's first solve only).
pub(super) struct Posed {
    pub(super) contacts: Vec<Contact>,
    solved: Vec<usize>,
    places: Vec<Places>,
}

impl Stepping<'_> {
    /// The problem of one solve from the contacts the step collided (both sides of each, A's
    /// first), and those contacts as it posed them.
    pub(super) fn build(
        &mut self,
        movers: &Movers,
        contacts: Vec<Contact>,
        solve: Solve,
    ) -> Result<(ContactProblem, Posed), MoveError> {
        let building = Instant::now();
        let (first, added) = match solve {
            Solve::Step { gravity } => (true, gravity),
            Solve::Impact => (false, Vector3::zeros()),
        };
        // An impact holds the robots where their step left them (below): it needs no
        // articulated bodies, so their Jacobians and mass matrices are made once a step.
        let robots = match first {
            true => self.articulated(movers, added)?,
            false => Vec::new(),
        };
        let mut mobiles = Mobiles {
            bodies: Vec::with_capacity(movers.bodies.len()),
            robots,
        };
        for (k, &i) in movers.bodies.iter().enumerate() {
            let id = BodyId::Free(i);
            let body = self.free_body(i).ok_or(MoveError::NoSuchBody(id))?;
            let one = match k < movers.dynamic {
                true => {
                    // An external force is pushed with gravity, in the step's first solve.
                    let pushed = match first {
                        true => body.external_force * (self.dt() / body.mass.mass),
                        false => Vector3::zeros(),
                    };
                    mobile(body, added + pushed)
                        .map_err(|fault| fault.error(self.body_name(id), body))?
                }
                false => pusher(body),
            };
            mobiles.bodies.push(one);
        }
        // A contact between bodies nothing pushes back has nothing to solve.
        // An impact comes after the robots took their step: to it they stand where they are,
        // as they will for the rest of the step (solved as moving, a finger would have made
        // way for the object it squeezed in the solve but not in the step, and the object stood
        // still with its velocity into the finger).
        let side = |id: BodyId| {
            movers
                .side(id)
                .filter(|s| first || matches!(s, Side::Body(_)))
        };
        let solvable = |a: Option<Side>, b: Option<Side>| {
            a.is_some_and(|s| movers.pushes_back(s)) || b.is_some_and(|s| movers.pushes_back(s))
        };
        let (rows, solved): (Vec<Row>, Vec<usize>) = contacts
            .chunks_exact(2)
            .enumerate()
            .filter_map(|(k, sides)| {
                let c = &sides[0];
                let (a, b) = (side(c.body), side(c.other));
                solvable(a, b).then(|| (self.row(c, (a, b), &mobiles), k))
            })
            .unzip();
        let blocks = delassus_blocks(&mobiles, &rows);
        // Where the solved contacts lie on their bodies: the warm start finds them by it, and
        // it is kept for the next step (the first solve's only).
        let places: Vec<_> = match first {
            true => solved
                .iter()
                .map(|&k| self.local_points(&contacts[2 * k]))
                .collect(),
            false => Vec::new(),
        };
        let (initial, motors) = match first {
            true => {
                let on_a = solved.iter().map(|&k| &contacts[2 * k]).zip(&places);
                (self.warm_start(&rows, on_a), self.motors(movers))
            }
            false => (vec![Vector3::zeros(); rows.len()], Vec::new()),
        };
        let problem = ContactProblem {
            mobiles,
            rows,
            blocks,
            initial,
            motors,
        };
        let posed = Posed {
            contacts,
            solved,
            places,
        };
        self.stage.step_memory.timers.build += building.elapsed().as_secs_f64();
        Ok((problem, posed))
    }

    /// Gives each solved contact (both sides) its impulse and Delassus block; the step's first
    /// solve also gives each its place in the problem and keeps the impulses and the motors'
    /// efforts for the next step.
    pub(super) fn write_back(
        &mut self,
        posed: &mut Posed,
        problem: &ContactProblem,
        solution: &Solution,
        solve: Solve,
    ) {
        let first = matches!(solve, Solve::Step { .. });
        let Posed {
            contacts,
            solved,
            places,
        } = posed;
        let pairs = solved.iter().zip(&solution.impulses).zip(&problem.blocks);
        for (place, ((&k, impulse), block)) in pairs.enumerate() {
            // The same on both sides: from B on A, in the frame both share.
            for c in &mut contacts[2 * k..2 * k + 2] {
                c.impulse = *impulse;
                c.inverse_inertia = *block;
                c.index_in_contact_problem = first.then_some(place);
            }
        }
        if first {
            self.remember_impulses(solved.iter().map(|&k| &contacts[2 * k]).zip(places.iter()));
            self.remember_efforts(&problem.motors, &solution.efforts);
            self.stage.step_memory.solves.count(solution.report);
        }
    }
}
