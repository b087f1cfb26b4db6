//! The `sm5sim` binary: example jobs pass, failures exit 1 with the first
//! differing elements, bad input exits 2 with a message that says where.

use super::sm5sim;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Write a job file into a fresh directory; `SHADER` in the text becomes the
/// absolute path of the histogram example's shader.
fn job(name: &str, toml: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let shader = root().join("examples/histogram/histogram.dxbc");
    let path = dir.join("job.toml");
    std::fs::write(
        &path,
        toml.replace("SHADER", &shader.display().to_string().replace('\\', "/")),
    )
    .unwrap();
    path
}

#[test]
fn every_example_job_passes() {
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let dir = entry.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            // jobs that compile HLSL need a compiler: tests/it/hlsl.rs runs them
            if f.extension().is_some_and(|e| e == "toml") && !super::hlsl::is_hlsl_job(&f) {
                let o = sm5sim(&["run", f.to_str().unwrap()]);
                let (out, err) = text(&o);
                assert_eq!(o.status.code(), Some(0), "{}:\n{out}\n{err}", f.display());
                assert!(out.contains(": ok"), "{out}");
                n += 1;
            }
        }
    }
    assert_eq!(
        n, 14,
        "one job per example: 8 workloads, 2 image examples and 4 pipelines"
    );
}

/// A small histogram job (5 keys into 256 bins); `SHADER` is replaced by
/// the shader to run. Also used by `job_rules`.
pub(crate) const SMALL: &str = r#"
shader = "SHADER"
[resources.keys]
init = { u32 = [1, 2, 3, 2, 258] }
[resources.bins]
elements = 256
init = { fill_u32 = 0 }
[resources.Params]
init = { fields = { key_count = 5 } }
[[steps]]
dispatch = [1, 1, 1]
"#;

