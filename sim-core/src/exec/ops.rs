//! The instructions' handlers, one file per family: ALU (`alu`), atomics
//! (`atomic`), control flow (`flow`), buffer and TGSM memory (`memory`),
//! messages (`message`), textures (`texture`). Each is a method of the
//! handlers' context (`context::Cx`) over one warp, given the scratch,
//! memory and observer it uses (a message's, of the `MessageSink`), and
//! generic over the observer it reports to.

pub(super) mod alu;
pub(super) mod atomic;
pub(super) mod flow;
pub(super) mod memory;
pub(super) mod message;
pub(super) mod texture;
