//! `sm5sim run --profile`: the per-opcode lane-instruction counts, SIMD
//! efficiency, atomics and memory traffic of small shaders whose counts are
//! known exactly, and the JSON files `--profile-json` and `--trace` write.

use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch_with, DispatchOptions, DispatchProfile, Schedule};
use std::process::Command;

/// Four instructions per thread, no divergence.
const STRAIGHT: &str = "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
iadd r1.x, vThreadID.x, l(1)
store_raw u0.x, r0.x, r1.x
ret
";

/// One warp of 32: a quarter of the lanes take the `if`; then every lane
/// tries the same compare-exchange (0 → 1) on word 0 — the first lane in
/// lane order wins, the other 31 fail.
const DIVERGENT: &str = "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_tgsm_raw g0, 16
dcl_thread_group 32, 1, 1
and r0.x, vThreadIDInGroupFlattened.x, l(3)
if_z r0.x
  iadd r1.x, vThreadIDInGroupFlattened.x, l(1)
  store_raw g0.xy, l(0), r1.xxxx
  atomic_iadd u0, l(4), l(1)
endif
imm_atomic_cmp_exch r2.x, u0, l(0), l(0), l(1)
ret
";

fn program(src: &str) -> Program {
    Program::from_decoded(assemble(src).unwrap_or_else(|e| panic!("{e}")), None).unwrap()
}

fn run(p: &Program, out: &Buffer, groups: [u32; 3], options: &DispatchOptions) -> DispatchProfile {
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(out))],
        ..Default::default()
    };
    let d = dispatch_with(p, &b, groups, options, options.mode()).unwrap();
    d.profile.expect("profiling was on")
}

/// The counts of `p`'s first instruction whose text starts with `text`.
fn instruction(
    prof: &sm5sim::sim_core::exec::Profile,
    p: &Program,
    text: &str,
) -> sm5sim::sim_core::exec::InstructionCounts {
    prof.by_instruction(p)
        .into_iter()
        .find(|i| i.text.starts_with(text))
        .unwrap_or_else(|| panic!("no {text}"))
}

fn count(p: &DispatchProfile, mnemonic: &str) -> u64 {
    p.by_opcode
        .iter()
        .find(|(m, _)| m == mnemonic)
        .map_or(0, |(_, n)| *n)
}

#[test]
fn straight_line_counts_are_threads_times_instructions() {
    let p = program(STRAIGHT);
    let groups = 4u64;
    let threads = groups * 64;
    for (threads_opt, schedule) in [(2, None), (1, Some(Schedule::fixed()))] {
        let out = Buffer::zeroed(threads as usize * 4).unwrap();
        let options = DispatchOptions {
            threads: threads_opt,
            warp_width: 32,
            schedule,
            profile: true,
            ..Default::default()
        };
        let prof = run(&p, &out, [groups as u32, 1, 1], &options);
        for m in ["ishl", "iadd", "store_raw", "ret"] {
            assert_eq!(count(&prof, m), threads, "{m}: {:?}", prof.by_opcode);
        }
        assert_eq!(prof.by_opcode.len(), 4, "{:?}", prof.by_opcode);
        let e = &prof.exec;
        assert_eq!(e.active_lanes, threads * 4);
        assert_eq!(e.warp_instructions, groups * 2 * 4);
        assert_eq!(e.simd_efficiency(), 1.0);
        assert_eq!(e.uav_written, threads * 4);
        assert_eq!(e.uav_read + e.tgsm_read + e.tgsm_written + e.srv_read, 0);
        assert_eq!(e.atomics, 0);
        assert!(!prof.worker_busy.is_empty());
        assert!(prof.spans.is_empty(), "no trace asked for");
    }
}

