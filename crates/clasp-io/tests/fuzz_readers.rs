//! Deterministic mutation fuzzing of every reader in clasp-io.
//!
//! Seeds are the real model files (GraspIt's library in `../shared/graspit-models` when present,
//! and Clasp's own `models/`) plus small inline files. Each case mutates a seed a few times (byte
//! flips, span deletion, duplication and insertion, splices from other seeds, numbers replaced by
//! extreme values, truncation) and parses the result, checking that the reader does not panic,
//! finishes in bounded time, allocates a bounded amount of memory, and, for text, names the line
//! of any error. `CLASP_FUZZ_CASES` sets the cases per reader (default 500).
//!
//! To add a reader, add one line to [`READERS`].

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
    io,
    panic::{AssertUnwindSafe, catch_unwind},
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use clasp_core::BodyKind;
use clasp_io::{FileSource, LoadError};
use clasp_random::SplitMix64;

// ---------------------------------------------------------------------------------------------
// The readers

/// One reader under test: where its seeds come from and how to run it.
struct Reader {
    name: &'static str,
    /// Whether a real file (path, contents) is a seed for this reader.
    takes: fn(&Path, &[u8]) -> bool,
    /// Small hand-written seeds.
    inline: &'static [&'static str],
    /// Prepares a real seed (points its file references at files the parse can find).
    prepare: fn(Vec<u8>) -> Vec<u8>,
    parse: fn(&[u8]) -> Result<(), LoadError>,
    /// Whether errors for this input must name a line (text rather than binary data).
    is_text: fn(&[u8]) -> bool,
}

const READERS: &[Reader] = &[
    Reader {
        name: "OFF",
        takes: |p, _| has_ext(p, &["off"]),
        inline: &[OFF],
        prepare: same,
        parse: off,
        is_text: always,
    },
    Reader {
        name: "PLY ascii",
        takes: |p, b| has_ext(p, &["ply"]) && !is_binary_ply(b),
        inline: &[PLY],
        prepare: same,
        parse: ply,
        is_text: |b| !is_binary_ply(b),
    },
    Reader {
        name: "PLY binary",
        takes: |p, b| has_ext(p, &["ply"]) && is_binary_ply(b),
        inline: &[],
        prepare: same,
        parse: ply,
        is_text: |b| !is_binary_ply(b),
    },
    Reader {
        name: "OBJ",
        takes: |p, _| has_ext(p, &["obj"]),
        inline: &[OBJ],
        prepare: same,
        parse: obj,
        is_text: always,
    },
    Reader {
        name: "STL ascii",
        takes: |p, b| has_ext(p, &["stl", "stlb"]) && !is_binary_stl(b),
        inline: &[STL],
        prepare: same,
        parse: stl,
        is_text: |b| !is_binary_stl(b),
    },
    Reader {
        name: "STL binary",
        takes: |p, b| has_ext(p, &["stl", "stlb"]) && is_binary_stl(b),
        inline: &[],
        prepare: same,
        parse: stl,
        is_text: |b| !is_binary_stl(b),
    },
    Reader {
        name: "Inventor/VRML",
        // Small files only: big ones repeat the same nodes and would only slow the run.
        takes: |p, b| has_ext(p, &["iv", "wrl"]) && b.len() < 12_000 && !contains(b, b"File"),
        inline: &[INVENTOR, VRML],
        prepare: same,
        parse: inventor,
        is_text: always,
    },
    Reader {
        name: "URDF",
        takes: |p, b| has_ext(p, &["urdf"]) && b.len() < 50_000,
        inline: &[URDF],
        prepare: point_urdf_at_meshes,
        parse: urdf,
        is_text: always,
    },
    Reader {
        name: "body XML",
        takes: |p, b| is_xml(p, b, "<geometryFile"),
        inline: &[BODY],
        prepare: point_body_at_geometry,
        parse: body,
        is_text: always,
    },
    Reader {
        name: "robot XML",
        takes: |p, b| is_xml(p, b, "<palm"),
        inline: &[ROBOT],
        prepare: point_robot_at_bodies,
        parse: robot,
        is_text: always,
    },
    Reader {
        name: "virtual contacts XML",
        takes: |p, b| is_xml(p, b, "<virtual_contacts"),
        inline: &[VIRTUAL],
        prepare: same,
        parse: virtual_contacts,
        is_text: always,
    },
    Reader {
        name: "MJCF",
        takes: |p, b| is_xml(p, b, "<mujoco"),
        inline: &[MJCF],
        prepare: same,
        parse: mjcf,
        is_text: always,
    },
    Reader {
        name: "world XML",
        takes: |p, b| is_xml(p, b, "<world") && !contains(b, b"<mujoco"),
        inline: &[WORLD],
        prepare: point_world_at_files,
        parse: world,
        is_text: always,
    },
];

