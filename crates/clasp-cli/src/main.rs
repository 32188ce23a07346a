//! `clasp-cli`: Clasp's headless tool. `inspect` prints a JSON summary of each file;
//! `contacts` prints a world's contacts; `grasp` auto-grasps with a world's hand; `quality`
//! evaluates a hand's grasp of the world's object.
//!
//! This file hands each subcommand, as `command_line` reads its flags, to the module that runs
//! it (`inspect`, `contacts`, `grasp`, `quality`, `domains`, `plan`, `batch`), and prints its
//! output or failure.

mod batch;
mod batch_folder;
mod command_line;
mod contacts;
mod domains;
mod export;
mod flag_values;
mod grasp;
mod inspect;
mod json_help;
mod mesh_args;
mod output;
mod picture;
mod plan;
mod pool;
mod quality;
mod record;
#[cfg(test)]
mod reference;
mod render;
mod simulate;
mod stepping;
mod summary;
mod world_file;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, error::ErrorKind};
use clasp_core::PlanSettings;
use command_line::{Cli, Command};
use output::{Failure, Format};
use quality::QualityRequest;

fn main() -> ExitCode {
    if clasp_render::quiet_device_select() {
        // SAFETY: the first thing main does, before any other thread exists to read the
        // environment as it changes.
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(clasp_render::DEVICE_SELECT_OFF, "1");
        }
    }
    match Cli::parse().command {
        Command::Inspect {
            files,
            mesh,
            progress,
            write_settings,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            let how = inspect::Inspection {
                progress,
                write_settings,
                reading: mesh.reading(),
            };
            inspect::inspect_all(&files, &how, root.as_deref())
        }
        Command::Export {
            world,
            mjcf,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            report(export::export_mjcf(&world, root.as_deref(), &mjcf))
        }
        Command::Render {
            world,
            out,
            depth,
            mask,
            size,
            camera,
            look_from,
            fov,
            json,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            let view = picture::View {
                look_at: camera,
                look_from,
                fov_degrees: fov,
                size,
            };
            let outputs = picture::Outputs {
                rgb: out,
                depth,
                mask,
            };
            let format = if json { Format::Json } else { Format::Text };
            report(picture::render(
                &world,
                root.as_deref(),
                &view,
                &outputs,
                format,
            ))
        }
        Command::Simulate {
            world,
            seconds,
            stepping,
            resolve_overlaps,
            playback,
            json,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            let request = simulate::SimulateRequest {
                seconds,
                stepping,
                resolve_overlaps,
                playback,
            };
            report(simulate::simulate(
                &world,
                root.as_deref(),
                &request,
                format(json),
            ))
        }
        Command::Contacts {
            world,
            threshold,
            json,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            report(contacts::contacts(
                &world,
                root.as_deref(),
                threshold,
                format(json),
            ))
        }
        Command::Grasp {
            world,
            robot,
            approach,
            auto,
            test,
            test_seconds,
            preset,
            lift,
            playback,
            json,
            graspit_root,
        } => {
            if !auto {
                usage_error(
                    "grasp",
                    "grasp needs --auto: only auto-grasp (close every finger until it touches) is supported so far",
                );
            }
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            // Clap takes --preset only with --test here.
            let hold =
                asked_test(test, preset.as_deref()).map(|settings| clasp_core::HoldSettings {
                    seconds: test_seconds.unwrap_or(settings.seconds),
                    ..settings
                });
            let request = grasp::GraspRequest {
                robot: robot.as_deref(),
                approach,
                hold,
                lift,
                playback,
            };
            report(grasp::grasp(
                &world,
                root.as_deref(),
                &request,
                format(json),
            ))
        }
        Command::Quality {
            world,
            metric,
            gws,
            approach,
            auto,
            on_virtual,
            threshold,
            graspit,
            robot,
            json,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            let request = QualityRequest {
                robot,
                metric,
                wrench_space: gws,
                approach,
                auto,
                threshold,
                graspit,
                on_virtual,
            };
            report(quality::quality(
                &world,
                root.as_deref(),
                &request,
                format(json),
            ))
        }
        Command::Domains {
            world,
            hand,
            count,
            threads,
            check,
            json,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            let request = domains::DomainsRequest {
                hand: &hand,
                count,
                threads,
                check,
            };
            report(domains::domains(
                &world,
                root.as_deref(),
                &request,
                format(json),
            ))
        }
        Command::Plan {
            world,
            steps,
            grasps,
            energy,
            seed,
            threads,
            robot,
            any_reach,
            distance_grid,
            anneal,
            guided,
            test,
            preset,
            save,
            playback,
            json,
            graspit_root,
        } => {
            let root = clasp_io::graspit_root_or_env(graspit_root.as_deref());
            let test = asked_test(test, preset.as_deref());
            let request = plan::PlanRequest {
                save,
                playback,
                robot,
                settings: PlanSettings {
                    steps,
                    grasps,
                    energy,
                    seed,
                    only_reachable: !any_reach,
                    distance_grid,
                    annealing: anneal.unwrap_or_default(),
                    guided: guided.map(|children| clasp_core::GuidedPlanning {
                        children,
                        ..clasp_core::GuidedPlanning::default()
                    }),
                    test,
                    ..PlanSettings::default()
                },
                threads,
            };
            report(plan::plan(&world, root.as_deref(), &request, format(json)))
        }
        Command::Batch {
            object,
            mesh,
            hand,
            grasps,
            seed,
            threads,
            test,
            preset,
            stepping,
            json,
        } => {
            let test = asked_test(test, preset.as_deref());
            let request = batch::BatchRequest {
                object: &object,
                reading: mesh.reading(),
                hand: &hand,
                grasps,
                seed,
                threads,
                test,
                stepping,
            };
            match object.is_dir() {
                true => batch_folder::batch_folder(&request, format(json)),
                false => report(batch::batch(&request, format(json))),
            }
        }
    }
}

/// The physics test a command asked for: `--test`, or a `--preset` naming one (which implies
/// it); Clasp's own where no preset is named.
fn asked_test(test: bool, preset: Option<&str>) -> Option<clasp_core::HoldSettings> {
    (test || preset.is_some()).then(|| {
        clasp_core::HoldSettings::preset(preset.unwrap_or("clasp"))
            .expect("clap allows only the presets' names")
    })
}

/// Exits as clap does for a bad command line, with the subcommand's usage.
fn usage_error(subcommand: &str, message: &str) -> ! {
    let mut cli = Cli::command();
    cli.build();
    let error = match cli.find_subcommand_mut(subcommand) {
        Some(sub) => sub.error(ErrorKind::MissingRequiredArgument, message),
        None => cli.error(ErrorKind::MissingRequiredArgument, message),
    };
    error.exit()
}

fn format(json: bool) -> Format {
    if json { Format::Json } else { Format::Text }
}

/// Prints a command's output on stdout, or its failure as one line on stderr.
fn report(result: Result<String, Failure>) -> ExitCode {
    match result {
        Ok(output) => {
            println!("{output}");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("{failure}");
            ExitCode::FAILURE
        }
    }
}
