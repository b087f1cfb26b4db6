//! The block, in Rust: per-lane semantics (D3D-style: inputs a, b flushed,
//! float results flushed (blind NaN), min/max returning the non-NaN operand
//! with -0 < +0, unfused mul then add), a fused loop over lanes, and the
//! interpreter's shape (one pass over rows per DXBC instruction).

pub const STRIDE: usize = 512; // u32 words per row (one warp of 512 lanes)
pub const NIN: usize = 6;
pub const NOUT: usize = 4; // rows 6..10
pub const NTMP: usize = 12; // interpreter-style temporaries, rows 10..22
pub const NROWS: usize = NIN + NOUT + NTMP;

#[inline(always)]
pub fn mask(b: bool) -> u32 {
    (b as u32).wrapping_neg()
}
#[inline(always)]
pub fn ftz(x: u32) -> u32 {
    let z = mask(x & 0x7f80_0000 == 0);
    x & !(z & 0x7fff_ffff)
}
#[inline(always)]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}
#[inline(always)]
fn sel(m: u32, a: u32, b: u32) -> u32 {
    (a & m) | (b & !m)
}
#[inline(always)]
pub fn dmin(a: u32, b: u32) -> u32 {
    let (fa, fb) = (f(a), f(b));
    let r = sel(mask(fa < fb), a, sel(mask(fb < fa), b, a | b));
    let r = sel(mask(fb.is_nan()), a, r);
    sel(mask(fa.is_nan()), b, r)
}
#[inline(always)]
pub fn dmax(a: u32, b: u32) -> u32 {
    let (fa, fb) = (f(a), f(b));
    let r = sel(mask(fa > fb), a, sel(mask(fb > fa), b, a & b));
    let r = sel(mask(fb.is_nan()), a, r);
    sel(mask(fa.is_nan()), b, r)
}

/// One lane of the block: 6 input words -> 4 output words.
#[inline(always)]
pub fn lane(x: [u32; NIN]) -> [u32; NOUT] {
    let a = ftz(x[0]);
    let b = ftz(x[1]);
    let (c, d) = (x[2], x[3]); // known flushed
    let p = ftz((f(a) * f(b)).to_bits()); // mul
    let q = ftz((f(p) + f(c)).to_bits()); // add
    let r = ftz((f(q) * f(d)).to_bits()); // mul
    let m = dmin(r, a); // min
    let n = dmax(q, b); // max
    let t = mask(f(m) < f(n)); // lt
    let s = sel(t, m, n); // movc
    let i = x[4].wrapping_add(x[5]); // iadd
    let j = i & 0xff; // and
    let k = j << 2; // ishl
    let l = k.wrapping_add(x[4]); // iadd
    let l2 = l ^ t; // xor
    [s, l2, m, n]
}

/// Fused: one pass over the lanes, values in registers.
#[inline(never)]
pub fn fused(rows: &mut [u32], lanes: usize) {
    let (inp, out) = rows.split_at_mut(NIN * STRIDE);
    let i0 = &inp[0..lanes];
    let i1 = &inp[STRIDE..STRIDE + lanes];
    let i2 = &inp[2 * STRIDE..2 * STRIDE + lanes];
    let i3 = &inp[3 * STRIDE..3 * STRIDE + lanes];
    let i4 = &inp[4 * STRIDE..4 * STRIDE + lanes];
    let i5 = &inp[5 * STRIDE..5 * STRIDE + lanes];
    let (o0, rest) = out.split_at_mut(STRIDE);
    let (o1, rest) = rest.split_at_mut(STRIDE);
    let (o2, rest) = rest.split_at_mut(STRIDE);
    let o3 = &mut rest[..STRIDE];
    let (o0, o1, o2, o3) = (&mut o0[..lanes], &mut o1[..lanes], &mut o2[..lanes], &mut o3[..lanes]);
    for l in 0..lanes {
        let y = lane([i0[l], i1[l], i2[l], i3[l], i4[l], i5[l]]);
        o0[l] = y[0];
        o1[l] = y[1];
        o2[l] = y[2];
        o3[l] = y[3];
    }
}

