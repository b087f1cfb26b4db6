//! The debugger's record of who wrote each word ([`Recording`]): for every
//! TGSM and buffer UAV word a plain store or an atomic changed, the last
//! thread and instruction that did, and the value stored.

use crate::check::MemOp;
use crate::exec::observe::{Mem, Observer};
use crate::ir::lowered::Res;
use sim_mem::ViewKind;
use std::collections::HashMap;

/// Memory a word belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WordSpace {
    /// TGSM register `g#` (the word's index in its region).
    Tgsm(u32),
    /// Buffer UAV `u#` (the word's index in the view: a typed view's
    /// element).
    Uav(u32),
}

/// The last write of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastWrite {
    /// `SV_GroupID` of the writing thread's group.
    pub group: [u32; 3],
    /// Its `SV_GroupIndex`.
    pub thread: u32,
    /// The instruction's index in the program.
    pub pc: u32,
    /// The value a plain store wrote (None for an atomic, whose result
    /// the memory holds).
    pub value: Option<u32>,
    /// Whether it was an atomic.
    pub atomic: bool,
}

/// The observer: writes by word, since recording began (UAV words) or
/// since the group began (TGSM words, which a new group starts afresh).
#[derive(Debug, Default)]
pub(in crate::exec) struct Recording {
    uav: HashMap<(u32, usize), LastWrite>,
    tgsm: HashMap<(u32, usize), LastWrite>,
    group: [u32; 3],
}

impl Recording {
    /// The last write of word `word` of `space`.
    pub fn last_write(&self, space: WordSpace, word: usize) -> Option<LastWrite> {
        match space {
            WordSpace::Uav(u) => self.uav.get(&(u, word)),
            WordSpace::Tgsm(g) => self.tgsm.get(&(g, word)),
        }
        .copied()
    }
}

impl Observer for Recording {
    const ON: bool = true;
    const CHECKS: bool = false;
    const COUNTS_FLOW: bool = false;

    fn begin_group(&mut self, group: [u32; 3], _w: usize) {
        self.group = group;
        // a new group's TGSM starts afresh: its old writers go
        self.tgsm.clear();
    }

    fn wants_accesses(&self) -> bool {
        true
    }

    /// (the writers of words alone: `memory` records no read)
    fn wants_tgsm_reads(&self) -> bool {
        false
    }

    fn memory(&mut self, m: &Mem<'_, '_>) {
        let atomic = match m.op {
            MemOp::Read => return,
            MemOp::Write => false,
            MemOp::Atomic { .. } => true,
        };
        let (space, extent) = match (m.res, m.view) {
            (Res::Tgsm(g), _) => match m.tgsm.placement(g) {
                Some((_, e)) => (WordSpace::Tgsm(g), Some(e)),
                None => return,
            },
            (Res::Uav(u), Some(v)) => match v.kind() {
                ViewKind::Typed { .. } => (WordSpace::Uav(u), None),
                _ => (WordSpace::Uav(u), v.extent()),
            },
            _ => return,
        };
        let w = m.warp.active.len();
        for l in m.warp.span.clone() {
            if m.warp.active[l] == 0 {
                continue;
            }
            for (i, &k) in m.ks.iter().enumerate() {
                let (x, y) = (m.a[l], m.b.map_or(0, |b| b[l]));
                let word = match extent {
                    Some(e) => e.word_index(x, y, k),
                    // a typed view's element
                    None => (k == 0).then_some(x as usize),
                };
                let Some(word) = word else { continue };
                let value = m.values.map(|v| v[i * w + l]);
                let (map, key) = match space {
                    WordSpace::Uav(u) => (&mut self.uav, (u, word)),
                    WordSpace::Tgsm(g) => (&mut self.tgsm, (g, word)),
                };
                map.insert(
                    key,
                    LastWrite {
                        group: self.group,
                        thread: m.warp.flat[l],
                        pc: m.pc,
                        value: if atomic { None } else { value },
                        atomic,
                    },
                );
            }
        }
    }
}
