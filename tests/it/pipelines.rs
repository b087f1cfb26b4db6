//! Jobs of several shaders (`[shaders.NAME]`, docs/job-files.md "Several
//! shaders"): the four pipeline examples against their NumPy references, at
//! several thread counts and warp widths and under the checker; and the
//! refusals, each at its key (D3D11's rules for DispatchIndirect, the copy
//! commands and bindings). The conformance jobs in tests/conformance/device/
//! cover what the commands do.

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::check::CheckOptions;
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use std::path::{Path, PathBuf};

const PIPELINES: [&str; 4] = [
    "bitonic_sort",
    "mip_chain",
    "stream_compaction",
    "multipass_reduce",
];

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .join(format!("{name}.toml"))
}

fn expectations_hold(reports: &[StepReport]) -> usize {
    let mut n = 0;
    for r in reports {
        if let StepReport::Expect {
            what, mismatches, ..
        } = r
        {
            assert_eq!(*mismatches, 0, "{what}");
            n += 1;
        }
    }
    n
}

#[test]
fn the_pipeline_examples_give_their_references_results() {
    for name in PIPELINES {
        for (threads, warp_width) in [(1, 1), (2, 32), (2, 1024)] {
            let job = Job::load(&example(name), &LoadOptions::default()).unwrap();
            assert!(job.several && !job.shaders.is_empty(), "{name}");
            let reports = job
                .run(&DispatchOptions {
                    threads,
                    warp_width,
                    ..Default::default()
                })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let dispatches = reports
                .iter()
                .filter(|r| matches!(r, StepReport::Dispatch { .. }))
                .count();
            assert!(dispatches >= 3, "{name}: {dispatches} dispatches");
            assert!(expectations_hold(&reports) >= 1, "{name}");
        }
    }
}

#[test]
fn the_pipeline_examples_check_clean() {
    for name in PIPELINES {
        let job = Job::load(&example(name), &LoadOptions::default()).unwrap();
        let report = job
            .run_checked(&DispatchOptions::default(), CheckOptions::default())
            .unwrap();
        assert!(report.findings.is_empty(), "{name}: {:?}", report.findings);
        assert!(report.stopped.is_none());
        expectations_hold(&report.steps);
    }
}

