//! Packed groups: a plain dispatch runs a few small groups that cannot
//! observe one another (no TGSM, no group barrier) as one warp
//! (`GroupExecutor::packed`, `sim_sched::groups_per_batch`). Every result
//! must be what one warp per group gives, on dispatch shapes whose rows do
//! and do not divide into batches.

use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, dispatch_with, groups_per_batch, DispatchOptions, Progress};
use std::sync::Arc;

/// Every system value of every thread, into a slot of its own (16 words at
/// `SV_DispatchThreadID` flattened over a 64×16 grid of threads), from an
/// 8×4 group; threads of odd groups along x leave early.
const SYSTEM_VALUES: &str = "
cs_5_0
dcl_uav_raw u0
dcl_input vThreadGroupID.xyz
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadID.xyz
dcl_input vThreadIDInGroup.xyz
dcl_temps 2
dcl_thread_group 8, 4, 1
imad r0.x, vThreadID.z, l(16), vThreadID.y
imad r0.x, r0.x, l(64), vThreadID.x
ishl r0.x, r0.x, l(6)
store_raw u0.xyzw, r0.x, vThreadGroupID.xyzx
iadd r0.y, r0.x, l(16)
store_raw u0.xyzw, r0.y, vThreadID.xyzx
and r1.x, vThreadGroupID.x, l(1)
if_nz r1.x
  ret
endif
iadd r0.y, r0.x, l(32)
store_raw u0.xyzw, r0.y, vThreadIDInGroup.xyzx
iadd r0.y, r0.x, l(48)
store_raw u0.x, r0.y, vThreadIDInGroupFlattened.x
ret
";

/// mandelbrot's divergent escape loop: the workload's listing, 8×8 groups.
const ESCAPE: &str = include_str!("../../examples/mandelbrot/mandelbrot.asm");

/// saxpy over float4 structures (the workload's listing) in one-row groups
/// of 24 instead of 128, so that small dispatches pack: the lane-linear
/// addresses of `SV_DispatchThreadID.x`, which packing keeps, and a bounds
/// check that a row of groups overruns.
fn saxpy() -> String {
    let s = include_str!("../../examples/saxpy_structured/saxpy_structured.asm");
    assert!(s.contains("dcl_thread_group 128, 1, 1"));
    s.replace("dcl_thread_group 128, 1, 1", "dcl_thread_group 24, 1, 1")
}

fn program(src: &str) -> Program {
    Program::from_decoded(assemble(src).unwrap_or_else(|e| panic!("{e}")), None).unwrap()
}

/// The output words of one dispatch of `p` over `groups` (u0 a raw view
/// when `stride` is 0, else a structured one, its words first 1.0): with
/// the default warp width (packing) when `packed`, else one warp per group.
fn run(
    p: &Program,
    stride: u32,
    groups: [u32; 3],
    packed: bool,
    threads: usize,
) -> (Vec<u32>, u64, u64) {
    let cb: Vec<u32> = vec![200, 40, 64, 0];
    let x: Vec<u32> = (0..4 * 1000).map(|i| (i as f32 * 0.25).to_bits()).collect();
    let xs = Buffer::from_words(&x);
    let out = Buffer::from_words(&vec![1.0f32.to_bits(); 64 * 16 * 16]);
    let b = Bindings {
        constant_buffers: vec![Some(&cb[..])],
        srvs: vec![Some(BufferView::structured(&xs, 16).unwrap())],
        uavs: vec![Some(match stride {
            0 => BufferView::raw(&out),
            s => BufferView::structured(&out, s).unwrap(),
        })],
        ..Default::default()
    };
    let options = DispatchOptions {
        threads,
        warp_width: if packed {
            DispatchOptions::default().warp_width
        } else {
            p.threads_per_group() as usize
        },
        ..Default::default()
    };
    let s = dispatch(p, &b, groups, &options).unwrap();
    (out.to_words(), s.groups, s.warp_instructions)
}

#[test]
fn packed_dispatches_match_one_warp_per_group() {
    let saxpy = saxpy();
    let shapes: &[(&str, u32, &[[u32; 3]])] = &[
        (
            SYSTEM_VALUES,
            0,
            &[[8, 4, 2], [7, 3, 1], [1, 4, 1], [3, 1, 2]],
        ),
        (ESCAPE, 4, &[[25, 5, 1], [4, 4, 1], [1, 1, 1]]),
        (&saxpy, 16, &[[9, 1, 1], [5, 3, 1], [2, 1, 1]]),
    ];
    let mut packed_any = 0;
    for &(src, stride, dispatches) in shapes {
        let p = program(src);
        for &g in dispatches {
            for threads in [1, 2] {
                let (plain, groups, plain_instr) = run(&p, stride, g, false, threads);
                let (packed, packed_groups, instr) = run(&p, stride, g, true, threads);
                assert_eq!(packed, plain, "{g:?}, {threads} threads\n{src}");
                let want: u64 = g.iter().map(|&d| u64::from(d)).product();
                assert_eq!((groups, packed_groups), (want, want));
                if groups_per_batch(&p, g, threads) > 1 {
                    packed_any += 1;
                    assert!(instr < plain_instr, "{g:?}: {instr} vs {plain_instr}");
                } else {
                    assert_eq!(instr, plain_instr);
                }
            }
        }
    }
    assert!(packed_any >= 10, "{packed_any} dispatches packed");
}

