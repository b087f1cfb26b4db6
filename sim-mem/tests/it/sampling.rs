//! Filtered sampling and gather (`sim_mem::sampling`) against values worked
//! out by hand from the FS §7.18 rules: scale by the mip size (− 0.5 for
//! linear), 8-fraction-bit fixed point rounded to nearest even, floor, address
//! mode per texel, weights in 1/256.

use sim_mem::sampling::{gather, sample, sample_position, Lod};
use sim_mem::{
    AddressMode, ComparisonFunc, Filter, FilterType, Format, Reduction, SamplerDesc, Texture,
    TextureDesc, TextureDimension, TextureView, ViewDimension, ViewRange,
};

// ---------------------------------------------------------------------------
// helpers

fn texture(
    dimension: TextureDimension,
    format: Format,
    [width, height, depth]: [u32; 3],
    array_size: u32,
    mip_levels: u32,
) -> Texture {
    Texture::new(TextureDesc {
        dimension,
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels,
        sample_count: 1,
    })
    .unwrap()
}

/// Fill subresource (mip, slice) of an R32_FLOAT-like texture with `f(x, y, z)`.
fn fill_f32(tex: &Texture, mip: u32, slice: u32, f: impl Fn(u32, u32, u32) -> f32) {
    let [w, h, d] = tex.mip_size(mip);
    let mut bytes = Vec::new();
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                bytes.extend_from_slice(&f(x, y, z).to_le_bytes());
            }
        }
    }
    tex.write_subresource(mip, slice, &bytes).unwrap();
}

fn view(tex: &Texture, dim: ViewDimension) -> TextureView<'_> {
    TextureView::srv(tex, dim, tex.desc().format, ViewRange::default()).unwrap()
}

fn sampler(filter: Filter, mode: AddressMode) -> SamplerDesc {
    SamplerDesc {
        filter,
        address: [mode; 3],
        ..SamplerDesc::default()
    }
}

fn point(mode: AddressMode) -> SamplerDesc {
    sampler(Filter::POINT, mode)
}

fn linear(mode: AddressMode) -> SamplerDesc {
    sampler(Filter::LINEAR, mode)
}

fn f(bits: [u32; 4]) -> [f32; 4] {
    bits.map(f32::from_bits)
}

/// `sample_l` at LOD 0, no offset, no comparison; returns floats.
fn at(v: &TextureView<'_>, s: &SamplerDesc, c: [f32; 4]) -> [f32; 4] {
    f(sample(v, s, c, Lod::Explicit(0.0), [0; 3], None))
}

/// Red channel of [`at`].
fn r(v: &TextureView<'_>, s: &SamplerDesc, c: [f32; 4]) -> f32 {
    at(v, s, c)[0]
}

/// Normalized coordinate of the centre of texel `t` of `n`.
fn centre(t: i32, n: u32) -> f32 {
    (t as f32 + 0.5) / n as f32
}

/// A 4×4 R32_FLOAT texture with texel (x, y) = 10y + x.
fn grid4() -> Texture {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [4, 4, 1],
        1,
        1,
    );
    fill_f32(&t, 0, 0, |x, y, _| (10 * y + x) as f32);
    t
}

// ---------------------------------------------------------------------------
// point and linear sampling (FS §7.18.7, §7.18.8)

#[test]
fn point_sampling_picks_the_floor_texel() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    let s = point(AddressMode::Clamp);
    for y in 0..4 {
        for x in 0..4 {
            let c = [centre(x, 4), centre(y, 4), 0.0, 0.0];
            assert_eq!(r(&v, &s, c), (10 * y + x) as f32);
        }
    }
    // 0.3·4 = 1.2 → texel 1; 0.7·4 = 2.8 → texel 2
    assert_eq!(r(&v, &s, [0.3, 0.7, 0.0, 0.0]), 21.0);
    // missing channels: G = B = 0, A = 1
    assert_eq!(at(&v, &s, [0.3, 0.7, 0.0, 0.0]), [21.0, 0.0, 0.0, 1.0]);
    // 0.24995·4 = 0.9998 → ·256 = 255.95 rounds (RNE) to 256: texel 1, not 0
    assert_eq!(r(&v, &s, [0.24995, 0.0, 0.0, 0.0]), 1.0);
    // 0.2495·4 = 0.998 → 255.49 → 255: texel 0
    assert_eq!(r(&v, &s, [0.2495, 0.0, 0.0, 0.0]), 0.0);
}

#[test]
fn point_sampling_returns_the_texel_bits() {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [2, 1, 1],
        1,
        1,
    );
    let denorm = f32::from_bits(1);
    t.write_subresource(
        0,
        0,
        &[denorm.to_le_bytes(), (-0.0f32).to_le_bytes()].concat(),
    )
    .unwrap();
    let v = view(&t, ViewDimension::Texture2D);
    let s = point(AddressMode::Clamp);
    let c = |u| sample(&v, &s, [u, 0.5, 0.0, 0.0], Lod::Explicit(0.0), [0; 3], None)[0];
    assert_eq!(c(0.25), 1);
    assert_eq!(c(0.75), 0x8000_0000);
}

#[test]
fn linear_sampling_r32_float() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    let s = linear(AddressMode::Clamp);
    // u: 0.375·4 − 0.5 = 1.0 → texel 1, weight 0 on texel 2;
    // v: 0.5·4 − 0.5 = 1.5 → rows 1 and 2, ½ each: ½·11 + ½·21
    assert_eq!(r(&v, &s, [0.375, 0.5, 0.0, 0.0]), 16.0);
    // u: 0.3·4 − 0.5 = 0.7 → ·256 = 179.2 → 179: texels 0 and 1, weights 77/256, 179/256
    // v: 0.6·4 − 0.5 = 1.9 → ·256 = 486.4 → 486 = 1·256 + 230: rows 1 and 2, 26/256, 230/256
    let expected =
        (10.0 * 77.0 * 26.0 + 11.0 * 179.0 * 26.0 + 20.0 * 77.0 * 230.0 + 21.0 * 179.0 * 230.0)
            / 65536.0;
    assert_eq!(expected, 19.0 + 175.0 / 256.0);
    assert_eq!(r(&v, &s, [0.3, 0.6, 0.0, 0.0]), expected);
    // on a texel centre the result is that texel
    assert_eq!(r(&v, &s, [centre(2, 4), centre(3, 4), 0.0, 0.0]), 32.0);
}

