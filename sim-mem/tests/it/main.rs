//! The integration tests of `sim-mem` (buffer contents, DXGI formats, sampling, texture
//! robustness), as one test program with a module per subject
//! (CONTRIBUTING.md, "Tests").

mod contents;
mod formats;
mod sampling;
mod texture_robustness;
