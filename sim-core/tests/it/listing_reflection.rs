//! Reflection from listing headers ([`sim_core::front::listing_reflection`]) and
//! the RDEF writer ([`sim_core::front::rdef_write`]).
//!
//! Oracles: the RDEF chunks of `examples/*/*.dxbc` (fxc 10.1, cs_5_0) against
//! the headers of their `.asm` listings; the RDEF chunks of the xenia
//! (cs_5_1) and NvCloth (cs_5_0, structs) corpus files against the `/Fh`
//! header blocks embedded in the `header` module. Both directions are checked:
//! listing header → [`Reflection`] equals the bytecode's RDEF, and
//! [`Reflection`] → RDEF → [`listing_header`] prints the listing's header.

use std::path::{Path, PathBuf};

use sim_core::front::asm::assemble;
use sim_core::front::container::{ChecksumPolicy, Container};
use sim_core::front::encode::{encode_program, write_container};
use sim_core::front::header::listing_header;
use sim_core::front::listing_reflection::reflection_from_listing;
use sim_core::front::rdef::{parse_rdef, CbufferDesc, Reflection, TypeDesc};
use sim_core::front::rdef_write::write_rdef;
use sim_core::ir::{ProgramType, ShaderVersion};

/// The examples with listing headers.
const EXAMPLES: [&str; 8] = [
    "cas_float_add",
    "global_histogram",
    "histogram",
    "mandelbrot",
    "matmul",
    "reduce",
    "saxpy_structured",
    "scan",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn example(name: &str) -> (String, Vec<u8>) {
    let dir = root().join("../examples").join(name);
    (
        read_text(&dir.join(format!("{name}.asm"))),
        read(&dir.join(format!("{name}.dxbc"))),
    )
}

/// The RDEF of a container, parsed.
fn rdef_of(dxbc: &[u8]) -> Reflection {
    let c = Container::parse(dxbc, ChecksumPolicy::Verify).expect("container parses");
    parse_rdef(c.chunk(b"RDEF").expect("RDEF chunk").data).expect("RDEF parses")
}

/// The listing's comment lines before its version line.
fn header_lines(text: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .map(str::to_string)
        .collect()
}

fn version_of(r: &Reflection) -> ShaderVersion {
    let program_type = match r.program_type {
        0xFFFF => ProgramType::Pixel,
        0xFFFE => ProgramType::Vertex,
        0x4753 => ProgramType::Geometry,
        0x4853 => ProgramType::Hull,
        0x4453 => ProgramType::Domain,
        _ => ProgramType::Compute,
    };
    ShaderVersion {
        program_type,
        major: r.major() as u8,
        minor: r.minor() as u8,
    }
}

/// The header lines [`listing_header`] prints for `r` written as RDEF into
/// a container with `shex` (and the empty ISGN/OSGN of a compute shader).
fn header_via_rdef(r: &Reflection, shex: &[u32]) -> Vec<String> {
    let rdef = write_rdef(r, version_of(r));
    let bytes = write_container(shex, Some(&rdef));
    let c = Container::parse(&bytes, ChecksumPolicy::Verify).expect("written container parses");
    listing_header(&c).expect("header of the written container")
}

/// A type as the listing header shows it: everything but the stored name of
/// non-struct types (a typedef such as `uint32_t` prints as `uint`).
fn carried_type(t: &TypeDesc) -> TypeDesc {
    TypeDesc {
        name: if t.class == 5 {
            t.name.clone()
        } else {
            String::new()
        },
        members: t
            .members
            .iter()
            .map(|(n, o, m)| (n.clone(), *o, carried_type(m)))
            .collect(),
        ..t.clone()
    }
}

/// The fields the listing header carries (all but the compile flags and
/// the stored names of non-struct types), so that a corpus file's RDEF and
/// the reflection read from its header can be compared.
fn carried(r: &Reflection) -> Reflection {
    Reflection {
        compile_flags: 0,
        cbuffers: r
            .cbuffers
            .iter()
            .map(|c| CbufferDesc {
                variables: c
                    .variables
                    .iter()
                    .map(|v| sim_core::front::rdef::CbVariable {
                        ty: carried_type(&v.ty),
                        ..v.clone()
                    })
                    .collect(),
                ..c.clone()
            })
            .collect(),
        ..r.clone()
    }
}

/// Listing header → Reflection equals the example's RDEF on every field but
/// the compile flags (which no listing prints).
#[test]
fn examples_match_their_rdef() {
    for name in EXAMPLES {
        let (asm, dxbc) = example(name);
        let truth = rdef_of(&dxbc);
        let ours = reflection_from_listing(&asm)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap_or_else(|| panic!("{name}: no reflection"));
        assert_eq!(
            Reflection {
                compile_flags: truth.compile_flags,
                ..ours.clone()
            },
            truth,
            "{name}"
        );
        assert_eq!(carried(&ours), carried(&truth), "{name}");
        // The job-facing lookups agree.
        for b in &truth.bindings {
            assert_eq!(ours.binding(&b.name), Some(b), "{name}: {}", b.name);
        }
    }
}

/// A class-linkage shader's `interfaces` block (its listing does not
/// assemble: the executor has no class linkage, but the header reads).
#[test]
fn interfaces_block_matches_rdef() {
    let dir = root().join("../tests/families");
    let asm = read_text(&dir.join("class_linkage.asm"));
    let truth = rdef_of(&read(&dir.join("class_linkage.dxbc")));
    let ours = reflection_from_listing(&asm).unwrap().unwrap();
    assert_eq!(
        Reflection {
            compile_flags: truth.compile_flags,
            ..ours.clone()
        },
        truth
    );
    let printed = header_via_rdef(&ours, &[0x0005_0050, 2]);
    let want = header_lines(&asm);
    assert_eq!(printed[..], want[..printed.len()]);
}

/// write_rdef → parse_rdef is the identity, for the examples (both the
/// listing's and the bytecode's reflection) and the corpus RDEFs (SM5.1,
/// structs, typedef names).
#[test]
fn write_rdef_round_trips() {
    let mut checked = 0;
    for name in EXAMPLES {
        let (asm, dxbc) = example(name);
        let ours = reflection_from_listing(&asm).unwrap().unwrap();
        for r in [ours, rdef_of(&dxbc)] {
            let bytes = write_rdef(&r, version_of(&r));
            assert_eq!(parse_rdef(&bytes).as_ref(), Ok(&r), "{name}");
            checked += 1;
        }
    }
    for sub in ["xenia", "NvCloth"] {
        let dir = root().join("../tests/corpus").join(sub);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("cannot read {}", dir.display());
        };
        let mut files: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
            .collect();
        files.sort();
        for f in files {
            let r = rdef_of(&read(&f));
            let bytes = write_rdef(&r, version_of(&r));
            assert_eq!(parse_rdef(&bytes).as_ref(), Ok(&r), "{}", f.display());
            checked += 1;
        }
    }
    println!("write_rdef round trip: {checked} reflections");
    assert!(checked > 16 + 80, "{checked}");
}

