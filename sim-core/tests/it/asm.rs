//! The assembler against real fxc listings (`reference/asm-syntax.md`):
//! for every listing/bytecode pair of the workloads (`../examples/*/`) and
//! of the third-party corpus (`../tests/corpus/`: xenia and NvCloth `.asm`,
//! bgfx `.asm` from D3DDisassemble),
//!
//! (a) encoding the assembled listing gives the SHEX words, except for float
//!     literals that the listing prints with too few digits (§5.1): each such
//!     dword is collected and the count per file must equal the table below;
//! (b) disassembling the assembled listing reproduces the listing's
//!     declaration and instruction lines.
//!
//! Custom-data blocks other than the immediate constant buffer (NvCloth's
//! opaque class-2 block, dxbc-format.md §3.3) have no listing text; they are
//! removed from the expected words and counted.
//!
//! Run with `--nocapture` for the figures and the lossy literals.

use std::path::{Path, PathBuf};

use sim_core::front::asm::{assemble, assemble_with_literals, AsmError};
use sim_core::front::container::{ChecksumPolicy, Container};
use sim_core::front::decode::decode_program;
use sim_core::front::disasm::disassemble_lines;
use sim_core::front::encode::encode_program;
use sim_core::ir::*;
use sim_core::isa::opcodes::Opcode;

/// Lossy float literals per file (§5.1): listing text that does not parse
/// back to the bytecode's bits, though the bits print as that text. Files
/// not named here have none.
const EXPECTED_LOSSY: &[(&str, usize)] = &[
    ("DxSolverKernelBlob.dxbc", 84),
    ("cs_assao_apply.dxbc", 5),
    ("cs_assao_generate_q0.dxbc", 63),
    ("cs_assao_generate_q1.dxbc", 66),
    ("cs_assao_generate_q2.dxbc", 66),
    ("cs_assao_generate_q3.dxbc", 67),
    ("cs_assao_generate_q3base.dxbc", 62),
    ("cs_assao_non_smart_apply.dxbc", 1),
    ("cs_assao_non_smart_half_apply.dxbc", 1),
    ("cs_assao_smart_blur.dxbc", 4),
    ("cs_assao_smart_blur_wide.dxbc", 8),
    ("cs_atmo_multiscatter.dxbc", 9),
    ("cs_atmo_skyview.dxbc", 14),
    ("cs_atmo_transmittance.dxbc", 1),
    ("cs_drawindirect.dxbc", 2),
    ("cs_drawindirect_count.dxbc", 2),
    ("cs_fsr_easu_16.dxbc", 4),
    ("cs_fsr_easu_32.dxbc", 4),
    ("cs_init_instances.dxbc", 8),
    ("cs_update_instances.dxbc", 1),
    ("apply_gamma_pwl_cs.dxbc", 3),
    ("apply_gamma_pwl_fxaa_luma_cs.dxbc", 3),
    ("fxaa_cs.dxbc", 1),
    ("fxaa_extreme_cs.dxbc", 1),
    ("resolve_full_128bpp_cs.dxbc", 120),
    ("resolve_full_128bpp_scaled_cs.dxbc", 120),
    ("resolve_full_16bpp_cs.dxbc", 240),
    ("resolve_full_16bpp_scaled_cs.dxbc", 240),
    ("resolve_full_32bpp_cs.dxbc", 240),
    ("resolve_full_32bpp_scaled_cs.dxbc", 240),
    ("resolve_full_64bpp_cs.dxbc", 240),
    ("resolve_full_64bpp_scaled_cs.dxbc", 240),
    ("resolve_full_8bpp_cs.dxbc", 128),
    ("resolve_full_8bpp_scaled_cs.dxbc", 128),
    ("texture_load_depth_unorm_cs.dxbc", 8),
    ("texture_load_depth_unorm_scaled_cs.dxbc", 8),
    ("texture_load_r16_snorm_float_cs.dxbc", 16),
    ("texture_load_r16_snorm_float_scaled_cs.dxbc", 16),
    ("texture_load_r16_unorm_float_cs.dxbc", 16),
    ("texture_load_r16_unorm_float_scaled_cs.dxbc", 16),
    ("texture_load_rg16_snorm_float_cs.dxbc", 16),
    ("texture_load_rg16_snorm_float_scaled_cs.dxbc", 16),
    ("texture_load_rg16_unorm_float_cs.dxbc", 16),
    ("texture_load_rg16_unorm_float_scaled_cs.dxbc", 16),
    ("texture_load_rgba16_snorm_float_cs.dxbc", 16),
    ("texture_load_rgba16_snorm_float_scaled_cs.dxbc", 16),
    ("texture_load_rgba16_unorm_float_cs.dxbc", 16),
    ("texture_load_rgba16_unorm_float_scaled_cs.dxbc", 16),
    ("downsample_tonemap.dxbc", 3),
    ("gaussian_blur.dxbc", 24),
];

