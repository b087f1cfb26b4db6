//! The watchdog: a runaway shader ends its dispatch with an error naming the
//! group, lane and instruction, within the configured limits, and the next
//! dispatch works.

use sm5sim::sim_core::exec::StopReason;
use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchError, DispatchOptions};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// While word 0 of u0 is 0, group 3's lane 5 loops forever; every other
/// thread stores 1 at word SV_DispatchThreadID + 1 and returns.
const RUNAWAY: &str = "
cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 8, 1, 1
ieq r0.x, vThreadGroupID.x, l(3)
ieq r0.y, vThreadIDInGroupFlattened.x, l(5)
and r0.x, r0.x, r0.y
ld_structured r1.x, l(0), l(0), u0.xxxx
if_nz r0.x
  if_z r1.x
    loop
      iadd r1.y, r1.y, l(1)
    endloop
  endif
endif
iadd r1.z, vThreadID.x, l(1)
store_structured u0.x, r1.z, l(0), l(1)
ret
";

fn setup() -> (Program, Buffer) {
    let p =
        Program::from_decoded(assemble(RUNAWAY).unwrap_or_else(|e| panic!("{e}")), None).unwrap();
    (p, Buffer::zeroed(65 * 4).unwrap())
}

fn bind(out: &Buffer) -> Bindings<'_> {
    Bindings {
        constant_buffers: vec![],
        srvs: vec![],
        uavs: vec![Some(BufferView::structured(out, 4).unwrap())],
        ..Default::default()
    }
}

#[test]
fn a_runaway_loop_hits_the_timeout_and_names_where() {
    let (p, out) = setup();
    let b = bind(&out);
    let start = Instant::now();
    let options = DispatchOptions {
        threads: 2,
        timeout: Some(Duration::from_millis(300)),
        ..Default::default()
    };
    let err = dispatch(&p, &b, [8, 1, 1], &options).unwrap_err();
    let elapsed = start.elapsed();
    assert!(
        elapsed < Duration::from_secs(10),
        "stopped after {elapsed:?}"
    );
    let DispatchError::Runaway(r) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(r.reason, StopReason::Timeout(Duration::from_millis(300)));
    assert_eq!(r.group, [3, 0, 0]);
    assert_eq!(r.lane, 5);
    assert!(
        r.mnemonic == "iadd" || r.mnemonic == "endloop" || r.mnemonic == "loop",
        "{}",
        r.mnemonic
    );
    let msg = err.to_string();
    assert!(
        msg.contains("group (3, 0, 0)") && msg.contains("lane 5"),
        "{msg}"
    );

    // The same program and memory dispatch again; with word 0 set, nobody loops.
    out.write_words(0, &[7]).unwrap();
    let stats = dispatch(&p, &b, [8, 1, 1], &options).unwrap();
    assert_eq!(stats.groups, 8);
    assert!(out.to_words()[1..].iter().all(|&v| v == 1));
}

#[test]
fn a_runaway_loop_hits_the_instruction_budget() {
    let (p, out) = setup();
    let b = bind(&out);
    let options = DispatchOptions {
        threads: 1,
        warp_width: 8,
        max_warp_instructions: 1_000_000,
        timeout: None,
        ..Default::default()
    };
    let err = dispatch(&p, &b, [8, 1, 1], &options).unwrap_err();
    let DispatchError::Runaway(r) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(r.reason, StopReason::InstructionBudget(1_000_000));
    assert_eq!((r.group, r.lane), ([3, 0, 0], 5));
}

#[test]
fn cancelling_stops_a_dispatch() {
    let (p, out) = setup();
    let b = bind(&out);
    let cancel = Arc::new(AtomicBool::new(true));
    let options = DispatchOptions {
        threads: 1,
        timeout: None,
        cancel: Some(cancel),
        ..Default::default()
    };
    let err = dispatch(&p, &b, [8, 1, 1], &options).unwrap_err();
    let DispatchError::Runaway(r) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(r.reason, StopReason::Cancelled);
}

/// Every thread adds 1 to word 0 of u0, which nothing reads (so a worker
/// gathers the adds and applies them when its groups end); then group 3's
/// lane 5 loops forever.
const COUNT_THEN_RUN_AWAY: &str = "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 8, 1, 1
atomic_iadd u0, l(0), l(1)
ieq r0.x, vThreadGroupID.x, l(3)
ieq r0.y, vThreadIDInGroupFlattened.x, l(5)
and r0.x, r0.x, r0.y
if_nz r0.x
  loop
    iadd r1.y, r1.y, l(1)
  endloop
