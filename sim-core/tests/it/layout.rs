//! The layout of `sim-core`'s sources (CONTRIBUTING.md, "Layout"): data
//! flows one way, table → decode → lower → analyse → plan → run, so no two
//! top-level modules import each other, directly or through others; and no
//! source file outside tests grows past about 2,000 lines.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `.rs` file under `dir`, with its path relative to `src/`.
fn sources(dir: &Path, rel: &str, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let r = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if p.is_dir() {
            sources(&p, &r, out);
        } else if name.ends_with(".rs") {
            out.push((r, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// The text of a source without its unit tests (a trailing
/// `#[cfg(test)] mod tests`, or whatever follows the first module under a
/// `cfg` that names `test`, or a whole test file) and line comments.
fn code(rel: &str, text: &str) -> String {
    if rel == "tests.rs" || rel.ends_with("/tests.rs") || rel.ends_with("/differential.rs") {
        return String::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let test_mod = lines.windows(2).position(|w| {
        let attr = w[0].trim_start();
        let item = w[1].trim_start();
        attr.starts_with("#[cfg(")
            && attr.contains("test")
            && (item.starts_with("mod ") || item.starts_with("pub(crate) mod "))
    });
    let kept = match test_mod {
        Some(i) => lines[..i].join("\n"),
        None => text.to_string(),
    };
    let text = kept.as_str();
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level module a source belongs to (`exec/cas.rs` → `exec`).
fn module(rel: &str) -> String {
    rel.split('/')
        .next()
        .unwrap()
        .trim_end_matches(".rs")
        .to_string()
}

#[test]
fn sim_core_modules_import_one_another_without_cycles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, "", &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in &files {
        let m = module(rel);
        if m == "lib" {
            continue;
        }
        let code = code(rel, text);
        let targets = edges.entry(m.clone()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let name: String = code[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name != m && !name.is_empty() {
                targets.insert(name);
            }
        }
    }
    assert!(edges.len() >= 8, "{:?}", edges.keys());
    // a path from each module back to itself through its imports
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
        while let Some((m, path)) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                assert!(
                    next != start,
                    "import cycle: {} -> {next}",
                    path.join(" -> ")
                );
                if edges.contains_key(next) && seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
}

#[test]
fn no_source_file_outside_tests_passes_2000_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, "", &mut files);
    let long: Vec<String> = files
        .iter()
        .filter(|(rel, _)| !rel.ends_with("/tests.rs"))
        .map(|(rel, text)| (rel, text.lines().count()))
        .filter(|&(_, n)| n > 2000)
        .map(|(rel, n)| format!("{rel}: {n} lines"))
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

/// The observer seam (`exec/observe.rs`): the executor's handlers report
/// to the observer they are given, and never test for a checker or a
/// profile themselves; only `exec.rs` picks the observers of a batch.
#[test]
fn executor_handlers_report_through_the_observer_seam() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root.join("exec"), "exec", &mut files);
    let exec_rs = std::fs::read_to_string(root.join("exec.rs")).unwrap();
    files.push(("exec.rs".to_string(), exec_rs));
    let mut handlers = 0;
    for (rel, text) in &files {
        if rel.starts_with("exec/observe") {
            continue;
        }
        let code = code(rel, text);
        for needle in [
            "self.check",
            "self.prof",
            ".prof_lines",
            "Option<Box<Checker>>",
        ] {
            let setters = rel == "exec/executor.rs" && needle == "Option<Box<Checker>>";
            assert!(
                setters || !code.contains(needle),
                "{rel} tests `{needle}`: report to the observer instead"
            );
        }
        // the executor keeps them, the group runners (the group runner,
        // the debugger's) pick a batch's
        if !matches!(
            rel.as_str(),
            "exec/executor.rs" | "exec/group.rs" | "exec/debug.rs" | "exec/pool.rs"
        ) {
            assert!(
                !code.contains("observers"),
                "{rel} reaches for the executor's observers"
            );
        }
        if code.contains("obs: &mut O") {
            handlers += 1;
        }
    }
    // the loop and the handlers of memory, atomics, compare-exchange
    // loops, flow, textures and row runs take the observer
    assert!(handlers >= 7, "{handlers} files take an observer");
}

/// The handlers are functions over a narrow context (issue #48): in the
/// handlers' rooms (`exec/ops/`, `exec/fast/`, `exec/operands.rs`) nothing
/// is a method of `GroupExecutor`, so no handler reaches the group
/// runner's state (warps, barrier rounds, the observers' storage, the
/// watchdog's bookkeeping). They are methods of `Cx` (`exec/context.rs`),
/// given the scratch, the group's memory, the budget or the message sink
/// as parameters where they change them; the interpreter loop
/// (`exec/interp.rs`) builds the context and is the executor's only
/// method there.
#[test]
fn executor_handlers_are_functions_over_a_narrow_context() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root.join("exec"), "exec", &mut files);
    let mut over_cx = 0;
    for (rel, text) in &files {
        let handlers = rel.starts_with("exec/ops/")
            || rel.starts_with("exec/fast/")
            || rel == "exec/operands.rs";
        let code = code(rel, text);
        if handlers {
            assert!(
                !code.contains("impl GroupExecutor") && !code.contains("impl<'p> GroupExecutor"),
                "{rel} has methods of GroupExecutor: make them methods of Cx"
            );
            assert!(
                !code.contains("GroupExecutor<"),
                "{rel} names GroupExecutor: a handler takes what it needs"
            );
            if code.contains("impl Cx<") || code.contains("impl<'b> Cx<") {
                over_cx += 1;
            }
        }
        if rel == "exec/interp.rs" {
            // the loop and its copies per instruction set, nothing else
            let methods = defined_fns(&code).len();
            assert!(methods <= 4, "interp.rs defines {methods} functions");
            assert!(
                code.contains("let cx = Cx {"),
                "interp.rs builds the context"
            );
        }
    }
    // operands, alu, atomic, flow, memory, message (a sink's), texture,
    // rows and cas: each handler file's functions are the context's
    assert!(over_cx >= 8, "{over_cx} handler files over Cx");
}

/// Imports are named (CONTRIBUTING.md, "Layout"): outside tests no source
/// of the library crates or the binary imports a module's contents
/// wholesale (`use super::*`, `use crate::ir::*`), so that each file says
/// where its names come from. Two forms stay: a crate's `prelude::*`
/// (made for it), and an enum's variants brought into a function for a
/// match over them (`use AluOp::*`).
#[test]
fn imports_are_named_outside_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut globs = Vec::new();
    let mut scanned = 0;
    for krate in ["sim-core/src", "sim-mem/src", "sim-sched/src", "src"] {
        let mut files = Vec::new();
        sources(&root.join(krate), "", &mut files);
        for (rel, text) in &files {
            scanned += 1;
            let code = code(rel, text);
            for (n, line) in code.lines().enumerate() {
                let l = line.trim();
                let Some(path) = l
                    .strip_prefix("pub use ")
                    .or_else(|| l.strip_prefix("pub(crate) use "))
                    .or_else(|| l.strip_prefix("use "))
                    .and_then(|p| p.strip_suffix("::*;"))
                else {
                    continue;
                };
                let last = path.rsplit("::").next().unwrap_or(path);
                let variants = last.starts_with(|c: char| c.is_ascii_uppercase());
                // the kernel modules of exec/kernels/alu.rs, generated by
                // its macros (`lane_kernels!`, `wide_kernels!`,
                // `row_kernels!`), compile the lane expressions of
                // `isa::lanes::for_each_lane_op!` once per instruction set:
                // they take the parent's scope, into which the table's
                // helpers and the row kernels' parts are imported
                let above = n.checked_sub(1).and_then(|k| code.lines().nth(k));
                let generated = rel == "exec/kernels/alu.rs"
                    && l == "use super::*;"
                    && above.is_some_and(|a| {
                        let a = a.trim();
                        a == "mod $name {" || a == "mod kernels {"
                    });
                if last == "prelude" || variants || generated {
                    continue;
                }
                globs.push(format!("{krate}/{rel}:{}: {l}", n + 1));
            }
        }
    }
    assert!(scanned >= 60, "{scanned} files");
    assert!(globs.is_empty(), "glob imports:\n{}", globs.join("\n"));
}

