//! Conformance tests by instruction family, on shaders compiled by fxc
//! (`tests/families/*.hlsl`, each with the `.dxbc` and `.asm` fxc produced).
//!
//! Every expected value comes from a small Rust model of the rule in
//! `reference/sm5-compute-isa.md` / `reference/compute-model.md` §8, applied to
//! what the listing does (e.g. fxc's expansion of signed division); none is
//! copied from the simulator's output.
//!
//! Families: divergent flow control (run at warp widths 1, 4, 32 and the
//! group size, and for `switch`, also with the `default` arm moved first or to
//! the middle by permuting the fxc token stream, since fxc always emits
//! `default` last), constant buffers / icb / indexable temps, every atomic on
//! u# (raw and structured) and g#, out-of-bounds atomics, `bufinfo`, integer
//! and float ALU edge cases, and `LoadError::Unsupported` (class linkage:
//! typed buffers and doubles, the first candidates, are executed now).
//!
//! Instructions fxc (10.1, cs_5_0) would not emit from any HLSL tried here:
//! `retc` (an `if (c) return;` always becomes `if_nz`/`ret`/`endif`),
//! `continuec`, `umul`, `imul` with a high destination, `uaddc`, `usubb`
//! (carry/borrow idioms compile to `iadd`+`ult`), and `ubfe`/`ibfe`/`bfi`
//! with non-literal width/offset (a variable shift-and-mask stays
//! `ushr`+`and`). `continue` inside a
//! `switch` is rejected by HLSL (error X3708).

#![allow(clippy::needless_range_loop)]

use sm5sim::sim_core::front::container::{ChecksumPolicy, Container};
use sm5sim::sim_core::isa::opcodes::Opcode;
use sm5sim::sim_core::{LoadError, LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchOptions};
use std::path::PathBuf;

// ---------------------------------------------------------------------------
// Helpers.

fn file(name: &str, ext: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("families")
        .join(format!("{name}.{ext}"))
}

fn dxbc(name: &str) -> Vec<u8> {
    std::fs::read(file(name, "dxbc")).unwrap()
}

fn listing(name: &str) -> String {
    std::fs::read_to_string(file(name, "asm")).unwrap()
}

fn load(name: &str) -> Program {
    Program::from_dxbc(&dxbc(name), &LoadOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The shader's listing still contains each of these instruction mnemonics
/// (first word of a body line), so the test covers what it claims.
fn assert_listing_has(name: &str, mnemonics: &[&str]) {
    let text = listing(name);
    let words: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for m in mnemonics {
        assert!(
            words.contains(m),
            "{name}.asm no longer contains `{m}`: recompile check"
        );
    }
}

fn opts(warp_width: usize) -> DispatchOptions {
    DispatchOptions {
        threads: 1,
        warp_width,
        ..Default::default()
    }
}

/// Warp widths 1, 4, 32 and the group size.
fn widths(p: &Program) -> [usize; 4] {
    [1, 4, 32, p.threads_per_group() as usize]
}

/// Run with a structured t0 (`stride` bytes) and a stride-4 u0 of `out_len`
/// words filled with `fill`; returns u0.
fn run_io(
    p: &Program,
    input: &[u32],
    stride: u32,
    out_len: usize,
    fill: u32,
    groups: u32,
    o: DispatchOptions,
) -> Vec<u32> {
    let t0 = Buffer::from_words(input);
    let u0 = Buffer::from_words(&vec![fill; out_len]);
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![Some(BufferView::structured(&t0, stride).unwrap())],
        uavs: vec![Some(BufferView::structured(&u0, 4).unwrap())],
        ..Default::default()
    };
    dispatch(p, &b, [groups, 1, 1], &o).unwrap();
    u0.to_words()
}

/// xorshift64: deterministic pseudo-random words.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

fn expect_words(what: &str, got: &[u32], want: &[u32], per: usize) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g,
            w,
            "{what}: word {i} (thread {}, slot {}): got {g:#x}, want {w:#x}",
            i / per,
            i % per
        );
    }
}

// ---------------------------------------------------------------------------
// Token-stream surgery: move a `switch`'s default arm (fxc always emits it
// last). DXBC flow control carries no jump targets, so arms are relocatable.

struct Ins {
    op: Opcode,
    start: usize,
    end: usize,
}

/// Byte offset of the token stream in the file, and each instruction's dword span.
fn token_spans(bytes: &[u8]) -> (usize, Vec<Ins>) {
    let c = Container::parse(bytes, ChecksumPolicy::Skip).unwrap();
    let sh = c.shader_chunk().unwrap();
    let base = sh.data_offset;
    let total = u32::from_le_bytes(sh.data[4..8].try_into().unwrap()) as usize;
    let d = Program::decode_only(
        bytes,
        &LoadOptions {
            verify_checksum: false,
            max_memory: None,
            cancel: None,
        },
    )
    .unwrap();
    let starts: Vec<(Opcode, usize)> = d
        .instructions
        .iter()
        .map(|i| (i.opcode, i.offset as usize))
        .collect();
    let spans = starts
        .iter()
        .enumerate()
        .map(|(k, &(op, start))| Ins {
            op,
            start,
            end: starts.get(k + 1).map_or(total, |s| s.1),
        })
        .collect();
    (base, spans)
}

/// Arms (dword start, dword end, holds `default`) of the `n`-th switch.
fn switch_arms(ins: &[Ins], n: usize) -> Vec<(usize, usize, bool)> {
    let s = ins
        .iter()
        .enumerate()
        .filter(|(_, i)| i.op == Opcode::Switch)
        .nth(n)
        .expect("no such switch")
        .0;
    let mut depth = 0;
    let mut arms: Vec<(usize, usize, bool)> = Vec::new();
    let mut prev_label = false;
    for i in &ins[s + 1..] {
        match i.op {
            Opcode::EndSwitch if depth == 0 => return arms,
            Opcode::Switch => depth += 1,
            Opcode::EndSwitch => depth -= 1,
            _ => {}
        }
        let label = depth == 0 && matches!(i.op, Opcode::Case | Opcode::Default);
        if label && !prev_label {
            arms.push((i.start, i.end, false));
        }
        let a = arms
            .last_mut()
            .expect("switch body must start with a label");
        a.1 = i.end;
        if depth == 0 && i.op == Opcode::Default {
            a.2 = true;
        }
        prev_label = label;
    }
    panic!("unterminated switch");
}

/// A copy of the shader with the default arm of switch `n` moved to arm `pos`.
fn move_default_arm(bytes: &[u8], n: usize, pos: usize) -> Vec<u8> {
    let (base, ins) = token_spans(bytes);
    let mut arms = switch_arms(&ins, n);
    let first = arms[0].0;
    let last = arms.last().unwrap().1;
    let d = arms
        .iter()
        .position(|a| a.2)
        .expect("switch has no default");
    let arm = arms.remove(d);
    arms.insert(pos, arm);
    let mut body = Vec::new();
    for (s, e, _) in &arms {
        body.extend_from_slice(&bytes[base + 4 * s..base + 4 * e]);
    }
    let mut out = bytes.to_vec();
    out[base + 4 * first..base + 4 * last].copy_from_slice(&body);
    // the surgery did what we meant
    let (_, ins2) = token_spans(&out);
    let arms2 = switch_arms(&ins2, n);
    assert!(arms2[pos].2, "default arm not at position {pos}");
    assert_eq!(arms2.len(), arms.len());
    out
}

fn load_unchecked(bytes: &[u8]) -> Program {
    Program::from_dxbc(
        bytes,
        &LoadOptions {
            verify_checksum: false,
            max_memory: None,
            cancel: None,
        },
    )
    .unwrap()
}

// ---------------------------------------------------------------------------
// 1. Divergent flow control.

fn flow_if_loop_ref(gi: u32, v: u32) -> [u32; 3] {
    let r = if gi & 1 != 0 {
        if v > 10 {
            v.wrapping_mul(3)
        } else {
            v.wrapping_add(100)
        }
    } else if gi & 2 != 0 {
        7
    } else {
        0x1000
    };
    let mut acc = 0u32;
    for i in 0..40u32 {
        if i == v {
            acc += 1000;
            break;
        }
        if (i & 3) == (gi & 3) {
            continue;
        }
        acc += i;
    }
    let mut n = 0;
    let mut x = v.wrapping_add(gi);
    while x >= 2 {
        x = if x & 1 != 0 { 3 * x + 1 } else { x >> 1 };
        n += 1;
    }
    [r, acc, n]
}

