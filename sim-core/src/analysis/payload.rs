//! Which float results' NaN payloads no instruction observes, found once
//! per program.
//!
//! A float result that is NaN has an unspecified payload
//! (`reference/compute-model.md` §8); the row kernels store the canonical
//! quiet NaN ([`crate::isa::lanes::fout`]) so that a result's bits never depend
//! on the warp width, the active lanes or the CPU. That costs a compare and
//! a blend per vector of every float instruction, and matters only where
//! something reads the bits: a store, an integer or bitwise instruction, a
//! conversion to double or half, an atomic, an address. Float arithmetic
//! and comparisons do not: a NaN source makes a NaN (or a comparison's
//! fixed answer, or `min`/`max`'s other operand, or `ftoi`'s 0) whatever
//! its payload, and `_sat` makes any NaN 0.
//!
//! So a temp component's payload is *observed* at a pc when, on some path
//! of a lane from there, an instruction other than those reads it before
//! it is written — where `mov` and `movc` pass it on: their source is
//! observed where the destination component they write is. This is a
//! backward may-dataflow over the lane's control flow
//! ([`crate::analysis::flushed::lane_edges`]), like the liveness of
//! [`crate::analysis::liveness`]. An ALU instruction whose written
//! components are all unobserved after it may leave its NaN results as
//! the CPU makes them ([`crate::isa::lanes::fout_blind`]): every bit anything
//! reads is the same.
//!
//! The analysis gives up (every result is observed) on a program with a
//! `switch` or a call, as the liveness does.

use crate::analysis::flushed::{lane_edges, Next};
use crate::analysis::liveness::{index_reads, kills, reads, Set};
use crate::ir::lowered::{Body, DstKind, Op, OpKind, Src, SrcKind};
use crate::isa::opcodes::AluOp;

/// Whether `op` reads its sources' values as floats only, so that a NaN
/// source's payload cannot change any bit of its result beyond that
/// result's own NaN (see the module docs).
fn reads_as_float(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        Add | Mul
            | Mad
            | Div
            | Dp2
            | Dp3
            | Dp4
            | Min
            | Max
            | Exp
            | Log
            | Frc
            | RoundNe
            | RoundNi
            | RoundPi
            | RoundZ
            | Rcp
            | Rsq
            | Sqrt
            | Eq
            | Ne
            | Lt
            | Ge
            | Ftoi
            | Ftou
    )
}

/// `f(component)` for each temp component whose bits `op` observes, given
/// the components observed after it (`after`: what a `mov`'s or `movc`'s
/// destination passes on to its sources).
fn observes(prog: Body<'_>, op: &Op, after: &Set, f: &mut impl FnMut(usize)) {
    let temp = |s: &Src, c: usize| match s.kind {
        SrcKind::Temp(r) => Some(r as usize * 4 + s.swz[c] as usize),
        _ => None,
    };
    index_reads(prog, op, f);
    match op.kind {
        OpKind::Alu {
            op: alu,
            ref dst,
            ref src,
            ..
        } if reads_as_float(alu) || matches!(alu, AluOp::Mov | AluOp::Movc) => {
            if reads_as_float(alu) {
                return;
            }
            // a copy: its sources' components as its destination's
            let DstKind::Temp(r) = dst.kind else {
                // into an indexable temp: observed wherever it is
                return reads(prog, op, f);
            };
            let copied = if alu == AluOp::Mov {
                &src[..1]
            } else {
                &src[1..3]
            };
            for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                if after.contains(r as usize * 4 + c) {
                    copied.iter().filter_map(|s| temp(s, c)).for_each(&mut *f);
                }
            }
        }
        _ => reads(prog, op, f),
    }
}

