//! Integration tests for the DXBC container (dxbc-format.md §1, §1.1, §1.2)
//! and RDEF reflection (§1.3), against real fxc output.
//!
//! - `../examples/<name>/<name>.dxbc` / `.asm`: the eight workloads and their fxc
//!   listings; the listings' header comments are the oracle for RDEF.
//! - `../tests/corpus/**/*.dxbc`: the third-party corpus (the test that
//!   walks it fails with a clear message if the folder is missing).

use std::path::{Path, PathBuf};

use sim_core::front::container::{
    checksum_kind, dxbc_checksum, dxbc_checksum_debug, stored_checksum, update_checksum,
    update_checksum_as, ChecksumKind, ChecksumPolicy, Container, ContainerError,
};
use sim_core::front::rdef::{parse_rdef, InputType, RdefError, Reflection};

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

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn workload(name: &str) -> Vec<u8> {
    read(&data_dir().join(name).join(format!("{name}.dxbc")))
}

fn listing(name: &str) -> String {
    let p = data_dir().join(name).join(format!("{name}.asm"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

fn reflection(bytes: &[u8]) -> Reflection {
    let c = Container::parse(bytes, ChecksumPolicy::Verify).expect("container parses");
    let rdef = c.chunk(b"RDEF").expect("RDEF chunk present");
    parse_rdef(rdef.data).expect("RDEF parses")
}

/// All `.dxbc` files under `dir`, sorted.
fn dxbc_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            dxbc_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "dxbc") {
            out.push(path);
        }
    }
    out.sort();
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    assert!(
        dir.is_dir(),
        "corpus folder {} is missing: it is part of the repository \
         (this test must not pass without it)",
        dir.display()
    );
    let mut files = Vec::new();
    dxbc_files(&dir, &mut files);
    assert!(!files.is_empty(), "no .dxbc files under {}", dir.display());
    files
}

// ---------------------------------------------------------------------------
// Oracle: the header comments of an fxc listing.

#[derive(Debug)]
struct ListedVar {
    ty: String,
    name: String,
    offset: u32,
    size: u32,
}

#[derive(Debug)]
struct ListedBuffer {
    /// true for "cbuffer NAME", false for "Resource bind info for NAME".
    is_cbuffer: bool,
    name: String,
    vars: Vec<ListedVar>,
}

#[derive(Debug)]
struct ListedBinding {
    name: String,
    kind: String,
    format: String,
    bind: String,
    count: u32,
}

fn parse_num(s: &str) -> u32 {
    s.parse()
        .unwrap_or_else(|e| panic!("listing number {s:?}: {e}"))
}

/// Parses "Buffer Definitions" and "Resource Bindings" from a listing header.
fn listed_header(asm: &str) -> (Vec<ListedBuffer>, Vec<ListedBinding>) {
    let mut buffers: Vec<ListedBuffer> = Vec::new();
    let mut bindings = Vec::new();
    let mut in_bindings = false;
    for line in asm.lines() {
        let Some(body) = line.strip_prefix("//") else {
            break; // end of the header comments
        };
        let body = body.trim();
        if let Some(name) = body.strip_prefix("cbuffer ") {
            buffers.push(ListedBuffer {
                is_cbuffer: true,
                name: name.to_string(),
                vars: Vec::new(),
            });
        } else if let Some(name) = body.strip_prefix("Resource bind info for ") {
            buffers.push(ListedBuffer {
                is_cbuffer: false,
                name: name.to_string(),
                vars: Vec::new(),
            });
        } else if body.starts_with("Resource Bindings:") {
            in_bindings = true;
        } else if body.starts_with("Input signature:") {
            in_bindings = false;
        } else if let Some((decl, comment)) = body.split_once("// Offset:") {
            // "uint width;                        // Offset:    0 Size:     4"
            let decl = decl.trim().trim_end_matches(';');
            let (ty, name) = decl.rsplit_once(' ').expect("type and name");
            let (off, size) = comment.split_once("Size:").expect("Size:");
            let vars = &mut buffers.last_mut().expect("variable inside a buffer").vars;
            vars.push(ListedVar {
                ty: ty.trim().to_string(),
                name: name.to_string(),
                offset: parse_num(off.trim()),
                size: parse_num(size.trim()),
            });
        } else if in_bindings
            && !body.is_empty()
            && !body.starts_with("Name")
            && !body.starts_with('-')
        {
            let cols: Vec<&str> = body.split_whitespace().collect();
            assert_eq!(cols.len(), 6, "binding row {body:?}");
            bindings.push(ListedBinding {
                name: cols[0].to_string(),
                kind: cols[1].to_string(),
                format: cols[2].to_string(),
                bind: cols[4].to_string(),
                count: parse_num(cols[5]),
            });
        }
    }
    (buffers, bindings)
}

