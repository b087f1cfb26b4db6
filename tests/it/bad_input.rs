//! Bad input that the other suites do not already cover, each with the
//! message it gets (`docs/bad-input.md` lists every kind and its
//! test).

use sm5sim::job::Job;
use sm5sim::sim_core::front::container::update_checksum;
use sm5sim::sim_core::{LoadError, LoadOptions, Program};
use std::path::Path;

fn example(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .join(format!("{name}.dxbc"));
    std::fs::read(p).unwrap()
}

fn shex_offset(b: &[u8]) -> usize {
    b.windows(4).position(|w| w == b"SHEX").unwrap() + 8
}

#[test]
fn a_vertex_shader_is_not_run() {
    let mut b = example("histogram");
    let at = shex_offset(&b);
    // version token: program type 1 (vertex) in bits [31:16], SM 5.0
    b[at..at + 4].copy_from_slice(&0x0001_0050u32.to_le_bytes());
    update_checksum(&mut b).unwrap();
    let e = Program::from_dxbc(&b, &LoadOptions::default()).unwrap_err();
    assert!(matches!(e, LoadError::Invalid { .. }), "{e:?}");
    assert!(
        e.to_string().contains("vs_5_0 is not a compute shader"),
        "{e}"
    );
}

#[test]
fn an_instruction_of_another_stage_is_refused() {
    let mut b = example("histogram");
    let at = shex_offset(&b);
    let words: Vec<u32> = b[at..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // Replace the final `ret` (0x0100003e) by `emit` (0x01000013, geometry shaders only).
    let ret = words.iter().rposition(|&w| w == 0x0100_003e).unwrap();
    b[at + 4 * ret..at + 4 * ret + 4].copy_from_slice(&0x0100_0013u32.to_le_bytes());
    update_checksum(&mut b).unwrap();
    let e = Program::from_dxbc(&b, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("emit") && e.contains("not valid in a compute shader"),
        "{e}"
    );
    assert!(e.contains(&format!("dword {ret}")), "{e}");
}

fn job_error(dir: &str, toml: &str) -> String {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    Job::from_toml(toml, &base.join("job.toml"), &base, &LoadOptions::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn a_structured_view_with_the_wrong_stride_is_refused() {
    let e = job_error(
        "examples/saxpy_structured",
        "shader = \"saxpy_structured.dxbc\"\n[resources.x]\nstride = 8\nelements = 4\n",
    );
    assert!(
        e.contains("resources.x.stride")
            && e.contains("stride 8 differs from the shader's declared stride 16"),
        "{e}"
    );
}

#[test]
fn a_typed_format_that_does_not_fit_the_declaration_is_refused() {
    // `counters` is declared (uint,uint,uint,uint): a FLOAT format does not fit.
    let e = job_error(
        "tests/conformance/typed_buffers",
        "shader = \"typed_buffers.dxbc\"\n[resources.counters]\nview = \"typed\"\nformat = \"R32_FLOAT\"\nelements = 2\n",
    );
    assert!(
        e.contains("resources.counters.format") && e.contains("R32_FLOAT does not fit u1"),
        "{e}"
    );
    let e = job_error(
        "tests/conformance/typed_buffers",
        "shader = \"typed_buffers.dxbc\"\n[resources.counters]\nview = \"typed\"\nformat = \"R99_WHAT\"\nelements = 2\n",
    );
    assert!(e.contains("'R99_WHAT' is not a typed-buffer format"), "{e}");
}

#[test]
fn a_zero_dispatch_runs_nothing_and_is_not_an_error() {
    let p = Program::from_dxbc(&example("histogram"), &LoadOptions::default()).unwrap();
    let b = sm5sim::sim_mem::Bindings::default();
    let stats = sm5sim::sim_sched::dispatch(&p, &b, [0, 5, 1], &Default::default()).unwrap();
    assert_eq!(stats.groups, 0);
}

#[test]
fn a_constant_buffer_smaller_than_declared_is_run_with_a_warning() {
    // histogram declares cb0[1] (16 bytes); bind 4.
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/histogram");
    let toml = "shader = \"histogram.dxbc\"\n[resources.keys]\ninit = { u32 = [1, 2] }\n[resources.bins]\nelements = 256\n[resources.Params]\ninit = { u32 = [2] }\n[[steps]]\ndispatch = [1, 1, 1]\n[[steps]]\nexpect = { resource = \"bins\", sum_u32 = 2 }\n";
    let job = Job::from_toml(toml, &base.join("job.toml"), &base, &LoadOptions::default()).unwrap();
    assert_eq!(job.warnings.len(), 1, "{:?}", job.warnings);
    assert!(
        job.warnings[0].contains("4 bytes bound to cb0") && job.warnings[0].contains("16 bytes"),
        "{:?}",
        job.warnings
    );
    let reports = job.run(&Default::default()).unwrap();
    assert!(reports.iter().all(|r| r.passed()));
}

#[test]
fn job_file_errors_point_at_the_line_and_column() {
    let toml = "shader = \"histogram.dxbc\"\n\n[resources.keys]\ninit = { u32 = [1] }\n[resources.bins]\nelements = 256\n[resources.Params]\ninit = { u32 = [1, 0, 0, 0] }\n\n[[steps]]\ndispatch = [1, 1, 1]\n\n[[steps]]\n  expect = { resource = \"nope\", fill_u32 = 0 }\n";
    let e = job_error("examples/histogram", toml);
    assert!(
        e.contains("job.toml:14:3: steps[1].expect: no resource named 'nope'"),
        "{e}"
    );
    assert!(
        e.ends_with("  expect = { resource = \"nope\", fill_u32 = 0 }\n  ^"),
        "{e}"
    );
}
