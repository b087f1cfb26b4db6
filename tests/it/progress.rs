//! `DispatchOptions::progress`: every dispatch path announces its group
//! count and counts each finished group, which is what the CLI's progress
//! bar shows for dispatches longer than a second.

use sm5sim::sim_core::check::{CheckOptions, Checker};
use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{
    dispatch, dispatch_with, DispatchOptions, Mode, Progress, ProgressSnapshot, Schedule,
};
use std::sync::Arc;

const SHADER: &str = "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 8, 1, 1
ishl r0.x, vThreadID.x, l(2)
store_raw u0.x, r0.x, vThreadID.x
ret
";

fn setup() -> (Program, Buffer) {
    let p =
        Program::from_decoded(assemble(SHADER).unwrap_or_else(|e| panic!("{e}")), None).unwrap();
    // the largest dispatch below has 7 groups of 8 threads
    (p, Buffer::zeroed(4 * 8 * 7).unwrap())
}

fn options(progress: &Arc<Progress>) -> DispatchOptions {
    DispatchOptions {
        threads: 2,
        progress: Some(progress.clone()),
        ..DispatchOptions::default()
    }
}

#[test]
fn plain_scheduled_and_checked_dispatches_count_every_group() {
    let (p, out) = setup();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let progress = Arc::new(Progress::new());
    assert_eq!(
        progress.snapshot(),
        ProgressSnapshot {
            dispatches: 0,
            groups: 0,
            done: 0,
            pass: 0
        }
    );
    dispatch(&p, &b, [5, 4, 2], &options(&progress)).unwrap();
    let s = progress.snapshot();
    assert_eq!((s.dispatches, s.groups, s.done), (1, 40, 40));

    let scheduled = DispatchOptions {
        schedule: Some(Schedule::seeded(3)),
        ..options(&progress)
    };
    dispatch(&p, &b, [7, 1, 1], &scheduled).unwrap();
    let s = progress.snapshot();
    assert_eq!((s.dispatches, s.groups, s.done), (2, 7, 7));

    let mut checker = Checker::new(&p, CheckOptions::default());
    let mode = Mode::Checked(&mut checker);
    dispatch_with(&p, &b, [3, 1, 1], &options(&progress), mode).unwrap();
    let s = progress.snapshot();
    assert_eq!((s.dispatches, s.groups, s.done), (3, 3, 3));

    // every thread ran: the output is each thread's id
    let words = out.to_words();
    assert!(
        words.iter().enumerate().all(|(i, &v)| v == i as u32),
        "{words:?}"
    );
}

#[test]
fn without_progress_nothing_is_counted() {
    let (p, out) = setup();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let progress = Arc::new(Progress::new());
    dispatch(&p, &b, [2, 1, 1], &DispatchOptions::default()).unwrap();
    assert_eq!(progress.snapshot().dispatches, 0);
}

/// The workers of a plain dispatch count finished groups in steps (a
/// thousandth of the dispatch) and the rest when they stop: a dispatch
/// whose group count is no multiple of the step (4999 groups, steps of
/// 4) still ends with every group counted.
#[test]
fn a_large_dispatch_counts_every_group_in_steps() {
    // with TGSM declared, each group is a batch of its own (no packing):
    // one group per count, below the step
    let text = SHADER.replace("dcl_temps 1", "dcl_temps 1\ndcl_tgsm_raw g0, 4");
    let p = Program::from_decoded(assemble(&text).unwrap_or_else(|e| panic!("{e}")), None).unwrap();
    assert_eq!(sm5sim::sim_sched::packed_groups_limit(&p), 1);
    let groups = 4999u32;
    let out = Buffer::zeroed(4 * 8 * groups as usize).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let progress = Arc::new(Progress::new());
    for round in 1..=3u64 {
        dispatch(&p, &b, [groups, 1, 1], &options(&progress)).unwrap();
        let s = progress.snapshot();
        assert_eq!(
            (s.dispatches, s.groups, s.done),
            (round, groups as u64, groups as u64)
        );
    }
    let words = out.to_words();
    assert!(words.iter().enumerate().all(|(i, &v)| v == i as u32));
}

/// Two-pass checking counts its second pass's groups afresh, as pass 2:
/// a dispatch with a suspect word (two threads of a group store to one
/// word) ends at pass 2 with every group counted; one without, at pass 1.
#[test]
fn a_checked_dispatch_counts_its_second_pass() {
    let racy = SHADER.replace(
        "store_raw u0.x, r0.x, vThreadID.x",
        "store_raw u0.x, l(0), vThreadID.x",
    );
    assert_ne!(racy, SHADER);
    for (text, pass) in [(SHADER.to_string(), 1), (racy, 2)] {
        let p =
            Program::from_decoded(assemble(&text).unwrap_or_else(|e| panic!("{e}")), None).unwrap();
        let out = Buffer::zeroed(4 * 8 * 7).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let progress = Arc::new(Progress::new());
        let mut checker = Checker::new(&p, CheckOptions::default());
        let mode = Mode::Checked(&mut checker);
        dispatch_with(&p, &b, [5, 1, 1], &options(&progress), mode).unwrap();
        let s = progress.snapshot();
        assert_eq!((s.dispatches, s.groups, s.done, s.pass), (1, 5, 5, pass));
        assert_eq!(checker.into_findings().is_empty(), pass == 1);
    }
}
