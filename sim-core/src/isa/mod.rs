//! The instruction set: the opcode table, one row per opcode with every fact
//! about its instruction ([`opcodes`]), and the lane semantics of the
//! component-wise ALU instructions with their kernels per CPU instruction
//! set (`lanes`). `reference/sm5-compute-isa.md` gives the semantics.

#[allow(unsafe_code)]
pub(crate) mod lanes;
pub mod opcodes;
