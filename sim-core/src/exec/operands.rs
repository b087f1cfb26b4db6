//! Operand access: reading a source operand's components for the active
//! lanes (registers, immediates, constant buffers, indexed operands) and
//! writing a destination's masked components.

// Lane loops index several structure-of-arrays slices with one lane number;
// iterator zips of four or five slices would obscure them.
#![allow(clippy::needless_range_loop)]

use crate::analysis::affine::PcFacts;
use crate::exec::context::Cx;
use crate::exec::observe::Observer;
use crate::exec::profile::ExecStats;
use crate::exec::warp::{commit, zeros, Warp};
use crate::ir::lowered::{Dst, DstKind, Idx, Rel, Src, SrcKind, SrcMod};

impl Cx<'_, '_> {
    /// The value of a relative index `idx` in lane `lane`: its immediate
    /// plus the register component it names (wrapping).
    pub(super) fn idx_value(&self, warp: &Warp, idx: &Idx, lane: usize) -> u32 {
        let w = self.w;
        match idx.rel {
            None => idx.imm,
            Some(Rel::Temp { reg, comp }) => idx
                .imm
                .wrapping_add(warp.regs[(reg as usize * 4 + comp as usize) * w + lane]),
            Some(Rel::XTemp { x, elem, comp }) => {
                let (base, _) = self.prog.xtemp_layout[x as usize].unwrap_or((0, 0));
                let word = (base as usize + elem as usize * 4 + comp as usize) * w + lane;
                idx.imm
                    .wrapping_add(warp.xregs.get(word).copied().unwrap_or(0))
            }
        }
    }

    /// Word `word` of the constant buffer in `slot` (0 when unbound or out of range).
    pub(super) fn cb_word(&self, slot: u32, word: u64) -> u32 {
        self.b
            .constant_buffer(slot)
            .and_then(|cb| cb.get(usize::try_from(word).ok()?))
            .copied()
            .unwrap_or(0)
    }

    /// Fetch `src` into `out` for the destination components in `comps`:
    /// `out[c·W + lane]` = source component `swz[c]`, modifier applied.
    pub(super) fn fetch(&self, warp: &Warp, src: &Src, comps: u8, out: &mut [u32]) {
        let w = self.w;
        for c in 0..4 {
            if comps & (1 << c) != 0 {
                self.fetch_comp(warp, src, c, &mut out[c * w..(c + 1) * w]);
            }
        }
    }

