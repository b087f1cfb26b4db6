//! Facts about a program's code that the executor's plan uses, computed
//! once per program (`Program::facts`) without the executor: which
//! `if`/`break`/`endif` triples run as one step, and which components of
//! vThreadID the program reads.

use crate::ir::lowered::{Body, OpKind, SrcKind};
/// What a fused `if` + `break`/`continue`/`ret` + `endif` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leave {
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `ret`
    Ret,
}

/// The components of vThreadID (bit c for component c) that some source
/// operand of `prog` reads, by its swizzle.
pub(crate) fn thread_id_comps(prog: Body<'_>) -> u8 {
    let mut comps = 0u8;
    for op in prog.code {
        crate::analysis::liveness::operands(
            prog,
            op,
            &mut |s| {
                if s.kind == SrcKind::ThreadId {
                    s.swz.iter().for_each(|&c| comps |= 1 << c);
                }
            },
            &mut |_| {},
        );
    }
    comps
}

/// Per pc: at an `if` whose branch is one unconditional `break` (or
/// `continue`) and then its `endif` (fxc's form of `if (c) break;`, as in
/// a compare-exchange loop's exit), which of the two: the executor may run
/// the three as a `breakc` (`continuec`) when the loop (or switch) it
/// leaves is the innermost frame (`GroupExecutor::leave_fused`).
pub(crate) fn fused_leaves(prog: Body<'_>) -> Vec<Option<Leave>> {
    let code = prog.code;
    (0..code.len())
        .map(|pc| {
            let OpKind::If {
                else_pc: None,
                endif_pc,
                ..
            } = code[pc].kind
            else {
                return None;
            };
            if endif_pc as usize != pc + 2 {
                return None;
            }
            match code.get(pc + 1).map(|o| o.kind) {
                Some(OpKind::Break { cond: None }) => Some(Leave::Break),
                Some(OpKind::Continue { cond: None }) => Some(Leave::Continue),
                _ => None,
            }
        })
        .collect()
}
