//! Which source words of each ALU instruction are flushed, found once per
//! program.
//!
//! Every float instruction flushes a denormal input to zero (sign kept)
//! before it computes (`reference/compute-model.md` §8), and its result is
//! flushed and NaN-canonical ([`crate::isa::lanes`]'s `fout`). A word whose bits
//! are not a denormal (a zero, a normal number, an infinity, a NaN, or any
//! integer whose bits 23–30 are not all zero) is *flushed*: flushing it
//! changes nothing. A float instruction whose sources are all flushed can
//! skip its input flushes, which are about a third of the vector
//! instructions of an `add` or a `mul` (`LaneOp::flushed_rows`).
//!
//! What writes a flushed value:
//! - float arithmetic and conversions to float (their results pass through
//!   `fout`), comparisons (0 or all ones), and any result with `_sat`;
//! - `mov` of a flushed source, `movc` of two flushed sources; a float
//!   source modifier (`-`, `|x|`) keeps a word flushed, an integer one
//!   does not;
//! - an immediate whose modified bits are not a denormal.
//!
//! Everything else (integer and bit operations, loads, texture results,
//! atomics' returned values, double-precision results, counters) may write
//! any bits. The matches over instruction kinds are exhaustive, so a new
//! kind must say what it writes and where it goes.
//!
//! Two analyses, the second built on the first:
//! - [`invariant`], flow-insensitive: a component is flushed when every
//!   instruction anywhere that writes it writes a flushed value, given what
//!   is flushed (a greatest fixpoint from "all flushed"). Registers start as
//!   zeros, and a write gives each lane it writes (an inactive one too,
//!   where it skips the blend) that instruction's result on that lane's
//!   words, so by induction over the steps of any execution this holds at
//!   every point of every lane.
//! - [`flushed_sources`], flow-sensitive: a forward must-dataflow over the
//!   lane's control-flow graph (the meet of two paths is what both know),
//!   starting from the invariant wherever it cannot follow the flow (a
//!   subroutine's entry, after a call, at a `case`). A lane reads the
//!   registers of its own path: a row kernel computes on the inactive lanes
//!   of a partial warp, but blends their old words back unless no inactive
//!   lane reads that word again before writing it (`crate::analysis::liveness`).

use crate::ir::lowered::{Body, Dst, DstKind, Op, OpKind, Src, SrcKind, SrcMod};
use crate::isa::opcodes::AluOp;
/// Whether a word's bits are not a denormal float (an exponent field of
/// zero with a nonzero mantissa): flushing it to zero changes nothing.
pub(crate) fn is_flushed(w: u32) -> bool {
    w & 0x7f80_0000 != 0 || w & 0x007f_ffff == 0
}

/// Per temp component (`r * 4 + c`, `prog.temps * 4` entries), whether it
/// only ever holds flushed words, anywhere (see the module docs).
pub(crate) fn invariant(prog: Body<'_>) -> Vec<bool> {
    let mut flushed = vec![true; prog.temps as usize * 4];
    // each pass can only clear entries, so this ends within n + 1 passes
    let mut clear = Vec::new();
    loop {
        let mut changed = false;
        for op in prog.code {
            writes(prog, op, &flushed, &mut |i, v| {
                if !v {
                    clear.push(i);
                }
            });
            for i in clear.drain(..) {
                if let Some(f) = flushed.get_mut(i) {
                    changed |= *f;
                    *f = false;
                }
            }
        }
        if !changed {
            return flushed;
        }
    }
}

/// Whether component `c` of source `s` is a flushed word (its swizzle and
/// modifier applied), given the flushed temp components.
pub(crate) fn src_flushed(flushed: &[bool], s: &Src, c: usize) -> bool {
    let sc = s.swz[c] as usize;
    let float_modifier = matches!(
        s.modifier,
        SrcMod::None | SrcMod::FNeg | SrcMod::FAbs | SrcMod::FAbsNeg
    );
    match s.kind {
        SrcKind::Imm(v) => is_flushed(crate::ir::lowered::modify(v[sc], s.modifier)),
        SrcKind::Temp(r) => {
            float_modifier && flushed.get(r as usize * 4 + sc).copied().unwrap_or(false)
        }
        SrcKind::XTemp { .. }
        | SrcKind::ThreadId
        | SrcKind::GroupId
        | SrcKind::ThreadIdInGroup
        | SrcKind::Flattened
        | SrcKind::Cb { .. }
        | SrcKind::Icb { .. } => false,
    }
}

