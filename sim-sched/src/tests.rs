use super::*;
use sim_core::check::Checker;
use sim_core::exec::packing;
use sim_core::Program;
use sim_mem::Bindings;
use std::sync::Arc;

fn program(text: &str) -> Program {
    let decoded = sim_core::front::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Each thread adds 1 to bin `SV_DispatchThreadID.x & 7` of u0 (a UAV
/// only atomics change: its atomics are gathered per executor).
const BINS8: &str = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 1\n\
    dcl_thread_group 64, 1, 1\nand r0.x, vThreadID.x, l(7)\nishl r0.x, r0.x, l(2)\n\
    atomic_iadd u0, r0.x, l(1)\nret\n";

/// Each thread counts to 10 in a loop and stores the count.
const COUNT10: &str = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 2\n\
    dcl_thread_group 64, 1, 1\nmov r0.x, l(0)\nloop\nuge r0.y, r0.x, l(10)\n\
    breakc_nz r0.y\niadd r0.x, r0.x, l(1)\nendloop\nishl r1.x, vThreadID.x, l(2)\n\
    store_raw u0.x, r1.x, r0.x\nret\n";

fn bins(p: &Program, words: usize, groups: u32, options: &DispatchOptions) -> Vec<u32> {
    let out = sim_mem::Buffer::zeroed(4 * words).unwrap();
    let b = Bindings {
        uavs: vec![Some(sim_mem::BufferView::raw(&out))],
        ..Default::default()
    };
    dispatch(p, &b, [groups, 1, 1], options).unwrap();
    out.to_words()
}

/// A dispatch takes up the executors the last one of its program parked
/// (issue 30) and computes what new ones compute: gathered atomics start
/// from nothing (also into a buffer of another size), a profile from
/// zero, and an executor the watchdog stopped mid-group is not parked.
#[test]
fn parked_executors_run_the_next_dispatch_as_new_ones() {
    let p = program(BINS8);
    let one = DispatchOptions {
        threads: 1,
        ..Default::default()
    };
    // one group runs on this thread, so its executor is parked here
    let parked = sim_core::exec::parked_on_this_thread();
    assert_eq!(bins(&p, 8, 1, &one), vec![8; 8]);
    let after = sim_core::exec::parked_on_this_thread();
    assert_eq!(
        after,
        (parked + 1).min(sim_core::exec::MAX_PARKED_PER_THREAD)
    );
    for _ in 0..3 {
        assert_eq!(bins(&p, 8, 1, &one), vec![8; 8]);
        // taken up and parked again, not one more
        assert_eq!(sim_core::exec::parked_on_this_thread(), after);
    }
    let mut sixteen = vec![8; 8];
    sixteen.extend([0; 8]);
    assert_eq!(bins(&p, 16, 1, &one), sixteen);
    assert_eq!(bins(&p, 8, 1, &one), vec![8; 8]);
    for threads in [1, 2] {
        let o = DispatchOptions {
            threads,
            ..Default::default()
        };
        for _ in 0..3 {
            assert_eq!(bins(&p, 8, 1000, &o), vec![8000; 8], "{threads} threads");
        }
    }

    // the same counts in each profile
    let profiled = DispatchOptions {
        profile: true,
        ..one.clone()
    };
    let out = sim_mem::Buffer::zeroed(4 * 8).unwrap();
    let b = Bindings {
        uavs: vec![Some(sim_mem::BufferView::raw(&out))],
        ..Default::default()
    };
    let counts = |b: &Bindings<'_>| {
        let d = dispatch_with(&p, b, [4, 1, 1], &profiled, Mode::Parallel).unwrap();
        (d.stats, d.profile.expect("profiled").exec.lanes_by_pc)
    };
    let first = counts(&b);
    assert_eq!(first.1.iter().sum::<u64>(), 4 * 64 * 4);
    assert_eq!(first.0.groups, 4);
    assert_eq!(counts(&b), first);
    assert_eq!(counts(&b), first);

    // a dispatch the watchdog stops mid-group, then whole ones
    let q = program(COUNT10);
    let out = sim_mem::Buffer::zeroed(4 * 64).unwrap();
    let b = Bindings {
        uavs: vec![Some(sim_mem::BufferView::raw(&out))],
        ..Default::default()
    };
    let budget = DispatchOptions {
        max_warp_instructions: 5,
        ..one.clone()
    };
    assert!(dispatch(&q, &b, [1, 1, 1], &budget).is_err());
    for _ in 0..2 {
        out.write_words(0, &[0; 64]).unwrap();
        dispatch(&q, &b, [1, 1, 1], &one).unwrap();
        assert_eq!(out.to_words(), vec![10; 64]);
    }
}

/// Every mode goes through the one setup: D3D's limits, an empty
/// dispatch, the watchdog, the progress and the profile are the same
/// in each.
#[test]
fn every_mode_shares_the_limits_the_watchdog_and_the_profile() {
    let p = program(
        "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 1\n\
         dcl_thread_group 4, 1, 1\nishl r0.x, vThreadID.x, l(2)\n\
         store_raw u0.x, r0.x, vThreadID.x\nret\n",
    );
    let out = sim_mem::Buffer::zeroed(4 * 64).unwrap();
    let b = Bindings {
        uavs: vec![Some(sim_mem::BufferView::raw(&out))],
        ..Default::default()
    };
    let schedule = Schedule::seeded(7);
    let mut checker = Checker::new(&p, Default::default());
    fn mode<'a>(k: usize, s: &'a Schedule, c: &'a mut Checker) -> Mode<'a> {
        match k {
            0 => Mode::Parallel,
            1 => Mode::Scheduled(s),
            _ => Mode::Checked(c),
        }
    }
    for k in 0..3 {
        let plain = DispatchOptions {
            threads: 1,
            ..Default::default()
        };
        let too_many = dispatch_with(
            &p,
            &b,
            [65536, 1, 1],
            &plain,
            mode(k, &schedule, &mut checker),
        );
        assert!(
            matches!(too_many, Err(DispatchError::TooManyGroups { .. })),
            "mode {k}: {too_many:?}"
        );
        let empty =
            dispatch_with(&p, &b, [0, 4, 1], &plain, mode(k, &schedule, &mut checker)).unwrap();
        assert_eq!(empty.stats, DispatchStats::default(), "mode {k}");
        let progress = Arc::new(Progress::default());
        let profiled = DispatchOptions {
            profile: true,
            progress: Some(progress.clone()),
            ..plain.clone()
        };
        out.write_words(0, &[0; 64]).unwrap();
        let d = dispatch_with(
            &p,
            &b,
            [16, 1, 1],
            &profiled,
            mode(k, &schedule, &mut checker),
        )
        .unwrap();
        assert_eq!(d.stats.threads, 64, "mode {k}");
        assert_eq!(out.to_words(), (0..64).collect::<Vec<u32>>(), "mode {k}");
        assert_eq!(progress.snapshot().done, 16, "mode {k}");
        let prof = d.profile.expect("profiled");
        // three instructions a thread, every mode
        assert_eq!(prof.exec.active_lanes, 3 * 64, "mode {k}");
        let budget = DispatchOptions {
            max_warp_instructions: 5,
            ..plain.clone()
        };
        let stopped = dispatch_with(
            &p,
            &b,
            [16, 1, 1],
            &budget,
            mode(k, &schedule, &mut checker),
        );
        assert!(
            matches!(stopped, Err(DispatchError::Runaway(_))),
            "mode {k}: {stopped:?}"
        );
    }
}

/// The packing policy: groups that could observe one another are never
/// packed; others to about PACKED_LANES lanes, within the register
/// budget and the executor's most.
#[test]
fn packing_aims_at_packed_lanes_within_the_register_budget() {
    let head = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n";
    let body = "store_raw u0.x, l(0), vThreadIDInGroupFlattened.x\nret\n";
    let limit = |temps: u32, group: [u32; 3], extra: &str| {
        packed_groups_limit(&program(&format!(
            "{head}dcl_temps {temps}\ndcl_thread_group {}, {}, {}\n{extra}{body}",
            group[0], group[1], group[2]
        )))
    };
    assert_eq!(limit(1, [8, 8, 1], ""), (PACKED_LANES / 64) as u32);
    assert_eq!(limit(1, [8, 8, 1], "dcl_tgsm_raw g0, 16\n"), 1);
    assert_eq!(limit(1, [8, 8, 1], "sync_uglobal_t\n"), 1);
    assert_eq!(
        limit(1, [8, 8, 1], "sync_uglobal\n"),
        (PACKED_LANES / 64) as u32
    );
    // 64 temps: 1 KiB a lane, 32 lanes' worth, under one group
    assert_eq!(limit(64, [8, 8, 1], ""), 1);
    // 16 temps: 256 bytes a lane, 128 lanes: two groups of 64
    assert_eq!(limit(16, [8, 8, 1], ""), 2);
    assert_eq!(limit(1, [512, 1, 1], ""), 1);
    assert_eq!(limit(1, [1, 1, 1], ""), PACKED_LANES as u32);
    // a compare-exchange retry loop run at once: more lanes to a warp
    let retry = "mov r0.x, l(0)\nloop\niadd r0.y, r0.x, l(1)\n\
        imm_atomic_cmp_exch r0.z, u0, l(0), r0.x, r0.y\nieq r0.w, r0.z, r0.x\n\
        if_nz r0.w\nbreak\nendif\nmov r0.x, r0.z\nendloop\n";
    assert!(
        packing(&program(&format!(
            "{head}dcl_temps 1\ndcl_thread_group 8, 8, 1\n{retry}{body}"
        )))
        .retry_loops
    );
    assert_eq!(limit(1, [8, 8, 1], retry), (PACKED_RETRY_LANES / 64) as u32);
    const { assert!(PACKED_RETRY_LANES > PACKED_LANES) };
}

fn is_permutation(v: &[u64], n: u64) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s == (0..n).collect::<Vec<_>>()
}

