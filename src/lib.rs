//! sm5sim: runs Direct3D 11 compute shaders (Shader Model 5 DXBC,
//! `cs_4_0`–`cs_5_1`) on the CPU.
//!
//! The crates: [`sim_core`] (ISA: container, decoder, disassembler,
//! executor), [`sim_mem`] (buffers, views, TGSM), [`sim_sched`] (dispatch on
//! a rayon pool), [`api`] here (the Rust API by name: [`Shader`],
//! [`Resource`], [`Kernel`]; `docs/rust-api.md`), and [`job`] (TOML job
//! files: resources, dispatches, expectations, run on [`api`]), which the
//! `sm5sim` binary drives.
//!
//! ```no_run
//! use sm5sim::{sim_core::{LoadOptions, Program}, sim_mem::{Bindings, Buffer, BufferView}};
//! use sm5sim::sim_sched::{dispatch, DispatchOptions};
//! let bytes = std::fs::read("examples/histogram/histogram.dxbc").unwrap();
//! let program = Program::from_dxbc(&bytes, &LoadOptions::default()).unwrap();
//! let keys = Buffer::from_words(&[1, 2, 3, 2]);
//! let bins = Buffer::zeroed(256 * 4).unwrap();
//! let params = [4u32, 0, 0, 0];
//! let bindings = Bindings {
//!     constant_buffers: vec![Some(&params[..])],
//!     srvs: vec![Some(BufferView::raw(&keys))],
//!     uavs: vec![Some(BufferView::raw(&bins))],
//!     ..Default::default()
//! };
//! dispatch(&program, &bindings, [1, 1, 1], &DispatchOptions::default()).unwrap();
//! assert_eq!(bins.load(2), Some(2));
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;
pub mod cbuffer;
pub mod compiler;
pub mod debug;
pub mod files;
pub mod fuzzing;
pub mod job;
pub mod memory;
pub mod npy;
pub mod profile;
pub mod smoke;
pub mod suite;

pub use api::{ApiError, Kernel, Options, Resource, Shader, Value};
pub use sim_core;
pub use sim_mem;
pub use sim_sched;
