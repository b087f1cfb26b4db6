//! Tests of the two seed instructions, `store_structured` and
//! `imm_atomic_cmp_exch` (`reference/sm5-compute-isa.md` §11.1, §12.1), run
//! from shaders that fxc compiled (`tests/shaders/*.hlsl`, with the `.dxbc`
//! and `.asm` fxc produced beside them).
//!
//! Expected buffers are computed here from the HLSL source and the spec (and,
//! where D3D leaves the result undefined, from the choices documented in
//! `sim-mem/src/addressing.rs`), never copied from a simulator run. Every
//! store/atomic test runs at warp widths 1, 32, the group size and an odd
//! width, on 8 worker threads, and expects the same result each time.

use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchOptions};
use std::path::{Path, PathBuf};

/// What the tests pre-fill memory with; a word still holding it was not written.
const SENT: u32 = 0xDEAD_BEEF;
/// What copy-out targets are pre-filled with; every such word must be overwritten.
const FILL: u32 = 0x5555_5555;

fn shader_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("shaders")
}

fn load(name: &str) -> Program {
    let path = shader_dir().join(format!("{name}.dxbc"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Program::from_dxbc(&bytes, &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{name}.dxbc does not load: {e}"))
}

fn opts(warp_width: usize) -> DispatchOptions {
    DispatchOptions {
        threads: 8,
        warp_width,
        ..Default::default()
    }
}

/// Warp widths every test runs at, for a group of `group` threads.
fn warp_widths(group: usize) -> [usize; 4] {
    [1, 7, 32, group]
}

fn structured<'a>(b: &'a Buffer, stride: u32) -> Option<BufferView<'a>> {
    Some(BufferView::structured(b, stride).unwrap())
}

/// Compare word by word so that a failure names the first wrong word.
fn assert_words(what: &str, got: &[u32], want: &[u32], words_per_elem: usize) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g,
            w,
            "{what}: word {i} (element {}, word {} in it): got {g:#010x}, want {w:#010x}",
            i / words_per_elem,
            i % words_per_elem
        );
    }
}

fn add4(base: [u32; 4], n: u32) -> [u32; 4] {
    base.map(|b| b.wrapping_add(n))
}

// ---------------------------------------------------------------------------
// store_structured: masks and swizzles
//
// struct S { float f; uint2 b; uint3 c; uint4 d; uint e; uint pad; }
// is 48 bytes, packed: f = word 0, b = 1..2, c = 3..5, d = 6..9, e = 10,
// pad = 11.

const S_WORDS: usize = 12;

/// The words of an S that the shaders' case `k` (thread index % 6) stores,
/// with r = base + id (componentwise, wrapping), in the order they are
/// stored. Straight from the HLSL:
/// k=0 f = r.z; k=1 b = r.yx; k=2 c = r.zzz; k=3 d = r.wzyx;
/// k=4 e = r.w, d = r; k=5 all of f, b, c, d (= r.wzyx), e.
fn s_case(k: u32, r: [u32; 4]) -> Vec<(usize, u32)> {
    let [x, y, z, w] = r;
    let f = vec![(0, z)];
    let b = vec![(1, y), (2, x)];
    let c = vec![(3, z), (4, z), (5, z)];
    let d_wzyx = vec![(6, w), (7, z), (8, y), (9, x)];
    match k {
        0 => f,
        1 => b,
        2 => c,
        3 => d_wzyx,
        4 => vec![(10, w), (6, x), (7, y), (8, z), (9, w)],
        5 => [f, b, c, d_wzyx, vec![(10, w)]].concat(),
        _ => unreachable!(),
    }
}

fn apply(elem: &mut [u32], writes: &[(usize, u32)]) {
    for &(i, v) in writes {
        elem[i] = v;
    }
}

fn s_cb(base: [u32; 4], fifth: u32) -> Vec<u32> {
    vec![base[0], base[1], base[2], base[3], fifth, 0, 0, 0]
}

