//! The collision benchmark of collision-benchmark.md §5: every cell of the matrix (object,
//! size, configuration, query), the trees' build, a whole hand's frame at a grasp and a move
//! until contact; ours, and with `vs-parry` parry3d's on the same meshes and poses.

use std::sync::Arc;
use std::time::Instant;

use clasp_collide::{CollisionEngine, DEFAULT_CONTACT_THRESHOLD, FastEngine, Geometry, Placed};
use nalgebra::{Isometry3, Translation3};
use serde_json::{Value, json};

#[cfg(feature = "vs-parry")]
use crate::parry;
use crate::{
    check::Checks,
    options::Plan,
    scenes::{self, Config, Random, Shape},
    timing::{Timed, format_ns, median, percentile, time_calls},
};

/// Every (object, size, configuration) with the three pair queries.
pub(crate) fn run_matrix(plan: &Plan, checks: &mut Checks, rng: &mut Random) -> Vec<Value> {
    let link = Arc::new(Geometry::new(plan.link.clone()));
    let small = Arc::new(Geometry::new(scenes::small_link()));
    let mut cells = Vec::new();
    println!(
        "\n{:<6} {:>8} {:<9} {:<9} {:>12} {:>12} {:>8}",
        "object", "tris", "config", "query", "ours", "parry", "ratio"
    );
    for shape in Shape::ALL {
        for &size in plan.sizes {
            let Some(mesh) = shape.mesh(size) else {
                continue;
            };
            let tris = mesh.triangles().len();
            let object = Geometry::new(mesh);
            let sites = scenes::sites(object.mesh(), plan.sites, rng);
            #[cfg(feature = "vs-parry")]
            let parry_object = parry::ParryMesh::new(object.mesh());
            for config in Config::MATRIX {
                let link = if config == Config::Inside {
                    small.clone()
                } else {
                    link.clone()
                };
                let poses: Vec<Isometry3<f64>> = sites
                    .iter()
                    .map(|site| match config {
                        Config::Inside => scenes::inside_pose(shape, rng),
                        _ => scenes::place(&object, &link, site, config, rng),
                    })
                    .collect();
                if tris <= plan.check_up_to {
                    for pose in &poses {
                        let label = format!("{} {tris} {} ", shape.name(), config.name());
                        checks.pair(&object, &link, pose, config, &label);
                    }
                }
                #[cfg(feature = "vs-parry")]
                let parry_link = parry::ParryMesh::new(link.mesh());
                let queries: [(&str, Query); 3] = [
                    ("collide", Query::Collide),
                    ("contacts", Query::Contacts),
                    ("distance", Query::Distance),
                ];
                for (name, query) in queries {
                    let ours = |pose: &Isometry3<f64>| run_ours(query, &object, &link, pose);
                    #[cfg(feature = "vs-parry")]
                    let parry = Some(|pose: &Isometry3<f64>, flip: bool| {
                        run_parry(query, &parry_object, &parry_link, pose, flip)
                    });
                    #[cfg(not(feature = "vs-parry"))]
                    let parry: Option<fn(&Isometry3<f64>, bool)> = None;
                    let timed = time_calls(&poses, plan.cell_budget, ours, parry);
                    print_cell(shape.name(), tris, &config.name(), name, &timed);
                    cells.push(json!({
                        "object": shape.name(), "triangles": tris, "config": config.name(),
                        "query": name, "ours_ns": timed.ours, "parry_ns": timed.parry,
                        "parry_ns_link_first": timed.parry_orders.map(|o| o.0),
                        "parry_ns_object_first": timed.parry_orders.map(|o| o.1),
                        "ratio": timed.ratio(),
                    }));
                }
            }
        }
    }
    cells
}

#[derive(Clone, Copy)]
enum Query {
    Collide,
    Contacts,
    Distance,
}

