//! Meshes as the field ships them: one can, 70 mm across and 120 mm tall, written in metres
//! (OBJ, STL, Y-up GLB) and in millimetres (OBJ, STL), batched with the Allegro. Each is read
//! at its true size, saying on stderr which unit was chosen, and a file in metres grasps as its
//! twin in millimetres does.

use std::{
    f64::consts::TAU,
    path::{Path, PathBuf},
    process::Command,
};

use serde_json::Value;

const SIDES: usize = 48;

/// The can's corners (in mm, to 6 decimals, so both units write the same decimals) and
/// triangles, outward.
fn can() -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let round = |c: f64| (c * 1e6).round() / 1e6;
    let mut corners = Vec::new();
    for k in 0..SIDES {
        let a = TAU * k as f64 / SIDES as f64;
        let (x, y) = (round(35.0 * a.cos()), round(35.0 * a.sin()));
        corners.extend([[x, y, 0.0], [x, y, 120.0]]);
    }
    corners.extend([[0.0, 0.0, 0.0], [0.0, 0.0, 120.0]]);
    let (bottom, top) = (2 * SIDES, 2 * SIDES + 1);
    let mut triangles = Vec::new();
    for k in 0..SIDES {
        let (i, j) = (2 * k, 2 * ((k + 1) % SIDES));
        triangles.extend([
            [i, j, j + 1],
            [i, j + 1, i + 1],
            [bottom, j, i],
            [top, i + 1, j + 1],
        ]);
    }
    (corners, triangles)
}

fn obj(decimals: usize, scale: f64) -> Vec<u8> {
    let (corners, triangles) = can();
    let mut text = String::new();
    for c in corners {
        let [x, y, z] = c.map(|v| format!("{:.decimals$}", v * scale));
        text += &format!("v {x} {y} {z}\n");
    }
    for [a, b, c] in triangles {
        text += &format!("f {} {} {}\n", a + 1, b + 1, c + 1);
    }
    text.into_bytes()
}

fn stl(scale: f64) -> Vec<u8> {
    let (corners, triangles) = can();
    let mut bytes = vec![0u8; 80];
    bytes.extend((triangles.len() as u32).to_le_bytes());
    for t in triangles {
        bytes.extend([0u8; 12]);
        for i in t {
            for v in corners[i] {
                bytes.extend(((v * scale) as f32).to_le_bytes());
            }
        }
        bytes.extend([0u8; 2]);
    }
    bytes
}

/// The can in metres with Y up, as glTF has it: (x, y, z) written as (x, z, −y).
fn glb() -> Vec<u8> {
    let (corners, triangles) = can();
    let mut buffer = Vec::new();
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for [x, y, z] in &corners {
        let p = [x, z, &-y].map(|v| (v * 1e-3) as f32);
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
        p.iter().for_each(|v| buffer.extend(v.to_le_bytes()));
    }
    let positions = buffer.len();
    for t in &triangles {
        t.iter()
            .for_each(|&i| buffer.extend((i as u32).to_le_bytes()));
    }
    let json = serde_json::json!({
        "asset": { "version": "2.0" },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "mesh": 0 }],
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 }, "indices": 1 }] }],
        "buffers": [{ "byteLength": buffer.len() }],
        "bufferViews": [
            { "buffer": 0, "byteOffset": 0, "byteLength": positions },
            { "buffer": 0, "byteOffset": positions, "byteLength": buffer.len() - positions },
        ],
        "accessors": [
            { "bufferView": 0, "componentType": 5126, "count": corners.len(), "type": "VEC3",
              "min": lo, "max": hi },
            { "bufferView": 1, "componentType": 5125, "count": 3 * triangles.len(),
              "type": "SCALAR" },
        ],
    });
    let mut json = json.to_string().into_bytes();
    json.resize(json.len().next_multiple_of(4), b' ');
    let mut glb = Vec::new();
    glb.extend(0x4654_6C67u32.to_le_bytes());
    glb.extend(2u32.to_le_bytes());
    glb.extend(((12 + 8 + json.len() + 8 + buffer.len()) as u32).to_le_bytes());
    glb.extend((json.len() as u32).to_le_bytes());
    glb.extend(0x4E4F_534Au32.to_le_bytes());
    glb.extend(json);
    glb.extend((buffer.len() as u32).to_le_bytes());
    glb.extend(0x004E_4942u32.to_le_bytes());
    glb.extend(buffer);
    glb
}

