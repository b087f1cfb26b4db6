//! Errors of loading a shader: container, reflection, token decoding and
//! validation. Each says where: a byte offset in the file or a dword offset in
//! the token stream.

use crate::front::asm::AsmError;
use crate::front::container::ContainerError;
use crate::front::rdef::RdefError;

/// Why a token stream could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeErrorKind {
    /// The stream ends inside an instruction or operand.
    #[error("the token stream ends early: {0}")]
    Truncated(&'static str),
    /// The length token disagrees with the chunk.
    #[error("the length token says {declared} dwords but the chunk holds {available}")]
    BadLength {
        /// dwords claimed
        declared: u32,
        /// dwords present
        available: u32,
    },
    /// The version token names no known program type.
    #[error("version token {0:#010x} names no known program type")]
    BadVersion(u32),
    /// Opcode number out of range or reserved.
    #[error("opcode {0} ({0:#x}) is not an opcode of the format")]
    UnknownOpcode(u32),
    /// Instruction length 0 or past the end.
    #[error("instruction length {len} is invalid here ({remaining} dwords remain)")]
    BadInstructionLength {
        /// claimed length in dwords
        len: u32,
        /// dwords left in the stream
        remaining: u32,
    },
    /// A malformed operand token.
    #[error("operand token {token:#010x}: {what}")]
    BadOperand {
        /// the operand token
        token: u32,
        /// what is wrong
        what: &'static str,
    },
    /// A shader message (`printf`/`errorf` custom data) whose header,
    /// operands or format string do not fit its block.
    #[error("shader message (printf/errorf): {0}")]
    BadMessage(&'static str),
    /// Operands do not fill the instruction exactly.
    #[error("{mnemonic}: expected {expected} operands, found {found}")]
    OperandCount {
        /// the instruction
        mnemonic: &'static str,
        /// operands the table requires
        expected: usize,
        /// operands present
        found: usize,
    },
    /// Operand dwords run past the instruction's length.
    #[error("{mnemonic}: operands run past the instruction length")]
    OperandOverrun {
        /// the instruction
        mnemonic: &'static str,
    },
}

/// A shader that could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The DXBC container is malformed.
    #[error("DXBC container: {0}")]
    Container(#[from] ContainerError),
    /// A listing (`.asm`) could not be assembled: line, column and an excerpt.
    #[error("listing line {}:{}: {}\n{}", .0.line, .0.column, .0.message, .0.excerpt)]
    Asm(AsmError),
    /// The RDEF chunk is malformed.
    #[error("RDEF chunk: {0}")]
    Rdef(#[from] RdefError),
    /// The token stream is malformed.
    #[error("token stream at dword {token} (file byte {file_byte}): {kind}")]
    Decode {
        /// dword offset within the token stream
        token: u32,
        /// byte offset within the file (0 when decoding a bare token stream)
        file_byte: usize,
        /// what is wrong
        kind: DecodeErrorKind,
    },
    /// A well-formed program the simulator cannot run.
    #[error("{mnemonic} at dword {token}: {what}")]
    Unsupported {
        /// the instruction's mnemonic
        mnemonic: String,
        /// dword offset within the token stream
        token: u32,
        /// why
        what: String,
    },
    /// A program that uses what its profile does not have: an instruction
    /// of a later shader model (`OpcodeInfo::min_model`), or a rule of
    /// compute shaders on D3D10.x hardware (cs_4_0, cs_4_1: one UAV, raw or
    /// structured; 16 KiB of structured TGSM; groups of at most 768 threads
    /// with Z = 1; FS §18.7). D3D refuses such a shader when it is created.
    #[error("{mnemonic} at dword {token}: {rule}; this shader is {profile} ({reference})")]
    Profile {
        /// the instruction's mnemonic
        mnemonic: String,
        /// dword offset within the token stream
        token: u32,
        /// the shader's profile, e.g. `cs_4_0`
        profile: String,
        /// the rule broken, e.g. `needs cs_5_0`
        rule: String,
        /// where the rule is written
        reference: &'static str,
    },
    /// A program that breaks a rule of the format or the compute model.
    #[error("{mnemonic} at dword {token}: {what}")]
    Invalid {
        /// the instruction's mnemonic (or "program")
        mnemonic: String,
        /// dword offset within the token stream
        token: u32,
        /// the rule broken
        what: String,
    },
    /// The load was cancelled: [`crate::LoadOptions::cancel`] was set when
    /// the load looked, before the named phase (`Program::from_dxbc` and
    /// `Program::from_file_bytes` look before each phase).
    #[error("loading was cancelled before {before}")]
    Cancelled {
        /// the phase that did not start: "parsing the container",
        /// "assembling the listing", "decoding", "lowering", "reading the debug information"
        before: &'static str,
    },
    /// The shader is too large to load within [`crate::LoadOptions::max_memory`]:
    /// the phase would take about `needed` bytes (`count` `unit`s at the
    /// bytes each that [`crate::program::memory`] gives), over `limit`.
    /// Refused before the phase allocates anything.
    #[error(
        "{phase} this shader would take about {} MiB of memory ({count} {unit}, about {per} bytes each), over the {} MiB this load may use",
        needed.div_ceil(1 << 20), limit / (1 << 20)
    )]
    TooLarge {
        /// "decoding", "assembling", "lowering and planning"
        phase: &'static str,
        /// how many of `unit` the shader has
        count: u64,
        /// "dwords", "listing lines", "instructions"
        unit: &'static str,
        /// bytes per `unit` counted
        per: u64,
        /// bytes it would take
        needed: u64,
        /// bytes it may take
        limit: u64,
    },
}
