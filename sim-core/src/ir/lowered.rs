//! The lowered program: what the executor runs and the analyses read.
//! Operands are resolved (register file, swizzle, modifiers, immediates) and
//! instructions grouped into the executor's operation kinds (`OpKind`), each
//! documented with the functional spec's section (FS §) it follows.

pub(crate) use crate::opcodes::{Alu2Op, AluOp, DoubleOp};
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
    Alu {
        op: AluOp,
        dst: Dst,
        src: [Src; 4],
        sat: bool,
    },
    Double {
        op: DoubleOp,
        dst: Dst,
        src: [Src; 3],
        sat: bool,
    },
    Alu2 {
        op: Alu2Op,
        dst: [Dst; 2],
        src: [Src; 3],
    },
    If {
        cond: Src,
        nz: bool,
        else_pc: Option<u32>,
        endif_pc: u32,
    },
    Else {
        endif_pc: u32,
    },
    EndIf,
    Loop {
        end_pc: u32,
    },
    EndLoop {
        start_pc: u32,
    },
    Break {
        cond: Option<(Src, bool)>,
    },
    Continue {
        cond: Option<(Src, bool)>,
    },
    Switch {
        sel: Src,
        id: u32,
    },
    Case {
        value: u32,
    },
    Default,
    EndSwitch,
    /// `fcall` not yet bound to a class instance (see `Program::bind_class_instances`)
    InterfaceCall {
        slot: u32,
        site: u32,
    },
    /// `call`/`callc`: run the subroutine at label `label` with the lanes for which `cond` holds
    Call {
        label: u32,
        cond: Option<(Src, bool)>,
    },
    Ret {
        cond: Option<(Src, bool)>,
    },
    LdRaw {
        dst: Dst,
        addr: Src,
        res: Res,
        swz: [u8; 4],
    },
    LdStructured {
        dst: Dst,
        index: Src,
        offset: Src,
        res: Res,
        swz: [u8; 4],
    },
    LdTyped {
        dst: Dst,
        addr: Src,
        res: Res,
        swz: [u8; 4],
    },
    StoreTyped {
        res: Res,
        addr: Src,
        value: Src,
    },
    StoreRaw {
        res: Res,
        count: u8,
        addr: Src,
        value: Src,
    },
    StoreStructured {
        res: Res,
        count: u8,
        index: Src,
        offset: Src,
        value: Src,
    },
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
    Counter {
        dst: Dst,
        uav: u32,
        alloc: bool,
    },
    Bufinfo {
        dst: Dst,
        res: Res,
    },
    /// `abort`: the active lanes end; counted in the statistics
    Abort,
    /// `debug_break`: no debugger is attached; counted in the statistics
    DebugBreak,
    /// a `printf`/`errorf`: `Body::messages[site]`
    Message {
        site: u32,
    },
    Sync {
        threads: bool,
        uglobal: bool,
    },
    /// a texture instruction: `Program::tex_ops[index]`
    Texture {
        index: u32,
    },
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
