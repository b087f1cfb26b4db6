//! The watchdog: a runaway shader ends its dispatch with an error naming the
//! group, lane and instruction, within the configured limits, and the next
//! dispatch works.

use sm5sim::sim_core::asm::assemble;
use sm5sim::sim_core::exec::StopReason;
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
