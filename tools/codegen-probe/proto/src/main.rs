//! Cranelift prototype for sm5sim: a JIT'd row kernel for a straight-line
//! block of 12 DXBC-like instructions over a warp's rows, against Rust.
mod kern;
use kern::{NIN, NROWS, STRIDE};

use cranelift_codegen::control::ControlPlane;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, AbiParam, Endianness, InstBuilder, MemFlagsData, Value};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use std::hint::black_box;
use std::time::Instant;

const I4: types::Type = types::I32X4;
const F4: types::Type = types::F32X4;

fn isa(opt: &str) -> OwnedTargetIsa {
    let mut fb = settings::builder();
    fb.set("opt_level", opt).unwrap();
    cranelift_native::builder().unwrap().finish(settings::Flags::new(fb)).unwrap()
}

struct B<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    ops: usize, // CLIF instructions emitted for the block (not counting bitcasts/constants)
}
impl B<'_, '_> {
    fn k(&mut self, c: u32) -> Value {
        let s = self.b.ins().iconst(types::I32, c as i64);
        self.b.ins().splat(I4, s)
    }
    fn tf(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(F4, MemFlagsData::new().with_endianness(Endianness::Little), x)
    }
    fn ti(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(I4, MemFlagsData::new().with_endianness(Endianness::Little), x)
    }
    fn ftz(&mut self, x: Value) -> Value {
        let (e, m) = (self.k(0x7f80_0000), self.k(0x7fff_ffff));
        let z0 = self.k(0);
        let ex = self.b.ins().band(x, e);
        let z = self.b.ins().icmp(IntCC::Equal, ex, z0);
        let clr = self.b.ins().band(z, m);
        self.ops += 4;
        self.b.ins().band_not(x, clr)
    }
    fn fbin(&mut self, mul: bool, x: Value, y: Value) -> Value {
        let (fx, fy) = (self.tf(x), self.tf(y));
        let r = if mul { self.b.ins().fmul(fx, fy) } else { self.b.ins().fadd(fx, fy) };
        self.ops += 1;
        let r = self.ti(r);
        self.ftz(r)
    }
    fn fcmp(&mut self, cc: FloatCC, x: Value, y: Value) -> Value {
        let (fx, fy) = (self.tf(x), self.tf(y));
        self.ops += 1;
        self.b.ins().fcmp(cc, fx, fy) // I32X4 mask
    }
    fn sel(&mut self, m: Value, a: Value, b: Value) -> Value {
        self.ops += 1;
        self.b.ins().bitselect(m, a, b)
    }
    /// D3D min/max: the non-NaN operand, -0 < +0 (as sm5sim's lanes.rs)
    fn dminmax(&mut self, max: bool, a: Value, b: Value) -> Value {
        let (c1, c2) = if max { (FloatCC::GreaterThan, FloatCC::LessThan) } else { (FloatCC::LessThan, FloatCC::GreaterThan) };
        let first = self.fcmp(c1, a, b);
        let second = self.fcmp(c2, a, b);
        let tie = if max { self.b.ins().band(a, b) } else { self.b.ins().bor(a, b) };
        self.ops += 1;
        let r = self.sel(second, b, tie);
        let r = self.sel(first, a, r);
        let bn = self.fcmp(FloatCC::Unordered, b, b);
        let r = self.sel(bn, a, r);
        let an = self.fcmp(FloatCC::Unordered, a, a);
        self.sel(an, b, r)
    }
}

/// The block for 4 lanes at `p` (row k at byte offset k * STRIDE * 4).
fn emit_block(bb: &mut B, p: Value) {
    let fl = MemFlagsData::trusted();
    let row = |k: usize| (k * STRIDE * 4) as i32;
    let x: Vec<Value> = (0..NIN).map(|k| { bb.ops += 1; bb.b.ins().load(I4, fl, p, row(k)) }).collect();
    let a = bb.ftz(x[0]);
    let b = bb.ftz(x[1]);
    let pr = bb.fbin(true, a, b);
    let q = bb.fbin(false, pr, x[2]);
    let r = bb.fbin(true, q, x[3]);
    let m = bb.dminmax(false, r, a);
    let n = bb.dminmax(true, q, b);
    let t = bb.fcmp(FloatCC::LessThan, m, n);
    let s = bb.sel(t, m, n);
    let i = bb.b.ins().iadd(x[4], x[5]);
    let ff = bb.k(0xff);
    let j = bb.b.ins().band(i, ff);
    let two = bb.b.ins().iconst(types::I32, 2);
    let kk = bb.b.ins().ishl(j, two);
    let l = bb.b.ins().iadd(kk, x[4]);
    let l2 = bb.b.ins().bxor(l, t);
    bb.ops += 5;
    for (o, v) in [(6, s), (7, l2), (8, m), (9, n)] {
        bb.ops += 1;
        bb.b.ins().store(fl, v, p, row(o));
    }
}

