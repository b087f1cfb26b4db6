//! The compiled tier (`FastPaths::COMPILED`, cargo feature `jit`): a run of
//! consecutive row ALU instructions (`FastPaths::ROW_ALU`) translated to
//! machine code that keeps each row's lanes of a step in a vector register
//! from one instruction to the next, where the row kernels load, flush,
//! blend and store a row per instruction. A [`Region`] is planned once per
//! program and shape (with the plan it belongs to, so every executor and
//! dispatch of that shape shares it), interpreted until it has run
//! [`COMPILE_AFTER`] lane-instructions (or what the dispatch chose:
//! `GroupExecutor::set_compile_after`), then each of its two forms compiled
//! once, when first needed (`zmm.rs`, sixteen lanes a step, where the row
//! kernels are AVX-512; `codegen.rs`, Cranelift's four, elsewhere) and run
//! compiled from then on. A region that the code generator refuses stays
//! interpreted. The register entry is in `README.md`.
//!
//! What a region computes is what its instructions' row kernels compute, in
//! order, on the same lanes (`Cx::run_fast`): every lane of a full warp, or
//! the active span widened to [`CHUNK`]s, blended under the active mask
//! unless the instruction is `unmasked`; the lane functions are those of
//! `crate::isa::lanes` (flushed inputs unless known flushed, round then
//! flush, the canonical NaN unless `LAZY_NAN` leaves the payload, D3D11's
//! `min`/`max`, unfused `mad` and dot products, `_sat`).
//!
//! Where the AVX-512 generator serves (`zmm_width`), a region also takes
//! TGSM loads (`ld_raw`, `ld_structured` from a `g#` into a temp): each
//! lane reads the words `Extent::word_index` gives
//! (`sim_mem::addressing`), 0 out of bounds, as `Cx::load` does (a region
//! that starts with one is `PlanOp::CompiledLoad`). Lanes run a step at a
//! time, so a region holds no store: a load of one lane would otherwise
//! meet a later instruction's store of an earlier lane. Where the affine
//! analysis knows that a step's lanes share an address or lie on
//! consecutive words ([`Pattern`]), a full warp's form reads them so
//! without comparing their addresses. Such a region runs
//! compiled only where no observer reads the records of its loads (the
//! checker: `Observer::wants_tgsm_reads`; not a profile of lines, which
//! counts the lines of buffer accesses alone, nor the debugger's
//! recorder, which records writes); a profile is told each load's bytes
//! as `Cx::load` tells it.

use crate::analysis::affine::PcFacts;
use crate::check::MemOp;
use crate::exec::context::{Budget, Cx};
use crate::exec::fast::plan::PlanOp;
use crate::exec::fast::rows::{resolve_src, src_bits, Arena, FastAlu, FastSrc, Row};
use crate::exec::fast::FastPaths;
use crate::exec::kernels::CHUNK;
use crate::exec::observe::Observer;
use crate::exec::operands::step;
use crate::exec::profile::ExecStats;
use crate::exec::warp::Warp;
use crate::ir::lowered::{modify, DstKind, OpKind, Res, SrcKind, SrcMod};
use crate::isa::lanes::SrcBits;
use crate::isa::opcodes::AluOp;
use crate::Program;
use sim_mem::{Tgsm, TgsmRegion};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

#[cfg(feature = "jit")]
mod codegen;
#[cfg(all(feature = "jit", target_arch = "x86_64", not(windows)))]
mod zmm;

/// A region's code as either generator leaves it, mapped executable.
/// Both follow the host's C calling convention with the parameters
/// `(arena, mask, uniforms, lo, hi, tgsm)`: the warp's arena
/// (`Warp::regs`), its active mask (W words; unread by a full warp's
/// form), the region's uniforms ([`MAX_UNIFORMS`] words), the lanes
/// `lo..hi` to run (multiples of the generator's step: 4 for Cranelift's,
/// 16 for the AVX-512 one's), and the group's TGSM arena (read by a
/// region's loads alone).
#[cfg(feature = "jit")]
#[derive(Debug)]
struct Function {
    _map: memmap2::Mmap,
    entry: unsafe extern "C" fn(*mut u32, *const u32, *const u32, usize, usize, *const u32),
}

#[cfg(feature = "jit")]
impl Function {
    /// `bytes`, a function that starts at its first byte and refers to
    /// nothing outside itself but through its parameters, mapped
    /// executable; the error says why it could not be.
    ///
    /// # Safety
    /// `bytes` is such a function, compiled for this CPU with the
    /// signature above.
    #[allow(unsafe_code)]
    unsafe fn map(bytes: &[u8]) -> Result<Self, String> {
        let mut map = memmap2::MmapMut::map_anon(bytes.len().max(1))
            .map_err(|e| format!("mapping the code: {e}"))?;
        map[..bytes.len()].copy_from_slice(bytes);
        let map = map
            .make_exec()
            .map_err(|e| format!("making the code executable: {e}"))?;
        // SAFETY: the caller's promise; the mapping lives as long as the
        // `Function` that holds the pointer
        let entry = unsafe {
            std::mem::transmute::<
                *const u8,
                unsafe extern "C" fn(*mut u32, *const u32, *const u32, usize, usize, *const u32),
            >(map.as_ptr())
        };
        Ok(Function { _map: map, entry })
    }

    /// Runs the code on lanes `lo..hi` of the arena at `arena`.
    ///
    /// # Safety
    /// `arena` holds the region's arena (every row it names has W words),
    /// `mask` W mask words (the masked form), `uni` [`MAX_UNIFORMS`] words,
    /// `lo ≤ hi ≤ W` are multiples of the generator's step, `tgsm` the
    /// group's TGSM arena of at least [`Region::tgsm_words`] words, and the CPU
    /// runs what the generator emitted (AVX-512 F, BW, DQ and VL for
    /// `zmm.rs`'s).
    #[inline]
    #[allow(unsafe_code)]
    unsafe fn call(
        &self,
        arena: *mut u32,
        mask: *const u32,
        uni: *const u32,
        lo: usize,
        hi: usize,
        tgsm: *const u32,
    ) {
        // SAFETY: the caller's promises are what the code reads and writes
        unsafe { (self.entry)(arena, mask, uni, lo, hi, tgsm) }
    }
}

/// The fewest instructions a region holds. One gains nothing from
/// registers kept across instructions, and two gained too little to tell
/// from this VM's noise (scan's and histogram's address and mask
/// arithmetic: 0.95× and 1.02× their interpreted time in turns, 1.15× in
/// one bench run) while the first compile of a process costs about 0.8 ms.
pub(in crate::exec) const MIN_REGION: usize = 3;

/// The most instructions a region holds (a longer run is several): what
/// one compile takes and the code's size stay bounded, whatever the
/// program (a generated one of 20,000 `iadd`s in a row).
pub(in crate::exec) const MAX_REGION: usize = 256;

/// The most constant-buffer words a region reads (each a uniform of its
/// code, filled per run).
pub(in crate::exec) const MAX_UNIFORMS: usize = 16;

