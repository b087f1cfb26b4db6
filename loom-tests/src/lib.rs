//! loom models of the synchronization sm5sim relies on (see
//! `sim-mem/MEMORY_MODEL.md`). Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p loom-tests --release`.
//!
//! The models run the real executor: each loom thread is one thread group,
//! executed by `sim_core::exec::GroupExecutor` on an assembled shader, with
//! `sim-mem`'s atomics swapped for loom's. Without `--cfg loom` the same
//! shaders run as stress twins on real OS threads.

use sim_core::exec::GroupExecutor;
use sim_core::front::asm::assemble;
use sim_core::Program;
use sim_mem::{Bindings, Buffer, BufferView};

/// Groups store partial results, `sync_uglobal`, bump a counter with
/// `imm_atomic_iadd`; the group that sees the final count reads every
/// partial after another `sync_uglobal` and stores their sum in u1 word 1.
/// `GROUPS` is replaced by the group count.
pub const LAST_GROUP: &str = "
cs_5_0
dcl_uav_raw_glc u0
dcl_uav_raw_glc u1
dcl_input vThreadGroupID.x
dcl_temps 3
dcl_thread_group 1, 1, 1
ishl r0.x, vThreadGroupID.x, l(2)
iadd r0.y, vThreadGroupID.x, l(10)
store_raw u0.x, r0.x, r0.y
sync_uglobal
imm_atomic_iadd r1.x, u1, l(0), l(1)
ieq r1.y, r1.x, l(LAST)
if_nz r1.y
  sync_uglobal
  mov r2.x, l(0)
  mov r2.y, l(0)
  loop
    uge r2.z, r2.y, l(GROUPS)
    breakc_nz r2.z
    ishl r2.w, r2.y, l(2)
    ld_raw r2.z, r2.w, u0.xxxx
    iadd r2.x, r2.x, r2.z
    iadd r2.y, r2.y, l(1)
  endloop
  store_raw u1.x, l(4), r2.x
endif
ret
";

/// `imm_atomic_alloc` a slot of u0 and store the group id there.
pub const APPEND: &str = "
cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadGroupID.x
dcl_temps 1
dcl_thread_group 1, 1, 1
imm_atomic_alloc r0.x, u0
store_structured u0.x, r0.x, l(0), vThreadGroupID.x
ret
";

/// The last-group shader for `groups` groups, with or without its `sync_uglobal`s.
pub fn last_group_program(groups: u32, with_sync: bool) -> Program {
    let mut text = LAST_GROUP
        .replace("l(LAST)", &format!("l({})", groups - 1))
        .replace("l(GROUPS)", &format!("l({groups})"));
    if !with_sync {
        text = text.replace("sync_uglobal\n", "");
    }
    Program::from_decoded(assemble(&text).expect("the listing assembles"), None)
        .expect("the listing loads")
}

/// The append shader.
pub fn append_program() -> Program {
    Program::from_decoded(assemble(APPEND).expect("the listing assembles"), None)
        .expect("the listing loads")
}

/// Run group `g` of `program` against two raw UAVs (the last-group shader's bindings).
pub fn run_last_group(program: &Program, g: u32, partials: &Buffer, counter: &Buffer) {
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![],
        uavs: vec![
            Some(BufferView::raw(partials)),
            Some(BufferView::raw(counter)),
        ],
        ..Default::default()
    };
    GroupExecutor::new(program, 1).run_group([g, 0, 0], &b);
}

/// Run group `g` of the append shader against a structured UAV with a counter.
pub fn run_append(program: &Program, g: u32, out: &Buffer) {
    let b = Bindings {
        constant_buffers: vec![],
        srvs: vec![],
        uavs: vec![Some(BufferView::structured(out, 4).expect("stride 4"))],
        ..Default::default()
    };
    GroupExecutor::new(program, 1).run_group([g, 0, 0], &b);
}

/// Every group adds `group + 1` to word 0 of u0 and takes the unsigned max
/// with `group + 1` in word 1 of u1: atomics whose result nobody reads, so a
/// worker gathers them (`GroupExecutor::privatize_atomics`).
pub const GATHER: &str = "
cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadGroupID.x
dcl_temps 1
dcl_thread_group 1, 1, 1
iadd r0.x, vThreadGroupID.x, l(1)
atomic_iadd u0, l(0), r0.x
atomic_umax u1, l(4), r0.x
ret
";