#[test]
fn flow_nested_if_loop_break_continue_breakc() {
    let name = "flow_if_loop";
    assert_listing_has(
        name,
        &[
            "if_nz",
            "else",
            "endif",
            "loop",
            "endloop",
            "break",
            "breakc_nz",
            "continue",
        ],
    );
    let p = load(name);
    let input: Vec<u32> = (0..64u32).map(|gi| (gi * 7 + 3) % 45).collect();
    let want: Vec<u32> = (0..64u32)
        .flat_map(|gi| flow_if_loop_ref(gi, input[gi as usize]))
        .collect();
    for w in widths(&p) {
        let got = run_io(&p, &input, 4, 64 * 3, 0xcccc_cccc, 1, opts(w));
        expect_words(&format!("{name} warp {w}"), &got, &want, 3);
    }
}

const SENTINEL: u32 = 0x5555_5555;

fn flow_return_ref(gi: u32, v: u32, out: &mut [u32]) {
    let o = 2 * gi as usize;
    out[o] = 1;
    if v == 0 {
        out[o + 1] = 0xdead;
        return;
    }
    let mut acc = v;
    for i in 0..v {
        acc = acc.wrapping_mul(5).wrapping_add(i);
        if acc > 0x10000 {
            out[o + 1] = acc;
            return;
        }
    }
    if gi.is_multiple_of(3) {
        return;
    }
    out[o] = acc;
    out[o + 1] = 0xbeef;
}

#[test]
fn flow_early_return_then_other_threads_continue() {
    let name = "flow_return";
    assert_listing_has(name, &["ret", "if_z", "if_nz", "breakc_nz", "loop"]);
    // `ret` inside an if must appear more than once before the final one
    assert!(listing(name).matches("  ret").count() >= 3);
    let p = load(name);
    let input: Vec<u32> = (0..48u32)
        .map(|gi| if gi % 7 == 3 { 0 } else { (gi * 5) % 9 })
        .collect();
    let mut want = vec![SENTINEL; 96];
    for gi in 0..48u32 {
        flow_return_ref(gi, input[gi as usize], &mut want);
    }
    // the data exercise every exit
    assert!(want.contains(&0xdead) && want.contains(&0xbeef) && want.contains(&SENTINEL));
    assert!(want.iter().any(|&x| x > 0x10000 && x != SENTINEL));
    for w in widths(&p) {
        let got = run_io(&p, &input, 4, 96, SENTINEL, 1, opts(w));
        expect_words(&format!("{name} warp {w}"), &got, &want, 2);
    }
}

fn flow_switch_ref(gi: u32, v: u32) -> [u32; 3] {
    let a = match v {
        0 => 10,
        1 | 2 => 20 + v,
        5 => {
            if gi & 1 != 0 {
                55
            } else {
                50
            }
        }
        7 => {
            70 + match gi & 3 {
                0 => 1,
                3 => 3,
                _ => 100,
            }
        }
        _ => 0xd00u32.wrapping_add(v),
    };
    let b = match gi % 5 {
        1 => 1,
        3 | 4 => 34,
        _ => 1000 + gi,
    };
    let c = match v & 7 {
        6 => 6,
        0 => 99,
        x => 300 + x,
    };
    [a, b, c]
}

fn flow_switch_input() -> Vec<u32> {
    (0..40u32)
        .map(|gi| match gi % 13 {
            10 => 0xffff_ffff,
            11 => 7,
            12 => 5,
            k => k,
        })
        .collect()
}

#[test]
fn flow_switch_cases_fallthrough_nested_default_last() {
    let name = "flow_switch";
    assert_listing_has(
        name,
        &["switch", "case", "default", "endswitch", "break", "if_nz"],
    );
    let p = load(name);
    let input = flow_switch_input();
    let want: Vec<u32> = (0..40u32)
        .flat_map(|gi| flow_switch_ref(gi, input[gi as usize]))
        .collect();
    for w in widths(&p) {
        let got = run_io(&p, &input, 4, 120, 0xcccc_cccc, 1, opts(w));
        expect_words(&format!("{name} warp {w}"), &got, &want, 3);
    }
}

#[test]
fn flow_switch_default_first_and_in_the_middle() {
    // fxc puts `default` last; FS §22.7 lets it sit anywhere. Move it in the
    // token stream: switch 0 (v) → middle, switch 1 (nested) → first,
    // switch 2 (gi % 5) → first, switch 3 (v & 7) → middle.
    let name = "flow_switch";
    let original = dxbc(name);
    let input = flow_switch_input();
    let want: Vec<u32> = (0..40u32)
        .flat_map(|gi| flow_switch_ref(gi, input[gi as usize]))
        .collect();
    let mut bytes = original.clone();
    for (n, pos) in [(0, 2), (1, 0), (2, 0), (3, 1)] {
        bytes = move_default_arm(&bytes, n, pos);
    }
    assert_ne!(bytes, original);
    let p = load_unchecked(&bytes);
    for w in widths(&p) {
        let got = run_io(&p, &input, 4, 120, 0xcccc_cccc, 1, opts(w));
        expect_words(&format!("{name} (default moved) warp {w}"), &got, &want, 3);
    }
}

fn flow_switch_loop_ref(gi: u32, v: u32) -> [u32; 3] {
    let mut acc = 0u32;
    let mut steps = 0;
    for i in 0..24u32 {
        steps += 1;
        let mut stop = false;
        let mut skip = false;
        match v.wrapping_add(i) % 6 {
            0 => acc = acc.wrapping_add(1),
            1 | 2 => {
                acc = acc.wrapping_add(10);
                if i & 1 != 0 {
                    skip = true;
                } else {
                    acc = acc.wrapping_add(100);
                }
            }
            4 => {
                if i >= (gi & 15) {
                    stop = true;
                } else {
                    acc = acc.wrapping_add(1000);
                }
            }
            _ => acc ^= 0x10000 << (i & 7),
        }
        if stop {
            break;
        }
        if skip {
            continue;
        }
        acc = acc.wrapping_add(i);
    }
    let w = match gi & 3 {
        1 => {
            let mut w = 0;
            for j in 0..16u32 {
                if j * j > v.wrapping_add(3) {
                    break;
                }
                w += j;
            }
            w
        }
        2 => v.count_ones() + 500,
        _ => 77,
    };
    [acc, steps, w]
}

#[test]
fn flow_switch_in_loop_and_loop_in_switch() {
    let name = "flow_switch_loop";
    assert_listing_has(
        name,
        &[
            "loop",
            "switch",
            "case",
            "default",
            "break",
            "continue",
            "breakc_nz",
            "breakc_z",
            "endswitch",
            "endloop",
        ],
    );
    let p = load(name);
    let input: Vec<u32> = (0..32u32)
        .map(|gi| match gi % 8 {
            7 => 0xffff_ffe0 + gi, // v + i wraps
            k => (gi * 3 + k) % 11,
        })
        .collect();
    let want: Vec<u32> = (0..32u32)
        .flat_map(|gi| flow_switch_loop_ref(gi, input[gi as usize]))
        .collect();
    let run = |p: &Program, what: &str| {
        for w in widths(p) {
            let got = run_io(p, &input, 4, 96, 0xcccc_cccc, 1, opts(w));
            expect_words(&format!("{what} warp {w}"), &got, &want, 3);
        }
    };
    run(&p, name);
    // and with both defaults moved first
    let mut bytes = dxbc(name);
    bytes = move_default_arm(&bytes, 0, 0);
    bytes = move_default_arm(&bytes, 1, 0);
    run(&load_unchecked(&bytes), "flow_switch_loop (defaults first)");
}

// ---------------------------------------------------------------------------
// 2. Constant buffers, icb, indexable temps.

const ICB: [u32; 8] = [3, 1, 4, 1, 5, 9, 2, 6];

