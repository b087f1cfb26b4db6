//! `sm5sim disasm` prints the instruction and declaration lines of the eight
//! workloads exactly as fxc does (the `.asm` beside each `.dxbc` in `examples/`).

use sim_core::front::disasm::disassemble_lines;
use sim_core::{LoadOptions, Program};
use std::path::Path;

/// The body of an fxc listing: every line that is not a comment or blank.
fn fxc_body(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter(|l| !l.trim_start().starts_with("//") && !l.trim().is_empty())
        .map(|l| l.to_string())
        .collect()
}

pub const WORKLOADS: [&str; 8] = [
    "cas_float_add",
    "global_histogram",
    "histogram",
    "mandelbrot",
    "matmul",
    "reduce",
    "saxpy_structured",
    "scan",
];

#[test]
fn workload_listings_match_fxc_line_for_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for name in WORKLOADS {
        let bytes = std::fs::read(dir.join(name).join(format!("{name}.dxbc"))).unwrap();
        let listing = std::fs::read_to_string(dir.join(name).join(format!("{name}.asm"))).unwrap();
        let decoded = Program::decode_only(&bytes, &LoadOptions::default()).unwrap();
        let ours = disassemble_lines(&decoded);
        let theirs = fxc_body(&listing);
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{name}: line {i} differs");
        }
        assert_eq!(ours.len(), theirs.len(), "{name}: line count");
    }
}
