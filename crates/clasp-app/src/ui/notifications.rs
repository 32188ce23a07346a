//! Error notifications: each new error in the log shows for a few seconds over the 3D view, then fades.

use super::style::ERROR;
use crate::editor::resources::LogEntry;
use bevy::prelude::*;
use bevy_egui::egui;

/// How long an error notification stays, and the last part of it in which it fades, seconds.
pub(super) const TOAST_SECONDS: f64 = 6.0;

pub(super) const TOAST_FADE_SECONDS: f64 = 1.0;

/// At most this many notifications show at once; older ones give way.
pub(super) const MAX_TOASTS: usize = 4;

/// Error notifications: each new error in the log shows for a few seconds, then fades.
#[derive(Debug, Default)]
pub struct Toasts {
    /// Log entries already looked at.
    seen: usize,
    pub active: Vec<Toast>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Toast {
    pub text: String,
    /// When it appeared, seconds.
    pub since: f64,
}

impl Toasts {
    /// Takes the log's new errors as notifications and drops the expired ones.
    pub fn update(&mut self, log: &[LogEntry], now: f64) {
        if log.len() < self.seen {
            // The log was cleared.
            self.seen = 0;
        }
        for entry in &log[self.seen..] {
            if entry.error {
                self.active.push(Toast {
                    text: entry.text.clone(),
                    since: now,
                });
            }
        }
        self.seen = log.len();
        self.active.retain(|t| now - t.since < TOAST_SECONDS);
        let extra = self.active.len().saturating_sub(MAX_TOASTS);
        self.active.drain(..extra);
    }

    /// The log was cleared: nothing in it is new.
    pub fn forget_log(&mut self) {
        self.seen = 0;
    }

    /// 1 while a notification is fresh, falling to 0 over its last second.
    pub fn opacity(toast: &Toast, now: f64) -> f32 {
        let left = TOAST_SECONDS - (now - toast.since);
        (left / TOAST_FADE_SECONDS).clamp(0.0, 1.0) as f32
    }
}

pub(super) fn show_toasts(ctx: &egui::Context, view: egui::Rect, toasts: &Toasts, now: f64) {
    if toasts.active.is_empty() {
        return;
    }
    egui::Area::new(egui::Id::new("toasts"))
        .order(egui::Order::Foreground)
        .pivot(egui::Align2::RIGHT_TOP)
        .fixed_pos(view.right_top() + egui::vec2(-12.0, 12.0))
        .interactable(false)
        .show(ctx, |ui| {
            // Right-aligned, each as wide as its text.
            ui.with_layout(egui::Layout::top_down(egui::Align::Max), |ui| {
                for toast in &toasts.active {
                    ui.scope(|ui| {
                        ui.multiply_opacity(Toasts::opacity(toast, now));
                        egui::Frame::popup(ui.style())
                            .fill(egui::Color32::from_rgb(70, 24, 20))
                            .stroke(egui::Stroke::new(1.0, ERROR))
                            .show(ui, |ui| {
                                ui.set_max_width(380.0);
                                ui.label(
                                    egui::RichText::new(&toast.text).color(egui::Color32::WHITE),
                                );
                            });
                    });
                    ui.add_space(6.0);
                }
            });
        });
}
