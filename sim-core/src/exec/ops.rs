//! The instructions' handlers, one file per family: ALU (`alu`), atomics
//! (`atomic`), control flow (`flow`), buffer and TGSM memory (`memory`),
//! messages (`message`), textures (`texture`). Each is a method of the
//! executor over one warp, generic over the observer it reports to.

pub(super) mod alu;
pub(super) mod atomic;
pub(super) mod flow;
pub(super) mod memory;
pub(super) mod message;
pub(super) mod texture;