#[test]
fn point_and_linear_sampling_rgba8_unorm() {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R8G8B8A8_UNORM,
        [4, 4, 1],
        1,
        1,
    );
    // row 0: (255,0,0,255) (0,255,0,255) (51,102,153,204) (0,0,0,0); other rows 0
    let mut bytes = vec![0u8; 64];
    bytes[..12].copy_from_slice(&[255, 0, 0, 255, 0, 255, 0, 255, 51, 102, 153, 204]);
    t.write_subresource(0, 0, &bytes).unwrap();
    let v = view(&t, ViewDimension::Texture2D);
    let p = point(AddressMode::Clamp);
    assert_eq!(
        at(&v, &p, [centre(0, 4), 0.0, 0.0, 0.0]),
        [1.0, 0.0, 0.0, 1.0]
    );
    // UNORM8 n → n/255: 51/255 = 0.2, 102/255 = 0.4, 153/255 = 0.6, 204/255 = 0.8
    assert_eq!(
        at(&v, &p, [centre(2, 4), centre(0, 4), 0.0, 0.0]),
        [0.2, 0.4, 0.6, 0.8]
    );
    let l = linear(AddressMode::Clamp);
    // u = 0.25: 1 − 0.5 = 0.5 → texels 0, 1 half each; v = 0.125: row 0 only
    assert_eq!(at(&v, &l, [0.25, 0.125, 0.0, 0.0]), [0.5, 0.5, 0.0, 1.0]);
    // u = 0.1875: 0.75 − 0.5 = 0.25 → 192/256 on texel 0, 64/256 on texel 1
    assert_eq!(
        at(&v, &l, [0.1875, 0.125, 0.0, 0.0]),
        [0.75, 0.25, 0.0, 1.0]
    );
    // v = 0.25: rows 0 and 1 half each (row 1 is all 0)
    assert_eq!(at(&v, &l, [0.125, 0.25, 0.0, 0.0]), [0.5, 0.0, 0.0, 0.5]);
}

#[test]
fn linear_3d_and_1d() {
    let t = texture(
        TextureDimension::Texture3D,
        Format::R32_FLOAT,
        [2, 2, 2],
        1,
        1,
    );
    fill_f32(&t, 0, 0, |x, y, z| (100 * z + 10 * y + x) as f32);
    let v = view(&t, ViewDimension::Texture3D);
    // the centre: all 8 texels with weight 1/8 → 50 + 5 + 0.5
    assert_eq!(
        r(&v, &linear(AddressMode::Clamp), [0.5, 0.5, 0.5, 0.0]),
        55.5
    );
    // w = 0.375: 0.75 − 0.5 = 0.25 → z 0 (¾) and 1 (¼); u, v on texel (1, 0)
    assert_eq!(
        r(&v, &linear(AddressMode::Clamp), [0.75, 0.25, 0.375, 0.0]),
        0.75 * 1.0 + 0.25 * 101.0
    );
    assert_eq!(
        r(&v, &point(AddressMode::Clamp), [0.75, 0.75, 0.75, 0.0]),
        111.0
    );

    let t = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        1,
    );
    fill_f32(&t, 0, 0, |x, _, _| (x + 1) as f32);
    let v = view(&t, ViewDimension::Texture1D);
    // .y/.z are ignored for 1D
    assert_eq!(
        r(&v, &linear(AddressMode::Clamp), [0.5, 7.0, -3.0, 9.0]),
        2.5
    );
}

#[test]
fn nan_coordinates_act_as_zero() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    // NaN stays NaN through range reduction and scaling (NaN·4 − 0.5 is NaN);
    // the fixed-point conversion makes it 0: texel 0 with weight 1
    for mode in AddressMode::ALL {
        assert_eq!(
            r(&v, &point(mode), [f32::NAN, centre(2, 4), 0.0, 0.0]),
            20.0
        );
        assert_eq!(
            r(&v, &linear(mode), [f32::NAN, centre(2, 4), 0.0, 0.0]),
            20.0
        );
    }
}

#[test]
fn integer_formats_are_point_sampled() {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_UINT,
        [4, 1, 1],
        1,
        1,
    );
    let words: Vec<u8> = [7u32, 70, 700, 7000]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    t.write_subresource(0, 0, &words).unwrap();
    let v = view(&t, ViewDimension::Texture2D);
    // linear filter, u = 0.3: treated as point → floor(1.2) = 1
    let got = sample(
        &v,
        &linear(AddressMode::Clamp),
        [0.3, 0.5, 0.0, 0.0],
        Lod::Explicit(0.0),
        [0; 3],
        None,
    );
    assert_eq!(got, [70, 0, 0, 1]);
}

// ---------------------------------------------------------------------------
// address modes (FS §7.18.6, §7.18.9, §7.18.9.1)

/// Expected texel index for a point sample at texel `t` of 4 under `mode`
/// (`None` = border), from the FS §7.18.9 pseudocode worked by hand.
fn expected_index(mode: AddressMode, t: i32) -> Option<u32> {
    use AddressMode::*;
    let table: &[(i32, [Option<u32>; 5])] = &[
        //  t    wrap     mirror   clamp    border  mirror_once
        (-1, [Some(3), Some(0), Some(0), None, Some(0)]),
        (-6, [Some(2), Some(2), Some(0), None, Some(3)]),
        (5, [Some(1), Some(2), Some(3), None, Some(3)]),
        (9, [Some(1), Some(1), Some(3), None, Some(3)]),
        (2, [Some(2), Some(2), Some(2), Some(2), Some(2)]),
    ];
    let k = match mode {
        Wrap => 0,
        Mirror => 1,
        Clamp => 2,
        Border => 3,
        MirrorOnce => 4,
    };
    table.iter().find(|(x, _)| *x == t).unwrap().1[k]
}

const BORDER: [f32; 4] = [0.25, 0.5, 0.75, 0.125];

#[test]
fn address_modes_1d() {
    let t = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        1,
    );
    fill_f32(&t, 0, 0, |x, _, _| (x + 1) as f32);
    let v = view(&t, ViewDimension::Texture1D);
    for mode in AddressMode::ALL {
        let s = SamplerDesc {
            border_color: BORDER,
            ..point(mode)
        };
        for texel in [-1, -6, 5, 9, 2] {
            let got = at(&v, &s, [centre(texel, 4), 0.0, 0.0, 0.0]);
            let want = match expected_index(mode, texel) {
                Some(i) => [(i + 1) as f32, 0.0, 0.0, 1.0],
                // R32_FLOAT has only R: the border's R, defaults elsewhere
                None => [0.25, 0.0, 0.0, 1.0],
            };
            assert_eq!(got, want, "{mode:?} texel {texel}");
        }
    }
    // u = 12.375 is texel 49.5: WRAP/MIRROR reduce it to 0.375 (texel 1);
    // CLAMP/BORDER/MIRROR_ONCE reduce it to 10 (texel 40) → 3, border, 3
    let far = |mode| {
        r(
            &v,
            &SamplerDesc {
                border_color: BORDER,
                ..point(mode)
            },
            [12.375, 0.0, 0.0, 0.0],
        )
    };
    assert_eq!(far(AddressMode::Wrap), 2.0);
    assert_eq!(far(AddressMode::Mirror), 2.0);
    assert_eq!(far(AddressMode::Clamp), 4.0);
    assert_eq!(far(AddressMode::Border), 0.25);
    assert_eq!(far(AddressMode::MirrorOnce), 4.0);
}

#[test]
fn address_modes_2d() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    for mode in AddressMode::ALL {
        let s = SamplerDesc {
            border_color: BORDER,
            ..point(mode)
        };
        for (tu, tv) in [(-1, 5), (9, -6), (2, 9), (-6, 2)] {
            let got = r(&v, &s, [centre(tu, 4), centre(tv, 4), 0.0, 0.0]);
            let want = match (expected_index(mode, tu), expected_index(mode, tv)) {
                (Some(x), Some(y)) => (10 * y + x) as f32,
                _ => 0.25,
            };
            assert_eq!(got, want, "{mode:?} texel ({tu}, {tv})");
        }
    }
    // each axis has its own mode: u WRAP (−1 → 3), v MIRROR (4 → 3)
    let s = SamplerDesc {
        address: [AddressMode::Wrap, AddressMode::Mirror, AddressMode::Clamp],
        ..point(AddressMode::Clamp)
    };
    assert_eq!(r(&v, &s, [centre(-1, 4), centre(4, 4), 0.0, 0.0]), 33.0);
    // BORDER on one axis only is enough for the border colour
    let s = SamplerDesc {
        address: [AddressMode::Clamp, AddressMode::Border, AddressMode::Clamp],
        border_color: BORDER,
        ..point(AddressMode::Clamp)
    };
    assert_eq!(r(&v, &s, [centre(-3, 4), centre(1, 4), 0.0, 0.0]), 10.0);
    assert_eq!(r(&v, &s, [centre(1, 4), centre(-1, 4), 0.0, 0.0]), 0.25);
}

