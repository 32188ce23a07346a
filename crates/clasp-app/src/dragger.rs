//! Body and joint draggers.

use bevy::prelude::*;

pub struct DraggerPlugin;

impl Plugin for DraggerPlugin {
    fn build(&self, _app: &mut App) {}
}
