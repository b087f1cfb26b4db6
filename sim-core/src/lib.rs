//! The SM4/SM5 ISA of sm5sim: one opcode table, the DXBC container and RDEF
//! reflection, the token decoder, the disassembler, and the warp executor.
//!
//! Data flow: [`front::container::Container`] → [`front::decode::decode_program`] →
//! [`program::Program`] (validated, lowered IR) → [`exec::GroupExecutor`].
//!
//! Its rooms: [`front`] (the DXBC container and its chunks, tokens in and
//! out, the assembler and disassembler), [`isa`] (the opcode table and the
//! lane semantics), [`ir`] and [`program`] (decoded and lowered programs),
//! the analyses (run once per program), [`exec`] (the executor and its
//! observers) and [`check`] (the concurrency checker).
// Unsafe code is denied everywhere but at the lane kernels (calling one that
// is compiled for AVX2 after runtime detection: `exec/kernels/`, `exec.rs`) and
// the SSE2 float4 transposes of `exec::lines::quad` (inline-assembly loads and
// stores of buffer words, each doubleword one atomic access).
#![warn(missing_docs)]
#![deny(unsafe_code)]

mod analysis;
pub mod check;
pub mod exec;
pub mod front;
pub mod ir;
pub mod isa;
pub mod messages;
pub mod program;

pub use front::error::LoadError;
pub use isa::cpu::{isa_override, Isa, ISA_ENV};
pub use program::{LoadOptions, Program};
