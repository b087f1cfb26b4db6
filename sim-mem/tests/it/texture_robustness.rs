//! Whatever a shader passes — NaN, ±INF, huge or negative coordinates, LODs,
//! offsets, mips, slices and samples — texture loads, stores, atomics,
//! queries and sampling never panic on any view dimension or format, and out
//! of range loads return the documented out-of-range value.

use sim_mem::sampling::{gather, sample, sample_position, Lod};
use sim_mem::{
    AddressMode, AtomicOp, ComparisonFunc, Filter, Format, SamplerDesc, Texture, TextureDesc,
    TextureDimension, TextureView, ViewDimension, ViewRange,
};

/// xorshift64*: deterministic inputs without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn f32(&mut self) -> f32 {
        const SPECIAL: [f32; 10] = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1.0,
            -1.0,
            1e30,
            -1e30,
            f32::MIN_POSITIVE / 4.0,
        ];
        match self.next() % 4 {
            0 => SPECIAL[(self.next() % SPECIAL.len() as u64) as usize],
            1 => f32::from_bits(self.next() as u32),
            _ => (self.next() % 2000) as f32 / 100.0 - 10.0,
        }
    }
    fn u32(&mut self) -> u32 {
        match self.next() % 3 {
            0 => self.next() as u32,
            _ => (self.next() % 20) as u32,
        }
    }
}

fn textures() -> Vec<(Texture, ViewDimension)> {
    use ViewDimension::*;
    let mut out = Vec::new();
    let desc = |dimension, format, width, height, depth, array_size, mips, samples| TextureDesc {
        dimension,
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels: mips,
        sample_count: samples,
    };
    for format in [
        Format::R32G32B32A32_FLOAT,
        Format::R8G8B8A8_UNORM_SRGB,
        Format::R32_UINT,
        Format::R16G16_SNORM,
        Format::R9G9B9E5_SHAREDEXP,
        Format::BC1_UNORM,
        Format::BC6H_SF16,
        Format::BC7_UNORM,
        Format::R24_UNORM_X8_TYPELESS,
        Format::R8G8_B8G8_UNORM,
    ] {
        let bc = format.block_size() != [1, 1];
        if !bc {
            let t =
                Texture::new(desc(TextureDimension::Texture1D, format, 7, 1, 1, 3, 0, 1)).unwrap();
            let t2 =
                Texture::new(desc(TextureDimension::Texture1D, format, 7, 1, 1, 3, 0, 1)).unwrap();
            out.push((t, Texture1D));
            out.push((t2, Texture1DArray));
            let ms =
                Texture::new(desc(TextureDimension::Texture2D, format, 5, 3, 1, 2, 1, 4)).unwrap();
            out.push((ms, Texture2DMSArray));
        }
        for dim in [Texture2D, Texture2DArray, TextureCube, TextureCubeArray] {
            let slices = match dim {
                TextureCube => 6,
                TextureCubeArray => 12,
                _ => 3,
            };
            let t = Texture::new(desc(
                TextureDimension::Texture2D,
                format,
                8,
                8,
                1,
                slices,
                0,
                1,
            ))
            .unwrap();
            out.push((t, dim));
        }
        let t3 = Texture::new(desc(TextureDimension::Texture3D, format, 8, 4, 5, 1, 0, 1)).unwrap();
        out.push((t3, Texture3D));
    }
    // fill every texture with noise so decoders see arbitrary bits
    let mut rng = Rng(99);
    for (t, _) in &out {
        let words: Vec<u32> = (0..t.data().len_words())
            .map(|_| rng.next() as u32)
            .collect();
        t.data().write_words(0, &words).unwrap();
    }
    out
}

fn sampler(rng: &mut Rng) -> SamplerDesc {
    let filter = loop {
        if let Some(f) = Filter::from_d3d11((rng.next() % 0x200) as u32) {
            break f;
        }
    };
    let mode = |r: &mut Rng| AddressMode::ALL[(r.next() % 5) as usize];
    SamplerDesc {
        filter,
        address: [mode(rng), mode(rng), mode(rng)],
        mip_lod_bias: (rng.next() % 32) as f32 - 16.0,
        max_anisotropy: 1 + (rng.next() % 16) as u32,
        comparison: ComparisonFunc::ALL[(rng.next() % 8) as usize],
        border_color: [rng.f32(), rng.f32(), rng.f32(), rng.f32()],
        min_lod: if rng.next().is_multiple_of(2) {
            -f32::MAX
        } else {
            1.0
        },
        max_lod: if rng.next().is_multiple_of(2) {
            f32::MAX
        } else {
            1.5
        },
    }
}

