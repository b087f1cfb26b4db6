//! The instruction set: the opcode table, one row per opcode with every fact
//! about its instruction ([`opcodes`]), the lane semantics of the
//! component-wise ALU instructions, one lane function each in one table
//! (`lanes`; the executor's kernels, `crate::exec::kernels`, are compiled
//! from it), and the CPU's vector instruction set that the executor runs
//! (`cpu`). `reference/sm5-compute-isa.md` gives the semantics.

pub(crate) mod cpu;
pub(crate) mod lanes;
pub mod opcodes;
