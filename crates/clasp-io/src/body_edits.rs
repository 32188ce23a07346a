//! What a world file changes of a body its `<filename>` gives: Clasp's own elements beside the
//! `<filename>` (GraspIt reads the file and ignores them), so that Save keeps an edit made in
//! the app or through the API without copying the body's mesh or touching its file.
//!
//! Only what differs from the file is written, so a GraspIt world saves as GraspIt wrote it
//! and a later change to the body file still shows through everything not edited.

use std::{fmt::Write as _, path::Path};

use clasp_core::Body;
use quick_xml::escape::escape;

use crate::{
    body::{inertia, material, point, positive},
    error::LoadError,
    xml::Element,
};

/// `<youngs>` of a body made rigid where its file makes it soft.
const RIGID: &str = "rigid";

/// The body as the world element changes it: `<name>`, `<material>`, `<mass>`, `<cog>`,
/// `<inertia_matrix>` and `<youngs>` (a number of pascals, or `rigid`), each optional.
pub(crate) fn read_body_edits(
    body: &mut Body,
    element: &Element,
    file: &Path,
) -> Result<(), LoadError> {
    if let Some(name) = element.child("name").filter(|n| !n.text().is_empty()) {
        body.name = name.text().to_owned();
    }
    if let Some(m) = element.child("material") {
        body.material = material(m, file)?;
    }
    if let Some(m) = element.child("mass") {
        body.mass.mass = positive(m, file)?;
    }
    if let Some(c) = element.child("cog") {
        body.mass.cog = point(c, file)?;
    }
    if let Some(i) = element.child("inertia_matrix") {
        body.mass.inertia = inertia(i, file)?;
    }
    if let Some(y) = element.child("youngs") {
        body.youngs = match y.text().trim() {
            RIGID => None,
            _ => Some(positive(y, file)?),
        };
    }
    Ok(())
}

/// The elements that make `as_loaded` (the body as its file gives it, read again) into `body`,
/// one line each at `indent`; every property where the file could not be read again.
pub(crate) fn body_edits_xml(body: &Body, as_loaded: Option<&Body>, indent: &str) -> String {
    let differs = |same: fn(&Body, &Body) -> bool| !as_loaded.is_some_and(|f| same(f, body));
    let mut xml = String::new();
    let m = &body.mass;
    if differs(|f, b| f.name == b.name) {
        let _ = writeln!(xml, "{indent}<name>{}</name>", escape(&body.name));
    }
    if differs(|f, b| f.material == b.material) {
        let _ = writeln!(xml, "{indent}<material>{}</material>", body.material);
    }
    if differs(|f, b| f.mass.mass == b.mass.mass) {
        let _ = writeln!(xml, "{indent}<mass>{}</mass>", m.mass);
    }
    if differs(|f, b| f.mass.cog == b.mass.cog) {
        let _ = writeln!(
            xml,
            "{indent}<cog>{} {} {}</cog>",
            m.cog.x, m.cog.y, m.cog.z
        );
    }
    if differs(|f, b| f.mass.inertia == b.mass.inertia) {
        let _ = writeln!(
            xml,
            "{indent}<inertia_matrix>{}</inertia_matrix>",
            inertia_text(body)
        );
    }
    if differs(|f, b| f.youngs == b.youngs) {
        match body.youngs {
            Some(youngs) => writeln!(xml, "{indent}<youngs>{youngs}</youngs>"),
            None => writeln!(xml, "{indent}<youngs>{RIGID}</youngs>"),
        }
        .ok();
    }
    xml
}

/// The inertia per unit mass, row by row, as `<inertia_matrix>` holds it.
pub(crate) fn inertia_text(body: &Body) -> String {
    let rows = body.mass.inertia.transpose();
    let numbers: Vec<String> = rows.iter().map(f64::to_string).collect();
    numbers.join(" ")
}
