//! A region's machine code, by Cranelift (the choice and its measurements:
//! `docs/performance.md`, "A compiled tier: which code generator"): one
//! function per form (full warp, partial warp under the mask) that steps
//! over the lanes four at a time (128-bit vectors, the widest Cranelift's
//! x86-64 back end lowers) and keeps the rows the region touches in
//! registers between its instructions: each row is loaded at its first
//! read and stored once, after the last instruction. The lane rules are
//! `crate::isa::lanes`' (see `compiled.rs`); each is spelled out below
//! where it is emitted.

use super::{Instr, Region, Src};
use crate::isa::lanes::CANONICAL_NAN;
use crate::isa::opcodes::AluOp;
use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Endianness, Function as ClifFunction, InstBuilder, MemFlagsData, Signature,
    Type, UserFuncName, Value,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use std::collections::HashMap;
use std::sync::OnceLock;

const I4: Type = types::I32X4;
const F4: Type = types::F32X4;

/// The host's code generator: Cranelift's x86-64 (or other) back end for
/// the CPU this runs on, optimising for speed; `None` where Cranelift has
/// no back end for it.
fn host() -> Option<&'static OwnedTargetIsa> {
    static ISA: OnceLock<Option<OwnedTargetIsa>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()
    })
    .as_ref()
}

/// Why a region has no code.
#[derive(Debug)]
pub(in crate::exec) struct Refused(#[allow(dead_code)] String);

/// The code of `r` for a partial warp (`masked`: each write blended under
/// the mask, unless the instruction is unmasked) or a full one: a function
/// of `super::Function`'s signature that stands alone (no relocation).
pub(in crate::exec) fn compile(r: &Region, masked: bool) -> Result<Vec<u8>, Refused> {
    let isa = host().ok_or_else(|| Refused("no code generator for this CPU".into()))?;
    let ptr = isa.pointer_type();
    let mut sig = Signature::new(isa.default_call_conv());
    // (the sixth, the TGSM arena, is for loads, which this generator
    // does not take)
    for _ in 0..6 {
        sig.params.push(AbiParam::new(ptr));
    }
    let mut func = ClifFunction::with_name_signature(UserFuncName::default(), sig);
    let mut fbc = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let entry = b.create_block();
        let body = b.create_block();
        let exit = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.append_block_param(body, ptr);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (arena, mask, uni, lo, hi) = (p[0], p[1], p[2], p[3], p[4]);
        let mut e = Emitter {
            b,
            consts: HashMap::new(),
            uni: Vec::new(),
            rows: HashMap::new(),
            dirty: Vec::new(),
            base: arena,
            mask: None,
        };
        // the uniforms and the constants, once, before the loop
        for k in 0..r.uniforms.len() {
            let v = e.b.ins().load(types::I32, flags(), uni, (4 * k) as i32);
            let v = e.b.ins().splat(I4, v);
            e.uni.push(v);
        }
        for i in &r.instrs {
            for v in &i.values {
                for s in &v.src {
                    if let Src::Const(c) = *s {
                        e.konst(c);
                    }
                }
            }
        }
        for c in [0, 0x7f80_0000, 0x7fff_ffff, CANONICAL_NAN, 1.0f32.to_bits()] {
            e.konst(c);
        }
        let any = e.b.ins().icmp(IntCC::UnsignedLessThan, lo, hi);
        e.b.ins().brif(any, body, &[lo.into()], exit, &[]);
        e.b.switch_to_block(body);
        let lane = e.b.block_params(body)[0];
        let off = e.b.ins().ishl_imm_u(lane, 2);
        e.base = e.b.ins().iadd(arena, off);
        if masked {
            let at = e.b.ins().iadd(mask, off);
            e.mask = Some(e.b.ins().load(I4, flags(), at, 0));
        }
        for i in &r.instrs {
            if i.load.is_some() {
                return Err(Refused(
                    "a TGSM load (the AVX-512 generator's alone)".into(),
                ));
            }
            e.instr(i, masked)?;
        }
        for k in 0..e.dirty.len() {
            let o = e.dirty[k];
            // (a dirty row has a value: `instr` maps it before marking it)
            let v = e.rows[&o];
            let base = e.base;
            e.b.ins().store(flags(), v, base, offset(o)?);
        }
        let next = e.b.ins().iadd_imm_u(lane, 4);
        let more = e.b.ins().icmp(IntCC::UnsignedLessThan, next, hi);
        e.b.ins().brif(more, body, &[next.into()], exit, &[]);
        e.b.switch_to_block(exit);
        e.b.ins().return_(&[]);
        e.b.seal_all_blocks();
        e.b.finalize(isa.frontend_config());
    }
    let mut ctx = Context::for_function(func);
    let code = ctx
        .compile(&**isa, &mut ControlPlane::default())
        .map_err(|e| Refused(format!("{:?}", e.inner)))?;
    // the code must stand alone: no call out and no address to patch
    if !code.buffer.relocs().is_empty() {
        return Err(Refused("the code calls out (a libcall)".into()));
    }
    Ok(code.code_buffer().to_vec())
}

