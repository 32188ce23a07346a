//! Clasp's desktop app: the core world as an ECS resource, shown and driven through Bevy.
//!
//! Data flows one way each frame: input → request → core → ECS view.

pub mod camera;
pub mod capture;
pub mod cli;
pub mod commands;
pub mod convert;
mod desktop;
pub mod dialog;
pub mod dragger;
pub mod editor;
pub mod files;
pub mod frame_rate;
pub mod grasp_test;
pub mod icon;
pub mod markers;
pub mod offscreen;
mod opening;
pub mod overlay;
pub mod planning;
mod plugin;
pub mod scene;
pub mod selection;
pub mod simulation;
pub mod systems;
pub mod timeline;
pub mod ui;

pub use capture::RunOptions;
pub use cli::Args;
pub use desktop::run;
pub use editor::{requests::Editor, requests::edit, resources::Document, resources::Log};
pub use opening::{EditorWorld, editor_world, open_scene};
pub use plugin::{ClaspPlugin, install};