/// cb word (vec4 `e`, component `c`) of a cb bound with `bound` vec4s; 0 past it (FS §7.5).
fn cbw(cb: &[u32], e: u32, c: u32) -> u32 {
    let i = e as u64 * 4 + c as u64;
    cb.get(i as usize).copied().unwrap_or(0)
}

fn const_index_ref(cb: &[u32], gi: u32, v: u32) -> [u32; 7] {
    let c = cbw(cb, (gi & 15) + 1, v & 3);
    let far = cbw(cb, v.wrapping_add(1), 1); // index register + 1, wrapping (FS §7.8.6)
    let k = ICB[(v.wrapping_add(gi) & 7) as usize];
    let k2 = ICB[(gi & 7) as usize] * 16 + ICB[((gi >> 3) & 7) as usize];
    let mut loc: Vec<u32> = (0..12).map(|i| i * 7 + gi).collect();
    loc[(v % 12) as usize] = 1000u32.wrapping_add(cbw(cb, 0, 0));
    loc[((gi + 5) % 12) as usize] = loc[((gi + 5) % 12) as usize].wrapping_add(1);
    let s = loc[(v.wrapping_mul(5) % 12) as usize]
        .wrapping_add(loc[(gi % 12) as usize].wrapping_mul(65536));
    let tail = cbw(cb, 17, 3).wrapping_add(cbw(cb, 0, 1));
    let icb_far = ICB.get(v as usize).copied().unwrap_or(0); // icb past its end: 0 (ISA §1)
    [c, far, k, k2, s, tail, icb_far]
}

#[test]
fn constant_buffer_dynamic_index_icb_and_indexable_temps() {
    let name = "const_index";
    let text = listing(name);
    for s in [
        "cb0[r0.y + 1]",
        "cb0[r0.x + 1]",
        "icb[r0.z + 0]",
        "icb[r0.x + 0]",
        "x0[r1.x + 0]",
        "dcl_constantbuffer CB0[18], dynamicIndexed",
        "dcl_indexableTemp x0[12], 4",
    ] {
        assert!(text.contains(s), "{name}.asm lacks {s}");
    }
    let p = load(name);
    let input: Vec<u32> = (0..32u32)
        .map(|gi| match gi % 8 {
            5 => 0xffff_ffff, // v + 1 wraps to cb0[0]
            6 => 100 + gi,
            7 => 0x7fff_ffff,
            _ => (gi * 5) % 19,
        })
        .collect();
    let full: Vec<u32> = (0..72u32).map(|i| 0xc000_0000 | (i * 7 + 1)).collect();
    let short: Vec<u32> = full[..9 * 4].to_vec(); // declared 18 vec4, bound 9
    for (what, cb) in [("full cb", &full), ("short cb", &short)] {
        let want: Vec<u32> = (0..32u32)
            .flat_map(|gi| const_index_ref(cb, gi, input[gi as usize]))
            .collect();
        if cb.len() < 72 {
            // the short binding really reads zeros somewhere
            assert!(want.chunks(7).any(|c| c[0] == 0));
            assert!(want.chunks(7).all(|c| c[5] == full[1]));
        }
        assert!(want.chunks(7).any(|c| c[6] == 0) && want.chunks(7).any(|c| c[6] != 0));
        for w in widths(&p) {
            let t0 = Buffer::from_words(&input);
            let u0 = Buffer::from_words(&[0xcccc_cccc; 32 * 7]);
            let b = Bindings {
                constant_buffers: vec![Some(&cb[..])],
                srvs: vec![Some(BufferView::structured(&t0, 4).unwrap())],
                uavs: vec![Some(BufferView::structured(&u0, 4).unwrap())],
                ..Default::default()
            };
            dispatch(&p, &b, [1, 1, 1], &opts(w)).unwrap();
            expect_words(&format!("{name} {what} warp {w}"), &u0.to_words(), &want, 7);
        }
    }
}

// ---------------------------------------------------------------------------
// 3. Atomics.

#[derive(Debug, Clone, Copy)]
enum A {
    Add,
    And,
    Or,
    Xor,
    IMin,
    IMax,
    UMin,
    UMax,
    Exch,
    /// compare-exchange / compare-store with this compare value
    Cmp(u32),
}

/// The new memory word (ISA §12 table).
fn apply(op: A, m: u32, v: u32) -> u32 {
    match op {
        A::Add => m.wrapping_add(v),
        A::And => m & v,
        A::Or => m | v,
        A::Xor => m ^ v,
        A::IMin => (m as i32).min(v as i32) as u32,
        A::IMax => (m as i32).max(v as i32) as u32,
        A::UMin => m.min(v),
        A::UMax => m.max(v),
        A::Exch => v,
        A::Cmp(c) => {
            if m == c {
                v
            } else {
                m
            }
        }
    }
}

fn fold(op: A, init: u32, vals: impl Iterator<Item = u32>) -> u32 {
    vals.fold(init, |m, v| apply(op, m, v))
}

/// Originals of `InterlockedOr` with distinct single bits: in some order, each
/// is the union of the bits before it.
fn check_or_chain(what: &str, pairs: &[(u32, u32)], fin: u32) {
    let mut v: Vec<(u32, u32)> = pairs.to_vec(); // (bit, original)
    v.sort_by_key(|p| p.1.count_ones());
    let mut acc = 0u32;
    for (i, &(bit, o)) in v.iter().enumerate() {
        assert_eq!(
            o, acc,
            "{what}: original #{i} is not the union of earlier bits"
        );
        assert_eq!(
            o & bit,
            0,
            "{what}: original already holds the thread's bit"
        );
        acc |= bit;
    }
    assert_eq!(fin, acc, "{what}: final");
}

/// Originals of `InterlockedAdd(1)` are init..init+n in some order.
fn check_add_perm(what: &str, origs: &[u32], init: u32, fin: u32) {
    let mut s = origs.to_vec();
    s.sort_unstable();
    let want: Vec<u32> = (0..origs.len() as u32).map(|i| init + i).collect();
    assert_eq!(s, want, "{what}: originals");
    assert_eq!(fin, init + origs.len() as u32, "{what}: final");
}

/// `InterlockedCompareExchange(m, 0, id + 1)` by everyone from 0: one winner.
fn check_one_winner(what: &str, origs: &[u32], fin: u32) {
    let winners: Vec<usize> = (0..origs.len()).filter(|&i| origs[i] == 0).collect();
    assert_eq!(winners.len(), 1, "{what}: winners {winners:?}");
    assert_eq!(fin, winners[0] as u32 + 1, "{what}: final");
    for (i, &o) in origs.iter().enumerate() {
        if i != winners[0] {
            assert_eq!(o, fin, "{what}: loser {i} original");
        }
    }
}

/// `InterlockedExchange(m, id + 1)`: originals plus the final value are init and 1..=n.
fn check_exch_perm(what: &str, origs: &[u32], init: u32, fin: u32) {
    let mut s: Vec<u32> = origs.to_vec();
    s.push(fin);
    s.sort_unstable();
    let mut want: Vec<u32> = (1..=origs.len() as u32).collect();
    want.push(init);
    want.sort_unstable();
    assert_eq!(s, want, "{what}");
}

/// The op of atomics_raw's private word j (0..19) for a thread's input words.
fn raw_ops(inp: &[u32]) -> [A; 19] {
    [
        A::Add,
        A::And,
        A::Or,
        A::Xor,
        A::IMin,
        A::IMax,
        A::UMin,
        A::UMax,
        A::Exch,
        A::Cmp(inp[19]),
        A::Add,
        A::And,
        A::Or,
        A::Xor,
        A::IMin,
        A::IMax,
        A::UMin,
        A::UMax,
        A::Cmp(inp[20]),
    ]
}