/// How much work of a region is interpreted before it is compiled, by
/// default: lane-instructions (its instructions × the lanes of each run,
/// over every executor of the program at its shape). About a millisecond
/// of interpreting: more than compiling a form of a region costs (12–17 µs
/// by the AVX-512 generator after its one-time set-up of about 0.8 ms per
/// process; 220–300 µs by Cranelift), so that a region that runs little is
/// never compiled and one that runs much pays for its compiling at most
/// about twice (`docs/performance.md`, "The compiled tier").
pub const COMPILE_AFTER: u64 = 1 << 21;

/// Where a region's source value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::exec) enum Src {
    /// a row of the warp's arena (word offset), with a modifier's bits
    Row(u32, SrcBits),
    /// the same word in every lane (an immediate, modifier applied)
    Const(u32),
    /// the region's `k`th uniform (a constant-buffer word, modifier applied)
    Uniform(u8),
}

/// One value an instruction of a region computes: a destination
/// component's, or a dot product's sum (written to every destination).
/// (Read by the code generator alone: without the `jit` feature no region
/// is planned.)
#[cfg_attr(not(feature = "jit"), allow(dead_code))]
#[derive(Debug, Clone)]
pub(in crate::exec) struct Value {
    /// the sources: `src[..arity]`, or a dot product's terms `(src[2t],
    /// src[2t + 1])`
    pub(in crate::exec) src: Vec<Src>,
    /// the rows it is written to
    pub(in crate::exec) dst: Vec<u32>,
}

/// One instruction of a region.
#[cfg_attr(not(feature = "jit"), allow(dead_code))]
#[derive(Debug, Clone)]
pub(in crate::exec) struct Instr {
    pub(in crate::exec) op: AluOp,
    pub(in crate::exec) sat: bool,
    /// every source is flushed: no input flush
    pub(in crate::exec) flushed: bool,
    /// a NaN result keeps the CPU's payload (`LAZY_NAN`)
    pub(in crate::exec) blind: bool,
    /// written without the active mask ([`FastAlu::unmasked`])
    pub(in crate::exec) unmasked: bool,
    /// the values, all computed before any is written
    pub(in crate::exec) values: Vec<Value>,
    /// a TGSM load instead (`op` is then `Mov`, `values` empty)
    pub(in crate::exec) load: Option<Box<Load>>,
}

/// A TGSM load of a region: `ld_raw` or `ld_structured` from `g#` into a
/// temp. Each lane reads dword `k` of its address as
/// `sim_mem::Extent::word_index` gives it, 0 when that is `None`.
#[cfg_attr(not(feature = "jit"), allow(dead_code))]
#[derive(Debug, Clone)]
pub(in crate::exec) struct Load {
    /// the `g#` it reads
    pub(in crate::exec) g: u32,
    /// the region's first word in the group's TGSM arena
    /// (`Program::tgsm_regions`)
    pub(in crate::exec) base_word: u32,
    /// its size in bytes
    pub(in crate::exec) size_bytes: u32,
    /// its structure stride in bytes; 0: raw
    pub(in crate::exec) stride: u32,
    /// the address: a raw load's byte offset, a structured one's index
    pub(in crate::exec) a: Src,
    /// a structured load's byte offset in the structure (`Const(0)` raw)
    pub(in crate::exec) b: Src,
    /// each component written: the dword `k` it reads and its row
    pub(in crate::exec) comps: Vec<(u32, u32)>,
    /// how the lanes of a step of a full warp lie, known before it runs
    pub(in crate::exec) pattern: Pattern,
}

/// How the addresses of the lanes of one step of a full warp lie, from
/// `crate::analysis::affine`'s steps (the fast path `MEMORY_LINES`): the
/// AVX-512 code then reads in bounds steps by a broadcast or a plain load
/// without first comparing the lanes' addresses. The analysis's facts
/// hold for the active lanes, in the executor's lane order: a full warp's
/// form takes them only in a warp whose lane `l` runs the thread `l`
/// after lane 0's (`Warp::linear`); another warp runs the masked form.
#[cfg_attr(not(feature = "jit"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::exec) enum Pattern {
    /// not known: the code compares the lanes' addresses
    Unknown,
    /// every lane on one address
    Same,
    /// lane `l` on the word after lane `l − 1`'s
    Line,
}

impl Instr {
    /// The rows it reads and writes.
    #[cfg_attr(not(feature = "jit"), allow(dead_code))]
    pub(in crate::exec) fn rows(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let mut src = |s: &Src| {
            if let Src::Row(o, _) = *s {
                out.push(o);
            }
        };
        for v in &self.values {
            v.src.iter().for_each(&mut src);
        }
        if let Some(l) = &self.load {
            src(&l.a);
            src(&l.b);
        }
        for v in &self.values {
            out.extend(&v.dst);
        }
        if let Some(l) = &self.load {
            out.extend(l.comps.iter().map(|&(_, d)| d));
        }
        out
    }
}

/// A compiled form of a region and how long compiling it took.
#[derive(Debug)]
pub(in crate::exec) struct Form {
    #[cfg(feature = "jit")]
    f: Function,
    pub(in crate::exec) compile_time: Duration,
}

/// A run of row ALU instructions compiled as one (the module's doc).
#[derive(Debug)]
pub(in crate::exec) struct Region {
    /// the instructions, in order; the first is at the region's pc
    pub(in crate::exec) instrs: Vec<Instr>,
    /// the constant-buffer words read: (slot, word, modifier)
    pub(in crate::exec) uniforms: Vec<(u32, u64, SrcMod)>,
    /// the warp width
    pub(in crate::exec) w: usize,
    /// the TGSM arena's words its loads need (0: it loads nothing)
    pub(in crate::exec) tgsm_words: usize,
    /// a load of it has a known [`Pattern`]
    patterned: bool,
    /// lane-instructions it has run interpreted, towards compiling
    work: AtomicU64,
    /// its two forms, each compiled when first needed once the region is
    /// hot: for a full warp (every lane written) and for a partial one
    /// (blended under the active mask); `None` inside: the code generator
    /// refused it
    forms: [OnceLock<Option<Form>>; 2],
}

impl Region {
    fn new(instrs: Vec<Instr>, uniforms: Vec<(u32, u64, SrcMod)>, w: usize) -> Self {
        let tgsm_words = instrs
            .iter()
            .filter_map(|i| i.load.as_ref())
            .map(|l| l.base_word as usize + l.size_bytes as usize / 4)
            .max()
            .unwrap_or(0);
        let patterned = instrs
            .iter()
            .filter_map(|i| i.load.as_deref())
            .any(|l| l.pattern != Pattern::Unknown);
        Region {
            instrs,
            uniforms,
            w,
            tgsm_words,
            patterned,
            work: AtomicU64::new(0),
            forms: [OnceLock::new(), OnceLock::new()],
        }
    }

    /// Instructions it covers.
    pub(in crate::exec) fn len(&self) -> usize {
        self.instrs.len()
    }