/// The executor's rooms by role, top to bottom: a dispatch's program is
/// followed down them and never back up (issue #48: sched → plan → exec).
/// `sim-sched` (and the per-thread parking of executors, `pool.rs`) builds
/// an executor (`executor.rs`, which plans the program: `fast/plan.rs`) and
/// runs groups on it (`group.rs`; a debugger, `debug.rs`, builds one and
/// steps its groups itself), which run warps
/// through the interpreter loop (`interp.rs`), which calls the handlers
/// (`ops/`) and the fast forms (`fast/`), which read and write operands
/// (`operands.rs`), reporting to the observers (`observe/`), over the
/// warp's state (`warp.rs`) and the handlers' context (`context.rs`); the
/// leaves (access geometry, profile counters, the watchdog, the lane
/// kernels) call none of them.
const ROOMS: [(&str, u32); 17] = [
    ("sched:", 0),
    ("exec/pool.rs", 0),
    ("exec/executor.rs", 1),
    ("exec/debug.rs", 1),
    ("exec/group.rs", 2),
    ("exec/interp.rs", 3),
    ("exec/ops/", 4),
    ("exec/fast.rs", 4),
    ("exec/fast/", 4),
    ("exec/operands.rs", 5),
    ("exec/observe", 6),
    ("exec/warp.rs", 7),
    ("exec/context.rs", 7),
    ("exec/lines.rs", 8),
    ("exec/profile.rs", 8),
    ("exec/watchdog.rs", 8),
    ("exec/kernels", 8),
];

