//! Keyboard shortcuts.

use bevy::prelude::*;

pub struct ShortcutsPlugin;

impl Plugin for ShortcutsPlugin {
    fn build(&self, _app: &mut App) {}
}
