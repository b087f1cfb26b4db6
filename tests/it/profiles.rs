//! Profiles (issue #44): a cs_4_0 or cs_4_1 shader that uses what compute
//! on D3D10.x hardware does not have is refused at load, as D3D refuses it
//! when the shader is created, with a `LoadError::Profile` that names the
//! instruction, its dword, the profile and the rule; the same shader as
//! cs_5_0 loads. The rules: `sim_core::isa::opcodes::min_compute_model` (which
//! instructions), and `Lowering::check_profile` and the thread-group and
//! TGSM declarations (one UAV, u0, raw or structured, no counter, no
//! doubles, groups of at most 768 threads with Z = 1, 16 KiB of TGSM).

use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::{LoadError, Program};
use std::path::{Path, PathBuf};

/// A listing: the version line, then `body` (declarations and code), then `ret`.
fn listing(profile: &str, body: &str) -> String {
    format!("{profile}\n{body}\nret\n")
}

/// The dword offset of the instruction `nth` (from 0) whose mnemonic (as
/// the disassembler prints it) starts with `mnemonic`.
fn dword_of(text: &str, mnemonic: &str, nth: usize) -> u32 {
    let program = assemble(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    program
        .instructions
        .iter()
        .filter(|i| sm5sim::sim_core::front::disasm::mnemonic(i).starts_with(mnemonic))
        .nth(nth)
        .unwrap_or_else(|| panic!("no {mnemonic} #{nth} in\n{text}"))
        .offset
}

/// `body` is refused in `profile` at its first `mnemonic`, with a rule
/// that contains `rule`; with a cs_5_0 header it loads.
fn refused(profile: &str, body: &str, mnemonic: &str, rule: &str) {
    refused_at(profile, body, mnemonic, 0, rule);
}

/// As [`refused`], at the `nth` `mnemonic` (from 0).
fn refused_at(profile: &str, body: &str, mnemonic: &str, nth: usize, rule: &str) {
    let text = listing(profile, body);
    let at = dword_of(&text, mnemonic, nth);
    match Program::from_listing(&text) {
        Err(e) if matches!(e, LoadError::Profile { .. }) => {
            let msg = e.to_string();
            let LoadError::Profile {
                mnemonic: m,
                token,
                profile: p,
                rule: r,
                ..
            } = e
            else {
                unreachable!()
            };
            assert!(m.starts_with(mnemonic), "{msg}");
            assert_eq!(token, at, "{msg}");
            assert_eq!(p, profile, "{msg}");
            assert!(r.contains(rule), "{msg}");
            assert!(
                msg.starts_with(&format!(
                    "{m} at dword {at}: {r}; this shader is {profile} ("
                )),
                "{msg}"
            );
        }
        other => panic!("{profile} {mnemonic}: expected a Profile error, got {other:?}\n{text}"),
    }
    let sm5 = listing("cs_5_0", body);
    if let Err(e) = Program::from_listing(&sm5) {
        panic!("the cs_5_0 version does not load: {e}\n{sm5}");
    }
}

fn loads(profile: &str, body: &str) {
    let text = listing(profile, body);
    if let Err(e) = Program::from_listing(&text) {
        panic!("{profile} does not load: {e}\n{text}");
    }
}

const GROUP: &str = "dcl_thread_group 1, 1, 1";

/// The SM5 ALU additions (FS §18.7; TPF `D3D11_SB` opcodes): cs_5_0 only.
#[test]
fn sm5_alu_instructions_need_cs_5_0() {
    let cases = [
        ("countbits", "countbits r0.x, r1.x"),
        ("firstbit_hi", "firstbit_hi r0.x, r1.x"),
        ("firstbit_lo", "firstbit_lo r0.x, r1.x"),
        ("firstbit_shi", "firstbit_shi r0.x, r1.x"),
        ("bfi", "bfi r0.x, l(4), l(8), r1.x, r1.y"),
        ("ubfe", "ubfe r0.x, l(4), l(8), r1.x"),
        ("ibfe", "ibfe r0.x, l(4), l(8), r1.x"),
        ("bfrev", "bfrev r0.x, r1.x"),
        ("rcp", "rcp r0.x, r1.x"),
        ("f32tof16", "f32tof16 r0.x, r1.x"),
        ("f16tof32", "f16tof32 r0.x, r1.x"),
        ("uaddc", "uaddc r0.x, r0.y, r1.x, r1.y"),
        ("usubb", "usubb r0.x, r0.y, r1.x, r1.y"),
        ("swapc", "swapc r0.x, r1.x, r1.y, r1.z, r1.w"),
        ("msad", "msad r0.x, r1.x, r1.y, r1.z"),
    ];
    for profile in ["cs_4_0", "cs_4_1"] {
        for (mnemonic, code) in cases {
            let body = format!("dcl_temps 2\n{GROUP}\nmov r1.xyzw, l(1, 2, 3, 4)\n{code}");
            refused(profile, &body, mnemonic, "needs cs_5_0");
        }
    }
}

#[test]
fn doubles_need_cs_5_0() {
    let body = format!(
        "dcl_globalFlags refactoringAllowed\ndcl_temps 2\n{GROUP}\nmov r1.xyzw, l(0, 0, 0, 0)\ndadd r0.xy, r1.xyxy, r1.zwzw"
    );
    refused("cs_4_0", &body, "dadd", "no double precision");
    let body = format!(
        "dcl_globalFlags refactoringAllowed\ndcl_temps 2\n{GROUP}\nmov r1.x, l(1.5)\nftod r0.xy, r1.x"
    );
    refused("cs_4_1", &body, "ftod", "no double precision");
    // the flag alone
    let body = format!(
        "dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\ndcl_temps 1\n{GROUP}"
    );
    refused(
        "cs_4_0",
        &body,
        "dcl_globalFlags",
        "double precision needs cs_5_0",
    );
}

#[test]
fn atomics_and_counters_need_cs_5_0() {
    let raw = format!("dcl_uav_raw u0\ndcl_temps 1\n{GROUP}");
    refused(
        "cs_4_0",
        &format!("{raw}\natomic_iadd u0, l(0), l(1)"),
        "atomic_iadd",
        "no atomic operations",
    );
    refused(
        "cs_4_1",
        &format!("{raw}\nimm_atomic_umax r0.x, u0, l(0), l(1)"),
        "imm_atomic_umax",
        "no atomic operations",
    );
    refused(
        "cs_4_0",
        &format!("{raw}\natomic_cmp_store u0, l(0), l(0), l(1)"),
        "atomic_cmp_store",
        "no atomic operations",
    );
    let structured = format!("dcl_uav_structured u0, 4\ndcl_temps 1\n{GROUP}");
    refused(
        "cs_4_0",
        &format!("{structured}\nimm_atomic_alloc r0.x, u0"),
        "imm_atomic_alloc",
        "no append/consume counters",
    );
    refused(
        "cs_4_1",
        &format!("{structured}\nimm_atomic_consume r0.x, u0"),
        "imm_atomic_consume",
        "no append/consume counters",
    );
    // a counter on the declaration alone
    refused(
        "cs_4_0",
        &format!("dcl_uav_structured_opc u0, 4\ndcl_temps 1\n{GROUP}"),
        "dcl_uav_structured",
        "append/consume counter",
    );
}

/// cs_4_x UAVs: one (u0), a raw or structured buffer (FS §18.7.2.2;
/// `D3D11_CS_4_X_UAV_REGISTER_COUNT`; MSDN "Compute Shaders on Downlevel
/// Hardware": no typed UAV, texture UAVs included).
#[test]
fn cs_4_x_has_one_raw_or_structured_uav() {
    refused(
        "cs_4_0",
        &format!("dcl_uav_raw u1\n{GROUP}"),
        "dcl_uav_raw",
        "u1: cs_4_x has one UAV register, u0",
    );
    refused(
        "cs_4_1",
        &format!("dcl_uav_raw u0\ndcl_uav_structured u3, 16\n{GROUP}"),
        "dcl_uav_structured",
        "u3: cs_4_x has one UAV register, u0",
    );
    refused(
        "cs_4_0",
        &format!(
            "dcl_uav_typed_buffer (uint,uint,uint,uint) u0\n{GROUP}\nstore_uav_typed u0.xyzw, l(0, 0, 0, 0), l(1, 2, 3, 4)"
        ),
        "dcl_uav_typed",
        "no typed buffer or texture UAV",
    );
    refused(
        "cs_4_1",
        &format!("dcl_uav_typed_texture2d (float,float,float,float) u0\n{GROUP}"),
        "dcl_uav_typed",
        "no typed buffer or texture UAV",
    );
    // u0 raw, u0 structured, and SRVs beside it load
    loads(
        "cs_4_0",
        &format!(
            "dcl_resource_raw t0\ndcl_resource_structured t1, 16\ndcl_uav_raw u0\ndcl_temps 1\n{GROUP}\nld_raw r0.x, l(0), t0.xxxx\nstore_raw u0.x, l(0), r0.x"
        ),
    );
    loads(
        "cs_4_1",
        &format!(
            "dcl_uav_structured u0, 8\ndcl_temps 1\n{GROUP}\nld_structured r0.x, l(0), l(4), u0.xxxx\nstore_structured u0.x, l(1), l(0), r0.x"
        ),
    );
}

#[test]
fn sm5_memory_and_texture_instructions_need_cs_5_0() {
    let tex = format!(
        "dcl_sampler s0, mode_default\ndcl_sampler s1, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_temps 1\n{GROUP}"
    );
    refused(
        "cs_4_1",
        &format!("{tex}\ngather4_po r0.xyzw, l(0.5, 0.5, 0, 0), l(0, 0, 0, 0), t0.xyzw, s0.x"),
        "gather4_po",
        "needs cs_5_0",
    );
    refused(
        "cs_4_1",
        &format!("{tex}\ngather4_c r0.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, s1.x, l(0.5)"),
        "gather4_c",
        "needs cs_5_0",
    );
    refused(
        "cs_4_0",
        &format!("dcl_resource_raw t0\ndcl_temps 1\n{GROUP}\nbufinfo r0.x, t0.xxxx"),
        "bufinfo",
        "needs cs_5_0",
    );
    refused(
        "cs_4_0",
        &format!("dcl_tgsm_raw g0, 16\n{GROUP}"),
        "dcl_tgsm_raw",
        "dcl_tgsm_structured only",
    );
}

/// The SM4.1 additions (`D3D10_1_SB` opcodes): cs_4_1 has them, cs_4_0 not.
#[test]
fn sm4_1_instructions_need_cs_4_1() {
    let tex = format!(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_resource_texture2dms(4) (float,float,float,float) t1\ndcl_temps 1\n{GROUP}"
    );
    for code in [
        "gather4 r0.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, s0.x",
        "sampleinfo r0.x, t1.x",
        "samplepos r0.xy, t1.xyxx, l(0)",
    ] {
        let body = format!("{tex}\n{code}");
        let mnemonic = code.split(' ').next().unwrap();
        refused("cs_4_0", &body, mnemonic, "needs cs_4_1");
        loads("cs_4_1", &body);
    }
}

/// What cs_4_0 has: the SM4 instructions, raw and structured buffers,
/// structured TGSM, and every `sync` form (nothing written restricts them).
#[test]
fn the_cs_4_0_instruction_set_loads() {
    loads(
        "cs_4_0",
        "dcl_resource_texture2d (float,float,float,float) t0\ndcl_resource_texture2dms(4) (float,float,float,float) t1\n\
             dcl_sampler s0, mode_default\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_tgsm_structured g0, 4, 64\ndcl_temps 2\ndcl_thread_group 64, 1, 1\n\
             sample_l r0.xyzw, l(0.5, 0.5, 0, 0), t0.xyzw, s0, l(0)\n\
             ldms r1.xyzw, l(0, 0, 0, 0), t1.xyzw, l(1)\n\
             resinfo r1.xyzw, l(0), t0.xyzw\n\
             imul null, r0.x, r0.x, l(3)\nudiv r0.x, r0.y, r0.x, l(2)\nishl r0.x, r0.x, l(2)\n\
             store_structured g0.x, vThreadIDInGroupFlattened, l(0), r0.x\n\
             sync_g_t\nsync_uglobal_t\nsync_uglobal_g_t\n\
             ld_structured r0.x, l(0), l(0), g0.xxxx\nstore_raw u0.x, l(0), r0.x",
    );
}

/// cs_4_x thread groups: x, y ≤ 768, z = 1, at most 768 threads (MSDN
/// "numthreads": cs_4_x maximum Z 1; `D3D11_CS_4_X_THREAD_GROUP_MAX_*`).
#[test]
fn cs_4_x_thread_groups_are_at_most_768_threads_with_z_1() {
    for group in ["8, 8, 2", "1024, 1, 1", "32, 32, 1", "1, 769, 1"] {
        refused(
            "cs_4_0",
            &format!("dcl_thread_group {group}"),
            "dcl_thread_group",
            "outside the cs_4_x limits (x, y ≤ 768, z = 1, x·y·z ≤ 768)",
        );
    }
    for group in ["768, 1, 1", "1, 768, 1", "16, 48, 1", "1, 1, 1"] {
        loads("cs_4_1", &format!("dcl_thread_group {group}"));
    }
}

/// cs_4_x TGSM: 16 KiB per group (FS §18.7.2.7).
#[test]
fn cs_4_x_tgsm_is_16_kib() {
    refused(
        "cs_4_0",
        &format!("dcl_tgsm_structured g0, 4, 4097\n{GROUP}"),
        "dcl_tgsm_structured",
        "TGSM totals 16388 bytes, over the 16384-byte limit per group of cs_4_x",
    );
    refused_at(
        "cs_4_1",
        &format!("dcl_tgsm_structured g0, 16, 512\ndcl_tgsm_structured g1, 16, 513\n{GROUP}"),
        "dcl_tgsm_structured",
        1,
        "TGSM totals 16400 bytes",
    );
    loads(
        "cs_4_0",
        &format!("dcl_tgsm_structured g0, 4, 4096\n{GROUP}"),
    );
}

#[test]
fn class_linkage_needs_cs_5_0() {
    let text = listing("cs_4_0", &format!("dcl_function_body fb0\n{GROUP}"));
    match Program::from_listing(&text) {
        Err(e @ LoadError::Profile { .. }) => {
            assert!(e.to_string().contains("dcl_function_body"), "{e}");
            assert!(e.to_string().contains("needs cs_5_0"), "{e}");
        }
        other => panic!("expected a Profile error, got {other:?}"),
    }
}

fn shader_files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            shader_files(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// Every fxc listing of the repository: as it is, it loads; each cs_4_x one
/// loads; and turned into cs_4_0, it loads or is refused for its profile
/// only (never for anything else). The workloads that fit compute on
/// D3D10.x hardware load as cs_4_0.
#[test]
fn the_repository_shaders_load_and_their_cs_4_0_versions_fail_only_for_the_profile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["examples", "tests/corpus", "tests/shaders"] {
        shader_files(&root.join(dir), "asm", &mut files);
    }
    files.sort();
    let (mut as_cs40, mut refused_cs40, mut cs4x) = (Vec::new(), 0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Some(version) = text
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with("cs_"))
            .map(str::to_owned)
        else {
            continue;
        };
        let Ok(program) = Program::from_listing(&text) else {
            // a listing the simulator does not load for other reasons is
            // another suite's business; a cs_4_x one must load
            assert!(!version.starts_with("cs_4_"), "{}", f.display());
            continue;
        };
        drop(program);
        if version.starts_with("cs_4_") {
            cs4x += 1;
            continue;
        }
        if version != "cs_5_0" {
            continue;
        }
        let down = text.replacen("\ncs_5_0", "\ncs_4_0", 1);
        match Program::from_listing(&down) {
            Ok(_) => as_cs40.push(f.file_stem().unwrap().to_string_lossy().into_owned()),
            Err(LoadError::Profile { .. }) => refused_cs40 += 1,
            Err(e) => panic!("{} as cs_4_0: not a profile error: {e}", f.display()),
        }
    }
    eprintln!(
        "{} listings; {cs4x} cs_4_x; as cs_4_0: {} load ({as_cs40:?}), {refused_cs40} refused",
        files.len(),
        as_cs40.len()
    );
    assert!(
        refused_cs40 > 0,
        "some workloads use SM5 (atomics, typed UAVs)"
    );
    for name in ["mandelbrot", "matmul", "saxpy_structured", "scan"] {
        assert!(
            as_cs40.iter().any(|n| n == name),
            "{name} fits cs_4_0: {as_cs40:?}"
        );
    }
}
