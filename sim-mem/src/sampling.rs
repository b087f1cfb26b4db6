//! Filtered texture reads: `sample_l`, `sample_d`, `sample_c_lz`, the
//! `gather4` family and `samplepos` (FS §7.18 "Texture Sampling", §22.4.2–5,
//! §22.4.15–22; digested in `reference/sm5-compute-isa.md` §10).
//!
//! The pipeline for one coordinate axis of size `N` texels at a mip
//! (FS §7.18.5–7.18.9):
//! 1. range reduction of the normalized coordinate by the axis's address
//!    mode (§7.18.6): WRAP `frac(u)`, MIRROR `2·signedFrac(u/2)`, the others
//!    a clamp to [−10, 10];
//! 2. scaling by `N` (minus 0.5 for a bilinear footprint), in f32;
//! 3. conversion to fixed point with 8 fraction bits (§3.2.4.1: NaN → 0,
//!    saturation, round to nearest even) — so NaN coordinates act as 0 and
//!    the linear weights are multiples of 1/256;
//! 4. the immediate offset added in texel units (`fx += off << 8`);
//! 5. texel selection: POINT `fx >> 8`; LINEAR `fx >> 8` and the next texel,
//!    with weight `(fx & 255) / 256` on the next one (§7.18.7–8);
//! 6. the address mode applied to each integer texel index (§7.18.9), BORDER
//!    giving the border colour (§7.18.9.1).
//!
//! Choices where the FS leaves room (each is repeated where it is made):
//! - Coordinates use 24.8 fixed point (the FS asks for at least 16.8; 24
//!   integer bits hold the reduced range ±10 × 16384 plus offsets).
//! - Filter arithmetic is done in f64 on the f32 texel values and rounded
//!   once to f32. The weights are dyadic, so this keeps the FS §7.18.16.3
//!   invariants exactly (a constant texture filters to that constant; results
//!   stay within the texels' range), which f32 accumulation can miss by an
//!   ULP. Texels of zero weight are not read (§7.18.16.2 lets them be
//!   ignored). A result made of one texel of weight 1 (point sampling) is
//!   returned bit for bit, denormals and NaN payloads included.
//! - Integer formats cannot be sampled (FS §19.1 format list); `sample`
//!   treats every filter of an integer view as POINT (mip POINT, no
//!   anisotropy) and returns the raw integer texel.
//! - TextureCube bilinear footprints are seamless as §7.18.12 requires: taps
//!   off a face are read from the adjacent face, and the missing corner texel
//!   is the average of the three real ones (the reference behaviour; for
//!   comparisons the average of the comparison results). Point sampling at
//!   a face's far edge (face coordinate exactly 1.0) clamps within the face.
//!   Address modes are ignored for cubes.
//! - `sample_d` LOD: isotropic as §7.18.11; anisotropic (only for
//!   `Filter::anisotropic` on Texture2D/2D array views, as §7.18.11) uses the
//!   FS formula without the optional Heckbert orthogonalisation, does not
//!   clamp `lengthMinor` to 1 (the FS recommendation), and takes
//!   `ceil(ratio)` trilinear probes (see [`Lod::Gradients`]).
//! - Comparison: the reference is clamped and quantised for UNORM/SNORM
//!   formats (§22.4.19), float formats compare at f32; denormal texels and
//!   references are flushed to zero before the comparison (§22.4.3). A
//!   `reference` always means a comparison, whatever the sampler's
//!   reduction (a mismatched sampler is undefined, §22.3.34).
//! - Border colour: clamped to the format's range, not snapped to its
//!   precision; integer formats (not samplable in D3D11) get the colour
//!   converted to integers.
//! - Cubes: the face is picked by the sign bit of the major component; a
//!   zero direction samples the centre of +Z (or −Z for −0). For `sample_d`
//!   the FS's "major axis component" of a derivative is taken along the
//!   face's outward normal (the derivative of |major|), which makes the
//!   formula the exact derivative of the face coordinate on every face.
//!   Cube corners of integer views (gather only) average with integer
//!   division.
//! - An anisotropic filter outside 2D (array) views, or with an explicit or
//!   zero LOD, is trilinear (ratio 1).

use crate::format::{ChannelKind, Format};
use crate::sampler::{AddressMode, ComparisonFunc, FilterType, Reduction, SamplerDesc};
use crate::texture::{TextureView, ViewDimension};

/// Fraction bits of texel coordinates and LODs (FS §7.18.16.1:
/// `D3D11_SUBTEXEL_FRACTIONAL_BIT_COUNT`, `D3D11_MIP_LOD_FRACTIONAL_BIT_COUNT`).
const FRAC_BITS: u32 = 8;
/// One texel (or one mip) in fixed point.
const FX_ONE: i64 = 1 << FRAC_BITS;
/// Integer bits of the fixed-point texel coordinate (FS: at least 16).
const COORD_INT_BITS: u32 = 24;
/// Integer bits of the fixed-point LOD (FS §7.18.10: at least 8).
const LOD_INT_BITS: u32 = 8;

/// How `sample` gets its level of detail (FS §7.18.11).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lod {
    /// `sample_l` (FS §22.4.18): this LOD; the sampler's `MipLODBias` is
    /// added and `MinLOD`/`MaxLOD` clamp it ("Sampler states MIPLODBIAS and
    /// MAX/MINMIPLEVEL are honored"); anisotropy ratio 1.
    Explicit(f32),
    /// `sample_d` (FS §22.4.17): gradients of the coordinate in normalized
    /// space, `ddx` = (du/dx, dv/dx, dw/dx) and `ddy` likewise; components
    /// the view's dimension does not have are ignored (1D: u; 2D and arrays:
    /// u, v; 3D: u, v, w; cubes: the direction x, y, z, projected onto the
    /// face as FS §7.18.11 describes).
    ///
    /// Isotropic LOD = log₂ max(|ddx·size|, |ddy·size|), `size` the view's
    /// mip-0 size (0.5 × face size for cubes). With an anisotropic filter on
    /// a 2D (array) view, the FS §7.18.11 anisotropic formula gives the
    /// ratio (clamped to `max_anisotropy`) and LOD = log₂ lengthMinor, and
    /// the sample is the average of `ceil(ratio)` trilinear probes placed
    /// evenly along the major gradient (in normalized space, centred on the
    /// coordinate, spanning one gradient length: probe *i* of *n* at
    /// `coord + g·((i + ½)/n − ½)`). The FS does not specify the probes.
    Gradients {
        /// derivative of (u, v, w) along screen x
        ddx: [f32; 3],
        /// derivative of (u, v, w) along screen y
        ddy: [f32; 3],
    },
    /// `sample_c_lz` (FS §22.4.20): LOD 0, "unless the sampler has an LOD
    /// clamp which places the LOD somewhere else, or if there is an LOD
    /// Bias, which would simply bias starting from 0": bias and clamps apply.
    Zero,
}

