//! Constant buffers set through `fields`, placed as HLSL packs them
//! (`sm5sim::cbuffer`), on a shader fxc compiled
//! (`tests/cbuffers/cbuffer_packing.hlsl`) that copies every element of its
//! constant buffer to a UAV: arrays (one register per element), a vector in
//! the spare bytes after an array, a struct, an array of structs, row- and
//! column-major matrices, an array of matrices, an int vector. Also each
//! kind of value that does not fit, refused at its key.

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cbuffers")
}

fn job_text() -> String {
    std::fs::read_to_string(dir().join("cbuffer_packing.toml")).unwrap()
}

/// The packing job with its `fields` table replaced by `fields`.
fn with_fields(fields: &str) -> String {
    let text = job_text();
    let start = text.find("[resources.Params.init.fields]").unwrap();
    let end = text.find("[[steps]]").unwrap();
    format!(
        "{}[resources.Params.init.fields]\n{fields}\n\n{}",
        &text[..start],
        &text[end..]
    )
}

fn load(text: &str) -> Result<Job, String> {
    Job::from_toml(
        text,
        &dir().join("job.toml"),
        &dir(),
        &LoadOptions::default(),
    )
    .map_err(|e| e.to_string())
}

#[test]
fn every_element_of_a_packed_constant_buffer_reads_back() {
    let job = load(&job_text()).unwrap();
    let reports = job.run(&DispatchOptions::default()).unwrap();
    assert_eq!(reports.len(), 2);
    assert!(
        matches!(&reports[1], StepReport::Expect { .. }) && reports[1].passed(),
        "{:?}",
        reports[1]
    );
    // and independently of the job's own expectation: word k of Out is the
    // k-th value given, in declaration order (integers converted to float)
    let words = job.resource("Out").unwrap().data().to_bytes();
    let got: Vec<f32> = words
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let mut want: Vec<f32> = (1..=44).map(|v| v as f32).collect();
    want.extend([-45.0, 46.0, -47.0, 48.0]);
    assert_eq!(got, want);
}

#[test]
fn arrays_start_a_register_per_element_and_a_vector_fills_the_last() {
    // `w = [1, 2, 3]` into float w[3] is c0.x, c1.x, c2.x, and `after`
    // lies in c2.yzw: the bytes of the constant buffer itself
    let job = load(&job_text()).unwrap();
    let bytes = job.resource("Params").unwrap().data().to_bytes();
    let word = |k: usize| f32::from_le_bytes(bytes[k * 4..k * 4 + 4].try_into().unwrap());
    assert_eq!([word(0), word(4), word(8)], [1.0, 2.0, 3.0]);
    assert_eq!([word(1), word(2), word(3), word(5)], [0.0; 4]);
    assert_eq!([word(9), word(10), word(11)], [4.0, 5.0, 6.0]);
    // row_major float2x3 rm at byte 144: rows in registers
    assert_eq!([word(36), word(37), word(38)], [25.0, 26.0, 27.0]);
    assert_eq!([word(40), word(41), word(42)], [28.0, 29.0, 30.0]);
    // column_major float2x3 cm at byte 176: columns in registers
    assert_eq!([word(44), word(45)], [31.0, 34.0]);
    assert_eq!([word(48), word(49)], [32.0, 35.0]);
    assert_eq!([word(52), word(53)], [33.0, 36.0]);
}