/// One iteration of the block.asm loop for 4 lanes (state a, b, c, d, x4, x5).
fn emit_iter(bb: &mut B, s: [Value; 6]) -> [Value; 6] {
    let a = bb.ftz(s[0]);
    let b = bb.ftz(s[1]);
    let pr = bb.fbin(true, a, b);
    let q = bb.fbin(false, pr, s[2]);
    let r = bb.fbin(true, q, s[3]);
    let m = bb.dminmax(false, r, a);
    let n = bb.dminmax(true, q, b);
    let t = bb.fcmp(FloatCC::LessThan, m, n);
    let a2 = bb.sel(t, m, n);
    let i = bb.b.ins().iadd(s[4], s[5]);
    let ff = bb.k(0xff);
    let j = bb.b.ins().band(i, ff);
    let two = bb.b.ins().iconst(types::I32, 2);
    let kk = bb.b.ins().ishl(j, two);
    let l = bb.b.ins().iadd(kk, s[4]);
    let x5 = bb.b.ins().bxor(l, t);
    bb.ops += 5;
    [a2, n, s[2], s[3], s[4], x5]
}

/// fn(rows, lanes): for each group of 4*unroll lanes, load the state, run
/// ITERS iterations with a, b, x5 carried in registers (block params), store.
fn build_loop_fn(ctx: &mut Context, fbc: &mut FunctionBuilderContext, tc: cranelift_codegen::isa::TargetFrontendConfig, unroll: usize) {
    let ptr = tc.pointer_type();
    let mut b = FunctionBuilder::new(&mut ctx.func, fbc);
    let entry = b.create_block();
    let outer = b.create_block();
    let inner = b.create_block();
    let after = b.create_block();
    let exit = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.append_block_param(outer, ptr);
    b.append_block_param(inner, types::I32);
    for _ in 0..3 * unroll { b.append_block_param(inner, I4); }
    for _ in 0..3 * unroll { b.append_block_param(after, I4); }
    b.switch_to_block(entry);
    let rows = b.block_params(entry)[0];
    let lanes = b.block_params(entry)[1];
    let zero = b.ins().iconst(ptr, 0);
    let nz = b.ins().icmp_imm_u(IntCC::NotEqual, lanes, 0);
    b.ins().brif(nz, outer, &[zero.into()], exit, &[]);
    // outer: load state
    b.switch_to_block(outer);
    let i = b.block_params(outer)[0];
    let off = b.ins().ishl_imm_u(i, 2);
    let p = b.ins().iadd(rows, off);
    let fl = MemFlagsData::trusted();
    let row = |k: usize, u: usize| (k * STRIDE * 4 + u * 16) as i32;
    let mut fixed = vec![]; // c, d, x4 per unroll
    let mut carried: Vec<cranelift_codegen::ir::BlockArg> = vec![];
    let k0 = b.ins().iconst(types::I32, 0);
    carried.push(k0.into());
    for u in 0..unroll {
        let v: Vec<Value> = (0..NIN).map(|k| b.ins().load(I4, fl, p, row(k, u))).collect();
        fixed.push([v[2], v[3], v[4]]);
        for x in [v[0], v[1], v[5]] { carried.push(x.into()); }
    }
    b.ins().jump(inner, &carried);
    // inner: ITERS iterations
    b.switch_to_block(inner);
    let prm: Vec<Value> = b.block_params(inner).to_vec();
    let mut bb = B { b: &mut b, ops: 0 };
    let mut next: Vec<cranelift_codegen::ir::BlockArg> = vec![];
    let k2 = bb.b.ins().iadd_imm_u(prm[0], 1);
    next.push(k2.into());
    let mut outv: Vec<cranelift_codegen::ir::BlockArg> = vec![];
    for u in 0..unroll {
        let st = [prm[1 + 3 * u], prm[2 + 3 * u], fixed[u][0], fixed[u][1], fixed[u][2], prm[3 + 3 * u]];
        let y = emit_iter(&mut bb, st);
        for x in [y[0], y[1], y[5]] { next.push(x.into()); outv.push(x.into()); }
    }
    let more = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, k2, kern::ITERS as i64);
    b.ins().brif(more, inner, &next, after, &outv);
    // after: store, next lane group
    b.switch_to_block(after);
    let av: Vec<Value> = b.block_params(after).to_vec();
    for u in 0..unroll {
        for (o, x) in [(6, av[3 * u]), (7, av[3 * u + 1]), (8, av[3 * u + 2])] {
            b.ins().store(fl, x, p, row(o, u));
        }
    }
    let i2 = b.ins().iadd_imm_u(i, 4 * unroll as i64);
    let more = b.ins().icmp(IntCC::UnsignedLessThan, i2, lanes);
    b.ins().brif(more, outer, &[i2.into()], exit, &[]);
    b.switch_to_block(exit);
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(tc);
}

