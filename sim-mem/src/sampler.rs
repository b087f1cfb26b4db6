//! Sampler state (`D3D11_SAMPLER_DESC`, FS §7.18 "Texture Sampling") as a
//! job or library user declares it; the filtering itself is in
//! [`crate::sampling`].

/// How one filter stage (min, mag or mip) combines texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FilterType {
    /// nearest texel (or nearest mip)
    Point,
    /// bilinear (or blend of two mips)
    Linear,
}

/// How filtered texels are reduced (D3D11.1 `D3D11_FILTER_REDUCTION_TYPE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// weighted average
    Standard,
    /// compare each texel with the reference value first (`sample_c*`, `gather4_c*`)
    Comparison,
    /// component-wise minimum of the texels with nonzero weight
    Minimum,
    /// component-wise maximum of the texels with nonzero weight
    Maximum,
}

/// A `D3D11_FILTER`, split into its parts.
///
/// Encoding (`D3D11_FILTER` values, FS §7.18.1): bits 0–1 mip (0 point, 1
/// linear), bits 2–3 mag, bits 4–5 min, bit 6 anisotropic (with all three
/// linear: 0x55), bits 7–8 reduction (0 standard, 1 comparison, 2 minimum,
/// 3 maximum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Filter {
    /// minification filter
    pub min: FilterType,
    /// magnification filter
    pub mag: FilterType,
    /// filter between mips
    pub mip: FilterType,
    /// anisotropic filtering (min, mag and mip linear)
    pub anisotropic: bool,
    /// reduction
    pub reduction: Reduction,
}

impl Filter {
    /// `MIN_MAG_MIP_LINEAR`, D3D11's default.
    pub const LINEAR: Filter = Filter {
        min: FilterType::Linear,
        mag: FilterType::Linear,
        mip: FilterType::Linear,
        anisotropic: false,
        reduction: Reduction::Standard,
    };

    /// `MIN_MAG_MIP_POINT`.
    pub const POINT: Filter = Filter {
        min: FilterType::Point,
        mag: FilterType::Point,
        mip: FilterType::Point,
        anisotropic: false,
        reduction: Reduction::Standard,
    };

    /// The `D3D11_FILTER` value.
    pub fn to_d3d11(self) -> u32 {
        let b = |t: FilterType| (t == FilterType::Linear) as u32;
        let red = match self.reduction {
            Reduction::Standard => 0,
            Reduction::Comparison => 1,
            Reduction::Minimum => 2,
            Reduction::Maximum => 3,
        };
        if self.anisotropic {
            return 0x55 | (red << 7);
        }
        b(self.mip) | (b(self.mag) << 2) | (b(self.min) << 4) | (red << 7)
    }

    /// The filter with `D3D11_FILTER` value `v`, or `None` for a value
    /// D3D11 does not define.
    pub fn from_d3d11(v: u32) -> Option<Filter> {
        if v & !0x1d5 != 0 {
            return None;
        }
        let t = |bit: u32| {
            if v & bit != 0 {
                FilterType::Linear
            } else {
                FilterType::Point
            }
        };
        let anisotropic = v & 0x40 != 0;
        if anisotropic && v & 0x15 != 0x15 {
            return None;
        }
        let reduction = match (v >> 7) & 3 {
            0 => Reduction::Standard,
            1 => Reduction::Comparison,
            2 => Reduction::Minimum,
            _ => Reduction::Maximum,
        };
        Some(Filter {
            min: t(0x10),
            mag: t(0x4),
            mip: t(0x1),
            anisotropic,
            reduction,
        })
    }

    /// The `D3D11_FILTER` name without its prefix, e.g. `MIN_MAG_MIP_LINEAR`,
    /// `COMPARISON_MIN_MAG_LINEAR_MIP_POINT`, `MAXIMUM_ANISOTROPIC`.
    pub fn name(self) -> String {
        let prefix = match self.reduction {
            Reduction::Standard => "",
            Reduction::Comparison => "COMPARISON_",
            Reduction::Minimum => "MINIMUM_",
            Reduction::Maximum => "MAXIMUM_",
        };
        if self.anisotropic {
            return format!("{prefix}ANISOTROPIC");
        }
        let n = |t: FilterType| match t {
            FilterType::Point => "POINT",
            FilterType::Linear => "LINEAR",
        };
        let body = if self.min == self.mag && self.mag == self.mip {
            format!("MIN_MAG_MIP_{}", n(self.min))
        } else if self.min == self.mag {
            format!("MIN_MAG_{}_MIP_{}", n(self.min), n(self.mip))
        } else if self.mag == self.mip {
            format!("MIN_{}_MAG_MIP_{}", n(self.min), n(self.mag))
        } else {
            format!(
                "MIN_{}_MAG_{}_MIP_{}",
                n(self.min),
                n(self.mag),
                n(self.mip)
            )
        };
        format!("{prefix}{body}")
    }

    /// The filter called `name` (with or without `D3D11_FILTER_`, any case).
    pub fn from_name(name: &str) -> Option<Filter> {
        let n = name.trim().to_ascii_uppercase();
        let n = n.strip_prefix("D3D11_FILTER_").unwrap_or(&n);
        (0..0x200u32)
            .filter_map(Filter::from_d3d11)
            .find(|f| f.name() == n)
    }
}

/// `D3D11_TEXTURE_ADDRESS_MODE` (FS §7.18.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressMode {
    /// repeat: coordinate mod size
    Wrap,
    /// reflect at every edge
    Mirror,
    /// clamp to the edge texel
    Clamp,
    /// outside reads the border colour
    Border,
    /// mirror once around 0, then clamp
    MirrorOnce,
}

