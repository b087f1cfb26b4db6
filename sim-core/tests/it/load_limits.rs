//! Loading is linear in the size of the shader (#44): a chain of 100,000
//! nested subroutine calls, 100,000 calls of one subroutine, and 25,000
//! instructions of loops nested 63 deep load, and the checker's
//! per-program analyses of them finish; a load whose cancel flag
//! is set stops with `LoadError::Cancelled`. No timing is asserted: a pass
//! that is quadratic again makes these tests take minutes (the 100,000-deep
//! chain took over 110 s to lower before, 16,000 took 1.2 s).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use sim_core::check::{CheckOptions, Checker};
use sim_core::front::asm::assemble;
use sim_core::front::encode::{encode_program, write_container};
use sim_core::{LoadError, LoadOptions, Program};

const N: usize = 100_000;

const HEAD: &str = "cs_5_0\ndcl_uav_structured u0, 4\ndcl_temps 2\n\
                    dcl_thread_group 1, 1, 1\nmov r1.x, l(0)\n";
const STORE: &str = "store_structured u0.x, l(0), l(0), r1.x\nret\n";

/// main calls l0, l0 calls l1, …, l(n-2) calls l(n-1).
fn call_chain(n: usize) -> String {
    let mut s = format!("{HEAD}call l0\n{STORE}");
    for i in 0..n {
        s += &format!("label l{i}\niadd r1.x, r1.x, l(1)\n");
        if i + 1 < n {
            s += &format!("call l{}\n", i + 1);
        }
        s += "ret\n";
    }
    s
}

/// main calls l0 `n` times.
fn sequential_calls(n: usize) -> String {
    format!(
        "{HEAD}{}{STORE}label l0\niadd r1.x, r1.x, l(1)\nret\n",
        "call l0\n".repeat(n)
    )
}

/// `n / 64` nests of 63 loops, each loop leaving on a word of u0.
fn nested_loops(n: usize) -> String {
    let ld = "ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) \
              r0.x, l(0), l(0), u0.xxxx\n";
    let nest = format!(
        "{}iadd r1.x, r1.x, l(1)\n{}",
        "loop\n".repeat(63),
        format!("{ld}breakc_nz r0.x\nendloop\n").repeat(63)
    );
    format!("{HEAD}{}{STORE}", nest.repeat(n / 64))
}

/// The listing assembled and loaded from a container, with the checker's
/// analyses. The number of instructions lowered.
fn load(listing: &str) -> usize {
    let decoded = assemble(listing).unwrap_or_else(|e| panic!("{e}"));
    let dxbc = write_container(&encode_program(&decoded).unwrap(), None);
    let p = Program::from_dxbc(&dxbc, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    drop(Checker::new(&p, CheckOptions::default()));
    p.instruction_count()
}

#[test]
fn a_call_chain_100000_deep_loads() {
    // main: mov, call, store, ret; each subroutine: label, iadd, call, ret
    // (the last without the call)
    assert_eq!(load(&call_chain(N)), 4 + 4 * N - 1);
}

#[test]
fn a_100000_calls_of_one_subroutine_load() {
    assert_eq!(load(&sequential_calls(N)), 1 + N + 2 + 3);
}

#[test]
fn loops_nested_63_deep_many_times_over_load() {
    // 25,000 instructions: the checker's spin reads took 0.7 s for 16,000
    // before, 33 s for 100,000
    let nests = N / 4 / 64;
    assert_eq!(
        load(&nested_loops(N / 4)),
        1 + nests * (63 + 1 + 3 * 63) + 2
    );
}

#[test]
fn a_load_whose_cancel_flag_is_set_is_cancelled() {
    let listing = call_chain(100);
    let dxbc = write_container(&encode_program(&assemble(&listing).unwrap()).unwrap(), None);
    let options = LoadOptions {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Default::default()
    };
    let e = Program::from_dxbc(&dxbc, &options).unwrap_err();
    assert_eq!(
        e,
        LoadError::Cancelled {
            before: "parsing the container"
        }
    );
    assert_eq!(
        e.to_string(),
        "loading was cancelled before parsing the container"
    );
    let e = Program::from_file_bytes(&dxbc, &options).unwrap_err();
    assert!(matches!(e, LoadError::Cancelled { .. }), "{e}");
    let e = Program::from_file_bytes(listing.as_bytes(), &options).unwrap_err();
    assert_eq!(
        e,
        LoadError::Cancelled {
            before: "assembling the listing"
        }
    );
    // the flag unset: the same loads succeed
    let options = LoadOptions {
        cancel: Some(Arc::new(AtomicBool::new(false))),
        ..Default::default()
    };
    assert!(Program::from_dxbc(&dxbc, &options).is_ok());
    assert!(Program::from_file_bytes(listing.as_bytes(), &options).is_ok());
}
