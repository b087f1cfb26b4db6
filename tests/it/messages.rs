//! The shader's own debugging channel run (#47, `sim_core::messages`):
//! `printf`/`errorf` from fxc's builds in `tests/front_end/`, printed by
//! `run` and `check`, in `--json` and JUnit, and in the Rust API's results;
//! the format-rule conformance job against glibc's printf; the fixed order
//! and the bound whatever the threads.

use crate::{output_text, sm5sim};
use sm5sim::api::{Kernel, Options, Resource, Shader, Value};
use sm5sim::sim_sched::MessageKind;
use std::path::{Path, PathBuf};

fn front_end(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/front_end")
        .join(name)
}

/// Every message of the conformance job is glibc's line for the same format
/// and values, in program order, with its HLSL line from `/Zi`; the
/// `errorf` fails the job (exit 1) and is named as the first error.
#[test]
fn the_format_rules_are_cs_printf() {
    let job = front_end("messages_formats.toml");
    let o = sm5sim(&["run", "--json", job.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let m = &v["steps"][0]["messages"];
    let expected = std::fs::read_to_string(front_end("messages_formats.expected")).unwrap();
    let want: Vec<&str> = expected.lines().collect();
    let list = m["list"].as_array().unwrap();
    let got: Vec<&str> = list.iter().map(|x| x["text"].as_str().unwrap()).collect();
    assert_eq!(got, want);
    assert!(want.len() >= 20, "{}", want.len());
    // program order, each with its line: the printfs are on lines 9.. of the HLSL
    let lines: Vec<u64> = list.iter().map(|x| x["line"].as_u64().unwrap()).collect();
    assert_eq!(lines[0], 9);
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
    assert_eq!(list[0]["file"], "messages_formats.hlsl");
    assert_eq!(
        (m["printf"].as_u64(), m["errorf"].as_u64()),
        (Some(19), Some(1))
    );
    assert_eq!(m["first_error"]["kind"], "errorf");
    assert_eq!(m["first_error"]["line"], 29);
    assert_eq!(v["steps"][0]["passed"], false);
    assert_eq!(v["passed"], false);
}

/// The text report: a line per message under its step, the limit and the
/// count of the rest, the first errorf's thread, the verdict.
#[test]
fn run_prints_the_messages_under_their_step() {
    let job = front_end("messages_operands.toml");
    let o = sm5sim(&["run", job.to_str().unwrap()]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    // thread by thread, each thread's messages in program order
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  [")).collect();
    assert_eq!(
        &lines[..3],
        [
            "  [group (0,0,0) thread (0,0,0)] t=0 gi=0 f=0.000000 x=ff s= 2.50 %",
            "  [group (0,0,0) thread (0,0,0)] no args",
            "  [group (0,0,0) thread (1,0,0)] t=1 gi=1 f=0.000000 x=ff s= 2.50 %",
        ]
    );
    assert!(
        text.contains("  [group (0,0,0) thread (3,0,0)] errorf: too big: 3\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "  error: errorf ran 5 time(s); the first: [group (0,0,0) thread (3,0,0)] errorf: too big: 3\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(": FAILED (errorf ran in 1 dispatch)"),
        "{text}"
    );
    let o = sm5sim(&["run", "--messages", "2", job.to_str().unwrap()]);
    let text = output_text(&o);
    assert_eq!(text.lines().filter(|l| l.starts_with("  [")).count(), 2);
    assert!(
        text.contains(
            "  … and 19 more message(s) not kept (the first 2 are; --messages N keeps more)"
        ),
        "{text}"
    );
    // the first errorf is named even when no message is kept
    let o = sm5sim(&["run", "--messages", "0", job.to_str().unwrap()]);
    assert!(
        output_text(&o).contains("the first: [group (0,0,0) thread (3,0,0)] errorf: too big: 3")
    );
}

/// A suite's JUnit report has the messages in the job's `<system-out>`
/// and names the first errorf in the failure's message; `check` prints
/// them too and finds no race in them.
#[test]
fn junit_and_check_carry_the_messages() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("messages_junit");
    std::fs::create_dir_all(&dir).unwrap();
    let xml = dir.join("j.xml");
    let job = front_end("messages_operands.toml");
    let o = sm5sim(&[
        "run",
        job.to_str().unwrap(),
        "--junit",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", output_text(&o));
    let x = std::fs::read_to_string(&xml).unwrap();
    assert!(
        x.contains("message=\"step 0: errorf ran 5 time(s); the first: [group (0,0,0) thread (3,0,0)] errorf: too big: 3\""),
        "{x}"
    );
    let out = &x[x.find("<system-out>").unwrap()..];
    assert!(
        out.contains("[group (1,0,0) thread (3,0,0)] t=7 gi=3"),
        "{x}"
    );
    let o = sm5sim(&["check", job.to_str().unwrap()]);
    let text = output_text(&o);
    assert!(
        text.contains("[group (0,0,0) thread (2,0,0)] no args"),
        "{text}"
    );
    assert!(
        text.contains("check: 0 error(s), 0 warning(s); a shader ran errorf\n"),
        "{text}"
    );
    assert_eq!(o.status.code(), Some(1), "{text}");
}

fn operands_kernel(out: &Resource) -> Kernel {
    let mut k = Kernel::new(Shader::load(front_end("messages_operands.dxbc")).unwrap());
    k.bind("o", out).unwrap();
    let v = Value::List([1, 2, 255, 4].map(Value::Int).to_vec());
    k.set_constants("C", &[("scale", Value::Float(0.5)), ("v", v)])
        .unwrap();
    k
}

/// Through the Rust API: the same records in the same order whether the
/// groups run in parallel or one after another, the first `limit` kept and
/// every one counted, memory bounded by the limit.
#[test]
fn the_order_and_the_bound_hold_whatever_the_threads() {
    let groups = 3000u32;
    let out = Resource::zeroed_elements::<u32>(4 * groups as usize).unwrap();
    let k = operands_kernel(&out);
    let runs: Vec<_> = [
        Options::default().threads(2).messages(25),
        Options::default().schedule(3).messages(25),
        Options::default().threads(1).warp_width(1).messages(25),
    ]
    .iter()
    .map(|o| k.dispatch([groups, 1, 1], o).unwrap().messages)
    .collect();
    let threads = 4 * u64::from(groups);
    for m in &runs {
        assert_eq!(m.printf, 2 * threads);
        assert_eq!(m.errorf, threads - 3);
        assert_eq!(m.list.len(), 25);
        assert_eq!(m.dropped(), 3 * threads - 3 - 25);
        assert!(m.failed());
        let e = m.first_error.as_ref().unwrap();
        assert_eq!(
            (e.group, e.thread, e.dispatch_thread),
            ([0; 3], [3, 0, 0], [3, 0, 0])
        );
        assert_eq!(e.text, "too big: 3");
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
    let first = &runs[0].list;
    assert_eq!(first[0].kind, MessageKind::Printf);
    assert_eq!(first[0].text, "t=0 gi=0 f=0.000000 x=ff s= 2.50 %");
    // group 1's thread 0 (dispatch thread 4) follows group 0's nine records
    assert_eq!(first[9].group, [1, 0, 0]);
    assert_eq!(first[9].dispatch_thread, [4, 0, 0]);
    assert_eq!(first[9].text, "t=4 gi=0 f=0.000000 x=ff s= 2.50 %");
    assert_eq!(first[11].kind, MessageKind::Errorf);
    // a limit as large as usize holds is no limit, not an overflow
    let all = k
        .dispatch([2, 1, 1], &Options::default().messages(usize::MAX))
        .unwrap()
        .messages;
    assert_eq!((all.list.len(), all.dropped()), (21, 0));
}

/// `abort` and `debug_break` are reported as messages are, thread by
/// thread; `--break` stops the dispatch at the first `debug_break`, naming
/// it (exit status 2).
#[test]
fn abort_and_debug_break_report_and_break_stops() {
    let job = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/debug/debug.toml");
    let o = sm5sim(&["run", job.to_str().unwrap()]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  [")).collect();
    assert_eq!(
        &lines[..3],
        [
            "  [group (0,0,0) thread (0,0,0)] debug_break",
            "  [group (0,0,0) thread (1,0,0)] debug_break",
            "  [group (0,0,0) thread (1,0,0)] abort",
        ]
    );
    assert_eq!(lines.len(), 12, "{text}");
    let o = sm5sim(&["run", "--break", job.to_str().unwrap()]);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(
        text.contains("stopped at a debug_break (--break); group (0, 0, 0), lane 0 (SV_GroupIndex), at debug_break"),
        "{text}"
    );
    // what the shader said before the stop is printed
    assert!(
        text.contains("step 0: dispatch stopped; its messages until then:\n  [group (0,0,0) thread (0,0,0)] debug_break\n"),
        "{text}"
    );
}
