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

/// A line of a command's output as the docs' samples are compared: each
/// run of digits with a '.' inside (a time, a rate, a share) becomes `#`,
/// and so does a rate's SI prefix (`kgroups/s`, `Mgroups/s`).
fn decimals(line: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = line.trim_end().chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let run: String = chars[start..i].iter().collect();
            if run.contains('.') && !run.ends_with('.') {
                out.push('#');
                if chars.get(i) == Some(&' ')
                    && chars.get(i + 1).is_some_and(|c| "kMGT".contains(*c))
                    && chars.get(i + 2).is_some_and(|c| c.is_ascii_lowercase())
                {
                    out.push(' ');
                    i += 2;
                }
            } else {
                out.push_str(&run);
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Whether `block` (a doc's sample) is `printed`, line by line, each line
/// through [`decimals`], a `...` line standing for any lines. `Err` names
/// the first line of the sample not found.
fn sample_matches(block: &[&str], printed: &str) -> Result<(), String> {
    let got: Vec<String> = printed.lines().map(decimals).collect();
    let mut at = 0;
    let mut skipping = false;
    for want in block {
        if want.trim() == "..." {
            skipping = true;
            continue;
        }
        let want = decimals(want);
        let found = if skipping {
            (at..got.len()).find(|&k| got[k] == want)
        } else {
            (at < got.len() && got[at] == want).then_some(at)
        };
        let Some(k) = found else {
            return Err(format!(
                "{want}\n{}",
                if skipping {
                    "(anywhere after the lines matched before)"
                } else {
                    "(at its place)"
                }
            ));
        };
        at = k + 1;
        skipping = false;
    }
    if !skipping && at < got.len() {
        return Err(format!(
            "nothing after its last line, but it goes on:\n{}",
            got[at]
        ));
    }
    Ok(())
}

/// `sm5sim ARGS` run in `dir`.
fn sm5sim_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// A transcript in the docs (an indented block whose first line is
/// `$ sm5sim ARGS`) is what the command prints on stdout, run from the
/// repository's root (matched as [`sample_matches`] says; a transcript
/// that shows the start of the output ends in `...`).
#[test]
fn doc_transcripts_are_the_commands_output() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let Some(args) = lines[i].strip_prefix("    $ sm5sim ") else {
                i += 1;
                continue;
            };
            let mut block = Vec::new();
            i += 1;
            while i < lines.len() && lines[i].starts_with("    ") {
                block.push(&lines[i][4..]);
                i += 1;
            }
            let args: Vec<&str> = args.split_whitespace().collect();
            let o = sm5sim_in(&root(), &args);
            let out = String::from_utf8_lossy(&o.stdout);
            if let Err(e) = sample_matches(&block, &out) {
                panic!(
                    "{}: `sm5sim {}` does not print\n{e}\nit printed:\n{out}",
                    page.display(),
                    args.join(" ")
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "{checked} transcripts found");
}

/// A sample output in the docs that does not show its command: the line
/// `<!-- output of `sm5sim ARGS` in DIR -->` above it (DIR relative to the
/// repository's root; `tests/doc_samples` holds the jobs) names the
/// command, and the next block (indented, or fenced as `text`) is what it
/// prints, stdout then stderr, matched as [`sample_matches`] says.
#[test]
fn doc_samples_are_the_commands_output() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            let Some(rest) = line.strip_prefix("<!-- output of `sm5sim ") else {
                continue;
            };
            let (args, dir) = rest
                .strip_suffix(" -->")
                .and_then(|r| r.split_once("` in "))
                .unwrap_or_else(|| {
                    panic!(
                        "{}:{}: `<!-- output of `sm5sim ARGS` in DIR -->`",
                        page.display(),
                        n + 1
                    )
                });
            // the next block after blank lines: indented, or a ```text fence
            let mut k = n + 1;
            while lines.get(k).is_some_and(|l| l.is_empty()) {
                k += 1;
            }
            let mut block = Vec::new();
            if lines.get(k) == Some(&"```text") {
                k += 1;
                while lines.get(k).is_some_and(|l| *l != "```") {
                    block.push(lines[k]);
                    k += 1;
                }
            } else {
                while let Some(l) = lines.get(k).and_then(|l| l.strip_prefix("    ")) {
                    block.push(l);
                    k += 1;
                }
            }
            assert!(
                !block.is_empty(),
                "{}:{}: no sample after the comment",
                page.display(),
                n + 1
            );
            let args: Vec<&str> = args.split_whitespace().collect();
            let o = sm5sim_in(&root().join(dir), &args);
            let out = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            if let Err(e) = sample_matches(&block, &out) {
                panic!(
                    "{}:{}: `sm5sim {}` in {dir} does not print\n{e}\nit printed:\n{out}",
                    page.display(),
                    n + 1,
                    args.join(" ")
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked} samples found");
}

/// CONTRIBUTING.md's table of integration test programs names every
/// program and every module of each (a module added without a line there
/// fails this test).
#[test]
fn contributing_lists_every_test_program_and_module() {
    let text = std::fs::read_to_string(root().join("CONTRIBUTING.md")).unwrap();
    let table = text
        .split_once("| program | modules |")
        .expect("CONTRIBUTING.md has the table of test programs")
        .1;
    let table = table.split("\n\n").next().unwrap();
    let rows: Vec<(&str, &str)> = table
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` "))
        .filter(|(dir, _)| dir.ends_with('/') && dir.contains("tests/"))
        .collect();
    let programs = [
        "tests/it/",
        "capi/tests/it/",
        "sim-sched/tests/allocator/",
        "sim-core/tests/it/",
        "sim-mem/tests/it/",
    ];
    let listed: Vec<&str> = rows.iter().map(|(d, _)| *d).collect();
    assert_eq!(listed, programs, "the programs CONTRIBUTING.md lists");
    for (dir, row) in rows {
        let mut modules: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|f| f.strip_suffix(".rs").map(str::to_string))
            .filter(|m| m != "main")
            .collect();
        modules.sort();
        assert!(!modules.is_empty(), "{dir}");
        for m in &modules {
            assert!(
                row.contains(&format!("`{m}`")),
                "CONTRIBUTING.md's line for {dir} does not name its module `{m}`"
            );
        }
    }
    // and no other program: a file directly under a crate's tests/ is one
    for krate in [".", "capi", "sim-core", "sim-mem", "sim-sched"] {
        let Ok(entries) = std::fs::read_dir(root().join(krate).join("tests")) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().into_string().unwrap();
            assert!(
                !name.ends_with(".rs"),
                "{krate}/tests/{name} is a test program of its own (CONTRIBUTING.md, \"Tests\")"
            );
        }
    }
}

/// ci.md's GitHub Actions recipe, its steps as a runner would run them
/// here (no `act` or runner image on the test machines): each `run:` line
/// that calls `sm5sim`, for every value of the matrix's `shard`, from a
/// copy of the repository's examples with no HLSL compiler to be found
/// (the runner has none): each exits 0, and the JUnit files of the shards
/// hold every example job once, the HLSL one skipped.
#[test]
fn ci_recipe_runs_as_written_without_an_hlsl_compiler() {
    let text = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let yaml = text
        .split_once("```yaml\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("ci.md has a yaml block")
        .0;
    let shards: Vec<String> = yaml
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .expect("a shard matrix")
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let runs: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run: "))
        .filter(|r| r.starts_with("sm5sim "))
        .collect();
    assert!(!runs.is_empty() && shards.len() >= 2, "{yaml}");
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ci_recipe");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // the checkout: the examples, as the recipe's repository would have them
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(root().join("examples"))
        .arg(&work)
        .status()
        .unwrap();
    assert!(copied.success());
    let mut cases = Vec::new();
    for shard in &shards {
        for run in &runs {
            let line = run.replace("${{ matrix.shard }}", shard);
            let args: Vec<&str> = line.split_whitespace().skip(1).collect();
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
                .args(&args)
                .current_dir(&work)
                .env_remove("SM5SIM_FXC")
                .env("PATH", &work)
                .output()
                .unwrap();
            let out = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            assert_eq!(o.status.code(), Some(0), "{line}: {out}");
        }
        let junit = std::fs::read_to_string(work.join(format!("junit-{shard}.xml"))).unwrap();
        let doc = roxmltree::Document::parse(&junit).unwrap();
        for c in doc.descendants().filter(|n| n.has_tag_name("testcase")) {
            let skipped = c.children().any(|n| n.has_tag_name("skipped"));
            cases.push((c.attribute("name").unwrap().to_string(), skipped));
        }
    }
    cases.sort();
    let jobs = sm5sim::suite::find_jobs(&[work.join("examples")], &work).unwrap();
    assert_eq!(cases.len(), jobs.len(), "{cases:?}");
    let skipped: Vec<&str> = cases.iter().filter(|c| c.1).map(|c| c.0.as_str()).collect();
    assert_eq!(
        skipped,
        ["examples/histogram/histogram_hlsl.toml"],
        "{cases:?}"
    );
}