/// Structured strides declared in the listing body: (prefix, slot, stride).
fn listed_strides(asm: &str) -> Vec<(&'static str, u32, u32)> {
    let mut out = Vec::new();
    for line in asm.lines() {
        let (prefix, rest) = if let Some(r) = line.strip_prefix("dcl_resource_structured t") {
            ("t", r)
        } else if let Some(r) = line.strip_prefix("dcl_uav_structured u") {
            ("u", r)
        } else if let Some(r) = line.strip_prefix("dcl_uav_structured_glc u") {
            ("u", r)
        } else {
            continue;
        };
        let (slot, stride) = rest.split_once(", ").expect("slot, stride");
        out.push((prefix, parse_num(slot), parse_num(stride.trim())));
    }
    out
}

/// Checks a parsed RDEF against the listing's header comments and structured
/// declarations; returns how many facts were compared.
fn check_against_listing(name: &str, r: &Reflection, asm: &str) -> usize {
    let mut checked = 0;
    let (buffers, bindings) = listed_header(asm);
    assert_eq!(r.bindings.len(), bindings.len(), "{name}: binding count");
    for (got, want) in r.bindings.iter().zip(&bindings) {
        assert_eq!(got.name, want.name, "{name}: binding name");
        let prefix = got.input_type.register_prefix();
        assert_eq!(
            format!("{prefix}{}", got.bind_point),
            want.bind,
            "{name}: {} bind",
            want.name
        );
        assert_eq!(got.bind_count, want.count, "{name}: {} count", want.name);
        let want_prefix = match want.kind.as_str() {
            "texture" => "t",
            "UAV" => "u",
            "cbuffer" => "cb",
            "sampler" => "s",
            other => panic!("{name}: unknown listed kind {other}"),
        };
        assert_eq!(prefix, want_prefix, "{name}: {} kind", want.name);
        assert_eq!(
            got.input_type.is_structured(),
            want.format == "struct",
            "{name}: {} format",
            want.name
        );
        if want.format == "byte" {
            assert!(
                matches!(
                    got.input_type,
                    InputType::ByteAddress | InputType::UavRwByteAddress
                ),
                "{name}: {} should be raw, got {:?}",
                want.name,
                got.input_type
            );
        }
        assert_eq!(
            (got.space, got.id),
            (0, got.bind_point),
            "{name}: SM5.0 space/id"
        );
        checked += 5;
    }
    assert_eq!(r.cbuffers.len(), buffers.len(), "{name}: cbuffer count");
    for (got, want) in r.cbuffers.iter().zip(&buffers) {
        assert_eq!(got.name, want.name, "{name}: cbuffer name");
        assert_eq!(
            got.kind,
            if want.is_cbuffer { 0 } else { 3 },
            "{name}: {} kind",
            want.name
        );
        assert_eq!(
            got.variables.len(),
            want.vars.len(),
            "{name}: {} variable count",
            want.name
        );
        for (gv, wv) in got.variables.iter().zip(&want.vars) {
            assert_eq!(gv.name, wv.name, "{name}: {} variable", want.name);
            assert_eq!(
                gv.offset, wv.offset,
                "{name}: {}.{} offset",
                want.name, wv.name
            );
            assert_eq!(gv.size, wv.size, "{name}: {}.{} size", want.name, wv.name);
            assert_eq!(
                gv.ty.hlsl_name(),
                wv.ty,
                "{name}: {}.{} type",
                want.name,
                wv.name
            );
            // fxc stores scalar uint under the name "dword".
            let stored = if gv.ty.name == "dword" {
                "uint"
            } else {
                gv.ty.name.as_str()
            };
            assert_eq!(
                stored, wv.ty,
                "{name}: {}.{} stored type name",
                want.name, wv.name
            );
            checked += 4;
        }
        if !want.is_cbuffer {
            // The element size of a structured buffer is its stride.
            let b = r.binding(&want.name).expect("bind info names a binding");
            assert_eq!(
                b.num_samples_or_stride, got.size,
                "{name}: {} stride",
                want.name
            );
            assert_eq!(r.element_layout(&want.name), Some(got));
            checked += 1;
        } else {
            let b = r.binding(&want.name).expect("cbuffer has a binding");
            assert_eq!(r.cbuffer_at(b.bind_point), Some(got), "{name}: cbuffer_at");
            checked += 1;
        }
    }
    for (prefix, slot, stride) in listed_strides(asm) {
        let b = r
            .resource_at(prefix, 0, slot)
            .unwrap_or_else(|| panic!("{name}: no binding for {prefix}{slot}"));
        assert!(
            b.input_type.is_structured(),
            "{name}: {prefix}{slot} structured"
        );
        assert_eq!(
            b.num_samples_or_stride, stride,
            "{name}: {prefix}{slot} stride"
        );
        checked += 1;
    }
    checked
}

