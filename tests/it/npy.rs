//! NumPy in and out (`sm5sim::npy`): every kind of resource dumps to `.npy`
//! and reads back through `init = { file = "….npy" }` bit for bit (dump →
//! init → dump gives the same file), `expect` compares against a `.npy`,
//! dumps take their dtype from RDEF, and a file of the wrong dtype or shape
//! is refused with the expected and the given.

use sm5sim::job::Job;
use sm5sim::npy;
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("npy")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn load(dir: &Path, text: &str) -> Result<Job, String> {
    Job::from_toml(text, &dir.join("job.toml"), dir, &LoadOptions::default())
        .map_err(|e| e.to_string())
}

/// Run `text` (data files in `dir`), dump resource `name` to `file`.
fn run_and_dump(dir: &Path, text: &str, name: &str, file: &Path) -> Vec<u8> {
    let job = load(dir, text).unwrap();
    let reports = job.run(&DispatchOptions::default()).unwrap();
    assert!(reports.iter().all(|r| r.passed()), "{reports:?}");
    let (layout, data) = npy::dump(&job.resource(name).unwrap().npy(), job.program()).unwrap();
    let bytes = npy::encode(&layout, &data);
    std::fs::write(file, &bytes).unwrap();
    bytes
}

/// Dump `name` after `text` runs, load a job whose `name` is initialised from
/// that file (and expected to equal it), dump again: the same bytes.
fn round_trip(dir: &Path, text: &str, name: &str, init_line: &str) -> npy::NpyLayout {
    let out = scratch(&format!(
        "{}_{name}",
        dir.file_name().unwrap().to_string_lossy()
    ));
    let first = out.join("first.npy");
    let bytes = run_and_dump(dir, text, name, &first);
    // the same job without its steps, `name` initialised from the dump
    let header = text.split("[[steps]]").next().unwrap();
    let section = header.find(&format!("[resources.{name}]")).unwrap();
    let at = section + header[section..].find(init_line).unwrap();
    let again = format!(
        "{}init = {{ file = \"{}\" }}{}",
        &header[..at],
        first.display(),
        &header[at + init_line.len()..]
    ) + &format!(
        "[[steps]]\nexpect = {{ resource = \"{name}\", file = \"{}\" }}\n",
        first.display()
    );
    let second = out.join("second.npy");
    let bytes2 = run_and_dump(dir, &again, name, &second);
    assert_eq!(bytes, bytes2, "{name}: dump → init → dump");
    npy::read(&first).unwrap().layout
}

#[test]
fn raw_structured_typed_and_texture_dumps_round_trip_bit_for_bit() {
    // raw: the histogram's bins
    let dir = root().join("examples/histogram");
    let text = "shader = \"histogram.dxbc\"
[resources.keys]
init = { random_u32 = { seed = 3 }, }
elements = 1000
[resources.bins]
elements = 256
init = { fill_u32 = 0 }
[resources.Params]
init = { fields = { key_count = 1000 } }
[[steps]]
dispatch = [4, 1, 1]
";
    let text = text.replace(
        "init = { random_u32 = { seed = 3 }, }",
        "init = { random_u32 = { seed = 3 } }",
    );
    let l = round_trip(&dir, &text, "bins", "init = { fill_u32 = 0 }");
    assert_eq!(
        (l.descr.as_str(), l.shape.as_slice()),
        ("<u4", &[256u64][..])
    );

    // structured: saxpy's y, float4 structures, RDEF says float
    let dir = root().join("examples/saxpy_structured");
    let text = "shader = \"saxpy_structured.dxbc\"
[resources.x]
elements = 8
init = { iota_f32 = { start = 0.5, step = 1.25 } }
[resources.y]
elements = 8
init = { fill_f32 = -1.5 }
[resources.Params]
init = { fields = { a = 3, element_count = 8 } }
[[steps]]
dispatch = [1, 1, 1]
";
    let l = round_trip(&dir, text, "y", "init = { fill_f32 = -1.5 }");
    assert_eq!(
        (l.descr.as_str(), l.shape.as_slice()),
        ("<f4", &[8u64, 4][..])
    );

    // typed: R8G8B8A8_UNORM (float32 values), R16G16_SINT (int32) and R32_UINT
    let dir = root().join("tests/conformance/typed_buffers");
    let text = std::fs::read_to_string(dir.join("typed_buffers.toml")).unwrap();
    let text =
        text.split("[[steps]]").next().unwrap().to_string() + "[[steps]]\ndispatch = [1, 1, 1]\n";
    let l = round_trip(&dir, &text, "dst", "init = { fill_u32 = 0x12345678 }");
    assert_eq!(
        (l.descr.as_str(), l.shape.as_slice()),
        ("<f4", &[4u64, 4][..])
    );
    let narrow_init = text
        .split("[resources.narrow]")
        .nth(1)
        .and_then(|t| t.lines().find(|l| l.starts_with("init")))
        .unwrap()
        .to_string();
    let l = round_trip(&dir, &text, "narrow", &narrow_init);
    assert_eq!(
        (l.descr.as_str(), l.shape.as_slice()),
        ("<i4", &[4u64, 2][..])
    );

    // texture: an RGBA8 UAV texture, [height, width, 4] bytes
    let dir = root().join("tests/texture_jobs");
    let text = std::fs::read_to_string(dir.join("ld_copy.toml")).unwrap();
    let text = text.replace(
        "[resources.dst]                  # u0\nformat = \"R8G8B8A8_UNORM\"\nwidth = 16\nheight = 16\n",
        "[resources.dst]\nformat = \"R8G8B8A8_UNORM\"\nwidth = 16\nheight = 16\ninit = { fill_texel = [0.0, 0.0, 0.0, 1.0] }\n",
    );
    let text =
        text.split("[[steps]]").next().unwrap().to_string() + "[[steps]]\ndispatch = [2, 2, 1]\n";
    let l = round_trip(
        &dir,
        &text,
        "dst",
        "init = { fill_texel = [0.0, 0.0, 0.0, 1.0] }",
    );
    assert_eq!(
        (l.descr.as_str(), l.shape.as_slice()),
        ("|u1", &[16u64, 16, 4][..])
    );
}

