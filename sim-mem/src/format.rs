//! DXGI formats of typed buffer and texture views and their conversions
//! between memory and shader registers (FS §3.2 "Data conversion", §19
//! "Formats"; digested in `reference/sm5-compute-isa.md` §10–§11 and
//! `compute-model.md` §8.2).
//!
//! Reading (`ld`, `ld_uav_typed`, sampling before filtering) converts each
//! present channel to what the shader sees — float bits for FLOAT/UNORM/SNORM
//! channels, zero- or sign-extended integers for UINT/SINT channels — and
//! fills missing channels with 0, except alpha, which reads 1 (1.0f for float
//! and normalized formats, integer 1 for integer formats; FS §19.1.3.3).
//! `_SRGB` formats linearize R, G and B (FS §3.2.3.7); alpha stays linear
//! (FS §19.1.3.2). `X` bits are ignored on read and written as 0.
//!
//! Writing (`store_uav_typed`) converts the register value per channel:
//! - UNORM: NaN → 0, clamp to [0, 1], × (2ⁿ−1), + 0.5, truncate;
//! - SNORM: NaN → 0, clamp to [−1, 1], × (2ⁿ⁻¹−1), round half away from zero;
//! - 16-bit and 11/10-bit floats: round toward zero, finite overflow → the
//!   largest finite value, ±INF and NaN kept (unsigned 11/10-bit floats
//!   store negative values as 0);
//! - UINT/SINT narrower than 32 bits: clamp the register's unsigned
//!   (UINT) or signed (SINT) value to the format's range (FS §3.2.3.13).
//!
//! Only some formats may back a typed UAV ([`Format::uav_storable`]) or a
//! typed buffer view ([`Format::buffer_viewable`]); the rest are texture SRV
//! formats. Conversions the hardware never performs (linear → sRGB, float →
//! shared exponent, float → XR_BIAS) are still provided for host-side
//! initialisation through [`Format::encode_texel`].
//!
//! Formats left out on purpose: the `_TYPELESS` and depth/stencil formats
//! (never view formats; their SRV views are the `R32_FLOAT_X8X24_TYPELESS`
//! family below), `R1_UNORM` (1 bit per texel: the FS gives neither its bit
//! order nor a filter other than the DDI-only `TEXT_1BIT`), and the video
//! (YUV) and palettized formats. The sub-sampled `R8G8_B8G8_UNORM` /
//! `G8R8_G8B8_UNORM` are 2×1 blocks ([`Format::block_size`], FS §19.4).

use crate::bc::{self, BcKind};
use std::sync::OnceLock;

/// How a channel is interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelKind {
    /// IEEE float (32, 16, 11 or 10 bits)
    Float,
    /// unsigned normalized
    Unorm,
    /// signed normalized
    Snorm,
    /// unsigned integer
    Uint,
    /// signed integer
    Sint,
}

/// How a format's bits become register values, beyond the per-channel rules
/// of its [`ChannelKind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    /// Every field converts by the format's kind (FS §3.2).
    Plain,
    /// R, G, B are 8-bit sRGB (FS §3.2.3.7–8); A is UNORM.
    Srgb,
    /// R, G, B use the XR_BIAS conversion (n − 0x180)/510; A is UNORM.
    XrBias,
    /// R9G9B9E5 shared exponent (FS §19.3.2).
    SharedExp,
    /// A block-compressed format (FS §19.5).
    Block(BcKind),
    /// A block-compressed format whose R, G, B are sRGB (FS §19.5.6).
    BlockSrgb(BcKind),
    /// `R8G8_B8G8_UNORM`: a 2×1 block of bytes R, G0, B, G1 (FS §19.4).
    SubsampledRGBG,
    /// `G8R8_G8B8_UNORM`: a 2×1 block of bytes G0, R, G1, B (FS §19.4).
    SubsampledGRGB,
}

/// Register component of a field: R, G, B, A → 0..3; X (unused bits) and
/// E (the shared exponent) → no component.
macro_rules! component {
    (R) => {
        0
    };
    (G) => {
        1
    };
    (B) => {
        2
    };
    (A) => {
        3
    };
    (X) => {
        NO_COMPONENT
    };
    (E) => {
        NO_COMPONENT
    };
}

const NO_COMPONENT: u8 = 4;

