//! The executor's unit tests: the lane functions' edge cases, the fast
//! paths against the general path, and the random-shader generators the
//! differential oracle (`super::differential`) shares.

use super::*;
use crate::analysis::affine::address_steps;
use crate::analysis::fusion::{fused_leaves, thread_id_comps};
use crate::check::{Checker, FindingKind};
use crate::exec::fast::rows::{AlignedWords, MAX_IMM_BYTES};
use crate::exec::kernels::lane_op;
use crate::exec::lines::{load_line, store_line};
use crate::exec::warp::active_lanes;
use crate::exec::watchdog::WATCHDOG_INTERVAL;
use crate::ir::lowered::*;
use crate::isa::lanes::tests::Rng;
use crate::isa::lanes::*;
use crate::isa::opcodes::AluOp;
use crate::program::*;
use sim_mem::{Bindings, BufferView};
use std::sync::atomic::Ordering;
use std::sync::Arc;

#[test]
fn bitfield_edge_cases() {
    assert_eq!(bfi(0, 0, 0xffff_ffff, 0x1234), 0x1234);
    assert_eq!(bfi(8, 2, 0xff, 0), 0x3fc);
    assert_eq!(ubfe(0, 0, 0xffff), 0);
    assert_eq!(ubfe(8, 28, 0xf000_0000), 0xf);
    assert_eq!(ibfe(4, 28, 0x8000_0000), 0xffff_fff8);
    assert_eq!(firstbit_hi(0x8000_0000), 0);
    assert_eq!(firstbit_hi(0x1000_0000), 3);
    assert_eq!(firstbit_hi(0), !0);
    assert_eq!(firstbit_shi(0x8000_0000), 1);
    assert_eq!(firstbit_shi(!0), !0);
    assert_eq!(msad(0x0101_0101, 0x0000_0000, 0xffff_ffff), 3);
}

#[test]
fn float_rules() {
    let denorm = 1u32; // smallest positive denormal
    assert_eq!(ftz(denorm), 0);
    assert_eq!(ftz(denorm | 0x8000_0000), 0x8000_0000);
    assert_eq!(sat(f32::NAN.to_bits()), 0);
    assert_eq!(sat((-0.0f32).to_bits()), 0);
    assert_eq!(sat(2.0f32.to_bits()), 1.0f32.to_bits());
    assert_eq!(fmin(f32::NAN, 1.0), 1.0);
    assert!(fmin(-0.0, 0.0).is_sign_negative());
    assert!(fmax(-0.0, 0.0).is_sign_positive());
}

const FLOAT_OPS: [(&str, usize); 25] = [
    ("add", 2),
    ("mul", 2),
    ("mad", 3),
    ("div", 2),
    ("min", 2),
    ("max", 2),
    ("exp", 1),
    ("log", 1),
    ("frc", 1),
    ("round_ne", 1),
    ("round_ni", 1),
    ("round_pi", 1),
    ("round_z", 1),
    ("rcp", 1),
    ("rsq", 1),
    ("sqrt", 1),
    ("eq", 2),
    ("ne", 2),
    ("lt", 2),
    ("ge", 2),
    ("mov", 1),
    ("dp2", 2),
    ("dp3", 2),
    ("dp4", 2),
    ("ftoi", 1),
];
const INT_OPS: [(&str, usize); 32] = [
    ("movc", 3),
    ("iadd", 2),
    ("imad", 3),
    ("imax", 2),
    ("imin", 2),
    ("umax", 2),
    ("umin", 2),
    ("ineg", 1),
    ("ieq", 2),
    ("ine", 2),
    ("ilt", 2),
    ("ige", 2),
    ("ult", 2),
    ("uge", 2),
    ("msad", 3),
    ("and", 2),
    ("or", 2),
    ("xor", 2),
    ("not", 1),
    ("ishl", 2),
    ("ishr", 2),
    ("ushr", 2),
    ("ubfe", 3),
    ("ibfe", 3),
    ("bfi", 4),
    ("bfrev", 1),
    ("countbits", 1),
    ("firstbit_hi", 1),
    ("firstbit_lo", 1),
    ("firstbit_shi", 1),
    ("utof", 1),
    ("f16tof32", 1),
];

/// A random source operand in fxc syntax, with a modifier where `float`.
fn random_src(rng: &mut Rng, float: bool) -> String {
    const SWZ: &str = "xyzw";
    let swz: String = (0..4)
        .map(|_| SWZ.as_bytes()[rng.below(4)] as char)
        .collect();
    let base = match rng.below(10) {
        0 => {
            // raw bits: small integers, floats, denormals, NaN, infinities
            let vals = [
                0u32,
                1,
                2,
                31,
                0x8000_0000,
                0x3f80_0000,
                0xbf00_0000,
                0x0000_0001,
                0x807f_ffff,
                0x7fc0_0000,
                0x7f80_0000,
                0x4b00_0001,
                0xffff_ffff,
                0x0012_3456,
            ];
            let l: Vec<String> = (0..4)
                .map(|_| format!("0x{:08x}", vals[rng.below(vals.len())]))
                .collect();
            return format!("l({})", l.join(", "));
        }
        1 => format!("vThreadID.{swz}"),
        2 => format!("vThreadIDInGroup.{swz}"),
        3 => format!("vThreadGroupID.{swz}"),
        4 => "vThreadIDInGroupFlattened.x".to_string(),
        5 => format!("cb0[{}].{swz}", rng.below(2)),
        _ => format!("r{}.{swz}", rng.below(4)),
    };
    match (float, rng.below(6)) {
        (true, 0) => format!("-{base}"),
        (true, 1) => format!("|{base}|"),
        (true, 2) => format!("-|{base}|"),
        (false, 0) => format!("-{base}"),
        _ => base,
    }
}

/// A random component-wise ALU instruction over r0–r3 (a line of fxc
/// syntax), with `_sat` now and then where `sat`.
pub(super) fn random_alu(rng: &mut Rng, sat: bool) -> String {
    let float = rng.below(2) == 0;
    let (op, n) = if float {
        FLOAT_OPS[rng.below(FLOAT_OPS.len())]
    } else {
        INT_OPS[rng.below(INT_OPS.len())]
    };
    let no_sat = ["eq", "ne", "lt", "ge", "ftoi"];
    let sat = if sat && float && !no_sat.contains(&op) && rng.below(5) == 0 {
        "_sat"
    } else {
        ""
    };
    let mask = loop {
        let m: String = "xyzw".chars().filter(|_| rng.below(2) == 0).collect();
        if !m.is_empty() {
            break m;
        }
    };
    let srcs: Vec<String> = (0..n).map(|_| random_src(rng, float)).collect();
    format!("{op}{sat} r{}.{mask}, {}\n", rng.below(4), srcs.join(", "))
}

/// A random shader of component-wise ALU instructions (some inside a
/// lane-dependent `if`) over r0–r3, which it stores to u0 at the end.
pub(super) fn random_shader(rng: &mut Rng) -> String {
    let mut s = String::from(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\n\
         dcl_constantbuffer CB0[2], immediateIndexed\ndcl_uav_raw u0\n\
         dcl_input vThreadGroupID.xyz\ndcl_input vThreadIDInGroupFlattened\n\
         dcl_input vThreadID.xyz\ndcl_input vThreadIDInGroup.xyz\n\
         dcl_temps 5\ndcl_thread_group 40, 1, 1\n\
         utof r0.xyzw, vThreadID.xyzx\nmov r1.xyzw, vThreadIDInGroup.xyzx\n\
         mov r2.xyzw, cb0[0].xyzw\nmov r3.xyzw, cb0[1].wzyx\n",
    );
    let mut depth = 0;
    for _ in 0..24 {
        if depth == 0 && rng.below(6) == 0 {
            let c = rng.below(40);
            s += &format!("ult r4.x, vThreadIDInGroupFlattened.x, l({c})\nif_nz r4.x\n");
            depth += 1;
        } else if depth > 0 && rng.below(4) == 0 {
            s += "endif\n";
            depth -= 1;
        }
        s += &random_alu(rng, true);
    }
    if depth > 0 {
        s += "endif\n";
    }
    s += "ishl r4.x, vThreadIDInGroupFlattened.x, l(6)\n";
    for r in 0..4 {
        s += &format!("store_raw u0.xyzw, r4.x, r{r}.xyzw\niadd r4.x, r4.x, l(16)\n");
    }
    s + "ret\n"
}

/// The constant buffer of the generated ALU programs (`cb0[0]`, `cb0[1]`):
/// a float, small integers, a denormal, a negative float, all but the low
/// bits set, 10.0 and zero.
pub(super) const CB_WORDS: [u32; 8] = [
    0x3f80_0000,
    0x0000_0003,
    0x8000_0001,
    0xc040_0000,
    7,
    0xffff_fff0,
    0x4120_0000,
    0,
];

/// Runs one group of `prog` at warp width `w`, fast path on or off; u0's words.
fn run_alu_shader(prog: &Program, w: usize, fast: bool) -> (Vec<u32>, usize) {
    let cb = CB_WORDS.to_vec();
    let out = sim_mem::Buffer::zeroed(40 * 64).unwrap();
    let b = Bindings {
        constant_buffers: vec![Some(&cb[..])],
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let mut ex = GroupExecutor::new(prog, w);
    let resolved = ex.plan.iter().filter_map(|s| s.row()).count();
    if !fast {
        ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::ROW_ALU));
    }
    ex.run_group([1, 2, 3], &b);
    (out.to_words(), resolved)
}

/// The pre-resolved ALU path computes exactly what the general path
/// computes, and both what warps of one lane compute: random shaders
/// over every operand kind, modifier, swizzle and mask, in full and
/// partial warps (a lane-dependent `if`; 40 threads in warps of 1, 3, 8,
/// 32 and 40), compared bit for bit.
#[test]
fn fast_alu_path_matches_general_path() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut ran, mut resolved) = (0, 0);
    for case in 0..300 {
        let text = random_shader(&mut rng);
        let decoded = crate::front::asm::assemble(&text)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let prog = Program::from_decoded(decoded, None)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let (one, _) = run_alu_shader(&prog, 1, false);
        for w in [1, 3, 8, 32, 40] {
            let (general, _) = run_alu_shader(&prog, w, false);
            let (fast, n) = run_alu_shader(&prog, w, true);
            assert_eq!(fast, general, "case {case}, warp width {w}\n{text}");
            // and bit for bit what lanes one by one compute (NaNs are
            // canonical, so not even their payloads depend on the width)
            assert_eq!(general, one, "case {case}, warp width {w} vs 1\n{text}");
            resolved += n;
            ran += 1;
        }
    }
    // most instructions take the fast path (the stores do not)
    assert!(
        resolved > ran * 15,
        "{resolved} fast instructions in {ran} runs"
    );
}

/// A random shader whose ALU instructions (over r0–r3) run in a loop
/// that lanes leave after different numbers of passes, by `breakc`
/// and `continuec` (some in an `if` or `else`), then a tail that
/// overwrites some registers, then stores of r0–r3: many writes whose
/// destination is dead where the inactive lanes resume, and many that
/// are not.
pub(super) fn random_loop_shader(rng: &mut Rng) -> String {
    let mut s = String::from(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\n\
         dcl_constantbuffer CB0[2], immediateIndexed\ndcl_uav_raw u0\n\
         dcl_input vThreadGroupID.xyz\ndcl_input vThreadIDInGroupFlattened\n\
         dcl_input vThreadID.xyz\ndcl_input vThreadIDInGroup.xyz\n\
         dcl_temps 6\ndcl_thread_group 40, 1, 1\n\
         utof r0.xyzw, vThreadID.xyzx\nmov r1.xyzw, vThreadIDInGroup.xyzx\n\
         mov r2.xyzw, cb0[0].xyzw\nmov r3.xyzw, cb0[1].wzyx\nmov r5.x, l(0)\n\
         loop\nuge r4.x, r5.x, l(4)\nbreakc_nz r4.x\niadd r5.x, r5.x, l(1)\n",
    );
    // a lane-dependent condition in r4.y: the lane number against a
    // random bound, mixed with the pass number
    let cond = |rng: &mut Rng| {
        format!(
            "iadd r4.y, vThreadIDInGroupFlattened.x, r5.x\nand r4.y, r4.y, l({})\n\
             ult r4.y, r4.y, l({})\n",
            [7, 15, 31][rng.below(3)],
            rng.below(20)
        )
    };
    let mut depth = 0;
    for _ in 0..16 {
        match rng.below(8) {
            0 if depth == 0 => {
                s += &cond(rng);
                s += "if_nz r4.y\n";
                depth = 1;
            }
            1 if depth == 1 => {
                s += "else\n";
                depth = 2;
            }
            2 if depth > 0 => {
                s += "endif\n";
                depth = 0;
            }
            3 => {
                s += &cond(rng);
                s += ["breakc_nz r4.y\n", "continuec_nz r4.y\n"][rng.below(2)];
            }
            _ => s += &random_alu(rng, false),
        }
    }
    if depth > 0 {
        s += "endif\n";
    }
    s += "endloop\n";
    for _ in 0..rng.below(4) {
        s += &random_alu(rng, false);
    }
    s += "ishl r4.x, vThreadIDInGroupFlattened.x, l(6)\n";
    for r in 0..4 {
        s += &format!("store_raw u0.xyzw, r4.x, r{r}.xyzw\niadd r4.x, r4.x, l(16)\n");
    }
    s + "ret\n"
}

