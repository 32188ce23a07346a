//! `clasp-bench`: the collision benchmark of collision-benchmark.md §5. Every cell of the matrix
//! (object, size, configuration, query) is timed for our fast engine and, with the `vs-parry`
//! feature, for parry3d 0.31 on the same meshes and poses in the same process, the calls
//! interleaved. Answers are checked against the brute-force reference engine first; a wrong
//! answer fails the run, a slow one never does.
//!
//! `cargo run --release -p clasp-bench --features vs-parry -- [--quick|--full] [--json PATH]`
//!
//! It then loads GraspIt's model library (`--library DIR`, by default `../shared/graspit-models`
//! beside the workspace when it is there); `--library-only` runs just that. Grasp evaluation
//! (`--grasps-only`) and grasp quality (`--quality-only`) run in every quick and full run too.
//!
//! `--dynamics` times the dynamics against MuJoCo (see `dynamics`), `--grasp-test` the physics
//! test of grasps (see `grasp_test`), `--field-hands` the field's hands' batches and plans (see
//! `field_hands`), `--render` the headless renderer (see `render`); each runs on its own.
//!
//! `--app-frame` times the desktop app's per-frame work during a drag (see `app_frame`); it needs
//! `--features app`, which builds Bevy, and runs on its own (quick: the default scene alone;
//! `--full`: the whole matrix).

#[cfg(feature = "app")]
mod app_frame;
mod check;
mod collision;
mod domains;
mod dynamics;
mod export;
mod field_hands;
mod grasp_test;
mod grasps;
mod hand_tests;
mod library;
mod options;
#[cfg(feature = "vs-parry")]
mod parry;
mod planner;
mod planner_table;
mod quality;
mod render;
mod scenes;
mod timing;

use std::time::Instant;

use serde_json::{Value, json};

use check::Checks;
use collision::{run_builds, run_drag, run_hand_frame, run_matrix, summarize};
use options::{Options, Plan};
use scenes::Random;

fn main() {
    let options = match options::parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("clasp-bench: {e}");
            std::process::exit(2);
        }
    };
    if let Some(dir) = &options.export {
        if let Err(e) = export::run(dir) {
            eprintln!("clasp-bench: {e}");
            std::process::exit(2);
        }
        return;
    }
    if options.app_frame {
        run_app_frame(&options);
        return;
    }
    let mut plan = Plan::new(options.quick);
    if let Some(count) = options.grasps {
        plan.grasps = count;
    }
    let mode = if options.quick { "quick" } else { "full" };
    println!(
        "clasp-bench --{mode}: one thread, release build; parry3d {}",
        if cfg!(feature = "vs-parry") {
            "0.31.1 side by side"
        } else {
            "not built (add --features vs-parry)"
        }
    );
    if options.build_only {
        run_builds(&plan);
        return;
    }
    if options.grasps_only {
        let mut checks = Checks::default();
        grasps::run(
            plan.grasps,
            options.library.as_deref(),
            &mut Random::new(2026),
            &mut checks,
        );
        println!("{} passed, {} failed", checks.passed, checks.failed);
        exit_on_failed_checks(&checks);
        return;
    }
    if options.grasp_test {
        run_alone(&options, "grasp_test", grasp_test::run);
        return;
    }
    if options.field_hands {
        run_alone(&options, "field_hands", field_hands::run);
        return;
    }
    if options.render {
        run_alone(&options, "render", render::run);
        return;
    }
    if options.dynamics {
        run_alone(&options, "dynamics", dynamics::run);
        return;
    }
    if options.quality_only {
        let mut checks = Checks::default();
        quality::run(options.quick, options.library.as_deref(), &mut checks);
        println!("{} passed, {} failed", checks.passed, checks.failed);
        exit_on_failed_checks(&checks);
        return;
    }
    if options.planner_only {
        let mut checks = Checks::default();
        planner::run(&options, &mut checks);
        println!("{} passed, {} failed", checks.passed, checks.failed);
        exit_on_failed_checks(&checks);
        return;
    }
    if options.library_only {
        match &options.library {
            Some(dir) => {
                library::run(dir);
            }
            None => {
                eprintln!("clasp-bench: no GraspIt library found; give one with --library DIR");
                std::process::exit(2);
            }
        }
        return;
    }
    let started = Instant::now();
    let mut checks = Checks::default();
    let mut rng = Random::new(2026);
    let cells = run_matrix(&plan, &mut checks, &mut rng);
    let build = run_builds(&plan);
    let frame = run_hand_frame(&plan, &mut rng);
    let drag = run_drag(&plan, &mut rng);
    let grasps = grasps::run(
        plan.grasps,
        options.library.as_deref(),
        &mut rng,
        &mut checks,
    );
    let grasp_quality = quality::run(options.quick, options.library.as_deref(), &mut checks);
    let planner = planner::run(&options, &mut checks);
    let summary = summarize(&cells);
    let library = match &options.library {
        Some(dir) => library::run(dir),
        None => {
            println!("\nGraspIt library not found: skipped (give one with --library DIR)");
            Value::Null
        }
    };
    println!("\nwall time {:.1} s", started.elapsed().as_secs_f64());
    println!("{} passed, {} failed", checks.passed, checks.failed);
    if let Some(path) = &options.json {
        let report = json!({
            "mode": mode,
            "parry": cfg!(feature = "vs-parry"),
            "cells": cells,
            "build": build,
            "hand_frame": frame,
            "drag": drag,
            "grasps": grasps,
            "grasp_quality": grasp_quality,
            "planner": planner,
            "summary": summary,
            "library": library,
        });
        write_report(path, report, &checks);
    }
    exit_on_failed_checks(&checks);
}