/// One row pass: dst[l] = op(src rows).
#[inline(always)]
fn pass1(rows: &mut [u32], d: usize, a: usize, lanes: usize, op: impl Fn(u32) -> u32) {
    for l in 0..lanes {
        rows[d * STRIDE + l] = op(rows[a * STRIDE + l]);
    }
}
#[inline(always)]
fn pass2(rows: &mut [u32], d: usize, a: usize, b: usize, lanes: usize, op: impl Fn(u32, u32) -> u32) {
    assert!(lanes <= STRIDE && (d.max(a).max(b) + 1) * STRIDE <= rows.len());
    for l in 0..lanes {
        let v = op(rows[a * STRIDE + l], rows[b * STRIDE + l]);
        rows[d * STRIDE + l] = v;
    }
}
#[inline(always)]
fn pass3(rows: &mut [u32], d: usize, a: usize, b: usize, c: usize, lanes: usize, op: impl Fn(u32, u32, u32) -> u32) {
    assert!(lanes <= STRIDE && (d.max(a).max(b).max(c) + 1) * STRIDE <= rows.len());
    for l in 0..lanes {
        let v = op(rows[a * STRIDE + l], rows[b * STRIDE + l], rows[c * STRIDE + l]);
        rows[d * STRIDE + l] = v;
    }
}

// each DXBC instruction is its own (non-inlined) row kernel, as in the interpreter
macro_rules! k2 { ($name:ident, |$x:ident, $y:ident| $e:expr) => {
    #[inline(never)] fn $name(rows: &mut [u32], d: usize, a: usize, b: usize, lanes: usize) { pass2(rows, d, a, b, lanes, |$x, $y| $e) }
}}
k2!(k_mul_ff, |x, y| ftz((f(ftz(x)) * f(ftz(y))).to_bits()));
k2!(k_add, |x, y| ftz((f(x) + f(y)).to_bits()));
k2!(k_mul, |x, y| ftz((f(x) * f(y)).to_bits()));
k2!(k_min_f, |x, y| dmin(x, ftz(y)));
k2!(k_max_f, |x, y| dmax(x, ftz(y)));
k2!(k_lt, |x, y| mask(f(x) < f(y)));
k2!(k_iadd, |x, y| x.wrapping_add(y));
k2!(k_xor, |x, y| x ^ y);
#[inline(never)] fn k_and_ff(rows: &mut [u32], d: usize, a: usize, lanes: usize) { pass1(rows, d, a, lanes, |x| x & 0xff) }
#[inline(never)] fn k_shl2(rows: &mut [u32], d: usize, a: usize, lanes: usize) { pass1(rows, d, a, lanes, |x| x << 2) }
#[inline(never)] fn k_movc(rows: &mut [u32], d: usize, t: usize, a: usize, b: usize, lanes: usize) { pass3(rows, d, t, a, b, lanes, sel) }

/// Interpreter shape: 12 passes, one per instruction, through rows.
/// (No dispatch, masks or operand decoding: a lower bound on the interpreter.)
#[inline(never)]
pub fn per_instruction(rows: &mut [u32], lanes: usize) {
    const T: usize = NIN + NOUT; // temporaries
    k_mul_ff(rows, T, 0, 1, lanes); // p
    k_add(rows, T + 1, T, 2, lanes); // q
    k_mul(rows, T + 2, T + 1, 3, lanes); // r
    k_min_f(rows, 8, T + 2, 0, lanes); // m -> o2
    k_max_f(rows, 9, T + 1, 1, lanes); // n -> o3
    k_lt(rows, T + 3, 8, 9, lanes); // t
    k_movc(rows, 6, T + 3, 8, 9, lanes); // s -> o0
    k_iadd(rows, T + 4, 4, 5, lanes); // i
    k_and_ff(rows, T + 5, T + 4, lanes); // j
    k_shl2(rows, T + 6, T + 5, lanes); // k
    k_iadd(rows, T + 7, T + 6, 4, lanes); // l
    k_xor(rows, 7, T + 7, T + 3, lanes); // l2 -> o1
}

