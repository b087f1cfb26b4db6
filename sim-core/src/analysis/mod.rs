//! What the executor's plan knows of a program, found by analyses that read
//! the lowered code ([`crate::ir::lowered`]) and never the executor:
//! uniform and affine values ([`affine`]), compare-exchange retry loops
//! ([`cas_loop`]), flushed sources ([`flushed`]), fusable exits and the
//! vThreadID components read ([`fusion`]), the liveness of temps
//! ([`liveness`]) and which NaN payloads are observed ([`payload`]). [`ProgramInfo::new`] runs them all once.

pub(crate) mod affine;
pub(crate) mod cas_loop;
pub(crate) mod flushed;
pub(crate) mod fusion;
pub(crate) mod liveness;
pub(crate) mod payload;
pub(crate) mod spin;

use crate::ir::lowered::{AtomicKind, Body, OpKind, Res};
use std::any::Any;
use std::sync::Arc;

/// What the analyses know of a program, computed once, eagerly, when it is
/// loaded (and again when class instances are bound): the executor's plan
/// reads it and never recomputes it.
#[derive(Debug, Clone, Default)]
pub(crate) struct ProgramInfo {
    /// per pc, what `crate::analysis::affine` knows
    pub pcs: Vec<affine::PcFacts>,
    /// the same for warps of packed groups (`GroupExecutor::packed`)
    pub packed_pcs: Vec<affine::PcFacts>,
    /// [`write_only_atomic_uavs`]
    pub write_only_atomic_uavs: Vec<(u32, AtomicKind)>,
    /// per pc, whether every source word of the ALU instruction is flushed
    /// (`flushed::flushed_sources`)
    pub flushed: Vec<bool>,
    /// `liveness::analyze`
    pub liveness: liveness::Liveness,
    /// per pc, whether the ALU instruction's NaN results may keep the
    /// CPU's payload (`payload::unobserved_results`)
    pub unobserved: Vec<bool>,
    /// per pc, at an `endloop`, whether its loop has a `continue` of its
    /// own (`liveness::loop_continues`)
    pub loop_continues: Vec<bool>,
    /// per pc, an `if` / `break` (`continue`) / `endif` the executor may
    /// run as one `breakc` (`fusion::fused_leaves`)
    pub fused: Vec<Option<fusion::Leave>>,
    /// the components of vThreadID an operand reads
    /// (`fusion::thread_id_comps`)
    pub thread_id_comps: u8,
    /// per pc, at a `loop` of a compare-exchange retry loop, its form
    /// (`cas_loop::analyze`)
    pub cas_loops: Vec<Option<cas_loop::CasLoop>>,
    /// the executor's plans of this code, by shape (`crate::exec`'s
    /// `Planned`), made on first use
    pub plans: ShapeCache,
}

/// An executor shape: (warp width, groups packed, thread group).
pub(crate) type Shape = (usize, u32, [u32; 3]);

/// What a later stage makes once from a program's code per executor shape
/// and shares among its executors (the executor's plans), most recent
/// [`ShapeCache::KEPT`] shapes kept, the oldest dropped. Kept in
/// [`ProgramInfo`], which is made again whenever the code changes
/// (`Program::bind_class_instances`), as the executor pool's reuse
/// assumes; stored without its type, so that the analyses need not know
/// the executor's. A clone starts empty.
#[derive(Default)]
pub(crate) struct ShapeCache(std::sync::Mutex<Vec<(Shape, Arc<dyn Any + Send + Sync>)>>);

impl ShapeCache {
    /// Shapes kept.
    const KEPT: usize = 8;

    /// What was made for `shape`, made by `make` if not there. Executors
    /// built at once on several workers wait for the one making it.
    pub(crate) fn get<T: Any + Send + Sync>(
        &self,
        shape: Shape,
        make: impl FnOnce() -> T,
    ) -> Arc<T> {
        // (an entry is pushed whole: a panic elsewhere leaves the list sound)
        let mut made = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let found = made
            .iter()
            .filter(|(s, _)| *s == shape)
            .find_map(|(_, m)| m.clone().downcast::<T>().ok());
        if let Some(m) = found {
            return m;
        }
        let m = Arc::new(make());
        if made.len() >= Self::KEPT {
            made.remove(0);
        }
        made.push((shape, m.clone()));
        m
    }
}