/// The row kernels that skip the blend where the destination is dead
/// for the inactive lanes (`crate::analysis::liveness`) leave every stored word
/// as the general path, which always blends, and as warps of one lane:
/// random loops with lane-dependent `breakc`, `continuec` and `if`s.
#[test]
fn unblended_writes_match_the_general_path() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut unblended, mut blended) = (0, 0);
    for case in 0..200 {
        let text = random_loop_shader(&mut rng);
        let decoded = crate::front::asm::assemble(&text)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let prog = Program::from_decoded(decoded, None)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let ex = GroupExecutor::new(&prog, 8);
        for f in ex.plan.iter().filter_map(|s| s.row()) {
            *if f.unmasked {
                &mut unblended
            } else {
                &mut blended
            } += 1;
        }
        let (one, _) = run_alu_shader(&prog, 1, false);
        for w in [3, 8, 40] {
            let (general, _) = run_alu_shader(&prog, w, false);
            let (fast, _) = run_alu_shader(&prog, w, true);
            assert_eq!(fast, general, "case {case}, warp width {w}\n{text}");
            assert_eq!(general, one, "case {case}, warp width {w} vs 1\n{text}");
        }
    }
    // both kinds are exercised, many times
    assert!(
        unblended > 500 && blended > 500,
        "{unblended} unblended, {blended} blended"
    );
}

/// The constant-buffer rows the fast path fills once and keeps while
/// they hold the same word: two instructions of a loop that share a
/// scratch row with different words, and a second group run by the
/// same executor with the words changed, read what they should.
#[test]
fn kept_constant_buffer_rows_follow_their_words() {
    let text = "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_uav_raw u0\n\
                dcl_input vThreadIDInGroupFlattened\ndcl_temps 5\n\
                dcl_thread_group 8, 1, 1\n\
                mov r0.xy, l(0, 0, 0, 0)\nmov r1.x, l(0)\n\
                loop\n\
                uge r1.y, r1.x, l(3)\nbreakc_nz r1.y\n\
                iadd r0.x, r0.x, cb0[0].x\n\
                iadd r0.y, r0.y, cb0[0].y\n\
                iadd r1.x, r1.x, l(1)\n\
                endloop\n\
                ishl r4.x, vThreadIDInGroupFlattened.x, l(3)\n\
                store_raw u0.xy, r4.x, r0.xyxx\nret\n";
    let prog = Program::from_decoded(crate::front::asm::assemble(text).unwrap(), None).unwrap();
    let mut ex = GroupExecutor::new(&prog, 8);
    assert!(ex.plan[5].row().is_some() && ex.plan[6].row().is_some());
    for (x, y) in [(5u32, 7u32), (11, 2)] {
        let cb = [x, y, 0, 0];
        let out = sim_mem::Buffer::zeroed(64).unwrap();
        let b = Bindings {
            constant_buffers: vec![Some(&cb[..])],
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        ex.run_group([0, 0, 0], &b);
        let want: Vec<u32> = (0..8).flat_map(|_| [3 * x, 3 * y]).collect();
        assert_eq!(out.to_words(), want, "cb ({x}, {y})");
    }
}

/// Group 0 of `prog` at warp width `w` on `b`, its compare-exchange
/// retry loops run at once (`at_once`) or in lockstep, profiled or not:
/// the warp-instructions it issued and the profile.
fn cas_group(
    prog: &Program,
    w: usize,
    b: &Bindings<'_>,
    at_once: bool,
    profile: bool,
) -> (u64, Option<Profile>) {
    let mut ex = GroupExecutor::new(prog, w);
    if !at_once {
        ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::CAS_LOOP));
    }
    ex.set_profiling(profile);
    ex.run_group([0, 0, 0], b);
    (ex.stats().warp_instructions, ex.profile().cloned())
}

/// A compare-exchange retry loop run at once (`Cx::cas_loop`)
/// leaves the words, the registers after the loop and the statistics
/// that lockstep leaves: float addition on a raw
/// UAV with an `if` / `break` / `endif` exit, and float maximum, `_sat`
/// addition and integer addition on a structured UAV with a `breakc`
/// exit, and a comparand every lane's first attempt fails on; one word
/// per lane, two, three, words out of bounds, one for all; inside a
/// branch that leaves a third of the lanes out; at warp widths 1, 7
/// and 40.
#[test]
fn cas_loops_run_at_once_match_lockstep() {
    let raw = (
        "dcl_uav_raw u0",
        "ishl r0.y, r0.y, l(2)\nld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.z, r0.y, u0.xxxx",
        "r0.y",
    );
    let structured = (
        "dcl_uav_structured u0, 4",
        "ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) r0.z, r0.y, l(0), u0.xxxx\n\
         mov r2.zw, l(0, 0, 0, 0)\nmov r2.z, r0.y",
        "r2.zwzz",
    );
    let if_exit = "if_nz r1.y\nbreak\nendif";
    let breakc = "breakc_nz r1.y";
    // every lane's first compare-exchange fails: a comparand no word holds
    let stale = (
        "dcl_uav_raw u0",
        "ishl r0.y, r0.y, l(2)\nmov r0.z, l(12345)",
        "r0.y",
    );
    let cases = [
        (raw, "add r1.x, r0.x, r0.w", if_exit),
        (stale, "add r1.x, r0.x, r0.w", if_exit),
        (structured, "max r1.x, r0.w, r0.x", breakc),
        (structured, "add_sat r1.x, -r0.w, r0.x", breakc),
        (raw, "iadd r1.x, r0.w, r0.x", breakc),
    ];
    let values: Vec<u32> = (0..40u32)
        .map(|i| (0.1f32 + i as f32 * 0.37).to_bits())
        .collect();
    let inp = sim_mem::Buffer::from_words(&values);
    let mut checked = 0;
    for ((decl, load, addr), op, exit) in cases {
        let text = format!(
            "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\n\
             dcl_resource_structured t0, 4\n{decl}\ndcl_uav_raw u1\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_temps 3\n\
             dcl_thread_group 40, 1, 1\n\
             ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) r0.x, vThreadIDInGroupFlattened.x, l(0), t0.xxxx\n\
             udiv null, r0.y, vThreadIDInGroupFlattened.x, cb0[0].x\n\
             {load}\nmov r0.w, r0.z\nmov r1.xy, l(7, 7, 0, 0)\n\
             udiv null, r2.y, vThreadIDInGroupFlattened.x, l(3)\n\
             if_nz r2.y\n\
             loop\n{op}\nimm_atomic_cmp_exch r1.x, u0, {addr}, r0.w, r1.x\n\
             ieq r1.y, r0.w, r1.x\n{exit}\nmov r0.w, r1.x\nendloop\n\
             endif\n\
             mov r1.z, r0.w\nishl r2.x, vThreadIDInGroupFlattened.x, l(4)\n\
             store_raw u1.xyz, r2.x, r1.xyzx\nret\n"
        );
        let prog = program(&text);
        assert!(
            prog.info().cas_loops.iter().flatten().count() == 1,
            "{text}"
        );
        // slots: one per lane, two or three lanes per word, more slots
        // than the 16 words (lanes out of bounds), and one for every
        // lane (a chain of the warp's active lanes)
        for slots in [64u32, 20, 14, 24, 1] {
            for w in [1, 7, 40] {
                let run = |at_once: bool, profile: bool| {
                    let sums = sim_mem::Buffer::from_words(&[0x3f80_0000; 16]);
                    let out = sim_mem::Buffer::zeroed(40 * 16).unwrap();
                    let cb = [slots, 0, 0, 0];
                    let b = Bindings {
                        constant_buffers: vec![Some(&cb[..])],
                        srvs: vec![Some(BufferView::structured(&inp, 4).unwrap())],
                        uavs: vec![
                            Some(if decl.contains("raw") {
                                BufferView::raw(&sums)
                            } else {
                                BufferView::structured(&sums, 4).unwrap()
                            }),
                            Some(BufferView::raw(&out)),
                        ],
                        ..Default::default()
                    };
                    let n = cas_group(&prog, w, &b, at_once, profile);
                    (sums.to_words(), out.to_words(), n)
                };
                let (at_once, lockstep) = (run(true, false), run(false, false));
                assert_eq!(at_once, lockstep, "{op}, {slots} slots, width {w}");
                // profiled, the loop still runs at once (the same plan),
                // and the profile is lockstep's
                let (profiled, lockstep) = (run(true, true), run(false, true));
                assert_eq!(
                    profiled, lockstep,
                    "{op}, {slots} slots, width {w}, profiled"
                );
                assert_eq!(
                    (&profiled.0, &profiled.1, profiled.2 .0),
                    (&at_once.0, &at_once.1, at_once.2 .0),
                    "{op}, {slots} slots, width {w}: profiling changed the run"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 75);
}

/// Many groups on one executor pass the watchdog's looks: a loop run
/// at once whose count passes a look has the watchdog look after it,
/// and leaves lockstep's words, registers and warp-instruction count
/// (every lane on one word, a float sum in lane order); with a budget,
/// both stop with it in the same group.
#[test]
fn cas_loops_near_the_watchdogs_look_match_lockstep() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_uav_raw u1\n\
                dcl_input vThreadIDInGroupFlattened\ndcl_input vThreadGroupID.x\n\
                dcl_temps 3\ndcl_thread_group 40, 1, 1\n\
                imad r0.x, vThreadGroupID.x, l(40), vThreadIDInGroupFlattened.x\n\
                utof r0.x, r0.x\nmov r0.y, l(0)\n\
                ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx\n\
                loop\nadd r1.x, r0.x, r0.w\n\
                imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x\n\
                ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\n\
                imad r2.x, vThreadGroupID.x, l(40), vThreadIDInGroupFlattened.x\n\
                ishl r2.x, r2.x, l(3)\nmov r1.z, r0.w\n\
                store_raw u1.xy, r2.x, r1.xzxx\nret\n";
    let prog = program(text);
    let groups = 300u32;
    let run = |at_once: bool, budget: u64| {
        let sums = sim_mem::Buffer::from_words(&[0x3f00_0000]);
        let out = sim_mem::Buffer::zeroed(40 * 8 * groups as usize).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&sums)), Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let mut ex = GroupExecutor::new(&prog, 40);
        if !at_once {
            ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::CAS_LOOP));
        }
        let mut wd = Watchdog::new(budget, None, None);
        // looks as a large budget's, at which the loops run at once
        wd.interval = WATCHDOG_INTERVAL;
        let r = ex.run_groups_watched([0, 0, 0], groups, &b, &wd);
        (
            r.map_err(|e| (e.reason, e.group)),
            sums.to_words(),
            out.to_words(),
            ex.stats().warp_instructions,
        )
    };
    let (at_once, lockstep) = (run(true, u64::MAX), run(false, u64::MAX));
    assert!(at_once.0.is_ok());
    assert!(
        at_once.3 > 4 * u64::from(WATCHDOG_INTERVAL),
        "{} warp-instructions: several looks",
        at_once.3
    );
    assert_eq!(at_once, lockstep);
    // the budget runs out at the third look, inside a loop: lockstep
    // stops there, and a loop run at once at its end, in the same group
    let budget = 3 * u64::from(WATCHDOG_INTERVAL) - 1;
    let (at_once, lockstep) = (run(true, budget).0, run(false, budget).0);
    assert!(
        matches!(at_once, Err((StopReason::InstructionBudget(_), _))),
        "{at_once:?}"
    );
    assert_eq!(at_once, lockstep);
}