// Superinstructions: the same 12 instructions as 3 fused row passes
// (mul-add-mul, min-max-lt-movc, iadd-and-shl-iadd-xor), intermediates that
// stay live written back to rows (as a generic fuser must, unless liveness
// says they are dead; here p, q, r, i, j, k, l are dead, t is read by xor).
#[inline(never)]
fn s_mam(rows: &mut [u32], lanes: usize) {
    const T: usize = NIN + NOUT;
    pass3(rows, T + 2, 0, 1, 2, lanes, |a, b, c| {
        let p = ftz((f(ftz(a)) * f(ftz(b))).to_bits());
        ftz((f(p) + f(c)).to_bits())
    });
    // q is needed by max too, so this shape writes q; then r in a second pass
    // would be another pass; keep q in T+2 and r computed in the next pass.
}
#[inline(never)]
fn s_minmax(rows: &mut [u32], lanes: usize) {
    const T: usize = NIN + NOUT;
    // rows: q = T+2, d = 3, a = 0, b = 1 -> m (8), n (9), s (6), t (T+3)
    assert!(lanes <= STRIDE && rows.len() >= NROWS * STRIDE);
    for l in 0..lanes {
        let q = rows[(T + 2) * STRIDE + l];
        let d = rows[3 * STRIDE + l];
        let a = ftz(rows[l]);
        let b = ftz(rows[STRIDE + l]);
        let r = ftz((f(q) * f(d)).to_bits());
        let m = dmin(r, a);
        let n = dmax(q, b);
        let t = mask(f(m) < f(n));
        rows[8 * STRIDE + l] = m;
        rows[9 * STRIDE + l] = n;
        rows[(T + 3) * STRIDE + l] = t;
        rows[6 * STRIDE + l] = sel(t, m, n);
    }
}
#[inline(never)]
fn s_int(rows: &mut [u32], lanes: usize) {
    const T: usize = NIN + NOUT;
    pass3(rows, 7, 4, 5, T + 3, lanes, |x4, x5, t| ((x4.wrapping_add(x5) & 0xff) << 2).wrapping_add(x4) ^ t);
}
#[inline(never)]
pub fn superinstructions(rows: &mut [u32], lanes: usize) {
    s_mam(rows, lanes);
    s_minmax(rows, lanes);
    s_int(rows, lanes);
}

// ---- the loop of interp/block.asm: per lane, ITERS iterations of the
// 12-instruction block with its results fed back (a, b, x5 carried) ----

pub const ITERS: usize = 2000;

#[inline(always)]
pub fn iter_lane(s: [u32; NIN]) -> [u32; NIN] {
    let a = ftz(s[0]);
    let b = ftz(s[1]);
    let (c, d) = (s[2], s[3]);
    let p = ftz((f(a) * f(b)).to_bits());
    let q = ftz((f(p) + f(c)).to_bits());
    let r = ftz((f(q) * f(d)).to_bits());
    let m = dmin(r, a);
    let n = dmax(q, b);
    let t = mask(f(m) < f(n));
    let a2 = sel(t, m, n);
    let x5 = (((s[4].wrapping_add(s[5])) & 0xff) << 2).wrapping_add(s[4]) ^ t;
    [a2, n, c, d, s[4], x5]
}

/// Rust, lanes in chunks of W, state in locals: rows 0..6 in, rows 6,7,8 = a, b, x5 out.
#[inline(always)]
fn loop_rows_w<const W: usize>(rows: &mut [u32], lanes: usize, iters: usize) {
    assert!(lanes % W == 0 && lanes <= STRIDE && rows.len() >= 9 * STRIDE);
    for base in (0..lanes).step_by(W) {
        let mut st: [[u32; W]; NIN] = std::array::from_fn(|k| std::array::from_fn(|l| rows[k * STRIDE + base + l]));
        for _ in 0..iters {
            for l in 0..W {
                let y = iter_lane([st[0][l], st[1][l], st[2][l], st[3][l], st[4][l], st[5][l]]);
                st[0][l] = y[0];
                st[1][l] = y[1];
                st[5][l] = y[5];
            }
        }
        for l in 0..W {
            rows[6 * STRIDE + base + l] = st[0][l];
            rows[7 * STRIDE + base + l] = st[1][l];
            rows[8 * STRIDE + base + l] = st[5][l];
        }
    }
}
#[inline(never)]
pub fn loop_rows_16(rows: &mut [u32], lanes: usize, iters: usize) { loop_rows_w::<16>(rows, lanes, iters) }
#[inline(never)]
pub fn loop_rows_64(rows: &mut [u32], lanes: usize, iters: usize) { loop_rows_w::<64>(rows, lanes, iters) }

