//! Which ALU instructions may write their destination in every lane of a
//! partial warp, found once per program.
//!
//! A row kernel on a partial warp computes every lane of the active span,
//! then blends the old words of the inactive lanes back: a load of the
//! destination and of the mask and a blend per vector, about a third of a
//! flushed `add`. The blend matters only to a lane that reads that word
//! again. A lane inactive at pc `p` has ended (`ret`, or it never existed),
//! or it waits in the mask of a frame that encloses `p`, and resumes where
//! that frame sends it:
//! - an `if`: at its `else` branch (when `p` is in the `if` branch) or at
//!   its `endif`;
//! - a `loop`: after its `endloop` (the lanes that broke out), or at its
//!   `endloop` (the lanes that continued; only a loop with a `continue` of
//!   its own has any).
//!
//! Where a destination component is dead at each of those places (every
//! path from there writes it before it reads it: a backward may-liveness
//! over the lane's control flow, [`crate::analysis::flushed::lane_edges`]), no lane
//! that is inactive at `p` reads the word again before it writes it, so the
//! kernel may overwrite it. A lane that wrote it afterwards reads its own
//! word: the same argument holds at every later write that skips the blend.
//!
//! The analysis gives up (every instruction blends) on a program with a
//! `switch` or a call: a lane waits in a switch's or a call's frame for
//! places this does not follow.
//!
//! The same liveness at the program's entry says whether a lane may read a
//! temp it has not written ([`Liveness::reads_unwritten`]): only then does a batch
//! start from a zeroed register file. [`operands`], the walk over every
//! operand of an instruction, also finds the components of vThreadID a
//! program reads.

use crate::analysis::flushed::{lane_edges, Next};
use crate::ir::lowered::{Body, Dst, DstKind, Idx, Op, OpKind, Rel, Src, SrcKind};

/// A set of temp components (`r * 4 + c`), as bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Set(pub(crate) Vec<u64>);

impl Set {
    pub(crate) fn new(bits: usize) -> Self {
        Set(vec![0; bits.div_ceil(64)])
    }