/// Assembled listing + RDEF from its header → container whose listing
/// header is the listing's own, line for line.
#[test]
fn assembled_listing_reproduces_its_header() {
    let (mut same, mut total) = (0usize, 0usize);
    let mut diffs = Vec::new();
    for name in EXAMPLES {
        let (asm, _) = example(name);
        let refl = reflection_from_listing(&asm).unwrap().unwrap();
        let program = assemble(&asm).unwrap_or_else(|e| panic!("{name}: {e}"));
        let words = encode_program(&program).unwrap();
        let rdef = write_rdef(&refl, program.version);
        let bytes = write_container(&words, Some(&rdef));
        let c = Container::parse(&bytes, ChecksumPolicy::Verify).unwrap();
        let ours = listing_header(&c).unwrap();
        let want = header_lines(&asm);
        for i in 0..want.len().max(ours.len()) {
            total += 1;
            if want.get(i) == ours.get(i) {
                same += 1;
            } else {
                diffs.push(format!(
                    "{name} line {}: want {:?}, got {:?}",
                    i + 1,
                    want.get(i),
                    ours.get(i)
                ));
            }
        }
    }
    println!(
        "examples: {same}/{total} header lines identical over {} listings",
        EXAMPLES.len()
    );
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// `(key, header lines)` for every corpus file of the `/Fh` blocks
/// embedded in the `header` module ([`super::header::FH_HEADERS`]).
fn fh_blocks() -> Vec<(String, Vec<String>)> {
    let headers = super::header::FH_HEADERS;
    let files = super::header::FH_FILES;
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for line in headers.lines().filter(|l| !l.is_empty()) {
        if line.starts_with("@ ") {
            blocks.push(Vec::new());
        } else {
            let body = line.strip_suffix('$').expect("embedded lines end in $");
            blocks.last_mut().unwrap().push(body.to_string());
        }
    }
    files
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let key = it.next().unwrap().to_string();
            let block: usize = it.next().unwrap().parse().unwrap();
            (key, blocks[block].clone())
        })
        .collect()
}