/// Chains of every shape against lockstep (words, every lane's
/// registers, warp-instruction counts): 2-D groups whose rows meet on
/// one row of words, rows wider than `CHAIN_WORDS` (a second block of
/// words), a structured UAV of 8-byte structures at byte offset 4,
/// warps of 1023 and 1024 lanes, 1024 lanes on one word; float add,
/// max, `add_sat` of `-e`, integer add. At width 7 the rows do not fall
/// on warps (lane by lane, where lockstep's count may differ): words
/// and registers only.
#[test]
fn cas_chains_of_every_shape_match_lockstep() {
    for (gx, gy, structured, op) in [
        (40u32, 3u32, false, "add r1.x, r0.x, r0.w"),
        (40, 3, true, "add r1.x, r0.x, r0.w"),
        (64, 4, true, "max r1.x, r0.w, r0.x"),
        (2, 512, false, "add r1.x, r0.x, r0.w"),
        (32, 32, true, "add_sat r1.x, -r0.w, r0.x"),
        (33, 31, false, "add r1.x, r0.x, r0.w"),
        (8, 8, false, "iadd r1.x, r0.w, r0.x"),
        (1024, 1, false, "add r1.x, r0.x, r0.w"),
    ] {
        // word: SV_GroupThreadID.x (0 for a single row: one word)
        let x = if gy == 1 {
            "l(0)"
        } else {
            "vThreadIDInGroup.x"
        };
        let (decl, addr_code, addr, load) = if structured {
            (
                "dcl_uav_structured u0, 8",
                format!("mov r2.z, {x}\nmov r2.w, l(4)"),
                "r2.zwzz",
                "ld_structured_indexable(structured_buffer, stride=8)(mixed,mixed,mixed,mixed) r0.w, r2.z, l(4), u0.xxxx",
            )
        } else {
            (
                "dcl_uav_raw u0",
                format!("ishl r0.y, {x}, l(2)"),
                "r0.y",
                "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx",
            )
        };
        let text = format!(
            "cs_5_0\n{decl}\ndcl_uav_raw u1\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_input vThreadIDInGroup.xy\n\
             dcl_temps 3\ndcl_thread_group {gx}, {gy}, 1\n{addr_code}\n\
             utof r0.x, vThreadIDInGroupFlattened.x\nmul r0.x, r0.x, l(0.37)\n{load}\n\
             loop\n{op}\nimm_atomic_cmp_exch r1.x, u0, {addr}, r0.w, r1.x\n\
             ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\n\
             mov r1.z, r0.w\nishl r2.x, vThreadIDInGroupFlattened.x, l(4)\n\
             store_raw u1.xyz, r2.x, r1.xyzx\nret\n"
        );
        let prog = program(&text);
        assert_eq!(prog.info().cas_loops.iter().flatten().count(), 1, "{text}");
        let n = (gx * gy) as usize;
        for w in [n, 7, 1] {
            let run = |at_once: bool, profile: bool| {
                let sums = sim_mem::Buffer::from_words(&vec![0x3f00_0000; 2 * gx as usize]);
                let out = sim_mem::Buffer::zeroed(n * 16).unwrap();
                let b = Bindings {
                    uavs: vec![
                        Some(if structured {
                            BufferView::structured(&sums, 8).unwrap()
                        } else {
                            BufferView::raw(&sums)
                        }),
                        Some(BufferView::raw(&out)),
                    ],
                    ..Default::default()
                };
                let n = cas_group(&prog, w, &b, at_once, profile);
                (sums.to_words(), out.to_words(), n)
            };
            let (a, l) = (run(true, false), run(false, false));
            let (pa, pl) = (run(true, true), run(false, true));
            assert_eq!((&pa.0, &pa.1), (&a.0, &a.1), "profiling changed the run");
            assert_eq!(pa.2 .0, a.2 .0, "profiling changed the plan");
            let what = format!("{gx}x{gy}, width {w}, {decl}, {op}");
            assert_eq!((&a.0, &a.1), (&l.0, &l.1), "{what}");
            if w != 7 {
                assert_eq!(a.2, l.2, "{what}");
                assert_eq!(pa.2, pl.2, "{what}: profile");
            }
        }
    }
}

/// A loop on a typed buffer UAV (`RWBuffer<uint>`, R32_UINT: element
/// = word) runs at once, and its groups pack: the words, registers and
/// counts are lockstep's, for an element per lane, two or three lanes
/// per element, elements out of bounds (of 32), one for all (a chain),
/// and an
/// 8×4 group whose rows meet on one row of elements (a chain of rows).
#[test]
fn cas_loops_on_typed_buffer_views_match_lockstep() {
    for (gy, addr) in [
        (1u32, "mov r0.y, vThreadIDInGroupFlattened.x"),
        (1, "udiv null, r0.y, vThreadIDInGroupFlattened.x, l(12)"),
        (1, "iadd r0.y, vThreadIDInGroupFlattened.x, l(10)"),
        (1, "mov r0.y, l(3)"),
        (4, "mov r0.y, vThreadIDInGroup.x"),
        (1, "udiv null, r0.y, vThreadIDInGroupFlattened.x, l(5)"),
    ] {
        let gx = 32 / gy;
        // six or seven lanes on each of five scattered elements: the
        // lane that changes one kth is counted k attempts, as lockstep's
        let text = format!(
            "cs_5_0\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_uav_raw u1\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_input vThreadIDInGroup.xy\n\
             dcl_temps 3\ndcl_thread_group {gx}, {gy}, 1\n{addr}\n\
             utof r0.x, vThreadIDInGroupFlattened.x\nmul r0.x, r0.x, l(0.37)\n\
             ld_uav_typed_indexable(buffer)(uint,uint,uint,uint) r0.w, r0.yyyy, u0.yzwx\n\
             loop\nadd r1.x, r0.x, r0.w\n\
             imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x\n\
             ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\n\
             mov r1.z, r0.w\nishl r2.x, vThreadIDInGroupFlattened.x, l(4)\n\
             store_raw u1.xyz, r2.x, r1.xyzx\nret\n"
        );
        let prog = program(&text);
        assert_eq!(prog.info().cas_loops.iter().flatten().count(), 1, "{text}");
        assert!(packing(&prog).allowed);
        for w in [32, 7, 1] {
            let run = |at_once: bool, profile: bool| {
                let sums = sim_mem::Buffer::from_words(&[0x3f00_0000; 32]);
                let out = sim_mem::Buffer::zeroed(32 * 16).unwrap();
                let b = Bindings {
                    uavs: vec![
                        Some(BufferView::typed(&sums, sim_mem::Format::R32_UINT)),
                        Some(BufferView::raw(&out)),
                    ],
                    ..Default::default()
                };
                let n = cas_group(&prog, w, &b, at_once, profile);
                (sums.to_words(), out.to_words(), n)
            };
            let (a, l) = (run(true, false), run(false, false));
            let (pa, pl) = (run(true, true), run(false, true));
            assert_eq!((&pa.0, &pa.1), (&a.0, &a.1), "profiling changed the run");
            assert_eq!(pa.2 .0, a.2 .0, "profiling changed the plan");
            let what = format!("{addr}, {gx}x{gy}, width {w}");
            assert_eq!((&a.0, &a.1), (&l.0, &l.1), "{what}");
            if w != 7 {
                assert_eq!(a.2, l.2, "{what}");
                assert_eq!(pa.2, pl.2, "{what}: profile");
            }
            // every value reached the words in bounds
            if w == 32 && !addr.contains("l(10)") {
                let total: f64 = a.0.iter().map(|&v| f32::from_bits(v) as f64 - 0.5).sum();
                let want: f64 = (0..32).map(|t| (t as f32 * 0.37) as f64).sum();
                assert!((total - want).abs() < 1e-3, "{what}: {total} vs {want}");
            }
        }
    }
}

/// Packed groups (`GroupExecutor::packed`) whose rows meet on one row
/// of words, or all on one word inside a branch, run their loops as
/// chains at once: the words, every thread's registers and the
/// warp-instruction count are those of the same packed warps in
/// lockstep (which let one lane per word succeed per pass, in lane
/// order); rows of 40 lanes (two blocks of words), 2-D groups of 8×2,
/// and a partial last batch.
#[test]
fn packed_cas_chains_match_packed_lockstep() {
    for (gx, gy, slots, branch) in [
        (40u32, 1u32, 40u32, false),
        (16, 1, 1, true),
        (8, 2, 8, false),
        (3, 1, 3, false),
    ] {
        let (br, er) = if branch {
            (
                "udiv null, r2.y, vThreadID.x, l(3)\nif_nz r2.y\n",
                "endif\n",
            )
        } else {
            ("", "")
        };
        let text = format!(
            "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\n\
             dcl_uav_raw u0\ndcl_uav_raw u1\n\
             dcl_input vThreadID.x\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_input vThreadGroupID.x\ndcl_temps 3\ndcl_thread_group {gx}, {gy}, 1\n\
             imad r2.z, vThreadGroupID.x, l({n}), vThreadIDInGroupFlattened.x\n\
             utof r0.x, r2.z\nmul r0.x, r0.x, l(0.37)\n\
             udiv null, r0.y, vThreadID.x, cb0[0].x\nishl r0.y, r0.y, l(2)\n\
             ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx\n\
             mov r1.xyz, l(7, 7, 7, 0)\n{br}\
             loop\nadd r1.x, r0.x, r0.w\n\
             imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x\n\
             ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\n{er}\
             mov r1.z, r0.w\nishl r2.x, r2.z, l(4)\n\
             store_raw u1.xyz, r2.x, r1.xyzx\nret\n",
            n = gx * gy
        );
        let prog = program(&text);
        assert!(packing(&prog).allowed, "{text}");
        let pack = (MAX_PACKED_LANES as u32 / (gx * gy)).min(8);
        let (groups, n) = (pack * 3 + 1, (gx * gy) as usize);
        let run = |at_once: bool| {
            let sums = sim_mem::Buffer::from_words(&[0x3f80_0000; 64]);
            let out = sim_mem::Buffer::zeroed(n * 16 * groups as usize).unwrap();
            let cb = [slots, 0, 0, 0];
            let b = Bindings {
                constant_buffers: vec![Some(&cb[..])],
                uavs: vec![Some(BufferView::raw(&sums)), Some(BufferView::raw(&out))],
                ..Default::default()
            };
            let mut ex = GroupExecutor::packed(&prog, pack);
            if !at_once {
                ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::CAS_LOOP));
            }
            ex.run_groups_watched([0, 0, 0], groups, &b, &Watchdog::unlimited())
                .unwrap();
            (
                sums.to_words(),
                out.to_words(),
                ex.stats().warp_instructions,
            )
        };
        assert_eq!(
            run(true),
            run(false),
            "{gx}x{gy}, {slots} slots, pack {pack}"
        );
    }
}

/// A loop whose count passes several of the watchdog's looks (1024
/// lanes on one word): the count, the watchdog's total and the next
/// look are lockstep's, and budgets of one to seven looks stop both
/// in the same group.
#[test]
fn a_cas_loop_passing_several_looks_matches_lockstep() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
                dcl_temps 3\ndcl_thread_group 1024, 1, 1\n\
                mov r0.x, vThreadIDInGroupFlattened.x\nmov r0.y, l(0)\n\
                ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx\n\
                loop\niadd r1.x, r0.x, r0.w\n\
                imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x\n\
                ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\nret\n";
    let prog = program(text);
    let run = |at_once: bool, budget: u64| {
        let sums = sim_mem::Buffer::from_words(&[1]);
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&sums))],
            ..Default::default()
        };
        let mut ex = GroupExecutor::new(&prog, 1024);
        if !at_once {
            ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::CAS_LOOP));
        }
        let mut wd = Watchdog::new(budget, None, None);
        // looks as a large budget's, at which the loops run at once
        wd.interval = WATCHDOG_INTERVAL;
        let r = ex.run_groups_watched([0, 0, 0], 5, &b, &wd);
        (
            r.map_err(|e| (e.reason, e.group)),
            sums.to_words(),
            ex.stats().warp_instructions,
            wd.executed.load(Ordering::Relaxed),
            ex.budget.until_check,
        )
    };
    let (a, l) = (run(true, u64::MAX), run(false, u64::MAX));
    // (each group's loop counts more than a look's interval)
    assert!(a.2 > 5 * u64::from(WATCHDOG_INTERVAL), "{a:?}");
    assert_eq!(a, l);
    for k in 1..8u64 {
        let budget = k * u64::from(WATCHDOG_INTERVAL) - 1;
        assert_eq!(
            run(true, budget).0,
            run(false, budget).0,
            "budget {k} looks"
        );
    }
}