#[test]
fn divergence_lowers_simd_efficiency_exactly() {
    let p = program(DIVERGENT);
    let out = Buffer::zeroed(8).unwrap();
    let options = DispatchOptions {
        threads: 1,
        warp_width: 32,
        profile: true,
        trace: true,
        ..Default::default()
    };
    let prof = run(&p, &out, [1, 1, 1], &options);
    // issued with: and 32, if 32, iadd 8, store_raw 8, atomic_iadd 8,
    // endif 8 (the lanes inside), imm_atomic_cmp_exch 32, ret 32
    let expect = [
        ("and", 32),
        ("if", 32),
        ("iadd", 8),
        ("store_raw", 8),
        ("atomic_iadd", 8),
        ("endif", 8),
        ("imm_atomic_cmp_exch", 32),
        ("ret", 32),
    ];
    for (m, n) in expect {
        assert_eq!(count(&prof, m), n, "{m}: {:?}", prof.by_opcode);
    }
    let e = &prof.exec;
    assert_eq!(e.warp_instructions, 8);
    assert_eq!(e.active_lanes, 160);
    assert_eq!(e.simd_efficiency(), 160.0 / (8.0 * 32.0));
    assert_eq!(e.atomics, 8 + 32);
    assert_eq!(e.compare_exchanges, 32);
    assert_eq!(e.cas_failures, 31);
    // per instruction: the compare-exchange's 31 failures are its own
    let cas = e
        .by_instruction(&p)
        .into_iter()
        .find(|i| i.text.starts_with("imm_atomic_cmp_exch"))
        .unwrap();
    assert_eq!((cas.lane_instructions, cas.failed), (32, 31));
    assert_eq!(e.failed_by_pc.iter().sum::<u64>(), 31);
    // per resource: TGSM g0 took the 8 lanes' two-dword stores, u0 the
    // atomics (8 adds and 32 compare-exchanges, 4 bytes each way); no
    // reflection, no names
    let by: Vec<(char, u32, u64, u64, u64)> = e
        .by_resource(&p)
        .iter()
        .map(|r| (r.register, r.slot, r.bytes_read, r.bytes_written, r.atomics))
        .collect();
    assert_eq!(by, [('g', 0, 0, 64, 0), ('u', 0, 160, 160, 40)]);
    assert!(e.by_resource(&p).iter().all(|r| r.name.is_none()));
    assert_eq!(e.tgsm_written, 8 * 8);
    assert_eq!((e.uav_read, e.uav_written), (40 * 4, 40 * 4));
    assert_eq!(prof.spans.len(), 1);
    assert_eq!(prof.spans[0].group, [0, 0, 0]);
    assert_eq!(out.to_words(), [1, 8]);
}

/// Each worker's busy time lies within the dispatch's wall time (a worker
/// runs its shares of the batches one after another), and with a trace it
/// is exactly the sum of that worker's batch spans.
#[test]
fn worker_busy_time_is_within_the_wall_time_and_sums_the_spans() {
    let p = program(STRAIGHT);
    let out = Buffer::zeroed(512 * 64 * 4).unwrap();
    for trace in [false, true] {
        let options = DispatchOptions {
            threads: 2,
            profile: true,
            trace,
            ..Default::default()
        };
        let prof = run(&p, &out, [512, 1, 1], &options);
        assert!(!prof.worker_busy.is_empty());
        assert!(prof.worker_busy.iter().any(|d| !d.is_zero()), "{trace}");
        for (w, busy) in prof.worker_busy.iter().enumerate() {
            assert!(
                *busy <= prof.wall,
                "worker {w}: {busy:?} of {:?}",
                prof.wall
            );
            if trace {
                let spans: std::time::Duration = prof
                    .spans
                    .iter()
                    .filter(|s| s.worker == w)
                    .map(|s| s.duration)
                    .sum();
                assert_eq!(*busy, spans, "worker {w}");
            }
        }
        assert_eq!(prof.spans.is_empty(), !trace);
    }
}

#[test]
fn profile_off_gathers_nothing() {
    let p = program(STRAIGHT);
    let out = Buffer::zeroed(64 * 4).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let options = DispatchOptions {
        warp_width: 32,
        ..Default::default()
    };
    let d = dispatch_with(&p, &b, [1, 1, 1], &options, options.mode()).unwrap();
    let (stats, prof) = (d.stats, d.profile);
    assert!(prof.is_none());
    // two warps of 32 lanes, four instructions each
    assert_eq!(stats.warp_instructions, 8);
}