/// The corpus's `/Fh` headers: the reflection read from each equals the
/// file's RDEF on the fields the header carries, and prints the same header.
#[test]
fn corpus_headers_match_their_rdef() {
    let blocks = fh_blocks();
    assert!(blocks.len() >= 85, "{} corpus files", blocks.len());
    let (mut same, mut total) = (0usize, 0usize);
    for (key, header) in &blocks {
        let version = if key.starts_with("xenia/") {
            "cs_5_1"
        } else {
            "cs_5_0"
        };
        let text = format!("{}\n{version}\nret\n", header.join("\n"));
        let ours = reflection_from_listing(&text)
            .unwrap_or_else(|e| panic!("{key}: {e}"))
            .unwrap_or_else(|| panic!("{key}: no reflection"));
        let dxbc = root().join(format!("../tests/corpus/{key}.dxbc"));
        let truth = rdef_of(&read(&dxbc));
        assert_eq!(carried(&ours), carried(&truth), "{key}");
        let printed = header_via_rdef(&ours, &[0x0005_0050, 2]);
        for i in 0..header.len().max(printed.len()) {
            total += 1;
            if header.get(i) == printed.get(i) {
                same += 1;
            }
        }
        assert_eq!(&printed, header, "{key}");
    }
    println!(
        "corpus /Fh headers: {same}/{total} lines identical over {} files",
        blocks.len()
    );
}

/// A header using what the corpus lacks: nested and anonymous structs,
/// arrays, row- and column-major matrices, unused variables, default
/// values, typed textures and UAVs, samplers, append/consume/counter UAVs,
/// multisampled textures, a tbuffer.
const SYNTHETIC_50: &str = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Buffer Definitions: 
//
// cbuffer PerView
// {
//
//   float NearClipPlane;               // Offset:    0 Size:     4 [unused]
//      = 0x3f800000 
//   int LightCount;                    // Offset:    4 Size:     4
//   
//   struct Light
//   {
//       
//       float3 Direction;              // Offset:   16
//       
//       struct
//       {
//           
//           float r;                   // Offset:   28
//           uint2 gb[2];               // Offset:   32
//
//       } Color;                       // Offset:   28
//
//   } Lights[2];                       // Offset:   16 Size:    96
//   float4x4 WorldToShadow[4];         // Offset:  112 Size:   256 [unused]
//   row_major float4x3 gWorld;         // Offset:  368 Size:    60
//   double2 dd;                        // Offset:  432 Size:    16
//   bool flag;                         // Offset:  448 Size:     4
//
// }
//
// tbuffer Lut
// {
//
//   float4 lut[16];                    // Offset:    0 Size:   256
//
// }
//
// Resource bind info for Appended
// {
//
//   float4 $Element;                   // Offset:    0 Size:    16
//
// }
//
// Resource bind info for Consumed
// {
//
//   uint $Element;                     // Offset:    0 Size:     4
//
// }
//
// Resource bind info for Counted
// {
//
//   int2 $Element;                     // Offset:    0 Size:     8
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- -------------- ------
// LinearSampler                     sampler      NA          NA             s0      1 
// LinearClampCompareLessEqualSampler_id117  sampler_c      NA          NA             s1      1 
// ShadowMap                         texture  float4          2d             t0      1 
// Clusters                          texture   uint2          3d             t1      1 
// Indices                           texture    uint         buf             t2      1 
// Msaa                              texture  unorm4       2dMS4             t3      1 
// Cubes                             texture  float4   cubearray             t4      2 
// Lut                               tbuffer      NA          NA             t6      1 
// Appended                              UAV  struct      append             u0      1 
// Consumed                              UAV  struct     consume             u1      1 
// Counted                               UAV  struct     r/w+cnt             u2      1 
// Out                                   UAV  snorm2     2darray             u3      1 
// PerView                           cbuffer      NA          NA            cb2      1 
//
//
";

