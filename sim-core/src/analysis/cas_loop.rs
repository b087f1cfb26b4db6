//! Compare-exchange retry loops that the executor runs lane by lane to
//! completion, as one step of the warp.
//!
//! HLSL has no atomic float add, maximum of floats or the like; shaders
//! write them as a loop around `InterlockedCompareExchange` that retries
//! until the word it read has not changed in between, and fxc compiles
//! that loop to one form ([`CasLoop`]). Run in lockstep, every pass of the
//! loop costs the warp seven or eight instructions whatever the lanes do,
//! a lane whose compare-exchange failed costs it a whole further pass, and
//! lanes of one warp that meet on a word succeed one per pass (each
//! compared against the same stale word).
//!
//! When the loop has that form, the executor instead runs each active
//! lane's iterations at once, lane after lane, until its compare-exchange
//! succeeds (`Cx::cas_loop`), and leaves each lane's registers
//! as its last iteration would. That is one of the executions the memory
//! model allows: the threads of a dispatch share no order but the one
//! barriers and atomics give them (`reference/compute-model.md` §5, §12),
//! and what a lane runs between two of its compare-exchanges (the
//! operation, the test, the copy) touches only its own registers, so
//! running a lane's iterations before the next lane's first is one
//! interleaving among those a GPU may produce.
//!
//! Where several lanes meet on one word, they run back to back as a chain:
//! each lane's compare-exchange would read the value the lane before it
//! wrote, so the executor computes the chain's values in registers and
//! writes the word once, by one compare-exchange from the value the first
//! lane read to the value the last lane leaves. No other thread can tell
//! that apart from the lanes' compare-exchanges following one another with
//! nothing between them (the values between were never read), which is
//! again an interleaving a GPU may produce; where the compare-exchange
//! fails, another thread wrote the word in between, and the chain runs
//! again from the value it found, as its first lane's retry would.

use crate::ir::lowered::{
    AluOp, AtomicKind, Body, Dst, DstKind, OpKind, Res, Src, SrcKind, SrcMod,
};

/// Where one lane's source word of the loop's operation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Val {
    /// a temp's component: its row, `reg·4 + component`, in the register
    /// file (not written in the loop)
    Temp(u32),
    /// an immediate
    Imm(u32),
    /// a constant-buffer word (immediate index)
    Cb { slot: u32, word: u64 },
    /// the loop's expected word `e`
    Expected,
}

/// A source operand of the loop's operation: where its word comes from
/// and its modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Operand {
    pub val: Val,
    pub modifier: SrcMod,
}

/// A loop of the form fxc gives
/// `for (;;) { InterlockedCompareExchange(m, e, f(e), o); if (o == e) break; e = o; }`:
///
/// ```text
/// loop
///   op n, …e…                         (one ALU instruction, one component)
///   imm_atomic_cmp_exch o, m, addr, e, n
///   ieq t, e, o                       (or t, o, e)
///   if_nz t / break / endif           (or breakc_nz t)
///   mov e, o
/// endloop
/// ```
///
/// on a buffer UAV (the executor runs it at once where the view bound is
/// raw, structured, or typed with 32-bit elements), with nothing else in the body (not even a `nop`),
/// where `op`'s other sources and the address are the same in every
/// iteration (none is `n`, `o`, `t` or `e`), and `n`, `o`, `t`, `e` are
/// components of temps, `t` neither `n` nor `o`, `e` none of the others
/// (`n` and `o` may be one).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CasLoop {
    /// `n = op(src[..arity])`, saturated when `sat`
    pub op: AluOp,
    pub sat: bool,
    pub arity: u8,
    pub src: [Operand; 4],
    /// rows in the register file (`reg·4 + component`)
    pub n: u32,
    pub o: u32,
    pub t: u32,
    pub e: u32,
    /// the operation's pc and the compare-exchange's
    pub op_pc: usize,
    pub cas_pc: usize,
    /// the `endloop`'s pc
    pub end_pc: usize,
    /// the exit is an `if_nz` / `break` / `endif` (else a `breakc_nz`)
    pub if_exit: bool,
}