#[test]
fn texture_operations_never_panic_on_any_input() {
    let mut rng = Rng(0x5eed);
    let textures = textures();
    let mut n = 0;
    for (t, dim) in &textures {
        let format = t.desc().format;
        let srv = TextureView::srv(t, *dim, format, ViewRange::default()).unwrap();
        let uav = (dim.allowed_for_uav() && format.uav_storable())
            .then(|| TextureView::uav(t, *dim, format, ViewRange::default()).unwrap());
        for _ in 0..1500 {
            let c = [rng.f32(), rng.f32(), rng.f32(), rng.f32()];
            let a = [rng.u32(), rng.u32(), rng.u32()];
            let off = [
                (rng.next() % 64) as i32 - 32,
                (rng.next() % 64) as i32 - 32,
                (rng.next() % 16) as i32 - 8,
            ];
            let s = sampler(&mut rng);
            let lod = match rng.next() % 3 {
                0 => Lod::Explicit(rng.f32()),
                1 => Lod::Zero,
                _ => Lod::Gradients {
                    ddx: [rng.f32(), rng.f32(), rng.f32()],
                    ddy: [rng.f32(), rng.f32(), rng.f32()],
                },
            };
            let reference = rng.next().is_multiple_of(2).then(|| rng.f32());
            let _ = srv.load(a, rng.u32(), rng.u32());
            let _ = srv.resinfo(rng.u32());
            if !dim.is_multisampled() {
                let _ = sample(&srv, &s, c, lod, off, reference);
                let _ = gather(
                    &srv,
                    &s,
                    c,
                    [off[0], off[1]],
                    (rng.next() % 4) as usize,
                    reference,
                );
            }
            let _ = sample_position(rng.u32(), rng.u32());
            if let Some(u) = &uav {
                u.store(
                    a,
                    [rng.next() as u32, rng.next() as u32, rng.next() as u32, 0],
                );
                let _ = u.load(a, 0, 0);
                let _ = u.atomic(a, AtomicOp::Add(1));
            }
            n += 1;
        }
    }
    assert!(n > 10_000, "{n}");
}

#[test]
fn out_of_range_loads_return_zero_and_default_alpha() {
    // FS §22.4.6: 0 in the format's channels, 1 in a missing alpha
    let t = Texture::new(TextureDesc::texture2d(Format::R32_FLOAT, 4, 4)).unwrap();
    let v = TextureView::srv(
        &t,
        ViewDimension::Texture2D,
        Format::R32_FLOAT,
        ViewRange::default(),
    )
    .unwrap();
    let one = 1.0f32.to_bits();
    for (addr, mip) in [
        ([4, 0, 0], 0),
        ([0, 4, 0], 0),
        ([u32::MAX, 0, 0], 0),
        ([0, 0, 0], 1),
    ] {
        assert_eq!(v.load(addr, mip, 0), [0, 0, 0, one], "{addr:?} mip {mip}");
    }
    let t = Texture::new(TextureDesc::texture2d(Format::R32_UINT, 4, 4)).unwrap();
    let v = TextureView::srv(
        &t,
        ViewDimension::Texture2D,
        Format::R32_UINT,
        ViewRange::default(),
    )
    .unwrap();
    assert_eq!(
        v.load([9, 9, 0], 0, 0),
        [0, 0, 0, 1],
        "integer alpha default is 1"
    );
}

