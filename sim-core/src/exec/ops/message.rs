//! `printf`, `errorf`, `abort` and `debug_break` records
//! (`crate::messages`): each active lane's record, with its thread's place
//! in the dispatch's order, into the executor's [`MessageLog`].

use crate::exec::executor::GroupExecutor;
use crate::exec::warp::Warp;
use crate::messages::{MessageKind, MessageLog, RawMessage, MAX_ARG_WORDS};
use sim_mem::Bindings;

impl GroupExecutor<'_> {
    /// The key of lane `l`'s next record: its group (z, y, x; a packed
    /// batch's groups lie along x), `SV_GroupIndex`, and this executor's
    /// sequence number, which grows with each record and so keeps each
    /// thread's program order.
    fn message_key(&mut self, warp: &Warp, l: usize) -> ([u32; 3], u32, u64) {
        let [x, y, z] = self.first;
        let x = x.wrapping_add(warp.batch.get(l).copied().unwrap_or(0));
        self.message_seq = self.message_seq.wrapping_add(1);
        ([z, y, x], warp.flat[l], self.message_seq)
    }

    /// A `printf`/`errorf` (`Body::messages[site]`) at `pc`: each active
    /// lane's arguments into a record.
    pub(in crate::exec) fn message(&mut self, warp: &Warp, b: &Bindings<'_>, site: u32, pc: u32) {
        let prog = self.prog;
        let Some(s) = prog.messages.get(site as usize) else {
            return;
        };
        let kind = match s.error {
            true => MessageKind::Errorf,
            false => MessageKind::Printf,
        };
        // one record per active lane, then each argument's words into them
        let mut records: Vec<(usize, RawMessage)> = Vec::new();
        for l in (0..self.w).filter(|&l| warp.active[l] != 0) {
            let key = self.message_key(warp, l);
            let m = RawMessage {
                key,
                kind,
                pc,
                len: 0,
                doubles: 0,
                args: [0; MAX_ARG_WORDS],
            };
            records.push((l, m));
        }
        let w = self.w;
        let mut comp = std::mem::take(&mut self.sc.s[0]);
        let mut at = 0;
        for (src, double) in &s.args {
            self.fetch(warp, b, src, if *double { 0b11 } else { 0b1 }, &mut comp);
            for (l, m) in &mut records {
                m.args[at] = comp[*l];
                if *double {
                    m.args[at + 1] = comp[w + *l];
                    m.doubles |= 1 << at;
                }
            }
            at += 1 + usize::from(*double);
        }
        self.sc.s[0] = comp;
        for (_, mut m) in records {
            m.len = at as u8;
            self.messages.add(m);
        }
    }

    /// An `abort` or `debug_break` at `pc`: a record for each lane in
    /// `lanes` (nonzero words).
    pub(in crate::exec) fn thread_event(
        &mut self,
        warp: &Warp,
        lanes: &[u32],
        kind: MessageKind,
        pc: u32,
    ) {
        for (l, _) in lanes.iter().enumerate().filter(|(_, &a)| a != 0) {
            let m = RawMessage {
                key: self.message_key(warp, l),
                kind,
                pc,
                len: 0,
                doubles: 0,
                args: [0; MAX_ARG_WORDS],
            };
            self.messages.add(m);
        }
    }

    /// Stop the dispatch at the first `debug_break` a thread executes
    /// ([`crate::exec::StopReason::DebugBreak`], naming the group, the thread
    /// and the instruction), or not (the default: it is recorded and the
    /// thread goes on).
    pub fn set_break_at_debug_break(&mut self, on: bool) {
        self.break_at_debug_break = on;
    }

    /// Keep at most `limit` records (from now on; the default is
    /// [`crate::messages::DEFAULT_MESSAGE_LIMIT`]).
    pub fn set_message_limit(&mut self, limit: usize) {
        if limit != self.messages.limit() {
            let mut fresh = MessageLog::new(limit);
            fresh.merge(&mut self.messages);
            self.messages = fresh;
        }
    }

    /// The records since the last call (or since the executor was made),
    /// leaving an empty log with the same limit.
    pub fn take_messages(&mut self) -> MessageLog {
        let limit = self.messages.limit();
        std::mem::replace(&mut self.messages, MessageLog::new(limit))
    }
}
