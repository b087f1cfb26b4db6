//! Subroutines (`call`, `callc`, `label`, `ret` inside a subroutine;
//! FS §22.7.10–11, §22.7.15–16, §7.12), written as listings and assembled:
//! fxc inlines every HLSL function, so no compiled shader contains them.

use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView};
use sm5sim::sim_sched::{dispatch, DispatchOptions};

fn run(listing: &str, threads: u32, warp_width: usize) -> Vec<u32> {
    let decoded = assemble(listing).unwrap_or_else(|e| panic!("{e}"));
    let p = Program::from_decoded(decoded, None).unwrap();
    let out = Buffer::zeroed(threads as usize * 4).unwrap();
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![],
        uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
        ..Default::default()
    };
    dispatch(
        &p,
        &b,
        [1, 1, 1],
        &DispatchOptions {
            threads: 1,
            warp_width,
            ..Default::default()
        },
    )
    .unwrap();
    out.to_words()
}

const DIVERGENT: &str = "
cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 8, 1, 1
mov r0.x, vThreadIDInGroupFlattened.x
mov r1.x, l(0)
call l0
and r1.y, r0.x, l(1)
callc_nz r1.y, l1
store_structured u0.x, r0.x, l(0), r1.x
ret
label l0
ult r1.y, r0.x, l(4)
if_nz r1.y
  iadd r1.x, r1.x, l(100)
  ret
endif
iadd r1.x, r1.x, l(10)
ret
label l1
iadd r1.x, r1.x, l(1000)
call l2
ret
label l2
iadd r1.x, r1.x, l(5)
ret
";

#[test]
fn divergent_returns_and_conditional_calls_rejoin_the_caller() {
    // Lanes 0..3 return early from l0 (+100), the others fall through (+10);
    // odd lanes call l1 (+1000), which calls l2 (+5).
    let expected: Vec<u32> = (0..8)
        .map(|i| if i < 4 { 100 } else { 10 } + if i % 2 == 1 { 1005 } else { 0 })
        .collect();
    for w in [1, 3, 8] {
        assert_eq!(run(DIVERGENT, 8, w), expected, "warp width {w}");
    }
}

#[test]
fn a_call_past_32_stacked_return_addresses_is_skipped() {
    // A subroutine that calls itself: the 33rd nested call is skipped, so its
    // body runs 32 times (FS §7.12), and the recursion ends.
    let listing = "
cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 2, 1, 1
mov r1.x, l(0)
call l3
store_structured u0.x, vThreadIDInGroupFlattened.x, l(0), r1.x
ret
label l3
iadd r1.x, r1.x, l(1)
call l3
ret
";
    assert_eq!(run(listing, 2, 2), vec![32, 32]);
}

#[test]
fn a_call_to_a_missing_label_is_refused_at_load() {
    let listing = "
cs_5_0
dcl_temps 1
dcl_thread_group 1, 1, 1
call l7
ret
";
    let p = Program::from_decoded(assemble(listing).unwrap(), None);
    let e = p.unwrap_err().to_string();
    assert!(e.contains("no label l7"), "{e}");
}

#[test]
fn abort_ends_threads_even_inside_a_subroutine_and_is_counted() {
    let listing = "
cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 4, 1, 1
mov r1.x, l(7)
ult r0.x, vThreadIDInGroupFlattened.x, l(2)
callc_nz r0.x, l0
debug_break
store_structured u0.x, vThreadIDInGroupFlattened.x, l(0), r1.x
ret
label l0
abort
ret
";
    let decoded = assemble(listing).unwrap();
    let p = Program::from_decoded(decoded, None).unwrap();
    let out = Buffer::from_words(&[1, 1, 1, 1]);
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![],
        uavs: vec![Some(BufferView::structured(&out, 4).unwrap())],
        ..Default::default()
    };
    for w in [1, 4] {
        out.write_words(0, &[1, 1, 1, 1]).unwrap();
        let stats = dispatch(
            &p,
            &b,
            [1, 1, 1],
            &DispatchOptions {
                threads: 1,
                warp_width: w,
                ..Default::default()
            },
        )
        .unwrap();
        // Lanes 0 and 1 abort inside l0 and never store; lanes 2 and 3 do.
        assert_eq!(out.to_words(), vec![1, 1, 7, 7], "warp width {w}");
        assert_eq!(stats.aborted_threads, 2);
        assert_eq!(stats.debug_breaks, 2);
    }
}
