//! What the checker reports: [`Finding`]s of a [`FindingKind`], each with
//! the [`Access`]es involved, and how a finding prints; the listing lines
//! reports name ([`super::Checker::set_listing`]).

/// What a [`Finding`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// A write and then a read of one word by different threads of a group
    /// with no barrier between them in time: the write first in program
    /// order, or, between two iterations of a loop (a barrier between them
    /// in the program orders them within an iteration only), in time.
    Raw,
    /// A read and then a write of one word by different threads of a group
    /// with no barrier between them in time (the order as for [`Raw`]).
    ///
    /// [`Raw`]: FindingKind::Raw
    War,
    /// Two writes of different values by different threads with nothing
    /// ordering them (within a group, or from two groups).
    Waw,
    /// Two unordered writes of the same value: a race by the letter, with a
    /// deterministic outcome (32-bit stores are atomic, FS §7.14.2).
    Benign,
    /// A plain load or store and an atomic on one word by two threads of a
    /// group, unordered: the load sees the word before or after the atomic;
    /// after a store, a TGSM word's value is undefined (FS §7.14.2).
    AtomicVsPlain,
    /// Conflicting accesses within a group separated by a `sync` that does
    /// not order them: no `_t`, or a fence of the other memory class.
    BarrierScope,
    /// A plain read-modify-write of a UAV word that another group also
    /// writes: updates can be lost.
    CrossGroupRmw,
    /// An atomic in one group and a plain read or write of the same UAV
    /// word in another: groups have no order (FS §7.14.4), so the read sees
    /// any number of the atomics, and a write may land before or after any
    /// of them.
    CrossGroupAtomicVsPlain,
    /// A plain access to a UAV word that another group writes (or reads,
    /// for a write) without the `_glc` + `sync_uglobal` + atomic protocol.
    CrossGroupVisibility,
    /// A `sync_*_t` reached by only some threads of the group.
    DivergentBarrier,
    /// A TGSM word read (plainly or by an atomic) before any thread of the
    /// group wrote it.
    UninitialisedRead,
    /// A UAV or SRV access outside its view where D3D defines the result
    /// (legal: reads 0, writes dropped).
    OutOfBounds,
    /// A TGSM access outside its `g#` declaration: a write (or atomic)
    /// makes all of the group's shared memory undefined, a read returns an
    /// undefined value (FS §22.4.13; `reference/sm5-compute-isa.md` §14).
    TgsmOutOfBounds,
    /// A structured UAV access to a structure in the view at a byte offset
    /// past its stride: a write makes the whole UAV undefined, a read
    /// returns undefined values (FS §22.4.13, §18.6.8.3).
    StructureOutOfBounds,
    /// A raw or structured byte address that is not a multiple of 4: the
    /// memory's contents (write) or the value read are undefined (FS §7.13).
    Misaligned,
    /// `imm_atomic_alloc` and `imm_atomic_consume` on one UAV's hidden
    /// counter in one dispatch (FS §22.17.17–18: a shader must not use
    /// both on one UAV).
    CounterIncrementAndDecrement,
    /// A thread waits in a spin loop (`crate::analysis::spin`) on memory
    /// that only another group, or another lane or warp, changes: D3D
    /// promises no forward progress between groups nor between lanes
    /// (`reference/compute-model.md` §6). Either the wait went on for
    /// [`SPIN_WINDOW`](super::SPIN_WINDOW) reads with nothing in the group changing memory (a
    /// hang: the dispatch is stopped, the findings kept), or it ended on
    /// a value an earlier group wrote, which it got only because the
    /// groups happened to run in that order.
    ForwardProgress,
    /// A thread waits in a spin loop on memory that another group changes,
    /// where that group had already started when the wait began: it took
    /// its ticket (its group's first returning atomic on a word, the same
    /// word as the waiting group's) before the waiting group took its own.
    /// The decoupled look-back of single-pass scans: the wait ends if the
    /// GPU keeps started groups running, which desktop GPUs do and D3D does
    /// not promise (`reference/compute-model.md` §6).
    OccupancyDependentProgress,
}

