//! Every corpus shader that the executor can run, dispatched once with every
//! declared buffer zero-filled: it must finish without a panic (the corpus
//! README's smoke run). Zero inputs make every loop in these shaders bounded.

use sm5sim::sim_core::program::BufferDeclKind;
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{Bindings, Buffer, BufferView, Format};
use sm5sim::sim_sched::{dispatch, DispatchOptions};
use std::path::Path;

fn view(b: &Buffer, kind: BufferDeclKind) -> BufferView<'_> {
    match kind {
        BufferDeclKind::Raw => BufferView::raw(b),
        BufferDeclKind::Structured { stride } => BufferView::structured(b, stride).unwrap(),
        BufferDeclKind::Typed { return_types } => BufferView::typed(
            b,
            match return_types[0] {
                3 => Format::R32_SINT,
                4 => Format::R32_UINT,
                _ => Format::R32G32B32A32_FLOAT,
            },
        ),
    }
}

#[test]
fn runnable_corpus_shaders_run_on_zeroed_resources() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let mut ran = 0;
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|e| e != "dxbc") {
                continue;
            }
            let Ok(p) = Program::from_dxbc(&std::fs::read(&f).unwrap(), &LoadOptions::default())
            else {
                continue; // textures etc.: reported by `sm5sim info`, not run here
            };
            let n = |decls: &[sm5sim::sim_core::program::BufferDecl]| {
                decls.iter().map(|d| d.slot + 1).max().unwrap_or(0) as usize
            };
            let srv_bufs: Vec<Buffer> = (0..n(&p.srvs))
                .map(|_| Buffer::zeroed(1 << 16).unwrap())
                .collect();
            let uav_bufs: Vec<Buffer> = (0..n(&p.uavs))
                .map(|_| Buffer::zeroed(1 << 16).unwrap())
                .collect();
            let cbs: Vec<Vec<u32>> = (0..15).map(|_| vec![0u32; 4096 * 4]).collect();
            let mut b = Bindings {
                constant_buffers: cbs.iter().map(|c| Some(&c[..])).collect(),
                srvs: vec![None; srv_bufs.len()],
                uavs: vec![None; uav_bufs.len()],
            };
            for d in &p.srvs {
                b.srvs[d.slot as usize] = Some(view(&srv_bufs[d.slot as usize], d.kind));
            }
            for d in &p.uavs {
                b.uavs[d.slot as usize] = Some(view(&uav_bufs[d.slot as usize], d.kind));
            }
            let stats = dispatch(
                &p,
                &b,
                [1, 1, 1],
                &DispatchOptions {
                    threads: 1,
                    warp_width: 32,
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(stats.groups, 1);
            ran += 1;
        }
    }
    println!("{ran} corpus shaders ran");
    assert!(ran >= 90, "{ran}");
}

/// What `sm5sim info` reports as not runnable in the corpus is texture work
/// only: every other instruction of every corpus shader executes.
#[test]
fn only_texture_work_is_unsupported_in_the_corpus() {
    use sm5sim::sim_core::LoadError;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut with_textures = 0;
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&sub).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|e| e != "dxbc") {
                continue;
            }
            let (decoded, refl) = Program::decode_with_reflection(
                &std::fs::read(&f).unwrap(),
                &LoadOptions::default(),
            )
            .unwrap();
            let unsupported =
                Program::survey(&decoded, refl).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            for e in &unsupported {
                let LoadError::Unsupported {
                    mnemonic,
                    token,
                    what,
                } = e
                else {
                    unreachable!()
                };
                assert!(
                    what.contains("texture"),
                    "{}: {mnemonic} at dword {token} is unsupported and not texture work: {what}",
                    f.display()
                );
            }
            with_textures += usize::from(!unsupported.is_empty());
        }
    }
    assert_eq!(with_textures, 41, "corpus shaders that need textures");
}