endif
ret
";

#[test]
fn atomics_made_before_a_runaway_stop_are_not_lost() {
    let p = Program::from_decoded(
        assemble(COUNT_THEN_RUN_AWAY).unwrap_or_else(|e| panic!("{e}")),
        None,
    )
    .unwrap();
    for threads in [1, 2] {
        let out = Buffer::zeroed(4).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let options = DispatchOptions {
            threads,
            max_warp_instructions: 100_000,
            timeout: None,
            ..Default::default()
        };
        let err = dispatch(&p, &b, [8, 1, 1], &options).unwrap_err();
        assert!(matches!(err, DispatchError::Runaway(_)), "{err:?}");
        let n = out.to_words()[0];
        if threads == 1 {
            // groups 0–2 whole, then group 3, whose adds came before its loop
            assert_eq!(n, 32);
        } else {
            assert!(n >= 8 && n.is_multiple_of(8), "{n}");
        }
    }
}

/// Each thread runs a loop of `SV_GroupID.x + 3` passes and stores its
/// count: the dispatch's warp-instructions depend on the warp width and
/// the packing, and are measured with no budget first.
const COUNTED_LOOPS: &str = "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadGroupID.x
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 8, 1, 1
iadd r0.x, vThreadGroupID.x, l(3)
mov r0.y, l(0)
loop
  uge r1.x, r0.y, r0.x
  breakc_nz r1.x
  iadd r0.y, r0.y, l(1)
endloop
ishl r1.y, vThreadID.x, l(2)
store_raw u0.x, r1.y, r0.y
ret
";

/// `max_warp_instructions` is exact: a dispatch that executes N
/// warp-instructions finishes under a budget of N and is stopped under
/// N − 1, for budgets down to 0 and 1, at several warp widths and thread
/// counts, and past [`EXACT_BUDGET`] too (where the executors look at the
/// watchdog every 4096 warp-instructions and hand in the rest at the end
/// of each batch).
#[test]
fn the_instruction_budget_is_exact() {
    use sm5sim::sim_core::exec::EXACT_BUDGET;
    let p = Program::from_decoded(
        assemble(COUNTED_LOOPS).unwrap_or_else(|e| panic!("{e}")),
        None,
    )
    .unwrap();
    let run = |groups: u32, threads: usize, warp_width: usize, budget: u64| {
        let out = Buffer::zeroed(groups as usize * 8 * 4).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let options = DispatchOptions {
            threads,
            warp_width,
            max_warp_instructions: budget,
            timeout: None,
            ..Default::default()
        };
        dispatch(&p, &b, [groups, 1, 1], &options)
    };
    for (groups, widths) in [(1u32, [1usize, 8]), (24, [1, 8]), (2400, [8, 8])] {
        for warp_width in widths {
            for threads in [1, 2] {
                let n = run(groups, threads, warp_width, u64::MAX)
                    .unwrap()
                    .warp_instructions;
                if groups == 2400 {
                    assert!(n > EXACT_BUDGET, "{n}");
                }
                let at = format!("{groups} groups, width {warp_width}, {threads} threads: {n}");
                assert_eq!(
                    run(groups, threads, warp_width, n)
                        .unwrap()
                        .warp_instructions,
                    n,
                    "{at}"
                );
                let err = run(groups, threads, warp_width, n - 1).unwrap_err();
                let DispatchError::Runaway(r) = &err else {
                    panic!("{at}: {err:?}")
                };
                assert_eq!(r.reason, StopReason::InstructionBudget(n - 1), "{at}");
            }
        }
    }
    // 0 stops before the first instruction, 1 before the second
    for budget in [0, 1] {
        let err = run(1, 1, 8, budget).unwrap_err();
        let DispatchError::Runaway(r) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(
            (r.group, r.mnemonic.as_str()),
            ([0, 0, 0], ["iadd", "mov"][budget as usize])
        );
    }
}

/// More worker threads than `sim_sched::max_threads` allows are refused
/// before any thread starts, with the figures.
#[test]
fn too_many_threads_are_refused() {
    let (p, out) = setup();
    let b = bind(&out);
    let max = sm5sim::sim_sched::max_threads(sm5sim::sim_sched::cores());
    let options = DispatchOptions {
        threads: max + 1,
        ..Default::default()
    };
    let err = dispatch(&p, &b, [1, 1, 1], &options).unwrap_err();
    assert!(
        matches!(err, DispatchError::TooManyThreads { threads, max: m, .. } if threads == max + 1 && m == max),
        "{err:?}"
    );
    assert!(err.to_string().contains(&format!("at most {max}")), "{err}");
    assert!(out.to_words().iter().all(|&w| w == 0), "nothing ran");
}

