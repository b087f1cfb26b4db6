//! The concurrency checker behind `sm5sim check`: data races on TGSM and UAV
//! words, divergent barriers, reads of uninitialised TGSM and out-of-bounds
//! accesses, found with shadow state while a dispatch runs.
//!
//! # What counts as a bug
//!
//! The rules are D3D11's memory model as `reference/compute-model.md` §5–§6
//! digests it (FS §7.14 memory model, §18.6.6 TGSM, §18.6.7 and §22.17.7
//! `sync`; `sim-mem/MEMORY_MODEL.md` maps them onto Rust):
//!
//! - **Within a group**, two accesses to one 32-bit word by different threads
//!   conflict when at least one writes. They are ordered only by a barrier
//!   that every thread of the group passes (`_t`) with a fence of the right
//!   scope between them: `_g` for TGSM (`sync_g_t`, `sync_uglobal_g_t`, …),
//!   `_ugroup` or `_uglobal` for UAVs (`sync_ugroup_t`, `sync_uglobal_t`, …).
//!   A `sync` without `_t` is a fence: it orders the calling thread's own
//!   accesses and nothing between threads. Lanes of one warp race like any
//!   other threads (D3D promises no warp-synchronous execution). Atomics
//!   never race with atomics; an atomic and a plain access do.
//! - **Across groups** of one dispatch, conflicting plain (non-atomic)
//!   accesses to a UAV word race (groups have no order, §6.3). The one
//!   exception is D3D's only cross-group channel, the "last group" pattern:
//!   an access is *published* when the UAV is declared globally coherent
//!   (`_glc`) and the accessing thread executed `sync_uglobal` after it; the
//!   later group's access is *acquired* when its thread performed a UAV
//!   atomic (a counter) before it. Published and acquired: no race;
//!   otherwise `cross-group-visibility` (FS §7.14.4). Reader-side
//!   `sync_uglobal` is not demanded. An atomic and a plain access of the
//!   word from different groups race too (`cross-group-atomic-vs-plain`),
//!   unless the plain access follows its own thread's returning atomic
//!   (`imm_atomic_*`) on the word, whose value orders it after the others
//!   (the last group resetting a counter), or is a compare-exchange loop's
//!   validated guess.
//! - A `sync_*_t` barrier must be reached by every thread of the group
//!   (§6.2): lanes of a warp inactive at the barrier (divergent flow, or
//!   returned), warps parked at different barriers, or warps finished while
//!   others wait are a `divergent-barrier` error (like compute-sanitizer's
//!   synccheck).
//! - D3D promises no forward progress between groups nor between the
//!   lanes of a warp (§6): a spin read (`crate::analysis::spin`) made
//!   [`SPIN_WINDOW`] times in a row on one word while no other thread of
//!   the group writes is a hang (`forward-progress`; the checker stops the
//!   dispatch), and a spin read of a UAV word an earlier group changed is a
//!   wait that ended only because of the order the groups ran in.
//! - TGSM starts undefined (§5): a plain or atomic read of a TGSM word that
//!   no thread of the group has written yet is an `uninitialised-read`
//!   (like initcheck).
//! - A UAV or TGSM access outside its view or region is legal (reads 0,
//!   writes dropped) but reported as an `out-of-bounds` warning (like
//!   memcheck).
//!
//! # How
//!
//! Groups run one after another on the calling OS thread
//! (`sim_sched::Mode::Checked`), in their linear order (x fastest), so the
//! shadow state needs no synchronisation and the findings are deterministic.
//! Every memory instruction of a checking executor reports each lane's word
//! here (a plain run only tests `Option::is_some` once per instruction).
//!
//! Shadow state, per word (TGSM: a dense array per group; UAVs: a hash map
//! per group, plus a paged array per UAV that lives for the dispatch):
//! - the group's barrier *epoch* — a counter per memory class, advanced when
//!   every warp is released from a `_t` barrier whose fence covers the class
//!   — and, in the current epoch, the last plain write, plain read and
//!   atomic, each with the last one by a *different* thread, so that "some
//!   other thread accessed this word in this epoch" is answered exactly;
//! - per thread: how many `sync` instructions it executed (two conflicting
//!   accesses in one epoch but on different sides of some `sync` are a
//!   `barrier-scope` race: a barrier was there, of the wrong kind), how many
//!   `sync_uglobal`, and whether it performed a UAV atomic;
//! - across groups: each UAV word's last plain write and plain read by an
//!   earlier group, with whether it was published, and an earlier group's
//!   atomic.
//!
//! The kind of a race between a read and a write follows program order (the
//! lower pc first): a write before the read in the program is `raw`, after it
//! `war`, whatever order the simulator happened to run them in. Where a
//! barrier lies between them in the program, inside a loop around both,
//! they come from different iterations: the one later in the program came
//! first, the kind follows that order, and the finding notes that the race
//! is loop-carried and names the barrier. A plain read
//! racing only with atomics is dropped when its thread later executes
//! `imm_atomic_cmp_exch` on the same word: that is the compare-and-swap loop
//! idiom, whose first read is a guess the exchange validates. A cross-group
//! read of a word that the same thread then writes is a `cross-group-rmw`
//! (a lost update), reported instead of the write-write race.
//!
//! Findings are deduplicated: one per (kind, resource, pair of
//! instructions), keeping the first example and counting occurrences.
//!
//! Texture UAVs are shadowed per texel (an element of the texture's
//! storage). Not checked: two UAV slots bound to one buffer (each slot has
//! its own shadow).

use crate::check::xgroup::{Gap, XAcc, XShadow, XgRead};
use crate::ir::lowered::{AtomicKind, OpKind, Src, SrcKind};
use crate::ir::Instruction;
use crate::isa::opcodes::{Class, Opcode};
use crate::program::Program;
use sim_mem::{Bindings, TgsmRegion, ViewKind};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

mod allow;
mod findings;
mod loops;
mod prepared;
mod screen;
mod xgroup;
pub use allow::{Allow, Suppressed, MARKER};
pub use findings::{Access, AccessOp, Finding, FindingKind, Severity, Site, ThreadRef};
pub(crate) use prepared::Prepared;

/// Which checks [`Checker`] performs. [`Default`] is all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckOptions {
    /// Data races on TGSM and UAV words, within and across groups
    /// (`raw`, `war`, `waw`, `benign`, `atomic-vs-plain`, `barrier-scope`,
    /// `cross-group-rmw`, `cross-group-atomic-vs-plain`, `cross-group-visibility`).
    pub races: bool,
    /// Barriers not reached by every thread of the group
    /// (`divergent-barrier`), and waits on other threads that D3D does not
    /// promise to end (`forward-progress`).
    pub barriers: bool,
    /// TGSM read before any thread of the group wrote it (`uninitialised-read`).
    pub uninitialised: bool,
    /// UAV and TGSM accesses out of bounds (`out-of-bounds`, a warning).
    pub bounds: bool,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            races: true,
            barriers: true,
            uninitialised: true,
            bounds: true,
        }
    }
}

/// Reads a thread makes of one word at one spin read, one after another
/// with no write by any other thread of its group in between, after which
/// the checker calls it a hang ([`FindingKind::ForwardProgress`]): a
/// compare-exchange retry loop is no spin loop, and a wait on a thread of
/// the group that does run ends far sooner.
pub const SPIN_WINDOW: u32 = 1 << 16;

// ---------------------------------------------------------------------------
// Internal shadow state

/// A memory instruction's kind of access, as the executor reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MemOp {
    Read,
    Write,
    /// an atomic; `cas` for `imm_atomic_cmp_exch`
    Atomic {
        cas: bool,
    },
}

/// The memory an access goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Space {
    /// TGSM region g#
    Tgsm(u32),
    /// buffer UAV u#
    Uav(u32),
    /// buffer SRV t# (checked for bounds only: nothing writes an SRV)
    Srv(u32),
}

impl Space {
    /// Its register number.
    fn slot(self) -> u32 {
        match self {
            Space::Tgsm(s) | Space::Uav(s) | Space::Srv(s) => s,
        }
    }

    fn id(self) -> u32 {
        match self {
            Space::Tgsm(g) => g,
            Space::Uav(u) => 0x8000_0000 | u,
            Space::Srv(t) => 0x4000_0000 | t,
        }
    }
}

const NONE: u32 = u32::MAX;

/// An access in the shadow state (within a group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Acc {
    /// `SV_GroupIndex` (a group has at most 1,024 threads; `NO_THREAD`:
    /// none)
    thread: u16,
    /// the lock the thread held (`Checker::locks`, from 1; 0: none)
    lock: u16,
    pc: u32,
    /// `sync` instructions the thread had executed before it
    syncs: u32,
    value: u32,
}

