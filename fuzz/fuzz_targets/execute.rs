//! Decode, validate and execute arbitrary programs under the watchdog.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    sm5sim::fuzzing::execute(data);
});
