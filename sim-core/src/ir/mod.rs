//! The decoded instruction stream: every token of a SHEX/SHDR chunk turned
//! into typed instructions and operands, with nothing resolved yet. The
//! disassembler prints this form; [`crate::program`] validates and lowers it
//! into what the executor runs.
//!
//! Field layouts follow `reference/dxbc-format.md` §3 (opcode tokens) and §5
//! (operands).

pub(crate) mod lowered;

use crate::isa::opcodes::Opcode;

/// Shader program type from the version token (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramType {
    /// pixel shader (0)
    Pixel,
    /// vertex shader (1)
    Vertex,
    /// geometry shader (2)
    Geometry,
    /// hull shader (3)
    Hull,
    /// domain shader (4)
    Domain,
    /// compute shader (5)
    Compute,
}

impl ProgramType {
    /// From bits 31:16 of the version token.
    pub fn from_raw(raw: u32) -> Option<Self> {
        Some(match raw {
            0 => Self::Pixel,
            1 => Self::Vertex,
            2 => Self::Geometry,
            3 => Self::Hull,
            4 => Self::Domain,
            5 => Self::Compute,
            _ => return None,
        })
    }

    /// The listing prefix: `ps`, `vs`, `gs`, `hs`, `ds`, `cs`.
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Pixel => "ps",
            Self::Vertex => "vs",
            Self::Geometry => "gs",
            Self::Hull => "hs",
            Self::Domain => "ds",
            Self::Compute => "cs",
        }
    }
}

/// The version token: program type and shader model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShaderVersion {
    /// Program type.
    pub program_type: ProgramType,
    /// Major version (4 or 5).
    pub major: u8,
    /// Minor version (0 or 1).
    pub minor: u8,
}

impl ShaderVersion {
    /// True for shader model 5.1 and later, whose resource operands have range ids (§8).
    pub fn is_sm51(self) -> bool {
        (self.major, self.minor) >= (5, 1)
    }
}

/// Operand types (`D3D10_SB_OPERAND_TYPE`, §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum OperandType {
    Temp,
    Input,
    Output,
    IndexableTemp,
    Immediate32,
    Immediate64,
    Sampler,
    Resource,
    ConstantBuffer,
    ImmediateConstantBuffer,
    Label,
    InputPrimitiveId,
    OutputDepth,
    Null,
    Rasterizer,
    OutputCoverageMask,
    Stream,
    FunctionBody,
    FunctionTable,
    Interface,
    FunctionInput,
    FunctionOutput,
    OutputControlPointId,
    InputForkInstanceId,
    InputJoinInstanceId,
    InputControlPoint,
    OutputControlPoint,
    InputPatchConstant,
    InputDomainPoint,
    ThisPointer,
    UnorderedAccessView,
    ThreadGroupSharedMemory,
    InputThreadId,
    InputThreadGroupId,
    InputThreadIdInGroup,
    InputCoverageMask,
    InputThreadIdInGroupFlattened,
    InputGsInstanceId,
    OutputDepthGreaterEqual,
    OutputDepthLessEqual,
    CycleCounter,
    OutputStencilRef,
    InnerCoverage,
}

const OPERAND_TYPES: [(OperandType, &str); 43] = [
    (OperandType::Temp, "r"),
    (OperandType::Input, "v"),
    (OperandType::Output, "o"),
    (OperandType::IndexableTemp, "x"),
    (OperandType::Immediate32, "l"),
    (OperandType::Immediate64, "d"),
    (OperandType::Sampler, "s"),
    (OperandType::Resource, "t"),
    (OperandType::ConstantBuffer, "cb"),
    (OperandType::ImmediateConstantBuffer, "icb"),
    (OperandType::Label, "l"),
    (OperandType::InputPrimitiveId, "vPrim"),
    (OperandType::OutputDepth, "oDepth"),
    (OperandType::Null, "null"),
    (OperandType::Rasterizer, "rasterizer"),
    (OperandType::OutputCoverageMask, "oMask"),
    (OperandType::Stream, "m"),
    (OperandType::FunctionBody, "fb"),
    (OperandType::FunctionTable, "ft"),
    (OperandType::Interface, "fp"),
    (OperandType::FunctionInput, "fi"),
    (OperandType::FunctionOutput, "fo"),
    (OperandType::OutputControlPointId, "vOutputControlPointID"),
    (OperandType::InputForkInstanceId, "vForkInstanceID"),
    (OperandType::InputJoinInstanceId, "vJoinInstanceID"),
    (OperandType::InputControlPoint, "vicp"),
    (OperandType::OutputControlPoint, "vocp"),
    (OperandType::InputPatchConstant, "vpc"),
    (OperandType::InputDomainPoint, "vDomain"),
    (OperandType::ThisPointer, "this"),
    (OperandType::UnorderedAccessView, "u"),
    (OperandType::ThreadGroupSharedMemory, "g"),
    (OperandType::InputThreadId, "vThreadID"),
    (OperandType::InputThreadGroupId, "vThreadGroupID"),
    (OperandType::InputThreadIdInGroup, "vThreadIDInGroup"),
    (OperandType::InputCoverageMask, "vCoverage"),
    (
        OperandType::InputThreadIdInGroupFlattened,
        "vThreadIDInGroupFlattened",
    ),
    (OperandType::InputGsInstanceId, "vGSInstanceID"),
    (OperandType::OutputDepthGreaterEqual, "oDepthGE"),
    (OperandType::OutputDepthLessEqual, "oDepthLE"),
    (OperandType::CycleCounter, "vCycleCounter"),
    (OperandType::OutputStencilRef, "oStencilRef"),
    (OperandType::InnerCoverage, "vInnerCoverage"),
];