/// The gathering shader.
pub fn gather_program() -> Program {
    Program::from_decoded(assemble(GATHER).expect("the listing assembles"), None)
        .expect("the listing loads")
}

/// One worker: gather the atomics of `groups`, then flush them.
pub fn run_gathered(program: &Program, groups: &[u32], sums: &Buffer, maxima: &Buffer) {
    let b = Bindings {
        uavs: vec![Some(BufferView::raw(sums)), Some(BufferView::raw(maxima))],
        ..Default::default()
    };
    let mut exec = GroupExecutor::new(program, 1);
    exec.privatize_atomics(&b);
    for &g in groups {
        exec.run_group([g, 0, 0], &b);
    }
    exec.flush_atomics(&b);
}

#[cfg(all(test, loom))]
mod models {
    use super::*;
    use loom::thread;
    use sim_mem::AtomicOp;
    use std::sync::Arc;

    /// Compare-exchange increment loops (the CAS loop of `cas_float_add.hlsl`)
    /// on one UAV word: nothing is lost and every successful exchange saw a
    /// distinct original.
    #[test]
    fn cas_increment_loops_lose_nothing() {
        loom::model(|| {
            let buf = Arc::new(Buffer::zeroed(4).unwrap());
            let handles: Vec<_> = (0..2)
                .map(|_| {
                    let buf = buf.clone();
                    thread::spawn(move || {
                        let v = BufferView::raw(&buf);
                        let i = v.word_index(0, 0, 0);
                        let mut expected = v.load(i);
                        loop {
                            let op = AtomicOp::CompareExchange {
                                compare: expected,
                                value: expected + 1,
                            };
                            let orig = v.atomic(i, op).unwrap();
                            if orig == expected {
                                return orig;
                            }
                            expected = orig;
                        }
                    })
                })
                .collect();
            let mut seen: Vec<u32> = handles.into_iter().map(|h| h.join().unwrap()).collect();
            seen.sort();
            assert_eq!(seen, vec![0, 1], "distinct originals");
            assert_eq!(buf.load(0), Some(2));
        });
    }

    fn last_group(with_sync: bool) {
        let program = Arc::new(last_group_program(2, with_sync));
        loom::model(move || {
            let partials = Arc::new(Buffer::zeroed(8).unwrap());
            let counter = Arc::new(Buffer::zeroed(8).unwrap());
            let handles: Vec<_> = (0..2)
                .map(|g| {
                    let (p, c, prog) = (partials.clone(), counter.clone(), program.clone());
                    thread::spawn(move || run_last_group(&prog, g, &p, &c))
                })
                .collect();
            for h in handles {
                h.join().unwrap();
            }
            assert_eq!(counter.load(0), Some(2));
            // partials 10 + 11
            assert_eq!(
                counter.load(1),
                Some(21),
                "the last group read every partial"
            );
        });
    }

    /// The "last group" reduction with `sync_uglobal` mapped to `fence(SeqCst)`.
    #[test]
    fn last_group_reads_every_partial() {
        last_group(true);
    }

    /// Without `sync_uglobal` the pattern is broken, and loom finds a schedule
    /// where the last group reads a stale partial: proof that the fence is
    /// what makes the model pass, not luck.
    #[test]
    #[should_panic(expected = "the last group read every partial")]
    fn last_group_without_sync_uglobal_can_miss_a_partial() {
        last_group(false);
    }

    /// Two workers gather their groups' atomics and flush them, racing each
    /// other and a third thread's plain atomic add on the same word: no
    /// operation is lost in any interleaving.
    #[test]
    fn gathered_atomics_lose_nothing() {
        let program = Arc::new(gather_program());
        loom::model(move || {
            let sums = Arc::new(Buffer::zeroed(4).unwrap());
            let maxima = Arc::new(Buffer::zeroed(8).unwrap());
            let mut handles: Vec<_> = [[0u32, 1], [2, 3]]
                .into_iter()
                .map(|groups| {
                    let (s, m, prog) = (sums.clone(), maxima.clone(), program.clone());
                    thread::spawn(move || run_gathered(&prog, &groups, &s, &m))
                })
                .collect();
            let s = sums.clone();
            handles.push(thread::spawn(move || {
                BufferView::raw(&s).atomic(Some(0), AtomicOp::Add(100));
            }));
            for h in handles {
                h.join().unwrap();
            }
            assert_eq!(sums.load(0), Some(1 + 2 + 3 + 4 + 100));
            assert_eq!(maxima.load(1), Some(4));
        });
    }