#[test]
fn atomics_on_raw_uav_all_ops_with_and_without_original() {
    let name = "atomics_raw";
    assert_listing_has(
        name,
        &[
            "imm_atomic_iadd",
            "imm_atomic_and",
            "imm_atomic_or",
            "imm_atomic_xor",
            "imm_atomic_imin",
            "imm_atomic_imax",
            "imm_atomic_umin",
            "imm_atomic_umax",
            "imm_atomic_exch",
            "imm_atomic_cmp_exch",
            "atomic_iadd",
            "atomic_and",
            "atomic_or",
            "atomic_xor",
            "atomic_imin",
            "atomic_imax",
            "atomic_umin",
            "atomic_umax",
            "atomic_cmp_store",
        ],
    );
    let p = load(name);
    const T: usize = 64;
    const S: usize = T * 20; // first shared word
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut init = vec![0u32; S + 13];
    let mut input = vec![0u32; T * 24];
    for t in 0..T {
        for j in 0..20 {
            init[t * 20 + j] = rng.next();
            input[t * 24 + j] = rng.next();
        }
        // compare values: equal to memory for some threads only
        input[t * 24 + 19] = init[t * 20 + 9] ^ (t as u32 & 1);
        input[t * 24 + 20] = init[t * 20 + 18] ^ (t % 3 != 0) as u32;
        input[t * 24 + 21] = rng.next();
    }
    let shared_init = [
        1000,
        0,
        0x5000,
        0,
        7,
        0xffff_ffff,
        0,
        0x0f0f_0f0f,
        0,
        0,
        0,
        0xffff_ffff,
        0,
    ];
    init[S..].copy_from_slice(&shared_init);
    init[S + 8] = 0x8000_0000; // imax from INT_MIN
    init[S + 9] = 0x7fff_ffff; // imin from INT_MAX

    // private words: exact
    let mut want_mem = init.clone();
    let mut want_orig = vec![0xeeee_eeee_u32; T * 16];
    for t in 0..T {
        let inp = &input[t * 24..t * 24 + 24];
        for (j, op) in raw_ops(inp).into_iter().enumerate() {
            let m = init[t * 20 + j];
            want_mem[t * 20 + j] = apply(op, m, inp[j]);
            if j < 10 {
                want_orig[t * 16 + j] = m;
            }
        }
    }
    let r: Vec<u32> = (0..T).map(|t| input[t * 24 + 21]).collect();
    let folds = [
        A::Add,
        A::And,
        A::Or,
        A::Xor,
        A::IMax,
        A::IMin,
        A::UMax,
        A::UMin,
    ];
    for (k, op) in folds.into_iter().enumerate() {
        want_mem[S + 4 + k] = fold(op, init[S + 4 + k], r.iter().copied());
    }

    for (threads, w) in [(1, 1), (2, 32), (2, 4)] {
        let t0 = Buffer::from_words(&input);
        let u0 = Buffer::from_words(&init);
        let u1 = Buffer::from_words(&vec![0xeeee_eeee; T * 16]);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![Some(BufferView::raw(&t0))],
            uavs: vec![
                Some(BufferView::raw(&u0)),
                Some(BufferView::structured(&u1, 4).unwrap()),
            ],
            ..Default::default()
        };
        dispatch(
            &p,
            &b,
            [2, 1, 1],
            &DispatchOptions {
                threads,
                warp_width: w,
                ..Default::default()
            },
        )
        .unwrap();
        let what = format!("{name} threads {threads} warp {w}");
        let mem = u0.to_words();
        let orig = u1.to_words();
        // private words and the folds
        for t in 0..T {
            for j in 0..20 {
                let i = t * 20 + j;
                assert_eq!(mem[i], want_mem[i], "{what}: thread {t} word {j}");
            }
            for j in 0..10 {
                let i = t * 16 + j;
                assert_eq!(orig[i], want_orig[i], "{what}: thread {t} original {j}");
            }
            assert_eq!(orig[t * 16 + 14], 0xeeee_eeee);
        }
        for k in 4..12 {
            assert_eq!(mem[S + k], want_mem[S + k], "{what}: shared word {k}");
        }
        // contended words
        let col = |j: usize| -> Vec<u32> { (0..T).map(|t| orig[t * 16 + j]).collect() };
        check_add_perm(&format!("{what} add"), &col(10), 1000, mem[S]);
        let or_pairs: Vec<(u32, u32)> = (0..T)
            .filter(|t| t & 1 == 1)
            .map(|t| (1u32 << (t >> 1), orig[t * 16 + 11]))
            .collect();
        check_or_chain(&format!("{what} or"), &or_pairs, mem[S + 1]);
        for t in (0..T).step_by(2) {
            assert_eq!(
                orig[t * 16 + 11],
                0xeeee_eeee,
                "{what}: even thread {t} skipped the or"
            );
        }
        check_exch_perm(&format!("{what} exch"), &col(12), 0x5000, mem[S + 2]);
        check_one_winner(&format!("{what} cmp_exch"), &col(13), mem[S + 3]);
        assert!(
            (1..=T as u32).contains(&mem[S + 12]),
            "{what}: cmp_store final {}",
            mem[S + 12]
        );
    }
}

#[test]
fn atomics_on_structured_uavs_uint_and_int_member() {
    let name = "atomics_structured";
    assert_listing_has(
        name,
        &[
            "imm_atomic_iadd",
            "imm_atomic_and",
            "imm_atomic_or",
            "imm_atomic_xor",
            "imm_atomic_umin",
            "imm_atomic_umax",
            "imm_atomic_exch",
            "imm_atomic_cmp_exch",
            "imm_atomic_imin",
            "imm_atomic_imax",
            "atomic_iadd",
            "atomic_and",
            "atomic_or",
            "atomic_xor",
            "atomic_umin",
            "atomic_umax",
            "atomic_imin",
            "atomic_imax",
            "atomic_cmp_store",
        ],
    );
    let p = load(name);
    const T: usize = 32;
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    let mut input: Vec<u32> = (0..T * 24).map(|_| rng.next()).collect();
    let mut mem0: Vec<u32> = (0..T * 15).map(|_| rng.next()).collect();
    let smem0: Vec<u32> = (0..T * 10).map(|_| rng.next()).collect();
    for t in 0..T {
        input[t * 24 + 15] = mem0[t * 15 + 7] ^ (t as u32 & 1);
        input[t * 24 + 16] = mem0[t * 15 + 14] ^ (t % 3 == 0) as u32;
    }
    // some equal operands for min/max ties
    mem0[4] = input[4];
    let uops = |inp: &[u32]| -> [A; 15] {
        [
            A::Add,
            A::And,
            A::Or,
            A::Xor,
            A::UMin,
            A::UMax,
            A::Exch,
            A::Cmp(inp[15]),
            A::Add,
            A::And,
            A::Or,
            A::Xor,
            A::UMin,
            A::UMax,
            A::Cmp(inp[16]),
        ]
    };
    let sops = [A::IMin, A::IMax, A::Xor, A::IMin, A::IMax];
    let mut want_mem = mem0.clone();
    let mut want_smem = smem0.clone();
    let mut want_orig = vec![0xeeee_eeee_u32; T * 12];
    for t in 0..T {
        let inp = &input[t * 24..t * 24 + 24];
        for (j, op) in uops(inp).into_iter().enumerate() {
            let m = mem0[t * 15 + j];
            want_mem[t * 15 + j] = apply(op, m, inp[j]);
            if j < 8 {
                want_orig[t * 12 + j] = m;
            }
        }
        for (k, op) in sops.into_iter().enumerate() {
            let i = (t * 5 + k) * 2 + 1; // member `v` at byte offset 4
            want_smem[i] = apply(op, smem0[i], inp[17 + k]);
            if k < 3 {
                want_orig[t * 12 + 8 + k] = smem0[i];
            }
        }
    }
    for w in [1, 16] {
        let t0 = Buffer::from_words(&input);
        let u0 = Buffer::from_words(&mem0);
        let u1 = Buffer::from_words(&smem0);
        let u2 = Buffer::from_words(&vec![0xeeee_eeee; T * 12]);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![Some(BufferView::structured(&t0, 4).unwrap())],
            uavs: vec![
                Some(BufferView::structured(&u0, 4).unwrap()),
                Some(BufferView::structured(&u1, 8).unwrap()),
                Some(BufferView::structured(&u2, 4).unwrap()),
            ],
            ..Default::default()
        };
        dispatch(
            &p,
            &b,
            [2, 1, 1],
            &DispatchOptions {
                threads: 2,
                warp_width: w,
                ..Default::default()
            },
        )
        .unwrap();
        let what = format!("{name} warp {w}");
        expect_words(&format!("{what} u0"), &u0.to_words(), &want_mem, 15);
        expect_words(&format!("{what} u1"), &u1.to_words(), &want_smem, 10);
        expect_words(&format!("{what} originals"), &u2.to_words(), &want_orig, 12);
    }
}

