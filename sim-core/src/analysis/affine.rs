//! Lane-linear address operands, found once per program.
//!
//! Most compute shaders address memory with `SV_DispatchThreadID.x` or
//! `SV_GroupIndex` times a stride plus something the same for every thread
//! (`ishl r0.x, vThreadID.x, l(2)`, then `ld_raw … r0.x`). For such an
//! operand the value of every active lane is the first active lane's plus
//! `step·(SV_GroupIndex − the first lane's SV_GroupIndex)`, with `step` known
//! before the shader runs. A memory instruction whose address operands have
//! known steps needs no per-lane check that its lanes' words lie on a line
//! ([`sim_mem::affine_words`]): the executor reads the first active lane's
//! address and asks [`sim_mem::affine_line`] for the bounds, in O(1).
//!
//! In a 2-D group (one layer, not packed) a value may instead step by one
//! amount per `SV_GroupThreadID.x` and by another per row
//! (`SV_GroupThreadID.y`): a tile's column `tile[k][x]` or row
//! `tile[y][k]`. Such an access's words lie on a grid, one line per row of
//! the group, and the executor finds it from the first lane's address as
//! well ([`sim_mem::affine_grid`], [`PcFacts::grid`]).
//!
//! The analysis is a forward dataflow over the structured control flow,
//! with a divergence rule:
//! - Immediates, constant-buffer words, `SV_GroupID` and any pure ALU
//!   result of such values are uniform (step 0); `SV_GroupIndex`, and in a
//!   one-row group `SV_GroupThreadID.x` and `SV_DispatchThreadID.x`, have
//!   step 1; in a 2-D group, `SV_GroupThreadID.x` and
//!   `SV_DispatchThreadID.x` step 1 per thread of a row, `.y` 1 per row. `mov`, `iadd`, `ishl` by an immediate, `imad` and `imul`/`umul`
//!   (low half) by an immediate, and the integer negate modifier carry steps.
//! - Inside a branch or a loop only a subset of the lanes is active, so what
//!   held before still holds. After an `if` whose condition is uniform every
//!   lane took the same branch (a meet of the two branches); after a
//!   divergent one, or after a loop, a component written inside is unknown.
//! - At a loop head the entry state meets the back edge's (iterated to a
//!   fixpoint); a loop with a `continue` forgets what its body writes, and
//!   switches, calls and subroutine entries forget everything.
//!
//! Loads, texture results, atomics' returned values and indexable temps are
//! never tracked.

use crate::ir::lowered::{Body, Dst, DstKind, Op, OpKind, Res, Src, SrcKind, SrcMod};
use crate::isa::lanes::{arity, dot_terms};
use crate::isa::opcodes::{Alu2Op, AluOp};
use std::collections::{HashMap, HashSet};

/// What is known of one register component: every lane holds a value
/// the same for every thread of the group plus `step` per
/// `SV_GroupThreadID.x` and `row` per `SV_GroupThreadID.y` (wrapping u32);
/// `konst` is the value itself when it is a known constant (both steps 0).
/// In a group of one row, or a 3-D one, only values linear in
/// `SV_GroupIndex` are tracked, with `row` = `step`·width (`SV_GroupIndex`
/// = x + width·y); such a value has `step` per `SV_GroupIndex`
/// ([`Lin::lane_step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Lin {
    pub step: u32,
    pub row: u32,
    pub konst: Option<u32>,
}

impl Lin {
    const UNIFORM: Lin = Lin {
        step: 0,
        row: 0,
        konst: None,
    };

    /// `SV_GroupIndex` in a group `width` threads wide.
    fn lane(width: u32) -> Lin {
        Lin {
            step: 1,
            row: width,
            konst: None,
        }
    }

    /// `SV_GroupThreadID.x` (`x`) or `.y` in a 2-D group.
    fn thread_axis(x: bool) -> Lin {
        Lin {
            step: u32::from(x),
            row: u32::from(!x),
            konst: None,
        }
    }

