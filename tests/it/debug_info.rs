//! HLSL lines from fxc's debug information (`/Zi`, the `SPDB` chunk):
//! every instruction of the committed `/Zi` builds in `tests/debug_info/`
//! (the examples' shaders, and one whose calls are inlined from itself and
//! from an include) maps to the file and line that fxc's own listing of the
//! same build prints before it (`#line`); groupshared variables are named.

use sm5sim::sim_core::isa::opcodes::Class;
use sm5sim::sim_core::{LoadOptions, Program};
use std::path::Path;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/debug_info")
}

/// The (file, line) fxc's listing gives each executable instruction, in
/// order: the last `#line N ["file"]` before it.
fn listing_lines(listing: &str) -> Vec<(String, u32)> {
    let (mut file, mut line) = (String::new(), 0);
    let mut out = Vec::new();
    let mut started = false;
    for l in listing.lines().map(str::trim) {
        if l.starts_with("cs_") {
            started = true;
            continue;
        }
        if !started || l.is_empty() || l.starts_with("//") || l.starts_with("dcl_") {
            continue;
        }
        if let Some(rest) = l.strip_prefix("#line ") {
            let mut it = rest.splitn(2, ' ');
            line = it.next().unwrap().parse().unwrap();
            if let Some(f) = it.next() {
                file = f.trim_matches('"').to_string();
            }
            continue;
        }
        out.push((file.clone(), line));
    }
    out
}

fn load(name: &str) -> Program {
    let bytes = std::fs::read(dir().join(format!("{name}.dxbc"))).unwrap();
    Program::from_dxbc(&bytes, &LoadOptions::default()).unwrap()
}

#[test]
fn every_instruction_has_the_line_fxc_lists() {
    let names = [
        "histogram",
        "global_histogram",
        "reduce",
        "scan",
        "matmul",
        "cas_float_add",
        "saxpy_structured",
        "mandelbrot",
        "gaussian_blur",
        "downsample_tonemap",
        "inl",
    ];
    let mut checked = 0;
    for name in names {
        let p = load(name);
        assert!(
            p.debug_info_error.is_none(),
            "{name}: {:?}",
            p.debug_info_error
        );
        let map = p
            .source_map
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: no lines"));
        let listing = std::fs::read_to_string(dir().join(format!("{name}.asm"))).unwrap();
        let want = listing_lines(&listing);
        let got: Vec<(String, u32)> = p
            .decoded
            .instructions
            .iter()
            .filter(|i| i.opcode.info().class != Class::Decl)
            .map(|i| {
                let at = map
                    .line_at(i.offset)
                    .unwrap_or_else(|| panic!("{name}: no line at dword {}", i.offset));
                (map.files[at.file].name.clone(), at.line)
            })
            .collect();
        assert_eq!(got.len(), want.len(), "{name}: instructions");
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                g.1 == w.1 && g.0.eq_ignore_ascii_case(&w.0),
                "{name}: instruction {k}: {g:?}, the listing says {w:?}"
            );
        }
        checked += got.len();
    }
    assert!(checked > 300, "{checked} instructions");
}

#[test]
fn inlined_calls_take_the_line_inside_the_function_and_files_carry_their_text() {
    let p = load("inl");
    let map = p.source_map.unwrap();
    let names: Vec<&str> = map.files.iter().map(|f| f.base_name()).collect();
    assert!(
        names.contains(&"inl.hlsl") && names.contains(&"helpers.hlsli"),
        "{names:?}"
    );
    // some instruction comes from `sq` in the include (line 3: `return x * x;`)
    let lines: Vec<_> = p
        .decoded
        .instructions
        .iter()
        .filter_map(|i| map.line_at(i.offset))
        .collect();
    let helper = lines
        .iter()
        .find(|at| map.files[at.file].base_name() == "helpers.hlsli")
        .expect("an instruction of the included function");
    assert_eq!(helper.line, 3);
    assert_eq!(
        map.files[helper.file].line_text(3).map(str::trim),
        Some("return x * x;")
    );
    assert_eq!(map.describe(*helper), "helpers.hlsli:3");
    // and some from `poly` in the main file, inside the function
    assert!(lines
        .iter()
        .any(|at| map.files[at.file].base_name() == "inl.hlsl" && at.line == 6));
}

/// The groupshared variables of a `/Zi` build are named by register
/// (`S_LDATA_HLSL` records), and the checker's reports name them; a build
/// without debug information names none.
#[test]
fn groupshared_variables_are_named_in_the_checkers_reports() {
    let map = load("groupshared").source_map.unwrap();
    let vars: Vec<(&str, u32, u32)> = (map.groupshared.iter())
        .map(|v| (v.name.as_str(), v.slot, v.offset))
        .collect();
    assert_eq!(vars, [("partial", 0, 0), ("ready", 1, 0)]);
    let job = dir().join("groupshared.toml");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(["check", job.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("error[raw] g0[1] ('partial') byte 4"),
        "{text}"
    );
    assert!(text.contains("error[raw] g1[0] ('ready') byte 0"), "{text}");
    // the race suite's builds have no debug information: no name
    let races = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/races");
    let bytes = std::fs::read(races.join("tgsm_raw_no_barrier_bug.dxbc")).unwrap();
    let p = Program::from_dxbc(&bytes, &LoadOptions::default()).unwrap();
    assert!(p.source_map.is_none());
}

#[test]
fn a_build_without_debug_information_has_no_lines_and_a_broken_one_loads_with_its_error() {
    let plain = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mandelbrot/mandelbrot.dxbc"),
    )
    .unwrap();
    let p = Program::from_dxbc(&plain, &LoadOptions::default()).unwrap();
    assert!(p.source_map.is_none() && p.debug_info_error.is_none());

    // the SPDB chunk's MSF header overwritten: the program still loads
    let mut bytes = std::fs::read(dir().join("mandelbrot.dxbc")).unwrap();
    let at = bytes
        .windows(4)
        .position(|w| w == b"SPDB")
        .expect("an SPDB chunk");
    bytes[at + 8..at + 16].copy_from_slice(b"garbage!");
    let options = LoadOptions {
        verify_checksum: false,
        ..Default::default()
    };
    let p = Program::from_dxbc(&bytes, &options).unwrap();
    assert!(p.source_map.is_none());
    let e = p.debug_info_error.expect("the reader's error");
    assert!(e.to_string().contains("SPDB"), "{e}");
}