/// A 2-D group whose rows of lanes share one row of words (address
/// `vThreadIDInGroup.x`): a compare-exchange loop run at once leaves
/// the words and registers lockstep leaves (the rows' lanes meet on
/// each word, and succeed in lane order either way), at warp widths
/// 16 (two rows), 64 (the whole group) and 1.
#[test]
fn cas_loops_on_a_2d_group_match_lockstep() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_uav_raw u1\n\
                dcl_input vThreadIDInGroupFlattened\ndcl_input vThreadIDInGroup.xy\n\
                dcl_temps 3\ndcl_thread_group 8, 8, 1\n\
                ishl r0.y, vThreadIDInGroup.x, l(2)\n\
                utof r0.x, vThreadIDInGroupFlattened.x\n\
                ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx\n\
                loop\nadd r1.x, r0.x, r0.w\n\
                imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x\n\
                ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\n\
                mov r1.z, r0.w\nishl r2.x, vThreadIDInGroupFlattened.x, l(4)\n\
                store_raw u1.xyz, r2.x, r1.xyzx\nret\n";
    let prog = program(text);
    assert_eq!(prog.info().cas_loops.iter().flatten().count(), 1);
    for w in [16, 64, 1] {
        let run = |at_once: bool| {
            let sums = sim_mem::Buffer::from_words(&[0x3f00_0000; 8]);
            let out = sim_mem::Buffer::zeroed(64 * 16).unwrap();
            let b = Bindings {
                uavs: vec![Some(BufferView::raw(&sums)), Some(BufferView::raw(&out))],
                ..Default::default()
            };
            cas_group(&prog, w, &b, at_once, false);
            (sums.to_words(), out.to_words())
        };
        let (at_once, lockstep) = (run(true), run(false));
        assert_eq!(at_once, lockstep, "width {w}");
        // every lane's value reached its word: 0.5 + the column's eight
        // thread indices (exact in f32)
        let want: Vec<u32> = (0..8u32)
            .map(|x| (0.5 + (0..8).map(|y| (8 * y + x) as f32).sum::<f32>()).to_bits())
            .collect();
        assert_eq!(at_once.0, want, "width {w}");
    }
}

/// `udiv` by a constant-buffer word or a literal (one divisor for
/// every lane: `UdivBy`'s multiplication) gives what integer division
/// gives, 0xFFFFFFFF twice for a divisor of 0, on edge numerators, at
/// warp widths 1, 7 and 40, and under a lane-dependent branch.
#[test]
fn udiv_by_a_uniform_divisor_matches_integer_division() {
    let text = "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\n\
                dcl_resource_raw t0\ndcl_uav_raw u0\n\
                dcl_input vThreadIDInGroupFlattened\ndcl_temps 4\n\
                dcl_thread_group 40, 1, 1\n\
                ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\n\
                ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.y, r0.x, t0.xxxx\n\
                udiv r1.x, r1.y, r0.y, cb0[0].x\n\
                udiv r1.z, r1.w, r0.y, l(7)\n\
                mov r2.xy, l(-1, -1, 0, 0)\n\
                and r3.x, vThreadIDInGroupFlattened.x, l(2)\n\
                if_nz r3.x\n\
                udiv r2.x, r2.y, r0.y, cb0[0].y\n\
                endif\n\
                ishl r0.z, vThreadIDInGroupFlattened.x, l(5)\n\
                store_raw u0.xyzw, r0.z, r1.xyzw\n\
                iadd r0.z, r0.z, l(16)\n\
                store_raw u0.xy, r0.z, r2.xyxx\nret\n";
    let prog = program(text);
    let div = |n: u32, d: u32| {
        (
            n.checked_div(d).unwrap_or(!0),
            n.checked_rem(d).unwrap_or(!0),
        )
    };
    let mut rng = Rng(0x5eed_0d1f_0000_0001);
    let mut n = vec![
        0u32,
        1,
        6,
        7,
        8,
        u32::MAX,
        u32::MAX - 1,
        0x8000_0000,
        0x8000_0001,
    ];
    while n.len() < 40 {
        n.push((rng.next() >> 32) as u32);
    }
    let inp = sim_mem::Buffer::from_words(&n);
    for (x, y) in [
        (0u32, 1u32),
        (3, 64),
        (1000, 0x8000_0001),
        (u32::MAX, 0xAAAA_AAAB),
    ] {
        let cb = [x, y, 0, 0];
        for w in [1, 7, 40] {
            let out = sim_mem::Buffer::zeroed(40 * 32).unwrap();
            let b = Bindings {
                constant_buffers: vec![Some(&cb[..])],
                srvs: vec![Some(BufferView::raw(&inp))],
                uavs: vec![Some(BufferView::raw(&out))],
                ..Default::default()
            };
            GroupExecutor::new(&prog, w).run_group([0, 0, 0], &b);
            let got = out.to_words();
            for (l, &n) in n.iter().enumerate() {
                let (q, r) = div(n, x);
                let (q7, r7) = div(n, 7);
                let (qy, ry) = if l & 2 != 0 { div(n, y) } else { (!0, !0) };
                let want = [q, r, q7, r7, qy, ry, 0, 0];
                assert_eq!(
                    got[l * 8..l * 8 + 8],
                    want,
                    "lane {l}: {n} by {x}, 7, {y}, width {w}"
                );
            }
        }
    }
}

/// `if_nz c` / `break` / `endif` and `if_z c` / `continue` / `endif` in
/// a loop, run as one `breakc`/`continuec` (`fused_leaves`), leave the
/// same words, statistics and profile (lane-instructions per pc, warp
/// instructions, lane slots) as the three instructions run one by one:
/// lanes that leave after different numbers of passes, all at once, or
/// none, at warp widths 1, 3, 8 and 40.
#[test]
fn fused_if_break_counts_as_the_three_instructions() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
                dcl_temps 4\ndcl_thread_group 40, 1, 1\n\
                mov r0.xy, l(0, 0, 0, 0)\n\
                loop\n\
                iadd r0.x, r0.x, l(1)\n\
                uge r1.x, r0.x, l(6)\n\
                if_nz r1.x\nbreak\nendif\n\
                and r1.y, vThreadIDInGroupFlattened.x, l(3)\n\
                ult r1.y, r0.x, r1.y\n\
                if_z r1.y\ncontinue\nendif\n\
                iadd r0.y, r0.y, r0.x\n\
                ishl r1.w, r0.x, l(3)\n\
                ult r1.z, vThreadIDInGroupFlattened.x, r1.w\n\
                if_nz r1.z\nbreak\nendif\n\
                endloop\n\
                ishl r2.x, vThreadIDInGroupFlattened.x, l(2)\n\
                store_raw u0.x, r2.x, r0.y\nret\n";
    let prog = program(text);
    let fusable = fused_leaves(prog.body()).iter().flatten().count();
    assert_eq!(fusable, 3, "{text}");
    for w in [1, 3, 8, 40] {
        let run = |fused: bool| {
            let out = sim_mem::Buffer::zeroed(40 * 4).unwrap();
            let b = Bindings {
                uavs: vec![Some(BufferView::raw(&out))],
                ..Default::default()
            };
            let mut ex = GroupExecutor::new(&prog, w);
            if !fused {
                ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::FUSED_LEAVE));
            }
            ex.set_profiling(true);
            ex.run_group([0, 0, 0], &b);
            ex.run_group([1, 0, 0], &b);
            (out.to_words(), ex.stats(), ex.profile().cloned())
        };
        let (fused, plain) = (run(true), run(false));
        assert_eq!(fused, plain, "warp width {w}");
        // and the sums are those of the lanes one by one: thread t adds
        // the passes n below t % 4, leaving after the first with t < 8n
        let want: Vec<u32> = (0..40u32)
            .map(|t| {
                let mut s = 0;
                for n in 1..6 {
                    if n >= t % 4 {
                        continue;
                    }
                    s += n;
                    if t < 8 * n {
                        break;
                    }
                }
                s
            })
            .collect();
        assert_eq!(fused.0, want, "warp width {w}");
    }
}

/// A batch computes only the components of vThreadID the program reads;
/// those it reads outside the fast path (here a store's value) hold
/// each thread's own, group after group on one executor.
#[test]
fn thread_id_components_read_are_computed() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
                dcl_input vThreadID.xyz\ndcl_temps 1\ndcl_thread_group 4, 2, 2\n\
                ishl r0.x, vThreadIDInGroupFlattened.x, l(4)\n\
                store_raw u0.xyz, r0.x, vThreadID.zyxz\nret\n";
    let prog = program(text);
    assert_eq!(thread_id_comps(prog.body()), 0b111);
    let only_x = program(&text.replace("vThreadID.zyxz", "vThreadID.xxxx"));
    assert_eq!(thread_id_comps(only_x.body()), 0b001);
    for w in [3, 16] {
        let mut ex = GroupExecutor::new(&prog, w);
        for g in [[1u32, 2, 3], [2, 0, 5]] {
            let out = sim_mem::Buffer::zeroed(16 * 16).unwrap();
            let b = Bindings {
                uavs: vec![Some(BufferView::raw(&out))],
                ..Default::default()
            };
            ex.run_group(g, &b);
            let want: Vec<u32> = (0..16u32)
                .flat_map(|f| {
                    let (x, y, z) = (g[0] * 4 + f % 4, g[1] * 2 + (f / 4) % 2, g[2] * 2 + f / 8);
                    [z, y, x, 0]
                })
                .collect();
            assert_eq!(out.to_words(), want, "group {g:?}, warp width {w}");
        }
    }
}

/// A register file is zeroed for each batch only when a lane may read
/// a word it has not written: a lane that skips the `if` below reads
/// r0.x unwritten, and must see 0 in the second group too, after the
/// first group's lanes wrote 5 there; the same program with r0.x
/// written first needs no zeroing.
#[test]
fn registers_read_before_written_start_at_zero_in_every_group() {
    let text = |first: &str| {
        format!(
            "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_input vThreadGroupID.x\ndcl_temps 2\ndcl_thread_group 8, 1, 1\n{first}\
             ult r1.x, vThreadIDInGroupFlattened.x, vThreadGroupID.x\n\
             if_z r1.x\nmov r0.x, l(5)\nendif\n\
             ishl r1.x, vThreadIDInGroupFlattened.x, l(2)\n\
             store_raw u0.x, r1.x, r0.x\nret\n"
        )
    };
    for (first, zeroed, skipped) in [("", true, 0), ("mov r0.x, l(7)\n", false, 7)] {
        let text = text(first);
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap();
        for w in [1, 8] {
            let mut ex = GroupExecutor::new(&prog, w);
            assert_eq!(ex.zero_regs, zeroed, "{text}");
            for g in [0u32, 3] {
                let out = sim_mem::Buffer::zeroed(32).unwrap();
                let b = Bindings {
                    uavs: vec![Some(BufferView::raw(&out))],
                    ..Default::default()
                };
                ex.run_group([g, 0, 0], &b);
                // group g: lanes below g skip the `if`
                let want: Vec<u32> = (0..8).map(|l| if l < g { skipped } else { 5 }).collect();
                assert_eq!(out.to_words(), want, "group {g}, warp width {w}\n{text}");
            }
        }
    }
}

