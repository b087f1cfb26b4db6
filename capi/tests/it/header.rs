//! `include/sm5sim.h` is what cbindgen makes of `src/` with
//! `cbindgen.toml`. After changing the API, rewrite it with
//! `SM5SIM_BLESS=1 cargo test -p sm5sim-capi --test it header::`.

use std::path::Path;

#[test]
fn committed_header_is_cbindgens_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen parses src/");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).unwrap();
    let path = dir.join("include/sm5sim.h");
    if std::env::var_os("SM5SIM_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let line = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
        panic!(
            "capi/include/sm5sim.h is not cbindgen's output for capi/src (they differ from line {}: \
             committed {:?}, generated {:?}); regenerate it with \
             SM5SIM_BLESS=1 cargo test -p sm5sim-capi --test it header::",
            line + 1,
            committed.lines().nth(line),
            generated.lines().nth(line),
        );
    }
}