#[test]
fn address_modes_3d() {
    let t = texture(
        TextureDimension::Texture3D,
        Format::R32_FLOAT,
        [2, 2, 2],
        1,
        1,
    );
    fill_f32(&t, 0, 0, |x, y, z| (100 * z + 10 * y + x) as f32);
    let v = view(&t, ViewDimension::Texture3D);
    // w only out of range: texel (1, 0, w)
    // w = −0.25 → −0.5 → texel −1; w = 1.75 → 3.5 → texel 3 (size 2)
    let cases: [(AddressMode, f32, f32); 5] = [
        // mode, value at texel −1, value at texel 3
        (AddressMode::Wrap, 101.0, 101.0),     // −1 → 1; 3 → 1
        (AddressMode::Mirror, 1.0, 1.0), // −1 → 0; 3: flip (3/2 = 1), 3 % 2 = 1 → 2 − 1 − 1 = 0
        (AddressMode::Clamp, 1.0, 101.0), // 0; 1
        (AddressMode::Border, 0.25, 0.25), // border R
        (AddressMode::MirrorOnce, 1.0, 101.0), // 0; 1
    ];
    for (mode, below, above) in cases {
        let s = SamplerDesc {
            border_color: BORDER,
            ..point(mode)
        };
        assert_eq!(r(&v, &s, [0.75, 0.25, -0.25, 0.0]), below, "{mode:?} below");
        assert_eq!(r(&v, &s, [0.75, 0.25, 1.75, 0.0]), above, "{mode:?} above");
    }
}

#[test]
fn border_colour_per_format() {
    // RGBA8_UNORM: all four used, clamped to [0, 1]
    let t = texture(
        TextureDimension::Texture2D,
        Format::R8G8B8A8_UNORM,
        [2, 2, 1],
        1,
        1,
    );
    let v = view(&t, ViewDimension::Texture2D);
    let s = SamplerDesc {
        border_color: [1.5, -0.5, 0.25, 0.5],
        ..point(AddressMode::Border)
    };
    assert_eq!(at(&v, &s, [-0.5, 0.5, 0.0, 0.0]), [1.0, 0.0, 0.25, 0.5]);
    // R8G8_SNORM: R, G clamped to [−1, 1]; B = 0, A = 1
    let t = texture(
        TextureDimension::Texture2D,
        Format::R8G8_SNORM,
        [2, 2, 1],
        1,
        1,
    );
    let v = view(&t, ViewDimension::Texture2D);
    let s = SamplerDesc {
        border_color: [-3.0, 0.5, 0.25, 0.5],
        ..point(AddressMode::Border)
    };
    assert_eq!(at(&v, &s, [0.5, 1.5, 0.0, 0.0]), [-1.0, 0.5, 0.0, 1.0]);
    // linear across the border: half border, half texel 0 (R32_FLOAT, texel 0 = 1)
    let t = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        1,
    );
    fill_f32(&t, 0, 0, |x, _, _| (x + 1) as f32);
    let v = view(&t, ViewDimension::Texture1D);
    let s = SamplerDesc {
        border_color: BORDER,
        ..linear(AddressMode::Border)
    };
    // u = 0: 0 − 0.5 → texels −1 (border, ½) and 0 (½)
    assert_eq!(at(&v, &s, [0.0, 0.0, 0.0, 0.0]), [0.625, 0.0, 0.0, 1.0]);
}

// ---------------------------------------------------------------------------
// texel offsets (FS §22.4.15 "Address Offset")

#[test]
fn texel_offsets() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    let go = |s: &SamplerDesc, c: [f32; 2], off: [i32; 3]| {
        f32::from_bits(sample(&v, s, [c[0], c[1], 0.0, 0.0], Lod::Explicit(0.0), off, None)[0])
    };
    let c11 = [centre(1, 4), centre(1, 4)];
    // (1, 1) + (2, −1) = (3, 0)
    assert_eq!(go(&point(AddressMode::Clamp), c11, [2, -1, 0]), 3.0);
    // the address mode applies after the offset: (1, 1) + (3, 0) = (4, 1)
    assert_eq!(go(&point(AddressMode::Wrap), c11, [3, 0, 0]), 10.0); // 4 → 0
    assert_eq!(go(&point(AddressMode::Clamp), c11, [3, 0, 0]), 13.0); // 4 → 3
                                                                      // linear: u = 0.375 is texel 1 exactly; +1 → texel 2; v between rows 1, 2
    assert_eq!(
        go(&linear(AddressMode::Clamp), [0.375, 0.5], [1, 0, 0]),
        17.0
    );

    // 1D: v and w offsets ignored
    let t1 = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        1,
    );
    fill_f32(&t1, 0, 0, |x, _, _| (x + 1) as f32);
    let v1 = view(&t1, ViewDimension::Texture1D);
    let got = sample(
        &v1,
        &point(AddressMode::Clamp),
        [centre(0, 4), 0.0, 0.0, 0.0],
        Lod::Explicit(0.0),
        [2, 5, 5],
        None,
    );
    assert_eq!(f32::from_bits(got[0]), 3.0);

    // 3D: w offset used
    let t3 = texture(
        TextureDimension::Texture3D,
        Format::R32_FLOAT,
        [2, 2, 2],
        1,
        1,
    );
    fill_f32(&t3, 0, 0, |x, y, z| (100 * z + 10 * y + x) as f32);
    let v3 = view(&t3, ViewDimension::Texture3D);
    let got = sample(
        &v3,
        &point(AddressMode::Clamp),
        [0.25, 0.25, 0.25, 0.0],
        Lod::Explicit(0.0),
        [1, 1, 1],
        None,
    );
    assert_eq!(f32::from_bits(got[0]), 111.0);
}

#[test]
fn texel_offsets_mirror() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    // (1, 1) + (−3, −8) = (−2, −7); MIRROR: −2 → 1; −7 → 6 → flip (6/4 = 1), 6 % 4 = 2 → 4 − 2 − 1 = 1
    let got = sample(
        &v,
        &point(AddressMode::Mirror),
        [centre(1, 4), centre(1, 4), 0.0, 0.0],
        Lod::Explicit(0.0),
        [-3, -8, 0],
        None,
    );
    assert_eq!(f32::from_bits(got[0]), 11.0);
}

// ---------------------------------------------------------------------------
// array slices (FS §22.4.15 "Array Resources")