#[test]
fn subsampled_texels_share_r_and_b_of_their_pair() {
    // FS §19.4: a 2×1 block R, G0, B, G1 (R8G8_B8G8_UNORM); width 3 needs two blocks
    let t = Texture::new(TextureDesc::texture2d(Format::R8G8_B8G8_UNORM, 3, 1)).unwrap();
    t.write_subresource(0, 0, &[255, 0, 0, 255, 0, 51, 255, 102])
        .unwrap();
    let v = TextureView::srv(
        &t,
        ViewDimension::Texture2D,
        Format::R8G8_B8G8_UNORM,
        ViewRange::default(),
    )
    .unwrap();
    let u = |n: u32| (n as f32 / 255.0).to_bits();
    let one = 1.0f32.to_bits();
    assert_eq!(v.load([0, 0, 0], 0, 0), [one, 0, 0, one]);
    assert_eq!(v.load([1, 0, 0], 0, 0), [one, one, 0, one]);
    assert_eq!(v.load([2, 0, 0], 0, 0), [0, u(51), one, one]);
    // x = 3 is in the second block but outside the 3-texel width
    assert_eq!(v.load([3, 0, 0], 0, 0), [0, 0, 0, one]);
}

/// `UavTexels::address` inverts `TextureView::uav_element` for every texel
/// of 1D, 1D array, 2D, 2D array (a range of slices) and 3D (a W range)
/// UAV views of mip 1 of a three-mip texture, and `describe` names the
/// texel as the shader addressed it; addresses outside the view have no
/// element.
#[test]
fn uav_texels_invert_uav_elements() {
    let cases = [
        (
            TextureDimension::Texture1D,
            ViewDimension::Texture1D,
            [16, 1, 1],
            1,
            ViewRange::default(),
        ),
        (
            TextureDimension::Texture1D,
            ViewDimension::Texture1DArray,
            [16, 1, 1],
            3,
            ViewRange::default(),
        ),
        (
            TextureDimension::Texture2D,
            ViewDimension::Texture2D,
            [16, 8, 1],
            1,
            ViewRange::default(),
        ),
        (
            TextureDimension::Texture2D,
            ViewDimension::Texture2DArray,
            [16, 8, 1],
            4,
            ViewRange {
                first_slice: 1,
                slice_count: Some(2),
                ..ViewRange::default()
            },
        ),
        (
            TextureDimension::Texture3D,
            ViewDimension::Texture3D,
            [16, 8, 8],
            1,
            ViewRange {
                first_slice: 1,
                slice_count: Some(2),
                ..ViewRange::default()
            },
        ),
    ];
    for (dim, view_dim, [w, h, d], slices, range) in cases {
        let t = Texture::new(TextureDesc {
            dimension: dim,
            format: Format::R32G32_UINT,
            width: w,
            height: h,
            depth: d,
            array_size: slices,
            mip_levels: 3,
            sample_count: 1,
        })
        .unwrap();
        let v = TextureView::uav(
            &t,
            view_dim,
            Format::R32G32_UINT,
            ViewRange {
                first_mip: 1,
                ..range
            },
        )
        .unwrap();
        let texels = v.uav_texels();
        let [mw, mh, md] = v.level_size(0);
        let (ny, nz) = match view_dim {
            ViewDimension::Texture1D => (1, 1),
            ViewDimension::Texture1DArray => (v.slice_count(), 1),
            ViewDimension::Texture3D => (mh, v.slice_count()),
            ViewDimension::Texture2DArray => (mh, v.slice_count()),
            _ => (mh, 1),
        };
        let _ = md;
        let mut seen = std::collections::HashSet::new();
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..mw {
                    let e = v.uav_element([x, y, z]).unwrap();
                    assert!(
                        seen.insert(e),
                        "{view_dim:?} ({x}, {y}, {z}) shares element {e}"
                    );
                    assert_eq!(
                        texels.address(e),
                        Some([x, y, z]),
                        "{view_dim:?} element {e}"
                    );
                }
            }
        }
        assert_eq!(v.uav_element([mw, 0, 0]), None);
        let e = v.uav_element([1, 0, 0]).unwrap();
        let name = texels.describe(e).unwrap();
        assert!(name.starts_with("(1") && name.ends_with(" mip 1"), "{name}");
    }
    // outside every slice of the view: no address
    let t = Texture::new(TextureDesc::texture2d(Format::R32_UINT, 4, 4)).unwrap();
    let v = TextureView::uav(
        &t,
        ViewDimension::Texture2D,
        Format::R32_UINT,
        ViewRange::default(),
    )
    .unwrap();
    assert_eq!(v.uav_texels().address(16), None);
    assert_eq!(v.uav_texels().describe(5).as_deref(), Some("(1, 1)"));
}
