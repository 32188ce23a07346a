//! glTF 2.0 meshes: a `.gltf` with its `.bin` beside it, placed through its nodes (a mirroring
//! node's triangles flipped back outward), the field's GLB files, and what is refused.

use std::path::PathBuf;

use clasp_io::{Disk, GeometryFormat, load_mesh_file};
use nalgebra::Point3;

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-gltf-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One triangle (0,0,0), (1,0,0), (0,1,0) as a .bin of three f32 positions, with a node that
/// holds `transform` (glTF JSON: `"translation": [...]`, `"scale": [...]`, …).
fn triangle_gltf(dir: &std::path::Path, transform: &str, buffer_uri: &str) -> PathBuf {
    let positions: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let bytes: Vec<u8> = positions.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.join("tri.bin"), &bytes).unwrap();
    let text = format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
"nodes": [{{"mesh": 0, {transform}}}],
"meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
"accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
  "min": [0, 0, 0], "max": [1, 1, 0]}}],
"bufferViews": [{{"buffer": 0, "byteLength": 36}}],
"buffers": [{{"uri": "{buffer_uri}", "byteLength": 36}}]}}"#
    );
    let path = dir.join("tri.gltf");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_gltf_triangle_is_placed_by_its_node_and_a_mirror_keeps_it_outward() {
    let dir = folder("node");
    let path = triangle_gltf(&dir, r#""translation": [10, 20, 30]"#, "tri.bin");
    assert_eq!(GeometryFormat::of(&path, None), GeometryFormat::Gltf);
    let mesh = load_mesh_file(&Disk, &path, GeometryFormat::Gltf)
        .unwrap()
        .mesh;
    assert_eq!(mesh.triangles().len(), 1);
    assert_eq!(mesh.vertices()[1], Point3::new(11.0, 20.0, 30.0));
    let normal = |m: &clasp_core::TriMesh| {
        let [a, b, c] = m.triangles()[0].map(|i| m.vertices()[i as usize]);
        (b - a).cross(&(c - a)).normalize()
    };
    assert!((normal(&mesh).z - 1.0).abs() < 1e-12);
    // Mirrored in x, the triangle's winding is turned so that it still faces +z.
    let mirrored = triangle_gltf(&dir, r#""scale": [-1, 1, 1]"#, "tri.bin");
    let mesh = load_mesh_file(&Disk, &mirrored, GeometryFormat::Gltf)
        .unwrap()
        .mesh;
    assert_eq!(mesh.vertices()[1], Point3::new(-1.0, 0.0, 0.0));
    assert!((normal(&mesh).z - 1.0).abs() < 1e-12);
}

#[test]
fn a_gltf_that_cannot_be_read_is_refused_naming_the_file() {
    let dir = folder("bad");
    let missing = triangle_gltf(&dir, r#""translation": [0, 0, 0]"#, "gone.bin");
    let error = load_mesh_file(&Disk, &missing, GeometryFormat::Gltf).unwrap_err();
    assert_eq!(error.file, missing);
    assert!(error.message.contains("gone.bin"), "{error}");
    let inline = triangle_gltf(
        &dir,
        r#""translation": [0, 0, 0]"#,
        "data:application/octet-stream;base64,AAAA",
    );
    let error = load_mesh_file(&Disk, &inline, GeometryFormat::Gltf).unwrap_err();
    assert!(error.message.contains("data URI"), "{error}");
    let garbage = dir.join("garbage.glb");
    std::fs::write(&garbage, b"not a model").unwrap();
    let error = load_mesh_file(&Disk, &garbage, GeometryFormat::Gltf).unwrap_err();
    assert!(error.message.contains("not a glTF file"), "{error}");
}

#[test]
fn the_panda_s_glb_visuals_read() {
    let Some(hands) = clasp_io::fixtures::field_hands() else {
        return;
    };
    for (file, longest) in [("hand.glb", 0.2), ("finger.glb", 0.06)] {
        let path = hands.join("panda_gripper/meshes/visual").join(file);
        let mesh = load_mesh_file(&Disk, &path, GeometryFormat::of(&path, None))
            .unwrap()
            .mesh;
        let (lo, hi) = mesh.bounding_box();
        let size = (hi - lo).max();
        println!(
            "{file}: {} triangles, {:.3} m at its longest",
            mesh.triangles().len(),
            size
        );
        assert!(mesh.triangles().len() > 100, "{file}");
        // In metres, as glTF's are: the Panda's hand is about 0.2 m across, a finger 0.05 m.
        assert!(
            size > 0.5 * longest && size < 1.5 * longest,
            "{file}: {size}"
        );
    }
}