/// `f(component, flushed)` for each temp component `op` writes.
fn writes(prog: Body<'_>, op: &Op, flushed: &[bool], f: &mut impl FnMut(usize, bool)) {
    let mut each = |dst: &Dst, value: &dyn Fn(usize) -> bool| {
        if let DstKind::Temp(r) = dst.kind {
            for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                f(r as usize * 4 + c, value(c));
            }
        }
    };
    match op.kind {
        OpKind::Alu {
            op,
            ref dst,
            ref src,
            sat,
        } => {
            let s = |i: usize, c: usize| src_flushed(flushed, &src[i], c);
            each(dst, &|c| {
                sat || crate::isa::lanes::result_flushed(op)
                    || match op {
                        AluOp::Mov => s(0, c),
                        AluOp::Movc => s(1, c) && s(2, c),
                        _ => false,
                    }
            });
        }
        OpKind::Alu2 { ref dst, .. } => {
            each(&dst[0], &|_| false);
            each(&dst[1], &|_| false);
        }
        OpKind::Double { ref dst, .. }
        | OpKind::LdRaw { ref dst, .. }
        | OpKind::LdStructured { ref dst, .. }
        | OpKind::LdTyped { ref dst, .. }
        | OpKind::Counter { ref dst, .. }
        | OpKind::Bufinfo { ref dst, .. } => each(dst, &|_| false),
        OpKind::Atomic { ref ret, .. } => {
            if let Some(d) = ret {
                each(d, &|_| false);
            }
        }
        OpKind::Texture { index } => {
            if let Some(t) = prog.tex_ops.get(index as usize) {
                each(&t.dst, &|_| false);
            }
        }
        OpKind::If { .. }
        | OpKind::Else { .. }
        | OpKind::EndIf
        | OpKind::Loop { .. }
        | OpKind::EndLoop { .. }
        | OpKind::Break { .. }
        | OpKind::Continue { .. }
        | OpKind::Switch { .. }
        | OpKind::Case { .. }
        | OpKind::Default
        | OpKind::EndSwitch
        | OpKind::InterfaceCall { .. }
        | OpKind::Call { .. }
        | OpKind::Ret { .. }
        | OpKind::StoreTyped { .. }
        | OpKind::StoreRaw { .. }
        | OpKind::StoreStructured { .. }
        | OpKind::Abort
        | OpKind::DebugBreak
        | OpKind::Message { .. }
        | OpKind::Sync { .. }
        | OpKind::Nop => {}
    }
}

/// Where control goes after the instruction at `pc`, for [`flushed_sources`]
/// and `crate::analysis::liveness`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// to these instructions (none: the lane ends)
    To([Option<usize>; 2]),
    /// to `pc + 1`, after a call, whose effects this does not follow
    Forget,
}