/// Filtered sample (`sample_l`, `sample_d`, `sample_c_lz`; FS §7.18,
/// §22.4.15–20).
///
/// - `coord`: the shader's float coordinate register. 1D: x (1D array:
///   slice in .y); 2D: x, y (2D array: slice in .z); 3D: x, y, z; cube: the
///   direction x, y, z (cube array: cube index in .w). Slices and cube
///   indices are rounded to nearest even and clamped to the view (FS
///   §22.4.15 "Array Resources"; NaN → 0).
/// - `offset`: `_aoffimmi(u, v, w)` (−8..7, sign-extended), added in texel
///   units at each mip before the address modes (FS §22.4.15); v, w ignored
///   for 1D, w for 2D, all for cubes.
/// - `lod`: see [`Lod`]. The clamped LOD picks the filter: LOD ≤ 0 → the
///   MAG filter, else MIN (FS §7.18.11); the mip filter POINT takes mip
///   ⌊LOD + 0.5⌋, LINEAR blends ⌊LOD⌋ and ⌊LOD⌋ + 1 by the fraction, both
///   from LOD in 8.8 fixed point and clamped to the view's mips (FS §7.18.10).
/// - `reference`: `Some(r)` for `sample_c_lz`: each tap's red channel
///   becomes 1.0 where `r OP texel.r` holds under the sampler's comparison
///   function, else 0.0, and these are filtered (FS §22.4.19). The result is
///   in all four components (the instruction replicates the scalar). Without
///   a reference, a sampler's `Reduction::Minimum`/`Maximum` returns the
///   per-component min/max of the texels that would have nonzero weight
///   (FS §5.9.4.5.6); `Reduction::Comparison` without a reference filters
///   normally.
///
/// Returns the four register values (f32 bits; raw integers for integer
/// formats) before the resource swizzle. A multisampled view returns 0s.
pub fn sample(
    view: &TextureView<'_>,
    sampler: &SamplerDesc,
    coord: [f32; 4],
    lod: Lod,
    offset: [i32; 3],
    reference: Option<f32>,
) -> [u32; 4] {
    sample_counted(view, sampler, coord, lod, offset, reference).0
}

/// The filter a sample applied ([`sample_counted`]), as a profile groups
/// samples: by the texel filter and how many mips and probes it blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SampleFilter {
    /// One texel of one mip (POINT texel filter, one mip level).
    Point,
    /// The 2 / 4 / 8 texels around the coordinate (1D / 2D / 3D) of one
    /// mip (LINEAR texel filter).
    Bilinear,
    /// Two mips blended (LINEAR mip filter between two levels), each by
    /// the texel filter.
    Trilinear,
    /// Several probes along the major axis of the footprint (ANISOTROPIC).
    Anisotropic,
}

/// What one sample read: the texels in its filter's footprint (at each mip
/// level it blends with a weight above 0, for each probe) and the filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleCost {
    /// Texels read.
    pub texels: u32,
    /// The filter applied.
    pub filter: SampleFilter,
}

/// [`sample`], also returning what it read ([`SampleCost`]; a sample that
/// reads nothing, out of the view or on a multisampled view, is a point
/// sample of 0 texels).
pub fn sample_counted(
    view: &TextureView<'_>,
    sampler: &SamplerDesc,
    coord: [f32; 4],
    lod: Lod,
    offset: [i32; 3],
    reference: Option<f32>,
) -> ([u32; 4], SampleCost) {
    let nothing = SampleCost {
        texels: 0,
        filter: SampleFilter::Point,
    };
    let Some(site) = Site::new(view, coord) else {
        return ([0; 4], nothing);
    };
    let format = view.format();
    let int_format = is_integer(format);
    let compare = reference.map(|r| Compare::new(format, sampler.comparison, r, 0));
    let filter = sampler.filter;
    let flat2d = matches!(
        view.dimension(),
        ViewDimension::Texture2D | ViewDimension::Texture2DArray
    );
    let anisotropic = filter.anisotropic && !int_format;

    // LOD before bias and clamps, and the anisotropic probes.
    let mut probes = Probes::single();
    let raw_lod = match lod {
        Lod::Explicit(l) => l,
        Lod::Zero => 0.0,
        Lod::Gradients { ddx, ddy } => {
            let (dx, dy) = site.scaled_gradients(view, ddx, ddy);
            if anisotropic && flat2d {
                let max_aniso = sampler.max_anisotropy.clamp(1, 16) as f32;
                let (l, ratio, major_x) = anisotropic_lod(dx, dy, max_aniso);
                let major = if major_x { ddx } else { ddy };
                probes = Probes::along([major[0], major[1], 0.0], ratio, max_aniso as u32);
                l
            } else {
                isotropic_lod(dx, dy)
            }
        }
    };
    // FS §7.18.11: bias, then max(MinLOD, min(MaxLOD, ·)); min/max return
    // the non-NaN operand, so a NaN LOD becomes MaxLOD.
    let biased = raw_lod + sampler.mip_lod_bias;
    let clamped = sampler.min_lod.max(sampler.max_lod.min(biased));
    let magnify = clamped <= 0.0;

    let (mut texel_filter, mut mip_filter) = if magnify {
        (filter.mag, filter.mip)
    } else {
        (filter.min, filter.mip)
    };
    if anisotropic {
        texel_filter = FilterType::Linear;
        mip_filter = FilterType::Linear;
    }
    if int_format {
        texel_filter = FilterType::Point;
        mip_filter = FilterType::Point;
    }
    let reduce = match (compare.is_some(), filter.reduction) {
        (false, Reduction::Minimum) => Reduce::Min,
        (false, Reduction::Maximum) => Reduce::Max,
        _ => Reduce::Sum,
    };

    let mut acc = Acc::new(reduce);
    let levels = mip_levels(clamped, mip_filter, view.mip_count());
    let linear = texel_filter == FilterType::Linear;
    let mut cost = SampleCost {
        texels: 0,
        filter: match (
            anisotropic && probes.count > 1,
            levels.iter().filter(|l| l.1 > 0.0).count() > 1,
            linear,
        ) {
            (true, ..) => SampleFilter::Anisotropic,
            (false, true, _) => SampleFilter::Trilinear,
            (false, false, true) => SampleFilter::Bilinear,
            (false, false, false) => SampleFilter::Point,
        },
    };
    for (level, weight) in levels {
        let src = Source::new(view, sampler, &site, level, compare);
        if weight > 0.0 {
            let taps = if linear { 1 << src.dims() } else { 1 };
            cost.texels += taps * probes.count;
        }
        let mut level_acc = Acc::new(reduce);
        for i in 0..probes.count {
            let uvw = probes.position(site.uvw, i);
            let mut probe_acc = Acc::new(reduce);
            src.filter(
                uvw,
                texel_filter == FilterType::Linear,
                offset,
                &mut probe_acc,
            );
            level_acc.merge(&probe_acc, 1.0 / probes.count as f64);
        }
        acc.merge(&level_acc, weight);
    }
    (acc.finish(), cost)
}

