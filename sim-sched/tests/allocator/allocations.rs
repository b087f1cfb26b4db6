//! A steady-state dispatch allocates nothing whose count grows with the
//! number of groups (issue 30): executors and their scratch are made once
//! per worker, not once per piece of work the pool splits off, and each
//! worker keeps its executors for the next dispatch of the program
//! (`GroupExecutor::pooled`), so that a steady run allocates nothing. Measured
//! with the test program's counting global allocator.

use sim_core::front::asm::assemble;
use sim_core::Program;
use sim_mem::{Bindings, Buffer, BufferView};
use sim_sched::{dispatch, DispatchOptions, WARP_WIDTH_GROUP};
use std::sync::atomic::Ordering;

use super::{serial, ALLOCATIONS};

/// saxpy over structured buffers, 64 threads a group: y[i] = 2·x[i] + y[i].
const SAXPY: &str = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 4
dcl_uav_structured u1, 4
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 64, 1, 1
ld_structured r0.x, vThreadID.x, l(0), u0.xxxx
ld_structured r0.y, vThreadID.x, l(0), u1.xxxx
mad r1.x, r0.x, l(2.0), r0.y
store_structured u1.x, vThreadID.x, l(0), r1.x
ret
";

/// Allocations made by the first dispatch of `groups` groups (the program
/// never dispatched before, on a pool already started), and the fewest of
/// five dispatches after it.
fn allocations(p: &Program, groups: u32, threads: usize, warp_width: usize) -> (u64, u64) {
    let n = groups as usize * 64;
    let x = Buffer::zeroed(n * 4).unwrap();
    let y = Buffer::zeroed(n * 4).unwrap();
    let b = Bindings {
        uavs: vec![
            Some(BufferView::structured(&x, 4).unwrap()),
            Some(BufferView::structured(&y, 4).unwrap()),
        ],
        ..Default::default()
    };
    let options = DispatchOptions {
        threads,
        warp_width,
        ..Default::default()
    };
    let count = || {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        dispatch(p, &b, [groups, 1, 1], &options).unwrap();
        ALLOCATIONS.load(Ordering::Relaxed) - before
    };
    let first = count();
    let steady = (0..5).map(|_| count()).min().unwrap();
    (first, steady)
}

/// A program never dispatched before: a fresh load, so no worker has an
/// executor of it parked.
fn saxpy() -> Program {
    Program::from_decoded(assemble(SAXPY).unwrap(), None).unwrap()
}

/// A first dispatch builds an executor per worker, whatever the number of
/// groups; later ones take them up again and allocate nothing at all.
/// Before executors were made per worker, each of rayon's splits of the
/// range made one: 178 allocations for 64 groups and 294 for 16,384 on two
/// threads; made per worker per dispatch, 29 per worker.
#[test]
fn allocations_per_dispatch_do_not_grow_with_the_groups() {
    let _serial = serial();
    // start both pools
    for threads in [1, 2] {
        allocations(&saxpy(), 64, threads, WARP_WIDTH_GROUP);
    }
    for warp_width in [WARP_WIDTH_GROUP, 32] {
        let (small_first, small) = allocations(&saxpy(), 4096, 1, warp_width);
        let (large_first, large) = allocations(&saxpy(), 65535, 1, warp_width);
        println!(
            "1 thread, width {warp_width}: first dispatch {small_first} allocations for 4096 \
             groups, {large_first} for 65535; then {small} and {large}"
        );
        assert!(small_first > 0, "a first dispatch builds its executor");
        assert!(
            large_first <= small_first + 8,
            "1 thread, width {warp_width}: {small_first} allocations for 4096 groups, \
             {large_first} for 65535"
        );
        assert_eq!((small, large), (0, 0), "1 thread, width {warp_width}");
        for groups in [4096, 65535] {
            let (first, two) = allocations(&saxpy(), groups, 2, warp_width);
            println!(
                "2 threads, width {warp_width}: first dispatch {first} allocations for \
                 {groups} groups; then {two}"
            );
            assert!(
                first <= 2 * large_first + 8,
                "2 threads, width {warp_width}: {first} allocations for {groups} groups, \
                 one worker's {large_first}"
            );
            assert_eq!(two, 0, "2 threads, width {warp_width}, {groups} groups");
        }
    }
}
