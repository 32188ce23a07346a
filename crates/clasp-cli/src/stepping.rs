//! How a run's dynamics steps, as `simulate` and `batch --test` take it from the command
//! line: the time step and when each step's contact solve stops.

use std::path::Path;

use clap::Args;
use clasp_core::{CollisionEngine, ContactSolver, SolverSettings, World};

use crate::output::{Failure, world_error};

/// The dynamics' step and solve, each the world's own where not given.
#[derive(Debug, Clone, Default, Args)]
pub struct SteppingArgs {
    /// Seconds a step advances (default: 0.001; 1e-6 to 0.1). A run of more than 1,000,000
    /// steps is refused up front: run it in parts.
    #[arg(long, value_name = "S")]
    pub time_step: Option<f64>,
    /// The most iterations a step's contact solve makes (default: 200).
    #[arg(long, value_name = "N")]
    pub solver_iterations: Option<usize>,
    /// Where a step's contact solve has settled (default: 1e-9): the momentum it leaves
    /// unbalanced, as a fraction of what it moves (Newton's method), or the change of a
    /// sweep, as a fraction of the largest impulse (the sweeps).
    #[arg(long, value_name = "T")]
    pub solver_tolerance: Option<f64>,
    /// The most points a step's solve keeps of each patch of a pair's contacts, the corners
    /// of its hull; 0 (the default) solves every contact found.
    #[arg(long, value_name = "N")]
    pub patch_corners: Option<usize>,
    /// How a step solves its contacts: `newton` (the default: Newton's method on the
    /// velocities, Coulomb's law, settled to the tolerance), `sweeps` (one contact at a time,
    /// RaiSim's) or `lcp` (GraspIt's).
    #[arg(long, value_name = "NAME", value_parser = ["sweeps", "newton", "lcp"])]
    pub contact_solver: Option<String>,
}

impl SteppingArgs {
    /// Sets what was given on `world` (loaded from `file`); refused, naming the file, for a
    /// value out of its range.
    pub fn apply<E: CollisionEngine>(
        &self,
        world: &mut World<E>,
        file: &Path,
    ) -> Result<(), Failure> {
        if let Some(dt) = self.time_step {
            world.set_time_step(dt).map_err(|e| world_error(file, e))?;
        }
        let default = world.solver_settings();
        let solver = SolverSettings {
            max_iterations: self.solver_iterations.unwrap_or(default.max_iterations),
            tolerance: self.solver_tolerance.unwrap_or(default.tolerance),
            corners_per_patch: match self.patch_corners {
                Some(0) => None,
                Some(n) => Some(n),
                None => default.corners_per_patch,
            },
        };
        world
            .set_solver_settings(solver)
            .map_err(|e| world_error(file, e))?;
        match self.contact_solver.as_deref() {
            Some("newton") => world.set_contact_solver(ContactSolver::Newton),
            Some("lcp") => world.set_contact_solver(ContactSolver::Lcp),
            Some(_) => world.set_contact_solver(ContactSolver::PerContact),
            None => {}
        }
        Ok(())
    }
}