    fn constant(v: u32) -> Lin {
        Lin {
            step: 0,
            row: 0,
            konst: Some(v),
        }
    }

    /// The same in every thread of the group.
    fn is_uniform(self) -> bool {
        self.step == 0 && self.row == 0
    }

    /// The step per `SV_GroupIndex`, when the value is linear in it (in a
    /// group `width` threads wide, of `rows` rows).
    pub(crate) fn lane_step(self, width: u32, rows: u32) -> Option<u32> {
        (rows <= 1 || self.row == self.step.wrapping_mul(width)).then_some(self.step)
    }

    fn add(self, o: Lin) -> Lin {
        Lin {
            step: self.step.wrapping_add(o.step),
            row: self.row.wrapping_add(o.row),
            konst: self.konst.zip(o.konst).map(|(a, b)| a.wrapping_add(b)),
        }
    }

    fn scale(self, k: u32) -> Lin {
        Lin {
            step: self.step.wrapping_mul(k),
            row: self.row.wrapping_mul(k),
            konst: self.konst.map(|v| v.wrapping_mul(k)),
        }
    }

    /// `x·y` when one factor is a known constant.
    fn product(x: Lin, y: Lin) -> Option<Lin> {
        match (x.konst, y.konst) {
            (_, Some(k)) => Some(x.scale(k)),
            (Some(k), None) => Some(y.scale(k)),
            (None, None) => None,
        }
    }
}

/// The meet of what two paths know: the same step survives, a constant
/// only if both agree.
fn meet(a: Option<Lin>, b: Option<Lin>) -> Option<Lin> {
    let (a, b) = (a?, b?);
    (a.step == b.step && a.row == b.row).then(|| Lin {
        step: a.step,
        row: a.row,
        konst: if a.konst == b.konst { a.konst } else { None },
    })
}

/// The steps of a memory instruction's address operands: `a` (byte offset,
/// or structure index) and `b` (byte offset in the structure; 0 for raw).
pub(crate) type AddressSteps = (u32, u32);

/// The steps of a memory instruction's address operands in a 2-D group,
/// per `SV_GroupThreadID.x` (a lane of a row) and per `SV_GroupThreadID.y`
/// (a row): `((a per x, a per row), (b per x, b per row))`.
pub(crate) type GridSteps = ((u32, u32), (u32, u32));

/// A structured construct being walked.
enum Frame {
    If {
        /// the state before the `if`
        at_if: Vec<Option<Lin>>,
        /// every lane takes the same branch
        uniform: bool,
        /// the state at the end of the `if` branch, once in the `else`
        then_end: Option<Vec<Option<Lin>>>,
        written: Vec<bool>,
    },
    Loop {
        pc: usize,
        entry: Vec<Option<Lin>>,
        written: Vec<bool>,
    },
}

/// What one walk learnt about the loops, to start the next.
#[derive(Default, PartialEq)]
struct Loops {
    /// the state at each loop's `endloop` (the back edge), by loop pc
    back: HashMap<usize, Vec<Option<Lin>>>,
    /// the components each loop's body writes
    written: HashMap<usize, Vec<bool>>,
    /// loops with a `continue`
    cont: HashSet<usize>,
}

/// What the analysis knows at one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct PcFacts {
    /// a raw or structured load, store or atomic whose address operands
    /// both have known steps: the steps
    pub addr: Option<AddressSteps>,
    /// a raw or structured load or store in a 2-D group (one layer: depth
    /// 1), not packed, whose address operands both have known steps per
    /// `SV_GroupThreadID.x` and `.y` but are not linear in
    /// `SV_GroupIndex` (a tile's rows or columns): those steps
    pub grid: Option<GridSteps>,
    /// an `if`, or a conditional `break`, `continue` or `ret`, whose
    /// condition is the same for every active lane
    pub uniform_cond: bool,
}