/// When every group runs away, the worker that sees the timeout first stops
/// the others; the error reports the timeout whichever worker's error the
/// dispatch returns (the others used to report "cancelled").
#[test]
fn a_timeout_is_reported_as_a_timeout_by_every_worker() {
    let p = Program::from_decoded(
        assemble(
            "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 8, 1, 1\n\
             loop\niadd r0.x, r0.x, l(1)\nendloop\nret\n",
        )
        .unwrap_or_else(|e| panic!("{e}")),
        None,
    )
    .unwrap();
    let out = Buffer::zeroed(4).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    for _ in 0..8 {
        let options = DispatchOptions {
            threads: 2,
            warp_width: 8,
            timeout: Some(Duration::from_millis(20)),
            ..Default::default()
        };
        let err = dispatch(&p, &b, [64, 1, 1], &options).unwrap_err();
        let DispatchError::Runaway(r) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(
            r.reason,
            StopReason::Timeout(Duration::from_millis(20)),
            "{err}"
        );
    }
}

/// The exact budget holds under schedules too, whose warps run in quanta
/// of 1 to 8 instructions: a thread of 40 stores (store k writes k) leaves
/// k = the budget in its word, whichever schedule runs it.
#[test]
fn the_instruction_budget_is_exact_under_schedules() {
    use sm5sim::sim_sched::Schedule;
    let mut text = String::from("cs_5_0\ndcl_uav_raw u0\ndcl_thread_group 1, 1, 1\n");
    for k in 1..=40 {
        text += &format!("store_raw u0.x, l(0), l({k})\n");
    }
    text += "ret\n";
    let p = Program::from_decoded(assemble(&text).unwrap_or_else(|e| panic!("{e}")), None).unwrap();
    for budget in [0u64, 1, 5, 12, 39] {
        for schedule in [None, Some(2), Some(3), Some(7), Some(11)] {
            let out = Buffer::zeroed(4).unwrap();
            let b = Bindings {
                uavs: vec![Some(BufferView::raw(&out))],
                ..Default::default()
            };
            let options = DispatchOptions {
                threads: 1,
                max_warp_instructions: budget,
                timeout: None,
                schedule: schedule.map(Schedule::seeded),
                ..Default::default()
            };
            let err = dispatch(&p, &b, [1, 1, 1], &options).unwrap_err();
            let DispatchError::Runaway(r) = &err else {
                panic!("{err:?}")
            };
            assert_eq!(r.reason, StopReason::InstructionBudget(budget));
            assert_eq!(
                out.to_words()[0],
                budget as u32,
                "budget {budget}, schedule {schedule:?}"
            );
        }
    }
}

/// The API's cancellation handle: a `CancelToken` cancelled from another
/// thread stops a runaway dispatch of a `Kernel` long before its timeout,
/// with an error that says it was cancelled; reset, the kernel runs again.
#[test]
fn a_cancel_token_stops_a_kernel_dispatch_from_another_thread() {
    use sm5sim::api::{CancelToken, Kernel, Options, Resource, Shader};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cancel_token");
    std::fs::create_dir_all(&dir).unwrap();
    let listing = dir.join("runaway.asm");
    std::fs::write(&listing, RUNAWAY).unwrap();
    let shader = Shader::load(&listing).unwrap();
    let out = Resource::from_slice(&[0u32; 65]).unwrap();
    let mut k = Kernel::new(shader);
    k.bind("u0", &out).unwrap();
    let token = CancelToken::new();
    let options = Options::default()
        .threads(2)
        .timeout(Some(Duration::from_secs(60)))
        .cancel(&token);
    let start = Instant::now();
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            token.cancel();
        })
    };
    let e = k.dispatch([8, 1, 1], &options).unwrap_err();
    canceller.join().unwrap();
    assert!(e.is_cancelled(), "{e}");
    assert!(e.to_string().contains("cancelled"), "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    // a timeout is not a cancellation
    token.reset();
    let e = k
        .dispatch(
            [8, 1, 1],
            &options.clone().timeout(Some(Duration::from_millis(100))),
        )
        .unwrap_err();
    assert!(!e.is_cancelled(), "{e}");
    // word 0 set: the loop ends, and the kernel runs to its end
    out.write(0, &[1u32]).unwrap();
    k.dispatch([8, 1, 1], &options).unwrap();
}
