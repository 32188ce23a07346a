//! An MJCF file as MuJoCo's compiler sees it before building: `<include>`s spliced in, the
//! sections gathered from wherever they appear, `<compiler>` read, and every element's
//! attributes completed from its `<default>` class (its own `class`, else the nearest
//! `childclass` above it, else `main`).

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::Arc,
};

use crate::{
    error::LoadError,
    source::{FileSource, read},
    xml::{Element, parse_document},
};

/// Includes nest no deeper than this; deeper is taken for a loop.
const MAX_INCLUDE_DEPTH: usize = 16;

/// One element, with the file it came from (an include's elements name the include).
#[derive(Debug, Clone)]
pub(super) struct Node {
    pub tag: String,
    /// Its own attributes first, then those its default class adds.
    pub attributes: Vec<(String, String)>,
    pub children: Vec<Node>,
    pub line: usize,
    pub file: Arc<Path>,
}

impl Node {
    pub fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn error(&self, message: impl Into<String>) -> LoadError {
        LoadError::new(self.file.as_ref(), Some(self.line), message)
    }

    /// The numbers of an attribute, each finite; `None` when it is absent.
    pub fn numbers(&self, key: &str) -> Result<Option<Vec<f64>>, LoadError> {
        let Some(text) = self.attribute(key) else {
            return Ok(None);
        };
        text.split_whitespace()
            .map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .map(Some)
            .ok_or_else(|| {
                self.error(format!(
                    "<{}> {key}=\"{text}\" is not a list of finite numbers",
                    self.tag
                ))
            })
    }

    /// Exactly `N` numbers; `None` when the attribute is absent.
    pub fn array<const N: usize>(&self, key: &str) -> Result<Option<[f64; N]>, LoadError> {
        let Some(values) = self.numbers(key)? else {
            return Ok(None);
        };
        <[f64; N]>::try_from(values.as_slice())
            .map(Some)
            .map_err(|_| {
                self.error(format!(
                    "<{}> {key} has {} numbers; it takes {N}",
                    self.tag,
                    values.len()
                ))
            })
    }

    pub fn number(&self, key: &str) -> Result<Option<f64>, LoadError> {
        Ok(self.array::<1>(key)?.map(|[v]| v))
    }

    /// `true`/`false` (MuJoCo's booleans); `None` when absent.
    pub fn flag(&self, key: &str) -> Result<Option<bool>, LoadError> {
        match self.attribute(key) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(self.error(format!(
                "<{}> {key}=\"{other}\" is neither true nor false",
                self.tag
            ))),
        }
    }
}

/// `<compiler>`'s settings that change what a number means or where a file is.
#[derive(Debug, Clone)]
pub(super) struct Compiler {
    /// Angles in the file are degrees (MuJoCo's default) rather than radians.
    pub degrees: bool,
    /// Where mesh files are looked up (`meshdir`, else `assetdir`, else the model's folder).
    pub mesh_folder: PathBuf,
    /// `eulerseq`: lower case turns about the rotating axes, upper case about fixed ones.
    pub euler_sequence: [u8; 3],
    /// A joint with a range and no `limited` is limited (`autolimits`, default true).
    pub auto_limits: bool,
}

/// The model's sections, each gathered from every place it appears, defaults applied.
pub(super) struct Document {
    pub model: String,
    pub compiler: Compiler,
    pub option: Option<Node>,
    /// `<asset>` children.
    pub assets: Vec<Node>,
    /// `<worldbody>` children.
    pub world: Vec<Node>,
    /// `<equality>` children.
    pub equalities: Vec<Node>,
    /// `<actuator>` children.
    pub actuators: Vec<Node>,
    /// `<keyframe>` children.
    pub keys: Vec<Node>,
}

