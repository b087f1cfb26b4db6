//! Spin reads: the loads and returning atomics a loop waits on, found once
//! per program for the concurrency checker's forward-progress rule.
//!
//! D3D promises no forward progress between thread groups, nor between the
//! lanes of a warp (`reference/compute-model.md` §6): a thread that loops
//! until a word of memory takes a value another thread writes may wait for
//! ever. Such a *spin loop* is a `loop` with a conditional exit — a
//! `breakc`/`retc` of the loop, or an `if` around its `break`/`ret` — whose
//! condition depends, through the loop's instructions, on a value the loop
//! reads from a UAV or from TGSM (a load, or an atomic that returns the old
//! value: the `InterlockedCompareExchange(lock, 0, 1, old)` of a spin lock).
//! Such a read is a *spin read*.
//!
//! A compare-exchange retry loop (a comparand read from a register: the
//! value the loop read before) waits on no other thread: its exchange fails
//! only when another thread wrote the word in between, which is progress.
//! Its reads are not spin reads. A loop that reads memory but leaves on a
//! counter (`for (i = 0; i < n; i++) total += partial[i]`) has none either.

use crate::analysis::liveness::{kills, reads};
use crate::ir::lowered::{AtomicKind, Body, Op, OpKind, Res, Src, SrcKind, SrcMod};

/// Whether `op` reads a UAV or TGSM word into temps another thread may
/// change, in a way that waits for it: a load; or an atomic that returns
/// the old value and leaves the word as it is (an operand that is the
/// operation's identity, `InterlockedOr(flag, 0, v)`) or takes it only in
/// a state another thread sets (a compare-exchange or an exchange: a
/// lock). An atomic that changes the word whatever it holds (a work
/// queue's `InterlockedAdd(head, 1, i)`) makes progress, not a wait.
fn is_memory_read(op: &Op) -> bool {
    let changeable = |r: Res| matches!(r, Res::Uav(_) | Res::Tgsm(_) | Res::UavTexture(_));
    match op.kind {
        OpKind::LdRaw { res, .. }
        | OpKind::LdStructured { res, .. }
        | OpKind::LdTyped { res, .. } => changeable(res),
        OpKind::Atomic {
            kind,
            ret: Some(_),
            res,
            a,
            ..
        } => {
            let waits = match kind {
                AtomicKind::CmpExch | AtomicKind::Exch => true,
                _ => leaves_word(kind, &a),
            };
            changeable(res) && waits
        }
        _ => false,
    }
}

/// Whether atomic `kind` with operand `a` leaves its word as it is: `a` a
/// literal that is the operation's identity, unmodified
/// (`InterlockedOr(flag, 0, v)`, `InterlockedAnd(x, ~0, v)`): a read.
pub(crate) fn leaves_word(kind: AtomicKind, a: &Src) -> bool {
    let identity = match a.kind {
        SrcKind::Imm(v) => v[a.swz[0] as usize] == kind.identity(),
        _ => false,
    };
    identity && a.modifier == SrcMod::None
}