/// Per pc, whether the instruction is an ALU instruction into temps none
/// of whose written components' payloads is observed after it (see the
/// module docs): its NaN results may keep the CPU's payload. All false
/// where the lane edges cannot tell (a switch or a call).
pub(crate) fn unobserved_results(prog: Body<'_>) -> Vec<bool> {
    let n = prog.code.len();
    let none = vec![false; n];
    let bits = prog.temps as usize * 4;
    let edges = lane_edges(prog);
    if edges.contains(&Next::Forget)
        || prog
            .code
            .iter()
            .any(|op| matches!(op.kind, OpKind::Switch { .. }))
    {
        return none;
    }
    let mut defs = vec![Set::new(bits); n];
    for (pc, op) in prog.code.iter().enumerate() {
        kills(op, &mut |i| defs[pc].insert(i));
    }
    // per pc, the components observed on entry; and after it
    let mut seen_in = vec![Set::new(bits); n];
    let mut seen_out = vec![Set::new(bits); n];
    // each sweep can only add bits, so this ends
    loop {
        let mut changed = false;
        for pc in (0..n).rev() {
            let Next::To(to) = edges[pc] else {
                return none;
            };
            let mut out = Set::new(bits);
            for t in to.into_iter().flatten().filter(|&t| t < n) {
                out.0
                    .iter_mut()
                    .zip(&seen_in[t].0)
                    .for_each(|(a, b)| *a |= b);
            }
            let mut s = out.clone();
            s.0.iter_mut().zip(&defs[pc].0).for_each(|(a, d)| *a &= !d);
            observes(prog, &prog.code[pc], &out, &mut |i| s.insert(i));
            if s != seen_in[pc] {
                seen_in[pc] = s;
                changed = true;
            }
            seen_out[pc] = out;
        }
        if !changed {
            break;
        }
    }
    prog.code
        .iter()
        .zip(&seen_out)
        .map(|(op, out)| match op.kind {
            OpKind::Alu { ref dst, .. } => {
                let DstKind::Temp(r) = dst.kind else {
                    return false;
                };
                (0..4)
                    .filter(|c| dst.mask & (1 << c) != 0)
                    .all(|c| !out.contains(r as usize * 4 + c))
            }
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Program;

    /// `unobserved_results` of a program of `body` (one instruction a line,
    /// pc = line), with a raw UAV u0 to store to.
    fn unobserved(body: &str) -> Vec<bool> {
        let text = format!(
            "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_temps 6\ndcl_thread_group 8, 1, 1\n{body}ret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        unobserved_results(prog.body())
    }

    const STORE: &str = "store_raw u0.x, l(0)";

    /// Float arithmetic and comparisons do not observe; a store, integer
    /// and bitwise instructions and `utof` do; a `mov` passes on what its
    /// destination meets, component by component.
    #[test]
    fn stores_integer_reads_and_copies_observe() {
        let body = format!(
            "add r0.x, r1.x, l(1.000000)\n\
             mul r0.y, r0.x, r0.x\n\
             lt r0.z, r0.y, l(4.000000)\n\
             add r1.x, r1.y, l(1.000000)\n\
             {STORE}, r1.x\n\
             add r1.y, r1.z, l(1.000000)\n\
             iadd r2.x, r1.y, l(1)\n\
             add r2.y, r1.z, l(1.000000)\n\
             mov r3.xy, r2.yyyy\n\
             {STORE}, r3.x\n\
             add r2.z, r1.z, l(1.000000)\n\
             mov r3.xy, r2.zzzz\n\
             {STORE}, r3.y\n\
             add r2.w, r1.z, l(1.000000)\n\
             mov r4.x, r2.w\n\
             ftoi r4.y, r4.x\n\
             {STORE}, r4.y\n"
        );
        let u = unobserved(&body);
        assert_eq!(
            u[..17],
            [
                true, true, true, false, false, false, true, false, false, false, false, false,
                false, true, true, false, false
            ]
        );
    }

    /// A loop's back edge carries what the loop's head observes: a result
    /// read only by float arithmetic in the next iteration stays
    /// unobserved, one stored after the loop does not.
    #[test]
    fn loops_carry_observation_around_their_back_edge() {
        let body = format!(
            "mov r0.xy, l(0,0,0,0)\n\
             loop\n\
             lt r1.x, l(4.000000), r0.x\n\
             breakc_nz r1.x\n\
             mul r1.y, r0.x, r0.x\n\
             add r0.x, r1.y, l(0.250000)\n\
             add r0.y, r0.y, l(1.000000)\n\
             endloop\n\
             {STORE}, r0.y\n"
        );
        let u = unobserved(&body);
        assert_eq!(
            u[..9],
            [false, false, false, false, true, true, false, false, false]
        );
    }

    /// A switch or a call: nothing is unobserved.
    #[test]
    fn switches_give_up() {
        let body = "add r0.x, r1.x, l(1.000000)\n\
                    switch r0.x\n\
                    default\n\
                    break\n\
                    endswitch\n";
        assert!(unobserved(body).iter().all(|&u| !u));
    }
}