/// Per pc, the [`PcFacts`].
pub(crate) fn analyze(prog: Body<'_>, packed: bool) -> Vec<PcFacts> {
    // walk until the loop heads agree with the back edges they met
    let mut loops = Loops::default();
    for _ in 0..8 {
        let (facts, next) = walk(prog, packed, &loops, false);
        if next == loops {
            return facts;
        }
        loops = next;
    }
    // no fixpoint yet: loop heads forget what their bodies write
    walk(prog, packed, &loops, true).0
}

/// Per pc, the [`AddressSteps`] of each raw or structured load, store and
/// atomic whose address operands both have known steps (`None` elsewhere).
#[cfg(test)]
pub(crate) fn address_steps(prog: Body<'_>) -> Vec<Option<AddressSteps>> {
    analyze(prog, false).into_iter().map(|f| f.addr).collect()
}

/// One forward walk over the program, loop heads meeting the back edges of
/// `prev`; with `conservative`, loop heads forget what their bodies write.
fn walk(prog: Body<'_>, packed: bool, prev: &Loops, conservative: bool) -> (Vec<PcFacts>, Loops) {
    let n = prog.temps as usize * 4;
    let mut known: Vec<Option<Lin>> = vec![None; n];
    let mut frames: Vec<Frame> = Vec::new();
    let mut next = Loops::default();
    let entries: HashSet<usize> = prog
        .function_bodies
        .iter()
        .map(|&(_, pc)| pc as usize)
        .collect();
    let mut out = Vec::with_capacity(prog.code.len());
    let forget_written = |state: &mut [Option<Lin>], written: &[bool]| {
        for (k, &w) in state.iter_mut().zip(written) {
            if w {
                *k = None;
            }
        }
    };
    for (pc, op) in prog.code.iter().enumerate() {
        if entries.contains(&pc) {
            known.fill(None);
            frames.clear();
        }
        let uniform = |s: &Src| src_lin(prog, packed, &known, s, 0).is_some_and(Lin::is_uniform);
        let uniform_cond = match op.kind {
            OpKind::If { ref cond, .. } => uniform(cond),
            OpKind::Break {
                cond: Some((ref c, _)),
            }
            | OpKind::Continue {
                cond: Some((ref c, _)),
            }
            | OpKind::Ret {
                cond: Some((ref c, _)),
            } => uniform(c),
            _ => false,
        };
        let (addr, grid) = memory_steps(prog, packed, &known, op);
        out.push(PcFacts {
            addr,
            grid,
            uniform_cond,
        });
        transfer(prog, packed, op, &mut known, innermost_written(&mut frames));
        match op.kind {
            OpKind::If { .. } => {
                frames.push(Frame::If {
                    at_if: known.clone(),
                    uniform: uniform_cond,
                    then_end: None,
                    written: vec![false; n],
                });
            }
            OpKind::Else { .. } => match frames.last_mut() {
                Some(Frame::If {
                    at_if, then_end, ..
                }) => {
                    *then_end = Some(std::mem::replace(&mut known, at_if.clone()));
                }
                _ => known.fill(None),
            },
            OpKind::EndIf => match frames.pop() {
                Some(Frame::If {
                    at_if,
                    uniform,
                    then_end,
                    written,
                }) => {
                    let (a, b) = match then_end {
                        Some(t) => (t, std::mem::take(&mut known)),
                        None => (std::mem::take(&mut known), at_if.clone()),
                    };
                    known = if uniform {
                        a.iter().zip(&b).map(|(&x, &y)| meet(x, y)).collect()
                    } else {
                        let mut k = at_if;
                        forget_written(&mut k, &written);
                        k
                    };
                    mark_parent(&mut frames, &written);
                }
                other => {
                    frames.extend(other);
                    known.fill(None);
                }
            },
            OpKind::Loop { .. } => {
                let entry = known.clone();
                if conservative || prev.cont.contains(&pc) {
                    match prev.written.get(&pc) {
                        Some(w) => forget_written(&mut known, w),
                        None => known.fill(None),
                    }
                } else if let Some(back) = prev.back.get(&pc) {
                    for (k, &b) in known.iter_mut().zip(back) {
                        *k = meet(*k, b);
                    }
                }
                // (else the first walk: optimistic, corrected by the next)
                frames.push(Frame::Loop {
                    pc,
                    entry,
                    written: vec![false; n],
                });
            }
            OpKind::Continue { .. } => {
                if let Some(Frame::Loop { pc, .. }) = frames
                    .iter()
                    .rev()
                    .find(|f| matches!(f, Frame::Loop { .. }))
                {
                    next.cont.insert(*pc);
                }
            }
            OpKind::EndLoop { .. } => match frames.pop() {
                Some(Frame::Loop { pc, entry, written }) => {
                    next.back.insert(pc, std::mem::replace(&mut known, entry));
                    forget_written(&mut known, &written);
                    mark_parent(&mut frames, &written);
                    next.written.insert(pc, written);
                }
                other => {
                    frames.extend(other);
                    known.fill(None);
                }
            },
            OpKind::Switch { .. } | OpKind::Case { .. } | OpKind::Default | OpKind::EndSwitch => {
                known.fill(None)
            }
            _ => {}
        }
    }
    (out, next)
}