    /// This region as `paths` run it, not yet compiled, where they change
    /// it: every NaN result the canonical one without `LAZY_NAN`, no
    /// load's [`Pattern`] known without `MEMORY_LINES` (`None`: as it is).
    pub(in crate::exec) fn restricted(&self, paths: FastPaths) -> Option<Self> {
        let canonical = !paths.contains(FastPaths::LAZY_NAN) && self.instrs.iter().any(|i| i.blind);
        let unpatterned = !paths.contains(FastPaths::MEMORY_LINES) && self.patterned;
        if !canonical && !unpatterned {
            return None;
        }
        let mut instrs = self.instrs.clone();
        for i in &mut instrs {
            i.blind &= !canonical;
            if let (Some(l), true) = (i.load.as_deref_mut(), unpatterned) {
                l.pattern = Pattern::Unknown;
            }
        }
        Some(Region::new(instrs, self.uniforms.clone(), self.w))
    }

    /// Whether its code, by the code generator that would serve it on this
    /// CPU, beats the interpreter's row kernels (measured:
    /// `docs/performance.md`, "The compiled tier"): the AVX-512 one
    /// ([`zmm_serves`]) against AVX-512 kernels, Cranelift's against
    /// baseline (SSE2) ones; not Cranelift's 128-bit code against AVX2 or
    /// AVX-512 kernels.
    fn pays(&self) -> bool {
        zmm_serves(self) || crate::isa::cpu::isa() == crate::Isa::Baseline
    }

    /// Its form for a partial warp (`masked`) or a full one, for a run of
    /// `lanes` lanes: compiled now if the region has run `after`
    /// lane-instructions interpreted (`None`: [`COMPILE_AFTER`] where its
    /// code pays, [`Region::pays`], else never) and that form is not
    /// compiled yet; `None` while it is interpreted (or when the code
    /// generator refused it). The second value is the time this call
    /// spent compiling.
    fn form(&self, after: Option<u64>, masked: bool, lanes: usize) -> (Option<&Form>, Duration) {
        let cell = &self.forms[masked as usize];
        if let Some(c) = cell.get() {
            return (c.as_ref(), Duration::ZERO);
        }
        let after = match after {
            Some(n) => n,
            None if self.pays() => COMPILE_AFTER,
            None => return (None, Duration::ZERO),
        };
        let run = (self.len() * lanes) as u64;
        // (a load first: the count is shared by every worker, and writes
        // to it stop once it is reached)
        if self.work.load(Ordering::Relaxed) < after
            && self.work.fetch_add(run, Ordering::Relaxed) < after
        {
            return (None, Duration::ZERO);
        }
        let mut spent = Duration::ZERO;
        let c = cell.get_or_init(|| {
            let c = compile(self, masked);
            if let Some(c) = &c {
                spent = c.compile_time;
            }
            c
        });
        (c.as_ref(), spent)
    }

    /// Whether a form of it is compiled.
    #[cfg(test)]
    pub(in crate::exec) fn compiled(&self) -> bool {
        self.forms.iter().any(|f| matches!(f.get(), Some(Some(_))))
    }
}

/// Whether the AVX-512 code generator serves `r`: the interpreter's row
/// kernels are AVX-512 (the CPU has it, and `SM5SIM_ISA` leaves it) and
/// the warp width is a multiple of its step.
fn zmm_serves(r: &Region) -> bool {
    zmm_width(r.w)
}

/// Whether the AVX-512 code generator serves regions of warps of `w`
/// lanes ([`zmm_serves`]).
fn zmm_width(w: usize) -> bool {
    cfg!(all(feature = "jit", target_arch = "x86_64", not(windows)))
        && crate::isa::cpu::isa() == crate::Isa::Avx512
        && w.is_multiple_of(16)
}

#[cfg(feature = "jit")]
fn compile(r: &Region, masked: bool) -> Option<Form> {
    let t = std::time::Instant::now();
    let bytes = match zmm_serves(r) {
        #[cfg(all(target_arch = "x86_64", not(windows)))]
        true => zmm::compile(r, masked).ok()?,
        _ => codegen::compile(r, masked).ok()?,
    };
    // SAFETY: both generators emit a function of `Function`'s signature
    // that stands alone (`codegen::compile` refuses code with relocations;
    // `zmm.rs` reads its constants relative to rip), for this CPU
    // (`zmm_serves` checks AVX-512)
    #[allow(unsafe_code)]
    let f = unsafe { Function::map(&bytes) }.ok()?;
    Some(Form {
        f,
        compile_time: t.elapsed(),
    })
}

#[cfg(not(feature = "jit"))]
fn compile(_: &Region, _: bool) -> Option<Form> {
    None
}

/// Whether the code generator takes `f` (its instruction, sources and
/// modifiers).
fn supported(f: &FastAlu) -> bool {
    use AluOp::*;
    let ok_op = matches!(
        f.alu,
        Add | Mul
            | Mad
            | Div
            | Min
            | Max
            | Eq
            | Ne
            | Lt
            | Ge
            | Mov
            | Movc
            | Iadd
            | Imad
            | Imax
            | Imin
            | Umax
            | Umin
            | Ineg
            | Ieq
            | Ine
            | Ilt
            | Ige
            | Ult
            | Uge
            | And
            | Or
            | Xor
            | Not
            | Ishl
            | Ishr
            | Ushr
            | Itof
            | Utof
            | Ftoi
            | Ftou
            | RoundNe
            | RoundNi
            | RoundPi
            | RoundZ
            | Sqrt
            | Rcp
            | Rsq
            | Dp2
            | Dp3
            | Dp4
    );
    // shifts by an amount in each lane have no vector form in the code
    // generator (its vector shifts take one amount): an immediate only
    let shift_ok = !matches!(f.alu, Ishl | Ishr | Ushr)
        || f.comps[..f.n as usize]
            .iter()
            .all(|c| matches!(c.src[1].row, Row::Imm(_)));
    ok_op && shift_ok && cfg!(feature = "jit")
}

/// The region's source of `s` (`imm`: the immediate rows' words, `l`: the
/// arena), registering a constant-buffer word among `uniforms`; `None`
/// when a modifier has no bit form or there are too many uniforms.
fn source(
    s: &FastSrc,
    l: &Arena,
    imm: &[u32],
    uniforms: &mut Vec<(u32, u64, SrcMod)>,
) -> Option<Src> {
    let at = match s.row {
        Row::Imm(o) => return imm.get(o as usize).map(|&v| Src::Const(v)),
        Row::Cb { slot, word } => {
            let key = (slot, word, s.modifier);
            let k = match uniforms.iter().position(|&u| u == key) {
                Some(k) => k,
                None if uniforms.len() < MAX_UNIFORMS => {
                    uniforms.push(key);
                    uniforms.len() - 1
                }
                None => return None,
            };
            return Some(Src::Uniform(k as u8));
        }
        r => l.place(r)?,
    };
    Some(Src::Row(u32::try_from(at).ok()?, src_bits(s.modifier)?))
}