/// Listing/bytecode pairs.
fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("../tests/corpus");
    assert!(
        corpus.is_dir(),
        "{} is missing: the corpus is part of the repository",
        corpus.display()
    );
    let mut v = Vec::new();
    for dir in [root.join("../examples"), corpus] {
        for sub in std::fs::read_dir(&dir).unwrap() {
            let sub = sub.unwrap().path();
            if !sub.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&sub).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "dxbc") {
                    let stem = f.with_extension("");
                    let listing = [stem.with_extension("fxc.asm"), stem.with_extension("asm")]
                        .into_iter()
                        .find(|p| p.is_file())
                        .unwrap_or_else(|| panic!("no listing beside {}", f.display()));
                    v.push((f, listing));
                }
            }
        }
    }
    v.sort();
    v
}

fn shader_words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap();
    let c = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
    let words: Vec<u32> = c
        .shader_chunk()
        .unwrap()
        .data
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let len = (words[1] as usize).min(words.len());
    words[..len].to_vec()
}

/// The words without custom-data blocks other than the ICB, and how many
/// blocks were removed.
fn without_opaque_blocks(words: &[u32]) -> (Vec<u32>, usize) {
    let p = decode_program(words).unwrap();
    let mut out = words[..2].to_vec();
    let mut removed = 0;
    let ends: Vec<usize> = p
        .instructions
        .iter()
        .skip(1)
        .map(|i| i.offset as usize)
        .chain([words.len()])
        .collect();
    for (ins, end) in p.instructions.iter().zip(ends) {
        if ins.opcode == Opcode::CustomData && ins.token >> 11 != 3 {
            removed += 1;
            continue;
        }
        out.extend_from_slice(&words[ins.offset as usize..end]);
    }
    out[1] = out.len() as u32;
    (out, removed)
}

/// How the disassembler prints a float (`%f`, MSVC style): the text of the
/// immediate of `add r0.x, r0.x, l(bits)`.
fn disasm_float_text(bits: u32) -> String {
    let r0x = |sel| Operand {
        ty: OperandType::Temp,
        components: Components::Four(sel),
        indices: vec![Index { imm: 0, rel: None }],
        modifier: Modifier::None,
        min_precision: 0,
        non_uniform: false,
        imm: vec![],
    };
    let imm = Operand {
        ty: OperandType::Immediate32,
        components: Components::One,
        indices: vec![],
        modifier: Modifier::None,
        min_precision: 0,
        non_uniform: false,
        imm: vec![bits],
    };
    let p = DecodedProgram {
        version: ShaderVersion {
            program_type: ProgramType::Compute,
            major: 5,
            minor: 0,
        },
        instructions: vec![Instruction {
            offset: 2,
            opcode: Opcode::Add,
            token: 0,
            extended: ExtendedOpcode::default(),
            operands: vec![r0x(Selection::Mask(1)), r0x(Selection::Select1(0)), imm],
            raw: vec![],
        }],
    };
    let line = disassemble_lines(&p).pop().unwrap();
    let start = line.find("l(").unwrap() + 2;
    line[start..line.len() - 1].to_string()
}

/// Listing body: lines that are not comments or blank, trimmed, with the
/// multi-line immediate constant buffer joined into one line.
fn body(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut icb: Option<String> = None;
    for l in text.lines() {
        let t = l.trim();
        if t.is_empty() || t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        if let Some(acc) = icb.as_mut() {
            acc.push(' ');
            acc.push_str(t);
            if t.ends_with("} }") || t == "}" {
                out.push(icb.take().unwrap());
            }
            continue;
        }
        if t.starts_with("dcl_immediateConstantBuffer") && !t.ends_with("} }") {
            icb = Some(t.to_string());
            continue;
        }
        out.push(t.to_string());
    }
    out
}

