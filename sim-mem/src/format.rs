//! DXGI formats of typed buffer views and their conversions between memory
//! and shader registers (FS §3.2 "Data conversion", digested in
//! `reference/sm5-compute-isa.md` §10–§11 and `compute-model.md` §8.2).
//!
//! Reading (`ld`, `ld_uav_typed`) converts each present channel to what the
//! shader sees — float bits for FLOAT/UNORM/SNORM channels, zero- or
//! sign-extended integers for UINT/SINT channels — and fills missing
//! channels with 0, except alpha, which reads 1 (1.0f for float and
//! normalized formats, integer 1 for integer formats; FS §19.1.3.3).
//!
//! Writing (`store_uav_typed`) converts the register value per channel:
//! - UNORM: NaN → 0, clamp to [0, 1], × (2ⁿ−1), + 0.5, truncate;
//! - SNORM: NaN → 0, clamp to [−1, 1], × (2ⁿ⁻¹−1), round half away from zero;
//! - 16-bit and 11/10-bit floats: round toward zero, finite overflow → the
//!   largest finite value, ±INF and NaN kept (unsigned 11/10-bit floats
//!   store negative values as 0);
//! - UINT/SINT narrower than 32 bits: clamp the register's unsigned
//!   (UINT) or signed (SINT) value to the format's range (FS §3.2.3.13).

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

macro_rules! formats {
    ($( $name:ident $bytes:literal $kind:ident [$($bits:literal),*] $($swap:ident)?; )*) => {
        /// A DXGI format usable by typed buffer views.
        #[allow(non_camel_case_types, missing_docs)]
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Format { $( $name, )* }

        impl Format {
            /// Every supported format.
            pub const ALL: &'static [Format] = &[ $( Format::$name, )* ];

            /// The DXGI name without the `DXGI_FORMAT_` prefix, e.g. `R8G8B8A8_UNORM`.
            pub fn name(self) -> &'static str {
                match self { $( Format::$name => stringify!($name), )* }
            }

            /// Bytes per element.
            pub fn size_bytes(self) -> u32 {
                match self { $( Format::$name => $bytes, )* }
            }

            /// Channel kind.
            pub fn kind(self) -> ChannelKind {
                match self { $( Format::$name => ChannelKind::$kind, )* }
            }

            /// Bits of each present channel in memory order (R, G, B, A).
            pub fn channel_bits(self) -> &'static [u32] {
                match self { $( Format::$name => &[$($bits),*], )* }
            }

            /// True for B8G8R8A8-style formats, whose memory order is B, G, R, A.
            fn bgra(self) -> bool {
                match self { $( Format::$name => false $(|| { let _ = stringify!($swap); true })?, )* }
            }
        }
    };
}

formats! {
    R32G32B32A32_FLOAT 16 Float [32, 32, 32, 32];
    R32G32B32A32_UINT 16 Uint [32, 32, 32, 32];
    R32G32B32A32_SINT 16 Sint [32, 32, 32, 32];
    R32G32B32_FLOAT 12 Float [32, 32, 32];
    R32G32B32_UINT 12 Uint [32, 32, 32];
    R32G32B32_SINT 12 Sint [32, 32, 32];
    R16G16B16A16_FLOAT 8 Float [16, 16, 16, 16];
    R16G16B16A16_UNORM 8 Unorm [16, 16, 16, 16];
    R16G16B16A16_UINT 8 Uint [16, 16, 16, 16];
    R16G16B16A16_SNORM 8 Snorm [16, 16, 16, 16];
    R16G16B16A16_SINT 8 Sint [16, 16, 16, 16];
    R32G32_FLOAT 8 Float [32, 32];
    R32G32_UINT 8 Uint [32, 32];
    R32G32_SINT 8 Sint [32, 32];
    R10G10B10A2_UNORM 4 Unorm [10, 10, 10, 2];
    R10G10B10A2_UINT 4 Uint [10, 10, 10, 2];
    R11G11B10_FLOAT 4 Float [11, 11, 10];
    R8G8B8A8_UNORM 4 Unorm [8, 8, 8, 8];
    R8G8B8A8_UINT 4 Uint [8, 8, 8, 8];
    R8G8B8A8_SNORM 4 Snorm [8, 8, 8, 8];
    R8G8B8A8_SINT 4 Sint [8, 8, 8, 8];
    B8G8R8A8_UNORM 4 Unorm [8, 8, 8, 8] swap;
    R16G16_FLOAT 4 Float [16, 16];
    R16G16_UNORM 4 Unorm [16, 16];
    R16G16_UINT 4 Uint [16, 16];
    R16G16_SNORM 4 Snorm [16, 16];
    R16G16_SINT 4 Sint [16, 16];
    R32_FLOAT 4 Float [32];
    R32_UINT 4 Uint [32];
    R32_SINT 4 Sint [32];
    R8G8_UNORM 2 Unorm [8, 8];
    R8G8_UINT 2 Uint [8, 8];
    R8G8_SNORM 2 Snorm [8, 8];
    R8G8_SINT 2 Sint [8, 8];
    R16_FLOAT 2 Float [16];
    R16_UNORM 2 Unorm [16];
    R16_UINT 2 Uint [16];
    R16_SNORM 2 Snorm [16];
    R16_SINT 2 Sint [16];
    R8_UNORM 1 Unorm [8];
    R8_UINT 1 Uint [8];
    R8_SNORM 1 Snorm [8];
    R8_SINT 1 Sint [8];
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

    /// Decode one element (`size_bytes()` little-endian bytes) into the four
    /// 32-bit register values a load returns.
    pub fn decode(self, bytes: &[u8]) -> [u32; 4] {
        let kind = self.kind();
        let one = match kind {
            ChannelKind::Uint | ChannelKind::Sint => 1,
            _ => 1.0f32.to_bits(),
        };
        let mut out = [0, 0, 0, one];
        let mut bit = 0u32;
        for (c, &bits) in self.channel_bits().iter().enumerate() {
            let raw = read_bits(bytes, bit, bits);
            bit += bits;
            out[c] = decode_channel(kind, bits, raw);
        }
        if self.bgra() {
            out.swap(0, 2);
        }
        out
    }

    /// Encode four register values into one element's `size_bytes()` bytes.
    pub fn encode(self, value: [u32; 4]) -> Vec<u8> {
        let mut v = value;
        if self.bgra() {
            v.swap(0, 2);
        }
        let kind = self.kind();
        let mut out = vec![0u8; self.size_bytes() as usize];
        let mut bit = 0u32;
        for (c, &bits) in self.channel_bits().iter().enumerate() {
            write_bits(&mut out, bit, bits, encode_channel(kind, bits, v[c]));
            bit += bits;
        }
        out
    }
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
            assert_eq!(bits, fmt.size_bytes() * 8, "{}", fmt.name());
        }
        assert_eq!(
            Format::from_name("DXGI_FORMAT_r8_unorm"),
            Some(Format::R8_UNORM)
        );
        assert_eq!(Format::from_name("R9G9B9E5_SHAREDEXP"), None);
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
