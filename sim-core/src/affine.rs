//! Lane-linear address operands, found once per program.
//!
//! Most compute shaders address memory with `SV_DispatchThreadID.x` or
//! `SV_GroupIndex` times a stride plus a constant (`ishl r0.x,
//! vThreadID.x, l(2)`, then `ld_raw … r0.x`). Within a basic block every
//! active lane runs the same straight-line code under one execution mask, so
//! such a register component holds `c + g·SV_GroupID.x + f·SV_GroupIndex` for
//! every active lane, with `c`, `g`, `f` known before the shader runs. A
//! memory instruction whose address operands have such forms needs no
//! per-lane check that its lanes' words lie on a line
//! ([`sim_mem::affine_words`]): the executor evaluates the form at the warp's
//! first lane and asks [`sim_mem::affine_line`] for the bounds, in O(1).
//!
//! The analysis is local to basic blocks: every control-flow instruction
//! (and every subroutine entry) forgets all forms, so no form ever spans a
//! change of the execution mask. Only integer instructions that are exact in
//! u32 arithmetic propagate a form: `mov` (no modifier, no `_sat`), `iadd`,
//! `ishl` by an immediate, `imad` and `imul`/`umul` (low half) with an
//! immediate factor, and the `-` (integer negate) source modifier. Any other
//! write to a component forgets it.

use crate::program::*;

/// `c + g·SV_GroupID.x + f·SV_GroupIndex` (`vThreadIDInGroupFlattened`),
/// every term in wrapping u32 arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Form {
    pub c: u32,
    pub g: u32,
    pub f: u32,
}

impl Form {
    fn constant(c: u32) -> Form {
        Form { c, g: 0, f: 0 }
    }

    fn add(self, o: Form) -> Form {
        Form {
            c: self.c.wrapping_add(o.c),
            g: self.g.wrapping_add(o.g),
            f: self.f.wrapping_add(o.f),
        }
    }

    fn scale(self, k: u32) -> Form {
        Form {
            c: self.c.wrapping_mul(k),
            g: self.g.wrapping_mul(k),
            f: self.f.wrapping_mul(k),
        }
    }

    /// A form with no lane term: its value when it is a known constant.
    fn as_constant(self) -> Option<u32> {
        (self.g == 0 && self.f == 0).then_some(self.c)
    }

    /// The value for a lane with `SV_GroupIndex` = `flat` in group `group_x`.
    pub(crate) fn at(self, group_x: u32, flat: u32) -> u32 {
        self.c
            .wrapping_add(self.g.wrapping_mul(group_x))
            .wrapping_add(self.f.wrapping_mul(flat))
    }
}

/// The forms of a memory instruction's address operands: `a` (byte offset,
/// or structure index) and `b` (byte offset in the structure; 0 for raw).
pub(crate) type AddressForms = (Form, Form);

/// Per pc, the [`AddressForms`] of each raw or structured load, store and
/// atomic whose address operands all have forms (`None` elsewhere).
pub(crate) fn address_forms(prog: &Program) -> Vec<Option<AddressForms>> {
    let mut known: Vec<Option<Form>> = vec![None; prog.temps as usize * 4];
    let entries: Vec<usize> = prog
        .function_bodies
        .iter()
        .map(|&(_, pc)| pc as usize)
        .collect();
    let mut out = Vec::with_capacity(prog.code.len());
    for (pc, op) in prog.code.iter().enumerate() {
        if entries.contains(&pc) {
            known.fill(None);
        }
        let src = |s: &Src, c: usize, known: &[Option<Form>]| src_form(prog, known, s, c);
        let zero = Form::constant(0);
        out.push(match op.kind {
            OpKind::LdRaw { ref addr, .. } | OpKind::StoreRaw { ref addr, .. } => {
                src(addr, 0, &known).map(|a| (a, zero))
            }
            OpKind::LdStructured {
                ref index,
                ref offset,
                ..
            }
            | OpKind::StoreStructured {
                ref index,
                ref offset,
                ..
            } => src(index, 0, &known).zip(src(offset, 0, &known)),
            OpKind::Atomic {
                ref addr,
                structured,
                res,
                ..
            } if !matches!(res, Res::UavTexture(_)) => {
                let b = if structured {
                    src(addr, 1, &known)
                } else {
                    Some(zero)
                };
                src(addr, 0, &known).zip(b)
            }
            _ => None,
        });
        step(prog, op, &mut known);
    }
    out
}