/// [`Acc::thread`] of no access.
const NO_THREAD: u16 = u16::MAX;

impl Acc {
    const EMPTY: Acc = Acc {
        lock: 0,
        thread: NO_THREAD,
        pc: 0,
        syncs: 0,
        value: 0,
    };
}

/// The last access of one kind, and the last by a thread other than its.
#[derive(Debug, Clone, Copy)]
struct Pair {
    last: Acc,
    other: Acc,
}

impl Pair {
    const EMPTY: Pair = Pair {
        last: Acc::EMPTY,
        other: Acc::EMPTY,
    };

    fn push(&mut self, a: Acc) {
        if self.last.thread != a.thread {
            self.other = self.last;
        }
        self.last = a;
    }

    /// The most recent access by a thread other than `t`, if any.
    fn not_by(&self, t: u16) -> Option<Acc> {
        if self.last.thread != NO_THREAD && self.last.thread != t {
            Some(self.last)
        } else if self.other.thread != NO_THREAD && self.other.thread != t {
            Some(self.other)
        } else {
            None
        }
    }
}

/// A word's accesses in the current epoch of the current group.
#[derive(Debug, Clone, Copy)]
struct WordState {
    /// the group (sequence number) this state belongs to (dense TGSM shadow)
    gen: u32,
    epoch: u32,
    /// some thread of the group wrote it (any epoch)
    written: bool,
    writes: Pair,
    reads: Pair,
    atomics: Pair,
}

impl WordState {
    const EMPTY: WordState = WordState {
        gen: NONE,
        epoch: 0,
        written: false,
        writes: Pair::EMPTY,
        reads: Pair::EMPTY,
        atomics: Pair::EMPTY,
    };

    fn enter_epoch(&mut self, epoch: u32) {
        if self.epoch != epoch {
            self.epoch = epoch;
            self.writes = Pair::EMPTY;
            self.reads = Pair::EMPTY;
            self.atomics = Pair::EMPTY;
        }
    }
}

/// A UAV word's state within the current group.
#[derive(Debug, Clone, Copy)]
struct UavLocal {
    /// the UAV slot and the word
    slot: u32,
    word: u32,
    ws: WordState,
    /// the group's last plain write, with the writer's `sync_uglobal` count then
    last_write: Option<(Acc, u32)>,
    /// the group's first plain read, with the reader's `sync_uglobal` count then
    first_read: Option<(Acc, u32)>,
    /// the group's first atomic
    first_atomic: Option<Acc>,
    xg_read: Option<XgRead>,
    /// an atomic-versus-plain race with an earlier group was noted
    xg_atomic: bool,
    /// a spin read of a word an earlier group changed was noted
    xg_spin: bool,
}

/// Per-thread state within the current group.
#[derive(Debug, Clone, Copy, Default)]
struct ThreadState {
    /// `sync` instructions executed
    syncs: u32,
    /// `sync_uglobal*` instructions executed
    uglobal: u32,
    /// performed a UAV atomic (or counter operation), or passed a barrier
    /// with a UAV fence after its group performed one: later groups'
    /// published accesses are visible to it
    acquired: bool,
    /// `uglobal` at its last release: its own UAV atomic, or the first UAV
    /// atomic of its group after a barrier it passed (then `uglobal` at
    /// that barrier): an access before that many `sync_uglobal`s is
    /// published
    released: u32,
    /// `uglobal` when it waited at the group's last barrier
    uglobal_at_barrier: u32,
    /// key of the thread's last plain UAV read (`NO_KEY`: none)
    last_read: u64,
    /// key of the thread's last UAV atomic that returned the word's old
    /// value (`NO_KEY`: none): a plain access after it to the same word is
    /// ordered after every atomic on the word that came before it, which
    /// the returned value lets the thread know (the last group's reset of
    /// a counter); after an atomic that returns nothing, it is not
    last_atomic: u64,
    /// the thread's current spin: the spin read's pc and word key, how
    /// many times in a row, and the group's write count at the last one
    spin: (u32, u64, u32, u64),
    /// the lock it holds (`Checker::locks`, from 1; 0: none)
    lock: u16,
    /// the word key of its last lock-acquiring compare-exchange
    cas_key: u64,
}

impl ThreadState {
    /// The thread performed a UAV atomic (or counter operation): it
    /// acquires what earlier groups published, and releases what it fenced
    /// before it.
    fn atomic(&mut self) {
        self.acquired = true;
        self.released = self.uglobal;
    }
}

const NO_KEY: u64 = u64::MAX;

/// One side of a hit: an access by a thread of some group (sequence number).
#[derive(Debug, Clone, Copy)]
struct Side {
    group: u32,
    thread: u32,
    pc: u32,
    op: AccessOp,
    value: Option<u32>,
}

/// A within-group conflict: (kind, the earlier access, its op, the reader
/// whose later CAS on the word would excuse it, benign).
type Conflict = (FindingKind, Acc, AccessOp, Option<u32>, bool);

/// An occurrence, before deduplication.
#[derive(Debug, Clone, Copy)]
struct Hit {
    kind: FindingKind,
    space: Option<Space>,
    /// the shadow word, for the byte offset
    word: Option<u32>,
    /// the byte address, when there is no word (out of bounds)
    byte_offset: Option<u64>,
    a: Side,
    b: Option<Side>,
    benign: bool,
    /// for an access out of bounds of a structured view or region: the
    /// structure index and byte offset it asked for
    at: Option<(u32, u32)>,
    /// [`Finding::note`], an index into `Checker::notes`
    note: Option<u32>,
    /// for `cross-group-visibility`: the protocol's missing step
    gap: Gap,
}

/// FxHash (rustc's hasher): the shadow maps' keys are small integers.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// What the checker knows about one instruction.
#[derive(Debug, Clone, Default)]
struct SiteInfo {
    dword: u32,
    text: String,
    line: Option<u32>,
    hlsl: Option<String>,
    /// for `sync`: (`_t`, orders TGSM, orders UAVs, `_uglobal`)
    sync: Option<(bool, bool, bool, bool)>,
    /// an atomic that returns the word's old value (`imm_atomic_*`)
    returns: bool,
    /// a compare-exchange against a literal: a lock's acquire when it
    /// succeeds
    lock_cas: bool,
    /// an atomic that changes its word whatever it holds
    /// ([`loops::makes_progress`])
    progress: bool,
}

/// A bound buffer UAV, as the checker needs it.
#[derive(Debug, Clone, Copy)]
struct UavInfo {
    kind: ViewKind,
    /// bytes per word of the shadow: 4, or a typed element's size
    unit: u64,
    /// the view's size in bytes
    size_bytes: u64,
}

/// The concurrency checker of one program: attach it to a
/// [`crate::exec::GroupExecutor`] (or use `sim_sched::Mode::Checked`),
/// run dispatches, read [`Checker::findings`]. See the module documentation
/// for the rules.
#[derive(Debug, Default)]
pub struct Checker {
    opts: CheckOptions,
    sites: Vec<SiteInfo>,
    thread_group: [u32; 3],
    threads_per_group: usize,
    regions: Vec<Option<TgsmRegion>>,
    /// `_glc`, by UAV slot
    glc: Vec<bool>,
    /// resource names by slot text (`u0`)
    names: HashMap<String, String>,
    /// where the dispatches run now come from ([`Checker::set_step`])
    step: Option<String>,

    // -- per dispatch
    dispatches: usize,
    groups: [u32; 3],
    uavs: Vec<Option<UavInfo>>,
    /// the bound buffer SRVs (bounds only)
    srvs: Vec<Option<UavInfo>>,
    /// the bound texture UAVs' texels, by slot (a finding names a texel by
    /// its address)
    texels: Vec<Option<sim_mem::UavTexels>>,
    /// the name of the listing the sites' lines are of
    listing_name: Option<String>,
    /// per UAV slot, this dispatch's first counter increment and decrement
    counters: Vec<(u32, Option<Side>, Option<Side>)>,
    xg: Vec<XShadow>,