#[test]
fn array_slice_rounding_and_clamping() {
    // slice s holds the constant s + 0.5
    let t1 = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [2, 1, 1],
        4,
        1,
    );
    let t2 = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [2, 2, 1],
        4,
        1,
    );
    for s in 0..4 {
        fill_f32(&t1, 0, s, |_, _, _| s as f32 + 0.5);
        fill_f32(&t2, 0, s, |_, _, _| s as f32 + 0.5);
    }
    let v1 = view(&t1, ViewDimension::Texture1DArray);
    let v2 = view(&t2, ViewDimension::Texture2DArray);
    let s = linear(AddressMode::Wrap);
    // (coordinate, slice): round to nearest even, then clamp to [0, 3]; NaN → 0
    let cases = [
        (0.0, 0),
        (0.5, 0),
        (1.5, 2),
        (2.5, 2),
        (1.49, 1),
        (2.51, 3),
        (-0.7, 0),
        (-5.0, 0),
        (7.2, 3),
        (f32::INFINITY, 3),
        (f32::NAN, 0),
    ];
    for (c, slice) in cases {
        let want = slice as f32 + 0.5;
        assert_eq!(
            r(&v1, &s, [0.3, c, 0.0, 0.0]),
            want,
            "1D array slice coord {c}"
        );
        assert_eq!(
            r(&v2, &s, [0.3, 0.6, c, 0.0]),
            want,
            "2D array slice coord {c}"
        );
    }
    // a view starting at slice 1 with 2 slices: view slice 0 = resource slice 1
    let v = TextureView::srv(
        &t2,
        ViewDimension::Texture2DArray,
        Format::R32_FLOAT,
        ViewRange {
            first_slice: 1,
            slice_count: Some(2),
            ..ViewRange::default()
        },
    )
    .unwrap();
    assert_eq!(r(&v, &s, [0.5, 0.5, 0.0, 0.0]), 1.5);
    assert_eq!(r(&v, &s, [0.5, 0.5, 9.0, 0.0]), 2.5);
}

// ---------------------------------------------------------------------------
// cubes (FS §7.18.7, §7.18.12)

/// A cube (array) with `cubes` cubes of 2×2 faces; face f of cube c holds `value(c, f)`.
fn cube(cubes: u32, size: u32, value: impl Fn(u32, u32, u32, u32) -> f32) -> Texture {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [size, size, 1],
        6 * cubes,
        1,
    );
    for c in 0..cubes {
        for face in 0..6 {
            fill_f32(&t, 0, 6 * c + face, |x, y, _| value(c, face, x, y));
        }
    }
    t
}

#[test]
fn cube_face_selection() {
    // face f holds f + 1: +X 1, −X 2, +Y 3, −Y 4, +Z 5, −Z 6
    let t = cube(1, 2, |_, f, _, _| (f + 1) as f32);
    let v = view(&t, ViewDimension::TextureCube);
    let s = point(AddressMode::Clamp);
    let cases: [([f32; 3], f32); 12] = [
        ([1.0, 0.2, -0.3], 1.0),
        ([-1.0, 0.2, -0.3], 2.0),
        ([0.1, 2.0, 0.3], 3.0),
        ([0.1, -2.0, 0.3], 4.0),
        ([0.1, 0.2, 0.5], 5.0),
        ([0.1, 0.2, -0.5], 6.0),
        // ties: Z beats Y beats X
        ([1.0, 1.0, 1.0], 5.0),
        ([-1.0, 1.0, -1.0], 6.0),
        ([1.0, 1.0, 0.0], 3.0),
        ([1.0, -1.0, 0.5], 4.0),
        ([-3.0, 3.0, 0.0], 3.0),
        ([0.0, 0.0, 0.0], 5.0), // all zero: +Z (sign bit clear)
    ];
    for (d, want) in cases {
        assert_eq!(r(&v, &s, [d[0], d[1], d[2], 0.0]), want, "direction {d:?}");
    }
}

#[test]
fn cube_face_coordinates() {
    // 4×4 faces, texel (x, y) of face f = 100f + 10y + x
    let t = cube(1, 4, |_, f, x, y| (100 * f + 10 * y + x) as f32);
    let v = view(&t, ViewDimension::TextureCube);
    let s = point(AddressMode::Clamp);
    // (direction, face, x, y) from the face table: u = sc/|ma|·½ + ½, v likewise;
    // ±0.5 → 0.25 or 0.75 → texel 1 or 3
    let cases: [([f32; 3], u32, u32, u32); 6] = [
        ([1.0, 0.5, -0.5], 0, 3, 1),  // +X: sc = −z = 0.5, tc = −y = −0.5
        ([-1.0, 0.5, -0.5], 1, 1, 1), // −X: sc = z = −0.5, tc = −y = −0.5
        ([0.5, 1.0, -0.5], 2, 3, 1),  // +Y: sc = x = 0.5, tc = z = −0.5
        ([0.5, -1.0, -0.5], 3, 3, 3), // −Y: sc = x = 0.5, tc = −z = 0.5
        ([-0.5, -0.5, 1.0], 4, 1, 3), // +Z: sc = x = −0.5, tc = −y = 0.5
        ([0.5, 0.5, -1.0], 5, 1, 1),  // −Z: sc = −x = −0.5, tc = −y = −0.5
    ];
    for (d, face, x, y) in cases {
        let want = (100 * face + 10 * y + x) as f32;
        assert_eq!(r(&v, &s, [d[0], d[1], d[2], 0.0]), want, "direction {d:?}");
        // the major axis's magnitude does not matter
        assert_eq!(r(&v, &s, [4.0 * d[0], 4.0 * d[1], 4.0 * d[2], 0.0]), want);
    }
    // (1, 0.5, 1): the X/Z tie goes to +Z; sc = x = 1 → u = 1.0 exactly →
    // texel 4 of 4, which point sampling keeps on the face (x = 3); y = 1
    assert_eq!(r(&v, &s, [1.0, 0.5, 1.0, 0.0]), 413.0);
}

#[test]
fn cube_array_selects_the_cube() {
    // cube c, face f: 10c + f
    let t = cube(3, 2, |c, f, _, _| (10 * c + f) as f32);
    let v = view(&t, ViewDimension::TextureCubeArray);
    let s = linear(AddressMode::Clamp);
    let cases = [
        (0.0, 0),
        (1.0, 1),
        (0.5, 0),
        (1.5, 2),
        (2.5, 2),
        (9.0, 2),
        (-3.0, 0),
    ];
    for (w, c) in cases {
        // −Y face (3)
        assert_eq!(
            r(&v, &s, [0.1, -1.0, 0.2, w]),
            (10 * c + 3) as f32,
            "cube {w}"
        );
    }
}

#[test]
fn cube_linear_filtering_is_seamless() {
    // 2×2 faces, face f holds f + 1 (+X 1, +Y 3, +Z 5)
    let t = cube(1, 2, |_, f, _, _| (f + 1) as f32);
    let v = view(&t, ViewDimension::TextureCube);
    let s = linear(AddressMode::Clamp);
    // +X, sc = −z = −0.75 → u = 0.125 → 0.25 − 0.5 = −0.25: texel −1 (¼, on +Z,
    // the +X face's s < 0 neighbour) and texel 0 (¾); tc = 0 → rows 0, 1 (on +X)
    assert_eq!(r(&v, &s, [1.0, 0.0, 0.75, 0.0]), 0.75 * 1.0 + 0.25 * 5.0);
    // corner: tc = −y = −0.75 as well. Taps (−1,−1) missing [1/16], (0,−1) on +Y
    // [3/16], (−1,0) on +Z [3/16], (0,0) on +X [9/16]; the missing one is the
    // average of the three, (3 + 5 + 1)/3 = 3
    let want = (3.0 + 3.0 * 3.0 + 3.0 * 5.0 + 9.0 * 1.0) / 16.0;
    assert_eq!(want, 2.25);
    assert_eq!(r(&v, &s, [1.0, 0.75, 0.75, 0.0]), want);
}

