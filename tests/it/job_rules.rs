//! D3D11's resource rules as `CreateBuffer` and the view descriptions apply
//! them, and the job-file messages about names and slots: a resource key
//! that is a slot name binds there, a wrong slot names the slot the shader
//! declares for that name, an unknown name lists what the shader declares,
//! and `expect` compares an element range (`first`, `count`).

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

fn load(dir: &Path, text: &str) -> Result<Job, String> {
    Job::from_toml(text, &dir.join("job.toml"), dir, &LoadOptions::default())
        .map_err(|e| e.to_string())
}

/// 5 keys into the histogram's 256 bins (keys 1, 2, 3, 2, 258), dispatched.
fn histogram() -> String {
    super::cli::SMALL.replace("SHADER", "histogram.dxbc")
}

fn expect_reports(text: &str) -> Vec<StepReport> {
    let job = load(&example("histogram"), text).unwrap();
    job.run(&DispatchOptions::default()).unwrap()
}

#[test]
fn a_resource_key_that_is_a_slot_name_binds_there() {
    let text = histogram()
        .replace("[resources.keys]", "[resources.t0]")
        .replace("[resources.bins]", "[resources.u0]")
        .replace("[resources.Params]", "[resources.cb0]")
        + "[[steps]]\nexpect = { resource = \"u0\", sum_u32 = 5 }\n";
    let reports = expect_reports(&text);
    assert!(reports.iter().all(StepReport::passed), "{reports:?}");
}

#[test]
fn a_wrong_slot_names_the_slot_the_shader_declares() {
    let text = histogram().replace("[resources.bins]\n", "[resources.bins]\nslot = \"u1\"\n");
    let e = load(&example("histogram"), &text).unwrap_err();
    assert!(
        e.contains("resources.bins.slot")
            && e.contains(
                "the shader declares 'bins' at u0, not u1; leave slot out or give slot = \"u0\""
            ),
        "{e}"
    );
    // a label that is no RDEF name and no slot: what the shader declares
    let text = histogram().replace("[resources.bins]", "[resources.counts]");
    let e = load(&example("histogram"), &text).unwrap_err();
    assert!(
        e.contains("resources.counts.slot")
            && e.contains(
                "'counts' is neither a resource name in the shader's RDEF nor a slot name"
            )
            && e.contains("t0 ('keys')")
            && e.contains("u0 ('bins')")
            && e.contains("cb0 ('Params')"),
        "{e}"
    );
    // a label bound to a slot the shader does not declare, with no view
    let text = format!(
        "{}[resources.extra]\nslot = \"u5\"\nelements = 4\n",
        histogram()
    );
    let e = load(&example("histogram"), &text).unwrap_err();
    assert!(
        e.contains("resources.extra.slot")
            && e.contains("the shader declares nothing at u5; it declares"),
        "{e}"
    );
}

#[test]
fn a_buffer_of_zero_bytes_is_refused() {
    let text = histogram().replace("elements = 256", "elements = 0");
    let e = load(&example("histogram"), &text).unwrap_err();
    assert!(
        e.contains("resources.bins.elements") && e.contains("D3D11 refuses a ByteWidth of 0"),
        "{e}"
    );
    let text = histogram().replace("init = { u32 = [1, 2, 3, 2, 258] }", "init = { u32 = [] }");
    let e = load(&example("histogram"), &text).unwrap_err();
    assert!(
        e.contains("resources.keys.init") && e.contains("ByteWidth of 0"),
        "{e}"
    );
}

#[test]
fn a_structured_buffer_must_hold_whole_structures() {
    // saxpy's x and y are float4 structures (stride 16)
    let text = "shader = \"saxpy_structured.dxbc\"
[resources.x]
size_bytes = 20
init = { fill_f32 = 1.0 }
[resources.y]
elements = 1
init = { fill_f32 = 1.0 }
[resources.Params]
init = { fields = { a = 2, element_count = 1 } }
";
    let e = load(&example("saxpy_structured"), text).unwrap_err();
    assert!(
        e.contains("resources.x.size_bytes")
            && e.contains("20 bytes is not a whole number of 16-byte structures")
            && e.contains("multiple of StructureByteStride")
            && e.contains("the last 4 bytes would be outside every view"),
        "{e}"
    );
    // a list of words that is no whole number of structures, at init
    let text = text.replace(
        "size_bytes = 20\ninit = { fill_f32 = 1.0 }",
        "init = { f32 = [1.0, 2.0, 3.0, 4.0, 5.0] }",
    );
    let e = load(&example("saxpy_structured"), &text).unwrap_err();
    assert!(
        e.contains("resources.x.init") && e.contains("20 bytes is not a whole number"),
        "{e}"
    );
}

#[test]
fn a_typed_buffer_must_hold_whole_elements() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/typed_buffers");
    let text = std::fs::read_to_string(dir.join("typed_buffers.toml")).unwrap();
    assert!(load(&dir, &text).is_ok());
    let bad = text.replacen(
        "format = \"R32G32B32A32_FLOAT\"\ninit = { f32 = [",
        "format = \"R32G32B32A32_FLOAT\"\ninit = { f32 = [9.0, ",
        1,
    );
    let e = load(&dir, &bad).unwrap_err();
    assert!(
        e.contains("resources.src.init")
            && e.contains("68 bytes is not a whole number of 16-byte R32G32B32A32_FLOAT elements"),
        "{e}"
    );
}