    // -- per group
    warp_width: usize,
    seq: u32,
    gen: u32,
    tgsm_epoch: u32,
    uav_epoch: u32,
    /// a thread of the current group performed a UAV atomic (or counter
    /// operation): a barrier with a UAV fence then carries the acquisition
    /// to every thread (`ThreadState::acquired`)
    group_atomic: bool,
    /// the group passed a barrier and has done no UAV atomic since: the
    /// next one releases what each thread had fenced at the barrier
    /// (`ThreadState::released`)
    release_pending: bool,
    threads: Vec<ThreadState>,
    tgsm: Vec<WordState>,
    /// the UAV words the group touched
    locals: Vec<UavLocal>,
    /// plain reads racing only with atomics, by (reader, space and word key)
    pending: FxMap<(u32, u64), Hit>,
    /// (thread, key) pairs that executed `imm_atomic_cmp_exch`, or
    /// checked a held-back read with a returning atomic in its loop
    validated: FxMap<(u32, u64), ()>,
    /// spin reads of words earlier groups changed, by (reader, key), held
    /// back until the group ends ([`Checker::earlier_group_wait`])
    waits: FxMap<(u32, u64), Hit>,
    /// the group's ticket: the key of its first returning UAV atomic that
    /// is no spin read (`NO_KEY`: none)
    ticket: u64,
    /// each finished group's ticket, by sequence number (`NO_KEY`: none)
    tickets: Vec<u64>,
    /// (spin read pc, key): a thread's own atomic in the read's loop moved
    /// the word ([`Checker::own_progress`])
    self_moved: FxMap<(u32, u64), ()>,
    /// (plain read pc, key): a guard a returning atomic of its thread
    /// checked in its loop ([`Checker::own_progress`])
    checked_guards: FxMap<(u32, u64), ()>,

    /// the group's plain writes and atomics (spin reads' atomics aside), for
    /// the forward-progress rule
    group_writes: u64,
    /// per pc, whether it is a spin read (`crate::analysis::spin`)
    spin: Vec<bool>,
    /// per pc, whether it is a plain load of a resource some
    /// `imm_atomic_cmp_exch` of the program targets ([`Prepared::guess`])
    guess: Vec<bool>,
    /// the UAVs the program accesses by whole structures
    /// ([`screen::uav_granules`])
    granules: Vec<(u32, u32)>,
    /// a group's threads' states when it begins
    fresh_threads: Vec<ThreadState>,
    /// the UAVs the program touches only with atomics
    /// ([`screen::atomic_only_uavs`])
    atomic_only: Vec<u32>,
    /// the program's loops: (`loop` pc, `endloop` pc)
    loops: Vec<(u32, u32)>,
    /// the group's locks: the word key of each (a thread's lock `i`
    /// is `locks[i - 1]`)
    locks: Vec<u64>,
    /// a forward-progress hang was found: the executor stops the dispatch
    stalled: bool,
    /// the pass of a dispatch checked in two (`screen`)
    pass: screen::Pass,
    screen: screen::Screen,

    // -- results
    /// the texts of findings' notes ([`Finding::note`])
    notes: Vec<String>,
    findings: Vec<Finding>,
    /// by (kind, space, pc, pc): the finding's index in `findings`, or
    /// `SUPPRESSED` and its index in `suppressed`
    index: FxMap<(FindingKind, u32, u32, u32), usize>,
    /// the rules that suppress findings ([`Checker::set_allow`])
    allow: Vec<Allow>,
    /// per pc, the kinds its HLSL line's marker suppresses (`allow`)
    marks: Vec<u32>,
    marker_problems: Vec<String>,
    suppressed: Vec<Suppressed>,
}

/// [`Checker::index`]'s mark of a suppressed finding.
const SUPPRESSED: usize = 1 << (usize::BITS - 1);

fn key(space: Space, word: u32) -> u64 {
    (space.id() as u64) << 32 | word as u64
}

/// The register number of a [`key`]'s space (its `u#`, `g#` or `t#`).
fn key_slot(k: u64) -> u32 {
    (k >> 32) as u32 & 0x3fff_ffff
}

impl Checker {
    /// A checker for `program` performing the checks `options` selects. It
    /// knows each instruction's disassembly, and the HLSL names of the UAVs
    /// from the program's reflection (RDEF or listing header).
    pub fn new(program: &Program, options: CheckOptions) -> Self {
        let decoded = &program.decoded;
        let by_offset: HashMap<u32, &Instruction> = decoded
            .instructions
            .iter()
            .filter(|i| i.opcode.info().class != Class::Decl)
            .map(|i| (i.offset, i))
            .collect();
        let mut texts: HashMap<u32, String> = HashMap::new();
        let sites = program
            .code
            .iter()
            .map(|op| {
                let ins = by_offset.get(&op.token);
                let text = texts
                    .entry(op.token)
                    .or_insert_with(|| {
                        ins.map_or_else(String::new, |i| {
                            crate::front::disasm::instruction_text(decoded, i)
                        })
                    })
                    .clone();
                let sync = ins.filter(|i| i.opcode == Opcode::Sync).map(|i| {
                    let c = i.controls();
                    (c & 1 != 0, c & 2 != 0, c & 12 != 0, c & 8 != 0)
                });
                let hlsl = program
                    .source_map
                    .as_ref()
                    .and_then(|m| Some(m.describe(m.line_at(op.token)?)));
                let returns = matches!(op.kind, OpKind::Atomic { ret: Some(_), .. });
                let lock_cas = matches!(
                    op.kind,
                    OpKind::Atomic {
                        kind: AtomicKind::CmpExch,
                        a: Src {
                            kind: SrcKind::Imm(_),
                            ..
                        },
                        ..
                    }
                );
                SiteInfo {
                    dword: op.token,
                    text,
                    line: None,
                    hlsl,
                    sync,
                    returns,
                    lock_cas,
                    progress: loops::makes_progress(op),
                }
            })
            .collect();
        let mut glc = Vec::new();
        // (every UAV kind: buffers, and textures of every dimension)
        let coherent = program
            .uavs
            .iter()
            .map(|u| (u.slot, u.globally_coherent))
            .chain(
                program
                    .uav_textures
                    .iter()
                    .map(|t| (t.slot, t.globally_coherent)),
            );
        for (slot, coherent) in coherent {
            if glc.len() <= slot as usize {
                glc.resize(slot as usize + 1, false);
            }
            glc[slot as usize] = coherent;
        }
        let (marks, marker_problems) = allow::source_marks(program);
        let mut names = HashMap::new();
        if let Some(r) = &program.reflection {
            for b in &r.bindings {
                let prefix = b.input_type.register_prefix();
                if matches!(prefix, "u" | "t") && b.bind_count == 1 {
                    names.insert(format!("{prefix}{}", b.bind_point), b.name.clone());
                }
            }
        }
        names.extend(findings::groupshared_names(program));
        Self {
            opts: options,
            sites,
            thread_group: program.thread_group,
            threads_per_group: program.threads_per_group() as usize,
            regions: program.tgsm_regions(),
            glc,
            names,
            marks,
            marker_problems,
            step: None,
            spin: crate::analysis::spin::spin_reads(program.body()),
            guess: screen::guess_loads(&program.code),
            granules: screen::uav_granules(&program.code),
            atomic_only: screen::atomic_only_uavs(&program.code, &program.tex_ops),
            fresh_threads: Vec::new(),
            loops: program
                .code
                .iter()
                .enumerate()
                .filter_map(|(pc, op)| match op.kind {
                    OpKind::Loop { end_pc } => Some((pc as u32, end_pc)),
                    _ => None,
                })
                .collect(),
            ..Default::default()
        }
    }

    /// Whether a forward-progress hang was found in the current dispatch
    /// ([`FindingKind::ForwardProgress`]): the executor then stops it
    /// (`StopReason::NoProgress`).
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// Say where the dispatches that follow come from (a job's step and
    /// shader, `steps[3] (shader 'sort')`): each finding made from now on
    /// names it ([`Finding::step`]), for a checker that several dispatches
    /// of a pipeline share.
    pub fn set_step(&mut self, step: &str) {
        self.step = Some(step.to_string());
    }

    /// Name the resource in `slot` (`u0`, `g1`) in reports, replacing the
    /// reflection's name.
    pub fn set_resource_name(&mut self, slot: &str, name: &str) {
        self.names
            .insert(slot.to_ascii_lowercase(), name.to_string());
    }

    /// The options in force.
    pub fn options(&self) -> CheckOptions {
        self.opts
    }

    /// The findings so far, in the order first seen.
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The findings, sorted by severity, kind and instruction.
    pub fn into_findings(self) -> Vec<Finding> {
        let mut f = self.findings;
        f.sort_by_key(|f| {
            (
                f.severity(),
                f.kind,
                f.first.site.pc,
                f.second.as_ref().map(|s| s.site.pc),
            )
        });
        f
    }