#[test]
fn assemble_corpus_listings_to_their_bytecode() {
    let pairs = pairs();
    assert!(
        pairs.len() > 100,
        "expected the corpus, found {} pairs",
        pairs.len()
    );
    let mut exact = 0;
    let mut failures = Vec::new();
    let mut lossy: Vec<(String, usize)> = Vec::new();
    let mut removed_blocks = 0;
    for (dxbc, listing) in &pairs {
        let name = dxbc.file_name().unwrap().to_string_lossy().to_string();
        let (expected, removed) = without_opaque_blocks(&shader_words(dxbc));
        removed_blocks += removed;
        let text = std::fs::read_to_string(listing).unwrap();
        let asm = match assemble_with_literals(&text) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let ours = encode_program(&asm.program).unwrap();
        // The assembled IR is what the decoder makes of its encoding: tokens
        // (length, extended bit) and offsets are right on their own.
        assert_eq!(
            decode_program(&ours).unwrap(),
            asm.program,
            "{name}: assembled IR differs from the decoded encoding"
        );
        if removed > 0 {
            println!(
                "{name}: {removed} opaque custom-data block(s) removed from the expected words"
            );
        }
        if ours.len() != expected.len() {
            let at = ours
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            failures.push(format!(
                "{name}: {} dwords, bytecode has {}; first difference at dword {at}: {:08x?} vs {:08x?}",
                ours.len(),
                expected.len(),
                ours.get(at),
                expected.get(at)
            ));
            continue;
        }
        let mut file_lossy = 0;
        let mut bad = None;
        for (k, (&a, &b)) in ours.iter().zip(&expected).enumerate() {
            if a == b {
                continue;
            }
            let lit = asm
                .literals
                .iter()
                .find(|l| l.words == 1 && l.dword as usize == k);
            match lit {
                Some(l) if l.float_styled && disasm_float_text(b) == l.text => {
                    println!(
                        "lossy: {name} dword {k} line {} '{}' parses to {a:#010x}, bytecode {b:#010x}",
                        l.line, l.text
                    );
                    file_lossy += 1;
                }
                _ => {
                    bad = Some(format!(
                        "{name}: dword {k}: ours {a:#010x}, bytecode {b:#010x} (literal {:?})",
                        lit.map(|l| (&l.text, l.line))
                    ));
                    break;
                }
            }
        }
        if let Some(b) = bad {
            failures.push(b);
            continue;
        }
        if file_lossy > 0 {
            lossy.push((name.clone(), file_lossy));
        } else {
            exact += 1;
            // Bit-exact: the assembled program equals the decoded bytecode.
            assert_eq!(asm.program, decode_program(&expected).unwrap(), "{name}");
        }
    }
    println!(
        "{} pairs: {exact} bit-exact, {} exact but for {} lossy float literals; {removed_blocks} opaque custom-data block(s) removed",
        pairs.len(),
        lossy.len(),
        lossy.iter().map(|l| l.1).sum::<usize>()
    );
    for (f, n) in &lossy {
        println!("    (\"{f}\", {n}),");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} pairs do not assemble to their bytecode",
        failures.len()
    );
    let mut expected: Vec<(String, usize)> = EXPECTED_LOSSY
        .iter()
        .map(|(f, n)| (f.to_string(), *n))
        .collect();
    expected.sort();
    lossy.sort();
    assert_eq!(lossy, expected, "lossy float literals per file");
}

#[test]
fn disassembling_assembled_listings_reproduces_them() {
    let mut total = 0;
    let mut failures = Vec::new();
    for (_, listing) in pairs() {
        let text = std::fs::read_to_string(&listing).unwrap();
        let p = assemble(&text).unwrap_or_else(|e| panic!("{}: {e}", listing.display()));
        let ours: Vec<String> = disassemble_lines(&p)
            .iter()
            .map(|l| l.trim().to_string())
            .collect();
        let ours = body(&ours.join("\n"));
        let theirs = body(&text);
        total += theirs.len();
        if ours.len() != theirs.len() {
            failures.push(format!(
                "{}: {} lines vs {}",
                listing.display(),
                ours.len(),
                theirs.len()
            ));
        }
        for (i, (o, t)) in ours.iter().zip(&theirs).enumerate() {
            if o != t && failures.len() < 50 {
                failures.push(format!(
                    "{}:{i}\n  listing: {t}\n  ours:    {o}",
                    listing.display()
                ));
            }
        }
    }
    println!("{total} lines compared");
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty());
}

