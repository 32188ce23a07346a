//! How the solver sees a free body: a dynamic one by its inverse mass and inertia (refused,
//! the fault named, where they cannot move it), a kinematic one as moving whatever pushes it.

use nalgebra::{Matrix3, Vector3};

use super::problem::Mobile;
use crate::{
    body::{Body, mass::check_inertia},
    world::error::{BodyName, MoveError},
};

/// Why a body's mass properties cannot move it.
pub(super) enum MassFault {
    Mass(f64),
    Inertia(String),
}

impl MassFault {
    /// The refusal, naming `body` (`of` its file's inertia line, where it has one).
    pub(super) fn error(self, body: BodyName, of: &Body) -> MoveError {
        match self {
            MassFault::Mass(mass) => MoveError::BadMass { body, mass },
            MassFault::Inertia(why) => MoveError::BadInertia {
                body: Box::new(BodyName {
                    line: of.lines.inertia,
                    ..body
                }),
                why,
            },
        }
    }
}

/// The body as the solver moves it, with `added` (gravity's velocity for this step) already
/// added; refused for a mass that is not positive and finite or an inertia that is not
/// symmetric positive definite.
pub(super) fn mobile(body: &Body, added: Vector3<f64>) -> Result<Mobile, MassFault> {
    let mass = body.mass.mass;
    if !(mass.is_finite() && mass > 0.0) {
        return Err(MassFault::Mass(mass));
    }
    check_inertia(&body.mass.inertia).map_err(MassFault::Inertia)?;
    let inverse_inertia = body
        .world_inertia()
        .try_inverse()
        .ok_or_else(|| MassFault::Inertia("singular".into()))?;
    Ok(Mobile {
        inverse_mass: 1.0 / mass,
        inverse_inertia,
        linear: body.velocity.linear + added,
        angular: body.velocity.angular,
    })
}

/// A kinematic body as the solver sees it: it moves as it was told, whatever pushes it.
pub(super) fn pusher(body: &Body) -> Mobile {
    Mobile {
        inverse_mass: 0.0,
        inverse_inertia: Matrix3::zeros(),
        linear: body.velocity.linear,
        angular: body.velocity.angular,
    }
}
