//! The listing assembler on arbitrary text, then encode/decode/disassemble.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    sm5sim::fuzzing::assembler(data);
});
