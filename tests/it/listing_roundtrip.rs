//! Every fxc listing committed with our own test shaders (tests/families,
//! tests/shaders, tests/conformance) assembles back to the program tokens of
//! the `.dxbc` beside it — bit for bit but for float literals the listing
//! printed with too few digits — and disassembles back to its lines.

use sm5sim::sim_core::front::asm::assemble_with_literals;
use sm5sim::sim_core::front::container::{ChecksumPolicy, Container};
use sm5sim::sim_core::front::disasm::{disassemble_lines_with, FloatDigits};
use sm5sim::sim_core::front::encode::encode_program;
use std::path::{Path, PathBuf};

/// Our own listing/bytecode pairs under `tests/`, not the third-party
/// `tests/corpus/` (sim-core's `asm` tests assemble those, whose custom-data
/// blocks need removing first).
fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let corpus = root.join("corpus");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p != corpus {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "asm")
                && p.with_extension("dxbc").is_file()
            {
                out.push((p.clone(), p.with_extension("dxbc")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn our_listings_round_trip_bit_for_bit() {
    let pairs = pairs();
    assert!(pairs.len() >= 20, "{}", pairs.len());
    for (asm, dxbc) in &pairs {
        let text = std::fs::read_to_string(asm).unwrap();
        let assembly =
            assemble_with_literals(&text).unwrap_or_else(|e| panic!("{}:{e}", asm.display()));
        let decoded = assembly.program;
        let words = encode_program(&decoded).unwrap();
        let bytes = std::fs::read(dxbc).unwrap();
        let c = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
        let shex: Vec<u32> = c
            .shader_chunk()
            .unwrap()
            .data
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(words.len(), shex.len(), "{}", asm.display());
        for (k, (ours, theirs)) in words.iter().zip(&shex).enumerate() {
            if ours == theirs {
                continue;
            }
            // Only a float literal printed with too few digits may differ
            // (`reference/asm-syntax.md` §5.1): the text cannot give back the bits.
            let lossy = assembly.literals.iter().any(|l| {
                l.float_styled && (l.dword..l.dword + l.words as u32).contains(&(k as u32))
            });
            assert!(
                lossy,
                "{}: dword {k}: assembled {ours:#x}, bytecode {theirs:#x}",
                asm.display()
            );
        }
        let body: Vec<String> = text
            .lines()
            .map(str::trim)
            // (a /Zi listing's `#line` marks and register comments:
            // debug information, not the instructions)
            .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("#line"))
            .map(|l| l.split("  //").next().unwrap_or(l).trim_end().to_string())
            .collect();
        // (fxc made them under Wine, whose `%f` prints every digit)
        let ours: Vec<String> = disassemble_lines_with(&decoded, FloatDigits::Exact)
            .into_iter()
            .map(|(_, l)| l)
            .collect::<Vec<_>>()
            .join("\n")
            .lines()
            .map(|l| l.trim().to_string())
            .collect();
        assert_eq!(ours, body, "{}", asm.display());
    }
}

/// Float literals of 2^64 and more print as the C runtime under fxc does:
/// `--float-digits exact` gives fxc's listing under Wine byte for byte
/// (`tests/front_end/large_floats`), and the default (Windows' msvcrt) 17
/// significant digits then zeros, the form of `tests/corpus/`'s listings.
#[test]
fn large_float_literals_print_in_either_runtimes_digits() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/front_end");
    let run = |extra: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .arg("disasm")
            .arg(dir.join("large_floats.dxbc"))
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let listing = std::fs::read_to_string(dir.join("large_floats.asm")).unwrap();
    assert_eq!(run(&["--float-digits", "exact"]), listing);
    let windows = run(&[]);
    assert_eq!(run(&["--float-digits", "msvcrt"]), windows);
    for (exact, msvcrt) in [
        (
            "340282346638528859811704183484516925440.000000",
            "340282346638528860000000000000000000000.000000",
        ),
        (
            "100000002004087734272.000000",
            "100000002004087730000.000000",
        ),
        (
            "12345679377913908035584.000000",
            "12345679377913908000000.000000",
        ),
    ] {
        assert!(
            listing.contains(exact) && !listing.contains(msvcrt),
            "{exact}"
        );
        assert!(
            windows.contains(msvcrt) && !windows.contains(exact),
            "{msvcrt}"
        );
    }
}

/// fxc's `printf` and `errorf` (custom data of class 4) disassemble as
/// fxc's listing prints them, the debug-layer note included, and assemble
/// back to the same shader tokens (`tests/front_end/messages_*`).
#[test]
fn printf_and_errorf_disassemble_and_assemble_as_fxc_writes_them() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/front_end");
    let mut seen = Vec::new();
    for name in ["messages_basic", "messages_operands", "messages_escapes"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .args(["disasm", "--float-digits", "exact"])
            .arg(dir.join(format!("{name}.dxbc")))
            .output()
            .unwrap();
        let listing = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), listing, "{name}");
        let bytes = std::fs::read(dir.join(format!("{name}.dxbc"))).unwrap();
        let p =
            sm5sim::sim_core::Program::from_dxbc(&bytes, &sm5sim::sim_core::LoadOptions::default())
                .unwrap();
        for i in &p.decoded.instructions {
            if let Some(m) = i.shader_message() {
                seen.push((m.error, m.format, i.operands.len()));
            }
        }
    }
    assert!(
        seen.contains(&(false, "thread %d value %f".into(), 2)),
        "{seen:?}"
    );
    assert!(seen.contains(&(true, "bad %u".into(), 1)), "{seen:?}");
    assert!(seen.contains(&(false, "no args".into(), 0)), "{seen:?}");
    // the literals of printf and errorf are placed where their bits went
    let text = std::fs::read_to_string(dir.join("messages_basic.asm")).unwrap();
    let a = assemble_with_literals(&text).unwrap();
    let words = encode_program(&a.program).unwrap();
    let placed: Vec<(u32, &str)> = (a.literals.iter())
        .map(|l| (words[l.dword as usize], l.text.as_str()))
        .collect();
    // ieq's l(1), printf's l(1) and l(1.500000), errorf's l(1), the store's l(0)
    let want = [
        (1, "1"),
        (1, "1"),
        (0x3fc0_0000, "1.500000"),
        (1, "1"),
        (0, "0"),
    ];
    assert_eq!(placed, want);
    // `info` says they are there and not run
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .args(["info"])
        .arg(dir.join("messages_operands.dxbc"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("messages:      2 printf, 1 errorf (printed by run and check"),
        "{text}"
    );
    assert!(
        seen.contains(&(
            false,
            "tab\there \"quoted\" back\\slash newline\n".into(),
            0
        )),
        "{seen:?}"
    );
    // `asm` stamps fxc's debug checksum on them, as fxc does: the file
    // loads with verification on, and its SHEX is fxc's
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("asm_messages");
    std::fs::create_dir_all(&out).unwrap();
    for name in ["messages_basic", "messages_operands", "messages_escapes"] {
        let dst = out.join(format!("{name}.dxbc"));
        let _ = std::fs::remove_file(&dst);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .arg("asm")
            .arg(dir.join(format!("{name}.asm")))
            .arg("-o")
            .arg(&dst)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let ours = std::fs::read(&dst).unwrap();
        assert_eq!(
            sm5sim::sim_core::front::container::checksum_kind(&ours),
            Some(sm5sim::sim_core::front::container::ChecksumKind::Debug),
            "{name}"
        );
        let theirs = std::fs::read(dir.join(format!("{name}.dxbc"))).unwrap();
        let shex = |b: &[u8]| {
            let c = Container::parse(b, ChecksumPolicy::Verify).unwrap();
            c.shader_chunk().unwrap().data.to_vec()
        };
        assert_eq!(shex(&ours), shex(&theirs), "{name}");
    }
}

