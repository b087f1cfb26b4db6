//! Packed groups: a plain dispatch runs a few small groups that cannot
//! observe one another (no TGSM, no group barrier) as one warp
//! (`GroupExecutor::packed`, `sim_sched::groups_per_batch`). Every result
//! must be what one warp per group gives, on dispatch shapes whose rows do
//! and do not divide into batches.

use sm5sim::sim_core::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, dispatch_profiled, groups_per_batch, DispatchOptions, Progress};
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
const ESCAPE: &str = include_str!("../examples/mandelbrot/mandelbrot.asm");

/// saxpy over float4 structures (the workload's listing) in one-row groups
/// of 24 instead of 128, so that small dispatches pack: the lane-linear
/// addresses of `SV_DispatchThreadID.x`, which packing keeps, and a bounds
/// check that a row of groups overruns.
fn saxpy() -> String {
    let s = include_str!("../examples/saxpy_structured/saxpy_structured.asm");
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
    let most = (sim_core::exec::PACKED_LANES / 64) as u32;
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
    let (stats, prof) = dispatch_profiled(&p, &b, groups, &options).unwrap();
    let prof = prof.unwrap();
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
