//! Clasp's extension to GraspIt's body and world XML: RaiSim's collision group and mask,
//! `<collisionGroup>3</collisionGroup>` (0 to 63) and `<collisionMask>0 1 5</collisionMask>`
//! (the groups the body may collide with, `all` or `none`). GraspIt ignores both.

use std::{fmt::Write, path::Path};

use clasp_core::{ALL_GROUPS, CollisionGroups, group_bit};

use crate::{error::LoadError, xml::Element};

/// The group and mask an element gives, each one that is missing kept from `start`.
pub(crate) fn read_groups(
    element: &Element,
    file: &Path,
    start: CollisionGroups,
) -> Result<CollisionGroups, LoadError> {
    let group = match element.child("collisionGroup") {
        None => u32::from(start.group()),
        Some(g) => group_number(g, g.text().trim(), file)?,
    };
    let mask = match element.child("collisionMask") {
        None => start.mask(),
        Some(m) => read_mask(m, file)?,
    };
    CollisionGroups::new(group, mask).map_err(|e| {
        let line = element
            .child("collisionGroup")
            .map_or(element.line, |g| g.line);
        LoadError::new(file, Some(line), e.to_string())
    })
}

fn group_number(element: &Element, word: &str, file: &Path) -> Result<u32, LoadError> {
    parse_group(word)
        .map_err(|e| LoadError::new(file, Some(element.line), format!("<{}>: {e}", element.name)))
}

fn read_mask(element: &Element, file: &Path) -> Result<u64, LoadError> {
    parse_mask(element.text())
        .map_err(|e| LoadError::new(file, Some(element.line), format!("<{}>: {e}", element.name)))
}

/// A collision group as a user writes it: a whole number from 0 to 63.
pub fn parse_group(word: &str) -> Result<u32, String> {
    let word = word.trim();
    word.parse::<u32>()
        .ok()
        .filter(|&g| g <= 63)
        .ok_or_else(|| format!("expected a collision group from 0 to 63, found \"{word}\""))
}

/// A collision mask as a user writes it: `all` (or RaiSim's `-1`), `none`, or the groups it
/// holds, separated by spaces or commas.
pub fn parse_mask(text: &str) -> Result<u64, String> {
    match text.trim() {
        "all" | "-1" => Ok(ALL_GROUPS),
        "none" => Ok(0),
        words => words
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .try_fold(0, |mask, word| {
                Ok(mask | group_bit(parse_group(word)? as u8))
            }),
    }
}

/// A mask as the file writes it: `all`, `none`, or its groups in order.
pub fn mask_text(mask: u64) -> String {
    match mask {
        ALL_GROUPS => "all".into(),
        0 => "none".into(),
        _ => (0..64u8)
            .filter(|&g| mask & group_bit(g) != 0)
            .map(|g| g.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// The two tags, each on its own line at `indent`.
pub(crate) fn groups_xml(groups: CollisionGroups, indent: &str) -> String {
    let mut xml = String::new();
    let _ = writeln!(
        xml,
        "{indent}<collisionGroup>{}</collisionGroup>\n{indent}<collisionMask>{}</collisionMask>",
        groups.group(),
        mask_text(groups.mask())
    );
    xml
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xml::parse_document;

    fn read(xml: &str) -> Result<CollisionGroups, LoadError> {
        let root = parse_document(xml, Path::new("b.xml")).unwrap();
        read_groups(&root, Path::new("b.xml"), CollisionGroups::MOVABLE)
    }

    #[test]
    fn groups_and_masks_read_and_write_back() {
        let groups = read(
            "<root><collisionGroup>2</collisionGroup><collisionMask>0 1</collisionMask></root>",
        )
        .unwrap();
        assert_eq!((groups.group(), groups.mask()), (2, 0b11));
        assert_eq!(mask_text(groups.mask()), "0 1");
        assert_eq!(read("<root/>").unwrap(), CollisionGroups::MOVABLE);
        let all = read("<root><collisionMask>all</collisionMask></root>").unwrap();
        assert_eq!(all.mask(), ALL_GROUPS);
        let raisim_all = read("<root><collisionMask> -1 </collisionMask></root>").unwrap();
        assert_eq!(
            raisim_all.mask(),
            ALL_GROUPS,
            "RaiSim writes every group as -1"
        );
        assert_eq!(
            (mask_text(ALL_GROUPS), mask_text(0)),
            ("all".into(), "none".into())
        );
        let text = groups_xml(groups, "");
        assert!(
            text.contains("<collisionGroup>2</collisionGroup>"),
            "{text}"
        );
    }

    #[test]
    fn bad_groups_name_the_file_and_line() {
        let err = read("<root>\n<collisionGroup>64</collisionGroup></root>").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err.to_string().contains("64"), "{err}");
        let err = read("<root>\n\n<collisionMask>1 x</collisionMask></root>").unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        assert!(read("<root><collisionGroup>1.5</collisionGroup></root>").is_err());
        assert!(read("<root><collisionMask>-2</collisionMask></root>").is_err());
        assert!(read("<root><collisionMask>-1 3</collisionMask></root>").is_err());
    }
}
