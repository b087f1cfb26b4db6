//! Format conversions checked against values computed by hand from the
//! D3D11.3 functional spec (FS §3.2 data conversion, §19 formats), not from
//! the implementation: every format in `Format::ALL` has at least one decode
//! case, every UAV-storable format a store → load round trip, and the BC
//! formats hand-assembled blocks (FS §19.5).

use sim_mem::Format;
use std::collections::HashSet;

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Exact f32 nearest to a rational value computed in f64.
fn q(x: f64) -> u32 {
    (x as f32).to_bits()
}

/// sRGB → linear of an 8-bit value, precomputed in f64 with the FS §3.2.3.7
/// curve (c = n/255; c ≤ 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4).
const SRGB_1: f64 = 0.000_303_526_983_548_837_5;
const SRGB_10: f64 = 0.003_035_269_835_488_375;
const SRGB_51: f64 = 0.033_104_766_570_885_055;
const SRGB_85: f64 = 0.090_841_711_183_407_68;
const SRGB_128: f64 = 0.215_860_500_113_899_26;
const SRGB_129: f64 = 0.219_526_199_729_269_2;
const SRGB_170: f64 = 0.401_977_779_832_195_8;
const SRGB_200: f64 = 0.577_580_440_429_650_6;

#[derive(Clone, Copy, Debug)]
enum W {
    /// exact register bits
    Bits(u32),
    /// a float within a tolerance
    Near(f64, f64),
}

fn b(x: u32) -> W {
    W::Bits(x)
}
fn fl(x: f32) -> W {
    W::Bits(x.to_bits())
}
fn ex(x: f64) -> W {
    W::Bits(q(x))
}
fn near(x: f64, tol: f64) -> W {
    W::Near(x, tol)
}
fn i(x: i32) -> W {
    W::Bits(x as u32)
}

struct Case {
    fmt: Format,
    bytes: Vec<u8>,
    texel: usize,
    want: [W; 4],
}

fn case(fmt: Format, bytes: impl Into<Vec<u8>>, texel: usize, want: [W; 4]) -> Case {
    Case {
        fmt,
        bytes: bytes.into(),
        texel,
        want,
    }
}