#[test]
fn expect_compares_an_element_range() {
    // bins 1, 2, 3 hold 1, 2 and 1 (258 lands in bin 2)
    let reports = expect_reports(&format!(
        "{}[[steps]]\nexpect = {{ resource = \"bins\", first = 1, count = 3, u32 = [1, 3, 1] }}\n\
         [[steps]]\nexpect = {{ resource = \"bins\", first = 4, fill_u32 = 0 }}\n\
         [[steps]]\nexpect = {{ resource = \"bins\", first = 0, count = 4, sum_u32 = 5 }}\n\
         [[steps]]\nexpect = {{ resource = \"bins\", first = 2, count = 2, u32 = [3, 7] }}\n",
        histogram()
    ));
    assert!(
        reports[1].passed() && reports[2].passed() && reports[3].passed(),
        "{reports:?}"
    );
    // a failure names the resource's own index
    match &reports[4] {
        StepReport::Expect {
            mismatches, first, ..
        } => {
            assert_eq!(*mismatches, 1);
            assert_eq!(first[0].index, 3);
            assert_eq!(
                (first[0].expected.as_str(), first[0].got.as_str()),
                ("7", "1")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_element_range_counts_structures_of_a_structured_view() {
    // saxpy: y[k] = 2 x[k] + 1 over float4 structures
    let text = "shader = \"saxpy_structured.dxbc\"
[resources.x]
elements = 4
init = { iota_f32 = { start = 0.0, step = 1.0 } }
[resources.y]
elements = 4
init = { fill_f32 = 1.0 }
[resources.Params]
init = { fields = { a = 2, element_count = 4 } }
[[steps]]
dispatch = [1, 1, 1]
[[steps]]
expect = { resource = \"y\", first = 2, count = 1, f32 = [17.0, 19.0, 21.0, 23.0] }
";
    let job = load(&example("saxpy_structured"), text).unwrap();
    let reports = job.run(&DispatchOptions::default()).unwrap();
    assert!(reports[1].passed(), "{reports:?}");
}

#[test]
fn element_ranges_out_of_bounds_or_of_the_wrong_kind_are_refused() {
    let cases = [
        (
            "first = 256, fill_u32 = 0",
            "steps[1].expect.first",
            "elements 256..256 are not all in 'bins', which holds 256 elements of 4 bytes",
        ),
        (
            "first = 250, count = 7, fill_u32 = 0",
            "steps[1].expect.count",
            "elements 250..257 are not all in 'bins'",
        ),
        (
            "count = 0, fill_u32 = 0",
            "steps[1].expect.count",
            "count must be at least 1",
        ),
        (
            "first = 0, count = 2, u32 = [1, 2, 3]",
            "steps[1].expect",
            "3 values given but the elements selected by first and count hold 2 32-bit words",
        ),
        (
            // bins is raw: no counter at all (with a structured UAV, first
            // is refused: "not for counter or png")
            "first = 0, counter = 0",
            "steps[1].expect.counter",
            "'bins' is not a structured buffer",
        ),
    ];
    for (form, key, message) in cases {
        let text = format!(
            "{}[[steps]]\nexpect = {{ resource = \"bins\", {form} }}\n",
            histogram()
        );
        let e = load(&example("histogram"), &text).unwrap_err();
        assert!(e.contains(key) && e.contains(message), "{form}: {e}");
    }
}

#[test]
fn whole_resource_forms_refuse_an_element_range() {
    for (form, message) in [
        (
            "fields = { key_count = 5 }",
            "fields is compared with the whole resource; drop first and count",
        ),
        (
            "file = \"x.npy\"",
            "a .npy file is compared with the whole resource; drop first and count",
        ),
    ] {
        let resource = if form.starts_with("fields") {
            "Params"
        } else {
            "bins"
        };
        let text = format!(
            "{}[[steps]]\nexpect = {{ resource = \"{resource}\", count = 1, {form} }}\n",
            histogram()
        );
        let e = load(&example("histogram"), &text).unwrap_err();
        assert!(
            e.contains("steps[1].expect.count") && e.contains(message),
            "{e}"
        );
    }
}

#[test]
fn a_file_named_like_a_field_keeps_its_name_in_the_message() {
    let text = histogram().replace(
        "init = { fill_u32 = 0 }",
        "init = { file = \"fields.bin\" }",
    );
    let e = load(&example("histogram"), &text).unwrap_err();
    assert!(
        e.contains("resources.bins.init: ") && e.contains("fields.bin: No such file"),
        "{e}"
    );
}

/// A hidden counter belongs to a structured buffer's UAV (D3D11_BUFFER_UAV_
/// FLAG_APPEND/COUNTER): `expect`/`set` of a counter on an SRV or a raw
/// UAV is refused at the step's key, as `counter =` on the resource is
/// (issue 44).
#[test]
fn counter_steps_need_a_structured_uav() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("counter_steps");
    std::fs::create_dir_all(&dir).unwrap();
    let ex = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/histogram");
    std::fs::copy(ex.join("histogram.dxbc"), dir.join("histogram.dxbc")).unwrap();
    for (step, message) in [
        (
            "expect = { resource = \"keys\", counter = 0 }",
            "steps[1].expect.counter: 'keys' is bound as t0, not as a UAV",
        ),
        (
            "set = { resource = \"keys\", counter = 3 }",
            "steps[1].set.counter: 'keys' is bound as t0, not as a UAV",
        ),
        (
            "expect = { resource = \"bins\", counter = 0 }",
            "steps[1].expect.counter: 'bins' is not a structured buffer",
        ),
    ] {
        let job = dir.join("job.toml");
        std::fs::write(
            &job,
            format!(
                "{}\n[[steps]]\n{step}\n",
                super::cli::SMALL.replace("SHADER", "histogram.dxbc")
            ),
        )
        .unwrap();
        let o = super::sm5sim(&["run", job.to_str().unwrap()]);
        let t = super::output_text(&o);
        assert_eq!(o.status.code(), Some(2), "{t}");
        assert!(t.contains(message), "{step}: {t}");
    }
}