macro_rules! formats {
    ($( $name:ident $bytes:literal $kind:ident [$($c:ident : $bits:literal)*] $codec:ident $(($bc:ident))?; )*) => {
        /// A DXGI format usable by a typed buffer or texture view, named as
        /// `DXGI_FORMAT_*` without the prefix (FS §19.1).
        #[allow(non_camel_case_types, missing_docs)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Format { $( $name, )* }

        impl Format {
            /// Every supported format: the 43 typed-buffer formats first, then
            /// the texture-only ones.
            pub const ALL: &'static [Format] = &[ $( Format::$name, )* ];

            /// The DXGI name without the `DXGI_FORMAT_` prefix, e.g. `R8G8B8A8_UNORM`.
            pub fn name(self) -> &'static str {
                match self { $( Format::$name => stringify!($name), )* }
            }

            /// Bytes per element, or per 4×4 block for block-compressed formats
            /// (8 for BC1 and BC4, 16 for the others; FS §19.5).
            pub fn size_bytes(self) -> u32 {
                match self { $( Format::$name => $bytes, )* }
            }

            /// Channel kind: how the shader declares the resource's return type.
            /// sRGB and BC1–BC3/BC7 formats are `Unorm`, BC4/BC5 SNORM `Snorm`,
            /// BC6H and R9G9B9E5 `Float`; the depth-derived views take the kind
            /// of their one present channel (FS §19.1.3.3).
            pub fn kind(self) -> ChannelKind {
                match self { $( Format::$name => ChannelKind::$kind, )* }
            }

            /// Bits of each field in memory order, from bit 0 up (e.g. B, G, R, A
            /// for `B8G8R8A8_UNORM`), unused `X` fields and the shared exponent
            /// included, so they sum to `size_bytes() * 8`; empty for
            /// block-compressed formats (FS §19.1.3.1).
            pub fn channel_bits(self) -> &'static [u32] {
                match self { $( Format::$name => &[$($bits),*], )* }
            }

            /// The register component of each field of `channel_bits`, or
            /// `NO_COMPONENT`.
            fn components(self) -> &'static [u8] {
                match self { $( Format::$name => &[$(component!($c)),*], )* }
            }

            fn codec(self) -> Codec {
                match self { $( Format::$name => Codec::$codec $((BcKind::$bc))?, )* }
            }
        }
    };
}

formats! {
    // Typed-buffer formats (FS §19.1.4, FL11_0 "Buffer" column).
    R32G32B32A32_FLOAT 16 Float [R:32 G:32 B:32 A:32] Plain;
    R32G32B32A32_UINT 16 Uint [R:32 G:32 B:32 A:32] Plain;
    R32G32B32A32_SINT 16 Sint [R:32 G:32 B:32 A:32] Plain;
    R32G32B32_FLOAT 12 Float [R:32 G:32 B:32] Plain;
    R32G32B32_UINT 12 Uint [R:32 G:32 B:32] Plain;
    R32G32B32_SINT 12 Sint [R:32 G:32 B:32] Plain;
    R16G16B16A16_FLOAT 8 Float [R:16 G:16 B:16 A:16] Plain;
    R16G16B16A16_UNORM 8 Unorm [R:16 G:16 B:16 A:16] Plain;
    R16G16B16A16_UINT 8 Uint [R:16 G:16 B:16 A:16] Plain;
    R16G16B16A16_SNORM 8 Snorm [R:16 G:16 B:16 A:16] Plain;
    R16G16B16A16_SINT 8 Sint [R:16 G:16 B:16 A:16] Plain;
    R32G32_FLOAT 8 Float [R:32 G:32] Plain;
    R32G32_UINT 8 Uint [R:32 G:32] Plain;
    R32G32_SINT 8 Sint [R:32 G:32] Plain;
    R10G10B10A2_UNORM 4 Unorm [R:10 G:10 B:10 A:2] Plain;
    R10G10B10A2_UINT 4 Uint [R:10 G:10 B:10 A:2] Plain;
    R11G11B10_FLOAT 4 Float [R:11 G:11 B:10] Plain;
    R8G8B8A8_UNORM 4 Unorm [R:8 G:8 B:8 A:8] Plain;
    R8G8B8A8_UINT 4 Uint [R:8 G:8 B:8 A:8] Plain;
    R8G8B8A8_SNORM 4 Snorm [R:8 G:8 B:8 A:8] Plain;
    R8G8B8A8_SINT 4 Sint [R:8 G:8 B:8 A:8] Plain;
    B8G8R8A8_UNORM 4 Unorm [B:8 G:8 R:8 A:8] Plain;
    R16G16_FLOAT 4 Float [R:16 G:16] Plain;
    R16G16_UNORM 4 Unorm [R:16 G:16] Plain;
    R16G16_UINT 4 Uint [R:16 G:16] Plain;
    R16G16_SNORM 4 Snorm [R:16 G:16] Plain;
    R16G16_SINT 4 Sint [R:16 G:16] Plain;
    R32_FLOAT 4 Float [R:32] Plain;
    R32_UINT 4 Uint [R:32] Plain;
    R32_SINT 4 Sint [R:32] Plain;
    R8G8_UNORM 2 Unorm [R:8 G:8] Plain;
    R8G8_UINT 2 Uint [R:8 G:8] Plain;
    R8G8_SNORM 2 Snorm [R:8 G:8] Plain;
    R8G8_SINT 2 Sint [R:8 G:8] Plain;
    R16_FLOAT 2 Float [R:16] Plain;
    R16_UNORM 2 Unorm [R:16] Plain;
    R16_UINT 2 Uint [R:16] Plain;
    R16_SNORM 2 Snorm [R:16] Plain;
    R16_SINT 2 Sint [R:16] Plain;
    R8_UNORM 1 Unorm [R:8] Plain;
    R8_UINT 1 Uint [R:8] Plain;
    R8_SNORM 1 Snorm [R:8] Plain;
    R8_SINT 1 Sint [R:8] Plain;
    // Texture formats. `B8G8R8X8_UNORM` may also back a typed buffer.
    B8G8R8X8_UNORM 4 Unorm [B:8 G:8 R:8 X:8] Plain;
    R8G8B8A8_UNORM_SRGB 4 Unorm [R:8 G:8 B:8 A:8] Srgb;
    B8G8R8A8_UNORM_SRGB 4 Unorm [B:8 G:8 R:8 A:8] Srgb;
    B8G8R8X8_UNORM_SRGB 4 Unorm [B:8 G:8 R:8 X:8] Srgb;
    // FS §19.6 ("resurrected" D3D9 formats): B in the low bits.
    B5G6R5_UNORM 2 Unorm [B:5 G:6 R:5] Plain;
    B5G5R5A1_UNORM 2 Unorm [B:5 G:5 R:5 A:1] Plain;
    B4G4R4A4_UNORM 2 Unorm [B:4 G:4 R:4 A:4] Plain;
    A8_UNORM 1 Unorm [A:8] Plain;
    R10G10B10_XR_BIAS_A2_UNORM 4 Unorm [R:10 G:10 B:10 A:2] XrBias;
    R9G9B9E5_SHAREDEXP 4 Float [R:9 G:9 B:9 E:5] SharedExp;
    // SRV views of depth/stencil resources (FS §19.1.3.3): D32_FLOAT_S8X24_UINT
    // keeps depth in bytes 0–3 and stencil in byte 4; D24_UNORM_S8_UINT keeps
    // depth in bits 0–23 and stencil in bits 24–31.
    R32_FLOAT_X8X24_TYPELESS 8 Float [R:32 X:8 X:24] Plain;
    X32_TYPELESS_G8X24_UINT 8 Uint [X:32 G:8 X:24] Plain;
    R24_UNORM_X8_TYPELESS 4 Unorm [R:24 X:8] Plain;
    X24_TYPELESS_G8_UINT 4 Uint [X:24 G:8] Plain;
    // Block-compressed, 4×4 texels per block (FS §19.5).
    BC1_UNORM 8 Unorm [] Block(Bc1);
    BC1_UNORM_SRGB 8 Unorm [] BlockSrgb(Bc1);
    BC2_UNORM 16 Unorm [] Block(Bc2);
    BC2_UNORM_SRGB 16 Unorm [] BlockSrgb(Bc2);
    BC3_UNORM 16 Unorm [] Block(Bc3);
    BC3_UNORM_SRGB 16 Unorm [] BlockSrgb(Bc3);
    BC4_UNORM 8 Unorm [] Block(Bc4U);
    BC4_SNORM 8 Snorm [] Block(Bc4S);
    BC5_UNORM 16 Unorm [] Block(Bc5U);
    BC5_SNORM 16 Snorm [] Block(Bc5S);
    BC6H_UF16 16 Float [] Block(Bc6hU);
    BC6H_SF16 16 Float [] Block(Bc6hS);
    BC7_UNORM 16 Unorm [] Block(Bc7);
    BC7_UNORM_SRGB 16 Unorm [] BlockSrgb(Bc7);
    // Sub-sampled, 2×1 texels per 32-bit block (FS §19.4).
    R8G8_B8G8_UNORM 4 Unorm [] SubsampledRGBG;
    G8R8_G8B8_UNORM 4 Unorm [] SubsampledGRGB;
}