    /// Whether any finding is an error (not a warning).
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity() == Severity::Error)
    }

    /// Start a dispatch of `groups` against `bindings`: the cross-group
    /// shadow starts empty (the end of a dispatch orders everything, FS
    /// §5.3.9).
    pub fn begin_dispatch(&mut self, bindings: &Bindings<'_>, groups: [u32; 3]) {
        self.groups = groups;
        self.stalled = false;
        self.uavs = bindings
            .uavs
            .iter()
            .map(|v| {
                v.map(|v| UavInfo {
                    kind: v.kind(),
                    unit: match v.kind() {
                        ViewKind::Typed { format } => format.size_bytes() as u64,
                        _ => 4,
                    },
                    size_bytes: v.size_bytes(),
                })
            })
            .collect();
        self.srvs = bindings
            .srvs
            .iter()
            .map(|v| {
                v.map(|v| UavInfo {
                    kind: v.kind(),
                    unit: 4,
                    size_bytes: v.size_bytes(),
                })
            })
            .collect();
        self.counters.clear();
        // texture UAVs are shadowed per texel (their words are elements of
        // the texture's storage, `TextureView::uav_element`)
        self.texels = vec![None; bindings.uav_textures.len()];
        for (slot, t) in bindings.uav_textures.iter().enumerate() {
            if let Some(t) = t {
                self.texels[slot] = Some(t.uav_texels());
                if self.uavs.len() <= slot {
                    self.uavs.resize(slot + 1, None);
                }
                self.uavs[slot] = Some(UavInfo {
                    kind: ViewKind::Typed { format: t.format() },
                    unit: t.format().size_bytes() as u64,
                    size_bytes: 0,
                });
            }
        }
        self.xg = vec![XShadow::default(); self.uavs.len()];
        self.tickets.clear();
        self.self_moved.clear();
        self.checked_guards.clear();
    }

    /// End the dispatch begun by [`Checker::begin_dispatch`].
    pub fn end_dispatch(&mut self) {
        for (slot, inc, dec) in std::mem::take(&mut self.counters) {
            if let (Some(a), Some(b)) = (inc, dec) {
                self.report(Hit {
                    kind: FindingKind::CounterIncrementAndDecrement,
                    space: Some(Space::Uav(slot)),
                    word: None,
                    byte_offset: None,
                    a,
                    b: Some(b),
                    benign: false,
                    at: None,
                    note: None,
                    gap: Gap::None,
                });
            }
        }
        self.xg = Vec::new();
        self.pass = screen::Pass::Full;
        self.screen = screen::Screen::default();
        self.dispatches += 1;
    }

    // -- hooks called by the executor ----------------------------------

    /// A group starts; `seq` is its linear index in the dispatch.
    pub(crate) fn begin_group(&mut self, group: [u32; 3], warp_width: usize) {
        let [x, y, _] = self.groups;
        self.seq = group[0]
            .wrapping_add(group[1].wrapping_mul(x))
            .wrapping_add(group[2].wrapping_mul(x.wrapping_mul(y)));
        self.warp_width = warp_width.max(1);
        self.gen = self.gen.wrapping_add(1);
        if self.gen == NONE {
            self.gen = 0;
            self.tgsm.fill(WordState::EMPTY);
        }
        self.tgsm_epoch = 0;
        self.uav_epoch = 0;
        self.group_atomic = false;
        self.release_pending = false;
        // (a copy of a group's fresh states: one memcpy)
        let fresh = ThreadState {
            last_read: NO_KEY,
            last_atomic: NO_KEY,
            spin: (u32::MAX, NO_KEY, 0, 0),
            ..Default::default()
        };
        if self.fresh_threads.len() != self.threads_per_group {
            self.fresh_threads = vec![fresh; self.threads_per_group];
        }
        self.threads.clear();
        self.threads.extend_from_slice(&self.fresh_threads);
        let words = self
            .regions
            .iter()
            .flatten()
            .map(|r| r.base_word + r.size_bytes as usize / 4)
            .max()
            .unwrap_or(0);
        if self.tgsm.len() != words {
            self.tgsm = vec![WordState::EMPTY; words];
        }
        self.locals.clear();
        self.pending.clear();
        self.validated.clear();
        self.waits.clear();
        self.ticket = NO_KEY;
        self.group_writes = 0;
        self.locks.clear();
        if self.pass == screen::Pass::Screen {
            self.screen_group();
        }
    }

    /// What [`Checker::access_prepared`] needs to know of one memory
    /// instruction's accesses to `space`, looked up once per instruction.
    #[inline]
    pub(crate) fn prepare(&self, pc: u32, space: Space) -> Prepared {
        Prepared {
            pc,
            space,
            layout: match self.opts.bounds {
                true => self.layout(space).map(|(stride, size)| {
                    (stride, size.checked_div(u64::from(stride)).unwrap_or(0))
                }),
                false => None,
            },
            spin: self.spin.get(pc as usize) == Some(&true),
            guess: self.guess.get(pc as usize) == Some(&true),
        }
    }

    /// Whether this is the screening pass of two-pass checking: the
    /// executor then gives an access in bounds with no bounds finding
    /// straight to [`Checker::screen_access`] (nothing for an SRV).
    #[inline(always)]
    pub(crate) fn screening(&self) -> bool {
        self.pass == screen::Pass::Screen
    }

    /// A memory access by thread `thread` (`SV_GroupIndex`) of the
    /// instruction [`Checker::prepare`]d: word `word` of its space (`None`:
    /// out of bounds), at address operands `addr` = (byte offset or index,
    /// structure byte offset, dword k), with the value stored.
    #[inline]
    pub(crate) fn access_prepared(
        &mut self,
        prep: &Prepared,
        op: MemOp,
        thread: u32,
        word: Option<usize>,
        addr: (u32, u32, u32),
        value: u32,
    ) {
        let (pc, space) = (prep.pc, prep.space);
        let (misaligned, past_stride) = prep.bounds_flags(addr);
        if misaligned || past_stride || (word.is_none() && self.opts.bounds) {
            self.bounds_hit(
                pc,
                space,
                op,
                thread,
                word,
                addr,
                value,
                misaligned,
                past_stride,
            );
        }
        let Some(word) = word else {
            return;
        };
        match self.pass {
            screen::Pass::Screen => self.screen_access(prep, op, thread, word),
            _ => self.access_word(prep, op, thread, word, value),
        }
    }

    /// [`Checker::access_prepared`]'s access to a word in bounds, in the
    /// full or the exact pass.
    #[inline(never)]
    fn access_word(&mut self, prep: &Prepared, op: MemOp, thread: u32, word: usize, value: u32) {
        let (pc, space) = (prep.pc, prep.space);
        let Some(ts) = self.threads.get(thread as usize).copied() else {
            return;
        };
        let acc = Acc {
            thread: thread as u16,
            pc,
            syncs: ts.syncs,
            value,
            lock: ts.lock,
        };
        let k = key(space, word as u32);
        if op == (MemOp::Atomic { cas: true }) {
            self.validated.insert((thread, k), ());
            // a lock's acquire, if it succeeds (`Checker::cas_outcome`)
            if self.sites.get(pc as usize).is_some_and(|s| s.lock_cas) {
                self.threads[thread as usize].cas_key = k;
            }
        } else if op != MemOp::Read
            && ts.lock != 0
            && self.locks.get(ts.lock as usize - 1) == Some(&k)
        {
            // a write or atomic to the lock it holds: the release (after
            // this access, which the lock does not cover)
            self.threads[thread as usize].lock = 0;
        }
        let spin = prep.spin;
        if op != MemOp::Read && !spin {
            self.group_writes += 1;
        }
        if spin && self.opts.barriers && !matches!(space, Space::Srv(_)) {
            self.spin_read(space, word as u32, op, acc);
        }
        if self.pass == screen::Pass::Replay && !self.screen.suspect(space, word as u32) {
            // no finding can involve the word: only its thread's state
            if let Space::Uav(_) = space {
                self.uav_thread(op, acc, k);
            }
            return;
        }
        match space {
            Space::Tgsm(_) => self.tgsm_access(space, word, op, acc),
            Space::Uav(slot) => self.uav_access(slot, word as u32, op, acc, ts),
            Space::Srv(_) => {}
        }
    }

    /// The bounds findings of one access ([`Checker::access_prepared`]):
    /// a misaligned address, a structure's byte offset past its stride, a
    /// word out of bounds (`word` None).
    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn bounds_hit(
        &mut self,
        pc: u32,
        space: Space,
        op: MemOp,
        thread: u32,
        word: Option<usize>,
        addr: (u32, u32, u32),
        value: u32,
        misaligned: bool,
        past_stride: bool,
    ) {
        if misaligned {
            // the address as given, its low bits kept
            let (x, y, _) = addr;
            let byte = self
                .byte_address(space, addr)
                .map(|b| match self.layout(space) {
                    Some((0, _)) => b + u64::from(x & 3),
                    _ => b + u64::from(y & 3),
                });
            self.report(Hit {
                kind: FindingKind::Misaligned,
                space: Some(space),
                word: None,
                byte_offset: byte,
                a: self.side(thread, pc, op, value),
                b: None,
                benign: false,
                at: None,
                note: None,
                gap: Gap::None,
            });
        }
        if past_stride {
            let byte = self.byte_address(space, addr);
            self.report(Hit {
                kind: match space {
                    Space::Tgsm(_) => FindingKind::TgsmOutOfBounds,
                    _ => FindingKind::StructureOutOfBounds,
                },
                space: Some(space),
                word: None,
                byte_offset: byte,
                a: self.side(thread, pc, op, value),
                b: None,
                benign: false,
                at: Some((addr.0, (addr.1 & !3) + 4 * addr.2)),
                note: None,
                gap: Gap::None,
            });
        }
        if word.is_none() && !past_stride {
            let byte = self.byte_address(space, addr);
            self.report(Hit {
                kind: match space {
                    Space::Tgsm(_) => FindingKind::TgsmOutOfBounds,
                    _ => FindingKind::OutOfBounds,
                },
                space: Some(space),
                word: None,
                byte_offset: byte,
                a: self.side(thread, pc, op, value),
                b: None,
                benign: false,
                at: Some((addr.0, (addr.1 & !3) + 4 * addr.2)),
                note: None,
                gap: Gap::None,
            });
        }
    }

    /// The bound view of a UAV or SRV space (None for TGSM or an unbound
    /// slot).
    fn view_info(&self, space: Space) -> Option<UavInfo> {
        let infos = match space {
            Space::Tgsm(_) => return None,
            Space::Uav(_) => &self.uavs,
            Space::Srv(_) => &self.srvs,
        };
        infos.get(space.slot() as usize).copied().flatten()
    }

    /// The layout of `space` for the bounds rules: (structure stride, 0 for
    /// raw; size in bytes), None for a typed view or an unbound slot.
    fn layout(&self, space: Space) -> Option<(u32, u64)> {
        if let Space::Tgsm(g) = space {
            let r = self.regions.get(g as usize).copied().flatten()?;
            return Some((r.stride, u64::from(r.size_bytes)));
        }
        match self.view_info(space)? {
            UavInfo {
                kind: ViewKind::Raw,
                size_bytes,
                ..
            } => Some((0, size_bytes)),
            UavInfo {
                kind: ViewKind::Structured { stride },
                size_bytes,
                ..
            } => Some((stride, size_bytes)),
            _ => None,
        }
    }

    /// `imm_atomic_alloc` (`alloc`) or `imm_atomic_consume` at `pc` on the
    /// counter of UAV `slot`, by the active lanes of a warp: an atomic, so
    /// each lane acquires and releases; and noted for
    /// [`FindingKind::CounterIncrementAndDecrement`] at the dispatch's end.
    pub(crate) fn counter(
        &mut self,
        pc: u32,
        slot: u32,
        alloc: bool,
        active: &[u32],
        flat: &[u32],
    ) {
        for (&a, &f) in active.iter().zip(flat) {
            if a != 0 {
                if let Some(t) = self.threads.get_mut(f as usize) {
                    t.atomic();
                }
            }
        }
        let Some(l) = active.iter().position(|&a| a != 0) else {
            return;
        };
        self.released_by_atomic();
        let side = self.side(flat[l], pc, MemOp::Atomic { cas: false }, 0);
        let i = match self.counters.iter().position(|c| c.0 == slot) {
            Some(i) => i,
            None => {
                self.counters.push((slot, None, None));
                self.counters.len() - 1
            }
        };
        let c = &mut self.counters[i];
        let at = if alloc { &mut c.1 } else { &mut c.2 };
        if at.is_none() {
            *at = Some(side);
        }
    }

    fn tgsm_access(&mut self, space: Space, word: usize, op: MemOp, acc: Acc) {
        let (gen, epoch, opts) = (self.gen, self.tgsm_epoch, self.opts);
        let Some(ws) = self.tgsm.get_mut(word) else {
            return;
        };
        if ws.gen != gen {
            *ws = WordState::EMPTY;
            ws.gen = gen;
        }
        let uninit = opts.uninitialised && !ws.written && op != MemOp::Write;
        if op != MemOp::Read {
            ws.written = true;
        }
        ws.enter_epoch(epoch);
        let found = if opts.races {
            races(ws, op, acc)
        } else {
            [None; 3]
        };
        if uninit {
            self.report(Hit {
                kind: FindingKind::UninitialisedRead,
                space: Some(space),
                word: Some(word as u32),
                byte_offset: None,
                a: self.side(u32::from(acc.thread), acc.pc, op, acc.value),
                b: None,
                benign: false,
                at: None,
                note: None,
                gap: Gap::None,
            });
        }
        if found.iter().any(Option::is_some) {
            self.conflicts(found, space, word as u32, op, acc);
        }
    }

    fn uav_access(&mut self, slot: u32, word: u32, op: MemOp, acc: Acc, ts: ThreadState) {
        if !self.opts.races {
            self.uav_thread(op, acc, key(Space::Uav(slot), word));
            return;
        }
        let (gen, epoch, seq) = (self.gen, self.uav_epoch, self.seq);
        let Some(shadow) = self.xg.get_mut(slot as usize) else {
            return;
        };
        let x = shadow.get_mut(word);
        if x.gen != gen {
            x.gen = gen;
            x.local = self.locals.len() as u32;
            self.locals.push(UavLocal {
                slot,
                word,
                ws: WordState::EMPTY,
                last_write: None,
                first_read: None,
                first_atomic: None,
                xg_read: None,
                xg_atomic: false,
                xg_spin: false,
            });
        }
        let (earlier_write, earlier_read) = (x.write.get(), x.read.get());
        let earlier_atomic = x.atomic.get();
        // a spin read of a word an earlier group changed: the wait ended
        // only because that group happened to run first
        let spin = self.opts.barriers && self.spin.get(acc.pc as usize) == Some(&true);
        let waited_on = earlier_atomic
            .map(|a| (a, AccessOp::Atomic))
            .or(earlier_write.map(|w| (w, AccessOp::Write)))
            .filter(|_| spin);
        let u = &mut self.locals[x.local as usize];
        u.ws.enter_epoch(epoch);
        let found = races(&mut u.ws, op, acc);
        let k = key(Space::Uav(slot), word);
        let mut xhits: [Option<Hit>; 3] = [None; 3];
        // across groups: plain accesses against earlier groups' plain ones
        let safe = |a: &XAcc| a.published() && ts.acquired;
        let me = |op: AccessOp| Side {
            group: seq,
            thread: u32::from(acc.thread),
            pc: acc.pc,
            op,
            value: (op == AccessOp::Write).then_some(acc.value),
        };
        let them = |a: &XAcc, op: AccessOp| Side {
            group: a.group,
            thread: a.thread as u32,
            pc: a.pc,
            op,
            value: (op == AccessOp::Write).then_some(a.value),
        };
        let atomic_vs_plain = |a: Side, b: Side| Hit {
            kind: FindingKind::CrossGroupAtomicVsPlain,
            space: Some(Space::Uav(slot)),
            word: Some(word),
            byte_offset: None,
            a,
            b: Some(b),
            benign: false,
            at: None,
            note: None,
            gap: Gap::None,
        };
        // and against earlier groups' atomics, once per word and group: not
        // after the thread's own returning atomic on the word (ordered
        // after them)
        let wait = waited_on.filter(|_| !u.xg_spin);
        u.xg_spin |= wait.is_some();
        if !u.xg_atomic {
            let after_own = ts.last_atomic == k;
            let earlier = match op {
                MemOp::Read | MemOp::Write if !after_own => {
                    earlier_atomic.map(|x| (them(&x, AccessOp::Atomic), me(AccessOp::from(op))))
                }
                MemOp::Atomic { .. } => earlier_write
                    .filter(|w| !safe(w))
                    .map(|w| (them(&w, AccessOp::Write), me(AccessOp::Atomic)))
                    .or_else(|| {
                        earlier_read.map(|r| (them(&r, AccessOp::Read), me(AccessOp::Atomic)))
                    }),
                _ => None,
            };
            if let Some((a, b)) = earlier {
                u.xg_atomic = true;
                let hit = atomic_vs_plain(a, b);
                if op == MemOp::Read {
                    // a compare-exchange loop's guess: its CAS excuses it
                    self.pending
                        .entry((u32::from(acc.thread), k))
                        .or_insert(hit);
                } else {
                    xhits[2] = Some(hit);
                }
            }
        }
        match op {
            MemOp::Read => {
                // the group's own earlier write comes first; one note per word
                if u.last_write.is_none() && u.xg_read.is_none() {
                    if let Some(w) = earlier_write.filter(|w| !safe(w)) {
                        u.xg_read = Some(XgRead {
                            reader: acc,
                            writer: w,
                            rmw: false,
                        });
                    }
                }
                if u.first_read.is_none() {
                    u.first_read = Some((acc, ts.uglobal));
                }
            }
            MemOp::Write => {
                let rmw = ts.last_read == k;
                if let Some(p) = u.xg_read.as_mut().filter(|p| p.reader.thread == acc.thread) {
                    p.rmw = true;
                }
                let me = me(AccessOp::Write);
                if let Some(w) = earlier_write.filter(|w| !safe(w) && !rmw) {
                    let benign = w.value == acc.value;
                    xhits[0] = Some(Hit {
                        kind: if benign {
                            FindingKind::Benign
                        } else {
                            FindingKind::Waw
                        },
                        space: Some(Space::Uav(slot)),
                        word: Some(word),
                        byte_offset: None,
                        a: them(&w, AccessOp::Write),
                        b: Some(me),
                        benign,
                        at: None,
                        note: None,
                        gap: Gap::None,
                    });
                }
                if let Some(r) = earlier_read.filter(|r| !safe(r)) {
                    xhits[1] = Some(Hit {
                        kind: if rmw {
                            FindingKind::CrossGroupRmw
                        } else {
                            FindingKind::CrossGroupVisibility
                        },
                        space: Some(Space::Uav(slot)),
                        word: Some(word),
                        byte_offset: None,
                        a: them(&r, AccessOp::Read),
                        b: Some(me),
                        benign: false,
                        at: None,
                        note: None,
                        gap: if rmw { Gap::None } else { r.visibility_gap() },
                    });
                }
                u.last_write = Some((acc, ts.uglobal));
            }
            MemOp::Atomic { .. } => {
                if u.first_atomic.is_none() {
                    u.first_atomic = Some(acc);
                }
            }
        }
        self.uav_thread(op, acc, k);
        if found.iter().any(Option::is_some) {
            self.conflicts(found, Space::Uav(slot), word, op, acc);
        }
        for h in xhits.into_iter().flatten() {
            self.report(h);
        }
        if let Some((e, e_op)) = wait {
            self.earlier_group_wait(slot, word, them(&e, e_op), me(AccessOp::from(op)));
        }
    }

    /// Report (or, for a read racing only with atomics, hold back) the
    /// within-group conflicts [`races`] found for `acc`.
    #[cold]
    fn conflicts(
        &mut self,
        found: [Option<Conflict>; 3],
        space: Space,
        word: u32,
        op: MemOp,
        acc: Acc,
    ) {
        for (kind, x, xop, reader, benign) in found.into_iter().flatten() {
            let this = AccessOp::from(op);
            // across a loop's back edge the access later in the program
            // came first: the kind follows that order
            let carried = || self.loop_carried(space, x.pc, acc.pc).is_some();
            let kind = match kind {
                FindingKind::Raw | FindingKind::War if carried() => {
                    let (first, second) = match x.pc > acc.pc {
                        true => (xop, this),
                        false => (this, xop),
                    };
                    match (first, second) {
                        (AccessOp::Read, _) => FindingKind::War,
                        (_, AccessOp::Read) => FindingKind::Raw,
                        _ => kind,
                    }
                }
                _ => kind,
            };
            let hit = Hit {
                kind,
                space: Some(space),
                word: Some(word),
                byte_offset: None,
                a: Side {
                    group: self.seq,
                    thread: u32::from(x.thread),
                    pc: x.pc,
                    op: xop,
                    value: (xop == AccessOp::Write).then_some(x.value),
                },
                b: Some(Side {
                    group: self.seq,
                    thread: u32::from(acc.thread),
                    pc: acc.pc,
                    op: this,
                    value: (this == AccessOp::Write).then_some(acc.value),
                }),
                benign,
                at: None,
                note: None,
                gap: Gap::None,
            };
            match reader {
                // a read racing with an atomic waits: its thread's CAS may excuse it
                Some(r) => {
                    self.pending.entry((r, key(space, word))).or_insert(hit);
                }
                None => self.report(hit),
            }
        }
    }

    /// A `sync` at `pc` executed by the active lanes of a warp.
    pub(crate) fn sync(&mut self, pc: u32, active: &[u32], exists: &[u32], flat: &[u32]) {
        let (threads, _, _, uglobal) = self
            .sites
            .get(pc as usize)
            .and_then(|s| s.sync)
            .unwrap_or((false, false, false, false));
        let mut arrived = None;
        let mut missing = None;
        for l in 0..active.len() {
            let f = flat[l];
            if active[l] != 0 {
                arrived.get_or_insert(f);
                if let Some(t) = self.threads.get_mut(f as usize) {
                    t.syncs = t.syncs.wrapping_add(1);
                    if uglobal {
                        t.uglobal = t.uglobal.wrapping_add(1);
                    }
                }
            } else if exists[l] != 0 {
                missing.get_or_insert(f);
            }
        }
        if threads && self.opts.barriers {
            if let (Some(a), Some(m)) = (arrived, missing) {
                self.report(Hit {
                    kind: FindingKind::DivergentBarrier,
                    space: None,
                    word: None,
                    byte_offset: None,
                    a: self.side(a, pc, AccessOp::Barrier, 0),
                    b: Some(Side {
                        group: self.seq,
                        thread: m,
                        pc,
                        op: AccessOp::Barrier,
                        value: None,
                    }),
                    benign: false,
                    at: None,
                    note: None,
                    gap: Gap::None,
                });
            }
        }
    }

    /// Every unfinished warp of the group has parked or finished: `warps[i]`
    /// is the pc of the barrier warp i waits at, or `None` when it finished.
    /// Checks that all wait at one barrier and none finished, then advances
    /// the epochs the barrier's fences cover.
    pub(crate) fn barrier_round(&mut self, warps: &[Option<u32>]) {
        let w = self.warp_width as u32;
        let mut first: Option<(usize, u32)> = None;
        let (mut tgsm, mut uav) = (true, true);
        for (i, p) in warps.iter().enumerate() {
            let Some(pc) = *p else { continue };
            first.get_or_insert((i, pc));
            let (_, g, u, _) = self
                .sites
                .get(pc as usize)
                .and_then(|s| s.sync)
                .unwrap_or((true, false, false, false));
            tgsm &= g;
            uav &= u;
        }
        let Some((wi, pc)) = first else { return };
        if self.opts.barriers {
            let other = warps
                .iter()
                .enumerate()
                .find(|(_, p)| **p != Some(pc))
                .map(|(i, p)| (i, *p));
            if let Some((oi, op)) = other {
                let b = Side {
                    group: self.seq,
                    thread: oi as u32 * w,
                    // a finished warp: its thread is shown at the barrier it never reached
                    pc: op.unwrap_or(pc),
                    op: AccessOp::Barrier,
                    value: None,
                };
                self.report(Hit {
                    kind: FindingKind::DivergentBarrier,
                    space: None,
                    word: None,
                    byte_offset: None,
                    a: self.side(wi as u32 * w, pc, AccessOp::Barrier, 0),
                    b: Some(b),
                    benign: false,
                    at: None,
                    note: None,
                    gap: Gap::None,
                });
            }
        }
        if tgsm {
            self.tgsm_epoch = self.tgsm_epoch.wrapping_add(1);
        }
        if uav {
            self.uav_epoch = self.uav_epoch.wrapping_add(1);
        }
        // every thread waits here: what each has fenced is ordered before
        // the group's next atomic (the release), and an atomic before the
        // barrier is ordered before every thread's accesses after it when
        // the barrier fences UAVs (the acquisition)
        let acquire = uav && self.group_atomic;
        for t in &mut self.threads {
            t.uglobal_at_barrier = t.uglobal;
            t.acquired |= acquire;
        }
        self.release_pending = true;
    }

    /// The group has finished: report what waited for its end, and fold its
    /// UAV accesses into the cross-group shadow.
    pub(crate) fn end_group(&mut self) {
        if self.pass == screen::Pass::Screen {
            self.screen_end_group();
        }
        let pending = std::mem::take(&mut self.pending);
        let mut hits: Vec<Hit> = pending
            .into_iter()
            .filter(|(k, h)| {
                let guard = h.b.is_some_and(|b| b.op == AccessOp::Read)
                    && h.b
                        .is_some_and(|b| self.checked_guards.contains_key(&(b.pc, k.1)));
                !self.validated.contains_key(k) && !guard
            })
            .map(|(_, h)| h)
            .chain(std::mem::take(&mut self.waits).into_values())
            .collect();
        if self.ticket != NO_KEY {
            let seq = self.seq as usize;
            if self.tickets.len() <= seq {
                self.tickets.resize(seq + 1, NO_KEY);
            }
            self.tickets[seq] = self.ticket;
        }
        let seq = self.seq;
        for u in &self.locals {
            if let Some(x) = u.xg_read {
                let reader = Side {
                    group: seq,
                    thread: u32::from(x.reader.thread),
                    pc: x.reader.pc,
                    op: AccessOp::Read,
                    value: None,
                };
                let writer = Side {
                    group: x.writer.group,
                    thread: x.writer.thread as u32,
                    pc: x.writer.pc,
                    op: AccessOp::Write,
                    value: Some(x.writer.value),
                };
                hits.push(Hit {
                    kind: if x.rmw {
                        FindingKind::CrossGroupRmw
                    } else {
                        FindingKind::CrossGroupVisibility
                    },
                    space: Some(Space::Uav(u.slot)),
                    word: Some(u.word),
                    byte_offset: None,
                    a: reader,
                    b: Some(writer),
                    benign: false,
                    at: None,
                    note: None,
                    gap: if x.rmw {
                        Gap::None
                    } else {
                        x.writer.visibility_gap()
                    },
                });
            }
            let glc = self.glc.get(u.slot as usize).copied().unwrap_or(false);
            let threads = &self.threads;
            let publish = |(a, ug): (Acc, u32)| XAcc {
                group: seq,
                thread: a.thread,
                pc: a.pc,
                value: a.value,
                gap: match threads.get(a.thread as usize) {
                    _ if !glc => Gap::NotCoherent,
                    Some(t) if t.released > ug => Gap::None,
                    Some(t) if t.uglobal > ug => Gap::FenceAfterAtomic,
                    _ => Gap::NoFence,
                },
            };
            // a compare-exchange loop's guess is no plain read for later
            // groups: its CAS validated it
            let k = key(Space::Uav(u.slot), u.word);
            let guess =
                |(a, _): &(Acc, u32)| self.validated.contains_key(&(u32::from(a.thread), k));
            let (w, r) = (
                u.last_write.map(publish),
                u.first_read.filter(|r| !guess(r)).map(publish),
            );
            let a = u.first_atomic.map(|a| publish((a, u32::MAX)));
            if let Some(shadow) = self.xg.get_mut(u.slot as usize) {
                let x = shadow.get_mut(u.word);
                if let Some(w) = w {
                    x.write.merge(w);
                }
                if let Some(r) = r {
                    x.read.merge(r);
                }
                if let Some(a) = a.filter(|_| x.atomic.get().is_none()) {
                    x.atomic = a;
                }
            }
        }
        self.locals.clear();
        for h in hits {
            self.report(h);
        }
    }

    // -- reporting ----------------------------------------------------------

    fn side(&self, thread: u32, pc: u32, op: impl Into<AccessOp>, value: u32) -> Side {
        let op = op.into();
        Side {
            group: self.seq,
            thread,
            pc,
            op,
            value: (op == AccessOp::Write).then_some(value),
        }
    }

    /// Byte offset of shadow word `word` within its view or region.
    fn byte_offset(&self, space: Space, word: u32) -> Option<u64> {
        match space {
            Space::Tgsm(g) => {
                let r = self.regions.get(g as usize).copied().flatten()?;
                Some((word as u64).checked_sub(r.base_word as u64)? * 4)
            }
            Space::Uav(_) | Space::Srv(_) => Some(word as u64 * self.view_info(space)?.unit),
        }
    }

    /// The byte address an out-of-bounds access asked for.
    fn byte_address(&self, space: Space, (a, b, k): (u32, u32, u32)) -> Option<u64> {
        if let Some(ViewKind::Typed { format }) = self.view_info(space).map(|i| i.kind) {
            return Some(a as u64 * format.size_bytes() as u64);
        }
        let (stride, _) = self.layout(space)?;
        Some(if stride == 0 {
            (a & !3) as u64 + 4 * k as u64
        } else {
            stride as u64 * a as u64 + (b & !3) as u64 + 4 * k as u64
        })
    }

    fn thread_ref(&self, group_seq: u32, thread: u32) -> ThreadRef {
        let [gx, gy, _] = self.groups;
        let (gx, gy) = (gx.max(1), gy.max(1));
        let [tx, ty, _] = self.thread_group;
        let (tx, ty) = (tx.max(1), ty.max(1));
        ThreadRef {
            group: [group_seq % gx, (group_seq / gx) % gy, group_seq / (gx * gy)],
            thread: [thread % tx, (thread / tx) % ty, thread / (tx * ty)],
            index: thread,
        }
    }

    fn site(&self, pc: u32) -> Site {
        let s = self.sites.get(pc as usize).cloned().unwrap_or_default();
        Site {
            pc,
            dword: s.dword,
            text: s.text,
            line: s.line,
            listing: s.line.and(self.listing_name.clone()),
            hlsl: s.hlsl,
        }
    }

    fn access_of(&self, s: &Side) -> Access {
        Access {
            site: self.site(s.pc),
            thread: self.thread_ref(s.group, s.thread),
            op: s.op,
            value: s.value,
        }
    }

    /// Count an occurrence; the first of its (kind, resource, pcs) becomes a finding.
    fn report(&mut self, mut h: Hit) {
        if let Some(b) = h.b {
            if b.pc < h.a.pc {
                h.b = Some(h.a);
                h.a = b;
            }
        }
        let k = (
            h.kind,
            h.space.map_or(NONE, Space::id),
            h.a.pc,
            h.b.map_or(NONE, |b| b.pc),
        );
        if let Some(&i) = self.index.get(&k) {
            match i & SUPPRESSED {
                0 => self.findings[i].count += 1,
                _ => self.suppressed[i & !SUPPRESSED].finding.count += 1,
            }
            return;
        }
        let resource = h.space.map(|s| match s {
            Space::Tgsm(g) => format!("g{g}"),
            Space::Uav(u) => format!("u{u}"),
            Space::Srv(t) => format!("t{t}"),
        });
        let byte_offset = match (h.space, h.word) {
            (Some(space), Some(word)) => self.byte_offset(space, word),
            _ => h.byte_offset,
        };
        // (a structure of one dword is named by its index alone; a texel
        // by its address)
        let texel = match (h.space, h.word) {
            (Some(Space::Uav(u)), Some(w)) => self
                .texels
                .get(u as usize)
                .and_then(Option::as_ref)
                .and_then(|t| t.describe(w as usize)),
            _ => None,
        };
        let element = match (h.space.and_then(|s| self.layout(s)), byte_offset, h.at) {
            _ if texel.is_some() => texel,
            (Some((0, _)), Some(b), _) => Some(format!("[{}]", b / 4)),
            (Some((4, _)), _, Some((i, _))) => Some(format!("[{i}]")),
            (Some((4, _)), Some(b), None) => Some(format!("[{}]", b / 4)),
            (Some((_, _)), _, Some((i, o))) => Some(format!("[{i}].{o}")),
            (Some((stride, _)), Some(b), None) => Some(format!(
                "[{}].{}",
                b / u64::from(stride),
                b % u64::from(stride)
            )),
            _ => None,
        };
        // a race between iterations says so, and names the barrier it
        // crosses
        let within = matches!(
            h.kind,
            FindingKind::Raw
                | FindingKind::War
                | FindingKind::Waw
                | FindingKind::Benign
                | FindingKind::AtomicVsPlain
        );
        let carried = match (h.space, h.b) {
            (Some(space), Some(b)) if within && b.group == h.a.group => {
                self.loop_carried(space, h.a.pc, b.pc)
            }
            _ => None,
        };
        if let Some((barrier, start, end)) = carried {
            let line = |pc: u32| {
                let s = self.site(pc);
                match s.line {
                    Some(l) => format!("line {l} ({})", s.text),
                    None => format!("dword {} ({})", s.dword, s.text),
                }
            };
            let (first, second) = match h.b {
                Some(b) => (b.pc.max(h.a.pc), b.pc.min(h.a.pc)),
                None => (h.a.pc, h.a.pc),
            };
            self.notes.push(format!(
                "loop-carried: the access at {} in one iteration, the one at {} in the next; \
                 the barrier at {} orders them within an iteration but not across the back \
                 edge of the loop at {}..{}: a barrier at the end of the loop's body would",
                line(first),
                line(second),
                line(barrier),
                line(start),
                line(end)
            ));
            h.note = Some(self.notes.len() as u32 - 1);
        }
        if let (None, Some(text)) = (h.note, h.gap.text()) {
            self.notes.push(text.to_string());
            h.note = Some(self.notes.len() as u32 - 1);
        }
        let finding = Finding {
            kind: h.kind,
            resource_name: resource.as_ref().and_then(|r| self.names.get(r).cloned()),
            resource,
            byte_offset,
            element,
            first: self.access_of(&h.a),
            second: h.b.as_ref().map(|b| self.access_of(b)),
            benign: h.benign,
            count: 1,
            dispatch: self.dispatches,
            step: self.step.clone(),
            note: h.note.and_then(|i| self.notes.get(i as usize).cloned()),
        };
        if let Some(by) = self.suppression(&finding) {
            self.index.insert(k, SUPPRESSED | self.suppressed.len());
            self.suppressed.push(Suppressed { finding, by });
            return;
        }
        self.index.insert(k, self.findings.len());
        self.findings.push(finding);
    }
}