/// The reference for a lane of the loop.
pub fn loop_lane(x: [u32; NIN], iters: usize) -> [u32; 3] {
    let mut s = x;
    for _ in 0..iters {
        s = iter_lane(s);
    }
    [s[0], s[1], s[5]]
}

// ---- test data, shared by both binaries ----

pub fn rng(s: &mut u64) -> u32 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    (*s >> 16) as u32
}

pub fn fill(rows: &mut [u32], special: bool) {
    // DATA=normal: block.asm's inputs (a = 0.001 t, b = 0.002 t, c = 1, d = 0.999,
    // x4 = x5 = t for lane t), which make no denormal; otherwise random floats
    // of which about 1 in 11 is tiny (products underflow: denormal results).
    if !special && std::env::var("DATA").as_deref() == Ok("normal") {
        for l in 0..STRIDE {
            let t = (l + 1000) as f32;
            let v = [(t * 0.001).to_bits(), (t * 0.002).to_bits(), 1f32.to_bits(), 0.999f32.to_bits(), l as u32, l as u32];
            for k in 0..NIN {
                rows[k * STRIDE + l] = v[k];
            }
        }
        return;
    }
    let mut s = 0x9e3779b97f4a7c15u64;
    let sp = [0u32, 0x8000_0000, 1, 0x8000_0001, 0x007f_ffff, 0x7fc0_0000, 0xffc0_0001, 0x7f80_0000, 0xff80_0000, 0x3f80_0000, 0xbf80_0000, 0x0080_0000];
    for (k, w) in rows.iter_mut().enumerate() {
        let r = rng(&mut s);
        let row = k / STRIDE;
        *w = if special && r % 5 == 0 {
            sp[(r as usize / 7) % sp.len()]
        } else if row < 4 {
            // floats in a moderate range, some tiny (to hit flushing)
            let e = if r % 11 == 0 { 1 + (r >> 8) % 8 } else { 110 + (r >> 8) % 30 };
            (r & 0x8000_0000) | (e << 23) | (r & 0x7f_ffff)
        } else {
            r
        };
    }
}


/// Fraction of the loop's float results (mul, add, mul per iteration) that are
/// denormal before the flush, over `lanes` lanes and `iters` iterations.
pub fn denormal_rate(rows: &[u32], lanes: usize, iters: usize) -> f64 {
    let den = |x: f32| x != 0.0 && x.is_subnormal();
    let (mut n, mut d) = (0u64, 0u64);
    for l in 0..lanes {
        let mut s: [u32; NIN] = std::array::from_fn(|k| rows[k * STRIDE + l]);
        for _ in 0..iters {
            let (a, b) = (ftz(s[0]), ftz(s[1]));
            let p = f(a) * f(b);
            let q = f(ftz(p.to_bits())) + f(s[2]);
            let r = f(ftz(q.to_bits())) * f(s[3]);
            d += den(p) as u64 + den(q) as u64 + den(r) as u64;
            n += 3;
            s = iter_lane(s);
        }
    }
    d as f64 / n as f64
}

// ---- "staying in Rust", generically: a pre-decoded op list run over a
// chunk of CH lanes at a time, registers as [u32; CH] arrays in a small
// chunk-local register file (L1-resident), one match per op per chunk ----

#[derive(Clone, Copy, Debug)]
pub enum Op {
    FMulFF(u8, u8, u8), // d = fo(fin(a) * fin(b))
    FAdd(u8, u8, u8),   // d = fo(a + b)     (sources known flushed)
    FMul(u8, u8, u8),   // d = fo(a * b)
    MinF(u8, u8, u8),   // d = dmin(a, fin(b))
    MaxF(u8, u8, u8),   // d = dmax(a, fin(b))
    Lt(u8, u8, u8),
    Movc(u8, u8, u8, u8),
    IAdd(u8, u8, u8),
    AndI(u8, u8, u32),
    ShlI(u8, u8, u32),
    Xor(u8, u8, u8),
}

/// The loop body of block.asm: regs 0..6 = a, b, c, d, x4, x5; 6.. temporaries.
pub const ITER_OPS: [Op; 12] = [
    Op::FMulFF(8, 0, 1),
    Op::FAdd(8, 8, 2),
    Op::FMul(9, 8, 3),
    Op::MinF(10, 9, 0),
    Op::MaxF(1, 8, 1),
    Op::Lt(11, 10, 1),
    Op::Movc(0, 11, 10, 1),
    Op::IAdd(12, 4, 5),
    Op::AndI(12, 12, 0xff),
    Op::ShlI(12, 12, 2),
    Op::IAdd(12, 12, 4),
    Op::Xor(5, 12, 11),
];

