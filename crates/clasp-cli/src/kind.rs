//! What kind of file a path is: geometry by extension, XML by its root element.

use std::path::Path;

use clasp_io::LoadError;

/// The kinds `inspect` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Geometry,
    Body,
    Robot,
    World,
    Urdf,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Geometry => "geometry",
            Kind::Body => "body",
            Kind::Robot => "robot",
            Kind::World => "world",
            Kind::Urdf => "urdf",
        }
    }
}

/// Geometry extensions, compared ignoring case (GraspIt ships `.IV` files).
const GEOMETRY: [&str; 7] = ["iv", "wrl", "off", "ply", "obj", "stl", "stlb"];

/// Decides the kind from the extension, and for XML from the root element: `<root>` is a body,
/// `<world>` a world, `<robot>` a GraspIt robot when it has a `<palm>`, else URDF when it has
/// a `<link>`.
pub fn detect(path: &Path) -> Result<Kind, LoadError> {
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if GEOMETRY.contains(&extension.as_str()) {
        return Ok(Kind::Geometry);
    }
    if extension == "urdf" {
        return Ok(Kind::Urdf);
    }
    if extension != "xml" {
        return Err(LoadError::new(
            path,
            None,
            format!(
                "unknown file type \".{extension}\" (known: .xml, .urdf, {})",
                GEOMETRY.map(|e| format!(".{e}")).join(", ")
            ),
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| LoadError::new(path, None, format!("cannot read the file: {e}")))?;
    xml_kind(&text, path)
}

fn xml_kind(text: &str, path: &Path) -> Result<Kind, LoadError> {
    let text = without_comments(text);
    let Some((root, line)) = root_element(&text) else {
        return Err(LoadError::new(path, None, "the file has no root element"));
    };
    let kind = match root.as_str() {
        "root" => Kind::Body,
        "world" => Kind::World,
        "robot" if has_tag(&text, "palm") => Kind::Robot,
        "robot" if has_tag(&text, "link") => Kind::Urdf,
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
                    "root element <{other}> is not a body (<root>), robot (<robot>) or world (<world>)"
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

    fn kind(text: &str) -> Result<Kind, LoadError> {
        xml_kind(text, Path::new("t.xml"))
    }

    #[test]
    fn xml_kinds_come_from_the_root_element() {
        assert_eq!(kind("<?xml version=\"1.0\"?><root/>"), Ok(Kind::Body));
        assert_eq!(kind("<!-- <world> --><world></world>"), Ok(Kind::World));
        assert_eq!(
            kind("<robot type=\"Hand\"><palm>p.xml</palm></robot>"),
            Ok(Kind::Robot)
        );
        assert_eq!(
            kind("<robot name=\"r\"><link name=\"base\"/></robot>"),
            Ok(Kind::Urdf)
        );
        // <palmar> is not <palm>, and a commented-out palm does not count.
        assert!(kind("<robot><palmar/><!-- <palm> --></robot>").is_err());
        let err = kind("<!--\n-->\n<EigenGrasps dimensions=\"4\"/>").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.message.contains("<EigenGrasps>"), "{err}");
    }

    #[test]
    fn extensions_pick_geometry_and_urdf() {
        assert_eq!(detect(Path::new("a/soap.IV")), Ok(Kind::Geometry));
        assert_eq!(detect(Path::new("a/hand.urdf")), Ok(Kind::Urdf));
        let err = detect(Path::new("a/notes.txt")).unwrap_err();
        assert!(err.message.contains("unknown file type \".txt\""), "{err}");
    }
}
