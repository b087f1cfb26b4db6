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
use crate::exec::context::Cx;
use crate::exec::executor::GroupExecutor;
use crate::exec::fast::plan::PlanOp;
use crate::exec::lines::typed_bytes;
use crate::exec::observe::Observer;
use crate::exec::operands::step;
use crate::exec::ops::memory::typed_access;
use crate::exec::warp::{Exit, Frame, Warp, MAX_CALL_DEPTH};
use crate::exec::watchdog::{StopReason, Watchdog};
use crate::ir::lowered::{OpKind, Res};
use crate::isa::lanes::bool_mask;
use crate::Isa;
use sim_mem::Bindings;

impl GroupExecutor<'_> {
    /// Run `warp` until it is done, parks (barrier), yields or is stopped:
    /// [`GroupExecutor::run_warp_body`] in the copy compiled for the widest
    /// instruction set this CPU runs (`crate::isa::cpu::isa`), so that the lane loops
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
        match self.kernels.isa {
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
        // a barrier completes here, in a plain run of a warp that is its
        // whole batch (the checker and interleaved runs take each round)
        let lone = w == prog.threads_per_group() as usize * self.pack as usize
            && self
                .fast_paths
                .contains(crate::exec::fast::FastPaths::LONE_BARRIER)
            && !O::CHECKS;
        // the handlers' context, and the state they may change
        let cx = Cx {
            prog,
            w,
            pack: self.pack,
            first: self.first,
            plan: &self.plan,
            fast_paths: self.fast_paths,
            kernels: self.kernels,
            compile_after: self.compile_after,
            b,
        };
        let GroupExecutor {
            sc,
            mem,
            budget,
            stats,
            messages,
            compile_time,
            ..
        } = self;
        loop {
            if warp.done {
                return Exit::Done;
            }
            let Some(op) = prog.code.get(warp.pc) else {
                warp.done = true;
                return Exit::Done;
            };
            budget.until_check -= 1;
            if budget.until_check == 0 {
                if budget.interleave {
                    return Exit::Yield;
                }
                budget.until_check = budget.interval;
                if let Some(reason) = watchdog.check(u64::from(budget.interval)) {
                    return Exit::Stopped(reason);
                }
                if obs.stalled() {
                    return Exit::Stopped(StopReason::NoProgress);
                }
            }
            step(stats, obs, warp);
            match op.kind {
                OpKind::Alu {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => match &cx.plan[warp.pc - 1].op {
                    PlanOp::RowAlu(f) => {
                        cx.run_fast(warp, f);
                        cx.run_fast_after((&mut *budget, &mut *stats), obs, warp);
                    }
                    PlanOp::Compiled(f, region) => {
                        let counters = (&mut *budget, &mut *stats, &mut *compile_time);
                        if !cx.run_region(counters, obs, warp, region, mem.tgsm.words()) {
                            cx.run_fast(warp, f);
                        }
                        cx.run_fast_after((&mut *budget, &mut *stats), obs, warp);
                    }
                    _ => cx.alu(sc, warp, op, dst, src, sat),
                },
                OpKind::Alu2 {
                    op,
                    ref dst,
                    ref src,
                } => cx.alu2(sc, warp, op, dst, src),
                OpKind::Double {
                    op,
                    ref dst,
                    ref src,
                    sat,
                } => cx.double(sc, warp, op, dst, src, sat),
                OpKind::If {
                    ref cond,
                    nz,
                    else_pc,
                    endif_pc,
                } => {
                    if let PlanOp::FusedLeave(kind) = cx.plan[warp.pc - 1].op {
                        if cx.leave_fused(
                            (&mut *budget, &mut *stats),
                            obs,
                            warp,
                            (cond, nz),
                            kind,
                            endif_pc,
                        ) {
                            continue;
                        }
                    }
                    let base = cx.frame_masks(warp);
                    // every active lane takes the same branch: one decides
                    if let Some(taken) = cx.uniform_condition(sc, warp, cond, nz) {
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
                            cx.revive(warp);
                        }
                        continue;
                    }
                    let mut t = std::mem::take(&mut sc.lanes);
                    let full_before = warp.full;
                    cx.condition(sc, warp, cond, nz, &mut t[..w]);
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
                    sc.lanes = t;
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
                        cx.revive(warp);
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
                    cx.settle(warp);
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
                        cx.revive(warp);
                    }
                }
                OpKind::Loop { end_pc } => {
                    if let PlanOp::CasLoop(cl) = &cx.plan[warp.pc - 1].op {
                        let cl = CasLoop::clone(cl);
                        match cx.cas_loop(
                            sc,
                            &mem.tgsm,
                            (&mut *budget, &mut *stats),
                            obs,
                            warp,
                            &cl,
                            watchdog,
                        ) {
                            Ok(true) => continue,
                            Ok(false) => {}
                            Err(reason) => return Exit::Stopped(reason),
                        }
                    }
                    let base = cx.frame_masks(warp);
                    warp.masks[base..base + 2 * w].fill(0);
                    warp.frames.push(Frame::Loop {
                        start_pc: warp.pc as u32 - 1,
                        end_pc,
                    });
                }
                OpKind::EndLoop { start_pc } => {
                    let continued =
                        !matches!(cx.plan[warp.pc - 1].op, PlanOp::EndLoopWithoutContinue);
                    cx.end_loop(warp, start_pc, continued);
                }
                OpKind::Break { ref cond } => cx.leave(sc, obs, warp, cond, Leave::Break),
                OpKind::Continue { ref cond } => cx.leave(sc, obs, warp, cond, Leave::Continue),
                OpKind::Ret { ref cond } => cx.leave(sc, obs, warp, cond, Leave::Ret),
                OpKind::Call { label, ref cond } => {
                    let depth = warp
                        .frames
                        .iter()
                        .filter(|f| matches!(f, Frame::Call { .. }))
                        .count();
                    if depth >= MAX_CALL_DEPTH {
                        continue;
                    }
                    let mut lanes = std::mem::take(&mut sc.lanes);
                    cx.leaving(sc, warp, cond, &mut lanes[..w]);
                    let base = cx.frame_masks(warp);
                    let (m0, m1) = warp.masks[base..base + 2 * w].split_at_mut(w);
                    let it = m0.iter_mut().zip(m1).zip(warp.active.iter_mut());
                    for (((m0, m1), a), &l) in it.zip(&lanes[..w]) {
                        *m0 = 0;
                        *m1 = *a & !l;
                        *a = l;
                    }
                    sc.lanes = lanes;
                    warp.frames.push(Frame::Call {
                        return_pc: warp.pc as u32,
                    });
                    warp.pc = label as usize;
                    cx.settle(warp);
                }
                OpKind::Switch { ref sel, id } => {
                    let mut s = std::mem::take(&mut sc.s[0]);
                    cx.fetch(warp, sel, 1, &mut s);
                    let base = cx.frame_masks(warp);
                    let values = &prog.switches[id as usize].values;
                    for l in 0..w {
                        let a = warp.active[l];
                        warp.masks[base + l] = 0; // break
                        warp.masks[base + w + l] = a; // pending
                        warp.masks[base + 2 * w + l] = a & bool_mask(!values.contains(&s[l])); // default
                        warp.masks[base + 3 * w + l] = s[l]; // selector
                        warp.active[l] = 0;
                    }
                    sc.s[0] = s;
                    warp.frames.push(Frame::Switch { id });
                    cx.settle(warp);
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
                    cx.settle(warp);
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
                    cx.settle(warp);
                }
                OpKind::EndSwitch => {
                    let base = (warp.frames.len() - 1) * 4 * w;
                    for l in 0..w {
                        warp.active[l] |= warp.masks[base + l];
                    }
                    warp.frames.pop();
                    cx.settle(warp);
                }
                OpKind::Sync { threads, uglobal } => {
                    obs.sync(warp.pc as u32 - 1, warp);
                    if uglobal {
                        sim_mem::sync::fence(sim_mem::sync::Ordering::SeqCst);
                    }
                    if threads {
                        if lone && !budget.interleave {
                            // (the round `run_rounds` would count)
                            stats.barriers += 1;
                            continue;
                        }
                        return Exit::Barrier;
                    }
                }
                OpKind::Nop => {}
                // Dispatch refuses a program with unbound interfaces, so an
                // unbound `fcall` is never reached; if it were, it does nothing.
                OpKind::InterfaceCall { .. } => {}
                OpKind::DebugBreak => {
                    stats.debug_breaks += warp.active.iter().filter(|&&a| a != 0).count() as u64;
                    let pc = warp.pc as u32 - 1;
                    messages.thread_event(
                        &cx,
                        warp,
                        &warp.active,
                        crate::messages::MessageKind::DebugBreak,
                        pc,
                    );
                    if messages.break_at_debug_break && warp.active.iter().any(|&a| a != 0) {
                        // stopped at the debug_break itself: the report names
                        // it; the other workers stop too
                        warp.pc -= 1;
                        return Exit::Stopped(watchdog.stop_for(StopReason::DebugBreak));
                    }
                }
                OpKind::Message { site } => {
                    let pc = warp.pc as u32 - 1;
                    messages.message(&cx, sc, warp, site, pc);
                }
                OpKind::Abort => {
                    // The active lanes end wherever they are, even inside a subroutine.
                    let lanes = warp.active.clone();
                    let pc = warp.pc as u32 - 1;
                    messages.thread_event(
                        &cx,
                        warp,
                        &lanes,
                        crate::messages::MessageKind::Abort,
                        pc,
                    );
                    stats.aborted_threads += lanes.iter().filter(|&&a| a != 0).count() as u64;
                    cx.retire_lanes(warp, 0, &lanes);
                    for (a, &l) in warp.alive.iter_mut().zip(&lanes) {
                        *a &= !l;
                    }
                    for d in 0..warp.frames.len() {
                        if matches!(warp.frames[d], Frame::Call { .. }) {
                            // lanes waiting to return or skipping a callc end too
                            for k in 0..2 {
                                let m = cx.mask(warp, d, k);
                                m.iter_mut().zip(&lanes).for_each(|(m, &l)| *m &= !l);
                            }
                        }
                    }
                    cx.settle(warp);
                }
                OpKind::LdRaw {
                    ref dst,
                    ref addr,
                    res,
                    swz,
                } => {
                    let counters = (&mut *budget, &mut *stats, &mut *compile_time);
                    if !cx.run_load_region(counters, obs, warp, &mem.tgsm) {
                        cx.load(sc, &mem.tgsm, obs, warp, dst, addr, None, res, swz);
                    }
                }
                OpKind::LdStructured {
                    ref dst,
                    ref index,
                    ref offset,
                    res,
                    swz,
                } => {
                    let counters = (&mut *budget, &mut *stats, &mut *compile_time);
                    if !cx.run_load_region(counters, obs, warp, &mem.tgsm) {
                        cx.load(sc, &mem.tgsm, obs, warp, dst, index, Some(offset), res, swz);
                    }
                }
                OpKind::LdTyped {
                    ref dst,
                    ref addr,
                    res,
                    swz,
                } => {
                    let mut sa = std::mem::take(&mut sc.s[0]);
                    let mut r = std::mem::take(&mut sc.r);
                    cx.fetch(warp, addr, 1, &mut sa);
                    let view = cx.view(res);
                    if O::ON {
                        obs.traffic(warp, res, MemOp::Read, typed_bytes(view));
                    }
                    if O::ON && obs.wants_accesses() {
                        obs.memory(&typed_access(
                            &mem.tgsm,
                            warp,
                            res,
                            view,
                            MemOp::Read,
                            &sa,
                            None,
                        ));
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
                    cx.write(warp, dst, &r);
                    sc.s[0] = sa;
                    sc.r = r;
                }
                OpKind::StoreTyped {
                    res,
                    ref addr,
                    ref value,
                } => {
                    let mut sa = std::mem::take(&mut sc.s[0]);
                    let mut sv = std::mem::take(&mut sc.s[1]);
                    cx.fetch(warp, addr, 1, &mut sa);
                    cx.fetch(warp, value, 0b1111, &mut sv);
                    let view = cx.view(res);
                    if O::ON {
                        obs.traffic(warp, res, MemOp::Write, typed_bytes(view));
                    }
                    if O::ON && obs.wants_accesses() {
                        let m =
                            typed_access(&mem.tgsm, warp, res, view, MemOp::Write, &sa, Some(&sv));
                        obs.memory(&m);
                    }
                    if let Some(view) = view {
                        for l in 0..w {
                            if warp.active[l] != 0 {
                                let v = [sv[l], sv[w + l], sv[2 * w + l], sv[3 * w + l]];
                                view.typed_store(sa[l], v);
                            }
                        }
                    }
                    sc.s[0] = sa;
                    sc.s[1] = sv;
                }
                OpKind::StoreRaw {
                    res,
                    count,
                    ref addr,
                    ref value,
                } => cx.store(sc, &mut mem.tgsm, obs, warp, res, count, addr, None, value),
                OpKind::StoreStructured {
                    res,
                    count,
                    ref index,
                    ref offset,
                    ref value,
                } => cx.store(
                    sc,
                    &mut mem.tgsm,
                    obs,
                    warp,
                    res,
                    count,
                    index,
                    Some(offset),
                    value,
                ),
                OpKind::Atomic {
                    kind,
                    ref ret,
                    res,
                    structured,
                    ref addr,
                    ref a,
                    b: ref bsrc,
                } => cx.atomic(
                    sc,
                    mem,
                    obs,
                    warp,
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
                    let mut r = std::mem::take(&mut sc.r);
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
                    cx.write(warp, dst, &r);
                    sc.r = r;
                }
                OpKind::Texture { index } => {
                    cx.texture(sc, &mem.tgsm, obs, warp, &prog.tex_ops[index as usize]);
                }
                OpKind::Bufinfo { ref dst, res } => {
                    let v = match res {
                        Res::Srv(s) => b.srv(s).map_or(0, |v| v.bufinfo()),
                        Res::Uav(s) => b.uav(s).map_or(0, |v| v.bufinfo()),
                        _ => 0,
                    };
                    let mut r = std::mem::take(&mut sc.r);
                    r.fill(v);
                    cx.write(warp, dst, &r);
                    sc.r = r;
                }
            }
        }
    }
}