// ---------------------------------------------------------------------------
// 1. Workloads.

#[test]
fn workloads_parse_and_match_listing_headers() {
    let mut facts = 0;
    for name in WORKLOADS {
        let bytes = workload(name);
        let c = Container::parse(&bytes, ChecksumPolicy::Verify)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let shex = c.shader_chunk().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&shex.fourcc, b"SHEX", "{name}");
        assert_eq!(
            shex.data.as_ptr(),
            bytes[shex.data_offset..].as_ptr(),
            "{name}: data_offset"
        );
        let r = reflection(&bytes);
        assert_eq!(r.target_version, 0x0500, "{name}: cs_5_0");
        assert_eq!((r.major(), r.minor()), (5, 0));
        assert_eq!(r.program_type, 0x4353, "{name}: compute");
        assert_eq!(
            r.creator, "Microsoft (R) HLSL Shader Compiler 10.1",
            "{name}"
        );
        let asm = listing(name);
        assert!(asm.contains(&r.creator), "{name}: creator in listing");
        facts += check_against_listing(name, &r, &asm);
    }
    assert!(facts > 100, "only {facts} facts compared");
}

#[test]
fn mandelbrot_rdef_spot_check() {
    let r = reflection(&workload("mandelbrot"));
    let params = r.cbuffer_at(0).expect("cb0");
    assert_eq!(params.name, "Params");
    assert_eq!(params.kind, 0);
    assert_eq!(params.size, 16);
    let vars: Vec<(&str, u32, u32)> = params
        .variables
        .iter()
        .map(|v| (v.name.as_str(), v.offset, v.size))
        .collect();
    assert_eq!(
        vars,
        [("width", 0, 4), ("height", 4, 4), ("max_iter", 8, 4)]
    );
    let width = &params.variables[0].ty;
    assert_eq!(
        (width.class, width.base_type, width.rows, width.columns),
        (0, 19, 1, 1)
    );
    assert_eq!(width.name, "dword", "fxc's stored name for uint");
    assert_eq!(width.hlsl_name(), "uint");
    let it = r.binding("iterations").expect("iterations");
    assert_eq!(it.input_type, InputType::UavRwStructured);
    assert_eq!(
        (it.bind_point, it.bind_count, it.num_samples_or_stride),
        (0, 1, 4)
    );
    assert_eq!(r.resource_at("u", 0, 0), Some(it));
    assert_eq!(r.resource_by_id("u", 0), Some(it));
    assert!(
        r.binding("Iterations").is_none(),
        "names are case-sensitive"
    );
    assert!(r.cbuffer_at(1).is_none());
}