/// `breakc`/`continuec` directly in their loop (one pass over the span:
/// `leave_innermost`) leave and rejoin the same lanes as a `break` and
/// a `continue` inside an `if` (the general path), at warp widths 1, 3,
/// 8 and 40, and as lane-by-lane arithmetic says: thread t sums the
/// even iterations below t.
#[test]
fn conditional_break_and_continue_match_the_general_path() {
    let run = |fused: bool| {
        let (brk, cont) = if fused {
            ("breakc_nz r2.x\n", "continuec_nz r2.y\n")
        } else {
            (
                "if_nz r2.x\nbreak\nendif\n",
                "if_nz r2.y\ncontinue\nendif\n",
            )
        };
        let text = format!(
            "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_uav_raw u0\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_temps 5\n\
             dcl_thread_group 40, 1, 1\n\
             mov r0.x, l(0)\nmov r1.x, l(0)\n\
             loop\n\
             iadd r0.x, r0.x, l(1)\n\
             uge r2.x, r0.x, vThreadIDInGroupFlattened.x\n{brk}\
             and r2.y, r0.x, l(1)\n{cont}\
             iadd r1.x, r1.x, r0.x\n\
             endloop\n\
             ishl r4.x, vThreadIDInGroupFlattened.x, l(2)\n\
             store_raw u0.x, r4.x, r1.x\nret\n"
        );
        let prog =
            Program::from_decoded(crate::front::asm::assemble(&text).unwrap(), None).unwrap();
        [1, 3, 8, 40].map(|w| run_alu_shader(&prog, w, true).0)
    };
    let want: Vec<u32> = (0..40u32)
        .map(|t| (1..t.max(1)).filter(|i| i % 2 == 0).sum())
        .collect();
    let (fused, general) = (run(true), run(false));
    for (k, (f, g)) in fused.iter().zip(&general).enumerate() {
        assert_eq!(f[..40], want[..], "fused, width index {k}");
        assert_eq!(g[..40], want[..], "general, width index {k}");
    }
}

/// A denormal that reaches a float instruction only through a loop's
/// back edge is flushed there: the instruction does not take the row
/// kernel for flushed sources (`crate::analysis::flushed`), at any warp width,
/// fast path or general. `mul` by 2³⁰ of the flushed −denormal is −0;
/// unflushed it would be about −1.3e-36.
#[test]
fn denormals_through_a_back_edge_are_flushed() {
    let text = "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_uav_raw u0\n\
                dcl_input vThreadIDInGroupFlattened\ndcl_temps 5\n\
                dcl_thread_group 8, 1, 1\n\
                mov r0.x, l(1.000000)\nmov r1.x, l(0)\n\
                loop\n\
                mul r3.x, r0.x, l(0x4e800000)\n\
                uge r1.y, r1.x, l(2)\nbreakc_nz r1.y\n\
                mov r0.x, cb0[0].z\n\
                iadd r1.x, r1.x, l(1)\n\
                endloop\n\
                ishl r4.x, vThreadIDInGroupFlattened.x, l(2)\n\
                store_raw u0.x, r4.x, r3.x\nret\n";
    let prog = Program::from_decoded(crate::front::asm::assemble(text).unwrap(), None).unwrap();
    let ex = GroupExecutor::new(&prog, 8);
    assert!(ex.plan[3].row().is_some(), "the mul takes the fast path");
    assert!(
        !crate::analysis::flushed::flushed_sources(prog.body())[3],
        "the mul reads a denormal"
    );
    for w in [1, 3, 8] {
        for fast in [false, true] {
            let (out, _) = run_alu_shader(&prog, w, fast);
            assert_eq!(out[..8], [0x8000_0000; 8], "warp width {w}, fast {fast}");
        }
    }
}

/// Packed warps ([`GroupExecutor::packed`]) compute what one warp per
/// group computes: the random ALU shaders (every system value among
/// their sources, a lane-dependent `if`) with each thread's registers
/// stored to a slot of its own, over seven groups in batches of three
/// (the last one short), fast path and general path, bit for bit.
#[test]
fn packed_groups_match_one_group_at_a_time() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let cb: Vec<u32> = vec![
        0x3f80_0000,
        3,
        0x8000_0001,
        0xc040_0000,
        7,
        0xffff_fff0,
        9,
        0,
    ];
    for case in 0..120 {
        let text = random_shader(&mut rng).replace(
            "ishl r4.x, vThreadIDInGroupFlattened.x, l(6)",
            "imad r4.x, vThreadGroupID.x, l(40), vThreadIDInGroupFlattened.x\n\
             ishl r4.x, r4.x, l(6)",
        );
        let decoded = crate::front::asm::assemble(&text).unwrap();
        let prog = Program::from_decoded(decoded, None).unwrap();
        assert!(packing(&prog).allowed, "40 lanes of 5 temps pack");
        let run = |packed: bool, fast: bool| {
            let out = sim_mem::Buffer::zeroed(7 * 40 * 64).unwrap();
            let b = Bindings {
                constant_buffers: vec![Some(&cb[..])],
                uavs: vec![Some(BufferView::raw(&out))],
                ..Default::default()
            };
            let mut ex = if packed {
                GroupExecutor::packed(&prog, 3)
            } else {
                GroupExecutor::new(&prog, usize::MAX)
            };
            assert_eq!(ex.groups_per_batch(), if packed { 3 } else { 1 });
            if !fast {
                ex = ex.with_fast_paths(FastPaths::ALL.without(FastPaths::ROW_ALU));
            }
            ex.run_groups_watched([0, 2, 3], 7, &b, &Watchdog::unlimited())
                .unwrap();
            assert_eq!(ex.stats().groups, 7);
            out.to_words()
        };
        let plain = run(false, true);
        assert!(plain.iter().any(|&x| x != 0));
        for fast in [true, false] {
            assert_eq!(run(true, fast), plain, "case {case}, fast {fast}\n{text}");
        }
    }
}

/// Groups that could observe one another in a warp are never packed
/// (`Packing::allowed`), and a packed warp has at most `MAX_PACKED_LANES`
/// lanes. (How many a dispatch packs: `sim_sched::packed_groups_limit`.)
#[test]
fn packing_stays_where_groups_cannot_meet() {
    let head = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n";
    let tgsm = format!(
        "{head}dcl_temps 1\ndcl_tgsm_raw g0, 16\ndcl_thread_group 8, 8, 1\n\
         store_raw g0.x, l(0), l(1)\nret\n"
    );
    let barrier = format!(
        "{head}dcl_temps 1\ndcl_thread_group 8, 8, 1\n\
         sync_uglobal_t\nstore_raw u0.x, l(0), l(1)\nret\n"
    );
    let fence = barrier.replace("sync_uglobal_t", "sync_uglobal");
    let cas = barrier.replace(
        "sync_uglobal_t",
        "imm_atomic_cmp_exch r0.x, u0, l(0), l(0), l(1)",
    );
    let cas_store = barrier.replace("sync_uglobal_t", "atomic_cmp_store u0, l(0), l(0), l(1)");
    let wide = format!(
        "{head}dcl_temps 64\ndcl_thread_group 8, 8, 1\n\
         store_raw u0.x, l(0), vThreadIDInGroupFlattened.x\nret\n"
    );
    let big = format!(
        "{head}dcl_temps 1\ndcl_thread_group 512, 1, 1\n\
         store_raw u0.x, l(0), vThreadIDInGroupFlattened.x\nret\n"
    );
    let allowed = |t: &str| packing(&program(t)).allowed;
    assert!(!allowed(&tgsm));
    assert!(!allowed(&barrier));
    assert!(allowed(&fence), "a fence alone packs");
    assert!(!allowed(&cas));
    assert!(allowed(&cas_store));
    // the register file per lane: 64 temps, four words each
    assert_eq!(packing(&program(&wide)).register_words_per_lane, 256);
    assert_eq!(packing(&program(&big)).threads_per_group, 512);
    // at most MAX_PACKED_LANES lanes to a warp
    let p = program(&big);
    assert_eq!(GroupExecutor::packed(&p, 4).groups_per_batch(), 2);
    let p = program(&tgsm);
    let ex = GroupExecutor::packed(&p, 4);
    assert_eq!((ex.groups_per_batch(), ex.warp_width()), (1, 64));
    // a checker makes a packed executor an ordinary one
    let p = program(&fence);
    let mut ex = GroupExecutor::packed(&p, 4);
    assert_eq!((ex.groups_per_batch(), ex.warp_width()), (4, 256));
    let ck = Checker::new(&p, Default::default());
    ex.set_checker(Some(Box::new(ck)));
    assert_eq!((ex.groups_per_batch(), ex.warp_width()), (1, 64));
}

/// A runaway in a packed warp names the group of its first active
/// lane, not the batch's first group.
#[test]
fn a_packed_runaway_names_its_group() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadGroupID.x\n\
        dcl_temps 1\ndcl_thread_group 16, 1, 1\n\
        ieq r0.x, vThreadGroupID.x, l(5)\nif_nz r0.x\nloop\nendloop\nendif\nret\n";
    let p = program(text);
    let out = sim_mem::Buffer::zeroed(4).unwrap();
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(&out))],
        ..Default::default()
    };
    let mut ex = GroupExecutor::packed(&p, 4);
    assert_eq!(ex.groups_per_batch(), 4);
    let wd = Watchdog::new(100_000, None, None);
    let r = ex.run_groups_watched([0, 3, 0], 8, &b, &wd).unwrap_err();
    assert_eq!((r.group, r.lane), ([5, 3, 0], 0));
}

/// A random race-free shader of TGSM and UAV loads and stores at
/// coalesced, strided, uniform and partly out-of-bounds addresses, each
/// under a lane-dependent `if`: stores to per-lane slots, then (after a
/// barrier) loads, then a dump of both TGSM regions and the loaded
/// values to u0.
pub(super) fn random_memory_shader(rng: &mut Rng, tile: bool) -> String {
    let group = if tile { "8, 5, 1" } else { "40, 1, 1" };
    let mut s = format!(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\n\
         dcl_uav_structured u1, 4\ndcl_input vThreadIDInGroupFlattened\n\
         dcl_input vThreadIDInGroup.xy\n\
         dcl_temps 4\ndcl_tgsm_structured g0, 4, 96\ndcl_tgsm_raw g1, 384\n\
         dcl_thread_group {group}\n\
         mov r2.xyzw, l(0, 0, 0, 0)\n\
         imad r0.x, vThreadIDInGroupFlattened.x, l(7), l(1)\n"
    );
    // half the time every lane, else a prefix, a suffix, or lanes with
    // gaps between them
    let cond = |rng: &mut Rng| {
        if rng.below(2) == 0 {
            return "if_nz l(1)\n".to_string();
        }
        let (op, k) = (rng.pick(&["ult", "uge", "and"]), rng.below(41));
        format!("{op} r3.x, vThreadIDInGroupFlattened.x, l({k})\nif_nz r3.x\n")
    };
    // r1.x = m·tid + c; for a tile, m·16·y + m·x + c (per-lane slots on
    // a grid with a row pitch of 16 lanes, not on one line) or a random
    // grid m1·y + m2·x + c
    let addr = |rng: &mut Rng, m: usize, c: usize, free: bool| {
        if !tile {
            return format!("imad r1.x, vThreadIDInGroupFlattened.x, l({m}), l({c})\n");
        }
        let (m1, m2) = if free {
            (rng.below(9), [0, 1, 2, 4][rng.below(4)])
        } else {
            (16 * m, m)
        };
        format!(
            "imad r1.x, vThreadIDInGroup.y, l({m1}), l({c})\n\
             imad r1.x, vThreadIDInGroup.x, l({m2}), r1.x\n"
        )
    };
    // stores: lane slots tid·stride + c, stride ≥ the dwords stored, one
    // c per memory so that no two lanes ever store to the same word
    let base = [rng.below(70), rng.below(70), rng.below(70)];
    for _ in 0..6 {
        s += &cond(rng);
        let kind = rng.below(3);
        let c = base[kind];
        match kind {
            0 => {
                s += &addr(rng, 1, c, false);
                s += "store_structured g0.x, r1.x, l(0), r0.x\n";
            }
            1 => {
                let n = 1 + rng.below(2);
                let mask = ["x", "xy"][n - 1];
                s += &addr(rng, 8, 4 * c, false);
                s += &format!("store_raw g1.{mask}, r1.x, r0.xyxx\n");
            }
            _ => {
                s += &addr(rng, 4, 4 * c, false);
                s += "store_raw u0.x, r1.x, r0.x\n";
            }
        }
        s += &format!(
            "iadd r0.xy, r0.xyxx, l({}, 3, 0, 0)\nendif\n",
            1 + rng.below(9)
        );
    }
    s += "sync_g_t\n";
    // loads: any address, including uniform and out of bounds
    for comp in ["x", "y", "z", "w"] {
        s += &cond(rng);
        let (m, c) = ([0, 1, 2, 3][rng.below(4)], rng.below(100));
        s += &addr(rng, m, c, true);
        // now and then an immediate address (matmul's `g1[k]`: a planned
        // row of the arena, `Step::imm_rows`), in bounds or not
        let at = match rng.below(4) {
            0 => format!("l({c})"),
            _ => "r1.x".to_string(),
        };
        match rng.below(3) {
            0 => s += &format!("ld_structured r2.{comp}, {at}, l(0), g0.xxxx\n"),
            1 => {
                s += "ishl r1.x, r1.x, l(2)\n";
                let at = at.replace(&format!("l({c})"), &format!("l({})", 4 * c));
                s += &format!("ld_raw r2.{comp}, {at}, g1.xxxx\n");
            }
            _ => s += &format!("ld_structured r2.{comp}, {at}, l(0), u1.xxxx\n"),
        }
        s += "endif\n";
    }
    // dump: loaded values at 8192 + 16·tid, TGSM at 12288 + …
    s += "imad r1.x, vThreadIDInGroupFlattened.x, l(16), l(8192)\n\
          store_raw u0.xyzw, r1.x, r2.xyzw\n\
          sync_g_t\n\
          ld_structured r2.x, vThreadIDInGroupFlattened.x, l(0), g0.xxxx\n\
          iadd r1.y, vThreadIDInGroupFlattened.x, l(40)\n\
          ld_structured r2.y, r1.y, l(0), g0.xxxx\n\
          ishl r1.z, vThreadIDInGroupFlattened.x, l(3)\n\
          ld_raw r2.zw, r1.z, g1.xxxx\n\
          imad r1.x, vThreadIDInGroupFlattened.x, l(16), l(12288)\n\
          store_raw u0.xyzw, r1.x, r2.xyzw\n\
          ret\n";
    s
}