fn err(text: &str) -> AsmError {
    match assemble(text) {
        Ok(p) => panic!("assembled {text:?} into {p:?}"),
        Err(e) => e,
    }
}

#[test]
fn errors_name_line_and_column() {
    let e = err("");
    assert_eq!((e.line, e.column), (1, 1));

    let e = err("// header\ncs_9_x\n");
    assert_eq!((e.line, e.column), (2, 1), "{e}");

    let e = err("cs_5_0\ndcl_temps 2\n  frobnicate r0.x, r1.x\n");
    assert_eq!((e.line, e.column), (3, 3), "{e}");
    assert!(e.message.contains("unknown instruction"), "{e}");
    assert_eq!(e.excerpt, "  frobnicate r0.x, r1.x\n  ^");
    assert_eq!(
        e.to_string(),
        "3:3: unknown instruction 'frobnicate'\n  frobnicate r0.x, r1.x\n  ^"
    );

    let e = err("cs_5_0\nmov r0.x, q1.x\n");
    assert_eq!((e.line, e.column), (2, 11), "{e}");

    let e = err("cs_5_0\nadd r0.x, r1.x\n");
    assert_eq!((e.line, e.column), (2, 15), "{e}");
    assert!(e.message.contains("takes 3 operands"), "{e}");

    let e = err("cs_5_0\nmov r0.x, l(1.0, 2.0)\n");
    assert_eq!((e.line, e.column), (2, 11), "{e}");

    let e = err("cs_5_0\nmov r0.x, l(0x1g)\n");
    assert_eq!((e.line, e.column), (2, 13), "{e}");

    let e = err("cs_5_0\nmov r0.x, r1.q\n");
    assert_eq!((e.line, e.column), (2, 14), "{e}");

    let e = err("cs_5_0\nif r0.x\nendif\n");
    assert_eq!((e.line, e.column), (2, 1), "{e}");

    let e = err("cs_5_0\nmul_foo r0.x, r0.x, r0.x\n");
    assert_eq!((e.line, e.column), (2, 5), "{e}");

    let e = err("cs_5_0\ndcl_immediateConstantBuffer { { 1.0, 2.0},\n   { 3.0, zz} }\nret\n");
    assert_eq!((e.line, e.column), (3, 11), "{e}");

    let e = err("cs_5_0\ndcl_constantbuffer CB0[1], immediateIndexed, space=0\n");
    assert_eq!((e.line, e.column), (2, 46), "{e}");

    let e = err("cs_5_0\n\tmov r0.x, |r1.x\n");
    assert_eq!((e.line, e.column), (2, 17), "{e}");
    assert_eq!(e.excerpt, "\tmov r0.x, |r1.x\n\t               ^");
}

#[test]
fn accepts_aliases_comments_and_vkd3d_forms() {
    let fxc = assemble(
        "cs_5_0\n\
         dcl_globalFlags refactoringAllowed\n\
         dcl_uav_structured u0, 4\n\
         dcl_input vThreadID.x\n\
         dcl_temps 1\n\
         dcl_thread_group 64, 1, 1\n\
         mov r0.xyzw, l(1.000000, 2, 0x3f800000, -1.#INF0000)\n\
         store_structured u0.x, vThreadID.x, l(0), r0.x\n\
         ret \n",
    )
    .unwrap();
    let vkd3d = assemble(
        "// a comment\n\
         #line 3 \"x.hlsl\"\n\
         CS_5_0\n\
         \n\
         DCL_GLOBALFLAGS RefactoringAllowed\n\
         dcl_uav_structured u0, 4   // trailing comment\n\
         dcl_input vThreadID.x\n\
         dcl_temps 1\n\
         dcl_thread_group 64, 1, 1\n\
         \tMOV r0.rgba, l(1.0, 2, 0x3F800000, -1.#INF00)\n\
         store_structured u0.x, vThreadID.x, l(0), r0.x\n\
         ret\n",
    )
    .unwrap();
    assert_eq!(fxc, vkd3d);
    let a = assemble("cs_5_0\nld2dms r0.xyzw, r1.xyzw, t0.xyzw, l(0)\n").unwrap();
    assert_eq!(a.instructions[0].opcode, Opcode::LdMs);
    let s = assemble("cs_5_0\nsync_uglobal_g_t\n").unwrap();
    assert_eq!(s.instructions[0].token, 0x0100_58be);
}

