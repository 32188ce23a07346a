use clap::Parser;

fn main() -> std::process::ExitCode {
    clasp_app::run(clasp_app::Args::parse())
}