#[test]
fn atomics_on_groupshared_all_ops() {
    let name = "atomics_tgsm";
    let text = listing(name);
    for (op, on) in [
        ("imm_atomic_iadd", "g0"),
        ("imm_atomic_and", "g0"),
        ("imm_atomic_or", "g0"),
        ("imm_atomic_xor", "g0"),
        ("imm_atomic_umin", "g0"),
        ("imm_atomic_umax", "g0"),
        ("imm_atomic_exch", "g0"),
        ("imm_atomic_cmp_exch", "g0"),
        ("imm_atomic_imin", "g1"),
        ("imm_atomic_imax", "g1"),
        ("atomic_iadd", "g0"),
        ("atomic_and", "g0"),
        ("atomic_or", "g0"),
        ("atomic_xor", "g0"),
        ("atomic_umin", "g0"),
        ("atomic_umax", "g0"),
        ("atomic_cmp_store", "g0"),
        ("atomic_imin", "g1"),
        ("atomic_imax", "g1"),
        ("atomic_iadd", "g1"),
        ("atomic_cmp_store", "g1"),
    ] {
        let found = text.lines().any(|l| {
            let mut w = l.split_whitespace();
            w.next() == Some(op) && l.contains(&format!(" {on},"))
        });
        assert!(found, "{name}.asm lacks `{op}` on {on}");
    }
    assert!(text.contains("sync_g_t"));
    let p = load(name);
    const T: usize = 64;
    const L: usize = 32;
    let mut rng = Rng(0xfeed_beef_0123_4567);
    let mut input: Vec<u32> = (0..T * 44 + 17).map(|_| rng.next()).collect();
    for t in 0..T {
        let b = t * 44;
        input[b + 40] = input[b + 7] ^ (t as u32 & 1); // gu op 7 compare
        input[b + 41] = input[b + 14 + 5] ^ (t % 3 == 0) as u32; // gi op 5 compare
    }
    // shared init: S+0 add from 500, S+1 or from 0, S+2 cmp_exch from 0,
    // S+3.. folds, S+9 cmp_store from 0, S+10 exch from 0x7777
    let sh = T * 44;
    input[sh] = 500;
    input[sh + 1] = 0;
    input[sh + 2] = 0;
    input[sh + 9] = 0;
    input[sh + 10] = 0x7777;
    let gops = |inp: &[u32]| -> [A; 14] {
        [
            A::Add,
            A::And,
            A::Or,
            A::Xor,
            A::UMin,
            A::UMax,
            A::Exch,
            A::Cmp(inp[40]),
            A::Add,
            A::And,
            A::Or,
            A::Xor,
            A::UMin,
            A::UMax,
        ]
    };
    let iops =
        |inp: &[u32]| -> [A; 6] { [A::IMin, A::IMax, A::IMin, A::IMax, A::Add, A::Cmp(inp[41])] };
    let mut want_mem = vec![0u32; T * 20 + 2 * 17];
    let mut want_orig = vec![0xeeee_eeee_u32; T * 16];
    for t in 0..T {
        let inp = &input[t * 44..t * 44 + 44];
        for (k, op) in gops(inp).into_iter().enumerate() {
            want_mem[t * 20 + k] = apply(op, inp[k], inp[20 + k]);
            if k < 8 {
                want_orig[t * 16 + k] = inp[k];
            }
        }
        for (k, op) in iops(inp).into_iter().enumerate() {
            want_mem[t * 20 + 14 + k] = apply(op, inp[14 + k], inp[34 + k]);
            if k < 2 {
                want_orig[t * 16 + 8 + k] = inp[14 + k];
            }
        }
    }
    let folds = [A::Add, A::And, A::Or, A::Xor, A::UMax, A::UMin];
    for g in 0..2 {
        let base = T * 20 + g * 17;
        let r: Vec<u32> = (0..L).map(|l| input[(g * L + l) * 44 + 42]).collect();
        want_mem[base..base + 16].copy_from_slice(&input[sh..sh + 16]);
        for (k, op) in folds.into_iter().enumerate() {
            want_mem[base + 3 + k] = fold(op, input[sh + 3 + k], r.iter().copied());
        }
        want_mem[base + 16] = fold(A::IMax, input[sh + 16], r.iter().copied());
    }
    for w in [1, 4, 32] {
        let t0 = Buffer::from_words(&input);
        let u0 = Buffer::from_words(&vec![0xdddd_dddd; T * 20 + 2 * 17]);
        let u1 = Buffer::from_words(&vec![0xeeee_eeee; T * 16]);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![Some(BufferView::structured(&t0, 4).unwrap())],
            uavs: vec![
                Some(BufferView::structured(&u0, 4).unwrap()),
                Some(BufferView::structured(&u1, 4).unwrap()),
            ],
            ..Default::default()
        };
        dispatch(
            &p,
            &b,
            [2, 1, 1],
            &DispatchOptions {
                threads: 2,
                warp_width: w,
                ..Default::default()
            },
        )
        .unwrap();
        let what = format!("{name} warp {w}");
        let mem = u0.to_words();
        let orig = u1.to_words();
        for t in 0..T {
            for k in 0..20 {
                let i = t * 20 + k;
                assert_eq!(mem[i], want_mem[i], "{what}: thread {t} word {k}");
            }
            for k in 0..10 {
                let i = t * 16 + k;
                assert_eq!(orig[i], want_orig[i], "{what}: thread {t} original {k}");
            }
        }
        for g in 0..2 {
            let base = T * 20 + g * 17;
            for k in (3..9).chain(11..17) {
                assert_eq!(
                    mem[base + k],
                    want_mem[base + k],
                    "{what}: group {g} shared {k}"
                );
            }
            let col =
                |j: usize| -> Vec<u32> { (0..L).map(|l| orig[(g * L + l) * 16 + j]).collect() };
            check_add_perm(&format!("{what} g{g} add"), &col(10), 500, mem[base]);
            let pairs: Vec<(u32, u32)> = (0..L)
                .map(|l| (1u32 << l, orig[(g * L + l) * 16 + 11]))
                .collect();
            check_or_chain(&format!("{what} g{g} or"), &pairs, mem[base + 1]);
            check_one_winner(&format!("{what} g{g} cmp_exch"), &col(12), mem[base + 2]);
            check_exch_perm(
                &format!("{what} g{g} exch"),
                &col(13),
                0x7777,
                mem[base + 10],
            );
            assert!((1..=L as u32).contains(&mem[base + 9]), "{what}: cmp_store");
        }
    }
}

#[test]
fn atomics_out_of_bounds_write_nothing_and_return_zero() {
    let name = "atomics_oob";
    assert_listing_has(
        name,
        &[
            "imm_atomic_iadd",
            "atomic_or",
            "imm_atomic_exch",
            "imm_atomic_cmp_exch",
            "atomic_iadd",
        ],
    );
    let p = load(name);
    let raw_addr = [0u32, 12, 16, 20, 0xffff_fffc, 0x8000_0000, 4, 1000];
    // 2 structures of 8 bytes; 0x2000_0000 * 8 and 0x8000_0000 * 8 wrap to 0 in 32 bits
    let idx = [
        0u32,
        1,
        2,
        3,
        0xffff_ffff,
        0x2000_0000,
        0x8000_0000,
        0x1000_0000,
    ];
    let input: Vec<u32> = (0..8).flat_map(|t| [raw_addr[t], idx[t]]).collect();
    let raw0 = [10u32, 20, 30, 40];
    let st0 = [100u32, 200, 300, 400];
    let mut want_raw = raw0;
    let mut want_st = st0;
    let mut want_orig = [0u32; 24];
    for t in 0..8u32 {
        let a = raw_addr[t as usize];
        if a < 16 {
            let i = (a / 4) as usize;
            want_orig[t as usize * 3] = want_raw[i];
            want_raw[i] = want_raw[i].wrapping_add(0x100 + t) | (1 << (t + 16));
        }
        let s = idx[t as usize];
        if s < 2 {
            let i = s as usize * 2;
            want_orig[t as usize * 3 + 1] = want_st[i + 1];
            want_orig[t as usize * 3 + 2] = 0xabc0 + t;
            want_st[i + 1] = 0x5550 + t;
            want_st[i] += t + 1;
        }
    }
    for w in [1, 8] {
        let t0 = Buffer::from_words(&input);
        let u0 = Buffer::from_words(&raw0);
        let u1 = Buffer::from_words(&st0);
        let u2 = Buffer::from_words(&[0xaaaa_aaaa; 24]);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![Some(BufferView::structured(&t0, 8).unwrap())],
            uavs: vec![
                Some(BufferView::raw(&u0)),
                Some(BufferView::structured(&u1, 8).unwrap()),
                Some(BufferView::structured(&u2, 4).unwrap()),
            ],
            ..Default::default()
        };
        dispatch(&p, &b, [1, 1, 1], &opts(w)).unwrap();
        let what = format!("{name} warp {w}");
        expect_words(&format!("{what} raw"), &u0.to_words(), &want_raw, 1);
        expect_words(&format!("{what} structured"), &u1.to_words(), &want_st, 2);
        expect_words(&format!("{what} originals"), &u2.to_words(), &want_orig, 3);
    }
}

