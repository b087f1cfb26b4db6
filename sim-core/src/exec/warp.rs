//! A warp's state: registers, execution masks, the control-flow frames, the
//! scratch rows, and the mask helpers every handler uses.

// Lane loops index several structure-of-arrays slices with one lane number;
// iterator zips of four or five slices would obscure them.
#![allow(clippy::needless_range_loop)]

use crate::exec::fast::cas::WordCounts;
use crate::exec::fast::rows::AlignedWords;
use crate::exec::kernels::ZEROS;
use crate::exec::watchdog::StopReason;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Frame {
    If {
        else_pc: Option<u32>,
        endif_pc: u32,
        in_else: bool,
    },
    Loop {
        start_pc: u32,
        end_pc: u32,
    },
    Switch {
        id: u32,
    },
    /// A subroutine call: masks 0 = lanes that have returned, 1 = lanes that skipped a `callc`.
    Call {
        return_pc: u32,
    },
}

/// Return addresses a warp may stack; a further `call` is skipped (FS §7.12).
pub(super) const MAX_CALL_DEPTH: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Exit {
    Barrier,
    Done,
    /// The warp's quantum ran out (interleaved runs only).
    Yield,
    Stopped(StopReason),
}

/// One warp's state.
#[derive(Debug, Clone)]
pub(super) struct Warp {
    pub(super) regs: AlignedWords,
    pub(super) xregs: Vec<u32>,
    /// vThreadIDInGroup per component, and flattened, per lane
    pub(super) tig: [Vec<u32>; 3],
    pub(super) flat: Vec<u32>,
    /// vThreadID, per component, per lane (depends on the group)
    pub(super) tid: [Vec<u32>; 3],
    /// vThreadGroupID, per component, per lane
    pub(super) gid: [Vec<u32>; 3],
    /// per lane, which group of a batch it runs (0 unless packed:
    /// [`GroupExecutor::packed`])
    pub(super) batch: Vec<u32>,
    /// per lane, vThreadID.x less the batch's first group's x times the
    /// group width: `batch·width + vThreadIDInGroup.x`
    pub(super) x_offset: Vec<u32>,
    /// lanes that exist (the last warp may be partial)
    pub(super) exists: AlignedWords,
    pub(super) alive: AlignedWords,
    /// (on a cache line, as the rows: the row kernels blend under it)
    pub(super) active: AlignedWords,
    pub(super) frames: Vec<Frame>,
    /// four masks of W words per frame
    pub(super) masks: Vec<u32>,
    pub(super) pc: usize,
    pub(super) done: bool,
    /// every one of the W lanes is active (kept by `settle` and `endloop`):
    /// a register write is then a plain copy
    pub(super) full: bool,
    /// from the first active lane to the last (empty if none; all W lanes
    /// when `full`), kept with `full` by [`Warp::note_active`]: lane loops
    /// of a partial warp run over these lanes only
    pub(super) span: std::ops::Range<usize>,
    /// lane l runs the thread after lane 0's by l in the executor's order
    /// (`SV_GroupIndex`, or group after group when packed; not so under a
    /// shuffled lane order): the lane-linear address forms apply
    pub(super) linear: bool,
    /// the number of active lanes, once counted since `active` last
    /// changed (profiling counts per instruction)
    pub(super) count: std::cell::Cell<Option<u64>>,
    /// the word each of the arena's four constant-buffer scratch rows
    /// holds in every lane (None: not filled yet); only `run_fast`'s fills
    /// write those rows
    pub(super) splats: [Option<u32>; 4],
}

/// Scratch space for operands: 4 components × W lanes each.
#[derive(Debug, Clone)]
pub(super) struct Scratch {
    pub(super) s: [Vec<u32>; 4],
    pub(super) r: Vec<u32>,
    /// lanes leaving with break/continue/ret (4·W so `fetch` can fill it)
    pub(super) lanes: Vec<u32>,
    /// `alu`/`alu2`: results (2 × 4·W) and one W-word buffer per source (4·W)
    pub(super) alu: Vec<u32>,
    /// a compare-exchange loop's changes per word ([`WordCounts`])
    pub(super) words: WordCounts,
    /// observers of a compare-exchange loop run at once: each lane's attempts
    pub(super) attempts: Vec<u32>,
}

/// [`Cx::cas_loop`](super::context::Cx)'s chains run this many words at a time (of
/// consecutive words, two cache lines), so that little time passes between
/// reading a word and writing it while another thread writes it too.
pub(super) const CHAIN_WORDS: usize = 32;

/// W zeros: a slice of [`ZEROS`] (the operand `l(0)` and a missing
/// offset, without a fill), or `buf` filled should W ever exceed it.
#[inline]
pub(super) fn zeros(w: usize, buf: &mut [u32]) -> &[u32] {
    match ZEROS.get(..w) {
        Some(z) => z,
        None => {
            let o = &mut buf[..w];
            o.fill(0);
            o
        }
    }
}