#[test]
fn store_structured_uav_masks_swizzles_and_index_out_of_bounds() {
    let program = load("store_structured_uav");
    // w + id wraps for large ids: the iadd is part of what fxc emitted.
    let base = [0x1000_0000, 0x2000_0000, 0x3000_0000, 0xFFFF_FFC0];
    // (structures in the view, count): with count > structures, threads
    // structures..count-1 store at index >= structures and must write nothing.
    for (elems, count) in [(90u32, 100u32), (128, 70), (128, 128)] {
        let mut want = vec![SENT; elems as usize * S_WORDS];
        for t in 0..count.min(elems) {
            let at = t as usize * S_WORDS;
            apply(&mut want[at..at + S_WORDS], &s_case(t % 6, add4(base, t)));
        }
        // Every element up to min(count, elems) was stored; pad words never.
        for t in 0..count.min(elems) as usize {
            assert_eq!(want[t * S_WORDS + 11], SENT);
        }
        let cb = s_cb(base, count);
        for ww in warp_widths(64) {
            let out = Buffer::from_words(&vec![SENT; elems as usize * S_WORDS]);
            let b = Bindings {
                constant_buffers: vec![Some(&cb[..])],
                srvs: vec![],
                uavs: vec![structured(&out, 48)],
                ..Default::default()
            };
            let stats = dispatch(&program, &b, [2, 1, 1], &opts(ww)).unwrap();
            assert_eq!(stats.threads, 128);
            assert_words(
                &format!("u0 elems={elems} count={count} warp={ww}"),
                &out.to_words(),
                &want,
                S_WORDS,
            );
        }
    }
}

#[test]
fn store_structured_uav_each_mask_writes_exactly_its_words() {
    // Independent of the model above: the words each case may touch, by
    // member layout (f:0, b:1-2, c:3-5, d:6-9, e:10) — a store with mask .x,
    // .xy, .xyz or .xyzw must write that many consecutive words and no others.
    let program = load("store_structured_uav");
    let base = [0x0101_0101, 0x0202_0202, 0x0303_0303, 0x0404_0404];
    let cb = s_cb(base, 6);
    let out = Buffer::from_words(&[SENT; 6 * S_WORDS]);
    let b = Bindings {
        constant_buffers: vec![Some(&cb[..])],
        srvs: vec![],
        uavs: vec![structured(&out, 48)],
        ..Default::default()
    };
    dispatch(&program, &b, [1, 1, 1], &opts(32)).unwrap();
    let w = out.to_words();
    let e = |t: usize| &w[t * S_WORDS..(t + 1) * S_WORDS];
    let s = SENT;
    // t=0, .x at byte 0 from r.z
    assert_eq!(e(0), [0x0303_0303, s, s, s, s, s, s, s, s, s, s, s]);
    // t=1, .xy at byte 4 from r.yx
    assert_eq!(
        e(1),
        [s, 0x0202_0203, 0x0101_0102, s, s, s, s, s, s, s, s, s]
    );
    // t=2, .xyz at byte 12 from r.zzz
    let z = 0x0303_0305;
    assert_eq!(e(2), [s, s, s, z, z, z, s, s, s, s, s, s]);
    // t=3, .xyzw at byte 24 from r.wzyx
    assert_eq!(
        e(3),
        [
            s,
            s,
            s,
            s,
            s,
            s,
            0x0404_0407,
            0x0303_0306,
            0x0202_0205,
            0x0101_0104,
            s,
            s
        ]
    );
    // t=4, .x at byte 40 from r.w, .xyzw at byte 24 from r.xyzw
    assert_eq!(
        e(4),
        [
            s,
            s,
            s,
            s,
            s,
            s,
            0x0101_0105,
            0x0202_0206,
            0x0303_0307,
            0x0404_0408,
            0x0404_0408,
            s
        ]
    );
    // t=5, everything but pad
    let [x, y, z, ww] = add4(base, 5);
    assert_eq!(e(5), [z, y, x, z, z, z, ww, z, y, x, ww, s]);
}