fn off(b: &[u8]) -> Result<(), LoadError> {
    clasp_io::parse_off(&String::from_utf8_lossy(b), Path::new("f.off")).map(drop)
}

fn ply(b: &[u8]) -> Result<(), LoadError> {
    clasp_io::parse_ply(b, Path::new("f.ply")).map(drop)
}

fn obj(b: &[u8]) -> Result<(), LoadError> {
    clasp_io::parse_obj(b, Path::new("f.obj")).map(drop)
}

fn stl(b: &[u8]) -> Result<(), LoadError> {
    clasp_io::parse_stl(b, Path::new("f.stl")).map(drop)
}

fn inventor(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "g/f.iv");
    clasp_io::parse_inventor(b, Path::new("g/f.iv"), &files).map(drop)
}

fn urdf(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "b/hand.urdf");
    clasp_io::load_urdf(&files, Path::new("b/hand.urdf")).map(drop)
}

/// Every mesh a real URDF names becomes the in-memory triangle beside it.
fn point_urdf_at_meshes(b: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&b);
    let mut out = String::new();
    let mut rest = text.as_ref();
    while let Some(at) = rest.find("filename=\"") {
        let start = at + "filename=\"".len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push_str("tri.off");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.into_bytes()
}

fn body(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "b/body.xml");
    clasp_io::load_body(&files, Path::new("b/body.xml"), BodyKind::Graspable).map(drop)
}

fn robot(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "r/robot.xml");
    clasp_io::load_robot(&files, Path::new("r/robot.xml")).map(drop)
}

fn virtual_contacts(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "r/virtual/v.xml");
    clasp_io::load_virtual_contacts(&files, Path::new("r/virtual/v.xml")).map(drop)
}

/// MJCF, read as a world: its include and mesh (`defaults.xml`, `meshes/tip.obj`) are beside.
fn mjcf(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "m/model.xml");
    clasp_io::load_world(&files, Path::new("m/model.xml"), None).map(drop)
}

fn world(b: &[u8]) -> Result<(), LoadError> {
    let files = Memory::new(b, "w/world.xml");
    clasp_io::load_world(&files, Path::new("w/world.xml"), None).map(drop)
}

fn same(b: Vec<u8>) -> Vec<u8> {
    b
}

fn always(_: &[u8]) -> bool {
    true
}

fn has_ext(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

fn is_xml(path: &Path, bytes: &[u8], marker: &str) -> bool {
    has_ext(path, &["xml"]) && contains(bytes, marker.as_bytes())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn is_binary_ply(bytes: &[u8]) -> bool {
    contains(bytes, b"binary_")
}

/// As the STL reader decides: binary when the size fits the count or "solid" is missing.
fn is_binary_stl(bytes: &[u8]) -> bool {
    let sized = bytes.get(80..84).is_some_and(|c| {
        84 + 50 * u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])) == bytes.len() as u64
    });
    sized || !bytes.starts_with(b"solid")
}

// ---------------------------------------------------------------------------------------------
// Inline seeds and the files XML seeds refer to

