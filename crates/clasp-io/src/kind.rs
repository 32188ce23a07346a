//! What kind of file a path is: geometry by extension, XML by its root element.

use std::path::Path;

use crate::{
    error::LoadError,
    geometry::GeometryFormat,
    source::{FileSource, read},
};

/// The kinds of file Clasp loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Geometry,
    Body,
    Robot,
    World,
    Urdf,
    /// GraspIt's virtual contacts of a hand (`<virtual_contacts>`).
    VirtualContacts,
    /// A MuJoCo model (`<mujoco>`): hands and objects, read as a world.
    Mjcf,
}

impl FileKind {
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Geometry => "geometry",
            FileKind::Body => "body",
            FileKind::Robot => "robot",
            FileKind::World => "world",
            FileKind::Urdf => "urdf",
            FileKind::VirtualContacts => "virtual contacts",
            FileKind::Mjcf => "MJCF",
        }
    }

    /// Whether the file opens as a whole world (a GraspIt world or a MuJoCo model) rather than
    /// being imported into one.
    pub fn is_world(self) -> bool {
        matches!(self, FileKind::World | FileKind::Mjcf)
    }

    /// Decides the kind from the extension, and for XML from the root element: `<root>` is a
    /// body, `<world>` a world, `<robot>` a GraspIt robot when it has a `<palm>`, else URDF
    /// when it has a `<link>`, `<virtual_contacts>` a hand's virtual contacts, `<mujoco>` a
    /// MuJoCo model. Other XML
    /// (eigengrasps) is an error.
    pub fn of(source: &dyn FileSource, path: &Path) -> Result<FileKind, LoadError> {
        if GeometryFormat::is_geometry_file(path) {
            return Ok(FileKind::Geometry);
        }
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if extension == "urdf" {
            return Ok(FileKind::Urdf);
        }
        if extension != "xml" {
            return Err(LoadError::new(
                path,
                None,
                format!(
                    "unknown file type \".{extension}\" (known: .xml, .urdf, {})",
                    GeometryFormat::EXTENSIONS
                        .map(|e| format!(".{e}"))
                        .join(", ")
                ),
            ));
        }
        xml_kind(&read(source, path)?, path)
    }
}

fn xml_kind(text: &str, path: &Path) -> Result<FileKind, LoadError> {
    let text = without_comments(text);
    let Some((root, line)) = root_element(&text) else {
        return Err(LoadError::new(path, None, "the file has no root element"));
    };
    let kind = match root.as_str() {
        "root" => FileKind::Body,
        "world" => FileKind::World,
        "virtual_contacts" => FileKind::VirtualContacts,
        "mujoco" => FileKind::Mjcf,
        "robot" if has_tag(&text, "palm") => FileKind::Robot,
        "robot" if has_tag(&text, "link") => FileKind::Urdf,
        "robot" => {
            return Err(LoadError::new(
                path,
                Some(line),
                "<robot> has neither <palm> (GraspIt robot) nor <link> (URDF)",
            ));
        }
        other => {
            return Err(LoadError::new(
                path,
                Some(line),
                format!(
                    "root element <{other}> is not a body (<root>), robot (<robot>), world (<world>) or MuJoCo model (<mujoco>)"
                ),
            ));
        }
    };
    Ok(kind)
}

/// The text with each comment replaced by its newlines, so that lines still count right.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 4..];
        let end = after.find("-->").map_or(after.len(), |e| e + 3);
        out.extend(after[..end].chars().filter(|&c| c == '\n'));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The first element's name and line, after the declaration and any doctype.
fn root_element(text: &str) -> Option<(String, usize)> {
    let mut offset = 0;
    while let Some(found) = text[offset..].find('<') {
        let start = offset + found + 1;
        let rest = &text[start..];
        if rest.starts_with('?') || rest.starts_with('!') {
            offset = start;
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '>' | '/'))
            .collect();
        let line = 1 + text[..start].matches('\n').count();
        return Some((name, line));
    }
    None
}

/// Whether an element with this name opens anywhere in the text.
fn has_tag(text: &str, name: &str) -> bool {
    let open = format!("<{name}");
    text.match_indices(&open).any(|(i, _)| {
        text[i + open.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_whitespace() || c == '>' || c == '/')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Result<FileKind, LoadError> {
        xml_kind(text, Path::new("t.xml"))
    }

    #[test]
    fn xml_kinds_come_from_the_root_element() {
        assert_eq!(kind("<?xml version=\"1.0\"?><root/>"), Ok(FileKind::Body));
        assert_eq!(kind("<!-- <world> --><world></world>"), Ok(FileKind::World));
        assert_eq!(kind("<mujoco model=\"m\"/>"), Ok(FileKind::Mjcf));
        assert_eq!(
            kind("<robot type=\"Hand\"><palm>p.xml</palm></robot>"),
            Ok(FileKind::Robot)
        );
        assert_eq!(
            kind("<robot name=\"r\"><link name=\"base\"/></robot>"),
            Ok(FileKind::Urdf)
        );
        // <palmar> is not <palm>, and a commented-out palm does not count.
        assert!(kind("<robot><palmar/><!-- <palm> --></robot>").is_err());
        let err = kind("<!--\n-->\n<EigenGrasps dimensions=\"4\"/>").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.message.contains("<EigenGrasps>"), "{err}");
    }

    #[test]
    fn extensions_pick_geometry_and_urdf() {
        let detect = |path: &str| FileKind::of(&crate::source::Disk, Path::new(path));
        assert_eq!(detect("a/soap.IV"), Ok(FileKind::Geometry));
        assert_eq!(detect("a/hand.urdf"), Ok(FileKind::Urdf));
        let err = detect("a/notes.txt").unwrap_err();
        assert!(err.message.contains("unknown file type \".txt\""), "{err}");
    }
}
