//! A region's machine code for AVX-512 (F, BW, DQ, VL), the instruction
//! set of the interpreter's widest row kernels: sixteen lanes per step in
//! `zmm` registers, blends under the `k1` mask register, a row kept in a
//! register from its first use to its last in the region (then stored,
//! once, if written). Cranelift's x86-64 back end lowers nothing wider
//! than 128 bits, and its code loses to the AVX-512 row kernels
//! (`codegen.rs`, `docs/performance.md`); this one is selected and
//! register-allocated here and encoded by `iced-x86`'s assembler.
//!
//! The lane rules are `crate::isa::lanes`' (as `codegen.rs` spells them),
//! with inputs flushed by the CPU's `DAZ` where only float arithmetic and
//! comparisons read them (results are flushed by the code, after rounding);
//! where an x86 instruction differs, the fix-up is beside it (`min`/`max`'s
//! NaN and ±0 rules, `ftoi`/`ftou`'s saturation, NaN to 0).
//!
//! The code follows the System V calling convention (`extern "C"` on
//! x86-64 Linux and macOS): `(arena, mask, uniforms, lo, hi, tgsm)` in
//! rdi, rsi, rdx, rcx, r8, r9; it writes only caller-saved registers
//! (those six, rax, r10, r11, zmm0–zmm31, k1–k6), and 8 bytes of the red zone
//! below rsp, where it keeps the caller's MXCSR while it runs with `DAZ`
//! set (it is a leaf).

use super::{Instr, Load, Pattern, Region, Src};
use crate::isa::lanes::CANONICAL_NAN;
use crate::isa::opcodes::AluOp;
use iced_x86::code_asm::{
    dword_bcst, dword_ptr, eax, k1, k2, k3, k4, k5, k6, r10, r10d, r11, r11d, r8, r9, rax, rcx,
    rdi, rdx, rsi, rsp, xmm0, xmm1, xmm10, xmm11, xmm12, xmm13, xmm14, xmm15, xmm16, xmm17, xmm18,
    xmm19, xmm2, xmm20, xmm21, xmm22, xmm23, xmm24, xmm25, xmm26, xmm27, xmm28, xmm29, xmm3, xmm30,
    xmm31, xmm4, xmm5, xmm6, xmm7, xmm8, xmm9, zmm0, zmm1, zmm10, zmm11, zmm12, zmm13, zmm14,
    zmm15, zmm16, zmm17, zmm18, zmm19, zmm2, zmm20, zmm21, zmm22, zmm23, zmm24, zmm25, zmm26,
    zmm27, zmm28, zmm29, zmm3, zmm30, zmm31, zmm4, zmm5, zmm6, zmm7, zmm8, zmm9, zmmword_ptr,
    AsmRegister32, AsmRegister64, AsmRegisterXmm, AsmRegisterZmm, CodeAssembler, CodeLabel,
};
use iced_x86::IcedError;
use std::collections::HashMap;

/// Lanes per step: one `zmm` register of 32-bit words.
pub(in crate::exec) const STEP: usize = 16;