    /// `imm_atomic_alloc` from three groups: distinct slots, counter = 3.
    #[test]
    fn append_counter_hands_out_unique_slots() {
        let program = Arc::new(append_program());
        loom::model(move || {
            let out = Arc::new(Buffer::from_words(&[99, 99, 99]));
            let handles: Vec<_> = (0..3)
                .map(|g| {
                    let (o, prog) = (out.clone(), program.clone());
                    thread::spawn(move || run_append(&prog, g, &o))
                })
                .collect();
            for h in handles {
                h.join().unwrap();
            }
            let mut slots = out.to_words();
            slots.sort();
            assert_eq!(slots, vec![0, 1, 2]);
            assert_eq!(out.counter().load(loom::sync::atomic::Ordering::Relaxed), 3);
        });
    }
}

#[cfg(all(test, not(loom)))]
mod stress {
    //! The stress twins of the loom models, on real OS threads.
    use super::*;
    use sim_mem::AtomicOp;

    #[test]
    fn cas_increment_loops_lose_nothing_on_real_threads() {
        let buf = Buffer::zeroed(4).unwrap();
        let originals: Vec<Vec<u32>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        let v = BufferView::raw(&buf);
                        let i = v.word_index(0, 0, 0);
                        let mut won = Vec::new();
                        for _ in 0..10_000 {
                            let mut expected = v.load(i);
                            loop {
                                let op = AtomicOp::CompareExchange {
                                    compare: expected,
                                    value: expected + 1,
                                };
                                let orig = v.atomic(i, op).unwrap();
                                if orig == expected {
                                    won.push(orig);
                                    break;
                                }
                                expected = orig;
                            }
                        }
                        won
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(buf.load(0), Some(80_000));
        let mut all: Vec<u32> = originals.into_iter().flatten().collect();
        all.sort();
        assert!(
            all.iter().enumerate().all(|(k, &v)| v == k as u32),
            "originals are 0..80000, each once"
        );
    }

    #[test]
    fn last_group_reads_every_partial_on_real_threads() {
        let groups = 8;
        let program = last_group_program(groups, true);
        for _ in 0..500 {
            let partials = Buffer::zeroed(4 * groups as usize).unwrap();
            let counter = Buffer::zeroed(8).unwrap();
            std::thread::scope(|s| {
                for g in 0..groups {
                    let (p, c, prog) = (&partials, &counter, &program);
                    s.spawn(move || run_last_group(prog, g, p, c));
                }
            });
            assert_eq!(counter.load(0), Some(groups));
            assert_eq!(counter.load(1), Some((0..groups).map(|g| g + 10).sum()));
        }
    }

    #[test]
    fn gathered_atomics_lose_nothing_on_real_threads() {
        let program = gather_program();
        for _ in 0..50 {
            let sums = Buffer::zeroed(4).unwrap();
            let maxima = Buffer::zeroed(8).unwrap();
            std::thread::scope(|s| {
                for w in 0..8u32 {
                    let (su, m, prog) = (&sums, &maxima, &program);
                    let groups: Vec<u32> = (0..1000).map(|i| w * 1000 + i).collect();
                    s.spawn(move || run_gathered(prog, &groups, su, m));
                }
            });
            assert_eq!(sums.load(0), Some((1..=8000).sum()));
            assert_eq!(maxima.load(1), Some(8000));
        }
    }

    #[test]
    fn append_counter_hands_out_unique_slots_on_real_threads() {
        let program = append_program();
        let groups = 64u32;
        for _ in 0..200 {
            let out = Buffer::from_words(&vec![u32::MAX; groups as usize]);
            std::thread::scope(|s| {
                for g in 0..groups {
                    let (o, prog) = (&out, &program);
                    s.spawn(move || run_append(prog, g, o));
                }
            });
            let mut slots = out.to_words();
            slots.sort();
            assert_eq!(slots, (0..groups).collect::<Vec<_>>());
            assert_eq!(
                out.counter().load(std::sync::atomic::Ordering::Relaxed),
                groups
            );
        }
    }
}