#[test]
fn saxpy_rdef_spot_check() {
    let r = reflection(&workload("saxpy_structured"));
    let params = r.cbuffer_at(0).expect("cb0");
    assert_eq!(params.variables[0].name, "a");
    assert_eq!(params.variables[0].offset, 0);
    assert_eq!(params.variables[0].ty.base_type, 3, "float");
    assert_eq!(params.variables[1].name, "element_count");
    assert_eq!(params.variables[1].offset, 4);
    let x = r.binding("x").expect("x");
    assert_eq!(x.input_type, InputType::Structured);
    assert_eq!(x.input_type.register_prefix(), "t");
    assert_eq!(x.num_samples_or_stride, 16);
    let y = r.binding("y").expect("y");
    assert_eq!(y.input_type, InputType::UavRwStructured);
    assert_eq!(y.num_samples_or_stride, 16);
    let elem = &r.element_layout("y").expect("y element").variables[0];
    assert_eq!(elem.name, "$Element");
    assert_eq!(
        (elem.ty.class, elem.ty.columns, elem.ty.name.as_str()),
        (1, 4, "float4")
    );
}

// ---------------------------------------------------------------------------
// 2 and 3. Corpus: every file parses with its checksum verified, RDEF parses,
// and dxbc_checksum reproduces the stored words.

#[test]
fn corpus_parses_with_checksum_and_rdef() {
    let files = corpus_files();
    let (mut with_rdef, mut sm51, mut sm51_decls) = (0, 0, 0);
    for path in &files {
        let bytes = read(path);
        let c = Container::parse(&bytes, ChecksumPolicy::Verify)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        c.shader_chunk()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Some(chunk) = c.chunk(b"RDEF") {
            let r = parse_rdef(chunk.data).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            with_rdef += 1;
            assert_eq!(r.program_type, 0x4353, "{}", path.display());
            if r.target_version == 0x0501 {
                sm51 += 1;
                sm51_decls += check_sm51_against_listing(path, &r);
            } else if let Ok(asm) = std::fs::read_to_string(path.with_extension("asm")) {
                for (prefix, slot, stride) in listed_strides(&asm) {
                    let b = r.resource_at(prefix, 0, slot).expect("structured binding");
                    assert_eq!(b.num_samples_or_stride, stride, "{}", path.display());
                }
            }
        }
    }
    eprintln!(
        "corpus: {} files, {with_rdef} with RDEF, {sm51} SM5.1 ({sm51_decls} declarations checked)",
        files.len()
    );
    assert!(with_rdef > 0 && sm51 > 0 && sm51_decls > 0);
}

/// SM5.1 declarations print `T1[1:1], space=0` (range id, bounds, space) and
/// `CB0[0:0][N]` (N 16-byte vectors); each must match a 40-byte binding desc.
fn check_sm51_against_listing(path: &Path, r: &Reflection) -> usize {
    let Ok(asm) = std::fs::read_to_string(path.with_extension("asm")) else {
        return 0;
    };
    let mut checked = 0;
    for line in asm
        .lines()
        .filter(|l| l.starts_with("dcl_") && l.contains("space="))
    {
        let space = parse_num(line.rsplit_once("space=").expect("space").1.trim());
        let word = line
            .split([' ', ','])
            .find(|w| w.contains('[') && w.contains(':'))
            .unwrap_or_else(|| panic!("{}: no range in {line:?}", path.display()));
        let (reg, rest) = word.split_once('[').expect("[");
        let prefix_len = reg.find(|ch: char| ch.is_ascii_digit()).expect("id digits");
        let prefix = reg[..prefix_len].to_ascii_lowercase();
        let id = parse_num(&reg[prefix_len..]);
        let (lo, rest) = rest.split_once(':').expect(":");
        let (hi, rest) = rest.split_once(']').expect("]");
        let b = r
            .resource_by_id(&prefix, id)
            .unwrap_or_else(|| panic!("{}: no binding for {line:?}", path.display()));
        assert_eq!(b.bind_point, parse_num(lo), "{}: {line}", path.display());
        assert_eq!(b.space, space, "{}: {line}", path.display());
        if hi != "*" {
            assert_eq!(
                b.bind_count,
                parse_num(hi) - parse_num(lo) + 1,
                "{}: {line}",
                path.display()
            );
        }
        if prefix == "cb" {
            let vectors = parse_num(
                rest.trim_start_matches('[')
                    .split(']')
                    .next()
                    .expect("size"),
            );
            let cb = r.cbuffer_named(&b.name).expect("cbuffer desc");
            assert_eq!(cb.size, vectors * 16, "{}: {line}", path.display());
        }
        if line.starts_with("dcl_resource_raw") || line.starts_with("dcl_uav_raw") {
            assert!(matches!(
                b.input_type,
                InputType::ByteAddress | InputType::UavRwByteAddress
            ));
        }
        checked += 1;
    }
    checked
}