#[test]
fn store_structured_tgsm_masks_swizzles_and_index_out_of_bounds() {
    let program = load("store_structured_tgsm");
    let base = [0xA000_0000, 0xB000_0000, 0xC000_0000, 0xFFFF_FF00];
    let groups = 3u32;
    // shift 0: every thread stores in bounds. shift 40: threads 24..63 store at
    // index 64..103 >= 64, which must reach neither gs nor guard (g1, declared
    // right after gs). shift 0x8000_0000: everything out of bounds, and
    // 48 * index wraps to 0 in 32 bits, so a 32-bit address would land in gs[0].
    for shift in [0u32, 40, 0x8000_0000] {
        let mut want = vec![SENT; (groups * 64) as usize * S_WORDS];
        for g in 0..groups {
            for t in 0..64u32 {
                // gs[t] was stored by thread j = t - shift, if any.
                let Some(j) = t.checked_sub(shift) else {
                    continue;
                };
                let at = (g * 64 + t) as usize * S_WORDS;
                apply(
                    &mut want[at..at + S_WORDS],
                    &s_case(j % 6, add4(base, g * 64 + j)),
                );
            }
        }
        let mut want_guard = Vec::new();
        for _ in 0..groups {
            for t in 0..16 {
                want_guard.extend([
                    0x6000_0000 + t,
                    0x6100_0000 + t,
                    0x6200_0000 + t,
                    0x6300_0000 + t,
                ]);
            }
        }
        let cb = s_cb(base, shift);
        for ww in warp_widths(64) {
            let out = Buffer::from_words(&vec![FILL; want.len()]);
            let guard = Buffer::from_words(&vec![FILL; want_guard.len()]);
            let b = Bindings {
                constant_buffers: vec![Some(&cb[..])],
                srvs: vec![],
                uavs: vec![structured(&out, 48), structured(&guard, 16)],
                ..Default::default()
            };
            let stats = dispatch(&program, &b, [groups, 1, 1], &opts(ww)).unwrap();
            assert_eq!(stats.groups, groups as u64);
            assert_words(
                &format!("gs copy shift={shift:#x} warp={ww}"),
                &out.to_words(),
                &want,
                S_WORDS,
            );
            assert_words(
                &format!("guard copy shift={shift:#x} warp={ww}"),
                &guard.to_words(),
                &want_guard,
                4,
            );
        }
    }
}

// ---------------------------------------------------------------------------
// store_structured: run-time byte offsets past the stride
//
// struct T { uint3 a[2]; uint y; } is 28 bytes (7 words); a[j] is at byte
// offset 12 * j (fxc: imul, wrapping). Thread n stores uint3(w, x + 1, x)
// (= uint3(x, x+1, w).zyx) at (index i, offset 12 j).

const T_WORDS: usize = 7;
const T_ELEMS: u32 = 4;

/// (i, j, x, w) per thread.
const OFFSET_CASES: [[u32; 4]; 8] = [
    [0, 0, 0x100, 0xA00],           // in bounds: words 0..2
    [1, 1, 0x200, 0xB00],           // in bounds, offset 12: words 10..12
    [2, 2, 0x300, 0xC00],           // offset 24: y of elem 2 (word 20), then words 21, 22 (elem 3)
    [3, 2, 0x400, 0xD00], // last elem, offset 24: word 27; words 28, 29 are outside: dropped
    [T_ELEMS, 0, 0x500, 0xE00], // index = count: dropped
    [0, 1000, 0x600, 0xE10], // offset 12000: outside: dropped
    [1, 3, 0x700, 0xF00], // offset 36: flat bytes 64.. = words 16..18 (elem 2)
    [2, 0xFFFF_FFFF, 0x800, 0xF10], // offset 0xFFFF_FFF4: dropped (a 32-bit sum would hit word 11)
];