/// Loads and stores by the active lanes on one line of words (a partial
/// warp's coalesced or uniform access, `line_of`) or on a grid (a full
/// warp's tile access in an 8×5 group) do what lanes one by one do:
/// random race-free shaders at warp widths 3, 8, 32 and 40 against warp
/// width 1, bit for bit.
#[test]
fn memory_lines_match_single_lanes() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let input: Vec<u32> = (0..50u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    for case in 0..400 {
        // 40×1 groups, then 8×5 tiles (grids of rows of 8 lanes)
        let text = random_memory_shader(&mut rng, case >= 200);
        let decoded = crate::front::asm::assemble(&text)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let prog = Program::from_decoded(decoded, None)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        let run = |w: usize| {
            let out = sim_mem::Buffer::zeroed(16384).unwrap();
            let inp = sim_mem::Buffer::from_words(&input);
            let b = Bindings {
                uavs: vec![
                    Some(BufferView::raw(&out)),
                    Some(BufferView::structured(&inp, 4).unwrap()),
                ],
                ..Default::default()
            };
            GroupExecutor::new(&prog, w).run_group([0, 0, 0], &b);
            out.to_words()
        };
        let one = run(1);
        assert!(one.iter().any(|&x| x != 0), "case {case}: nothing stored");
        for w in [3, 8, 32, 40] {
            assert_eq!(run(w), one, "case {case}, warp width {w}\n{text}");
        }
    }
}

/// `text` (an fxc listing) assembled and loaded; panics with the text.
pub(super) fn program(text: &str) -> Program {
    let decoded = crate::front::asm::assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

const ATOMIC_HEAD: &str = "cs_5_0\n\
    dcl_globalFlags refactoringAllowed\n\
    dcl_uav_raw u0\n\
    dcl_uav_raw u1\n\
    dcl_uav_structured u2, 8\n\
    dcl_uav_raw u3\n\
    dcl_input vThreadID.x\n\
    dcl_temps 2\n\
    dcl_thread_group 40, 1, 1\n";

/// Only UAVs changed by no-return atomics of one commutative kind, and
/// read by nothing, are candidates for gathering.
#[test]
fn write_only_atomic_uavs_are_those_nothing_reads() {
    let found = |body: &str| {
        crate::analysis::write_only_atomic_uavs(
            program(&format!("{ATOMIC_HEAD}{body}ret\n")).body(),
        )
    };
    assert_eq!(
        found("atomic_iadd u0, r0.x, l(1)\natomic_umax u1, r0.x, r0.y\nbufinfo_indexable(raw_buffer) r1.x, u0.xxxx\n"),
        vec![(0, AtomicKind::Add), (1, AtomicKind::UMax)]
    );
    // a returned value, a load, a store, a second kind, a compare-store
    for body in [
        "imm_atomic_iadd r1.x, u0, r0.x, l(1)\n",
        "atomic_iadd u0, r0.x, l(1)\nld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.x, u0.xxxx\n",
        "store_raw u0.x, r0.x, r0.y\natomic_iadd u0, r0.x, l(1)\n",
        "atomic_iadd u0, r0.x, l(1)\natomic_or u0, r0.x, l(1)\n",
        "atomic_cmp_store u0, r0.x, l(0), l(1)\n",
    ] {
        assert_eq!(found(body), vec![], "{body}");
    }
    assert_eq!(
        found("atomic_xor u2, r0.xy, r0.z\nimm_atomic_imax r1.x, u3, r0.x, r0.y\n"),
        vec![(2, AtomicKind::Xor)]
    );
}

/// Groups whose atomics are gathered by two executors (even and odd
/// groups, like two workers) and flushed leave the same words as groups
/// applying each atomic to the buffer: random no-return atomics of each
/// commutative kind, raw and structured, on coalesced, uniform,
/// colliding and out-of-bounds addresses under lane-dependent branches.
/// Before the flush the buffers are untouched; a flush with other
/// buffers bound keeps the words; an aliased UAV is not gathered.
#[test]
fn gathered_atomics_match_atomics_on_the_buffer() {
    let mut rng = Rng(0x5eed_0a70_41c5_0001);
    let kinds = ["iadd", "and", "or", "xor", "imax", "imin", "umax", "umin"];
    let mut landed = 0;
    for case in 0..80 {
        let (k0, k2) = (rng.pick(&kinds), rng.pick(&kinds));
        let mut text = ATOMIC_HEAD.to_string();
        for i in 0..5 {
            let (bit, m, c) = (rng.below(6), rng.below(3), rng.below(90));
            let (v1, v2) = (rng.next() as u32, rng.next() as u32 | 1);
            text += &format!(
                "and r1.z, vThreadID.x, l({})\nif_nz r1.z\n\
                 imad r0.x, vThreadID.x, l({}), l({c})\n\
                 imad r0.y, vThreadID.x, l({v2}), l({v1})\n",
                1 << bit,
                [0, 4, 12][m],
            );
            text += &match (rng.below(3), i) {
                // u0 first, u2 last, so that both are used
                (_, 0) | (0, 1..4) => format!("atomic_{k0} u0, r0.x, r0.y\n"),
                (1, 1..4) => format!("atomic_{k0} u0, l({}), r0.y\n", 4 * rng.below(70)),
                _ => format!(
                    "udiv r0.z, r0.w, r0.x, l(4)\nand r0.w, r0.w, l(4)\natomic_{k2} u2, r0.zwzz, r0.y\n"
                ),
            };
            text += "endif\n";
        }
        text += "ret\n";
        let prog = program(&text);
        assert_eq!(
            crate::analysis::write_only_atomic_uavs(prog.body()).len(),
            2,
            "case {case}\n{text}"
        );
        let init: Vec<u32> = (0..64).map(|_| rng.next() as u32).collect();
        let (u0, u2) = (
            sim_mem::Buffer::from_words(&init),
            sim_mem::Buffer::from_words(&init),
        );
        let bind = |u0, u2, alias: bool| Bindings {
            uavs: vec![
                Some(BufferView::raw(u0)),
                None,
                Some(BufferView::structured(u2, 8).unwrap()),
            ],
            srvs: vec![alias.then(|| BufferView::raw(u2))],
            ..Default::default()
        };
        // every atomic on the buffers
        let b = bind(&u0, &u2, false);
        let mut plain = GroupExecutor::new(&prog, 40);
        for g in 0..6 {
            plain.run_group([g, 0, 0], &b);
        }
        let want = (u0.to_words(), u2.to_words());
        landed += usize::from(want.0 != init) + usize::from(want.1 != init);
        // gathered on two executors
        let (v0, v2) = (
            sim_mem::Buffer::from_words(&init),
            sim_mem::Buffer::from_words(&init),
        );
        let b = bind(&v0, &v2, false);
        let mut ex = [GroupExecutor::new(&prog, 40), GroupExecutor::new(&prog, 8)];
        for e in &mut ex {
            e.privatize_atomics(&b);
        }
        for g in 0..6 {
            ex[g as usize % 2].run_group([g, 0, 0], &b);
        }
        assert_eq!(
            (v0.to_words(), v2.to_words()),
            (init.clone(), init.clone()),
            "case {case}"
        );
        // setting up again before a flush changes nothing
        assert!(!ex[0].privatize_atomics(&b), "case {case}");
        // flushing with other buffers bound applies nothing and keeps the words
        let (o0, o2) = (
            sim_mem::Buffer::from_words(&init),
            sim_mem::Buffer::from_words(&init),
        );
        ex[0].flush_atomics(&bind(&o0, &o2, false));
        assert_eq!(
            (o0.to_words(), o2.to_words()),
            (init.clone(), init.clone()),
            "case {case}"
        );
        for e in &mut ex {
            e.flush_atomics(&b);
        }
        assert_eq!((v0.to_words(), v2.to_words()), want, "case {case}\n{text}");
        // u2 also bound as an SRV: only u0 is gathered
        let (a0, a2) = (
            sim_mem::Buffer::from_words(&init),
            sim_mem::Buffer::from_words(&init),
        );
        let b = bind(&a0, &a2, true);
        let mut e = GroupExecutor::new(&prog, 40);
        e.privatize_atomics(&b);
        for g in 0..6 {
            e.run_group([g, 0, 0], &b);
        }
        assert_eq!(a0.to_words(), init, "case {case}");
        assert_eq!(a2.to_words(), want.1, "case {case}");
        e.flush_atomics(&b);
        assert_eq!((a0.to_words(), a2.to_words()), want, "case {case}");
    }
    // most cases change both buffers (some atomics are out of bounds or
    // cannot change a word, e.g. a max below it)
    assert!(landed >= 120, "only {landed} of 160 buffers changed");
}

/// Memory instructions whose address steps come from the program
/// analysis (`crate::analysis::affine`) inside loops with uniform trip counts,
/// divergent breaks and continues, and branches that move the address
/// for some lanes, touch what lanes one by one touch: random programs of
/// loads and (commutative) atomic adds, at warp widths 8 and 40 against
/// width 1. In a debug build every such access also checks its active
/// lanes against the steps.
#[test]
fn address_steps_hold_through_loops_and_branches() {
    let mut rng = Rng(0xa55e_55ed_1009_5eed);
    let input: Vec<u32> = (0..300u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) >> 8)
        .collect();
    let mut stepped = 0;
    for case in 0..150 {
        let mut t = String::from(
            "cs_5_0\ndcl_resource_raw t0\ndcl_uav_raw u0\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_temps 5\n\
             dcl_thread_group 40, 1, 1\nmov r0.x, l(0)\nmov r2.x, l(0)\n",
        );
        let (a, c) = ([0, 4, 8, 12][rng.below(4)], rng.below(64));
        t += &format!("imad r1.x, vThreadIDInGroupFlattened.x, l({a}), l({c})\n");
        t += &format!(
            "loop\nuge r3.x, r0.x, l({})\nbreakc_nz r3.x\niadd r0.x, r0.x, l(1)\n",
            1 + rng.below(5)
        );
        for _ in 0..2 + rng.below(4) {
            let (bit, stride) = (1 << rng.below(6), 4 * rng.below(5));
            t += &match rng.below(6) {
                0 => format!(
                    "and r3.y, vThreadIDInGroupFlattened.x, l({bit})\nbreakc_nz r3.y\n"
                ),
                1 => format!(
                    "and r3.y, vThreadIDInGroupFlattened.x, l({bit})\nif_nz r3.y\n\
                     iadd r1.x, r1.x, l(4)\nendif\n"
                ),
                2 => format!(
                    "and r3.w, vThreadIDInGroupFlattened.x, l({bit})\ncontinuec_nz r3.w\n"
                ),
                3 => format!(
                    "if_nz r0.x\nimad r4.x, r0.x, l({stride}), l(8)\nelse\nmov r4.x, l(4)\nendif\n\
                     iadd r3.z, r1.x, r4.x\nld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r4.y, r3.z, t0.xxxx\n\
                     iadd r2.x, r2.x, r4.y\n"
                ),
                4 => format!(
                    "imad r3.z, r0.x, l({stride}), r1.x\n\
                     ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r4.y, r3.z, t0.xxxx\n\
                     iadd r2.x, r2.x, r4.y\n"
                ),
                _ => format!(
                    "imad r3.z, r0.x, l({stride}), r1.x\n\
                     iadd r4.z, r2.x, vThreadIDInGroupFlattened.x\natomic_iadd u0, r3.z, r4.z\n"
                ),
            };
        }
        t += "endloop\natomic_iadd u0, r1.x, r2.x\nret\n";
        let prog = program(&t);
        stepped += prog.code.len()
            - address_steps(prog.body())
                .iter()
                .filter(|f| f.is_none())
                .count();
        let run = |w: usize| {
            let out = sim_mem::Buffer::zeroed(1024).unwrap();
            let inp = sim_mem::Buffer::from_words(&input);
            let b = Bindings {
                srvs: vec![Some(BufferView::raw(&inp))],
                uavs: vec![Some(BufferView::raw(&out))],
                ..Default::default()
            };
            GroupExecutor::new(&prog, w).run_group([0, 0, 0], &b);
            out.to_words()
        };
        let one = run(1);
        for w in [8, 40] {
            assert_eq!(run(w), one, "case {case}, warp width {w}\n{t}");
        }
    }
    assert!(stepped > 100, "only {stepped} accesses had steps");
}