/// The components written inside the innermost open construct (nothing
/// outside every construct: no one asks).
fn innermost_written(frames: &mut [Frame]) -> &mut [bool] {
    match frames.last_mut() {
        Some(Frame::If { written, .. } | Frame::Loop { written, .. }) => written,
        None => &mut [],
    }
}

/// Mark `written` in the innermost open construct.
fn mark_parent(frames: &mut [Frame], written: &[bool]) {
    for (p, &w) in innermost_written(frames).iter_mut().zip(written) {
        *p |= w;
    }
}

/// The address steps of a raw or structured memory instruction: per
/// `SV_GroupIndex` ([`PcFacts::addr`]), else, for a load or store in a 2-D
/// group, per thread of a row and per row ([`PcFacts::grid`]).
fn memory_steps(
    prog: Body<'_>,
    packed: bool,
    known: &[Option<Lin>],
    op: &Op,
) -> (Option<AddressSteps>, Option<GridSteps>) {
    let [width, height, depth] = prog.thread_group;
    let lin = |s: &Src, c: usize| src_lin(prog, packed, known, s, c);
    let zero = Lin::constant(0);
    // (an atomic's lines come from its steps per lane alone: no grid)
    let (a, b, grid) = match op.kind {
        OpKind::LdRaw { ref addr, .. } | OpKind::StoreRaw { ref addr, .. } => {
            (lin(addr, 0), Some(zero), true)
        }
        OpKind::LdStructured {
            ref index,
            ref offset,
            ..
        }
        | OpKind::StoreStructured {
            ref index,
            ref offset,
            ..
        } => (lin(index, 0), lin(offset, 0), true),
        OpKind::Atomic {
            ref addr,
            structured,
            res,
            ..
        } if !matches!(res, Res::UavTexture(_)) => {
            let b = if structured { lin(addr, 1) } else { Some(zero) };
            (lin(addr, 0), b, false)
        }
        _ => return (None, None),
    };
    let (Some(a), Some(b)) = (a, b) else {
        return (None, None);
    };
    let rows = height * depth;
    match a.lane_step(width, rows).zip(b.lane_step(width, rows)) {
        Some(steps) => (Some(steps), None),
        None if grid && grid_tracked(prog, packed) => {
            (None, Some(((a.step, a.row), (b.step, b.row))))
        }
        None => (None, None),
    }
}

/// Whether `SV_GroupThreadID.xy` (and `SV_DispatchThreadID.xy`) are
/// tracked as steps per thread of a row and per row: in a 2-D group of one
/// layer, not packed.
fn grid_tracked(prog: Body<'_>, packed: bool) -> bool {
    let [_, height, depth] = prog.thread_group;
    !packed && height > 1 && depth == 1
}