impl Format {
    /// The format called `name` (with or without `DXGI_FORMAT_`, any case).
    pub fn from_name(name: &str) -> Option<Format> {
        let n = name.trim();
        let n = n
            .strip_prefix("DXGI_FORMAT_")
            .or_else(|| n.strip_prefix("dxgi_format_"))
            .unwrap_or(n);
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(n))
    }

    /// Whether shader atomics may target a UAV of this format (R32_UINT / R32_SINT, FS §22.17).
    pub fn allows_atomics(self) -> bool {
        matches!(self, Format::R32_UINT | Format::R32_SINT)
    }

    /// Texels per block side: 4 for block-compressed formats (FS §19.5.1), else 1
    /// (see [`Format::block_size`] for the sub-sampled formats' 2×1 blocks).
    pub fn block_dim(self) -> u32 {
        if self.is_block_compressed() {
            4
        } else {
            1
        }
    }

    /// Texels per block, width × height: 4×4 for BC formats (FS §19.5.1),
    /// 2×1 for the sub-sampled `R8G8_B8G8_UNORM` / `G8R8_G8B8_UNORM` (FS
    /// §19.4), else 1×1. `size_bytes()` is the size of one block.
    pub fn block_size(self) -> [u32; 2] {
        match self.codec() {
            Codec::Block(_) | Codec::BlockSrgb(_) => [4, 4],
            Codec::SubsampledRGBG | Codec::SubsampledGRGB => [2, 1],
            _ => [1, 1],
        }
    }

    /// Whether this is one of the sub-sampled formats (FS §19.4), whose two
    /// texels share R and B.
    pub fn is_subsampled(self) -> bool {
        matches!(self.codec(), Codec::SubsampledRGBG | Codec::SubsampledGRGB)
    }

    /// Whether this is a BC1–BC7 format (FS §19.5).
    pub fn is_block_compressed(self) -> bool {
        matches!(self.codec(), Codec::Block(_) | Codec::BlockSrgb(_))
    }

    /// Whether R, G and B are stored as sRGB and linearized on read
    /// (`_SRGB` formats, FS §19.1.3.2 and §3.2.3.7).
    pub fn is_srgb(self) -> bool {
        matches!(self.codec(), Codec::Srgb | Codec::BlockSrgb(_))
    }

    /// Number of leading register components (R, G, B, A order) that carry
    /// data, for exporting texels (e.g. to PNG): R8G8 → 2, B5G6R5 and
    /// B8G8R8X8 → 3, B8G8R8A8 → 4. `A8_UNORM` → 4, because its one channel is
    /// alpha (R, G, B read 0); the stencil views `X24_TYPELESS_G8_UINT` and
    /// `X32_TYPELESS_G8X24_UINT` → 2 (R reads 0). Block formats: BC1/2/3/7 →
    /// 4, BC4 → 1, BC5 → 2, BC6H → 3 (FS §19.5).
    pub fn channels(self) -> u32 {
        match self.codec() {
            Codec::Block(b) | Codec::BlockSrgb(b) => match b {
                BcKind::Bc1 | BcKind::Bc2 | BcKind::Bc3 | BcKind::Bc7 => 4,
                BcKind::Bc4U | BcKind::Bc4S => 1,
                BcKind::Bc5U | BcKind::Bc5S => 2,
                BcKind::Bc6hU | BcKind::Bc6hS => 3,
            },
            Codec::SubsampledRGBG | Codec::SubsampledGRGB => 3,
            _ => self
                .components()
                .iter()
                .filter(|&&c| c != NO_COMPONENT)
                .max()
                .map_or(0, |&c| c as u32 + 1),
        }
    }

    /// Whether a typed UAV of this format accepts `store_uav_typed`, per the
    /// D3D11.0 answer (FL11_0 format table of FS §19.1.4, "Typed UAV"
    /// column, required support only): not sRGB, not block-compressed, not
    /// R9G9B9E5, not the depth-derived or XR_BIAS views, not the 96-bit
    /// R32G32B32 formats, not B8G8R8A8/B8G8R8X8, and not the optional
    /// B5G6R5/B5G5R5A1/B4G4R4A4 (FS §19.6). `A8_UNORM` is storable.
    pub fn uav_storable(self) -> bool {
        use Format::*;
        matches!(
            self,
            R32G32B32A32_FLOAT
                | R32G32B32A32_UINT
                | R32G32B32A32_SINT
                | R16G16B16A16_FLOAT
                | R16G16B16A16_UNORM
                | R16G16B16A16_UINT
                | R16G16B16A16_SNORM
                | R16G16B16A16_SINT
                | R32G32_FLOAT
                | R32G32_UINT
                | R32G32_SINT
                | R10G10B10A2_UNORM
                | R10G10B10A2_UINT
                | R11G11B10_FLOAT
                | R8G8B8A8_UNORM
                | R8G8B8A8_UINT
                | R8G8B8A8_SNORM
                | R8G8B8A8_SINT
                | R16G16_FLOAT
                | R16G16_UNORM
                | R16G16_UINT
                | R16G16_SNORM
                | R16G16_SINT
                | R32_FLOAT
                | R32_UINT
                | R32_SINT
                | R8G8_UNORM
                | R8G8_UINT
                | R8G8_SNORM
                | R8G8_SINT
                | R16_FLOAT
                | R16_UNORM
                | R16_UINT
                | R16_SNORM
                | R16_SINT
                | R8_UNORM
                | R8_UINT
                | R8_SNORM
                | R8_SINT
                | A8_UNORM
        )
    }

    /// Whether a typed buffer view (`Buffer<>` / `RWBuffer<>`) may use this
    /// format (FL11_0 format table of FS §19.1.4, "Buffer" column, required
    /// support): the 43 original typed-buffer formats and `B8G8R8X8_UNORM`.
    /// B5G6R5/B5G5R5A1/B4G4R4A4 buffers are optional (FS §19.6), so no.
    pub fn buffer_viewable(self) -> bool {
        use Format::*;
        (self.uav_storable() && self != A8_UNORM)
            || matches!(
                self,
                R32G32B32_FLOAT | R32G32B32_UINT | R32G32B32_SINT | B8G8R8A8_UNORM | B8G8R8X8_UNORM
            )
    }

    /// Whether a shader resource view (`ld`/`sample`) may use this format:
    /// every format here except `R10G10B10_XR_BIAS_A2_UNORM`, which D3D11
    /// allows only for display scan-out, CPU access and casts (FL11_0 format
    /// table, "Shader ld" column); its decoding is provided for host-side use.
    pub fn srv_viewable(self) -> bool {
        self != Format::R10G10B10_XR_BIAS_A2_UNORM
    }

    /// Decode one element (`size_bytes()` little-endian bytes) into the four
    /// 32-bit register values a load returns; for block-compressed formats,
    /// texel 0 of the block. Same as `decode_texel(bytes, 0)`.
    pub fn decode(self, bytes: &[u8]) -> [u32; 4] {
        self.decode_texel(bytes, 0)
    }

    /// Decode texel `texel` (0..16, row-major inside the 4×4 block; ignored
    /// for non-block formats) of one element or block (`bytes.len() ==
    /// size_bytes()`; missing bytes read as 0) to register values:
    /// per-channel conversion of FS §3.2.3, sRGB → linear for `_SRGB`
    /// formats (FS §3.2.3.7, computed in f64 and rounded to f32), R9G9B9E5
    /// per FS §19.3.2.1, XR_BIAS as (n − 0x180)/510, BC formats per FS §19.5;
    /// missing channels read 0, alpha 1 (FS §19.1.3.3).
    pub fn decode_texel(self, bytes: &[u8], texel: usize) -> [u32; 4] {
        let codec = self.codec();
        match codec {
            Codec::Block(b) => return bc::decode_texel(b, bytes, texel, false),
            Codec::BlockSrgb(b) => return bc::decode_texel(b, bytes, texel, true),
            Codec::SubsampledRGBG | Codec::SubsampledGRGB => {
                // FS §19.4: G from the addressed texel, R from the even one, B from the odd one
                let b = |i: usize| bytes.get(i).copied().unwrap_or(0) as u32;
                let (r, g, bl) = if codec == Codec::SubsampledRGBG {
                    (b(0), b(1 + 2 * (texel & 1)), b(2))
                } else {
                    (b(1), b(2 * (texel & 1)), b(3))
                };
                let f = |v: u32| decode_channel(ChannelKind::Unorm, 8, v);
                return [f(r), f(g), f(bl), 1.0f32.to_bits()];
            }
            Codec::SharedExp => return rgb9e5_to_f32(read_bits(bytes, 0, 32)),
            Codec::Plain | Codec::Srgb | Codec::XrBias => {}
        }
        let kind = self.kind();
        let one = match kind {
            ChannelKind::Uint | ChannelKind::Sint => 1,
            _ => 1.0f32.to_bits(),
        };
        let mut out = [0, 0, 0, one];
        let mut bit = 0u32;
        for (&bits, &c) in self.channel_bits().iter().zip(self.components()) {
            let raw = read_bits(bytes, bit, bits);
            bit += bits;
            if c == NO_COMPONENT {
                continue;
            }
            out[c as usize] = match (codec, c) {
                (Codec::Srgb, 0..=2) => srgb8_to_f32(raw as u8),
                (Codec::XrBias, 0..=2) => xr_to_f32(raw),
                _ => decode_channel(kind, bits, raw),
            };
        }
        out
    }

    /// Encode four register values into one element's `size_bytes()` bytes
    /// with the typed-store conversions of FS §3.2 (see the module docs);
    /// `_SRGB` channels go through FLOAT → SRGB (FS §3.2.3.8), R9G9B9E5
    /// through FS §19.3.2.2, XR_BIAS through its float → XR rule; `X` bits
    /// are written as 0. Block-compressed formats have no per-texel encoding:
    /// they give `size_bytes()` zero bytes (see [`Format::encode_texel`]).
    pub fn encode(self, value: [u32; 4]) -> Vec<u8> {
        let mut out = vec![0u8; self.size_bytes() as usize];
        let codec = self.codec();
        match codec {
            Codec::Block(_)
            | Codec::BlockSrgb(_)
            | Codec::SubsampledRGBG
            | Codec::SubsampledGRGB => return out,
            Codec::SharedExp => {
                out.copy_from_slice(&f32_to_rgb9e5(value).to_le_bytes());
                return out;
            }
            Codec::Plain | Codec::Srgb | Codec::XrBias => {}
        }
        let kind = self.kind();
        let mut bit = 0u32;
        for (&bits, &c) in self.channel_bits().iter().zip(self.components()) {
            if c != NO_COMPONENT {
                let v = value[c as usize];
                let raw = match (codec, c) {
                    (Codec::Srgb, 0..=2) => f32_to_srgb8(v),
                    (Codec::XrBias, 0..=2) => f32_to_xr(v),
                    _ => encode_channel(kind, bits, v),
                };
                write_bits(&mut out, bit, bits, raw);
            }
            bit += bits;
        }
        out
    }

    /// One element whose channels hold the low bits of `value`'s
    /// components, with no conversion: what `ClearUnorderedAccessViewUint`
    /// writes ("copies the lower n bits of each value to the channel of n
    /// bits", `ID3D11DeviceContext::ClearUnorderedAccessViewUint`). `X`
    /// bits are 0. Block-compressed, subsampled and shared-exponent formats
    /// give `size_bytes()` zero bytes (no UAV has them).
    pub fn pack_bits(self, value: [u32; 4]) -> Vec<u8> {
        let mut out = vec![0u8; self.size_bytes() as usize];
        if !matches!(self.codec(), Codec::Plain | Codec::Srgb | Codec::XrBias) {
            return out;
        }
        let mut bit = 0u32;
        for (&bits, &c) in self.channel_bits().iter().zip(self.components()) {
            if c != NO_COMPONENT {
                write_bits(&mut out, bit, bits, value[c as usize]);
            }
            bit += bits;
        }
        out
    }

    /// Encode one texel for host-side initialisation (e.g. from PNG pixels):
    /// [`Format::encode`], which for `_SRGB` formats converts linear float →
    /// sRGB (FS §3.2.3.8) and for R9G9B9E5 applies FS §19.3.2.2 — conversions
    /// that no D3D11 shader store performs. `None` for block-compressed
    /// formats, whose texels cannot be encoded one at a time.
    pub fn encode_texel(self, value: [u32; 4]) -> Option<Vec<u8>> {
        if self.is_block_compressed() || self.is_subsampled() {
            None
        } else {
            Some(self.encode(value))
        }
    }
}

