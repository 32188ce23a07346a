//! A small element tree over quick-xml that keeps each element's line, for error messages.

use std::path::Path;

use quick_xml::{
    Reader,
    events::{BytesStart, Event},
};

use crate::{
    error::LoadError,
    source::{FileSource, read},
};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Element {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Element>,
    pub line: usize,
}

impl Element {
    /// The first child with this tag, as GraspIt looks tags up.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }

    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> &str {
        self.text.trim()
    }
}

/// Parses a whole document and returns its root element.
pub(crate) fn parse_document(text: &str, file: &Path) -> Result<Element, LoadError> {
    let mut reader = Reader::from_str(text);
    let line_at = |offset: u64| {
        1 + text.as_bytes()[..(offset as usize).min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    let mut stack: Vec<Element> = Vec::new();
    loop {
        let start = reader.buffer_position();
        let event = reader.read_event().map_err(|e| {
            LoadError::new(
                file,
                Some(line_at(reader.error_position())),
                format!("malformed XML: {e}"),
            )
        })?;
        let line = line_at(start);
        match event {
            Event::Start(tag) => stack.push(element(&tag, line, file)?),
            Event::Empty(tag) => {
                let done = element(&tag, line, file)?;
                if let Some(root) = close(&mut stack, done) {
                    return finish(root, &reader, text, file, line_at);
                }
            }
            Event::End(_) => {
                let Some(done) = stack.pop() else {
                    return Err(LoadError::new(
                        file,
                        Some(line),
                        "closing tag without an opening tag",
                    ));
                };
                if let Some(root) = close(&mut stack, done) {
                    return finish(root, &reader, text, file, line_at);
                }
            }
            Event::Text(t) => append_text(&mut stack, &t.xml10_content()),
            Event::CData(t) => append_text(&mut stack, &t.xml10_content()),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => match quick_xml::escape::resolve_predefined_entity(&r) {
                        Some(s) => s.to_string(),
                        None => {
                            return Err(LoadError::new(
                                file,
                                Some(line),
                                format!("unknown entity &{};", &*r),
                            ));
                        }
                    },
                };
                append_text(&mut stack, &resolved);
            }
            Event::Eof => {
                let message = match stack.last() {
                    Some(open) => format!(
                        "the file ends inside <{}> (opened on line {})",
                        open.name, open.line
                    ),
                    None => "the file has no root element".to_string(),
                };
                return Err(LoadError::new(file, Some(line), message));
            }
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
}

/// Reads and parses an XML file whose root element must be `<expected>`; another root is an
/// error naming the file and its line.
pub(crate) fn read_rooted(
    source: &dyn FileSource,
    path: &Path,
    expected: &str,
) -> Result<Element, LoadError> {
    let root = parse_document(&read(source, path)?, path)?;
    if root.name != expected {
        return Err(LoadError::new(
            path,
            Some(root.line),
            format!("the root element is <{}>, not <{expected}>", root.name),
        ));
    }
    Ok(root)
}

/// Attaches a finished element to its parent; returns it when it was the root.
fn close(stack: &mut [Element], done: Element) -> Option<Element> {
    match stack.last_mut() {
        Some(parent) => {
            parent.children.push(done);
            None
        }
        None => Some(done),
    }
}

/// Only comments and whitespace may follow the root element.
fn finish(
    root: Element,
    reader: &Reader<&[u8]>,
    text: &str,
    file: &Path,
    line_at: impl Fn(u64) -> usize,
) -> Result<Element, LoadError> {
    let rest = &text[reader.buffer_position() as usize..];
    let mut tail = Reader::from_str(rest);
    loop {
        let offset = reader.buffer_position() + tail.buffer_position();
        match tail.read_event() {
            Ok(Event::Eof) => return Ok(root),
            Ok(Event::Comment(_) | Event::PI(_)) => {}
            Ok(Event::Text(t)) if t.xml10_content().trim().is_empty() => {}
            _ => {
                return Err(LoadError::new(
                    file,
                    Some(line_at(offset)),
                    format!(
                        "content after the closing </{}> of the root element",
                        root.name
                    ),
                ));
            }
        }
    }
}

fn append_text(stack: &mut [Element], text: &str) {
    if let Some(open) = stack.last_mut() {
        open.text.push_str(text);
    }
}

fn element(tag: &BytesStart, line: usize, file: &Path) -> Result<Element, LoadError> {
    let name = AsRef::<str>::as_ref(&tag.name()).to_owned();
    let mut attributes = Vec::new();
    for attribute in tag.attributes() {
        let attribute = attribute.map_err(|e| {
            LoadError::new(
                file,
                Some(line),
                format!("malformed attribute in <{name}>: {e}"),
            )
        })?;
        let value = attribute
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map_err(|e| {
                LoadError::new(
                    file,
                    Some(line),
                    format!("malformed attribute in <{name}>: {e}"),
                )
            })?;
        attributes.push((
            AsRef::<str>::as_ref(&attribute.key).to_owned(),
            value.into_owned(),
        ));
    }
    Ok(Element {
        name,
        attributes,
        text: String::new(),
        children: Vec::new(),
        line,
    })
}

/// Reads whitespace-separated numbers from an element's text, naming the element on failure.
pub(crate) fn numbers(element: &Element, file: &Path) -> Result<Vec<f64>, LoadError> {
    element
        .text()
        .split_whitespace()
        .map(|token| parse_number(token, element, file))
        .collect()
}

/// Reads exactly `N` numbers from an element.
pub(crate) fn fixed_numbers<const N: usize>(
    element: &Element,
    file: &Path,
) -> Result<[f64; N], LoadError> {
    let values = numbers(element, file)?;
    values.try_into().map_err(|values: Vec<f64>| {
        LoadError::new(
            file,
            Some(element.line),
            format!(
                "<{}> needs {N} numbers, found {}",
                element.name,
                values.len()
            ),
        )
    })
}

/// Reads one finite number from an element's text.
pub(crate) fn number(element: &Element, file: &Path) -> Result<f64, LoadError> {
    Ok(fixed_numbers::<1>(element, file)?[0])
}

fn parse_number(token: &str, element: &Element, file: &Path) -> Result<f64, LoadError> {
    match token.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(LoadError::new(
            file,
            Some(element.line),
            format!(
                "<{}> holds \"{token}\", which is not a finite number",
                element.name
            ),
        )),
    }
}

/// The child an element must have.
pub(crate) fn required<'a>(
    parent: &'a Element,
    name: &str,
    file: &Path,
) -> Result<&'a Element, LoadError> {
    parent.child(name).ok_or_else(|| {
        LoadError::new(
            file,
            Some(parent.line),
            format!("<{}> has no <{name}>, which is required", parent.name),
        )
    })
}