/// Loads and stores of rows: no trap (the caller promises the rows), not
/// known aligned (16-byte vectors at 4-word offsets of a 64-byte aligned
/// arena are, but a non-VEX encoding that folds an aligned load would
/// fault where that fails).
fn flags() -> MemFlagsData {
    let mut f = MemFlagsData::new();
    f.set_notrap();
    f
}

/// Byte offset of row `o` (words) from the lane's base.
fn offset(o: u32) -> Result<i32, Refused> {
    i32::try_from(u64::from(o) * 4).map_err(|_| Refused("a row beyond 2 GiB".into()))
}

struct Emitter<'a> {
    b: FunctionBuilder<'a>,
    /// splatted constants, made in the entry block
    consts: HashMap<u32, Value>,
    /// splatted uniforms
    uni: Vec<Value>,
    /// each row's current four lanes, once read or written
    rows: HashMap<u32, Value>,
    /// the rows written, in the order first written
    dirty: Vec<u32>,
    /// the address of this step's lane 0 of the arena
    base: Value,
    /// this step's mask words (the masked form)
    mask: Option<Value>,
}

impl Emitter<'_> {
    fn konst(&mut self, c: u32) -> Value {
        if let Some(&v) = self.consts.get(&c) {
            return v;
        }
        let s = self.b.ins().iconst(types::I32, i64::from(c as i32));
        let v = self.b.ins().splat(I4, s);
        self.consts.insert(c, v);
        v
    }

    fn row(&mut self, o: u32) -> Result<Value, Refused> {
        if let Some(&v) = self.rows.get(&o) {
            return Ok(v);
        }
        let at = offset(o)?;
        let v = self.b.ins().load(I4, flags(), self.base, at);
        self.rows.insert(o, v);
        Ok(v)
    }

    fn src(&mut self, s: Src) -> Result<Value, Refused> {
        Ok(match s {
            Src::Const(c) => self.konst(c),
            Src::Uniform(k) => self.uni[k as usize],
            Src::Row(o, bits) => {
                // `SrcBits::apply`: ((v & and) ^ xor) + add
                let mut v = self.row(o)?;
                if bits.and != !0 {
                    let m = self.konst(bits.and);
                    v = self.b.ins().band(v, m);
                }
                if bits.xor != 0 {
                    let m = self.konst(bits.xor);
                    v = self.b.ins().bxor(v, m);
                }
                if bits.add != 0 {
                    let m = self.konst(bits.add);
                    v = self.b.ins().iadd(v, m);
                }
                v
            }
        })
    }

    fn as_float(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(
            F4,
            MemFlagsData::new().with_endianness(Endianness::Little),
            x,
        )
    }

    fn as_int(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(
            I4,
            MemFlagsData::new().with_endianness(Endianness::Little),
            x,
        )
    }

    /// `ftz`: a zero exponent keeps only the sign.
    fn ftz(&mut self, x: Value) -> Value {
        let (exp, abs, zero) = (
            self.konst(0x7f80_0000),
            self.konst(0x7fff_ffff),
            self.konst(0),
        );
        let e = self.b.ins().band(x, exp);
        let z = self.b.ins().icmp(IntCC::Equal, e, zero);
        let clear = self.b.ins().band(z, abs);
        self.b.ins().band_not(x, clear)
    }

    /// `fin`, as a float vector: flushed unless the instruction's sources
    /// are known flushed.
    fn fin(&mut self, x: Value, flushed: bool) -> Value {
        let x = if flushed { x } else { self.ftz(x) };
        self.as_float(x)
    }

    /// `fout` (or `fout_blind`): flushed, and a NaN the canonical one
    /// unless blind.
    fn fout(&mut self, r: Value, blind: bool) -> Value {
        let bits = self.as_int(r);
        let z = self.ftz(bits);
        if blind {
            return z;
        }
        let nan = self.b.ins().fcmp(FloatCC::Unordered, r, r);
        let canon = self.konst(CANONICAL_NAN);
        self.b.ins().bitselect(nan, canon, z)
    }

    /// `fin` of a product, as `run_dot` and `mad` round it: flushed, a NaN
    /// kept.
    fn product(&mut self, x: Value, y: Value, flushed: bool) -> Value {
        let (fx, fy) = (self.fin(x, flushed), self.fin(y, flushed));
        let p = self.b.ins().fmul(fx, fy);
        let p = self.as_int(p);
        let p = self.ftz(p);
        self.as_float(p)
    }

    /// D3D11's `min`/`max` of two flushed words (`lanes::fmin`/`fmax`):
    /// the operand that is not NaN; −0 below +0.
    fn min_max(&mut self, max: bool, a: Value, b: Value) -> Value {
        let (fa, fb) = (self.as_float(a), self.as_float(b));
        let (first, second) = match max {
            true => (FloatCC::GreaterThan, FloatCC::LessThan),
            false => (FloatCC::LessThan, FloatCC::GreaterThan),
        };
        let a_wins = self.b.ins().fcmp(first, fa, fb);
        let b_wins = self.b.ins().fcmp(second, fa, fb);
        // equal: ±0 (or the same value): max takes +0, min −0
        let tie = match max {
            true => self.b.ins().band(a, b),
            false => self.b.ins().bor(a, b),
        };
        let r = self.b.ins().bitselect(b_wins, b, tie);
        let r = self.b.ins().bitselect(a_wins, a, r);
        let b_nan = self.b.ins().fcmp(FloatCC::Unordered, fb, fb);
        let r = self.b.ins().bitselect(b_nan, a, r);
        let a_nan = self.b.ins().fcmp(FloatCC::Unordered, fa, fa);
        self.b.ins().bitselect(a_nan, b, r)
    }

    /// `sat`: 0 for NaN and ≤ 0, 1.0 for ≥ 1, else the word flushed.
    fn sat(&mut self, x: Value) -> Value {
        let z = self.ftz(x);
        let f = self.as_float(z);
        let (zero, one) = (self.konst(0), self.konst(1.0f32.to_bits()));
        let (fzero, fone) = (self.as_float(zero), self.as_float(one));
        let low = self
            .b
            .ins()
            .fcmp(FloatCC::UnorderedOrLessThanOrEqual, f, fzero);
        let high = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, f, fone);
        let r = self.b.ins().bitselect(high, one, z);
        self.b.ins().bitselect(low, zero, r)
    }

    /// One value of `i` from its sources' words (`s`).
    fn value(&mut self, i: &Instr, s: &[Value]) -> Result<Value, Refused> {
        use AluOp::*;
        let (fl, blind) = (i.flushed, i.blind);
        Ok(match i.op {
            Add | Mul | Div => {
                let (x, y) = (self.fin(s[0], fl), self.fin(s[1], fl));
                let r = match i.op {
                    Add => self.b.ins().fadd(x, y),
                    Mul => self.b.ins().fmul(x, y),
                    _ => self.b.ins().fdiv(x, y),
                };
                self.fout(r, blind)
            }
            Mad => {
                // the product rounded and flushed, not fused
                let p = self.product(s[0], s[1], fl);
                let z = self.fin(s[2], fl);
                let r = self.b.ins().fadd(p, z);
                self.fout(r, blind)
            }
            Min | Max => {
                let (a, b) = match fl {
                    true => (s[0], s[1]),
                    false => (self.ftz(s[0]), self.ftz(s[1])),
                };
                let r = self.min_max(i.op == Max, a, b);
                let r = self.as_float(r);
                self.fout(r, blind)
            }
            Eq | Ne | Lt | Ge => {
                let (x, y) = (self.fin(s[0], fl), self.fin(s[1], fl));
                let cc = match i.op {
                    Eq => FloatCC::Equal,
                    // `!=` holds for NaN
                    Ne => FloatCC::NotEqual,
                    Lt => FloatCC::LessThan,
                    _ => FloatCC::GreaterThanOrEqual,
                };
                self.b.ins().fcmp(cc, x, y)
            }
            Sqrt | Rcp | Rsq | RoundNe | RoundNi | RoundPi | RoundZ => {
                let x = self.fin(s[0], fl);
                let r = match i.op {
                    Sqrt => self.b.ins().sqrt(x),
                    Rcp | Rsq => {
                        let one = self.konst(1.0f32.to_bits());
                        let one = self.as_float(one);
                        let d = match i.op {
                            Rsq => self.b.ins().sqrt(x),
                            _ => x,
                        };
                        self.b.ins().fdiv(one, d)
                    }
                    RoundNe => self.b.ins().nearest(x),
                    RoundNi => self.b.ins().floor(x),
                    RoundPi => self.b.ins().ceil(x),
                    _ => self.b.ins().trunc(x),
                };
                self.fout(r, blind)
            }
            // an integer converts to a float exactly or rounded, never to
            // a NaN or a denormal: `fout` changes nothing
            Itof => {
                let r = self.b.ins().fcvt_from_sint(F4, s[0]);
                self.as_int(r)
            }
            Utof => {
                let r = self.b.ins().fcvt_from_uint(F4, s[0]);
                self.as_int(r)
            }
            // Rust's `as`: saturating, NaN to 0
            Ftoi => {
                let x = self.fin(s[0], fl);
                self.b.ins().fcvt_to_sint_sat(I4, x)
            }
            Ftou => {
                let x = self.fin(s[0], fl);
                self.b.ins().fcvt_to_uint_sat(I4, x)
            }
            Mov => s[0],
            Movc => {
                let zero = self.konst(0);
                let m = self.b.ins().icmp(IntCC::NotEqual, s[0], zero);
                self.b.ins().bitselect(m, s[1], s[2])
            }
            Iadd => self.b.ins().iadd(s[0], s[1]),
            Imad => {
                let p = self.b.ins().imul(s[0], s[1]);
                self.b.ins().iadd(p, s[2])
            }
            Imax => self.b.ins().smax(s[0], s[1]),
            Imin => self.b.ins().smin(s[0], s[1]),
            Umax => self.b.ins().umax(s[0], s[1]),
            Umin => self.b.ins().umin(s[0], s[1]),
            Ineg => self.b.ins().ineg(s[0]),
            Ieq | Ine | Ilt | Ige | Ult | Uge => {
                let cc = match i.op {
                    Ieq => IntCC::Equal,
                    Ine => IntCC::NotEqual,
                    Ilt => IntCC::SignedLessThan,
                    Ige => IntCC::SignedGreaterThanOrEqual,
                    Ult => IntCC::UnsignedLessThan,
                    _ => IntCC::UnsignedGreaterThanOrEqual,
                };
                self.b.ins().icmp(cc, s[0], s[1])
            }
            And => self.b.ins().band(s[0], s[1]),
            Or => self.b.ins().bor(s[0], s[1]),
            Xor => self.b.ins().bxor(s[0], s[1]),
            Not => self.b.ins().bnot(s[0]),
            Ishl | Ishr | Ushr => {
                // the amount is an immediate (`supported`): `y & 31`
                return Err(Refused("a shift's amount is not an immediate".into()));
            }
            Dp2 | Dp3 | Dp4 => {
                // `run_dot`: products and partial sums flushed (a NaN
                // kept), the last sum `fout`
                let terms = s.len() / 2;
                let mut acc = self.product(s[0], s[1], fl);
                for t in 1..terms {
                    let p = self.product(s[2 * t], s[2 * t + 1], fl);
                    let sum = self.b.ins().fadd(acc, p);
                    if t + 1 == terms {
                        return Ok(self.fout(sum, blind));
                    }
                    let sum = self.as_int(sum);
                    let sum = self.ftz(sum);
                    acc = self.as_float(sum);
                }
                return Err(Refused("a dot product of one term".into()));
            }
            _ => return Err(Refused(format!("{:?} has no compiled form", i.op))),
        })
    }

    /// Emits `i`: every value from the rows as they are before it, then
    /// each written (blended under the mask when `masked` and the
    /// instruction is not unmasked), then `_sat`.
    fn instr(&mut self, i: &Instr, masked: bool) -> Result<(), Refused> {
        let mut out = Vec::with_capacity(i.values.len());
        for v in &i.values {
            let r = match (i.op, &v.src[..]) {
                (AluOp::Ishl | AluOp::Ishr | AluOp::Ushr, &[x, Src::Const(c)]) => {
                    let x = self.src(x)?;
                    let amount = self.b.ins().iconst(types::I32, i64::from(c & 31));
                    match i.op {
                        AluOp::Ishl => self.b.ins().ishl(x, amount),
                        AluOp::Ishr => self.b.ins().sshr(x, amount),
                        _ => self.b.ins().ushr(x, amount),
                    }
                }
                _ => {
                    let s = v
                        .src
                        .iter()
                        .map(|&s| self.src(s))
                        .collect::<Result<Vec<_>, _>>()?;
                    self.value(i, &s)?
                }
            };
            let r = if i.sat { self.sat(r) } else { r };
            out.push((v, r));
        }
        for (v, r) in out {
            for &d in &v.dst {
                let new = match (masked && !i.unmasked, self.mask) {
                    (true, Some(m)) => {
                        let old = self.row(d)?;
                        self.b.ins().bitselect(m, r, old)
                    }
                    _ => r,
                };
                self.rows.insert(d, new);
                if !self.dirty.contains(&d) {
                    self.dirty.push(d);
                }
            }
        }
        Ok(())
    }
}