const OFF: &str = "OFF\n# a tetrahedron\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n\
                   3 0 2 1\n3 0 1 3\n3 0 3 2\n4 1 2 3 1\n";
const PLY: &str = "ply\nformat ascii 1.0\ncomment seed\nelement vertex 4\nproperty float x\n\
                   property double y\nproperty int z\nproperty uchar red\nelement face 2\n\
                   property list uchar int vertex_indices\nelement edge 1\nproperty int a\n\
                   end_header\n0 0 0 1\n1 0 0 2\n1 1 0 3\n0 1 1 4\n3 0 1 2\n4 0 1 2 3\n7\n";
const OBJ: &str = "# seed\nmtllib x.mtl\no a\nv 0 0 0\nv 1 0 0 1\nv 1 1 0\nv 0 1 1\n\
                   vt 0 0\nvn 0 0 1\nusemtl m\nf 1/1/1 2/1/1 3/1/1\ng b\nf -4 -3 -1\nf 1//1 3//1 4//1 2//1\nl 1 2\n";
const STL: &str = "solid seed\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n\
                   vertex 1 1 0\n endloop\nendfacet\nfacet normal 0 0 1\n outer loop\n\
                   vertex 0 0 0\n  vertex 1 1 0\n  vertex 0 1 1e-3\n endloop\nendfacet\nendsolid seed\n";
const BODY: &str = "<?xml version=\"1.0\"?>\n<root>\n  <material>rubber</material>\n  <mass>250</mass>\n\
                    <cog>0 0 1</cog>\n  <inertia_matrix>1 0 0 0 1 0 0 0 1</inertia_matrix>\n\
                    <youngs>1e6</youngs>\n  <geometryFile type=\"off\">tri.off</geometryFile>\n\
                    <geometryScaling>2</geometryScaling>\n  <geometryOffset><transform>\
                    <translation>0 0 5</translation><rotation>90 x</rotation>\
                    <fullTransform>(1 0 0 0)[1 2 3]</fullTransform></transform></geometryOffset>\n</root>\n";
const ROBOT: &str = "<?xml version=\"1.0\"?>\n<robot type=\"Hand\">\n  <palm>palm.xml</palm>\n\
                     <dof type=\"r\"><defaultVelocity>1.0</defaultVelocity><defaultValue>5</defaultValue></dof>\n\
                     <dof type=\"b\"><defaultVelocity>1.0</defaultVelocity></dof>\n\
                     <chain>\n<transform><translation>25 0 0</translation></transform>\n\
                     <joint type=\"Revolute\"><theta>d0*0.5+10</theta><d>0</d><a>50</a><alpha>0</alpha>\
                     <minValue>-30</minValue><maxValue>90</maxValue></joint>\n\
                     <joint type=\"Prismatic\"><theta>0</theta><d>d1-2.5</d><a>0</a><alpha>90</alpha>\
                     <minValue>0</minValue><maxValue>10</maxValue></joint>\n\
                     <link dynamicJointType=\"Revolute\">link.xml</link>\n\
                     <link dynamicJointType=\"Prismatic\">link.xml</link>\n</chain>\n\
                     <approachDirection><referenceLocation>0 0 0</referenceLocation>\
                     <direction>0 0 1</direction></approachDirection>\n\
                     <eigenGrasps>eigen.xml</eigenGrasps>\n</robot>\n";
const WORLD: &str = "<?xml version=\"1.0\"?>\n<world>\n<obstacle><filename>body.xml</filename>\
                     <transform><fullTransform>(1 0 0 0)[0 0 -10]</fullTransform></transform></obstacle>\n\
                     <graspableBody><filename>body.xml</filename></graspableBody>\n\
                     <robot><filename>robot.xml</filename><dofValues>0.5 5 0</dofValues>\
                     <transform><translation>0 100 0</translation></transform></robot>\n\
                     <camera><position>0 0 500</position><orientation>0 0 0 1</orientation>\
                     <focalDistance>500</focalDistance></camera>\n</world>\n";
