//! Bad shader bytes give a typed error and never a panic, through the whole
//! loader (container, RDEF, token decoder, validation and lowering).

use sm5sim::sim_core::{LoadError, LoadOptions, Program};
use std::path::Path;

const WORKLOADS: [&str; 8] = [
    "cas_float_add",
    "global_histogram",
    "histogram",
    "mandelbrot",
    "matmul",
    "reduce",
    "saxpy_structured",
    "scan",
];

fn workload(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .join(format!("{name}.dxbc"));
    std::fs::read(p).unwrap()
}

const VERIFY: LoadOptions = LoadOptions {
    verify_checksum: true,
    max_memory: None,
    cancel: None,
};
const SKIP: LoadOptions = LoadOptions {
    verify_checksum: false,
    max_memory: None,
    cancel: None,
};

#[test]
fn every_four_byte_truncation_is_an_error() {
    for name in WORKLOADS {
        let bytes = workload(name);
        assert!(Program::from_dxbc(&bytes, &VERIFY).is_ok());
        for len in (0..bytes.len()).step_by(4) {
            for opts in [VERIFY, SKIP] {
                assert!(
                    Program::from_dxbc(&bytes[..len], &opts).is_err(),
                    "{name} truncated to {len} bytes loaded"
                );
            }
        }
    }
}

/// xorshift64*, deterministic.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut loaded = 0;
    let mut refused = 0;
    for name in WORKLOADS {
        let bytes = workload(name);
        for _ in 0..1500 {
            let mut b = bytes.clone();
            let flips = 1 + rng.next() % 4;
            for _ in 0..flips {
                let i = (rng.next() % b.len() as u64) as usize;
                b[i] ^= 1 << (rng.next() % 8);
            }
            if b == bytes {
                continue; // two flips of the same bit undo each other
            }
            // With the checksum verified, any change is refused.
            assert!(Program::from_dxbc(&b, &VERIFY).is_err());
            // Without it, the decoder and validator must cope on their own.
            match Program::from_dxbc(&b, &SKIP) {
                Ok(_) => loaded += 1,
                Err(e) => {
                    refused += 1;
                    assert!(!e.to_string().is_empty());
                }
            }
        }
    }
    // Flips in unused bytes (RDEF strings, STAT) still load; flips in
    // tokens mostly do not. Both outcomes must occur.
    assert!(
        loaded > 0 && refused > 0,
        "loaded {loaded}, refused {refused}"
    );
}

#[test]
fn random_token_words_never_panic() {
    // Replace whole dwords of the token stream with random values: reaches
    // deeper into the decoder than bit flips.
    let mut rng = Rng(42);
    let bytes = workload("matmul");
    let shex = bytes.windows(4).position(|w| w == b"SHEX").unwrap() + 8;
    for _ in 0..3000 {
        let mut b = bytes.clone();
        let words = (b.len() - shex) / 4;
        let i = shex + 4 * (rng.next() % words as u64) as usize;
        let v = rng.next() as u32;
        b[i..i + 4].copy_from_slice(&v.to_le_bytes());
        let _ = Program::from_dxbc(&b, &SKIP);
    }
}