/// Per pc, at the `loop` of a loop of the [`CasLoop`] form, that form;
/// `None` elsewhere.
pub(crate) fn analyze(prog: Body<'_>) -> Vec<Option<CasLoop>> {
    let code = prog.code;
    let mut out = vec![None; code.len()];
    for (pc, op) in code.iter().enumerate() {
        if let OpKind::Loop { end_pc } = op.kind {
            out[pc] = cas_loop(prog, pc + 1, end_pc as usize);
        }
    }
    out
}

/// The [`CasLoop`] of the loop whose body is `code[start..end]` (`end`: its
/// `endloop`), when it has that form.
fn cas_loop(prog: Body<'_>, start: usize, end: usize) -> Option<CasLoop> {
    // (a `nop` in the body, which lockstep would issue each pass, does
    // not fit the form)
    let body: Vec<(usize, &OpKind)> = (start..end).map(|pc| (pc, &prog.code[pc].kind)).collect();
    let [(op_pc, f), (cas_pc, cas), (_, test), rest @ ..] = body.as_slice() else {
        return None;
    };
    let OpKind::Alu {
        op,
        dst: ref n_dst,
        src: ref f_src,
        sat,
    } = **f
    else {
        return None;
    };
    let OpKind::Atomic {
        kind: AtomicKind::CmpExch,
        ret: Some(ref o_dst),
        res,
        structured: _,
        ref addr,
        a: ref compare,
        b: ref value,
    } = **cas
    else {
        return None;
    };
    // a buffer UAV (raw, structured or typed)
    if !matches!(res, Res::Uav(_)) {
        return None;
    }
    let OpKind::Alu {
        op: AluOp::Ieq,
        dst: ref t_dst,
        src: ref t_src,
        sat: false,
    } = **test
    else {
        return None;
    };
    // the exit, then `mov e, o`: (condition, nz, whether an `if` /
    // `break` / `endif`), and the `mov`
    let (exit, (_, mov)) = match rest {
        [(
            _,
            OpKind::Break {
                cond: Some((c, nz)),
            },
        ), mov] => ((c, *nz, false), mov),
        [(
            pc,
            OpKind::If {
                cond,
                nz,
                else_pc: None,
                endif_pc,
            },
        ), (_, OpKind::Break { cond: None }), (_, OpKind::EndIf), mov]
            if *endif_pc as usize == pc + 2 =>
        {
            ((cond, *nz, true), mov)
        }
        _ => return None,
    };
    let OpKind::Alu {
        op: AluOp::Mov,
        dst: ref e_dst,
        src: ref m_src,
        sat: false,
    } = **mov
    else {
        return None;
    };
    let n = one_row(n_dst)?;
    let o = one_row(o_dst)?;
    let t = one_row(t_dst)?;
    let e = one_row(e_dst)?;
    if e == n || e == o || e == t || t == n || t == o {
        return None;
    }
    // the row an unmodified temp source reads for component `c` (an ALU
    // instruction's sources at its destination's component; a condition
    // and the compare-exchange's operands at component 0)
    let plain = |s: &Src, c: u32| temp_row(s, c as usize).filter(|_| s.modifier == SrcMod::None);
    let (tc, ec) = (t % 4, e % 4);
    // the compare-exchange compares e and stores n; ieq compares e and o;
    // the lane leaves when the two are equal (`_nz` on ieq); mov copies o
    let test_eo = matches!(
        (plain(&t_src[0], tc), plain(&t_src[1], tc)),
        (Some(a), Some(b)) if (a, b) == (e, o) || (a, b) == (o, e)
    );
    let ok = exit.1
        && plain(exit.0, 0) == Some(t)
        && plain(compare, 0) == Some(e)
        && plain(value, 0) == Some(n)
        && test_eo
        && plain(&m_src[0], ec) == Some(o);
    if !ok {
        return None;
    }
    let written = [n, o, t, e];
    // the same in every iteration: not written in the loop
    let invariant = |s: &Src, c: usize| -> Option<Operand> {
        let x = operand(s, c)?;
        match x.val {
            Val::Temp(r) if written.contains(&r) => None,
            _ => Some(x),
        }
    };
    crate::isa::lanes::lane_value(op, [0; 4])?;
    let arity = crate::isa::lanes::arity(op);
    let c = n_dst.mask.trailing_zeros() as usize;
    let mut src = [imm(0); 4];
    for k in 0..arity as usize {
        let s = &f_src[k];
        src[k] = if temp_row(s, c) == Some(e) {
            // the modifiers with a bit form (`lanes::SrcBits`): not the
            // integer |x|, nor the double ones
            if matches!(
                s.modifier,
                SrcMod::IAbs | SrcMod::IAbsNeg | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg
            ) {
                return None;
            }
            Operand {
                val: Val::Expected,
                modifier: s.modifier,
            }
        } else {
            invariant(s, c)?
        };
    }
    // the address's components: x, and y for a structured address
    invariant(addr, 0)?;
    invariant(addr, 1)?;
    Some(CasLoop {
        op,
        sat,
        arity,
        src,
        n,
        o,
        t,
        e,
        op_pc: *op_pc,
        cas_pc: *cas_pc,
        end_pc: end,
        if_exit: exit.2,
    })
}