const INVENTOR: &str = "#Inventor V2.1 ascii\nDEF root Separator {\n Material { diffuseColor 1 0 0 }\n\
    Transform { translation 1 2 3 rotation 0 0 1 0.5 scaleFactor 2 2 2 }\n\
    Coordinate3 { point [ 0 0 0, 1 0 0, 1 1 0, 0 1 0 ] }\n FaceSet { numVertices [ 4 ] }\n\
    IndexedFaceSet { coordIndex [ 0, 1, 2, -1, 0, 2, 3, -1 ] }\n\
    IndexedTriangleStripSet { vertexProperty VertexProperty { vertex [ 0 0 0, 1 0 0, 0 1 0, 1 1 1 ] }\n\
    coordIndex [ 0, 1, 2, 3, -1 ] }\n Cube { width 2 } Cylinder { parts (SIDES | TOP) }\n\
    Separator { RotationXYZ { axis Y angle 1 } Sphere { radius 3 } Cone { } }\n\
    MatrixTransform { matrix 1 0 0 0 0 1 0 0 0 0 1 0 5 5 5 1 }\n File { name \"tri.iv\" }\n}\n";
const VRML: &str = "#VRML V2.0 utf8\nTransform { scale 2 2 2 children [\n\
    Shape { appearance Appearance { material Material { diffuseColor 0 0 1 } }\n\
    geometry IndexedFaceSet { coord DEF c Coordinate { point [ 0 0 0, 1 0 0, 0 1 0 ] }\n\
    coordIndex [ 0 1 2 -1 ] } }\n Switch { whichChoice 0 choice [ Shape { geometry Box { } } ] }\n\
    ] }\nROUTE a.b TO c.d\n";
const MJCF: &str = "<mujoco model=\"m\">\n<compiler angle=\"degree\" meshdir=\"meshes\"/>\n\
    <include file=\"defaults.xml\"/>\n<asset><mesh name=\"tip\" file=\"tip.obj\" scale=\"0.001 0.001 0.001\"/></asset>\n\
    <worldbody>\n<geom type=\"plane\" size=\"1 1 0.1\"/>\n\
    <body name=\"palm\" euler=\"10 20 30\" childclass=\"hand\"><geom type=\"box\" size=\"0.01 0.01 0.01\"/>\n\
    <body name=\"a\" pos=\"0 0 0.02\"><joint name=\"a\" range=\"0 90\"/><geom type=\"capsule\" fromto=\"0 0 0 0 0 0.03\" size=\"0.005\"/>\n\
    <body name=\"b\" pos=\"0 0 0.03\"><joint name=\"b\"/><geom type=\"mesh\" mesh=\"tip\"/></body></body>\n\
    <body name=\"c\" xyaxes=\"0 1 0 -1 0 0\"><joint name=\"c\" type=\"slide\" range=\"0 0.01\"/><geom type=\"ellipsoid\" size=\"0.01 0.02 0.01\"/></body>\n\
    </body>\n<body name=\"o\" pos=\"0 0 0.1\"><freejoint/><inertial mass=\"0.1\" diaginertia=\"1e-5 1e-5 1e-5\"/><geom type=\"cylinder\" size=\"0.01 0.02\"/></body>\n\
    </worldbody>\n<equality><joint joint1=\"b\" joint2=\"a\" polycoef=\"0 1 0 0 0\"/></equality>\n\
    <actuator><position joint=\"a\" kp=\"2\" forcerange=\"-1 1\"/></actuator>\n\
    <keyframe><key name=\"clasp\" qpos=\"0.1 0.1 0.001 0 0 0.1 1 0 0 0\"/></keyframe>\n</mujoco>\n";

/// The defaults the real MJCF seed includes (the inline seed uses them too).
const MJCF_DEFAULTS: &str = include_str!("../../../models/robots/ClaspMJCF/defaults.xml");

