//! Loops and locks, as the checker sees them: spin reads that wait on
//! other threads (the forward-progress rule,
//! [`FindingKind::ForwardProgress`]), races across a loop's back edge
//! (loop-carried races), and the spin locks that order critical sections.

use super::*;

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