impl Clone for ShapeCache {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for ShapeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |m| m.len());
        write!(f, "ShapeCache({n} shapes)")
    }
}

impl ProgramInfo {
    /// Every analysis of `prog`, run once.
    pub(crate) fn new(prog: Body<'_>) -> Self {
        let loop_continues = liveness::loop_continues(prog);
        ProgramInfo {
            pcs: affine::analyze(prog, false),
            packed_pcs: affine::analyze(prog, true),
            write_only_atomic_uavs: write_only_atomic_uavs(prog),
            flushed: flushed::flushed_sources(prog),
            liveness: liveness::analyze(prog, &loop_continues),
            unobserved: payload::unobserved_results(prog),
            loop_continues,
            fused: fusion::fused_leaves(prog),
            thread_id_comps: fusion::thread_id_comps(prog),
            cas_loops: cas_loop::analyze(prog),
            plans: Default::default(),
        }
    }
}

/// The UAV slots (u#) that the program only ever changes by atomics
/// without a returned value, all of one kind that commutes with itself
/// (`atomic_iadd`, `_and`, `_or`, `_xor`, `_imax`, `_imin`, `_umax`,
/// `_umin`), with that kind. No instruction reads such a UAV (no load,
/// no `imm_atomic_*`, no texture access, no counter), so no thread can
/// observe its words during a dispatch, and the words after it are the
/// same whatever the order of the operations: the executor may gather
/// them per worker and apply them at the end
/// (the executor's `privatize_atomics`). `bufinfo` only
/// reads the size and does not count as an access.
pub(crate) fn write_only_atomic_uavs(prog: Body<'_>) -> Vec<(u32, AtomicKind)> {
    use std::collections::BTreeMap;
    // slot -> Some(kind) while a candidate, None once ruled out
    let mut seen: BTreeMap<u32, Option<AtomicKind>> = BTreeMap::new();
    for op in prog.code {
        let touched = match op.kind {
            OpKind::Atomic {
                kind,
                ret: None,
                res: Res::Uav(u),
                ..
            } if kind.commutes() => {
                let e = seen.entry(u).or_insert(Some(kind));
                if *e != Some(kind) {
                    *e = None;
                }
                continue;
            }
            OpKind::LdRaw { res, .. }
            | OpKind::LdStructured { res, .. }
            | OpKind::LdTyped { res, .. }
            | OpKind::StoreTyped { res, .. }
            | OpKind::StoreRaw { res, .. }
            | OpKind::StoreStructured { res, .. }
            | OpKind::Atomic { res, .. } => Some(res),
            OpKind::Texture { index } => prog.tex_ops.get(index as usize).map(|t| t.res),
            OpKind::Counter { uav, .. } => Some(Res::Uav(uav)),
            OpKind::Bufinfo { .. }
            | OpKind::Alu { .. }
            | OpKind::Double { .. }
            | OpKind::Alu2 { .. }
            | OpKind::If { .. }
            | OpKind::Else { .. }
            | OpKind::EndIf
            | OpKind::Loop { .. }
            | OpKind::EndLoop { .. }
            | OpKind::Break { .. }
            | OpKind::Continue { .. }
            | OpKind::Switch { .. }
            | OpKind::Case { .. }
            | OpKind::Default
            | OpKind::EndSwitch
            | OpKind::InterfaceCall { .. }
            | OpKind::Call { .. }
            | OpKind::Ret { .. }
            | OpKind::Abort
            | OpKind::DebugBreak
            | OpKind::Message { .. }
            | OpKind::Sync { .. }
            | OpKind::Nop => None,
        };
        if let Some(Res::Uav(u) | Res::UavTexture(u)) = touched {
            seen.insert(u, None);
        }
    }
    seen.into_iter()
        .filter_map(|(u, k)| Some((u, k?)))
        .collect()
}
