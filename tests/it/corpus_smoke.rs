//! Every corpus shader, dispatched once on synthetic resources of plausible
//! sizes ([`sm5sim::smoke`]: buffers, textures with mip chains, slices and
//! samples, default samplers), zero-filled and then pattern-filled: it must
//! run to completion (the corpus README's smoke run; issue 5's "runs to
//! completion on synthetic resources").

use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_sched::{DispatchError, DispatchOptions};
use sm5sim::smoke::{smoke_run, Fill};
use std::path::{Path, PathBuf};

fn corpus_shaders() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let mut out = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "dxbc") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

/// Run `p` once on synthetic resources ([`sm5sim::smoke`]) filled with
/// `fill`; `Ok(false)` when the watchdog stopped it (a loop bounded by the
/// resources' contents), any other failure is an error.
fn smoke(p: &Program, fill: Fill, f: &Path) -> bool {
    let options = DispatchOptions {
        threads: 1,
        warp_width: 32,
        max_warp_instructions: 5_000_000,
        ..Default::default()
    };
    match smoke_run(p, fill, [1, 1, 1], &options) {
        Ok(stats) => {
            assert_eq!(stats.groups, 1);
            true
        }
        Err(DispatchError::Runaway(_)) => false,
        Err(e) => panic!("{} ({fill:?}): {e}", f.display()),
    }
}

#[test]
fn every_corpus_shader_runs_on_synthetic_resources() {
    let mut ran = 0;
    let mut with_textures = 0;
    let mut patterned = 0;
    for f in corpus_shaders() {
        let p = Program::from_dxbc(&std::fs::read(&f).unwrap(), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        with_textures += usize::from(!p.srv_textures.is_empty() || !p.uav_textures.is_empty());
        assert!(
            smoke(&p, Fill::Zero, &f),
            "{}: stopped by the watchdog on zeros",
            f.display()
        );
        patterned += usize::from(smoke(&p, Fill::Pattern, &f));
        ran += 1;
    }
    println!(
        "{ran} corpus shaders ran to completion on zeros ({with_textures} with textures), \
         {patterned} also on patterned contents (the rest loop on their contents until the watchdog stops them)"
    );
    assert_eq!(ran, 131);
    assert!(patterned >= 129, "{patterned}");
    assert!(with_textures >= 41, "{with_textures}");
}

/// `sm5sim info` reports nothing unsupported for any corpus shader.
#[test]
fn nothing_in_the_corpus_is_unsupported() {
    for f in corpus_shaders() {
        let (decoded, refl) =
            Program::decode_with_reflection(&std::fs::read(&f).unwrap(), &LoadOptions::default())
                .unwrap();
        let unsupported =
            Program::survey(&decoded, refl).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(unsupported.is_empty(), "{}: {unsupported:?}", f.display());
    }
}
