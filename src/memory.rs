//! How much memory a job's resources may take.
//!
//! A job's buffers and textures are totalled as they are declared, before
//! each is allocated, against a limit: `--max-memory` when given, else what
//! this process may use (the machine's physical memory, or the process's
//! address-space limit, `ulimit -v`, less what it already maps, when that is
//! lower). A job over it is refused with the figures, not killed by the
//! allocator halfway through set-up.
//!
//! The figure counted for a job is its resources' bytes plus the bytes of
//! the largest one again ([`MemoryBudget::charge`]): filling a resource
//! from its `init` and dumping it each build one copy of one resource at a
//! time, so that is the job's peak.

use bytesize::ByteSize;

/// Where a memory limit comes from, for messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitSource {
    /// The caller's limit (`--max-memory`).
    Given,
    /// The machine's physical memory.
    Physical,
    /// The process's address-space limit (`RLIMIT_AS`, `ulimit -v`), less
    /// what the process already maps.
    AddressSpace,
    /// One of that many equal shares of the process's limit
    /// ([`share_among`]: a suite's jobs that run at once).
    Share(usize),
}

impl std::fmt::Display for LimitSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitSource::Given => "--max-memory",
            LimitSource::Physical => "this machine's memory",
            LimitSource::AddressSpace => {
                "what this process's address-space limit (ulimit -v) leaves"
            }
            LimitSource::Share(n) => {
                return write!(
                f,
                "one job's share of what this process may use, among the {n} run at once (--jobs)"
            )
            }
        })
    }
}

/// A limit in bytes and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimit {
    /// Bytes.
    pub bytes: u64,
    /// Where the figure comes from.
    pub source: LimitSource,
}

/// Room kept under an address-space limit for what a run maps besides its
/// resources: worker stacks, executor registers, TGSM, the allocator's arenas.
const ADDRESS_SPACE_MARGIN: u64 = 128 << 20;

/// Jobs the process runs at once ([`share_among`]); 1 outside a suite.
static JOBS_AT_ONCE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);

/// Make [`machine_limit`] give each job `1/n` of what the process may use,
/// for a suite that runs `n` jobs at once (their resources add up).
pub fn share_among(n: usize) {
    JOBS_AT_ONCE.store(n.max(1), std::sync::atomic::Ordering::Relaxed);
}

/// What this process may use: the smaller of the machine's physical memory
/// and its address-space limit less what it already maps (less a margin for
/// stacks and scratch). None where neither can be read (then nothing is
/// refused up front, and an allocation the allocator refuses is still an
/// error: `MemError::OutOfMemory`).
pub fn machine_limit() -> Option<MemoryLimit> {
    let physical = physical_bytes().map(|bytes| MemoryLimit {
        bytes,
        source: LimitSource::Physical,
    });
    let address_space = address_space_bytes().map(|limit| MemoryLimit {
        bytes: limit
            .saturating_sub(mapped_bytes().unwrap_or(0))
            .saturating_sub(ADDRESS_SPACE_MARGIN),
        source: LimitSource::AddressSpace,
    });
    let limit = match (physical, address_space) {
        (Some(p), Some(a)) => Some(if a.bytes < p.bytes { a } else { p }),
        (p, a) => p.or(a),
    };
    match JOBS_AT_ONCE.load(std::sync::atomic::Ordering::Relaxed) {
        1 => limit,
        n => limit.map(|l| MemoryLimit {
            bytes: l.bytes / n as u64,
            source: LimitSource::Share(n),
        }),
    }
}

/// Physical memory in bytes (Linux `sysinfo(2)`).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn physical_bytes() -> Option<u64> {
    nix::sys::sysinfo::sysinfo().ok().map(|i| i.ram_total())
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn physical_bytes() -> Option<u64> {
    None
}

/// The soft address-space limit, None when unlimited.
#[cfg(unix)]
fn address_space_bytes() -> Option<u64> {
    use nix::sys::resource::{getrlimit, Resource, RLIM_INFINITY};
    let (soft, _) = getrlimit(Resource::RLIMIT_AS).ok()?;
    (soft != RLIM_INFINITY).then_some(soft)
}

#[cfg(not(unix))]
fn address_space_bytes() -> Option<u64> {
    None
}

