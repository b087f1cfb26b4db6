//! The interpreter loop: a warp's instructions from its pc until it parks,
//! finishes or runs out of budget, one `match` on each instruction's kind
//! calling its handler (`ops/`) or, where the planner chose one, its fast
//! form (`fast/`).

// Lane loops index several structure-of-arrays slices with one lane number;
// iterator zips of four or five slices would obscure them.
#![allow(clippy::needless_range_loop)]

use crate::analysis::cas_loop::CasLoop;
use crate::analysis::fusion::Leave;
use crate::check::MemOp;
use crate::exec::executor::GroupExecutor;
use crate::exec::fast::plan::PlanOp;
use crate::exec::observe::Observer;
use crate::exec::warp::{Exit, Frame, Warp, MAX_CALL_DEPTH};
use crate::exec::watchdog::{StopReason, Watchdog};
use crate::ir::lowered::{OpKind, Res};
use crate::isa::lanes::bool_mask;
use crate::Isa;
use sim_mem::Bindings;

impl GroupExecutor<'_> {
    /// Run `warp` until it is done, parks (barrier), yields or is stopped:
    /// [`GroupExecutor::run_warp_body`] in the copy compiled for the widest
    /// instruction set this CPU runs (`lanes::isa`), so that the lane loops
    /// inlined into it (masks, blends, copies, conditions) use its vectors.
    /// The copies are the same code; `tests/it/cli.rs` compares their results.
    #[allow(unsafe_code)]
    pub(super) fn run_warp<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Exit {
        #[cfg(target_arch = "x86_64")]
        match self.isa {
            // SAFETY: `isa()` is never wider than what the CPU reports
            // (runtime detection; `SM5SIM_ISA` can only lower it).
            Isa::Avx512 => return unsafe { self.run_warp_avx512(obs, warp, b, watchdog) },
            // SAFETY: as above.
            Isa::Avx2 => return unsafe { self.run_warp_avx2(obs, warp, b, watchdog) },
            Isa::Baseline => {}
        }
        self.run_warp_body(obs, warp, b, watchdog)
    }

    /// [`GroupExecutor::run_warp_body`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    unsafe fn run_warp_avx2<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        w: &Watchdog,
    ) -> Exit {
        self.run_warp_body(obs, warp, b, w)
    }

    /// [`GroupExecutor::run_warp_body`] compiled for AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2")]
    #[allow(unsafe_code)]
    unsafe fn run_warp_avx512<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        w: &Watchdog,
    ) -> Exit {
        self.run_warp_body(obs, warp, b, w)
    }

    /// The interpreter loop: one instruction of `warp` after another.
    #[inline(always)]
    pub(super) fn run_warp_body<O: Observer>(
        &mut self,
        obs: &mut O,
        warp: &mut Warp,
        b: &Bindings<'_>,
        watchdog: &Watchdog,
    ) -> Exit {
        let prog = self.prog;
        let w = self.w;
        loop {
            if warp.done {
                return Exit::Done;
            }
            let Some(op) = prog.code.get(warp.pc) else {
                warp.done = true;
                return Exit::Done;
            };
            self.until_check -= 1;
            if self.until_check == 0 {
                if self.interleave {
                    return Exit::Yield;
                }
                self.until_check = self.interval;
                if let Some(reason) = watchdog.check(u64::from(self.interval)) {
                    return Exit::Stopped(reason);
                }
                if obs.stalled() {
                    return Exit::Stopped(StopReason::NoProgress);
                }
            }
            Self::step(&mut self.stats, obs, warp);
            match op.kind {
                OpKind::Alu {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => match &self.plan[warp.pc - 1].op {
                    PlanOp::RowAlu(f) => {
                        self.run_fast(warp, b, f);
                        self.run_fast_after(obs, warp, b);
                    }
                    _ => self.alu(warp, b, op, dst, src, sat),
                },
                OpKind::Alu2 {
                    op,
                    ref dst,
                    ref src,
                } => self.alu2(warp, b, op, dst, src),
                OpKind::Double {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => self.double(warp, b, op, dst, src, sat),
                OpKind::If {
                    ref cond,
                    nz,
                    else_pc,
                    endif_pc,
                } => {
                    if let PlanOp::FusedLeave(kind) = self.plan[warp.pc - 1].op {
                        if self.leave_fused(obs, warp, (cond, nz), kind, endif_pc) {
                            continue;
                        }
                    }
                    let base = self.frame_masks(warp);
                    // every active lane takes the same branch: one decides
                    if let Some(taken) = self.uniform_condition(warp, b, cond, nz) {
                        let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                        m0.copy_from_slice(&warp.active);
                        if taken {
                            m1.fill(0);
                        } else {
                            m1.copy_from_slice(&warp.active);
                            warp.active.fill(0);
                        }
                        warp.frames.push(Frame::If {
                            else_pc,
                            endif_pc,
                            in_else: false,
                        });
                        if !taken {
                            // no lane left in this branch
                            warp.note_any_all(false, false);
                            self.revive(warp);
                        }
                        continue;
                    }
                    let mut t = std::mem::take(&mut self.sc.lanes);
                    let full_before = warp.full;
                    self.condition(warp, b, cond, nz, &mut t[..w]);
                    let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                    let lanes = m0.iter_mut().zip(m1).zip(warp.active.iter_mut());
                    // whether some and whether every lane stays active, in
                    // the same pass
                    let (mut or, mut and) = (0, !0);
                    for (((m0, m1), a), &t) in lanes.zip(&t[..w]) {
                        let av = *a;
                        *m0 = av;
                        *m1 = av & !t;
                        let now = av & t;
                        *a = now;
                        or |= now;
                        and &= now;
                    }
                    self.sc.lanes = t;
                    if O::COUNTS_FLOW {
                        // diverged: some lane took it and some active lane
                        // did not (with every lane active, not all took it)
                        let skipped = if full_before {
                            and == 0
                        } else {
                            warp.masks[base + w..base + 2 * w].iter().any(|&m| m != 0)
                        };
                        obs.divergence(warp.pc - 1, or != 0 && skipped);
                    }
                    warp.frames.push(Frame::If {
                        else_pc,
                        endif_pc,
                        in_else: false,
                    });
                    if !warp.note_any_all(or != 0, and != 0) {
                        self.revive(warp);
                    }
                }
                OpKind::Else { .. } => {
                    let d = warp.frames.len() - 1;
                    if let Some(Frame::If { in_else, .. }) = warp.frames.last_mut() {
                        *in_else = true;
                    }
                    let start = (d * 4 + 1) * w;
                    let (masks, active) = (&warp.masks, &mut warp.active);
                    active.copy_from_slice(&masks[start..start + w]);
                    self.settle(warp);
                }
                OpKind::EndIf => {
                    let d = warp.frames.len() - 1;
                    let start = d * 4 * w;
                    let (mut or, mut and) = (0, !0);
                    for (a, &m) in warp.active.iter_mut().zip(&warp.masks[start..start + w]) {
                        *a = m;
                        or |= m;
                        and &= m;
                    }
                    warp.frames.pop();
                    if !warp.note_any_all(or != 0, and != 0) {
                        self.revive(warp);
                    }
                }
                OpKind::Loop { end_pc } => {
                    if let PlanOp::CasLoop(cl) = &self.plan[warp.pc - 1].op {
                        let cl = CasLoop::clone(cl);
                        match self.cas_loop(obs, warp, b, &cl, watchdog) {
                            Ok(true) => continue,
                            Ok(false) => {}
                            Err(reason) => return Exit::Stopped(reason),
                        }
                    }
                    let base = self.frame_masks(warp);
                    warp.masks[base..base + 2 * w].fill(0);
                    warp.frames.push(Frame::Loop {
                        start_pc: warp.pc as u32 - 1,
                        end_pc,
                    });
                }
                OpKind::EndLoop { start_pc } => {
                    let continued =
                        !matches!(self.plan[warp.pc - 1].op, PlanOp::EndLoopWithoutContinue);
                    self.end_loop(warp, start_pc, continued);
                }
                OpKind::Break { ref cond } => self.leave(obs, warp, b, cond, Leave::Break),
                OpKind::Continue { ref cond } => self.leave(obs, warp, b, cond, Leave::Continue),
                OpKind::Ret { ref cond } => self.leave(obs, warp, b, cond, Leave::Ret),
                OpKind::Call { label, ref cond } => {
                    let depth = warp
                        .frames
                        .iter()
                        .filter(|f| matches!(f, Frame::Call { .. }))
                        .count();
                    if depth >= MAX_CALL_DEPTH {
                        continue;
                    }
                    let mut lanes = std::mem::take(&mut self.sc.lanes);
                    self.leaving(warp, b, cond, &mut lanes[..w]);
                    let base = self.frame_masks(warp);
                    let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                    let it = m0.iter_mut().zip(m1).zip(warp.active.iter_mut());
                    for (((m0, m1), a), &l) in it.zip(&lanes[..w]) {
                        *m0 = 0;
                        *m1 = *a & !l;
                        *a = l;
                    }
                    self.sc.lanes = lanes;
                    warp.frames.push(Frame::Call {
                        return_pc: warp.pc as u32,
                    });
                    warp.pc = label as usize;
                    self.settle(warp);
                }
                OpKind::Switch { ref sel, id } => {
                    let mut s = std::mem::take(&mut self.sc.s[0]);
                    self.fetch(warp, b, sel, 1, &mut s);
                    let base = self.frame_masks(warp);
                    let values = &prog.switches[id as usize].values;
                    for l in 0..w {
                        let a = warp.active[l];
                        warp.masks[base + l] = 0; // break
                        warp.masks[base + w + l] = a; // pending
                        warp.masks[base + 2 * w + l] = a & bool_mask(!values.contains(&s[l])); // default
                        warp.masks[base + 3 * w + l] = s[l]; // selector
                        warp.active[l] = 0;
                    }
                    self.sc.s[0] = s;
                    warp.frames.push(Frame::Switch { id });
                    self.settle(warp);
                }
                OpKind::Case { value } => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    let (_, rest) = warp.masks[base..base + 4 * w].split_at_mut(w);
                    let (pending, rest) = rest.split_at_mut(w);
                    let selector = &rest[w..];
                    let it = pending.iter_mut().zip(selector).zip(warp.active.iter_mut());
                    for ((p, &sel), a) in it {
                        let join = *p & bool_mask(sel == value);
                        *a |= join;
                        *p &= !join;
                    }
                    self.settle(warp);
                }
                OpKind::Default => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    let (_, rest) = warp.masks[base..base + 3 * w].split_at_mut(w);
                    let (pending, default) = rest.split_at_mut(w);
                    let it = pending
                        .iter_mut()
                        .zip(&*default)
                        .zip(warp.active.iter_mut());
                    for ((p, &d), a) in it {
                        let join = *p & d;
                        *a |= join;
                        *p &= !join;
                    }
                    self.settle(warp);
                }
                OpKind::EndSwitch => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    for l in 0..w {
                        warp.active[l] |= warp.masks[base + l];
                    }
                    warp.frames.pop();
                    self.settle(warp);
                }
                OpKind::Sync { threads, uglobal } => {
                    obs.sync(warp.pc as u32 - 1, warp);
                    if uglobal {
                        sim_mem::sync::fence(sim_mem::sync::Ordering::SeqCst);
                    }
                    if threads {
                        return Exit::Barrier;
                    }
                }
                OpKind::Nop => {}
                // Dispatch refuses a program with unbound interfaces, so an
                // unbound `fcall` is never reached; if it were, it does nothing.
                OpKind::InterfaceCall { .. } => {}
                OpKind::DebugBreak => {
                    self.stats.debug_breaks +=
                        warp.active.iter().filter(|&&a| a != 0).count() as u64;
                    let pc = warp.pc as u32 - 1;
                    self.thread_event(
                        warp,
                        &warp.active,
                        crate::messages::MessageKind::DebugBreak,
                        pc,
                    );
                    if self.break_at_debug_break && warp.active.iter().any(|&a| a != 0) {
                        // stopped at the debug_break itself: the report names
                        // it; the other workers stop too
                        warp.pc -= 1;
                        return Exit::Stopped(watchdog.stop_for(StopReason::DebugBreak));
                    }
                }
                OpKind::Message { site } => {
                    let pc = warp.pc as u32 - 1;
                    self.message(warp, b, site, pc);
                }
                OpKind::Abort => {
                    // The active lanes end wherever they are, even inside a subroutine.
                    let lanes = warp.active.clone();
                    let pc = warp.pc as u32 - 1;
                    self.thread_event(warp, &lanes, crate::messages::MessageKind::Abort, pc);
                    self.stats.aborted_threads += lanes.iter().filter(|&&a| a != 0).count() as u64;
                    self.retire_lanes(warp, 0, &lanes);
                    for (a, &l) in warp.alive.iter_mut().zip(&lanes) {
                        *a &= !l;
                    }
                    for d in 0..warp.frames.len() {
                        if matches!(warp.frames[d], Frame::Call { .. }) {
                            // lanes waiting to return or skipping a callc end too
                            for k in 0..2 {
                                let m = self.mask(warp, d, k);
                                m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m &= !l);
                            }
                        }
                    }
                    self.settle(warp);
                }
                OpKind::LdRaw {
                    ref dst,
                    ref addr,
                    res,
                    swz,
                } => self.load(obs, warp, b, dst, addr, None, res, swz),
                OpKind::LdStructured {
                    ref dst,
                    ref index,
                    ref offset,
                    res,
                    swz,
                } => self.load(obs, warp, b, dst, index, Some(offset), res, swz),
                OpKind::LdTyped {
                    ref dst,
                    ref addr,
                    res,
                    swz,
                } => {
                    let mut sa = std::mem::take(&mut self.sc.s[0]);
                    let mut r = std::mem::take(&mut self.sc.r);
                    self.fetch(warp, b, addr, 1, &mut sa);
                    let view = Self::view(b, res);
                    if O::ON {
                        obs.memory(&self.typed_access(warp, res, view, MemOp::Read, &sa, None));
                    }
                    for l in 0..w {
                        if warp.active[l] == 0 {
                            continue;
                        }
                        let v = view.map_or([0; 4], |v| v.typed_load(sa[l]));
                        for c in 0..4 {
                            r[c * w + l] = v[swz[c] as usize];
                        }
                    }
                    self.write(warp, dst, &r);
                    self.sc.s[0] = sa;
                    self.sc.r = r;
                }
                OpKind::StoreTyped {
                    res,
                    ref addr,
                    ref value,
                } => {
                    let mut sa = std::mem::take(&mut self.sc.s[0]);
                    let mut sv = std::mem::take(&mut self.sc.s[1]);
                    self.fetch(warp, b, addr, 1, &mut sa);
                    self.fetch(warp, b, value, 0b1111, &mut sv);
                    if O::ON {
                        let view = Self::view(b, res);
                        let m = self.typed_access(warp, res, view, MemOp::Write, &sa, Some(&sv));
                        obs.memory(&m);
                    }
                    if let Some(view) = Self::view(b, res) {
                        for l in 0..w {
                            if warp.active[l] != 0 {
                                let v = [sv[l], sv[w + l], sv[2 * w + l], sv[3 * w + l]];
                                view.typed_store(sa[l], v);
                            }
                        }
                    }
                    self.sc.s[0] = sa;
                    self.sc.s[1] = sv;
                }
                OpKind::StoreRaw {
                    res,
                    count,
                    ref addr,
                    ref value,
                } => self.store(obs, warp, b, res, count, addr, None, value),
                OpKind::StoreStructured {
                    res,
                    count,
                    ref index,
                    ref offset,
                    ref value,
                } => self.store(obs, warp, b, res, count, index, Some(offset), value),
                OpKind::Atomic {
                    kind,
                    ref ret,
                    res,
                    structured,
                    ref addr,
                    ref a,
                    b: ref bsrc,
                } => self.atomic(
                    obs,
                    warp,
                    b,
                    kind,
                    ret.as_ref(),
                    (res, structured),
                    addr,
                    a,
                    bsrc,
                ),
                OpKind::Counter {
                    ref dst,
                    uav,
                    alloc,
                } => {
                    let mut r = std::mem::take(&mut self.sc.r);
                    let counter = b.uav(uav).map(|v| v.buffer().counter());
                    obs.counter(warp.pc as u32 - 1, uav, alloc, warp);
                    for l in 0..w {
                        if warp.active[l] == 0 {
                            continue;
                        }
                        let v = match counter {
                            Some(c) if alloc => c.fetch_add(1, sim_mem::sync::Ordering::Relaxed),
                            Some(c) => c
                                .fetch_sub(1, sim_mem::sync::Ordering::Relaxed)
                                .wrapping_sub(1),
                            None => 0,
                        };
                        r[l..].iter_mut().step_by(w).take(4).for_each(|x| *x = v);
                    }
                    self.write(warp, dst, &r);
                    self.sc.r = r;
                }
                OpKind::Texture { index } => {
                    self.texture(obs, warp, b, &prog.tex_ops[index as usize]);
                }
                OpKind::Bufinfo { ref dst, res } => {
                    let v = match res {
                        Res::Srv(s) => b.srv(s).map_or(0, |v| v.bufinfo()),
                        Res::Uav(s) => b.uav(s).map_or(0, |v| v.bufinfo()),
                        _ => 0,
                    };
                    let mut r = std::mem::take(&mut self.sc.r);
                    r.fill(v);
                    self.write(warp, dst, &r);
                    self.sc.r = r;
                }
            }
        }
    }

    /// `endloop`: the lanes still in the loop go back to `start_pc` + 1;
    /// with `continued`, those that continued rejoin them first (a loop
    /// without a `continue` has none: its mask stays all zeros,
    /// `FastPaths::LOOP_WITHOUT_CONTINUE`). When none is left, the lanes
    /// that broke out go on past it.
    #[inline(always)]
    pub(super) fn end_loop(&mut self, warp: &mut Warp, start_pc: u32, continued: bool) {
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
