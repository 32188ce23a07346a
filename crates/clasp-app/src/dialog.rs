//! File dialogs: the native one over the XDG portal, an in-app browser where none answers, and files dropped on the window.

use bevy::prelude::*;

pub struct DialogPlugin;

impl Plugin for DialogPlugin {
    fn build(&self, _app: &mut App) {}
}