    /// Destination component `c` of `src` (source component `swz[c]`, modifier
    /// applied) for all W lanes: a slice of the warp's registers or system
    /// values when no copy is needed (no modifier), else `buf` (≥ W words),
    /// filled. The hot path of every ALU instruction.
    #[inline]
    pub(super) fn operand<'a>(
        &self,
        warp: &'a Warp,
        src: &Src,
        c: usize,
        buf: &'a mut [u32],
    ) -> &'a [u32] {
        let w = self.w;
        let sc = src.swz[c] as usize;
        if matches!(
            src.modifier,
            SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg
        ) {
            match src.kind {
                SrcKind::Temp(r) => {
                    let base = (r as usize * 4 + sc) * w;
                    return &warp.regs[base..base + w];
                }
                SrcKind::ThreadId if sc < 3 => return &warp.tid[sc],
                SrcKind::ThreadIdInGroup if sc < 3 => return &warp.tig[sc],
                SrcKind::GroupId if sc < 3 => return &warp.gid[sc],
                SrcKind::Flattened => return &warp.flat,
                SrcKind::Imm(v) if v[sc] == 0 => return zeros(w, buf),
                _ => {}
            }
        }
        let o = &mut buf[..w];
        self.fetch_comp(warp, src, c, o);
        o
    }

    /// Destination component `c` of `src` when it is the same word in every
    /// lane by its kind: an immediate or a constant-buffer word at an
    /// immediate index, before any modifier. `None` for any other operand
    /// (which may still happen to be uniform).
    pub(super) fn uniform_word(&self, src: &Src, c: usize) -> Option<u32> {
        let sc = src.swz[c] as usize;
        match src.kind {
            SrcKind::Imm(v) => Some(v[sc]),
            SrcKind::Cb { slot, index } if index.rel.is_none() => {
                Some(self.cb_word(slot, index.imm as u64 * 4 + sc as u64))
            }
            _ => None,
        }
    }

    /// Destination component `c` of `src` into `o` (W words).
    pub(super) fn fetch_comp(&self, warp: &Warp, src: &Src, c: usize, o: &mut [u32]) {
        let w = self.w;
        let sc = src.swz[c] as usize;
        match src.kind {
            SrcKind::Temp(r) => {
                let base = (r as usize * 4 + sc) * w;
                o.copy_from_slice(&warp.regs[base..base + w]);
            }
            SrcKind::Imm(v) => o.fill(v[sc]),
            SrcKind::ThreadId => match warp.tid.get(sc) {
                Some(t) => o.copy_from_slice(t),
                None => o.fill(0),
            },
            SrcKind::ThreadIdInGroup => match warp.tig.get(sc) {
                Some(t) => o.copy_from_slice(t),
                None => o.fill(0),
            },
            SrcKind::GroupId => match warp.gid.get(sc) {
                Some(g) => o.copy_from_slice(g),
                None => o.fill(0),
            },
            SrcKind::Flattened => o.copy_from_slice(&warp.flat),
            SrcKind::Cb { slot, index } => {
                if index.rel.is_none() {
                    o.fill(self.cb_word(slot, index.imm as u64 * 4 + sc as u64));
                } else {
                    for (l, v) in o.iter_mut().enumerate() {
                        let e = self.idx_value(warp, &index, l) as u64;
                        *v = self.cb_word(slot, e * 4 + sc as u64);
                    }
                }
            }
            SrcKind::Icb { index } => {
                let icb = &self.prog.icb;
                for (l, v) in o.iter_mut().enumerate() {
                    let e = self.idx_value(warp, &index, l) as usize;
                    *v = e
                        .checked_mul(4)
                        .and_then(|i| icb.get(i + sc))
                        .copied()
                        .unwrap_or(0);
                }
            }
            SrcKind::XTemp { x, index } => {
                let (base, size) = self.prog.xtemp_layout[x as usize].unwrap_or((0, 0));
                for (l, v) in o.iter_mut().enumerate() {
                    let e = self.idx_value(warp, &index, l);
                    // out of range is undefined (FS §7.3): read 0
                    *v = if e < size {
                        warp.xregs[((base + e * 4) as usize + sc) * w + l]
                    } else {
                        0
                    };
                }
            }
        }
        apply_modifier(o, src.modifier);
    }

    /// Write `res[c·W + lane]` to `dst` for its masked components and the active lanes.
    pub(super) fn write(&self, warp: &mut Warp, dst: &Dst, res: &[u32]) {
        let w = self.w;
        match dst.kind {
            DstKind::Null => {}
            DstKind::Temp(r) => {
                for c in 0..4 {
                    if dst.mask & (1 << c) == 0 {
                        continue;
                    }
                    let base = (r as usize * 4 + c) * w;
                    let d = &mut warp.regs[base..base + w];
                    let v = &res[c * w..(c + 1) * w];
                    commit(d, v, &warp.active, warp.full, &warp.span);
                }
            }
            DstKind::XTemp { x, index } => {
                let (base, size) = self.prog.xtemp_layout[x as usize].unwrap_or((0, 0));
                for l in 0..w {
                    if warp.active[l] == 0 {
                        continue;
                    }
                    let e = self.idx_value(warp, &index, l);
                    if e >= size {
                        continue; // undefined (FS §7.3): dropped
                    }
                    for c in 0..4 {
                        if dst.mask & (1 << c) != 0 {
                            warp.xregs[((base + e * 4) as usize + c) * w + l] = res[c * w + l];
                        }
                    }
                }
            }
        }
    }

    /// What the analysis knows of the current instruction
    /// (`crate::analysis::affine`), less what the switched-off fast paths
    /// would use: its plan step's.
    #[inline]
    pub(super) fn facts_here(&self, warp: &Warp) -> &PcFacts {
        &self.plan[warp.pc - 1].facts
    }
}

/// Moves `warp` past the instruction at its pc, counting it: in the
/// statistics, and to the observer. (A function of the fields it
/// changes, so that a caller may hold the context.)
#[inline(always)]
pub(super) fn step<O: Observer>(stats: &mut ExecStats, obs: &mut O, warp: &mut Warp) {
    warp.pc += 1;
    stats.warp_instructions += 1;
    obs.instruction(warp);
}

/// [`modify`](crate::ir::lowered::modify) on every lane (one loop per
/// modifier, so that each vectorises).
#[inline(always)]
pub(super) fn apply_modifier(o: &mut [u32], m: SrcMod) {
    match m {
        SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg => {}
        SrcMod::FNeg => o.iter_mut().for_each(|v| *v ^= 0x8000_0000),
        SrcMod::FAbs => o.iter_mut().for_each(|v| *v &= 0x7fff_ffff),
        SrcMod::FAbsNeg => o.iter_mut().for_each(|v| *v |= 0x8000_0000),
        SrcMod::INeg => o.iter_mut().for_each(|v| *v = v.wrapping_neg()),
        SrcMod::IAbs => o.iter_mut().for_each(|v| *v = (*v as i32).unsigned_abs()),
        SrcMod::IAbsNeg => o
            .iter_mut()
            .for_each(|v| *v = (*v as i32).unsigned_abs().wrapping_neg()),
    }
}