/// The batch size: the program's limit, at most a row of groups, halved
/// while that leaves fewer than four batches per worker.
#[test]
fn batches_keep_every_worker_busy() {
    let p = program(ESCAPE); // 64 lanes: PACKED_LANES / 64 groups per batch at most
    let most = (sm5sim::sim_sched::PACKED_LANES / 64) as u32;
    assert_eq!(groups_per_batch(&p, [128, 128, 1], 2), most);
    assert_eq!(groups_per_batch(&p, [3, 128, 1], 2), 3);
    assert_eq!(groups_per_batch(&p, [1, 128, 1], 16), 1);
    assert_eq!(groups_per_batch(&p, [16, 1, 1], 2), 2);
    assert_eq!(groups_per_batch(&p, [16, 1, 1], 4), 1);
}

/// Progress counts every group of a packed dispatch, and the trace has a
/// span per batch that says how many groups it ran.
#[test]
fn packed_dispatches_count_and_trace_every_group() {
    let p = program(SYSTEM_VALUES);
    let out = Buffer::zeroed(64 * 16 * 64).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let progress = Arc::new(Progress::new());
    let options = DispatchOptions {
        threads: 1,
        profile: true,
        trace: true,
        progress: Some(progress.clone()),
        ..Default::default()
    };
    let groups = [8, 4, 2];
    let d = dispatch_with(&p, &b, groups, &options, options.mode()).unwrap();
    let (stats, prof) = (d.stats, d.profile.unwrap());
    assert_eq!(stats.groups, 64);
    assert_eq!(progress.snapshot().done, 64);
    let k = groups_per_batch(&p, groups, 1);
    assert_eq!(
        k, 8,
        "32 lanes per group: the whole row of 8 groups in one warp"
    );
    assert_eq!(prof.spans.len(), 8);
    assert!(prof.spans.iter().all(|s| s.groups == 8 && s.group[0] == 0));
    let mut rows: Vec<[u32; 2]> = prof
        .spans
        .iter()
        .map(|s| [s.group[1], s.group[2]])
        .collect();
    rows.sort_unstable();
    assert_eq!(
        rows,
        [
            [0, 0],
            [0, 1],
            [1, 0],
            [1, 1],
            [2, 0],
            [2, 1],
            [3, 0],
            [3, 1]
        ]
    );
}

/// A compare-exchange retry loop (cas_float_add's form) over slots
/// `SV_DispatchThreadID.x % slots`, each thread then storing the loop's
/// last `o`, test and `e` at its own 16 bytes of u1.
const CAS_ADD: &str = "
cs_5_0
dcl_constantbuffer CB0[1], immediateIndexed
dcl_resource_structured t0, 4
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.x
dcl_temps 3
dcl_thread_group 16, 1, 1
ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) r0.x, vThreadID.x, l(0), t0.xxxx
udiv null, r0.y, vThreadID.x, cb0[0].x
ishl r0.y, r0.y, l(2)
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.z, r0.y, u0.xxxx
mov r0.w, r0.z
loop
  OP r1.x, r0.x, r0.w
  imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x
  ieq r1.y, r0.w, r1.x
  breakc_nz r1.y
  mov r0.w, r1.x
endloop
mov r1.z, r0.w
ishl r2.x, vThreadID.x, l(4)
store_raw u1.xyz, r2.x, r1.xyzx
ret
";

/// Packed groups of a compare-exchange retry loop run their lanes on one
/// word as a chain at once (`Cx::cas_loop`): on one thread the
/// words and every thread's registers are lockstep's, one warp per group
/// (a profiled dispatch's), bit for bit (a float sum in the same order),
/// over rows of groups on the same words (16 slots), one word for all
/// (1 slot) and words out of bounds (40 slots, 32 words); on two threads,
/// where the threads' chains meet on the words, integer sums are exact.
#[test]
fn packed_compare_exchange_loops_match_lockstep() {
    let values: Vec<u32> = (0..16 * 512)
        .map(|i| (0.3f32 + i as f32 * 0.71).to_bits())
        .collect();
    let vs = Buffer::from_words(&values);
    let run = |p: &Program, slots: u32, groups: u32, profile: bool, threads: usize| {
        let sums = Buffer::from_words(&[0x3f80_0000; 32]);
        let out = Buffer::zeroed(16 * 16 * groups as usize).unwrap();
        let cb = [slots, 0, 0, 0];
        let b = Bindings {
            constant_buffers: vec![Some(&cb[..])],
            srvs: vec![Some(BufferView::structured(&vs, 4).unwrap())],
            uavs: vec![Some(BufferView::raw(&sums)), Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let options = DispatchOptions {
            threads,
            profile,
            ..Default::default()
        };
        dispatch_with(p, &b, [groups, 1, 1], &options, options.mode()).unwrap();
        (sums.to_words(), out.to_words())
    };
    let fadd = program(&CAS_ADD.replace("OP", "add"));
    let packed = groups_per_batch(&fadd, [64, 1, 1], 1);
    assert!(packed > 1, "the loop's groups pack: {packed}");
    for slots in [16, 1, 40] {
        for groups in [64, 37] {
            let lockstep = run(&fadd, slots, groups, true, 1);
            let at_once = run(&fadd, slots, groups, false, 1);
            assert_eq!(at_once, lockstep, "{slots} slots, {groups} groups");
        }
    }
    let iadd = program(&CAS_ADD.replace("OP", "iadd"));
    for slots in [16, 1] {
        let mut want = vec![0x3f80_0000u32; 32];
        for (i, &v) in values.iter().enumerate() {
            let s = &mut want[i % slots as usize];
            *s = s.wrapping_add(v);
        }
        for _ in 0..10 {
            let (sums, _) = run(&iadd, slots, 512, false, 2);
            assert_eq!(sums, want, "{slots} slots");
        }
    }
}