/// The form of component `c` of `s` (its swizzle and modifier applied).
fn src_form(prog: &Program, known: &[Option<Form>], s: &Src, c: usize) -> Option<Form> {
    let sc = *s.swz.get(c)? as usize;
    let one_d = prog.thread_group[1] == 1 && prog.thread_group[2] == 1;
    let f = match s.kind {
        SrcKind::Temp(r) => *known.get(r as usize * 4 + sc)?,
        SrcKind::Imm(v) => Some(Form::constant(*v.get(sc)?)),
        SrcKind::Flattened => Some(Form { c: 0, g: 0, f: 1 }),
        // in a group of one row, SV_GroupThreadID.x is SV_GroupIndex and
        // SV_DispatchThreadID.x is SV_GroupID.x·width + SV_GroupIndex
        SrcKind::ThreadIdInGroup if one_d && sc == 0 => Some(Form { c: 0, g: 0, f: 1 }),
        SrcKind::ThreadId if one_d && sc == 0 => Some(Form {
            c: 0,
            g: prog.thread_group[0],
            f: 1,
        }),
        SrcKind::GroupId if sc == 0 => Some(Form { c: 0, g: 1, f: 0 }),
        _ => None,
    }?;
    match s.modifier {
        SrcMod::None => Some(f),
        SrcMod::INeg => Some(f.scale(u32::MAX)),
        _ => None,
    }
}

/// Component `c` of temp `dst` now holds `value[c]`, for the components
/// `dst` writes.
fn set(known: &mut [Option<Form>], dst: &Dst, value: [Option<Form>; 4]) {
    if let DstKind::Temp(r) = dst.kind {
        for c in (0..4).filter(|c| dst.mask & (1 << c) != 0) {
            if let Some(k) = known.get_mut(r as usize * 4 + c) {
                *k = value[c];
            }
        }
    }
}

