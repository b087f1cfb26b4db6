//! The policy of a parallel dispatch: how many groups share a warp and a
//! batch ([`packed_groups_limit`], [`groups_per_batch`]), and the worker
//! pool.

use crate::outcome::DispatchError;
use sim_core::exec::{packing, MAX_PACKED_LANES};
use sim_core::Program;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The most groups a dispatch runs as one warp for `program`
/// ([`GroupExecutor::packed`](sim_core::exec::GroupExecutor::packed)): 1 where its groups may not share a warp
/// ([`sim_core::exec::Packing::allowed`]); else as many as give about
/// [`PACKED_LANES`] lanes, within the executor's most and a register file
/// of at most [`PACKED_REGISTER_BYTES`], so that it stays in the L1 cache.
/// (Packing cas_float_add's groups eight to a warp made it 1.9 times
/// faster at one thread.)
pub fn packed_groups_limit(program: &Program) -> u32 {
    let p = packing(program);
    if !p.allowed {
        return 1;
    }
    let n = p.threads_per_group as usize;
    let by_regs = PACKED_REGISTER_BYTES / (4 * p.register_words_per_lane * n);
    let lanes = match p.retry_loops {
        true => PACKED_RETRY_LANES,
        false => PACKED_LANES,
    }
    .min(MAX_PACKED_LANES);
    (lanes / n).min(by_regs).max(1) as u32
}

/// The lanes a packed warp aims at when the program has a compare-exchange
/// retry loop the executor runs at once ([`sim_core::exec::Packing::retry_loops`]):
/// the lanes of a warp that meet on a word share one compare-exchange, so
/// that on cas_float_add (4,000,000 values, 2 threads, medians) 1,024
/// lanes took 10.3 / 14.9 / 18.7 ms at 64 / 128 / 256 slots where 512 took
/// 12.9 / 19.2 / 29.0 ms (and 14.8 ms where 17.8 ms at 32 slots); the other
/// workloads, without such loops, stay at [`PACKED_LANES`] (saxpy took 6%
/// longer at 1,024).
pub const PACKED_RETRY_LANES: usize = 1024;

/// The lanes a packed warp aims at ([`packed_groups_limit`]): on
/// mandelbrot's 8×8 groups, 256 lanes took 0.22 s where 64 took 0.41 s
/// (1 thread, a 2-vCPU Xeon VM); with unblended writes, 512 run it in 12%
/// fewer instructions than 256 (callgrind, 256² pixels: 149.0M → 131.4M;
/// 128 lanes: 181.9M) and 0.091 s where 256 took 0.103 s (1 thread,
/// medians; 2 threads 0.045 s and 0.054 s); 1024 (640 lanes within the
/// register budget) gained nothing more.
pub const PACKED_LANES: usize = 512;

/// The largest register file, in bytes, a packed warp may have.
pub const PACKED_REGISTER_BYTES: usize = 32 << 10;

/// The groups a plain dispatch of `groups` on `threads` workers runs as
/// one warp ([`GroupExecutor::packed`](sim_core::exec::GroupExecutor::packed)): [`packed_groups_limit`], at most
/// the groups along x, and halved while that leaves fewer than four
/// batches per worker (so that small dispatches still spread).
pub fn groups_per_batch(program: &Program, groups: [u32; 3], threads: usize) -> u32 {
    batch_groups(packed_groups_limit(program), groups, threads)
}

/// [`groups_per_batch`] for a `limit` of groups per batch.
pub(crate) fn batch_groups(limit: u32, groups: [u32; 3], threads: usize) -> u32 {
    let [x, y, z] = groups;
    let mut k = limit.min(x).max(1);
    let rows = y as u64 * z as u64;
    while k > 1 && x.div_ceil(k) as u64 * rows < 4 * threads as u64 {
        k /= 2;
    }
    k
}

/// The most batches a worker takes from the shared counter at once: the
/// chunks start at a quarter of each worker's share and shrink as the work
/// runs out, within this.
pub(crate) const MAX_CHUNK_BATCHES: u64 = 1024;

/// Worker threads allowed per core: more only cost start-up time (100,000
/// threads took 100 s to spawn) and memory for their stacks.
pub const MAX_THREADS_PER_CORE: usize = 16;

/// The most worker threads a dispatch may ask for on a machine with `cores`
/// cores: 16 per core, and never fewer than 64. More are refused with
/// [`DispatchError::TooManyThreads`] before any thread starts.
pub fn max_threads(cores: usize) -> usize {
    (cores.saturating_mul(MAX_THREADS_PER_CORE)).max(64)
}

/// The cores this machine offers (1 when it cannot tell), read once per
/// process (reading it costs microseconds: cgroup files).
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Run `f` on a worker thread of the pool that dispatches with
/// `threads` worker threads (`DispatchOptions::threads`) run on, and give
/// back what it returns: a pipeline of dispatches made inside `f` with the
/// same `threads` then runs each on the pool directly, where each would
/// otherwise hand its groups to the pool and wait for them to come back
/// (tens of microseconds per dispatch: `benches/pipelines.rs`). With 0
/// threads (one per core: rayon's global pool, the current one), on a
/// worker of that pool; with 1, or when the pool cannot start (each
/// dispatch then reports [`DispatchError::Pool`] itself), on the calling
/// thread.
///
/// `f` must not wait for work that another thread hands to the same pool
/// (a lock that a dispatch on another thread holds, say): it would hold a
/// worker while it waits.
pub fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    match threads {
        // (a join from outside the pool runs on one of its workers)
        0 if rayon::current_thread_index().is_none() => rayon::join(f, || ()).0,
        0 | 1 => f(),
        t if in_pool_of(t) => f(),
        t => match pool(t) {
            Ok(p) => p.install(f),
            Err(_) => f(),
        },
    }
}

/// Whether the calling thread is a worker of a rayon pool of `threads`
/// threads (one that [`in_pool`] or a caller's own pool made), where a
/// dispatch of `threads` threads runs its groups without a hand-over.
pub(crate) fn in_pool_of(threads: usize) -> bool {
    rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads
}

/// The worker pool for `threads` threads, built once per thread count and
/// kept for the process: starting threads costs far more than a small
/// dispatch (the fixed costs of `benches/pipelines.rs`).
pub(crate) fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, DispatchError> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("sm5sim-{threads}-{i}"))
            .build()
            .map_err(|e| DispatchError::Pool {
                threads,
                message: e.to_string(),
            })?,
    );
    pools.insert(threads, p.clone());
    Ok(p)
}