/// Per pc, where a lane goes after the instruction there ([`Next`]): the
/// next pc; an `if`'s branch; an `else` to its `endif`; an `endloop` back
/// to its `loop`; a `break` after its loop's `endloop`, a `continue` to its
/// loop, a `ret` nowhere (each conditional one to the next pc, too). A
/// `switch` (and a `break` of one, which leaves through its `endswitch`)
/// has no edges here: a user of these edges must start afresh at its
/// `case`s, `default` and `endswitch`. A call is [`Next::Forget`].
pub(crate) fn lane_edges(prog: Body<'_>) -> Vec<Next> {
    let n = prog.code.len();
    // the innermost loop, and loop or switch, around each pc
    let mut loop_at = vec![None; n];
    let mut breakable_at = vec![None; n];
    let mut stack: Vec<(usize, bool)> = Vec::new();
    for (pc, op) in prog.code.iter().enumerate() {
        match op.kind {
            OpKind::EndLoop { .. } | OpKind::EndSwitch => {
                stack.pop();
            }
            _ => {}
        }
        loop_at[pc] = stack
            .iter()
            .rev()
            .find(|&&(_, is_loop)| is_loop)
            .map(|&(p, _)| p);
        breakable_at[pc] = stack.last().copied();
        match op.kind {
            OpKind::Loop { .. } => stack.push((pc, true)),
            OpKind::Switch { .. } => stack.push((pc, false)),
            _ => {}
        }
    }
    let after_loop = |l: usize| match prog.code.get(l).map(|o| &o.kind) {
        Some(&OpKind::Loop { end_pc }) => Some(end_pc as usize + 1),
        _ => None,
    };
    // where a `break` goes: after the loop's `endloop` (a switch's
    // `endswitch` is a fresh start: no edge)
    let break_to = |pc: usize| match breakable_at[pc] {
        Some((l, true)) => after_loop(l),
        _ => None,
    };
    let next = |pc: usize| -> Next {
        let seq = Some(pc + 1);
        let to = |a: Option<usize>, b: Option<usize>| Next::To([a, b]);
        match prog.code[pc].kind {
            OpKind::If {
                else_pc, endif_pc, ..
            } => to(
                seq,
                Some(else_pc.map_or(endif_pc as usize, |e| e as usize + 1)),
            ),
            OpKind::Else { endif_pc } => to(Some(endif_pc as usize), None),
            OpKind::EndLoop { start_pc } => to(Some(start_pc as usize), None),
            OpKind::Break { cond } => to(cond.map(|_| pc + 1), break_to(pc)),
            OpKind::Continue { cond } => to(cond.map(|_| pc + 1), loop_at[pc]),
            OpKind::Ret { cond } => to(cond.map(|_| pc + 1), None),
            // the cases are fresh starts
            OpKind::Switch { .. } | OpKind::Abort => to(None, None),
            OpKind::Call { .. } | OpKind::InterfaceCall { .. } => Next::Forget,
            OpKind::Alu { .. }
            | OpKind::Double { .. }
            | OpKind::Alu2 { .. }
            | OpKind::EndIf
            | OpKind::Loop { .. }
            | OpKind::Case { .. }
            | OpKind::Default
            | OpKind::EndSwitch
            | OpKind::LdRaw { .. }
            | OpKind::LdStructured { .. }
            | OpKind::LdTyped { .. }
            | OpKind::StoreTyped { .. }
            | OpKind::StoreRaw { .. }
            | OpKind::StoreStructured { .. }
            | OpKind::Atomic { .. }
            | OpKind::Counter { .. }
            | OpKind::Bufinfo { .. }
            | OpKind::DebugBreak
            | OpKind::Message { .. }
            | OpKind::Sync { .. }
            | OpKind::Texture { .. }
            | OpKind::Nop => to(seq, None),
        }
    };
    (0..n).map(next).collect()
}

/// Per pc, whether the instruction is an ALU instruction every source word
/// of which (for each destination component, or a dot product's terms) is
/// flushed on every path to it (see the module docs).
pub(crate) fn flushed_sources(prog: Body<'_>) -> Vec<bool> {
    let base = invariant(prog);
    let n = prog.code.len();
    let edges = lane_edges(prog);
    let resets = |pc: usize| {
        matches!(
            prog.code[pc].kind,
            OpKind::Case { .. } | OpKind::Default | OpKind::EndSwitch
        )
    };
    // what holds on entry to each pc (None: not reached yet)
    let mut state: Vec<Option<Vec<bool>>> = vec![None; n];
    let mut work: Vec<usize> = Vec::new();
    let merge =
        |state: &mut Vec<Option<Vec<bool>>>, work: &mut Vec<usize>, to: usize, v: &[bool]| {
            let Some(slot) = state.get_mut(to) else {
                return;
            };
            let changed = match slot {
                None => {
                    *slot = Some(v.to_vec());
                    true
                }
                Some(s) => {
                    let mut changed = false;
                    for (s, &v) in s.iter_mut().zip(v) {
                        if *s && !v {
                            *s = false;
                            changed = true;
                        }
                    }
                    changed
                }
            };
            if changed {
                work.push(to);
            }
        };
    // registers start as zeros: everything is flushed at pc 0
    let all = vec![true; base.len()];
    if n > 0 {
        merge(&mut state, &mut work, 0, &all);
    }
    let mut seed = 0;
    loop {
        while let Some(pc) = work.pop() {
            let before = match &state[pc] {
                Some(s) if !resets(pc) => s,
                _ => &base,
            };
            let mut s = before.clone();
            writes(prog, &prog.code[pc], before, &mut |i, v| {
                if let Some(x) = s.get_mut(i) {
                    *x = v;
                }
            });
            match edges[pc] {
                Next::To(to) => {
                    for t in to.into_iter().flatten() {
                        merge(&mut state, &mut work, t, &s);
                    }
                }
                Next::Forget => merge(&mut state, &mut work, pc + 1, &base),
            }
        }
        // what no edge reaches (a subroutine's entry, dead code) starts
        // from the invariant
        match (seed..n).find(|&pc| state[pc].is_none()) {
            Some(pc) => {
                seed = pc + 1;
                merge(&mut state, &mut work, pc, &base);
            }
            None => break,
        }
    }
    prog.code
        .iter()
        .zip(&state)
        .map(|(op, s)| match op.kind {
            OpKind::Alu {
                op,
                ref dst,
                ref src,
                ..
            } => alu_reads_flushed(s.as_deref().unwrap_or(&base), op, dst, src),
            _ => false,
        })
        .collect()
}