/// A benchmark that runs on its own (`--grasp-test`, `--render`, `--dynamics`): its checks'
/// count, its figures under `name` in the JSON report when one is asked for, and the exit
/// code its checks give.
fn run_alone(
    options: &Options,
    name: &str,
    run: fn(bool, Option<&std::path::Path>, &mut Checks) -> Value,
) {
    let mut checks = Checks::default();
    let figures = run(options.quick, options.library.as_deref(), &mut checks);
    println!("{} passed, {} failed", checks.passed, checks.failed);
    if let Some(path) = &options.json {
        write_report(path, json!({ name: figures }), &checks);
    }
    exit_on_failed_checks(&checks);
}

/// Writes the figures with the checks' outcome as JSON; a file that cannot be written ends the
/// run with 2.
fn write_report(path: &str, mut report: Value, checks: &Checks) {
    report["checks"] =
        json!({"passed": checks.passed, "failed": checks.failed, "failures": checks.failures});
    let text = serde_json::to_string_pretty(&report).expect("plain values");
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("clasp-bench: cannot write {path}: {e}");
        std::process::exit(2);
    }
}

/// A failed check fails the run (exit 1); time never does.
fn exit_on_failed_checks(checks: &Checks) {
    if checks.failed > 0 {
        std::process::exit(1);
    }
}

/// The app frame benchmark alone, with its checks; `--json` writes its figures.
#[cfg(feature = "app")]
fn run_app_frame(options: &Options) {
    let mut checks = Checks::default();
    let figures = app_frame::run(options.library.as_deref(), options.quick, &mut checks);
    println!("{} passed, {} failed", checks.passed, checks.failed);
    if let Some(path) = options.json.as_deref() {
        write_report(path, json!({ "app_frame": figures }), &checks);
    }
    exit_on_failed_checks(&checks);
}

#[cfg(not(feature = "app"))]
fn run_app_frame(_options: &Options) {
    eprintln!(
        "clasp-bench: --app-frame needs the app: cargo run --release -p clasp-bench --features app -- --app-frame [--full]"
    );
    std::process::exit(2);
}