/// Per pc, whether the instruction is a spin read (see the module docs).
///
/// Whether a read's value reaches an exit test of its loop is asked
/// backwards, once per loop: which temp components, at each point of the
/// loop's body walked twice in program order (for what the back edge
/// carries), hold a value that some exit test later reads. A read whose
/// destination holds such a component is a spin read. The walk forwards
/// from each read (what it taints, `tests::naive`) gives the same answer in
/// time proportional to the reads times the body: 33 s for 100,000 loops
/// nested 63 deep; this is linear in the body, and each loop's tables are
/// the size of its body.
pub(crate) fn spin_reads(prog: Body<'_>) -> Vec<bool> {
    let code = prog.code;
    let mut out = vec![false; code.len()];
    let bits = prog.temps as usize * 4;
    // components whose value, at the point walked, reaches an exit test;
    // `touched` lists those set, to clear them for the next loop
    let mut relevant = vec![false; bits];
    let mut touched: Vec<usize> = Vec::new();
    let (mut read, mut written) = (Vec::new(), Vec::new());
    for (l, op) in code.iter().enumerate() {
        let OpKind::Loop { end_pc } = op.kind else {
            continue;
        };
        let body = l + 1..(end_pc as usize).min(code.len());
        let ops = &code[body.clone()];
        if is_cas_retry_loop(ops) || !ops.iter().any(is_memory_read) {
            continue;
        }
        let tests = exit_tests(prog, l, body.clone());
        // how deep in branches and inner loops of this loop each pc is
        // (by its place in the body)
        let mut depth = vec![0u32; ops.len()];
        let mut d = 0u32;
        for (k, op) in ops.iter().enumerate() {
            if matches!(
                op.kind,
                OpKind::EndIf | OpKind::EndLoop { .. } | OpKind::EndSwitch
            ) {
                d = d.saturating_sub(1);
            }
            depth[k] = d;
            if matches!(
                op.kind,
                OpKind::If { .. } | OpKind::Loop { .. } | OpKind::Switch { .. }
            ) {
                d += 1;
            }
        }
        // Forwards, an instruction that reads a tainted component taints
        // every component it writes; one that does not clears them where
        // every pass of the loop runs it (not inside a branch or an inner
        // loop); an exit test in the second round that reads a tainted
        // component makes the read a spin read. Backwards, the same.
        for round in (0..2).rev() {
            for (k, op) in ops.iter().enumerate().rev() {
                read.clear();
                reads(prog, op, &mut |i| {
                    if i < bits {
                        read.push(i);
                    }
                });
                written.clear();
                kills(op, &mut |i| {
                    if i < bits {
                        written.push(i);
                    }
                });
                let flows = written.iter().any(|&i| relevant[i]);
                if flows && is_memory_read(op) {
                    out[body.start + k] = true;
                }
                if depth[k] == 0 {
                    written.iter().for_each(|&i| relevant[i] = false);
                }
                if flows || (round == 1 && tests[k]) {
                    for &i in &read {
                        if !std::mem::replace(&mut relevant[i], true) {
                            touched.push(i);
                        }
                    }
                }
            }
        }
        touched.drain(..).for_each(|i| relevant[i] = false);
    }
    out
}

/// By its place in `body`, whether each instruction tests a conditional
/// exit of the loop at `l`: a `breakc` of that loop or a `retc`, or an `if`
/// around such a loop's `break` or a `ret`.
/// Whether the loop body `ops` is a compare-exchange retry loop (an
/// `imm_atomic_cmp_exch` comparing with a temp), which waits on no other
/// thread.
fn is_cas_retry_loop(ops: &[Op]) -> bool {
    ops.iter().any(|op| {
        matches!(
            op.kind,
            OpKind::Atomic {
                kind: AtomicKind::CmpExch,
                a: Src {
                    kind: SrcKind::Temp(_),
                    ..
                },
                ..
            }
        )
    })
}