/// The view/region after the stores, per the documented choice: a dword is
/// written at its flat byte address `28 i + offset + 4 k` when that lies
/// inside the `T_ELEMS`-structure view/region and `i < T_ELEMS`.
fn offset_expected() -> Vec<u32> {
    let size = T_ELEMS as u64 * 28;
    let mut m = vec![SENT; T_ELEMS as usize * T_WORDS];
    for [i, j, x, w] in OFFSET_CASES {
        if i >= T_ELEMS {
            continue;
        }
        let offset = j.wrapping_mul(12) as u64;
        for (k, v) in [w, x.wrapping_add(1), x].into_iter().enumerate() {
            let addr = 28 * i as u64 + offset + 4 * k as u64;
            if addr + 4 <= size {
                m[(addr / 4) as usize] = v;
            }
        }
    }
    m
}

#[test]
fn offset_expectation_matches_the_hand_worked_cases() {
    // The helper above, checked against the comments on OFFSET_CASES.
    let m = offset_expected();
    let mut want = vec![SENT; 28];
    want[0..3].copy_from_slice(&[0xA00, 0x101, 0x100]);
    want[10..13].copy_from_slice(&[0xB00, 0x201, 0x200]);
    want[20..23].copy_from_slice(&[0xC00, 0x301, 0x300]);
    want[27] = 0xD00;
    want[16..19].copy_from_slice(&[0xF00, 0x701, 0x700]);
    assert_eq!(m, want);
}

#[test]
fn store_structured_uav_byte_offset_out_of_bounds() {
    let program = load("store_structured_uav_offset");
    let cases: Vec<u32> = OFFSET_CASES.concat();
    let srv = Buffer::from_words(&cases);
    let cb = [OFFSET_CASES.len() as u32, 0, 0, 0];
    let want = offset_expected();
    for ww in warp_widths(8) {
        let out = Buffer::from_words(&[SENT; T_ELEMS as usize * T_WORDS]);
        let b = Bindings {
            constant_buffers: vec![Some(&cb[..])],
            srvs: vec![structured(&srv, 16)],
            uavs: vec![structured(&out, 28)],
            ..Default::default()
        };
        dispatch(&program, &b, [1, 1, 1], &opts(ww)).unwrap();
        assert_words(&format!("u0 warp={ww}"), &out.to_words(), &want, T_WORDS);
    }
}

#[test]
fn store_structured_tgsm_byte_offset_out_of_bounds() {
    let program = load("store_structured_tgsm_offset");
    let cases: Vec<u32> = OFFSET_CASES.concat();
    let srv = Buffer::from_words(&cases);
    let want = offset_expected();
    // guard_out[n] = guard[(n + 1) % 8], guard[m] = 0x0700_0000 + m.
    let want_guard: Vec<u32> = (0..8).map(|n| 0x0700_0000 + (n + 1) % 8).collect();
    for ww in warp_widths(8) {
        let out = Buffer::from_words(&[FILL; T_ELEMS as usize * T_WORDS]);
        let guard = Buffer::from_words(&[FILL; 8]);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![structured(&srv, 16)],
            uavs: vec![structured(&out, 28), structured(&guard, 4)],
            ..Default::default()
        };
        dispatch(&program, &b, [1, 1, 1], &opts(ww)).unwrap();
        assert_words(
            &format!("gs copy warp={ww}"),
            &out.to_words(),
            &want,
            T_WORDS,
        );
        assert_words(
            &format!("guard warp={ww}"),
            &guard.to_words(),
            &want_guard,
            1,
        );
    }
}

// ---------------------------------------------------------------------------
// imm_atomic_cmp_exch: returned originals, equal and unequal compares

