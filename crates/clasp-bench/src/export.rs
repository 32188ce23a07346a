//! `--export DIR`: the meshes and poses of the near-contact cells (10k and 100k triangles, the
//! link 0.05 mm and 1 mm from the object, or 0.5 mm into it), our answers and our time per
//! cell, for `coal/coal_compare.py` to time Coal on exactly the same calls.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use clasp_collide::{CollisionEngine, FastEngine, Geometry, Placed, TriMesh};
use nalgebra::Isometry3;
use serde_json::{Value, json};

use crate::scenes::{self, Config, Random, Shape};
use crate::timing::time_calls;

const SIZES: [usize; 2] = [10_000, 100_000];
const CONFIGS: [Config; 3] = [
    Config::Gap(0.05),
    Config::Gap(1.0),
    Config::Penetrating(0.5),
];
const SITES: usize = 8;
const BUDGET: Duration = Duration::from_millis(300);

/// Writes the export; an error names what could not be written.
pub fn run(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let link = Geometry::new(scenes::finger_link());
    write_obj(&dir.join("link.obj"), link.mesh())?;
    let mut meshes = serde_json::Map::new();
    meshes.insert("link".into(), "link.obj".into());
    let mut cells = Vec::new();
    let mut rng = Random::new(2026);
    println!("export to {}: ours per cell", dir.display());
    for shape in Shape::ALL {
        for size in SIZES {
            let Some(mesh) = shape.mesh(size) else {
                continue;
            };
            let name = format!("{}_{}", shape.name(), mesh.triangles().len());
            write_obj(&dir.join(format!("{name}.obj")), &mesh)?;
            meshes.insert(name.clone(), format!("{name}.obj").into());
            let object = Geometry::new(mesh);
            let sites = scenes::sites(object.mesh(), SITES, &mut rng);
            for config in CONFIGS {
                let poses: Vec<Isometry3<f64>> = sites
                    .iter()
                    .map(|site| scenes::place(&object, &link, site, config, &mut rng))
                    .collect();
                let queries: &[&str] = match config {
                    Config::Gap(_) => &["distance", "collide"],
                    _ => &["collide"],
                };
                for &query in queries {
                    cells.push(cell(shape, &name, &object, &link, config, query, &poses));
                }
            }
        }
    }
    let manifest = json!({"meshes": meshes, "cells": cells});
    let text = serde_json::to_string_pretty(&manifest).expect("plain values");
    let path = dir.join("manifest.json");
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// One cell: our answer for each pose and our median time per call.
fn cell(
    shape: Shape,
    name: &str,
    object: &Geometry,
    link: &Geometry,
    config: Config,
    query: &str,
    poses: &[Isometry3<f64>],
) -> Value {
    let placed = |pose: &Isometry3<f64>| {
        (
            Placed::new(link, *pose),
            Placed::new(object, Isometry3::identity()),
        )
    };
    let answers: Vec<Value> = poses
        .iter()
        .map(|pose| {
            let (a, b) = placed(pose);
            match query {
                "distance" => FastEngine
                    .distance(a, b)
                    .map_or(Value::Null, |s| s.distance.into()),
                _ => FastEngine.collide(a, b).into(),
            }
        })
        .collect();
    let ours = |pose: &Isometry3<f64>| {
        let (a, b) = placed(pose);
        match query {
            "distance" => {
                let _ = std::hint::black_box(FastEngine.distance(a, b));
            }
            _ => {
                std::hint::black_box(FastEngine.collide(a, b));
            }
        }
    };
    let timed = time_calls(poses, BUDGET, ours, None::<fn(&Isometry3<f64>, bool)>);
    let triangles = object.mesh().triangles().len();
    println!(
        "  {name} {} {query}: {:.2} us",
        config.name(),
        timed.ours / 1e3
    );
    json!({
        "name": format!("{} {triangles} {} {query}", shape.name(), config.name()),
        "object": shape.name(), "triangles": triangles, "config": config.name(), "query": query,
        "mesh_a": "link", "mesh_b": name,
        "poses": poses.iter().map(matrix).collect::<Vec<_>>(),
        "answers": answers, "ours_ns": timed.ours,
    })
}

/// A pose as a 4×4 matrix, row by row.
pub(crate) fn matrix(pose: &Isometry3<f64>) -> Value {
    let m = pose.to_homogeneous();
    (0..4)
        .map(|r| (0..4).map(|c| m[(r, c)]).collect::<Vec<f64>>())
        .collect::<Vec<_>>()
        .into()
}

pub(crate) fn write_obj(path: &Path, mesh: &TriMesh) -> Result<(), String> {
    let mut text = String::new();
    for v in mesh.vertices() {
        let _ = writeln!(text, "v {} {} {}", v.x, v.y, v.z);
    }
    for [a, b, c] in mesh.triangles() {
        let _ = writeln!(text, "f {} {} {}", a + 1, b + 1, c + 1);
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