/// The SM5.1 binding table: ID column, register spaces, unbounded ranges.
const SYNTHETIC_51: &str = "\
//
// Generated by Microsoft (R) HLSL Shader Compiler 10.1
//
//
// Buffer Definitions: 
//
// cbuffer push
// {
//
//   uint2 size;                        // Offset:    0 Size:     8
//
// }
//
// Resource bind info for items
// {
//
//   struct Item
//   {
//       
//       uint key;                      // Offset:    0
//       float value;                   // Offset:    4
//
//   } $Element;                        // Offset:    0 Size:     8
//
// }
//
//
// Resource Bindings:
//
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count
// ------------------------------ ---------- ------- ----------- ------- -------------- ------
// g_tex                             texture  float4     2darray      T4      t0,space1 unbounded 
// items                             texture  struct         r/o      T0             t3      1 
// raw                                   UAV    byte         r/w      U0      u0,space2      4 
// push                              cbuffer      NA          NA     CB0            cb0      1 
//
//
";

/// The synthetic headers survive header → Reflection → RDEF → header,
/// except the default-value line (D3D reflection keeps no defaults).
#[test]
fn synthetic_headers_round_trip() {
    for (header, version) in [(SYNTHETIC_50, "cs_5_0"), (SYNTHETIC_51, "cs_5_1")] {
        let text = format!("{header}{version}\nret\n");
        let r = reflection_from_listing(&text)
            .unwrap_or_else(|e| panic!("{version}: {e}"))
            .expect("reflection");
        let printed = header_via_rdef(&r, &[0x0005_0050, 2]);
        let want: Vec<String> = header
            .lines()
            .filter(|l| !l.starts_with("//      = "))
            .map(str::to_string)
            .chain(
                [
                    "//",
                    "// Input signature:",
                    "//",
                    "// Name                 Index   Mask Register SysValue  Format   Used",
                    "// -------------------- ----- ------ -------- -------- ------- ------",
                    "// no Input",
                    "//",
                    "// Output signature:",
                    "//",
                    "// Name                 Index   Mask Register SysValue  Format   Used",
                    "// -------------------- ----- ------ -------- -------- ------- ------",
                    "// no Output",
                ]
                .map(String::from),
            )
            .collect();
        assert_eq!(printed, want, "{version}");
        let rdef = write_rdef(&r, version_of(&r));
        assert_eq!(parse_rdef(&rdef), Ok(r.clone()));
    }

    // Spot checks of what the header does not print.
    let r = reflection_from_listing(&format!("{SYNTHETIC_50}cs_5_0\n"))
        .unwrap()
        .unwrap();
    let per_view = r.cbuffer_named("PerView").unwrap();
    assert_eq!(per_view.size, 464);
    let lights = &per_view.variables[2];
    assert_eq!(lights.name, "Lights");
    assert_eq!(
        (lights.ty.class, lights.ty.elements, lights.ty.name.as_str()),
        (5, 2, "Light")
    );
    // float3 + (float + 2 x uint2) = 3 + 5 components.
    assert_eq!(lights.ty.columns, 8);
    let color = &lights.ty.members[1];
    assert_eq!((color.0.as_str(), color.1), ("Color", 12));
    assert_eq!(color.2.members[1].1, 4);
    assert_eq!(per_view.variables[0].flags, 0);
    assert_eq!(per_view.variables[1].flags, 2);
    assert_eq!(per_view.variables[4].ty.class, 2);
    assert_eq!(per_view.variables[3].ty.class, 3);
    assert_eq!(r.binding("Counted").unwrap().num_samples_or_stride, 8);
    assert_eq!(r.binding("Msaa").unwrap().num_samples_or_stride, 4);
    assert_eq!(
        r.binding("ShadowMap").unwrap().num_samples_or_stride,
        u32::MAX
    );
    let r = reflection_from_listing(&format!("{SYNTHETIC_51}cs_5_1\n"))
        .unwrap()
        .unwrap();
    let tex = r.binding("g_tex").unwrap();
    assert_eq!((tex.space, tex.id, tex.bind_count), (1, 4, 0));
    assert_eq!(r.resource_by_id("u", 0).unwrap().name, "raw");
}

