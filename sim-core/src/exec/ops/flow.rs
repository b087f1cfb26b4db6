//! Divergent control flow: the execution-mask stack, and lanes leaving a
//! frame (`break`, `continue`, `ret`, fused exits) and coming back
//! (`else`, `endif`, `endloop`, the next `case`).

use crate::analysis::fusion::Leave;
use crate::exec::context::{Budget, Cx};
use crate::exec::observe::Observer;
use crate::exec::profile::ExecStats;
use crate::exec::warp::{any_all, Frame, Scratch, Warp};
use crate::ir::lowered::{Src, SrcKind, SrcMod};
use crate::isa::lanes::bool_mask;
impl Cx<'_, '_> {
    pub(in crate::exec) fn frame_masks(&self, warp: &mut Warp) -> usize {
        let need = (warp.frames.len() + 1) * 4 * self.w;
        if warp.masks.len() < need {
            warp.masks.resize(need, 0);
        }
        (warp.frames.len()) * 4 * self.w
    }

    pub(in crate::exec) fn mask<'a>(
        &self,
        warp: &'a mut Warp,
        depth: usize,
        k: usize,
    ) -> &'a mut [u32] {
        let start = (depth * 4 + k) * self.w;
        &mut warp.masks[start..start + self.w]
    }

    /// `out[lane]` = all ones where component 0 of `src` is nonzero (`nz`)
    /// or zero (`!nz`), else 0 (W words).
    #[inline(always)]
    pub(in crate::exec) fn condition(
        &self,
        sc: &mut Scratch,
        warp: &Warp,
        src: &Src,
        nz: bool,
        out: &mut [u32],
    ) {
        let mut buf = std::mem::take(&mut sc.s[0]);
        let c = self.operand(warp, src, 0, &mut buf);
        for (o, &c) in out.iter_mut().zip(c) {
            *o = bool_mask((c != 0) == nz);
        }
        sc.s[0] = buf;
    }

    /// The lanes a `break`/`continue`/`ret`/`call`, conditional when `cond`
    /// is given, applies to: `active & condition` (W words into `out`).
    #[inline(always)]
    pub(in crate::exec) fn leaving(
        &self,
        sc: &mut Scratch,
        warp: &Warp,
        cond: &Option<(Src, bool)>,
        out: &mut [u32],
    ) {
        match cond {
            None => out.copy_from_slice(&warp.active),
            Some((src, nz)) => {
                // the condition and the active lanes in one pass
                let mut buf = std::mem::take(&mut sc.s[0]);
                let c = self.operand(warp, src, 0, &mut buf);
                let nz = *nz;
                for ((o, &c), &a) in out.iter_mut().zip(c).zip(&warp.active) {
                    *o = bool_mask((c != 0) == nz) & a;
                }
                sc.s[0] = buf;
            }
        }
    }

    /// Note whether every lane is active; if none is, jump to the next
    /// instruction that can revive lanes.
    #[inline]
    pub(in crate::exec) fn settle(&self, warp: &mut Warp) {
        if !warp.note_active() {
            self.revive(warp);
        }
    }

    /// `settle` when no lane is active: resume a caller whose lanes have all
    /// returned, else jump to where lanes can come back.
    #[inline(never)]
    pub(in crate::exec) fn revive(&self, warp: &mut Warp) {
        while let Some(&Frame::Call { return_pc }) = warp.frames.last() {
            // Every lane of the call has returned: resume the caller with
            // them and with the lanes that skipped a conditional call.
            let base = (warp.frames.len() - 1) * 4 * self.w;
            for l in 0..self.w {
                warp.active[l] = warp.masks[base + l] | warp.masks[base + self.w + l];
            }
            warp.frames.pop();
            warp.pc = return_pc as usize;
            if warp.note_active() {
                return;
            }
        }
        match warp.frames.last() {
            None => warp.done = true,
            Some(Frame::Call { .. }) => {} // handled above
            Some(Frame::If {
                else_pc: Some(e),
                in_else: false,
                ..
            }) => warp.pc = *e as usize,
            Some(Frame::If { endif_pc, .. }) => warp.pc = *endif_pc as usize,
            Some(Frame::Loop { end_pc, .. }) => warp.pc = *end_pc as usize,
            Some(Frame::Switch { id }) => {
                let labels = &self.prog.switches[*id as usize].labels;
                let next = labels.iter().find(|&&p| p as usize >= warp.pc);
                // endswitch is always the last label, so `next` exists
                warp.pc = next.copied().unwrap_or(u32::MAX) as usize;
            }
        }
    }

    /// Remove `lanes` (in scratch r) from the masks of frames `from..` and from `active`.
    #[inline(always)]
    pub(in crate::exec) fn retire_lanes(&self, warp: &mut Warp, from: usize, lanes: &[u32]) {
        let w = self.w;
        for d in from..warp.frames.len() {
            for k in 0..3 {
                let start = (d * 4 + k) * w;
                for (m, &l) in warp.masks[start..start + w].iter_mut().zip(lanes) {
                    *m &= !l;
                }
            }
        }
        for (a, &l) in warp.active.iter_mut().zip(lanes) {
            *a &= !l;
        }
    }

    /// `break`, `continue` and `ret` (conditional when `cond` is given): the
    /// lanes `active & cond` leave `active`, are cleared from every frame
    /// between here and the target, and join the target's collecting mask
    /// (loop/switch break mask, loop continue mask) or, for `ret`, die.
    #[inline(always)]
    pub(in crate::exec) fn leave<O: Observer>(
        &self,
        sc: &mut Scratch,
        obs: &mut O,
        warp: &mut Warp,
        cond: &Option<(Src, bool)>,
        kind: Leave,
    ) {
        let w = self.w;
        // a condition the same for every active lane: one lane decides
        if let Some((src, nz)) = cond {
            match self.uniform_condition(sc, warp, src, *nz) {
                Some(false) => return,
                Some(true) => return self.leave(sc, obs, warp, &None, kind),
                None => {}
            }
            let before = if O::COUNTS_FLOW {
                warp.active_count()
            } else {
                0
            };
            if self.leave_innermost(warp, src, *nz, kind).is_some() {
                if O::COUNTS_FLOW {
                    let left = before - warp.active_count();
                    obs.divergence(warp.pc - 1, left > 0 && left < before);
                }
                return;
            }
        }
        let mut lanes = std::mem::take(&mut sc.lanes);
        self.leaving(sc, warp, cond, &mut lanes[..w]);
        if cond.is_some() && O::COUNTS_FLOW {
            let left = lanes[..w].iter().filter(|&&l| l != 0).count() as u64;
            obs.divergence(warp.pc - 1, left > 0 && left < warp.active_count());
        }
        if any_all(&lanes[..w]).0 {
            let target = match kind {
                Leave::Ret => warp
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Call { .. })),
                Leave::Break => warp
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Loop { .. } | Frame::Switch { .. })),
                Leave::Continue => warp
                    .frames
                    .iter()
                    .rposition(|f| matches!(f, Frame::Loop { .. })),
            };
            match (kind, target) {
                // `ret` in a subroutine: the lanes wait in the call frame.
                (Leave::Ret, Some(t)) => {
                    self.retire_lanes(warp, t + 1, &lanes[..w]);
                    let m = self.mask(warp, t, 0);
                    m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m |= l);
                }
                // `ret` in the main program: the lanes end.
                (Leave::Ret, None) => {
                    self.retire_lanes(warp, 0, &lanes[..w]);
                    for (a, &l) in warp.alive.iter_mut().zip(&lanes) {
                        *a &= !l;
                    }
                }
                (_, Some(t)) => {
                    self.retire_lanes(warp, t + 1, &lanes[..w]);
                    let k = if kind == Leave::Break { 0 } else { 1 };
                    let m = self.mask(warp, t, k);
                    m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m |= l);
                }
                // Validation guarantees a target; should it ever be missing,
                // stop the warp rather than loop forever.
                (_, None) => warp.done = true,
            }
            self.settle(warp);
        }
        sc.lanes = lanes;
    }

    /// [`Cx::leave`] in one pass over the active span, for its
    /// most common form: a `breakc` or `continuec` directly in its loop (or
    /// a `breakc` directly in its switch), on an unmodified temp. The lanes
    /// whose condition holds leave `active` and join the frame's break or
    /// continue mask, as the general path does (no frame lies between, so
    /// no other mask holds them). Returns whether some lane left; `None`,
    /// having done nothing, when the form is another.
    #[inline(always)]
    pub(in crate::exec) fn leave_innermost(
        &self,
        warp: &mut Warp,
        src: &Src,
        nz: bool,
        kind: Leave,
    ) -> Option<bool> {
        let w = self.w;
        let k = match (kind, warp.frames.last()) {
            (Leave::Break, Some(Frame::Loop { .. } | Frame::Switch { .. })) => 0,
            (Leave::Continue, Some(Frame::Loop { .. })) => 1,
            _ => return None,
        };
        let (SrcKind::Temp(r), SrcMod::None) = (src.kind, src.modifier) else {
            return None;
        };
        let t = warp.frames.len() - 1;
        let row = (r as usize * 4 + src.swz[0] as usize) * w;
        let span = warp.span.clone();
        let Warp {
            regs,
            active,
            masks,
            ..
        } = &mut *warp;
        let (Some(c), Some(m)) = (
            regs.get(row + span.start..row + span.end),
            masks.get_mut((t * 4 + k) * w + span.start..(t * 4 + k) * w + span.end),
        ) else {
            return None;
        };
        let (mut left, mut some, mut all) = (0u32, 0u32, !0u32);
        for ((a, m), &c) in active[span.clone()].iter_mut().zip(m).zip(c) {
            // one load and one store of each word: reading `*a` back after
            // storing it stalls on store forwarding of wide vectors
            let was = *a;
            let leaving = bool_mask((c != 0) == nz) & was;
            let now = was & !leaving;
            *a = now;
            *m |= leaving;
            left |= leaving;
            some |= now;
            all &= now;
        }
        if left != 0 {
            let all = all != 0 && span == (0..w);
            if !warp.note_any_all(some != 0, all) {
                self.revive(warp);
            }
        }
        Some(left != 0)
    }

    /// `if_nz c` / `break` (or `continue`) / `endif` ([`fused_leaves`](crate::analysis::fusion::fused_leaves)) as
    /// one `breakc_nz c` (`continuec_nz c`) directly in its loop
    /// ([`Cx::leave_innermost`]): the lanes it leaves with, the
    /// lanes it goes on with, and where, are those of the three
    /// instructions. Called with the `if` counted; the `break` (when some
    /// lane takes it) and the `endif` are counted as the loop would have
    /// counted them, in the statistics, the profile (the `break` issues
    /// with the lanes that take it, the `endif` with none: no lane comes
    /// through the branch to it) and the watchdog, which must have room for them
    /// (else the loop runs the three, so that its checks fall where they
    /// would). Returns false, having done nothing, when the form is
    /// another. (Inlined into the interpreter loop, so that its lane loop
    /// is compiled for the loop's instruction set.)
    #[inline(always)]
    pub(in crate::exec) fn leave_fused<O: Observer>(
        &self,
        (budget, stats): (&mut Budget, &mut ExecStats),
        obs: &mut O,
        warp: &mut Warp,
        (cond, nz): (&Src, bool),
        kind: Leave,
        endif_pc: u32,
    ) -> bool {
        if budget.until_check <= 3 {
            return false;
        }
        let before = if O::COUNTS_FLOW {
            warp.active_count()
        } else {
            0
        };
        let at = warp.pc;
        // past the `endif`, unless every lane leaves (then `revive` sends
        // the warp to the loop's end, as the `endif` would have)
        warp.pc = endif_pc as usize + 1;
        let Some(left) = self.leave_innermost(warp, cond, nz, kind) else {
            warp.pc = at;
            return false;
        };
        let n = 1 + u64::from(left);
        stats.warp_instructions += n;
        budget.until_check -= n as u32;
        if O::COUNTS_FLOW {
            // the `if` diverged where some but not all lanes left
            let took = before - warp.active_count();
            obs.divergence(at - 1, took > 0 && took < before);
            obs.fused_leave(warp, at, endif_pc, left, n, took);
        }
        true
    }

    /// Whether the current instruction's condition `src` (true when
    /// nonzero, for `nz`) holds, when the analysis knows it is the same for
    /// every active lane: read from the first active lane only. `None` when
    /// it is not known uniform or no lane is active.
    pub(in crate::exec) fn uniform_condition(
        &self,
        sc: &mut Scratch,
        warp: &Warp,
        src: &Src,
        nz: bool,
    ) -> Option<bool> {
        let l0 = warp.span.start;
        if !self.facts_here(warp).uniform_cond || warp.span.is_empty() {
            return None;
        }
        let mut buf = std::mem::take(&mut sc.s[0]);
        let c = self.operand(warp, src, 0, &mut buf);
        let taken = (c[l0] != 0) == nz;
        debug_assert!(
            warp.span
                .clone()
                .all(|l| warp.active[l] == 0 || (c[l] != 0) == (c[l0] != 0)),
            "a uniform condition differs between lanes"
        );
        sc.s[0] = buf;
        Some(taken)
    }

    /// `endloop`: the lanes still in the loop go back to `start_pc` + 1;
    /// with `continued`, those that continued rejoin them first (a loop
    /// without a `continue` has none: its mask stays all zeros,
    /// `FastPaths::LOOP_WITHOUT_CONTINUE`). When none is left, the lanes
    /// that broke out go on past it.
    #[inline(always)]
    pub(in crate::exec) fn end_loop(&self, warp: &mut Warp, start_pc: u32, continued: bool) {
        let w = self.w;
        let d = warp.frames.len() - 1;
        let (brk, cont) = ((d * 4) * w, (d * 4 + 1) * w);
        if continued {
            let cm = &mut warp.masks[cont..cont + w];
            for (a, c) in warp.active.iter_mut().zip(cm) {
                *a |= std::mem::take(c);
            }
        }
        if warp.note_active() {
            warp.pc = start_pc as usize + 1;
        } else {
            warp.active.copy_from_slice(&warp.masks[brk..brk + w]);
            warp.frames.pop();
            self.settle(warp);
        }
    }
}