fn jit_loop(unroll: usize) -> (JITModule, Kfn, String) {
    let mut m = JITModule::new(JITBuilder::with_isa(isa("speed"), default_libcall_names()));
    let mut ctx = m.make_context();
    ctx.func.signature = sig(&m);
    ctx.set_disasm(true);
    let mut fbc = FunctionBuilderContext::new();
    build_loop_fn(&mut ctx, &mut fbc, m.target_config(), unroll);
    let id = m.declare_function("loop", Linkage::Export, &ctx.func.signature).unwrap();
    m.define_function(id, &mut ctx).unwrap();
    let dis = ctx.compiled_code().and_then(|c| c.vcode.clone()).unwrap_or_default();
    m.finalize_definitions().unwrap();
    let f: Kfn = unsafe { std::mem::transmute(m.get_finalized_function(id)) };
    (m, f, dis)
}

fn check_loop(name: &str, f: &dyn Fn(&mut [u32], usize)) -> bool {
    let mut rows = vec![0u32; NROWS * STRIDE];
    fill(&mut rows, true);
    f(&mut rows, STRIDE);
    let mut ok = true;
    for l in 0..STRIDE {
        let x: [u32; NIN] = std::array::from_fn(|k| rows[k * STRIDE + l]);
        let y = kern::loop_lane(x, kern::ITERS);
        let got = [rows[6 * STRIDE + l], rows[7 * STRIDE + l], rows[8 * STRIDE + l]];
        if got != y {
            if ok { println!("MISMATCH {name} lane {l}: got {got:x?} want {y:x?}"); }
            ok = false;
        }
    }
    println!("check {name}: {}", if ok { "bit-exact vs loop_lane()" } else { "DIFFERS" });
    ok
}

/// ns per lane-iteration, (min, median) of 9 calls over 512 lanes.
fn bench_loop(f: &dyn Fn(&mut [u32], usize)) -> (f64, f64) {
    let mut rows = vec![0u32; NROWS * STRIDE];
    fill(&mut rows, false);
    let mut v = vec![];
    for _ in 0..9 {
        let t0 = Instant::now();
        f(black_box(&mut rows), STRIDE);
        v.push(t0.elapsed().as_secs_f64() * 1e9 / (STRIDE * kern::ITERS) as f64);
    }
    let med = median(&mut v);
    (v[0], med)
}