// ---------------------------------------------------------------------------
// 4. bufinfo.

#[test]
fn bufinfo_reports_bytes_for_raw_and_structures_for_structured() {
    let name = "bufinfo";
    assert_listing_has(
        name,
        &["bufinfo_indexable(raw_buffer)(mixed,mixed,mixed,mixed)"],
    );
    assert!(listing(name).contains("bufinfo_indexable(structured_buffer, stride=16)"));
    let p = load(name);
    for (traw, tst, uraw, ust) in [(64usize, 36usize, 8usize, 48usize), (4, 60, 1024, 44)] {
        let t0 = Buffer::zeroed(traw).unwrap();
        let t1 = Buffer::zeroed(tst).unwrap();
        let u0 = Buffer::zeroed(uraw).unwrap();
        let u1 = Buffer::zeroed(ust).unwrap();
        let u2 = Buffer::from_words(&[0xcccc_cccc; 6]);
        let b = Bindings {
            constant_buffers: vec![],
            srvs: vec![
                Some(BufferView::raw(&t0)),
                Some(BufferView::structured(&t1, 12).unwrap()),
            ],
            uavs: vec![
                Some(BufferView::raw(&u0)),
                Some(BufferView::structured(&u1, 16).unwrap()),
                Some(BufferView::structured(&u2, 4).unwrap()),
            ],
            ..Default::default()
        };
        dispatch(&p, &b, [1, 1, 1], &opts(1)).unwrap();
        // raw: bytes; structured: whole structures (a trailing partial one does not count)
        let want = [
            traw as u32,
            (tst / 12) as u32,
            12,
            uraw as u32,
            (ust / 16) as u32,
            16,
        ];
        assert_eq!(u2.to_words(), want, "sizes {traw} {tst} {uraw} {ust}");
    }
}

// ---------------------------------------------------------------------------
// 5a. Integer ALU.

fn udiv(a: u32, b: u32) -> (u32, u32) {
    // division by 0 gives 0xFFFFFFFF in both (FS §22.12.9)
    (
        a.checked_div(b).unwrap_or(!0),
        a.checked_rem(b).unwrap_or(!0),
    )
}

/// Position of the highest set bit counted from the MSB; !0 for 0 (FS §22.11.5).
fn firstbit_hi(v: u32) -> u32 {
    if v == 0 {
        !0
    } else {
        v.leading_zeros()
    }
}

fn firstbit_shi(v: u32) -> u32 {
    if (v as i32) < 0 {
        firstbit_hi(!v)
    } else {
        firstbit_hi(v)
    }
}

fn msad(r: u32, s: u32, mut acc: u32) -> u32 {
    for i in 0..4 {
        let (a, b) = ((r >> (8 * i)) & 0xff, (s >> (8 * i)) & 0xff);
        if a != 0 {
            acc = acc.wrapping_add(a.abs_diff(b)); // wraps (ISA §5)
        }
    }
    acc
}

fn imax(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}

/// What each output of alu_int.hlsl holds, following its listing.
fn alu_int_ref(a: u32, b: u32) -> [u32; 24] {
    let (q, r) = udiv(a, b);
    // fxc's signed division: udiv of imax(x, -x), then sign fix-ups
    let (sq, sr) = udiv(imax(a, a.wrapping_neg()), imax(b, b.wrapping_neg()));
    let sdiv = if (a ^ b) & 0x8000_0000 != 0 {
        sq.wrapping_neg()
    } else {
        sq
    };
    let srem = if a & 0x8000_0000 != 0 {
        sr.wrapping_neg()
    } else {
        sr
    };
    let fbh = if a != 0 {
        31u32.wrapping_sub(firstbit_hi(a))
    } else {
        !0
    };
    let fbs = firstbit_shi(a);
    let fbs = if fbs == !0 { !0 } else { 31 - fbs };
    let bfi_mask = 0xff0u32;
    [
        q,
        r,
        sdiv,
        srem,
        a << (b & 31),
        ((a as i32) >> (b & 31)) as u32,
        a >> (b & 31),
        fbh,
        fbs,
        if a == 0 { !0 } else { a.trailing_zeros() },
        a.count_ones(),
        a.reverse_bits(),
        (a >> (b & 31)) & 0x3ff,
        ((b << 4) & bfi_mask) | (a & !bfi_mask),
        (((a << 8) as i32) >> 20) as u32,
        msad(a, ((b ^ 0x5a5a_5a5a) << 16) | (b >> 16), 0xffff_ffff),
        msad(a, b, 0),
        imax(b, a),
        (b as i32).min(a as i32) as u32,
        b.max(a),
        b.min(a),
        a.wrapping_neg(),
        imax(a, a.wrapping_neg()),
        (a >> 7) & 0x1f,
    ]
}

#[test]
fn alu_integer_edge_cases() {
    let name = "alu_int";
    assert_listing_has(
        name,
        &[
            "udiv",
            "ineg",
            "imax",
            "imin",
            "umax",
            "umin",
            "ishl",
            "ishr",
            "ushr",
            "firstbit_hi",
            "firstbit_shi",
            "firstbit_lo",
            "countbits",
            "bfrev",
            "bfi",
            "ibfe",
            "ubfe",
            "msad",
            "movc",
        ],
    );
    let p = load(name);
    let mut pairs: Vec<(u32, u32)> = vec![
        (7, 0),
        (0, 0),
        (0xffff_ffff, 0),
        (100, 7),
        (0x8000_0000, 0xffff_ffff), // INT_MIN / -1
        ((-7i32) as u32, 2),
        (7, (-2i32) as u32),
        ((-7i32) as u32, (-2i32) as u32),
        ((-7i32) as u32, 0),
        (5, 32),
        (5, 33),
        (0x8000_0000, 31),
        (0x8000_0000, 63),
        (0xf0f0_f0f0, 36),
        (1, 0xffff_ffff),
        (0x1234_5678, 4),
        (0x1000_0000, 8),
        (0x0008_0000, 12),
        (0, 5),
        (0xffff_ffff, 1),
        (0x8000_0001, 3),
        (0x7fff_ffff, 0x8000_0000),
        (0x0102_0304, 0x0506_0708),
        (0xffff_ffff, 0x0000_0000),
        (0x0000_00ff, 0xffff_ff00),
        (0x8000_0000, 0x8000_0000),
    ];
    let mut rng = Rng(99);
    while pairs.len() < 32 {
        pairs.push((rng.next(), rng.next()));
    }
    let input: Vec<u32> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let want: Vec<u32> = pairs.iter().flat_map(|&(a, b)| alu_int_ref(a, b)).collect();
    // spot checks straight from the spec text
    assert_eq!(alu_int_ref(7, 0)[..2], [!0, !0]);
    assert_eq!(alu_int_ref(0x1000_0000, 0)[7], 28);
    for w in [1, 32] {
        let got = run_io(&p, &input, 8, 32 * 24, 0xcccc_cccc, 1, opts(w));
        expect_words(&format!("{name} warp {w}"), &got, &want, 24);
    }
}