/// sRGB → linear for an 8-bit channel (FS §3.2.3.7): c = n/255, then
/// c/12.92 when c ≤ 0.04045, else ((c + 0.055)/1.055)^2.4, computed in f64 and
/// rounded to f32 (0 and 1 exact). Returns f32 bits.
pub(crate) fn srgb8_to_f32(n: u8) -> u32 {
    static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, e) in t.iter_mut().enumerate() {
            let c = i as f64 / 255.0;
            let l = if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            };
            *e = (l as f32).to_bits();
        }
        t
    })[n as usize]
}

/// Linear → 8-bit sRGB (FS §3.2.3.8): NaN → 0, clamp to [0, 1], 12.92·c when
/// c ≤ 0.0031308, else 1.055·c^(1/2.4) − 0.055, then × 255, + 0.5, truncate.
fn f32_to_srgb8(bits: u32) -> u32 {
    let f = flush(bits);
    if f.is_nan() {
        return 0;
    }
    let c = f.clamp(0.0, 1.0) as f64;
    let s = if c <= 0.0031308 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    ((s * 255.0 + 0.5) as u32).min(255)
}

/// XR_BIAS → float: (n − 0x180) / 510 for a 10-bit field (Windows driver
/// docs, "XR_BIAS to Float Conversion Rules"; the FS leaves the format to
/// them). Returns f32 bits.
fn xr_to_f32(raw: u32) -> u32 {
    ((raw as i32 - 0x180) as f32 / 510.0).to_bits()
}