impl FindingKind {
    /// Every kind, in report order.
    pub const ALL: [FindingKind; 18] = [
        FindingKind::Raw,
        FindingKind::War,
        FindingKind::Waw,
        FindingKind::Benign,
        FindingKind::AtomicVsPlain,
        FindingKind::BarrierScope,
        FindingKind::CrossGroupRmw,
        FindingKind::CrossGroupAtomicVsPlain,
        FindingKind::CrossGroupVisibility,
        FindingKind::DivergentBarrier,
        FindingKind::UninitialisedRead,
        FindingKind::OutOfBounds,
        FindingKind::TgsmOutOfBounds,
        FindingKind::StructureOutOfBounds,
        FindingKind::Misaligned,
        FindingKind::CounterIncrementAndDecrement,
        FindingKind::ForwardProgress,
        FindingKind::OccupancyDependentProgress,
    ];

    /// The kind's name as reports and `tests/races/MANIFEST.toml` spell it
    /// (`raw`, `cross-group-rmw`, …).
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Raw => "raw",
            FindingKind::War => "war",
            FindingKind::Waw => "waw",
            FindingKind::Benign => "benign",
            FindingKind::AtomicVsPlain => "atomic-vs-plain",
            FindingKind::BarrierScope => "barrier-scope",
            FindingKind::CrossGroupRmw => "cross-group-rmw",
            FindingKind::CrossGroupAtomicVsPlain => "cross-group-atomic-vs-plain",
            FindingKind::CrossGroupVisibility => "cross-group-visibility",
            FindingKind::DivergentBarrier => "divergent-barrier",
            FindingKind::UninitialisedRead => "uninitialised-read",
            FindingKind::OutOfBounds => "out-of-bounds",
            FindingKind::TgsmOutOfBounds => "tgsm-out-of-bounds",
            FindingKind::StructureOutOfBounds => "structure-out-of-bounds",
            FindingKind::Misaligned => "misaligned-address",
            FindingKind::CounterIncrementAndDecrement => "counter-increment-and-decrement",
            FindingKind::ForwardProgress => "forward-progress",
            FindingKind::OccupancyDependentProgress => "occupancy-dependent-progress",
        }
    }

    /// Errors are undefined or schedule-dependent behaviour; warnings are
    /// legal or depend on what D3D leaves to the GPU (benign races,
    /// out-of-bounds accesses, occupancy-dependent progress).
    pub fn severity(self) -> Severity {
        match self {
            FindingKind::Benign
            | FindingKind::OutOfBounds
            | FindingKind::OccupancyDependentProgress => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// A one-line description of the kind.
    pub fn description(self) -> &'static str {
        match self {
            FindingKind::Raw => "read-after-write race between threads of a group: no barrier between them in time",
            FindingKind::War => "write-after-read race between threads of a group: no barrier between them in time",
            FindingKind::Waw => "write-write race: different values, nothing orders the writes",
            FindingKind::Benign => "benign write-write race: unordered writes of the same value",
            FindingKind::AtomicVsPlain => "an atomic and a plain load or store on one word, unordered",
            FindingKind::BarrierScope => "a sync separates the accesses but does not order them (no _t, or a fence of the other memory: _g for TGSM, _ugroup/_uglobal for UAVs)",
            FindingKind::CrossGroupRmw => "plain read-modify-write of a word another group also writes: updates can be lost",
            FindingKind::CrossGroupAtomicVsPlain => "an atomic in one group and a plain read or write of the word in another: groups are unordered, so the read sees any number of the atomics and the write lands anywhere among them (FS §7.14.4)",
            FindingKind::CrossGroupVisibility => "cross-group access without the globallycoherent + sync_uglobal + atomic protocol",
            FindingKind::DivergentBarrier => "barrier not reached by every thread of the group",
            FindingKind::UninitialisedRead => "groupshared word read before any thread of the group wrote it",
            FindingKind::OutOfBounds => "access outside the view (reads 0, writes dropped)",
            FindingKind::TgsmOutOfBounds => "groupshared access outside its declaration: a write makes all of the group's shared memory undefined, a read is undefined (FS §22.4.13)",
            FindingKind::StructureOutOfBounds => "structured access past the structure's stride: a write makes the whole UAV undefined, a read is undefined (FS §22.4.13)",
            FindingKind::Misaligned => "byte address not a multiple of 4: the memory (write) or the value read is undefined (FS §7.13)",
            FindingKind::CounterIncrementAndDecrement => "the UAV's hidden counter is both incremented (imm_atomic_alloc) and decremented (imm_atomic_consume) in one dispatch (FS §22.17.17-18)",
            FindingKind::ForwardProgress => "a thread spins on memory that only another group (or another lane or warp) changes; D3D promises no forward progress between groups nor between lanes, so a GPU may hang here",
            FindingKind::OccupancyDependentProgress => "a thread spins on memory that a group which had already started changes (it took its ticket first: a decoupled look-back); the wait ends only if the GPU keeps started groups running, which desktop GPUs do and D3D does not promise",
        }
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Undefined or schedule-dependent behaviour.
    Error,
    /// Legal, but probably not meant.
    Warning,
}

/// What one side of a finding did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessOp {
    /// A plain load.
    Read,
    /// A plain store.
    Write,
    /// An atomic read-modify-write.
    Atomic,
    /// A `sync` instruction.
    Barrier,
}