fn imm(v: u32) -> Operand {
    Operand {
        val: Val::Imm(v),
        modifier: SrcMod::None,
    }
}

/// The row of a destination of one temp component.
fn one_row(d: &Dst) -> Option<u32> {
    match d.kind {
        DstKind::Temp(r) if d.mask.count_ones() == 1 => Some(r * 4 + d.mask.trailing_zeros()),
        _ => None,
    }
}

/// The row component `c` of `s` reads, when `s` is a temp.
fn temp_row(s: &Src, c: usize) -> Option<u32> {
    match s.kind {
        SrcKind::Temp(r) => Some(r * 4 + s.swz[c] as u32),
        _ => None,
    }
}

/// Component `c` of `s` (through its swizzle) for one lane; `None` for an
/// operand the retries do not read (indexable temps, relative indices,
/// system values, the immediate constant buffer, double modifiers).
fn operand(s: &Src, c: usize) -> Option<Operand> {
    let sc = s.swz[c] as usize;
    let val = match s.kind {
        SrcKind::Temp(r) => Val::Temp(r * 4 + sc as u32),
        SrcKind::Imm(v) => Val::Imm(v[sc]),
        SrcKind::Cb { slot, index } if index.rel.is_none() => Val::Cb {
            slot,
            word: index.imm as u64 * 4 + sc as u64,
        },
        _ => return None,
    };
    if matches!(s.modifier, SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg) {
        return None;
    }
    Some(Operand {
        val,
        modifier: s.modifier,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Program;

    fn program(body: &str) -> Program {
        let text = format!(
            "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_constantbuffer CB0[1], immediateIndexed\n\
             dcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps 3\ndcl_thread_group 64, 1, 1\n{body}\nret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap();
        Program::from_decoded(decoded, None).unwrap()
    }

    pub(crate) const CAS_LOOP: &str = "ishl r0.y, vThreadID.x, l(2)
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx
loop
  add r1.x, r0.w, cb0[0].x
  imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x
  ieq r1.y, r0.w, r1.x
  if_nz r1.y
    break
  endif
  mov r0.w, r1.x
endloop";

    /// The loop fxc compiles `InterlockedCompareExchange` float addition
    /// to is found at its `loop`, with its rows and operands.
    #[test]
    fn the_float_add_loop_is_found() {
        let prog = program(CAS_LOOP);
        let loops = analyze(prog.body());
        let found: Vec<(usize, &CasLoop)> = loops
            .iter()
            .enumerate()
            .filter_map(|(pc, r)| Some((pc, r.as_ref()?)))
            .collect();
        assert_eq!(found.len(), 1);
        let (pc, r) = found[0];
        assert!(matches!(prog.code[pc].kind, OpKind::Loop { .. }));
        assert!(matches!(prog.code[r.cas_pc].kind, OpKind::Atomic { .. }));
        assert!(matches!(prog.code[r.end_pc].kind, OpKind::EndLoop { .. }));
        assert_eq!(
            (r.op, r.arity, r.sat, r.if_exit),
            (AluOp::Add, 2, false, true)
        );
        assert_eq!(r.src[0].val, Val::Expected);
        assert_eq!(r.src[1].val, Val::Cb { slot: 0, word: 0 });
        // r1.x is both n and o; r1.y is t; r0.w is e
        assert_eq!((r.n, r.o, r.t, r.e), (4, 4, 5, 3));
    }

    #[test]
    fn loops_of_other_forms_are_not() {
        for (what, change) in [
            (
                "a load",
                (
                    "mov r0.w, r1.x",
                    "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.w, r0.y, u0.xxxx",
                ),
            ),
            ("a thread ID", ("mov r0.w, r1.x", "mov r0.w, vThreadID.x")),
            (
                "a second compare-exchange",
                (
                    "mov r0.w, r1.x",
                    "imm_atomic_cmp_exch r0.w, u0, r0.y, r0.w, r1.x",
                ),
            ),
            ("a store", ("mov r0.w, r1.x", "store_raw u0.x, r0.y, r1.x")),
            ("a nested loop", ("mov r0.w, r1.x", "loop\nbreak\nendloop")),
            (
                "an if with more than a break",
                ("break", "mov r2.x, l(1)\nbreak"),
            ),
            ("the exit on a failure", ("if_nz r1.y", "if_z r1.y")),
            (
                "an operand the loop writes",
                ("add r1.x, r0.w, cb0[0].x", "add r1.x, r0.w, r1.y"),
            ),
            (
                "an address the loop writes",
                (
                    "imm_atomic_cmp_exch r1.x, u0, r0.y, r0.w, r1.x",
                    "imm_atomic_cmp_exch r1.x, u0, r1.y, r0.w, r1.x",
                ),
            ),
            (
                "a test of other registers",
                ("ieq r1.y, r0.w, r1.x", "ieq r1.y, r0.y, r1.x"),
            ),
            (
                "a test of another component",
                ("ieq r1.y, r0.w, r1.x", "ieq r1.y, r0.wzzz, r1.xxxx"),
            ),
            (
                "a copy of another component",
                ("mov r0.w, r1.x", "mov r0.w, r1.xxxy"),
            ),
            ("a nop", ("mov r0.w, r1.x", "mov r0.w, r1.x\nnop")),
            (
                "a test into the returned word",
                (
                    "ieq r1.y, r0.w, r1.x\n  if_nz r1.y",
                    "ieq r1.x, r0.w, r1.x\n  if_nz r1.x",
                ),
            ),
        ] {
            assert!(CAS_LOOP.contains(change.0), "{what}");
            let prog = program(&CAS_LOOP.replace(change.0, change.1));
            assert!(analyze(prog.body()).iter().all(|s| s.is_none()), "{what}");
        }
    }

    #[test]
    fn breakc_exits_qualify() {
        let prog = program(&CAS_LOOP.replace("if_nz r1.y\n    break\n  endif", "breakc_nz r1.y"));
        let loops = analyze(prog.body());
        let r = loops
            .iter()
            .flatten()
            .next()
            .expect("a compare-exchange loop");
        assert!(!r.if_exit);
    }
}