    pub(crate) fn insert(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    pub(crate) fn contains(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// `on_src` for every source operand of `op` (a texture instruction's
/// too) and `on_dst` for every destination: an exhaustive match, so that a
/// new instruction kind must say what it reads.
pub(crate) fn operands(
    prog: Body<'_>,
    op: &Op,
    on_src: &mut dyn FnMut(&Src),
    on_dst: &mut dyn FnMut(&Dst),
) {
    match op.kind {
        OpKind::Alu {
            dst: ref d,
            src: ref s,
            ..
        } => {
            on_dst(d);
            s.iter().for_each(&mut *on_src);
        }
        OpKind::Double {
            dst: ref d,
            src: ref s,
            ..
        } => {
            on_dst(d);
            s.iter().for_each(&mut *on_src);
        }
        OpKind::Alu2 {
            dst: ref d,
            src: ref s,
            ..
        } => {
            d.iter().for_each(&mut *on_dst);
            s.iter().for_each(&mut *on_src);
        }
        OpKind::If { ref cond, .. } | OpKind::Switch { sel: ref cond, .. } => on_src(cond),
        OpKind::Break { ref cond }
        | OpKind::Continue { ref cond }
        | OpKind::Ret { ref cond }
        | OpKind::Call { ref cond, .. } => {
            if let Some((c, _)) = cond {
                on_src(c);
            }
        }
        OpKind::LdRaw {
            dst: ref d,
            ref addr,
            ..
        }
        | OpKind::LdTyped {
            dst: ref d,
            ref addr,
            ..
        } => {
            on_dst(d);
            on_src(addr);
        }
        OpKind::LdStructured {
            dst: ref d,
            ref index,
            ref offset,
            ..
        } => {
            on_dst(d);
            on_src(index);
            on_src(offset);
        }
        OpKind::StoreTyped {
            ref addr,
            ref value,
            ..
        }
        | OpKind::StoreRaw {
            ref addr,
            ref value,
            ..
        } => {
            on_src(addr);
            on_src(value);
        }
        OpKind::StoreStructured {
            ref index,
            ref offset,
            ref value,
            ..
        } => {
            on_src(index);
            on_src(offset);
            on_src(value);
        }
        OpKind::Atomic {
            ref ret,
            ref addr,
            ref a,
            ref b,
            ..
        } => {
            if let Some(d) = ret {
                on_dst(d);
            }
            on_src(addr);
            on_src(a);
            on_src(b);
        }
        OpKind::Counter { dst: ref d, .. } | OpKind::Bufinfo { dst: ref d, .. } => on_dst(d),
        OpKind::Texture { index } => {
            if let Some(t) = prog.tex_ops.get(index as usize) {
                on_dst(&t.dst);
                on_src(&t.addr);
                t.extra.iter().for_each(&mut *on_src);
            }
        }
        OpKind::Message { site } => {
            if let Some(m) = prog.messages.get(site as usize) {
                m.args.iter().for_each(|(s, _)| on_src(s));
            }
        }
        OpKind::Else { .. }
        | OpKind::EndIf
        | OpKind::Loop { .. }
        | OpKind::EndLoop { .. }
        | OpKind::Case { .. }
        | OpKind::Default
        | OpKind::EndSwitch
        | OpKind::InterfaceCall { .. }
        | OpKind::Abort
        | OpKind::DebugBreak
        | OpKind::Sync { .. }
        | OpKind::Nop => {}
    }
}

/// `f(component)` for each temp component `op` may read: every swizzled
/// component of a temp source (whatever the destination mask), and the
/// temps of relative indices ([`index_reads`]).
pub(crate) fn reads(prog: Body<'_>, op: &Op, f: &mut impl FnMut(usize)) {
    operands(
        prog,
        op,
        &mut |s| {
            if let SrcKind::Temp(r) = s.kind {
                s.swz.iter().for_each(|&c| f(r as usize * 4 + c as usize));
            }
        },
        &mut |_| {},
    );
    index_reads(prog, op, f);
}

/// `f(component)` for the temp component of each relative index of `op`
/// (of its sources, then of its destinations).
pub(crate) fn index_reads(prog: Body<'_>, op: &Op, f: &mut impl FnMut(usize)) {
    let mut found = Vec::new();
    let mut idx = |i: &Idx| {
        if let Some(Rel::Temp { reg, comp }) = i.rel {
            found.push(reg as usize * 4 + comp as usize);
        }
    };
    // the temps indexing a destination, reported after the sources
    let mut indexed = Vec::new();
    operands(
        prog,
        op,
        &mut |s| match s.kind {
            SrcKind::XTemp { ref index, .. }
            | SrcKind::Cb { ref index, .. }
            | SrcKind::Icb { ref index } => idx(index),
            SrcKind::Temp(_)
            | SrcKind::Imm(_)
            | SrcKind::ThreadId
            | SrcKind::GroupId
            | SrcKind::ThreadIdInGroup
            | SrcKind::Flattened => {}
        },
        &mut |d| {
            if let DstKind::XTemp { index, .. } = d.kind {
                indexed.push(index);
            }
        },
    );
    indexed.iter().for_each(&mut idx);
    found.into_iter().for_each(f);
}

/// `f(component)` for each temp component `op` writes in every lane that
/// runs it: the ALU and double instructions, the loads (out of bounds they
/// write 0) and an atomic's returned value. The others are taken not to
/// write, which can only keep more components live.
pub(crate) fn kills(op: &Op, f: &mut impl FnMut(usize)) {
    let mut each = |d: &Dst| {
        if let DstKind::Temp(r) = d.kind {
            (0..4)
                .filter(|c| d.mask & (1 << c) != 0)
                .for_each(|c| f(r as usize * 4 + c));
        }
    };
    match op.kind {
        OpKind::Alu { ref dst, .. }
        | OpKind::Double { ref dst, .. }
        | OpKind::LdRaw { ref dst, .. }
        | OpKind::LdStructured { ref dst, .. }
        | OpKind::LdTyped { ref dst, .. }
        | OpKind::Atomic {
            ret: Some(ref dst), ..
        } => each(dst),
        OpKind::Alu2 { ref dst, .. } => dst.iter().for_each(each),
        _ => {}
    }
}

/// Per pc, the temp components live on entry: read on some path from there
/// before they are written. `None` when the lane edges cannot tell (a
/// switch or a call).
fn live_in(prog: Body<'_>) -> Option<Vec<Set>> {
    let bits = prog.temps as usize * 4;
    let n = prog.code.len();
    let edges = lane_edges(prog);
    if edges.contains(&Next::Forget)
        || prog
            .code
            .iter()
            .any(|op| matches!(op.kind, OpKind::Switch { .. }))
    {
        return None;
    }
    let mut uses = vec![Set::new(bits); n];
    let mut defs = vec![Set::new(bits); n];
    for (pc, op) in prog.code.iter().enumerate() {
        reads(prog, op, &mut |i| uses[pc].insert(i));
        kills(op, &mut |i| defs[pc].insert(i));
    }
    let mut live = vec![Set::new(bits); n];
    // each sweep can only add bits, so this ends
    loop {
        let mut changed = false;
        for pc in (0..n).rev() {
            let Next::To(to) = edges[pc] else {
                return None;
            };
            let mut s = Set::new(bits);
            for t in to.into_iter().flatten().filter(|&t| t < n) {
                s.0.iter_mut().zip(&live[t].0).for_each(|(a, b)| *a |= b);
            }
            for ((a, d), u) in s.0.iter_mut().zip(&defs[pc].0).zip(&uses[pc].0) {
                *a = (*a & !d) | u;
            }
            if s != live[pc] {
                live[pc] = s;
                changed = true;
            }
        }
        if !changed {
            return Some(live);
        }
    }
}

/// What the liveness of a program's temps tells the executor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Liveness {
    /// Per pc, whether the instruction is an ALU instruction with a temp
    /// destination whose every written component is dead wherever a lane
    /// inactive there resumes (see the module docs): its row kernel may
    /// write every lane of the span, unblended.
    pub unmasked: Vec<bool>,
    /// Whether some path may read a temp component before writing it (or
    /// the analysis cannot tell): else no lane ever reads the words a
    /// register file held before it started, and they need not be zeroed.
    pub reads_unwritten: bool,
    /// per pc, the temp components live at its entry (`None`: the
    /// analysis cannot tell)
    live: Option<Vec<Set>>,
}

impl Liveness {
    /// Whether temp component `row` (`r·4 + c`) may be read, on some path
    /// of a lane from `pc` on, before it is written: true where the
    /// analysis cannot tell, and past the program's end false.
    pub(crate) fn live_at(&self, pc: usize, row: u32) -> bool {
        match &self.live {
            Some(live) => live.get(pc).is_some_and(|s| s.contains(row as usize)),
            None => true,
        }
    }
}

/// [`Liveness`] of `prog`, from one liveness pass; `continues` is
/// [`loop_continues`] of `prog`.
pub(crate) fn analyze(prog: Body<'_>, continues: &[bool]) -> Liveness {
    let live = live_in(prog);
    Liveness {
        reads_unwritten: live
            .as_ref()
            .is_none_or(|l| l.first().is_some_and(|s| s.0.iter().any(|&w| w != 0))),
        unmasked: live.as_ref().map_or_else(
            || vec![false; prog.code.len()],
            |l| unmasked(prog, l, continues),
        ),
        live,
    }
}

/// Per pc: at an `endloop`, whether a `continue` of its loop (not of a
/// loop inside it) is in its body; `true` elsewhere.
pub(crate) fn loop_continues(prog: Body<'_>) -> Vec<bool> {
    let mut out = vec![true; prog.code.len()];
    // per open loop, whether a `continue` of its own was seen
    let mut open: Vec<bool> = Vec::new();
    for (pc, op) in prog.code.iter().enumerate() {
        match op.kind {
            OpKind::Loop { .. } => open.push(false),
            OpKind::Continue { .. } => {
                if let Some(c) = open.last_mut() {
                    *c = true;
                }
            }
            OpKind::EndLoop { .. } => out[pc] = open.pop().unwrap_or(true),
            _ => {}
        }
    }
    out
}

/// [`Liveness::unmasked`], given the temps live on entry to each pc and
/// [`loop_continues`].
fn unmasked(prog: Body<'_>, live: &[Set], continues: &[bool]) -> Vec<bool> {
    let mut out = vec![false; prog.code.len()];
    // the frames around each pc: where their waiting lanes resume
    let mut frames: Vec<Vec<usize>> = Vec::new();
    for (pc, op) in prog.code.iter().enumerate() {
        match op.kind {
            OpKind::Else { endif_pc } => {
                if let Some(f) = frames.last_mut() {
                    *f = vec![endif_pc as usize];
                }
            }
            OpKind::EndIf | OpKind::EndLoop { .. } => {
                frames.pop();
            }
            OpKind::Alu { ref dst, .. } => {
                if let DstKind::Temp(r) = dst.kind {
                    out[pc] = (0..4).filter(|c| dst.mask & (1 << c) != 0).all(|c| {
                        let i = r as usize * 4 + c;
                        frames
                            .iter()
                            .flatten()
                            .all(|&p| !live.get(p).is_some_and(|s| s.contains(i)))
                    });
                }
            }
            _ => {}
        }
        match op.kind {
            OpKind::If {
                else_pc, endif_pc, ..
            } => frames.push(match else_pc {
                Some(e) => vec![e as usize + 1, endif_pc as usize],
                None => vec![endif_pc as usize],
            }),
            OpKind::Loop { end_pc } => frames.push(if continues[end_pc as usize] {
                vec![end_pc as usize + 1, end_pc as usize]
            } else {
                vec![end_pc as usize + 1]
            }),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::{LoadOptions, Program};

    /// [`Liveness::unmasked`] of a program of `body` (one instruction a line,
    /// pc = line), with a raw UAV u0 to store results to.
    fn unmasked(body: &str) -> Vec<bool> {
        let text = format!(
            "cs_5_0\ndcl_uav_raw u0\ndcl_input vThreadIDInGroupFlattened\n\
             dcl_temps 6\ndcl_thread_group 8, 1, 1\n{body}ret\n"
        );
        let decoded = crate::front::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        prog.info().liveness.unmasked.clone()
    }

    /// mandelbrot's shape: a loop left by a `breakc`, whose count (r1.x)
    /// is stored after it. The lanes that broke out resume after the
    /// `endloop`, where only r1.x is read: every other write in the loop
    /// may skip the blend, the count's may not; outside any frame every
    /// inactive lane has ended.
    #[test]
    fn a_loop_blends_only_what_is_read_after_it() {
        let u = unmasked(
            "mov r0.xy, l(0, 0, 0, 0)\n\
             mov r1.x, l(0)\n\
             loop\n\
             ult r1.y, r1.x, vThreadIDInGroupFlattened.x\n\
             breakc_z r1.y\n\
             mul r0.x, r0.y, l(2.0)\n\
             add r0.y, r0.x, l(1.0)\n\
             iadd r1.x, r1.x, l(1)\n\
             endloop\n\
             ishl r2.x, vThreadIDInGroupFlattened.x, l(2)\n\
             store_raw u0.x, r2.x, r1.x\n",
        );
        assert_eq!(
            u[..11],
            [true, true, false, true, false, true, true, false, false, true, false]
        );
    }

    /// A loop with a `continue` of its own: the continuing lanes resume at
    /// the `endloop`, then run the body again, where the values carried
    /// around the loop are read; a write of one must blend. Without the
    /// `continue` the same write need not.
    #[test]
    fn a_continue_keeps_loop_carried_values() {
        let body = |c: &str| {
            format!(
                "mov r0.xy, l(0, 0, 0, 0)\n\
                 loop\n\
                 iadd r0.y, r0.y, l(1)\n\
                 uge r1.x, r0.y, l(4)\n\
                 breakc_nz r1.x\n\
                 ult r1.y, vThreadIDInGroupFlattened.x, r0.y\n\
                 {c}_nz r1.y\n\
                 iadd r0.x, r0.x, r0.y\n\
                 endloop\n"
            )
        };
        let with = unmasked(&body("continuec"));
        let without = unmasked(&body("breakc"));
        // r0.x (pc 7) is carried around the loop and read by itself
        assert!(!with[7], "{with:?}");
        assert!(without[7], "{without:?}");
        // r1.x and r1.y are written before they are read in every pass
        assert!(with[3] && with[5], "{with:?}");
    }

    /// In an `if` branch, a write blends when the lanes waiting for the
    /// `else` or the `endif` read the register there, and need not when
    /// every path from there writes it first.
    #[test]
    fn an_if_blends_what_its_waiting_lanes_read() {
        let u = unmasked(
            "mov r0.xy, l(1, 1, 0, 0)\n\
             ult r1.x, vThreadIDInGroupFlattened.x, l(3)\n\
             if_nz r1.x\n\
             mov r0.x, l(2)\n\
             mov r2.x, l(5)\n\
             else\n\
             mov r0.y, l(2)\n\
             mov r3.x, r2.x\n\
             endif\n\
             mov r2.x, l(0)\n\
             ishl r1.x, vThreadIDInGroupFlattened.x, l(2)\n\
             store_raw u0.xyz, r1.x, r0.xyzx\n",
        );
        // r0.x: read after the endif; r2.x: read in the else branch (the
        // waiting lanes' own word, as they never wrote it)
        assert!(!u[3] && !u[4], "{u:?}");
        // r0.y is read after the endif; r3.x never is
        assert!(!u[6] && u[7], "{u:?}");
        // outside any frame, every inactive lane has ended
        assert!(u[0] && u[1] && u[9] && u[10], "{u:?}");
    }

    /// None of the eight workloads reads a temp before writing it: none
    /// needs its register file zeroed for each group. That takes counting
    /// the loads as writes: cas_float_add reads r0.z only after an
    /// `ld_raw` wrote it.
    #[test]
    fn no_workload_reads_unwritten_temps() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
        for (name, want) in [
            ("cas_float_add", false),
            ("global_histogram", false),
            ("histogram", false),
            ("mandelbrot", false),
            ("matmul", false),
            ("reduce", false),
            ("saxpy_structured", false),
            ("scan", false),
        ] {
            let bytes = std::fs::read(format!("{dir}/{name}/{name}.dxbc")).unwrap();
            let prog = Program::from_dxbc(&bytes, &LoadOptions::default()).unwrap();
            assert_eq!(prog.info().liveness.reads_unwritten, want, "{name}");
        }
    }

    /// A `switch` or a call: lanes wait where the lane edges do not follow,
    /// and nothing skips the blend.
    #[test]
    fn switches_and_calls_give_up() {
        let u = unmasked(
            "mov r0.x, l(1)\n\
             switch vThreadIDInGroupFlattened.x\n\
             case l(1)\n\
             mov r1.x, l(2)\n\
             break\n\
             default\n\
             mov r1.x, l(3)\n\
             break\n\
             endswitch\n",
        );
        assert!(u.iter().all(|&u| !u), "{u:?}");
        let u = unmasked(
            "mov r0.x, l(1)\n\
             ult r1.x, vThreadIDInGroupFlattened.x, l(3)\n\
             callc_nz r1.x, l0\n\
             ret\n\
             label l0\n\
             mov r1.x, l(2)\n",
        );
        assert!(u.iter().all(|&u| !u), "{u:?}");
    }
}