/// Scratch rows in a warp's arena: four for constant-buffer words, four
/// for results computed before any is written, and the row kernels' spare
/// row ([`RowArgs::spare`](crate::exec::kernels::RowArgs::spare)).
pub(super) const SCRATCH_ROWS: usize = 9;

/// `d[l] = v[l]` where the mask word `m[l]` is all ones, `d[l]` kept where
/// it is 0: a masked write, branch-free so that it vectorises.
#[inline]
pub(super) fn blend(d: &mut [u32], v: &[u32], m: &[u32]) {
    for ((d, &v), &m) in d.iter_mut().zip(v).zip(m) {
        *d = (v & m) | (*d & !m);
    }
}

/// A result row `v` into the register row `d` (W words each) for a warp's
/// active lanes: a copy when every lane is active, else a [`blend`] under
/// `active` over the span from the first active lane to the last.
#[inline]
pub(super) fn commit(
    d: &mut [u32],
    v: &[u32],
    active: &[u32],
    full: bool,
    span: &std::ops::Range<usize>,
) {
    if full {
        copy_lanes(d, v);
    } else {
        let s = span.clone();
        blend(&mut d[s.clone()], &v[s.clone()], &active[s]);
    }
}

/// `d.copy_from_slice(s)` for a warp's lanes, in fixed 8-word chunks that
/// compile to a few vector moves instead of a call to `memcpy` (a register
/// row is only W words).
#[inline]
pub(super) fn copy_lanes(d: &mut [u32], s: &[u32]) {
    let mut dc = d.chunks_exact_mut(8);
    let mut sc = s.chunks_exact(8);
    for (d, s) in (&mut dc).zip(&mut sc) {
        d.copy_from_slice(s);
    }
    for (d, &s) in dc.into_remainder().iter_mut().zip(sc.remainder()) {
        *d = s;
    }
}

/// From the first set mask word to the last (`None` if none is set): 16
/// words at a time, each block OR-reduced in a loop that vectorises, so a
/// wide warp with few active lanes is not scanned word by word.
pub(super) fn active_lanes(m: &[u32]) -> Option<std::ops::Range<usize>> {
    pub(super) const B: usize = 16;
    let (blocks, rest) = m.as_chunks::<B>();
    let any = |c: &[u32; B]| c.iter().fold(0, |a, &x| a | x) != 0;
    let tail = blocks.len() * B;
    let l0 = match blocks.iter().position(any) {
        Some(i) => i * B + blocks[i].iter().position(|&x| x != 0)?,
        None => tail + rest.iter().position(|&x| x != 0)?,
    };
    let l1 = match rest.iter().rposition(|&x| x != 0) {
        Some(r) => tail + r,
        None => {
            let i = blocks.iter().rposition(any)?;
            i * B + blocks[i].iter().rposition(|&x| x != 0)?
        }
    };
    Some(l0..l1 + 1)
}

/// (some lane set, every lane set), in one pass that vectorises.
#[inline]
pub(super) fn any_all(m: &[u32]) -> (bool, bool) {
    let (or, and) = m.iter().fold((0, !0), |(o, a), &x| (o | x, a & x));
    (or != 0, and != 0)
}

impl Warp {
    /// After `active` changed: note whether every lane is active (`full`)
    /// and which lanes span the active ones (`span`); whether any is.
    #[inline]
    pub(super) fn note_active(&mut self) -> bool {
        let (some, all) = any_all(&self.active);
        self.note_any_all(some, all)
    }

    /// [`Warp::note_active`] when the caller has already found whether some
    /// and whether every lane of `active` is set.
    #[inline]
    pub(super) fn note_any_all(&mut self, some: bool, all: bool) -> bool {
        self.count.set(None);
        self.full = all;
        self.span = match (some, all) {
            (_, true) => 0..self.active.len(),
            (true, false) => active_lanes(&self.active).unwrap_or(0..0),
            (false, _) => 0..0,
        };
        some
    }

    /// The number of active lanes (counted once per change of `active`).
    pub(super) fn active_count(&self) -> u64 {
        if let Some(n) = self.count.get() {
            return n;
        }
        let n = self.active[self.span.clone()]
            .iter()
            .filter(|&&a| a != 0)
            .count() as u64;
        self.count.set(Some(n));
        n
    }

    pub(super) fn empty() -> Self {
        Warp {
            regs: AlignedWords::default(),
            xregs: Vec::new(),
            tig: [Vec::new(), Vec::new(), Vec::new()],
            flat: Vec::new(),
            tid: [Vec::new(), Vec::new(), Vec::new()],
            gid: [Vec::new(), Vec::new(), Vec::new()],
            batch: Vec::new(),
            x_offset: Vec::new(),
            exists: AlignedWords::default(),
            alive: AlignedWords::default(),
            active: AlignedWords::default(),
            frames: Vec::new(),
            masks: Vec::new(),
            pc: 0,
            done: true,
            full: false,
            span: 0..0,
            splats: [None; 4],
            linear: false,
            count: std::cell::Cell::new(None),
        }
    }
}
