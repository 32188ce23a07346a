//! Every link in README.md and docs/*.md leads somewhere: a file of the repository, and where it
//! names a heading (`page.md#heading`), a heading of that page, as GitHub spells its anchors.
//! Links out of the repository (http, https, mailto) are not followed.

use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages checked: README.md and every page in docs/.
fn pages() -> Vec<PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md")];
    let docs = std::fs::read_dir(root.join("docs")).unwrap();
    pages.extend(
        docs.map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    pages.sort();
    pages
}

/// The text outside fenced code blocks and inline code, where links are links.
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            let mut code = false;
            for part in line.split('`') {
                if !code {
                    out.push_str(part);
                }
                code = !code;
            }
            out.push('\n');
        }
    }
    out
}

/// Each link's target and its line: `[text](target)` and `![alt](target)`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose(text).lines().enumerate() {
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((number + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped but for hyphens and
/// underscores, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(page: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(page).unwrap_or_default();
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.push(anchor(
                line.trim_start_matches('#').replace('`', "").as_str(),
            ));
        }
    }
    found
}

/// Why a link leads nowhere, or `None` where it leads somewhere.
fn broken(page: &Path, target: &str) -> Option<String> {
    if ["http://", "https://", "mailto:"]
        .iter()
        .any(|s| target.starts_with(s))
    {
        return None;
    }
    let (path, heading) = target.split_once('#').unwrap_or((target, ""));
    let file = match path {
        "" => page.to_path_buf(),
        _ => page.parent().unwrap().join(path),
    };
    if !file.exists() {
        return Some(format!("no file {}", file.display()));
    }
    let known = heading.is_empty() || anchors(&file).iter().any(|a| a == heading);
    (!known).then(|| format!("no heading #{heading} in {}", file.display()))
}

#[test]
fn every_link_in_the_readme_and_the_docs_leads_somewhere() {
    let mut faults = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            count += 1;
            if let Some(why) = broken(&page, &target) {
                faults.push(format!("{}:{line}: ({target}): {why}", page.display()));
            }
        }
    }
    assert!(count > 20, "only {count} links found: is the parser blind?");
    assert!(
        faults.is_empty(),
        "links that lead nowhere:\n{}",
        faults.join("\n")
    );
}

#[test]
fn a_link_to_a_missing_page_or_heading_is_found() {
    let readme = repository().join("README.md");
    assert!(broken(&readme, "docs/nowhere.md").is_some());
    assert!(broken(&readme, "docs/cli.md#no-such-heading").is_some());
    assert!(broken(&readme, "docs/cli.md#clasp-cli-plan").is_none());
    assert_eq!(
        anchor("Plans that hold, first part (issue 55)"),
        "plans-that-hold-first-part-issue-55"
    );
}

#[test]
fn the_readme_is_read_in_two_minutes_and_keeps_its_two_commands() {
    let text = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 120, "README.md has {lines} lines");
    assert!(
        text.contains(
            "cargo run --release          # the desktop app, on its built-in default scene"
        )
    );
    assert!(text.contains("cargo test --workspace       # the tests"));
}
