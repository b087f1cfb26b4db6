//! The debugger: `sm5sim debug` driven by scripts on stdin over the fxc
//! `/Zi` builds of `tests/debug_info/` (a breakpoint on an HLSL line stops
//! there; the locals there equal the shader's formula computed here;
//! stepping follows HLSL lines; a lane switch shows that lane's values;
//! break-on-race names both threads), its refusals, and the library
//! session run to its end against the deterministic mode.

use sm5sim::debug::{Session, SessionOptions, StopReason};
use sm5sim::job::Job;
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::{DispatchOptions, Schedule};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// `sm5sim debug ARGS` with `script` on stdin: (exit status, stdout, stderr).
fn debug(args: &[&str], script: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .arg("debug")
        .args(args)
        .arg("--quiet")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `name = value` lines of a `locals` or `print` output, floats parsed.
fn value(text: &str, name: &str) -> f32 {
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("no `{name} = ` in:\n{text}"));
    line[name.len() + 3..]
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// `sm5sim debug` on mandelbrot's `/Zi` job, breaking at `at`, focused on
/// thread (300, 256, 0), with `script`: its stdout (the exit status 0).
fn mandelbrot_session(at: &str, script: &str) -> String {
    let (code, out, err) = debug(
        &[
            "tests/debug_info/mandelbrot.toml",
            "--break",
            at,
            "--thread",
            "300,256,0",
        ],
        script,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    out
}

/// The HLSL line of mandelbrot each text's position names
/// (`mandelbrot.hlsl:N`).
fn lines_named<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
    texts
        .into_iter()
        .map(|s| {
            let at = s.split("mandelbrot.hlsl:").nth(1).unwrap();
            at.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

/// The output of a script split at each stop or step report (`stopped…`,
/// `stepped`), each with the lines after it.
fn sections(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in text.lines() {
        if l.starts_with("stopped") || l.starts_with("stepped") {
            out.push(l.to_string());
        } else if let Some(s) = out.last_mut() {
            s.push('\n');
            s.push_str(l);
        }
    }
    out
}

/// mandelbrot's per-thread values (`examples/mandelbrot/mandelbrot.hlsl`,
/// width = height = 512), in f32 as fxc compiled them: cx, cy, and zx, zy
/// after `k` iterations.
pub(crate) fn mandelbrot(x: u32, y: u32, k: u32) -> (f32, f32, f32, f32) {
    let cx = 3.0f32 * x as f32 / 512.0 + -2.0;
    let cy = 3.0f32 * y as f32 / 512.0 + -1.5;
    let (mut zx, mut zy) = (0.0f32, 0.0f32);
    for _ in 0..k {
        // mad (unfused: rounded after the multiply), then the add of cx
        let t = (zx * zx - zy * zy) + cx;
        // dp2: zy·zx + zy·zx
        zy = (zy * zx + zy * zx) + cy;
        zx = t;
    }
    (cx, cy, zx, zy)
}

/// A breakpoint on line 17 stops there for the chosen thread, each
/// iteration of its loop, and the locals there are the shader's formula's.
#[test]
fn a_breakpoint_on_an_hlsl_line_stops_there_with_the_formulas_locals() {
    let (x, y) = (300, 256);
    let script = "continue\nlocals\ncontinue\nlocals\ncontinue\nlocals\nquit\n";
    let out = mandelbrot_session("mandelbrot.hlsl:17", script);
    assert!(
        out.contains("breakpoint 0 at mandelbrot.hlsl:17: pc"),
        "{out}"
    );
    let stops: Vec<String> = sections(&out)
        .into_iter()
        .filter(|s| s.starts_with("stopped at breakpoint"))
        .collect();
    assert_eq!(stops.len(), 3, "{out}");
    for (k, s) in stops.iter().enumerate() {
        assert!(
            s.contains("group (37, 32, 0)")
                && s.contains("thread (300, 256, 0) pc")
                && s.contains("mandelbrot.hlsl:17\n")
                && s.contains("float t = zx * zx - zy * zy + cx;"),
            "{s}"
        );
        let (cx, cy, zx, zy) = mandelbrot(x, y, k as u32);
        assert_eq!(value(s, "cx"), cx, "{s}");
        assert_eq!(value(s, "cy"), cy, "{s}");
        assert_eq!(value(s, "zx"), zx, "iteration {k}: {s}");
        assert_eq!(value(s, "zy"), zy, "iteration {k}: {s}");
        assert_eq!(value(s, "i"), k as f32, "{s}");
        assert!(s.contains("dtid = (300, 256, 0)"), "{s}");
        // t is written by this line: no register holds it yet
        assert!(s.contains("t = ?"), "{s}");
    }
}

/// `next` from line 17 visits the loop's lines in order, 18, 20, 21, then
/// the loop's test (15) and 17 again; `stepi` runs one instruction.
#[test]
fn stepping_follows_hlsl_lines() {
    let script =
        "continue\nnext\nnext\nnext\nnext\nnext\nprint i\nprint max_iter\nstepi\nwhere\nquit\n";
    let out = mandelbrot_session("17", script);
    let stepped = sections(&out);
    let lines = lines_named(
        (stepped.iter())
            .filter(|s| s.starts_with("stepped"))
            .map(String::as_str),
    );
    assert_eq!(lines[..5], [18, 20, 21, 15, 17], "{out}");
    // one pass through the loop: i went 0 -> 1; the loop's bound, a
    // cbuffer variable, by its HLSL name
    assert!(out.contains("i = 1\n"), "{out}");
    assert!(out.contains("max_iter = 256\n"), "{out}");
    // stepi from the first instruction of line 17 (mad) to the next (add)
    let last = sections(&out).pop().unwrap();
    assert!(last.contains("add r2.x, r0.x, r1.y"), "{last}");
}

/// Switching lanes shows that lane's thread and values; `thread` switches
/// to a thread of the group by its SV_DispatchThreadID, and refuses one in
/// another group.
#[test]
fn a_lane_switch_shows_that_lanes_values() {
    let script = "continue\nlane 5\nprint cx\nprint dtid\nprint cx.x\nthread 302,257,0\nprint cy\nprint vThreadID\nlanes cx\nthread 0,0,0\nquit\n";
    let out = mandelbrot_session("mandelbrot.hlsl:17", script);
    let (cx301, ..) = mandelbrot(301, 256, 0);
    let (_, cy257, ..) = mandelbrot(302, 257, 0);
    assert!(out.contains("warp 0 lane 5 thread (301, 256, 0)"), "{out}");
    assert_eq!(value(&out, "cx"), cx301, "{out}");
    assert!(out.contains("dtid = (301, 256, 0)"), "{out}");
    assert!(out.contains("thread (302, 257, 0)"), "{out}");
    assert_eq!(value(&out, "cy"), cy257, "{out}");
    assert!(out.contains("vThreadID = (302, 257, 0)"), "{out}");
    // every lane of the warp, each with its own cx
    let table: Vec<&str> = out.lines().filter(|l| l.contains(", 0) active ")).collect();
    assert_eq!(table.len(), 32, "{out}");
    for l in &table {
        let x: u32 = l
            .split('(')
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let cx: f32 = l.rsplit(' ').next().unwrap().parse().unwrap();
        assert_eq!(cx, mandelbrot(x, 0, 0).0, "{l}");
    }
    assert!(
        out.contains("error: thread (0, 0, 0) is in group (0, 0, 0), not in the group in progress (37, 32, 0)"),
        "{out}"
    );
}

/// `--break race` runs the dispatch under the checker and stops at the
/// racing access, the report naming both threads and both HLSL lines.
#[test]
fn break_on_race_stops_at_the_racing_access_with_both_threads() {
    let script = "continue\nlocals\nprint s[2]\nwho s[2]\nwho g0[63]\nquit\n";
    let (code, out, err) = debug(&["tests/debug_info/race.toml", "--break", "race"], script);
    assert_eq!(code, 0, "{out}\n{err}");
    let stop = sections(&out)
        .into_iter()
        .find(|s| s.starts_with("stopped at a checker finding"))
        .unwrap_or_else(|| panic!("no finding stop:\n{out}"));
    assert!(stop.contains("error[raw] g0[1] ('s')"), "{stop}");
    assert!(stop.contains("race.hlsl:14: store_structured"), "{stop}");
    assert!(stop.contains("race.hlsl:15: ld_structured"), "{stop}");
    assert!(stop.contains("thread (1, 0, 0)"), "{stop}");
    assert!(stop.contains("thread (0, 0, 0)"), "{stop}");
    // stopped just after the load (line 15), focused on the reading thread
    assert!(
        stop.contains("lane 0 thread (0, 0, 0) pc") && stop.contains("race.hlsl:15\n"),
        "{stop}"
    );
    assert!(out.contains("t = 0\n"), "{out}");
    // thread 2 stored 2·3 + 1 to s[2] (line 14); thread 63's warp (the
    // second of 32 lanes) has not run
    assert!(out.contains("s[2] = 0x7"), "{out}");
    assert!(
        out.contains("s[2]: last written by group (0, 0, 0) thread (2, 0, 0) [2] at pc 1 (race.hlsl:14): store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x; stored 0x7"),
        "{out}"
    );
    assert!(out.contains("g0[63]: not written since"), "{out}");
}

/// Bad breakpoints, threads, steps and expressions are refused with a
/// message that says why; the session goes on (or, at the start, the
/// command exits 2 and says where).
#[test]
fn bad_input_is_refused_with_a_reason() {
    let script = "break nosuch.hlsl:3\nbreak mandelbrot.hlsl:400\nbreak pc 9999\nprint nothing\nprint r9.x\nlane 99\nfoo\nquit\n";
    let (code, out, _) = debug(&["tests/debug_info/mandelbrot.toml"], script);
    assert_eq!(code, 0, "{out}");
    for want in [
        "error: `nosuch.hlsl:3`: want FILE:LINE or LINE (files: mandelbrot.hlsl)",
        "error: `mandelbrot.hlsl:400`: no instruction comes from mandelbrot.hlsl:400 or a later line",
        "error: pc 9999: the program has",
        "error: `nothing` names nothing here",
        "error: r9: the shader declares 3 temps",
        "error: no thread in lane 99 of warp 0",
        "error: unknown command `foo`",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
    // a step that is not a dispatch, a thread outside the dispatch
    let (code, _, err) = debug(&["tests/debug_info/mandelbrot.toml", "--step", "1"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("steps[1] is not a dispatch (the job's dispatch steps: steps[0])"),
        "{err}"
    );
    let (code, _, err) = debug(
        &["tests/debug_info/mandelbrot.toml", "--thread", "9999,0,0"],
        "",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("thread (9999, 0, 0) is outside the dispatch"),
        "{err}"
    );
    // a shader without /Zi: no HLSL lines, but pc breakpoints
    let (code, out, err) = debug(
        &["examples/mandelbrot/mandelbrot.toml", "--break", "pc 19"],
        "break 17\ncontinue\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the shader has no HLSL lines (compile it with fxc /Zi)"),
        "{out}"
    );
    assert!(out.contains("stopped at breakpoint 0 (pc 19)"), "{out}");
    assert!(out.contains("mad r1.y, r0.z, r0.z, -r1.w"), "{out}");
}

/// A session continued to its end leaves the resources the deterministic
/// mode leaves (same warp width: every memory operation in the same
/// order; cas_float_add's float sums depend on it), and the job's later
/// steps (its expectations) run; a middle step of a pipeline too.
#[test]
fn a_session_run_to_its_end_equals_the_deterministic_mode() {
    for (job, step) in [
        ("examples/cas_float_add/cas_float_add.toml", None),
        ("examples/reduce/reduce.toml", None),
        ("examples/multipass_reduce/multipass_reduce.toml", Some(3)),
    ] {
        let path = root().join(job);
        let load = |_: ()| Job::load(&path, &LoadOptions::default()).unwrap();
        let debugged = load(());
        let options = SessionOptions {
            step,
            warp_width: Some(32),
            ..Default::default()
        };
        let mut s = Session::start(&debugged, &options, &DispatchOptions::default())
            .unwrap_or_else(|e| panic!("{job}: {e}"));
        let stop = s.resume();
        assert_eq!(stop, StopReason::Finished, "{job}");
        assert!(s.reports().iter().all(|r| r.passed()), "{job}");
        let steps = debugged.step_count();
        assert_eq!(s.reports().len(), steps - 1, "{job}: every other step ran");
        let plain = load(());
        let det = DispatchOptions {
            schedule: Some(Schedule::fixed()),
            warp_width: 32,
            ..Default::default()
        };
        plain.run(&det).unwrap();
        assert_eq!(debugged.outputs(), plain.outputs(), "{job}");
    }
}

/// A watch on a resource word stops after the store that changed it,
/// naming the instruction and its HLSL line; the value is the iteration
/// count the formula gives for that thread.
#[test]
fn a_watch_stops_after_the_write_and_names_the_writer() {
    let (x, y) = (300u32, 256u32);
    let mut n = 0;
    let (cx, cy, ..) = mandelbrot(x, y, 0);
    let (mut zx, mut zy) = (0.0f32, 0.0f32);
    while n < 256 && zx * zx + zy * zy < 4.0 {
        let t = (zx * zx - zy * zy) + cx;
        zy = (zy * zx + zy * zx) + cy;
        zx = t;
        n += 1;
    }
    let word = y * 512 + x;
    let script = format!("who iterations[{word}]\nwatch iterations[{word}]\ncontinue\nwho iterations[{word}]\nwho u0[{word}]\nquit\n");
    let (code, out, err) = debug(
        &["tests/debug_info/mandelbrot.toml", "--thread", "300,256,0"],
        &script,
    );
    assert_eq!(code, 0, "{err}");
    let want = format!(
        "stopped: iterations[{word}] changed from 0x0 to {n:#x}, by warp 0 at pc 27 (mandelbrot.hlsl:22): store_structured u0.x, r0.x, l(0), r1.x"
    );
    assert!(out.contains(&want), "{want}\n{out}");
    // and who wrote it: that thread (SV_GroupIndex 4 of group (37, 32)),
    // by the buffer's name or the UAV's slot; nothing before
    assert!(
        out.contains(&format!("iterations[{word}]: not written since")),
        "{out}"
    );
    let who = format!(
        "[{word}]: last written by group (37, 32, 0) thread (4, 0, 0) [4] at pc 27 (mandelbrot.hlsl:22): store_structured u0.x, r0.x, l(0), r1.x; stored {n:#x}"
    );
    assert_eq!(out.matches(&who).count(), 2, "{who}\n{out}");
}

/// Going back re-runs the dispatch to an earlier instruction: `back line`
/// walks the focus thread's lines backwards (20, 18, 17, then the loop's
/// test, 15, then the previous pass's 21) with every local as it was
/// there; `back N` undoes a store (the UAV word is 0 again, and a watch
/// stops at the store once more); after the end there is nothing to go
/// back into.
#[test]
fn going_back_replays_to_the_same_state() {
    let (x, y) = (300u32, 256u32);
    let word = y * 512 + x;
    let script = format!(
        "continue\ncontinue\ncontinue\nlocals\nnext\nnext\nback line\nback line\nlocals\nback line\nprint i\nback line\ndelete\nwatch iterations[{word}]\ncontinue\nback 1\nprint iterations[{word}]\ncontinue\nquit\n"
    );
    let (code, out, err) = debug(
        &[
            "tests/debug_info/mandelbrot.toml",
            "--break",
            "17",
            "--thread",
            "300,256,0",
        ],
        &script,
    );
    assert_eq!(code, 0, "{err}");
    let backs: Vec<u32> = sections(&out)
        .iter()
        .filter_map(|s| s.strip_prefix("stepped").map(|_| s))
        .map(|s| {
            let at = s.split("mandelbrot.hlsl:").nth(1).unwrap();
            at.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(backs, [18, 20], "{out}");
    let went: Vec<u32> = out
        .split("went back\n")
        .skip(1)
        .map(|s| {
            let at = s.split("mandelbrot.hlsl:").nth(1).unwrap();
            at.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(went[..4], [18, 17, 15, 21], "{out}");
    // the locals at line 17 of the third pass, before and after going back
    let (cx, _, zx, zy) = mandelbrot(x, y, 2);
    let blocks: Vec<&str> = out.split("dtid = (300, 256, 0)\n").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{out}");
    for b in &blocks {
        assert_eq!(value(b, "cx"), cx, "{b}");
        assert_eq!(value(b, "zx"), zx, "{b}");
        assert_eq!(value(b, "zy"), zy, "{b}");
        assert_eq!(value(b, "i"), 2.0, "{b}");
    }
    // back to the loop's test of the same pass: i is still 2
    assert!(out.contains("i = 2\n"), "{out}");
    // the store undone, and done again
    assert!(
        out.contains(&format!("iterations[{word}] = 0x0\n")),
        "{out}"
    );
    let stops = out
        .matches(&format!("stopped: iterations[{word}] changed from 0x0 to"))
        .count();
    assert_eq!(stops, 2, "{out}");
    // after the end
    let (_, out, _) = debug(&["examples/reduce/reduce.toml"], "continue\nback\nquit\n");
    assert!(
        out.contains("error: the dispatch has ended: there is nothing to go back into"),
        "{out}"
    );
}

/// `goto` runs forward, with no stops, to a later thread's group and
/// focuses on it; the groups on the way are recorded for `who`; a group
/// already begun is refused.
#[test]
fn goto_runs_to_a_later_group() {
    let script =
        "goto 300,256,0\nbreak 17\ncontinue\nlocals\nwho iterations[0]\ngoto 0,0,0\nquit\n";
    let (code, out, err) = debug(&["tests/debug_info/mandelbrot.toml"], script);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ran to its group\ngroup (37, 32, 0) warp 0 lane 4 thread (300, 256, 0) pc 0"),
        "{out}"
    );
    assert!(
        out.contains("stopped at breakpoint 0 (17)\ngroup (37, 32, 0) warp 0 lane 4 thread (300, 256, 0) pc 19"),
        "{out}"
    );
    assert_eq!(value(&out, "cx"), mandelbrot(300, 256, 0).0, "{out}");
    // thread (0, 0, 0) escapes after one pass: it stored 1
    assert!(
        out.contains("iterations[0]: last written by group (0, 0, 0) thread (0, 0, 0) [0] at pc 27 (mandelbrot.hlsl:22)") && out.contains("; stored 0x1\n"),
        "{out}"
    );
    assert!(
        out.contains("error: thread (0, 0, 0) is in group (0, 0, 0), which has begun"),
        "{out}"
    );
}

/// A line step follows one lane, or the whole warp: thread (0, 248)
/// leaves mandelbrot's loop after one pass while the other lanes of its
/// warp go on, so its `next` goes from the loop's test (15) to line 22,
/// where the warp's `next warp` goes back into the loop (17) with that
/// lane inactive.
#[test]
fn a_line_step_follows_a_lane_or_the_whole_warp() {
    let run = |next: &str| {
        let script = format!("continue\n{}quit\n", format!("{next}\n").repeat(5));
        let (code, out, err) = debug(
            &[
                "tests/debug_info/mandelbrot.toml",
                "--break",
                "17",
                "--thread",
                "0,248,0",
            ],
            &script,
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    let lane = run("next");
    let stepped = sections(&lane);
    let lines = lines_named(
        (stepped.iter())
            .filter(|s| s.starts_with("stepped"))
            .map(String::as_str),
    );
    assert_eq!(lines, [18, 20, 21, 15, 22], "{lane}");
    let warp = run("next warp");
    let stepped = sections(&warp);
    let lines = lines_named(
        (stepped.iter())
            .filter(|s| s.starts_with("stepped"))
            .map(String::as_str),
    );
    assert_eq!(lines, [18, 20, 21, 15, 17], "{warp}");
    assert!(
        warp.contains("thread (0, 248, 0) (inactive here) pc 19 mandelbrot.hlsl:17"),
        "{warp}"
    );
}

/// A breakpoint's condition on thread IDs or locals: `17 if i == 3` stops
/// in the fourth pass with the formula's values; `22 if vThreadID.x == 5`
/// stops at the first warp with such a lane, focused on it; a malformed
/// condition is refused.
#[test]
fn a_conditional_breakpoint_stops_where_it_holds() {
    let out = mandelbrot_session(
        "17 if i == 3",
        "continue\nlocals\nbreak 22 if vThreadID.x == 5\nbreak 9 if nonsense\ndelete 0\ncontinue\nquit\n",
    );
    let (_, _, zx, zy) = mandelbrot(300, 256, 3);
    assert!(
        out.contains("stopped at breakpoint 0 (17 if i == 3)"),
        "{out}"
    );
    assert_eq!(value(&out, "i"), 3.0, "{out}");
    assert_eq!(value(&out, "zx"), zx, "{out}");
    assert_eq!(value(&out, "zy"), zy, "{out}");
    assert!(
        out.contains("error: `9 if nonsense`: the condition wants EXPR OP NUMBER"),
        "{out}"
    );
    // (the session's thread is fixed: no stop for x == 5 in its group; run
    // without one)
    let (code, out, err) = debug(
        &[
            "tests/debug_info/mandelbrot.toml",
            "--break",
            "22 if vThreadID.x == 5",
        ],
        "continue\nprint dtid\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stopped at breakpoint 0 (22 if vThreadID.x == 5)\ngroup (0, 0, 0) warp 0 lane 5 thread (5, 0, 0)"),
        "{out}"
    );
    assert!(out.contains("dtid = (5, 0, 0)"), "{out}");
}