// ---------------------------------------------------------------------------
// 5b. Float ALU.

#[derive(Debug, Clone)]
enum Want {
    Bits(u32),
    AnyOf(Vec<u32>),
    Nan,
    /// a half NaN in the low 16 bits, upper bits 0
    HalfNan,
    /// value, relative tolerance
    Rel(f64, f64),
    /// value, absolute tolerance
    Abs(f64, f64),
    /// correctly rounded value, ULPs
    Ulp(f32, u32),
    /// no rule in the spec for this input (e.g. sin outside ±100π)
    Unspecified,
}

fn ok(w: &Want, got: u32) -> bool {
    let g = f32::from_bits(got);
    match w {
        Want::Bits(b) => got == *b,
        Want::AnyOf(v) => v.contains(&got),
        Want::Nan => g.is_nan(),
        Want::HalfNan => got & 0xffff_0000 == 0 && got & 0x7c00 == 0x7c00 && got & 0x3ff != 0,
        Want::Rel(e, tol) => g.is_finite() && (g as f64 - e).abs() <= tol * e.abs(),
        Want::Abs(e, tol) => g.is_finite() && (g as f64 - e).abs() <= *tol,
        Want::Ulp(e, n) => {
            if e.is_infinite() {
                return g == *e;
            }
            let (a, b) = (got as i64, e.to_bits() as i64);
            (g.is_sign_negative() == e.is_sign_negative() || *e == 0.0)
                && (a - b).abs() <= *n as i64
        }
        Want::Unspecified => true,
    }
}

