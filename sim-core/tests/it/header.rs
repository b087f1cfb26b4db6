//! The listing header and footer ([`sim_core::front::header`]) against fxc's own.
//!
//! Oracles, per `.dxbc` with a listing beside it:
//! - `../examples/<name>/<name>.asm`: fxc 10.1 `/Fc` listings (cs_5_0); their
//!   comment lines before the version line and their
//!   `// Approximately N instruction slots used` line.
//! - `../tests/corpus/{xenia,NvCloth}/*.asm`: these were converted from the
//!   projects' `fxc /Fh` headers with every comment line dropped, so they hold
//!   no header to compare with (checked below: if one ever does, it is used).
//!   The comment blocks of the original headers — identical in form to `/Fc`
//!   output, and taken from the commits named in `corpus/provenance.tsv`,
//!   whose byte arrays equal these `.dxbc` files — are embedded below
//!   ([`FH_HEADERS`], [`FH_FILES`]): xenia's cs_5_1 shaders (fxc 10.1, with the
//!   `ID` column) and NvCloth's cs_5_0 solver (fxc "For Durango", structs in
//!   `$Element`). The bgfx corpus has no RDEF and is not used.
//!
//! The test prints the share of identical lines and the first differences,
//! and asserts [`MIN_IDENTICAL_PERCENT`] as a floor.

use std::path::{Path, PathBuf};

use sim_core::front::container::{ChecksumPolicy, Container};
use sim_core::front::header::{binding_row, listing_footer, listing_header, HeaderError};
use sim_core::front::rdef::{InputType, ResourceBinding};

/// Floor on the share of identical header and footer lines, in percent.
const MIN_IDENTICAL_PERCENT: f64 = 100.0;

/// Pairs of listings and bytecode expected in `examples/`.
const MIN_EXAMPLES: usize = 8;

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The `.dxbc` files of `dir` that have a `.asm` beside them, sorted.
fn listed_dxbc(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e} (the corpus must be checked out beside the repository)",
            dir.display()
        )
    });
    let mut out: Vec<PathBuf> = entries
        .map(|e| {
            e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .filter(|p| p.extension().is_some_and(|x| x == "dxbc") && p.with_extension("asm").is_file())
        .collect();
    out.sort();
    out
}

/// A listing's comment lines before its version line, and its footer line.
fn listing_comments(text: &str) -> (Vec<String>, Option<String>) {
    let header = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .map(str::to_string)
        .collect();
    let footer = text
        .lines()
        .find(|l| l.starts_with("// Approximately "))
        .map(str::to_string);
    (header, footer)
}

/// The embedded `/Fh` comment blocks: `"dir/stem"` → (header lines, footer).
fn fh_expectations() -> Vec<(String, Vec<String>, String)> {
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for line in FH_HEADERS.lines() {
        if line.is_empty() {
            continue;
        }
        if line.starts_with("@ ") {
            blocks.push(Vec::new());
            continue;
        }
        let body = line
            .strip_suffix('$')
            .unwrap_or_else(|| panic!("embedded header line without its `$` terminator: {line:?}"));
        blocks
            .last_mut()
            .expect("embedded header data starts with `@ 0`")
            .push(body.to_string());
    }
    FH_FILES
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let (Some(key), Some(block), Some(slots)) = (it.next(), it.next(), it.next()) else {
                panic!("bad FH_FILES line {l:?}");
            };
            let block: usize = block.parse().expect("block index");
            (
                key.to_string(),
                blocks[block].clone(),
                format!("// Approximately {slots} instruction slots used"),
            )
        })
        .collect()
}

/// One comparison: what fxc printed and what we print.
struct Case {
    name: String,
    expected: Vec<String>,
    ours: Vec<String>,
}

fn ours_for(dxbc: &Path) -> (Vec<String>, Option<String>) {
    let bytes = read(dxbc);
    let c = Container::parse(&bytes, ChecksumPolicy::Verify)
        .unwrap_or_else(|e| panic!("{}: {e}", dxbc.display()));
    let header = listing_header(&c).unwrap_or_else(|e| panic!("{}: {e}", dxbc.display()));
    (header, listing_footer(&c))
}