/// A batch's JSON without its timings, and its stderr.
fn batch(object: &Path, hand: &Path, flags: &[&str]) -> (Value, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_clasp-cli"))
        .args([
            "batch",
            "--grasps",
            "20",
            "--seed",
            "0",
            "--threads",
            "1",
            "--json",
        ])
        .args(flags)
        .arg("--hand")
        .arg(hand)
        .arg(object)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stderr}");
    let mut json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let map = json.as_object_mut().unwrap();
    for timing in ["seconds", "grasps_per_second", "object"] {
        map.remove(timing);
    }
    for result in map["results"].as_array_mut().unwrap() {
        result.as_object_mut().unwrap().remove("seconds");
    }
    (json, stderr)
}

fn force_closures(json: &Value) -> usize {
    let results = json["results"].as_array().unwrap();
    results
        .iter()
        .filter(|r| r["force_closure"] == true)
        .count()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clasp-cli-units-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_can_in_metres_grasps_as_its_twin_in_millimetres_and_says_how_it_was_read() {
    let Some(hands) = clasp_io::fixtures::field_hands() else {
        return;
    };
    let hand = hands.join("allegro_hand/allegro_hand_right.urdf");
    let dir = scratch();
    let write = |name: &str, bytes: Vec<u8>| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let obj_m = write("can_m.obj", obj(9, 1e-3));
    let obj_mm = write("can_mm.obj", obj(6, 1.0));
    let stl_m = write("can_m.stl", stl(1e-3));
    let stl_mm = write("can_mm.stl", stl(1.0));
    let glb_m = write("can_m.glb", glb());

    let (from_obj_m, said) = batch(&obj_m, &hand, &[]);
    assert!(
        said.contains("can_m.obj: 0.12 across, read as metres (120 mm); pass --units mm"),
        "{said}"
    );
    let (from_obj_mm, said) = batch(&obj_mm, &hand, &[]);
    assert!(
        said.contains("can_mm.obj: 120 across, read as millimetres (120 mm)"),
        "{said}"
    );
    assert_eq!(from_obj_m["object_units"], "m");
    assert_eq!(from_obj_mm["object_units"], "mm");
    assert_eq!(from_obj_m["object_scale"], 1000.0);
    // Every grasp the same to the bit, but for the units named.
    let same = |mut a: Value, mut b: Value| {
        for named in ["object_units", "object_scale"] {
            a[named] = Value::Null;
            b[named] = Value::Null;
        }
        assert_eq!(a, b);
    };
    assert!(force_closures(&from_obj_m) >= 5, "{from_obj_m}");
    same(from_obj_m.clone(), from_obj_mm);

    // STL and GLB hold single-precision numbers, so a file in metres and its twin in mm
    // round apart in the least bits; the Y-up GLB holds the STL's very numbers, turned.
    let (from_stl_m, _) = batch(&stl_m, &hand, &[]);
    let (from_stl_mm, _) = batch(&stl_mm, &hand, &[]);
    let (from_glb, said) = batch(&glb_m, &hand, &[]);
    assert!(said.contains("as glTF is; Y up, turned to Z up"), "{said}");
    same(from_glb.clone(), from_stl_m.clone());
    // A grasp at a near-tie may flip on the least bits of a coordinate, no more.
    let obj_count = force_closures(&from_obj_m);
    for single in [&from_stl_m, &from_stl_mm] {
        assert!(
            force_closures(single).abs_diff(obj_count) <= 1,
            "{obj_count} {single}"
        );
    }

    // The units given win: the can in metres read as millimetres is too small to grasp, and
    // the line says so.
    let (tiny, said) = batch(&obj_m, &hand, &["--units", "mm"]);
    assert!(said.contains("as asked; warning: no hand grasps"), "{said}");
    assert_eq!(force_closures(&tiny), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
