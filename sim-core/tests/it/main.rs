//! The integration tests of `sim-core` (front end: container, RDEF, decoder,
//! encoder, assembler, listing header), as one test program with a module
//! per subject (CONTRIBUTING.md, "Tests"). Oracles: the fxc listings in
//! `../examples/` and the third-party corpus in `../tests/corpus/`.

mod asm;
mod container;
mod encode;
mod header;
mod layout;
mod listing_reflection;
mod load_limits;
mod roundtrip_prop;