/// What is known of component `c` of `s` (its swizzle and modifier applied).
///
/// With `packed`, a warp's lanes are the threads of consecutive groups
/// along x, group after group (`GroupExecutor::packed`): `SV_GroupIndex`,
/// `SV_GroupThreadID.x` and `SV_GroupID.x` then restart or change within
/// the warp and are not tracked, while `SV_GroupID.yz` stay uniform and, in
/// a group of one row, `SV_DispatchThreadID.x` still has step 1
/// (`first.x·width + lane`).
fn src_lin(prog: Body<'_>, packed: bool, known: &[Option<Lin>], s: &Src, c: usize) -> Option<Lin> {
    let sc = *s.swz.get(c)? as usize;
    let one_d = prog.thread_group[1] == 1 && prog.thread_group[2] == 1;
    let grid = grid_tracked(prog, packed);
    let lane = Lin::lane(prog.thread_group[0]);
    let lin = match s.kind {
        SrcKind::Temp(r) => (*known.get(r as usize * 4 + sc)?)?,
        SrcKind::Imm(v) => Lin::constant(*v.get(sc)?),
        // a missing component reads 0
        SrcKind::ThreadId | SrcKind::ThreadIdInGroup | SrcKind::GroupId if sc >= 3 => {
            Lin::constant(0)
        }
        SrcKind::Flattened if packed => return None,
        SrcKind::ThreadIdInGroup | SrcKind::GroupId if packed && sc == 0 => return None,
        SrcKind::Flattened => lane,
        SrcKind::GroupId => Lin::UNIFORM,
        // in a group of one row, SV_GroupThreadID is (SV_GroupIndex, 0, 0)
        // and SV_DispatchThreadID is SV_GroupID·(width, 1, 1) + it
        SrcKind::ThreadIdInGroup if one_d => [lane, Lin::constant(0)][usize::from(sc > 0)],
        SrcKind::ThreadId if one_d => [lane, Lin::UNIFORM][usize::from(sc > 0)],
        // in a 2-D group of one layer, SV_GroupThreadID is (x, y, 0) and
        // SV_DispatchThreadID is SV_GroupID·(width, height, 1) + it
        SrcKind::ThreadIdInGroup if grid && sc < 2 => Lin::thread_axis(sc == 0),
        SrcKind::ThreadIdInGroup if grid => Lin::constant(0),
        SrcKind::ThreadId if grid && sc < 2 => Lin::thread_axis(sc == 0),
        SrcKind::ThreadId if grid => Lin::UNIFORM,
        SrcKind::Cb { index, .. } | SrcKind::Icb { index } if index.rel.is_none() => Lin::UNIFORM,
        _ => return None,
    };
    match s.modifier {
        SrcMod::None => Some(lin),
        SrcMod::INeg => Some(lin.scale(u32::MAX)),
        // another modifier of a uniform value is uniform
        _ if lin.is_uniform() => Some(Lin::UNIFORM),
        _ => None,
    }
}