/// (memory word before, compare, value).
const CMP_CASES: [[u32; 3]; 16] = [
    [5, 5, 9],                               // equal: exchanged
    [5, 6, 9],                               // unequal: kept
    [0x8000_0000, 0x0000_0000, 1],           // memory -0.0, compare +0.0: bits differ, kept
    [0x0000_0000, 0x8000_0000, 1],           // memory +0.0, compare -0.0: kept
    [0x8000_0000, 0x8000_0000, 2],           // -0.0 vs -0.0: exchanged
    [0x7FC0_0000, 0x7FC0_0000, 3],           // identical NaN bits: exchanged
    [0x7FC0_0000, 0x7FC0_0001, 3],           // different NaN bits: kept
    [0xFFFF_FFFF, 0xFFFF_FFFF, 0],           // exchanged to 0
    [0x3F80_0000, 0x3F80_0001, 7],           // one ulp apart: kept
    [0, 0, 0x8000_0000],                     // exchanged, stores -0.0 bits
    [0x1234_5678, 0x1234_5678, 0x1234_5678], // exchanged with itself
    [0x1234_5678, 0x9234_5678, 4],           // differs only in bit 31: kept
    [1, 0xFFFF_FFFF, 4],                     // 1 vs -1: kept
    [1, 1, 0xFFFF_FFFF],                     // exchanged to -1
    [0xDEAD_BEEF, 0xDEAD_BEEF, 0xCAFE_F00D], // exchanged
    [0xCAFE_F00D, 0xDEAD_BEEF, 0],           // kept
];

#[test]
fn imm_atomic_cmp_exch_returns_the_original_on_uav_and_tgsm() {
    let program = load("cmp_exch");
    let groups = 2u32;
    let n = (groups * 64) as usize;
    // Case d = CMP_CASES[d % 16], with the value varied per repetition so that
    // each thread's stored word is its own.
    let cases: Vec<[u32; 3]> = (0..n)
        .map(|d| {
            let [m, c, v] = CMP_CASES[d % 16];
            [m, c, v ^ ((d as u32 / 16) << 24)]
        })
        .collect();
    let srv_words: Vec<u32> = cases.iter().flat_map(|&[m, c, v]| [m, c, v, 0]).collect();
    // Spec §12.1: old = m; if old == compare (bits) { m = value }; dst0 = old.
    let after: Vec<u32> = cases
        .iter()
        .map(|&[m, c, v]| if m == c { v } else { m })
        .collect();
    let exchanged = cases.iter().filter(|&&[m, c, _]| m == c).count();
    assert_eq!(
        exchanged,
        n / 16 * 8,
        "the table has 8 equal and 8 unequal compares"
    );
    let init: Vec<u32> = cases.iter().map(|c| c[0]).collect();
    let want_st2: Vec<u32> = after.iter().flat_map(|&a| [SENT, a]).collect();
    // results[d] = (o_raw, o_st2, o_st1, o_g, g_after): every original is the
    // word before the operation, exchanged or not.
    let want_results: Vec<u32> = (0..n)
        .flat_map(|d| [init[d], init[d], init[d], init[d], after[d]])
        .collect();
    for ww in warp_widths(64) {
        let raw = Buffer::from_words(&init);
        let st2 = Buffer::from_words(&init.iter().flat_map(|&m| [SENT, m]).collect::<Vec<_>>());
        let st1 = Buffer::from_words(&init);
        let results = Buffer::from_words(&vec![FILL; n * 5]);
        let srv = Buffer::from_words(&srv_words);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![structured(&srv, 16)],
            uavs: vec![
                Some(BufferView::raw(&raw)),
                structured(&st2, 8),
                structured(&results, 20),
                structured(&st1, 4),
            ],
            ..Default::default()
        };
        dispatch(&program, &b, [groups, 1, 1], &opts(ww)).unwrap();
        assert_words(&format!("raw u0 warp={ww}"), &raw.to_words(), &after, 1);
        assert_words(
            &format!("structured<uint2>.y u1 warp={ww}"),
            &st2.to_words(),
            &want_st2,
            2,
        );
        assert_words(
            &format!("structured<uint> u3 warp={ww}"),
            &st1.to_words(),
            &after,
            1,
        );
        assert_words(
            &format!("results u2 warp={ww}"),
            &results.to_words(),
            &want_results,
            5,
        );
    }
}

