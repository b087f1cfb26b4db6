//! The plan: what the interpreter runs at each pc, made once per executor
//! from the program, what its analyses know ([`crate::analysis::ProgramInfo`]),
//! the warp width and the fast paths switched on ([`FastPaths`]). Each fast
//! path is an option bit that the planner turns into an op of the stream
//! ([`PlanOp`]; the register: `README.md`); with [`FastPaths::NONE`] every
//! op is the instruction's reference handler. The interpreter reads the op
//! in the arms of the instructions that have planned forms (ALU, `if`,
//! `loop`, `endloop`: the others do not touch the plan, which keeps it out
//! of their way in the cache) and reads no other table.

use crate::analysis::affine::PcFacts;
use crate::analysis::cas_loop::CasLoop;
use crate::analysis::fusion::Leave;
use crate::exec::fast::compiled::Region;
use crate::exec::fast::rows::{Arena, RowAlu, NO_ROW};
use crate::exec::fast::FastPaths;
use crate::Program;
use std::sync::Arc;
/// What the plan of a program is made of for one executor shape: the
/// steps, the immediate rows every warp's arena holds
/// ([`resolve_fast`]), the arena's layout, and which rows a batch's
/// `SV_GroupID` fills. Made once per program and shape (kept in the
/// program's [`crate::analysis::ShapeCache`]) and shared by every executor
/// of that shape
/// (before, each worker's executor made its own: about 2.5 KB per
/// instruction per worker at its peak).
#[derive(Debug)]
pub(in crate::exec) struct Planned {
    pub(in crate::exec) steps: Arc<Vec<Step>>,
    pub(in crate::exec) imm: Vec<u32>,
    pub(in crate::exec) arena: Arena,
    pub(in crate::exec) batch_rows: u8,
}

/// What the interpreter runs at one pc: the planned op, and what the
/// analysis knows there for the handlers' own fast forms.
#[derive(Debug, Clone)]
pub(in crate::exec) struct Step {
    /// The op the planner chose.
    pub(in crate::exec) op: PlanOp,
    /// `MEMORY_LINES` (the address steps) and `UNIFORM_IF` (a condition
    /// equal in every lane): what `crate::analysis::affine` knows, less
    /// what switched-off paths would use
    pub(in crate::exec) facts: PcFacts,
    /// `ROW_ALU`: a load's or store's immediate address operands (its
    /// address or structure index, then its structured offset) as rows of
    /// the warp's arena, word offsets (`NO_ROW`: none)
    pub(in crate::exec) imm_rows: [u32; 2],
}

/// The op stream: per pc, which form of the instruction runs. Each form
/// but [`PlanOp::Reference`] is a fast path's (`FastPaths`), computing
/// what the reference handler computes; a form that finds its
/// precondition false at run time falls back to the reference handler.
// (the row form stays inline, as it was in the step before the stream:
// boxed, every row ALU instruction would chase a pointer)
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub(in crate::exec) enum PlanOp {
    /// The instruction's reference handler (its `OpKind`).
    Reference,
    /// `ROW_ALU`: a component-wise ALU instruction on its pre-resolved rows
    /// of the warp's arena (`Cx::run_fast`).
    RowAlu(RowAlu),
    /// `FUSED_LEAVE`: an `if` whose branch is one `break`, `continue` or
    /// `ret`, run as one conditional exit (`Cx::leave_fused`).
    FusedLeave(Leave),
    /// `CAS_LOOP`: a `loop` that begins a compare-exchange retry loop, run
    /// at once (`Cx::cas_loop`).
    CasLoop(CasLoop),
    /// `LOOP_WITHOUT_CONTINUE`: an `endloop` whose loop has no `continue`,
    /// so no lane waits to rejoin.
    EndLoopWithoutContinue,
    /// `COMPILED`: the first instruction of a region of row ALU
    /// instructions (`fast::compiled`), run as compiled code once it is,
    /// else as its row form (the next instructions keep theirs).
    Compiled(RowAlu, Arc<Region>),
    /// `COMPILED`: a region that starts with a TGSM load
    /// (`fast::compiled`), run as compiled code once it is, else the load
    /// takes its handler (the next instructions keep their forms).
    CompiledLoad(Arc<Region>),
}

