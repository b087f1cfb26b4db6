//! The plan: what the interpreter runs at each pc, made once per executor
//! from the program, what its analyses know ([`crate::analysis::ProgramInfo`]),
//! the warp width and the fast paths switched on ([`FastPaths`]). Each fast
//! path is an option bit that the planner turns into a step field (the
//! register: `README.md`); with [`FastPaths::NONE`] every step is the
//! instruction's reference handler. The interpreter reads the step of the
//! instruction it runs and no other table.

use super::*;

/// What the plan of a program is made of for one executor shape: the
/// steps, the immediate rows every warp's arena holds
/// ([`resolve_fast`]), the arena's layout, and which rows a batch's
/// `SV_GroupID` fills. Made once per program and shape (kept in the
/// program's [`crate::analysis::ShapeCache`]) and shared by every executor
/// of that shape
/// (before, each worker's executor made its own: about 2.5 KB per
/// instruction per worker at its peak).
#[derive(Debug)]
pub(super) struct Planned {
    pub(super) steps: Arc<Vec<Step>>,
    pub(super) imm: Vec<u32>,
    pub(super) arena: Arena,
    pub(super) batch_rows: u8,
}

/// What the interpreter runs at one pc.
#[derive(Debug, Clone)]
pub(super) struct Step {
    /// `ROW_ALU`: the ALU instruction's row form on the warp's arena
    pub(super) row: Option<RowAlu>,
    /// `FUSED_LEAVE`: an `if` whose branch is one `break`, `continue` or
    /// `ret`, run as one conditional exit
    pub(super) fused: Option<Leave>,
    /// `CAS_LOOP`: a `loop` that begins a compare-exchange retry loop,
    /// run at once (`GroupExecutor::cas_loop`)
    pub(super) cas_loop: bool,
    /// `MEMORY_LINES` (the address steps) and `UNIFORM_IF` (a condition
    /// equal in every lane): what `crate::analysis::affine` knows, less
    /// what switched-off paths would use
    pub(super) facts: PcFacts,
    /// `LOOP_WITHOUT_CONTINUE`: an `endloop` whose loop has no `continue`
    pub(super) no_continue: bool,
}

/// The plan of `prog` over batches of `pack` groups, with every fast path;
/// `rows`: the row forms of its ALU instructions on the executor's arena
/// (from [`resolve_fast`] at its warp width).
pub(super) fn plan(
    prog: &Program,
    rows: impl Iterator<Item = Option<RowAlu>>,
    pack: u32,
) -> Vec<Step> {
    let info = prog.info();
    let facts = if pack > 1 {
        &info.packed_pcs
    } else {
        &info.pcs
    };
    rows.enumerate()
        .map(|(pc, row)| Step {
            row,
            fused: info.fused.get(pc).copied().flatten(),
            cas_loop: info.cas_loops.get(pc).is_some_and(Option::is_some),
            facts: facts.get(pc).copied().unwrap_or_default(),
            no_continue: info.loop_continues.get(pc) == Some(&false),
        })
        .collect()
}

/// `plan` with only `paths` of its fast paths: the others' fields cleared,
/// so that their instructions take the reference handlers.
pub(super) fn restrict(plan: &mut [Step], paths: FastPaths) {
    for s in plan {
        if !paths.contains(FastPaths::ROW_ALU) {
            s.row = None;
        }
        if !paths.contains(FastPaths::FUSED_LEAVE) {
            s.fused = None;
        }
        if !paths.contains(FastPaths::CAS_LOOP) {
            s.cas_loop = false;
        }
        if !paths.contains(FastPaths::MEMORY_LINES) {
            s.facts.addr = None;
        }
        if !paths.contains(FastPaths::UNIFORM_IF) {
            s.facts.uniform_cond = false;
        }
        if !paths.contains(FastPaths::LOOP_WITHOUT_CONTINUE) {
            s.no_continue = false;
        }
        if let Some(r) = s
            .row
            .as_mut()
            .filter(|_| !paths.contains(FastPaths::LAZY_NAN))
        {
            r.rows = r.canonical_rows;
        }
    }
}