fn run_ours(query: Query, object: &Geometry, link: &Geometry, pose: &Isometry3<f64>) {
    let (l, o) = (
        Placed::new(link, *pose),
        Placed::new(object, Isometry3::identity()),
    );
    match query {
        Query::Collide => {
            std::hint::black_box(FastEngine.collide(l, o));
        }
        Query::Contacts => {
            let _ = std::hint::black_box(FastEngine.contacts(l, o, DEFAULT_CONTACT_THRESHOLD));
        }
        Query::Distance => {
            let _ = std::hint::black_box(FastEngine.distance(l, o));
        }
    }
}

#[cfg(feature = "vs-parry")]
fn run_parry(
    query: Query,
    object: &parry::ParryMesh,
    link: &parry::ParryMesh,
    pose: &Isometry3<f64>,
    object_first: bool,
) {
    let (pl, po) = (parry::pose(pose), parry::pose(&Isometry3::identity()));
    let (a, pa, b, pb) = if object_first {
        (object, &po, link, &pl)
    } else {
        (link, &pl, object, &po)
    };
    match query {
        Query::Collide => {
            std::hint::black_box(parry::intersect(a, pa, b, pb));
        }
        Query::Contacts => {
            std::hint::black_box(parry::contacts(a, pa, b, pb, DEFAULT_CONTACT_THRESHOLD));
        }
        Query::Distance => {
            std::hint::black_box(parry::distance(a, pa, b, pb));
        }
    }
}

fn print_cell(object: &str, tris: usize, config: &str, query: &str, timed: &Timed) {
    let parry = timed.parry.map_or("-".to_string(), format_ns);
    let ratio = timed
        .ratio()
        .map_or("-".to_string(), |r| format!("{r:.1}x"));
    println!(
        "{object:<6} {tris:>8} {config:<9} {query:<9} {:>12} {parry:>12} {ratio:>8}",
        format_ns(timed.ours)
    );
}

/// Tree build time and memory, ours against parry's `TriMesh::new`.
pub(crate) fn run_builds(plan: &Plan) -> Vec<Value> {
    println!("\nbuild (torus): triangles, ours, parry, tree memory ours / parry");
    let mut out = Vec::new();
    for &size in plan.build_sizes {
        let mesh = Shape::Torus.mesh(size).expect("torus sizes");
        let tris = mesh.triangles().len();
        let start = Instant::now();
        let geometry = Geometry::new(mesh.clone());
        let ours = start.elapsed().as_secs_f64();
        let memory = geometry.tree().memory_bytes();
        #[cfg(feature = "vs-parry")]
        let (parry_s, parry_memory) = {
            let start = Instant::now();
            let p = parry::ParryMesh::new(&mesh);
            (Some(start.elapsed().as_secs_f64()), Some(p.memory_bytes()))
        };
        #[cfg(not(feature = "vs-parry"))]
        let (parry_s, parry_memory): (Option<f64>, Option<usize>) = (None, None);
        println!(
            "  {tris:>8}  {:>8.1} ms  {:>8} ms  {:>6.1} MB / {} MB",
            ours * 1e3,
            parry_s.map_or("-".into(), |s| format!("{:.1}", s * 1e3)),
            memory as f64 / 1e6,
            parry_memory.map_or("-".into(), |m| format!("{:.1}", m as f64 / 1e6)),
        );
        out.push(
            json!({"triangles": tris, "ours_s": ours, "parry_s": parry_s,
            "ours_tree_bytes": memory, "parry_bvh_bytes": parry_memory}),
        );
    }
    out
}

