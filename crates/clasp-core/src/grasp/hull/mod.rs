//! Convex hulls in 2 to 6 dimensions, by quickhull with simplicial facets: what a grasp wrench
//! space is made of (graspit-spec §8).
//!
//! GraspIt asks qhull for `QJ`: the input is joggled at random, so the same grasp gives slightly
//! different numbers from run to run. Here the joggle is a fixed pseudo-random pattern 1e-7 of
//! the points' size: it puts degenerate inputs (each contact's friction edges lie in one plane;
//! contacts on a sphere are symmetric) into general position, and the same points always give
//! the same hull. Should a facet come out degenerate, or round-off bend the hull, the build
//! starts again with a larger joggle. (A joggle much below 1e-7 is too small: round-off in the
//! planes of the slivers it makes, about 1e-16 / joggle, then outgrows the joggle itself.)

mod algebra;
pub(crate) mod joggle;
pub(crate) mod polytope;
mod quickhull;

pub use algebra::MAX_DIM;
pub use joggle::{HullError, origin_depth};
pub use polytope::{Facet, Hull};