/// Multi-dword loads and stores on lines of structures (the register
/// file read and written directly for full warps) do what lanes one by
/// one do: random masks and swizzles, strides of 1–3 structures, under
/// lane-dependent branches, at warp widths 8 and 40 against width 1.
#[test]
fn multi_dword_lines_match_single_lanes() {
    let mut rng = Rng(0x0d0d_f00d_4444_0001);
    let input: Vec<u32> = (0..800u32).map(|i| i.wrapping_mul(0x2545_f491)).collect();
    let masks = ["x", "xy", "xyz", "xyzw", "xz", "yw", "w"];
    let swizzles = ["xyzw", "yxwz", "wzyx", "xxxx", "zwxy", "xyzz"];
    for case in 0..200 {
        let mut t = String::from(
            "cs_5_0\ndcl_resource_structured t0, 16\ndcl_uav_structured u0, 16\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_temps 4\n\
             dcl_thread_group 40, 1, 1\n",
        );
        for i in 0..3 {
            let (m1, c1) = (rng.below(4), rng.below(60));
            let (lm, ls) = (rng.pick(&masks), rng.pick(&swizzles));
            t += &format!(
                "imad r0.x, vThreadIDInGroupFlattened.x, l({m1}), l({c1})\n\
                 ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) \
                 r1.{lm}, r0.x, l(0), t0.{ls}\n"
            );
            let branch = rng.below(3) == 0;
            if branch {
                t += &format!(
                    "and r2.x, vThreadIDInGroupFlattened.x, l({})\nif_nz r2.x\n",
                    1 << rng.below(6)
                );
            }
            // each store its own structures: no two lanes or stores collide
            let (n, m2) = (1 + rng.below(4), 1 + rng.below(3));
            let sm = &"xyzw"[..n];
            let ss = &rng.pick(&swizzles)[..n];
            t += &format!(
                "imad r0.y, vThreadIDInGroupFlattened.x, l({m2}), l({})\n\
                 store_structured u0.{sm}, r0.y, l(0), r1.{ss}\n",
                130 * i
            );
            if branch {
                t += "endif\n";
            }
        }
        t += "ret\n";
        let prog = program(&t);
        let run = |w: usize| {
            let out = sim_mem::Buffer::zeroed(400 * 16).unwrap();
            let inp = sim_mem::Buffer::from_words(&input);
            let b = Bindings {
                srvs: vec![Some(BufferView::structured(&inp, 16).unwrap())],
                uavs: vec![Some(BufferView::structured(&out, 16).unwrap())],
                ..Default::default()
            };
            GroupExecutor::new(&prog, w).run_group([0, 0, 0], &b);
            out.to_words()
        };
        let one = run(1);
        assert!(
            one.iter().any(|&x| x != 0),
            "case {case}: nothing stored\n{t}"
        );
        // 13: full warps whose lanes are not a multiple of four (the
        // transposed float4 path's tail)
        for w in [8, 13, 40] {
            assert_eq!(run(w), one, "case {case}, warp width {w}\n{t}");
        }
    }
}

/// `load_line` and `store_line` on packed 16-byte structures (the
/// transposed quads of `quad`, and their word-by-word tail) against the
/// words one by one: every lane count from 1 to 19, at aligned and
/// unaligned first words, in rows wider than the lanes.
#[test]
fn float4_lines_match_word_by_word() {
    use sim_mem::sync::AtomicU32;
    use sim_mem::sync::Ordering::Relaxed;
    let w = 24;
    for n in 1..=19 {
        for first in [0, 1, 4, 7] {
            let words: Vec<AtomicU32> = (0..120u32)
                .map(|i| AtomicU32::new(i.wrapping_mul(0x9e37_79b9)))
                .collect();
            let mut rows = vec![0xdead_beef; 4 * w];
            load_line(&words, first, 4, n, 0xf, [0, 1, 2, 3], &mut rows, w);
            for (c, row) in rows.chunks(w).enumerate() {
                for (l, &v) in row.iter().enumerate() {
                    let want = if l < n {
                        words[first + 4 * l + c].load(Relaxed)
                    } else {
                        0xdead_beef
                    };
                    assert_eq!(v, want, "load n {n} first {first} row {c} lane {l}");
                }
            }
            let values: Vec<u32> = (0..4 * w as u32).map(|i| !i).collect();
            store_line(&words, first, 4, n, &values, w);
            for (i, x) in words.iter().enumerate() {
                let want = match i.checked_sub(first) {
                    Some(j) if j < 4 * n => values[(j % 4) * w + j / 4],
                    _ => (i as u32).wrapping_mul(0x9e37_79b9),
                };
                assert_eq!(x.load(Relaxed), want, "store n {n} first {first} word {i}");
            }
        }
    }
}

#[test]
fn active_lanes_spans_first_to_last_set_word() {
    let mut m = vec![0u32; 70];
    assert_eq!(active_lanes(&m), None);
    for (a, b) in [(0, 0), (5, 5), (15, 16), (3, 69), (40, 47), (69, 69)] {
        m.fill(0);
        m[a] = !0;
        m[b] = !0;
        assert_eq!(active_lanes(&m), Some(a..b + 1), "{a} {b}");
    }
}

#[test]
fn only_the_dot_products_sum_terms() {
    use AluOp::*;
    for (op, n) in [(Dp2, 2), (Dp3, 3), (Dp4, 4)] {
        assert_eq!(lane_op(op).dot, n);
    }
    for op in [Add, Mad, Movc, Msad, Ubfe, Bfi, F32tof16, FirstbitShi, Utof] {
        assert_eq!(lane_op(op).dot, 0);
    }
}

/// A full warp whose lanes' words repeat every `p` lanes (`slot = i % p`,
/// cas_float_add's with fewer slots than lanes) runs as chains of rows of
/// `p` (`address_period`), one compare-exchange per word: the words, the
/// registers after the loop and the counts are lockstep's, for a group of
/// 64 at warp widths 64 and 32 and for eight groups packed in one warp, at
/// 2 to 32 slots.
#[test]
fn cas_loops_on_words_that_repeat_every_few_lanes_run_as_chains() {
    let values: Vec<u32> = (0..512u32)
        .map(|i| (0.1f32 + i as f32 * 0.37).to_bits())
        .collect();
    let inp = sim_mem::Buffer::from_words(&values);
    let text = "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\n\
        dcl_resource_structured t0, 4\ndcl_uav_raw u0\ndcl_uav_raw u1\n\
        dcl_input vThreadID.x\ndcl_temps 3\ndcl_thread_group 64, 1, 1\n\
        ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) r0.x, vThreadID.x, l(0), t0.xxxx\n\
        udiv null, r0.y, vThreadID.x, cb0[0].x\nishl r0.y, r0.y, l(2)\n\
        ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.z, r0.y, u0.xxxx\n\
        mov r0.w, r0.z\nloop\nadd r1.x, r0.x, r0.w\n\
        imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x\n\
        ieq r1.y, r0.w, r1.x\nbreakc_nz r1.y\nmov r0.w, r1.x\nendloop\n\
        mov r1.z, r0.w\nishl r2.x, vThreadID.x, l(4)\n\
        store_raw u1.xyz, r2.x, r1.xyzx\nret\n";
    let prog = program(text);
    assert_eq!(prog.info().cas_loops.iter().flatten().count(), 1);
    let mut checked = 0;
    for slots in [2u32, 4, 8, 16, 32] {
        for (w, pack) in [(64, 1), (32, 1), (usize::MAX, 8)] {
            let run = |at_once: bool| {
                let sums = sim_mem::Buffer::zeroed(32 * 4).unwrap();
                let out = sim_mem::Buffer::zeroed(512 * 16).unwrap();
                let cb = [slots, 0, 0, 0];
                let b = Bindings {
                    constant_buffers: vec![Some(&cb[..])],
                    srvs: vec![Some(BufferView::structured(&inp, 4).unwrap())],
                    uavs: vec![Some(BufferView::raw(&sums)), Some(BufferView::raw(&out))],
                    ..Default::default()
                };
                let paths = if at_once {
                    FastPaths::ALL
                } else {
                    FastPaths::ALL.without(FastPaths::CAS_LOOP)
                };
                let mut ex = if pack > 1 {
                    GroupExecutor::packed(&prog, pack)
                } else {
                    GroupExecutor::new(&prog, w)
                }
                .with_fast_paths(paths);
                let groups = if pack > 1 { pack } else { 1 };
                ex.run_groups_watched([0, 0, 0], groups, &b, &Watchdog::unlimited())
                    .unwrap();
                (
                    sums.to_words(),
                    out.to_words(),
                    ex.stats().warp_instructions,
                )
            };
            let (a, l) = (run(true), run(false));
            assert_eq!(a, l, "{slots} slots, width {w}, {pack} groups a warp");
            assert!(a.0.iter().take(slots as usize).all(|&x| x != 0));
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
}

/// A warp's register arena starts on a 64-byte line (a row of 16 words is
/// then one line), whatever the allocator returns, and so does its clone.
#[test]
fn register_arenas_start_on_a_cache_line() {
    for len in [1, 15, 16, 100, 4096, 15872, 40000] {
        let mut a = AlignedWords::zeroed(len);
        assert_eq!(a.as_ptr().addr() % 64, 0, "{len} words");
        assert_eq!(a.len(), len);
        assert!(a.iter().all(|&w| w == 0));
        a[len - 1] = 7;
        let c = a.clone();
        assert_eq!(c.as_ptr().addr() % 64, 0);
        assert_eq!(&c[..], &a[..]);
    }
}

/// `LAZY_NAN`: `inf + -inf` from flushed sources, read only by `max`, `lt`,
/// `ftoi` and (through a `mov`) an `add`, keeps the CPU's NaN (x86's
/// default NaN has the sign bit set) in its register, and the canonical
/// one without the path; everything stored is the reference's, at warp
/// widths 1 and 8: the stored `add` of it, and another such NaN stored
/// through a `mov`, are the canonical NaN.
#[test]
fn unobserved_nans_keep_the_cpus_bits_and_stored_ones_are_canonical() {
    let text = "cs_5_0\ndcl_uav_raw u0\ndcl_uav_raw u1\n\
                dcl_input vThreadIDInGroupFlattened\ndcl_temps 4\n\
                dcl_thread_group 8, 1, 1\n\
                ishl r3.x, vThreadIDInGroupFlattened.x, l(2)\n\
                ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, r3.x, u1.xxxx\n\
                mul r0.y, r0.x, l(1.000000)\n\
                add r1.x, r0.y, -r0.y\n\
                max r1.y, r1.x, l(3.000000)\n\
                lt r1.z, r1.x, l(1.000000)\n\
                ftoi r1.w, r1.x\n\
                mov r2.x, r1.x\n\
                add r2.y, r2.x, l(1.000000)\n\
                add r0.z, r0.y, -r0.y\n\
                mov r2.z, r0.z\n\
                ishl r3.x, vThreadIDInGroupFlattened.x, l(4)\n\
                store_raw u0.xyzw, r3.x, r1.yzwy\n\
                iadd r3.y, r3.x, l(12)\n\
                store_raw u0.x, r3.y, r2.y\n\
                ishl r3.z, vThreadIDInGroupFlattened.x, l(2)\n\
                iadd r3.z, r3.z, l(128)\n\
                store_raw u0.x, r3.z, r2.z\nret\n";
    let prog = Program::from_decoded(crate::front::asm::assemble(text).unwrap(), None).unwrap();
    let unobserved = &prog.info().unobserved;
    assert!(
        unobserved[3] && unobserved[7],
        "add r1.x and mov r2.x: {unobserved:?}"
    );
    assert!(!unobserved[8], "the stored add: {unobserved:?}");
    assert!(
        !unobserved[9],
        "the add stored through a mov: {unobserved:?}"
    );
    // infinities (NaN after inf - inf), a NaN, finite values
    let input = [
        0x7f80_0000u32,
        0xff80_0000,
        0x7fc0_0000,
        0x3f80_0000,
        0xc0a0_0000,
        0,
        0x7f80_0000,
        0x4120_0000,
    ];
    let run = |w: usize, paths: FastPaths| {
        let out = sim_mem::Buffer::zeroed(160).unwrap();
        let inp = sim_mem::Buffer::from_words(&input);
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out)), Some(BufferView::raw(&inp))],
            ..Default::default()
        };
        let mut ex = GroupExecutor::new(&prog, w).with_fast_paths(paths);
        ex.run_group([0, 0, 0], &b);
        // r1.x of thread 0 (an infinity: NaN after the add)
        let r1x = ex.warps[0].regs[4 * w];
        (out.to_words(), r1x)
    };
    let (reference, r1x) = run(8, FastPaths::NONE);
    assert_eq!(r1x, CANONICAL_NAN);
    // thread 0: max → 3, lt → false, ftoi → 0, the stored add → canonical
    assert_eq!(reference[..4], [0x4040_0000, 0, 0, CANONICAL_NAN]);
    // thread 3: 1 - 1 = 0
    assert_eq!(reference[12..16], [0x4040_0000, !0, 0, 0x3f80_0000]);
    // the copies (words 32 + thread): thread 0's canonical, thread 3's 0
    assert_eq!([reference[32], reference[35]], [CANONICAL_NAN, 0]);
    for w in [1, 8] {
        let (lazy, r1x) = run(w, FastPaths::ALL);
        assert_eq!(lazy, reference, "warp width {w}");
        assert!(
            f32::from_bits(r1x).is_nan() && r1x != CANONICAL_NAN,
            "{r1x:#x}"
        );
        let (eager, r1x) = run(w, FastPaths::ALL.without(FastPaths::LAZY_NAN));
        assert_eq!(eager, reference, "warp width {w}");
        assert_eq!(r1x, CANONICAL_NAN);
    }
}