/// fn(rows: *mut u32, lanes: usize): for i in (0..lanes).step_by(4) { block(rows + i) }
/// With `callback`, also calls the imported Rust fn `cb(rows, i)` once per step.
fn build_fn(ctx: &mut Context, fbc: &mut FunctionBuilderContext, tc: cranelift_codegen::isa::TargetFrontendConfig, cb: Option<cranelift_codegen::ir::FuncRef>) -> usize {
    let ptr = tc.pointer_type();
    let mut b = FunctionBuilder::new(&mut ctx.func, fbc);
    let entry = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.append_block_param(body, ptr);
    b.switch_to_block(entry);
    let rows = b.block_params(entry)[0];
    let lanes = b.block_params(entry)[1];
    let zero = b.ins().iconst(ptr, 0);
    let nz = b.ins().icmp_imm_u(IntCC::NotEqual, lanes, 0);
    b.ins().brif(nz, body, &[zero.into()], exit, &[]);
    b.switch_to_block(body);
    let i = b.block_params(body)[0];
    let off = b.ins().ishl_imm_u(i, 2);
    let p = b.ins().iadd(rows, off);
    let mut bb = B { b: &mut b, ops: 0 };
    emit_block(&mut bb, p);
    let ops = bb.ops;
    if let Some(cb) = cb {
        b.ins().call(cb, &[rows, i]);
    }
    let i2 = b.ins().iadd_imm_u(i, 4);
    let more = b.ins().icmp(IntCC::UnsignedLessThan, i2, lanes);
    b.ins().brif(more, body, &[i2.into()], exit, &[]);
    b.switch_to_block(exit);
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(tc);
    ops
}

fn sig(m: &dyn Module) -> cranelift_codegen::ir::Signature {
    let ptr = m.target_config().pointer_type();
    let mut s = m.make_signature();
    s.params.push(AbiParam::new(ptr));
    s.params.push(AbiParam::new(ptr));
    s
}

static mut CB_COUNT: u64 = 0;
extern "C" fn cb(_rows: *mut u32, i: usize) {
    unsafe { CB_COUNT = CB_COUNT.wrapping_add(i as u64) };
}

type Kfn = unsafe extern "C" fn(*mut u32, usize);