#[test]
fn seeded_schedules_draw_permutations_and_widths() {
    let mut widths = std::collections::BTreeSet::new();
    let mut orders = std::collections::BTreeSet::new();
    for i in 0..64 {
        let s = Schedule::seeded(Schedule::derive_seed(7, i));
        let order = s.group_order(37);
        assert!(is_permutation(&order, 37));
        assert_eq!(order, s.group_order(37), "replays");
        orders.insert(order);
        for g in 0..4 {
            let p = s.group_plan(g, 48, 32);
            assert_eq!(p, s.group_plan(g, 48, 32), "replays");
            assert!([1, 2, 4, 8, 16, 32, 48].contains(&p.warp_width));
            widths.insert(p.warp_width);
            let lanes: Vec<u64> = p.lane_order.unwrap().iter().map(|&t| t as u64).collect();
            assert!(is_permutation(&lanes, 48));
            assert!(p.interleave.is_some());
        }
    }
    assert_eq!(widths.len(), 7, "{widths:?}");
    assert!(orders.len() > 60);
    // widths are clamped to the group size
    for i in 0..32 {
        let p = Schedule::seeded(i).group_plan(0, 3, 32);
        assert!((1..=3).contains(&p.warp_width));
    }
}

#[test]
fn the_fixed_schedule_is_linear_and_identity() {
    let s = Schedule::fixed();
    assert!(s.is_fixed());
    assert_eq!(s.group_order(5), vec![0, 1, 2, 3, 4]);
    let p = s.group_plan(3, 256, 32);
    assert_eq!(
        p,
        GroupPlan {
            warp_width: 32,
            lane_order: None,
            interleave: None
        }
    );
    assert_eq!(s.group_plan(0, 8, 32).warp_width, 8);
}