#[test]
fn a_failed_expectation_exits_1_and_shows_the_first_differences() {
    let p = job(
        "fail",
        &format!("{SMALL}\n[[steps]]\nexpect = {{ resource = \"bins\", fill_u32 = 0 }}\n"),
    );
    let o = sm5sim(&["run", p.to_str().unwrap()]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    // bins 1, 2 (twice + key 258), 3 are nonzero: three elements differ.
    assert!(out.contains("FAILED, 3 element(s) differ"), "{out}");
    assert!(out.contains("[1] expected 0, got 1"), "{out}");
    assert!(out.contains("[2] expected 0, got 3"), "{out}");
    assert!(out.contains("[3] expected 0, got 1"), "{out}");
}

#[test]
fn dump_writes_the_resource_bytes() {
    let p = job("dump", SMALL);
    let out = p.with_file_name("bins.bin");
    let o = sm5sim(&[
        "run",
        p.to_str().unwrap(),
        "--dump",
        &format!("bins={}", out.display()),
    ]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(bytes.len(), 1024);
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!(
        (word(0), word(1), word(2), word(3), word(4)),
        (0, 1, 3, 1, 0)
    );
}

#[test]
fn threads_and_warp_width_flags_give_the_same_answer() {
    let p = job(
        "flags",
        &format!("{SMALL}\n[[steps]]\nexpect = {{ resource = \"bins\", sum_u32 = 5 }}\n"),
    );
    for args in [
        ["--threads", "1"],
        ["--warp-width", "1"],
        ["--warp-width", "32"],
        ["--warp-width", "256"],
        ["--warp-width", "group"],
    ] {
        let mut a = vec!["run", p.to_str().unwrap()];
        a.extend(args);
        let o = sm5sim(&a);
        assert_eq!(o.status.code(), Some(0), "{args:?} {:?}", text(&o));
    }
    for bad in ["0", "wide", "1.5"] {
        let o = sm5sim(&["run", p.to_str().unwrap(), "--warp-width", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {:?}", text(&o));
        assert!(
            text(&o).1.contains("not a warp width"),
            "{bad}: {:?}",
            text(&o)
        );
    }
}

/// Each bad job exits 2 with a message containing the given words.
#[test]
fn bad_input_exits_2_and_says_where() {
    let cases: &[(&str, String, &[&str])] = &[
        ("toml", "shader = \n".into(), &["job.toml", "line 1"]),
        (
            "unknown_key",
            format!("bogus = 1\n{SMALL}"),
            &["unknown field `bogus`"],
        ),
        (
            "step_key",
            format!("{SMALL}\nbogus = 1\n"),
            &["steps[0].bogus", "unknown key 'bogus' beside dispatch"],
        ),
        (
            "missing_shader",
            SMALL.replace("SHADER", "/nonexistent/x.dxbc"),
            &["/nonexistent/x.dxbc"],
        ),
        (
            "list_length",
            SMALL.replace(
                "init = { u32 = [1, 2, 3, 2, 258] }",
                "init = { u32 = [1, 2] }\nelements = 5",
            ),
            &["resources.keys", "2 values given", "5 32-bit words"],
        ),
        (
            "unknown_field",
            SMALL.replace("key_count = 5", "key_cnt = 5"),
            &[
                "resources.Params.init",
                "no variable 'key_cnt'",
                "key_count",
            ],
        ),
        (
            "unbound",
            SMALL.replace(
                "[resources.bins]\nelements = 256\ninit = { fill_u32 = 0 }\n",
                "",
            ),
            &["declares u0", "'bins'", "binds nothing"],
        ),
        (
            "wrong_view",
            SMALL.replace(
                "[resources.bins]\n",
                "[resources.bins]\nview = \"structured\"\nstride = 4\n",
            ),
            &["resources.bins.view", "raw, not structured"],
        ),
        (
            "bad_slot",
            SMALL.replace("[resources.bins]\n", "[resources.bins]\nslot = \"q7\"\n"),
            &["resources.bins.slot", "'q7'"],
        ),
        (
            "too_many_groups",
            SMALL.replace("dispatch = [1, 1, 1]", "dispatch = [65536, 1, 1]"),
            &["steps[0]", "65535"],
        ),
        (
            "unknown_resource",
            format!("{SMALL}\n[[steps]]\nexpect = {{ resource = \"nope\", fill_u32 = 0 }}\n"),
            &["steps[1].expect", "no resource named 'nope'"],
        ),
        (
            "two_forms",
            format!(
                "{SMALL}\n[[steps]]\nexpect = {{ resource = \"bins\", fill_u32 = 0, u32 = [1] }}\n"
            ),
            &["steps[1].expect", "exactly one"],
        ),
        (
            "random_range",
            SMALL.replace(
                "init = { u32 = [1, 2, 3, 2, 258] }",
                "elements = 4\ninit = { random_u32 = { seed = 1, min = 5, max = 4 } }",
            ),
            &["resources.keys.init", "min 5 > max 4"],
        ),
    ];
    for (name, toml, words) in cases {
        let p = job(name, toml);
        let o = sm5sim(&["run", p.to_str().unwrap()]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {out}\n{err}");
        for w in *words {
            assert!(err.contains(w), "{name}: expected '{w}' in: {err}");
        }
    }
    let p = job("dump_bad", SMALL);
    let o = sm5sim(&["run", p.to_str().unwrap(), "--dump", "nothere=x.bin"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("no resource 'nothere'"));
}

#[test]
fn corrupted_shader_exits_2_unless_checksum_is_skipped() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli/corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = std::fs::read(root().join("examples/histogram/histogram.dxbc")).unwrap();
    // Flip a bit in the RDEF creator string: harmless to the program, caught by the checksum.
    let i = bytes.windows(9).position(|w| w == b"Microsoft").unwrap();
    bytes[i] ^= 0x20;
    let f = dir.join("h.dxbc");
    std::fs::write(&f, &bytes).unwrap();
    let o = sm5sim(&["disasm", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--no-checksum"), "{:?}", text(&o));
    let o = sm5sim(&["disasm", f.to_str().unwrap(), "--no-checksum"]);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o).0;
    // The header shows the flipped byte ('M' → 'm'); the program is intact.
    assert!(
        out.contains("// Generated by microsoft (R) HLSL Shader Compiler"),
        "{out}"
    );
    assert!(out.contains("\ncs_5_0\n"), "{out}");
}

#[test]
fn disasm_prints_the_listing() {
    let f = root().join("examples/scan/scan.dxbc");
    let o = sm5sim(&["disasm", f.to_str().unwrap()]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(out.contains("dcl_tgsm_structured g0, 2048, 2\n"), "{out}");
    assert!(out.contains("  breakc_nz r0.w\n"), "{out}");
}

#[test]
fn info_describes_bindings_and_what_cannot_run() {
    let f = root().join("examples/saxpy_structured/saxpy_structured.dxbc");
    let o = sm5sim(&["info", f.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.contains("profile:       cs_5_0"), "{out}");
    assert!(
        out.contains("thread group:  128 x 1 x 1 (128 threads)"),
        "{out}"
    );
    // element and cbuffer variable types, from RDEF
    assert!(
        out.contains("StructuredBuffer, stride 16, element float4"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("element_count") && l.contains(" uint ")),
        "{out}"
    );
    assert!(
        out.contains("executor:      runs every instruction"),
        "{out}"
    );

    // A shader with something the executor does not run (a register space
    // other than 0): info names it instead of failing.
    let dir = root().join("target/tmp/cli-info");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("space1.asm");
    std::fs::write(
        &f,
        "cs_5_1
dcl_globalFlags refactoringAllowed
dcl_resource_buffer (uint,uint,uint,uint) T0[0:0], space=1
dcl_uav_typed_texture2d (unorm,unorm,unorm,unorm) U0[0:0], space=0
dcl_temps 1
dcl_thread_group 1, 1, 1
ld_indexable(buffer)(uint,uint,uint,uint) r0.xyzw, l(0, 0, 0, 0), T0[0].xyzw
store_uav_typed U0[0].xyzw, l(0, 0, 0, 0), r0.xyzw
ret
",
    )
    .unwrap();
    let o = sm5sim(&["info", f.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(out.contains("executor:      cannot run yet"), "{out}");
    assert!(out.contains("space 1"), "{out}");

    // A real shader that samples textures runs.
    let f = root().join("tests/corpus/bgfx/cs_assao_apply.dxbc");
    let o = sm5sim(&["info", f.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        out.contains("executor:      runs every instruction"),
        "{out}"
    );
}

#[test]
fn disasm_reproduces_fxc_listings_byte_for_byte() {
    for name in [
        "cas_float_add",
        "global_histogram",
        "histogram",
        "mandelbrot",
        "matmul",
        "reduce",
        "saxpy_structured",
        "scan",
        "gaussian_blur",
        "downsample_tonemap",
    ] {
        let dir = root().join("examples").join(name);
        let o = sm5sim(&["disasm", dir.join(format!("{name}.dxbc")).to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0));
        let want = std::fs::read_to_string(dir.join(format!("{name}.asm"))).unwrap();
        assert_eq!(
            text(&o).0,
            want,
            "{name}: header, body and footer as fxc /Fc prints them"
        );
    }
}

#[test]
fn asm_writes_a_container_that_round_trips() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli/asm");
    std::fs::create_dir_all(&dir).unwrap();
    let listing = root().join("examples/scan/scan.asm");
    let out = dir.join("scan.dxbc");
    let o = sm5sim(&[
        "asm",
        listing.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    // The written container has a valid checksum and the same program tokens.
    let ours = std::fs::read(&out).unwrap();
    let original = std::fs::read(root().join("examples/scan/scan.dxbc")).unwrap();
    let shex = |b: &[u8]| {
        let c = sm5sim::sim_core::front::container::Container::parse(
            b,
            sm5sim::sim_core::front::container::ChecksumPolicy::Verify,
        )
        .unwrap();
        c.shader_chunk().unwrap().data.to_vec()
    };
    assert_eq!(shex(&ours), shex(&original));

    // A bad listing: exit 2, with line:column and a caret.
    let bad = dir.join("bad.asm");
    std::fs::write(
        &bad,
        "cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r0.q, l(1)\nret\n",
    )
    .unwrap();
    let o = sm5sim(&[
        "asm",
        bad.to_str().unwrap(),
        "-o",
        dir.join("bad.dxbc").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o).1;
    assert!(err.contains("bad.asm:4:"), "{err}");
    assert!(err.contains('^'), "{err}");
}

#[test]
fn a_job_runs_a_listing_directly() {
    let listing = root().join("examples/histogram/histogram.asm");
    let p = job(
        "listing",
        &format!(
            r#"
shader = "{}"
[resources.keys]
slot = "t0"
init = {{ u32 = [1, 2, 3, 2, 258] }}
[resources.bins]
slot = "u0"
elements = 256
init = {{ fill_u32 = 0 }}
[resources.params]
slot = "cb0"
init = {{ u32 = [5, 0, 0, 0] }}
[[steps]]
dispatch = [1, 1, 1]
[[steps]]
expect = {{ resource = "bins", sum_u32 = 5 }}
"#,
            listing.display().to_string().replace('\\', "/")
        ),
    );
    let o = sm5sim(&["run", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
}

#[test]
fn a_runaway_shader_is_stopped_by_the_watchdog() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli/runaway");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("spin.asm"),
        "cs_5_0\ndcl_uav_raw u0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nloop\n  iadd r0.x, r0.x, l(1)\nendloop\nret\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("job.toml"),
        "shader = \"spin.asm\"\n[resources.out]\nslot = \"u0\"\nelements = 1\n[[steps]]\ndispatch = [1, 1, 1]\n",
    )
    .unwrap();
    let start = std::time::Instant::now();
    let o = sm5sim(&[
        "run",
        dir.join("job.toml").to_str().unwrap(),
        "--timeout",
        "0.5",
    ]);
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    assert!(
        err.contains("steps[0]") && err.contains("dispatch stopped: ran longer than 0.500 s"),
        "{err}"
    );
    assert!(err.contains("group (0, 0, 0), lane 0"), "{err}");
}

#[test]
fn dump_writes_numpy_arrays_typed_by_the_view() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli/npy");
    std::fs::create_dir_all(&dir).unwrap();
    let job = root().join("tests/conformance/typed_buffers/typed_buffers.toml");
    let (dst, counters, narrow) = (
        dir.join("dst.npy"),
        dir.join("counters.npy"),
        dir.join("narrow.npy"),
    );
    let o = sm5sim(&[
        "run",
        job.to_str().unwrap(),
        "--dump",
        &format!("dst={}", dst.display()),
        "--dump",
        &format!("counters={}", counters.display()),
        "--dump",
        &format!("narrow={}", narrow.display()),
    ]);
    assert_eq!(o.status.code(), Some(0), "{:?}", text(&o));
    let read = |p: &Path| npyz::NpyFile::new(std::fs::File::open(p).unwrap()).unwrap();
    // R8G8B8A8_UNORM reads back as float32 [4, 4]: element 0 = (0, 128/255, 1, 1).
    let f = read(&dst);
    assert_eq!(f.shape(), &[4, 4]);
    let v: Vec<f32> = f.into_vec().unwrap();
    assert_eq!(&v[..4], &[0.0, 128.0 / 255.0, 1.0, 1.0]);
    // R32_UINT → uint32 [2, 1]; R16G16_SINT → int32 [4, 2] (sign-extended).
    let c = read(&counters);
    assert_eq!(c.shape(), &[2, 1]);
    assert_eq!(c.into_vec::<u32>().unwrap(), vec![10, 30]);
    let n = read(&narrow);
    assert_eq!(n.shape(), &[4, 2]);
    assert_eq!(
        n.into_vec::<i32>().unwrap(),
        vec![-30000, 0, -10000, -20000, 10000, -32768, 30000, -32768]
    );
    // PNG needs a 2D texture: refused with a clear message.
    let o = sm5sim(&[
        "run",
        job.to_str().unwrap(),
        "--dump",
        &format!("dst={}", dir.join("x.png").display()),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("PNG dumps are for 2D textures"),
        "{:?}",
        text(&o)
    );
}

#[test]
fn json_output_is_one_parseable_document() {
    let p = job(
        "json",
        &format!("{SMALL}\n[[steps]]\nexpect = {{ resource = \"bins\", fill_u32 = 0 }}\n"),
    );
    let o = sm5sim(&["run", p.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&text(&o).0).expect("stdout is JSON");
    assert_eq!(v["passed"], false);
    assert_eq!(v["steps"][0]["kind"], "dispatch");
    assert_eq!(v["steps"][0]["threads"], 256);
    assert_eq!(v["steps"][1]["kind"], "expect");
    assert_eq!(v["steps"][1]["mismatches"], 3);
    assert_eq!(v["steps"][1]["first"][0]["index"], 1);
    assert_eq!(v["steps"][1]["first"][0]["got"], "1");
}

#[test]
fn every_subcommand_help_has_examples() {
    let mut paths = 0;
    for sub in [
        "run", "check", "debug", "info", "disasm", "asm", "compile", "smoke",
    ] {
        let o = sm5sim(&[sub, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        let help = text(&o).0;
        assert!(help.contains("Examples:\n  sm5sim "), "{sub}");
        // every repository path an example names is there in a fresh clone
        for word in help.split_whitespace() {
            if word.starts_with("examples/") || word.starts_with("tests/") {
                assert!(root().join(word).exists(), "{sub} --help names {word}");
                paths += 1;
            }
        }
    }
    assert!(paths >= 8, "{paths} repository paths in the examples");
}

#[test]
fn smoke_runs_shaders_on_synthetic_resources() {
    // a directory of examples: every shader runs to completion
    let dir = root().join("examples/gaussian_blur");
    let o = sm5sim(&["smoke", dir.to_str().unwrap(), "--groups", "2,2,1"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    assert!(out.contains("ok    ") && out.contains("(4 groups"), "{out}");
    assert!(out.contains("1 of 1 shaders ran to completion"), "{out}");

    // a shader that cannot load: a FAIL line and exit status 2 (an error)
    let bad = root().join("target/tmp/cli-smoke");
    std::fs::create_dir_all(&bad).unwrap();
    let f = bad.join("bad.dxbc");
    std::fs::write(&f, b"DXBC not really").unwrap();
    let o = sm5sim(&["smoke", f.to_str().unwrap()]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(
        out.contains("FAIL  ") && out.contains("0 of 1 shaders"),
        "{out}"
    );

    // a loop bounded by the resources' contents is stopped by the watchdog and reported
    let o = sm5sim(&[
        "smoke",
        root()
            .join("tests/corpus/NvCloth/DxSolverKernelBlob.dxbc")
            .to_str()
            .unwrap(),
        "--fill",
        "pattern",
        "--max-instructions",
        "100000",
    ]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("dispatch stopped"), "{out}");
}

#[test]
fn info_names_texture_and_sampler_bindings_as_hlsl_does() {
    let f = root().join("examples/downsample_tonemap/downsample_tonemap.dxbc");
    let o = sm5sim(&["info", f.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    for want in [
        "linear_clamp             s0    SamplerState",
        "hdr                      t0    Texture2D<float4>",
        "ldr                      u0    RWTexture2D<unorm float4>",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
}

/// The executor is compiled for several instruction sets (baseline, AVX2,
/// AVX-512: `SM5SIM_ISA` lowers the one this CPU would use); each gives the
/// same bits. Divergent loops with float math (mandelbrot), TGSM tiles, barriers
/// and `mad` on random floats (matmul), a TGSM tree with shrinking `if`s and
/// an atomic (reduce), each dumped and compared byte for byte.
#[test]
fn every_instruction_set_gives_the_same_bits() {
    let ex = |name: &str| {
        let p = root().join(format!("examples/{name}/{name}.dxbc"));
        p.display().to_string().replace('\\', "/")
    };
    let jobs = [
        (
            "mandelbrot",
            "iterations",
            format!(
                "shader = \"{}\"\n\
                 [resources.iterations]\nelements = 9216\ninit = {{ fill_u32 = 0 }}\n\
                 [resources.Params]\ninit = {{ fields = {{ width = 96, height = 96, max_iter = 64 }} }}\n\
                 [[steps]]\ndispatch = [12, 12, 1]\n",
                ex("mandelbrot")
            ),
        ),
        (
            "matmul",
            "C",
            format!(
                "shader = \"{}\"\n\
                 [resources.A]\nelements = 4096\ninit = {{ random_f32 = {{ seed = 1, min = -4.0, max = 4.0 }} }}\n\
                 [resources.B]\nelements = 4096\ninit = {{ random_f32 = {{ seed = 2, min = -4.0, max = 4.0 }} }}\n\
                 [resources.C]\nelements = 4096\ninit = {{ fill_u32 = 0 }}\n\
                 [resources.Params]\ninit = {{ fields = {{ n = 64 }} }}\n\
                 [[steps]]\ndispatch = [4, 4, 1]\n",
                ex("matmul")
            ),
        ),
        (
            "reduce",
            "total",
            format!(
                "shader = \"{}\"\n\
                 [resources.values]\nelements = 5000\ninit = {{ random_u32 = {{ seed = 3, min = 0, max = 100000 }} }}\n\
                 [resources.total]\nelements = 1\ninit = {{ fill_u32 = 0 }}\n\
                 [resources.Params]\ninit = {{ fields = {{ value_count = 5000 }} }}\n\
                 [[steps]]\ndispatch = [20, 1, 1]\n",
                ex("reduce")
            ),
        ),
    ];
    for (name, resource, toml) in jobs {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("cli")
            .join(format!("isa-{name}"));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("job.toml");
        std::fs::write(&path, toml).unwrap();
        let mut dumps = Vec::new();
        for isa in ["baseline", "avx2", "avx512"] {
            let dump = dir.join(format!("{isa}.bin"));
            let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
                .env("SM5SIM_ISA", isa)
                .args(["run", "--threads", "2"])
                .arg(&path)
                .arg("--dump")
                .arg(format!("{resource}={}", dump.display()))
                .output()
                .expect("run sm5sim");
            assert!(o.status.success(), "{name} under {isa}: {:?}", text(&o));
            dumps.push((isa, std::fs::read(&dump).unwrap()));
        }
        let (_, first) = &dumps[0];
        assert!(first.iter().any(|&b| b != 0), "{name}: an all-zero result");
        for (isa, d) in &dumps[1..] {
            assert!(d == first, "{name}: {isa} differs from the baseline");
        }
    }
}

/// An `SM5SIM_ISA` that names no instruction set is refused before anything
/// runs: exit 2, saying which values are valid.
#[test]
fn an_unknown_instruction_set_is_refused() {
    let toml = root().join("examples/histogram/histogram.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
        .env("SM5SIM_ISA", "sse9")
        .arg("run")
        .arg(&toml)
        .output()
        .expect("run sm5sim");
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("SM5SIM_ISA=\"sse9\"") && err.contains("avx2"),
        "{err}"
    );
}
