//! Class linkage (FS §22.7.19): `fcall fp#[i][site]` calls the body that the
//! function table of the class instance bound to the interface slot holds for
//! that call site. The shader: `output[t] = op.apply(t)` with classes Plus7
//! (ft0 → fb0: t + 7) and Twice (ft1 → fb1: t << 1), compiled by fxc.

use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchError, DispatchOptions};
use std::path::Path;

fn program() -> Program {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/families/class_linkage.dxbc");
    Program::from_dxbc(&std::fs::read(p).unwrap(), &LoadOptions::default()).unwrap()
}

fn run(p: &Program, warp_width: usize) -> Result<Vec<u32>, DispatchError> {
    let out = Buffer::zeroed(32).unwrap();
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![],
        uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
        ..Default::default()
    };
    dispatch(
        p,
        &b,
        [1, 1, 1],
        &DispatchOptions {
            threads: 1,
            warp_width,
            ..Default::default()
        },
    )?;
    Ok(out.to_words())
}

#[test]
fn fcall_calls_the_bound_class_method() {
    let mut p = program();
    assert_eq!(p.interfaces.len(), 1);
    assert_eq!(p.interfaces[0].tables, vec![0, 1]);
    for w in [1, 8] {
        p.bind_class_instances(&[0]).unwrap();
        assert_eq!(
            run(&p, w).unwrap(),
            (0..8).map(|t| t + 7).collect::<Vec<u32>>(),
            "Plus7"
        );
        p.bind_class_instances(&[1]).unwrap();
        assert_eq!(
            run(&p, w).unwrap(),
            (0..8).map(|t| t << 1).collect::<Vec<u32>>(),
            "Twice"
        );
    }
}

#[test]
fn unbound_or_foreign_instances_are_refused() {
    let mut p = program();
    match run(&p, 8) {
        Err(DispatchError::UnboundInterface { slot: 0 }) => {}
        other => panic!("{other:?}"),
    }
    let e = p.bind_class_instances(&[2]).unwrap_err().to_string();
    assert!(e.contains("ft2 is not a table of fp0"), "{e}");
    let e = p.bind_class_instances(&[0, 1]).unwrap_err().to_string();
    assert!(e.contains("1 interface slots, 2 class instances"), "{e}");
}

#[test]
fn a_job_must_bind_class_instances() {
    use sm5sim::job::Job;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/families");
    let toml = "shader = \"class_linkage.dxbc\"\n[resources.output]\nelements = 8\n[[steps]]\ndispatch = [1, 1, 1]\n";
    let e = Job::from_toml(toml, &dir.join("job.toml"), &dir, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("class_instances") && e.contains("1 interface slot"),
        "{e}"
    );
    let bad = toml.replace("[resources", "class_instances = [5]\n[resources");
    let e = Job::from_toml(&bad, &dir.join("job.toml"), &dir, &LoadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("ft5 is not a table of fp0"), "{e}");
}
