//! Loops and locks, as the checker sees them: spin reads that wait on
//! other threads (the forward-progress rule,
//! [`FindingKind::ForwardProgress`]), races across a loop's back edge
//! (loop-carried races), and the spin locks that order critical sections.
//!
//! A spin read of a word an earlier group changed is a wait that ended only
//! because the groups ran in this run's order. It is held back until its
//! group ends: the thread's own atomic on the word later in the same loop
//! (a work queue's `InterlockedAdd(next[0], 1, i)` under
//! `while (next[0] < n)`) moves the word itself, so the loop waits on
//! nothing; once a thread of any group has been seen to, the loop's spin
//! read of that word is no wait in any later group either. Otherwise the wait is `forward-progress`, or
//! `occupancy-dependent-progress` when the group it waited on had started
//! first: both groups took their ticket (each group's first returning
//! atomic that is not a spin read) from the same word, the awaited group
//! first, so the waiting group could only run after it had started.

use crate::check::xgroup::Gap;
use crate::check::{
    key, key_slot, Acc, AccessOp, Checker, FindingKind, Hit, MemOp, Side, Space, NO_KEY,
    SPIN_WINDOW,
};
use crate::ir::lowered::{AtomicKind, OpKind};
/// Whether the atomic `op` changes its word whatever the word holds (a
/// work queue's `InterlockedAdd(head, 1, i)`, an exchange): progress, which
/// a thread's own wait on the word does not need another thread for. Not
/// a compare-exchange (it changes the word only in the state it waits
/// for), nor an operand that is the operation's identity
/// (`InterlockedOr(flag, 0, v)`: a read).
pub(super) fn makes_progress(op: &crate::ir::lowered::Op) -> bool {
    match op.kind {
        OpKind::Atomic { kind, a, .. } => match kind {
            AtomicKind::CmpExch => false,
            AtomicKind::Exch => true,
            _ => !crate::analysis::spin::leaves_word(kind, &a),
        },
        _ => false,
    }
}

impl Checker {
    /// A spin read of `word` by `acc`'s thread: one more of its reads in a
    /// row of that word at that pc with no write by another thread of the
    /// group in between, or the first; at [`SPIN_WINDOW`] a hang.
    pub(super) fn spin_read(&mut self, space: Space, word: u32, op: MemOp, acc: Acc) {
        let k = key(space, word);
        let writes = self.group_writes;
        let Some(t) = self.threads.get_mut(acc.thread as usize) else {
            return;
        };
        let (pc, kk, n, mark) = t.spin;
        let n = match pc == acc.pc && kk == k && mark == writes {
            true => n + 1,
            false => 1,
        };
        t.spin = (acc.pc, k, n, writes);
        if n != SPIN_WINDOW {
            return;
        }
        self.stalled = true;
        // who could change the word: an earlier group, or one not started
        let earlier = match space {
            Space::Uav(u) => self.xg.get_mut(u as usize).and_then(|x| {
                let x = x.get_mut(word);
                (x.atomic.get().map(|a| (a, AccessOp::Atomic)))
                    .or(x.write.get().map(|w| (w, AccessOp::Write)))
            }),
            _ => None,
        };
        let [gx, gy, gz] = self.groups;
        let left =
            (u64::from(gx) * u64::from(gy) * u64::from(gz)).saturating_sub(u64::from(self.seq) + 1);
        let note = match space {
            Space::Uav(_) => {
                let finished = match earlier {
                    Some((e, _)) => {
                        let g = self.thread_ref(e.group, 0).group;
                        format!("group ({}, {}, {}), finished, changed it", g[0], g[1], g[2])
                    }
                    None => "no finished group changed it".to_string(),
                };
                format!(
                    "no other thread of its group changed the word in {SPIN_WINDOW} reads: it waits \
                     on a thread not running beside it, a lane of its own warp or another warp \
                     (D3D promises no forward progress between them) or another group; \
                     {finished}; {left} group(s) had not started (this run orders groups x \
                     fastest, D3D not at all)"
                )
            }
            _ => format!(
                "no other thread of its group changed the word in {SPIN_WINDOW} reads: it waits \
                 on a lane of its own warp, or on a warp that waits for it, and D3D promises no \
                 forward progress between them"
            ),
        };
        self.notes.push(note);
        let note = Some(self.notes.len() as u32 - 1);
        let me = self.side(u32::from(acc.thread), acc.pc, op, acc.value);
        let b = earlier.map(|(e, op)| Side {
            group: e.group,
            thread: e.thread as u32,
            pc: e.pc,
            op,
            value: (op == AccessOp::Write).then_some(e.value),
        });
        self.report(Hit {
            kind: FindingKind::ForwardProgress,
            space: Some(space),
            word: Some(word),
            byte_offset: None,
            a: me,
            b,
            benign: false,
            at: None,
            note,
            gap: Gap::None,
        });
    }