/// Checking changes no result: random race-free memory programs (TGSM and
/// UAV at coalesced, strided, uniform and partly out-of-bounds addresses)
/// and random loops with lane-dependent exits leave the same UAV words
/// with a checker attached as without, at warp widths 1, 8 and the group;
/// and the checker finds no race, no barrier fault and no forward-progress
/// fault in them (their bounds and uninitialised reads are theirs).
#[test]
fn checking_changes_no_result_and_finds_no_race_in_race_free_programs() {
    let mut rng = Rng(0x5eed_c0de_0000_0001);
    let input: Vec<u32> = (0..50u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let cb: Vec<u32> = vec![
        0x3f80_0000,
        3,
        0x8000_0001,
        0xc040_0000,
        7,
        0xffff_fff0,
        0x4120_0000,
        0,
    ];
    let (mut memory, mut loops, mut bounds) = (0, 0, 0);
    for case in 0..60 {
        let text = match case % 2 {
            0 => random_memory_shader(&mut rng, case % 4 == 2),
            _ => random_loop_shader(&mut rng),
        };
        let prog = program(&text);
        for w in [1, 8, usize::MAX] {
            let run = |checked: bool| {
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
                let mut ex = GroupExecutor::new(&prog, w);
                if checked {
                    let mut ck = Checker::new(&prog, Default::default());
                    ck.begin_dispatch(&b, [1, 1, 1]);
                    ex.set_checker(Some(Box::new(ck)));
                }
                ex.run_group([0, 0, 0], &b);
                let findings = ex.take_checker().map(|mut ck| {
                    ck.end_dispatch();
                    ck.into_findings()
                });
                (out.to_words(), findings.unwrap_or_default())
            };
            let (plain, _) = run(false);
            let (checked, findings) = run(true);
            assert_eq!(checked, plain, "case {case}, warp width {w}\n{text}");
            let races: Vec<String> = findings
                .iter()
                .filter(|f| {
                    !matches!(
                        f.kind,
                        FindingKind::OutOfBounds
                            | FindingKind::TgsmOutOfBounds
                            | FindingKind::UninitialisedRead
                    )
                })
                .map(|f| f.to_string())
                .collect();
            assert!(
                races.is_empty(),
                "case {case}, warp width {w}:\n{}\n{text}",
                races.join("\n")
            );
            bounds += findings.len() - races.len();
        }
        *if case % 2 == 0 {
            &mut memory
        } else {
            &mut loops
        } += 1;
    }
    assert_eq!((memory, loops), (30, 30));
    // the checker saw the accesses: the partly out-of-bounds ones
    assert!(bounds > 0, "no finding at all");
}

/// Past the executor's 8 MiB of immediate rows (`MAX_IMM_BYTES`: 2,048
/// distinct values for 1,024 threads in warps of 32), an instruction that
/// reads a new literal takes the reference path, and the results are those
/// of the reference path everywhere.
#[test]
fn literals_past_the_immediate_rows_cap_take_the_reference_path() {
    let n = 3000;
    let mut s = String::from(
        "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroup.x\ndcl_temps 2\n\
         dcl_thread_group 1024, 1, 1\nmov r0.x, vThreadIDInGroup.x\n",
    );
    for k in 0..n {
        s += &format!("iadd r0.x, r0.x, l({})\n", k * 7 + 1);
    }
    s += "ishl r1.x, vThreadIDInGroup.x, l(2)\nstore_raw u0.x, r1.x, r0.x\nret\n";
    let prog = program(&s);
    let run = |paths: FastPaths| {
        let out = sim_mem::Buffer::zeroed(4 * 1024).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let mut ex = GroupExecutor::new(&prog, 32).with_fast_paths(paths);
        let resolved = ex.plan.iter().filter_map(|s| s.row()).count();
        ex.run_group([0, 0, 0], &b);
        (out.to_words(), resolved)
    };
    let (fast, resolved) = run(FastPaths::ALL);
    let (reference, none) = run(FastPaths::ALL.without(FastPaths::ROW_ALU));
    assert_eq!(none, 0);
    let max = MAX_IMM_BYTES / (4 * 32 * 32);
    assert!(
        resolved >= max && resolved < n,
        "{resolved} of {n} resolved"
    );
    assert_eq!(fast, reference);
    let sum: u32 = (0..n as u32).map(|k| k * 7 + 1).sum();
    assert_eq!(fast[5], 5 + sum);
}

/// Executors of one program and shape share one plan (made once, not per
/// worker); one with fewer fast paths takes a copy of its own, leaving
/// the shared plan whole.
#[test]
fn executors_of_one_shape_share_their_plan() {
    let prog = program(&random_shader(&mut Rng(7)));
    let a = GroupExecutor::new(&prog, 8);
    let b = GroupExecutor::new(&prog, 8);
    assert!(Arc::ptr_eq(&a.plan, &b.plan));
    let c = GroupExecutor::new(&prog, 8).with_fast_paths(FastPaths::NONE);
    assert!(!Arc::ptr_eq(&a.plan, &c.plan));
    assert!(c.plan.iter().all(|s| s.row().is_none()));
    assert!(a.plan.iter().any(|s| s.row().is_some()));
    let d = GroupExecutor::new(&prog, 4);
    assert!(!Arc::ptr_eq(&a.plan, &d.plan));
}

/// The fast paths are declared once (`fast_paths!`): bit k is the kth
/// path, their names differ, and `ALL` is every one of them.
#[test]
fn fast_paths_are_declared_once() {
    let mut all = FastPaths::NONE;
    let mut names = std::collections::HashSet::new();
    for (k, (path, name)) in FastPaths::EACH.iter().enumerate() {
        assert_eq!(*path, FastPaths::NONE.with(*path));
        assert!(!all.contains(*path), "{name} shares a bit");
        assert!(FastPaths::ALL.contains(*path), "{name}");
        assert!(names.insert(*name), "{name} twice");
        assert_eq!(format!("{path:?}"), format!("FastPaths({})", 1u32 << k));
        all = all.with(*path);
    }
    assert_eq!(all, FastPaths::ALL);
    assert_eq!(FastPaths::default(), FastPaths::ALL);
}

/// A load's or store's immediate address operands are planned as rows of
/// the warp's arena (`Step::imm_rows`, under `ROW_ALU`) holding the value
/// in every lane, read instead of a row filled per warp-instruction; with
/// `ROW_ALU` off there are none, and both leave the same words (in and out
/// of bounds).
#[test]
fn immediate_addresses_read_planned_rows() {
    let prog = program(
        "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_raw u0\n\
         dcl_input vThreadIDInGroupFlattened\ndcl_temps 2\n\
         dcl_tgsm_structured g0, 8, 40\ndcl_thread_group 40, 1, 1\n\
         imad r0.x, vThreadIDInGroupFlattened.x, l(3), l(1)\n\
         store_structured g0.xy, vThreadIDInGroupFlattened.x, l(0), r0.xxxx\n\
         store_structured g0.x, l(7), l(4), l(99)\n\
         sync_g_t\n\
         ld_structured r1.x, l(5), l(0), g0.xxxx\n\
         ld_structured r1.y, l(7), l(4), g0.xxxx\n\
         ld_structured r1.z, l(40), l(0), g0.xxxx\n\
         store_raw u0.x, l(400), r1.z\n\
         ishl r0.y, vThreadIDInGroupFlattened.x, l(3)\n\
         store_raw u0.xy, r0.y, r1.xyxx\n\
         ret\n",
    );
    let run = |paths: FastPaths| {
        let out = sim_mem::Buffer::zeroed(512).unwrap();
        let b = Bindings {
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let mut ex = GroupExecutor::new(&prog, 40).with_fast_paths(paths);
        let rows: Vec<[u32; 2]> = ex.plan.iter().map(|s| s.imm_rows).collect();
        ex.run_group([0, 0, 0], &b);
        (out.to_words(), rows, ex)
    };
    let (with, rows, ex) = run(FastPaths::ALL);
    let (without, none, _) = run(FastPaths::ALL.without(FastPaths::ROW_ALU));
    let no = crate::exec::fast::rows::NO_ROW;
    // the store's index and offset, the loads' (the second operand of the
    // first and third is l(0)), the raw store's address
    for (pc, want) in [(2, [7, 4]), (4, [5, 0]), (5, [7, 4]), (6, [40, 0])] {
        let [a, b] = rows[pc];
        assert!(a != no && b != no, "pc {pc}: no rows");
        for (r, v) in [(a, want[0]), (b, want[1])] {
            let r = r as usize;
            assert!(
                ex.warps[0].regs[r..r + 40].iter().all(|&x| x == v),
                "pc {pc}"
            );
        }
    }
    assert_ne!(rows[7][0], no);
    assert!(none.iter().all(|r| *r == [no, no]), "rows without ROW_ALU");
    assert_eq!(with, without);
    // lane 2: its loads of structures 5 and 7 (16 and 99), the one out of
    // bounds (0) at byte 400
    assert_eq!(&with[4..6], &[16, 99]);
    assert_eq!(with[100], 0);
}
