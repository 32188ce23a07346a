//! Contact markers: friction cones and soft-contact patches.

use bevy::prelude::*;

pub struct MarkersPlugin;

impl Plugin for MarkersPlugin {
    fn build(&self, _app: &mut App) {}
}
