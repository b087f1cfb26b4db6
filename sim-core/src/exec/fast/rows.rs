//! Row ALU (`FastPaths::ROW_ALU`): component-wise ALU instructions resolved
//! once per program into rows of the warp's register arena (registers,
//! literals, system values, constant-buffer words) and run by a per-ISA row
//! kernel of `crate::exec::kernels`, with the flushes that
//! `crate::analysis::flushed` shows needless skipped. The register entry is in `README.md`.

use crate::exec::context::{Budget, Cx};
use crate::exec::fast::plan::Step;
use crate::exec::kernels::{lane_op, LaneOp, RowArgs, RowKernel, CHUNK};
use crate::exec::observe::Observer;
use crate::exec::operands::step;
use crate::exec::profile::ExecStats;
use crate::exec::warp::{Warp, SCRATCH_ROWS};
use crate::ir::lowered::{modify, DstKind, Op, OpKind, Src, SrcKind, SrcMod};
use crate::isa::lanes::SrcBits;
use crate::isa::opcodes::AluOp;
use crate::Program;
use std::collections::HashMap;
/// Where a pre-resolved source's W lane values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::exec) enum Row {
    /// word offset of a temp component in the warp's register file
    Temp(u32),
    /// word offset of an immediate's W copies among the immediate rows
    /// ([`Arena::imm`])
    Imm(u32),
    /// vThreadID component
    Tid(u8),
    /// vThreadIDInGroup component
    Tig(u8),
    /// vThreadIDInGroupFlattened
    Flat,
    /// vThreadGroupID component (uniform: filled per instruction)
    Group(u8),
    /// a constant-buffer word at an immediate index (uniform: filled per instruction)
    Cb { slot: u32, word: u64 },
}

/// A source of one destination component of a [`FastAlu`]: the swizzle
/// applied, the modifier still to apply (immediates are pre-modified).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::exec) struct FastSrc {
    pub(in crate::exec) row: Row,
    pub(in crate::exec) modifier: SrcMod,
}

/// One destination component: its word offset in the register file and its
/// sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::exec) struct FastComp {
    pub(in crate::exec) dst: u32,
    pub(in crate::exec) src: [FastSrc; 4],
}

/// An ALU instruction into a temp whose sources are temps,
/// immediates, system values or immediately indexed constant-buffer words,
/// resolved once per executor: per destination component, the lane kernel
/// and where each source's lane values are; then lowered onto the warps'
/// arena ([`RowAlu`]). The hot path of every shader; the general
/// [`Cx::alu`] handles everything else, with kernels made from
/// the same lane functions (`crate::isa::lanes::for_each_lane_op!`).
#[derive(Debug, Clone, Copy)]
pub(in crate::exec) struct FastAlu {
    /// the instruction (its lane function is `op`'s)
    pub(in crate::exec) alu: AluOp,
    pub(in crate::exec) op: LaneOp,
    pub(in crate::exec) sat: bool,
    /// every source word is flushed (`crate::analysis::flushed`): the row kernel is
    /// [`LaneOp::flushed_rows`]
    pub(in crate::exec) flushed: bool,
    /// no instruction observes the NaN payload of a written component
    /// (`crate::analysis::payload`): with flushed sources, the row kernel
    /// is [`LaneOp::blind_rows`]
    pub(in crate::exec) unobserved: bool,
    /// the destination is dead wherever a lane inactive here resumes
    /// (`crate::analysis::liveness`): a partial warp's lanes are written unblended
    pub(in crate::exec) unmasked: bool,
    /// destination components: `comps[..n].dst`; a dot product's terms'
    /// sources are `comps[..op.dot].src[..2]`
    pub(in crate::exec) n: u8,
    pub(in crate::exec) comps: [FastComp; 4],
}

/// A warp's register arena: words of which the first lies on a 64-byte
/// boundary, so that the rows of a warp whose width is a multiple of 16
/// fill whole cache lines and a vector load of one never straddles two
/// (the allocator aligns to 16 bytes only: scan's arena landing 48 bytes
/// past a line made its dispatch 15% slower at 1 thread).
#[derive(Debug, Default)]
pub(in crate::exec) struct AlignedWords {
    buf: Vec<u32>,
    start: usize,
    len: usize,
}