#[test]
fn checksum_reproduces_stored_words() {
    let mut files: Vec<PathBuf> = WORKLOADS
        .iter()
        .map(|n| data_dir().join(n).join(format!("{n}.dxbc")))
        .collect();
    files.extend(corpus_files());
    let (mut short_tail, mut long_tail) = (0, 0);
    for path in &files {
        let bytes = read(path);
        let stored = stored_checksum(&bytes).expect("20 bytes");
        assert_eq!(dxbc_checksum(&bytes), stored, "{}", path.display());
        if (bytes.len() - 20) % 64 >= 56 {
            long_tail += 1;
        } else {
            short_tail += 1;
        }
    }
    eprintln!("checksums: {short_tail} files with R < 56, {long_tail} with R >= 56");
    assert!(
        short_tail > 0 && long_tail > 0,
        "both padding paths of §1.1 exercised"
    );
}

#[test]
fn update_checksum_restores_verification() {
    let mut bytes = workload("scan");
    let c = Container::parse(&bytes, ChecksumPolicy::Verify).expect("parses");
    let shex_at = c.shader_chunk().expect("SHEX").data_offset;
    bytes[shex_at + 20] ^= 1;
    assert!(matches!(
        Container::parse(&bytes, ChecksumPolicy::Verify),
        Err(ContainerError::ChecksumMismatch { .. })
    ));
    assert!(Container::parse(&bytes, ChecksumPolicy::Skip).is_ok());
    update_checksum(&mut bytes).expect("long enough");
    assert!(Container::parse(&bytes, ChecksumPolicy::Verify).is_ok());
    assert_eq!(
        update_checksum(&mut [0u8; 19]),
        Err(ContainerError::TooShort {
            len: 19,
            needed: 20
        })
    );
}

/// fxc stamps its debug checksum (dxbc-format.md §1.1.1) on shaders with
/// printf/errorf: the committed fxc builds verify as `Debug`, the workloads
/// as `Retail`; a flipped byte in a debug-stamped file is still refused,
/// and restamping gives fxc's bytes back.
#[test]
fn printf_shaders_carry_fxcs_debug_checksum() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/front_end");
    let mut debug = 0;
    for name in ["messages_basic", "messages_operands", "messages_escapes"] {
        let path = dir.join(format!("{name}.dxbc"));
        let bytes = read(&path);
        let stored = stored_checksum(&bytes).expect("20 bytes");
        assert_eq!(dxbc_checksum_debug(&bytes), stored, "{}", path.display());
        assert_ne!(dxbc_checksum(&bytes), stored, "{}", path.display());
        assert_eq!(checksum_kind(&bytes), Some(ChecksumKind::Debug));
        assert!(Container::parse(&bytes, ChecksumPolicy::Verify).is_ok());
        // every byte of the covered range counts (24..28, the size, is
        // refused before the checksum is looked at)
        for at in (20..bytes.len())
            .step_by(7)
            .filter(|a| !(24..28).contains(a))
        {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(
                matches!(
                    Container::parse(&bad, ChecksumPolicy::Verify),
                    Err(ContainerError::ChecksumMismatch { .. })
                ),
                "{name}: flip at {at} accepted"
            );
            assert_eq!(checksum_kind(&bad), None);
        }
        let mut again = bytes.clone();
        again[4..20].fill(0);
        update_checksum_as(&mut again, ChecksumKind::Debug).expect("long enough");
        assert_eq!(again, bytes);
        debug += 1;
    }
    assert_eq!(debug, 3);
    for name in WORKLOADS {
        assert_eq!(checksum_kind(&workload(name)), Some(ChecksumKind::Retail));
    }
    assert_eq!(checksum_kind(&[0u8; 19]), None);
}