#[test]
fn imm_atomic_cmp_exch_signed_zero_does_not_exchange() {
    // The -0.0 / +0.0 cases by themselves, spelled out.
    let program = load("cmp_exch");
    let mut cases = vec![[0u32, 0, 0, 0]; 64];
    cases[0] = [0x8000_0000, 0, 0x1111_1111, 0];
    cases[1] = [0, 0x8000_0000, 0x2222_2222, 0];
    cases[2] = [0, 0, 0x3333_3333, 0];
    let srv = Buffer::from_words(&cases.concat());
    let init: Vec<u32> = cases.iter().map(|c| c[0]).collect();
    let raw = Buffer::from_words(&init);
    let st2 = Buffer::zeroed(64 * 8).unwrap();
    st2.write_words(0, &init.iter().flat_map(|&m| [0, m]).collect::<Vec<_>>())
        .unwrap();
    let st1 = Buffer::from_words(&init);
    let results = Buffer::zeroed(64 * 20).unwrap();
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![structured(&srv, 16)],
        uavs: vec![
            Some(BufferView::raw(&raw)),
            structured(&st2, 8),
            structured(&results, 20),
            structured(&st1, 4),
        ],
        ..Default::default()
    };
    dispatch(&program, &b, [1, 1, 1], &opts(32)).unwrap();
    let r = results.to_words();
    assert_eq!(
        raw.load(0),
        Some(0x8000_0000),
        "-0.0 in memory, +0.0 compare"
    );
    assert_eq!(raw.load(1), Some(0), "+0.0 in memory, -0.0 compare");
    assert_eq!(raw.load(2), Some(0x3333_3333), "+0.0 == +0.0");
    assert_eq!(st2.load(1), Some(0x8000_0000));
    assert_eq!(st2.load(3), Some(0));
    assert_eq!(st2.load(5), Some(0x3333_3333));
    assert_eq!(st1.load(0), Some(0x8000_0000));
    assert_eq!(st1.load(1), Some(0));
    assert_eq!(st1.load(2), Some(0x3333_3333));
    assert_eq!(
        r[0..5],
        [
            0x8000_0000,
            0x8000_0000,
            0x8000_0000,
            0x8000_0000,
            0x8000_0000
        ]
    );
    assert_eq!(r[5..10], [0, 0, 0, 0, 0]);
    assert_eq!(r[10..15], [0, 0, 0, 0, 0x3333_3333]);
}

// ---------------------------------------------------------------------------
// CAS hammer

fn hammer(groups: u32, per_thread: u32, warp_width: usize) {
    let program = load("cas_hammer");
    let threads = groups * 64;
    let total = threads * per_thread;
    let counter = Buffer::zeroed(3 * 4).unwrap();
    // Slack past `total`: an original >= total would be a lost or doubled
    // increment and lands there (or is dropped), never in 0..total.
    let won = Buffer::zeroed((total as usize + 64) * 4).unwrap();
    let cb = [per_thread, 0, 0, 0];
    let b = Bindings {
        constant_buffers: vec![Some(&cb[..])],
        srvs: vec![],
        uavs: vec![Some(BufferView::raw(&counter)), structured(&won, 4)],
        ..Default::default()
    };
    let stats = dispatch(&program, &b, [groups, 1, 1], &opts(warp_width)).unwrap();
    assert_eq!(stats.groups, groups as u64);
    assert_eq!(stats.threads, threads as u64);
    let c = counter.to_words();
    let what = format!("{groups} groups x 64, {per_thread} each, warp {warp_width}");
    assert_eq!(c[1], total, "{what}: successful exchanges counted");
    assert_eq!(c[0], c[1], "{what}: final value == successful exchanges");
    assert_eq!(c[2], total, "{what}: sum of the groupshared counters");
    let w = won.to_words();
    for (v, &n) in w.iter().enumerate() {
        let want = u32::from(v < total as usize);
        assert_eq!(n, want, "{what}: original {v} was won {n} times");
    }
}