/// `f` as an instruction of a region, or `None` when a source has no
/// region form.
fn instr(
    f: &FastAlu,
    l: &Arena,
    imm: &[u32],
    uniforms: &mut Vec<(u32, u64, SrcMod)>,
) -> Option<Instr> {
    let n = f.n as usize;
    let dot = f.op.dot as usize;
    let values = if dot > 0 {
        let mut src = Vec::with_capacity(2 * dot);
        for c in &f.comps[..dot] {
            src.push(source(&c.src[0], l, imm, uniforms)?);
            src.push(source(&c.src[1], l, imm, uniforms)?);
        }
        vec![Value {
            src,
            dst: f.comps[..n].iter().map(|c| c.dst).collect(),
        }]
    } else {
        let arity = f.op.arity as usize;
        f.comps[..n]
            .iter()
            .map(|c| {
                let src = c.src[..arity]
                    .iter()
                    .map(|s| source(s, l, imm, uniforms))
                    .collect::<Option<Vec<_>>>()?;
                Some(Value {
                    src,
                    dst: vec![c.dst],
                })
            })
            .collect::<Option<Vec<_>>>()?
    };
    Some(Instr {
        op: f.alu,
        sat: f.sat,
        flushed: f.flushed,
        blind: f.flushed && f.unobserved,
        unmasked: f.unmasked,
        values,
        load: None,
    })
}

/// An address operand (component `swz[0]`) as a region's source: an
/// immediate, or what [`resolve_src`] places in the arena (a temp, a
/// system value); `None` otherwise.
fn address(prog: &Program, s: &crate::ir::lowered::Src, l: &Arena) -> Option<Src> {
    if let SrcKind::Imm(v) = s.kind {
        return Some(Src::Const(modify(v[s.swz[0] as usize], s.modifier)));
    }
    let f = resolve_src(prog, s, 0, l.w, &mut |_| None)?;
    Some(Src::Row(
        u32::try_from(l.place(f.row)?).ok()?,
        src_bits(f.modifier)?,
    ))
}

/// The [`Pattern`] of a load of structures of `stride` bytes (0: raw)
/// whose address operands step by `steps` (`crate::analysis::affine`,
/// `None`: no facts, a packed warp) per lane of a step of 16 in a group
/// `gx` threads wide: a structured load's byte address is `a·stride +
/// (b & !3)`, a raw one's `a & !3`, so with steps `(sa, sb)` (`sb` a
/// multiple of 4; raw: `sa`) it steps by `sa·stride + sb` bytes per lane.
/// Steps per `SV_GroupIndex` (`PcFacts::addr`) hold across the lanes of
/// a step; steps per `SV_GroupThreadID.x` (`PcFacts::grid`) where every
/// step lies in one row of the group (`gx` a multiple of 16).
fn pattern(facts: Option<&PcFacts>, stride: u32, gx: u32) -> Pattern {
    let Some(f) = facts else {
        return Pattern::Unknown;
    };
    let (sa, sb) = match (f.addr, f.grid) {
        (Some(steps), _) => steps,
        (None, Some(((ax, _), (bx, _)))) if gx.is_multiple_of(16) => (ax, bx),
        _ => return Pattern::Unknown,
    };
    let bytes = match stride {
        0 => Some(sa),
        _ => sb
            .is_multiple_of(4)
            .then(|| sa.wrapping_mul(stride).wrapping_add(sb)),
    };
    match bytes {
        Some(0) => Pattern::Same,
        Some(4) => Pattern::Line,
        _ => Pattern::Unknown,
    }
}

/// The instruction at `pc` as a region's TGSM load, if it is one the
/// AVX-512 code generator takes: `ld_raw`/`ld_structured` from a declared
/// `g#` into a temp, its address operands immediates, temps or system
/// values; `tgsm`: the program's `g#` regions (`Program::tgsm_regions`);
/// `facts`: the analysis's at `pc` (none for a packed warp).
fn load(
    prog: &Program,
    pc: usize,
    l: &Arena,
    tgsm: &[Option<TgsmRegion>],
    facts: Option<&PcFacts>,
) -> Option<Instr> {
    let (dst, a, b, res, swz) = match &prog.code.get(pc)?.kind {
        OpKind::LdRaw {
            dst,
            addr,
            res,
            swz,
        } => (dst, addr, None, *res, *swz),
        OpKind::LdStructured {
            dst,
            index,
            offset,
            res,
            swz,
        } => (dst, index, Some(offset), *res, *swz),
        _ => return None,
    };
    let (Res::Tgsm(g), DstKind::Temp(reg)) = (res, dst.kind) else {
        return None;
    };
    if reg >= prog.temps || dst.mask == 0 {
        return None;
    }
    let t = tgsm.get(g as usize).copied().flatten()?;
    let comps = (0..4)
        .filter(|c| dst.mask & (1 << c) != 0)
        .map(|c| {
            let row = u32::try_from((reg as usize * 4 + c) * l.w).ok()?;
            Some((u32::from(swz[c]), row))
        })
        .collect::<Option<Vec<_>>>()?;
    let b = match b {
        Some(b) => address(prog, b, l)?,
        None => Src::Const(0),
    };
    Some(Instr {
        op: AluOp::Mov,
        sat: false,
        flushed: true,
        blind: false,
        unmasked: false,
        values: Vec::new(),
        load: Some(Box::new(Load {
            g,
            base_word: u32::try_from(t.base_word).ok()?,
            size_bytes: t.size_bytes,
            stride: t.stride,
            a: address(prog, a, l)?,
            b,
            comps,
            pattern: pattern(facts, t.stride, prog.thread_group[0]),
        })),
    })
}

/// The regions of a program's plan, each with the pc it starts at, in
/// order (a list, not a table per pc: a plan per instruction is what
/// `LoadOptions::max_memory` budgets). A region is a run of
/// [`MIN_REGION`] to [`MAX_REGION`] consecutive instructions, as long as
/// the run allows, that have row forms (`rows[pc]`
/// is some) the code generator takes, and TGSM loads where the AVX-512
/// generator serves ([`load`]); `fast` holds their [`FastAlu`]
/// forms, `imm` the immediate rows' words, `facts` the analysis's per pc
/// (none for packed warps: [`Pattern`]). None when the warp width is
/// not a multiple of 4 (the code's step) or the crate is built without
/// the `jit` feature.
pub(in crate::exec) fn regions(
    prog: &Program,
    fast: &[Option<FastAlu>],
    lowered: &[bool],
    l: &Arena,
    imm: &[u32],
    facts: Option<&[PcFacts]>,
) -> Vec<(usize, Region)> {
    let mut out = Vec::new();
    if !cfg!(feature = "jit") || !l.w.is_multiple_of(4) {
        return out;
    }
    let tgsm = match zmm_width(l.w) {
        true => Some(prog.tgsm_regions()),
        false => None,
    };
    let mut pc = 0;
    while pc < fast.len() {
        let mut uniforms = Vec::new();
        let mut instrs = Vec::new();
        let mut end = pc;
        while end < fast.len() && end - pc < MAX_REGION {
            let alu = match fast[end].as_ref() {
                Some(f) if lowered.get(end) == Some(&true) && supported(f) => Some(f),
                _ => None,
            };
            let i = match alu {
                // a source that has no region form ends the run before it
                // (and the uniforms it registered are let go)
                Some(f) => {
                    let held = uniforms.len();
                    let i = instr(f, l, imm, &mut uniforms);
                    if i.is_none() {
                        uniforms.truncate(held);
                    }
                    i
                }
                None => tgsm.as_ref().and_then(|t| {
                    let f = facts.and_then(|f| f.get(end));
                    load(prog, end, l, t, f)
                }),
            };
            let Some(i) = i else {
                break;
            };
            instrs.push(i);
            end += 1;
        }
        if instrs.len() >= MIN_REGION {
            instrs.shrink_to_fit();
            out.push((pc, Region::new(instrs, uniforms, l.w)));
        }
        pc = end.max(pc + 1);
    }
    out
}

