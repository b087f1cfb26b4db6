//! The job-file parser and loader on arbitrary text.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    sm5sim::fuzzing::job_file(data);
});