/// The whole hand against the object at a grasp, frame after frame with ±0.01 mm jitter:
/// collide for every link, then contacts for every link that does not interpenetrate.
pub(crate) fn run_hand_frame(plan: &Plan, rng: &mut Random) -> Value {
    let object = Geometry::new(Shape::Blob.mesh(plan.hand_object_size).expect("blob sizes"));
    let hand = scenes::grasp(&object, rng);
    let frames: Vec<Vec<Isometry3<f64>>> = (0..plan.frames)
        .map(|_| {
            hand.iter()
                .map(|(_, pose)| {
                    let jitter = nalgebra::Vector3::new(
                        rng.unit() - 0.5,
                        rng.unit() - 0.5,
                        rng.unit() - 0.5,
                    ) * 0.02;
                    Translation3::from(jitter) * pose
                })
                .collect()
        })
        .collect();
    let object_at = Placed::new(&object, Isometry3::identity());
    let mut ours = Vec::new();
    let mut contact_count = 0;
    for poses in &frames {
        let start = Instant::now();
        for ((geometry, _), pose) in hand.iter().zip(poses) {
            let link = Placed::new(geometry, *pose);
            if !FastEngine.collide(link, object_at)
                && let Ok(found) = FastEngine.contacts(link, object_at, DEFAULT_CONTACT_THRESHOLD)
            {
                contact_count += found.len();
            }
        }
        ours.push(start.elapsed().as_nanos() as f64);
    }
    #[cfg(feature = "vs-parry")]
    let parry_times = {
        let po = parry::ParryMesh::new(object.mesh());
        let links: Vec<parry::ParryMesh> = hand
            .iter()
            .map(|(g, _)| parry::ParryMesh::new(g.mesh()))
            .collect();
        let origin = parry::pose(&Isometry3::identity());
        let mut times = Vec::new();
        for poses in &frames {
            let start = Instant::now();
            for (link, pose) in links.iter().zip(poses) {
                let pl = parry::pose(pose);
                if !parry::intersect(link, &pl, &po, &origin) {
                    std::hint::black_box(parry::contacts(
                        link,
                        &pl,
                        &po,
                        &origin,
                        DEFAULT_CONTACT_THRESHOLD,
                    ));
                }
            }
            times.push(start.elapsed().as_nanos() as f64);
        }
        Some(times)
    };
    #[cfg(not(feature = "vs-parry"))]
    let parry_times: Option<Vec<f64>> = None;
    let stats = |t: &[f64]| (percentile(t, 0.5), percentile(t, 0.99));
    let (p50, p99) = stats(&ours);
    let parry_stats = parry_times.as_deref().map(stats);
    println!(
        "\nhand frame: {} links vs {}-triangle blob, {} frames, {:.1} contacts a frame\n  ours p50 {} p99 {}",
        hand.len(),
        object.mesh().triangles().len(),
        plan.frames,
        contact_count as f64 / plan.frames as f64,
        format_ns(p50),
        format_ns(p99)
    );
    if let Some((q50, q99)) = parry_stats {
        println!(
            "  parry p50 {} p99 {}  (ratio p99 {:.1}x)",
            format_ns(q50),
            format_ns(q99),
            q99 / p99
        );
    }
    json!({"links": hand.len(), "object_triangles": object.mesh().triangles().len(), "frames": plan.frames,
        "ours_p50_ns": p50, "ours_p99_ns": p99,
        "parry_p50_ns": parry_stats.map(|s| s.0), "parry_p99_ns": parry_stats.map(|s| s.1)})
}