/// Denormals flush to sign-preserved zero (compute-model §8.1).
fn ftz(b: u32) -> u32 {
    if b & 0x7f80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

fn fl(b: u32) -> f32 {
    f32::from_bits(ftz(b))
}

fn out(x: f32) -> Want {
    if x.is_nan() {
        Want::Nan
    } else {
        Want::Bits(ftz(x.to_bits()))
    }
}

fn half_value(h: u32) -> f64 {
    let e = (h >> 10) & 0x1f;
    let m = (h & 0x3ff) as f64;
    let v = if e == 0 {
        m * 2f64.powi(-24)
    } else if e == 0x1f {
        f64::INFINITY
    } else {
        (1024.0 + m) * 2f64.powi(e as i32 - 25)
    };
    if h & 0x8000 != 0 {
        -v
    } else {
        v
    }
}

/// f32 → half rounding toward zero: the largest half magnitude not above |x| (ISA §7).
fn f32_to_f16_want(xb: u32) -> Want {
    let x = fl(xb);
    let sign = (xb >> 16) & 0x8000;
    if x.is_nan() {
        return Want::HalfNan;
    }
    if x.is_infinite() {
        return Want::Bits(sign | 0x7c00);
    }
    let m = (x as f64).abs();
    let (mut lo, mut hi) = (0u32, 0x7bffu32); // largest h with half_value(h) <= m
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if half_value(mid) <= m {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Want::Bits(sign | lo)
}

fn f16_to_f32_want(xb: u32) -> Want {
    let h = xb & 0xffff; // upper 16 bits ignored
    if (h >> 10) & 0x1f == 0x1f && h & 0x3ff != 0 {
        return Want::Nan;
    }
    Want::Bits((half_value(h) as f32).to_bits())
}

/// min/max (FS §22.10.10–11): NaN loses; ±0 ties may go either way; a
/// denormal result may or may not be flushed.
fn minmax_want(a: u32, b: u32, max: bool) -> Want {
    let (fa, fb) = (fl(a), fl(b));
    match (fa.is_nan(), fb.is_nan()) {
        (true, true) => return Want::Nan,
        (true, false) => return Want::AnyOf(vec![b, ftz(b)]),
        (false, true) => return Want::AnyOf(vec![a, ftz(a)]),
        _ => {}
    }
    let pick = if fa == fb {
        vec![a, ftz(a), b, ftz(b)]
    } else if (fa < fb) != max {
        vec![a, ftz(a)]
    } else {
        vec![b, ftz(b)]
    };
    Want::AnyOf(pick)
}

fn sat(x: f32) -> Want {
    if x.is_nan() || x <= 0.0 {
        Want::Bits(0)
    } else if x >= 1.0 {
        Want::Bits(1f32.to_bits())
    } else {
        Want::Bits(ftz(x.to_bits()))
    }
}

fn flag(b: bool) -> Want {
    Want::Bits(b as u32)
}

const REL: f64 = 1.0 / (1 << 21) as f64;

fn alu_float_ref(xb: u32, yb: u32) -> Vec<Want> {
    let (x, y) = (fl(xb), fl(yb));
    let inf = |neg: bool| Want::Bits(if neg { 0xff80_0000 } else { 0x7f80_0000 });
    let rcp = if x.is_nan() {
        Want::Nan
    } else if x == 0.0 {
        inf(x.is_sign_negative())
    } else if x.is_infinite() {
        Want::Bits(if x < 0.0 { 0x8000_0000 } else { 0 })
    } else {
        Want::Rel(1.0 / x as f64, REL)
    };
    let rsq = if x.is_nan() || x < 0.0 {
        Want::Nan
    } else if x == 0.0 {
        inf(x.is_sign_negative())
    } else if x.is_infinite() {
        Want::Bits(0)
    } else {
        Want::Rel(1.0 / (x as f64).sqrt(), REL)
    };
    let sqrt = if x.is_nan() || x < 0.0 {
        Want::Nan
    } else if x == 0.0 {
        Want::Bits(x.to_bits())
    } else {
        Want::Ulp((x as f64).sqrt() as f32, 1)
    };
    let frc = if !x.is_finite() {
        Want::Nan
    } else {
        Want::Bits((((x as f64) - (x as f64).floor()) as f32 + 0.0).to_bits())
    };
    let exp = if x.is_nan() {
        Want::Nan
    } else if x == f32::NEG_INFINITY {
        Want::Bits(0)
    } else if x == 0.0 {
        Want::Bits(1f32.to_bits())
    } else {
        let e = (x as f64).exp2();
        if e > f32::MAX as f64 {
            Want::Bits(0x7f80_0000)
        } else if e < 1e-38 {
            Want::Bits(0)
        } else {
            Want::Rel(e, REL)
        }
    };
    let log = if x.is_nan() || x < 0.0 {
        Want::Nan
    } else if x == 0.0 {
        inf(true)
    } else if x.is_infinite() {
        inf(false)
    } else if (0.5..=2.0).contains(&x) {
        Want::Abs((x as f64).log2(), REL)
    } else {
        Want::Rel((x as f64).log2(), REL)
    };
    let (sin, cos) = if !x.is_finite() {
        (Want::Nan, Want::Nan)
    } else if x == 0.0 {
        (Want::Bits(x.to_bits()), Want::Bits(1f32.to_bits()))
    } else if (x as f64).abs() <= 100.0 * std::f64::consts::PI {
        (
            Want::Abs((x as f64).sin(), 0.0008),
            Want::Abs((x as f64).cos(), 0.0008),
        )
    } else {
        (Want::Unspecified, Want::Unspecified)
    };
    let div = if x.is_nan() || y.is_nan() {
        Want::Nan
    } else if y == 0.0 {
        if x == 0.0 {
            Want::Nan
        } else {
            inf(x.is_sign_negative() != y.is_sign_negative())
        }
    } else if x.is_infinite() && y.is_infinite() {
        Want::Nan
    } else if x.is_infinite() || x == 0.0 || y.is_infinite() {
        out(x / y)
    } else {
        Want::Ulp(((x as f64) / (y as f64)) as f32, 3)
    };
    let mad = {
        let unfused = fl((fl((x * y).to_bits()) + 1.0).to_bits());
        let fused = fl(x.mul_add(y, 1.0).to_bits());
        if unfused.is_nan() || fused.is_nan() {
            Want::Nan
        } else {
            Want::AnyOf(vec![unfused.to_bits(), fused.to_bits()])
        }
    };
    let neg_mod = if fl(xb).is_nan() {
        Want::Nan
    } else {
        Want::AnyOf(vec![xb ^ 0x8000_0000, ftz(xb) ^ 0x8000_0000])
    };
    let abs_mod = if fl(xb).is_nan() {
        Want::Nan
    } else {
        Want::AnyOf(vec![xb & 0x7fff_ffff, ftz(xb) & 0x7fff_ffff])
    };
    vec![
        f32_to_f16_want(xb),
        f16_to_f32_want(xb),
        Want::Bits(x as i32 as u32), // ftoi: truncate, saturate, NaN → 0
        Want::Bits(x as u32),        // ftou
        Want::Bits((xb as i32 as f32).to_bits()),
        Want::Bits((xb as f32).to_bits()),
        minmax_want(yb, xb, false),
        minmax_want(yb, xb, true),
        rcp,
        rsq,
        sqrt,
        out(x.round_ties_even()),
        out(x.floor()),
        out(x.ceil()),
        out(x.trunc()),
        frc,
        out(0.0 + x),
        out(1.0 * x),
        out(x + -0.0),
        sat(x),
        Want::Bits(if xb != 0 { yb } else { 0x1234_5678 }), // movc tests bits
        flag(y == x),
        flag(y != x),
        flag(x < y),
        flag(x >= y),
        flag(y < x),
        flag(y >= x),
        exp,
        log,
        sin,
        cos,
        out(y * x),
        out(x + y),
        div,
        Want::Bits(xb),
        neg_mod,
        abs_mod,
        mad,
        out(-x.abs()),
        sat(x),
    ]
}

#[test]
fn alu_float_edge_cases() {
    let name = "alu_float";
    assert_listing_has(
        name,
        &[
            "f32tof16", "f16tof32", "ftoi", "ftou", "itof", "utof", "min", "max", "rcp", "rsq",
            "sqrt", "round_ne", "round_ni", "round_pi", "round_z", "frc", "add", "mul", "mov_sat",
            "movc", "eq", "ne", "lt", "ge", "exp", "log", "sincos", "div", "mad",
        ],
    );
    let p = load(name);
    let nan = 0x7fc0_0000u32;
    let b = |f: f32| f.to_bits();
    let cases: Vec<(u32, u32)> = vec![
        (b(1024.75), b(2.0)),
        (b(100000.0), b(-0.0)),
        (b(2f32.powi(-24)), b(1.0)),
        (b(-1.0), nan),
        (b(f32::INFINITY), b(1.0)),
        (b(f32::NEG_INFINITY), b(f32::NEG_INFINITY)),
        (nan, b(3.0)),
        (b(0.0), b(-0.0)),
        (b(-0.0), b(0.0)),
        (b(0.5), b(-0.5)),
        (b(-0.5), b(0.5)),
        (b(1.5), 0xffc0_0001),
        (b(-1.5), b(-2.5)),
        (b(2.5), b(2.5)),
        (b(-2.5), b(1e30)),
        (b(3e9), b(0.0)),
        (b(-3e9), b(1.0)),
        (b(5e9), b(2.0)),
        (b(-7.75), b(4.0)),
        (0x0000_0001, b(1.0)),  // denormal
        (0x807f_ffff, b(-0.0)), // negative denormal
        (0x0080_0000, b(0.5)),  // smallest normal
        (b(65504.0), b(65520.0)),
        (b(65520.0), b(1.0)),
        (b(2.0), b(-0.0)),
        (b(-0.25), b(4.0)),
        (0xffff_3c00, b(1.0)),  // a NaN as float; f16tof32 → 1.0
        (0x0000_7c00, b(0.0)),  // denormal float; half +INF
        (0x0000_fc00, nan),     // half -INF
        (0x0000_7e00, b(-1.0)), // half NaN
        (b(-8.0), b(0.0)),
        (b(0.1), 0x0000_0010), // y denormal
    ];
    assert_eq!(cases.len(), 32);
    // the spec's own examples
    assert!(matches!(f32_to_f16_want(b(1024.75)), Want::Bits(0x6400)));
    assert!(matches!(f32_to_f16_want(b(100000.0)), Want::Bits(0x7bff)));
    assert!(matches!(f32_to_f16_want(b(2f32.powi(-24))), Want::Bits(1)));
    assert!(matches!(
        f16_to_f32_want(0xffff_3c00),
        Want::Bits(0x3f80_0000)
    ));
    let input: Vec<u32> = cases.iter().flat_map(|&(x, y)| [x, y, 0, b(1.0)]).collect();
    for w in [1, 32] {
        let got = run_io(&p, &input, 16, 32 * 40, 0xcccc_cccc, 1, opts(w));
        let mut bad = Vec::new();
        for (t, &(x, y)) in cases.iter().enumerate() {
            let want = alu_float_ref(x, y);
            assert_eq!(want.len(), 40);
            for (k, wk) in want.iter().enumerate() {
                let g = got[t * 40 + k];
                if !ok(wk, g) {
                    bad.push(format!(
                        "thread {t} out {k}: x={x:#010x} ({}) y={y:#010x} ({}): got {g:#010x} ({}), want {wk:?}",
                        f32::from_bits(x),
                        f32::from_bits(y),
                        f32::from_bits(g)
                    ));
                }
            }
        }
        assert!(bad.is_empty(), "{name} warp {w}:\n{}", bad.join("\n"));
    }
}

// ---------------------------------------------------------------------------
// 6. Unsupported features are refused at load time, with mnemonic and offset.

#[test]
fn texture_load_reads_texels_and_zero_out_of_range() {
    use sm5sim::sim_mem::{Format, Texture, TextureDesc, TextureView, ViewDimension, ViewRange};
    let name = "unsupported_texture";
    let p = Program::from_dxbc(&dxbc(name), &LoadOptions::default()).unwrap();
    // a 4x1 R32G32B32A32_FLOAT texture: texel x holds (x, x+0.25, x+0.5, x+0.75)
    let tex = Texture::new(TextureDesc::texture2d(Format::R32G32B32A32_FLOAT, 4, 1)).unwrap();
    let bytes: Vec<u8> = (0..4)
        .flat_map(|x| [0.0f32, 0.25, 0.5, 0.75].map(|d| x as f32 + d))
        .flat_map(f32::to_le_bytes)
        .collect();
    tex.write_subresource(0, 0, &bytes).unwrap();
    let view = TextureView::srv(
        &tex,
        ViewDimension::Texture2D,
        Format::R32G32B32A32_FLOAT,
        ViewRange::default(),
    )
    .unwrap();
    let out = Buffer::from_words(&[0xdead_beef; 32]);
    let b = Bindings {
        uavs: vec![Some(BufferView::structured(&out, 16).unwrap())],
        srv_textures: vec![Some(view)],
        ..Default::default()
    };
    dispatch(&p, &b, [1, 1, 1], &DispatchOptions::default()).unwrap();
    let got: Vec<f32> = out.to_words().into_iter().map(f32::from_bits).collect();
    for t in 0..8 {
        // FS §22.4.6: x ≥ width is out of range: 0 in the four present channels
        let want = if t < 4 {
            [0.0, 0.25, 0.5, 0.75].map(|d| t as f32 + d)
        } else {
            [0.0; 4]
        };
        assert_eq!(got[4 * t..4 * t + 4], want, "thread {t}");
    }
}

#[test]
fn unsupported_register_space_is_refused_with_mnemonic_and_offset() {
    // sm5sim binds register space 0 only: a space-1 range is Unsupported at its declaration.
    let listing = "cs_5_1
dcl_globalFlags refactoringAllowed
dcl_resource_buffer (uint,uint,uint,uint) T0[0:0], space=1
dcl_uav_typed_texture2d (unorm,unorm,unorm,unorm) U0[0:0], space=0
dcl_temps 1
dcl_thread_group 1, 1, 1
ld_indexable(buffer)(uint,uint,uint,uint) r0.xyzw, l(0, 0, 0, 0), T0[0].xyzw
store_uav_typed U0[0].xyzw, l(0, 0, 0, 0), r0.xyzw
ret
";
    match Program::from_listing(listing) {
        Err(LoadError::Unsupported {
            mnemonic,
            token,
            what,
        }) => {
            assert!(mnemonic.starts_with("dcl_resource"), "{mnemonic}");
            assert!(token > 0, "dword offset of the declaration");
            assert!(what.contains("space 1"), "{what}");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
