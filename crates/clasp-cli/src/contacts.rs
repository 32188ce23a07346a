//! `contacts`: load a world file and print every contact of its world, each once, as text or as
//! one JSON document; and the parser of its `--threshold`.

use std::{fmt::Write as _, path::Path};

use clasp_core::{Contact, World};
use serde_json::json;

use crate::{
    output::{Failure, Format, world_error},
    render::{body_name, contact_json, contact_line, count},
    world_file::load,
};

/// A contact threshold from the command line: a positive, finite number of millimetres.
pub fn parse_threshold(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of millimetres"))?;
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(format!(
            "a contact threshold must be a positive number of millimetres, not {text}"
        ))
    }
}

/// Every contact of the world, at the file's threshold or `threshold` (mm).
pub fn contacts(
    file: &Path,
    root: Option<&Path>,
    threshold: Option<f64>,
    format: Format,
) -> Result<String, Failure> {
    let mut world = load(file, root)?;
    if let Some(mm) = threshold {
        world
            .set_contact_threshold(mm)
            .map_err(|e| world_error(file, e))?;
    }
    let threshold = world.settings().contact_threshold;
    let contacts = physical_contacts(&world);
    // Bodies inside one another have no contacts: they are said to interpenetrate instead.
    let overlapping: Vec<(String, String)> = world
        .overlapping_pairs()
        .into_iter()
        .map(|(a, b)| (body_name(&world, a), body_name(&world, b)))
        .collect();
    Ok(match format {
        Format::Json => json!({
            "file": file.display().to_string(),
            "threshold": threshold,
            "overlapping": overlapping.iter().map(|(a, b)| [a, b]).collect::<Vec<_>>(),
            "count": contacts.len(),
            "contacts": contacts.iter().map(|c| contact_json(&world, c)).collect::<Vec<_>>(),
        })
        .to_string(),
        Format::Text => {
            let mut text = String::new();
            for (a, b) in &overlapping {
                let _ = writeln!(text, "{a} and {b} interpenetrate");
            }
            for contact in &contacts {
                let _ = writeln!(text, "{}", contact_line(&world, contact));
            }
            let _ = write!(
                text,
                "{} within {threshold} mm",
                count(contacts.len(), "contact")
            );
            text
        }
    })
}

/// Each physical contact once: the side on the pair's first body.
pub(crate) fn physical_contacts(world: &World) -> Vec<&Contact> {
    world.contacts().iter().filter(|c| c.is_object_a).collect()
}