// ---------------------------------------------------------------------------
// LOD and mips (FS §7.18.10, §7.18.11)

/// 4×4, 2×2, 1×1 R32_FLOAT with mip m holding 10(m + 1).
fn mips3() -> Texture {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [4, 4, 1],
        1,
        3,
    );
    for m in 0..3 {
        fill_f32(&t, m, 0, |_, _, _| 10.0 * (m + 1) as f32);
    }
    t
}

fn mip_sampler(mip: FilterType) -> SamplerDesc {
    SamplerDesc {
        filter: Filter {
            mip,
            ..Filter::POINT
        },
        ..SamplerDesc::default()
    }
}

fn lod(v: &TextureView<'_>, s: &SamplerDesc, l: Lod) -> f32 {
    f32::from_bits(sample(v, s, [0.3, 0.6, 0.0, 0.0], l, [0; 3], None)[0])
}

#[test]
fn mip_point_selection() {
    let t = mips3();
    let v = view(&t, ViewDimension::Texture2D);
    let s = mip_sampler(FilterType::Point);
    // ⌊LOD·256 (RNE) + 128⌋ >> 8, clamped to [0, 2]
    let cases = [
        (0.0, 10.0),
        (0.49, 10.0), // 125 + 128 = 253 → 0
        (0.5, 20.0),  // 128 + 128 = 256 → 1
        (1.7, 30.0),  // 435 + 128 = 563 → 2
        (5.0, 30.0),
        (-3.0, 10.0),
        (f32::NAN, 30.0), // NaN → MaxLOD = FLT_MAX → last mip
    ];
    for (l, want) in cases {
        assert_eq!(lod(&v, &s, Lod::Explicit(l)), want, "LOD {l}");
    }
}

#[test]
fn mip_linear_selection() {
    let t = mips3();
    let v = view(&t, ViewDimension::Texture2D);
    let s = mip_sampler(FilterType::Linear);
    let cases = [
        (0.25, 12.5), // 64/256: ¾·10 + ¼·20
        (1.5, 25.0),
        (0.3, (179.0 * 10.0 + 77.0 * 20.0) / 256.0), // 76.8 → 77
        (2.5, 30.0),                                 // mips 2 and 3 → both clamp to 2
        (-0.5, 10.0),
        (0.0, 10.0),
    ];
    for (l, want) in cases {
        assert_eq!(lod(&v, &s, Lod::Explicit(l)), want, "LOD {l}");
    }
}

#[test]
fn lod_bias_and_clamps() {
    let t = mips3();
    let v = view(&t, ViewDimension::Texture2D);
    let p = mip_sampler(FilterType::Point);
    let l = mip_sampler(FilterType::Linear);
    let with = |s: &SamplerDesc, bias: f32, min: f32, max: f32| SamplerDesc {
        mip_lod_bias: bias,
        min_lod: min,
        max_lod: max,
        ..*s
    };
    let (lo, hi) = (-f32::MAX, f32::MAX);
    assert_eq!(lod(&v, &with(&p, 1.0, lo, hi), Lod::Explicit(0.0)), 20.0);
    assert_eq!(lod(&v, &with(&l, -1.0, lo, hi), Lod::Explicit(1.25)), 12.5);
    assert_eq!(lod(&v, &with(&p, 0.0, 1.0, hi), Lod::Explicit(0.0)), 20.0);
    assert_eq!(lod(&v, &with(&p, 0.0, lo, 1.0), Lod::Explicit(2.0)), 20.0);
    assert_eq!(lod(&v, &with(&l, 0.0, 0.5, hi), Lod::Explicit(0.0)), 15.0);
    // the clamp comes after the bias
    assert_eq!(lod(&v, &with(&p, 3.0, lo, 1.0), Lod::Explicit(0.0)), 20.0);
    // MinLOD > MaxLOD: MinLOD wins
    assert_eq!(lod(&v, &with(&p, 0.0, 2.0, 1.0), Lod::Explicit(0.0)), 30.0);
    // NaN LOD → MaxLOD
    assert_eq!(
        lod(&v, &with(&p, 0.0, lo, 1.0), Lod::Explicit(f32::NAN)),
        20.0
    );
    // sample_c_lz's LOD 0 is biased and clamped too (FS §22.4.20)
    assert_eq!(lod(&v, &p, Lod::Zero), 10.0);
    assert_eq!(lod(&v, &with(&p, 1.0, lo, hi), Lod::Zero), 20.0);
    assert_eq!(lod(&v, &with(&p, 0.0, 2.0, hi), Lod::Zero), 30.0);
    // a view of mips 1..2: its LOD 0 is resource mip 1
    let v1 = TextureView::srv(
        &t,
        ViewDimension::Texture2D,
        Format::R32_FLOAT,
        ViewRange {
            first_mip: 1,
            ..ViewRange::default()
        },
    )
    .unwrap();
    assert_eq!(lod(&v1, &p, Lod::Explicit(0.0)), 20.0);
    assert_eq!(lod(&v1, &p, Lod::Explicit(7.0)), 30.0);
}

#[test]
fn magnification_vs_minification_filter() {
    // 1D, mip 0 = [0, 10, 20, 30], mip 1 = [100, 200]
    let t = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        2,
    );
    fill_f32(&t, 0, 0, |x, _, _| 10.0 * x as f32);
    fill_f32(&t, 1, 0, |x, _, _| 100.0 * (x + 1) as f32);
    let v = view(&t, ViewDimension::Texture1D);
    let filter = |min, mag| Filter {
        min,
        mag,
        mip: FilterType::Point,
        anisotropic: false,
        reduction: Reduction::Standard,
    };
    use FilterType::{Linear as L, Point as P};
    // at u = 0.25 on mip 0: point → texel 1 (10); linear → 0.5 → ½·0 + ½·10 = 5
    let go = |min, mag, l: f32, min_lod: f32| {
        let s = SamplerDesc {
            filter: filter(min, mag),
            min_lod,
            ..SamplerDesc::default()
        };
        f32::from_bits(
            sample(
                &v,
                &s,
                [0.25, 0.0, 0.0, 0.0],
                Lod::Explicit(l),
                [0; 3],
                None,
            )[0],
        )
    };
    // LOD ≤ 0 → MAG; LOD > 0 → MIN (LOD 0.25 still picks mip 0 with mip POINT)
    assert_eq!(go(L, P, 0.0, -f32::MAX), 10.0);
    assert_eq!(go(L, P, 0.25, -f32::MAX), 5.0);
    assert_eq!(go(P, L, 0.0, -f32::MAX), 5.0);
    assert_eq!(go(P, L, 0.25, -f32::MAX), 10.0);
    // the choice is made after clamping: LOD −1 clamped to MinLOD 0.25 → MIN
    assert_eq!(go(L, P, -1.0, 0.25), 5.0);
}