impl Cx<'_, '_> {
    /// Runs the region that starts at the TGSM load just counted (the
    /// warp's pc is one past it), if the plan has one there
    /// ([`PlanOp::CompiledLoad`]) and it runs ([`Cx::run_region`]), then
    /// the row forms after it as the ALU arm does; false, with nothing
    /// run, otherwise (the load takes its handler).
    #[inline]
    pub(in crate::exec) fn run_load_region<O: Observer>(
        &self,
        (budget, stats, compiling): (&mut Budget, &mut ExecStats, &mut Duration),
        obs: &mut O,
        warp: &mut Warp,
        tgsm: &Tgsm,
    ) -> bool {
        let Some(PlanOp::CompiledLoad(r)) = self.plan.get(warp.pc - 1).map(|s| &s.op) else {
            return false;
        };
        if !self.run_region(
            (&mut *budget, &mut *stats, compiling),
            obs,
            warp,
            r,
            tgsm.words(),
        ) {
            return false;
        }
        self.run_fast_after((budget, stats), obs, warp);
        true
    }

    /// Runs `r`, which starts at the instruction just counted (the warp's
    /// pc is one past it), compiled (adding the time spent compiling it,
    /// when this run did, to `compiling`), and counts the rest of its
    /// instructions as the interpreter loop would (statistics, profile,
    /// watchdog); false, with nothing run, when it is not compiled (yet),
    /// or when the watchdog's next check (or an interleaved warp's yield)
    /// falls inside it, so that the caller runs the first instruction's
    /// row form instead.
    #[inline]
    #[allow(unsafe_code)]
    pub(in crate::exec) fn run_region<O: Observer>(
        &self,
        (budget, stats, compiling): (&mut Budget, &mut ExecStats, &mut Duration),
        obs: &mut O,
        warp: &mut Warp,
        r: &Region,
        tgsm: &[u32],
    ) -> bool {
        let n = r.len();
        // loads run compiled on an arena that holds them, and only where
        // no observer reads their records (a checker): a profile is told
        // their traffic below
        if r.tgsm_words > 0 && ((O::ON && obs.wants_tgsm_reads()) || tgsm.len() < r.tgsm_words) {
            return false;
        }
        // `run_fast_after`'s rule: a check falls due when `until_check`
        // reaches 1, so the other n − 1 instructions need `until_check ≥ n`
        if (budget.until_check as usize) < n {
            return false;
        }
        let w = self.w;
        debug_assert_eq!(w, r.w);
        // (a full warp that is not in lane order runs the masked form,
        // under its mask of every lane, where the region's loads have
        // patterns: `Pattern`)
        let (masked, lanes) = if warp.full && (warp.linear || !r.patterned) {
            (false, 0..w)
        } else {
            let start = warp.span.start / CHUNK * CHUNK;
            (true, start..(warp.span.end.div_ceil(CHUNK) * CHUNK).min(w))
        };
        let (form, spent) = r.form(self.compile_after, masked, lanes.len());
        *compiling += spent;
        let Some(form) = form else {
            return false;
        };
        let mut uni = [0u32; MAX_UNIFORMS];
        for (u, &(slot, word, m)) in uni.iter_mut().zip(&r.uniforms) {
            *u = modify(self.cb_word(slot, word), m);
        }
        #[cfg(feature = "jit")]
        {
            let regs = warp.regs.as_mut_ptr();
            let mask = match masked {
                true => warp.active.as_ptr(),
                false => std::ptr::null(),
            };
            // SAFETY: the region's rows lie in the arena for lanes 0..W
            // (`regions` takes the offsets `lower` placed there), `lanes`
            // is within 0..W and both its ends are multiples of 16 (a
            // chunk) or W, which is a multiple of the code's step
            // (`regions`, `zmm_serves`), the mask has W words, `uni` holds
            // MAX_UNIFORMS words, `tgsm` the words its loads may read
            // (checked above; each load reads only words within its
            // region, by its bounds), and the code reads and writes
            // nothing else (`codegen.rs`, `zmm.rs`)
            unsafe {
                form.f.call(
                    regs,
                    mask,
                    uni.as_ptr(),
                    lanes.start,
                    lanes.end,
                    tgsm.as_ptr(),
                )
            };
        }
        #[cfg(not(feature = "jit"))]
        let _ = (form, &uni, tgsm);
        for _ in 1..n {
            budget.until_check -= 1;
            step(stats, obs, warp);
        }
        // each load's traffic, as `Cx::load` reports it (the active lanes
        // are the region's throughout)
        if O::ON {
            for l in r.instrs.iter().filter_map(|i| i.load.as_deref()) {
                let bytes = 4 * l.comps.len() as u64;
                obs.traffic(warp, Res::Tgsm(l.g), MemOp::Read, bytes);
            }
        }
        true
    }
}

#[cfg(all(test, feature = "jit"))]
mod tests {
    use super::Pattern;
    use crate::exec::fast::plan::PlanOp;
    use crate::exec::fast::FastPaths;
    use crate::exec::tests::{random_alu, CB_WORDS};
    use crate::exec::GroupExecutor;
    use crate::ir::lowered::{OpKind, Res};
    use crate::isa::lanes::tests::Rng;
    use crate::Program;
    use sim_mem::{Bindings, BufferView};

    /// The instructions the code generator takes (`supported`), by name.
    const TAKEN: [&str; 44] = [
        "add", "mul", "mad", "div", "min", "max", "eq", "ne", "lt", "ge", "mov", "movc", "iadd",
        "imad", "imax", "imin", "umax", "umin", "ineg", "ieq", "ine", "ilt", "ige", "ult", "uge",
        "and", "or", "xor", "not", "ishl", "ishr", "ushr", "itof", "utof", "ftoi", "round_ne",
        "round_ni", "round_pi", "round_z", "sqrt", "rcp", "rsq", "dp2", "dp3",
    ];

    /// A shader of `n` random ALU instructions the code generator takes
    /// (`dp4` too), some under a lane-dependent `if` (a partial warp: the
    /// masked form), over r0–r3, stored to u0 at the end; its 48 threads
    /// in one row, or in three of 16 (`rows`).
    fn shader(rng: &mut Rng, n: usize, rows: bool) -> String {
        let mut s = header(rows);
        let open = rng.below(n);
        let close = open + 1 + rng.below(n - open);
        for k in 0..n {
            if k == open && rng.below(2) == 0 {
                let c = rng.below(48);
                s += &format!("ult r4.x, vThreadIDInGroupFlattened.x, l({c})\nif_nz r4.x\n");
            }
            if k == close && s.contains("if_nz") && !s.contains("endif") {
                s += "endif\n";
            }
            if rng.below(3) == 0 {
                s += &tgsm_load(rng);
                continue;
            }
            let line = loop {
                let line = random_alu(rng, true);
                let op = line.split([' ', '_']).next().unwrap_or("");
                let op = if line.starts_with("round_") {
                    &line[..8]
                } else {
                    op
                };
                if TAKEN.contains(&op) || op == "dp4" {
                    break line;
                }
            };
            s += &line;
        }
        if s.contains("if_nz") && !s.contains("endif") {
            s += "endif\n";
        }
        s + &tail()
    }