    /// The spin read `b` of UAV word `word`, which the earlier group's
    /// access `a` changed: held back as a wait until the group ends
    /// ([`Checker::own_progress`] may excuse it), classed by the groups'
    /// tickets.
    pub(super) fn earlier_group_wait(&mut self, slot: u32, word: u32, a: Side, b: Side) {
        let k = key(Space::Uav(slot), word);
        if self.self_moved.contains_key(&(b.pc, k)) {
            return;
        }
        let ticket = self.ticket;
        let started =
            ticket != NO_KEY && ticket != k && self.tickets.get(a.group as usize) == Some(&ticket);
        let note = if started {
            // (a ticket is a UAV word: `uav_thread` records it)
            let (slot, w) = (key_slot(ticket), ticket as u32);
            let name = match self.names.get(&format!("u{slot}")) {
                Some(n) if *n != format!("u{slot}") => format!(" ('{n}')"),
                _ => String::new(),
            };
            format!(
                "the group that changed the word had started before this one waited: both took \
                 a ticket from u{slot}[{w}]{name} (their first returning atomic), and it took \
                 its ticket first; the wait ends if the GPU keeps started groups running (desktop GPUs do; \
                 D3D does not promise it, and a GPU that runs few groups at once or preempts \
                 them may not)"
            )
        } else {
            "this run saw no wait that did not end: the group that changed the word had \
                 finished before this one started (this run orders groups x fastest); the \
                 report comes from the rule, since a GPU may run this group first or beside \
                 it, and nothing promises that the other group runs while this one waits"
                .to_string()
        };
        // (one note for a run of waits alike)
        if self.notes.last() != Some(&note) {
            self.notes.push(note);
        }
        let hit = Hit {
            kind: match started {
                true => FindingKind::OccupancyDependentProgress,
                false => FindingKind::ForwardProgress,
            },
            space: Some(Space::Uav(slot)),
            word: Some(word),
            byte_offset: None,
            a,
            b: Some(b),
            benign: false,
            at: None,
            note: Some(self.notes.len() as u32 - 1),
            gap: Gap::None,
        };
        self.waits.entry((b.thread, k)).or_insert(hit);
    }

    /// An atomic by `thread` at `pc` on the word of key `k`: its group's
    /// ticket if it is the group's first returning atomic that is no spin
    /// read. If it changes the word ([`makes_progress`]) inside the
    /// innermost loop of the thread's last spin read, of that word, the
    /// loop moves the word itself: its wait is excused, in this group and
    /// in every later one (a later group may find the work done and leave
    /// the loop before its own atomic). If it returns the word of a
    /// globally coherent UAV inside the loop of the thread's last spin read,
    /// of that word, the read is a guard the atomic checks (`while (next[0] < n)`):
    /// excused, and so is that read of the word in later groups
    /// (`reference/compute-model.md` §6.3: a `_glc` read sees the other
    /// groups' atomics).
    pub(super) fn own_progress(&mut self, thread: u32, pc: u32, k: u64) {
        let Some(site) = self.sites.get(pc as usize) else {
            return;
        };
        let spin = self.spin.get(pc as usize) == Some(&true);
        if site.returns && !spin && self.ticket == NO_KEY {
            self.ticket = k;
        }
        // the thread's last spin read, if it was of this word and this
        // atomic lies in the read's innermost loop
        let last = self.threads.get(thread as usize).map(|t| t.spin);
        let read = last.filter(|s| s.1 == k).map(|s| s.0).filter(|&at| {
            self.loops
                .iter()
                .filter(|&&(s, e)| s < at && at < e)
                .max_by_key(|&&(s, _)| s)
                .is_some_and(|&(s, e)| s < pc && pc < e)
        });
        let Some(read) = read else {
            return;
        };
        if site.progress && !spin {
            self.self_moved.insert((read, k), ());
            self.waits.remove(&(thread, k));
        }
        if site.returns && self.glc.get(key_slot(k) as usize) == Some(&true) {
            self.validated.insert((thread, k), ());
            self.checked_guards.insert((read, k), ());
        }
    }

    /// Whether two accesses of one epoch at `p` and `q` to `space` must be
    /// in different iterations of a loop: a `sync_*_t` that orders the
    /// space lies between them in the program, inside a loop around both
    /// (so within one iteration they would be ordered). The barrier's pc
    /// and the loop's (`loop` and `endloop`).
    pub(super) fn loop_carried(&self, space: Space, p: u32, q: u32) -> Option<(u32, u32, u32)> {
        let (lo, hi) = (p.min(q), p.max(q));
        let &(start, end) = self
            .loops
            .iter()
            .filter(|&&(s, e)| s < lo && hi < e)
            .max_by_key(|&&(s, _)| s)?;
        let orders = |pc: u32| match self.sites.get(pc as usize).and_then(|s| s.sync) {
            Some((true, tgsm, uav, _)) => match space {
                Space::Tgsm(_) => tgsm,
                _ => uav,
            },
            _ => false,
        };
        let barrier = (lo + 1..hi).find(|&pc| orders(pc))?;
        (start < barrier).then_some((barrier, start, end))
    }

    /// The outcome of a compare-exchange at `pc` by the active lanes of a
    /// warp: `old[l]` the word lane `l` found, `compare[l]` the value it
    /// compared with. A lane that found its comparand at a lock's acquire
    /// (a compare-exchange against a literal) holds that lock until it
    /// writes the word again: two accesses made while holding the same lock
    /// are in different critical sections, which the lock orders.
    pub(crate) fn cas_outcome(
        &mut self,
        pc: u32,
        active: &[u32],
        flat: &[u32],
        old: &[u32],
        compare: &[u32],
    ) {
        if !self.sites.get(pc as usize).is_some_and(|s| s.lock_cas) {
            return;
        }
        for (l, &a) in active.iter().enumerate() {
            if a == 0 || old.get(l) != compare.get(l) {
                continue;
            }
            let Some(t) = flat.get(l).and_then(|&f| self.threads.get(f as usize)) else {
                continue;
            };
            let k = t.cas_key;
            let id = match self.locks.iter().position(|&x| x == k) {
                Some(i) => i + 1,
                None => {
                    self.locks.push(k);
                    self.locks.len()
                }
            };
            if let Some(t) = self.threads.get_mut(flat[l] as usize) {
                t.lock = id as u16;
            }
        }
    }
}