#[test]
fn a_npy_file_sizes_the_buffer_it_initialises() {
    // `init = { file = "x.npy" }` without elements: the file gives the size
    let out = scratch("sizes");
    let values: Vec<u8> = (0..40u32).flat_map(|v| (v as f32).to_le_bytes()).collect();
    let file = out.join("x.npy");
    let layout = npy::NpyLayout {
        descr: "<f4".into(),
        shape: vec![10, 4],
    };
    std::fs::write(&file, npy::encode(&layout, &values)).unwrap();
    let dir = root().join("examples/saxpy_structured");
    let text = format!(
        "shader = \"saxpy_structured.dxbc\"
[resources.x]
init = {{ file = \"{}\" }}
[resources.y]
elements = 10
init = {{ fill_f32 = 0.0 }}
[resources.Params]
init = {{ fields = {{ a = 1, element_count = 10 }} }}
[[steps]]
dispatch = [1, 1, 1]
[[steps]]
expect = {{ resource = \"y\", iota_f32 = {{ start = 0.0, step = 1.0 }} }}
",
        file.display()
    );
    let job = load(&dir, &text).unwrap();
    assert_eq!(job.resource("x").unwrap().data().len_bytes(), 160);
    let reports = job.run(&DispatchOptions::default()).unwrap();
    assert!(reports.iter().all(|r| r.passed()), "{reports:?}");
}

#[test]
fn a_npy_file_of_the_wrong_dtype_or_shape_is_refused() {
    let out = scratch("refused");
    let write = |name: &str, descr: &str, shape: &[u64], item: usize| {
        let n: u64 = shape.iter().product();
        let p = out.join(name);
        let layout = npy::NpyLayout {
            descr: descr.into(),
            shape: shape.to_vec(),
        };
        std::fs::write(&p, npy::encode(&layout, &vec![0u8; n as usize * item])).unwrap();
        p
    };
    let saxpy = root().join("examples/saxpy_structured");
    let job = |x_init: &str| {
        format!(
            "shader = \"saxpy_structured.dxbc\"
[resources.x]
elements = 4
init = {x_init}
[resources.y]
elements = 4
[resources.Params]
init = {{ fields = {{ a = 1, element_count = 4 }} }}
"
        )
    };
    let cases = [
        // structured float4: int32 is not the RDEF type
        (
            write("i4.npy", "<i4", &[4, 4], 4),
            "'x' takes float32 [4, 4], or [4] of a structured dtype of 16 bytes made of 4-byte fields; the file holds int32 [4, 4]",
        ),
        // the wrong shape
        (
            write("f4_3.npy", "<f4", &[4, 3], 4),
            "the file holds float32 [4, 3]",
        ),
        // doubles
        (
            write("f8.npy", "<f8", &[4, 4], 8),
            "the file holds float64 [4, 4]",
        ),
    ];
    for (file, message) in &cases {
        let text = job(&format!("{{ file = \"{}\" }}", file.display()));
        let e = load(&saxpy, &text).unwrap_err();
        assert!(
            e.contains("resources.x.init") && e.contains(message),
            "{}: {e}",
            file.display()
        );
    }
    // a structured dtype of the stride is taken: [('p', '<f4', (4,))]
    let rec = out.join("rec.npy");
    let layout = npy::NpyLayout {
        descr: "[('p', '<f4', (4,))]".into(),
        shape: vec![4],
    };
    std::fs::write(&rec, npy::encode(&layout, &[0u8; 64])).unwrap();
    assert!(load(&saxpy, &job(&format!("{{ file = \"{}\" }}", rec.display()))).is_ok());

    // raw: the count of words
    let hist = root().join("examples/histogram");
    let short = write("short.npy", "<u4", &[255], 4);
    let text = format!(
        "shader = \"histogram.dxbc\"
[resources.keys]
elements = 4
[resources.bins]
elements = 256
init = {{ file = \"{}\" }}
[resources.Params]
init = {{ fields = {{ key_count = 4 }} }}
",
        short.display()
    );
    let e = load(&hist, &text).unwrap_err();
    assert!(
        e.contains("resources.bins.init")
            && e.contains("'bins' takes 256 32-bit values (uint32, int32 or float32), such as uint32 [256]; the file holds uint32 [255]"),
        "{e}"
    );

    // texture: [height, width, channels] of the channel dtype
    let tex = root().join("tests/texture_jobs");
    let wrong = write("tex.npy", "<f4", &[16, 16, 4], 4);
    let text = std::fs::read_to_string(tex.join("ld_copy.toml"))
        .unwrap()
        .replace(
            "init = { png = \"src16.png\" }",
            &format!("init = {{ file = \"{}\" }}", wrong.display()),
        );
    let e = load(&tex, &text).unwrap_err();
    assert!(
        e.contains("'src' takes uint8 [16, 16, 4] (mip 0); the file holds float32 [16, 16, 4]"),
        "{e}"
    );
    // not a .npy file at all
    let junk = out.join("junk.npy");
    std::fs::write(&junk, b"not numpy").unwrap();
    let e = load(
        &tex,
        &text.replace(&wrong.display().to_string(), &junk.display().to_string()),
    )
    .unwrap_err();
    assert!(e.contains("not a .npy file"), "{e}");
}

#[test]
fn an_expectation_from_a_npy_file_reports_differences() {
    // the histogram's bins against a file of zeros: the bins the keys hit differ
    let out = scratch("expect");
    let zeros = out.join("zeros.npy");
    let layout = npy::NpyLayout {
        descr: "<u4".into(),
        shape: vec![256],
    };
    std::fs::write(&zeros, npy::encode(&layout, &[0u8; 1024])).unwrap();
    let text = format!(
        "shader = \"histogram.dxbc\"
[resources.keys]
init = {{ u32 = [1, 2, 3, 2] }}
[resources.bins]
elements = 256
init = {{ file = \"{0}\" }}
[resources.Params]
init = {{ fields = {{ key_count = 4 }} }}
[[steps]]
dispatch = [1, 1, 1]
[[steps]]
expect = {{ resource = \"bins\", file = \"{0}\" }}
",
        zeros.display()
    );
    let job = load(&root().join("examples/histogram"), &text).unwrap();
    let reports = job.run(&DispatchOptions::default()).unwrap();
    match &reports[1] {
        sm5sim::job::StepReport::Expect {
            mismatches, first, ..
        } => {
            assert_eq!(*mismatches, 3);
            let at: Vec<usize> = first.iter().map(|m| m.index).collect();
            assert_eq!(at, [1, 2, 3]);
            assert_eq!(first[1].got, "2");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_header_whose_shape_outgrows_the_file_is_refused() {
    let out = scratch("huge_shape");
    let p = out.join("huge.npy");
    let layout = npy::NpyLayout {
        descr: "<u4".into(),
        shape: vec![4294967296, 4294967296],
    };
    std::fs::write(&p, npy::encode(&layout, &[0u8; 16])).unwrap();
    let e = npy::read(&p).unwrap_err();
    assert!(e.contains("holds more items than the file's"), "{e}");
    std::fs::write(&p, b"\x93NUMPY\x01\x00\xff\xff").unwrap();
    let e = npy::read(&p).unwrap_err();
    assert!(e.contains("not a .npy file"), "{e}");
}

/// `npy` takes the API's own types: a resource made with
/// `Resource::from_slice`, no job, dumps through the typed view it is given
/// and a `.npy` of that layout reads back into the same words.
#[test]
fn an_api_resource_dumps_and_loads_without_a_job() {
    use sm5sim::api::{Slot, SlotKind, View};
    use sm5sim::sim_mem::Format;
    use sm5sim::{Resource, Shader};

    let shader =
        Shader::load(root().join("examples/saxpy_structured/saxpy_structured.dxbc")).unwrap();
    let values = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let resource = Resource::from_slice(&values).unwrap();
    let target = npy::NpyTarget {
        name: "pairs",
        resource: &resource,
        view: View::Typed(Format::R32G32_FLOAT),
        slot: Slot {
            kind: SlotKind::Uav,
            index: 0,
        },
    };
    let (layout, data) = npy::dump(&target, shader.program()).unwrap();
    assert_eq!(
        (layout.descr.as_str(), layout.shape.as_slice()),
        ("<f4", &[3u64, 2][..])
    );
    let want: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(data, want);

    // and back: the encoded file, read, gives the words
    let dir = scratch("api_resource");
    let file = dir.join("pairs.npy");
    std::fs::write(&file, npy::encode(&layout, &data)).unwrap();
    let arr = npy::read(&file).unwrap();
    let words = npy::buffer_words(&arr, &file, &target, shader.program()).unwrap();
    let want: Vec<u32> = values.iter().map(|v| v.to_bits()).collect();
    assert_eq!(words, want);
}