/// Reads the model file and everything it includes.
pub(super) fn read_document(
    source: &dyn FileSource,
    path: &Path,
    root: &Element,
) -> Result<Document, LoadError> {
    let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut includes = Includes {
        source,
        folder: &folder,
        open: vec![path.to_path_buf()],
    };
    let root = includes.node(root, &Arc::from(path))?;
    let mut document = Document {
        model: root.attribute("model").unwrap_or("mujoco").to_owned(),
        compiler: Compiler {
            degrees: true,
            mesh_folder: folder.clone(),
            euler_sequence: *b"xyz",
            auto_limits: true,
        },
        option: None,
        assets: Vec::new(),
        world: Vec::new(),
        equalities: Vec::new(),
        actuators: Vec::new(),
        keys: Vec::new(),
    };
    let mut classes = Classes::default();
    let mut compiler_settings: Vec<(String, String)> = Vec::new();
    for section in root.children {
        match section.tag.as_str() {
            "compiler" => compiler_settings.extend(section.attributes.iter().cloned()),
            "default" => classes.read(&section, None)?,
            "option" => document.option = Some(section),
            "asset" => document.assets.extend(section.children),
            "worldbody" => document.world.extend(section.children),
            "equality" => document.equalities.extend(section.children),
            "actuator" => document.actuators.extend(section.children),
            "keyframe" => document.keys.extend(section.children),
            // Lights, cameras, sensors, tendons, contact pairs and exclusions, visual
            // settings: nothing of a body's shape or motion.
            _ => {}
        }
    }
    read_compiler(&mut document.compiler, &compiler_settings, &folder, path)?;
    for node in &mut document.world {
        classes.apply(node, "main")?;
    }
    for list in [
        &mut document.assets,
        &mut document.equalities,
        &mut document.actuators,
    ] {
        for node in list.iter_mut() {
            classes.apply_one(node, "main")?;
        }
    }
    Ok(document)
}

fn read_compiler(
    compiler: &mut Compiler,
    settings: &[(String, String)],
    folder: &Path,
    path: &Path,
) -> Result<(), LoadError> {
    let error = |message: String| LoadError::new(path, None, message);
    let mut mesh_folder = None;
    for (key, value) in settings {
        match key.as_str() {
            "angle" => {
                compiler.degrees = match value.as_str() {
                    "degree" => true,
                    "radian" => false,
                    other => {
                        return Err(error(format!(
                            "<compiler> angle=\"{other}\" is neither degree nor radian"
                        )));
                    }
                }
            }
            "meshdir" => mesh_folder = Some(folder.join(value)),
            "assetdir" => {
                mesh_folder.get_or_insert_with(|| folder.join(value));
            }
            "eulerseq" => {
                let bytes = value.as_bytes();
                let valid = bytes.len() == 3 && bytes.iter().all(|b| b"xyzXYZ".contains(b));
                compiler.euler_sequence =
                    bytes.try_into().ok().filter(|_| valid).ok_or_else(|| {
                        error(format!(
                            "<compiler> eulerseq=\"{value}\" is not three of x, y, z, X, Y, Z"
                        ))
                    })?;
            }
            "autolimits" => compiler.auto_limits = value == "true",
            _ => {}
        }
    }
    if let Some(folder) = mesh_folder {
        compiler.mesh_folder = folder;
    }
    Ok(())
}

/// Splices `<include file>` elements: the included file's `<mujoco>` children take its place.
struct Includes<'a> {
    source: &'a dyn FileSource,
    /// Included files are found relative to the model file's folder, as MuJoCo finds them.
    folder: &'a Path,
    /// The files being read, outermost first.
    open: Vec<PathBuf>,
}

impl Includes<'_> {
    fn node(&mut self, element: &Element, file: &Arc<Path>) -> Result<Node, LoadError> {
        let mut children = Vec::new();
        for child in &element.children {
            if child.name == "include" {
                children.extend(self.include(child, file)?);
            } else {
                children.push(self.node(child, file)?);
            }
        }
        Ok(Node {
            tag: element.name.clone(),
            attributes: element.attributes.clone(),
            children,
            line: element.line,
            file: file.clone(),
        })
    }

    fn include(&mut self, element: &Element, file: &Arc<Path>) -> Result<Vec<Node>, LoadError> {
        let error = |message: String| LoadError::new(file.as_ref(), Some(element.line), message);
        let name = element
            .attribute("file")
            .ok_or_else(|| error("<include> has no file attribute, which is required".into()))?;
        let path = self.folder.join(name);
        if self.open.contains(&path) || self.open.len() > MAX_INCLUDE_DEPTH {
            return Err(error(format!(
                "<include> of {} loops: it is already being read",
                path.display()
            )));
        }
        if !self.source.is_file(&path) {
            return Err(error(format!(
                "included file {} does not exist",
                path.display()
            )));
        }
        let root = parse_document(&read(self.source, &path)?, &path)?;
        if root.name != "mujoco" {
            return Err(LoadError::new(
                &path,
                Some(root.line),
                format!(
                    "an included file's root element must be <mujoco>, not <{}>",
                    root.name
                ),
            ));
        }
        self.open.push(path.clone());
        let included = self.node(&root, &Arc::from(path.as_path()));
        self.open.pop();
        Ok(included?.children)
    }
}