    /// The declarations of [`shader`]'s shaders and their writes of the
    /// three TGSM regions (48 threads in one row, or in three of 16).
    fn header(rows: bool) -> String {
        let group = match rows {
            true => "16, 3, 1",
            false => "48, 1, 1",
        };
        String::from(
            "cs_5_0\ndcl_globalFlags refactoringAllowed\n\
             dcl_constantbuffer CB0[2], immediateIndexed\ndcl_uav_raw u0\n\
             dcl_input vThreadGroupID.xyz\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_input vThreadID.xyz\ndcl_input vThreadIDInGroup.xyz\n\
             dcl_temps 5\ndcl_tgsm_structured g0, 8, 20\ndcl_tgsm_raw g1, 96\n\
             dcl_tgsm_structured g2, 4, 64\ndcl_thread_group GROUP\n\
             utof r0.xyzw, vThreadID.xyzx\nmov r1.xyzw, vThreadIDInGroup.xyzx\n\
             mov r2.xyzw, cb0[0].xyzw\nmov r3.xyzw, cb0[1].wzyx\n\
             imad r4.y, vThreadIDInGroupFlattened.x, l(0x9e3779b9), l(0x7f7ff0)\n\
             store_structured g0.xy, vThreadIDInGroupFlattened.x, l(0), r4.yy\n\
             ishl r4.z, vThreadIDInGroupFlattened.x, l(2)\n\
             store_raw g1.x, r4.z, r4.y\n\
             store_structured g2.x, vThreadIDInGroupFlattened.x, l(0), r0.x\n\
             sync_g_t\n",
        )
        .replace("GROUP", group)
    }