#[test]
fn sample_d_isotropic_lod() {
    let t = mips3();
    let v = view(&t, ViewDimension::Texture2D);
    let p = mip_sampler(FilterType::Point);
    let grad = |ddx, ddy| Lod::Gradients { ddx, ddy };
    // ddx·4 = (2, 0), ddy·4 = (0, 2): log2 2 = 1
    assert_eq!(lod(&v, &p, grad([0.5, 0.0, 0.0], [0.0, 0.5, 0.0])), 20.0);
    // lengths 1 and 0.5 → log2 1 = 0
    assert_eq!(lod(&v, &p, grad([0.25, 0.0, 0.0], [0.0, 0.125, 0.0])), 10.0);
    // the longer one counts: ×4 → (0, 1) and (1.5, 2), lengths 1 and 2.5 →
    // LOD log2 2.5 = 1.32 → 338/256 + ½ → mip 1
    assert_eq!(lod(&v, &p, grad([0.0, 0.25, 0.0], [0.375, 0.5, 0.0])), 20.0);
    // w is ignored for 2D: (0, 0, 8) contributes nothing
    assert_eq!(lod(&v, &p, grad([0.25, 0.0, 8.0], [0.0, 0.0, 8.0])), 10.0);
    // LINEAR mip: length 2^1.5 → LOD 1.5 → ½·20 + ½·30
    let l = mip_sampler(FilterType::Linear);
    let d = 2f32.powf(1.5) / 4.0;
    assert_eq!(lod(&v, &l, grad([d, 0.0, 0.0], [0.0, 0.0, 0.0])), 25.0);
    // zero gradients: log2 0 = −INF → mip 0
    assert_eq!(lod(&v, &l, grad([0.0; 3], [0.0; 3])), 10.0);

    // 1D: only u counts
    let t1 = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        3,
    );
    for m in 0..3 {
        fill_f32(&t1, m, 0, |_, _, _| 10.0 * (m + 1) as f32);
    }
    let v1 = view(&t1, ViewDimension::Texture1D);
    assert_eq!(
        lod(&v1, &p, grad([0.5, 100.0, 100.0], [0.0, 100.0, 0.0])),
        20.0
    );
}

#[test]
fn sample_d_anisotropic() {
    // 8×8, 4 mips: mip 0 texel (x, y) = x; mip 1 = 100 + x; mips 2, 3 = 1000
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [8, 8, 1],
        1,
        4,
    );
    fill_f32(&t, 0, 0, |x, _, _| x as f32);
    fill_f32(&t, 1, 0, |x, _, _| 100.0 + x as f32);
    fill_f32(&t, 2, 0, |_, _, _| 1000.0);
    fill_f32(&t, 3, 0, |_, _, _| 1000.0);
    let v = view(&t, ViewDimension::Texture2D);
    let aniso = |max_anisotropy| SamplerDesc {
        filter: Filter::from_d3d11(0x55).unwrap(),
        max_anisotropy,
        ..SamplerDesc::default()
    };
    let go = |s: &SamplerDesc| {
        let l = Lod::Gradients {
            ddx: [0.5, 0.0, 0.0],
            ddy: [0.0, 0.125, 0.0],
        };
        f32::from_bits(sample(&v, s, [0.5, 0.5, 0.0, 0.0], l, [0; 3], None)[0])
    };
    // scaled: dX = (4, 0), dY = (0, 1): major X, ratio = 16/4 = 4 ≤ 16,
    // lengthMinor = 4/4 = 1 → LOD 0. 4 probes at u = 0.5 + 0.5·{−⅜, −⅛, ⅛, ⅜}
    // = 0.3125, 0.4375, 0.5625, 0.6875 → ·8 − 0.5 = 2, 3, 4, 5 (texel centres);
    // v = 0.5 → rows 3 and 4, both x → (2 + 3 + 4 + 5)/4
    assert_eq!(go(&aniso(16)), 3.5);
    // MaxAnisotropy 2: ratio 2, lengthMinor = 4/2 = 2 → LOD 1 (4×4 mip 1);
    // 2 probes at u = 0.5 ± 0.125 → ·4 − 0.5 = 1, 2 → (101 + 102)/2
    assert_eq!(go(&aniso(2)), 101.5);
    // isotropic trilinear: LOD log2 4 = 2 → 1000
    assert_eq!(go(&linear(AddressMode::Clamp)), 1000.0);
    // sample_l with an anisotropic sampler: ratio 1, plain trilinear at LOD 0
    let got = sample(
        &v,
        &aniso(16),
        [0.5, 0.5, 0.0, 0.0],
        Lod::Explicit(0.0),
        [0; 3],
        None,
    );
    assert_eq!(f32::from_bits(got[0]), 3.5); // u: 4 − 0.5 = 3.5 → ½·3 + ½·4
}

// ---------------------------------------------------------------------------
// comparison and min/max reductions (FS §22.4.19, §5.9.4.5.6)

fn cmp_sampler(func: ComparisonFunc, linear: bool) -> SamplerDesc {
    let t = if linear {
        FilterType::Linear
    } else {
        FilterType::Point
    };
    SamplerDesc {
        filter: Filter {
            min: t,
            mag: t,
            mip: FilterType::Point,
            anisotropic: false,
            reduction: Reduction::Comparison,
        },
        comparison: func,
        ..SamplerDesc::default()
    }
}

#[test]
fn comparison_functions() {
    // 1D: [0.2, 0.4, 0.5, 0.8]
    let t = texture(
        TextureDimension::Texture1D,
        Format::R32_FLOAT,
        [4, 1, 1],
        1,
        1,
    );
    let vals = [0.2f32, 0.4, 0.5, 0.8];
    fill_f32(&t, 0, 0, |x, _, _| vals[x as usize]);
    let v = view(&t, ViewDimension::Texture1D);
    use ComparisonFunc::*;
    // reference OP texel, texel 2 = 0.5
    let expect = |reference: f32| {
        if reference == 0.5 {
            [
                (Never, 0.0),
                (Less, 0.0),
                (Equal, 1.0),
                (LessEqual, 1.0),
                (Greater, 0.0),
                (NotEqual, 0.0),
                (GreaterEqual, 1.0),
                (Always, 1.0),
            ]
        } else {
            [
                // reference 0.25
                (Never, 0.0),
                (Less, 1.0),
                (Equal, 0.0),
                (LessEqual, 1.0),
                (Greater, 0.0),
                (NotEqual, 1.0),
                (GreaterEqual, 0.0),
                (Always, 1.0),
            ]
        }
    };
    for reference in [0.5f32, 0.25] {
        for (func, want) in expect(reference) {
            let got = sample(
                &v,
                &cmp_sampler(func, false),
                [centre(2, 4), 0.0, 0.0, 0.0],
                Lod::Zero,
                [0; 3],
                Some(reference),
            );
            assert_eq!(f(got), [want; 4], "{func:?} ref {reference}");
        }
    }
    // compare, then filter: u = 0.25 → texels 0 (0.2) and 1 (0.4) half each;
    // 0.3 < 0.2 fails, 0.3 < 0.4 passes → 0.5 (filtering first would give 0)
    let got = sample(
        &v,
        &cmp_sampler(Less, true),
        [0.25, 0.0, 0.0, 0.0],
        Lod::Zero,
        [0; 3],
        Some(0.3),
    );
    assert_eq!(f(got), [0.5; 4]);
    // BORDER supplies BorderColor.R: 0.5 < 0.75
    let s = SamplerDesc {
        address: [AddressMode::Border; 3],
        border_color: [0.75, 0.0, 0.0, 0.0],
        ..cmp_sampler(Less, false)
    };
    let got = sample(&v, &s, [-0.5, 0.0, 0.0, 0.0], Lod::Zero, [0; 3], Some(0.5));
    assert_eq!(f(got), [1.0; 4]);
}