/// The `<default>` classes: each one's parent and the attributes it gives each element tag.
#[derive(Default)]
struct Classes {
    classes: HashMap<String, Class>,
}

struct Class {
    parent: Option<String>,
    /// Per element tag, the attributes this class sets (its parent's not included).
    own: Vec<(String, Vec<(String, String)>)>,
}

impl Classes {
    /// Reads a `<default>` element and the classes nested in it. The outermost is `main`.
    fn read(&mut self, element: &Node, parent: Option<&str>) -> Result<(), LoadError> {
        let name = match (element.attribute("class"), parent) {
            (Some(name), _) => name.to_owned(),
            (None, None) => "main".to_owned(),
            (None, Some(_)) => {
                return Err(element.error("a nested <default> needs a class attribute"));
            }
        };
        if parent.is_none() && name == "main" && self.classes.contains_key("main") {
            // A second top-level <default> (from an include) adds to main.
        } else if self.classes.contains_key(&name) {
            return Err(element.error(format!("a second default class named \"{name}\"")));
        }
        let class = self.classes.entry(name.clone()).or_insert_with(|| Class {
            parent: parent.map(str::to_owned),
            own: Vec::new(),
        });
        for child in element.children.iter().filter(|c| c.tag != "default") {
            class
                .own
                .push((child.tag.clone(), child.attributes.clone()));
        }
        for nested in element.children.iter().filter(|c| c.tag == "default") {
            self.read(nested, Some(&name))?;
        }
        Ok(())
    }

    /// Completes a world element and everything in it; `class` is the one in force above it.
    fn apply(&self, node: &mut Node, class: &str) -> Result<(), LoadError> {
        let inherited = match node.tag.as_str() {
            "body" | "frame" => node.attribute("childclass").unwrap_or(class).to_owned(),
            _ => class.to_owned(),
        };
        if node.attribute("childclass").is_some() {
            self.check_known(node, &inherited)?;
        }
        self.apply_one(node, class)?;
        for child in &mut node.children {
            self.apply(child, &inherited)?;
        }
        Ok(())
    }

    /// Adds to one element what its class (its own `class` attribute, else `class`) and the
    /// classes above that give its tag, nearest first.
    fn apply_one(&self, node: &mut Node, class: &str) -> Result<(), LoadError> {
        let tags: &[&str] = match node.tag.as_str() {
            "body" | "frame" | "freejoint" => return Ok(()),
            // Every kind of equality takes `<default><equality>`.
            "connect" | "weld" | "joint" if is_equality(node) => &["equality"],
            // MuJoCo's shortcuts take their own defaults, and `<general>`'s.
            "position" | "velocity" | "motor" | "intvelocity" | "damper" | "cylinder"
            | "muscle" | "adhesion" => &[node.tag.as_str(), "general"],
            tag => &[tag],
        };
        let tags: Vec<String> = tags.iter().map(|t| (*t).to_owned()).collect();
        let class = node.attribute("class").unwrap_or(class).to_owned();
        self.check_known(node, &class)?;
        let mut name = Some(class.as_str());
        while let Some(current) = name {
            let Some(found) = self.classes.get(current) else {
                break;
            };
            for (tag, attributes) in found.own.iter().rev() {
                if !tags.contains(tag) {
                    continue;
                }
                for (key, value) in attributes {
                    if node.attribute(key).is_none() {
                        node.attributes.push((key.clone(), value.clone()));
                    }
                }
            }
            name = found.parent.as_deref();
        }
        Ok(())
    }

    fn check_known(&self, node: &Node, class: &str) -> Result<(), LoadError> {
        if class == "main" || self.classes.contains_key(class) {
            return Ok(());
        }
        Err(node.error(format!(
            "<{}> names default class \"{class}\", which the file does not define",
            node.tag
        )))
    }
}

/// An equality `<joint>` has `joint1`; a world `<joint>` has none.
fn is_equality(node: &Node) -> bool {
    node.attribute("joint1").is_some() || matches!(node.tag.as_str(), "connect" | "weld")
}
