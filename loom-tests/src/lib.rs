//! loom models of the synchronization sm5sim relies on. Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p loom-tests --release`.
//!
//! Without `--cfg loom` this crate holds only the stress twins of the models,
//! on real threads.

#[cfg(all(test, loom))]
mod models {
    use loom::thread;
    use sim_mem::{AtomicOp, Buffer, BufferView};
    use std::sync::Arc;

    /// Two threads' compare-exchange increment loops on one UAV word never
    /// lose an increment (the CAS loop of `cas_float_add.hlsl`).
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
                                break;
                            }
                            expected = orig;
                        }
                    })
                })
                .collect();
            for h in handles {
                h.join().unwrap();
            }
            assert_eq!(buf.load(0), Some(2));
        });
    }
}

#[cfg(all(test, not(loom)))]
mod stress {
    use sim_mem::{AtomicOp, Buffer, BufferView};

    /// The stress twin of `models::cas_increment_loops_lose_nothing`: 8 OS threads.
    #[test]
    fn cas_increment_loops_lose_nothing_on_real_threads() {
        let buf = Buffer::zeroed(4).unwrap();
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    let v = BufferView::raw(&buf);
                    let i = v.word_index(0, 0, 0);
                    for _ in 0..10_000 {
                        let mut expected = v.load(i);
                        loop {
                            let op = AtomicOp::CompareExchange {
                                compare: expected,
                                value: expected + 1,
                            };
                            let orig = v.atomic(i, op).unwrap();
                            if orig == expected {
                                break;
                            }
                            expected = orig;
                        }
                    }
                });
            }
        });
        assert_eq!(buf.load(0), Some(80_000));
    }
}
