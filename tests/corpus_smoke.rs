//! Every corpus shader, dispatched once with every declared buffer
//! zero-filled and every declared texture a synthetic one of a plausible
//! size (mip chain, slices, samples; zeroed, then filled with a pattern) and
//! the default sampler: it must finish without a panic (the corpus README's
//! smoke run; issue 5's "runs to completion on synthetic resources").

use sm5sim::sim_core::program::{BufferDeclKind, TextureDecl};
use sm5sim::sim_core::{LoadOptions, Program};
use sm5sim::sim_mem::{
    Bindings, Buffer, BufferView, Format, SamplerDesc, Texture, TextureDesc, TextureView,
    ViewDimension, ViewRange,
};
use sm5sim::sim_sched::{dispatch, DispatchOptions};
use std::path::{Path, PathBuf};

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

/// A texture for a declaration: 64×64 (3D: 16³), a full mip chain for SRVs,
/// 4 slices for arrays (cubes: 6 or 12), 4 samples for MS.
fn texture_for(d: &TextureDecl, uav: bool) -> Texture {
    use sm5sim::sim_mem::TextureDimension as T;
    let format = match (d.return_types[0], uav) {
        (3, _) => Format::R32_SINT,
        (4, _) => Format::R32_UINT,
        (1, true) => Format::R8G8B8A8_UNORM,
        (2, true) => Format::R8G8B8A8_SNORM,
        _ => Format::R32G32B32A32_FLOAT,
    };
    let dim = d.dimension;
    let (dimension, height, depth) = match dim.resource_dimension() {
        T::Texture1D => (T::Texture1D, 1, 1),
        T::Texture2D => (T::Texture2D, 64, 1),
        T::Texture3D => (T::Texture3D, 16, 16),
    };
    let array_size = match dim {
        ViewDimension::TextureCube => 6,
        ViewDimension::TextureCubeArray => 12,
        _ if dim.is_array() => 4,
        _ => 1,
    };
    let ms = dim.is_multisampled();
    Texture::new(TextureDesc {
        dimension,
        format,
        width: if dimension == T::Texture3D { 16 } else { 64 },
        height,
        depth,
        array_size,
        mip_levels: if ms || uav { 1 } else { 0 },
        sample_count: if ms { d.sample_count.max(4) } else { 1 },
    })
    .unwrap()
}

fn corpus_shaders() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
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

/// Run `p` once on synthetic resources whose words are all `fill`.
fn smoke(p: &Program, fill: u32, f: &Path) {
    let n = |decls: &[sm5sim::sim_core::program::BufferDecl]| {
        decls.iter().map(|d| d.slot + 1).max().unwrap_or(0) as usize
    };
    let nt = |decls: &[TextureDecl]| decls.iter().map(|d| d.slot + 1).max().unwrap_or(0) as usize;
    let buf = || Buffer::from_words(&vec![fill; 1 << 14]);
    let srv_bufs: Vec<Buffer> = (0..n(&p.srvs)).map(|_| buf()).collect();
    let uav_bufs: Vec<Buffer> = (0..n(&p.uavs)).map(|_| buf()).collect();
    let srv_tex: Vec<Option<Texture>> = (0..nt(&p.srv_textures))
        .map(|s| p.srv_texture(s as u32).map(|d| texture_for(d, false)))
        .collect();
    let uav_tex: Vec<Option<Texture>> = (0..nt(&p.uav_textures))
        .map(|s| p.uav_texture(s as u32).map(|d| texture_for(d, true)))
        .collect();
    for t in srv_tex.iter().chain(&uav_tex).flatten() {
        let words = vec![fill; t.data().len_words()];
        t.data().write_words(0, &words).unwrap();
    }
    let cbs: Vec<Vec<u32>> = (0..15).map(|_| vec![fill; 4096 * 4]).collect();
    let mut b = Bindings {
        constant_buffers: cbs.iter().map(|c| Some(&c[..])).collect(),
        srvs: vec![None; srv_bufs.len()],
        uavs: vec![None; uav_bufs.len()],
        srv_textures: vec![None; srv_tex.len()],
        uav_textures: vec![None; uav_tex.len()],
        samplers: vec![Some(SamplerDesc::default()); 16],
    };
    for d in &p.srvs {
        b.srvs[d.slot as usize] = Some(view(&srv_bufs[d.slot as usize], d.kind));
    }
    for d in &p.uavs {
        b.uavs[d.slot as usize] = Some(view(&uav_bufs[d.slot as usize], d.kind));
    }
    for d in &p.srv_textures {
        let t = srv_tex[d.slot as usize].as_ref().unwrap();
        b.srv_textures[d.slot as usize] =
            Some(TextureView::srv(t, d.dimension, t.desc().format, ViewRange::default()).unwrap());
    }
    for d in &p.uav_textures {
        let t = uav_tex[d.slot as usize].as_ref().unwrap();
        b.uav_textures[d.slot as usize] =
            Some(TextureView::uav(t, d.dimension, t.desc().format, ViewRange::default()).unwrap());
    }
    let stats = dispatch(
        p,
        &b,
        [1, 1, 1],
        &DispatchOptions {
            threads: 1,
            warp_width: 32,
            max_warp_instructions: 50_000_000,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{} (fill {fill:#x}): {e}", f.display()));
    assert_eq!(stats.groups, 1);
}

#[test]
fn every_corpus_shader_runs_on_synthetic_resources() {
    let mut ran = 0;
    let mut with_textures = 0;
    for f in corpus_shaders() {
        let p = Program::from_dxbc(&std::fs::read(&f).unwrap(), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        with_textures += usize::from(!p.srv_textures.is_empty() || !p.uav_textures.is_empty());
        smoke(&p, 0, &f);
        ran += 1;
    }
    println!("{ran} corpus shaders ran, {with_textures} of them with textures");
    assert_eq!(ran, 131);
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