/// Update `known` for what `op` writes, marking each temp component it
/// writes in `written` (every one for a subroutine call).
fn transfer(
    prog: Body<'_>,
    packed: bool,
    op: &Op,
    known: &mut [Option<Lin>],
    written: &mut [bool],
) {
    const UNKNOWN: [Option<Lin>; 4] = [None; 4];
    let mut set = |known: &mut [Option<Lin>], dst: &Dst, value: [Option<Lin>; 4]| {
        if let DstKind::Temp(r) = dst.kind {
            for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
                let i = r as usize * 4 + c;
                if let Some(k) = known.get_mut(i) {
                    *k = value[c];
                }
                if let Some(w) = written.get_mut(i) {
                    *w = true;
                }
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
            let (arity, dot) = (arity(op), dot_terms(op));
            let s = |i: usize, c: usize| src_lin(prog, packed, known, &src[i], c);
            let uniform = |c: usize| {
                let comps = if dot > 0 { 0..dot as usize } else { c..c + 1 };
                let all = (0..arity as usize)
                    .all(|i| comps.clone().all(|c| s(i, c).is_some_and(Lin::is_uniform)));
                all.then_some(Lin::UNIFORM)
            };
            let value = |c: usize| -> Option<Lin> {
                let linear = match op {
                    _ if sat || dot > 0 => None,
                    AluOp::Mov => s(0, c),
                    AluOp::Iadd => s(0, c).zip(s(1, c)).map(|(x, y)| x.add(y)),
                    AluOp::Ineg => s(0, c).map(|x| x.scale(u32::MAX)),
                    AluOp::Ishl => s(0, c)
                        .zip(s(1, c).and_then(|k| k.konst))
                        .map(|(x, k)| x.scale(1 << (k & 31))),
                    AluOp::Imad => {
                        let (x, y, z) = (s(0, c)?, s(1, c)?, s(2, c)?);
                        Lin::product(x, y).map(|xy| xy.add(z))
                    }
                    _ => None,
                };
                linear.or_else(|| uniform(c))
            };
            let value: [Option<Lin>; 4] = std::array::from_fn(value);
            set(known, dst, value);
        }
        OpKind::Alu2 {
            op,
            ref dst,
            ref src,
        } => {
            let s = |i: usize, c: usize| src_lin(prog, packed, known, &src[i], c);
            let arity = match op {
                Alu2Op::Sincos => 1,
                Alu2Op::Swapc => 3,
                _ => 2,
            };
            let uniform = |c: usize| {
                (0..arity)
                    .all(|i| s(i, c).is_some_and(Lin::is_uniform))
                    .then_some(Lin::UNIFORM)
            };
            // imul/umul: dst[1] = the low 32 bits of the product
            let low = |c: usize| match op {
                Alu2Op::Imul | Alu2Op::Umul => s(0, c)
                    .zip(s(1, c))
                    .and_then(|(x, y)| Lin::product(x, y))
                    .or_else(|| uniform(c)),
                _ => uniform(c),
            };
            let (high, low): ([Option<Lin>; 4], [Option<Lin>; 4]) =
                (std::array::from_fn(uniform), std::array::from_fn(low));
            set(known, &dst[0], high);
            set(known, &dst[1], low);
        }
        OpKind::Double { ref dst, .. }
        | OpKind::LdRaw { ref dst, .. }
        | OpKind::LdStructured { ref dst, .. }
        | OpKind::LdTyped { ref dst, .. }
        | OpKind::Counter { ref dst, .. }
        | OpKind::Bufinfo { ref dst, .. } => set(known, dst, UNKNOWN),
        OpKind::Atomic {
            ret: Some(ref d), ..
        } => set(known, d, UNKNOWN),
        OpKind::Texture { index } => {
            if let Some(t) = prog.tex_ops.get(index as usize) {
                set(known, &t.dst, UNKNOWN);
            }
        }
        OpKind::Call { .. } | OpKind::InterfaceCall { .. } => {
            known.fill(None);
            written.fill(true);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Program;

    fn steps(body: &str) -> Vec<Option<AddressSteps>> {
        facts(body, false).into_iter().map(|f| f.addr).collect()
    }

    fn facts(body: &str, packed: bool) -> Vec<PcFacts> {
        let text = format!(
            "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_resource_raw t0\n\
             dcl_uav_structured u0, 16\ndcl_input vThreadID.x\ndcl_input vThreadGroupID.x\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_input vThreadGroupID.y\ndcl_temps 3\n\
             dcl_tgsm_structured g0, 4, 64\ndcl_thread_group 64, 1, 1\n{body}ret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        if !packed {
            assert_eq!(
                address_steps(prog.body()),
                analyze(prog.body(), false)
                    .into_iter()
                    .map(|f| f.addr)
                    .collect::<Vec<_>>()
            );
        }
        analyze(prog.body(), packed)
    }

    /// The facts of `body` in a group of `shape` threads with TGSM g0 (one
    /// word per structure) and a structured UAV u0 of one word.
    fn group_facts(shape: [u32; 3], body: &str, packed: bool) -> Vec<PcFacts> {
        let [x, y, z] = shape;
        let text = format!(
            "cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_uav_structured u0, 4\n\
             dcl_input vThreadIDInGroup.xyz\ndcl_input vThreadID.xyz\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_temps 3\n\
             dcl_tgsm_structured g0, 4, 1024\ndcl_thread_group {x}, {y}, {z}\n{body}ret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        analyze(prog.body(), packed)
    }

    /// In a 2-D group, `SV_GroupThreadID.xy` and `SV_DispatchThreadID.xy`
    /// have steps per thread of a row and per row: an address linear in
    /// `SV_GroupIndex` (y·width + x) keeps its step per lane, a tile's
    /// column or row index (x alone, y alone, x·4) has grid steps, and a
    /// product with an unknown uniform factor has none. Packed warps and
    /// groups of several layers track neither axis.
    #[test]
    fn two_d_groups_give_grid_steps() {
        let body = "ishl r0.x, vThreadIDInGroup.x, l(2)\n\
             ld_structured r1.x, vThreadIDInGroup.y, l(0), g0.xxxx\n\
             ld_structured r1.x, l(0), r0.x, g0.xxxx\n\
             imad r0.y, vThreadIDInGroup.y, l(16), vThreadIDInGroup.x\n\
             store_structured g0.x, r0.y, l(0), r1.x\n\
             imad r0.z, vThreadID.y, cb0[0].x, vThreadID.x\n\
             store_structured u0.x, r0.z, l(0), r1.x\n\
             iadd r0.w, vThreadID.y, vThreadIDInGroup.z\n\
             ld_structured r1.x, r0.w, l(0), g0.xxxx\n";
        let at = |f: &[PcFacts]| [1, 2, 4, 6, 8].map(|pc| (f[pc].addr, f[pc].grid));
        assert_eq!(
            at(&group_facts([16, 16, 1], body, false)),
            [
                (None, Some(((0, 1), (0, 0)))),
                (None, Some(((0, 0), (4, 0)))),
                (Some((1, 0)), None),
                (None, None),
                (None, Some(((0, 1), (0, 0)))),
            ]
        );
        // packed, or 3-D: only what is linear in SV_GroupIndex
        for f in [
            group_facts([16, 16, 1], body, true),
            group_facts([16, 4, 4], body, false),
        ] {
            assert!(f.iter().all(|f| f.grid.is_none()));
        }
        assert_eq!(group_facts([16, 4, 4], body, false)[4].addr, None);
        let flat = "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\n\
             ld_structured r1.x, l(0), r0.x, g0.xxxx\n";
        for shape in [[16, 16, 1], [16, 4, 4], [64, 1, 1]] {
            assert_eq!(
                group_facts(shape, flat, false)[1].addr,
                Some((0, 4)),
                "{shape:?}"
            );
        }
    }

    /// In a warp of packed groups, `SV_DispatchThreadID.x` of one-row groups
    /// keeps step 1, while `SV_GroupIndex`, `SV_GroupThreadID.x` and
    /// `SV_GroupID.x` are not tracked (they restart or change at each
    /// group); `SV_GroupID.y` stays uniform.
    #[test]
    fn packed_groups_keep_the_dispatch_thread_id() {
        let ld = "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed)";
        let body = format!(
            "ishl r0.x, vThreadID.x, l(2)\n\
             {ld} r1.x, r0.x, t0.xxxx\n\
             ishl r0.y, vThreadIDInGroupFlattened.x, l(2)\n\
             {ld} r1.x, r0.y, t0.xxxx\n\
             ishl r0.z, vThreadGroupID.x, l(2)\n\
             {ld} r1.x, r0.z, t0.xxxx\n\
             ieq r0.w, vThreadGroupID.x, l(2)\n\
             if_nz r0.w\n\
             endif\n\
             ieq r0.w, vThreadGroupID.y, l(2)\n\
             if_nz r0.w\n\
             endif\n"
        );
        let addr = |packed| -> Vec<_> { facts(&body, packed).iter().map(|f| f.addr).collect() };
        let uniform = |packed| -> Vec<_> {
            facts(&body, packed)
                .iter()
                .map(|f| f.uniform_cond)
                .collect()
        };
        let s = |x| Some((x, 0));
        assert_eq!(addr(false)[..6], [None, s(4), None, s(4), None, s(0)]);
        assert_eq!(addr(true)[..6], [None, s(4), None, None, None, None]);
        assert_eq!((uniform(false)[7], uniform(false)[10]), (true, true));
        assert_eq!((uniform(true)[7], uniform(true)[10]), (false, true));
    }

    /// Steps follow `ishl`, `imad`, `imul` and `-`, uniform terms add
    /// nothing, a non-linear operation loses the step, and a branch keeps
    /// what held before it; a divergent branch's writes are unknown after it.
    #[test]
    fn steps_follow_integer_arithmetic() {
        let ld = "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed)";
        let f = steps(&format!(
            "ishl r0.x, vThreadID.x, l(2)\n\
             {ld} r1.x, r0.x, t0.xxxx\n\
             imad r0.y, vThreadIDInGroupFlattened.x, l(3), l(5)\n\
             iadd r0.z, r0.y, -vThreadGroupID.x\n\
             store_structured u0.x, r0.z, l(4), r1.x\n\
             imul null, r2.x, r0.x, l(6)\n\
             atomic_iadd u0, r2.xyxx, l(1)\n\
             mov r2.y, cb0[0].y\n\
             atomic_iadd u0, r2.xyxx, l(1)\n\
             xor r0.w, r0.x, l(1)\n\
             {ld} r1.x, r0.w, t0.xxxx\n\
             if_nz r1.x\n\
             {ld} r1.x, r0.x, t0.xxxx\n\
             ishl r0.x, r0.x, l(1)\n\
             endif\n\
             {ld} r1.x, r0.x, t0.xxxx\n"
        ));
        let want = [
            None,
            Some((4, 0)),
            None,
            None,
            Some((3, 0)),
            None,
            None, // r2.y is not known yet
            None,
            Some((24, 0)),
            None,
            None, // xor is not tracked
            None,
            Some((4, 0)), // inside the branch
            None,
            None,
            None, // r0.x was written in a divergent branch
            None,
        ];
        assert_eq!(f, want);
    }

    /// A loop-carried uniform value stays uniform at the loop head (the
    /// fixpoint), and is unknown after the loop; a uniform `if` meets its
    /// branches; a loop with a `continue` forgets what it writes.
    #[test]
    fn steps_through_loops_and_uniform_branches() {
        let st = "store_structured g0.x";
        let f = steps(&format!(
            "mov r0.y, l(0)\n\
             ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\n\
             loop\n\
             uge r0.w, r0.y, l(8)\n\
             breakc_nz r0.w\n\
             ld_structured r1.x, r0.y, r0.x, g0.xxxx\n\
             iadd r0.y, -r0.y, l(1)\n\
             endloop\n\
             ld_structured r1.x, r0.y, r0.x, g0.xxxx\n\
             if_nz r1.x\n\
             mov r0.z, l(1)\n\
             else\n\
             mov r0.z, l(2)\n\
             endif\n\
             {st}, r0.z, l(0), r1.x\n\
             if_nz cb0[0].x\n\
             mov r0.z, l(1)\n\
             else\n\
             mov r0.z, l(2)\n\
             endif\n\
             {st}, r0.z, l(0), r1.x\n\
             mov r2.x, l(0)\n\
             loop\n\
             {st}, r2.x, l(0), r1.x\n\
             iadd r2.x, r2.x, l(1)\n\
             continuec_nz r1.x\n\
             breakc_nz r1.x\n\
             endloop\n"
        ));
        let mut want = vec![None; f.len()];
        want[5] = Some((0, 4)); // in the loop: r0.y uniform, r0.x 4 per lane
        want[20] = Some((0, 0)); // after the uniform if
        assert_eq!(f, want);
    }
}