/// The `gather4` family (FS §22.4.2–5): channel `channel` (0–3 = r, g, b,
/// a; missing channels give their defaults) of the four texels of the
/// bilinear footprint at the view's most detailed mip, in D3D order:
/// x = (u0, v1), y = (u1, v1), z = (u1, v0), w = (u0, v0) ("counter
/// clockwise starting with the sample to the lower left").
///
/// Only the sampler's address modes (and border colour) are used; filter,
/// LOD, bias and LOD clamps are ignored. `offset` is `_aoffimmi(u, v)` or
/// `gather4_po`'s programmable offset: the low 6 bits of each value are
/// taken as a signed number (−32..31, FS §22.4.4), which leaves −8..7
/// unchanged; offsets are ignored for cubes. With `reference`
/// (`gather4_c`, FS §22.4.3) each texel's channel is compared as in
/// `sample_c` and 1.0 or 0.0 returned. Cube footprints spill onto the
/// adjacent face; a missing corner texel is the average of the other three
/// (after the comparison, for `gather4_c`). Float32 texels are returned bit
/// for bit; integer formats return the raw channel values.
///
/// Views other than 2D, 2D array, cube and cube array return 0s.
pub fn gather(
    view: &TextureView<'_>,
    sampler: &SamplerDesc,
    coord: [f32; 4],
    offset: [i32; 2],
    channel: usize,
    reference: Option<f32>,
) -> [u32; 4] {
    use ViewDimension::*;
    if !matches!(
        view.dimension(),
        Texture2D | Texture2DArray | TextureCube | TextureCubeArray
    ) {
        return [0; 4];
    }
    let Some(site) = Site::new(view, coord) else {
        return [0; 4];
    };
    let channel = channel & 3;
    let compare = reference.map(|r| Compare::new(view.format(), sampler.comparison, r, channel));
    let src = Source::new(view, sampler, &site, 0, compare);
    let offset = [sign_extend6(offset[0]), sign_extend6(offset[1]), 0];
    let [(u0, _), (u1, _)] = src.axis_taps(0, site.uvw[0], true, offset[0]);
    let [(v0, _), (v1, _)] = src.axis_taps(1, site.uvw[1], true, offset[1]);
    [(u0, v1), (u1, v1), (u1, v0), (u0, v0)].map(|(u, v)| src.fetch([u, v, 0])[channel])
}

/// The low 6 bits of `v` as a signed number (FS §22.4.4: "The 6 least
/// significant bits of each offset value is honored as a signed value").
fn sign_extend6(v: i32) -> i32 {
    (v << 26) >> 26
}