/// Whether every source word the ALU instruction reads (for each
/// destination component, or a dot product's terms) is flushed, given the
/// flushed temp components.
fn alu_reads_flushed(flushed: &[bool], op: AluOp, dst: &Dst, src: &[Src; 4]) -> bool {
    let dot = crate::isa::lanes::dot_terms(op);
    let read = |i: usize, c: usize| src_flushed(flushed, &src[i], c);
    if dot > 0 {
        (0..dot as usize).all(|c| read(0, c) && read(1, c))
    } else {
        let arity = crate::isa::lanes::arity(op);
        (0..4)
            .filter(|c| dst.mask & (1 << c) != 0)
            .all(|c| (0..arity as usize).all(|i| read(i, c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Program;

    /// `flushed_sources` of a program of `body` (one instruction a line,
    /// pc = line), with a raw SRV t0 to load unflushed words from.
    fn sources(body: &str) -> Vec<bool> {
        let text = format!(
            "cs_5_0\ndcl_resource_raw t0\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_temps 6\ndcl_thread_group 8, 1, 1\n{body}ret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        flushed_sources(prog.body())
    }

    const LD: &str = "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed)";

    #[test]
    fn denormal_bit_patterns() {
        for w in [
            0,
            0x8000_0000,
            0x0080_0000,
            0x3f80_0000,
            0x7f80_0000,
            0x7fc0_0000,
            !0,
        ] {
            assert!(is_flushed(w), "{w:#x}");
        }
        for w in [1, 0x8000_0001, 0x007f_ffff, 0x807f_ffff, 255] {
            assert!(!is_flushed(w), "{w:#x}");
        }
    }

    /// In straight-line code each read sees the last write: a loaded word
    /// is not flushed until a float instruction overwrites it; `and`'s
    /// result and a denormal immediate are not flushed; a float modifier
    /// keeps a word flushed, an integer one does not.
    #[test]
    fn straight_line_reads_see_the_last_write() {
        let body = format!(
            "mov r0.x, l(1.500000)\n\
             {LD} r1.x, l(0), t0.xxxx\n\
             add r2.x, r0.x, r0.x\n\
             add r2.y, r1.x, r0.x\n\
             mul r1.x, r1.x, l(2.000000)\n\
             add r2.z, r1.x, r0.x\n\
             and r0.y, r0.x, l(0x007fffff)\n\
             add r2.w, r0.y, r0.x\n\
             add r3.x, -|r0.x|, l(1.000000)\n\
             add r3.y, r0.x, l(0x00000001)\n\
             iadd r3.z, -r0.x, l(1)\n\
             lt r0.y, r0.x, l(1.000000)\n\
             movc r3.w, r0.y, r0.x, r2.x\n"
        );
        let s = sources(&body);
        assert_eq!(
            s[..13],
            [true, false, true, false, false, true, false, false, true, false, false, true, true]
        );
    }

    /// What a loop's back edge, a `break` and a `continue` carry reaches
    /// the loop's head and the code after it.
    #[test]
    fn loops_meet_their_back_edges_breaks_and_continues() {
        // a load at the end of the body reaches the head through the back
        // edge, and the code after the loop through the break
        let body = format!(
            "mov r0.x, l(1.000000)\n\
             mov r1.x, l(0)\n\
             loop\n\
             add r2.x, r0.x, r0.x\n\
             uge r1.y, r1.x, l(2)\n\
             breakc_nz r1.y\n\
             {LD} r0.x, l(0), t0.xxxx\n\
             iadd r1.x, r1.x, l(1)\n\
             endloop\n\
             add r2.y, r0.x, r0.x\n"
        );
        let s = sources(&body);
        assert!(!s[3] && !s[9], "{s:?}");
        // flushed again before the back edge: the head is flushed, but a
        // break between the load and the overwrite carries it out
        let body = format!(
            "mov r0.x, l(1.000000)\n\
             loop\n\
             add r2.x, r0.x, r0.x\n\
             {LD} r0.x, l(0), t0.xxxx\n\
             breakc_nz r0.x\n\
             mul r0.x, r0.x, l(2.000000)\n\
             endloop\n\
             add r2.y, r0.x, r0.x\n"
        );
        let s = sources(&body);
        assert!(s[2] && !s[7], "{s:?}");
        // the same without the break inside: after the loop it is flushed
        let body = format!(
            "mov r0.x, l(1.000000)\n\
             loop\n\
             add r2.x, r0.x, r0.x\n\
             {LD} r0.x, l(0), t0.xxxx\n\
             mul r0.x, r0.x, l(2.000000)\n\
             breakc_nz r0.x\n\
             endloop\n\
             add r2.y, r0.x, r0.x\n"
        );
        let s = sources(&body);
        assert!(s[2] && s[7], "{s:?}");
        // a continue between the load and the overwrite reaches the head
        let body = format!(
            "mov r0.x, l(1.000000)\n\
             loop\n\
             add r2.x, r0.x, r0.x\n\
             breakc_nz r2.x\n\
             {LD} r0.x, l(0), t0.xxxx\n\
             continuec_nz r0.x\n\
             mul r0.x, r0.x, l(2.000000)\n\
             endloop\n"
        );
        let s = sources(&body);
        assert!(!s[2], "{s:?}");
    }

    /// After an `if` what either branch leaves meets; inside the `else`,
    /// what held before the `if`.
    #[test]
    fn branches_meet_at_endif() {
        let body = format!(
            "mov r0.x, l(1.000000)\n\
             if_nz vThreadIDInGroupFlattened.x\n\
             {LD} r0.x, l(0), t0.xxxx\n\
             add r2.x, r0.x, r0.x\n\
             else\n\
             add r2.y, r0.x, r0.x\n\
             endif\n\
             add r2.z, r0.x, r0.x\n\
             if_z vThreadIDInGroupFlattened.x\n\
             mul r0.x, r0.x, l(2.000000)\n\
             endif\n\
             add r2.w, r0.x, r0.x\n\
             {LD} r0.x, l(0), t0.xxxx\n\
             if_z vThreadIDInGroupFlattened.x\n\
             mul r0.x, r0.x, l(2.000000)\n\
             else\n\
             mov r0.x, l(3.000000)\n\
             endif\n\
             add r3.x, r0.x, r0.x\n"
        );
        let s = sources(&body);
        assert_eq!(
            (s[3], s[5], s[7], s[11], s[18]),
            (false, true, false, false, true),
            "{s:?}"
        );
    }

    /// Where the flow is not followed (a `case`, the code after a call, a
    /// subroutine's entry) only the invariant holds: a component that some
    /// instruction loads into is not flushed there even if it is on the
    /// path.
    #[test]
    fn cases_calls_and_subroutines_know_only_the_invariant() {
        let body = format!(
            "{LD} r0.x, l(0), t0.xxxx\n\
             mul r0.x, r0.x, l(2.000000)\n\
             mov r0.y, l(1.000000)\n\
             switch vThreadIDInGroupFlattened.x\n\
             case l(0)\n\
             add r2.x, r0.x, r0.x\n\
             add r2.y, r0.y, r0.y\n\
             break\n\
             endswitch\n\
             mul r0.x, r0.x, l(2.000000)\n\
             call l0\n\
             add r2.z, r0.x, r0.x\n\
             add r2.w, r0.y, r0.y\n\
             ret\n\
             label l0\n\
             add r3.x, r0.y, r0.x\n\
             add r3.y, r0.y, r0.y\n"
        );
        let s = sources(&body);
        assert_eq!(
            (s[5], s[6], s[11], s[12], s[15], s[16]),
            (false, true, false, true, false, true),
            "{s:?}"
        );
    }
}
