//! The interface's own colours.

use bevy_egui::egui;

/// Text colours: what touches (the status bar, the contacts), and errors.
pub(super) const TOUCHING: egui::Color32 = egui::Color32::from_rgb(255, 150, 40);
pub(super) const ERROR: egui::Color32 = egui::Color32::from_rgb(255, 110, 90);

/// A grasp test's direction that held.
pub(super) const HELD: egui::Color32 = egui::Color32::from_rgb(90, 210, 110);