#[test]
fn errors_say_where() {
    let mut b = workload("histogram");
    let shex = b.windows(4).position(|w| w == b"SHEX").unwrap() + 8;
    // Opcode 0x6b (reserved) as the first instruction after the header.
    b[shex + 8..shex + 12].copy_from_slice(&0x0100_006bu32.to_le_bytes());
    match Program::from_dxbc(&b, &SKIP) {
        Err(LoadError::Decode {
            token, file_byte, ..
        }) => {
            assert_eq!(token, 2);
            assert_eq!(file_byte, shex + 8);
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
    let msg = Program::from_dxbc(&b, &VERIFY).unwrap_err().to_string();
    assert!(msg.contains("checksum"), "{msg}");
}

/// Replace the dword sequence `from` by `to` in the SHEX chunk and re-sign the container.
fn patch(name: &str, from: &[u32], to: &[u32]) -> Vec<u8> {
    let mut b = workload(name);
    let find: Vec<u8> = from.iter().flat_map(|w| w.to_le_bytes()).collect();
    let at = b
        .windows(find.len())
        .position(|w| w == find.as_slice())
        .unwrap_or_else(|| panic!("{name}: tokens {from:x?} not found"));
    for (i, w) in to.iter().enumerate() {
        b[at + 4 * i..at + 4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    sm5sim::sim_core::front::container::update_checksum(&mut b).unwrap();
    b
}

fn invalid_message(bytes: &[u8]) -> String {
    match Program::from_dxbc(bytes, &VERIFY) {
        Err(e @ LoadError::Invalid { .. }) => e.to_string(),
        other => panic!("expected LoadError::Invalid, got {other:?}"),
    }
}

#[test]
fn tgsm_over_32_kib_is_refused_at_load() {
    // histogram: dcl_tgsm_structured g0, 4, 256 (0x040000a0, g0 operand 0x0011f000, 0, 4, 256)
    let ok = patch(
        "histogram",
        &[0x0011f000, 0, 4, 256],
        &[0x0011f000, 0, 4, 8192],
    );
    assert!(
        Program::from_dxbc(&ok, &VERIFY).is_ok(),
        "exactly 32 KiB is allowed"
    );
    let bad = patch(
        "histogram",
        &[0x0011f000, 0, 4, 256],
        &[0x0011f000, 0, 4, 8193],
    );
    let msg = invalid_message(&bad);
    assert!(msg.contains("32768"), "{msg}");
    assert!(msg.contains("dcl_tgsm_structured"), "{msg}");
}

#[test]
fn thread_group_limits_are_checked_at_load() {
    // histogram: dcl_thread_group 256, 1, 1
    let dcl = 0x0400_009b;
    for (size, ok) in [
        ([1024, 1, 1], true),
        ([1025, 1, 1], false),
        ([1, 1, 64], true),
        ([1, 1, 65], false),
        ([32, 32, 2], false), // 2048 threads
        ([0, 1, 1], false),
    ] {
        let b = patch(
            "histogram",
            &[dcl, 256, 1, 1],
            &[dcl, size[0], size[1], size[2]],
        );
        match Program::from_dxbc(&b, &VERIFY) {
            Ok(p) => {
                assert!(ok, "{size:?} loaded");
                assert_eq!(p.thread_group, size);
            }
            Err(e) => {
                assert!(!ok, "{size:?} refused: {e}");
                assert!(matches!(e, LoadError::Invalid { .. }), "{e:?}");
                assert!(e.to_string().contains("dcl_thread_group"), "{e}");
            }
        }
    }
}

#[test]
fn undeclared_registers_are_refused_at_load() {
    // histogram: dcl_temps 1 -> 0; the shader uses r0.
    let b = patch("histogram", &[0x0200_0068, 1], &[0x0200_0068, 0]);
    let msg = invalid_message(&b);
    assert!(msg.contains("r0 is not declared"), "{msg}");
}

/// Flow control nests at most 64 deep per routine (FS §7.12): 64 nested
/// loops load, 65 are refused naming the limit, and 100,000 are refused at
/// once instead of costing a minute of set-up.
#[test]
fn flow_control_nesting_is_limited_to_64() {
    let listing = |depth: usize| {
        let mut t =
            String::from("cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_thread_group 1, 1, 1\n");
        t.push_str(&"loop\nbreak\n".repeat(depth));
        t.push_str(&"endloop\n".repeat(depth));
        t.push_str("ret\n");
        t
    };
    let load = |depth: usize| -> Result<(), String> {
        let asm =
            sm5sim::sim_core::front::asm::assemble(&listing(depth)).map_err(|e| e.to_string())?;
        let words =
            sm5sim::sim_core::front::encode::encode_program(&asm).map_err(|e| e.to_string())?;
        let dxbc = sm5sim::sim_core::front::encode::write_container(&words, None);
        Program::from_dxbc(&dxbc, &SKIP)
            .map(drop)
            .map_err(|e| e.to_string())
    };
    assert_eq!(load(64), Ok(()));
    let e = load(65).unwrap_err();
    assert!(
        e.contains("flow control nested 65 deep; at most 64 per routine (FS §7.12)"),
        "{e}"
    );
    let start = std::time::Instant::now();
    let e = load(100_000).unwrap_err();
    assert!(e.contains("at most 64 per routine"), "{e}");
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
