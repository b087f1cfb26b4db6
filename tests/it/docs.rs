//! The user-facing documentation (README.md, docs/, CONTRIBUTING.md,
//! tools/fxc/README.md) names only repository paths that exist in a fresh
//! clone, and links only to pages and files that exist.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "tools/fxc/README.md",
    ]
    .iter()
    .map(|p| root().join(p))
    .collect();
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            pages.push(p);
        }
    }
    pages.sort();
    pages
}

/// Placeholders in the docs' command synopses, not paths.
fn is_placeholder(path: &str) -> bool {
    path.split('/').any(|part| {
        part.chars().any(|c| c.is_ascii_uppercase())
            && !part.ends_with(".md")
            && !part.contains("LICENSES")
    }) || path.contains('*')
        || path.contains("<")
}

#[test]
fn documented_repository_paths_exist() {
    let mut checked = 0;
    let mut missing = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (n, line) in text.lines().enumerate() {
            for word in line.split(|c: char| c.is_whitespace() || "`()[]\"'|,;".contains(c)) {
                let word = word.trim_end_matches(['.', ':']);
                let word = word.split('#').next().unwrap();
                let top = [
                    "examples/",
                    "tests/",
                    "tools/",
                    "docs/",
                    "sim-core/",
                    "sim-mem/",
                    "sim-sched/",
                    "benches/",
                    "fuzz/",
                    "src/",
                    "capi/",
                ];
                if !top.iter().any(|t| word.starts_with(t)) || is_placeholder(word) {
                    continue;
                }
                checked += 1;
                if !root().join(word).exists() {
                    missing.push(format!("{}:{}: {word}", page.display(), n + 1));
                }
            }
        }
    }
    assert!(missing.is_empty(), "missing:\n{}", missing.join("\n"));
    assert!(checked >= 100, "{checked} paths checked");
}

#[test]
fn relative_links_resolve() {
    let mut checked = 0;
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = &rest[..end];
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let file = target.split('#').next().unwrap();
            checked += 1;
            if !Path::new(dir).join(file).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 20, "{checked} links checked");
}