impl AlignedWords {
    /// `len` zero words, the first on a 64-byte boundary.
    pub(in crate::exec) fn zeroed(len: usize) -> Self {
        let buf = vec![0u32; len + 15];
        // words from the allocation's start to the next 64-byte boundary
        let start = (16 - (buf.as_ptr().addr() / 4) % 16) % 16;
        Self { buf, start, len }
    }
}

impl Clone for AlignedWords {
    fn clone(&self) -> Self {
        let mut c = Self::zeroed(self.len);
        c.copy_from_slice(self);
        c
    }
}

impl std::ops::Deref for AlignedWords {
    type Target = [u32];
    #[inline(always)]
    fn deref(&self) -> &[u32] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl<'a> IntoIterator for &'a AlignedWords {
    type Item = &'a u32;
    type IntoIter = std::slice::Iter<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut AlignedWords {
    type Item = &'a mut u32;
    type IntoIter = std::slice::IterMut<'a, u32>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl std::ops::DerefMut for AlignedWords {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u32] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// Where a warp's rows lie in its arena (`Warp::regs`), in words: the
/// register file (`temps`·4 rows) first, then the system values (`sys`:
/// vThreadID.xyz, vThreadIDInGroup.xyz, vThreadGroupID.xyz,
/// vThreadIDInGroupFlattened), the immediate rows of the fast ALU
/// instructions (`imm`), and [`SCRATCH_ROWS`] scratch rows (`scratch`):
/// every operand of a [`RowAlu`] is a row of one slice.
#[derive(Debug, Clone, Copy)]
pub(in crate::exec) struct Arena {
    pub(in crate::exec) w: usize,
    pub(in crate::exec) sys: usize,
    pub(in crate::exec) imm: usize,
    pub(in crate::exec) scratch: usize,
    pub(in crate::exec) len: usize,
}

impl Arena {
    /// The word offset of `row`'s lane 0 in this arena; `None` for a
    /// constant-buffer word, which has no row of its own (`lower` fills a
    /// scratch row with it, a compiled region reads it as a uniform).
    pub(in crate::exec) fn place(&self, row: Row) -> Option<usize> {
        let w = self.w;
        Some(match row {
            Row::Temp(o) => o as usize,
            Row::Imm(o) => self.imm + o as usize,
            Row::Tid(k) => self.sys + k as usize * w,
            Row::Tig(k) => self.sys + (3 + k as usize) * w,
            Row::Group(k) => self.sys + (6 + k as usize) * w,
            Row::Flat => self.sys + 9 * w,
            Row::Cb { .. } => return None,
        })
    }

    pub(in crate::exec) fn new(prog: &Program, w: usize, imm_words: usize) -> Self {
        let sys = prog.temps as usize * 4 * w;
        let imm = sys + 10 * w;
        let scratch = imm + imm_words;
        Arena {
            w,
            sys,
            imm,
            scratch,
            len: scratch + SCRATCH_ROWS * w,
        }
    }
}

/// A [`FastAlu`] lowered onto a warp's [`Arena`]: its row kernel and the
/// [`RowArgs`] of each row it computes.
#[derive(Debug, Clone, Copy)]
pub(in crate::exec) struct RowAlu {
    pub(in crate::exec) rows: RowKernel,
    /// `rows` as it is without `FastPaths::LAZY_NAN`: every NaN result the
    /// canonical one
    pub(in crate::exec) canonical_rows: RowKernel,
    /// the rows computed: one per destination component, or a dot
    /// product's one sum
    pub(in crate::exec) comps: [RowArgs; 4],
    pub(in crate::exec) n: u8,
    /// `comps[k].out` is destination component k's row: no component
    /// reads a destination row written before it (and a dot product has
    /// one destination). Else they are scratch rows, moved to the
    /// destinations by `moves` once all are computed.
    pub(in crate::exec) direct: bool,
    /// `(destination row, scratch row)` of each move, run by `mov` (a
    /// pair, not a [`RowArgs`]: an instruction's plan step is kept per
    /// pc, and four unused [`RowArgs`] doubled it)
    pub(in crate::exec) moves: [(u32, u32); 4],
    pub(in crate::exec) n_moves: u8,
    /// the `mov` row kernel
    pub(in crate::exec) mov: RowKernel,
    /// [`FastAlu::unmasked`]
    pub(in crate::exec) unmasked: bool,
    /// constant-buffer words to fill scratch rows with first: (row, slot,
    /// word, modifier)
    pub(in crate::exec) splats: [(u32, u32, u64, SrcMod); 4],
    pub(in crate::exec) n_splats: u8,
}

/// The bits of a source modifier ([`SrcBits`]); `None` for the integer
/// absolute value, which they cannot express.
pub(in crate::exec) fn src_bits(m: SrcMod) -> Option<SrcBits> {
    let (and, xor, add) = match m {
        SrcMod::FNeg => (!0, 0x8000_0000, 0),
        SrcMod::FAbs => (0x7fff_ffff, 0, 0),
        SrcMod::FAbsNeg => (0x7fff_ffff, 0x8000_0000, 0),
        SrcMod::INeg => (!0, !0, 1),
        SrcMod::IAbs | SrcMod::IAbsNeg => return None,
        // the double modifiers never reach a fast instruction
        SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg => (!0, 0, 0),
    };
    Some(SrcBits { and, xor, add })
}

/// Whether an operand of `prog` (or one of its relative indices) is
/// vThreadGroupID: else the executor does not keep its rows.
pub(in crate::exec) fn reads_group_id(prog: &Program) -> bool {
    fn any(o: &crate::ir::Operand) -> bool {
        o.ty == crate::ir::OperandType::InputThreadGroupId
            || o.indices.iter().filter_map(|i| i.rel.as_deref()).any(any)
    }
    prog.decoded
        .instructions
        .iter()
        .any(|i| i.operands.iter().any(any))
}

/// Which of vThreadID.xyz (bits 0–2) and vThreadGroupID.xyz (bits 3–5)
/// the fast ALU instructions read: the arena rows a new batch refreshes.
pub(in crate::exec) fn per_batch_rows(fast: &[Option<FastAlu>]) -> u8 {
    let mut used = 0;
    for f in fast.iter().flatten() {
        let (comps, arity) = match f.op.dot {
            0 => (&f.comps[..f.n as usize], f.op.arity as usize),
            d => (&f.comps[..d as usize], 2),
        };
        for s in comps.iter().flat_map(|c| &c.src[..arity]) {
            match s.row {
                Row::Tid(k) => used |= 1 << k,
                Row::Group(k) => used |= 8 << k,
                _ => {}
            }
        }
    }
    used
}

/// `f` on the rows of arena `l`; `None` when it needs more than four
/// constant-buffer rows, a source has an integer `abs` modifier, or an
/// offset does not fit in 32 bits.
pub(in crate::exec) fn lower(f: &FastAlu, l: &Arena) -> Option<RowAlu> {
    let w = l.w;
    let row = |i: usize| u32::try_from(i).ok();
    let mut splats = [(0, 0, 0, SrcMod::None); 4];
    let mut n_splats = 0;
    let mut place = |s: &FastSrc| -> Option<(u32, SrcBits)> {
        let at = match s.row {
            Row::Cb { slot, word } => {
                let key = (slot, word, s.modifier);
                let found = splats[..n_splats]
                    .iter()
                    .position(|&(_, sl, wd, m)| (sl, wd, m) == key);
                let k = match found {
                    Some(k) => k,
                    None if n_splats < 4 => {
                        let r = row(l.scratch + n_splats * w)?;
                        splats[n_splats] = (r, slot, word, s.modifier);
                        n_splats += 1;
                        n_splats - 1
                    }
                    None => return None,
                };
                // the modifier is applied when filling the row
                return Some((splats[k].0, SrcBits::NONE));
            }
            r => l.place(r)?,
        };
        Some((row(at)?, src_bits(s.modifier)?))
    };
    let none = RowArgs {
        out: 0,
        spare: row(l.scratch + 8 * w)?,
        src: [0; 8],
        mods: [SrcBits::NONE; 8],
        modified: false,
        sat: f.sat,
    };
    let arity = f.op.arity as usize;
    let dot = f.op.dot as usize;
    let n = f.n as usize;
    let mut comps = [none; 4];
    let computed = if dot > 0 { 1 } else { n };
    for (k, a) in comps.iter_mut().enumerate().take(computed) {
        let srcs: Vec<&FastSrc> = if dot > 0 {
            f.comps[..dot].iter().flat_map(|c| &c.src[..2]).collect()
        } else {
            f.comps[k].src[..arity].iter().collect()
        };
        for (i, s) in srcs.into_iter().enumerate() {
            let (o, bits) = place(s)?;
            a.src[i] = o;
            a.mods[i] = bits;
            a.modified |= bits != SrcBits::NONE;
        }
    }
    // a source 1 that is the destination row and commutes with source 0
    // becomes source 0: the row kernels read it through the destination's
    // slice then (`exec/kernels/rows.rs`, `row_body`), without a copy
    if dot == 0 && f.op.commutes && f.op.arity >= 2 {
        for (k, a) in comps.iter_mut().enumerate().take(computed) {
            if a.src[1] == f.comps[k].dst && a.src[0] != a.src[1] {
                a.src.swap(0, 1);
                a.mods.swap(0, 1);
            }
        }
    }
    let dst = |k: usize| f.comps[k].dst;
    // component k reads none of the destination rows written before it
    // (its own it may read: a row kernel reads a lane before writing it)
    let reads_no_earlier = |k: usize| {
        let written: Vec<u32> = (0..k).map(dst).collect();
        comps[k].src[..arity].iter().all(|o| !written.contains(o))
    };
    let direct = if dot > 0 {
        n == 1
    } else {
        (0..n).all(reads_no_earlier)
    };
    let mut moves = [(0, 0); 4];
    let mut n_moves = 0;
    if direct {
        for (k, a) in comps.iter_mut().enumerate().take(computed) {
            a.out = dst(k);
        }
    } else {
        for (k, a) in comps.iter_mut().enumerate().take(computed) {
            a.out = row(l.scratch + (4 + k) * w)?;
        }
        for (k, m) in moves.iter_mut().enumerate().take(n) {
            *m = (dst(k), comps[if dot > 0 { 0 } else { k }].out);
        }
        n_moves = n as u8;
    }
    let canonical_rows = if f.flushed {
        f.op.flushed_rows
    } else {
        f.op.rows
    };
    Some(RowAlu {
        rows: if f.flushed && f.unobserved {
            f.op.blind_rows
        } else {
            canonical_rows
        },
        canonical_rows,
        comps,
        n: computed as u8,
        direct,
        moves,
        n_moves,
        mov: lane_op(AluOp::Mov).rows,
        unmasked: f.unmasked,
        splats,
        n_splats: n_splats as u8,
    })
}

/// Bytes of immediate rows an executor's warps hold together at most
/// ([`resolve_fast`]): each warp's arena holds a row of W copies of every
/// distinct immediate the fast instructions read, so without a cap a
/// generated shader of 300,000 distinct constants took 38 MB per warp.
pub(in crate::exec) const MAX_IMM_BYTES: usize = 8 << 20;

/// The pre-resolved ALU instructions of `prog` for warps of `w` lanes, in
/// an executor of `warps` warps: per pc, the [`FastAlu`] form of an
/// instruction that has one (else `None`), the immediate rows they read
/// (W copies of each distinct value), and per pc the offsets among those
/// rows of a load's or store's immediate address operands (the address or
/// structure index, then the structured offset; [`NO_ROW`] for an operand
/// of another kind), so that the handler reads a row instead of filling one
/// per warp-instruction (matmul's `g1[k]` loads). Once the rows of all
/// warps would pass [`MAX_IMM_BYTES`], an instruction that reads a value
/// not yet in them has no fast form (or row) and runs on the reference path.
pub(in crate::exec) fn resolve_fast(
    prog: &Program,
    w: usize,
    warps: usize,
) -> (Vec<Option<FastAlu>>, Vec<u32>, Vec<[u32; 2]>) {
    let max_values = MAX_IMM_BYTES / (4 * w * warps).max(1);
    let mut imm: Vec<u32> = Vec::new();
    let mut seen: HashMap<u32, u32> = HashMap::new();
    let mut fast = Vec::with_capacity(prog.code.len());
    let facts = prog.info();
    let (flushed, unmasked) = (&facts.flushed, &facts.liveness.unmasked);
    let unobserved = &facts.unobserved;
    let mut addr = Vec::with_capacity(prog.code.len());
    for (((op, &flushed), &unmasked), &unobserved) in
        prog.code.iter().zip(flushed).zip(unmasked).zip(unobserved)
    {
        let mut imm_row = |v: u32| {
            if let Some(&o) = seen.get(&v) {
                return Some(o);
            }
            if seen.len() >= max_values {
                return None;
            }
            let o = u32::try_from(imm.len()).ok()?;
            seen.insert(v, o);
            imm.extend(std::iter::repeat_n(v, w));
            Some(o)
        };
        let f = resolve_alu(prog, op, w, flushed, &mut imm_row);
        fast.push(f.map(|f| FastAlu {
            unmasked,
            unobserved,
            ..f
        }));
        // a load's or store's immediate address operands: their rows
        let (a, b) = match &op.kind {
            OpKind::LdRaw { addr, .. } | OpKind::StoreRaw { addr, .. } => (Some(addr), None),
            OpKind::LdStructured { index, offset, .. }
            | OpKind::StoreStructured { index, offset, .. } => (Some(index), Some(offset)),
            _ => (None, None),
        };
        let mut row = |s: Option<&Src>| match s.map(|s| (s.kind, s)) {
            Some((SrcKind::Imm(v), s)) => {
                imm_row(modify(v[s.swz[0] as usize], s.modifier)).unwrap_or(NO_ROW)
            }
            _ => NO_ROW,
        };
        addr.push([row(a), row(b)]);
    }
    (fast, imm, addr)
}

/// No row ([`resolve_fast`]'s address rows, `Step::imm_rows`).
pub(in crate::exec) const NO_ROW: u32 = u32::MAX;

/// The [`FastAlu`] form of `op`, if it has one; `flushed` says that every
/// source word it reads is flushed ([`crate::analysis::flushed::flushed_sources`]), `imm_row` gives
/// the offset of an immediate's row.
pub(in crate::exec) fn resolve_alu(
    prog: &Program,
    op: &Op,
    w: usize,
    flushed: bool,
    imm_row: &mut impl FnMut(u32) -> Option<u32>,
) -> Option<FastAlu> {
    let OpKind::Alu {
        op,
        ref dst,
        ref src,
        sat,
    } = op.kind
    else {
        return None;
    };
    let lane = lane_op(op);
    let dot = lane.dot as usize;
    let DstKind::Temp(r) = dst.kind else {
        return None;
    };
    if r >= prog.temps {
        return None;
    }
    let unused = FastSrc {
        row: Row::Flat,
        modifier: SrcMod::None,
    };
    let mut comps = [FastComp {
        dst: 0,
        src: [unused; 4],
    }; 4];
    let mut n = 0;
    if dot > 0 {
        // the terms' sources; destinations below
        for (c, comp) in comps.iter_mut().enumerate().take(dot) {
            comp.src[0] = resolve_src(prog, &src[0], c, w, imm_row)?;
            comp.src[1] = resolve_src(prog, &src[1], c, w, imm_row)?;
        }
    }
    for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
        let d = u32::try_from((r as usize * 4 + c) * w).ok()?;
        if dot > 0 {
            comps[n].dst = d;
        } else {
            let mut s = [unused; 4];
            for (i, s) in s.iter_mut().enumerate().take(lane.arity as usize) {
                *s = resolve_src(prog, &src[i], c, w, imm_row)?;
            }
            comps[n] = FastComp { dst: d, src: s };
        }
        n += 1;
    }
    (n > 0).then_some(FastAlu {
        alu: op,
        op: lane,
        sat,
        flushed,
        unmasked: false,
        unobserved: false,
        n: n as u8,
        comps,
    })
}

/// Destination component `c`'s view of `s` as a [`FastSrc`], if it has one.
pub(in crate::exec) fn resolve_src(
    prog: &Program,
    s: &Src,
    c: usize,
    w: usize,
    imm_row: &mut impl FnMut(u32) -> Option<u32>,
) -> Option<FastSrc> {
    let sc = s.swz[c] as usize;
    let modifier = s.modifier;
    if matches!(modifier, SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg) {
        return None;
    }
    // an immediate (or a missing system-value component, which reads 0)
    let imm = |v: u32, imm_row: &mut dyn FnMut(u32) -> Option<u32>| {
        Some(FastSrc {
            row: Row::Imm(imm_row(modify(v, modifier))?),
            modifier: SrcMod::None,
        })
    };
    let row = match s.kind {
        SrcKind::Temp(r) if r < prog.temps => {
            Row::Temp(u32::try_from((r as usize * 4 + sc) * w).ok()?)
        }
        SrcKind::Imm(v) => return imm(*v.get(sc)?, imm_row),
        SrcKind::ThreadId if sc < 3 => Row::Tid(sc as u8),
        SrcKind::ThreadIdInGroup if sc < 3 => Row::Tig(sc as u8),
        SrcKind::GroupId if sc < 3 => Row::Group(sc as u8),
        SrcKind::ThreadId | SrcKind::ThreadIdInGroup | SrcKind::GroupId => return imm(0, imm_row),
        SrcKind::Flattened => Row::Flat,
        SrcKind::Cb { slot, index } if index.rel.is_none() => Row::Cb {
            slot,
            word: index.imm as u64 * 4 + sc as u64,
        },
        _ => return None,
    };
    Some(FastSrc { row, modifier })
}

impl Cx<'_, '_> {
    /// A pre-resolved ALU instruction, lowered onto the warp's arena
    /// ([`RowAlu`]): its constant-buffer rows filled, then each row
    /// computed by the row kernel — straight into the destination rows
    /// when [`RowAlu::direct`], else into scratch rows then moved — for
    /// every lane of a full warp, or blended under the active lanes of a
    /// partial one, over the [`CHUNK`]-lane steps that hold its active
    /// lanes.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(in crate::exec) fn run_fast(&self, warp: &mut Warp, f: &RowAlu) {
        let w = self.w;
        let Warp {
            regs,
            active,
            full,
            span,
            splats,
            ..
        } = warp;
        // splat k is the arena's scratch row k (`lower`); a row that holds
        // the value already, from this instruction's last run in a loop,
        // is not filled again
        for (&(row, slot, word, m), held) in f.splats[..f.n_splats as usize].iter().zip(splats) {
            let v = modify(self.cb_word(slot, word), m);
            if *held != Some(v) {
                regs[row as usize..row as usize + w].fill(v);
                *held = Some(v);
            }
        }
        let (lanes, mask) = if *full {
            (0..w, None)
        } else {
            let start = span.start / CHUNK * CHUNK;
            let end = span.end.div_ceil(CHUNK) * CHUNK;
            let mask = (!f.unmasked).then_some(&active[..]);
            (start..end.min(w), mask)
        };
        let comps = &f.comps[..f.n as usize];
        // SAFETY: `lane_op` returns row kernels compiled for an instruction
        // set the CPU runs (`isa`) or the baseline's; `lower` placed every
        // row inside the arena, and `lanes` and `active` are within W.
        unsafe {
            if f.direct {
                for a in comps {
                    (f.rows)(regs, a, lanes.clone(), mask);
                }
            } else {
                for a in comps {
                    (f.rows)(regs, a, lanes.clone(), None);
                }
                for &(out, from) in &f.moves[..f.n_moves as usize] {
                    let mut m = f.comps[0];
                    (m.out, m.src[0], m.sat) = (out, from, false);
                    m.mods[0] = SrcBits::NONE;
                    m.modified = false;
                    (f.mov)(regs, &m, lanes.clone(), mask);
                }
            }
        }
    }

    /// The pre-resolved ALU instructions that follow one ([`run_fast`]),
    /// run in a row without going back through the interpreter loop's
    /// dispatch: an ALU instruction changes no mask and ends no lane, so
    /// the loop's checks between them would find nothing new. Each is
    /// counted as the loop counts it (statistics, profile, watchdog); the
    /// run stops one instruction before the watchdog's next check is due,
    /// so that the loop makes that check (and yields, when interleaving)
    /// exactly where it would have.
    ///
    /// [`run_fast`]: Cx::run_fast
    #[inline(always)]
    pub(in crate::exec) fn run_fast_after<O: Observer>(
        &self,
        (budget, stats): (&mut Budget, &mut ExecStats),
        obs: &mut O,
        warp: &mut Warp,
    ) {
        while let Some(f) = self.plan.get(warp.pc).and_then(Step::row) {
            if budget.until_check <= 1 {
                return;
            }
            budget.until_check -= 1;
            step(stats, obs, warp);
            self.run_fast(warp, f);
        }
    }
}
