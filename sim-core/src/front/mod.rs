//! The front end: what a DXBC container holds and how it is read and
//! written. The container and its checksums ([`container`]), its chunks
//! (RDEF reflection: [`rdef`], [`rdef_write`]; SFI0: [`features`]; STAT:
//! [`stat`]; fxc's debug information: [`debug_info`]), the instruction
//! tokens in and out ([`decode`], [`encode`]), fxc's listing syntax out and
//! in ([`disasm`] with its header, [`header`]; [`asm`] with
//! [`listing_reflection`]), and why a program fails to load ([`error`]).
//! `reference/dxbc-format.md` and
//! `reference/asm-syntax.md` give the formats.

pub mod asm;
pub mod container;
pub mod debug_info;
pub mod decode;
pub mod disasm;
pub mod encode;
pub mod error;
pub mod features;
pub mod header;
pub mod ifce;
pub mod listing_reflection;
pub mod rdef;
pub mod rdef_write;
pub mod stat;