#[test]
fn dispatch_reports_name_their_shader() {
    let job = Job::load(&example("bitonic_sort"), &LoadOptions::default()).unwrap();
    let reports = job.run(&DispatchOptions::default()).unwrap();
    let shaders: std::collections::BTreeSet<&str> = reports
        .iter()
        .filter_map(|r| match r {
            StepReport::Dispatch { shader, .. } => Some(shader.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        shaders.into_iter().collect::<Vec<_>>(),
        ["sort", "transpose"]
    );
}

/// A job beside the conformance device shaders (indirect.dxbc: one uint per
/// group into `seen`, u0), with `body` after its shader and resources.
fn device_job(body: &str) -> Result<Job, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/device");
    let text = format!(
        "[shaders.groups]\nshader = \"indirect.dxbc\"\n\n[resources.seen]\nelements = 64\n\n[resources.args]\nview = \"raw\"\nindirect_args = true\ninit = {{ u32 = [1, 1, 1, 70000, 1, 1] }}\n\n[resources.plain]\nview = \"raw\"\ninit = {{ u32 = [1, 1, 1] }}\n\n[resources.list]\nview = \"structured\"\nstride = 4\nelements = 4\n\n{body}"
    );
    Job::from_toml(&text, &dir.join("job.toml"), &dir, &LoadOptions::default())
        .map_err(|e| e.to_string())
}

#[track_caller]
fn refused(body: &str, key: &str, words: &[&str]) {
    let e = match device_job(body) {
        Ok(_) => panic!("accepted: {body}"),
        Err(e) => e,
    };
    assert!(e.contains(key), "{e}\n(wanted key {key})");
    for w in words {
        assert!(e.contains(w), "{e}\n(wanted '{w}')");
    }
}

#[test]
fn dispatch_indirect_applies_d3d11s_rules() {
    let ok = device_job(
        "[[steps]]\ndispatch_indirect = { args = \"args\", offset = 0 }\nshader = \"groups\"\n",
    );
    assert!(ok.is_ok(), "{:?}", ok.err());
    refused(
        "[[steps]]\ndispatch_indirect = { args = \"args\", offset = 2 }\nshader = \"groups\"\n",
        "steps[0].dispatch_indirect",
        &["not a multiple of 4"],
    );
    refused(
        "[[steps]]\ndispatch_indirect = { args = \"args\", offset = 16 }\nshader = \"groups\"\n",
        "steps[0].dispatch_indirect",
        &["not inside"],
    );
    refused(
        "[[steps]]\ndispatch_indirect = { args = \"plain\" }\nshader = \"groups\"\n",
        "steps[0].dispatch_indirect.args",
        &["indirect_args = true"],
    );
    refused(
        "[[steps]]\ndispatch_indirect = { args = \"args\" }\nshader = \"groups\"\nbind = { seen = \"args\" }\n",
        "steps[0].dispatch_indirect",
        &["bound as a UAV of the same dispatch"],
    );
    refused(
        "[resources.bad]\nview = \"structured\"\nstride = 4\nelements = 3\nindirect_args = true\n",
        "resources.bad.indirect_args",
        &["structured"],
    );
    // a count over 65535, read when the step runs, stops the run there
    let job = device_job(
        "[[steps]]\ndispatch_indirect = { args = \"args\", offset = 12 }\nshader = \"groups\"\n",
    )
    .unwrap();
    let e = job
        .run(&DispatchOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("steps[0]") && e.contains("65535"), "{e}");
}

#[test]
fn copies_are_refused_where_the_runtime_drops_them() {
    refused(
        "[[steps]]\ncopy = { from = \"args\", to = \"plain\" }\n",
        "steps[0].copy",
        &["same ByteWidth"],
    );
    refused(
        "[[steps]]\ncopy = { from = \"plain\", to = \"plain\" }\n",
        "steps[0].copy",
        &["same resource"],
    );
    refused(
        "[[steps]]\ncopy_region = { from = \"args\", to = \"plain\", src_offset = 8, bytes = 20 }\n",
        "steps[0].copy_region",
        &["not inside the source"],
    );
    refused(
        "[[steps]]\ncopy_region = { from = \"args\", to = \"plain\", dst_offset = 8, bytes = 8 }\n",
        "steps[0].copy_region",
        &["do not fit the destination"],
    );
    refused(
        "[[steps]]\ncopy_region = { from = \"args\", to = \"args\", dst_offset = 12, bytes = 4 }\n",
        "steps[0].copy_region",
        &["same buffer"],
    );
    refused(
        "[[steps]]\ncopy_structure_count = { from = \"list\", to = \"plain\", offset = 2 }\n",
        "steps[0].copy_structure_count.offset",
        &["multiple of 4"],
    );
    refused(
        "[[steps]]\ncopy_structure_count = { from = \"plain\", to = \"args\" }\n",
        "steps[0].copy_structure_count.from",
        &["not a structured buffer"],
    );
    refused(
        "[[steps]]\ncopy = { from = \"plain\", to = \"nothing\" }\n",
        "steps[0].copy.to",
        &["no resource named 'nothing'"],
    );
}

#[test]
fn bindings_are_checked_at_their_step() {
    refused(
        "[[steps]]\ndispatch = [1, 1, 1]\n",
        "steps[0]",
        &["names its shader", "groups"],
    );
    refused(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"nope\"\n",
        "steps[0].shader",
        &["no shader named 'nope'"],
    );
    refused(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\nbind = { missing = \"plain\" }\n",
        "steps[0].bind.missing",
        &["no resource 'missing'"],
    );
    refused(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\nbind = { seen = \"list\" }\n",
        "steps[0].bind.seen",
        &["'list'"],
    );
    refused(
        "[[steps]]\nexpect = { resource = \"seen\", sum_u32 = 0 }\nshader = \"groups\"\n",
        "steps[0].shader",
        &["dispatch steps"],
    );
    refused(
        "[resources.x]\nslot = \"u1\"\nview = \"raw\"\nelements = 1\n",
        "resources.x.slot",
        &["binds by name"],
    );
    refused(
        "[resources.floating]\nelements = 4\n",
        "resources.floating",
        &["give view"],
    );
    // the null view stands for a declared slot; leaving it out is an error
    let ok = device_job(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\nbind = { u0 = \"null\" }\n",
    );
    assert!(ok.is_ok(), "{:?}", ok.err());
}

#[test]
fn a_declared_slot_with_neither_a_binding_nor_a_resource_of_its_name_is_an_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/device");
    let text = "[shaders.groups]\nshader = \"indirect.dxbc\"\n[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\n";
    let e = Job::from_toml(text, &dir.join("job.toml"), &dir, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("steps[0]") && e.contains("u0 ('seen')") && e.contains("\"null\""),
        "{e}"
    );
}

#[test]
fn an_srv_and_a_uav_of_one_buffer_in_one_dispatch_warn_and_the_srv_reads_null() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/device");
    // null_views.dxbc: dst[0] = src.Load(0); src (t0) and side (u1) both 'shared'
    let text = "[shaders.n]\nshader = \"null_views.dxbc\"\n[resources.dst]\nelements = 6\n[resources.shared]\nview = \"raw\"\ninit = { u32 = [42, 0] }\n[resources.c]\nview = \"structured\"\nstride = 4\nelements = 1\n[resources.Params]\ninit = { u32 = [0, 0, 0, 0] }\n[[steps]]\ndispatch = [1, 1, 1]\nshader = \"n\"\nbind = { src = \"shared\", side = \"shared\", cnt = \"c\" }\n[[steps]]\nexpect = { resource = \"dst\", first = 0, count = 1, u32 = [0] }\n";
    let job = Job::from_toml(text, &dir.join("job.toml"), &dir, &LoadOptions::default()).unwrap();
    assert!(
        job.warnings
            .iter()
            .any(|w| w.contains("steps[0]") && w.contains("reads as null")),
        "{:?}",
        job.warnings
    );
    expectations_hold(&job.run(&DispatchOptions::default()).unwrap());
}

#[test]
fn set_of_fields_keeps_the_fields_not_given() {
    // the multi-pass reduction changes `count` between passes; a field it
    // does not name must keep its value: Params of saxpy has a and
    // element_count
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/saxpy_structured");
    let text = std::fs::read_to_string(dir.join("saxpy_structured.toml")).unwrap();
    let job = Job::from_toml(&text, &dir.join("job.toml"), &dir, &LoadOptions::default()).unwrap();
    let params = job.resource("Params").unwrap();
    let before = params.data().to_words();
    assert!(before.iter().any(|&w| w != 0));
    let more =
        format!("{text}\n[[steps]]\nset = {{ resource = \"Params\", fields = {{ a = 7.0 }} }}\n");
    let job = Job::from_toml(&more, &dir.join("job.toml"), &dir, &LoadOptions::default()).unwrap();
    job.run(&DispatchOptions::default()).unwrap();
    let after = job.resource("Params").unwrap().data().to_words();
    let changed: Vec<usize> = (0..after.len())
        .filter(|&i| after[i] != before[i])
        .collect();
    assert_eq!(changed.len(), 1, "{before:?} -> {after:?}");
    assert_eq!(f32::from_bits(after[changed[0]]), 7.0);
}

#[test]
fn the_command_line_runs_a_pipeline_and_dumps_every_mip() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pipelines");
    std::fs::create_dir_all(&dir).unwrap();
    let npz = dir.join("tex.npz");
    let _ = std::fs::remove_file(&npz);
    let job = example("mip_chain");
    let o = super::sm5sim(&[
        "run",
        job.to_str().unwrap(),
        "--dump",
        &format!("tex={}", npz.display()),
    ]);
    let t = super::output_text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("dispatch downsample 4x4x1"), "{t}");
    // one array per subresource, each as the reference's file
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&npz).unwrap()).unwrap();
    let names: Vec<String> = archive.file_names().map(str::to_string).collect();
    assert_eq!(names.len(), 7, "{names:?}");
    for mip in 1..7 {
        let mut entry = archive.by_name(&format!("mip{mip}_slice0.npy")).unwrap();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut entry, &mut bytes).unwrap();
        let got_path = dir.join(format!("got{mip}.npy"));
        std::fs::write(&got_path, &bytes).unwrap();
        let got = sm5sim::npy::read(&got_path).unwrap();
        let want_path = example("mip_chain").with_file_name(format!("mip{mip}.npy"));
        let want = sm5sim::npy::read(&want_path).unwrap();
        assert_eq!(got.layout.shape, want.layout.shape, "mip {mip}");
        assert_eq!(got.data, want.data, "mip {mip}");
    }
    // a buffer takes .npy
    let o = super::sm5sim(&[
        "run",
        example("multipass_reduce").to_str().unwrap(),
        "--dump",
        &format!("a={}", dir.join("a.npz").display()),
    ]);
    let t = super::output_text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("'a' is a buffer"), "{t}");
}

