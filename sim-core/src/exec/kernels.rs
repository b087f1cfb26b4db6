//! The lane kernels: the loops that apply the lane functions of the
//! component-wise ALU instructions (`crate::isa::lanes`, written once in its
//! table `for_each_lane_op!`) to whole warps, one destination component at a
//! time, each compiled for baseline x86-64, AVX2 and AVX-512 and chosen at
//! run time (`crate::isa::cpu::isa`; `SM5SIM_ISA` lowers the choice).
//!
//! - `alu`: the kernel table, made from the lane functions' table: each
//!   instruction's lane kernel and row kernels per instruction set
//!   ([`lane_op`]), and the dot products' running sum ([`dp_acc_kernel`]).
//! - `rows`: what a row kernel is made of: its arguments ([`RowArgs`]), its
//!   loops (plain, blended under the active mask, with source modifiers,
//!   reading an accumulator through the destination), `_sat`, and the dot
//!   products' sums.
//! - `udiv`: `udiv`'s lane loops, by any divisors and by one divisor.
//! - `words`: [`affine_words`], the memory lines' check of the lanes'
//!   addresses.
//!
//! The arithmetic is the lane functions', so it follows
//! `reference/sm5-compute-isa.md` and the float rules of
//! `reference/compute-model.md` §8. The kernels are the one place where
//! these functions are applied to whole warps: the general path of
//! `GroupExecutor::alu` (`exec/ops/alu.rs`) and the pre-resolved path of its
//! fast ALU instructions (`exec/fast/rows.rs`) both call them, so the two
//! cannot disagree. Each kernel is a plain loop over zipped slices, written
//! so that it vectorises. Calling a kernel, and `exec`'s interpreter loop
//! compiled for the same sets, are the `unsafe` of `sim-core`: each needs
//! the CPU to run its instruction set. A leaf room: the kernels call nothing
//! of the executor's (`sim-core/tests/it/layout.rs`).

mod alu;
mod rows;
mod udiv;
mod words;

pub(crate) use alu::{dp_acc_kernel, lane_op, Kernel, LaneOp};
pub(crate) use rows::{RowArgs, RowKernel, CHUNK, ZEROS};
pub(crate) use udiv::{udiv_by_rows_kernel, udiv_rows_kernel, UdivBy, UdivByRows, UdivRows};
pub(crate) use words::{affine_words, affine_words_2d};