/// Move until contact, GraspIt's way: bisect the step between a free pose and a colliding one
/// until the gap is under half the contact threshold; the distance query decides each step.
pub(crate) fn run_drag(plan: &Plan, rng: &mut Random) -> Value {
    let object = Geometry::new(Shape::Blob.mesh(plan.hand_object_size).expect("blob sizes"));
    let link = Geometry::new(plan.link.clone());
    let sites = scenes::sites(object.mesh(), 4, rng);
    let moves: Vec<(Isometry3<f64>, Isometry3<f64>)> = sites
        .iter()
        .map(|site| {
            let mut r1 = Random::new(rng.next());
            let mut r2 = r1.clone();
            let far = scenes::place(&object, &link, site, Config::Gap(10.0), &mut r1);
            let deep = scenes::place(&object, &link, site, Config::Penetrating(0.5), &mut r2);
            (far, deep)
        })
        .collect();
    let object_at = Placed::new(&object, Isometry3::identity());
    let ours_gap = |pose: &Isometry3<f64>| {
        FastEngine
            .distance(Placed::new(&link, *pose), object_at)
            .ok()
            .map(|s| s.distance)
    };
    let mut ours = Vec::new();
    let mut calls = 0;
    for (from, to) in &moves {
        let start = Instant::now();
        calls += bisect(from, to, &ours_gap);
        ours.push(start.elapsed().as_nanos() as f64);
    }
    #[cfg(feature = "vs-parry")]
    let parry_median = {
        let (po, pl) = (
            parry::ParryMesh::new(object.mesh()),
            parry::ParryMesh::new(link.mesh()),
        );
        let origin = parry::pose(&Isometry3::identity());
        let gap = |pose: &Isometry3<f64>| {
            let d = parry::distance(&pl, &parry::pose(pose), &po, &origin);
            (d > 0.0).then_some(d)
        };
        let times: Vec<f64> = moves
            .iter()
            .map(|(from, to)| {
                let start = Instant::now();
                bisect(from, to, &gap);
                start.elapsed().as_nanos() as f64
            })
            .collect();
        Some(median(&times))
    };
    #[cfg(not(feature = "vs-parry"))]
    let parry_median: Option<f64> = None;
    let ours_median = median(&ours);
    println!(
        "\nmove until contact: link vs {}-triangle blob, {} moves, {:.1} distance calls a move\n  ours {} a move{}",
        object.mesh().triangles().len(),
        moves.len(),
        calls as f64 / moves.len() as f64,
        format_ns(ours_median),
        parry_median.map_or(String::new(), |p| format!(
            ", parry {} ({:.1}x)",
            format_ns(p),
            p / ours_median
        ))
    );
    json!({"moves": moves.len(), "distance_calls": calls, "ours_median_ns": ours_median, "parry_median_ns": parry_median})
}

/// Bisects between `from` (free) and `to` (colliding) until `0 < gap < 0.05 mm`; returns how
/// many gap queries it took. `gap` is `None` where the bodies interpenetrate.
fn bisect(
    from: &Isometry3<f64>,
    to: &Isometry3<f64>,
    gap: &dyn Fn(&Isometry3<f64>) -> Option<f64>,
) -> usize {
    let (mut free, mut blocked) = (0.0, 1.0);
    for calls in 1..=60 {
        let t = 0.5 * (free + blocked);
        match gap(&from.lerp_slerp(to, t)) {
            None => blocked = t,
            Some(d) if d < 0.5 * DEFAULT_CONTACT_THRESHOLD => return calls,
            Some(_) => free = t,
        }
    }
    60
}

/// Medians over the cells at 10k and 100k triangles, per query and configuration group.
pub(crate) fn summarize(cells: &[Value]) -> Value {
    let mut out = serde_json::Map::new();
    println!("\nsummary (median over cells at 10k and 100k triangles): ours, parry, ratio");
    for (name, query, configs) in [
        (
            "collide",
            "collide",
            &["gap 0.05", "gap 1", "pen 0.5", "gap 10"][..],
        ),
        (
            "contacts within 0.1 mm",
            "contacts",
            &["gap 0.05", "gap 1", "pen 0.5", "gap 10"][..],
        ),
        (
            "distance near contact",
            "distance",
            &["gap 0.05", "gap 1"][..],
        ),
    ] {
        let chosen: Vec<&Value> = cells
            .iter()
            .filter(|c| {
                let tris = c["triangles"].as_u64().unwrap_or(0);
                (5_000..500_000).contains(&tris)
                    && c["query"] == query
                    && configs.contains(&c["config"].as_str().unwrap_or(""))
            })
            .collect();
        let take =
            |key: &str| -> Vec<f64> { chosen.iter().filter_map(|c| c[key].as_f64()).collect() };
        let (ours, ratios) = (take("ours_ns"), take("ratio"));
        if ours.is_empty() {
            continue;
        }
        let ratio = (!ratios.is_empty()).then(|| median(&ratios));
        println!(
            "  {name:<24} ours {:>10}  ratio {}",
            format_ns(median(&ours)),
            ratio.map_or("-".into(), |r| format!("{r:.1}x"))
        );
        out.insert(
            name.into(),
            json!({"ours_median_ns": median(&ours), "median_ratio": ratio, "cells": chosen.len()}),
        );
    }
    Value::Object(out)
}