#[test]
fn check_names_the_step_and_shader_of_a_finding() {
    // two shaders over one buffer: the race-free twin first, then the
    // seeded cross-group write-write race (tests/races/MANIFEST.toml)
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/races");
    let text = "[shaders.ok]\nshader = \"uav_waw_across_groups_ok.dxbc\"\n[shaders.bug]\nshader = \"uav_waw_across_groups_bug.dxbc\"\n[resources.out]\nview = \"structured\"\nstride = 4\nelements = 256\n[[steps]]\ndispatch = [4, 1, 1]\nshader = \"ok\"\nbind = { u0 = \"out\" }\n[[steps]]\ndispatch = [4, 1, 1]\nshader = \"bug\"\nbind = { u0 = \"out\" }\n";
    let job = Job::from_toml(text, &dir.join("job.toml"), &dir, &LoadOptions::default()).unwrap();
    let report = job
        .run_checked(&DispatchOptions::default(), CheckOptions::default())
        .unwrap();
    assert_eq!(report.findings.len(), 1, "{:?}", report.findings);
    let f = &report.findings[0];
    assert_eq!(f.step.as_deref(), Some("steps[1] (shader 'bug')"), "{f}");
    assert_eq!(f.resource_name.as_deref(), Some("out"), "{f}");
    assert!(f.to_string().contains("in steps[1] (shader 'bug')"), "{f}");
}