#[test]
fn cas_hammer_8_workers_warp_32() {
    hammer(256, 4, 32);
}

#[test]
fn cas_hammer_8_workers_warp_1() {
    hammer(256, 4, 1);
}

#[test]
fn cas_hammer_8_workers_warp_64() {
    hammer(256, 4, 64);
}

#[test]
fn cas_hammer_8_workers_odd_warp() {
    hammer(97, 3, 7);
}

// ---------------------------------------------------------------------------
// The committed listings hold the instruction forms the tests are about.

#[test]
fn fxc_listings_show_the_tested_forms() {
    let forms: [(&str, &[&str]); 6] = [
        (
            "store_structured_uav",
            &[
                "store_structured u0.x, vThreadID.x, l(0), r0.z",
                "store_structured u0.xy, vThreadID.x, l(4), r0.yxyy",
                "store_structured u0.xyz, vThreadID.x, l(12), r0.zzzz",
                "store_structured u0.xyzw, vThreadID.x, l(24), r0.wzyx",
                "store_structured u0.x, vThreadID.x, l(40), r0.w",
                "store_structured u0.xyzw, vThreadID.x, l(0), r0.zyxz",
                "store_structured u0.xyzw, vThreadID.x, l(16), r0.zzwz",
                "store_structured u0.xyz, vThreadID.x, l(32), r0.yxwy",
            ],
        ),
        (
            "store_structured_tgsm",
            &[
                "dcl_tgsm_structured g0, 48, 64",
                "dcl_tgsm_structured g1, 16, 16",
                "store_structured g0.x, r0.z, l(0), r1.y",
                "store_structured g0.xy, r0.z, l(4), r1.zwzz",
                "store_structured g0.xyz, r0.z, l(12), r1.yyyy",
                "store_structured g0.xyzw, r0.z, l(0), r1.yzwy",
                "store_structured g0.xyzw, r0.z, l(24), r2.xyzw",
            ],
        ),
        (
            "store_structured_uav_offset",
            &["store_structured u0.xyz, r0.x, r0.y, r1.xyzx"],
        ),
        (
            "store_structured_tgsm_offset",
            &[
                "dcl_tgsm_structured g0, 28, 4",
                "dcl_tgsm_structured g1, 4, 8",
                "store_structured g0.xyz, r1.x, r0.y, r2.xyzx",
            ],
        ),
        (
            "cmp_exch",
            &[
                "imm_atomic_cmp_exch r1.x, u0, r0.x, r0.y, r0.z",
                "imm_atomic_cmp_exch r1.y, u1, r2.xyxx, r0.y, r0.z",
                "imm_atomic_cmp_exch r1.z, u3, r2.zwzz, r0.y, r0.z",
                "imm_atomic_cmp_exch r1.w, g0, r2.xyxx, r0.y, r0.z",
            ],
        ),
        (
            "cas_hammer",
            &[
                "imm_atomic_cmp_exch r2.x, u0, l(0), r1.x, r1.y",
                "imm_atomic_cmp_exch r2.x, g0, l(0), r1.x, r1.y",
            ],
        ),
    ];
    for (name, lines) in forms {
        let asm = std::fs::read_to_string(shader_dir().join(format!("{name}.asm"))).unwrap();
        for line in lines {
            assert!(
                asm.lines().any(|l| l.trim() == *line),
                "{name}.asm lacks `{line}`"
            );
        }
    }
}