impl OperandType {
    /// From bits 19:12 of OperandToken0.
    pub fn from_raw(raw: u32) -> Option<Self> {
        OPERAND_TYPES.get(raw as usize).map(|(t, _)| *t)
    }

    /// The register prefix or name as fxc prints it (`r`, `cb`, `vThreadID`, …).
    pub fn name(self) -> &'static str {
        OPERAND_TYPES[self as usize].1
    }
}

/// How a 4-component operand selects components (§5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// Destination write mask, bit 0 = x … bit 3 = w.
    Mask(u8),
    /// Source swizzle: component `i` of the result reads source component `swizzle[i]` (0 = x … 3 = w).
    Swizzle([u8; 4]),
    /// One source component replicated (`r0.x`).
    Select1(u8),
}

/// Number of components and their selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Components {
    /// No components (resources in declarations, u#/g# in atomics, null, labels).
    Zero,
    /// One component (scalar immediates, some system values).
    One,
    /// Four components with a selection.
    Four(Selection),
}

/// Source modifier from an extended operand token (§5.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Modifier {
    /// none
    #[default]
    None,
    /// `-x`
    Neg,
    /// `|x|`
    Abs,
    /// `-|x|`
    AbsNeg,
}

/// One index of an operand (§5.3): `imm + value of rel`, in u32 wrapping arithmetic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// The immediate part (0 when the representation is relative only). 64-bit
    /// representations are kept whole; the executor rejects values ≥ 2³².
    pub imm: u64,
    /// The relative part, a nested operand (usually `r#.c` or `x#[n].c`).
    pub rel: Option<Box<Operand>>,
}

/// A decoded operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operand {
    /// Operand type.
    pub ty: OperandType,
    /// Component count and selection.
    pub components: Components,
    /// 0 to 3 indices (register number first).
    pub indices: Vec<Index>,
    /// Source modifier.
    pub modifier: Modifier,
    /// Minimum-precision field of the extended operand token (0 = default).
    pub min_precision: u8,
    /// SM5.1 non-uniform index flag.
    pub non_uniform: bool,
    /// Immediate values (IMMEDIATE32: 1 or 4 dwords; IMMEDIATE64: 2 or 4 dwords, low dword first).
    pub imm: Vec<u32>,
}

impl Operand {
    /// The first index as an immediate register number, if it has one and no relative part.
    pub fn reg(&self) -> Option<u32> {
        let i = self.indices.first()?;
        if i.rel.is_some() {
            return None;
        }
        u32::try_from(i.imm).ok()
    }

    /// Destination write mask (x = bit 0), or `None` when the operand is not in mask mode.
    pub fn mask(&self) -> Option<u8> {
        match self.components {
            Components::Four(Selection::Mask(m)) => Some(m),
            _ => None,
        }
    }

    /// The source swizzle as four component numbers: select-1 replicates, a
    /// one-component operand reads x, and mask mode reads the identity.
    pub fn swizzle(&self) -> [u8; 4] {
        match self.components {
            Components::Four(Selection::Swizzle(s)) => s,
            Components::Four(Selection::Select1(c)) => [c; 4],
            _ => [0, 1, 2, 3],
        }
    }
}

/// Payload of the extended opcode tokens (§3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExtendedOpcode {
    /// `_aoffimmi(u, v, w)` texel offsets, each −8..7.
    pub sample_offsets: Option<[i8; 3]>,
    /// RESOURCE_DIM: the dimension (§7) and the structure stride.
    pub resource_dim: Option<(u32, u32)>,
    /// RESOURCE_RETURN_TYPE: four return types (§7).
    pub return_types: Option<[u8; 4]>,
}

