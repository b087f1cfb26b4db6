//! What loading a program costs in memory stays under the per-unit figures
//! `LoadOptions::max_memory` is checked against
//! (`sim_core::program::memory`), so that a shader refused as too large
//! is one that would not fit, and one admitted does not make the
//! allocator abort (issue 44): decoding per dword, and lowering, the
//! analyses and the executor's plan through a whole dispatch per
//! instruction, for generated shaders of `nop`s, `iadd`s with literals and
//! 4-component `mad`s with swizzles. Measured with the test program's
//! peak-tracking global allocator.

use sim_core::front::asm::assemble;
use sim_core::front::encode::{encode_program, write_container};
use sim_core::program::memory::{DECODE_BYTES_PER_DWORD, PROGRAM_BYTES_PER_INSTRUCTION};
use sim_core::{LoadError, LoadOptions, Program};
use sim_mem::{Bindings, Buffer, BufferView};
use sim_sched::{dispatch, DispatchOptions};
use std::sync::atomic::Ordering;

use super::{serial, NOW, PEAK};

/// Bytes allocated at the peak of `f`, beyond what was allocated before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let r = f();
    (r, PEAK.load(Ordering::Relaxed) - base)
}

const N: usize = 20_000;

/// A container of `N` copies of `line` between a head and a store.
fn container(line: &str) -> Vec<u8> {
    let listing = format!(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_structured u0, 4\n\
         dcl_temps 2\ndcl_thread_group 64, 1, 1\nmov r0.xyzw, l(1, 2, 3, 4)\n\
         mov r1.xyzw, l(0, 0, 0, 0)\n{}store_structured u0.x, l(0), l(0), r1.x\nret\n",
        format!("{line}\n").repeat(N)
    );
    let decoded = assemble(&listing).unwrap_or_else(|e| panic!("{e}"));
    write_container(&encode_program(&decoded).unwrap(), None)
}

#[test]
fn loading_and_planning_take_less_than_the_figures_checked() {
    let _serial = serial();
    let shapes = [
        "nop",
        "iadd r1.x, r1.x, l(7)",
        "mad r1.xyzw, r1.xyzw, l(1.0, 2.0, 3.0, 4.5), r0.wzyx",
    ];
    let uav = Buffer::zeroed(4).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::structured(&uav, 4).unwrap())],
        ..Default::default()
    };
    let options = DispatchOptions {
        threads: 2,
        warp_width: 32,
        ..Default::default()
    };
    for line in shapes {
        let bytes = container(line);
        let dwords = (bytes.len() / 4) as u64;
        let load = LoadOptions::default();
        let (_, decoding) = peak_of(|| Program::decode_with_reflection(&bytes, &load).unwrap());
        let bound = dwords * DECODE_BYTES_PER_DWORD;
        assert!(
            decoding as u64 <= bound,
            "{line}: decoding took {decoding} > {bound}"
        );
        let (instructions, program) = peak_of(|| {
            let p = Program::from_dxbc(&bytes, &load).unwrap();
            dispatch(&p, &b, [2, 1, 1], &options).unwrap();
            p.decoded.instructions.len() as u64
        });
        let bound = instructions * PROGRAM_BYTES_PER_INSTRUCTION;
        assert!(
            program as u64 <= bound,
            "{line}: loading and a dispatch took {program} > {bound}"
        );
        // and not so far under them that shaders that fit are refused
        assert!(
            program as u64 * 4 > bound,
            "{line}: {program} bytes: the figure {PROGRAM_BYTES_PER_INSTRUCTION} is 4× too high"
        );
        println!("{line}: decoding {decoding} B ({dwords} dwords), loading and a dispatch {program} B ({instructions} instructions)");
        // a limit under the estimate is refused before lowering
        let tight = LoadOptions {
            max_memory: Some(bound - 1),
            ..Default::default()
        };
        let (e, refused) = peak_of(|| Program::from_dxbc(&bytes, &tight).unwrap_err());
        assert!(
            matches!(
                e,
                LoadError::TooLarge {
                    phase: "lowering and planning",
                    ..
                }
            ),
            "{e}"
        );
        assert!(
            (refused as u64) < bound / 4,
            "{refused} bytes before the refusal"
        );
    }
}
