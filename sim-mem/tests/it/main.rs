//! The integration tests of `sim-mem` (DXGI formats, sampling, texture
//! robustness), as one test program with a module per subject
//! (CONTRIBUTING.md, "Tests").

mod formats;
mod sampling;
mod texture_robustness;