/// A required attribute's text.
pub(crate) fn attribute<'a>(
    element: &'a Element,
    name: &str,
    file: &Path,
) -> Result<&'a str, LoadError> {
    element.attribute(name).ok_or_else(|| {
        LoadError::new(
            file,
            Some(element.line),
            format!(
                "<{}> has no {name} attribute, which is required",
                element.name
            ),
        )
    })
}

/// A finite number from a required attribute.
pub(crate) fn number_attribute(
    element: &Element,
    name: &str,
    file: &Path,
) -> Result<f64, LoadError> {
    let text = attribute(element, name, file)?;
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            LoadError::new(
                file,
                Some(element.line),
                format!(
                    "<{}> {name}=\"{text}\" is not a finite number",
                    element.name
                ),
            )
        })
}

/// A whole number from a required attribute.
pub(crate) fn integer_attribute(
    element: &Element,
    name: &str,
    file: &Path,
) -> Result<i64, LoadError> {
    let text = attribute(element, name, file)?;
    text.trim().parse().map_err(|_| {
        LoadError::new(
            file,
            Some(element.line),
            format!("<{}> {name}=\"{text}\" is not a whole number", element.name),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Element, LoadError> {
        parse_document(text, Path::new("t.xml"))
    }

    #[test]
    fn builds_the_tree_with_lines() {
        let root = parse(
            "<?xml version=\"1.0\"?>\n<root a=\"1 &amp; 2\">\n  <x>4 &lt; 5</x>\n  <y/>\n</root>\n",
        )
        .unwrap();
        assert_eq!(root.name, "root");
        assert_eq!(root.line, 2);
        assert_eq!(root.attribute("a"), Some("1 & 2"));
        assert_eq!(root.child("x").unwrap().text(), "4 < 5");
        assert_eq!(root.child("x").unwrap().line, 3);
        assert_eq!(root.child("y").unwrap().line, 4);
    }

    #[test]
    fn tolerates_double_dashes_in_comments() {
        // GraspIt's McHand files have these; its lenient parser accepts them.
        let root = parse("<root><!-- a -- b --><x>1</x></root>").unwrap();
        assert_eq!(root.child("x").unwrap().text(), "1");
    }

    #[test]
    fn reports_unclosed_and_mismatched_tags_with_lines() {
        let err = parse("<root>\n<x>1</x>\n").unwrap_err();
        assert!(err.message.contains("inside <root>"), "{err}");
        let err = parse("<root>\n<x>1</y>\n</root>").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        let err = parse("<root/>\n<second/>").unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
    }

    #[test]
    fn numbers_must_be_finite_and_counted() {
        let root = parse("<r><v>1 2 nan</v><w>1 2</w></r>").unwrap();
        let err = numbers(root.child("v").unwrap(), Path::new("t.xml")).unwrap_err();
        assert!(err.message.contains("\"nan\""), "{err}");
        let err = fixed_numbers::<3>(root.child("w").unwrap(), Path::new("t.xml")).unwrap_err();
        assert!(err.message.contains("needs 3 numbers, found 2"), "{err}");
    }
}
