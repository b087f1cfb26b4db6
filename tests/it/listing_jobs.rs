//! Jobs that run an fxc listing directly and name its resources by their
//! RDEF names, which come from the listing's comment header
//! (`sim_core::front::listing_reflection`).

use std::path::Path;

use sm5sim::job::{Job, StepReport};
use sm5sim::sim_core::LoadOptions;
use sm5sim::sim_sched::DispatchOptions;

fn examples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
}

/// histogram.asm with resources keyed `keys`, `bins` and `Params` (no
/// slots): the slots and the cbuffer field layout come from the header.
#[test]
fn histogram_listing_resolves_resources_by_name() {
    let base = examples().join("histogram");
    let toml = r#"
shader = "histogram.asm"

[resources.keys]
elements = 4096
init = { random_u32 = { seed = 7 } }

[resources.bins]
elements = 256
init = { fill_u32 = 0 }

[resources.Params]
init = { fields = { key_count = 4000 } }

[[steps]]
dispatch = [16, 1, 1]

[[steps]]
expect = { resource = "bins", sum_u32 = 4000 }
"#;
    let job = Job::from_toml(
        toml,
        &base.join("listing_job.toml"),
        &base,
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let keys = job.resource("keys").expect("keys");
    assert_eq!(keys.slot.to_string(), "t0");
    assert_eq!(job.resource("bins").expect("bins").slot.to_string(), "u0");
    assert_eq!(
        job.resource("Params").expect("Params").slot.to_string(),
        "cb0"
    );
    let reports = job
        .run(&DispatchOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut expectations = 0;
    for r in &reports {
        if let StepReport::Expect {
            what, mismatches, ..
        } = r
        {
            assert_eq!(*mismatches, 0, "{what}");
            expectations += 1;
        }
    }
    assert_eq!(expectations, 1);
}

/// The same names that resolve for the listing resolve for the bytecode,
/// to the same slots.
#[test]
fn listing_and_bytecode_bind_the_same_slots() {
    let base = examples().join("histogram");
    let job_for = |shader: &str| {
        let toml = format!(
            r#"
shader = "{shader}"
[resources.keys]
elements = 16
init = {{ fill_u32 = 3 }}
[resources.bins]
elements = 256
init = {{ fill_u32 = 0 }}
[resources.Params]
init = {{ fields = {{ key_count = 16 }} }}
[[steps]]
dispatch = [1, 1, 1]
[[steps]]
expect = {{ resource = "bins", sum_u32 = 16 }}
"#
        );
        Job::from_toml(&toml, &base.join("x.toml"), &base, &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{shader}: {e}"))
    };
    let listing = job_for("histogram.asm");
    let bytecode = job_for("histogram.dxbc");
    for name in ["keys", "bins", "Params"] {
        assert_eq!(
            listing.resource(name).map(|r| r.slot.to_string()),
            bytecode.resource(name).map(|r| r.slot.to_string()),
            "{name}"
        );
    }
    for job in [&listing, &bytecode] {
        for r in job.run(&DispatchOptions::default()).unwrap() {
            if let StepReport::Expect {
                what, mismatches, ..
            } = r
            {
                assert_eq!(mismatches, 0, "{what}");
            }
        }
    }
}