/// The register annotations of fxc's listing (`// r0.x <- cx; r0.y <-
/// cy`, written on the instruction that fills the register): for each,
/// the local of that name (`s.x`: the piece at byte 0 of `s`) lives in
/// that register component before the next instruction, as the
/// `S_LOCAL`/`S_DEFRANGE_HLSL` records give it.
#[test]
fn every_register_annotation_of_the_listing_is_a_live_local() {
    let names = [
        "histogram",
        "global_histogram",
        "reduce",
        "scan",
        "matmul",
        "cas_float_add",
        "saxpy_structured",
        "mandelbrot",
        "gaussian_blur",
        "downsample_tonemap",
        "inl",
        "race",
        "groupshared",
    ];
    let mut checked = 0;
    for name in names {
        let p = load(name);
        let map = p.source_map.as_ref().unwrap();
        let listing = std::fs::read_to_string(dir().join(format!("{name}.asm"))).unwrap();
        let code: Vec<u32> = (p.decoded.instructions.iter())
            .filter(|i| i.opcode.info().class != Class::Decl)
            .map(|i| i.offset)
            .collect();
        let mut k = 0;
        let mut started = false;
        for l in listing.lines().map(str::trim) {
            if l.starts_with("cs_") {
                started = true;
                continue;
            }
            if !started || l.is_empty() || l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            if l.starts_with("dcl_") {
                continue;
            }
            if let Some((_, notes)) = l.split_once("//") {
                for note in notes.split(';') {
                    let (reg, var) = note.split_once("<-").unwrap();
                    let (reg, var) = (reg.trim(), var.trim());
                    let (r, c) = reg[1..].split_once('.').unwrap();
                    let (r, c): (u32, u32) = (r.parse().unwrap(), "xyzw".find(c).unwrap() as u32);
                    let (base, offset) = match var.rsplit_once('.') {
                        Some((b, comp)) if comp.len() == 1 => {
                            (b, 4 * "xyzw".find(comp).unwrap() as u32)
                        }
                        _ => (var, 0),
                    };
                    let next = code[k + 1];
                    let found = map.locals.iter().filter(|v| v.name == base).any(|v| {
                        v.pieces.iter().any(|p| {
                            p.offset == offset
                                && p.live_at(next)
                                && p.register
                                    == sim_core::front::debug_info::VariableRegister::Temp {
                                        reg: r,
                                        comp: c,
                                    }
                        })
                    });
                    assert!(
                        found,
                        "{name}: instruction {k} ({l}): {var} in r{r}.{c} at dword {next}: {:#?}",
                        map.locals
                            .iter()
                            .filter(|v| v.name == base)
                            .collect::<Vec<_>>()
                    );
                    checked += 1;
                }
            }
            k += 1;
        }
        assert_eq!(k, code.len(), "{name}");
    }
    assert!(checked >= 60, "{checked} annotations");
}

/// mandelbrot's locals: names, kinds, and `dtid` in `vThreadID`.
#[test]
fn locals_have_their_kinds_and_inputs_their_registers() {
    use sim_core::front::debug_info::{ScalarKind, VariableRegister};
    let p = load("mandelbrot");
    let map = p.source_map.unwrap();
    let kind = |n: &str| map.locals.iter().find(|v| v.name == n).unwrap().kind;
    assert_eq!(kind("cx"), ScalarKind::Float);
    assert_eq!(kind("i"), ScalarKind::Uint);
    assert_eq!(kind("dtid"), ScalarKind::Uint);
    let dtid = map.locals.iter().find(|v| v.name == "dtid").unwrap();
    assert!(dtid.parameter && dtid.size == 12 && dtid.function == "main");
    let regs: Vec<_> = dtid.pieces.iter().map(|p| (p.offset, p.register)).collect();
    assert_eq!(
        regs,
        (0..3)
            .map(|c| (
                4 * c,
                VariableRegister::Input {
                    operand_type: 32,
                    comp: c
                }
            ))
            .collect::<Vec<_>>()
    );
    // an inlined function's frame, innermost first, in inl
    let p = load("inl");
    let map = p.source_map.unwrap();
    let deepest = (p.decoded.instructions.iter())
        .map(|i| map.frames_at(i.offset))
        .max_by_key(|f| f.len())
        .unwrap();
    assert!(deepest.len() >= 2, "{deepest:?}");
    assert_eq!(deepest.last().unwrap().function, "main");
    assert_ne!(deepest[0].function, "main");
}
