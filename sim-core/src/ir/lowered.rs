//! The lowered program: what the executor runs and the analyses read.
//! Operands are resolved (register file, swizzle, modifiers, immediates) and
//! instructions grouped into the executor's operation kinds (`OpKind`), each
//! documented with the functional spec's section (FS §) it follows.

pub(crate) use crate::isa::opcodes::{Alu2Op, AluOp, DoubleOp};
use sim_mem::AtomicOp;

/// Source modifier resolved against the instruction's data type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SrcMod {
    None,
    FNeg,
    FAbs,
    FAbsNeg,
    INeg,
    IAbs,
    IAbsNeg,
    /// modifiers of a double operand, applied to the assembled 64-bit value
    DNeg,
    DAbs,
    DAbsNeg,
}

/// A relative index register: `r#.c` or `x#[n].c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rel {
    Temp { reg: u32, comp: u8 },
    XTemp { x: u32, elem: u32, comp: u8 },
}

/// `imm + rel`, wrapping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Idx {
    pub imm: u32,
    pub rel: Option<Rel>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SrcKind {
    Temp(u32),
    XTemp { x: u32, index: Idx },
    Imm([u32; 4]),
    ThreadId,
    GroupId,
    ThreadIdInGroup,
    Flattened,
    Cb { slot: u32, index: Idx },
    Icb { index: Idx },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Src {
    pub kind: SrcKind,
    pub swz: [u8; 4],
    pub modifier: SrcMod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DstKind {
    Temp(u32),
    XTemp { x: u32, index: Idx },
    Null,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dst {
    pub kind: DstKind,
    pub mask: u8,
}

/// A memory object operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Res {
    Srv(u32),
    Uav(u32),
    Tgsm(u32),
    /// a texture SRV t#
    SrvTexture(u32),
    /// a texture UAV u#
    UavTexture(u32),
}

/// What a texture instruction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TexKind {
    /// `ld`, `ld_uav_typed` on a texture: `addr` = int address (mip in .w for SRVs)
    Ld,
    /// `ldms`: `extra[0]` = sample index
    LdMs,
    /// `store_uav_typed` on a texture: `extra[0]` = value
    Store,
    /// `sample_l`: `extra[0]` = LOD
    SampleL,
    /// `sample_d`: `extra[0]`, `extra[1]` = ddx, ddy
    SampleD,
    /// `sample_c_lz`: `extra[0]` = reference
    SampleCLz,
    /// `gather4*`: channel from the sampler operand; `extra[0]` = programmable offset when `po`, `extra[1]` = reference when `compare`
    Gather {
        channel: u8,
        po: bool,
        compare: bool,
    },
    /// `resinfo`: `addr` = mip; 0 float, 1 rcpFloat, 2 uint
    Resinfo { mode: u8 },
    /// `sampleinfo[_uint]`
    SampleInfo { uint: bool },
    /// `samplepos`: `addr` = sample index
    SamplePos,
}

/// A texture instruction, kept beside the code so `OpKind` stays small.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TexOp {
    pub kind: TexKind,
    pub dst: Dst,
    pub addr: Src,
    /// `Res::SrvTexture` or `Res::UavTexture`
    pub res: Res,
    /// the resource operand's swizzle, applied to the result
    pub swz: [u8; 4],
    pub sampler: u32,
    /// `_aoffimmi(u, v, w)`
    pub offset: [i8; 3],
    pub extra: [Src; 2],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomicKind {
    And,
    Or,
    Xor,
    Add,
    IMax,
    IMin,
    UMax,
    UMin,
    Exch,
    CmpExch,
}

impl AtomicKind {
    /// Whether two operations of this kind give the same word in either
    /// order (everything but the exchanges).
    pub(crate) fn commutes(self) -> bool {
        !matches!(self, AtomicKind::Exch | AtomicKind::CmpExch)
    }

    /// The operation of this kind with operands `a` (value, or comparand)
    /// and `b` (the new value of a compare-exchange).
    pub(crate) fn op(self, a: u32, b: u32) -> AtomicOp {
        match self {
            AtomicKind::And => AtomicOp::And(a),
            AtomicKind::Or => AtomicOp::Or(a),
            AtomicKind::Xor => AtomicOp::Xor(a),
            AtomicKind::Add => AtomicOp::Add(a),
            AtomicKind::IMax => AtomicOp::IMax(a),
            AtomicKind::IMin => AtomicOp::IMin(a),
            AtomicKind::UMax => AtomicOp::UMax(a),
            AtomicKind::UMin => AtomicOp::UMin(a),
            AtomicKind::Exch => AtomicOp::Exchange(a),
            AtomicKind::CmpExch => AtomicOp::CompareExchange {
                compare: a,
                value: b,
            },
        }
    }

    /// The operand `v` for which `op(v)` leaves every word as it is, for
    /// the kinds that commute (0 for the exchanges, which have none).
    pub(crate) fn identity(self) -> u32 {
        match self {
            AtomicKind::And | AtomicKind::UMin => !0,
            AtomicKind::IMax => i32::MIN as u32,
            AtomicKind::IMin => i32::MAX as u32,
            _ => 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum OpKind {
    /// A component-wise ALU instruction (`reference/sm5-compute-isa.md`
    /// §3–§7, FS §22.10–§22.13): `dst` ← `op` of the `src` operands (the
    /// first `AluOp::arity` used) per masked component and active lane,
    /// then `_sat` when `sat`; float operands and results flushed per
    /// `compute-model.md` §8.
    Alu {
        op: AluOp,
        dst: Dst,
        src: [Src; 4],
        sat: bool,
    },
    /// A double-precision instruction (§8, FS §22.14): each double is two
    /// 32-bit components (`xy`, `zw`, low word first); `dst` ← `op` of the
    /// `src` operands, `_sat` when `sat`.
    Double {
        op: DoubleOp,
        dst: Dst,
        src: [Src; 3],
        sat: bool,
    },
    /// An instruction with two destinations (`udiv`, `umul`, `imul`,
    /// `uaddc`, `usubb`, `swapc`; §5, FS §22.12): `dst[0]` and `dst[1]` ←
    /// `op` of the `src` operands; a `null` destination is not written.
    Alu2 {
        op: Alu2Op,
        dst: [Dst; 2],
        src: [Src; 3],
    },
    /// `if_z`/`if_nz cond` (§9, FS §22.7.1): the active lanes whose `cond`
    /// (one selected component, tested bitwise) is nonzero (`nz`) or zero
    /// go on; the others wait at `else_pc` (the matching `else`, if any) or
    /// `endif_pc`.
    If {
        cond: Src,
        nz: bool,
        else_pc: Option<u32>,
        endif_pc: u32,
    },
    /// `else` (FS §22.7.2): the lanes that skipped the `if` run, those
    /// that ran it wait at `endif_pc`.
    Else { endif_pc: u32 },
    /// `endif` (FS §22.7.3): the lanes active at the matching `if` rejoin.
    EndIf,
    /// `loop` (FS §22.7.4): runs until every lane has left by `break` or
    /// `ret`; `end_pc` is the matching `endloop`.
    Loop { end_pc: u32 },
    /// `endloop` (FS §22.7.5): lanes still in the loop (and those that
    /// continued) go back to `start_pc`, the matching `loop`.
    EndLoop { start_pc: u32 },
    /// `break` / `breakc_z`/`breakc_nz` (FS §22.7.8–9): the lanes for which
    /// `cond` (a component and its `nz`) holds, or all active lanes, leave
    /// the innermost loop or switch.
    Break { cond: Option<(Src, bool)> },
    /// `continue` / `continuec_*` (FS §22.7.6–7): the lanes for which
    /// `cond` holds jump to the innermost loop's top.
    Continue { cond: Option<(Src, bool)> },
    /// `switch sel` (FS §22.7.12): each active lane goes to the `case`
    /// equal to its `sel` (bitwise) or to `default`;
    /// `Program::switches[id]` holds the case values and labels.
    Switch { sel: Src, id: u32 },
    /// `case value` (FS §22.7.13): the lanes whose selector is `value` join.
    Case { value: u32 },
    /// `default` (FS §22.7.14): the lanes that matched no case join.
    Default,
    /// `endswitch` (FS §22.7.18): the lanes that broke out of the switch
    /// rejoin.
    EndSwitch,
    /// `fcall fp#[i][site]` (FS §22.7.19) not yet bound to a class
    /// instance (see `Program::bind_class_instances`): `slot` is the
    /// interface, `site` the call site in its function tables
    InterfaceCall { slot: u32, site: u32 },
    /// `call`/`callc_*` (FS §22.7.10–11): run the subroutine at pc `label`
    /// with the lanes for which `cond` holds; past 32 stacked return
    /// addresses a call is skipped (FS §7.12)
    Call {
        label: u32,
        cond: Option<(Src, bool)>,
    },
    /// `ret` / `retc_*` (FS §22.7.16–17): the lanes for which `cond` holds
    /// return from the subroutine, or end when in the main program.
    Ret { cond: Option<(Src, bool)> },
    /// `ld_raw` (§10, FS §22.4.10): `dst.c` ← the dword at byte offset
    /// `addr` + 4·`swz[c]` of `res` (a raw SRV, UAV or TGSM region); out of
    /// bounds reads 0 (§14).
    LdRaw {
        dst: Dst,
        addr: Src,
        res: Res,
        swz: [u8; 4],
    },
    /// `ld_structured` (§10, FS §22.4.12): as [`OpKind::LdRaw`] at
    /// structure `index`, byte `offset` (the stride from the declaration).
    LdStructured {
        dst: Dst,
        index: Src,
        offset: Src,
        res: Res,
        swz: [u8; 4],
    },
    /// `ld_uav_typed` (and `ld` of a typed buffer SRV; §10, FS §22.4.8): the
    /// element at `addr.x` of a typed buffer view, converted from its
    /// format, swizzled by `swz`.
    LdTyped {
        dst: Dst,
        addr: Src,
        res: Res,
        swz: [u8; 4],
    },
    /// `store_uav_typed` on a typed buffer view (§11, FS §22.4.9): the four
    /// components of `value` converted to the view's format at element
    /// `addr.x`; out of bounds writes nothing.
    StoreTyped { res: Res, addr: Src, value: Src },
    /// `store_raw` (§11, FS §22.4.11): `count` (1–4) consecutive dwords of
    /// the swizzled `value` at byte offset `addr` of a raw UAV or TGSM
    /// region.
    StoreRaw {
        res: Res,
        count: u8,
        addr: Src,
        value: Src,
    },
    /// `store_structured` (§11.1, FS §22.4.13): as [`OpKind::StoreRaw`] at
    /// structure `index`, byte `offset`.
    StoreStructured {
        res: Res,
        count: u8,
        index: Src,
        offset: Src,
        value: Src,
    },
    /// `atomic_*` / `imm_atomic_*` (§12, FS §22.17.8–28): `kind` on the
    /// dword at `addr` of `res` (raw byte offset, structured index and
    /// offset, or typed coordinates) with operand `a` (and `b`, the new
    /// value of a compare-exchange); `ret` receives the old value
    /// (`imm_` forms).
    Atomic {
        kind: AtomicKind,
        ret: Option<Dst>,
        res: Res,
        /// address is (structure index, byte offset) rather than one byte offset / element
        structured: bool,
        addr: Src,
        a: Src,
        b: Src,
    },
    /// `imm_atomic_alloc` (`alloc`) / `imm_atomic_consume` (§12.2, FS
    /// §22.17.17–18): UAV `uav`'s hidden counter incremented (the old value
    /// to `dst`) or decremented (the new value).
    Counter { dst: Dst, uav: u32, alloc: bool },
    /// `bufinfo` (§10, FS §22.4.1): the view's element count (typed), byte
    /// count (raw) or structure count (structured), in every masked
    /// component; 0 when unbound.
    Bufinfo { dst: Dst, res: Res },
    /// `abort` (D3D's debug layer; C++ AMP's `direct3d_abort`): the active lanes end wherever they are;
    /// counted in the statistics and reported as a message
    Abort,
    /// `debug_break` (run by D3D's debug layer only): counted in the statistics and reported
    /// as a message; `run --break` stops there
    DebugBreak,
    /// `printf`/`errorf` (custom data, `dxbc-format.md` §5): each active
    /// lane formats `Body::messages[site]` (`crate::messages`)
    Message { site: u32 },
    /// `sync_*` (§13, FS §22.17.7): with `threads` (`_t`) an execution
    /// barrier for the group; `uglobal` a device-wide UAV fence. The
    /// memory effects of `_g`/`_ugroup` follow from running a group on one
    /// OS thread (`compute-model.md` §6).
    Sync { threads: bool, uglobal: bool },
    /// A texture instruction (`ld`, `ldms`, `sample_*`, `gather4*`,
    /// `resinfo`, `ld_uav_typed`/`store_uav_typed` on a texture UAV, …; §10–
    /// §11, FS §22.4): `Program::tex_ops[index]`
    Texture { index: u32 },
    /// `nop` and what lowering leaves with no effect (declarations'
    /// places, `label`).
    Nop,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Op {
    pub kind: OpKind,
    /// dword offset of the instruction, for diagnostics and profiles
    pub token: u32,
}

/// The cases of one `switch`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SwitchTable {
    pub values: Vec<u32>,
    /// pcs of its `case`, `default` and `endswitch` instructions, ascending
    pub labels: Vec<u32>,
}

/// The part of a lowered program the analyses read (`crate::analysis`): its
/// operations, texture instructions, `dcl_temps` count, group shape and
/// function bodies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Body<'a> {
    pub code: &'a [Op],
    pub tex_ops: &'a [TexOp],
    pub temps: u32,
    pub thread_group: [u32; 3],
    /// `label fb#` → pc of the body
    pub function_bodies: &'a [(u32, u32)],
    /// the `printf`s and `errorf`s, by [`OpKind::Message`]'s site
    pub messages: &'a [MessageSite],
}

/// A lowered `printf`/`errorf` (`crate::messages`): its parsed format and
/// its arguments, each one word or a double's two (`double`: the operand's
/// first two swizzled components, low word first).
#[derive(Debug, Clone)]
pub(crate) struct MessageSite {
    pub error: bool,
    pub format: std::sync::Arc<crate::messages::MessageFormat>,
    pub args: Vec<(Src, bool)>,
}

/// A source modifier applied to one 32-bit value (the double modifiers are
/// applied by `double` to assembled 64-bit values, so they leave it as is).
pub(crate) fn modify(v: u32, m: SrcMod) -> u32 {
    match m {
        SrcMod::None | SrcMod::DNeg | SrcMod::DAbs | SrcMod::DAbsNeg => v,
        SrcMod::FNeg => v ^ 0x8000_0000,
        SrcMod::FAbs => v & 0x7fff_ffff,
        SrcMod::FAbsNeg => v | 0x8000_0000,
        SrcMod::INeg => v.wrapping_neg(),
        SrcMod::IAbs => (v as i32).unsigned_abs(),
        SrcMod::IAbsNeg => (v as i32).unsigned_abs().wrapping_neg(),
    }
}