/// `asm` writes fxc's `SFI0` (required features) from the listing's note,
/// checked against the instructions: every fxc listing of ours with the
/// note gives fxc's mask; a note that lacks a feature an instruction needs,
/// names one none needs, or names no feature fxc knows, is an error.
#[test]
fn the_required_features_are_fxcs_and_agree_with_the_instructions() {
    use sm5sim::sim_core::front::features;
    let mut compared = 0;
    for (asm, dxbc) in pairs() {
        let text = std::fs::read_to_string(&asm).unwrap();
        if !text.contains("Note: shader requires additional functionality:") {
            continue;
        }
        let decoded = assemble_with_literals(&text).unwrap().program;
        let bytes = std::fs::read(&dxbc).unwrap();
        let c = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
        let theirs = c.chunk(b"SFI0").expect("fxc's SFI0").data;
        let ours = features::for_listing(&text, &decoded)
            .unwrap_or_else(|e| panic!("{}:{e}", asm.display()));
        assert_eq!(&ours.to_le_bytes()[..], theirs, "{}", asm.display());
        compared += 1;
    }
    assert!(compared >= 8, "{compared} listings with a features note");
    // doubles.asm names doubles and their 11.1 extensions
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("doubles.asm"))
        .find(|p| p.is_file())
        .expect("a doubles.asm in tests/conformance");
    let text = std::fs::read_to_string(&path).unwrap();
    let decoded = assemble_with_literals(&text).unwrap().program;
    assert_eq!(features::for_listing(&text, &decoded), Ok(0x21));
    let lacking = text.replace("//       Double-precision floating point\n", "");
    let e = features::for_listing(&lacking, &decoded).unwrap_err();
    assert!(
        e.message
            .contains("requires 'Double-precision floating point'"),
        "{e}"
    );
    let extra = text.replace(
        "//       Double-precision floating point\n",
        "//       Double-precision floating point\n//       64 UAV slots\n",
    );
    let e = features::for_listing(&extra, &decoded).unwrap_err();
    assert!(
        e.message
            .contains("names '64 UAV slots', which no instruction requires"),
        "{e}"
    );
    let unknown = text.replace(
        "//       Double-precision floating point\n",
        "//       Quad precision\n",
    );
    let e = features::for_listing(&unknown, &decoded).unwrap_err();
    assert!(
        e.message.contains("'Quad precision' is not a feature"),
        "{e}"
    );
    // a listing without fxc's header takes what its instructions require
    let bare: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(features::for_listing(&bare, &decoded), Ok(0x21));
}

