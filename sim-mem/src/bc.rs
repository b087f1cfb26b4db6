//! Block-compressed (BC1–BC7) texel decoding, FS §19.5: thin glue over the
//! `bcdec_rs` crate plus the few places where the spec's reference decoder
//! and `bcdec_rs` disagree.
//!
//! - BC1–BC3 colour blocks (FS §19.5.6–8) are decoded here, not by
//!   `bcdec_rs::bc1/bc2/bc3`: the spec promotes the 5:6:5 endpoints to UNORM8
//!   by MSB replication (FS §19.5.3: `r << 3 | r >> 2`), while `bcdec_rs`
//!   rounds `r·255/31`, which differs by one UNORM8 step for 14 of the 96
//!   5- and 6-bit endpoint values — more than §19.5.2 allows for a solid
//!   block. Palette entries are the ideal interpolation rounded to UNORM8.
//! - BC2 alpha is `nibble / 15` (FS §19.5.7); BC3 alpha "decodes as with
//!   BC4U" (FS §19.5.8), i.e. in float through `bcdec_rs::bc4_float`.
//! - BC4/BC5 (FS §19.5.9–12) use `bcdec_rs::bc4_float`, which follows the
//!   spec's float interpolation, except for one SNORM case it gets wrong: the
//!   spec chooses the 8-value mode by comparing the raw signed endpoints, so
//!   red_0 = −127, red_1 = −128 is an 8-value block whose entries are all
//!   −1.0, where `bcdec_rs` (comparing the clamped floats) picks the 6-value
//!   mode and returns +1.0 for code 7. That case is handled here.
//! - BC6H (FS §19.5.13) uses `bcdec_rs::bc6h_half` (bit-exact half results),
//!   converted to f32 exactly.
//! - BC7 (FS §19.5.14) uses `bcdec_rs::bc7` (bit-exact UNORM8 results).
//!
//! UNORM8 results become floats as n/255 (FS §3.2.3.5), or through the sRGB
//! curve for `_SRGB` formats (FS §3.2.3.7; alpha stays linear, FS §19.1.3.2).

use crate::format::{f16_to_f32, srgb8_to_f32};

/// The block-compression schemes of FS §19.5, with signedness where it matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum BcKind {
    /// BC1: 5:6:5 colours, 1-bit alpha (FS §19.5.6), 8 bytes.
    Bc1,
    /// BC2: BC1 colours, explicit 4-bit alpha (FS §19.5.7), 16 bytes.
    Bc2,
    /// BC3: BC1 colours, BC4-style alpha (FS §19.5.8), 16 bytes.
    Bc3,
    /// BC4 UNORM (FS §19.5.9), 8 bytes.
    Bc4U,
    /// BC4 SNORM (FS §19.5.10), 8 bytes.
    Bc4S,
    /// BC5 UNORM (FS §19.5.11), 16 bytes.
    Bc5U,
    /// BC5 SNORM (FS §19.5.12), 16 bytes.
    Bc5S,
    /// BC6H unsigned half (FS §19.5.13), 16 bytes.
    Bc6hU,
    /// BC6H signed half (FS §19.5.13), 16 bytes.
    Bc6hS,
    /// BC7 (FS §19.5.14), 16 bytes.
    Bc7,
}