const URDF: &str = "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n\
    <link name=\"palm\"><collision><origin xyz=\"0 0 0.01\" rpy=\"0 0 0\"/>\
    <geometry><box size=\"0.02 0.02 0.02\"/></geometry></collision></link>\n\
    <link name=\"a\"><visual><geometry><mesh filename=\"tri.off\" scale=\"1 1 1\"/></geometry></visual></link>\n\
    <link name=\"b\"><collision><geometry><cylinder radius=\"0.01\" length=\"0.03\"/></geometry></collision></link>\n\
    <link name=\"c\"><collision><geometry><sphere radius=\"0.01\"/></geometry></collision></link>\n\
    <joint name=\"j1\" type=\"revolute\"><parent link=\"palm\"/><child link=\"a\"/>\
    <origin xyz=\"0.03 0 0\" rpy=\"0 0 1.57\"/><axis xyz=\"0 0 1\"/><limit lower=\"0\" upper=\"1.5\"/></joint>\n\
    <joint name=\"j2\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>\
    <axis xyz=\"0 1 0\"/><limit lower=\"0\" upper=\"1\"/><mimic joint=\"j1\" multiplier=\"0.5\" offset=\"0.1\"/></joint>\n\
    <joint name=\"j3\" type=\"prismatic\"><parent link=\"palm\"/><child link=\"c\"/>\
    <axis xyz=\"1 0 0\"/><limit lower=\"-0.01\" upper=\"0.01\"/></joint>\n</robot>\n";
const TRIANGLE: &str = "OFF\n3 1 0\n0 0 0\n10 0 0\n0 10 0\n3 0 1 2\n";
const EIGEN: &str = "<EigenGrasps dimensions=\"1\"><EG><EigenValue value=\"0.5\"/>\
                     <DimVals d0=\"1.0\"/></EG></EigenGrasps>";
const VIRTUAL: &str = "<?xml version=\"1.0\" ?>\n<virtual_contacts>\n<robot_name>r</robot_name>\n\
                       <num_contacts>1</num_contacts>\n<virtual_contact>\n<finger_number>0</finger_number>\n\
                       <link_number>0</link_number>\n<num_friction_edges>1</num_friction_edges>\n\
                       <friction_edges><friction_edge>1 0 0 0 0 0</friction_edge></friction_edges>\n\
                       <location>1 2 3</location>\n<rotation>1 0 0 0</rotation>\n\
                       <translation>1 2 3</translation>\n<normal>0 0 1</normal>\n<sCof>0.5</sCof>\n\
                       </virtual_contact>\n</virtual_contacts>\n";
const PLAIN_BODY: &str = "<root><geometryFile>tri.off</geometryFile></root>";

/// Replaces the text of every `<tag ...>TEXT</tag>` with `text`.
fn set_texts(xml: &[u8], tag: &str, text: &str) -> Vec<u8> {
    let xml = String::from_utf8_lossy(xml);
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut out = String::new();
    let mut rest = xml.as_ref();
    while let Some(start) = rest.find(&open) {
        let Some(gt) = rest[start..].find('>').map(|i| start + i + 1) else {
            break;
        };
        let Some(end) = rest[gt..].find(&close).map(|i| gt + i) else {
            break;
        };
        out.push_str(&rest[..gt]);
        out.push_str(text);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.into_bytes()
}

fn point_body_at_geometry(xml: Vec<u8>) -> Vec<u8> {
    set_texts(&xml, "geometryFile", "tri.off")
}

fn point_robot_at_bodies(xml: Vec<u8>) -> Vec<u8> {
    let xml = set_texts(&xml, "palm", "palm.xml");
    let xml = set_texts(&xml, "eigenGrasps", "eigen.xml");
    let xml = set_texts(&xml, "virtualContacts", "virtual.xml");
    set_texts(&xml, "link", "link.xml")
}

/// Robots' `<filename>`s name the robot file, everything else's the body file, and DOF streams
/// fit that robot.
fn point_world_at_files(xml: Vec<u8>) -> Vec<u8> {
    let xml = set_texts(&xml, "filename", "body.xml");
    // The DOF stream of the in-memory robot: a rigid DOF, then a breakaway one with one joint.
    let xml = set_texts(&xml, "dofValues", "0.5 5 0");
    let text = String::from_utf8_lossy(&xml);
    let parts: Vec<String> = text
        .split("<robot>")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                return part.to_string();
            }
            part.replacen("body.xml", "robot.xml", 1)
        })
        .collect();
    parts.join("<robot>").into_bytes()
}