impl AccessOp {
    /// `read`, `write`, `atomic` or `barrier`.
    pub fn name(self) -> &'static str {
        match self {
            AccessOp::Read => "read",
            AccessOp::Write => "write",
            AccessOp::Atomic => "atomic",
            AccessOp::Barrier => "barrier",
        }
    }
}

/// An instruction of the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// Index in the lowered program (the executor's pc).
    pub pc: u32,
    /// Dword offset of the instruction in the token stream (the version token is 0).
    pub dword: u32,
    /// The instruction as the disassembler (and fxc's listing) prints it, without indentation.
    pub text: String,
    /// Its 1-based line in the listing given to [`Checker::set_listing`](super::Checker::set_listing), if found there.
    pub line: Option<u32>,
    /// Which listing `line` is a line of ([`Checker::set_listing_name`](super::Checker::set_listing_name):
    /// `sm5sim disasm`, or the `.asm` file's name), when named.
    pub listing: Option<String>,
    /// The HLSL file and line it comes from (`mandelbrot.hlsl:15`), when the
    /// program carries fxc's debug information ([`Program::source_map`](crate::program::Program::source_map)).
    pub hlsl: Option<String>,
}

/// A thread of the dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreadRef {
    /// `SV_GroupID` of its group.
    pub group: [u32; 3],
    /// `SV_GroupThreadID`.
    pub thread: [u32; 3],
    /// `SV_GroupIndex` (the flattened thread index).
    pub index: u32,
}

/// One side of a finding: who did what where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    /// The instruction.
    pub site: Site,
    /// The thread that executed it.
    pub thread: ThreadRef,
    /// What it did.
    pub op: AccessOp,
    /// The value written, for plain stores.
    pub value: Option<u32>,
}

/// One deduplicated report: the first example of a (kind, resource, pair of
/// instructions), with the number of times it occurred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub kind: FindingKind,
    /// The memory: `g#` or `u#`; `None` for barrier findings.
    pub resource: Option<String>,
    /// Its name: the job's resource name or the HLSL name (RDEF or listing header).
    pub resource_name: Option<String>,
    /// Byte offset of the word within the view (UAV) or region (TGSM); for
    /// out-of-bounds accesses, the byte address that was out of range.
    pub byte_offset: Option<u64>,
    /// Where that is, as the shader indexes it: `[i]` for a raw buffer's or
    /// region's dword `i`, `[i].b` for byte `b` of structure `i` (`None`
    /// for typed views and barrier findings).
    pub element: Option<String>,
    /// The access first in program order (the lower pc), or the only one.
    pub first: Access,
    /// The other access of a race, or for a divergent barrier a thread that
    /// did not arrive (with the barrier it waits at, or the instruction it was
    /// at when the group's other threads waited).
    pub second: Option<Access>,
    /// For write-write races: whether both wrote the same value.
    pub benign: bool,
    /// How many times this (kind, resource, instruction pair) occurred.
    pub count: u64,
    /// Index of the dispatch (since the checker was created) of the first example.
    pub dispatch: usize,
    /// Where that dispatch came from, when the caller said
    /// (`Checker::set_step`): a job's step and shader,
    /// `steps[3] (shader 'sort')`.
    pub step: Option<String>,
    /// More about this finding: for a forward-progress hang, which groups
    /// could change the word the thread waits on.
    pub note: Option<String>,
}

impl Finding {
    /// Error or warning.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }
}