/// Position of sample `index` of a `count`-sample resource in the standard
/// pattern (`D3D11_STANDARD_MULTISAMPLE_PATTERN`, FS §19.2.4), in pixels
/// relative to the pixel centre (x right, y down), as `samplepos` returns it
/// (FS §22.4.22). Counts without a standard pattern (including 1), and an
/// index out of range, give (0, 0) ("If sampleIndex is out of bounds a zero
/// vector is returned").
pub fn sample_position(count: u32, index: u32) -> [f32; 2] {
    // 1/16-pixel units, read off the FS §19.2.4 pattern images.
    const P2: [[i8; 2]; 2] = [[4, 4], [-4, -4]];
    const P4: [[i8; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
    const P8: [[i8; 2]; 8] = [
        [1, -3],
        [-1, 3],
        [5, 1],
        [-3, -5],
        [-5, 5],
        [-7, -1],
        [3, 7],
        [7, -7],
    ];
    const P16: [[i8; 2]; 16] = [
        [1, 1],
        [-1, -3],
        [-3, 2],
        [4, -1],
        [-5, -2],
        [2, 5],
        [5, 3],
        [3, -5],
        [-2, 6],
        [0, -7],
        [-4, -6],
        [-6, 4],
        [-8, 0],
        [7, -4],
        [6, 7],
        [-7, -8],
    ];
    let table: &[[i8; 2]] = match count {
        2 => &P2,
        4 => &P4,
        8 => &P8,
        16 => &P16,
        _ => &[],
    };
    table
        .get(index as usize)
        .map_or([0.0; 2], |p| [p[0] as f32 / 16.0, p[1] as f32 / 16.0])
}

// ---------------------------------------------------------------------------
// Fixed point, range reduction, address modes

/// FS §3.2.4.1 float → fixed point with `int_bits`.8, in units of 1/256:
/// NaN → 0, ±INF and out-of-range values saturate, otherwise round to
/// nearest even (the FS reference conversion).
fn to_fixed(x: f32, int_bits: u32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let min = -(1i64 << (int_bits - 1 + FRAC_BITS));
    let max = (1i64 << (int_bits - 1 + FRAC_BITS)) - 1;
    let v = (x as f64 * FX_ONE as f64).round_ties_even();
    v.clamp(min as f64, max as f64) as i64
}

/// FS §7.18.6 `ReduceRange`, on the normalized coordinate.
fn reduce_range(u: f32, mode: AddressMode) -> f32 {
    match mode {
        // frac: [0, 1)
        AddressMode::Wrap => u - u.floor(),
        // signedFrac(u/2)·2: (−2, 2)
        AddressMode::Mirror => {
            let h = u / 2.0;
            (h - h.trunc()) * 2.0
        }
        // [−10, 10] (NaN stays NaN and becomes 0 in fixed point)
        AddressMode::Clamp | AddressMode::Border | AddressMode::MirrorOnce => u.clamp(-10.0, 10.0),
    }
}

/// FS §7.18.9: map texel index `t` of an axis of `n` texels into range, or
/// `None` for the border colour.
fn apply_address(t: i64, n: u32, mode: AddressMode) -> Option<u32> {
    let n = n as i64;
    if (0..n).contains(&t) {
        return Some(t as u32);
    }
    let t = match mode {
        AddressMode::Wrap => t.rem_euclid(n),
        AddressMode::Mirror => {
            let t = if t < 0 { -t - 1 } else { t };
            let flip = (t / n) & 1 == 1;
            let t = t % n;
            if flip {
                n - t - 1
            } else {
                t
            }
        }
        AddressMode::Clamp => t.clamp(0, n - 1),
        AddressMode::MirrorOnce => {
            let t = if t < 0 { -t - 1 } else { t };
            t.clamp(0, n - 1)
        }
        AddressMode::Border => return None,
    };
    Some(t as u32)
}

/// FS §22.4.15 "Array Resources": round to nearest even, clamp to
/// [0, count − 1]; NaN → 0 (the float → integer rule).
fn array_index(x: f32, count: u32) -> u32 {
    if x.is_nan() || count == 0 {
        return 0;
    }
    x.round_ties_even().clamp(0.0, (count - 1) as f32) as u32
}

// ---------------------------------------------------------------------------
// LOD and mip selection

/// FS §7.18.11 isotropic LOD from scaled gradients.
fn isotropic_lod(dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let len = |d: [f32; 3]| (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    len(dx).max(len(dy)).log2()
}

/// FS §7.18.11 anisotropic LOD from scaled 2D gradients: (LOD, ratio of
/// anisotropy, whether dX is the major axis). `lengthMinor` is not clamped
/// to 1 (the FS recommendation).
fn anisotropic_lod(dx: [f32; 3], dy: [f32; 3], max_aniso: f32) -> (f32, f32, bool) {
    let sq_x = dx[0] * dx[0] + dx[1] * dx[1];
    let sq_y = dy[0] * dy[0] + dy[1] * dy[1];
    let det = (dx[0] * dy[1] - dx[1] * dy[0]).abs();
    let major_x = sq_x > sq_y;
    let sq_major = if major_x { sq_x } else { sq_y };
    let len_major = sq_major.sqrt();
    if len_major == 0.0 {
        // both gradients zero: log2(0) = −INF (magnification at mip 0)
        return (f32::NEG_INFINITY, 1.0, major_x);
    }
    let mut ratio = sq_major / det;
    let len_minor;
    if ratio > max_aniso {
        ratio = max_aniso;
        len_minor = len_major / ratio;
    } else {
        len_minor = det / len_major;
    }
    if len_minor < 1.0 {
        ratio = (ratio * len_minor).max(1.0);
    }
    (len_minor.log2(), ratio, major_x)
}

/// FS §7.18.10: the mips (view-relative) and their weights for a clamped
/// LOD, via 8.8 fixed point; clamped to the view's `mips`.
fn mip_levels(lod: f32, mip_filter: FilterType, mips: u32) -> Vec<(u32, f64)> {
    let fx = to_fixed(lod, LOD_INT_BITS);
    let last = mips.saturating_sub(1) as i64;
    match mip_filter {
        FilterType::Point => vec![(((fx + FX_ONE / 2) >> FRAC_BITS).clamp(0, last) as u32, 1.0)],
        FilterType::Linear => {
            let lo = (fx >> FRAC_BITS).clamp(0, last) as u32;
            let hi = ((fx >> FRAC_BITS) + 1).clamp(0, last) as u32;
            let w_hi = (fx & (FX_ONE - 1)) as f64 / FX_ONE as f64;
            if lo == hi {
                vec![(lo, 1.0)]
            } else {
                vec![(lo, 1.0 - w_hi), (hi, w_hi)]
            }
        }
    }
}

/// Anisotropic probe positions along a gradient (see [`Lod::Gradients`]).
struct Probes {
    count: u32,
    step: [f32; 3],
}

impl Probes {
    fn single() -> Self {
        Self {
            count: 1,
            step: [0.0; 3],
        }
    }

    fn along(gradient: [f32; 3], ratio: f32, max: u32) -> Self {
        let n = if ratio.is_finite() {
            (ratio.ceil() as u32).clamp(1, max.max(1))
        } else {
            1
        };
        Self {
            count: n,
            step: gradient,
        }
    }

    /// Probe `i`: `uvw + step·((i + ½)/n − ½)`.
    fn position(&self, uvw: [f32; 3], i: u32) -> [f32; 3] {
        if self.count == 1 {
            return uvw;
        }
        let t = (i as f32 + 0.5) / self.count as f32 - 0.5;
        [0, 1, 2].map(|k| uvw[k] + self.step[k] * t)
    }
}

// ---------------------------------------------------------------------------
// Where a sample reads: the view's geometry and the coordinate

#[derive(Debug, Clone, Copy)]
enum Geometry {
    /// 1D/2D/3D (or their arrays): `dims` coordinate axes, one slice.
    Flat { dims: usize, slice: u32 },
    /// A cube face: view-relative slice `base + face`.
    Cube {
        base: u32,
        face: u32,
        /// major-axis magnitude, and the unprojected face coordinates (for LOD)
        ma: f32,
        sc: f32,
        tc: f32,
    },
}

#[derive(Debug, Clone, Copy)]
struct Site {
    geometry: Geometry,
    /// normalized coordinates (cubes: the face's u, v in [0, 1])
    uvw: [f32; 3],
}

impl Site {
    /// Resolve the coordinate register; `None` for multisampled views.
    fn new(view: &TextureView<'_>, c: [f32; 4]) -> Option<Site> {
        use ViewDimension::*;
        let slices = view.slice_count();
        let flat = |dims, slice, uvw| Site {
            geometry: Geometry::Flat { dims, slice },
            uvw,
        };
        Some(match view.dimension() {
            Texture1D => flat(1, 0, [c[0], 0.0, 0.0]),
            Texture1DArray => flat(1, array_index(c[1], slices), [c[0], 0.0, 0.0]),
            Texture2D => flat(2, 0, [c[0], c[1], 0.0]),
            Texture2DArray => flat(2, array_index(c[2], slices), [c[0], c[1], 0.0]),
            Texture3D => flat(3, 0, [c[0], c[1], c[2]]),
            TextureCube => Site::cube(0, [c[0], c[1], c[2]]),
            TextureCubeArray => Site::cube(6 * array_index(c[3], slices / 6), [c[0], c[1], c[2]]),
            Texture2DMS | Texture2DMSArray => return None,
        })
    }

    /// FS §7.18.7: cube face and face coordinates of a direction.
    fn cube(base: u32, d: [f32; 3]) -> Site {
        let (face, sc, tc, ma) = cube_face(d);
        let project = |x: f32| if ma == 0.0 { 0.5 } else { x / ma * 0.5 + 0.5 };
        Site {
            geometry: Geometry::Cube {
                base,
                face,
                ma,
                sc,
                tc,
            },
            uvw: [project(sc), project(tc), 0.0],
        }
    }

    /// FS §7.18.11: the gradients scaled to texels of the view's mip 0
    /// (cubes: projected onto the face first, then × 0.5 × face size).
    fn scaled_gradients(
        &self,
        view: &TextureView<'_>,
        ddx: [f32; 3],
        ddy: [f32; 3],
    ) -> ([f32; 3], [f32; 3]) {
        let size = view.level_size(0).map(|s| s as f32);
        match self.geometry {
            Geometry::Flat { dims, .. } => {
                let scale =
                    |d: [f32; 3]| [0, 1, 2].map(|k| if k < dims { d[k] * size[k] } else { 0.0 });
                (scale(ddx), scale(ddy))
            }
            Geometry::Cube {
                face, ma, sc, tc, ..
            } => {
                let half = 0.5 * size[0];
                let project = |d: [f32; 3]| {
                    let (dsc, dtc, dma) = face_components(face, d);
                    let m2 = ma * ma;
                    [
                        (ma * dsc - sc * dma) / m2 * half,
                        (ma * dtc - tc * dma) / m2 * half,
                        0.0,
                    ]
                };
                (project(ddx), project(ddy))
            }
        }
    }
}

/// Cube face of direction `d` (FS §7.18.7: largest magnitude, ties Z, Y,
/// X; the sign bit picks + or −): (face, sc, tc, |major|), faces numbered
/// +X, −X, +Y, −Y, +Z, −Z = 0..5.
fn cube_face(d: [f32; 3]) -> (u32, f32, f32, f32) {
    let [x, y, z] = d;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let face = if az >= ax && az >= ay {
        if z.is_sign_negative() {
            5
        } else {
            4
        }
    } else if ay >= ax {
        if y.is_sign_negative() {
            3
        } else {
            2
        }
    } else if x.is_sign_negative() {
        1
    } else {
        0
    };
    let (sc, tc, ma) = face_components(face, d);
    (face, sc, tc, ma)
}

/// The FS §5.3.8 cube coordinate space: a vector's (sc, tc, major)
/// components on `face`, major measured along the face's outward normal.
///
/// | face | sc | tc | major |
/// |---|---|---|---|
/// | +X | −z | −y | +x |
/// | −X | +z | −y | −x |
/// | +Y | +x | +z | +y |
/// | −Y | +x | −z | −y |
/// | +Z | +x | −y | +z |
/// | −Z | −x | −y | −z |
fn face_components(face: u32, [x, y, z]: [f32; 3]) -> (f32, f32, f32) {
    match face {
        0 => (-z, -y, x),
        1 => (z, -y, -x),
        2 => (x, z, y),
        3 => (x, -z, -y),
        4 => (x, -y, z),
        _ => (-x, -y, -z),
    }
}

/// Outward normal, sc axis and tc axis of each face as integer vectors
/// (the inverse of [`face_components`]).
const FACE_AXES: [[[i64; 3]; 3]; 6] = [
    [[1, 0, 0], [0, 0, -1], [0, -1, 0]],
    [[-1, 0, 0], [0, 0, 1], [0, -1, 0]],
    [[0, 1, 0], [1, 0, 0], [0, 0, 1]],
    [[0, -1, 0], [1, 0, 0], [0, 0, -1]],
    [[0, 0, 1], [1, 0, 0], [0, -1, 0]],
    [[0, 0, -1], [-1, 0, 0], [0, -1, 0]],
];

/// FS §7.18.12: texel (i, j) of a face of `n`×`n` texels, one texel off
/// the face along one axis, as the texel of the adjacent face it spills
/// onto. Works on texel centres in units of half a texel (the face spans
/// −n..n): the centre past the edge is folded over the edge onto the
/// neighbouring face.
fn cube_neighbor(face: u32, i: i64, j: i64, n: i64) -> (u32, i64, i64) {
    let axes = FACE_AXES[face as usize];
    let mut m = n;
    let mut s = 2 * i + 1 - n;
    let mut t = 2 * j + 1 - n;
    if s.abs() > n {
        m = n - (s.abs() - n);
        s = s.signum() * n;
    }
    if t.abs() > n {
        m = n - (t.abs() - n);
        t = t.signum() * n;
    }
    let v: [i64; 3] = [0, 1, 2].map(|k| m * axes[0][k] + s * axes[1][k] + t * axes[2][k]);
    let f = (0..6u32)
        .find(|&f| dot(FACE_AXES[f as usize][0], v) == n)
        .unwrap_or(face);
    let axes = FACE_AXES[f as usize];
    let (s, t) = (dot(axes[1], v), dot(axes[2], v));
    (f, (s + n - 1) / 2, (t + n - 1) / 2)
}

fn dot(a: [i64; 3], b: [i64; 3]) -> i64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

// ---------------------------------------------------------------------------
// Texel sources

/// `sample_c` / `gather4_c` comparison (FS §22.4.19, §22.4.3).
#[derive(Debug, Clone, Copy)]
struct Compare {
    func: ComparisonFunc,
    reference: f32,
    kind: ChannelKind,
    channel: usize,
}

impl Compare {
    /// The reference is quantised to the format "in exactly the same way
    /// that z is quantized to depth buffer precision", clamp included:
    /// UNORM/SNORM formats convert it as a typed store would (NaN → 0,
    /// clamp, round to the channel's bits) and back; float formats compare at
    /// f32 without a clamp. Denormals are flushed.
    fn new(format: Format, func: ComparisonFunc, reference: f32, channel: usize) -> Self {
        let kind = format.kind();
        let r = flush_denorm(reference);
        let plain = !format.is_block_compressed() && !format.is_srgb();
        let reference = match kind {
            ChannelKind::Unorm | ChannelKind::Snorm if plain => {
                let mut v = [0; 4];
                v[channel] = r.to_bits();
                f32::from_bits(format.decode(&format.encode(v))[channel])
            }
            _ => r,
        };
        Self {
            func,
            reference,
            kind,
            channel,
        }
    }

    /// 1.0 in all components where `reference OP texel[channel]` holds, else 0.0.
    fn apply(&self, texel: [u32; 4]) -> [u32; 4] {
        let bits = texel[self.channel];
        let value = match self.kind {
            ChannelKind::Uint => bits as f32,
            ChannelKind::Sint => bits as i32 as f32,
            _ => flush_denorm(f32::from_bits(bits)),
        };
        let r = if self.func.passes(self.reference, value) {
            1.0f32
        } else {
            0.0
        };
        [r.to_bits(); 4]
    }
}

fn flush_denorm(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn is_integer(format: Format) -> bool {
    matches!(format.kind(), ChannelKind::Uint | ChannelKind::Sint)
}

/// The texel the border colour stands for (FS §7.18.9.1): the components
/// present in the format, clamped to its range (UNORM and sRGB [0, 1],
/// SNORM [−1, 1], 16-bit floats ±65504, the unsigned small floats
/// [0, their maximum]; not snapped to the format's precision), the format's
/// defaults (0, A = 1) in the others. Integer formats (which D3D11 cannot
/// sample or gather) take the colour converted to an integer (saturating,
/// NaN → 0).
fn border_texel(view: &TextureView<'_>, color: [f32; 4]) -> [u32; 4] {
    use Format::*;
    let format = view.format();
    let mut out = view.out_of_range();
    for (c, slot) in out.iter_mut().enumerate() {
        if !present(format, c) {
            continue;
        }
        let v = color[c];
        let range = match format.kind() {
            ChannelKind::Unorm => Some((0.0, 1.0)),
            ChannelKind::Snorm => Some((-1.0, 1.0)),
            ChannelKind::Float => match format {
                R16G16B16A16_FLOAT | R16G16_FLOAT | R16_FLOAT | BC6H_SF16 => {
                    Some((-65504.0, 65504.0))
                }
                BC6H_UF16 => Some((0.0, 65504.0)),
                R11G11B10_FLOAT if c < 2 => Some((0.0, 65024.0)),
                R11G11B10_FLOAT => Some((0.0, 64512.0)),
                R9G9B9E5_SHAREDEXP => Some((0.0, 65408.0)),
                _ => None,
            },
            ChannelKind::Uint => {
                *slot = v as u32;
                continue;
            }
            ChannelKind::Sint => {
                *slot = v as i32 as u32;
                continue;
            }
        };
        *slot = match range {
            Some((lo, hi)) => v.clamp(lo, hi),
            None => v,
        }
        .to_bits();
    }
    out
}

/// Whether register component `c` (R, G, B, A = 0..3) carries data in
/// `format` (FS §19.1.3.3): the leading [`Format::channels`], except that
/// `A8_UNORM` has only A and the stencil views only G.
fn present(format: Format, c: usize) -> bool {
    match format {
        Format::A8_UNORM => c == 3,
        Format::X24_TYPELESS_G8_UINT | Format::X32_TYPELESS_G8X24_UINT => c == 1,
        _ => c < format.channels() as usize,
    }
}

/// One mip of one slice (or cube) of a view, with the sampler's addressing.
struct Source<'v, 'a> {
    view: &'v TextureView<'a>,
    level: u32,
    size: [u32; 3],
    geometry: Geometry,
    address: [AddressMode; 3],
    border: [u32; 4],
    compare: Option<Compare>,
    int_format: bool,
}

impl<'v, 'a> Source<'v, 'a> {
    fn new(
        view: &'v TextureView<'a>,
        sampler: &SamplerDesc,
        site: &Site,
        level: u32,
        compare: Option<Compare>,
    ) -> Self {
        Self {
            view,
            level,
            size: view.level_size(level),
            geometry: site.geometry,
            address: sampler.address,
            border: border_texel(view, sampler.border_color),
            compare,
            int_format: is_integer(view.format()),
        }
    }

    fn dims(&self) -> usize {
        match self.geometry {
            Geometry::Flat { dims, .. } => dims,
            Geometry::Cube { .. } => 2,
        }
    }

    fn is_cube(&self) -> bool {
        matches!(self.geometry, Geometry::Cube { .. })
    }

    /// FS §7.18.6–8 for axis `axis`: the texel taps and their weights in
    /// 1/256 (one tap of weight 256 for POINT, two for LINEAR).
    fn axis_taps(&self, axis: usize, u: f32, linear: bool, offset: i32) -> [(i64, u32); 2] {
        let n = self.size[axis];
        let (u, offset) = if self.is_cube() {
            (u, 0)
        } else {
            (reduce_range(u, self.address[axis]), offset)
        };
        let mut s = u * n as f32;
        if linear {
            s -= 0.5;
        }
        let fx = to_fixed(s, COORD_INT_BITS) + ((offset as i64) << FRAC_BITS);
        let t = fx >> FRAC_BITS;
        if linear {
            let w = (fx & (FX_ONE - 1)) as u32;
            [(t, FX_ONE as u32 - w), (t + 1, w)]
        } else if self.is_cube() {
            // face coordinate exactly 1.0: stay on the face
            [(t.clamp(0, n as i64 - 1), FX_ONE as u32), (0, 0)]
        } else {
            [(t, FX_ONE as u32), (0, 0)]
        }
    }

    /// Point or linear filter at normalized `uvw` into `acc`.
    fn filter(&self, uvw: [f32; 3], linear: bool, offset: [i32; 3], acc: &mut Acc) {
        let dims = self.dims();
        let taps: [[(i64, u32); 2]; 3] = [0, 1, 2].map(|k| {
            if k < dims {
                self.axis_taps(k, uvw[k], linear, offset[k])
            } else {
                [(0, FX_ONE as u32), (0, 0)]
            }
        });
        let w = |(_, w): (i64, u32)| w as f64 / FX_ONE as f64;
        for a in taps[0] {
            for b in taps[1] {
                for c in taps[2] {
                    let weight = w(a) * w(b) * w(c);
                    if weight != 0.0 {
                        acc.add(self.fetch([a.0, b.0, c.0]), weight);
                    }
                }
            }
        }
    }

    /// The texel at integer coordinates `t` (offsets applied, address modes
    /// not yet), compared if this is a comparison.
    fn fetch(&self, t: [i64; 3]) -> [u32; 4] {
        match self.geometry {
            Geometry::Flat { dims, slice } => {
                let mut xyz = [0u32; 3];
                for k in 0..dims {
                    match apply_address(t[k], self.size[k], self.address[k]) {
                        Some(x) => xyz[k] = x,
                        None => return self.finish_texel(self.border),
                    }
                }
                self.read(slice, xyz)
            }
            Geometry::Cube { base, face, .. } => {
                let n = self.size[0] as i64;
                let (i, j) = (t[0].clamp(-1, n), t[1].clamp(-1, n));
                let inside = |x: i64| (0..n).contains(&x);
                match (inside(i), inside(j)) {
                    (true, true) => self.read(base + face, [i as u32, j as u32, 0]),
                    (false, false) => {
                        // FS §7.18.12 corner: the average of the three real texels
                        let (ii, jj) = (i.clamp(0, n - 1), j.clamp(0, n - 1));
                        let three = [(i, jj), (ii, j), (ii, jj)]
                            .map(|(i, j)| self.cube_texel(base, face, i, j, n));
                        self.average3(three)
                    }
                    _ => self.cube_texel(base, face, i, j, n),
                }
            }
        }
    }

    /// A cube texel on `face` or one texel off it along one axis.
    fn cube_texel(&self, base: u32, face: u32, i: i64, j: i64, n: i64) -> [u32; 4] {
        let (f, i, j) = if (0..n).contains(&i) && (0..n).contains(&j) {
            (face, i, j)
        } else {
            cube_neighbor(face, i, j, n)
        };
        self.read(base + f, [i as u32, j as u32, 0])
    }

    fn average3(&self, t: [[u32; 4]; 3]) -> [u32; 4] {
        let ints = self.int_format && self.compare.is_none();
        [0, 1, 2, 3].map(|c| {
            if ints {
                let v = |k: usize| {
                    if self.view.format().kind() == ChannelKind::Sint {
                        t[k][c] as i32 as i64
                    } else {
                        t[k][c] as i64
                    }
                };
                ((v(0) + v(1) + v(2)) / 3) as u32
            } else {
                let v = |k: usize| f32::from_bits(t[k][c]) as f64;
                (((v(0) + v(1) + v(2)) / 3.0) as f32).to_bits()
            }
        })
    }

    fn read(&self, slice: u32, xyz: [u32; 3]) -> [u32; 4] {
        let texel = self
            .view
            .texel(self.level, slice, xyz)
            .unwrap_or_else(|| self.view.out_of_range());
        self.finish_texel(texel)
    }

    fn finish_texel(&self, texel: [u32; 4]) -> [u32; 4] {
        match &self.compare {
            Some(c) => c.apply(texel),
            None => texel,
        }
    }
}

// ---------------------------------------------------------------------------
// Accumulation

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reduce {
    Sum,
    Min,
    Max,
}

/// A weighted sum (in f64) or a per-component min/max of texels with
/// nonzero weight. A sum of one contribution of weight 1 keeps its bits.
#[derive(Debug, Clone, Copy)]
struct Acc {
    reduce: Reduce,
    sum: [f64; 4],
    /// min/max so far, or the bits of the single exact contribution
    bits: Option<[u32; 4]>,
    contributions: u32,
}

impl Acc {
    fn new(reduce: Reduce) -> Self {
        Self {
            reduce,
            sum: [0.0; 4],
            bits: None,
            contributions: 0,
        }
    }

    fn add(&mut self, texel: [u32; 4], weight: f64) {
        if weight == 0.0 {
            return;
        }
        match self.reduce {
            Reduce::Sum => {
                for (sum, &t) in self.sum.iter_mut().zip(&texel) {
                    *sum += f32::from_bits(t) as f64 * weight;
                }
                self.bits = (self.contributions == 0 && weight == 1.0).then_some(texel);
            }
            Reduce::Min | Reduce::Max => {
                let max = self.reduce == Reduce::Max;
                self.bits = Some(match self.bits {
                    None => texel,
                    Some(cur) => [0, 1, 2, 3].map(|c| {
                        let (a, b) = (f32::from_bits(cur[c]), f32::from_bits(texel[c]));
                        // D3D min/max: a NaN operand loses
                        let take_new = a.is_nan() || (if max { b > a } else { b < a });
                        if take_new {
                            texel[c]
                        } else {
                            cur[c]
                        }
                    }),
                });
            }
        }
        self.contributions += 1;
    }

    /// Fold in another accumulation with `weight` (a mip or probe weight).
    fn merge(&mut self, other: &Acc, weight: f64) {
        if weight == 0.0 || other.contributions == 0 {
            return;
        }
        match self.reduce {
            Reduce::Sum => {
                let exact = other
                    .bits
                    .filter(|_| weight == 1.0 && self.contributions == 0);
                for (sum, o) in self.sum.iter_mut().zip(other.sum) {
                    *sum += o * weight;
                }
                self.bits = exact;
                self.contributions += 1;
            }
            Reduce::Min | Reduce::Max => {
                if let Some(b) = other.bits {
                    self.add(b, 1.0);
                }
            }
        }
    }

    fn finish(&self) -> [u32; 4] {
        match (self.reduce, self.bits) {
            (_, Some(bits)) => bits,
            (Reduce::Sum, None) if self.contributions > 0 => self.sum.map(|v| (v as f32).to_bits()),
            _ => [0; 4],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neighbour table of the research digest (derived geometrically
    /// and matching Mesa's `lp_build_cube_new_coords`): for each face and
    /// edge, the face and texel one step off the edge lands on.
    #[test]
    fn cube_neighbours_match_the_table() {
        let n = 4i64;
        let max = n - 1;
        for face in 0..6u32 {
            for j in 0..n {
                // (s < 0, s ≥ N, t < 0, t ≥ N) → (face, s, t)
                let expect: [(u32, i64, i64); 4] = match face {
                    0 => [(4, max, j), (5, 0, j), (2, max, max - j), (3, max, j)],
                    1 => [(5, max, j), (4, 0, j), (2, 0, j), (3, 0, max - j)],
                    2 => [(1, j, 0), (0, max - j, 0), (5, max - j, 0), (4, j, 0)],
                    3 => [
                        (1, max - j, max),
                        (0, j, max),
                        (4, j, max),
                        (5, max - j, max),
                    ],
                    4 => [(1, max, j), (0, 0, j), (2, j, max), (3, j, 0)],
                    _ => [(0, max, j), (1, 0, j), (2, max - j, 0), (3, max - j, max)],
                };
                assert_eq!(
                    cube_neighbor(face, -1, j, n),
                    expect[0],
                    "face {face} s<0 j={j}"
                );
                assert_eq!(
                    cube_neighbor(face, n, j, n),
                    expect[1],
                    "face {face} s≥N j={j}"
                );
                assert_eq!(
                    cube_neighbor(face, j, -1, n),
                    expect[2],
                    "face {face} t<0 j={j}"
                );
                assert_eq!(
                    cube_neighbor(face, j, n, n),
                    expect[3],
                    "face {face} t≥N j={j}"
                );
            }
        }
    }

    #[test]
    fn fixed_point_conversion() {
        assert_eq!(to_fixed(f32::NAN, 8), 0);
        assert_eq!(to_fixed(1.5, 8), 384);
        assert_eq!(to_fixed(-0.25, 8), -64);
        assert_eq!(to_fixed(f32::INFINITY, 8), (128 << 8) - 1);
        assert_eq!(to_fixed(f32::NEG_INFINITY, 8), -(128 << 8));
        // 1/512 is a tie: round to even
        assert_eq!(to_fixed(1.0 / 512.0, 8), 0);
        assert_eq!(to_fixed(3.0 / 512.0, 8), 2);
    }

    #[test]
    fn address_modes_follow_the_pseudocode() {
        use AddressMode::*;
        // n = 4: indices -5..9
        let wrap: Vec<_> = (-5..9)
            .map(|t| apply_address(t, 4, Wrap).unwrap())
            .collect();
        assert_eq!(wrap, [3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]);
        let mirror: Vec<_> = (-5..9)
            .map(|t| apply_address(t, 4, Mirror).unwrap())
            .collect();
        assert_eq!(mirror, [3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0]);
        let once: Vec<_> = (-5..9)
            .map(|t| apply_address(t, 4, MirrorOnce).unwrap())
            .collect();
        assert_eq!(once, [3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3]);
        let clamp: Vec<_> = (-5..9)
            .map(|t| apply_address(t, 4, Clamp).unwrap())
            .collect();
        assert_eq!(clamp, [0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3]);
        assert_eq!(apply_address(-1, 4, Border), None);
        assert_eq!(apply_address(4, 4, Border), None);
        assert_eq!(apply_address(3, 4, Border), Some(3));
    }

    #[test]
    fn six_bit_offsets() {
        assert_eq!(sign_extend6(31), 31);
        assert_eq!(sign_extend6(32), -32);
        assert_eq!(sign_extend6(-1), -1);
        assert_eq!(sign_extend6(63), -1);
        assert_eq!(sign_extend6(64 + 5), 5);
        assert_eq!(sign_extend6(-8), -8);
    }
}
