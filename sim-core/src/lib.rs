//! The SM4/SM5 ISA of sm5sim: one opcode table, the DXBC container and RDEF
//! reflection, the token decoder, the disassembler, and the warp executor.
//!
//! Data flow: [`container::Container`] → [`decode::decode_program`] →
//! [`program::Program`] (validated, lowered IR) → [`exec::GroupExecutor`].
// Unsafe code is denied everywhere but at the lane kernels (calling one that
// is compiled for AVX2 after runtime detection: `lanes.rs`, `exec.rs`) and
// the SSE2 float4 transposes of `exec::lines::quad` (inline-assembly loads and
// stores of buffer words, each doubleword one atomic access).
#![deny(unsafe_code)]

mod analysis;
pub mod asm;
pub mod check;
pub mod container;
pub mod debug_info;
pub mod decode;
pub mod disasm;
pub mod encode;
pub mod error;
pub mod exec;
pub mod features;
pub mod header;
pub mod ir;
#[allow(unsafe_code)]
mod lanes;
pub mod listing_reflection;
pub mod messages;
pub mod opcodes;
pub mod program;
pub mod rdef;
pub mod rdef_write;
pub mod stat;

pub use error::LoadError;
pub use lanes::{isa_override, Isa, ISA_ENV};
pub use program::{LoadOptions, Program};