/// Update `known` for what `op` writes.
fn step(prog: &Program, op: &Op, known: &mut [Option<Form>]) {
    const NONE: [Option<Form>; 4] = [None; 4];
    match op.kind {
        OpKind::Alu {
            op,
            ref dst,
            ref src,
            sat,
        } => {
            // every source is read before the destination is written
            let s = |i: usize, c: usize| src_form(prog, known, &src[i], c);
            let value = |c: usize| -> Option<Form> {
                if sat {
                    return None;
                }
                match op {
                    AluOp::Mov => s(0, c),
                    AluOp::Iadd => Some(s(0, c)?.add(s(1, c)?)),
                    AluOp::Ishl => Some(s(0, c)?.scale(1 << (s(1, c)?.as_constant()? & 31))),
                    AluOp::Imad => {
                        let (x, y, z) = (s(0, c)?, s(1, c)?, s(2, c)?);
                        let xy = match (x.as_constant(), y.as_constant()) {
                            (_, Some(k)) => x.scale(k),
                            (Some(k), None) => y.scale(k),
                            (None, None) => return None,
                        };
                        Some(xy.add(z))
                    }
                    _ => None,
                }
            };
            let value: [Option<Form>; 4] = std::array::from_fn(value);
            set(known, dst, value);
        }
        OpKind::Alu2 {
            op,
            ref dst,
            ref src,
        } => {
            let s = |i: usize, c: usize| src_form(prog, known, &src[i], c);
            // imul/umul: dst[1] = the low 32 bits of the product
            let low = |c: usize| -> Option<Form> {
                if !matches!(op, Alu2Op::Imul | Alu2Op::Umul) {
                    return None;
                }
                let (x, y) = (s(0, c)?, s(1, c)?);
                match (x.as_constant(), y.as_constant()) {
                    (_, Some(k)) => Some(x.scale(k)),
                    (Some(k), None) => Some(y.scale(k)),
                    (None, None) => None,
                }
            };
            let low: [Option<Form>; 4] = std::array::from_fn(low);
            set(known, &dst[0], NONE);
            set(known, &dst[1], low);
        }
        OpKind::Double { ref dst, .. }
        | OpKind::LdRaw { ref dst, .. }
        | OpKind::LdStructured { ref dst, .. }
        | OpKind::LdTyped { ref dst, .. }
        | OpKind::Counter { ref dst, .. }
        | OpKind::Bufinfo { ref dst, .. } => set(known, dst, NONE),
        OpKind::Atomic {
            ret: Some(ref d), ..
        } => set(known, d, NONE),
        OpKind::Texture { index } => {
            if let Some(t) = prog.tex_ops.get(index as usize) {
                set(known, &t.dst, NONE);
            }
        }
        OpKind::Atomic { ret: None, .. }
        | OpKind::StoreTyped { .. }
        | OpKind::StoreRaw { .. }
        | OpKind::StoreStructured { .. }
        | OpKind::Sync { .. }
        | OpKind::Nop => {}
        // control flow: the execution mask may change here or lanes may
        // arrive from elsewhere
        OpKind::If { .. }
        | OpKind::Else { .. }
        | OpKind::EndIf
        | OpKind::Loop { .. }
        | OpKind::EndLoop { .. }
        | OpKind::Break { .. }
        | OpKind::Continue { .. }
        | OpKind::Switch { .. }
        | OpKind::Case { .. }
        | OpKind::Default
        | OpKind::EndSwitch
        | OpKind::InterfaceCall { .. }
        | OpKind::Call { .. }
        | OpKind::Ret { .. }
        | OpKind::Abort
        | OpKind::DebugBreak => known.fill(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(body: &str) -> Vec<Option<AddressForms>> {
        let text = format!(
            "cs_5_0\ndcl_resource_raw t0\ndcl_uav_structured u0, 16\n\
             dcl_input vThreadID.x\ndcl_input vThreadGroupID.x\n\
             dcl_input vThreadIDInGroupFlattened\ndcl_temps 3\n\
             dcl_thread_group 64, 1, 1\n{body}ret\n"
        );
        let decoded = crate::asm::assemble(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let prog = Program::from_decoded(decoded, None).unwrap_or_else(|e| panic!("{e}"));
        address_forms(&prog)
    }

    const fn form(c: u32, g: u32, f: u32) -> Form {
        Form { c, g, f }
    }

    /// Forms follow `ishl`, `iadd`, `imad`, `imul` and `-`, stop at a
    /// non-linear operation, and are forgotten at control flow.
    #[test]
    fn forms_follow_integer_arithmetic_within_a_block() {
        let f = forms(
            "ishl r0.x, vThreadID.x, l(2)\n\
             ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.x, t0.xxxx\n\
             imad r0.y, vThreadIDInGroupFlattened.x, l(3), l(5)\n\
             iadd r0.z, r0.y, -vThreadGroupID.x\n\
             store_structured u0.x, r0.z, l(4), r1.x\n\
             imul null, r2.x, r0.x, l(6)\n\
             atomic_iadd u0, r2.xyxx, l(1)\n\
             mov r2.y, l(8)\n\
             atomic_iadd u0, r2.xyxx, l(1)\n\
             xor r0.w, r0.x, l(1)\n\
             ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.w, t0.xxxx\n\
             if_nz r1.x\n\
             ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.x, t0.xxxx\n\
             endif\n",
        );
        let zero = form(0, 0, 0);
        let want = [
            None,
            Some((form(0, 256, 4), zero)),
            None,
            None,
            Some((form(5, u32::MAX, 3), form(4, 0, 0))),
            None,
            None, // r2.y is not known yet
            None,
            Some((form(0, 1536, 24), form(8, 0, 0))),
            None,
            None, // xor is not tracked
            None,
            None, // forgotten at if_nz
            None,
            None,
        ];
        assert_eq!(f, want);
    }
}