#[test]
fn comparison_quantises_the_reference_for_unorm() {
    // R16_UNORM texels 32768 (0.5000076…) and 65535 (1.0)
    let t = texture(
        TextureDimension::Texture1D,
        Format::R16_UNORM,
        [2, 1, 1],
        1,
        1,
    );
    t.write_subresource(0, 0, &[0x00, 0x80, 0xff, 0xff])
        .unwrap();
    let v = view(&t, ViewDimension::Texture1D);
    let eq = cmp_sampler(ComparisonFunc::Equal, false);
    let go = |u: f32, reference: f32| {
        f(sample(
            &v,
            &eq,
            [u, 0.0, 0.0, 0.0],
            Lod::Zero,
            [0; 3],
            Some(reference),
        ))[0]
    };
    // 0.5·65535 + 0.5 = 32768 → equal
    assert_eq!(go(0.25, 0.5), 1.0);
    // 1.5 clamps to 1.0 → 65535
    assert_eq!(go(0.75, 1.5), 1.0);
    assert_eq!(go(0.75, 0.999), 0.0);
}

#[test]
fn min_max_reductions() {
    // 2×2: (0,0) = 1, (1,0) = 5, (0,1) = 3, (1,1) = 7
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [2, 2, 1],
        1,
        2,
    );
    let vals = [[1.0, 5.0], [3.0, 7.0]];
    fill_f32(&t, 0, 0, |x, y, _| vals[y as usize][x as usize]);
    fill_f32(&t, 1, 0, |_, _, _| -2.0);
    let v = view(&t, ViewDimension::Texture2D);
    let red = |reduction, mip| SamplerDesc {
        filter: Filter {
            reduction,
            mip,
            ..Filter::LINEAR
        },
        ..SamplerDesc::default()
    };
    let go = |s: &SamplerDesc, c: [f32; 2], l: f32| {
        f32::from_bits(
            sample(
                &v,
                s,
                [c[0], c[1], 0.0, 0.0],
                Lod::Explicit(l),
                [0; 3],
                None,
            )[0],
        )
    };
    let (mn, mx) = (Reduction::Minimum, Reduction::Maximum);
    // centre: all four with weight ¼
    assert_eq!(go(&red(mn, FilterType::Point), [0.5, 0.5], 0.0), 1.0);
    assert_eq!(go(&red(mx, FilterType::Point), [0.5, 0.5], 0.0), 7.0);
    // v on row 1's centre: row 0 has weight 0 and is left out
    assert_eq!(go(&red(mn, FilterType::Point), [0.5, 0.75], 0.0), 3.0);
    assert_eq!(go(&red(mx, FilterType::Point), [0.5, 0.25], 0.0), 5.0);
    // LINEAR mip at LOD 0.5: mip 1 (−2) joins
    assert_eq!(go(&red(mn, FilterType::Linear), [0.5, 0.5], 0.5), -2.0);
    assert_eq!(go(&red(mx, FilterType::Linear), [0.5, 0.5], 0.5), 7.0);
    // standard: ¼(1 + 5 + 3 + 7) = 4
    assert_eq!(
        go(
            &red(Reduction::Standard, FilterType::Point),
            [0.5, 0.5],
            0.0
        ),
        4.0
    );
}

// ---------------------------------------------------------------------------
// gather4 (FS §22.4.2–5)

/// 4×4 R32G32_FLOAT: R = 10y + x, G = 100 + 10y + x.
fn grid4_rg() -> Texture {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32G32_FLOAT,
        [4, 4, 1],
        1,
        1,
    );
    let mut bytes = Vec::new();
    for y in 0..4u32 {
        for x in 0..4u32 {
            bytes.extend_from_slice(&((10 * y + x) as f32).to_le_bytes());
            bytes.extend_from_slice(&((100 + 10 * y + x) as f32).to_le_bytes());
        }
    }
    t.write_subresource(0, 0, &bytes).unwrap();
    t
}

#[test]
fn gather_order_and_channels() {
    let t = grid4_rg();
    let v = view(&t, ViewDimension::Texture2D);
    let s = point(AddressMode::Clamp); // the filter is ignored
    let c = [0.5, 0.5, 0.0, 0.0]; // 2 − 0.5 = 1.5 → u0 = 1, u1 = 2; v0 = 1, v1 = 2
                                  // x = (u0, v1), y = (u1, v1), z = (u1, v0), w = (u0, v0)
    assert_eq!(
        f(gather(&v, &s, c, [0, 0], 0, None)),
        [21.0, 22.0, 12.0, 11.0]
    );
    assert_eq!(
        f(gather(&v, &s, c, [0, 0], 1, None)),
        [121.0, 122.0, 112.0, 111.0]
    );
    // missing channels: B = 0, A = 1
    assert_eq!(f(gather(&v, &s, c, [0, 0], 2, None)), [0.0; 4]);
    assert_eq!(f(gather(&v, &s, c, [0, 0], 3, None)), [1.0; 4]);
    // all four even on a texel centre: u = 0.375 → 1.0 → u0 = 1, u1 = 2
    assert_eq!(
        f(gather(&v, &s, [0.375, 0.375, 0.0, 0.0], [0, 0], 0, None)),
        [21.0, 22.0, 12.0, 11.0]
    );
    // sampler LOD settings are ignored: view mip 0 always
    let biased = SamplerDesc {
        mip_lod_bias: 5.0,
        min_lod: 3.0,
        ..s
    };
    assert_eq!(
        f(gather(&v, &biased, c, [0, 0], 0, None)),
        [21.0, 22.0, 12.0, 11.0]
    );
}

#[test]
fn gather_offsets_and_address_modes() {
    let t = grid4_rg();
    let v = view(&t, ViewDimension::Texture2D);
    let c = [0.5, 0.5, 0.0, 0.0];
    let clamp = point(AddressMode::Clamp);
    let wrap = point(AddressMode::Wrap);
    // (1, −1): u0 = 2, u1 = 3, v0 = 0, v1 = 1
    assert_eq!(
        f(gather(&v, &clamp, c, [1, -1], 0, None)),
        [12.0, 13.0, 3.0, 2.0]
    );
    // programmable offsets keep 6 bits: 65 → 1, 62 → −2. u0 = 2, u1 = 3;
    // v0 = −1 → WRAP 3, v1 = 0
    assert_eq!(
        f(gather(&v, &wrap, c, [65, 62], 0, None)),
        [2.0, 3.0, 33.0, 32.0]
    );
    // 32 is −32 in 6 bits: u0 = −31, u1 = −30 → CLAMP 0 (as +32 would give 3)
    assert_eq!(
        f(gather(&v, &clamp, c, [32, 0], 0, None)),
        [20.0, 20.0, 10.0, 10.0]
    );
    assert_eq!(
        f(gather(&v, &clamp, c, [31, 0], 0, None)),
        [23.0, 23.0, 13.0, 13.0]
    );
    // BORDER at the left edge: u = 0 → u0 = −1 (border), u1 = 0
    let border = SamplerDesc {
        border_color: [0.5, 0.25, 0.0, 0.0],
        ..point(AddressMode::Border)
    };
    assert_eq!(
        f(gather(&v, &border, [0.0, 0.5, 0.0, 0.0], [0, 0], 0, None)),
        [0.5, 20.0, 10.0, 0.5]
    );
    assert_eq!(
        f(gather(&v, &border, [0.0, 0.5, 0.0, 0.0], [0, 0], 1, None)),
        [0.25, 120.0, 110.0, 0.25]
    );
}

