//! The C API's tests: the C programs built against the header and the
//! library and run (`c_programs`), the committed header checked against
//! cbindgen's output (`header`), and the library installed by
//! `capi/install.sh` and used through pkg-config and CMake (`install`).

mod c_programs;
mod header;
mod install;