/// Listings without a binding table have no reflection.
#[test]
fn no_bindings_no_reflection() {
    assert_eq!(
        reflection_from_listing("cs_5_0\ndcl_thread_group 1, 1, 1\nret\n"),
        Ok(None)
    );
    let (asm, _) = example("scan");
    let stripped: String = asm
        .lines()
        .filter(|l| !l.contains("Resource Bindings"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(reflection_from_listing(&stripped), Ok(None));
}

/// Malformed header lines: errors with the line (and column), never panics.
#[test]
fn malformed_headers_are_errors_with_positions() {
    let (asm, _) = example("cas_float_add");
    let lines: Vec<&str> = asm.lines().collect();
    let with = |i: usize, new: &str| -> String {
        let mut v = lines.clone();
        v[i] = new;
        v.join("\n")
    };
    let find = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();

    let cases = [
        (find("uint value_count"), "//   uint value_count;  // Offset: zero Size: 4", 1),
        (find("uint value_count"), "//   half value_count;                  // Offset:    0 Size:     4", 1),
        (find("uint value_count"), "//   uint value_count                   // Offset:    0 Size:     4", 1),
        (find("// values    "), "// values                            texture  struct         r/w             t0      1 ", 1),
        (find("// sums    "), "// sums                                  UAV    byte         r/w             t0      1 ", 1),
        (find("// Params    "), "// Params                            cbuffer      NA          NA            cb0 ", 1),
        (find("// Name    "), "// Name Type", 1),
        (find("Generated by"), "// Something else entirely", 1),
    ];
    for (i, line, _) in cases {
        let text = with(i, line);
        let err = reflection_from_listing(&text).expect_err(line);
        assert_eq!(err.line, i + 1, "{line}: {err}");
        assert!(err.column >= 1);
        assert!(err.excerpt.contains('^'), "{err}");
        // The loaders report it as an assembly error.
        assert!(matches!(
            sim_core::Program::from_listing(&text),
            Err(sim_core::LoadError::Asm(_))
        ));
    }

    // A structured binding without its element block.
    let start = find("Resource bind info for values");
    let mut v = lines.clone();
    v.drain(start..start + 7);
    let err = reflection_from_listing(&v.join("\n")).unwrap_err();
    assert!(
        err.message.contains("Resource bind info for values"),
        "{err}"
    );

    // An ID column in a cs_5_0 listing.
    let text = format!("{SYNTHETIC_51}cs_5_0\n");
    assert!(reflection_from_listing(&text).is_err());
    // No version line after the header.
    assert!(reflection_from_listing(SYNTHETIC_50).is_err());
}

/// Every header line of every example, mutated in a few ways: an error or a
/// reflection, never a panic.
#[test]
fn mutated_headers_do_not_panic() {
    let mut errors = 0usize;
    let mut runs = 0usize;
    for text in EXAMPLES.iter().map(|n| example(n).0).chain([
        format!("{SYNTHETIC_50}cs_5_0\n"),
        format!("{SYNTHETIC_51}cs_5_1\n"),
    ]) {
        let lines: Vec<&str> = text.lines().collect();
        let header = lines.iter().take_while(|l| l.starts_with("//")).count();
        for i in 0..header {
            let line = lines[i];
            let mut variants: Vec<Option<String>> = vec![
                None,
                Some(line.replace(|c: char| c.is_ascii_digit(), "9999999999")),
                Some(line.replace(' ', "")),
                Some(format!("{line} x")),
                Some(line.replace('}', "{")),
                Some("//".into()),
            ];
            for cut in [3, line.len() / 2, line.len().saturating_sub(2)] {
                variants.push(line.get(..cut).map(str::to_string));
            }
            for v in variants {
                let mut m = lines.clone();
                match &v {
                    None => {
                        m.remove(i);
                    }
                    Some(s) => m[i] = s,
                }
                runs += 1;
                if reflection_from_listing(&m.join("\n")).is_err() {
                    errors += 1;
                }
            }
        }
    }
    println!("{runs} mutated headers, {errors} rejected");
    assert!(errors > runs / 4, "{errors}/{runs}");
}

#[test]
fn a_note_above_fxcs_banner_is_not_part_of_the_header() {
    let (text, _) = example("histogram");
    let plain = reflection_from_listing(&text).unwrap();
    assert!(plain.is_some());
    let noted = format!("// HAND-EDITED: a note of the user's own\n//\n{text}");
    assert_eq!(reflection_from_listing(&noted).unwrap(), plain);
    // without fxc's banner, an unknown header line is still an error with its line
    let broken = text.replacen(
        "// Generated by Microsoft (R) HLSL Shader Compiler",
        "// Something else",
        1,
    );
    let err = reflection_from_listing(&broken).unwrap_err();
    assert_eq!(err.line, 2, "{err:?}");
    assert!(err.message.contains("Something else"), "{err:?}");
}