fn jit(opt: &str, with_cb: bool, name: &str) -> (JITModule, Kfn, usize, String) {
    let mut jb = JITBuilder::with_isa(isa(opt), default_libcall_names());
    jb.symbol("cb", cb as *const u8);
    let mut m = JITModule::new(jb);
    let mut ctx = m.make_context();
    ctx.func.signature = sig(&m);
    ctx.set_disasm(true);
    let mut fbc = FunctionBuilderContext::new();
    let cbref = if with_cb {
        let cb_id = m.declare_function("cb", Linkage::Import, &sig(&m)).unwrap();
        Some(m.declare_func_in_func(cb_id, &mut ctx.func))
    } else {
        None
    };
    let ops = build_fn(&mut ctx, &mut fbc, m.target_config(), cbref);
    let id = m.declare_function(name, Linkage::Export, &ctx.func.signature).unwrap();
    m.define_function(id, &mut ctx).unwrap();
    let dis = ctx.compiled_code().and_then(|c| c.vcode.clone()).unwrap_or_default();
    m.finalize_definitions().unwrap();
    let f: Kfn = unsafe { std::mem::transmute(m.get_finalized_function(id)) };
    (m, f, ops, dis)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median microseconds: building the CLIF + Context::compile (codegen only).
fn bench_compile(opt: &str, n: usize) -> (f64, f64, usize) {
    let isa = isa(opt);
    let mut ctx = Context::new();
    let mut fbc = FunctionBuilderContext::new();
    let mut t_build = vec![];
    let mut t_all = vec![];
    let mut size = 0;
    for _ in 0..n {
        ctx.clear();
        let mut s = cranelift_codegen::ir::Signature::new(cranelift_codegen::isa::CallConv::SystemV);
        s.params.push(AbiParam::new(types::I64));
        s.params.push(AbiParam::new(types::I64));
        ctx.func.signature = s;
        let t0 = Instant::now();
        build_fn(&mut ctx, &mut fbc, isa.frontend_config(), None);
        let t1 = Instant::now();
        let code = ctx.compile(&*isa, &mut ControlPlane::default()).unwrap();
        size = code.code_buffer().len();
        let t2 = Instant::now();
        t_build.push((t1 - t0).as_secs_f64() * 1e6);
        t_all.push((t2 - t0).as_secs_f64() * 1e6);
    }
    (median(&mut t_build), median(&mut t_all), size)
}

/// Median microseconds of the whole JIT path: new function in a module,
/// define (compile + copy into executable memory) + finalize (mprotect).
fn bench_define(opt: &str, n: usize) -> f64 {
    let mut m = JITModule::new(JITBuilder::with_isa(isa(opt), default_libcall_names()));
    let mut ctx = m.make_context();
    let mut fbc = FunctionBuilderContext::new();
    let mut t = vec![];
    for k in 0..n {
        m.clear_context(&mut ctx);
        ctx.func.signature = sig(&m);
        let t0 = Instant::now();
        build_fn(&mut ctx, &mut fbc, m.target_config(), None);
        let id = m.declare_function(&format!("f{k}"), Linkage::Export, &ctx.func.signature).unwrap();
        m.define_function(id, &mut ctx).unwrap();
        m.finalize_definitions().unwrap();
        let p = m.get_finalized_function(id);
        black_box(p);
        t.push(t0.elapsed().as_secs_f64() * 1e6);
    }
    median(&mut t)
}

use kern::{fill, rng};

fn check(name: &str, f: &dyn Fn(&mut [u32], usize)) -> bool {
    let mut ok = true;
    for special in [false, true] {
        let mut rows = vec![0u32; NROWS * STRIDE];
        fill(&mut rows, special);
        let lanes = STRIDE;
        f(&mut rows, lanes);
        for l in 0..lanes {
            let x: [u32; NIN] = std::array::from_fn(|k| rows[k * STRIDE + l]);
            let y = kern::lane(x);
            for o in 0..4 {
                let got = rows[(NIN + o) * STRIDE + l];
                if got != y[o] {
                    if ok {
                        println!("MISMATCH {name} lane {l} out {o}: got {got:#x} want {:#x} in {x:x?}", y[o]);
                    }
                    ok = false;
                }
            }
        }
    }
    println!("check {name}: {}", if ok { "bit-exact vs lane()" } else { "DIFFERS" });
    ok
}

/// ns per lane, median of `reps` samples of `iters` calls over `lanes` lanes.
fn bench_run(f: &dyn Fn(&mut [u32], usize), lanes: usize) -> (f64, f64) {
    let mut rows = vec![0u32; NROWS * STRIDE];
    fill(&mut rows, false);
    let iters = 20000;
    let mut v = vec![];
    for _ in 0..15 {
        let t0 = Instant::now();
        for _ in 0..iters {
            f(black_box(&mut rows), black_box(lanes));
        }
        v.push(t0.elapsed().as_secs_f64() * 1e9 / (iters * lanes) as f64);
    }
    let med = median(&mut v);
    (v[0], med)
}

/// Multiply in Rust (default MXCSR) then flush, against mulss under
/// MXCSR FTZ|DAZ (inline asm): count differences over products near 2^-126.
fn ftz_experiment() {
    let mut s = 12345u64;
    let n = 1_000_000;
    let two126 = 2f64.powi(-126);
    let (mut diff, mut inwin, mut first) = (0, 0, None);
    for _ in 0..n {
        // b in [2^-126, 2^-125); a ~ T / b in [0.5, 1) so that a*b lands just
        // below 2^-126 (where rounding to a denormal and the unbounded-exponent
        // rounding that FTZ's tininess test uses disagree)
        let b = f32::from_bits(0x0080_0000 | (rng(&mut s) & 0x7f_ffff));
        let u = (rng(&mut s) as f64) / 4294967296.0; // [0,1)
        let t = two126 * (1.0 - (0.5 + u) * 2f64.powi(-24));
        let a = (t / b as f64) as f32;
        let exact = a as f64 * b as f64; // exact: 24 x 24 bits
        if exact / two126 > 1.0 - 2f64.powi(-24) && exact / two126 < 1.0 - 2f64.powi(-25) {
            inwin += 1;
        }
        let soft = kern::ftz((black_box(a) * black_box(b)).to_bits());
        let hard: u32;
        unsafe {
            let mut saved = 0u32;
            let mut r: f32 = a;
            let csr: u32 = 0x1f80 | 0x8040; // default masks + FTZ (bit 15) + DAZ (bit 6)
            std::arch::asm!(
                "stmxcsr [{sv}]",
                "ldmxcsr [{csr}]",
                "mulss {r}, {b}",
                "ldmxcsr [{sv}]",
                sv = in(reg) &mut saved,
                csr = in(reg) &csr,
                r = inout(xmm_reg) r,
                b = in(xmm_reg) b,
            );
            hard = r.to_bits();
        }
        if soft != hard {
            diff += 1;
            if first.is_none() {
                first = Some((a.to_bits(), b.to_bits(), soft, hard));
            }
        }
    }
    println!("FTZ experiment: {n} products a*b near 2^-126 ({inwin} with exact value in (1-2^-24, 1-2^-25)*2^-126): {diff} differ between Rust (round to denormal, then flush) and mulss under MXCSR FTZ|DAZ; first (a, b, soft, hard) = {first:x?}");
}

/// Does the x64 backend take 256-bit vectors?
fn try_wide() {
    for ty in [types::F32X8, types::I32X8, types::F32X16] {
        let isa = isa("speed");
        let mut ctx = Context::new();
        let mut fbc = FunctionBuilderContext::new();
        let mut s = cranelift_codegen::ir::Signature::new(cranelift_codegen::isa::CallConv::SystemV);
        s.params.push(AbiParam::new(types::I64));
        ctx.func.signature = s;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
            let e = b.create_block();
            b.append_block_params_for_function_params(e);
            b.switch_to_block(e);
            let p = b.block_params(e)[0];
            let v = b.ins().load(ty, MemFlagsData::trusted(), p, 0);
            let w = if ty.lane_type().is_float() { b.ins().fadd(v, v) } else { b.ins().iadd(v, v) };
            b.ins().store(MemFlagsData::trusted(), w, p, 64);
            b.ins().return_(&[]);
            b.seal_all_blocks();
            b.finalize(isa.frontend_config());
        }
        match ctx.compile(&*isa, &mut ControlPlane::default()) {
            Ok(c) => println!("{ty}: compiled, {} bytes", c.code_buffer().len()),
            Err(e) => println!("{ty}: error: {:?}", e.inner),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map(|s| s.as_str()).unwrap_or("all");
    let isa_s = isa("speed");
    println!("host isa flags: {}", isa_s.isa_flags().iter().filter(|f| f.as_bool() == Some(true)).map(|f| f.name).collect::<Vec<_>>().join(" "));

    let (_m, jf, ops, dis) = jit("speed", false, "k");
    let (_m2, jcb, _, _) = jit("speed", true, "kcb");
    let (_m3, jnone, _, dis_none) = jit("none", false, "kn");
    std::fs::write("disasm_speed.txt", &dis).ok();
    std::fs::write("disasm_none.txt", &dis_none).ok();
    println!("block: {ops} CLIF ops per 4 lanes (loads/stores included; bitcasts, constants excluded)");
    let run_jit = |f: Kfn| move |rows: &mut [u32], lanes: usize| unsafe { f(rows.as_mut_ptr(), lanes) };
    let mut ok = true;
    ok &= check("jit(speed)", &run_jit(jf));
    ok &= check("jit(none)", &run_jit(jnone));
    ok &= check("jit+callback", &run_jit(jcb));
    ok &= check("rust fused", &kern::fused);
    ok &= check("rust per-instruction", &kern::per_instruction);
    ok &= check("rust superinstructions", &kern::superinstructions);
    if !ok {
        println!("(mismatch)");
    }
    if what == "all" || what == "compile" {
        for opt in ["speed", "none"] {
            let n = 500;
            let (b, c, size) = bench_compile(opt, n);
            let d = bench_define(opt, n);
            println!("compile opt_level={opt}: median of {n}: build CLIF {b:.1} us, build+compile {c:.1} us ({size} bytes of code), build+define+finalize in JITModule {d:.1} us");
        }
        // bigger functions: the loop kernel, unrolled 1, 4, 8 times (58 CLIF ops per copy)
        for u in [1usize, 4, 8] {
            let isa = isa("speed");
            let mut ctx = Context::new();
            let mut fbc = FunctionBuilderContext::new();
            let mut t = vec![];
            let mut size = 0;
            let mut ninst = 0;
            for _ in 0..100 {
                ctx.clear();
                let mut s = cranelift_codegen::ir::Signature::new(cranelift_codegen::isa::CallConv::SystemV);
                s.params.push(AbiParam::new(types::I64));
                s.params.push(AbiParam::new(types::I64));
                ctx.func.signature = s;
                let t0 = Instant::now();
                build_loop_fn(&mut ctx, &mut fbc, isa.frontend_config(), u);
                ninst = ctx.func.dfg.num_insts();
                let code = ctx.compile(&*isa, &mut ControlPlane::default()).unwrap();
                size = code.code_buffer().len();
                t.push(t0.elapsed().as_secs_f64() * 1e6);
            }
            println!("compile loop kernel x{u}: {ninst} CLIF insts (all, incl. bitcasts/consts), {size} bytes, median of 100: {:.1} us", median(&mut t));
        }
    }
    if what == "all" || what == "run" {
        let mut rows = vec![0u32; NROWS * STRIDE];
        fill(&mut rows, false);
        println!("block data: {:.4}% of the block's float results are denormal before the flush", 100.0 * kern::denormal_rate(&rows, STRIDE, 1));
        for lanes in [512usize, 64] {
            println!("run, {lanes} lanes per call (ns per lane; min and median of 15 samples of 20000 calls):");
            { let (mn, md) = bench_run(&run_jit(jf), lanes); println!("  jit cranelift (speed)       min {mn:.3}  median {md:.3}"); }
            { let (mn, md) = bench_run(&run_jit(jnone), lanes); println!("  jit cranelift (none)        min {mn:.3}  median {md:.3}"); }
            { let (mn, md) = bench_run(&run_jit(jcb), lanes); println!("  jit + Rust callback / 4 ln  min {mn:.3}  median {md:.3}"); }
            { let (mn, md) = bench_run(&kern::fused, lanes); println!("  rust fused                  min {mn:.3}  median {md:.3}"); }
            { let (mn, md) = bench_run(&kern::per_instruction, lanes); println!("  rust per-instruction passes min {mn:.3}  median {md:.3}"); }
            { let (mn, md) = bench_run(&kern::superinstructions, lanes); println!("  rust 3 superinstructions    min {mn:.3}  median {md:.3}"); }
        }
    }
    if what == "all" || what == "loop" {
        let rust16 = |r: &mut [u32], l: usize| kern::loop_rows_16(r, l, kern::ITERS);
        let rust64 = |r: &mut [u32], l: usize| kern::loop_rows_64(r, l, kern::ITERS);
        check_loop("rust loop, 16-lane chunks", &rust16);
        check_loop("rust loop, 64-lane chunks", &rust64);
        let mut keep = vec![];
        for u in [1usize, 2, 4] {
            let (m, f, dis) = jit_loop(u);
            std::fs::write(format!("disasm_loop_u{u}.txt"), &dis).ok();
            println!("jit loop unroll {u}: {} spill/reload-looking lines (rsp/rbp) in disasm", dis.lines().filter(|l| l.contains("(%rsp)") || l.contains("(%rbp)")).count());
            check_loop(&format!("jit loop x{u}"), &run_jit(f));
            keep.push((u, m, f));
        }
        let mut rows = vec![0u32; NROWS * STRIDE];
        fill(&mut rows, false);
        println!("loop data: {:.4}% of the loop's float results are denormal before the flush", 100.0 * kern::denormal_rate(&rows, STRIDE, kern::ITERS));
        println!("loop of the block, {} iterations, 512 lanes (ns per lane-iteration; min, median of 9):", kern::ITERS);
        for (u, _, f) in &keep {
            let (a, b) = bench_loop(&run_jit(*f));
            println!("  jit cranelift, {:2} lanes/iter    {a:.3}  {b:.3}", 4 * u);
        }
        let (a, b) = bench_loop(&rust16);
        println!("  rust, 16-lane chunks          {a:.3}  {b:.3}");
        let (a, b) = bench_loop(&rust64);
        println!("  rust, 64-lane chunks          {a:.3}  {b:.3}");
        for (name, f) in [("op list, 16-lane chunks", kern::chunked_loop_16 as fn(&mut [u32], usize, usize)), ("op list, 64-lane chunks", kern::chunked_loop_64), ("op list, 128-lane chunks", kern::chunked_loop_128)] {
            let g = |r: &mut [u32], l: usize| f(r, l, kern::ITERS);
            check_loop(name, &g);
            let (a, b) = bench_loop(&g);
            println!("  rust {name:25}{a:.3}  {b:.3}");
        }
    }
    if what == "all" || what == "misc" {
        try_wide();
        ftz_experiment();
    }
}