impl Step {
    /// The row form, when the op is [`PlanOp::RowAlu`].
    #[inline]
    pub(in crate::exec) fn row(&self) -> Option<&RowAlu> {
        match &self.op {
            PlanOp::RowAlu(f) | PlanOp::Compiled(f, _) => Some(f),
            _ => None,
        }
    }
}

/// The plan of `prog` over batches of `pack` groups, with every fast path;
/// `rows`: the row forms of its ALU instructions on the executor's arena
/// (from [`resolve_fast`] at its warp width); `imm_rows`: per pc, the arena
/// rows of a load's or store's immediate address operands ([`Step::imm_rows`]).
pub(in crate::exec) fn plan(
    prog: &Program,
    rows: impl Iterator<Item = Option<RowAlu>>,
    regions: Vec<(usize, Region)>,
    imm_rows: &[[u32; 2]],
    pack: u32,
) -> Vec<Step> {
    let mut regions = regions.into_iter().peekable();
    let info = prog.info();
    let facts = if pack > 1 {
        &info.packed_pcs
    } else {
        &info.pcs
    };
    rows.enumerate()
        .map(|(pc, row)| {
            let fused = info.fused.get(pc).copied().flatten();
            let cas_loop = info.cas_loops.get(pc).and_then(Option::as_ref);
            let region = regions.next_if(|(at, _)| *at == pc).map(|(_, r)| r);
            let op = if let Some(row) = row {
                match region {
                    Some(r) => PlanOp::Compiled(row, Arc::new(r)),
                    None => PlanOp::RowAlu(row),
                }
            } else if let Some(r) = region {
                PlanOp::CompiledLoad(Arc::new(r))
            } else if let Some(kind) = fused {
                PlanOp::FusedLeave(kind)
            } else if let Some(cl) = cas_loop {
                PlanOp::CasLoop(cl.clone())
            } else if info.loop_continues.get(pc) == Some(&false) {
                PlanOp::EndLoopWithoutContinue
            } else {
                PlanOp::Reference
            };
            Step {
                op,
                facts: facts.get(pc).copied().unwrap_or_default(),
                imm_rows: imm_rows.get(pc).copied().unwrap_or([NO_ROW; 2]),
            }
        })
        .collect()
}

/// `plan` with only `paths` of its fast paths: the others' fields cleared,
/// so that their instructions take the reference handlers.
pub(in crate::exec) fn restrict(plan: &mut [Step], paths: FastPaths) {
    for s in plan {
        let off = match s.op {
            PlanOp::Reference => false,
            PlanOp::RowAlu(_) | PlanOp::Compiled(..) => !paths.contains(FastPaths::ROW_ALU),
            PlanOp::CompiledLoad(_) => {
                !paths.contains(FastPaths::ROW_ALU) || !paths.contains(FastPaths::COMPILED)
            }
            PlanOp::FusedLeave(_) => !paths.contains(FastPaths::FUSED_LEAVE),
            PlanOp::CasLoop(_) => !paths.contains(FastPaths::CAS_LOOP),
            PlanOp::EndLoopWithoutContinue => !paths.contains(FastPaths::LOOP_WITHOUT_CONTINUE),
        };
        if off {
            s.op = PlanOp::Reference;
        }
        if !paths.contains(FastPaths::ROW_ALU) {
            s.imm_rows = [NO_ROW; 2];
        }
        if !paths.contains(FastPaths::MEMORY_LINES) {
            s.facts.addr = None;
            s.facts.grid = None;
        }
        if !paths.contains(FastPaths::UNIFORM_IF) {
            s.facts.uniform_cond = false;
        }
        if let (PlanOp::Compiled(row, _), false) = (&s.op, paths.contains(FastPaths::COMPILED)) {
            s.op = PlanOp::RowAlu(*row);
        }
        if let PlanOp::Compiled(_, region) | PlanOp::CompiledLoad(region) = &mut s.op {
            // (a region of its own: the shared one may be compiled blind,
            // or with its loads' patterns)
            if let Some(r) = region.restricted(paths) {
                *region = Arc::new(r);
            }
        }
        if let (PlanOp::RowAlu(r) | PlanOp::Compiled(r, _), false) =
            (&mut s.op, paths.contains(FastPaths::LAZY_NAN))
        {
            r.rows = r.canonical_rows;
        }
    }
}
