//! `printf`, `errorf`, `abort` and `debug_break` records
//! (`crate::messages`): each active lane's record, with its thread's place
//! in the dispatch's order, into the executor's [`MessageSink`].

use crate::exec::context::Cx;
use crate::exec::warp::{Scratch, Warp};
use crate::messages::{MessageKind, MessageLog, RawMessage, MAX_ARG_WORDS};

/// Where an executor's `printf`/`errorf`/`abort`/`debug_break` records go
/// until taken ([`GroupExecutor::take_messages`](crate::exec::GroupExecutor::take_messages)).
#[derive(Debug, Default)]
pub(in crate::exec) struct MessageSink {
    /// The records not yet taken.
    pub log: MessageLog,
    /// The last record's sequence number.
    pub seq: u64,
    /// A `debug_break` stops the dispatch
    /// ([`GroupExecutor::set_break_at_debug_break`](crate::exec::GroupExecutor::set_break_at_debug_break)).
    pub break_at_debug_break: bool,
}

impl MessageSink {
    /// The key of lane `l`'s next record: its group (z, y, x; a packed
    /// batch's groups lie along x), `SV_GroupIndex`, and this executor's
    /// sequence number, which grows with each record and so keeps each
    /// thread's program order.
    fn message_key(&mut self, cx: &Cx, warp: &Warp, l: usize) -> ([u32; 3], u32, u64) {
        let [x, y, z] = cx.first;
        let x = x.wrapping_add(warp.batch.get(l).copied().unwrap_or(0));
        self.seq = self.seq.wrapping_add(1);
        ([z, y, x], warp.flat[l], self.seq)
    }

    /// A `printf`/`errorf` (`Body::messages[site]`) at `pc`: each active
    /// lane's arguments into a record.
    pub(in crate::exec) fn message(
        &mut self,
        cx: &Cx,
        sc: &mut Scratch,
        warp: &Warp,
        site: u32,
        pc: u32,
    ) {
        let prog = cx.prog;
        let Some(s) = prog.messages.get(site as usize) else {
            return;
        };
        let kind = match s.error {
            true => MessageKind::Errorf,
            false => MessageKind::Printf,
        };
        // one record per active lane, then each argument's words into them
        let mut records: Vec<(usize, RawMessage)> = Vec::new();
        for l in (0..cx.w).filter(|&l| warp.active[l] != 0) {
            let key = self.message_key(cx, warp, l);
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
        let w = cx.w;
        let mut comp = std::mem::take(&mut sc.s[0]);
        let mut at = 0;
        for (src, double) in &s.args {
            cx.fetch(warp, src, if *double { 0b11 } else { 0b1 }, &mut comp);
            for (l, m) in &mut records {
                m.args[at] = comp[*l];
                if *double {
                    m.args[at + 1] = comp[w + *l];
                    m.doubles |= 1 << at;
                }
            }
            at += 1 + usize::from(*double);
        }
        sc.s[0] = comp;
        for (_, mut m) in records {
            m.len = at as u8;
            self.log.add(m);
        }
    }

    /// An `abort` or `debug_break` at `pc`: a record for each lane in
    /// `lanes` (nonzero words).
    pub(in crate::exec) fn thread_event(
        &mut self,
        cx: &Cx,
        warp: &Warp,
        lanes: &[u32],
        kind: MessageKind,
        pc: u32,
    ) {
        for (l, _) in lanes.iter().enumerate().filter(|(_, &a)| a != 0) {
            let m = RawMessage {
                key: self.message_key(cx, warp, l),
                kind,
                pc,
                len: 0,
                doubles: 0,
                args: [0; MAX_ARG_WORDS],
            };
            self.log.add(m);
        }
    }
}
