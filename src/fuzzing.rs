//! Entry points of the fuzz targets in `fuzz/` (cargo-fuzz). The same
//! functions run over the saved fuzz corpora in `tests/fuzz_corpus.rs`, so CI
//! replays every input the fuzzers kept without needing a nightly toolchain.
//!
//! Each function must return normally for every input: a panic is a bug.

use sim_core::decode::decode_program_bytes;
use sim_core::disasm::disassemble;
use sim_core::{LoadOptions, Program};

/// Container, RDEF, token decoder, disassembler, survey and validation on
/// arbitrary bytes (checksum not verified, so mutations reach the decoder).
pub fn container_and_decoder(data: &[u8]) {
    let options = LoadOptions {
        verify_checksum: false,
    };
    if let Ok((decoded, reflection)) = Program::decode_with_reflection(data, &options) {
        let _ = disassemble(&decoded);
        let _ = Program::survey(&decoded, reflection.clone());
        let _ = Program::from_decoded(decoded, reflection);
    }
    // The token decoder alone, on the raw bytes as a token stream.
    if let Ok(decoded) = decode_program_bytes(data, 0) {
        let _ = disassemble(&decoded);
        let _ = Program::from_decoded(decoded, None);
    }
}

/// The assembler on arbitrary text, and on success the encoder, decoder,
/// disassembler and validation of what it produced.
pub fn assembler(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(decoded) = sim_core::asm::assemble(text) {
        if let Ok(words) = sim_core::encode::encode_program(&decoded) {
            if let Ok(back) = sim_core::decode::decode_program(&words) {
                let listing = disassemble(&back);
                let _ = sim_core::asm::assemble(&listing);
            }
        }
        let _ = Program::from_decoded(decoded, None);
    }
}