    /// The program of listing `text` (test case `case`).
    fn program(text: &str, case: usize) -> Program {
        let decoded = crate::front::asm::assemble(text)
            .unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"));
        Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}"))
    }

    /// The stores of r0–r3 to u0 that end [`shader`]'s shaders.
    fn tail() -> String {
        let mut s = String::from("ishl r4.x, vThreadIDInGroupFlattened.x, l(6)\n");
        for r in 0..4 {
            s += &format!("store_raw u0.xyzw, r4.x, r{r}.xyzw\niadd r4.x, r4.x, l(16)\n");
        }
        s + "ret\n"
    }

    /// A random TGSM load into r0–r3 (after the address arithmetic it
    /// needs, in r4.yz): from the header's g0 (8-byte structures), g1
    /// (raw) or g2 (4-byte structures), at addresses every lane shares,
    /// on a line of consecutive words, scattered, partly or wholly out of
    /// bounds, unaligned, or random (a register's word). Among the first
    /// two, addresses whose pattern the analysis knows (`Pattern`):
    /// `SV_GroupIndex`, `SV_GroupThreadID.x` (steps per thread of a row in
    /// a group of rows), `SV_DispatchThreadID.x`, constant-buffer words
    /// (in r4.z and r4.w), some shared by several loads (`zmm::classes`),
    /// some of them in bounds in some steps only.
    fn tgsm_load(rng: &mut Rng) -> String {
        let mask = loop {
            let m: String = "xyzw".chars().filter(|_| rng.below(2) == 0).collect();
            if !m.is_empty() {
                break m;
            }
        };
        let swz: String = (0..4).map(|_| ["x", "y", "z", "w"][rng.below(4)]).collect();
        let dst = format!("r{}.{mask}", rng.below(4));
        let reg = format!("r{}.{}", rng.below(4), ["x", "y", "z", "w"][rng.below(4)]);
        match rng.below(3) {
            0 => {
                let index = [
                    "vThreadIDInGroupFlattened.x",
                    "l(3)",
                    "l(19)",
                    "l(20)",
                    "vThreadIDInGroup.x",
                    "r4.y",
                    "r4.w",
                    &reg,
                ][rng.below(8)];
                let off = [
                    "l(0)",
                    "l(4)",
                    "l(5)",
                    "l(8)",
                    "l(12)",
                    "l(152)",
                    "l(156)",
                    "l(0xfffffff8)",
                    "r4.z",
                    "r4.w",
                ][rng.below(10)];
                let cb = format!(
                    "cb0[{}].{}",
                    rng.below(2),
                    ["x", "y", "z", "w"][rng.below(4)]
                );
                // (r4.z and r4.w set before some loads only: the loads
                // between share them; r4.z random, small and uniform, or
                // uniform and so large that an index's bytes plus it wrap)
                let z = match rng.below(6) {
                    0 => format!("and r4.z, {reg}, l(15)\n"),
                    1 => format!("and r4.z, {cb}, l(12)\n"),
                    2 => format!("or r4.z, {cb}, l(0xfffffff0)\n"),
                    _ => String::new(),
                };
                let w = match rng.below(3) {
                    0 => format!("and r4.w, {cb}, l(28)\n"),
                    _ => String::new(),
                };
                format!(
                    "and r4.y, {reg}, l(31)\n{z}{w}\
                     ld_structured {dst}, {index}, {off}, g0.{swz}\n"
                )
            }
            1 => {
                let addr = ["r4.y", "l(0)", "l(8)", "l(86)", "l(200)", "r4.z", &reg][rng.below(7)];
                format!(
                    "ishl r4.y, vThreadIDInGroupFlattened.x, l(2)\nand r4.z, {reg}, l(127)\n\
                     ld_raw {dst}, {addr}, g1.{swz}\n"
                )
            }
            _ => {
                // (`vThreadID.x`: 48 and up, past the 64 structures from
                // lane 16)
                let index = [
                    "vThreadIDInGroupFlattened.x",
                    "vThreadIDInGroup.x",
                    "vThreadID.x",
                    "l(7)",
                    "r4.y",
                    &reg,
                ][rng.below(6)];
                // (no address arithmetic before it, unless r4.y is the
                // index: a region may start with the load)
                let set = match index {
                    "r4.y" => format!(
                        "iadd r4.y, vThreadIDInGroupFlattened.x, l({})\n",
                        rng.below(24)
                    ),
                    _ => String::new(),
                };
                let off = ["l(0)", "l(4)", "l(8)"][rng.below(3)];
                format!("{set}ld_structured {dst}, {index}, {off}, g2.{swz}\n")
            }
        }
    }

    /// Loads in classes (`zmm::classes`), which share their address
    /// registers and one bounds check, read what each reads alone: at the
    /// class's limit (a member's constant part past the region while the
    /// others' are in bounds), with an offset so large that the index's
    /// bytes plus it wrap, across a write of the shared register (two
    /// classes), and on lines whose last lanes leave the region.
    #[test]
    fn classes_of_loads_read_what_each_load_reads() {
        let bodies = [
            // offset 8 of structure 19 is past g0 (the next words are g1's)
            "mov r4.w, l(19)\nld_structured r0.x, r4.w, l(0), g0.xxxx\n\
             ld_structured r1.x, r4.w, l(8), g0.xxxx\nld_structured r2.x, r4.w, l(4), g0.xxxx\n",
            // 2·8 + 0xfffffff0 wraps to 0: out of bounds all the same
            "mov r4.w, l(2)\nmov r4.z, l(0xfffffff0)\n\
             ld_structured r0.x, r4.w, r4.z, g0.xxxx\nld_structured r1.y, r4.w, r4.z, g0.xxxx\n\
             ld_structured r2.z, r4.w, r4.z, g0.yyyy\n",
            // r4.w written between: two classes
            "mov r4.w, l(3)\nld_structured r0.x, r4.w, l(0), g0.xxxx\n\
             ld_structured r1.x, r4.w, l(4), g0.xxxx\nmov r4.w, l(5)\n\
             ld_structured r2.x, r4.w, l(0), g0.xxxx\nld_structured r3.x, r4.w, l(4), g0.xxxx\n",
            // a line: vThreadID.x is 48 and up in one row, so in the first
            // step the last lanes' offset 8 is past g2's 64 structures
            "ld_structured r0.x, vThreadID.x, l(0), g2.xxxx\n\
             ld_structured r1.x, vThreadID.x, l(8), g2.xxxx\n\
             ld_structured r2.x, vThreadID.x, l(4), g2.xxxx\n",
        ];
        let zmm = crate::isa::cpu::isa() == crate::Isa::Avx512 && cfg!(not(windows));
        for (case, body) in bodies.iter().enumerate() {
            for rows in [false, true] {
                let text = header(rows) + body + &tail();
                let prog = program(&text, case);
                for w in [16, 48] {
                    let reference = run(&prog, w, FastPaths::NONE, None);
                    let all = FastPaths::ALL;
                    let interpreted = run(&prog, w, all.without(FastPaths::COMPILED), None);
                    let got = run(&prog, w, all, None);
                    let at = format!("case {case}, rows {rows}, width {w}");
                    assert_eq!(got.0, reference.0, "{at}: u0\n{text}");
                    assert_eq!(got.1, interpreted.1, "{at}: registers\n{text}");
                    assert_eq!(got.2, reference.2, "{at}: counts\n{text}");
                    if zmm {
                        assert!(got.3[7] >= 2, "{at}: {} loads in classes", got.3[7]);
                    }
                }
            }
        }
    }

    /// Values that leave out `fout` (`zmm::loose`) give what the row
    /// kernels give: a NaN (0·∞ in thread 0: the CPU's NaN is not the
    /// canonical one; made of sources not known flushed, so made
    /// canonical) read by a blind `add` (kept out: its payload would be
    /// the CPU's, left in r4.w) and by `mov` (kept out: it reads the
    /// bits); a chain
    /// of `mad`s over denormals, infinities and NaNs; a product read by a
    /// comparison.
    #[test]
    fn loose_values_read_as_the_row_kernels_leave_them() {
        // (r1.y: SV_GroupIndex as a float, 0 in thread 0)
        let bodies = [
            "utof r1.y, vThreadIDInGroupFlattened.x\n\
             iadd r1.z, vThreadIDInGroupFlattened.x, l(0x7f800000)\nmul r1.x, r1.z, r1.y\n\
             add r4.w, r1.x, r1.x\nmov r1.x, l(0)\n",
            "utof r1.y, vThreadIDInGroupFlattened.x\nmul r1.x, r1.y, l(0x7f800000)\n\
             mov r4.w, r1.x\nmov r1.x, l(0)\n",
            "utof r1.y, vThreadIDInGroupFlattened.x\nmul r1.x, r1.y, l(0x00400000)\n\
             mad r2.x, r1.x, l(3.0), r1.x\nmad r2.x, r2.x, r1.y, r2.x\n\
             mad r2.x, r2.x, l(0x7f800000), r1.x\nmad r2.x, r2.x, r1.y, r2.x\nmov r1.x, l(0)\n",
            "utof r1.y, vThreadIDInGroupFlattened.x\nmul r1.x, r1.y, l(0x00400000)\n\
             lt r2.x, r1.x, l(0x00000001)\nge r2.y, r1.x, l(0)\n\
             mul r1.x, r1.y, l(0x7f800000)\nne r2.z, r1.x, r1.x\nmov r1.x, l(0)\n",
        ];
        let zmm = crate::isa::cpu::isa() == crate::Isa::Avx512 && cfg!(not(windows));
        let mut loose = 0;
        for (case, body) in bodies.iter().enumerate() {
            let text = header(false) + body + &tail();
            let prog = program(&text, case);
            for w in [16, 48] {
                let reference = run(&prog, w, FastPaths::NONE, None);
                for paths in [FastPaths::ALL, FastPaths::ALL.without(FastPaths::LAZY_NAN)] {
                    let interpreted = run(&prog, w, paths.without(FastPaths::COMPILED), None);
                    let got = run(&prog, w, paths, None);
                    let at = format!("case {case}, width {w}, {paths:?}");
                    assert_eq!(got.0, reference.0, "{at}: u0\n{text}");
                    assert_eq!(got.1, interpreted.1, "{at}: registers\n{text}");
                    loose += got.3[8];
                }
            }
        }
        if zmm {
            assert!(loose > 0, "no value left out fout");
        }
    }

    /// A pattern is known only where every step of 16 lanes lies in one
    /// row of the group (steps per `SV_GroupThreadID.x`), from steps that
    /// make one address or consecutive words.
    #[test]
    fn patterns_come_from_steps_within_a_row() {
        use crate::analysis::affine::PcFacts;
        let grid = |a, b| PcFacts {
            grid: Some(((a, 0), (b, 64))),
            ..Default::default()
        };
        let linear = |a, b| PcFacts {
            addr: Some((a, b)),
            ..Default::default()
        };
        assert_eq!(super::pattern(Some(&grid(0, 4)), 64, 16), Pattern::Line);
        assert_eq!(super::pattern(Some(&grid(0, 4)), 64, 32), Pattern::Line);
        assert_eq!(super::pattern(Some(&grid(0, 4)), 64, 24), Pattern::Unknown);
        assert_eq!(super::pattern(Some(&grid(0, 0)), 64, 8), Pattern::Unknown);
        assert_eq!(super::pattern(Some(&grid(0, 0)), 64, 16), Pattern::Same);
        assert_eq!(super::pattern(Some(&linear(1, 0)), 4, 24), Pattern::Line);
        assert_eq!(super::pattern(Some(&linear(1, 0)), 8, 24), Pattern::Unknown);
        assert_eq!(super::pattern(Some(&linear(4, 0)), 0, 24), Pattern::Line);
        assert_eq!(super::pattern(Some(&linear(2, 0)), 0, 24), Pattern::Unknown);
        // (the offset's low bits are dropped: a step of 2 is no line)
        assert_eq!(super::pattern(Some(&linear(0, 2)), 8, 24), Pattern::Unknown);
        assert_eq!(super::pattern(Some(&linear(0, 4)), 8, 24), Pattern::Line);
        // (an index one up and an offset one structure down: one address)
        assert_eq!(
            super::pattern(Some(&linear(1, 8u32.wrapping_neg())), 8, 24),
            Pattern::Same
        );
        assert_eq!(super::pattern(None, 4, 16), Pattern::Unknown);
    }

    /// u0's words, the registers of every lane, the counts, and (regions
    /// compiled at once): the row-form instructions in compiled regions,
    /// the row-form instructions, the TGSM loads in compiled regions, the
    /// TGSM loads, the compiled regions that start with a load, and the
    /// loads of each known [`Pattern`] (same, line) in regions whose full
    /// warp's form is compiled, those of them in classes of loads
    /// (`zmm::classes`), and the values there that leave out `fout`
    /// (`zmm::loose`); threads in `order` (`None`: in order).
    fn run(
        prog: &Program,
        w: usize,
        paths: FastPaths,
        order: Option<&[u32]>,
    ) -> (Vec<u32>, Vec<u32>, u64, [usize; 9]) {
        let cb = CB_WORDS.to_vec();
        let out = sim_mem::Buffer::zeroed(48 * 64).unwrap();
        let b = Bindings {
            constant_buffers: vec![Some(&cb[..])],
            uavs: vec![Some(BufferView::raw(&out))],
            ..Default::default()
        };
        let mut ex = GroupExecutor::with_lane_order(prog, w, order).with_fast_paths(paths);
        ex.set_compile_after(Some(0));
        ex.run_group([1, 2, 3], &b);
        let (mut compiled, mut compiled_loads, mut load_first) = (0, 0, 0);
        let mut patterns = [0; 2];
        let (mut classed, mut loose) = (0, 0);
        for s in ex.plan.iter() {
            if let PlanOp::Compiled(_, r) | PlanOp::CompiledLoad(r) = &s.op {
                if matches!(r.forms[0].get(), Some(Some(_))) {
                    #[cfg(all(target_arch = "x86_64", not(windows)))]
                    if super::zmm_serves(r) {
                        classed += super::zmm::classes(&r.instrs)
                            .iter()
                            .map(|c| c.members.len())
                            .sum::<usize>();
                        loose += super::zmm::loose(&r.instrs)
                            .iter()
                            .flatten()
                            .filter(|&&l| l)
                            .count();
                    }
                    for l in r.instrs.iter().filter_map(|i| i.load.as_deref()) {
                        match l.pattern {
                            Pattern::Same => patterns[0] += 1,
                            Pattern::Line => patterns[1] += 1,
                            Pattern::Unknown => {}
                        }
                    }
                }
                if r.compiled() {
                    if matches!(s.op, PlanOp::CompiledLoad(_)) {
                        load_first += 1;
                    }
                    let loads = r.instrs.iter().filter(|i| i.load.is_some()).count();
                    compiled += r.len() - loads;
                    compiled_loads += loads;
                }
            }
        }
        let rows = ex.plan.iter().filter(|s| s.row().is_some()).count();
        let loads = prog
            .code
            .iter()
            .filter(|op| {
                matches!(
                    op.kind,
                    OpKind::LdRaw {
                        res: Res::Tgsm(_),
                        ..
                    } | OpKind::LdStructured {
                        res: Res::Tgsm(_),
                        ..
                    }
                )
            })
            .count();
        let regs = ex
            .warps
            .iter()
            .flat_map(|wp| wp.regs[..prog.temps as usize * 4 * w].to_vec())
            .collect();
        (
            out.to_words(),
            regs,
            ex.stats.warp_instructions,
            [
                compiled,
                rows,
                compiled_loads,
                loads,
                load_first,
                patterns[0],
                patterns[1],
                classed,
                loose,
            ],
        )
    }

    /// Regions of every instruction the code generators take, TGSM loads
    /// among them, with every kind of source (temps, immediates with and without modifiers —
    /// denormals, NaNs, infinities among them —, system values,
    /// constant-buffer words) and `_sat`, in full and partial warps,
    /// compute the bits the row kernels compute (the same paths less
    /// `COMPILED`, and the reference for memory), with the same counts,
    /// by both code generators (the AVX-512 one where the CPU has it);
    /// and most of their instructions did run compiled.
    #[test]
    fn compiled_regions_match_the_row_kernels() {
        let mut rng = Rng(0xc0de_0000_0000_0051);
        let (mut total, mut compiled) = (0, 0);
        let (mut loads, mut loads_compiled, mut first) = (0, 0, 0);
        let mut patterns = [0; 2];
        let (mut classed, mut loose) = (0, 0);
        for case in 0..200 {
            let text = shader(&mut rng, 4 + case % 20, case % 2 == 1);
            let prog = program(&text, case);
            // (8 and 40: Cranelift's four lanes a step; 16 and 48, on a CPU
            // with AVX-512: sixteen a step, in a partial last warp and in
            // one warp)
            for w in [8, 40, 16, 48] {
                let reference = run(&prog, w, FastPaths::NONE, None);
                let all = FastPaths::ALL;
                for paths in [
                    all,
                    all.without(FastPaths::LAZY_NAN),
                    all.without(FastPaths::MEMORY_LINES),
                ] {
                    // (the same NaN rule: a dead lane's unblended write
                    // keeps the CPU's payload under `LAZY_NAN` alone)
                    let interpreted = run(&prog, w, paths.without(FastPaths::COMPILED), None);
                    let got = run(&prog, w, paths, None);
                    let at = format!("case {case}, width {w}, {paths:?}");
                    assert_eq!(got.0, reference.0, "{at}: u0\n{text}");
                    assert_eq!(got.0, interpreted.0, "{at}: u0\n{text}");
                    assert_eq!(got.1, interpreted.1, "{at}: registers\n{text}");
                    assert_eq!(got.2, reference.2, "{at}: counts\n{text}");
                    compiled += got.3[0];
                    total += got.3[1];
                    if w % 16 == 0 {
                        loads_compiled += got.3[2];
                        loads += got.3[3];
                        first += got.3[4];
                        patterns[0] += got.3[5];
                        patterns[1] += got.3[6];
                        classed += got.3[7];
                        loose += got.3[8];
                    }
                }
                // threads in reverse order: the analysis's steps are not
                // the lanes', so the full warp's form is not taken (every
                // thread writes its own words of u0, whatever its lane)
                let reverse: Vec<u32> = (0..48).rev().collect();
                let got = run(&prog, w, FastPaths::ALL, Some(&reverse));
                let at = format!("case {case}, width {w}, reverse order");
                assert_eq!(got.0, reference.0, "{at}: u0\n{text}");
            }
        }
        // (the rest: runs of one instruction — the stores' address
        // arithmetic —, shifts by a register, and regions no lane reached;
        // 61% when this was written)
        assert!(
            compiled * 100 > total * 55,
            "{compiled} of {total} instructions compiled"
        );
        // TGSM loads join regions where the AVX-512 generator serves
        // (not all of them: those in runs of fewer than three), and some
        // regions start with one
        if crate::isa::cpu::isa() == crate::Isa::Avx512 && cfg!(not(windows)) {
            assert!(
                loads_compiled * 100 > loads * 40,
                "{loads_compiled} of {loads} TGSM loads compiled"
            );
            assert!(first > 0, "no compiled region started with a load");
            // and some of them have their pattern known: every lane on
            // one address, and lanes on consecutive words
            assert!(
                patterns.iter().all(|&n| n > 10),
                "loads of known patterns compiled (same, line): {patterns:?}"
            );
            // and some of those share their address registers
            assert!(classed > 10, "{classed} loads in classes");
            // and values that leave out `fout`
            assert!(loose > 10, "{loose} values without fout");
        }
    }
}
