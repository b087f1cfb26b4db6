//! The third-party corpus of real compute shaders (`tests/corpus/`: xenia
//! cs_5_1, bgfx and NvCloth cs_5_0): every file decodes, and every
//! instruction and declaration line of the disassembly equals Microsoft's
//! listing beside it (indentation aside: the xenia listings have none).
//! Run with `--nocapture` for the figures and the first differences.

use sm5sim::sim_core::front::disasm::disassemble_lines;
use sm5sim::sim_core::{LoadOptions, Program};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// (dxbc, listing) pairs.
fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let dir = corpus_dir();
    assert!(
        dir.is_dir(),
        "{} is missing: it is part of the repository",
        dir.display()
    );
    let mut v = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "dxbc") {
                let stem = f.with_extension("");
                let listing = [stem.with_extension("fxc.asm"), stem.with_extension("asm")]
                    .into_iter()
                    .find(|p| p.is_file())
                    .unwrap_or_else(|| panic!("no listing beside {}", f.display()));
                v.push((f, listing));
            }
        }
    }
    v.sort();
    v
}

/// Listing body: lines that are not comments or blank, without indentation,
/// and with the multi-line immediate constant buffer joined into one line.
fn body(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut icb: Option<String> = None;
    for l in text.lines() {
        let t = l.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        if let Some(acc) = icb.as_mut() {
            acc.push(' ');
            acc.push_str(t);
            if t.ends_with("} }") || t == "}" {
                out.push(icb.take().unwrap());
            }
            continue;
        }
        if t.starts_with("dcl_immediateConstantBuffer") && !t.ends_with("} }") {
            icb = Some(t.to_string());
            continue;
        }
        out.push(t.to_string());
    }
    out
}

#[test]
fn corpus_decodes_and_disassembles() {
    let mut total = 0usize;
    let mut same = 0usize;
    let mut decoded = 0usize;
    let mut files = 0usize;
    let mut examples: Vec<String> = Vec::new();
    for (dxbc, listing) in pairs() {
        files += 1;
        let bytes = std::fs::read(&dxbc).unwrap();
        let d = match Program::decode_only(&bytes, &LoadOptions::default()) {
            Ok(d) => d,
            Err(e) => {
                examples.push(format!("{}: decode error {e}", dxbc.display()));
                continue;
            }
        };
        decoded += 1;
        let ours: Vec<String> = disassemble_lines(&d)
            .iter()
            .map(|l| l.trim().to_string())
            .collect();
        let ours = body(&ours.join("\n"));
        let theirs = body(&std::fs::read_to_string(&listing).unwrap());
        total += theirs.len();
        for (i, t) in theirs.iter().enumerate() {
            match ours.get(i) {
                Some(o) if o == t => same += 1,
                o => {
                    if examples.len() < 400 {
                        examples.push(format!(
                            "{}:{i}\n  fxc: {t}\n  ours: {}",
                            dxbc.file_name().unwrap().to_string_lossy(),
                            o.map_or("<none>", |s| s.as_str())
                        ));
                    }
                }
            }
        }
    }
    println!(
        "decoded {decoded}/{files}; identical lines {same}/{total} ({:.2}%)",
        100.0 * same as f64 / total as f64
    );
    for e in &examples {
        println!("{e}");
    }
    assert_eq!(decoded, files, "every corpus shader decodes");
    assert_eq!(
        same, total,
        "every instruction and declaration line matches fxc"
    );
}