/// The process's mapped address space (`VmSize` of `/proc/self/status`).
fn mapped_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line
        .trim_start_matches("VmSize:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// `load` with [`LoadOptions::max_memory`](sim_core::LoadOptions::max_memory)
/// set to [`machine_limit`] when it is not given, for loading a program:
/// sim-core refuses a shader whose decoding, lowering or plan would not fit
/// (`LoadError::TooLarge`, estimated per `sim_core::program::memory`)
/// before it allocates, where an allocation the system refuses would abort.
pub fn for_program(load: &sim_core::LoadOptions) -> sim_core::LoadOptions {
    let mut load = load.clone();
    if load.max_memory.is_none() {
        load.max_memory = machine_limit().map(|l| l.bytes);
    }
    load
}

/// A running total of a job's resources against a limit.
#[derive(Debug, Clone)]
pub struct MemoryBudget {
    limit: Option<MemoryLimit>,
    resources: u64,
    largest: u64,
}

impl MemoryBudget {
    /// A budget under `limit` (None: no limit).
    pub fn new(limit: Option<MemoryLimit>) -> Self {
        Self {
            limit,
            resources: 0,
            largest: 0,
        }
    }

    /// A budget under `max_memory` bytes when given, else under
    /// [`machine_limit`].
    pub fn for_job(max_memory: Option<u64>) -> Self {
        Self::new(match max_memory {
            Some(bytes) => Some(MemoryLimit {
                bytes,
                source: LimitSource::Given,
            }),
            None => machine_limit(),
        })
    }

    /// Count a resource of `bytes` before it is allocated.
    ///
    /// # Errors
    /// A message with the figures when the resources so far plus a working
    /// copy of the largest would pass the limit; nothing is counted then.
    pub fn charge(&mut self, bytes: u64) -> Result<(), String> {
        let resources = self.resources.saturating_add(bytes);
        let largest = self.largest.max(bytes);
        let need = resources.saturating_add(largest);
        if let Some(limit) = self.limit {
            if need > limit.bytes {
                let so_far = if self.resources > 0 {
                    format!(
                        " with the {} declared before it",
                        ByteSize(self.resources).display().iec()
                    )
                } else {
                    String::new()
                };
                return Err(format!(
                    "{} of storage{so_far} needs {} (the resources, plus a working copy of the largest for its init and dumps), more than the {} of {} ({} bytes)",
                    ByteSize(bytes).display().iec(),
                    ByteSize(need).display().iec(),
                    ByteSize(limit.bytes).display().iec(),
                    limit.source,
                    limit.bytes,
                ));
            }
        }
        self.resources = resources;
        self.largest = largest;
        Ok(())
    }

    /// Whether `bytes` more, which `what` (`checking`, …) needs while the
    /// job runs, fit under the limit beside the resources counted so far
    /// and the working copy of the largest; the message, like
    /// [`MemoryBudget::charge`]'s, when they do not. Counts nothing.
    pub fn check_extra(&self, bytes: u64, what: &str) -> Result<(), String> {
        let need = self.peak().saturating_add(bytes);
        match self.limit {
            Some(limit) if need > limit.bytes => Err(format!(
                "{what} needs {} besides the job's {} of resources (and a working copy of the largest): {} in all, more than the {} of {} ({} bytes)",
                ByteSize(bytes).display().iec(),
                ByteSize(self.resources).display().iec(),
                ByteSize(need).display().iec(),
                ByteSize(limit.bytes).display().iec(),
                limit.source,
                limit.bytes,
            )),
            _ => Ok(()),
        }
    }

    /// The resources' bytes counted so far.
    pub fn resources(&self) -> u64 {
        self.resources
    }

    /// The peak the job is counted at: the resources plus the largest.
    pub fn peak(&self) -> u64 {
        self.resources.saturating_add(self.largest)
    }
}

/// Parse a size such as `512MiB`, `4 GiB`, `1.5GB` or `1000000` (bytes).
///
/// # Errors
/// A message naming the text when it is not a size.
pub fn parse_size(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<ByteSize>()
        .map(|b| b.as_u64())
        .map_err(|e| format!("'{text}' is not a size such as 512MiB or 4GiB: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_counts_the_largest_twice_and_refuses_past_the_limit() {
        let mut b = MemoryBudget::new(Some(MemoryLimit {
            bytes: 100,
            source: LimitSource::Given,
        }));
        b.charge(30).unwrap();
        b.charge(20).unwrap();
        assert_eq!((b.resources(), b.peak()), (50, 80));
        let e = b.charge(21).unwrap_err();
        assert!(e.contains("more than the 100 B of --max-memory"), "{e}");
        assert!(e.contains("with the 50 B declared before it"), "{e}");
        assert_eq!(b.peak(), 80, "a refused resource is not counted");
        b.charge(20).unwrap();
        assert_eq!(b.peak(), 100);
        assert!(MemoryBudget::new(None).charge(u64::MAX).is_ok());
    }

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("4 GiB"), Ok(4 << 30));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").unwrap_err().contains("'lots'"));
    }
}