/// The fuzzed file plus the bodies, robot and geometry it may refer to, in memory.
struct Memory {
    files: Vec<(PathBuf, Vec<u8>)>,
}

impl Memory {
    fn new(fuzzed: &[u8], name: &str) -> Self {
        let mut files = vec![(PathBuf::from(name), fuzzed.to_vec())];
        for folder in ["b", "r/iv", "w", "w/iv"] {
            files.push((Path::new(folder).join("tri.off"), TRIANGLE.into()));
            files.push((Path::new(folder).join("palm.xml"), PLAIN_BODY.into()));
            files.push((Path::new(folder).join("link.xml"), PLAIN_BODY.into()));
        }
        files.push((
            "m/meshes/tip.obj".into(),
            "v 0 0 0\nv 10 0 0\nv 0 10 0\nf 1 2 3\n".into(),
        ));
        files.push(("m/defaults.xml".into(), MJCF_DEFAULTS.into()));
        files.push(("g/tri.iv".into(), "#Inventor V2.1 ascii\nCube { }\n".into()));
        files.push(("r/eigen.xml".into(), EIGEN.into()));
        files.push(("r/virtual.xml".into(), VIRTUAL.into()));
        files.push(("w/eigen.xml".into(), EIGEN.into()));
        files.push(("w/body.xml".into(), PLAIN_BODY.into()));
        files.push(("w/robot.xml".into(), ROBOT.into()));
        Self { files }
    }

    fn get(&self, path: &Path) -> Option<&Vec<u8>> {
        let path = normalize(path);
        self.files.iter().find(|(p, _)| *p == path).map(|(_, b)| b)
    }
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

impl FileSource for Memory {
    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        let bytes = self.read_bytes(path)?;
        String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    fn read_bytes(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.get(path)
            .cloned()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))
    }

    fn is_file(&self, path: &Path) -> bool {
        self.get(path).is_some()
    }
}

// ---------------------------------------------------------------------------------------------
// Counting allocations per thread

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn track(delta: isize) {
    // try_with: the allocator also runs while thread-locals are torn down.
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is forwarded to the system allocator unchanged; only sizes are counted.
// The workspace denies unsafe code; a counting allocator cannot be written without it.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            track(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        track(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            track(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result with the most bytes it had allocated at once on this thread.
fn peak_bytes<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, (PEAK.with(Cell::get) - base).max(0) as usize)
}

// ---------------------------------------------------------------------------------------------
// Mutations

/// The mutations' draws, from Clasp's one seeded generator: the same on every machine.
struct Rng(SplitMix64);

impl Rng {
    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.0.below(n as u64) as usize
        }
    }

    /// A span length, mostly short, sometimes long.
    fn span(&mut self, limit: usize) -> usize {
        let cap = if self.below(8) == 0 {
            limit
        } else {
            limit.min(16)
        };
        1 + self.below(cap.max(1))
    }
}

const EXTREMES: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1e308",
    "-1e308",
    "1e999",
    "-1e999",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "4294967295",
    "4294967296",
    "-2147483649",
    "18446744073709551616",
    "1e-320",
    "255",
    "3",
    "",
];
const BYTES: &[u8] = b" \n\t\r0123456789.-+e/<>\"=#&;!?[]()\xff\x00\x80";

fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>]) {
    let n = input.len();
    match rng.below(9) {
        0 => {
            if n > 0 {
                let i = rng.below(n);
                input[i] ^= 1 << rng.below(8);
            }
        }
        1 => {
            if n > 0 {
                let i = rng.below(n);
                input[i] = BYTES[rng.below(BYTES.len())];
            }
        }
        2 => {
            let start = rng.below(n);
            let len = rng.span(n - start);
            input.drain(start..(start + len).min(n));
        }
        3 => {
            let start = rng.below(n);
            let span = input[start..(start + rng.span(n - start)).min(n)].to_vec();
            let at = rng.below(n + 1);
            input.splice(at..at, span);
        }
        4 => {
            let at = rng.below(n + 1);
            let count = rng.span(8);
            let bytes: Vec<u8> = (0..count).map(|_| BYTES[rng.below(BYTES.len())]).collect();
            input.splice(at..at, bytes);
        }
        5 => {
            let other = &seeds[rng.below(seeds.len())];
            let start = rng.below(other.len());
            let piece = &other[start..(start + rng.span(other.len() - start)).min(other.len())];
            let at = rng.below(n + 1);
            let cut = if rng.below(2) == 0 {
                0
            } else {
                rng.span(n - at).min(n - at)
            };
            input.splice(at..at + cut, piece.iter().copied());
        }
        6 => replace_number(rng, input),
        7 => {
            // A 32-bit value written over the data, for binary formats' counts and floats.
            let values = [
                u32::MAX,
                0x8000_0000,
                0x7FFF_FFFF,
                0,
                1,
                0x7FC0_0000,
                0x7F80_0000,
            ];
            if n >= 4 {
                let at = rng.below(n - 3);
                let v = values[rng.below(values.len())].to_le_bytes();
                input[at..at + 4].copy_from_slice(&v);
            }
        }
        _ => input.truncate(rng.below(n + 1)),
    }
}

/// Replaces a number in the text with an extreme one.
fn replace_number(rng: &mut Rng, input: &mut Vec<u8>) {
    let is_numeric = |b: u8| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E');
    let starts: Vec<usize> = (0..input.len())
        .filter(|&i| input[i].is_ascii_digit() && (i == 0 || !is_numeric(input[i - 1])))
        .collect();
    if starts.is_empty() {
        return;
    }
    let start = starts[rng.below(starts.len())];
    let end = (start..input.len())
        .find(|&i| !is_numeric(input[i]))
        .unwrap_or(input.len());
    let value = EXTREMES[rng.below(EXTREMES.len())];
    input.splice(start..end, value.bytes());
}

// ---------------------------------------------------------------------------------------------
// The fuzzing loop

fn seed_roots() -> Vec<PathBuf> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = [
        crate_dir.join("../../../shared/graspit-models"),
        crate_dir.join("../../models"),
    ];
    roots
        .into_iter()
        .filter(|root| {
            let present = root.is_dir();
            if !present {
                eprintln!("no seeds from {}: it is absent", root.display());
            }
            present
        })
        .collect()
}

fn files_under(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Real files up to 256 KiB, so that a case stays quick.
fn real_files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut paths = Vec::new();
    for root in seed_roots() {
        files_under(&root, &mut paths);
    }
    paths
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            (bytes.len() <= 256 * 1024).then_some((p, bytes))
        })
        .collect()
}

struct Report {
    seeds: usize,
    cases: usize,
    ok: usize,
    errors: usize,
    slowest: Duration,
    peak: usize,
}

fn cases() -> usize {
    std::env::var("CLASP_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

/// Saves an input that failed a check, so it can be replayed, and says where.
fn save_failure(reader: &Reader, case: usize, input: &[u8]) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let name = format!("{}-{case}.bin", reader.name.replace(' ', "-"));
    let path = dir.join(name);
    let _ = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, input));
    format!(
        "{} case {case} (input saved as {})",
        reader.name,
        path.display()
    )
}

