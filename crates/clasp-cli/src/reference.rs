//! docs/cli.md, written from the command line's own definitions (clap's `Command` tree: each
//! subcommand's about, usage, every argument with its help and default, and what `--json`
//! prints), so the page cannot drift from the tool. The test fails when the committed page
//! differs from what is written here now; `CLASP_WRITE_REFERENCE=1 cargo test -p clasp-cli
//! reference` writes it again.

use std::fmt::Write;

use clap::{Arg, Command, CommandFactory};

use crate::command_line::Cli;

const PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");

/// The whole page.
fn page() -> String {
    let mut cli = Cli::command().term_width(0);
    cli.build();
    let mut out = String::from(
        "# clasp-cli reference\n\n\
         Written from the command line's definitions by \
         `CLASP_WRITE_REFERENCE=1 cargo test -p clasp-cli reference` (a test fails when this page \
         differs from them): edit the help in `crates/clasp-cli/src/command_line.rs` and \
         `json_help.rs`, not this page. `clasp-cli COMMAND --help` prints the same.\n\n",
    );
    for sub in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
        let _ = writeln!(
            out,
            "- [`{}`](#clasp-cli-{}): {}",
            sub.get_name(),
            sub.get_name(),
            first_sentence(&about)
        );
    }
    for sub in cli.get_subcommands_mut().filter(|c| c.get_name() != "help") {
        out.push('\n');
        command(&mut out, sub);
    }
    out
}

fn command(out: &mut String, sub: &mut Command) {
    let name = sub.get_name().to_string();
    let _ = writeln!(out, "## clasp-cli {name}\n");
    if let Some(about) = sub.get_long_about().or(sub.get_about()) {
        let _ = writeln!(out, "{about}\n");
    }
    let usage = sub.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    let _ = writeln!(out, "```text\n{usage}\n```\n");
    let shown = |a: &&Arg| !a.is_hide_set() && !["help", "version"].contains(&a.get_id().as_str());
    for arg in sub.get_arguments().filter(shown) {
        let _ = writeln!(out, "- {}", argument(arg));
    }
    if let Some(json) = sub.get_after_long_help() {
        let _ = writeln!(out, "\n{json}");
    }
}

/// One argument's line: its spelling, its help, and its default where it has one.
fn argument(arg: &Arg) -> String {
    let takes_values = arg.get_action().takes_values();
    let value = arg
        .get_value_names()
        .filter(|_| takes_values)
        .map(|names| {
            names
                .iter()
                .map(|n| format!("<{n}>"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let spelling = match arg.get_long() {
        Some(long) if value.is_empty() => format!("--{long}"),
        Some(long) => format!("--{long} {value}"),
        None => value,
    };
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string().replace('\n', " "))
        .unwrap_or_default();
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    // Clap drops a help's last full stop; a default the help already gives is not repeated.
    let said = help.to_lowercase().contains("default");
    match defaults.is_empty() || !takes_values || said {
        true => format!("`{spelling}`: {help}"),
        false => format!("`{spelling}`: {help}. Default: `{}`", defaults.join(" ")),
    }
}

/// The about up to its first colon outside brackets: the line the index shows.
fn first_sentence(text: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ':' if depth == 0 => return &text[..i],
            _ => {}
        }
    }
    text.trim_end_matches('.')
}

#[test]
fn the_cli_reference_page_is_what_the_command_line_says() {
    let now = page();
    if std::env::var_os("CLASP_WRITE_REFERENCE").is_some() {
        std::fs::write(PAGE, &now).unwrap();
    }
    let committed = std::fs::read_to_string(PAGE).unwrap_or_default();
    assert!(
        committed == now,
        "docs/cli.md differs from the command line's definitions: write it again with \
         CLASP_WRITE_REFERENCE=1 cargo test -p clasp-cli reference"
    );
}