/// Float → XR_BIAS ("Float to XR_BIAS Conversion Rules"): NaN → 0, c·510 +
/// 384 clamped to [0, 1023], rounded to nearest.
fn f32_to_xr(bits: u32) -> u32 {
    let f = flush(bits);
    if f.is_nan() {
        return 0;
    }
    let c = (f as f64 * 510.0 + 384.0).clamp(0.0, 1023.0);
    (c + 0.5) as u32
}

/// R9G9B9E5 → float (FS §19.3.2.1): each 9-bit mantissa (R bits 0–8, G 9–17,
/// B 18–26) × 2^(E − 15 − 9) with E = bits 27–31, no implied 1; A = 1.0.
fn rgb9e5_to_f32(w: u32) -> [u32; 4] {
    let scale = pow2((w >> 27) as i32 - 24);
    let m = |shift: u32| ((((w >> shift) & 0x1ff) as f32) * scale).to_bits();
    [m(0), m(9), m(18), 1.0f32.to_bits()]
}

/// Float → R9G9B9E5 (FS §19.3.2.2): NaN and negatives → 0, values above
/// 65408 (the largest, 0.111111111₂ × 2¹⁶) and +INF saturate to it; the
/// shared exponent is that of the largest channel; mantissas round to
/// nearest even.
fn f32_to_rgb9e5(value: [u32; 4]) -> u32 {
    let c = [0, 1, 2].map(|i| {
        let f = flush(value[i]);
        if f.is_nan() {
            0.0
        } else {
            (f as f64).clamp(0.0, 65408.0)
        }
    });
    let max = c[0].max(c[1]).max(c[2]);
    if max == 0.0 {
        return 0;
    }
    // Smallest biased exponent e with max < 2^(e−15): max·2^(24−e) < 512.
    let unbiased = ((max.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut e = (unbiased + 16).max(0);
    let quantize =
        |x: f64, e: i32| (x * f64::from_bits(((1023 + 24 - e) as u64) << 52)).round_ties_even();
    if quantize(max, e) >= 512.0 {
        e += 1;
    }
    let [r, g, b] = c.map(|x| quantize(x, e) as u32);
    (e as u32) << 27 | b << 18 | g << 9 | r
}

fn read_bits(bytes: &[u8], start: u32, bits: u32) -> u32 {
    let mut v = 0u64;
    for i in 0..bits.div_ceil(8) + 1 {
        let b = (start / 8 + i) as usize;
        if let Some(&x) = bytes.get(b) {
            v |= (x as u64) << (8 * i);
        }
    }
    let v = v >> (start % 8);
    (v & ((1u64 << bits) - 1)) as u32
}

fn write_bits(bytes: &mut [u8], start: u32, bits: u32, value: u32) {
    for i in 0..bits {
        let bit = (value >> i) & 1;
        let pos = start + i;
        if let Some(b) = bytes.get_mut((pos / 8) as usize) {
            *b = (*b & !(1 << (pos % 8))) | ((bit as u8) << (pos % 8));
        }
    }
}

fn decode_channel(kind: ChannelKind, bits: u32, raw: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f64;
    match kind {
        ChannelKind::Uint => raw,
        ChannelKind::Sint => ((raw << (32 - bits)) as i32 >> (32 - bits)) as u32,
        ChannelKind::Unorm => ((raw as f64 / max) as f32).to_bits(),
        ChannelKind::Snorm => {
            let s = ((raw << (32 - bits)) as i32 >> (32 - bits)) as f64;
            let scale = ((1u64 << (bits - 1)) - 1) as f64;
            ((s / scale).max(-1.0) as f32).to_bits()
        }
        ChannelKind::Float => match bits {
            32 => raw,
            16 => f16_to_f32(raw),
            11 => small_float_to_f32(raw, 6),
            _ => small_float_to_f32(raw, 5),
        },
    }
}

fn encode_channel(kind: ChannelKind, bits: u32, v: u32) -> u32 {
    let max = (1u64 << bits) - 1;
    match kind {
        ChannelKind::Uint => (v as u64).min(max) as u32,
        ChannelKind::Sint => {
            let lo = -(1i64 << (bits - 1));
            let hi = (1i64 << (bits - 1)) - 1;
            ((v as i32 as i64).clamp(lo, hi) as u64 & max) as u32
        }
        ChannelKind::Unorm => {
            let f = flush(v);
            if f.is_nan() {
                return 0;
            }
            let c = f.clamp(0.0, 1.0) as f64;
            (c * max as f64 + 0.5) as u32
        }
        ChannelKind::Snorm => {
            let f = flush(v);
            if f.is_nan() {
                return 0;
            }
            let scale = ((1u64 << (bits - 1)) - 1) as f64;
            let c = (f.clamp(-1.0, 1.0) as f64 * scale).round() as i64;
            (c as u64 & max) as u32
        }
        ChannelKind::Float => match bits {
            32 => v,
            16 => f32_to_f16_rtz(v),
            11 => f32_to_small_float(v, 6),
            _ => f32_to_small_float(v, 5),
        },
    }
}

fn flush(bits: u32) -> f32 {
    if bits & 0x7f80_0000 == 0 {
        f32::from_bits(bits & 0x8000_0000)
    } else {
        f32::from_bits(bits)
    }
}

/// float → half, rounding toward zero: finite overflow → ±65504, ±INF and NaN
/// kept, half denormals produced, f32 denormals flushed to ±0 (FS §3.2.2;
/// `f32tof16` and 16-bit float stores).
pub fn f32_to_f16_rtz(bits: u32) -> u32 {
    let x = if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    };
    let sign = (x >> 16) & 0x8000;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | if man == 0 { 0x7c00 } else { 0x7e00 };
    }
    if exp == 0 {
        return sign;
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7bff;
    }
    if e <= 0 {
        let shift = 14 - e;
        if shift >= 32 {
            return sign;
        }
        return sign | ((man | 0x80_0000) >> shift);
    }
    sign | ((e as u32) << 10) | (man >> 13)
}