#[test]
fn a_value_that_does_not_fit_is_refused_at_its_key() {
    let cases = [
        (
            "w = [1.0, 2.0]",
            "resources.Params.init.fields.w:",
            "expected a list of 3 elements of float",
        ),
        (
            "w = [1.0, 2.0, \"x\"]",
            "resources.Params.init.fields.w[2]:",
            "expected a number for float, got \"x\"",
        ),
        (
            "light = { pos = [1.0, 2.0, 3.0], colour = 1 }",
            "resources.Params.init.fields.light.colour:",
            "struct Light has no member 'colour' (it has: pos, radius, ids)",
        ),
        (
            "light = [1.0, 2.0]",
            "resources.Params.init.fields.light:",
            "expected a table of the members of struct Light",
        ),
        (
            "rm = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]",
            "resources.Params.init.fields.rm:",
            "2 rows of 3 values (row_major float2x3, rows as written in HLSL)",
        ),
        (
            "cm = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]",
            "resources.Params.init.fields.cm:",
            "2 rows of 3 values (column_major float2x3",
        ),
        (
            "tail = [1, 2, 3, 4.5]",
            "resources.Params.init.fields.tail[3]:",
            "expected an integer for int4, got 4.5",
        ),
        (
            "tail = [1, 2, 3, 3000000000]",
            "resources.Params.init.fields.tail[3]:",
            "expected an int in -2147483648..=2147483647",
        ),
        (
            "lights = [{ ids = [1, -2] }, {}]",
            "resources.Params.init.fields.lights[0].ids[1]:",
            "expected a uint in 0..=4294967295 for uint2, got -2",
        ),
        (
            "lights = [{ radius = 1.0 }]",
            "resources.Params.init.fields.lights:",
            "expected a list of 2 elements of struct Light",
        ),
        (
            "ids = 3",
            "resources.Params.init.fields.ids:",
            "cbuffer Params has no variable 'ids' (it has: w, after, light, lights, rm, cm, cms, tail)",
        ),
    ];
    for (fields, key, message) in cases {
        let e = load(&with_fields(fields)).unwrap_err();
        assert!(e.contains(key) && e.contains(message), "{fields}: {e}");
        // the position points into the line that holds the value
        let line = e.lines().nth(1).unwrap_or_default();
        assert_eq!(line, fields, "{e}");
    }
}

#[test]
fn set_steps_take_fields_too() {
    // a `set` re-initialises the buffer with the same rules; its errors are
    // at the step's key
    let text = job_text().replace(
        "[[steps]]\ndispatch",
        "[[steps]]\nset = { resource = \"Params\", fields = { w = [1.0, 2.0, 3.0] } }\n\n[[steps]]\ndispatch",
    );
    assert!(load(&text).is_ok());
    let bad = job_text().replace(
        "[[steps]]\ndispatch",
        "[[steps]]\nset = { resource = \"Params\", fields = { w = [1.0] } }\n\n[[steps]]\ndispatch",
    );
    let e = load(&bad).unwrap_err();
    assert!(
        e.contains("steps[0].set.fields.w:") && e.contains("expected a list of 3 elements"),
        "{e}"
    );
}

#[test]
fn crafted_offsets_and_out_of_range_floats_are_refused_not_wrapped() {
    use sm5sim::sim_core::front::rdef::{CbVariable, CbufferDesc, TypeDesc};
    // `double a[2]` at byte 4294967280 (an RDEF a file can carry)
    let double = TypeDesc {
        class: 0,
        base_type: 39,
        rows: 1,
        columns: 1,
        elements: 2,
        members: vec![],
        name: "double".into(),
    };
    let float = TypeDesc {
        elements: 0,
        base_type: 3,
        name: "float".into(),
        ..double.clone()
    };
    let cb = |offset: u32, ty: &TypeDesc, size: u32| CbufferDesc {
        name: "Params".into(),
        kind: 0,
        size: 16,
        flags: 0,
        variables: vec![CbVariable {
            name: "a".into(),
            offset,
            size,
            flags: 2,
            ty: ty.clone(),
        }],
    };
    let fields = |v: &str| -> toml::Table { format!("a = {v}").parse().unwrap() };
    let e = sm5sim::cbuffer::pack_fields(&fields("[5.0, 6.0]"), &cb(4294967280, &double, 24), 4)
        .unwrap_err();
    assert!(
        e.message
            .contains("lies past the end of the 16-byte buffer"),
        "{e:?}"
    );
    let e = sm5sim::cbuffer::pack_fields(&fields("1.0"), &cb(2, &float, 4), 4).unwrap_err();
    assert!(e.message.contains("not on a 32-bit word"), "{e:?}");
    let e = sm5sim::cbuffer::pack_fields(&fields("1e300"), &cb(0, &float, 4), 4).unwrap_err();
    assert!(e.message.contains("within float's range"), "{e:?}");
}
