//! What the interface remembers between frames.

use bevy::prelude::*;
use bevy_egui::egui;
use clasp_core::BodyId;

use super::notifications::Toasts;

/// What the interface remembers between frames.
#[derive(Resource, Default)]
pub struct UiState {
    /// The log panel is open.
    pub log_open: bool,
    pub toasts: Toasts,
    /// The widget whose drag is the editor's current drag (one undo step).
    pub(super) drag_owner: Option<egui::Id>,
    /// Whether that widget was still held this frame.
    pub(super) drag_held: bool,
    /// The contact threshold while its field is dragged or typed into: applied when that ends.
    pub(super) threshold_draft: Option<f64>,
    /// A collision mask being typed, for the body it belongs to: applied when the field
    /// loses focus.
    pub(super) mask_draft: Option<(BodyId, String)>,
    /// Where this frame drew the View menu's button and its threshold field (while open).
    pub(super) view_menu: Option<egui::Rect>,
    pub(super) threshold_field: Option<egui::Rect>,
    /// And its "Approach and closing" checkbox (while open).
    pub(super) approach_toggle: Option<egui::Rect>,
}