fn fuzz(reader: &Reader, real: &[(PathBuf, Vec<u8>)], all_seeds: &[Vec<u8>]) -> Report {
    let mut seeds: Vec<Vec<u8>> = reader
        .inline
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    seeds.extend(
        real.iter()
            .filter(|(p, b)| (reader.takes)(p, b))
            .map(|(_, b)| (reader.prepare)(b.clone())),
    );
    assert!(!seeds.is_empty(), "{} has no seeds", reader.name);
    // The seeds themselves must load (the mutations start from valid files).
    for (i, seed) in seeds.iter().enumerate() {
        if let Err(e) = (reader.parse)(seed) {
            panic!("{} seed {i} does not load: {e}", reader.name);
        }
    }
    let mut rng = Rng(SplitMix64::new(
        0x5EED ^ reader.name.len() as u64 ^ (reader.name.as_bytes()[0] as u64) << 32,
    ));
    let mut report = Report {
        seeds: seeds.len(),
        cases: 0,
        ok: 0,
        errors: 0,
        slowest: Duration::ZERO,
        peak: 0,
    };
    for case in 0..cases() {
        let mut input = seeds[rng.below(seeds.len())].clone();
        // Half the cases one mutation, so that more inputs get past the first checks.
        let mutations = if rng.below(2) == 0 {
            1
        } else {
            2 + rng.below(3)
        };
        for _ in 0..mutations {
            let donors = if rng.below(2) == 0 { &seeds } else { all_seeds };
            mutate(&mut rng, &mut input, donors);
        }
        input.truncate(1 << 20);
        let start = Instant::now();
        let (result, peak) =
            peak_bytes(|| catch_unwind(AssertUnwindSafe(|| (reader.parse)(&input))));
        let took = start.elapsed();
        let Ok(result) = result else {
            panic!("panic in {}", save_failure(reader, case, &input));
        };
        let allowed = 64 * 1024 * 1024 + 200 * input.len();
        assert!(
            peak < allowed,
            "{} bytes allocated at once in {}",
            peak,
            save_failure(reader, case, &input)
        );
        assert!(
            took < Duration::from_secs(2),
            "{took:?} in {}",
            save_failure(reader, case, &input)
        );
        report.slowest = report.slowest.max(took);
        report.peak = report.peak.max(peak);
        report.cases += 1;
        match result {
            Ok(()) => report.ok += 1,
            Err(e) => {
                report.errors += 1;
                let whole_file = e.message.starts_with("the file is empty")
                    || e.message.contains("no triangles with area");
                if (reader.is_text)(&input) && e.line.is_none() && !whole_file {
                    panic!(
                        "error without a line, \"{e}\", in {}",
                        save_failure(reader, case, &input)
                    );
                }
            }
        }
    }
    report
}

#[test]
fn every_reader_survives_mutated_files() {
    let real = real_files();
    let all_seeds: Vec<Vec<u8>> = READERS
        .iter()
        .flat_map(|r| r.inline.iter().map(|s| s.as_bytes().to_vec()))
        .chain(
            real.iter()
                .filter(|(p, b)| READERS.iter().any(|r| (r.takes)(p, b)))
                .map(|(_, b)| b.clone()),
        )
        .collect();
    let started = Instant::now();
    // One thread per reader; allocations are counted per thread.
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let handles: Vec<_> = READERS
            .iter()
            .map(|reader| scope.spawn(|| fuzz(reader, &real, &all_seeds)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    eprintln!("fuzzing took {:.1} s", started.elapsed().as_secs_f64());
    for (reader, r) in READERS.iter().zip(&reports) {
        eprintln!(
            "{:<13} {:>4} seeds, {:>7} cases: {:>7} parsed, {:>7} errors; \
             slowest {:>6.1} ms, peak {:>6.1} MiB",
            reader.name,
            r.seeds,
            r.cases,
            r.ok,
            r.errors,
            r.slowest.as_secs_f64() * 1e3,
            r.peak as f64 / (1024.0 * 1024.0)
        );
    }
    for (reader, r) in READERS.iter().zip(&reports) {
        assert_eq!(r.cases, cases(), "{}", reader.name);
    }
}