#[test]
fn headers_and_footers_match_fxc() {
    let mut cases = Vec::new();
    // examples/: the listings carry their headers.
    let mut examples = 0;
    let ex = examples_dir();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&ex)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", ex.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        for dxbc in listed_dxbc(&dir) {
            let (exp_header, exp_footer) =
                listing_comments(&read_text(&dxbc.with_extension("asm")));
            assert!(
                !exp_header.is_empty(),
                "{}: listing has no header",
                dxbc.display()
            );
            let exp_footer =
                exp_footer.unwrap_or_else(|| panic!("{}: listing has no footer", dxbc.display()));
            let (mut ours, footer) = ours_for(&dxbc);
            ours.push(footer.unwrap_or_default());
            let mut expected = exp_header;
            expected.push(exp_footer);
            cases.push(Case {
                name: dxbc.display().to_string(),
                expected,
                ours,
            });
            examples += 1;
        }
    }
    assert!(
        examples >= MIN_EXAMPLES,
        "found {examples} listed .dxbc files under {}, expected at least {MIN_EXAMPLES}",
        ex.display()
    );

    // corpus/xenia and corpus/NvCloth: the embedded /Fh comment blocks, unless
    // the listing itself has a header.
    let fh = fh_expectations();
    let corpus = corpus_dir();
    let mut used = vec![false; fh.len()];
    for sub in ["xenia", "NvCloth"] {
        let files = listed_dxbc(&corpus.join(sub));
        assert!(
            !files.is_empty(),
            "no listed .dxbc under {}",
            corpus.join(sub).display()
        );
        for dxbc in files {
            let stem = dxbc
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let key = format!("{sub}/{stem}");
            let (mut exp_header, mut exp_footer) =
                listing_comments(&read_text(&dxbc.with_extension("asm")));
            if let Some(i) = fh.iter().position(|(k, _, _)| *k == key) {
                used[i] = true;
                if exp_header.is_empty() {
                    exp_header = fh[i].1.clone();
                }
                if exp_footer.is_none() {
                    exp_footer = Some(fh[i].2.clone());
                }
            }
            assert!(
                !exp_header.is_empty(),
                "{key}: neither the listing nor the embedded /Fh data has a header"
            );
            let exp_footer =
                exp_footer.unwrap_or_else(|| panic!("{key}: no footer to compare with"));
            let (mut ours, footer) = ours_for(&dxbc);
            ours.push(footer.unwrap_or_default());
            let mut expected = exp_header;
            expected.push(exp_footer);
            cases.push(Case {
                name: key,
                expected,
                ours,
            });
        }
    }
    let missing: Vec<&str> = fh
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|((k, _, _), _)| k.as_str())
        .collect();
    assert!(missing.is_empty(), "corpus files missing: {missing:?}");

    let mut total = 0usize;
    let mut same = 0usize;
    let mut diffs = Vec::new();
    for case in &cases {
        let n = case.expected.len().max(case.ours.len());
        for i in 0..n {
            let e = case.expected.get(i);
            let o = case.ours.get(i);
            total += 1;
            if e == o {
                same += 1;
            } else {
                diffs.push(format!(
                    "{} line {}:\n  fxc:  {:?}\n  ours: {:?}",
                    case.name,
                    i + 1,
                    e.map(String::as_str).unwrap_or("<none>"),
                    o.map(String::as_str).unwrap_or("<none>")
                ));
            }
        }
    }
    let percent = 100.0 * same as f64 / total.max(1) as f64;
    println!(
        "listing header/footer: {same}/{total} lines identical ({percent:.2}%) over {} files",
        cases.len()
    );
    for d in diffs.iter().take(20) {
        println!("{d}");
    }
    assert!(
        percent >= MIN_IDENTICAL_PERCENT,
        "{percent:.2}% of header lines identical, below the {MIN_IDENTICAL_PERCENT}% floor; first differences:\n{}",
        diffs.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// A container of the given chunks (checksum left zero: parse with
/// [`ChecksumPolicy::Skip`]).
fn container_bytes(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // total size, set below
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let mut offset = 32 + 4 * chunks.len();
    for (_, data) in chunks {
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += 8 + data.len().next_multiple_of(4);
    }
    for (fourcc, data) in chunks {
        out.extend_from_slice(*fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    let total = out.len() as u32;
    out[24..28].copy_from_slice(&total.to_le_bytes());
    out
}

/// Little-endian blob with back-patching, for hand-built chunks.
#[derive(Default)]
struct Blob(Vec<u8>);

impl Blob {
    fn here(&self) -> u32 {
        self.0.len() as u32
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn set(&mut self, at: u32, v: u32) {
        let at = at as usize;
        self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    fn string(&mut self, s: &str) -> u32 {
        let at = self.here();
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        self.0.resize(self.0.len().next_multiple_of(4), 0);
        at
    }
}

/// An SM5.0 type desc (36 bytes) at the blob's end; returns its offset.
/// `shape` is (D3D_SVC class, D3D_SVT base type, rows, columns, elements);
/// `members` are (name, type desc offset, byte offset).
fn type_desc(
    b: &mut Blob,
    shape: (u16, u16, u16, u16, u16),
    members: &[(&str, u32, u32)],
    name: &str,
) -> u32 {
    let (class, base, rows, cols, elements) = shape;
    let member_table = if members.is_empty() {
        0
    } else {
        let names: Vec<u32> = members.iter().map(|(n, _, _)| b.string(n)).collect();
        let at = b.here();
        for ((_, ty, off), n) in members.iter().zip(names) {
            b.u32(n).u32(*ty).u32(*off);
        }
        at
    };
    let name_at = b.string(name);
    let at = b.here();
    b.u16(class).u16(base).u16(rows).u16(cols).u16(elements);
    b.u16(members.len() as u16).u32(member_table);
    b.u32(0).u32(0).u32(0).u32(0).u32(name_at);
    at
}

/// An SM5.0 RDEF of program type `program` (0x4353 CS, 0xFFFF PS, 0xFFFE
/// VS); `with_cbuffer` adds a cbuffer `PerView`, bound at cb2, whose
/// variables mirror part of a Stride effect's `PerView` (scalars with and
/// without a default value, a struct, matrix arrays, a row-major matrix).
fn rdef_chunk(program: u32, with_cbuffer: bool) -> Vec<u8> {
    let mut b = Blob::default();
    for _ in 0..15 {
        b.u32(0);
    }
    let creator = b.string("Microsoft (R) HLSL Shader Compiler 10.1");
    b.set(16, (program << 16) | 0x0500);
    b.set(24, creator);
    for (i, v) in [0x3131_4452u32, 60, 24, 32, 40, 36, 12, 0]
        .iter()
        .enumerate()
    {
        b.set(28 + 4 * i as u32, *v);
    }
    if !with_cbuffer {
        return b.0;
    }
    // Types.
    let t_float = type_desc(&mut b, (0, 3, 1, 1, 0), &[], "float");
    let t_int = type_desc(&mut b, (0, 2, 1, 1, 0), &[], "int");
    let t_float3 = type_desc(&mut b, (1, 3, 1, 3, 0), &[], "float3");
    let t_struct = type_desc(
        &mut b,
        (5, 0, 1, 7, 0),
        &[("DirectionWS", t_float3, 0), ("Color", t_float3, 16)],
        "DirectionalLightData",
    );
    let t_mat_arr = type_desc(&mut b, (3, 3, 4, 4, 4), &[], "float4x4");
    let t_mat_rows = type_desc(&mut b, (2, 3, 4, 4, 0), &[], "float4x4");
    let t_float2_arr = type_desc(&mut b, (1, 3, 1, 2, 4), &[], "float2");
    let default_at = b.here();
    b.u32(0x3f80_0000);
    let vars: [(&str, u32, u32, u32, u32, u32); 6] = [
        ("NearClipPlane_id172", 352, 4, 0, t_float, default_at),
        ("LightCount_id148", 400, 4, 0, t_int, 0),
        ("Lights_id150", 416, 28, 0, t_struct, 0),
        ("WorldToShadowCascadeUV_id157", 464, 256, 0, t_mat_arr, 0),
        ("gWorld", 720, 64, 2, t_mat_rows, 0),
        ("DepthRanges_id160", 1232, 56, 0, t_float2_arr, 0),
    ];
    let names: Vec<u32> = vars.iter().map(|v| b.string(v.0)).collect();
    let var_table = b.here();
    for (v, n) in vars.iter().zip(names) {
        b.u32(n).u32(v.1).u32(v.2).u32(v.3).u32(v.4).u32(v.5);
        b.u32(u32::MAX).u32(0).u32(u32::MAX).u32(0);
    }
    let cb_name = b.string("PerView");
    let cb_table = b.here();
    b.u32(cb_name)
        .u32(vars.len() as u32)
        .u32(var_table)
        .u32(1296)
        .u32(0)
        .u32(0);
    let bind_table = b.here();
    b.u32(cb_name)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(2)
        .u32(1)
        .u32(0);
    b.set(0, 1);
    b.set(4, cb_table);
    b.set(8, 1);
    b.set(12, bind_table);
    b.0
}

/// A 24-byte-element signature chunk: (name, index, system value,
/// component type, register, mask, read/write mask).
fn signature_chunk(elements: &[(&str, u32, u32, u32, u32, u8, u8)]) -> Vec<u8> {
    let mut b = Blob::default();
    b.u32(elements.len() as u32).u32(8);
    let table = b.here();
    for _ in elements {
        for _ in 0..6 {
            b.u32(0);
        }
    }
    for (i, e) in elements.iter().enumerate() {
        let name = b.string(e.0);
        let at = table + 24 * i as u32;
        b.set(at, name);
        b.set(at + 4, e.1);
        b.set(at + 8, e.2);
        b.set(at + 12, e.3);
        b.set(at + 16, e.4);
        b.set(at + 20, u32::from(e.5) | (u32::from(e.6) << 8));
    }
    b.0
}

fn header_of(chunks: &[(&[u8; 4], Vec<u8>)]) -> Result<Vec<String>, HeaderError> {
    let bytes = container_bytes(chunks);
    let c = Container::parse(&bytes, ChecksumPolicy::Skip).expect("synthetic container parses");
    listing_header(&c)
}

/// Variables, structs, arrays, matrices, [unused] and default values, with
/// the expected lines taken from fxc 10.1 listings in public projects
/// (a Stride effect's `PerView` cbuffer; a `row_major` line in the same
/// columns as GTA V's `rage_matrices`).
#[test]
fn cbuffer_variables_structs_and_defaults() {
    let header = header_of(&[(b"RDEF", rdef_chunk(0x4353, true))]).expect("header");
    let expected = [
        "//",
        "// Generated by Microsoft (R) HLSL Shader Compiler 10.1",
        "//",
        "//",
        "// Buffer Definitions: ",
        "//",
        "// cbuffer PerView",
        "// {",
        "//",
        "//   float NearClipPlane_id172;         // Offset:  352 Size:     4 [unused]",
        "//      = 0x3f800000 ",
        "//   int LightCount_id148;              // Offset:  400 Size:     4 [unused]",
        "//   ",
        "//   struct DirectionalLightData",
        "//   {",
        "//       ",
        "//       float3 DirectionWS;            // Offset:  416",
        "//       float3 Color;                  // Offset:  432",
        "//",
        "//   } Lights_id150;                    // Offset:  416 Size:    28 [unused]",
        "//   float4x4 WorldToShadowCascadeUV_id157[4];// Offset:  464 Size:   256 [unused]",
        "//   row_major float4x4 gWorld;         // Offset:  720 Size:    64",
        "//   float2 DepthRanges_id160[4];       // Offset: 1232 Size:    56 [unused]",
        "//",
        "// }",
        "//",
        "//",
        "// Resource Bindings:",
        "//",
        "// Name                                 Type  Format         Dim      HLSL Bind  Count",
        "// ------------------------------ ---------- ------- ----------- -------------- ------",
        "// PerView                           cbuffer      NA          NA            cb2      1 ",
        "//",
        "//",
    ];
    assert_eq!(header, expected);
}

fn binding(
    name: &str,
    input_type: u32,
    return_type: u32,
    dimension: u32,
    bind_point: u32,
    flags: u32,
) -> ResourceBinding {
    ResourceBinding {
        name: name.to_string(),
        input_type: InputType::from_u32(input_type),
        return_type,
        dimension,
        num_samples_or_stride: 0,
        bind_point,
        bind_count: 1,
        flags,
        space: 0,
        id: bind_point,
    }
}

/// Binding rows of kinds the corpus lacks, against rows of fxc 10.1
/// listings in public projects (Stride effects).
#[test]
fn binding_rows_of_other_kinds() {
    let cases = [
        (
            binding("LinearSampler_id115", 3, 0, 0, 0, 0),
            "// LinearSampler_id115               sampler      NA          NA             s0      1 ",
        ),
        (
            binding("LinearClampCompareLessEqualSampler_id117", 3, 0, 0, 1, 2),
            "// LinearClampCompareLessEqualSampler_id117  sampler_c      NA          NA             s1      1 ",
        ),
        (
            binding("ShadowMapTexture_id189", 2, 5, 4, 0, 12),
            "// ShadowMapTexture_id189            texture  float4          2d             t0      1 ",
        ),
        (
            binding("LightClusters_id179", 2, 4, 8, 5, 4),
            "// LightClusters_id179               texture   uint2          3d             t5      1 ",
        ),
        (
            binding("LightIndices_id178", 2, 4, 1, 5, 0),
            "// LightIndices_id178                texture    uint         buf             t5      1 ",
        ),
        (
            binding("DynamicBuffer_id253", 2, 5, 1, 1, 0),
            "// DynamicBuffer_id253               texture   float         buf             t1      1 ",
        ),
        (
            binding("CubeMap_id179", 2, 5, 9, 5, 12),
            "// CubeMap_id179                     texture  float4        cube             t5      1 ",
        ),
    ];
    for (b, want) in &cases {
        assert_eq!(binding_row(b, false), *want);
    }
    // cs_5_1: ID column, register space, unbounded range.
    let mut b = binding("g_tex", 2, 5, 5, 0, 12);
    b.space = 1;
    b.id = 4;
    b.bind_count = 0;
    assert_eq!(
        binding_row(&b, true),
        "// g_tex                             texture  float4     2darray      T4      t0,space1 unbounded "
    );
}

/// Input/output signature rows (a vertex shader of a Stride effect, fxc 10.1)
/// and the registerless pixel-shader outputs.
#[test]
fn signature_sections() {
    let isgn = signature_chunk(&[
        ("POSITION", 0, 0, 3, 0, 0xF, 0xF),
        ("SV_InstanceID", 0, 8, 1, 1, 0x1, 0x1),
        ("NORMAL", 0, 0, 3, 2, 0x7, 0x7),
    ]);
    let osgn = signature_chunk(&[
        ("POSITION_WS", 0, 0, 3, 0, 0xF, 0),
        ("SV_Position", 0, 1, 3, 1, 0xF, 0),
        ("DEPTH_VS", 0, 0, 3, 2, 0x1, 0),
        ("NORMALWS", 0, 0, 3, 2, 0xE, 0),
        ("SCREENPOSITION_ID171_SEM", 0, 0, 3, 3, 0xF, 0),
        ("SV_InstanceID", 0, 0, 1, 4, 0x1, 0),
    ]);
    let header = header_of(&[
        (b"RDEF", rdef_chunk(0xFFFE, false)),
        (b"ISGN", isgn),
        (b"OSGN", osgn),
    ])
    .expect("header");
    let expected = [
        "//",
        "// Generated by Microsoft (R) HLSL Shader Compiler 10.1",
        "//",
        "//",
        "//",
        "// Input signature:",
        "//",
        "// Name                 Index   Mask Register SysValue  Format   Used",
        "// -------------------- ----- ------ -------- -------- ------- ------",
        "// POSITION                 0   xyzw        0     NONE   float   xyzw",
        "// SV_InstanceID            0   x           1   INSTID    uint   x   ",
        "// NORMAL                   0   xyz         2     NONE   float   xyz ",
        "//",
        "//",
        "// Output signature:",
        "//",
        "// Name                 Index   Mask Register SysValue  Format   Used",
        "// -------------------- ----- ------ -------- -------- ------- ------",
        "// POSITION_WS              0   xyzw        0     NONE   float   xyzw",
        "// SV_Position              0   xyzw        1      POS   float   xyzw",
        "// DEPTH_VS                 0   x           2     NONE   float   x   ",
        "// NORMALWS                 0    yzw        2     NONE   float    yzw",
        "// SCREENPOSITION_ID171_SEM     0   xyzw        3     NONE   float   xyzw",
        "// SV_InstanceID            0   x           4     NONE    uint   x   ",
        "//",
    ];
    assert_eq!(header, expected);

    let ps_out = signature_chunk(&[
        ("SV_Target", 0, 0, 3, 0, 0xF, 0),
        ("SV_Depth", 0, 0, 3, u32::MAX, 0x1, 0xE),
    ]);
    let header =
        header_of(&[(b"RDEF", rdef_chunk(0xFFFF, false)), (b"OSGN", ps_out)]).expect("header");
    assert_eq!(
        header[header.len() - 3..],
        [
            "// SV_Target                0   xyzw        0   TARGET   float   xyzw",
            "// SV_Depth                 0    N/A   oDepth    DEPTH   float    YES",
            "//",
        ]
    );
}

/// No RDEF: no header; no STAT: no footer; truncated chunks: typed errors.
#[test]
fn missing_and_bad_chunks() {
    let bytes = container_bytes(&[(b"SHEX", vec![0; 8])]);
    let c = Container::parse(&bytes, ChecksumPolicy::Skip).expect("parses");
    assert_eq!(listing_header(&c), Ok(Vec::new()));
    assert_eq!(listing_footer(&c), None);

    let mut bad_sig = Blob::default();
    bad_sig.u32(1000).u32(8);
    let err = header_of(&[(b"RDEF", rdef_chunk(0x4353, false)), (b"ISGN", bad_sig.0)])
        .expect_err("truncated signature");
    assert!(
        matches!(err, HeaderError::OutOfBounds { ref chunk, .. } if chunk == "ISGN"),
        "{err}"
    );

    let err = header_of(&[(b"RDEF", vec![0; 12])]).expect_err("truncated RDEF");
    assert!(matches!(err, HeaderError::Rdef(_)), "{err}");

    let mut bad_name = Blob::default();
    bad_name
        .u32(1)
        .u32(8)
        .u32(4000)
        .u32(0)
        .u32(0)
        .u32(3)
        .u32(0)
        .u32(0xF);
    let err = header_of(&[(b"RDEF", rdef_chunk(0x4353, false)), (b"OSGN", bad_name.0)])
        .expect_err("bad string");
    assert!(matches!(err, HeaderError::BadString { .. }), "{err}");

    let stat = container_bytes(&[(b"STAT", 7u32.to_le_bytes().to_vec())]);
    let c = Container::parse(&stat, ChecksumPolicy::Skip).expect("parses");
    assert_eq!(
        listing_footer(&c).as_deref(),
        Some("// Approximately 7 instruction slots used")
    );
}

/// Corrupted chunks never panic: every byte of the first 512 of each
/// example's RDEF, ISGN, OSGN and STAT chunk data is overwritten in turn
/// with a few values, and the header is rebuilt (an error is fine).
#[test]
fn corrupted_chunks_do_not_panic() {
    let path = examples_dir().join("matmul/matmul.dxbc");
    let original = read(&path);
    let c = Container::parse(&original, ChecksumPolicy::Verify).expect("matmul parses");
    let ranges: Vec<(usize, usize)> = c
        .chunks
        .iter()
        .filter(|ch| matches!(&ch.fourcc, b"RDEF" | b"ISGN" | b"OSGN" | b"STAT"))
        .map(|ch| (ch.data_offset, ch.data.len().min(512)))
        .collect();
    assert!(!ranges.is_empty());
    let mut bytes = original.clone();
    let mut errors = 0usize;
    for (start, len) in ranges {
        for i in start..start + len {
            for v in [0x00u8, 0xFF, 0x7F, 0x80, 0x01] {
                let keep = bytes[i];
                bytes[i] = v;
                let c = Container::parse(&bytes, ChecksumPolicy::Skip).expect("container intact");
                if listing_header(&c).is_err() {
                    errors += 1;
                }
                let _ = listing_footer(&c);
                bytes[i] = keep;
            }
        }
    }
    assert!(errors > 0, "no corruption was detected at all");
}

/// `<dir>/<stem> <block> <slots>`: the /Fh comment block of each corpus file
/// (an index into [`FH_HEADERS`]) and the N of its
/// `// Approximately N instruction slots used` line.
pub(crate) const FH_FILES: &str = "
NvCloth/DxSolverKernelBlob 0 5201
xenia/apply_gamma_pwl_cs 1 37
xenia/apply_gamma_pwl_fxaa_luma_cs 2 37
xenia/apply_gamma_table_cs 3 16
xenia/apply_gamma_table_fxaa_luma_cs 4 16
xenia/fxaa_cs 5 205
xenia/fxaa_extreme_cs 5 364
xenia/host_depth_store_1xmsaa_cs 6 49
xenia/host_depth_store_2xmsaa_cs 7 56
xenia/host_depth_store_4xmsaa_cs 7 45
xenia/resolve_clear_32bpp_cs 8 34
xenia/resolve_clear_32bpp_scaled_cs 8 41
xenia/resolve_clear_64bpp_cs 8 32
xenia/resolve_clear_64bpp_scaled_cs 8 38
xenia/resolve_fast_32bpp_1x2xmsaa_cs 9 145
xenia/resolve_fast_32bpp_1x2xmsaa_scaled_cs 10 180
xenia/resolve_fast_32bpp_4xmsaa_cs 9 169
xenia/resolve_fast_32bpp_4xmsaa_scaled_cs 10 204
xenia/resolve_fast_64bpp_1x2xmsaa_cs 9 134
xenia/resolve_fast_64bpp_1x2xmsaa_scaled_cs 10 168
xenia/resolve_fast_64bpp_4xmsaa_cs 9 135
xenia/resolve_fast_64bpp_4xmsaa_scaled_cs 10 168
xenia/resolve_full_128bpp_cs 9 730
xenia/resolve_full_128bpp_scaled_cs 10 755
xenia/resolve_full_16bpp_cs 9 1281
xenia/resolve_full_16bpp_scaled_cs 10 1311
xenia/resolve_full_32bpp_cs 9 1286
xenia/resolve_full_32bpp_scaled_cs 10 1317
xenia/resolve_full_64bpp_cs 9 1207
xenia/resolve_full_64bpp_scaled_cs 10 1241
xenia/resolve_full_8bpp_cs 9 615
xenia/resolve_full_8bpp_scaled_cs 10 642
xenia/texture_load_128bpb_cs 11 93
xenia/texture_load_128bpb_scaled_cs 11 92
xenia/texture_load_16bpb_cs 11 88
xenia/texture_load_16bpb_scaled_cs 11 81
xenia/texture_load_32bpb_cs 11 91
xenia/texture_load_32bpb_scaled_cs 11 93
xenia/texture_load_64bpb_cs 11 93
xenia/texture_load_64bpb_scaled_cs 11 92
xenia/texture_load_8bpb_cs 11 72
xenia/texture_load_8bpb_scaled_cs 11 61
xenia/texture_load_bgrg8_rgb8_cs 11 120
xenia/texture_load_bgrg8_rgbg8_cs 11 99
xenia/texture_load_ctx1_cs 12 430
xenia/texture_load_depth_float_cs 11 123
xenia/texture_load_depth_float_scaled_cs 11 125
xenia/texture_load_depth_unorm_cs 11 101
xenia/texture_load_depth_unorm_scaled_cs 11 103
xenia/texture_load_dxn_rg8_cs 12 689
xenia/texture_load_dxt1_rgba8_cs 12 896
xenia/texture_load_dxt3_rgba8_cs 12 335
xenia/texture_load_dxt3a_cs 12 155
xenia/texture_load_dxt3aas1111_argb4_cs 12 340
xenia/texture_load_dxt3aas1111_bgra4_cs 12 324
xenia/texture_load_dxt5_rgba8_cs 12 841
xenia/texture_load_dxt5a_r8_cs 12 753
xenia/texture_load_gbgr8_grgb8_cs 11 103
xenia/texture_load_gbgr8_rgb8_cs 11 121
xenia/texture_load_r10g11b11_rgba16_cs 11 135
xenia/texture_load_r10g11b11_rgba16_scaled_cs 11 137
xenia/texture_load_r10g11b11_rgba16_snorm_cs 11 245
xenia/texture_load_r10g11b11_rgba16_snorm_scaled_cs 11 247
xenia/texture_load_r11g11b10_rgba16_cs 11 139
xenia/texture_load_r11g11b10_rgba16_scaled_cs 11 141
xenia/texture_load_r11g11b10_rgba16_snorm_cs 11 245
xenia/texture_load_r11g11b10_rgba16_snorm_scaled_cs 11 247
xenia/texture_load_r16_snorm_float_cs 11 110
xenia/texture_load_r16_snorm_float_scaled_cs 11 103
xenia/texture_load_r16_unorm_float_cs 11 106
xenia/texture_load_r16_unorm_float_scaled_cs 11 99
xenia/texture_load_r4g4b4a4_a4r4g4b4_cs 11 98
xenia/texture_load_r4g4b4a4_a4r4g4b4_scaled_cs 11 91
xenia/texture_load_r4g4b4a4_b4g4r4a4_cs 11 102
xenia/texture_load_r4g4b4a4_b4g4r4a4_scaled_cs 11 95
xenia/texture_load_r5g5b5a1_b5g5r5a1_cs 11 102
xenia/texture_load_r5g5b5a1_b5g5r5a1_scaled_cs 11 95
xenia/texture_load_r5g5b6_b5g6r5_swizzle_rbga_cs 11 98
xenia/texture_load_r5g5b6_b5g6r5_swizzle_rbga_scaled_cs 11 91
xenia/texture_load_r5g6b5_b5g6r5_cs 11 102
xenia/texture_load_r5g6b5_b5g6r5_scaled_cs 11 95
xenia/texture_load_rg16_snorm_float_cs 11 113
xenia/texture_load_rg16_snorm_float_scaled_cs 11 115
xenia/texture_load_rg16_unorm_float_cs 11 109
xenia/texture_load_rg16_unorm_float_scaled_cs 11 111
xenia/texture_load_rgba16_snorm_float_cs 11 115
xenia/texture_load_rgba16_snorm_float_scaled_cs 11 114
xenia/texture_load_rgba16_unorm_float_cs 11 111
xenia/texture_load_rgba16_unorm_float_scaled_cs 11 110
";

/// The distinct comment blocks (before the version line) of the `fxc /Fh`
/// headers the corpus files come from, verbatim; `@ <n>` starts block n and
/// every line ends in `$` so that trailing spaces survive editors.
pub(crate) const FH_HEADERS: &str = r##"
@ 0
//$
// Generated by Microsoft (R) HLSL Shader Compiler For Durango$
//$
//$
// Buffer Definitions: $
//$
// Resource bind info for bClothData$
// {$
//$
//   struct DxClothData$
//   {$
//       $
//       uint mNumParticles;            // Offset:    0$
//       uint mParticlesOffset;         // Offset:    4$
//       uint mNumPhases;               // Offset:    8$
//       uint mPhaseConfigOffset;       // Offset:   12$
//       uint mConstraintOffset;        // Offset:   16$
//       uint mStiffnessOffset;         // Offset:   20$
//       uint mNumTethers;              // Offset:   24$
//       uint mTetherOffset;            // Offset:   28$
//       float mTetherConstraintScale;  // Offset:   32$
//       uint mNumTriangles;            // Offset:   36$
//       uint mStartTriangleOffset;     // Offset:   40$
//       float mMotionConstraintScale;  // Offset:   44$
//       float mMotionConstraintBias;   // Offset:   48$
//       uint mNumCapsules;             // Offset:   52$
//       uint mCapsuleOffset;           // Offset:   56$
//       uint mNumSpheres;              // Offset:   60$
//       uint mNumPlanes;               // Offset:   64$
//       uint mNumConvexes;             // Offset:   68$
//       uint mConvexMasksOffset;       // Offset:   72$
//       uint mNumCollisionTriangles;   // Offset:   76$
//       uint mNumVirtualParticleSetSizes;// Offset:   80$
//       uint mEnableContinuousCollision;// Offset:   84$
//       float mCollisionMassScale;     // Offset:   88$
//       float mFrictionScale;          // Offset:   92$
//       float mSelfCollisionDistance;  // Offset:   96$
//       uint mNumSelfCollisionIndices; // Offset:  100$
//       uint mSelfCollisionIndicesOffset;// Offset:  104$
//       uint mSelfCollisionParticlesOffset;// Offset:  108$
//       uint mSelfCollisionDataOffset; // Offset:  112$
//       uint mSleepTestInterval;       // Offset:  116$
//       uint mSleepAfterCount;         // Offset:  120$
//       float mSleepThreshold;         // Offset:  124$
//$
//   } $Element;                        // Offset:    0 Size:   128$
//$
// }$
//$
// Resource bind info for bIterData$
// {$
//$
//   struct DxIterationData$
//   {$
//       $
//       float mIntegrationTrafo[24];   // Offset:    0$
//       float mWind[3];                // Offset:   96$
//       uint mIsTurning;               // Offset:  108$
//$
//   } $Element;                        // Offset:    0 Size:   112$
//$
// }$
//$
// Resource bind info for bPhaseConfigs$
// {$
//$
//   struct DxPhaseConfig$
//   {$
//       $
//       float mStiffness;              // Offset:    0$
//       float mStiffnessMultiplier;    // Offset:    4$
//       float mCompressionLimit;       // Offset:    8$
//       float mStretchLimit;           // Offset:   12$
//       uint mFirstConstraint;         // Offset:   16$
//       uint mNumConstraints;          // Offset:   20$
//$
//   } $Element;                        // Offset:    0 Size:    24$
//$
// }$
//$
// Resource bind info for bConstraints$
// {$
//$
//   struct DxConstraint$
//   {$
//       $
//       float mRestvalue;              // Offset:    0$
//       uint mIndices;                 // Offset:    4$
//$
//   } $Element;                        // Offset:    0 Size:     8$
//$
// }$
//$
// Resource bind info for bTetherConstraints$
// {$
//$
//   struct DxTether$
//   {$
//       $
//       uint mValue;                   // Offset:    0$
//$
//   } $Element;                        // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bCapsuleIndices$
// {$
//$
//   struct IndexPair$
//   {$
//       $
//       uint first;                    // Offset:    0$
//       uint second;                   // Offset:    4$
//$
//   } $Element;                        // Offset:    0 Size:     8$
//$
// }$
//$
// Resource bind info for bCollisionSpheres$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bConvexMasks$
// {$
//$
//   uint $Element;                     // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bCollisionPlanes$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bCollisionTriangles$
// {$
//$
//   float3 $Element;                   // Offset:    0 Size:    12$
//$
// }$
//$
// Resource bind info for bMotionConstraints$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bSeparationConstraints$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bParticleAccelerations$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bRestPositions$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bSelfCollisionIndices$
// {$
//$
//   int $Element;                      // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bPerConstraintStiffness$
// {$
//$
//   float $Element;                    // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bTriangles$
// {$
//$
//   uint $Element;                     // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bVirtualParticleSetSizes$
// {$
//$
//   int $Element;                      // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bVirtualParticleIndices$
// {$
//$
//   uint4 $Element;                    // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bVirtualParticleWeights$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bSelfCollisionParticles$
// {$
//$
//   float4 $Element;                   // Offset:    0 Size:    16$
//$
// }$
//$
// Resource bind info for bSelfCollisionData$
// {$
//$
//   uint $Element;                     // Offset:    0 Size:     4$
//$
// }$
//$
// Resource bind info for bFrameData$
// {$
//$
//   struct DxFrameData$
//   {$
//       $
//       bool mDeviceParticlesDirty;    // Offset:    0$
//       uint mNumSharedPositions;      // Offset:    4$
//       float mIterDt;                 // Offset:    8$
//       uint mFirstIteration;          // Offset:   12$
//       uint mNumIterations;           // Offset:   16$
//       float mTetherConstraintStiffness;// Offset:   20$
//       float mDragCoefficient;        // Offset:   24$
//       float mLiftCoefficient;        // Offset:   28$
//       float mFluidDensity;           // Offset:   32$
//       float mRotation[9];            // Offset:   36$
//       float mMotionConstraintStiffness;// Offset:   72$
//       uint mStartMotionConstrainsOffset;// Offset:   76$
//       uint mTargetMotionConstrainsOffset;// Offset:   80$
//       uint mStartSeparationConstrainsOffset;// Offset:   84$
//       uint mTargetSeparationConstrainsOffset;// Offset:   88$
//       uint mParticleAccelerationsOffset;// Offset:   92$
//       uint mStartSphereOffset;       // Offset:   96$
//       uint mTargetSphereOffset;      // Offset:  100$
//       uint mStartCollisionPlaneOffset;// Offset:  104$
//       uint mTargetCollisionPlaneOffset;// Offset:  108$
//       uint mStartCollisionTrianglesOffset;// Offset:  112$
//       uint mTargetCollisionTrianglesOffset;// Offset:  116$
//       float mSelfCollisionStiffness; // Offset:  120$
//       float mParticleBounds[6];      // Offset:  124$
//       uint mSleepPassCounter;        // Offset:  148$
//       uint mSleepTestCounter;        // Offset:  152$
//       float mStiffnessExponent;      // Offset:  156$
//       uint mRestPositionsOffset;     // Offset:  160$
//       bool mInitSelfCollisionData;   // Offset:  164$
//$
//   } $Element;                        // Offset:    0 Size:   168$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- -------------- ------$
// bClothData                        texture  struct         r/o             t0      1 $
// bIterData                         texture  struct         r/o             t2      1 $
// bPhaseConfigs                     texture  struct         r/o             t3      1 $
// bConstraints                      texture  struct         r/o             t4      1 $
// bTetherConstraints                texture  struct         r/o             t5      1 $
// bCapsuleIndices                   texture  struct         r/o             t6      1 $
// bCollisionSpheres                 texture  struct         r/o             t7      1 $
// bConvexMasks                      texture  struct         r/o             t8      1 $
// bCollisionPlanes                  texture  struct         r/o             t9      1 $
// bCollisionTriangles               texture  struct         r/o            t10      1 $
// bMotionConstraints                texture  struct         r/o            t11      1 $
// bSeparationConstraints            texture  struct         r/o            t12      1 $
// bParticleAccelerations            texture  struct         r/o            t13      1 $
// bRestPositions                    texture  struct         r/o            t14      1 $
// bSelfCollisionIndices             texture  struct         r/o            t15      1 $
// bPerConstraintStiffness           texture  struct         r/o            t16      1 $
// bTriangles                        texture  struct         r/o            t17      1 $
// bVirtualParticleSetSizes          texture  struct         r/o            t18      1 $
// bVirtualParticleIndices           texture  struct         r/o            t19      1 $
// bVirtualParticleWeights           texture  struct         r/o            t20      1 $
// bParticles                            UAV    byte         r/w             u0      1 $
// bSelfCollisionParticles               UAV  struct         r/w             u1      1 $
// bSelfCollisionData                    UAV  struct         r/w             u2      1 $
// bFrameData                            UAV  struct         r/w             u3      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 1
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint2 xe_apply_gamma_size;         // Offset:    0 Size:     8$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_apply_gamma_ramp               texture   uint4         buf      T0             t0      1 $
// xe_apply_gamma_source             texture  float4          2d      T1             t1      1 $
// xe_apply_gamma_dest                   UAV  unorm4          2d      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 2
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint2 xe_apply_gamma_size;         // Offset:    0 Size:     8$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_apply_gamma_ramp               texture   uint4         buf      T0             t0      1 $
// xe_apply_gamma_source             texture  float4          2d      T1             t1      1 $
// xe_apply_gamma_dest                   UAV  float4          2d      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 3
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint2 xe_apply_gamma_size;         // Offset:    0 Size:     8$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_apply_gamma_ramp               texture  float4         buf      T0             t0      1 $
// xe_apply_gamma_source             texture  float4          2d      T1             t1      1 $
// xe_apply_gamma_dest                   UAV  unorm4          2d      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 4
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint2 xe_apply_gamma_size;         // Offset:    0 Size:     8$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_apply_gamma_ramp               texture  float4         buf      T0             t0      1 $
// xe_apply_gamma_source             texture  float4          2d      T1             t1      1 $
// xe_apply_gamma_dest                   UAV  float4          2d      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 5
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer XeApplyGammaRampConstants$
// {$
//$
//   uint2 xe_fxaa_size;                // Offset:    0 Size:     8$
//   float2 xe_fxaa_size_inv;           // Offset:    8 Size:     8$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_sampler_linear_clamp           sampler      NA          NA      S0             s0      1 $
// xe_fxaa_source                    texture  float4          2d      T0             t0      1 $
// xe_fxaa_dest                          UAV  unorm4          2d      U0             u0      1 $
// XeApplyGammaRampConstants         cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 6
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint xe_host_depth_store_rectangle;// Offset:    0 Size:     4$
//   uint xe_host_depth_store_render_target;// Offset:    4 Size:     4$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_host_depth_store_source        texture  float4          2d      T0             t0      1 $
// xe_host_depth_store_dest              UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 7
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint xe_host_depth_store_rectangle;// Offset:    0 Size:     4$
//   uint xe_host_depth_store_render_target;// Offset:    4 Size:     4$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_host_depth_store_source        texture  float4        2dMS      T0             t0      1 $
// xe_host_depth_store_dest              UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 8
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint2 xe_resolve_clear_value;      // Offset:    0 Size:     8$
//   uint xe_resolve_edram_info;        // Offset:    8 Size:     4$
//   uint xe_resolve_coordinate_info;   // Offset:   12 Size:     4$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_resolve_edram                      UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 9
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint xe_resolve_edram_info;        // Offset:    0 Size:     4$
//   uint xe_resolve_coordinate_info;   // Offset:    4 Size:     4$
//   uint xe_resolve_dest_info;         // Offset:    8 Size:     4$
//   uint xe_resolve_dest_coordinate_info;// Offset:   12 Size:     4$
//   uint xe_resolve_dest_base;         // Offset:   16 Size:     4$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_resolve_edram                  texture    byte         r/o      T0             t0      1 $
// xe_resolve_dest                       UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 10
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint xe_resolve_edram_info;        // Offset:    0 Size:     4$
//   uint xe_resolve_coordinate_info;   // Offset:    4 Size:     4$
//   uint xe_resolve_dest_info;         // Offset:    8 Size:     4$
//   uint xe_resolve_dest_coordinate_info;// Offset:   12 Size:     4$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_resolve_edram                  texture    byte         r/o      T0             t0      1 $
// xe_resolve_dest                       UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 11
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint xe_texture_load_is_tiled_3d_endian_scale;// Offset:    0 Size:     4$
//   uint xe_texture_load_guest_offset; // Offset:    4 Size:     4$
//   uint xe_texture_load_guest_pitch_aligned;// Offset:    8 Size:     4$
//   uint xe_texture_load_guest_z_stride_block_rows_aligned;// Offset:   12 Size:     4$
//   uint3 xe_texture_load_size_blocks; // Offset:   16 Size:    12$
//   uint xe_texture_load_host_offset;  // Offset:   28 Size:     4$
//   uint xe_texture_load_host_pitch;   // Offset:   32 Size:     4$
//   uint xe_texture_load_height_texels;// Offset:   36 Size:     4 [unused]$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_texture_load_source            texture    byte         r/o      T0             t0      1 $
// xe_texture_load_dest                  UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
@ 12
//$
// Generated by Microsoft (R) HLSL Shader Compiler 10.1$
//$
//$
// Buffer Definitions: $
//$
// cbuffer push_consts_xe$
// {$
//$
//   uint xe_texture_load_is_tiled_3d_endian_scale;// Offset:    0 Size:     4$
//   uint xe_texture_load_guest_offset; // Offset:    4 Size:     4$
//   uint xe_texture_load_guest_pitch_aligned;// Offset:    8 Size:     4$
//   uint xe_texture_load_guest_z_stride_block_rows_aligned;// Offset:   12 Size:     4$
//   uint3 xe_texture_load_size_blocks; // Offset:   16 Size:    12$
//   uint xe_texture_load_host_offset;  // Offset:   28 Size:     4$
//   uint xe_texture_load_host_pitch;   // Offset:   32 Size:     4$
//   uint xe_texture_load_height_texels;// Offset:   36 Size:     4$
//$
// }$
//$
//$
// Resource Bindings:$
//$
// Name                                 Type  Format         Dim      ID      HLSL Bind  Count$
// ------------------------------ ---------- ------- ----------- ------- -------------- ------$
// xe_texture_load_source            texture    byte         r/o      T0             t0      1 $
// xe_texture_load_dest                  UAV    byte         r/w      U0             u0      1 $
// push_consts_xe                    cbuffer      NA          NA     CB0            cb0      1 $
//$
//$
//$
// Input signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Input$
//$
// Output signature:$
//$
// Name                 Index   Mask Register SysValue  Format   Used$
// -------------------- ----- ------ -------- -------- ------- ------$
// no Output$
"##;