/// Why a region has no code.
#[derive(Debug, thiserror::Error)]
pub(in crate::exec) enum Refused {
    /// the assembler refused an instruction
    #[error("encoding: {0}")]
    Encoding(#[from] IcedError),
    /// the region needs what this generator lacks
    #[error("{0}")]
    Other(String),
}

const XMM: [AsmRegisterXmm; 32] = [
    xmm0, xmm1, xmm2, xmm3, xmm4, xmm5, xmm6, xmm7, xmm8, xmm9, xmm10, xmm11, xmm12, xmm13, xmm14,
    xmm15, xmm16, xmm17, xmm18, xmm19, xmm20, xmm21, xmm22, xmm23, xmm24, xmm25, xmm26, xmm27,
    xmm28, xmm29, xmm30, xmm31,
];

const ZMM: [AsmRegisterZmm; 32] = [
    zmm0, zmm1, zmm2, zmm3, zmm4, zmm5, zmm6, zmm7, zmm8, zmm9, zmm10, zmm11, zmm12, zmm13, zmm14,
    zmm15, zmm16, zmm17, zmm18, zmm19, zmm20, zmm21, zmm22, zmm23, zmm24, zmm25, zmm26, zmm27,
    zmm28, zmm29, zmm30, zmm31,
];

// `vcmpps` predicates
const EQ_OQ: i32 = 0x00;
const LT_OQ: i32 = 0x11;
const LE_OQ: i32 = 0x12;
const UNORD_Q: i32 = 0x03;
const NEQ_UQ: i32 = 0x04;
const NGT_UQ: i32 = 0x1a;
const GE_OQ: i32 = 0x1d;
// `vpcmpd`/`vpcmpud` predicates
const CMP_EQ: i32 = 0;
const CMP_LT: i32 = 1;
const CMP_LE: i32 = 2;
const CMP_NE: i32 = 4;
const CMP_NLT: i32 = 5;

/// The code of `r` for a partial warp (`masked`) or a full one, with
/// `super::Function`'s signature (the System V convention); `r.w` must be
/// a multiple of [`STEP`] (`zmm_serves`).
pub(in crate::exec) fn compile(r: &Region, masked: bool) -> Result<Vec<u8>, Refused> {
    let mut a = CodeAssembler::new(64)?;
    let mut e = Emitter {
        a: &mut a,
        consts: HashMap::new(),
        free: (0..32).rev().collect(),
        refs: [0; 32],
        rows: HashMap::new(),
        dirty: Vec::new(),
        iota: None,
        loose: false,
    };
    // the last instruction that reads or writes each row: its register is
    // stored (if written) and freed after it
    let mut last: HashMap<u32, usize> = HashMap::new();
    for (k, i) in r.instrs.iter().enumerate() {
        for o in i.rows() {
            last.insert(o, k);
        }
    }
    // loads that share their address registers ([`classes`], a full
    // warp's form): each member's constant part, by instruction; a class
    // holds r10 or r11 from its first member to its last
    let classes = match masked {
        true => Vec::new(),
        false => classes(&r.instrs),
    };
    let mut member: HashMap<usize, (usize, u32)> = HashMap::new();
    for (ci, c) in classes.iter().enumerate() {
        for &(k, at) in &c.members {
            member.insert(k, (ci, at));
        }
    }
    let mut held: Vec<Option<usize>> = vec![None; classes.len()];
    let loose = match masked {
        true => Vec::new(),
        false => loose(&r.instrs),
    };
    let mut top = e.a.create_label();
    let mut done = e.a.create_label();
    // `DAZ` on (MXCSR bit 6: float arithmetic and comparisons read a
    // denormal source as zero of its sign, which is `fin`), the caller's
    // MXCSR kept below the stack pointer (the red zone of a leaf) and
    // restored on return
    e.a.vstmxcsr(dword_ptr(rsp - 4))?;
    e.a.mov(eax, dword_ptr(rsp - 4))?;
    e.a.or(eax, 0x40)?;
    e.a.mov(dword_ptr(rsp - 8), eax)?;
    e.a.vldmxcsr(dword_ptr(rsp - 8))?;
    // rcx, r8: byte offsets of lanes lo and hi
    e.a.cmp(rcx, r8)?;
    e.a.jae(done)?;
    e.a.shl(rcx, 2)?;
    e.a.shl(r8, 2)?;
    e.a.set_label(&mut top)?;
    if masked {
        let m = e.alloc()?;
        e.a.vmovdqu32(ZMM[m], zmmword_ptr(rsi + rcx))?;
        e.a.vptestmd(k1, ZMM[m], ZMM[m])?;
        e.release(m);
    }
    let mut gprs = [true; 2];
    for (k, i) in r.instrs.iter().enumerate() {
        match &i.load {
            Some(l) => {
                let m = member.get(&k).copied();
                let mut class = None;
                if let Some((ci, at)) = m {
                    let c = &classes[ci];
                    if c.members[0].0 == k {
                        if let Some(g) = gprs.iter().position(|&f| f) {
                            gprs[g] = false;
                            held[ci] = Some(g);
                            e.class_check(c, g)?;
                        }
                    }
                    class = held[ci].map(|g| (g, at));
                    if c.members[c.members.len() - 1].0 == k {
                        if let Some(g) = held[ci].take() {
                            gprs[g] = true;
                        }
                    }
                }
                e.load(l, masked, class)?
            }
            None => e.instr(i, masked, loose.get(k).map_or(&[][..], |l| &l[..]))?,
        }
        // rows no later instruction touches: stored if written, freed
        let mut done_rows: Vec<u32> = e
            .rows
            .keys()
            .copied()
            .filter(|o| last.get(o).is_none_or(|&l| l <= k))
            .collect();
        done_rows.sort_unstable();
        for o in done_rows {
            e.retire(o)?;
        }
    }
    debug_assert!(e.rows.is_empty() && e.dirty.is_empty());
    e.a.add(rcx, STEP as i32 * 4)?;
    e.a.cmp(rcx, r8)?;
    e.a.jb(top)?;
    e.a.set_label(&mut done)?;
    e.a.vldmxcsr(dword_ptr(rsp - 4))?;
    e.a.vzeroupper()?;
    e.a.ret()?;
    let iota = e.iota;
    let mut consts: Vec<(u32, CodeLabel)> = e.consts.iter().map(|(&c, &l)| (c, l)).collect();
    consts.sort_unstable_by_key(|&(c, _)| c);
    for (c, mut l) in consts {
        a.set_label(&mut l)?;
        a.dd(&[c])?;
    }
    if let Some(mut l) = iota {
        a.set_label(&mut l)?;
        let words: Vec<u32> = (0..STEP as u32).map(|l| 4 * l).collect();
        a.dd(&words)?;
    }
    // (position-independent: the constants are read relative to rip)
    Ok(a.assemble(0)?)
}

/// Per instruction, per value, whether the value may leave out `fout`
/// (the flush of a denormal result to zero and the canonical NaN) in a
/// full warp's form: it is written again in the region (so it never
/// reaches the arena), and until then only instructions read it that read
/// it as `fout` would leave it. Those are float arithmetic that `DAZ`
/// flushes the inputs of and that makes a NaN of a NaN, then makes its own
/// NaN canonical (`add`, `mul`, `mad`, `div`, dot products, `sqrt`,
/// `rcp`, `rsq`, not `LAZY_NAN`'s blind ones), and comparisons (which read
/// no payload), each reading it with no integer modifier; a value of one
/// of those instructions may be loose too, so a NaN is made canonical, or
/// compared, before it reaches the arena as the row kernels would make
/// it. (`_sat` flushes and makes 0 of a NaN itself. Not in the masked
/// form, whose unmasked writes leave inactive lanes of a value under
/// later blended ones.) matmul's accumulator,
/// written by sixteen `mad`s a step, is loose in fifteen.
pub(in crate::exec) fn loose(instrs: &[Instr]) -> Vec<Vec<bool>> {
    use AluOp::*;
    let writes = |i: &Instr, d: u32| {
        i.values.iter().any(|v| v.dst.contains(&d))
            || i.load
                .as_ref()
                .is_some_and(|l| l.comps.iter().any(|&(_, r)| r == d))
    };
    // how `i` reads row `d`: not at all, as `fout` leaves it, or otherwise
    let reads_ok = |i: &Instr, d: u32| -> Option<bool> {
        let mut read = false;
        let mut ok = true;
        let srcs = i.values.iter().flat_map(|v| v.src.iter().copied());
        let addr = i.load.iter().flat_map(|l| [l.a, l.b]);
        for s in srcs.chain(addr) {
            if let Src::Row(o, bits) = s {
                if o == d {
                    read = true;
                    ok &= bits.add == 0 && i.load.is_none();
                }
            }
        }
        ok &= match i.op {
            Add | Mul | Mad | Div | Dp2 | Dp3 | Dp4 | Sqrt | Rcp | Rsq => !i.blind,
            Eq | Ne | Lt | Ge => true,
            _ => false,
        };
        read.then_some(ok)
    };
    instrs
        .iter()
        .enumerate()
        .map(|(k, i)| {
            i.values
                .iter()
                .map(|v| {
                    v.dst.iter().all(|&d| {
                        let rest = &instrs[k + 1..];
                        let Some(next) = rest.iter().position(|j| writes(j, d)) else {
                            return false;
                        };
                        rest[..=next].iter().all(|j| reads_ok(j, d) != Some(false))
                    })
                })
                .collect()
        })
        .collect()
}

/// The general-purpose registers a class of loads holds its lanes' byte
/// address in ([`Emitter::class_check`]).
const GPR: [(AsmRegister64, AsmRegister32); 2] = [(r10, r10d), (r11, r11d)];

/// TGSM loads of a region, in a full warp's form, whose addresses have
/// the same varying part (the same address operands' rows, of a known
/// [`Pattern`], not written between them) and differ by constants: the
/// first member checks every lane of every member in bounds at once and
/// keeps lane 0's varying part in a general-purpose register (or −1 when
/// some lane is not), so each member is a test and its plain loads or
/// broadcasts (matmul's sixteen reads of `tile_b[k][gtid.x]`: immediate
/// indices and one offset register).
#[derive(Debug, Clone, PartialEq)]
pub(in crate::exec) struct Class {
    /// each member's instruction (an index into the region's) and the
    /// constant part of its byte addresses, in order
    pub(in crate::exec) members: Vec<(usize, u32)>,
    /// the varying operands: index (raw: byte offset), and offset
    a: Option<Src>,
    b: Option<Src>,
    stride: u32,
    size: u32,
    base_word: u32,
    pattern: Pattern,
    /// the highest dword any member reads, and the largest constant part
    kmax: u32,
    cmax: u32,
}

impl Class {
    /// The highest byte address lane's varying part may have for every
    /// member's every dword to be in bounds (`None`: never).
    fn limit(&self) -> Option<u32> {
        self.size
            .checked_sub(4 + 4 * self.kmax)?
            .checked_sub(self.cmax)
    }
}

/// A load's varying operands and the constant part of its byte address,
/// when it may join a class: a known pattern, an address not wholly
/// immediate, an immediate index below the count, an immediate offset
/// that leaves room for every dword read (the cases `Emitter::load`
/// folds are not classed).
fn split(l: &Load) -> Option<(Option<Src>, Option<Src>, u32)> {
    if l.pattern == Pattern::Unknown {
        return None;
    }
    let kmax = l.comps.iter().map(|&(k, _)| k).max()?;
    let lim = l.size_bytes.checked_sub(4 + 4 * kmax)?;
    match (l.size_bytes.checked_div(l.stride), l.a, l.b) {
        (None, Src::Const(_), _) | (Some(_), Src::Const(_), Src::Const(_)) => None,
        (None, a, _) => Some((Some(a), None, 0)),
        (Some(count), Src::Const(i), b) => (i < count).then(|| (None, Some(b), i * l.stride)),
        (Some(_), a, Src::Const(c)) => (c & !3 <= lim).then_some((Some(a), None, c & !3)),
        (Some(_), a, b) => Some((Some(a), Some(b), 0)),
    }
}

/// The classes of `instrs` (a full warp's form): loads join the open
/// class of their varying operands; a class closes where an instruction
/// writes a row it reads. Classes of one member (nothing shared), or
/// whose members could never all be in bounds, are left out.
pub(in crate::exec) fn classes(instrs: &[Instr]) -> Vec<Class> {
    let mut all: Vec<Class> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for (k, i) in instrs.iter().enumerate() {
        if let Some((l, (a, b, at))) = i.load.as_deref().and_then(|l| Some((l, split(l)?))) {
            let kmax = l.comps.iter().map(|&(k, _)| k).max().unwrap_or(0);
            let same = |c: &Class| {
                (c.a, c.b, c.stride, c.size, c.base_word, c.pattern)
                    == (a, b, l.stride, l.size_bytes, l.base_word, l.pattern)
            };
            match open.iter().copied().find(|&o| same(&all[o])) {
                Some(o) => {
                    let c = &mut all[o];
                    c.members.push((k, at));
                    c.kmax = c.kmax.max(kmax);
                    c.cmax = c.cmax.max(at);
                }
                None => {
                    open.push(all.len());
                    all.push(Class {
                        members: vec![(k, at)],
                        a,
                        b,
                        stride: l.stride,
                        size: l.size_bytes,
                        base_word: l.base_word,
                        pattern: l.pattern,
                        kmax,
                        cmax: at,
                    });
                }
            }
        }
        let mut written: Vec<u32> = i.values.iter().flat_map(|v| v.dst.clone()).collect();
        if let Some(l) = &i.load {
            written.extend(l.comps.iter().map(|&(_, d)| d));
        }
        open.retain(|&o| {
            let c = &all[o];
            ![c.a, c.b]
                .iter()
                .any(|s| matches!(s, Some(Src::Row(r, _)) if written.contains(r)))
        });
    }
    all.retain(|c| c.members.len() > 1 && c.limit().is_some());
    all
}

/// Byte displacement of row `o` (words) from the step's lane 0.
fn disp(o: u32) -> Result<i32, Refused> {
    i32::try_from(u64::from(o) * 4).map_err(|_| Refused::Other("a row beyond 2 GiB".into()))
}

struct Emitter<'a> {
    a: &'a mut CodeAssembler,
    /// a label per constant, its word placed after the code
    consts: HashMap<u32, CodeLabel>,
    /// free `zmm` registers
    free: Vec<usize>,
    /// holders of each register: the rows mapped to it and the values in
    /// hand
    refs: [u8; 32],
    /// each row's register, once read or written in this step
    rows: HashMap<u32, usize>,
    /// rows written in this step and not stored yet
    dirty: Vec<u32>,
    /// the label of the byte offsets of a step's lanes, `4·l`, placed
    /// after the code when a load needs them
    iota: Option<CodeLabel>,
    /// the value being computed is [`loose`]: its `fout` is left out
    loose: bool,
}