/// 2^e for a normal f32 exponent (−126 ≤ e ≤ 127), built from its bits:
/// exact by construction, unlike `powi`, whose accuracy is unspecified.
fn pow2(e: i32) -> f32 {
    f32::from_bits(((e + 127) as u32) << 23)
}

/// half (the low 16 bits) → float, exact (`f16tof32`, 16-bit float loads).
pub fn f16_to_f32(bits: u32) -> u32 {
    let h = bits & 0xffff;
    let sign = (h & 0x8000) << 16;
    let exp = (h >> 10) & 0x1f;
    let man = h & 0x3ff;
    if exp == 0x1f {
        return sign | 0x7f80_0000 | (man << 13);
    }
    if exp == 0 {
        if man == 0 {
            return sign;
        }
        return sign | (man as f32 * pow2(-24)).to_bits();
    }
    sign | ((exp + 127 - 15) << 23) | (man << 13)
}

/// Unsigned 11- or 10-bit float (5-bit exponent, bias 15, `man_bits`-bit
/// mantissa) → f32, exact.
fn small_float_to_f32(raw: u32, man_bits: u32) -> u32 {
    let exp = raw >> man_bits;
    let man = raw & ((1 << man_bits) - 1);
    if exp == 0x1f {
        return 0x7f80_0000 | (man << (23 - man_bits));
    }
    if exp == 0 {
        return (man as f32 * pow2(-14 - man_bits as i32)).to_bits();
    }
    ((exp + 127 - 15) << 23) | (man << (23 - man_bits))
}