/// Within-group races of `acc` against the word's accesses in the current
/// epoch; then record `acc`. Up to three conflicts: with another thread's
/// plain write, plain read, or atomic.
#[inline]
fn races(ws: &mut WordState, op: MemOp, acc: Acc) -> [Option<Conflict>; 3] {
    let t = acc.thread;
    let mut found: [Option<Conflict>; 3] = [None; 3];
    // two critical sections of one lock are ordered by it
    let locked = |x: &Acc| acc.lock != 0 && x.lock == acc.lock;
    let scoped = |x: &Acc, k: FindingKind| {
        if x.syncs != acc.syncs {
            FindingKind::BarrierScope
        } else {
            k
        }
    };
    // a write and a read: the order in the program decides raw or war
    let rw = |write: &Acc, read: &Acc| {
        if write.syncs != read.syncs {
            FindingKind::BarrierScope
        } else if write.pc <= read.pc {
            FindingKind::Raw
        } else {
            FindingKind::War
        }
    };
    match op {
        MemOp::Read => {
            if let Some(x) = ws.writes.not_by(t).filter(|x| !locked(x)) {
                found[0] = Some((rw(&x, &acc), x, AccessOp::Write, None, false));
            }
            // (an atomic and a plain access: named by the two, whichever
            // the plain one is)
            if let Some(x) = ws.atomics.not_by(t).filter(|x| !locked(x)) {
                let k = scoped(&x, FindingKind::AtomicVsPlain);
                found[1] = Some((k, x, AccessOp::Atomic, Some(u32::from(t)), false));
            }
            ws.reads.push(acc);
        }
        MemOp::Write => {
            if let Some(x) = ws.writes.not_by(t).filter(|x| !locked(x)) {
                let (kind, benign) = if x.value == acc.value {
                    (FindingKind::Benign, true)
                } else {
                    (scoped(&x, FindingKind::Waw), false)
                };
                found[0] = Some((kind, x, AccessOp::Write, None, benign));
            }
            if let Some(x) = ws.reads.not_by(t).filter(|x| !locked(x)) {
                found[1] = Some((rw(&acc, &x), x, AccessOp::Read, None, false));
            }
            if let Some(x) = ws.atomics.not_by(t).filter(|x| !locked(x)) {
                let k = scoped(&x, FindingKind::AtomicVsPlain);
                found[2] = Some((k, x, AccessOp::Atomic, None, false));
            }
            ws.writes.push(acc);
        }
        MemOp::Atomic { .. } => {
            if let Some(x) = ws.writes.not_by(t).filter(|x| !locked(x)) {
                let k = scoped(&x, FindingKind::AtomicVsPlain);
                found[0] = Some((k, x, AccessOp::Write, None, false));
            }
            if let Some(x) = ws.reads.not_by(t).filter(|x| !locked(x)) {
                let k = scoped(&x, FindingKind::AtomicVsPlain);
                found[1] = Some((k, x, AccessOp::Read, Some(u32::from(x.thread)), false));
            }
            ws.atomics.push(acc);
        }
    }
    found
}