/// Method names of the standard library's types (and of the executor's
/// own small types) that a room also calls on values that are not the
/// executor's (`Vec::clear`, `Option::take`, `slice::contains`): a call by
/// such a name says nothing about which room it reaches.
const STD_NAMES: [&str; 15] = [
    "build",
    "clear",
    "clone",
    "contains",
    "finish",
    "get",
    "into_iter",
    "len",
    "new",
    "push",
    "run",
    "sum",
    "take",
    "with",
    "default",
];

fn room(rel: &str) -> Option<u32> {
    ROOMS
        .iter()
        .filter(|(prefix, _)| rel.starts_with(prefix))
        .map(|&(_, level)| level)
        .next()
}

/// The functions a source defines (outside tests): each name, and whether
/// it is a method (its first parameter `self`), called as `.name(` or
/// `Self::name(`, or a free or associated function, called as `name(`.
fn defined_fns(code: &str) -> BTreeSet<(String, bool)> {
    code.match_indices("fn ")
        .filter(|(i, _)| *i == 0 || !code.as_bytes()[i - 1].is_ascii_alphanumeric())
        .filter_map(|(i, _)| {
            let rest = &code[i + 3..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let params = rest[rest.find('(')? + 1..].trim_start();
            let method = ["self", "&self", "&mut self", "mut self", "&'"]
                .iter()
                .any(|p| params.starts_with(p));
            (!name.is_empty()).then_some((name, method))
        })
        .collect()
}

/// One pass down: every call from one of the executor's rooms to a
/// function another room defines goes to a room below it (or beside it,
/// among the handlers and fast forms), so that a dispatch's program,
/// followed from sim-sched's entry point, never climbs back into a room it
/// has left. A function name defined in more than one room, or one that
/// the standard library's types also have ([`STD_NAMES`]), says nothing
/// and is left out.
#[test]
fn a_dispatch_goes_one_pass_down_sched_plan_exec() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src/exec"), "exec", &mut files);
    let mut sched = Vec::new();
    sources(&root.join("../sim-sched/src"), "", &mut sched);
    files.extend(
        sched
            .into_iter()
            .filter(|(rel, _)| rel != "tests.rs")
            .map(|(rel, text)| (format!("sched:{rel}"), text)),
    );
    let files: Vec<(String, u32, String)> = files
        .iter()
        .filter_map(|(rel, text)| Some((rel.clone(), room(rel)?, code(rel, text))))
        .collect();
    assert!(files.len() >= 25, "{} files", files.len());
    // each function name defined in exactly one room: that room, and
    // whether it is a method
    let mut owners: BTreeMap<String, BTreeSet<(u32, bool)>> = BTreeMap::new();
    for (_, level, code) in &files {
        for (name, method) in defined_fns(code) {
            owners.entry(name).or_default().insert((*level, method));
        }
    }
    let owned: BTreeMap<&str, (u32, bool)> = owners
        .iter()
        .filter(|(n, defs)| defs.len() == 1 && !STD_NAMES.contains(&n.as_str()))
        .map(|(n, defs)| (n.as_str(), *defs.first().unwrap()))
        .collect();
    let mut climbs = Vec::new();
    let mut calls_down = 0;
    for (rel, level, code) in &files {
        for (name, &(to, method)) in &owned {
            let forms: &[&str] = if method {
                &[".", "Self::"]
            } else {
                &["::", " ", "(", "!", "&"]
            };
            let called = forms.iter().any(|before| {
                code.contains(&format!("{before}{name}("))
                    || code.contains(&format!("{before}{name}::<"))
            });
            if !called || to == *level {
                continue;
            }
            if to < *level {
                climbs.push(format!("{rel} (room {level}) calls {name} (room {to})"));
            } else {
                calls_down += 1;
            }
        }
    }
    // sched → executor (new, packed) → plan; group → interp → handlers …
    assert!(calls_down >= 20, "{calls_down} calls down");
    assert!(climbs.is_empty(), "climbs back:\n{}", climbs.join("\n"));
}