#[test]
fn cli_writes_profile_json_and_a_chrome_trace() {
    let dir = std::env::temp_dir().join(format!("sm5sim-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pj = dir.join("profile.json");
    let tj = dir.join("trace.json");
    let job = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/reduce/reduce.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(["run", job, "--threads", "2", "--profile", "--profile-json"])
        .arg(&pj)
        .arg("--trace")
        .arg(&tj)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("profile of step 0:"), "{stdout}");
    assert!(stdout.contains("SIMD efficiency"), "{stdout}");

    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&pj).unwrap()).unwrap();
    let ds = doc["dispatches"].as_array().unwrap();
    assert_eq!(ds.len(), 2);
    for d in ds {
        for f in [
            "step",
            "groups",
            "wall_seconds",
            "groups_per_second",
            "lanes_per_second",
            "warp_instructions",
            "lane_instructions",
            "simd_efficiency",
            "opcodes",
            "barriers",
            "atomics",
            "compare_exchanges",
            "cas_retries",
            "tgsm_bytes_read",
            "tgsm_bytes_written",
            "uav_bytes_read",
            "uav_bytes_written",
            "srv_bytes_read",
            "worker_busy_seconds",
        ] {
            assert!(d.get(f).is_some(), "missing {f}: {d}");
        }
        let sum: u64 = d["opcodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["lane_instructions"].as_u64().unwrap())
            .sum();
        assert_eq!(sum, d["lane_instructions"].as_u64().unwrap());
        let eff = d["simd_efficiency"].as_f64().unwrap();
        assert!(eff > 0.0 && eff <= 1.0);
        assert!(d["barriers"].as_u64().unwrap() > 0);
        // every executed instruction, its counts summing to the totals
        let ins = d["instructions"].as_array().unwrap();
        let lanes: u64 = ins
            .iter()
            .map(|i| i["lane_instructions"].as_u64().unwrap())
            .sum();
        let warps: u64 = ins
            .iter()
            .map(|i| i["warp_instructions"].as_u64().unwrap())
            .sum();
        assert_eq!(lanes, d["lane_instructions"].as_u64().unwrap());
        assert_eq!(warps, d["warp_instructions"].as_u64().unwrap());
        assert!(ins.iter().any(|i| i["text"] == "sync_g_t"), "{ins:?}");
        // per resource, by the HLSL names of reduce.hlsl
        let res = d["resources"].as_array().unwrap();
        let named = |n: &str| res.iter().find(|r| r["name"] == n).cloned();
        let values = named("values").unwrap_or_else(|| panic!("{res:?}"));
        assert_eq!(values["register"], "t0");
        assert!(values["bytes_read"].as_u64().unwrap() >= 4 * 1_000_000);
        assert_eq!(named("total").unwrap()["register"], "u0");
    }
    assert!(stdout.contains("hottest instructions"), "{stdout}");

    let trace: serde_json::Value = serde_json::from_slice(&std::fs::read(&tj).unwrap()).unwrap();
    let events = trace.as_array().unwrap();
    let groups = ds[0]["thread_groups"].as_u64().unwrap() as usize;
    let of = |ph: &str| events.iter().filter(|e| e["ph"] == ph).collect::<Vec<_>>();
    // one complete event per group per dispatch, and one per dispatch
    assert_eq!(of("X").len(), 2 * groups + 2);
    check_trace_events(events);
    // names: the two processes, the dispatch row, each worker that ran
    let names: Vec<&str> = of("M")
        .iter()
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    for n in ["dispatches", "workers", "dispatch steps"] {
        assert!(names.contains(&n), "{names:?}");
    }
    assert!(names.iter().any(|n| n.starts_with("worker ")), "{names:?}");
    // a counter track of both rates; the groups it counts are the dispatches'
    let counters = of("C");
    assert!(!counters.is_empty());
    let dispatch = of("X").into_iter().find(|e| e["pid"] == 0).unwrap();
    assert_eq!(
        dispatch["args"]["thread_groups"].as_u64().unwrap() as usize,
        groups
    );
    assert!(dispatch["args"]["lane_instructions"].as_u64().unwrap() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A traced dispatch keeps at most `MAX_TRACE_SPANS` group spans and counts
/// the rest, so tracing a huge dispatch cannot grow without bound.
#[test]
fn a_trace_keeps_at_most_max_trace_spans_and_counts_the_rest() {
    use sm5sim::sim_sched::MAX_TRACE_SPANS;
    // one thread per group, a 1-group-wide TGSM barrier-free store: groups
    // are not packed under a trace (one span each)
    let p = program(
        "
cs_5_0
dcl_uav_raw u0
dcl_tgsm_raw g0, 4
dcl_thread_group 1, 1, 1
store_raw g0.x, l(0), l(1)
ret
",
    );
    let out = Buffer::zeroed(4).unwrap();
    let groups = [65535u32, 17, 1];
    let total = 65535u64 * 17;
    let extra = total - MAX_TRACE_SPANS as u64;
    for threads in [1, 2] {
        let options = DispatchOptions {
            threads,
            profile: true,
            trace: true,
            ..Default::default()
        };
        let prof = run(&p, &out, groups, &options);
        assert!(prof.spans.len() <= MAX_TRACE_SPANS, "{}", prof.spans.len());
        let covered: u64 = prof.spans.iter().map(|s| u64::from(s.groups)).sum();
        assert_eq!(
            covered + prof.spans_dropped,
            total,
            "{threads} threads: every group is a span kept or counted as dropped"
        );
        assert!(prof.spans_dropped >= extra, "{}", prof.spans_dropped);
    }
}

/// Per instruction: lane- and warp-instructions, hand-computed on one
/// group of 64 threads in two warps of 32, where the odd threads take a
/// branch: its instructions issue in both warps with half the lanes (SIMD
/// efficiency 50%), the `if` diverges in both, and the `endif` counts the
/// lanes that reach it.
#[test]
fn per_instruction_counts_show_a_branch_half_the_lanes_take() {
    // a branch every lane of a warp takes alike does not diverge
    let uniform = program(
        "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 64, 1, 1
uge r0.x, vThreadIDInGroupFlattened.x, l(32)
if_nz r0.x
  store_raw u0.x, l(0), r0.x
endif
ret
",
    );
    let out = Buffer::zeroed(16).unwrap();
    let options = DispatchOptions {
        threads: 1,
        warp_width: 32,
        profile: true,
        fast_paths: sm5sim::sim_sched::FastPaths::NONE,
        ..Default::default()
    };
    let prof = run(&uniform, &out, [1, 1, 1], &options);
    assert_eq!(prof.exec.diverged_by_pc.iter().sum::<u64>(), 0);

    let p = program(
        "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 64, 1, 1
and r0.x, vThreadIDInGroupFlattened.x, l(1)
if_nz r0.x
  ishl r1.x, vThreadIDInGroupFlattened.x, l(2)
  store_raw u0.x, r1.x, r0.x
endif
ret
",
    );
    let out = Buffer::zeroed(4 * 64).unwrap();
    let options = DispatchOptions {
        threads: 1,
        warp_width: 32,
        profile: true,
        ..Default::default()
    };
    let prof = run(&p, &out, [1, 1, 1], &options);
    let got: Vec<(String, u64, u64, u64)> = prof
        .exec
        .by_instruction(&p)
        .into_iter()
        .map(|i| (i.text, i.lane_instructions, i.warp_instructions, i.diverged))
        .collect();
    // (the `if` diverged in both warps: half their lanes took it)
    let want = [
        ("and r0.x, vThreadIDInGroupFlattened.x, l(1)", 64, 2, 0),
        ("if_nz r0.x", 64, 2, 2),
        ("ishl r1.x, vThreadIDInGroupFlattened.x, l(2)", 32, 2, 0),
        ("store_raw u0.x, r1.x, r0.x", 32, 2, 0),
        ("endif", 32, 2, 0),
        ("ret", 64, 2, 0),
    ];
    let want: Vec<(String, u64, u64, u64)> = want
        .iter()
        .map(|&(t, l, w, d)| (t.to_string(), l, w, d))
        .collect();
    assert_eq!(got, want);
    assert_eq!(prof.exec.warp_width(), 32);
    // the dword offsets are the listing's, in order
    let dwords: Vec<u32> = prof
        .exec
        .by_instruction(&p)
        .iter()
        .map(|i| i.dword)
        .collect();
    assert!(dwords.windows(2).all(|d| d[0] < d[1]), "{dwords:?}");
}

/// `--annotate`: the listing with each executed instruction's counts in a
/// margin; declarations have none.
#[test]
fn cli_annotates_the_listing_with_counts() {
    let job = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/reduce/reduce.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(["run", job, "--threads", "1", "--annotate"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = |needle: &str| {
        stdout
            .lines()
            .find(|l| l.trim_end().ends_with(needle))
            .unwrap_or_else(|| panic!("no line for {needle}:\n{stdout}"))
            .to_string()
    };
    // declarations: an empty margin
    assert!(line("dcl_temps 2").trim_start().starts_with("dcl_temps"));
    // the first reduction step runs in half the lanes of each 256-lane warp,
    // over both dispatches of the job
    let first: Vec<String> = line("iadd r0.y, vThreadIDInGroupFlattened.x, l(128)")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let all: Vec<String> = line("ult r0.x, vThreadID.x, cb0[0].x")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let n = |v: &[String], i: usize| v[i].parse::<u64>().unwrap();
    assert_eq!(2 * n(&first, 0), n(&all, 0), "{stdout}");
    assert_eq!(n(&first, 1), n(&all, 1));
    assert_eq!(first[2], "50%");
    assert_eq!(all[2], "100%");
}

/// Every event against the Trace Event Format's rules for its phase: `name`
/// and `ph` strings, an integer `pid`; complete events (`X`) a numeric
/// `ts` and `dur` and an integer `tid`; counters (`C`) a numeric `ts` and
/// numeric `args`; metadata (`M`) a string `args.name`, and an integer
/// `tid` for a thread name.
fn check_trace_events(events: &[serde_json::Value]) {
    for e in events {
        assert!(e["name"].is_string(), "{e}");
        assert!(e["pid"].is_u64(), "{e}");
        match e["ph"].as_str() {
            Some("X") => {
                assert!(e["ts"].is_number() && e["dur"].is_number(), "{e}");
                assert!(e["dur"].as_f64().unwrap() >= 0.0, "{e}");
                assert!(e["tid"].is_u64(), "{e}");
            }
            Some("C") => {
                assert!(e["ts"].is_number(), "{e}");
                let args = e["args"].as_object().unwrap();
                assert!(
                    !args.is_empty() && args.values().all(|v| v.is_number()),
                    "{e}"
                );
            }
            Some("M") => {
                assert!(e["args"]["name"].is_string(), "{e}");
                if e["name"] == "thread_name" {
                    assert!(e["tid"].is_u64(), "{e}");
                } else {
                    assert_eq!(e["name"], "process_name", "{e}");
                }
            }
            other => panic!("phase {other:?}: {e}"),
        }
    }
}

/// Coalescing: a warp of 32 lanes reading consecutive dwords touches two
/// 64-byte lines; with a stride of 64 bytes, 32; every lane on one word,
/// one. The bytes are the lanes' dwords either way.
#[test]
fn per_instruction_lines_show_contiguous_against_strided_access() {
    let shader = |stride: u32| {
        program(&format!(
            "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 32, 1, 1
imul null, r0.x, vThreadIDInGroupFlattened.x, l({stride})
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, r0.x, u0.xxxx
store_raw u0.x, l(0), r0.x
ret
"
        ))
    };
    let mut got = Vec::new();
    for stride in [4, 64, 0] {
        let p = shader(stride);
        let out = Buffer::zeroed(64 * 32).unwrap();
        let options = DispatchOptions {
            threads: 1,
            profile: true,
            profile_memory: true,
            ..Default::default()
        };
        let prof = run(&p, &out, [1, 1, 1], &options);
        let load = prof
            .exec
            .by_instruction(&p)
            .into_iter()
            .find(|i| i.text.starts_with("ld_raw"))
            .unwrap();
        got.push((stride, load.bytes, load.lines, load.warp_instructions));
    }
    assert_eq!(got, [(4, 128, 2, 1), (64, 128, 32, 1), (0, 128, 1, 1)]);
}

/// The committed `/Zi` builds (`tests/debug_info/`).
fn zi(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/debug_info")
        .join(name)
}

/// `inl.hlsl` (straight-line code, calls inlined from an include) on two
/// groups of 64: each instruction runs 128 lanes once per warp, and fxc's
/// listing puts one instruction on inl.hlsl lines 11, 6 and 14, one on
/// helpers.hlsli line 3 and three on inl.hlsl line 13.
#[test]
fn per_line_counts_sum_the_instructions_of_each_hlsl_line() {
    let bytes = std::fs::read(zi("inl.dxbc")).unwrap();
    let p = Program::from_dxbc(&bytes, &Default::default()).unwrap();
    let out = Buffer::zeroed(4 * 128).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
        ..Default::default()
    };
    let options = DispatchOptions {
        threads: 1,
        profile: true,
        ..Default::default()
    };
    let d = dispatch_with(&p, &b, [2, 1, 1], &options, options.mode()).unwrap();
    let prof = d.profile.unwrap();
    let map = p.source_map.as_ref().unwrap();
    let lines = prof.exec.by_line(&p).expect("debug information");
    let got: Vec<(String, u32, usize, u64, u64)> = lines
        .iter()
        .map(|l| {
            (
                map.files[l.at.file].base_name().to_string(),
                l.at.line,
                l.instructions,
                l.lane_instructions,
                l.warp_instructions,
            )
        })
        .collect();
    let mut want = vec![
        ("inl.hlsl".to_string(), 6, 1, 128, 2),
        ("inl.hlsl".to_string(), 11, 1, 128, 2),
        ("inl.hlsl".to_string(), 13, 3, 384, 6),
        ("inl.hlsl".to_string(), 14, 1, 128, 2),
        ("helpers.hlsli".to_string(), 3, 1, 128, 2),
    ];
    let mut got_sorted = got.clone();
    got_sorted.sort();
    want.sort();
    assert_eq!(got_sorted, want);
    // every lane-instruction belongs to some line
    let total: u64 = lines.iter().map(|l| l.lane_instructions).sum();
    assert_eq!(total, prof.exec.active_lanes);
    // a program without debug information has no line view
    assert!(prof.exec.by_line(&program(STRAIGHT)).is_none());
}

#[test]
fn cli_annotates_the_hlsl_source_and_names_lines_in_json_and_errors() {
    let sm5sim = || Command::new(env!("CARGO_BIN_EXE_sm5sim"));
    let job = zi("mandelbrot.toml");
    let out = sm5sim()
        .arg("run")
        .arg(&job)
        .args(["--threads", "1", "--annotate"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // the loop's condition, line 15: nine instructions, with counts
    let cond = stdout
        .lines()
        .find(|l| l.contains("while (i < max_iter"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let f: Vec<&str> = cond.split_whitespace().collect();
    assert!(f[0].parse::<u64>().unwrap() > 0, "{cond}");
    assert_eq!((f[3], f[4], f[5]), ("9", "instrs", "15"), "{cond}");
    // a line with no instruction has an empty margin
    let decl = stdout
        .lines()
        .find(|l| l.contains("float zx = 0.0f"))
        .unwrap();
    assert!(decl.trim_start().starts_with("12"), "{decl}");
    // the listing marks where each HLSL line's instructions begin
    assert!(stdout.contains("// mandelbrot.hlsl:22: iterations[dtid.y * width + dtid.x] = i;"));

    let dir = std::env::temp_dir().join(format!("sm5sim-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("p.json");
    let out = sm5sim()
        .arg("run")
        .arg(&job)
        .args(["--threads", "1", "--profile-json"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let step = &v["dispatches"][0];
    let lines = step["source_lines"].as_array().expect("source_lines");
    let l15 = lines.iter().find(|l| l["line"] == 15).unwrap();
    assert_eq!(l15["instructions"], 9);
    assert!(l15["file"].as_str().unwrap().ends_with("mandelbrot.hlsl"));
    let store = step["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["text"].as_str().unwrap().starts_with("store_structured"))
        .unwrap();
    assert_eq!(store["hlsl"], "mandelbrot.hlsl:22");
    let _ = std::fs::remove_dir_all(&dir);

    // the watchdog names the HLSL line it stopped at
    let out = sm5sim()
        .arg("run")
        .arg(&job)
        .args(["--threads", "1", "--max-instructions", "1000"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("mandelbrot.hlsl:"), "{stderr}");

    // the checker names the racing store's and load's HLSL lines
    let out = sm5sim().arg("check").arg(zi("race.toml")).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("race.hlsl:14: store_structured g0.x")
            && stdout.contains("race.hlsl:15: ld_structured r0.x"),
        "{stdout}"
    );
}

/// Texture traffic by HLSL name: `sample_level` (one `sample_l` per thread,
/// then one `store_uav_typed`) through a point sampler on 16×16 threads
/// (one texel a sample) and the default linear one on 8×8 (the 2×2 around
/// each coordinate: four texels a sample, one mip).
#[test]
fn texture_traffic_counts_texels_and_samples_by_filter() {
    let run = |job: &str| -> serde_json::Value {
        let dir = std::env::temp_dir().join(format!("sm5sim-tex-{}-{job}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let json = dir.join("p.json");
        let out = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .arg("run")
            .arg(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/texture_jobs")
                    .join(job),
            )
            .arg("--profile-json")
            .arg(&json)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        v["dispatches"][0]["resources"].clone()
    };
    let find = |rs: &serde_json::Value, reg: &str| {
        rs.as_array()
            .unwrap()
            .iter()
            .find(|r| r["register"] == reg)
            .unwrap_or_else(|| panic!("{reg}: {rs}"))
            .clone()
    };
    let point = run("sample_point.toml");
    let t0 = find(&point, "t0");
    assert_eq!(t0["name"], "src");
    assert_eq!(t0["texels_read"], 256);
    assert_eq!(t0["samples"]["point"], 256);
    assert_eq!(t0["samples"]["bilinear"], 0);
    let u0 = find(&point, "u0");
    assert_eq!(u0["name"], "dst");
    assert_eq!(
        (u0["texels_written"].clone(), u0["texels_read"].clone()),
        (256.into(), 0.into())
    );
    let linear = run("sample_linear.toml");
    let t0 = find(&linear, "t0");
    assert_eq!(t0["texels_read"], 256);
    assert_eq!(t0["samples"]["bilinear"], 64);
    assert_eq!(t0["samples"]["point"], 0);
    assert_eq!(find(&linear, "u0")["texels_written"], 64);
}

/// Contention: a compare-exchange retry loop in which each of 32 lanes adds
/// 1 to word `lane % 4` (8 lanes a word). In lockstep a word's lanes succeed
/// one a pass, so each word is tried in 8 passes: 32 word-passes for the
/// compare-exchange, and 4·(1 + 2 + … + 8) = 144 lane attempts, 4.5 lanes
/// a word; the same whether the loop runs in lockstep or at once. A
/// TGSM `atomic_iadd` by 8 lanes on one word: 8 lanes a word.
#[test]
fn atomic_contention_counts_lanes_per_word() {
    let p = program(
        "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 16
dcl_thread_group 32, 1, 1
and r0.x, vThreadIDInGroupFlattened.x, l(3)
ishl r0.x, r0.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
loop
  iadd r0.z, r0.y, l(1)
  imm_atomic_cmp_exch r0.w, u0, r0.x, r0.y, r0.z
  ieq r1.x, r0.w, r0.y
  breakc_nz r1.x
  mov r0.y, r0.w
endloop
and r1.y, vThreadIDInGroupFlattened.x, l(3)
if_z r1.y
  atomic_iadd g0, l(0), l(1)
endif
ret
",
    );
    for fast_paths in [
        sm5sim::sim_sched::FastPaths::ALL,
        sm5sim::sim_sched::FastPaths::NONE,
    ] {
        let out = Buffer::zeroed(16).unwrap();
        let options = DispatchOptions {
            threads: 1,
            warp_width: 32,
            profile: true,
            profile_memory: true,
            fast_paths,
            ..Default::default()
        };
        let prof = run(&p, &out, [1, 1, 1], &options);
        assert_eq!(out.to_words(), vec![8; 4]);
        let at = |text: &str| instruction(&prof.exec, &p, text);
        let cas = at("imm_atomic_cmp_exch");
        assert_eq!(
            (
                cas.lane_instructions,
                cas.warp_instructions,
                cas.sampled_atomic_lanes,
                cas.sampled_atomic_words
            ),
            (144, 8, 144, 32),
            "{fast_paths:?}"
        );
        let add = at("atomic_iadd");
        assert_eq!(
            (
                add.lane_instructions,
                add.sampled_atomic_lanes,
                add.sampled_atomic_words
            ),
            (8, 8, 1)
        );
    }
}

/// Lanes whose addresses repeat every 4 lanes (`i % 4`, a slot per lane)
/// touch the lines of the first four: one 64-byte line per warp of 32,
/// 128 bytes; and a memory profile's contention sample takes every one of
/// an atomic's first warp-instructions, then one in sixteen.
#[test]
fn repeating_addresses_count_their_lines_once_and_atomics_are_sampled() {
    let p = program(
        "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 32, 1, 1
and r0.x, vThreadIDInGroupFlattened.x, l(3)
ishl r0.x, r0.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
atomic_iadd u0, r0.x, l(1)
ret
",
    );
    let out = Buffer::zeroed(16).unwrap();
    let options = DispatchOptions {
        threads: 1,
        warp_width: 32,
        profile: true,
        profile_memory: true,
        ..Default::default()
    };
    let groups = 300u32;
    let prof = run(&p, &out, [groups, 1, 1], &options);
    let at = |text: &str| instruction(&prof.exec, &p, text);
    let ld = at("ld_raw");
    assert_eq!((ld.lines, ld.bytes), (groups as u64, 128 * groups as u64));
    let add = at("atomic_iadd");
    // visits 0..300: all of the first 256, then 256, 272 and 288
    let sampled = sm5sim::sim_core::exec::ATOMIC_SAMPLES_EXACT + 3;
    assert_eq!(add.sampled_atomic_words, 4 * sampled);
    assert_eq!(add.sampled_atomic_lanes, 32 * sampled);
    assert_eq!(out.to_words(), vec![8 * groups; 4]);
}

/// Typed buffer loads and stores count their bytes and 64-byte lines too:
/// 32 lanes loading consecutive R32_UINT elements touch 2 lines (128
/// bytes); storing R32G32B32A32 elements 4 apart (64 bytes apart), 32.
#[test]
fn typed_buffer_accesses_count_bytes_and_lines() {
    let p = program(
        "
cs_5_0
dcl_uav_typed_buffer (uint,uint,uint,uint) u0
dcl_uav_typed_buffer (uint,uint,uint,uint) u1
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 32, 1, 1
ld_uav_typed r0.x, vThreadIDInGroupFlattened.xxxx, u0.xxxx
ishl r1.x, vThreadIDInGroupFlattened.x, l(2)
store_uav_typed u1.xyzw, r1.xxxx, r0.xxxx
ret
",
    );
    let a = Buffer::zeroed(4 * 32).unwrap();
    let c = Buffer::zeroed(16 * 128).unwrap();
    let b = Bindings {
        uavs: vec![
            Some(BufferView::typed(&a, sm5sim::sim_mem::Format::R32_UINT)),
            Some(BufferView::typed(
                &c,
                sm5sim::sim_mem::Format::R32G32B32A32_UINT,
            )),
        ],
        ..Default::default()
    };
    let options = DispatchOptions {
        threads: 1,
        warp_width: 32,
        profile: true,
        profile_memory: true,
        ..Default::default()
    };
    let d = dispatch_with(&p, &b, [1, 1, 1], &options, options.mode()).unwrap();
    let prof = d.profile.unwrap();
    let at = |text: &str| instruction(&prof.exec, &p, text);
    let ld = at("ld_uav_typed");
    assert_eq!((ld.bytes, ld.lines), (128, 2));
    let st = at("store_uav_typed");
    assert_eq!((st.bytes, st.lines), (32 * 16, 32));
}