#[test]
fn derived_seeds_are_splitmix64_outputs() {
    let mut st = 42u64;
    let a = splitmix64(&mut st);
    let b = splitmix64(&mut st);
    assert_eq!(Schedule::derive_seed(42, 0), a);
    assert_eq!(Schedule::derive_seed(42, 1), b);
}

/// `in_pool` runs its closure on a worker of the pool of that size (of the
/// global pool for 0, on the calling thread for 1), and dispatches made there with
/// the same `threads` compute what they compute from outside.
#[test]
fn in_pool_runs_on_the_dispatch_pool_and_dispatches_there_alike() {
    assert_eq!(crate::in_pool(1, rayon::current_thread_index), None);
    assert_eq!(crate::in_pool(0, || 7), 7);
    // 0: a worker of the current (global) pool
    assert!(crate::in_pool(0, rayon::current_thread_index).is_some());
    let inside = crate::in_pool(2, || {
        (
            rayon::current_thread_index().is_some(),
            rayon::current_num_threads(),
            crate::batching::in_pool_of(2),
            crate::batching::in_pool_of(3),
        )
    });
    assert_eq!(inside, (true, 2, true, false));
    assert!(!crate::batching::in_pool_of(2));
    let p = program(BINS8);
    let o = DispatchOptions {
        threads: 2,
        ..Default::default()
    };
    let outside = bins(&p, 8, 100, &o);
    assert_eq!(outside, vec![800; 8]);
    for groups in [1, 2, 100] {
        let inside = crate::in_pool(2, || bins(&p, 8, groups, &o));
        assert_eq!(inside, vec![8 * groups; 8], "{groups} groups");
    }
}