/// A decoded instruction or declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    /// Dword offset of the opcode token within the token stream (the version token is offset 0).
    pub offset: u32,
    /// The opcode.
    pub opcode: Opcode,
    /// OpcodeToken0 as read (controls in bits 23:11).
    pub token: u32,
    /// Extended opcode tokens.
    pub extended: ExtendedOpcode,
    /// Operands in token order (destinations first).
    pub operands: Vec<Operand>,
    /// Trailing non-operand dwords (declaration payloads, custom-data contents after the length dword).
    pub raw: Vec<u32>,
}

/// The custom-data class of a shader message, `printf` or `errorf`
/// (`D3D11_SB_CUSTOMDATA_SHADER_MESSAGE`; `reference/dxbc-format.md` §3.3).
pub const CUSTOMDATA_SHADER_MESSAGE: u32 = 4;

/// The message ID fxc writes for `printf`.
pub const SHADER_MESSAGE_PRINTF: u32 = 0x0020_0102;

/// The message ID fxc writes for `errorf`.
pub const SHADER_MESSAGE_ERRORF: u32 = 0x0020_0103;

/// A shader message's header dwords before its operands (the message ID,
/// the format kind, the string's length, the operand count and the
/// operands' length), within [`Instruction::raw`].
pub const SHADER_MESSAGE_HEADER: usize = 5;

/// A `printf` or `errorf` of the shader (a custom-data block of class
/// [`CUSTOMDATA_SHADER_MESSAGE`]; its operands are the instruction's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShaderMessage {
    /// `errorf` (message ID [`SHADER_MESSAGE_ERRORF`]), else `printf`.
    pub error: bool,
    /// The format string, as the shader gave it.
    pub format: String,
}

impl Instruction {
    /// The `printf`/`errorf` this custom-data block holds, or `None` for
    /// any other instruction (the decoder has checked the block's layout).
    pub fn shader_message(&self) -> Option<ShaderMessage> {
        if self.opcode != Opcode::CustomData || self.token >> 11 != CUSTOMDATA_SHADER_MESSAGE {
            return None;
        }
        let bytes = *self.raw.get(2)? as usize;
        let op_words = *self.raw.get(4)? as usize;
        let text: Vec<u8> = (self.raw.get(SHADER_MESSAGE_HEADER + op_words..)?.iter())
            .flat_map(|w| w.to_le_bytes())
            .take(bytes)
            .collect();
        Some(ShaderMessage {
            error: self.raw.first() == Some(&SHADER_MESSAGE_ERRORF),
            format: String::from_utf8_lossy(&text).into_owned(),
        })
    }

    /// Bits 23:11 of OpcodeToken0, shifted down to bit 0.
    pub fn controls(&self) -> u32 {
        (self.token >> 11) & 0x1fff
    }

    /// Bit 18 test: true for `_nz`, false for `_z`.
    pub fn test_nonzero(&self) -> bool {
        self.token & (1 << 18) != 0
    }

    /// Bit 13: `_sat` on arithmetic.
    pub fn saturate(&self) -> bool {
        self.opcode.has_saturate() && self.token & (1 << 13) != 0
    }
}

/// A decoded token stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedProgram {
    /// The version token.
    pub version: ShaderVersion,
    /// Every instruction and declaration, in token order.
    pub instructions: Vec<Instruction>,
}

/// Resource dimension names by `D3D10_SB_RESOURCE_DIMENSION` value, as
/// listings print them (`reference/dxbc-format.md` §7).
pub const RESOURCE_DIMENSIONS: [&str; 13] = [
    "unknown",
    "buffer",
    "texture1d",
    "texture2d",
    "texture2dms",
    "texture3d",
    "texturecube",
    "texture1darray",
    "texture2darray",
    "texture2dmsarray",
    "texturecubearray",
    "raw_buffer",
    "structured_buffer",
];

/// Return-type names by `D3D10_SB_RESOURCE_RETURN_TYPE` value (§7; 0 is unused).
pub const RETURN_TYPES: [&str; 10] = [
    "",
    "unorm",
    "snorm",
    "sint",
    "uint",
    "float",
    "mixed",
    "double",
    "continued",
    "unused",
];

/// `dcl_globalFlags` names, from opcode-token bit 11 upward (§3.1).
pub const GLOBAL_FLAGS: [&str; 9] = [
    "refactoringAllowed",
    "enableDoublePrecisionFloatOps",
    "forceEarlyDepthStencil",
    "enableRawAndStructuredBuffers",
    "skipOptimization",
    "enableMinimumPrecision",
    "enable11_1DoubleExtensions",
    "enable11_1ShaderExtensions",
    "allResourcesBound",
];