fn exit_tests(prog: Body<'_>, l: usize, body: std::ops::Range<usize>) -> Vec<bool> {
    let code = prog.code;
    // the innermost loop or switch around each pc of the body (a `break`
    // leaves that one)
    let mut stack = vec![(l, true)];
    let mut innermost = vec![(l, true); body.len()];
    for pc in body.clone() {
        if matches!(code[pc].kind, OpKind::EndLoop { .. } | OpKind::EndSwitch) {
            stack.pop();
        }
        innermost[pc - body.start] = *stack.last().unwrap_or(&(l, true));
        match code[pc].kind {
            OpKind::Loop { .. } => stack.push((pc, true)),
            OpKind::Switch { .. } => stack.push((pc, false)),
            _ => {}
        }
    }
    let exits = |pc: usize| match code[pc].kind {
        OpKind::Break { .. } => innermost[pc - body.start] == (l, true),
        OpKind::Ret { .. } => true,
        _ => false,
    };
    body.clone()
        .map(|pc| match code[pc].kind {
            OpKind::Break { cond: Some(_) } | OpKind::Ret { cond: Some(_) } => exits(pc),
            OpKind::If { endif_pc, .. } => (pc + 1..(endif_pc as usize).min(body.end)).any(exits),
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `op` reads one of the temp components in `set`
    /// (`crate::analysis::liveness::reads`).
    fn reads_any(prog: Body<'_>, op: &Op, set: &[bool]) -> bool {
        let mut hit = false;
        reads(prog, op, &mut |i| hit |= set.get(i) == Some(&true));
        hit
    }

    /// The forward walk from each read, as the checker first had it: what
    /// the read's value reaches in the loop, in program order.
    pub(super) fn naive(prog: Body<'_>) -> Vec<bool> {
        let code = prog.code;
        let mut out = vec![false; code.len()];
        let bits = prog.temps as usize * 4;
        for (l, op) in code.iter().enumerate() {
            let OpKind::Loop { end_pc } = op.kind else {
                continue;
            };
            let body = l + 1..(end_pc as usize).min(code.len());
            if is_cas_retry_loop(&code[body.clone()]) {
                continue;
            }
            let tests = {
                let mut t = vec![false; code.len()];
                for (k, x) in exit_tests(prog, l, body.clone()).into_iter().enumerate() {
                    t[body.start + k] = x;
                }
                t
            };
            // how deep in branches and inner loops of this loop each pc is
            let mut depth = vec![0u32; code.len()];
            let mut d = 0u32;
            for pc in body.clone() {
                if matches!(
                    code[pc].kind,
                    OpKind::EndIf | OpKind::EndLoop { .. } | OpKind::EndSwitch
                ) {
                    d = d.saturating_sub(1);
                }
                depth[pc] = d;
                if matches!(
                    code[pc].kind,
                    OpKind::If { .. } | OpKind::Loop { .. } | OpKind::Switch { .. }
                ) {
                    d += 1;
                }
            }
            for r in body.clone().filter(|&pc| is_memory_read(&code[pc])) {
                // what the read's value reaches in the loop, in program order
                // (twice round, for what the back edge carries); a write that
                // reads none of it clears it where every pass of the loop
                // runs the write (not inside a branch or an inner loop)
                let mut taint = vec![false; bits];
                for round in 0..2 {
                    for pc in body.clone() {
                        // an exit's test reads the value as it is there
                        if round == 1 && tests[pc] && reads_any(prog, &code[pc], &taint) {
                            out[r] = true;
                        }
                        let hit = pc == r || reads_any(prog, &code[pc], &taint);
                        if hit || depth[pc] == 0 {
                            kills(&code[pc], &mut |i| {
                                if let Some(t) = taint.get_mut(i) {
                                    *t = hit;
                                }
                            });
                        }
                    }
                }
            }
        }
        out
    }

    use crate::program::Program;

    fn spins(body: &str) -> Vec<bool> {
        let text = format!(
            "cs_5_0\ndcl_uav_structured u0, 4\ndcl_tgsm_raw g0, 16\n\
             dcl_input vThreadIDInGroupFlattened\n\
             dcl_temps 4\ndcl_thread_group 8, 1, 1\n{body}ret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        let found = spin_reads(prog.body());
        assert_eq!(
            found,
            naive(prog.body()),
            "the forward walk differs:\n{body}"
        );
        found
    }

    /// The backward walk finds what the forward walk from each read finds,
    /// on loops of many shapes: nested, reads in branches and inner loops,
    /// values passed on through several instructions, cleared, or carried
    /// round the back edge, exits by `breakc`, `if`/`break`, `retc`, and
    /// `break`s of an inner loop or a switch (which leave only that).
    #[test]
    fn the_backward_walk_finds_what_the_forward_walk_finds() {
        let ld = |d: &str| format!("{LD} {d}, l(0), l(0), u0.xxxx\n");
        let parts: Vec<String> = vec![
            ld("r0.x"),
            ld("r1.y"),
            "ld_raw r2.z, l(0), g0.xxxx\n".into(),
            "imm_atomic_or r0.w, u0, l(0, 0, 0, 0), l(0)\n".into(),
            "imm_atomic_exch r3.x, u0, l(0, 0, 0, 0), l(1)\n".into(),
            "mov r1.x, r0.x\n".into(),
            "iadd r2.x, r1.y, r2.z\n".into(),
            "mov r0.x, l(0)\n".into(),
            "ieq r3.y, r0.w, r3.x\n".into(),
            "breakc_nz r1.x\n".into(),
            "breakc_z r2.x\n".into(),
            "retc_nz r3.y\n".into(),
            "if_nz r0.x\nbreak\nendif\n".into(),
            "if_z r2.z\nmov r1.x, l(1)\nelse\nmov r1.y, r0.x\nendif\n".into(),
            "loop\nbreakc_nz r1.y\nendloop\n".into(),
            format!("loop\n{}breakc_nz r0.y\nendloop\n", ld("r0.y")),
            "switch r2.x\ncase l(1)\nbreak\ndefault\nbreak\nendswitch\n".into(),
            "mov r2.z, r0.w\n".into(),
        ];
        // a deterministic walk through combinations of the parts
        let mut seed = 0x2545_f491_u32;
        // how many of the single loops have a spin read: some, not all
        let mut spinning = 0;
        for _ in 0..400 {
            let mut body = String::new();
            let n = 2 + seed % 7;
            for _ in 0..n {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                body += &parts[seed as usize % parts.len()];
            }
            let found = spins(&format!("loop\n{body}endloop\n"));
            spinning += usize::from(found.contains(&true));
            spins(&format!(
                "loop\n{}loop\n{body}endloop\nbreakc_nz r1.x\nendloop\n",
                ld("r1.x")
            ));
        }
        assert!((50..350).contains(&spinning), "{spinning} of 400 spin");
    }

    const LD: &str =
        "ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed)";

    /// A flag wait and a spin lock's acquire are spin reads; so is a
    /// TGSM flag; the wait may go through an `if` around the `break`.
    #[test]
    fn waits_on_memory_are_spin_reads() {
        let flag = format!("loop\n{LD} r0.x, l(0), l(0), u0.xxxx\nbreakc_nz r0.x\nendloop\n");
        assert_eq!(spins(&flag)[..4], [false, true, false, false]);
        let lock = "loop\nimm_atomic_cmp_exch r0.x, u0, l(0, 0, 0, 0), l(0), l(1)\n\
                    ieq r0.y, r0.x, l(0)\nbreakc_nz r0.y\nendloop\n";
        assert_eq!(spins(lock)[..5], [false, true, false, false, false]);
        let tgsm = "loop\nld_raw r0.x, l(0), g0.xxxx\nieq r0.y, r0.x, l(1)\n\
                    if_nz r0.y\nbreak\nendif\nendloop\n";
        assert_eq!(
            spins(tgsm)[..7],
            [false, true, false, false, false, false, false]
        );
    }

    /// A loop that reads memory but leaves on a counter (also where the
    /// test reuses the loaded value's register), a compare-exchange retry
    /// loop, and a work queue's loop have no spin read.
    #[test]
    fn counted_loops_and_retry_loops_do_not_spin() {
        let counted = format!(
            "mov r1.x, l(0)\nloop\nuge r0.y, r1.x, l(4)\nbreakc_nz r0.y\n\
             {LD} r0.x, r1.x, l(0), u0.xxxx\niadd r1.y, r1.y, r0.x\n\
             iadd r1.x, r1.x, l(1)\nendloop\n"
        );
        assert!(spins(&counted).iter().all(|&s| !s));
        // the loaded value's register reused for the loop's test
        let reused = format!(
            "mov r1.x, l(0)\nloop\nuge r0.x, r1.x, l(4)\nbreakc_nz r0.x\n\
             {LD} r0.x, r1.x, l(0), u0.xxxx\niadd r1.y, r1.y, r0.x\n\
             iadd r1.x, r1.x, l(1)\nendloop\n"
        );
        assert!(spins(&reused).iter().all(|&s| !s));
        let retry = format!(
            "{LD} r0.x, l(0), l(0), u0.xxxx\nloop\niadd r0.y, r0.x, l(1)\n\
             imm_atomic_cmp_exch r0.z, u0, l(0, 0, 0, 0), r0.x, r0.y\n\
             ieq r0.w, r0.z, r0.x\nbreakc_nz r0.w\nmov r0.x, r0.z\nendloop\n"
        );
        assert!(spins(&retry).iter().all(|&s| !s));
        // a work queue: the atomic takes the next item whatever the head
        // holds
        let queue = "loop\nimm_atomic_iadd r0.x, u0, l(0, 0, 0, 0), l(1)\n\
                     uge r0.y, r0.x, l(100)\nbreakc_nz r0.y\nendloop\n";
        assert!(spins(queue).iter().all(|&s| !s));
    }
}
