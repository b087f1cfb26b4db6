//! Container + RDEF + decoder + disassembler + validation on arbitrary bytes.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    sm5sim::fuzzing::container_and_decoder(data);
});