type R = Result<usize, Refused>;

impl Emitter<'_> {
    fn alloc(&mut self) -> R {
        let r = self
            .free
            .pop()
            .ok_or_else(|| Refused::Other("more than 32 vectors live".into()))?;
        self.refs[r] = 1;
        Ok(r)
    }

    fn retain(&mut self, r: usize) -> usize {
        self.refs[r] += 1;
        r
    }

    fn release(&mut self, r: usize) {
        self.refs[r] -= 1;
        if self.refs[r] == 0 {
            self.free.push(r);
        }
    }

    /// `r` to change in place: itself when the caller holds it alone,
    /// else a copy (the caller's hold moves to the copy).
    fn own(&mut self, r: usize) -> R {
        if self.refs[r] == 1 {
            return Ok(r);
        }
        let t = self.alloc()?;
        self.a.vmovdqa32(ZMM[t], ZMM[r])?;
        self.release(r);
        Ok(t)
    }

    fn konst(&mut self, c: u32) -> CodeLabel {
        if let Some(&l) = self.consts.get(&c) {
            return l;
        }
        let l = self.a.create_label();
        self.consts.insert(c, l);
        l
    }

    /// A register holding `c` in every lane.
    fn splat(&mut self, c: u32) -> R {
        let t = self.alloc()?;
        if c == 0 {
            self.a.vpxord(ZMM[t], ZMM[t], ZMM[t])?;
        } else {
            let l = self.konst(c);
            self.a.vpbroadcastd(ZMM[t], dword_ptr(l))?;
        }
        Ok(t)
    }

    /// Row `o`'s register (loaded at its first use in the step), held
    /// by the caller.
    fn row(&mut self, o: u32) -> R {
        if let Some(&r) = self.rows.get(&o) {
            return Ok(self.retain(r));
        }
        let r = self.alloc()?;
        self.a
            .vmovdqu32(ZMM[r], zmmword_ptr(rdi + rcx + disp(o)?))?;
        self.rows.insert(o, r);
        Ok(self.retain(r))
    }

    /// Row `o` is done in this step: stored if written, its register freed.
    fn retire(&mut self, o: u32) -> Result<(), Refused> {
        if let Some(r) = self.rows.remove(&o) {
            if let Some(k) = self.dirty.iter().position(|&d| d == o) {
                self.dirty.swap_remove(k);
                self.a
                    .vmovdqu32(zmmword_ptr(rdi + rcx + disp(o)?), ZMM[r])?;
            }
            self.release(r);
        }
        Ok(())
    }

    /// A source's value, held by the caller.
    fn src(&mut self, s: Src) -> R {
        match s {
            Src::Const(c) => self.splat(c),
            Src::Uniform(k) => {
                let t = self.alloc()?;
                self.a
                    .vpbroadcastd(ZMM[t], dword_ptr(rdx + 4 * i32::from(k)))?;
                Ok(t)
            }
            Src::Row(o, bits) => {
                // `SrcBits::apply`: ((v & and) ^ xor) + add
                let mut v = self.row(o)?;
                for (c, op) in [(bits.and, 0), (bits.xor, 1), (bits.add, 2)] {
                    if (op == 0 && c == !0) || (op > 0 && c == 0) {
                        continue;
                    }
                    let t = self.alloc()?;
                    let l = self.konst(c);
                    match op {
                        0 => self.a.vpandd(ZMM[t], ZMM[v], dword_bcst(l))?,
                        1 => self.a.vpxord(ZMM[t], ZMM[v], dword_bcst(l))?,
                        _ => self.a.vpaddd(ZMM[t], ZMM[v], dword_bcst(l))?,
                    }
                    self.release(v);
                    v = t;
                }
                Ok(v)
            }
        }
    }

    /// `ftz` in place: a zero exponent keeps only the sign.
    fn ftz(&mut self, x: usize) -> R {
        let x = self.own(x)?;
        let (exp, sign) = (self.konst(0x7f80_0000), self.konst(0x8000_0000));
        self.a.vptestnmd(k2, ZMM[x], dword_bcst(exp))?;
        self.a.vpandd(ZMM[x].k2(), ZMM[x], dword_bcst(sign))?;
        Ok(x)
    }

    /// `fin`: flushed unless the sources are known flushed.
    fn fin(&mut self, x: usize, flushed: bool) -> R {
        if flushed {
            Ok(x)
        } else {
            self.ftz(x)
        }
    }

    /// `fout` (or `fout_blind`) of a result held alone; the result as it
    /// is for a [`loose`] value.
    fn fout(&mut self, r: usize, blind: bool) -> R {
        if self.loose {
            return Ok(r);
        }
        let r = self.ftz(r)?;
        if !blind {
            let nan = self.konst(CANONICAL_NAN);
            self.a.vcmpps(k2, ZMM[r], ZMM[r], UNORD_Q)?;
            self.a.vpbroadcastd(ZMM[r].k2(), dword_ptr(nan))?;
        }
        Ok(r)
    }

    /// A new register with `f(dst, a, b)` of two sources, which are released.
    fn binary(
        &mut self,
        a: usize,
        b: usize,
        f: impl FnOnce(
            &mut CodeAssembler,
            AsmRegisterZmm,
            AsmRegisterZmm,
            AsmRegisterZmm,
        ) -> Result<(), IcedError>,
    ) -> R {
        let t = self.alloc()?;
        f(self.a, ZMM[t], ZMM[a], ZMM[b])?;
        self.release(a);
        self.release(b);
        Ok(t)
    }

    /// A new register with `f(dst, a)`; `a` is released.
    fn unary(
        &mut self,
        a: usize,
        f: impl FnOnce(&mut CodeAssembler, AsmRegisterZmm, AsmRegisterZmm) -> Result<(), IcedError>,
    ) -> R {
        let t = self.alloc()?;
        f(self.a, ZMM[t], ZMM[a])?;
        self.release(a);
        Ok(t)
    }

    /// All ones where `k2` is set, else zeros.
    fn mask_k2(&mut self) -> R {
        let t = self.alloc()?;
        self.a.vpmovm2d(ZMM[t], k2)?;
        Ok(t)
    }

    /// A product as `run_dot` and `mad` round it: of flushed inputs,
    /// rounded, to be flushed (a NaN kept) by the add that reads it, which
    /// `DAZ` does.
    fn product(&mut self, x: usize, y: usize) -> R {
        self.binary(x, y, |a, t, x, y| a.vmulps(t, x, y))
    }

    /// One value of `i` from its sources (held; released here).
    fn value(&mut self, i: &Instr, s: &[usize]) -> R {
        use AluOp::*;
        let (fl, blind) = (i.flushed, i.blind);
        // (instructions that read their sources only by float arithmetic
        // and comparisons, which `DAZ` flushes, take them as they are:
        // `fin` is for those that also look at their bits)
        Ok(match i.op {
            Add | Mul | Div => {
                let (x, y) = (s[0], s[1]);
                let r = match i.op {
                    Add => self.binary(x, y, |a, t, x, y| a.vaddps(t, x, y))?,
                    Mul => self.binary(x, y, |a, t, x, y| a.vmulps(t, x, y))?,
                    _ => self.binary(x, y, |a, t, x, y| a.vdivps(t, x, y))?,
                };
                self.fout(r, blind)?
            }
            Mad => {
                // the product rounded and flushed, not fused
                let p = self.product(s[0], s[1])?;
                let r = self.binary(p, s[2], |a, t, p, z| a.vaddps(t, p, z))?;
                self.fout(r, blind)?
            }
            Min | Max => {
                let (x, y) = (self.fin(s[0], fl)?, self.fin(s[1], fl)?);
                let max = i.op == Max;
                // vminps/vmaxps give the second operand when equal or
                // either is NaN; D3D11's: −0 below +0, and the operand that
                // is not NaN
                let t = self.alloc()?;
                let (tz, xz, yz) = (ZMM[t], ZMM[x], ZMM[y]);
                if max {
                    self.a.vmaxps(tz, xz, yz)?;
                } else {
                    self.a.vminps(tz, xz, yz)?;
                }
                self.a.vcmpps(k2, xz, yz, EQ_OQ)?;
                if max {
                    self.a.vpandd(tz.k2(), xz, yz)?;
                } else {
                    self.a.vpord(tz.k2(), xz, yz)?;
                }
                self.a.vcmpps(k2, yz, yz, UNORD_Q)?;
                self.a.vmovdqa32(tz.k2(), xz)?;
                self.a.vcmpps(k2, xz, xz, UNORD_Q)?;
                self.a.vmovdqa32(tz.k2(), yz)?;
                self.release(x);
                self.release(y);
                self.fout(t, blind)?
            }
            Eq | Ne | Lt | Ge => {
                let (x, y) = (s[0], s[1]);
                let p = match i.op {
                    Eq => EQ_OQ,
                    // `!=` holds for NaN
                    Ne => NEQ_UQ,
                    Lt => LT_OQ,
                    _ => GE_OQ,
                };
                self.a.vcmpps(k2, ZMM[x], ZMM[y], p)?;
                self.release(x);
                self.release(y);
                self.mask_k2()?
            }
            Sqrt | RoundNe | RoundNi | RoundPi | RoundZ => {
                // (`vrndscaleps` signals no denormal operand: flushed here)
                let x = match i.op {
                    Sqrt => s[0],
                    _ => self.fin(s[0], fl)?,
                };
                let r = match i.op {
                    Sqrt => self.unary(x, |a, t, x| a.vsqrtps(t, x))?,
                    // imm: 8 (no precision exception) + the rounding mode
                    RoundNe => self.unary(x, |a, t, x| a.vrndscaleps(t, x, 8))?,
                    RoundNi => self.unary(x, |a, t, x| a.vrndscaleps(t, x, 9))?,
                    RoundPi => self.unary(x, |a, t, x| a.vrndscaleps(t, x, 10))?,
                    _ => self.unary(x, |a, t, x| a.vrndscaleps(t, x, 11))?,
                };
                self.fout(r, blind)?
            }
            Rcp | Rsq => {
                let x = s[0];
                let d = match i.op {
                    Rsq => self.unary(x, |a, t, x| a.vsqrtps(t, x))?,
                    _ => x,
                };
                let one = self.splat(1.0f32.to_bits())?;
                let r = self.binary(one, d, |a, t, one, d| a.vdivps(t, one, d))?;
                self.fout(r, blind)?
            }
            // an integer converts to a float exactly or rounded, never to a
            // NaN or a denormal: `fout` changes nothing
            Itof => self.unary(s[0], |a, t, x| a.vcvtdq2ps(t, x))?,
            Utof => self.unary(s[0], |a, t, x| a.vcvtudq2ps(t, x))?,
            // Rust's `as`: saturating, NaN to 0. vcvttps2dq gives 0x80000000
            // for NaN and out of range: right below −2³¹, wrong above
            Ftoi => {
                let x = self.fin(s[0], fl)?;
                let t = self.alloc()?;
                let (tz, xz) = (ZMM[t], ZMM[x]);
                self.a.vcvttps2dq(tz, xz)?;
                self.a.vcmpps(k2, xz, xz, UNORD_Q)?;
                self.a.vpxord(tz.k2(), tz, tz)?;
                let big = self.konst(0x4f00_0000); // 2³¹
                let top = self.konst(0x7fff_ffff);
                self.a.vcmpps(k2, xz, dword_bcst(big), GE_OQ)?;
                self.a.vpbroadcastd(tz.k2(), dword_ptr(top))?;
                self.release(x);
                t
            }
            // vcvttps2udq gives 0xFFFFFFFF for NaN and out of range: right
            // above 2³², wrong for NaN and at or below −1
            Ftou => {
                let x = self.fin(s[0], fl)?;
                let t = self.alloc()?;
                let (tz, xz) = (ZMM[t], ZMM[x]);
                self.a.vcvttps2udq(tz, xz)?;
                let minus_one = self.konst((-1.0f32).to_bits());
                self.a.vcmpps(k2, xz, dword_bcst(minus_one), LE_OQ)?;
                self.a.vpxord(tz.k2(), tz, tz)?;
                self.a.vcmpps(k2, xz, xz, UNORD_Q)?;
                self.a.vpxord(tz.k2(), tz, tz)?;
                self.release(x);
                t
            }
            Mov => s[0],
            Movc => {
                self.a.vptestmd(k2, ZMM[s[0]], ZMM[s[0]])?;
                self.release(s[0]);
                // k2 ? x : y
                self.binary(s[1], s[2], |a, t, x, y| a.vpblendmd(t.k2(), y, x))?
            }
            Iadd => self.binary(s[0], s[1], |a, t, x, y| a.vpaddd(t, x, y))?,
            Imad => {
                let p = self.binary(s[0], s[1], |a, t, x, y| a.vpmulld(t, x, y))?;
                self.binary(p, s[2], |a, t, p, z| a.vpaddd(t, p, z))?
            }
            Imax => self.binary(s[0], s[1], |a, t, x, y| a.vpmaxsd(t, x, y))?,
            Imin => self.binary(s[0], s[1], |a, t, x, y| a.vpminsd(t, x, y))?,
            Umax => self.binary(s[0], s[1], |a, t, x, y| a.vpmaxud(t, x, y))?,
            Umin => self.binary(s[0], s[1], |a, t, x, y| a.vpminud(t, x, y))?,
            Ineg => {
                let z = self.splat(0)?;
                self.binary(z, s[0], |a, t, z, x| a.vpsubd(t, z, x))?
            }
            Ieq | Ine | Ilt | Ige | Ult | Uge => {
                let (x, y) = (ZMM[s[0]], ZMM[s[1]]);
                match i.op {
                    Ieq => self.a.vpcmpd(k2, x, y, CMP_EQ)?,
                    Ine => self.a.vpcmpd(k2, x, y, CMP_NE)?,
                    Ilt => self.a.vpcmpd(k2, x, y, CMP_LT)?,
                    Ige => self.a.vpcmpd(k2, x, y, CMP_NLT)?,
                    Ult => self.a.vpcmpud(k2, x, y, CMP_LT)?,
                    _ => self.a.vpcmpud(k2, x, y, CMP_NLT)?,
                }
                self.release(s[0]);
                self.release(s[1]);
                self.mask_k2()?
            }
            And => self.binary(s[0], s[1], |a, t, x, y| a.vpandd(t, x, y))?,
            Or => self.binary(s[0], s[1], |a, t, x, y| a.vpord(t, x, y))?,
            Xor => self.binary(s[0], s[1], |a, t, x, y| a.vpxord(t, x, y))?,
            // (0x33: the complement of the second operand)
            Not => self.unary(s[0], |a, t, x| a.vpternlogd(t, x, x, 0x33))?,
            Dp2 | Dp3 | Dp4 => {
                // `run_dot`: products and partial sums flushed (a NaN
                // kept), the last sum `fout`
                // (each flushed by the next add, under `DAZ`)
                let terms = s.len() / 2;
                let mut acc = self.product(s[0], s[1])?;
                for t in 1..terms {
                    let p = self.product(s[2 * t], s[2 * t + 1])?;
                    acc = self.binary(acc, p, |a, d, x, y| a.vaddps(d, x, y))?;
                }
                self.fout(acc, blind)?
            }
            _ => return Err(Refused::Other(format!("{:?} has no compiled form", i.op))),
        })
    }

    /// `sat` of a value held alone: 0 for NaN and ≤ 0, 1.0 for ≥ 1, else
    /// the word flushed.
    fn sat(&mut self, x: usize) -> R {
        let x = self.ftz(x)?;
        let one = self.konst(1.0f32.to_bits());
        let zero = self.konst(0);
        let xz = ZMM[x];
        self.a.vcmpps(k2, xz, dword_bcst(zero), NGT_UQ)?;
        self.a.vcmpps(k3, xz, dword_bcst(one), GE_OQ)?;
        self.a.vpbroadcastd(xz.k3(), dword_ptr(one))?;
        self.a.vpxord(xz.k2(), xz, xz)?;
        Ok(x)
    }

    /// Emits `i`: every value from the rows as they are before it, then
    /// each written (blended under `k1` when `masked` and the instruction
    /// is not unmasked).
    fn instr(&mut self, i: &Instr, masked: bool, loose: &[bool]) -> Result<(), Refused> {
        let mut out = Vec::with_capacity(i.values.len());
        for (vi, v) in i.values.iter().enumerate() {
            self.loose = loose.get(vi) == Some(&true);
            let r = match (i.op, &v.src[..]) {
                (AluOp::Ishl | AluOp::Ishr | AluOp::Ushr, &[x, Src::Const(c)]) => {
                    let x = self.src(x)?;
                    let n = c & 31;
                    match i.op {
                        AluOp::Ishl => self.unary(x, |a, t, x| a.vpslld(t, x, n))?,
                        AluOp::Ishr => self.unary(x, |a, t, x| a.vpsrad(t, x, n))?,
                        _ => self.unary(x, |a, t, x| a.vpsrld(t, x, n))?,
                    }
                }
                (AluOp::Ishl | AluOp::Ishr | AluOp::Ushr, _) => {
                    return Err(Refused::Other(
                        "a shift's amount is not an immediate".into(),
                    ))
                }
                _ => {
                    let mut s = Vec::with_capacity(v.src.len());
                    for &x in &v.src {
                        s.push(self.src(x)?);
                    }
                    self.value(i, &s)?
                }
            };
            self.loose = false;
            let r = if i.sat {
                let r = self.own(r)?;
                self.sat(r)?
            } else {
                r
            };
            out.push((v, r));
        }
        for (v, r) in out {
            for &d in &v.dst {
                self.write(d, r, masked && !i.unmasked)?;
            }
            self.release(r);
        }
        Ok(())
    }

    /// Row `d` becomes `r` (which the caller still holds), blended under
    /// `k1` (`k1 ? r : d`) when `blend`.
    fn write(&mut self, d: u32, r: usize, blend: bool) -> Result<(), Refused> {
        let new = if blend {
            let old = self.row(d)?;
            let t = self.alloc()?;
            self.a.vpblendmd(ZMM[t].k1(), ZMM[old], ZMM[r])?;
            self.release(old);
            t
        } else {
            self.retain(r)
        };
        if let Some(was) = self.rows.insert(d, new) {
            self.release(was);
        }
        if !self.dirty.contains(&d) {
            self.dirty.push(d);
        }
        Ok(())
    }

    /// A structured access's index `a` times `stride` (its bytes), with
    /// `k4` set where `a < count` (there the product does not wrap).
    fn index_bytes(&mut self, a: Src, count: u32, stride: u32) -> R {
        let a = self.src(a)?;
        let n = self.konst(count);
        self.a.vpcmpud(k4, ZMM[a], dword_bcst(n), CMP_LT)?;
        let t = self.alloc()?;
        if stride.is_power_of_two() {
            self.a.vpslld(ZMM[t], ZMM[a], stride.trailing_zeros())?;
        } else {
            let st = self.konst(stride);
            self.a.vpmulld(ZMM[t], ZMM[a], dword_bcst(st))?;
        }
        self.release(a);
        Ok(t)
    }

    /// A structured access's byte offset `b`, its low two bits dropped.
    fn offset_bytes(&mut self, b: Src) -> R {
        let not3 = self.konst(!3);
        let b = self.src(b)?;
        let o = self.alloc()?;
        self.a.vpandd(ZMM[o], ZMM[b], dword_bcst(not3))?;
        self.release(b);
        Ok(o)
    }

    /// Emits a class's check, at its first member: lane 0's varying byte
    /// address into `GPR[g]` when every lane's is within the class's
    /// limit (and its index below the count, its offset within the
    /// region: then nothing wraps), else −1 there. As [`Emitter::load`]
    /// computes an address, less the constant part.
    fn class_check(&mut self, c: &Class, g: usize) -> Result<(), Refused> {
        let lim = c
            .limit()
            .ok_or(Refused::Other("a class out of bounds".into()))?;
        let not3 = self.konst(!3);
        let (mut under4, mut under5) = (false, false);
        let var = match c.size.checked_div(c.stride) {
            None => {
                let a = self.src(c.a.ok_or(Refused::Other("no address".into()))?)?;
                let t = self.alloc()?;
                self.a.vpandd(ZMM[t], ZMM[a], dword_bcst(not3))?;
                self.release(a);
                t
            }
            Some(count) => {
                let index = match c.a {
                    Some(a) => {
                        under4 = true;
                        Some(self.index_bytes(a, count, c.stride)?)
                    }
                    None => None,
                };
                let off = match c.b {
                    Some(b) => Some(self.offset_bytes(b)?),
                    None => None,
                };
                match (index, off) {
                    (Some(i), Some(o)) => {
                        // (the offset within the region first: a·stride +
                        // offset then does not wrap)
                        let room = self.konst(lim + c.cmax);
                        let k = if under4 { k5.k4() } else { k5 };
                        self.a.vpcmpud(k, ZMM[o], dword_bcst(room), CMP_LE)?;
                        under5 = true;
                        let t = self.alloc()?;
                        self.a.vpaddd(ZMM[t], ZMM[i], ZMM[o])?;
                        self.release(i);
                        self.release(o);
                        t
                    }
                    (Some(t), None) | (None, Some(t)) => t,
                    (None, None) => return Err(Refused::Other("no address".into())),
                }
            }
        };
        let lim = self.konst(lim);
        let k = match (under5, under4) {
            (true, _) => k5.k5(),
            (false, true) => k5.k4(),
            _ => k5,
        };
        self.a.vpcmpud(k, ZMM[var], dword_bcst(lim), CMP_LE)?;
        let (r64, r32) = GPR[g];
        let mut ok = self.a.create_label();
        self.a.kortestw(k5, k5)?;
        self.a.vmovd(r32, XMM[var])?;
        self.a.jc(ok)?;
        self.a.mov(r64, -1i64)?;
        self.a.set_label(&mut ok)?;
        self.release(var);
        Ok(())
    }

    /// Emits a TGSM load (`Cx::load`): each lane's dword `k` of each
    /// component, gathered from the arena at r9 where
    /// `Extent::word_index` puts it in bounds, else 0; every value read
    /// before any is written (blended under `k1` when `masked`). A member
    /// of a class (`class`: its register and its constant part) reads
    /// at the class's address plus its constant part when the class's
    /// check passed, as below otherwise.
    fn load(&mut self, l: &Load, masked: bool, class: Option<(usize, u32)>) -> Result<(), Refused> {
        let size = l.size_bytes;
        let disp = |at: u64, k: u32| {
            i32::try_from(u64::from(l.base_word) * 4 + at + 4 * u64::from(k))
                .map_err(|_| Refused::Other("TGSM beyond 2 GiB".into()))
        };
        // the byte address of lane's dword 0 when every lane's is known
        // now (immediate operands), `None` inside when out of bounds
        let known = match (size.checked_div(l.stride), l.a, l.b) {
            (None, Src::Const(a), _) => Some(Some(u64::from(a & !3))),
            // an immediate index past the region: every lane reads 0
            (Some(count), Src::Const(i), _) if i >= count => Some(None),
            (Some(_), Src::Const(i), Src::Const(b)) => Some(
                ((u64::from(i) + 1) * u64::from(l.stride) <= u64::from(size))
                    .then(|| u64::from(i) * u64::from(l.stride) + u64::from(b & !3)),
            ),
            _ => None,
        };
        if let Some(at) = known {
            let mut out = Vec::with_capacity(l.comps.len());
            for &(k, d) in &l.comps {
                let t = self.alloc()?;
                match at.filter(|&at| at + 4 * u64::from(k) + 4 <= u64::from(size)) {
                    Some(at) => self.a.vpbroadcastd(ZMM[t], dword_ptr(r9 + disp(at, k)?))?,
                    None => self.a.vpxord(ZMM[t], ZMM[t], ZMM[t])?,
                }
                out.push((d, t));
            }
            return self.write_all(out, masked);
        }
        let mut out = Vec::with_capacity(l.comps.len());
        for _ in &l.comps {
            out.push(self.alloc()?);
        }
        let mut done = self.a.create_label();
        if let Some((g, at)) = class {
            let (r64, _) = GPR[g];
            let mut slow = self.a.create_label();
            self.a.test(r64, r64)?;
            self.a.js(slow)?;
            for (&(k, _), &t) in l.comps.iter().zip(&out) {
                let d = disp(u64::from(at), k)?;
                match l.pattern {
                    Pattern::Same => self.a.vpbroadcastd(ZMM[t], dword_ptr(r9 + r64 + d))?,
                    Pattern::Line => self.a.vmovdqu32(ZMM[t], zmmword_ptr(r9 + r64 + d))?,
                    Pattern::Unknown => return Err(Refused::Other("a class of no pattern".into())),
                }
            }
            self.a.jmp(done)?;
            self.a.set_label(&mut slow)?;
        }
        let not3 = self.konst(!3);
        // the byte address of each lane's dword 0 (`addr`): raw, `a & !3`;
        // structured, `a·stride + (b & !3)`, in bounds only where `a <
        // size / stride` (k4, when `a` is not an immediate: then the
        // product does not wrap) and the offset is (`off`, a register or
        // an immediate: then the sum does not wrap)
        let mut index_checked = false;
        let mut off = None;
        let mut off_imm = None;
        let addr = match size.checked_div(l.stride) {
            None => {
                let a = self.src(l.a)?;
                let t = self.alloc()?;
                self.a.vpandd(ZMM[t], ZMM[a], dword_bcst(not3))?;
                self.release(a);
                t
            }
            Some(count) => {
                // a·stride, or its value for an immediate index
                let (index, bytes) = match l.a {
                    // (below the count: `known` took the others)
                    Src::Const(i) => (None, i * l.stride),
                    a => {
                        index_checked = true;
                        (Some(self.index_bytes(a, count, l.stride)?), 0)
                    }
                };
                match l.b {
                    Src::Const(b) => {
                        off_imm = Some(b & !3);
                        let c = self.konst(bytes + (b & !3));
                        // (an immediate index with one: `known` above)
                        let index = index.ok_or(Refused::Other("no address".into()))?;
                        self.a.vpaddd(ZMM[index], ZMM[index], dword_bcst(c))?;
                        index
                    }
                    b => {
                        let o = self.offset_bytes(b)?;
                        off = Some(o);
                        let t = self.alloc()?;
                        match index {
                            Some(i) => {
                                self.a.vpaddd(ZMM[t], ZMM[i], ZMM[o])?;
                                self.release(i);
                            }
                            None => {
                                let c = self.konst(bytes);
                                self.a.vpaddd(ZMM[t], ZMM[o], dword_bcst(c))?;
                            }
                        }
                        t
                    }
                }
            }
        };
        // each lane's dword k is in bounds where k5 is set: its byte
        // address + 4 ≤ size (never when the region is smaller than
        // 4k + 4 bytes), with the index and offset in bounds first
        let valid = |e: &mut Self, k: u32| -> Result<bool, Refused> {
            let Some(lim) = size.checked_sub(4 + 4 * k) else {
                return Ok(false);
            };
            if off_imm.is_some_and(|o| o > lim) {
                return Ok(false);
            }
            let lim = e.konst(lim);
            let mut under = index_checked.then_some(4);
            if let Some(off) = off {
                let k = if under.is_some() { k5.k4() } else { k5 };
                e.a.vpcmpud(k, ZMM[off], dword_bcst(lim), CMP_LE)?;
                under = Some(5);
            }
            let k = match under {
                Some(4) => k5.k4(),
                Some(_) => k5.k5(),
                None => k5,
            };
            e.a.vpcmpud(k, ZMM[addr], dword_bcst(lim), CMP_LE)?;
            Ok(true)
        };
        let disp = |k: u32| disp(0, k);
        let (mut gather, mut line, mut same) = (
            self.a.create_label(),
            self.a.create_label(),
            self.a.create_label(),
        );
        // every lane on one address, or on consecutive words from lane 0's
        // (eax), and every lane in bounds: a broadcast or a plain load
        // instead of a gather
        let k_max = l.comps.iter().map(|&(k, _)| k).max().unwrap_or(0);
        // (a full warp's form: the pattern known, lane 0's address)
        let known = match (masked, l.pattern) {
            (false, Pattern::Same) => Some(same),
            (false, Pattern::Line) => Some(line),
            _ => None,
        };
        let in_bounds = valid(self, k_max)?;
        if let (Some(to), true) = (known, in_bounds) {
            self.a.kortestw(k5, k5)?;
            self.a.vmovd(eax, XMM[addr])?;
            self.a.jc(to)?;
        } else if in_bounds {
            let t = self.alloc()?;
            let iota = *self.iota.get_or_insert_with(|| self.a.create_label());
            self.a.kortestw(k5, k5)?;
            self.a.jnc(gather)?;
            self.a.vmovd(eax, XMM[addr])?;
            self.a.vpbroadcastd(ZMM[t], XMM[addr])?;
            self.a.vpcmpeqd(k6, ZMM[addr], ZMM[t])?;
            self.a.kortestw(k6, k6)?;
            self.a.jc(same)?;
            self.a.vpaddd(ZMM[t], ZMM[t], zmmword_ptr(iota))?;
            self.a.vpcmpeqd(k6, ZMM[addr], ZMM[t])?;
            self.a.kortestw(k6, k6)?;
            self.a.jc(line)?;
            self.release(t);
        }
        self.a.set_label(&mut gather)?;
        for (&(k, _), &t) in l.comps.iter().zip(&out) {
            self.a.vpxord(ZMM[t], ZMM[t], ZMM[t])?;
            if valid(self, k)? {
                self.a
                    .vpgatherdd(ZMM[t].k5(), dword_ptr(r9 + ZMM[addr] + disp(k)?))?;
            }
        }
        self.a.jmp(done)?;
        self.a.set_label(&mut same)?;
        for (&(k, _), &t) in l.comps.iter().zip(&out) {
            self.a
                .vpbroadcastd(ZMM[t], dword_ptr(r9 + rax + disp(k)?))?;
        }
        self.a.jmp(done)?;
        self.a.set_label(&mut line)?;
        for (&(k, _), &t) in l.comps.iter().zip(&out) {
            self.a.vmovdqu32(ZMM[t], zmmword_ptr(r9 + rax + disp(k)?))?;
        }
        self.a.set_label(&mut done)?;
        let out: Vec<(u32, usize)> = l.comps.iter().map(|&(_, d)| d).zip(out).collect();
        self.release(addr);
        if let Some(off) = off {
            self.release(off);
        }
        self.write_all(out, masked)
    }

    /// Each `(row, value)` written as [`Emitter::write`] writes it, the
    /// values (held by the caller) then released.
    fn write_all(&mut self, out: Vec<(u32, usize)>, masked: bool) -> Result<(), Refused> {
        for (d, t) in out {
            self.write(d, t, masked)?;
            self.release(t);
        }
        Ok(())
    }
}