#[test]
fn gather_c_compares_each_texel() {
    let t = grid4();
    let v = view(&t, ViewDimension::Texture2D);
    let c = [0.5, 0.5, 0.0, 0.0]; // texels 21, 22, 12, 11
    let s = cmp_sampler(ComparisonFunc::Less, true);
    assert_eq!(
        f(gather(&v, &s, c, [0, 0], 0, Some(11.5))),
        [1.0, 1.0, 1.0, 0.0]
    );
    let s = cmp_sampler(ComparisonFunc::GreaterEqual, true);
    assert_eq!(
        f(gather(&v, &s, c, [0, 0], 0, Some(21.0))),
        [1.0, 0.0, 1.0, 1.0]
    );
}

#[test]
fn gather_on_a_2d_array_and_cubes() {
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [2, 2, 1],
        3,
        1,
    );
    for s in 0..3 {
        fill_f32(&t, 0, s, |x, y, _| (100 * s + 10 * y + x) as f32);
    }
    let v = view(&t, ViewDimension::Texture2DArray);
    let s = point(AddressMode::Clamp);
    assert_eq!(
        f(gather(&v, &s, [0.5, 0.5, 1.6, 0.0], [0, 0], 0, None)),
        [210.0, 211.0, 201.0, 200.0]
    );

    // cube faces f + 1 (+X 1, +Y 3, +Z 5); direction (1, 0.75, 0.75) on +X:
    // u = v = 0.125 → u0 = v0 = −1: x = (−1, 0) on +Z, y = (0, 0) on +X,
    // z = (0, −1) on +Y, w = the corner, (5 + 1 + 3)/3
    let t = cube(1, 2, |_, f, _, _| (f + 1) as f32);
    let v = view(&t, ViewDimension::TextureCube);
    let d = [1.0, 0.75, 0.75, 0.0];
    assert_eq!(f(gather(&v, &s, d, [0, 0], 0, None)), [5.0, 1.0, 3.0, 3.0]);
    // offsets are ignored for cubes
    assert_eq!(f(gather(&v, &s, d, [3, 3], 0, None)), [5.0, 1.0, 3.0, 3.0]);
    // gather4_c: 2 < texel → 1, 0, 1, and the corner is synthesized after
    // the comparison: (1 + 0 + 1)/3
    let s = cmp_sampler(ComparisonFunc::Less, true);
    let got = f(gather(&v, &s, d, [0, 0], 0, Some(2.0)));
    assert_eq!(got, [1.0, 0.0, 1.0, (2.0f64 / 3.0) as f32]);
    // a cube array: cube index in .w
    let t = cube(2, 2, |c, f, _, _| (10 * c + f) as f32);
    let v = view(&t, ViewDimension::TextureCubeArray);
    let s = point(AddressMode::Clamp);
    assert_eq!(
        f(gather(&v, &s, [0.0, 0.0, -1.0, 1.0], [0, 0], 0, None)),
        [15.0; 4]
    );
}

// ---------------------------------------------------------------------------
// samplepos (FS §22.4.22, §19.2.4)

#[test]
fn standard_sample_positions() {
    // the FS §19.2.4 patterns in 1/16 pixel
    let table: [(u32, &[(i32, i32)]); 4] = [
        (2, &[(4, 4), (-4, -4)]),
        (4, &[(-2, -6), (6, -2), (-6, 2), (2, 6)]),
        (
            8,
            &[
                (1, -3),
                (-1, 3),
                (5, 1),
                (-3, -5),
                (-5, 5),
                (-7, -1),
                (3, 7),
                (7, -7),
            ],
        ),
        (
            16,
            &[
                (1, 1),
                (-1, -3),
                (-3, 2),
                (4, -1),
                (-5, -2),
                (2, 5),
                (5, 3),
                (3, -5),
                (-2, 6),
                (0, -7),
                (-4, -6),
                (-6, 4),
                (-8, 0),
                (7, -4),
                (6, 7),
                (-7, -8),
            ],
        ),
    ];
    for (count, positions) in table {
        for (i, &(x, y)) in positions.iter().enumerate() {
            assert_eq!(
                sample_position(count, i as u32),
                [x as f32 / 16.0, y as f32 / 16.0],
                "{count} samples, sample {i}"
            );
        }
        assert_eq!(sample_position(count, count), [0.0, 0.0]);
    }
    assert_eq!(sample_position(4, 0), [-0.125, -0.375]);
    assert_eq!(sample_position(1, 0), [0.0, 0.0]);
    assert_eq!(sample_position(1, 1), [0.0, 0.0]);
    assert_eq!(sample_position(3, 0), [0.0, 0.0]);
}

/// What a sample reads (`sample_counted`), by hand: a point sample one
/// texel, a bilinear one the 2×2 around the coordinate, a trilinear one two
/// mips' 2×2 (only where the LOD falls between mips), an anisotropic one
/// 2×2 per probe.
#[test]
fn sample_costs_count_the_footprint_and_name_the_filter() {
    use sim_mem::sampling::{sample_counted, SampleCost, SampleFilter};
    let t = texture(
        TextureDimension::Texture2D,
        Format::R32_FLOAT,
        [8, 8, 1],
        1,
        4,
    );
    let v = view(&t, ViewDimension::Texture2D);
    let cost = |s: &SamplerDesc, lod: Lod| {
        sample_counted(&v, s, [0.5, 0.5, 0.0, 0.0], lod, [0; 3], None).1
    };
    let c = |texels, filter| SampleCost { texels, filter };
    assert_eq!(
        cost(&point(AddressMode::Clamp), Lod::Explicit(0.5)),
        c(1, SampleFilter::Point)
    );
    let lin = linear(AddressMode::Clamp);
    // LOD 1: one mip, weight 1
    assert_eq!(cost(&lin, Lod::Explicit(1.0)), c(4, SampleFilter::Bilinear));
    // LOD 1.5: mips 1 and 2 blended
    assert_eq!(
        cost(&lin, Lod::Explicit(1.5)),
        c(8, SampleFilter::Trilinear)
    );
    // past the last mip: one mip
    assert_eq!(cost(&lin, Lod::Explicit(9.0)), c(4, SampleFilter::Bilinear));
    // the anisotropic case of `sample_d_anisotropic`: 4 probes at LOD 0
    let aniso = SamplerDesc {
        filter: Filter::from_d3d11(0x55).unwrap(),
        max_anisotropy: 16,
        ..SamplerDesc::default()
    };
    let l = Lod::Gradients {
        ddx: [0.5, 0.0, 0.0],
        ddy: [0.0, 0.125, 0.0],
    };
    assert_eq!(cost(&aniso, l), c(16, SampleFilter::Anisotropic));
}
