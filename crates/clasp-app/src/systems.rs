//! The app's frame, in one order declared once (as Bevy's own plugins declare theirs): a press
//! is classified, a drag takes it first, the other inputs become requests (the core carries
//! each out at once, through the editor), and the views follow. Each plugin puts its systems
//! in these sets and orders against nothing else.

use bevy::prelude::*;

/// The phases of a frame's `Update`, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaspSystems {
    /// Where the press began and whether it is a click or a drag.
    Gestures,
    /// The draggers, which take a press on a handle before the camera or picking can.
    Drags,
    /// Every other input made a request: camera gestures, clicks, keys, files.
    Requests,
    /// What is shown follows: the camera, highlights, draggers, markers.
    View,
}

pub struct SystemsPlugin;

impl Plugin for SystemsPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            Update,
            (
                ClaspSystems::Gestures,
                ClaspSystems::Drags,
                ClaspSystems::Requests,
                ClaspSystems::View,
            )
                .chain(),
        );
    }
}
