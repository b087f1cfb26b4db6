//! The differential oracle of the fast paths (`sim-core/src/exec/README.md`):
//! generated programs run under the reference path ([`FastPaths::NONE`]),
//! all paths, and all but each one, at several warp widths; the UAV words,
//! the TGSM words, every thread's live registers and the executor's counts
//! must be the same bits in every run, and so must the profile (every
//! per-instruction count), which must not change the run either. (Live: r0–r3 of the ALU and loop
//! generators, which store them at the end; the memory generator's
//! registers are all dead at its end. A dead register may hold other bits:
//! the row path writes inactive lanes unblended where liveness shows the
//! value is never read, and that is the point of it.)

use super::tests::{random_loop_shader, random_memory_shader, random_shader, CB_WORDS};
use super::*;
use crate::isa::lanes::tests::Rng;
use crate::program::*;
use sim_mem::{Bindings, BufferView};

/// What a run leaves behind.
#[derive(Debug, PartialEq, Eq)]
struct State {
    uav: Vec<u32>,
    tgsm: Vec<u32>,
    /// per thread (`SV_GroupIndex`), r0.x, r0.y, …, r3.w
    regs: Vec<Vec<u32>>,
    stats: ExecStats,
    /// the profile, when the run was profiled
    profile: Option<Profile>,
}

fn run(prog: &Program, w: usize, paths: FastPaths, live: usize, profile: bool) -> State {
    let cb = CB_WORDS.to_vec();
    let input: Vec<u32> = (0..50u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let out = sim_mem::Buffer::zeroed(16384).unwrap();
    let inp = sim_mem::Buffer::from_words(&input);
    let b = Bindings {
        constant_buffers: vec![Some(&cb[..])],
        uavs: vec![
            Some(BufferView::raw(&out)),
            Some(BufferView::structured(&inp, 4).unwrap()),
        ],
        ..Default::default()
    };
    let mut ex = GroupExecutor::new(prog, w).with_fast_paths(paths);
    // the compiled tier's regions compiled at their first run
    ex.set_compile_after(Some(0));
    ex.set_profiling(profile);
    ex.set_memory_profiling(profile);
    ex.run_group([1, 2, 3], &b);
    let temps = (prog.temps as usize).min(live);
    let mut regs = Vec::new();
    for warp in &ex.warps {
        for lane in 0..ex.w {
            if warp.exists[lane] == 0 {
                continue;
            }
            let t = warp.flat[lane] as usize;
            if regs.len() <= t {
                regs.resize(t + 1, Vec::new());
            }
            regs[t] = (0..temps * 4)
                .map(|rc| warp.regs[rc * ex.w + lane])
                .collect();
        }
    }
    State {
        uav: out.to_words(),
        tgsm: ex.mem.tgsm.words().to_vec(),
        regs,
        stats: ex.stats,
        profile: ex.profile().cloned(),
    }
}

/// Every variant: the reference, all, and all but each path.
fn variants() -> Vec<(FastPaths, String)> {
    let mut v = vec![(FastPaths::ALL, "all".to_string())];
    for (p, name) in FastPaths::EACH {
        v.push((FastPaths::ALL.without(p), format!("all but {name}")));
    }
    v
}

#[test]
fn every_fast_path_computes_what_the_reference_computes() {
    let mut rng = Rng(0xd1ff_0000_0000_0001);
    let mut cases = 0;
    for case in 0..90 {
        let (text, live) = match case % 3 {
            0 => (random_shader(&mut rng), 4),
            1 => (random_loop_shader(&mut rng), 4),
            _ => (random_memory_shader(&mut rng, case % 6 == 5), 0),
        };
        let decoded = crate::front::asm::assemble(&text)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let prog = Program::from_decoded(decoded, None)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        // (16: the compiled tier's AVX-512 code, where the CPU has it)
        for w in [1, 8, 16, 40] {
            let reference = run(&prog, w, FastPaths::NONE, live, true);
            assert!(
                reference.uav.iter().any(|&x| x != 0),
                "case {case}: no output"
            );
            for (paths, name) in variants() {
                let got = run(&prog, w, paths, live, true);
                let at = format!("case {case}, warp width {w}, {name}");
                // profiled or not, the same run
                let plain = run(&prog, w, paths, live, false);
                assert_eq!(
                    (&plain.uav, &plain.tgsm, &plain.regs, plain.stats),
                    (&got.uav, &got.tgsm, &got.regs, got.stats),
                    "{at}: profiling changed the run\n{text}"
                );
                assert_eq!(got.profile, reference.profile, "{at}: profile\n{text}");
                assert_eq!(got.uav, reference.uav, "{at}: UAV words\n{text}");
                assert_eq!(got.tgsm, reference.tgsm, "{at}: TGSM words\n{text}");
                assert_eq!(got.stats, reference.stats, "{at}: counts\n{text}");
                for (t, (a, b)) in got.regs.iter().zip(&reference.regs).enumerate() {
                    assert_eq!(a, b, "{at}: thread {t}'s registers\n{text}");
                }
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 90 * 4 * (FastPaths::EACH.len() + 1));
}