// ---------------------------------------------------------------------------
// 4. Robustness: truncations and byte flips never panic.

#[test]
fn every_truncation_is_an_error() {
    let bytes = workload("mandelbrot");
    for len in (0..bytes.len()).step_by(4) {
        let cut = &bytes[..len];
        for policy in [ChecksumPolicy::Verify, ChecksumPolicy::Skip] {
            let r = Container::parse(cut, policy);
            assert!(r.is_err(), "length {len} {policy:?} parsed");
        }
    }
    // Also cut every chunk's data short with the header size patched to match,
    // so that the chunk bounds checks (not the size check) must catch it.
    for len in (32..bytes.len()).step_by(4) {
        let mut cut = bytes[..len].to_vec();
        cut[24..28].copy_from_slice(&(len as u32).to_le_bytes());
        update_checksum(&mut cut).expect("long enough");
        let r = Container::parse(&cut, ChecksumPolicy::Verify);
        assert!(
            matches!(
                r,
                Err(ContainerError::ChunkOutOfBounds { .. }
                    | ContainerError::ChunkHeaderOutOfBounds { .. }
                    | ContainerError::ChunkTableOutOfBounds { .. })
            ),
            "length {len}: {r:?}"
        );
    }
}

/// Tiny deterministic PRNG (xorshift64).
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn byte_flips_never_panic_and_fail_verification() {
    let original = workload("histogram");
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let (mut skip_ok, mut rdef_ok) = (0, 0);
    for _ in 0..2000 {
        let mut bytes = original.clone();
        let flips = 1 + rng.below(4);
        let mut positions = Vec::new();
        while positions.len() < flips {
            let p = rng.below(bytes.len());
            if !positions.contains(&p) {
                positions.push(p);
            }
        }
        for &p in &positions {
            bytes[p] ^= 1 + rng.below(255) as u8;
        }
        let verify = Container::parse(&bytes, ChecksumPolicy::Verify);
        let expect_magic = positions.iter().any(|&p| p < 4);
        let expect_size = positions.iter().any(|&p| (24..28).contains(&p));
        match &verify {
            Err(ContainerError::BadMagic { .. }) => assert!(expect_magic, "{positions:?}"),
            Err(ContainerError::SizeMismatch { .. }) => {
                assert!(!expect_magic && expect_size, "{positions:?}")
            }
            Err(ContainerError::ChecksumMismatch { .. }) => {
                assert!(!expect_magic && !expect_size, "{positions:?}")
            }
            other => panic!("flips at {positions:?} under Verify gave {other:?}"),
        }
        if let Ok(c) = Container::parse(&bytes, ChecksumPolicy::Skip) {
            skip_ok += 1;
            let _ = c.shader_chunk();
            if let Some(chunk) = c.chunk(b"RDEF") {
                if parse_rdef(chunk.data).is_ok() {
                    rdef_ok += 1;
                }
            }
        }
    }
    eprintln!("flips: {skip_ok}/2000 parsed under Skip, {rdef_ok} of those with a good RDEF");
    assert!(skip_ok > 0);
}