impl AddressMode {
    /// Every mode, in `D3D11_TEXTURE_ADDRESS_MODE` order (1–5).
    pub const ALL: [AddressMode; 5] = [
        Self::Wrap,
        Self::Mirror,
        Self::Clamp,
        Self::Border,
        Self::MirrorOnce,
    ];

    /// The D3D name without `D3D11_TEXTURE_ADDRESS_`: `WRAP`, `MIRROR`, `CLAMP`, `BORDER`, `MIRROR_ONCE`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Wrap => "WRAP",
            Self::Mirror => "MIRROR",
            Self::Clamp => "CLAMP",
            Self::Border => "BORDER",
            Self::MirrorOnce => "MIRROR_ONCE",
        }
    }

    /// The mode called `name` (with or without the prefix, any case).
    pub fn from_name(name: &str) -> Option<Self> {
        let n = name.trim().to_ascii_uppercase();
        let n = n.strip_prefix("D3D11_TEXTURE_ADDRESS_").unwrap_or(&n);
        Self::ALL.into_iter().find(|m| m.name() == n)
    }
}

/// `D3D11_COMPARISON_FUNC`: passes when `reference OP texel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComparisonFunc {
    /// never passes
    Never,
    /// `reference < texel`
    Less,
    /// `reference == texel`
    Equal,
    /// `reference <= texel`
    LessEqual,
    /// `reference > texel`
    Greater,
    /// `reference != texel`
    NotEqual,
    /// `reference >= texel`
    GreaterEqual,
    /// always passes
    Always,
}

impl ComparisonFunc {
    /// Every function, in `D3D11_COMPARISON_FUNC` order (1–8).
    pub const ALL: [ComparisonFunc; 8] = [
        Self::Never,
        Self::Less,
        Self::Equal,
        Self::LessEqual,
        Self::Greater,
        Self::NotEqual,
        Self::GreaterEqual,
        Self::Always,
    ];

    /// The D3D name without `D3D11_COMPARISON_`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Never => "NEVER",
            Self::Less => "LESS",
            Self::Equal => "EQUAL",
            Self::LessEqual => "LESS_EQUAL",
            Self::Greater => "GREATER",
            Self::NotEqual => "NOT_EQUAL",
            Self::GreaterEqual => "GREATER_EQUAL",
            Self::Always => "ALWAYS",
        }
    }

    /// The function called `name` (with or without the prefix, any case).
    pub fn from_name(name: &str) -> Option<Self> {
        let n = name.trim().to_ascii_uppercase();
        let n = n.strip_prefix("D3D11_COMPARISON_").unwrap_or(&n);
        Self::ALL.into_iter().find(|m| m.name() == n)
    }

    /// Whether `reference OP texel` holds (IEEE comparisons: NaN fails all
    /// but NOT_EQUAL and ALWAYS).
    pub fn passes(self, reference: f32, texel: f32) -> bool {
        match self {
            Self::Never => false,
            Self::Less => reference < texel,
            Self::Equal => reference == texel,
            Self::LessEqual => reference <= texel,
            Self::Greater => reference > texel,
            Self::NotEqual => reference != texel,
            Self::GreaterEqual => reference >= texel,
            Self::Always => true,
        }
    }
}

/// A sampler (`D3D11_SAMPLER_DESC`). [`Default`] is D3D11's default state:
/// `MIN_MAG_MIP_LINEAR`, CLAMP everywhere, no bias, anisotropy 1,
/// comparison NEVER, border (1, 1, 1, 1), LOD range [−FLT_MAX, FLT_MAX].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerDesc {
    /// filter
    pub filter: Filter,
    /// address mode of u, v and w
    pub address: [AddressMode; 3],
    /// added to the LOD before clamping (`MipLODBias`)
    pub mip_lod_bias: f32,
    /// 1–16
    pub max_anisotropy: u32,
    /// comparison of `*_c` sampling
    pub comparison: ComparisonFunc,
    /// RGBA returned for BORDER addressing (converted to the format's channels)
    pub border_color: [f32; 4],
    /// lowest LOD used (`MinLOD`)
    pub min_lod: f32,
    /// highest LOD used (`MaxLOD`)
    pub max_lod: f32,
}

impl Default for SamplerDesc {
    fn default() -> Self {
        Self {
            filter: Filter::LINEAR,
            address: [AddressMode::Clamp; 3],
            mip_lod_bias: 0.0,
            max_anisotropy: 1,
            comparison: ComparisonFunc::Never,
            border_color: [1.0; 4],
            min_lod: -f32::MAX,
            max_lod: f32::MAX,
        }
    }
}

impl SamplerDesc {
    /// Check the state as `CreateSamplerState` does.
    ///
    /// # Errors
    /// A message for anisotropy outside 1–16, a NaN LOD field or bias, or
    /// `min_lod > max_lod`.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=16).contains(&self.max_anisotropy) {
            return Err(format!(
                "max_anisotropy {} is not in 1..=16",
                self.max_anisotropy
            ));
        }
        if self.mip_lod_bias.is_nan() || self.min_lod.is_nan() || self.max_lod.is_nan() {
            return Err("mip_lod_bias, min_lod and max_lod must be numbers".into());
        }
        if self.min_lod > self.max_lod {
            return Err(format!(
                "min_lod {} > max_lod {}",
                self.min_lod, self.max_lod
            ));
        }
        if !(-16.0..=15.99).contains(&self.mip_lod_bias) {
            return Err(format!(
                "mip_lod_bias {} is outside D3D11's [-16, 15.99]",
                self.mip_lod_bias
            ));
        }
        Ok(())
    }
}