impl From<MemOp> for AccessOp {
    fn from(op: MemOp) -> Self {
        match op {
            MemOp::Read => AccessOp::Read,
            MemOp::Write => AccessOp::Write,
            MemOp::Atomic { .. } => AccessOp::Atomic,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(thread: u32, pc: u32, syncs: u32, value: u32) -> Acc {
        Acc {
            thread: thread as u16,
            pc,
            syncs,
            value,
            lock: 0,
        }
    }

    #[test]
    fn a_pair_answers_whether_another_thread_accessed() {
        let mut p = Pair::EMPTY;
        assert_eq!(p.not_by(0), None);
        p.push(acc(1, 10, 0, 0));
        assert_eq!(p.not_by(1), None);
        assert_eq!(p.not_by(2).map(|a| a.thread), Some(1));
        p.push(acc(1, 11, 0, 0));
        p.push(acc(2, 12, 0, 0));
        p.push(acc(2, 13, 0, 0));
        // the last access is thread 2's; the last by another thread is thread 1's
        assert_eq!(p.not_by(2).map(|a| (a.thread, a.pc)), Some((1, 11)));
        assert_eq!(p.not_by(1).map(|a| (a.thread, a.pc)), Some((2, 13)));
        assert_eq!(p.not_by(3).map(|a| a.thread), Some(2));
    }

    #[test]
    fn read_write_kinds_follow_program_order_and_syncs() {
        let mut ws = WordState::EMPTY;
        // thread 1 reads at pc 5, thread 2 writes at pc 9: war, whatever ran first
        assert!(races(&mut ws, MemOp::Read, acc(1, 5, 0, 0))
            .iter()
            .all(Option::is_none));
        let f = races(&mut ws, MemOp::Write, acc(2, 9, 0, 7));
        assert_eq!(f[1].map(|c| c.0), Some(FindingKind::War));
        // a read at pc 12 of thread 2's write: raw; after a sync of the wrong kind: barrier-scope
        let f = races(&mut ws, MemOp::Read, acc(3, 12, 0, 0));
        assert_eq!(f[0].map(|c| c.0), Some(FindingKind::Raw));
        let f = races(&mut ws, MemOp::Read, acc(4, 12, 1, 0));
        assert_eq!(f[0].map(|c| c.0), Some(FindingKind::BarrierScope));
        // same value written again by another thread: benign
        let f = races(&mut ws, MemOp::Write, acc(5, 9, 0, 7));
        assert_eq!(f[0].map(|c| (c.0, c.4)), Some((FindingKind::Benign, true)));
    }

    #[test]
    fn atomics_race_with_plain_accesses_only() {
        let mut ws = WordState::EMPTY;
        races(&mut ws, MemOp::Atomic { cas: false }, acc(1, 3, 0, 0));
        let f = races(&mut ws, MemOp::Atomic { cas: false }, acc(2, 3, 0, 0));
        assert!(f.iter().all(Option::is_none), "atomic vs atomic");
        let f = races(&mut ws, MemOp::Write, acc(3, 8, 0, 1));
        assert_eq!(f[2].map(|c| c.0), Some(FindingKind::AtomicVsPlain));
        // a plain read of an atomically written word is atomic-vs-plain
        // too (named by the two accesses, not raw), and names its reader,
        // whose CAS may excuse it
        let f = races(&mut ws, MemOp::Read, acc(4, 9, 0, 0));
        assert_eq!(
            f[1].map(|c| (c.0, c.3)),
            Some((FindingKind::AtomicVsPlain, Some(4)))
        );
        // and an atomic after another thread's plain read
        let mut ws = WordState::EMPTY;
        races(&mut ws, MemOp::Read, acc(1, 3, 0, 0));
        let f = races(&mut ws, MemOp::Atomic { cas: false }, acc(2, 5, 0, 0));
        assert_eq!(f[1].map(|c| c.0), Some(FindingKind::AtomicVsPlain));
    }
}
