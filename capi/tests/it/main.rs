//! The C API's tests: the C programs built against the header and the
//! library and run (`c_programs`), and the committed header checked
//! against cbindgen's output (`header`).

mod c_programs;
mod header;