#[test]
fn rdef_mutations_never_panic() {
    let bytes = workload("histogram");
    let c = Container::parse(&bytes, ChecksumPolicy::Verify).expect("parses");
    let original = c.chunk(b"RDEF").expect("RDEF").data.to_vec();
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut errors = 0;
    for _ in 0..4000 {
        let mut d = original.clone();
        for _ in 0..1 + rng.below(3) {
            // Overwrite an aligned dword with a value likely to matter: small
            // offsets/counts, all-ones, or noise.
            let at = rng.below(d.len() / 4) * 4;
            let v: u32 = match rng.below(4) {
                0 => rng.below(d.len() + 8) as u32,
                1 => rng.below(8) as u32,
                2 => u32::MAX,
                _ => rng.next() as u32,
            };
            d[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
        if let Err(e) = parse_rdef(&d) {
            assert!(!e.to_string().is_empty());
            errors += 1;
        }
        // Truncations of the mutated chunk too.
        let cut = rng.below(d.len());
        let _ = parse_rdef(&d[..cut]);
    }
    eprintln!("rdef mutations: {errors}/4000 rejected");
    for len in 0..original.len() {
        let r = parse_rdef(&original[..len]);
        assert!(r.is_err(), "RDEF cut to {len} bytes parsed");
    }
    assert!(matches!(
        parse_rdef(&original[..8]),
        Err(RdefError::OutOfBounds { offset: 8, .. })
    ));
}

// ---------------------------------------------------------------------------
// 5. Messages, and synthetic containers for the shader-chunk rules.

#[test]
fn checksum_mismatch_message_mentions_skip_option() {
    let mut bytes = workload("mandelbrot");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let err = Container::parse(&bytes, ChecksumPolicy::Verify).expect_err("corrupt");
    let msg = err.to_string();
    eprintln!("{msg}");
    assert!(msg.contains("--no-checksum"), "{msg}");
    assert!(msg.contains("4..20"), "{msg}");
}

/// Builds a container holding `chunks`, with a correct checksum.
fn build(chunks: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"DXBC");
    out.extend_from_slice(&[0; 16]);
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // size, patched below
    out.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    let mut at = 32 + 4 * chunks.len();
    for (_, data) in chunks {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += 8 + data.len().next_multiple_of(4);
    }
    for (fourcc, data) in chunks {
        out.extend_from_slice(*fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    let len = out.len() as u32;
    out[24..28].copy_from_slice(&len.to_le_bytes());
    update_checksum(&mut out).expect("long enough");
    out
}

#[test]
fn shader_chunk_rules() {
    let shdr = build(&[
        (b"ISGN", &[0, 0, 0, 0, 8, 0, 0, 0]),
        (b"SHDR", &[1, 2, 3, 4]),
    ]);
    let c = Container::parse(&shdr, ChecksumPolicy::Verify).expect("parses");
    let s = c.shader_chunk().expect("SHDR");
    assert_eq!(
        (&s.fourcc, s.data, s.data_offset),
        (b"SHDR", &[1u8, 2, 3, 4][..], 64)
    );

    let dxil = build(&[(b"DXIL", &[0; 8])]);
    let c = Container::parse(&dxil, ChecksumPolicy::Verify).expect("parses");
    assert_eq!(c.shader_chunk(), Err(ContainerError::Dxil { offset: 44 }));
    assert!(c.shader_chunk().unwrap_err().to_string().contains("44"));

    let none = build(&[(b"RDEF", &[])]);
    let c = Container::parse(&none, ChecksumPolicy::Verify).expect("parses");
    let err = c.shader_chunk().expect_err("no shader");
    assert_eq!(
        err,
        ContainerError::NoShaderChunk {
            present: "RDEF".into()
        }
    );

    let empty = build(&[]);
    let c = Container::parse(&empty, ChecksumPolicy::Verify).expect("parses");
    assert!(c.chunks.is_empty());
}

#[test]
fn header_errors_name_their_fields() {
    let good = build(&[(b"SHEX", &[0; 8])]);

    let mut bad = good.clone();
    bad[0] = b'X';
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("magic");
    assert!(matches!(err, ContainerError::BadMagic { .. }));
    assert!(err.to_string().contains("offset 0"), "{err}");
    assert!(matches!(
        Container::parse(b"MZ", ChecksumPolicy::Skip),
        Err(ContainerError::TooShort { len: 2, needed: 32 })
    ));
    assert!(matches!(
        Container::parse(b"XXXXXXXX", ChecksumPolicy::Skip),
        Err(ContainerError::BadMagic { .. })
    ));

    let mut bad = good.clone();
    bad[20] = 2;
    update_checksum(&mut bad).expect("long enough");
    let err = Container::parse(&bad, ChecksumPolicy::Verify).expect_err("version");
    assert_eq!(err, ContainerError::BadVersion { found: 2 });
    assert!(err.to_string().contains("offset 20"), "{err}");

    let mut bad = good.clone();
    bad.extend_from_slice(&[0; 4]);
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("size");
    assert!(matches!(err, ContainerError::SizeMismatch { .. }));
    assert!(err.to_string().contains("offset 24"), "{err}");

    let mut bad = good.clone();
    bad[28..32].copy_from_slice(&1000u32.to_le_bytes());
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("table");
    assert!(matches!(err, ContainerError::ChunkTableOutOfBounds { .. }));
    bad[28..32].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("count");
    assert!(matches!(err, ContainerError::TooManyChunks { .. }));

    let mut bad = good.clone();
    bad[32..36].copy_from_slice(&38u32.to_le_bytes());
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("unaligned");
    assert_eq!(
        err,
        ContainerError::UnalignedChunk {
            index: 0,
            offset: 38,
            entry: 32
        }
    );

    let mut bad = good.clone();
    bad[32..36].copy_from_slice(&4u32.to_le_bytes());
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("overlap");
    assert!(matches!(err, ContainerError::ChunkOverlapsHeader { .. }));

    let mut bad = good.clone();
    bad[40..44].copy_from_slice(&9u32.to_le_bytes());
    let err = Container::parse(&bad, ChecksumPolicy::Skip).expect_err("chunk size");
    assert_eq!(
        err,
        ContainerError::ChunkOutOfBounds {
            index: 0,
            offset: 36,
            size: 9,
            file_len: 52
        }
    );
    assert!(err.to_string().contains("offset 36"), "{err}");
}

/// A chunk table of more entries than [`MAX_CHUNKS`] is refused before it is
/// read: 5000 entries that all name one 8-byte chunk (a 20 KB file that
/// would otherwise load as 5000 chunks; 16M entries took 1.6 GB).
#[test]
fn a_container_with_thousands_of_chunks_is_refused_before_reading_them() {
    use sim_core::front::container::{ChecksumPolicy, Container, ContainerError, MAX_CHUNKS};
    let count = 5000u32;
    let table_end = 32 + 4 * count as usize;
    let mut bytes = vec![0u8; table_end + 8];
    bytes[..4].copy_from_slice(b"DXBC");
    bytes[20..24].copy_from_slice(&1u32.to_le_bytes());
    let total = bytes.len() as u32;
    bytes[24..28].copy_from_slice(&total.to_le_bytes());
    bytes[28..32].copy_from_slice(&count.to_le_bytes());
    for k in 0..count as usize {
        bytes[32 + 4 * k..36 + 4 * k].copy_from_slice(&(table_end as u32).to_le_bytes());
    }
    bytes[table_end..table_end + 4].copy_from_slice(b"XXXX");
    match Container::parse(&bytes, ChecksumPolicy::Skip) {
        Err(e @ ContainerError::TooManyChunks { count: 5000, max }) => {
            assert_eq!(max, MAX_CHUNKS);
            assert!(
                e.to_string().contains("chunk count 5000 at byte offset 28"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    // at the limit the same file loads
    let count = MAX_CHUNKS;
    let table_end = 32 + 4 * count as usize;
    let mut bytes = vec![0u8; table_end + 8];
    bytes[..4].copy_from_slice(b"DXBC");
    bytes[20..24].copy_from_slice(&1u32.to_le_bytes());
    let total = bytes.len() as u32;
    bytes[24..28].copy_from_slice(&total.to_le_bytes());
    bytes[28..32].copy_from_slice(&count.to_le_bytes());
    for k in 0..count as usize {
        bytes[32 + 4 * k..36 + 4 * k].copy_from_slice(&(table_end as u32).to_le_bytes());
    }
    bytes[table_end..table_end + 4].copy_from_slice(b"XXXX");
    assert!(Container::parse(&bytes, ChecksumPolicy::Skip).is_ok());
}
