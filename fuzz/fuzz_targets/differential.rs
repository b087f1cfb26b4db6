//! The fast paths against the reference path on arbitrary programs.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    sm5sim::fuzzing::differential(data);
});