#[test]
fn element_ranges_are_checked_at_their_binding() {
    refused(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\nbind = { seen = { resource = \"plain\", first_element = 2, elements = 2 } }\n",
        "steps[0].bind.seen",
        &["elements 2..4", "3 elements"],
    );
    refused(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\nbind = { seen = { resource = \"plain\", first_element = 1 } }\n",
        "steps[0].bind.seen",
        &["needs elements = N"],
    );
    let ok = device_job(
        "[[steps]]\ndispatch = [1, 1, 1]\nshader = \"groups\"\nbind = { seen = { resource = \"plain\", first_element = 1, elements = 2 } }\n",
    );
    assert!(ok.is_ok(), "{:?}", ok.err());
}

#[test]
fn the_job_files_guide_example_runs() {
    // docs/job-files.md, "Several shaders": its first TOML block, run from
    // examples/bitonic_sort (whose shaders it names)
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/job-files.md")).unwrap();
    let section = &doc[doc.find("## Several shaders: pipelines").unwrap()..];
    let start = section.find("```toml\n").unwrap() + "```toml\n".len();
    let block = &section[start..start + section[start..].find("```").unwrap()];
    let dir = root.join("examples/bitonic_sort");
    let job = Job::from_toml(
        block,
        &dir.join("guide.toml"),
        &dir,
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    job.run(&DispatchOptions::default()).unwrap();
    let params = job.resource("SortParams").unwrap().data().to_words();
    assert_eq!(&params[..2], &[4, 2], "set keeps level_mask");
    let data = job.resource("data").unwrap().data().to_words();
    let tmp = job.resource("tmp").unwrap().data().to_words();
    for r in 0..32 {
        for c in 0..512 {
            assert_eq!(tmp[c * 32 + r], data[r * 512 + c], "row {r} column {c}");
        }
    }
}

#[test]
fn views_of_other_slices_of_one_texture_are_no_hazard() {
    // mip_chain's downsample (Texture2D Src, RWTexture2D Dst) on a 2x2
    // texture of two slices and two mips: mip 0 of slice 0 into mip 1 of
    // slice 1 is no conflict (texture2d views see one slice each); mip 0 of
    // slice 0 as both SRV and UAV is, and the SRV reads as null
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mip_chain");
    let job = |dst: &str| {
        let text = format!(
            "[shaders.down]\nshader = \"downsample.dxbc\"\n[resources.tex]\nview = \"texture2darray\"\nformat = \"R32G32B32A32_FLOAT\"\nwidth = 2\nheight = 2\narray_size = 2\nmips = 2\ninit = [{{ mip = 0, slice = 0, fill_texel = [1.0, 2.0, 3.0, 4.0] }}]\n[resources.MipParams]\ninit = {{ fields = {{ dst_size = [1, 1] }} }}\n[[steps]]\ndispatch = [1, 1, 1]\nshader = \"down\"\nbind = {{ Src = {{ resource = \"tex\", view = \"texture2d\", mip = 0, mip_count = 1 }}, Dst = {dst} }}\n"
        );
        Job::from_toml(&text, &dir.join("job.toml"), &dir, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let texel = |j: &Job, mip: u32, slice: u32| -> Vec<f32> {
        let t = j.resource("tex").unwrap().texture().unwrap();
        t.read_subresource(mip, slice)[..16]
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let apart = job("{ resource = \"tex\", view = \"texture2d\", mip = 1, first_slice = 1 }");
    assert!(apart.warnings.is_empty(), "{:?}", apart.warnings);
    apart.run(&DispatchOptions::default()).unwrap();
    assert_eq!(texel(&apart, 1, 1), [1.0, 2.0, 3.0, 4.0]);
    let same = job("{ resource = \"tex\", view = \"texture2d\", mip = 0 }");
    assert!(
        same.warnings.iter().any(|w| w.contains("reads as null")),
        "{:?}",
        same.warnings
    );
    same.run(&DispatchOptions::default()).unwrap();
    // the SRV read zeros, which the shader averaged into mip 0's texel (0, 0)
    assert_eq!(texel(&same, 0, 0), [0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_tolerance_on_a_npy_file_needs_floats() {
    let load = |name: &str, from: &str, to: &str| {
        let path = example(name);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from));
        Job::from_toml(
            &text.replace(from, to),
            &path,
            path.parent().unwrap(),
            &LoadOptions::default(),
        )
        .map_err(|e| e.to_string())
    };
    let e = load(
        "stream_compaction",
        "file = \"args.npy\" }",
        "file = \"args.npy\", abs = 1 }",
    )
    .unwrap_err();
    assert!(e.contains("steps[6].expect") && e.contains("uint32"), "{e}");
    // floats within the tolerance pass: mip 1 against itself, 1e-6 apart
    let job = load(
        "mip_chain",
        "file = \"mip1.npy\" }",
        "file = \"mip1.npy\", abs = 1e-6 }",
    )
    .unwrap();
    expectations_hold(&job.run(&DispatchOptions::default()).unwrap());
}

#[test]
fn a_named_shaders_hlsl_keys_are_refused_for_dxbc() {
    refused(
        "[shaders.other]\nshader = \"indirect.dxbc\"\nentry = \"main\"\n",
        "shaders.other.entry",
        &["apply to HLSL shaders only"],
    );
    // a top-level HLSL key beside [shaders]
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/device");
    let text = "entry = \"main\"\n[shaders.groups]\nshader = \"indirect.dxbc\"\n";
    let e = Job::from_toml(text, &dir.join("job.toml"), &dir, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("job.toml:1:1: entry") && e.contains("[shaders.NAME]"),
        "{e}"
    );
}