/// Register values (float bits) of texel `texel` (0..16, row-major) of one
/// 4×4 block; missing channels read 0 except alpha, 1.0 (FS §19.1.3.3).
/// `srgb` linearizes R, G and B (BC1–BC3 and BC7 only). A short `block` reads
/// as if padded with zero bytes.
pub(crate) fn decode_texel(bc: BcKind, block: &[u8], texel: usize, srgb: bool) -> [u32; 4] {
    debug_assert!(texel < 16, "texel {texel} is outside a 4x4 block");
    let texel = texel & 15;
    let mut b = [0u8; 16];
    let n = block.len().min(16);
    b[..n].copy_from_slice(&block[..n]);
    // the two 8-byte halves: BC1/BC4 blocks, or alpha and colour of BC2/BC3
    let lo: [u8; 8] = std::array::from_fn(|i| b[i]);
    let hi: [u8; 8] = std::array::from_fn(|i| b[8 + i]);
    let one = 1.0f32.to_bits();
    let unorm8 = |v: u8| (v as f32 / 255.0).to_bits();
    let color8 = |v: u8| {
        if srgb {
            srgb8_to_f32(v)
        } else {
            unorm8(v)
        }
    };
    match bc {
        BcKind::Bc1 => {
            let [r, g, bl, a] = bc1_color(&lo, texel, true);
            [color8(r), color8(g), color8(bl), unorm8(a)]
        }
        BcKind::Bc2 => {
            let [r, g, bl, _] = bc1_color(&hi, texel, false);
            let nibble = (u64::from_le_bytes(lo) >> (4 * texel)) & 0xf;
            let a = ((nibble as f64 / 15.0) as f32).to_bits();
            [color8(r), color8(g), color8(bl), a]
        }
        BcKind::Bc3 => {
            let [r, g, bl, _] = bc1_color(&hi, texel, false);
            let a = bc4_channel(&lo, texel, false);
            [color8(r), color8(g), color8(bl), a]
        }
        BcKind::Bc4U | BcKind::Bc4S => [bc4_channel(&b[..8], texel, bc == BcKind::Bc4S), 0, 0, one],
        BcKind::Bc5U | BcKind::Bc5S => {
            let signed = bc == BcKind::Bc5S;
            [
                bc4_channel(&b[..8], texel, signed),
                bc4_channel(&b[8..], texel, signed),
                0,
                one,
            ]
        }
        BcKind::Bc6hU | BcKind::Bc6hS => {
            let mut out = [0u16; 48];
            bcdec_rs::bc6h_half(&b, &mut out, 12, bc == BcKind::Bc6hS);
            let t = &out[texel * 3..texel * 3 + 3];
            [
                f16_to_f32(t[0] as u32),
                f16_to_f32(t[1] as u32),
                f16_to_f32(t[2] as u32),
                one,
            ]
        }
        BcKind::Bc7 => {
            let mut out = [0u8; 64];
            bcdec_rs::bc7(&b, &mut out, 16);
            let t = &out[texel * 4..texel * 4 + 4];
            [color8(t[0]), color8(t[1]), color8(t[2]), unorm8(t[3])]
        }
    }
}

/// One texel of a BC1-style colour block (8 bytes) as UNORM8 RGBA, per
/// FS §19.5.6: endpoints promoted by MSB replication (§19.5.3); the
/// three-colour mode (colour_0 ≤ colour_1, unsigned) only for BC1 itself —
/// BC2 and BC3 always use four colours (FS §19.5.7–8).
fn bc1_color(block: &[u8; 8], texel: usize, bc1: bool) -> [u8; 4] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let expand = |c: u16| -> [u32; 3] {
        let r = (c >> 11) as u32 & 0x1f;
        let g = (c >> 5) as u32 & 0x3f;
        let b = c as u32 & 0x1f;
        [r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2]
    };
    let (p0, p1) = (expand(c0), expand(c1));
    let indices = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    let index = (indices >> (2 * texel)) & 3;
    let four = c0 > c1 || !bc1;
    let mix = |f: &dyn Fn(u32, u32) -> u32| -> [u8; 4] {
        [
            f(p0[0], p1[0]) as u8,
            f(p0[1], p1[1]) as u8,
            f(p0[2], p1[2]) as u8,
            255,
        ]
    };
    match (index, four) {
        (0, _) => mix(&|a, _| a),
        (1, _) => mix(&|_, b| b),
        // Ideal (2a + b)/3 etc., rounded to the nearest UNORM8 value.
        (2, true) => mix(&|a, b| (2 * a + b + 1) / 3),
        (3, true) => mix(&|a, b| (a + 2 * b + 1) / 3),
        (2, false) => mix(&|a, b| (a + b).div_ceil(2)),
        _ => [0, 0, 0, 0], // transparent black
    }
}

/// One texel of a BC4 channel block (8 bytes) as f32 bits, per FS §19.5.9–10.
fn bc4_channel(block: &[u8], texel: usize, signed: bool) -> u32 {
    if signed && block[0] == 0x81 && block[1] == 0x80 {
        // red_0 = −127 > red_1 = −128 (signed compare): the 8-value mode with
        // both endpoints −1.0, so every entry is −1.0 (FS §19.5.10).
        return (-1.0f32).to_bits();
    }
    let mut out = [0f32; 16];
    bcdec_rs::bc4_float(block, &mut out, 4, signed);
    out[texel].to_bits()
}