/// f32 → unsigned 11- or 10-bit float, rounding toward zero; negative values
/// (and −INF) → 0, NaN kept, finite overflow → the largest finite value.
fn f32_to_small_float(bits: u32, man_bits: u32) -> u32 {
    let f = flush(bits);
    let man_mask = (1u32 << man_bits) - 1;
    if f.is_nan() {
        return (0x1f << man_bits) | man_mask;
    }
    if f <= 0.0 {
        return 0;
    }
    if f.is_infinite() {
        return 0x1f << man_bits;
    }
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let man = bits & 0x7f_ffff;
    if exp >= 31 {
        return (0x1e << man_bits) | man_mask;
    }
    if exp <= 0 {
        let shift = (23 - man_bits) as i32 + 1 - exp;
        if shift >= 32 {
            return 0;
        }
        return (man | 0x80_0000) >> shift;
    }
    ((exp as u32) << man_bits) | (man >> (23 - man_bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn names_round_trip() {
        for &fmt in Format::ALL {
            assert_eq!(Format::from_name(fmt.name()), Some(fmt));
            let bits: u32 = fmt.channel_bits().iter().sum();
            if fmt.block_size() != [1, 1] {
                assert_eq!(bits, 0, "{}", fmt.name());
            } else {
                assert_eq!(bits, fmt.size_bytes() * 8, "{}", fmt.name());
                assert_eq!(fmt.channel_bits().len(), fmt.components().len());
            }
        }
        assert_eq!(
            Format::from_name("DXGI_FORMAT_r8_unorm"),
            Some(Format::R8_UNORM)
        );
        assert_eq!(Format::from_name("R1_UNORM"), None);
        assert_eq!(Format::from_name("D24_UNORM_S8_UINT"), None);
    }

    #[test]
    fn pack_bits_keeps_the_low_bits_in_memory_order() {
        // B8G8R8A8: memory order B, G, R, A; 0x1AB keeps 0xAB
        assert_eq!(
            Format::B8G8R8A8_UNORM.pack_bits([0x1AB, 0x22, 0x33, 0x44]),
            vec![0x33, 0x22, 0xAB, 0x44]
        );
        // R10G10B10A2: 10 bits each, A the top 2; -1 is all ones
        let w = Format::R10G10B10A2_UINT.pack_bits([0x3FF, 0, 0x7FF, u32::MAX]);
        assert_eq!(
            u32::from_le_bytes(w.try_into().unwrap()),
            0xC000_03FF | (0x3FF << 20)
        );
        // R16_FLOAT takes the bits as they are, with no conversion
        assert_eq!(
            Format::R16_FLOAT.pack_bits([0x3C00, 9, 9, 9]),
            vec![0x00, 0x3C]
        );
        assert_eq!(Format::R32_SINT.pack_bits([u32::MAX; 4]), vec![0xFF; 4]);
    }

    #[test]
    fn unorm_conversions() {
        let e = |x: f32| Format::R8_UNORM.encode([f(x), 0, 0, 0])[0];
        assert_eq!(e(1.0), 255);
        assert_eq!(e(0.5), 128); // 127.5 + 0.5 = 128
        assert_eq!(e(2.0), 255);
        assert_eq!(e(-1.0), 0);
        assert_eq!(e(f32::NAN), 0);
        assert_eq!(Format::R8_UNORM.decode(&[255]), [f(1.0), 0, 0, f(1.0)]);
        assert_eq!(Format::R8_UNORM.decode(&[51]), [f(0.2), 0, 0, f(1.0)]);
    }

    #[test]
    fn snorm_conversions() {
        let e = |x: f32| Format::R8_SNORM.encode([f(x), 0, 0, 0])[0] as i8;
        assert_eq!(e(1.0), 127);
        assert_eq!(e(-1.0), -127);
        assert_eq!(e(-2.0), -127);
        assert_eq!(e(0.5), 64); // 63.5 rounds away from zero
        assert_eq!(e(f32::NAN), 0);
        // -128 and -127 both read as -1.0
        assert_eq!(Format::R8_SNORM.decode(&[0x80])[0], f(-1.0));
        assert_eq!(Format::R8_SNORM.decode(&[0x81])[0], f(-1.0));
    }

    #[test]
    fn integer_formats_clamp_and_extend() {
        assert_eq!(Format::R8_UINT.encode([300, 0, 0, 0]), vec![255]);
        assert_eq!(
            Format::R8_UINT.encode([(-1i32) as u32, 0, 0, 0]),
            vec![255],
            "as unsigned, -1 is huge"
        );
        assert_eq!(
            Format::R8_SINT.encode([(-300i32) as u32, 0, 0, 0]),
            vec![0x80]
        );
        assert_eq!(Format::R8_SINT.encode([300, 0, 0, 0]), vec![0x7f]);
        assert_eq!(Format::R8_SINT.decode(&[0xff]), [u32::MAX, 0, 0, 1]);
        assert_eq!(Format::R16_UINT.decode(&[0xff, 0xff]), [0xffff, 0, 0, 1]);
    }

    #[test]
    fn packed_and_swizzled_layouts() {
        let v = Format::R10G10B10A2_UINT.encode([1, 2, 3, 4]);
        assert_eq!(
            u32::from_le_bytes(v.clone().try_into().unwrap()),
            1 | 2 << 10 | 3 << 20 | 3 << 30
        );
        assert_eq!(Format::R10G10B10A2_UINT.decode(&v), [1, 2, 3, 3]);
        let v = Format::B8G8R8A8_UNORM.encode([f(1.0), 0, 0, f(1.0)]);
        assert_eq!(v, vec![0, 0, 255, 255]);
        assert_eq!(Format::B8G8R8A8_UNORM.decode(&v)[0], f(1.0));
        assert_eq!(Format::R32G32_FLOAT.decode(&[0; 8]), [0, 0, 0, f(1.0)]);
    }

    #[test]
    fn small_floats() {
        assert_eq!(f32_to_f16_rtz(f(1024.75)), 0x6400);
        assert_eq!(f32_to_f16_rtz(f(100000.0)), 0x7bff);
        assert_eq!(f32_to_f16_rtz(f(pow2(-24))), 1);
        assert_eq!(f16_to_f32(0xffff_3c00), f(1.0));
        let v = Format::R11G11B10_FLOAT.encode([f(1.0), f(-5.0), f(f32::INFINITY), 0]);
        let d = Format::R11G11B10_FLOAT.decode(&v);
        assert_eq!(d, [f(1.0), 0, 0x7f80_0000, f(1.0)]);
        // 11-bit float max finite is 65024; RTZ of a larger finite value clamps there.
        let v = Format::R11G11B10_FLOAT.encode([f(1e6), f(0.1), f(f32::NAN), 0]);
        let d = Format::R11G11B10_FLOAT.decode(&v);
        assert_eq!(d[0], f(65024.0));
        assert!(f32::from_bits(d[1]) <= 0.1 && f32::from_bits(d[1]) > 0.099);
        assert!(f32::from_bits(d[2]).is_nan());
    }
}