fn le32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn le16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn lef(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// LSB-first bit packer for hand-assembled BC6H / BC7 blocks.
struct Bits {
    v: u128,
    n: u32,
}
impl Bits {
    fn new() -> Self {
        Bits { v: 0, n: 0 }
    }
    fn put(&mut self, value: u32, bits: u32) -> &mut Self {
        self.v |= ((value as u128) & ((1u128 << bits) - 1)) << self.n;
        self.n += bits;
        self
    }
    fn block(&self) -> Vec<u8> {
        assert_eq!(self.n, 128, "a block is 128 bits");
        self.v.to_le_bytes().to_vec()
    }
}

/// BC1 colour block: two 5:6:5 endpoints, then 2-bit indices, texel 0 in the LSBs.
fn bc1(c0: u16, c1: u16, idx: impl Fn(usize) -> u32) -> Vec<u8> {
    let mut ind = 0u32;
    for t in 0..16 {
        ind |= (idx(t) & 3) << (2 * t);
    }
    let mut v = le16(&[c0, c1]);
    v.extend(ind.to_le_bytes());
    v
}

/// BC4 channel block: two 8-bit endpoints, then 3-bit indices, texel 0 first.
fn bc4(r0: u8, r1: u8, idx: impl Fn(usize) -> u64) -> Vec<u8> {
    let mut ind = 0u64;
    for t in 0..16 {
        ind |= (idx(t) & 7) << (3 * t);
    }
    let mut v = vec![r0, r1];
    v.extend(&ind.to_le_bytes()[..6]);
    v
}

fn rgb565(r: u16, g: u16, b: u16) -> u16 {
    r << 11 | g << 5 | b
}

/// BC6H mode 11 ("10.10", m = 00011, one region, untransformed endpoints):
/// m[4:0], rw, gw, bw, rx, gx, bx (10 bits each), then 16 indices of 4 bits,
/// texel 0's with 3 (FS §19.5.13.3–5).
fn bc6h_mode11(a: [i32; 3], bnd: [i32; 3], idx: [u32; 16]) -> Vec<u8> {
    let mut w = Bits::new();
    w.put(0b00011, 5);
    for c in a {
        w.put(c as u32, 10);
    }
    for c in bnd {
        w.put(c as u32, 10);
    }
    w.put(idx[0], 3);
    for &x in &idx[1..] {
        w.put(x, 4);
    }
    w.block()
}

/// BC7 mode 6 (FS §19.5.14.4.7): mode bits 0000001, R0 R1 G0 G1 B0 B1 A0 A1
/// (7 bits each), P0, P1, then 16 indices of 4 bits, texel 0's with 3.
fn bc7_mode6(e0: [u32; 4], e1: [u32; 4], p: [u32; 2], idx: impl Fn(usize) -> u32) -> Vec<u8> {
    let mut w = Bits::new();
    w.put(1 << 6, 7);
    for c in 0..4 {
        w.put(e0[c], 7).put(e1[c], 7);
    }
    w.put(p[0], 1).put(p[1], 1);
    w.put(idx(0), 3);
    for t in 1..16 {
        w.put(idx(t), 4);
    }
    w.block()
}

fn cases() -> Vec<Case> {
    use Format::*;
    let one = fl(1.0);
    let z = b(0);
    let third = ex(1.0 / 3.0);
    let two_thirds = ex(2.0 / 3.0);
    let tight = 1e-6;
    let mut v = vec![
        // --- 32-bit channels: bits pass through (FS §3.2.2; ld keeps R32 denormals).
        case(
            R32G32B32A32_FLOAT,
            lef(&[1.5, -2.0, 0.0, 3.25]),
            0,
            [fl(1.5), fl(-2.0), z, fl(3.25)],
        ),
        case(
            R32G32B32A32_UINT,
            le32(&[1, u32::MAX, 7, 9]),
            0,
            [b(1), b(u32::MAX), b(7), b(9)],
        ),
        case(
            R32G32B32A32_SINT,
            le32(&[(-1i32) as u32, 2, (-3i32) as u32, 4]),
            0,
            [i(-1), i(2), i(-3), i(4)],
        ),
        case(
            R32G32B32_FLOAT,
            lef(&[1.0, 2.0, 3.0]),
            0,
            [fl(1.0), fl(2.0), fl(3.0), one],
        ),
        case(
            R32G32B32_UINT,
            le32(&[4, 5, 6]),
            0,
            [b(4), b(5), b(6), b(1)],
        ),
        case(
            R32G32B32_SINT,
            le32(&[(-4i32) as u32, 5, 6]),
            0,
            [i(-4), i(5), i(6), b(1)],
        ),
        case(
            R32G32_FLOAT,
            lef(&[0.5, -0.0]),
            0,
            [fl(0.5), b(0x8000_0000), z, one],
        ),
        case(
            R32G32_UINT,
            le32(&[7, u32::MAX]),
            0,
            [b(7), b(u32::MAX), z, b(1)],
        ),
        case(
            R32G32_SINT,
            le32(&[(-5i32) as u32, 3]),
            0,
            [i(-5), i(3), z, b(1)],
        ),
        case(R32_FLOAT, le32(&[1]), 0, [b(1), z, z, one]),
        case(
            R32_UINT,
            le32(&[0xDEAD_BEEF]),
            0,
            [b(0xDEAD_BEEF), z, z, b(1)],
        ),
        case(R32_SINT, le32(&[(-2i32) as u32]), 0, [i(-2), z, z, b(1)]),
        // --- 16-bit floats: 0x3C00 = 1, 0xC000 = −2, 0x7C00 = +INF, 0x0001 = 2^−24.
        case(
            R16G16B16A16_FLOAT,
            le16(&[0x3C00, 0xC000, 0x7C00, 0x0001]),
            0,
            [fl(1.0), fl(-2.0), b(0x7F80_0000), ex(2f64.powi(-24))],
        ),
        case(
            R16G16_FLOAT,
            le16(&[0x3800, 0xFC00]),
            0,
            [fl(0.5), b(0xFF80_0000), z, one],
        ),
        // 0x3555: exponent 13, mantissa 341 → 2^−2 · (1 + 341/1024).
        case(
            R16_FLOAT,
            le16(&[0x3555]),
            0,
            [ex(0.25 * (1.0 + 341.0 / 1024.0)), z, z, one],
        ),
        // --- UNORM: n / (2^bits − 1) (FS §3.2.3.5).
        case(
            R16G16B16A16_UNORM,
            le16(&[0xFFFF, 0, 0x5555, 0xAAAA]),
            0,
            [one, z, third, two_thirds],
        ),
        case(
            R16G16_UNORM,
            le16(&[0xFFFF, 0x3333]),
            0,
            [one, fl(0.2), z, one],
        ),
        case(R16_UNORM, le16(&[1]), 0, [ex(1.0 / 65535.0), z, z, one]),
        case(
            R8G8B8A8_UNORM,
            [255, 0, 51, 0x80],
            0,
            [one, z, fl(0.2), ex(128.0 / 255.0)],
        ),
        case(R8G8_UNORM, [0x33, 0xFF], 0, [fl(0.2), one, z, one]),
        case(R8_UNORM, [0xFF], 0, [one, z, z, one]),
        case(R8_UNORM, [0x00], 0, [z, z, z, one]),
        case(
            R10G10B10A2_UNORM,
            le32(&[1023 | 341 << 20 | 2 << 30]),
            0,
            [one, z, third, two_thirds],
        ),
        // B8G8R8A8: memory order B, G, R, A.
        case(
            B8G8R8A8_UNORM,
            [0x00, 0x33, 0xFF, 0x80],
            0,
            [one, fl(0.2), z, ex(128.0 / 255.0)],
        ),
        // --- SNORM: c / (2^(bits−1) − 1); the most negative value is −1 too (FS §3.2.3.3).
        case(
            R16G16B16A16_SNORM,
            le16(&[0x7FFF, 0x8000, 0x8001, 0]),
            0,
            [one, fl(-1.0), fl(-1.0), z],
        ),
        case(
            R16G16_SNORM,
            le16(&[0xC001, 0x4000]),
            0,
            [ex(-16383.0 / 32767.0), ex(16384.0 / 32767.0), z, one],
        ),
        case(R16_SNORM, le16(&[0x8000]), 0, [fl(-1.0), z, z, one]),
        case(
            R8G8B8A8_SNORM,
            [0x7F, 0x81, 0x80, 0x40],
            0,
            [one, fl(-1.0), fl(-1.0), ex(64.0 / 127.0)],
        ),
        case(R8G8_SNORM, [0x81, 0x7F], 0, [fl(-1.0), one, z, one]),
        case(R8_SNORM, [0x40], 0, [ex(64.0 / 127.0), z, z, one]),
        // --- integers: zero- or sign-extended; missing alpha is integer 1.
        case(
            R16G16B16A16_UINT,
            le16(&[0xFFFF, 0, 1, 0x1234]),
            0,
            [b(0xFFFF), z, b(1), b(0x1234)],
        ),
        case(
            R16G16B16A16_SINT,
            le16(&[0xFFFF, 0x8000, 0x7FFF, 5]),
            0,
            [i(-1), i(-32768), i(32767), i(5)],
        ),
        case(
            R16G16_UINT,
            le16(&[0xABCD, 1]),
            0,
            [b(0xABCD), b(1), z, b(1)],
        ),
        case(
            R16G16_SINT,
            le16(&[0x8000, 1]),
            0,
            [i(-32768), i(1), z, b(1)],
        ),
        case(R16_UINT, le16(&[0xFFFF]), 0, [b(0xFFFF), z, z, b(1)]),
        case(R16_SINT, le16(&[0xFFFE]), 0, [i(-2), z, z, b(1)]),
        case(
            R10G10B10A2_UINT,
            le32(&[1023 | 5 << 10 | 512 << 20 | 3 << 30]),
            0,
            [b(1023), b(5), b(512), b(3)],
        ),
        case(
            R8G8B8A8_UINT,
            [255, 0, 1, 128],
            0,
            [b(255), z, b(1), b(128)],
        ),
        case(
            R8G8B8A8_SINT,
            [0xFF, 0x80, 0x7F, 0],
            0,
            [i(-1), i(-128), i(127), z],
        ),
        case(R8G8_UINT, [200, 3], 0, [b(200), b(3), z, b(1)]),
        case(R8G8_SINT, [0x80, 0x01], 0, [i(-128), i(1), z, b(1)]),
        case(R8_UINT, [0x80], 0, [b(128), z, z, b(1)]),
        case(R8_SINT, [0x80], 0, [i(-128), z, z, b(1)]),
        // --- R11G11B10: R = 0x3C0 (e15 m0 = 1.0), G = 0x7C0 (e31 m0 = INF),
        // B = 0x210 (e16 m16/32 = 3.0) (FS §3.1.6).
        case(
            R11G11B10_FLOAT,
            le32(&[0x3C0 | 0x7C0 << 11 | 0x210 << 22]),
            0,
            [one, b(0x7F80_0000), fl(3.0), one],
        ),
        // --- sRGB (FS §3.2.3.7); alpha stays linear.
        case(
            R8G8B8A8_UNORM_SRGB,
            [0x80, 0xFF, 0x00, 0x80],
            0,
            [ex(SRGB_128), one, z, ex(128.0 / 255.0)],
        ),
        case(
            R8G8B8A8_UNORM_SRGB,
            [10, 1, 51, 51],
            0,
            [ex(SRGB_10), ex(SRGB_1), ex(SRGB_51), fl(0.2)],
        ),
        case(
            B8G8R8A8_UNORM_SRGB,
            [0x80, 10, 0xFF, 0x33],
            0,
            [one, ex(SRGB_10), ex(SRGB_128), fl(0.2)],
        ),
        case(
            B8G8R8X8_UNORM_SRGB,
            [200, 170, 129, 0x00],
            0,
            [ex(SRGB_129), ex(SRGB_170), ex(SRGB_200), one],
        ),
        // --- X8 is ignored: alpha reads 1.0 whatever the byte holds.
        case(
            B8G8R8X8_UNORM,
            [0x33, 0x80, 0xFF, 0x00],
            0,
            [one, ex(128.0 / 255.0), fl(0.2), one],
        ),
        // --- D3D9 16-bit formats, B in the low bits (FS §19.6).
        case(
            B5G6R5_UNORM,
            le16(&[rgb565(31, 21, 10)]),
            0,
            [one, third, ex(10.0 / 31.0), one],
        ),
        case(
            B5G5R5A1_UNORM,
            le16(&[1 << 15 | 31 << 5 | 1]),
            0,
            [z, one, ex(1.0 / 31.0), one],
        ),
        case(B5G5R5A1_UNORM, le16(&[31 << 10]), 0, [one, z, z, z]),
        case(
            B4G4R4A4_UNORM,
            le16(&[0xA05F]),
            0,
            [z, third, one, two_thirds],
        ),
        // --- A8: alpha only.
        case(A8_UNORM, [0x33], 0, [z, z, z, fl(0.2)]),
        // --- XR_BIAS: (n − 0x180)/510 in float; alpha 2-bit UNORM.
        case(
            R10G10B10_XR_BIAS_A2_UNORM,
            le32(&[0x180 | 0x3FF << 10 | 1 << 30]),
            0,
            [z, fl(639.0f32 / 510.0), fl(-384.0f32 / 510.0), third],
        ),
        // --- R9G9B9E5: the FS §19.3.2.1 example, and the largest value 0.111111111₂·2^16.
        case(
            R9G9B9E5_SHAREDEXP,
            le32(&[0x9993_20C8]),
            0,
            [fl(6.25), fl(12.5), fl(3.125), one],
        ),
        case(
            R9G9B9E5_SHAREDEXP,
            le32(&[31 << 27 | 511]),
            0,
            [fl(65408.0), z, z, one],
        ),
        // --- depth/stencil views (FS §19.1.3.3: R24_UNORM_X8 reads G = B = 0, A = 1.0).
        case(
            R32_FLOAT_X8X24_TYPELESS,
            [lef(&[-0.5]), vec![0xFF; 4]].concat(),
            0,
            [fl(-0.5), z, z, one],
        ),
        case(
            X32_TYPELESS_G8X24_UINT,
            [lef(&[1.0]), vec![0x7B, 0xFF, 0xFF, 0xFF]].concat(),
            0,
            [z, b(0x7B), z, b(1)],
        ),
        case(
            R24_UNORM_X8_TYPELESS,
            le32(&[0xAB_FF_FF_FF]),
            0,
            [one, z, z, one],
        ),
        case(
            R24_UNORM_X8_TYPELESS,
            le32(&[0xFF_80_00_00]),
            0,
            [ex(8_388_608.0 / 16_777_215.0), z, z, one],
        ),
        case(
            X24_TYPELESS_G8_UINT,
            le32(&[0xC8_12_34_56]),
            0,
            [z, b(200), z, b(1)],
        ),
    ];

    // --- BC1 (FS §19.5.6). White/black, four-colour mode (c0 > c1), texel t → index t % 4:
    // 2/3·255 = 170 and 1/3·255 = 85 exactly.
    let white_black = bc1(0xFFFF, 0x0000, |t| t as u32 % 4);
    v.push(case(
        BC1_UNORM,
        white_black.clone(),
        0,
        [one, one, one, one],
    ));
    v.push(case(BC1_UNORM, white_black.clone(), 1, [z, z, z, one]));
    v.push(case(
        BC1_UNORM,
        white_black.clone(),
        6,
        [two_thirds, two_thirds, two_thirds, one],
    ));
    v.push(case(
        BC1_UNORM,
        white_black.clone(),
        15,
        [third, third, third, one],
    ));
    // MSB-replicated endpoints (FS §19.5.3): R 3 → 24, G 11 → 44, B 24 → 198.
    // Index 2 = (2·c0 + c1)/3 = (16, 29.33, 132).
    let promo = bc1(rgb565(3, 11, 24), 0, |t| [0, 2, 1, 3][t % 4]);
    v.push(case(
        BC1_UNORM,
        promo.clone(),
        0,
        [ex(24.0 / 255.0), ex(44.0 / 255.0), ex(198.0 / 255.0), one],
    ));
    v.push(case(
        BC1_UNORM,
        promo,
        1,
        [
            ex(16.0 / 255.0),
            near(88.0 / 3.0 / 255.0, 1.0 / 255.0),
            ex(132.0 / 255.0),
            one,
        ],
    ));
    // Three-colour mode (c0 ≤ c1): index 2 = (c0 + c1)/2, index 3 = transparent black.
    let three = bc1(0x0000, rgb565(16, 0, 0), |t| t as u32 % 4);
    v.push(case(BC1_UNORM, three.clone(), 0, [z, z, z, one]));
    v.push(case(
        BC1_UNORM,
        three.clone(),
        1,
        [ex(132.0 / 255.0), z, z, one],
    ));
    v.push(case(
        BC1_UNORM,
        three.clone(),
        2,
        [ex(66.0 / 255.0), z, z, one],
    ));
    v.push(case(BC1_UNORM, three, 3, [z, z, z, z]));
    let equal = bc1(0xFFFF, 0xFFFF, |t| t as u32 % 4);
    v.push(case(BC1_UNORM, equal.clone(), 2, [one, one, one, one]));
    v.push(case(BC1_UNORM, equal, 3, [z, z, z, z]));
    v.push(case(
        BC1_UNORM_SRGB,
        white_black.clone(),
        0,
        [one, one, one, one],
    ));
    v.push(case(
        BC1_UNORM_SRGB,
        white_black.clone(),
        2,
        [ex(SRGB_170), ex(SRGB_170), ex(SRGB_170), one],
    ));
    v.push(case(
        BC1_UNORM_SRGB,
        white_black,
        3,
        [ex(SRGB_85), ex(SRGB_85), ex(SRGB_85), one],
    ));

    // --- BC2 (FS §19.5.7): explicit alpha, texel t holds nibble t → t/15; the colour
    // block always has four colours, even with c0 < c1.
    let bc2_block = [
        vec![0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE],
        bc1(0x0000, 0xFFFF, |t| t as u32 % 4),
    ]
    .concat();
    v.push(case(BC2_UNORM, bc2_block.clone(), 0, [z, z, z, z]));
    v.push(case(
        BC2_UNORM,
        bc2_block.clone(),
        1,
        [one, one, one, ex(1.0 / 15.0)],
    ));
    v.push(case(
        BC2_UNORM,
        bc2_block.clone(),
        3,
        [two_thirds, two_thirds, two_thirds, fl(0.2)],
    ));
    v.push(case(
        BC2_UNORM,
        bc2_block.clone(),
        15,
        [two_thirds, two_thirds, two_thirds, one],
    ));
    v.push(case(
        BC2_UNORM_SRGB,
        bc2_block.clone(),
        2,
        [ex(SRGB_85), ex(SRGB_85), ex(SRGB_85), ex(2.0 / 15.0)],
    ));
    v.push(case(
        BC2_UNORM_SRGB,
        bc2_block,
        15,
        [ex(SRGB_170), ex(SRGB_170), ex(SRGB_170), one],
    ));

    // --- BC3 (FS §19.5.8): alpha as BC4U, 8-value mode (255 > 0), texel t → index t % 8.
    let bc3_block = [
        bc4(255, 0, |t| t as u64 % 8),
        bc1(0x0000, 0xFFFF, |t| t as u32 % 4),
    ]
    .concat();
    v.push(case(BC3_UNORM, bc3_block.clone(), 0, [z, z, z, one]));
    v.push(case(BC3_UNORM, bc3_block.clone(), 1, [one, one, one, z]));
    v.push(case(
        BC3_UNORM,
        bc3_block.clone(),
        2,
        [third, third, third, near(6.0 / 7.0, tight)],
    ));
    v.push(case(
        BC3_UNORM,
        bc3_block.clone(),
        3,
        [two_thirds, two_thirds, two_thirds, near(5.0 / 7.0, tight)],
    ));
    v.push(case(
        BC3_UNORM,
        bc3_block.clone(),
        7,
        [two_thirds, two_thirds, two_thirds, near(1.0 / 7.0, tight)],
    ));
    v.push(case(
        BC3_UNORM_SRGB,
        bc3_block.clone(),
        2,
        [
            ex(SRGB_85),
            ex(SRGB_85),
            ex(SRGB_85),
            near(6.0 / 7.0, tight),
        ],
    ));
    v.push(case(BC3_UNORM_SRGB, bc3_block, 1, [one, one, one, z]));

    // --- BC4U (FS §19.5.9). 8-value (200 > 100) and 6-value (0 ≤ 255) modes.
    let eight = bc4(200, 100, |t| t as u64 % 8);
    v.push(case(
        BC4_UNORM,
        eight.clone(),
        0,
        [ex(200.0 / 255.0), z, z, one],
    ));
    v.push(case(
        BC4_UNORM,
        eight.clone(),
        1,
        [ex(100.0 / 255.0), z, z, one],
    ));
    v.push(case(
        BC4_UNORM,
        eight.clone(),
        2,
        [near(1300.0 / 7.0 / 255.0, tight), z, z, one],
    ));
    v.push(case(
        BC4_UNORM,
        eight.clone(),
        7,
        [near(800.0 / 7.0 / 255.0, tight), z, z, one],
    ));
    let six = bc4(0, 255, |t| t as u64 % 8);
    v.push(case(
        BC4_UNORM,
        six.clone(),
        2,
        [near(0.2, tight), z, z, one],
    ));
    v.push(case(
        BC4_UNORM,
        six.clone(),
        5,
        [near(0.8, tight), z, z, one],
    ));
    v.push(case(BC4_UNORM, six.clone(), 6, [z, z, z, one]));
    v.push(case(BC4_UNORM, six.clone(), 7, [one, z, z, one]));

    // --- BC4S (FS §19.5.10): SNORM8 endpoints (−128 and −127 both −1.0), signed compare.
    let s_eight = bc4(0x7F, 0x81, |t| t as u64 % 8); // 127 > −127: 8 values
    v.push(case(BC4_SNORM, s_eight.clone(), 0, [one, z, z, one]));
    v.push(case(BC4_SNORM, s_eight.clone(), 1, [fl(-1.0), z, z, one]));
    v.push(case(
        BC4_SNORM,
        s_eight.clone(),
        2,
        [near(5.0 / 7.0, tight), z, z, one],
    ));
    v.push(case(
        BC4_SNORM,
        s_eight.clone(),
        7,
        [near(-5.0 / 7.0, tight), z, z, one],
    ));
    let s_six = bc4(0x81, 0x7F, |t| t as u64 % 8); // −127 ≤ 127: 6 values
    v.push(case(
        BC4_SNORM,
        s_six.clone(),
        2,
        [near(-0.6, tight), z, z, one],
    ));
    v.push(case(BC4_SNORM, s_six.clone(), 6, [fl(-1.0), z, z, one]));
    v.push(case(BC4_SNORM, s_six, 7, [one, z, z, one]));
    // −127 > −128 in a signed compare: 8-value mode, all entries −1.0 (code 7 too).
    let s_edge = bc4(0x81, 0x80, |t| t as u64 % 8);
    v.push(case(BC4_SNORM, s_edge.clone(), 7, [fl(-1.0), z, z, one]));
    v.push(case(BC4_SNORM, s_edge.clone(), 6, [fl(-1.0), z, z, one]));
    // −128 vs 127: an unsigned compare would pick 8 values; signed gives 6: code 6 = −1.0.
    let s_neg = bc4(0x80, 0x7F, |t| t as u64 % 8);
    v.push(case(BC4_SNORM, s_neg.clone(), 0, [fl(-1.0), z, z, one]));
    v.push(case(BC4_SNORM, s_neg.clone(), 6, [fl(-1.0), z, z, one]));
    v.push(case(BC4_SNORM, s_neg.clone(), 7, [one, z, z, one]));

    // --- BC5 (FS §19.5.11–12): two independent BC4 channels, R then G.
    v.push(case(
        BC5_UNORM,
        [eight.clone(), six.clone()].concat(),
        2,
        [near(1300.0 / 7.0 / 255.0, tight), near(0.2, tight), z, one],
    ));
    v.push(case(
        BC5_UNORM,
        [eight, six].concat(),
        7,
        [near(800.0 / 7.0 / 255.0, tight), one, z, one],
    ));
    v.push(case(
        BC5_SNORM,
        [s_eight.clone(), s_edge.clone()].concat(),
        7,
        [near(-5.0 / 7.0, tight), fl(-1.0), z, one],
    ));
    v.push(case(
        BC5_SNORM,
        [s_neg, s_eight].concat(),
        2,
        [near(-0.6, tight), near(5.0 / 7.0, tight), z, one],
    ));

    // --- BC6H mode 11 (FS §19.5.13). Texels 0–3 use indices 0, 8, 15, 5 (weights 0,
    // 34, 64, 21); expected halves from the §19.5.13.8–10 pseudo-code by hand:
    // UF16, A = (512, 0, 1023), B = (0, 1023, 512):
    //   unquantize: 0 → 0, 1023 → 0xFFFF, 512 → ((512 << 16) + 0x8000) >> 10 = 32800;
    //   finish: (x · 31) >> 6, e.g. 32800 → 0x3E0F = 1.5146484375, 0xFFFF → 0x7BFF = 65504.
    let mut idx = [0u32; 16];
    idx[1] = 8;
    idx[2] = 15;
    idx[3] = 5;
    let uf = bc6h_mode11([512, 0, 1023], [0, 1023, 512], idx);
    v.push(case(
        BC6H_UF16,
        uf.clone(),
        0,
        [fl(1.514_648_4), z, fl(65504.0), one],
    ));
    v.push(case(
        BC6H_UF16,
        uf.clone(),
        1,
        [fl(0.004_970_550_5), fl(2.935_546_9), fl(227.0), one],
    ));
    v.push(case(
        BC6H_UF16,
        uf.clone(),
        2,
        [z, fl(65504.0), fl(1.514_648_4), one],
    ));
    v.push(case(
        BC6H_UF16,
        uf.clone(),
        3,
        [fl(0.044_494_63), fl(0.036_621_094), fl(1964.0), one],
    ));
    v.push(case(
        BC6H_UF16,
        uf,
        9,
        [fl(1.514_648_4), z, fl(65504.0), one],
    ));
    // SF16, A = (−256, 511, 0), B = (100, −512, 0), 10-bit two's complement:
    //   unquantize: −256 → −(((256 << 15) + 0x4000) >> 9) = −16416, ±511/−512 → ±0x7FFF,
    //   100 → 6432; finish: magnitude · 31 >> 5 with the sign moved to bit 15.
    let sf = bc6h_mode11([-256, 511, 0], [100, -512, 0], idx);
    v.push(case(
        BC6H_SF16,
        sf.clone(),
        0,
        [fl(-1.530_273_4), fl(65504.0), z, one],
    ));
    v.push(case(
        BC6H_SF16,
        sf.clone(),
        1,
        [fl(-0.000_511_169_43), fl(-0.000_118_255_615), z, one],
    ));
    v.push(case(
        BC6H_SF16,
        sf.clone(),
        2,
        [fl(0.002_119_064_3), fl(-65504.0), z, one],
    ));
    v.push(case(
        BC6H_SF16,
        sf,
        3,
        [fl(-0.011_230_469), fl(0.051_757_813), z, one],
    ));
    // Reserved mode 10011: zeros, alpha 1.0 (FS §19.5.13.3).
    let mut reserved = Bits::new();
    reserved
        .put(0b10011, 5)
        .put(u32::MAX, 32)
        .put(u32::MAX, 32)
        .put(u32::MAX, 32)
        .put(u32::MAX, 27);
    v.push(case(BC6H_UF16, reserved.block(), 5, [z, z, z, one]));
    v.push(case(BC6H_SF16, reserved.block(), 5, [z, z, z, one]));

    // --- BC7 mode 6 (FS §19.5.14). Solid colour: 7-bit endpoint components with the
    // P bit appended, then MSB-replicated (already 8 bits): (64,127,0,127)·2 + 1 =
    // (129, 255, 1, 255).
    let solid = bc7_mode6([64, 127, 0, 127], [64, 127, 0, 127], [1, 1], |t| {
        (t as u32 * 7) % 8
    });
    for t in [0, 5, 15] {
        v.push(case(
            BC7_UNORM,
            solid.clone(),
            t,
            [ex(129.0 / 255.0), one, ex(1.0 / 255.0), one],
        ));
    }
    v.push(case(
        BC7_UNORM_SRGB,
        solid,
        9,
        [ex(SRGB_129), one, ex(SRGB_1), one],
    ));
    // Gradient: e0 = (0,0,0,127)·2 + 0 = (0,0,0,254), e1 = (127,0,0,127)·2 + 1 =
    // (255,1,1,255); index = texel; interpolate ((64−w)·e0 + w·e1 + 32) >> 6:
    // w(5) = 21 → (84, 0, 0, 254); w(8) = 34 → (135, 1, 1, 255).
    let grad = bc7_mode6([0, 0, 0, 127], [127, 0, 0, 127], [0, 1], |t| t as u32);
    let n = |x: f64| ex(x / 255.0);
    v.push(case(BC7_UNORM, grad.clone(), 0, [z, z, z, n(254.0)]));
    v.push(case(BC7_UNORM, grad.clone(), 5, [n(84.0), z, z, n(254.0)]));
    v.push(case(
        BC7_UNORM,
        grad.clone(),
        8,
        [n(135.0), n(1.0), n(1.0), one],
    ));
    v.push(case(
        BC7_UNORM,
        grad.clone(),
        15,
        [one, n(1.0), n(1.0), one],
    ));
    v.push(case(
        BC7_UNORM_SRGB,
        grad,
        15,
        [one, ex(SRGB_1), ex(SRGB_1), one],
    ));
    // Reserved mode 8 (first byte 0): an all-zero texel, alpha included.
    v.push(case(BC7_UNORM, vec![0u8; 16], 3, [z, z, z, z]));
    // Sub-sampled 2×1 blocks (FS §19.4): G from the addressed texel, R from
    // the even one, B from the odd one. R8G8_B8G8 bytes: R, G0, B, G1.
    let n = |x: f64| ex(x / 255.0);
    v.push(case(
        R8G8_B8G8_UNORM,
        vec![255, 51, 0, 102],
        0,
        [one, n(51.0), z, one],
    ));
    v.push(case(
        R8G8_B8G8_UNORM,
        vec![255, 51, 0, 102],
        1,
        [one, n(102.0), z, one],
    ));
    // G8R8_G8B8 bytes: G0, R, G1, B.
    v.push(case(
        G8R8_G8B8_UNORM,
        vec![51, 0, 102, 255],
        0,
        [z, n(51.0), one, one],
    ));
    v.push(case(
        G8R8_G8B8_UNORM,
        vec![51, 0, 102, 255],
        1,
        [z, n(102.0), one, one],
    ));
    v
}

fn check(c: &Case) -> Result<(), String> {
    if c.bytes.len() != c.fmt.size_bytes() as usize {
        return Err(format!(
            "{}: case has {} bytes",
            c.fmt.name(),
            c.bytes.len()
        ));
    }
    let got = c.fmt.decode_texel(&c.bytes, c.texel);
    for (ch, (&g, w)) in got.iter().zip(c.want).enumerate() {
        let ok = match w {
            W::Bits(x) => g == x,
            W::Near(x, tol) => (f32::from_bits(g) as f64 - x).abs() <= tol,
        };
        if !ok {
            return Err(format!(
                "{} texel {} channel {ch}: got {g:#010x} ({}), want {w:?} (bits {:?})",
                c.fmt.name(),
                c.texel,
                f32::from_bits(g),
                c.want.map(|w| match w {
                    W::Bits(x) => f32::from_bits(x),
                    W::Near(x, _) => x as f32,
                })
            ));
        }
    }
    Ok(())
}

#[test]
fn every_format_decodes_hand_computed_texels() {
    let cases = cases();
    let errors: Vec<String> = cases.iter().filter_map(|c| check(c).err()).collect();
    assert!(
        errors.is_empty(),
        "{} failures:\n{}",
        errors.len(),
        errors.join("\n")
    );
    let covered: HashSet<Format> = cases.iter().map(|c| c.fmt).collect();
    let missing: Vec<&str> = Format::ALL
        .iter()
        .filter(|f| !covered.contains(f))
        .map(|f| f.name())
        .collect();
    assert!(
        missing.is_empty(),
        "formats without a decode case: {missing:?}"
    );
}

#[test]
fn decode_is_texel_zero_and_ignores_texel_for_plain_formats() {
    for c in cases() {
        if c.texel == 0 {
            assert_eq!(c.fmt.decode(&c.bytes), c.fmt.decode_texel(&c.bytes, 0));
        }
        if c.fmt.block_size() == [1, 1] {
            assert_eq!(
                c.fmt.decode_texel(&c.bytes, 0),
                c.fmt.decode_texel(&c.bytes, 7)
            );
        }
    }
}

/// Every DXGI name the simulator knows, written out independently of the enum.
const NAMES: &[&str] = &[
    "R32G32B32A32_FLOAT",
    "R32G32B32A32_UINT",
    "R32G32B32A32_SINT",
    "R32G32B32_FLOAT",
    "R32G32B32_UINT",
    "R32G32B32_SINT",
    "R16G16B16A16_FLOAT",
    "R16G16B16A16_UNORM",
    "R16G16B16A16_UINT",
    "R16G16B16A16_SNORM",
    "R16G16B16A16_SINT",
    "R32G32_FLOAT",
    "R32G32_UINT",
    "R32G32_SINT",
    "R10G10B10A2_UNORM",
    "R10G10B10A2_UINT",
    "R11G11B10_FLOAT",
    "R8G8B8A8_UNORM",
    "R8G8B8A8_UINT",
    "R8G8B8A8_SNORM",
    "R8G8B8A8_SINT",
    "B8G8R8A8_UNORM",
    "R16G16_FLOAT",
    "R16G16_UNORM",
    "R16G16_UINT",
    "R16G16_SNORM",
    "R16G16_SINT",
    "R32_FLOAT",
    "R32_UINT",
    "R32_SINT",
    "R8G8_UNORM",
    "R8G8_UINT",
    "R8G8_SNORM",
    "R8G8_SINT",
    "R16_FLOAT",
    "R16_UNORM",
    "R16_UINT",
    "R16_SNORM",
    "R16_SINT",
    "R8_UNORM",
    "R8_UINT",
    "R8_SNORM",
    "R8_SINT",
    "B8G8R8X8_UNORM",
    "R8G8B8A8_UNORM_SRGB",
    "B8G8R8A8_UNORM_SRGB",
    "B8G8R8X8_UNORM_SRGB",
    "B5G6R5_UNORM",
    "B5G5R5A1_UNORM",
    "B4G4R4A4_UNORM",
    "A8_UNORM",
    "R10G10B10_XR_BIAS_A2_UNORM",
    "R9G9B9E5_SHAREDEXP",
    "R32_FLOAT_X8X24_TYPELESS",
    "X32_TYPELESS_G8X24_UINT",
    "R24_UNORM_X8_TYPELESS",
    "X24_TYPELESS_G8_UINT",
    "BC1_UNORM",
    "BC1_UNORM_SRGB",
    "BC2_UNORM",
    "BC2_UNORM_SRGB",
    "BC3_UNORM",
    "BC3_UNORM_SRGB",
    "BC4_UNORM",
    "BC4_SNORM",
    "BC5_UNORM",
    "BC5_SNORM",
    "BC6H_UF16",
    "BC6H_SF16",
    "BC7_UNORM",
    "BC7_UNORM_SRGB",
    "R8G8_B8G8_UNORM",
    "G8R8_G8B8_UNORM",
];

#[test]
fn from_name_finds_every_format_by_its_dxgi_name() {
    assert_eq!(NAMES.len(), Format::ALL.len());
    for &name in NAMES {
        let f = Format::from_name(&format!("DXGI_FORMAT_{name}"))
            .unwrap_or_else(|| panic!("DXGI_FORMAT_{name} not found"));
        assert_eq!(f.name(), name);
        assert_eq!(Format::from_name(name), Some(f));
        assert_eq!(Format::from_name(&name.to_ascii_lowercase()), Some(f));
    }
    for f in Format::ALL {
        assert!(NAMES.contains(&f.name()), "{} is not in the list", f.name());
    }
    for name in ["R1_UNORM", "D32_FLOAT", "D24_UNORM_S8_UINT", "BC1_TYPELESS"] {
        assert_eq!(Format::from_name(name), None, "{name}");
    }
}

#[test]
fn metadata_follows_the_format_tables() {
    use Format::*;
    for &f in Format::ALL {
        let name = f.name();
        let bc = name.starts_with("BC");
        let subsampled = name == "R8G8_B8G8_UNORM" || name == "G8R8_G8B8_UNORM";
        assert_eq!(f.is_block_compressed(), bc, "{name}");
        assert_eq!(f.is_subsampled(), subsampled, "{name}");
        assert_eq!(f.block_dim(), if bc { 4 } else { 1 }, "{name}");
        let size = match (bc, subsampled) {
            (true, _) => [4, 4],
            (_, true) => [2, 1],
            _ => [1, 1],
        };
        assert_eq!(f.block_size(), size, "{name}");
        assert_eq!(f.is_srgb(), name.ends_with("_SRGB"), "{name}");
        assert_eq!(f.encode_texel([0; 4]).is_none(), bc || subsampled, "{name}");
        if subsampled {
            assert!(!f.uav_storable() && !f.buffer_viewable(), "{name}");
        }
        if bc {
            let eight = name.starts_with("BC1") || name.starts_with("BC4");
            assert_eq!(f.size_bytes(), if eight { 8 } else { 16 }, "{name}");
            assert!(!f.uav_storable() && !f.buffer_viewable(), "{name}");
        }
        if f.is_srgb() || name.contains("TYPELESS") {
            assert!(!f.uav_storable() && !f.buffer_viewable(), "{name}");
        }
        // The 43 original typed-buffer formats stay buffer-viewable.
        let original = Format::ALL.iter().position(|&g| g == f).unwrap() < 43;
        assert_eq!(
            f.buffer_viewable(),
            original || f == B8G8R8X8_UNORM,
            "{name}"
        );
        assert_eq!(f.srv_viewable(), f != R10G10B10_XR_BIAS_A2_UNORM, "{name}");
    }
    assert_eq!(Format::ALL[42], R8_SINT);
    // FL11_0 "Typed UAV": required for these ...
    for f in [
        R32G32B32A32_FLOAT,
        R11G11B10_FLOAT,
        R10G10B10A2_UNORM,
        R8G8B8A8_UNORM,
        R16_SNORM,
        R8_SINT,
        A8_UNORM,
        R32_UINT,
    ] {
        assert!(f.uav_storable(), "{}", f.name());
    }
    // ... and not for these.
    for f in [
        R32G32B32_FLOAT,
        R32G32B32_UINT,
        B8G8R8A8_UNORM,
        B8G8R8X8_UNORM,
        B5G6R5_UNORM,
        B5G5R5A1_UNORM,
        B4G4R4A4_UNORM,
        R9G9B9E5_SHAREDEXP,
        R10G10B10_XR_BIAS_A2_UNORM,
        R24_UNORM_X8_TYPELESS,
        X24_TYPELESS_G8_UINT,
    ] {
        assert!(!f.uav_storable(), "{}", f.name());
    }
    let ch = |f: Format| f.channels();
    assert_eq!(
        [
            R8G8_UNORM,
            B8G8R8A8_UNORM,
            B8G8R8X8_UNORM,
            B5G6R5_UNORM,
            A8_UNORM,
            R32_FLOAT
        ]
        .map(ch),
        [2, 4, 3, 3, 4, 1]
    );
    assert_eq!(
        [
            R24_UNORM_X8_TYPELESS,
            X24_TYPELESS_G8_UINT,
            X32_TYPELESS_G8X24_UINT,
            R32_FLOAT_X8X24_TYPELESS
        ]
        .map(ch),
        [1, 2, 2, 1]
    );
    assert_eq!(
        [
            R9G9B9E5_SHAREDEXP,
            R11G11B10_FLOAT,
            R10G10B10_XR_BIAS_A2_UNORM
        ]
        .map(ch),
        [3, 3, 4]
    );
    assert_eq!(
        [
            BC1_UNORM,
            BC2_UNORM_SRGB,
            BC3_UNORM,
            BC4_SNORM,
            BC5_UNORM,
            BC6H_UF16,
            BC7_UNORM
        ]
        .map(ch),
        [4, 4, 4, 1, 2, 3, 4]
    );
    assert_eq!(R32_FLOAT_X8X24_TYPELESS.size_bytes(), 8);
    assert_eq!(X32_TYPELESS_G8X24_UINT.size_bytes(), 8);
    assert_eq!(R24_UNORM_X8_TYPELESS.size_bytes(), 4);
    assert_eq!(R9G9B9E5_SHAREDEXP.kind(), sim_mem::ChannelKind::Float);
    assert_eq!(BC6H_SF16.kind(), sim_mem::ChannelKind::Float);
    assert_eq!(BC4_SNORM.kind(), sim_mem::ChannelKind::Snorm);
    assert_eq!(BC5_SNORM.kind(), sim_mem::ChannelKind::Snorm);
    assert_eq!(BC7_UNORM_SRGB.kind(), sim_mem::ChannelKind::Unorm);
}

/// Register values a store of this format represents exactly, by kind: floats
/// exact in every float width (unsigned for R11G11B10), k/3 for UNORM (exact
/// for every even bit count), ±1 and 0 for SNORM, the extremes for integers.
fn representative(fmt: Format) -> Vec<[u32; 4]> {
    use sim_mem::ChannelKind::*;
    let bits = fmt.channel_bits();
    let umax = |c: usize| bits.get(c).map_or(0, |&n| ((1u64 << n) - 1) as u32);
    let smin = |c: usize| bits.get(c).map_or(0, |&n| (-(1i64 << (n - 1))) as u32);
    let smax = |c: usize| bits.get(c).map_or(0, |&n| ((1i64 << (n - 1)) - 1) as u32);
    match fmt.kind() {
        Float if fmt == Format::R11G11B10_FLOAT => vec![
            [f(1.5), f(0.25), f(8.0), 0],
            [f(65024.0), f(0.0), f(f32::INFINITY), 0],
        ],
        Float => vec![
            [f(1.5), f(-2.0), f(0.25), f(8.0)],
            [f(-65504.0), f(0.0), f(f32::INFINITY), f(f32::NEG_INFINITY)],
        ],
        Unorm => vec![
            [f(0.0), f(1.0), f(1.0 / 3.0), f(2.0 / 3.0)],
            [f(2.0 / 3.0), f(1.0 / 3.0), f(1.0), f(0.0)],
        ],
        Snorm => vec![
            [f(1.0), f(-1.0), f(0.0), f(1.0)],
            [f(0.0), f(1.0), f(-1.0), f(-1.0)],
        ],
        Uint => vec![[0, 1, 7, 1], [umax(0), umax(1), umax(2), umax(3)]],
        Sint => vec![
            [(-1i32) as u32, 1, 7, (-2i32) as u32],
            [smin(0), smax(1), smin(2), smax(3)],
        ],
    }
}

#[test]
fn storable_formats_round_trip_store_then_load() {
    let mut tested = 0;
    for &fmt in Format::ALL.iter().filter(|f| f.uav_storable()) {
        let n = fmt.channels() as usize;
        for v in representative(fmt) {
            let bytes = fmt.encode(v);
            assert_eq!(bytes.len(), fmt.size_bytes() as usize);
            let back = fmt.decode(&bytes);
            // Present channels come back; A8_UNORM stores only alpha.
            for c in 0..n {
                if fmt == Format::A8_UNORM && c < 3 {
                    assert_eq!(back[c], 0);
                    continue;
                }
                assert_eq!(back[c], v[c], "{} channel {c} of {v:?}", fmt.name());
            }
            // Loading and storing again gives the same bytes (FS §19.1.2).
            assert_eq!(fmt.encode(back), bytes, "{}", fmt.name());
            assert_eq!(fmt.encode_texel(back), Some(bytes), "{}", fmt.name());
        }
        tested += 1;
    }
    assert_eq!(tested, 40);
}

#[test]
fn unorm_snorm_stores_round_to_nearest() {
    // FS §3.2.3.4 / §3.2.3.6: 0.5 → 127.5 + 0.5 = 128 (UNORM8); 0.5 · 127 = 63.5 → 64 (SNORM8).
    assert_eq!(Format::R8_UNORM.encode([f(0.5), 0, 0, 0]), vec![128]);
    assert_eq!(
        Format::R8_SNORM.encode([f(-0.5), 0, 0, 0]),
        vec![(-64i8) as u8]
    );
    assert_eq!(
        Format::A8_UNORM.encode([f(1.0), f(1.0), f(1.0), f(0.2)]),
        vec![51]
    );
    assert_eq!(
        Format::R16G16B16A16_UNORM.encode([f(2.0), f(-1.0), f(f32::NAN), f(0.5)]),
        le16(&[0xFFFF, 0, 0, 0x8000])
    );
}

#[test]
fn srgb_encode_is_the_inverse_curve() {
    let e = |x: f64| {
        Format::R8G8B8A8_UNORM_SRGB
            .encode_texel([q(x), q(x), q(x), q(x)])
            .unwrap()
    };
    // Alpha is linear UNORM: 0.21586 · 255 + 0.5 = 55.5 → 55.
    assert_eq!(e(SRGB_128), vec![128, 128, 128, 55]);
    assert_eq!(e(1.0), vec![255; 4]);
    assert_eq!(e(0.0), vec![0; 4]);
    assert_eq!(e(2.0), vec![255; 4]);
    assert_eq!(e(-1.0), vec![0; 4]);
    assert_eq!(e(f64::NAN), vec![0; 4]);
    // Linear segment: 0.001 · 12.92 · 255 + 0.5 = 3.79 → 3.
    assert_eq!(e(0.001)[0], 3);
    // Every sRGB byte survives load → store (FS §19.1.2), for each sRGB format.
    for fmt in [
        Format::R8G8B8A8_UNORM_SRGB,
        Format::B8G8R8A8_UNORM_SRGB,
        Format::B8G8R8X8_UNORM_SRGB,
    ] {
        for n in 0..=255u8 {
            let bytes = [n, n.wrapping_mul(7), n.wrapping_add(3), n];
            let mut want = bytes.to_vec();
            if fmt == Format::B8G8R8X8_UNORM_SRGB {
                want[3] = 0; // X is written as 0
            }
            let back = fmt.encode_texel(fmt.decode(&bytes)).unwrap();
            assert_eq!(back, want, "{} {bytes:?}", fmt.name());
        }
    }
    // B8G8R8A8_UNORM_SRGB stores B first.
    assert_eq!(
        Format::B8G8R8A8_UNORM_SRGB.encode_texel([f(1.0), q(SRGB_128), f(0.0), f(0.2)]),
        Some(vec![0, 128, 255, 51])
    );
}

#[test]
fn shared_exponent_encode_follows_fs_19_3_2_2() {
    let e = |v: [f32; 3]| {
        let bytes = Format::R9G9B9E5_SHAREDEXP
            .encode_texel([f(v[0]), f(v[1]), f(v[2]), 0])
            .unwrap();
        u32::from_le_bytes(bytes.try_into().unwrap())
    };
    // The FS example backwards: shared exponent from G = 12.5 = 0.78125 · 2^4.
    assert_eq!(e([6.25, 12.5, 3.125]), 0x9993_20C8);
    // Saturation at 65408 = 0.111111111₂ · 2^16, negatives and NaN → 0.
    assert_eq!(e([1e9, f32::INFINITY, -5.0]), 31 << 27 | 511 << 9 | 511);
    assert_eq!(e([f32::NAN, 0.0, -0.0]), 0);
    // 511.9 rounds to a 10-bit mantissa at exponent 24, so the exponent grows to 25:
    // 511.9 / 2 = 255.95 → 256, i.e. 512.
    let w = e([511.9, 1.0, 0.0]);
    assert_eq!(w >> 27, 25);
    assert_eq!(
        Format::R9G9B9E5_SHAREDEXP.decode(&w.to_le_bytes())[0],
        f(512.0)
    );
    // Smallest value: mantissa 1 at exponent 0 = 2^−24.
    assert_eq!(e([2f32.powi(-24), 0.0, 0.0]), 1);
    // Round trip of exactly representable values.
    // (At exponent 31 one mantissa step is 2^7 = 128.)
    for v in [[1.0, 0.5, 0.25], [65408.0, 128.0, 0.0], [3.0, 5.0, 7.0]] {
        let w = e(v);
        let d = Format::R9G9B9E5_SHAREDEXP.decode(&w.to_le_bytes());
        assert_eq!(d, [f(v[0]), f(v[1]), f(v[2]), f(1.0)], "{v:?}");
    }
}

#[test]
fn xr_bias_and_depth_views_encode_for_host_initialisation() {
    let xr = Format::R10G10B10_XR_BIAS_A2_UNORM;
    let w = |b: Vec<u8>| u32::from_le_bytes(b.try_into().unwrap());
    // 0.0 → 0x180, 1.0 → 894, −0.7529… → 0, out of range clamps, alpha 2-bit UNORM.
    assert_eq!(
        w(xr.encode_texel([f(0.0), f(1.0), f(-384.0 / 510.0), f(1.0)])
            .unwrap()),
        0x180 | 894 << 10 | 3 << 30
    );
    assert_eq!(
        w(xr.encode_texel([f(5.0), f(-5.0), f(f32::NAN), f(0.0)])
            .unwrap()),
        0x3FF
    );
    for n in [0u32, 1, 0x180, 0x17F, 894, 1023] {
        let bytes = (n | n << 10 | n << 20).to_le_bytes();
        assert_eq!(xr.encode(xr.decode(&bytes)), bytes.to_vec(), "{n}");
    }
    let d24 = Format::R24_UNORM_X8_TYPELESS;
    assert_eq!(
        d24.encode_texel([f(1.0), 0, 0, 0]),
        Some(vec![0xFF, 0xFF, 0xFF, 0])
    );
    assert_eq!(
        d24.encode_texel([f(0.5), 0, 0, 0]),
        Some(vec![0x00, 0x00, 0x80, 0])
    );
    let s8 = Format::X24_TYPELESS_G8_UINT;
    assert_eq!(s8.encode_texel([9, 300, 0, 0]), Some(vec![0, 0, 0, 255]));
    let d32 = Format::R32_FLOAT_X8X24_TYPELESS;
    assert_eq!(
        d32.encode_texel([f(0.25), 5, 5, 5]),
        Some([lef(&[0.25]), vec![0; 4]].concat())
    );
    let s32 = Format::X32_TYPELESS_G8X24_UINT;
    assert_eq!(
        s32.encode_texel([f(0.25), 17, 5, 5]),
        Some(vec![0, 0, 0, 0, 17, 0, 0, 0])
    );
    // 16-bit packed formats: B in the low bits.
    assert_eq!(
        Format::B5G6R5_UNORM.encode_texel([f(1.0), f(0.0), f(1.0), 0]),
        Some(le16(&[0xF81F]))
    );
    assert_eq!(
        Format::B4G4R4A4_UNORM.encode_texel([f(0.0), f(1.0 / 3.0), f(1.0), f(2.0 / 3.0)]),
        Some(le16(&[0xA05F]))
    );
    assert_eq!(
        Format::B5G5R5A1_UNORM.encode_texel([f(0.0), f(1.0), f(0.0), f(0.6)]),
        Some(le16(&[0x83E0]))
    );
    assert_eq!(
        Format::B8G8R8X8_UNORM.encode_texel([f(1.0), f(0.2), f(0.0), f(0.5)]),
        Some(vec![0, 51, 255, 0])
    );
}

#[test]
fn short_block_input_reads_as_zero_padded() {
    // A truncated BC block must not panic.
    let got = Format::BC7_UNORM.decode_texel(&[0x40], 0);
    assert_eq!(got, [0, 0, 0, 0]);
    let got = Format::BC1_UNORM.decode_texel(&[], 15);
    assert_eq!(got, [0, 0, 0, f(1.0)]);
}
