//! The window icon: `assets/icon.png` (drawn by `assets/make_icon.py`), compiled in. Bevy would
//! look for a run-time `assets/` folder beside the crate or the executable, where an installed
//! `clasp` has none; compiled in, the icon shows wherever the app runs, as the default scene does.
//! Bevy 0.19 has no icon setting of its own, so winit sets it on each window once it exists.

use bevy::{ecs::system::NonSendMarker, prelude::*, window::WindowCreated, winit::WINIT_WINDOWS};
use image::ImageFormat;
use winit::window::Icon;

const ICON_PNG: &[u8] = include_bytes!("../../../assets/icon.png");

/// Gives every window that was just created the icon (on X11 and Windows; elsewhere the
/// platform's own rules apply). The marker keeps the system on the main thread, where winit's
/// windows live.
pub fn set_window_icon(mut created: MessageReader<WindowCreated>, _main_thread: NonSendMarker) {
    if created.read().count() == 0 {
        return;
    }
    let icon = match window_icon() {
        Ok(icon) => icon,
        Err(why) => return warn!("the window icon cannot be read: {why}"),
    };
    WINIT_WINDOWS.with_borrow(|windows| {
        for window in windows.windows.values() {
            window.set_window_icon(Some(icon.clone()));
        }
    });
}

/// The compiled-in icon as winit takes it: RGBA pixels and their size.
pub fn window_icon() -> Result<Icon, String> {
    let image = image::load_from_memory_with_format(ICON_PNG, ImageFormat::Png)
        .map_err(|e| e.to_string())?
        .into_rgba8();
    let (width, height) = image.dimensions();
    Icon::from_rgba(image.into_raw(), width, height).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_icon_is_a_square_png_with_opaque_and_clear_pixels() {
        let image = image::load_from_memory_with_format(ICON_PNG, ImageFormat::Png)
            .expect("assets/icon.png decodes")
            .into_rgba8();
        assert_eq!(image.dimensions(), (64, 64));
        let alphas: Vec<u8> = image.pixels().map(|p| p.0[3]).collect();
        assert!(alphas.contains(&0), "the rounded corners are clear");
        assert!(alphas.contains(&255), "the hand and the mug are opaque");
        assert!(window_icon().is_ok(), "winit takes it");
    }
}
