//! The cross-group shadow of a UAV word: the plain accesses and the atomic
//! of earlier groups, kept for the rest of the dispatch, and what each
//! lacks to be published to later groups ([`Gap`]: the last-group
//! protocol, FS §7.14.4, `docs/checking.md`).

use crate::check::{Acc, Checker, MemOp, NONE};
/// An access by an earlier group, kept for the rest of the dispatch.
#[derive(Debug, Clone, Copy)]
pub(super) struct XAcc {
    /// the group's sequence number; `NONE`: no access
    pub(super) group: u32,
    pub(super) pc: u32,
    pub(super) value: u32,
    pub(super) thread: u16,
    /// what its publication lacks ([`Gap::None`]: published)
    pub(super) gap: Gap,
}

/// What an access by an earlier group lacks to be *published* to later
/// groups (the last-group protocol, FS §7.14.4: a globally coherent UAV, a
/// `sync_uglobal` fence after the access, and an atomic after the fence by
/// the thread, or by its group after a barrier the thread passed after the
/// fence), or what a later access lacks to be *acquired*; said in a
/// `cross-group-visibility` finding's note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Gap {
    /// published (or, for a reader, acquired)
    None,
    /// the UAV is not declared globally coherent (`_glc`)
    NotCoherent,
    /// no `sync_uglobal` fence after the access
    NoFence,
    /// a fence after the access, but no atomic after the fence (the
    /// thread's atomic came before it: the fence orders nothing the
    /// atomic signals)
    FenceAfterAtomic,
    /// the later access: its thread did no UAV atomic before it, nor
    /// passed a barrier (with a UAV fence) after one of its group's
    NotAcquired,
}

impl Gap {
    /// The missing step, for a finding's note.
    pub(super) fn text(self) -> Option<&'static str> {
        Some(match self {
            Gap::None => return None,
            Gap::NotCoherent => {
                "missing: the UAV is not declared globallycoherent, so the write may stay in a cache other groups do not see"
            }
            Gap::NoFence => {
                "missing: a DeviceMemoryBarrier (sync_uglobal) after the write, before the atomic that signals it"
            }
            Gap::FenceAfterAtomic => {
                "missing: the fence is after the signalling atomic; a fence orders only the thread's own accesses on either side of it, so it must come between the write and the atomic (or a group barrier after it, before the group's atomic)"
            }
            Gap::NotAcquired => {
                "missing: the reading thread takes no part in the protocol: it did no atomic (the ticket) before the read, nor passed a barrier after its group's atomic"
            }
        })
    }
}

impl XAcc {
    pub(super) const EMPTY: XAcc = XAcc {
        group: NONE,
        pc: 0,
        value: 0,
        thread: 0,
        gap: Gap::NoFence,
    };

    pub(super) fn get(&self) -> Option<XAcc> {
        (self.group != NONE).then_some(*self)
    }

    pub(super) fn published(&self) -> bool {
        self.gap == Gap::None
    }

    /// What a `cross-group-visibility` race with this access lacks: its
    /// own publication, or, published, the later access's acquisition
    /// (the only other way the pair is not safe).
    pub(super) fn visibility_gap(&self) -> Gap {
        match self.gap {
            Gap::None => Gap::NotAcquired,
            g => g,
        }
    }

    /// Keep an unpublished record over a published one: any unpublished
    /// access is a race for every later group.
    pub(super) fn merge(&mut self, new: XAcc) {
        if self.group == NONE || self.published() || !new.published() {
            *self = new;
        }
    }
}

/// A UAV word's shadow for the dispatch: its plain accesses by earlier
/// groups, and where the current group's state for it is.
#[derive(Debug, Clone, Copy)]
pub(super) struct XWord {
    pub(super) write: XAcc,
    pub(super) read: XAcc,
    /// an earlier group's atomic
    pub(super) atomic: XAcc,
    /// the group (`Checker::gen`) that `local` belongs to
    pub(super) gen: u32,
    /// index of the word's state in `Checker::locals`
    pub(super) local: u32,
}

impl XWord {
    pub(super) const EMPTY: XWord = XWord {
        write: XAcc::EMPTY,
        read: XAcc::EMPTY,
        atomic: XAcc::EMPTY,
        gen: NONE,
        local: 0,
    };
}

pub(super) const PAGE: usize = 1024;

/// The shadow of one UAV, in pages allocated on first touch.
#[derive(Debug, Default, Clone)]
pub(super) struct XShadow {
    pub(super) pages: Vec<Option<Box<[XWord]>>>,
}

impl XShadow {
    pub(super) fn get_mut(&mut self, word: u32) -> &mut XWord {
        let w = word as usize;
        if self.pages.len() <= w / PAGE {
            self.pages.resize(w / PAGE + 1, None);
        }
        let page =
            self.pages[w / PAGE].get_or_insert_with(|| vec![XWord::EMPTY; PAGE].into_boxed_slice());
        &mut page[w % PAGE]
    }
}

/// A group's plain read of a word an earlier group wrote, not (yet) safe.
#[derive(Debug, Clone, Copy)]
pub(super) struct XgRead {
    pub(super) reader: Acc,
    pub(super) writer: XAcc,
    /// the reader then wrote the word: a read-modify-write
    pub(super) rmw: bool,
}

impl Checker {
    /// A UAV atomic (or counter operation) of the group: the first after a
    /// barrier releases what every thread had fenced when it waited there
    /// (the barrier orders their fences before this atomic, FS §7.14.4).
    #[inline]
    pub(super) fn released_by_atomic(&mut self) {
        self.group_atomic = true;
        if std::mem::take(&mut self.release_pending) {
            for t in &mut self.threads {
                t.released = t.released.max(t.uglobal_at_barrier);
            }
        }
    }

    /// What a UAV access changes in its thread's state: an atomic
    /// acquires; the thread's last plain read and last returning atomic.
    #[inline]
    pub(super) fn uav_thread(&mut self, op: MemOp, acc: Acc, k: u64) {
        let Some(t) = self.threads.get_mut(acc.thread as usize) else {
            return;
        };
        match op {
            MemOp::Read => t.last_read = k,
            MemOp::Atomic { .. } => {
                t.atomic();
                if self.sites.get(acc.pc as usize).is_some_and(|s| s.returns) {
                    t.last_atomic = k;
                }
                self.released_by_atomic();
                self.own_progress(u32::from(acc.thread), acc.pc, k);
            }
            MemOp::Write => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unpublished_cross_group_access_is_kept() {
        let rec = |group, published: bool| XAcc {
            group,
            pc: 0,
            value: 0,
            thread: 0,
            gap: if published { Gap::None } else { Gap::NoFence },
        };
        let mut x = XAcc::EMPTY;
        assert!(x.get().is_none());
        x.merge(rec(0, false));
        x.merge(rec(1, true));
        assert_eq!(x.get().map(|a| (a.group, a.published())), Some((0, false)));
        x.merge(rec(2, false));
        assert_eq!(x.get().map(|a| a.group), Some(2));
        let mut y = rec(0, true);
        y.merge(rec(1, true));
        assert_eq!(y.group, 1);
    }
}