/// A finding as text, several lines:
///
/// ```text
/// error[raw] g0[1] byte 4: read-after-write race between threads of a group: no barrier between them in time (256 times)
///   write   line 43 (dword 30) store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x
///           group (0, 0, 0) thread (1, 0, 0) [1], value 0x4
///   read    line 46 (dword 51) ld_structured r0.x, r0.x, l(0), g0.xxxx
///           group (0, 0, 0) thread (0, 0, 0) [0]
/// ```
impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev}[{}]", self.kind)?;
        if let Some(r) = &self.resource {
            write!(f, " {r}")?;
            if let Some(e) = &self.element {
                write!(f, "{e}")?;
            }
            // (a resource named by its slot is not named twice)
            if let Some(n) = self.resource_name.as_ref().filter(|n| *n != r) {
                write!(f, " ('{n}')")?;
            }
        }
        if let Some(b) = self.byte_offset {
            write!(f, " byte {b}")?;
        }
        write!(f, ": {}", self.kind.description())?;
        if self.count > 1 {
            write!(f, " ({} times)", self.count)?;
        }
        if let Some(s) = &self.step {
            write!(f, "\n  in {s}")?;
        }
        let side = |f: &mut std::fmt::Formatter<'_>, a: &Access, label: &str| {
            write!(f, "\n  {label:<8}")?;
            match (a.site.line, &a.site.listing) {
                (Some(l), Some(name)) => write!(f, "line {l} of {name} ")?,
                (Some(l), None) => write!(f, "line {l} ")?,
                _ => {}
            }
            write!(f, "(dword {}) ", a.site.dword)?;
            if let Some(h) = &a.site.hlsl {
                write!(f, "{h}: ")?;
            }
            write!(f, "{}", a.site.text)?;
            let t = &a.thread;
            write!(
                f,
                "\n          group ({}, {}, {}) thread ({}, {}, {}) [{}]",
                t.group[0], t.group[1], t.group[2], t.thread[0], t.thread[1], t.thread[2], t.index
            )?;
            if let Some(v) = a.value {
                write!(f, ", value {v:#x}")?;
            }
            Ok(())
        };
        match self.kind {
            FindingKind::DivergentBarrier => {
                side(f, &self.first, "waits")?;
                match &self.second {
                    Some(s) if s.site.pc != self.first.site.pc => side(f, s, "waits")?,
                    Some(s) => {
                        let t = &s.thread;
                        write!(
                            f,
                            "\n  missing group ({}, {}, {}) thread ({}, {}, {}) [{}]: finished, or inactive in divergent flow",
                            t.group[0], t.group[1], t.group[2], t.thread[0], t.thread[1], t.thread[2], t.index
                        )?;
                    }
                    None => {}
                }
            }
            _ => {
                side(f, &self.first, self.first.op.name())?;
                if let Some(s) = &self.second {
                    side(f, s, s.op.name())?;
                }
            }
        }
        if let Some(n) = &self.note {
            write!(f, "\n  note    {n}")?;
        }
        Ok(())
    }
}

impl super::Checker {
    /// Name the listing given to [`Checker::set_listing`] (`sm5sim disasm`
    /// for the listing the disassembler prints, or the `.asm` file's name):
    /// reports then say `line 43 of sm5sim disasm`.
    pub fn set_listing_name(&mut self, name: &str) {
        self.listing_name = Some(name.to_string());
    }

    /// Map instructions to the lines of `listing`, an fxc listing of the
    /// program (the `.asm` it was assembled from, or `disasm::full_listing`
    /// of its container): each instruction, in order, takes the next line
    /// whose text (trimmed) equals its disassembly. Instructions not found
    /// keep no line.
    pub fn set_listing(&mut self, listing: &str) {
        let lines: Vec<&str> = listing.lines().map(str::trim).collect();
        let mut order: Vec<(u32, usize)> = self
            .sites
            .iter()
            .enumerate()
            .map(|(pc, s)| (s.dword, pc))
            .collect();
        order.sort_unstable();
        let mut at = 0usize;
        let mut found: std::collections::HashMap<u32, u32> = Default::default();
        for &(dword, pc) in &order {
            if let Some(&l) = found.get(&dword) {
                self.sites[pc].line = Some(l);
                continue;
            }
            let text = self.sites[pc].text.as_str();
            if text.is_empty() {
                continue;
            }
            if let Some(i) = lines[at..].iter().position(|l| *l == text) {
                let line = (at + i + 1) as u32;
                at += i + 1;
                found.insert(dword, line);
                self.sites[pc].line = Some(line);
            }
        }
    }
}

/// The groupshared registers the debug information names (`g0` → `s`)
/// that hold one variable (`crate::front::debug_info::GroupsharedVariable`).
pub(super) fn groupshared_names(
    program: &crate::program::Program,
) -> impl Iterator<Item = (String, String)> + '_ {
    let vars = program.source_map.iter().flat_map(|m| &m.groupshared);
    vars.clone()
        .filter(move |v| vars.clone().filter(|w| w.slot == v.slot).count() == 1)
        .map(|v| (format!("g{}", v.slot), v.name.clone()))
}