/// Every fxc container in the repository with a STAT chunk (tests/ and
/// examples/, the corpus included): `sim_core::front::stat` gives fxc's words
/// exactly for the counters the instructions determine, and the whole
/// chunk for nearly all of them (the module docs say what fxc counts from
/// its own intermediate form that the tokens do not show).
#[test]
fn stat_is_fxcs_where_the_instructions_determine_it() {
    use sm5sim::sim_core::front::stat::{statistics, STAT_WORDS};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut stack = vec![root.join("tests"), root.join("examples")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "dxbc") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut compared, mut whole) = (0, 0);
    let mut wrong = [0usize; STAT_WORDS];
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(c) = Container::parse(&bytes, ChecksumPolicy::Skip) else {
            continue;
        };
        let Some(stat) = c.chunk(b"STAT") else {
            continue;
        };
        let theirs: Vec<u32> = (stat.data.chunks_exact(4))
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let Ok(p) = sm5sim::sim_core::Program::from_dxbc(
            &bytes,
            &sm5sim::sim_core::LoadOptions {
                verify_checksum: false,
                ..Default::default()
            },
        ) else {
            continue;
        };
        let ours = statistics(&p.decoded);
        assert_eq!(theirs.len(), STAT_WORDS, "{}", path.display());
        compared += 1;
        whole += usize::from(ours[..] == theirs[..]);
        for k in 0..STAT_WORDS {
            if ours[k] != theirs[k] {
                wrong[k] += 1;
                eprintln!(
                    "{}: word {k}: fxc {}, ours {}",
                    path.display(),
                    theirs[k],
                    ours[k]
                );
            }
        }
    }
    eprintln!("STAT: {whole} of {compared} whole; per word wrong: {wrong:?}");
    assert!(compared >= 300, "{compared}");
    for exact in [1, 3, 5, 7, 8, 15, 16, 18, 20, 21, 26, 34, 35, 36] {
        assert_eq!(wrong[exact], 0, "word {exact}");
    }
    assert!(whole * 100 >= compared * 95, "{whole} of {compared}");
}
