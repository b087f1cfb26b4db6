//! Feedback loads (`ld_raw_s`, `ld_structured_s`, `ld_uav_typed_s`) and
//! `check_access_fully_mapped` (`reference/sm5-compute-isa.md` §16): sm5sim
//! has no tiled resources, so the load happens as its base form does and
//! every access reports fully mapped.

use sm5sim::sim_core::front::asm::assemble;
use sm5sim::sim_core::Program;
use sm5sim::sim_mem::{Bindings, Buffer, BufferView, Format};
use sm5sim::sim_sched::{dispatch, DispatchOptions};

#[test]
fn feedback_loads_load_and_report_fully_mapped() {
    let listing = "
cs_5_0
dcl_resource_raw t0
dcl_resource_structured t1, 8
dcl_uav_typed_buffer (uint,uint,uint,uint) u1
dcl_uav_structured u0, 4
dcl_temps 3
dcl_thread_group 1, 1, 1
ld_raw_s r0.x, r1.x, l(4), t0.xxxx
check_access_fully_mapped r1.x, r1.x
ld_structured_s r0.y, r1.y, l(1), l(4), t1.xxxx
check_access_fully_mapped r1.y, r1.y
ld_uav_typed_s r0.z, r1.z, l(2), u1.xxxx
check_access_fully_mapped r1.z, r1.z
check_access_fully_mapped r1.w, l(12345)
store_structured u0.xyz, l(0), l(0), r0.xyzx
store_structured u0.xyzw, l(0), l(12), r1.xyzw
ret
";
    let p =
        Program::from_decoded(assemble(listing).unwrap_or_else(|e| panic!("{e}")), None).unwrap();
    let raw = Buffer::from_words(&[10, 11, 12]);
    let structured = Buffer::from_words(&[20, 21, 22, 23]);
    let typed = Buffer::from_words(&[30, 31, 32]);
    let out = Buffer::zeroed(28).unwrap();
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![
            Some(BufferView::raw(&raw)),
            Some(BufferView::structured(&structured, 8).unwrap()),
        ],
        uavs: vec![
            Some(BufferView::structured(&out, 4).unwrap()),
            Some(BufferView::typed(&typed, Format::R32_UINT)),
        ],
        ..Default::default()
    };
    dispatch(&p, &b, [1, 1, 1], &DispatchOptions::default()).unwrap();
    // loads: raw byte 4, structure 1 offset 4, typed element 2; then three
    // "fully mapped" checks that hold and one on a made-up status that does not.
    assert_eq!(out.to_words(), vec![11, 23, 32, !0, !0, !0, 0]);
}
