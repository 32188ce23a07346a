//! GraspIt's virtual contact files (`robots/*/virtual/*.xml`): contact locations predefined on
//! a hand, each on the palm (finger −1) or on a chain's link, with its frame, normal, friction
//! and friction edges.

use std::path::Path;

use clasp_core::{Pose, RobotBody, VirtualContact, VirtualContacts};
use nalgebra::{Point3, Quaternion, Translation3, UnitQuaternion, Vector3};

use crate::{
    error::LoadError,
    source::FileSource,
    xml::{Element, fixed_numbers, number, read_rooted, required},
};

/// Loads a `<virtual_contacts>` file. `<num_contacts>` must match the contacts listed.
pub fn load_virtual_contacts(
    source: &dyn FileSource,
    path: &Path,
) -> Result<VirtualContacts, LoadError> {
    let root = read_rooted(source, path, "virtual_contacts")?;
    let robot_name = root
        .child("robot_name")
        .map_or_else(String::new, |n| n.text().trim().to_owned());
    let contacts = root
        .children_named("virtual_contact")
        .map(|c| virtual_contact(c, path))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(count) = root.child("num_contacts") {
        let said = number(count, path)?;
        if said != contacts.len() as f64 {
            return Err(LoadError::new(
                path,
                Some(count.line),
                format!(
                    "<num_contacts> says {said}, but the file lists {} contacts",
                    contacts.len()
                ),
            ));
        }
    }
    Ok(VirtualContacts {
        robot_name,
        contacts,
    })
}

fn virtual_contact(element: &Element, file: &Path) -> Result<VirtualContact, LoadError> {
    let index = |name: &str| -> Result<i64, LoadError> {
        let e = required(element, name, file)?;
        let v = number(e, file)?;
        if v.fract() != 0.0 {
            return Err(LoadError::new(
                file,
                Some(e.line),
                format!("<{name}> must be a whole number, not {v}"),
            ));
        }
        Ok(v as i64)
    };
    let (finger, link) = (index("finger_number")?, index("link_number")?);
    let body = match (finger, usize::try_from(link)) {
        (-1, _) => RobotBody::Palm,
        (f, Ok(link)) if f >= 0 => RobotBody::Link {
            chain: f as usize,
            link,
        },
        _ => {
            return Err(LoadError::new(
                file,
                Some(element.line),
                format!("finger {finger}, link {link} names no body (the palm is finger -1)"),
            ));
        }
    };
    let [x, y, z] = fixed_numbers::<3>(required(element, "location", file)?, file)?;
    let [w, i, j, k] = fixed_numbers::<4>(required(element, "rotation", file)?, file)?;
    let [tx, ty, tz] = fixed_numbers::<3>(required(element, "translation", file)?, file)?;
    let [nx, ny, nz] = fixed_numbers::<3>(required(element, "normal", file)?, file)?;
    let friction = match element.child("sCof") {
        Some(e) => number(e, file)?,
        None => 0.0,
    };
    let friction_edges = match element.child("friction_edges") {
        Some(edges) => edges
            .children_named("friction_edge")
            .map(|e| fixed_numbers::<6>(e, file))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    Ok(VirtualContact {
        body,
        location: Point3::new(x, y, z),
        frame: Pose::from_parts(
            Translation3::new(tx, ty, tz),
            UnitQuaternion::from_quaternion(Quaternion::new(w, i, j, k)),
        ),
        normal: Vector3::new(nx, ny, nz),
        friction,
        friction_edges,
    })
}