/// Malformed text never panics: every one-character deletion or
/// replacement of a listing either assembles or gives an [`AsmError`] whose
/// position lies inside the text.
#[test]
fn mutated_listings_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("../examples/matmul/matmul.asm")).unwrap();
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let chars: Vec<char> = body.chars().collect();
    let lines = body.lines().count().max(1);
    for i in 0..chars.len() {
        for replacement in [
            None,
            Some('('),
            Some('['),
            Some('|'),
            Some('{'),
            Some('é'),
            Some(','),
        ] {
            let mut m: Vec<char> = chars.clone();
            match replacement {
                None => {
                    m.remove(i);
                }
                Some(c) => m[i] = c,
            }
            let s: String = m.into_iter().collect();
            if let Err(e) = assemble(&s) {
                assert!(e.line >= 1 && e.line <= lines + 1, "{e}");
                assert!(e.excerpt.contains('^'));
            }
        }
    }
}

/// The immediate words of operand `k` of the first instruction of `body`
/// (a cs_5_0 program with 2 temps and a raw UAV, double ops allowed).
fn literal_words(body: &str, k: usize) -> Vec<u32> {
    let text = format!(
        "cs_5_0\ndcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\ndcl_uav_raw u0\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n{body}\nret\n"
    );
    let p = assemble(&text).unwrap_or_else(|e| panic!("{body}: {e}"));
    let ins = p
        .instructions
        .iter()
        .find(|i| i.opcode.info().class != sim_core::isa::opcodes::Class::Decl)
        .unwrap();
    ins.operands[k].imm.clone()
}

/// The literal rule (`asm.rs`, `untyped_float`): decimal text is the
/// nearest float32 in every position, integers and hex the bits written;
/// only fxc's exact `0.000000` in an untyped position is FLT_MIN.
#[test]
fn literals_mean_what_their_text_says_in_every_position() {
    let f = |x: f32| x.to_bits();
    // typed float positions
    assert_eq!(literal_words("add r0.x, r1.x, l(0.0)", 2), [0]);
    assert_eq!(literal_words("add r0.x, r1.x, l(0.000000)", 2), [0]);
    assert_eq!(literal_words("add r0.x, r1.x, l(-0.0)", 2), [0x8000_0000]);
    assert_eq!(literal_words("add r0.x, r1.x, l(0.1)", 2), [f(0.1)]);
    assert_eq!(literal_words("mul r0.x, r1.x, l(1e-40)", 2), [f(1e-40)]);
    assert_eq!(
        literal_words("mul r0.x, r1.x, l(3.4028235e38)", 2),
        [f(f32::MAX)]
    );
    // the nearest float32, not a double rounded twice: 1 + 2^-24 + 2^-60
    // is above the halfway point between 1 and the next float
    assert_eq!(
        literal_words("mul r0.x, r1.x, l(1.00000005960464477550)", 2),
        [0x3f80_0001]
    );
    // typed integer positions: integers and hex as written; decimals too
    assert_eq!(
        literal_words("iadd r0.x, r1.x, l(-24)", 2),
        [(-24i32) as u32]
    );
    assert_eq!(
        literal_words("iadd r0.x, r1.x, l(4294967295)", 2),
        [u32::MAX]
    );
    assert_eq!(
        literal_words("iadd r0.x, r1.x, l(0x3f800000)", 2),
        [0x3f80_0000]
    );
    assert_eq!(literal_words("iadd r0.x, r1.x, l(1.5)", 2), [f(1.5)]);
    // untyped positions (a mov's source, a stored value)
    assert_eq!(literal_words("mov r0.yzw, l(0.0)", 1), [0]);
    assert_eq!(literal_words("mov r0.yzw, l(0.)", 1), [0]);
    assert_eq!(literal_words("mov r0.yzw, l(0.00)", 1), [0]);
    assert_eq!(literal_words("mov r0.x, l(0)", 1), [0]);
    assert_eq!(literal_words("mov r0.x, l(0.000000)", 1), [0x0080_0000]);
    assert_eq!(literal_words("mov r0.x, l(-0.000000)", 1), [0x8000_0000]);
    assert_eq!(literal_words("mov r0.x, l(1e-40)", 1), [f(1e-40)]);
    assert_eq!(
        literal_words("mov r0.xyzw, l(0.0, 0.000000, 2.5, 0x7)", 1),
        [0, 0x0080_0000, f(2.5), 7]
    );
    assert_eq!(
        literal_words("store_raw u0.x, l(0), l(0.000000)", 2),
        [0x0080_0000]
    );
    assert_eq!(literal_words("store_raw u0.x, l(0), l(0.0)", 2), [0]);
    // doubles: the nearest binary64, low word first
    let d = |x: f64| {
        let b = x.to_bits();
        [b as u32, (b >> 32) as u32]
    };
    let w = literal_words("dadd r0.xy, r1.xyxy, d(0.1l, 0.0l)", 2);
    assert_eq!(w[..2], d(0.1));
    assert_eq!(w[2..], d(0.0));
    let w = literal_words("dmov r0.xy, d(0.000000l, -2.5l)", 1);
    assert_eq!(w[..2], d(0.0));
    assert_eq!(w[2..], d(-2.5));
}