#[inline(always)]
fn un<const CH: usize>(r: &mut [[u32; CH]; 16], d: u8, a: u8, op: impl Fn(u32) -> u32) {
    let x = r[a as usize & 15];
    let mut o = [0u32; CH];
    for l in 0..CH {
        o[l] = op(x[l]);
    }
    r[d as usize & 15] = o;
}
#[inline(always)]
fn bin<const CH: usize>(r: &mut [[u32; CH]; 16], d: u8, a: u8, b: u8, op: impl Fn(u32, u32) -> u32) {
    let (x, y) = (r[a as usize & 15], r[b as usize & 15]);
    let mut o = [0u32; CH];
    for l in 0..CH {
        o[l] = op(x[l], y[l]);
    }
    r[d as usize & 15] = o;
}

#[inline(always)]
pub fn run_ops<const CH: usize>(r: &mut [[u32; CH]; 16], ops: &[Op]) {
    for &op in ops {
        match op {
            Op::FMulFF(d, a, b) => bin(r, d, a, b, |x, y| ftz((f(ftz(x)) * f(ftz(y))).to_bits())),
            Op::FAdd(d, a, b) => bin(r, d, a, b, |x, y| ftz((f(x) + f(y)).to_bits())),
            Op::FMul(d, a, b) => bin(r, d, a, b, |x, y| ftz((f(x) * f(y)).to_bits())),
            Op::MinF(d, a, b) => bin(r, d, a, b, |x, y| dmin(x, ftz(y))),
            Op::MaxF(d, a, b) => bin(r, d, a, b, |x, y| dmax(x, ftz(y))),
            Op::Lt(d, a, b) => bin(r, d, a, b, |x, y| mask(f(x) < f(y))),
            Op::Movc(d, t, a, b) => {
                let (tt, x, y) = (r[t as usize & 15], r[a as usize & 15], r[b as usize & 15]);
                let mut o = [0u32; CH];
                for l in 0..CH {
                    o[l] = sel(tt[l], x[l], y[l]);
                }
                r[d as usize & 15] = o;
            }
            Op::IAdd(d, a, b) => bin(r, d, a, b, |x, y| x.wrapping_add(y)),
            Op::AndI(d, a, k) => un(r, d, a, |x| x & k),
            Op::ShlI(d, a, k) => un(r, d, a, |x| x << (k & 31)),
            Op::Xor(d, a, b) => bin(r, d, a, b, |x, y| x ^ y),
        }
    }
}

#[inline(always)]
fn chunked_loop_w<const CH: usize>(rows: &mut [u32], lanes: usize, iters: usize, ops: &[Op]) {
    assert!(lanes % CH == 0 && lanes <= STRIDE && rows.len() >= 9 * STRIDE);
    for base in (0..lanes).step_by(CH) {
        let mut r = [[0u32; CH]; 16];
        for k in 0..NIN {
            r[k].copy_from_slice(&rows[k * STRIDE + base..k * STRIDE + base + CH]);
        }
        for _ in 0..iters {
            run_ops(&mut r, ops);
        }
        for (o, k) in [(6, 0), (7, 1), (8, 5)] {
            rows[o * STRIDE + base..o * STRIDE + base + CH].copy_from_slice(&r[k]);
        }
    }
}
#[inline(never)]
pub fn chunked_loop_16(rows: &mut [u32], lanes: usize, iters: usize) { chunked_loop_w::<16>(rows, lanes, iters, black_box_ops()) }
#[inline(never)]
pub fn chunked_loop_64(rows: &mut [u32], lanes: usize, iters: usize) { chunked_loop_w::<64>(rows, lanes, iters, black_box_ops()) }
#[inline(never)]
pub fn chunked_loop_128(rows: &mut [u32], lanes: usize, iters: usize) { chunked_loop_w::<128>(rows, lanes, iters, black_box_ops()) }
/// the op list as runtime data (so that the compiler cannot specialise on it)
fn black_box_ops() -> &'static [Op] {
    std::hint::black_box(&ITER_OPS[..])
}
