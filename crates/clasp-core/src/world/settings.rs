//! How moves and contacts work in a world: the settings a world's moves, its domains' and its
//! contact searches obey.

use crate::{contact::model::ContactOptions, motion::MoveQueries};

/// How moves and contacts work in a world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldSettings {
    /// Bodies closer than this (mm) are in contact; moves stop with a gap below half of it.
    pub contact_threshold: f64,
    /// The shortest sub-step of a move near other bodies (mm of travel): bodies thinner than
    /// this together could be passed through only when already this close.
    pub min_step: f64,
    /// Which queries moves ask of the engine: bounded ones, or exact distances as before.
    pub move_queries: MoveQueries,
    /// How contacts are modelled: friction edges, soft contacts on or off, the normal force
    /// that sizes a soft contact.
    pub contact_options: ContactOptions,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self {
            contact_threshold: clasp_collide::DEFAULT_CONTACT_THRESHOLD,
            min_step: 1.0,
            move_queries: MoveQueries::default(),
            contact_options: ContactOptions::default(),
        }
    }
}