/// Every minimum precision (default, min16f, min2_8f, min16i, min16u) on
/// every operand against every destination precision, every `[precise]`
/// mask and the SM5.1 non-uniform flag on every operand, over instructions
/// of each kind whose annotations differ (arithmetic, bit fields, `movc`,
/// conversions, two destinations, doubles, loads, samples, stores): the
/// bits go through the disassembler and the assembler unchanged.
#[test]
fn precision_precise_and_nonuniform_bits_round_trip_through_the_listing() {
    let templates = [
        "add r0.xy, r1.xyxx, l(1.0, 2.0, 0, 0)",
        "mad r0.x, r1.x, cb0[0].x, l(0.5)",
        "ubfe r0.x, l(3), l(3), r1.x",
        "bfi r0.x, r1.x, r2.x, r3.x, r4.x",
        "movc r0.x, r1.x, r2.x, l(0)",
        "ishl r0.x, r1.x, r2.x",
        "itof r0.x, r1.x",
        "lt r0.x, r1.x, r2.x",
        "imul null, r0.x, r1.x, r2.x",
        "udiv r0.x, r1.x, r2.x, l(3)",
        "dadd r0.xy, r1.xyxy, d(0.5l, 0.0l)",
        "ld_raw r0.x, r1.x, t0.xxxx",
        "store_raw u0.x, r1.x, r2.x",
        "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.xyzw, r1.x, l(0), t1.xyzw",
        "sample_l_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.xyxx, t2.xyzw, s0, l(0.0)",
    ];
    let precisions = [0u8, 1, 2, 4, 5];
    let mut checked = 0;
    for t in templates {
        let base = assemble(&format!("cs_5_0\n{t}\nret\n")).unwrap_or_else(|e| panic!("{t}: {e}"));
        let n = base.instructions[0].operands.len();
        let mut variants = Vec::new();
        for i in 0..n {
            for &own in &precisions {
                for &dst in &precisions {
                    let mut p = base.clone();
                    p.instructions[0].operands[0].min_precision = dst;
                    p.instructions[0].operands[i].min_precision = own;
                    variants.push(p);
                }
            }
            let mut p = base.clone();
            p.instructions[0].operands[i].non_uniform = true;
            p.instructions[0].operands[i].min_precision = 1;
            variants.push(p);
        }
        for mask in 1..16u32 {
            let mut p = base.clone();
            p.instructions[0].token |= mask << 19;
            variants.push(p);
        }
        for p in variants {
            let words = encode_program(&p).unwrap();
            let decoded = decode_program(&words).unwrap();
            let listing = disassemble_lines(&decoded).join("\n");
            let back = assemble(&listing).unwrap_or_else(|e| panic!("{listing}\n{e}"));
            assert_eq!(encode_program(&back).unwrap(), words, "{listing}");
            checked += 1;
        }
    }
    assert!(checked > 1500, "{checked}");
}
