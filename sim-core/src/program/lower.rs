//! Lowering: a decoded program validated against the format and the compute
//! model (FS §7; `reference/compute-model.md`) and turned into the operations
//! the executor runs ([`crate::ir::lowered`]).

use crate::front::rdef::Reflection;
use crate::ir::lowered::{
    AtomicKind, Dst, DstKind, Idx, MessageSite, Op, OpKind, Rel, Res, Src, SrcKind, SrcMod,
    SwitchTable, TexKind, TexOp,
};
use crate::ir::{
    Components, DecodedProgram, Index, Instruction, Modifier, Operand, OperandType, ProgramType,
    Selection,
};
use crate::isa::opcodes::{AluOp, DoubleOp, Opcode, Sem};
use crate::program::{
    BufferDecl, BufferDeclKind, Class, ConstantBufferDecl, IndexableTempDecl, InterfaceDecl,
    ProgramInfo, SamplerDecl, SamplerMode, TextureDecl, TgsmDecl, CALL_RESOLVED, FULLY_MAPPED,
};
use crate::{LoadError, Program};
use sim_mem::MAX_TGSM_BYTES;

enum Block {
    If { pc: usize, else_pc: Option<usize> },
    Loop { pc: usize },
    Switch { pc: usize, id: usize },
}

/// The deepest if/loop/switch nesting a routine may have (FS §7.12).
pub const MAX_FLOW_NESTING: usize = 64;

// Where the profile rules are written (`LoadError::Profile`).
/// An SM5 opcode in cs_4_x: what compute on D3D10.x hardware has.
const REF_SM5: &str =
    "FS §18.7: cs_4_x has the SM4 instructions plus raw and structured buffers, structured TGSM and sync";
/// An SM4.1 opcode in cs_4_0.
const REF_SM41: &str = "a D3D10_1_SB opcode: MSDN \"Shader Model 4 Assembly\", Shader Model 4.1";
/// Atomics, counters, doubles, typed UAVs and raw TGSM in cs_4_x.
const REF_CS4: &str =
    "FS §18.7; MSDN \"Compute Shader Overview\", Compute Shader on Direct3D 10.x hardware";
/// The one UAV of cs_4_x.
const REF_CS4_UAV: &str = "D3D11_CS_4_X_UAV_REGISTER_COUNT = 1; FS §18.7.2.2";
/// The thread-group limits of cs_4_x.
const REF_CS4_GROUP: &str =
    "D3D11_CS_4_X_THREAD_GROUP_MAX_*; MSDN \"numthreads\" and \"Compute Shader Overview\"";
/// The TGSM budget of cs_4_x.
const REF_CS4_TGSM: &str = "FS §18.7.2.7; MSDN \"Compute Shader Overview\": 16 KB per group";

pub(super) struct Lowering {
    p: Program,
    /// `label l#` → pc of its first instruction (a map: a file may hold
    /// 100,000 labels, and each is looked up once per definition and call)
    labels: std::collections::HashMap<u32, u32>,
    /// the `label fb#` numbers seen, as `labels`
    bodies: std::collections::HashSet<u32>,
    /// labels named by call/callc, with the call's dword offset
    calls: Vec<(u32, u32)>,
    blocks: Vec<Block>,
    /// mnemonic and token of the instruction being lowered
    at: (String, u32),
    /// registers whose declaration was unsupported (survey mode): their uses
    /// are reported as unsupported too, not as undeclared
    unsupported_decls: Vec<(OperandType, u32)>,
}

fn full_mnemonic(ins: &Instruction) -> String {
    crate::front::disasm::mnemonic(ins)
}

impl Lowering {
    /// Open a flow-control block: at most [`MAX_FLOW_NESTING`] deep (FS
    /// §7.12), which also bounds the work of lowering a file of endless
    /// `loop`s.
    fn push_block(&mut self, b: Block) -> Result<(), LoadError> {
        if self.blocks.len() >= MAX_FLOW_NESTING {
            return Err(self.invalid(format!(
                "flow control nested {} deep; at most {MAX_FLOW_NESTING} per routine (FS §7.12)",
                self.blocks.len() + 1
            )));
        }
        self.blocks.push(b);
        Ok(())
    }

    /// Validate and lower. With `survey`, unsupported instructions are
    /// collected there (and replaced by `nop`) instead of ending the run.
    pub(super) fn run(
        decoded: DecodedProgram,
        reflection: Option<Reflection>,
        mut survey: Option<&mut Vec<LoadError>>,
    ) -> Result<Program, LoadError> {
        let version = decoded.version;
        let mut l = Lowering {
            p: Program {
                version,
                decoded: DecodedProgram {
                    version,
                    instructions: Vec::new(),
                },
                reflection,
                source_map: None,
                class_linkage: None,
                debug_info_error: None,
                thread_group: [0; 3],
                temps: 0,
                indexable_temps: Vec::new(),
                constant_buffers: Vec::new(),
                srvs: Vec::new(),
                uavs: Vec::new(),
                srv_textures: Vec::new(),
                uav_textures: Vec::new(),
                samplers: Vec::new(),
                tex_ops: Vec::new(),
                messages: Vec::new(),
                tgsm: Vec::new(),
                icb: Vec::new(),
                code: Vec::new(),
                switches: Vec::new(),
                xtemp_layout: Vec::new(),
                function_tables: Vec::new(),
                interfaces: Vec::new(),
                function_bodies: Vec::new(),
                interface_calls: Vec::new(),
                bound_tables: Vec::new(),
                info: Default::default(),
            },
            labels: Default::default(),
            bodies: Default::default(),
            calls: Vec::new(),
            blocks: Vec::new(),
            at: ("program".into(), 0),
            unsupported_decls: Vec::new(),
        };
        if version.program_type != ProgramType::Compute {
            return Err(l.invalid(format!(
                "{}_{}_{} is not a compute shader",
                version.program_type.prefix(),
                version.major,
                version.minor
            )));
        }
        if version.major < 4 || version.major > 5 {
            return Err(l.unsupported(format!(
                "shader model {}.{} is not SM4/SM5",
                version.major, version.minor
            )));
        }
        // Declarations first (they may appear anywhere), then the code.
        let mut keep_going = |r: Result<(), LoadError>, l: &mut Lowering, nop: bool| match r {
            Err(e @ LoadError::Unsupported { .. }) => match survey.as_deref_mut() {
                Some(found) => {
                    found.push(e);
                    if nop {
                        l.emit(OpKind::Nop, l.at.1);
                    }
                    Ok(())
                }
                None => Err(e),
            },
            other => other,
        };
        for ins in &decoded.instructions {
            l.at = (full_mnemonic(ins), ins.offset);
            l.check_profile(ins)?;
            let r = l.declaration(ins);
            if matches!(r, Err(LoadError::Unsupported { .. })) {
                l.note_unsupported_declaration(ins);
            }
            keep_going(r, &mut l, false)?;
        }
        l.check_declarations()?;
        for ins in &decoded.instructions {
            l.at = (full_mnemonic(ins), ins.offset);
            let r = l.instruction(ins);
            keep_going(r, &mut l, true)?;
        }
        if let Some(b) = l.blocks.last() {
            let pc = match b {
                Block::If { pc, .. } | Block::Loop { pc } | Block::Switch { pc, .. } => *pc,
            };
            let token = l.p.code[pc].token;
            return Err(LoadError::Invalid {
                mnemonic: "program".into(),
                token,
                what: "a flow-control block opened here is never closed".into(),
            });
        }
        // Resolve call targets to pcs, in one pass (linear in the code: a
        // file of 100,000 calls loads as fast as one of other instructions).
        for &(label, token) in &l.calls {
            if !l.labels.contains_key(&label) {
                return Err(LoadError::Invalid {
                    mnemonic: "call".into(),
                    token,
                    what: format!("no label l{label}"),
                });
            }
        }
        for op in &mut l.p.code {
            if let OpKind::Call { label, .. } = &mut op.kind {
                *label = l.labels[label];
            }
        }
        // Class linkage: every table's bodies must exist.
        for (ft, bodies) in &l.p.function_tables {
            for fb in bodies {
                if !l.bodies.contains(fb) {
                    return Err(LoadError::Invalid {
                        mnemonic: "dcl_function_table".into(),
                        token: 0,
                        what: format!("ft{ft} names fb{fb}, which has no label"),
                    });
                }
            }
        }
        l.p.interface_calls =
            l.p.code
                .iter()
                .enumerate()
                .filter_map(|(i, op)| match op.kind {
                    OpKind::InterfaceCall { slot, site } => Some((i, slot, site)),
                    _ => None,
                })
                .collect();
        let slots: u32 = l.p.interfaces.iter().map(|i| i.array_len).sum();
        l.p.bound_tables = vec![None; slots as usize];
        l.p.decoded = decoded;
        if survey.is_none() {
            l.p.info = std::sync::Arc::new(ProgramInfo::new(l.p.body()));
        }
        Ok(l.p)
    }

    fn invalid(&self, what: impl Into<String>) -> LoadError {
        LoadError::Invalid {
            mnemonic: self.at.0.clone(),
            token: self.at.1,
            what: what.into(),
        }
    }

    fn unsupported(&self, what: impl Into<String>) -> LoadError {
        LoadError::Unsupported {
            mnemonic: self.at.0.clone(),
            token: self.at.1,
            what: what.into(),
        }
    }

    /// Remember the registers of a declaration that could not be supported.
    fn note_unsupported_declaration(&mut self, ins: &Instruction) {
        let Some(op) = ins.operands.first() else {
            return;
        };
        if self.p.version.is_sm51() {
            if let [_, lo, hi] = op.indices.as_slice() {
                let hi = hi.imm.min(lo.imm + 128);
                for r in lo.imm..=hi {
                    self.unsupported_decls.push((op.ty, r as u32));
                }
            }
        } else if let Some(r) = op.reg() {
            self.unsupported_decls.push((op.ty, r));
        }
    }

    /// A rule of the shader's profile broken by the instruction being lowered.
    fn profile(&self, rule: impl Into<String>, reference: &'static str) -> LoadError {
        let v = self.p.version;
        LoadError::Profile {
            mnemonic: self.at.0.clone(),
            token: self.at.1,
            profile: format!("{}_{}_{}", v.program_type.prefix(), v.major, v.minor),
            rule: rule.into(),
            reference,
        }
    }

    /// The profile rules one instruction can break by itself, checked
    /// before anything else about it (the thread-group and TGSM limits are
    /// checked with their declarations):
    ///
    /// - its opcode needs a later shader model than the program's
    ///   ([`crate::isa::opcodes::min_compute_model`]: cs_4_0 has the SM4.0
    ///   instructions and the compute additions of FS §18.7, cs_4_1 adds
    ///   the SM4.1 ones, everything else is cs_5_0);
    /// - cs_4_x: a UAV other than u0 (`D3D11_CS_4_X_UAV_REGISTER_COUNT` is
    ///   1), a structured UAV with an append/consume counter (`_opc`), and
    ///   `dcl_globalFlags` asking for doubles.
    ///
    /// Rows not valid in any compute shader are left to
    /// [`Lowering::instruction`], which says so.
    fn check_profile(&self, ins: &Instruction) -> Result<(), LoadError> {
        use Opcode::*;
        let info = ins.opcode.info();
        if !info.compute {
            return Ok(());
        }
        let v = self.p.version;
        if (v.major, v.minor) < info.min_model {
            let (major, minor) = info.min_model;
            let (why, reference) = match (info.class, ins.opcode) {
                (Class::Atomic, ImmAtomicAlloc | ImmAtomicConsume) => {
                    (" (cs_4_x has no append/consume counters)", REF_CS4)
                }
                (Class::Atomic, _) => (" (cs_4_x has no atomic operations)", REF_CS4),
                (Class::Double, _) => (" (cs_4_x has no double precision)", REF_CS4),
                (_, DclUavTyped) => (
                    " (cs_4_x UAVs are raw or structured buffers: no typed buffer or texture UAV)",
                    REF_CS4,
                ),
                (_, DclTgsmRaw) => (" (cs_4_x TGSM is dcl_tgsm_structured only)", REF_CS4),
                _ if (major, minor) == (4, 1) => ("", REF_SM41),
                _ => ("", REF_SM5),
            };
            return Err(self.profile(format!("needs cs_{major}_{minor}{why}"), reference));
        }
        if v.major != 4 {
            return Ok(());
        }
        match ins.opcode {
            DclUavRaw | DclUavStructured => {
                let reg = self.decl_reg(ins)?;
                if reg != 0 {
                    return Err(self.profile(
                        format!("u{reg}: cs_4_x has one UAV register, u0"),
                        REF_CS4_UAV,
                    ));
                }
                if ins.opcode == DclUavStructured && ins.token & (1 << 23) != 0 {
                    return Err(
                        self.profile("an append/consume counter (_opc) needs cs_5_0", REF_CS4)
                    );
                }
            }
            // bit 12 enableDoublePrecisionFloatOps, bit 17
            // enable11_1DoubleExtensions (dxbc-format.md §3.1)
            DclGlobalFlags if ins.token & (1 << 12 | 1 << 17) != 0 => {
                return Err(self.profile(
                    "double precision needs cs_5_0 (cs_4_x has no double precision)",
                    REF_CS4,
                ));
            }
            _ => {}
        }
        Ok(())
    }

    fn raw(&self, ins: &Instruction, i: usize) -> Result<u32, LoadError> {
        ins.raw
            .get(i)
            .copied()
            .ok_or_else(|| self.invalid("declaration is missing a dword"))
    }

    fn decl_reg(&self, ins: &Instruction) -> Result<u32, LoadError> {
        let op = ins
            .operands
            .first()
            .ok_or_else(|| self.invalid("declaration has no register operand"))?;
        op.reg()
            .ok_or_else(|| self.invalid("declaration register must be an immediate index"))
    }

    /// The registers a t#/u#/cb# declaration covers. SM5.0: its one register.
    /// SM5.1 (`reference/dxbc-format.md` §8): the range `[id][lower:upper]` in
    /// the register space held by raw dword `space_at`; sm5sim binds space 0
    /// only, by absolute register number.
    fn decl_slots(&self, ins: &Instruction, space_at: usize) -> Result<Vec<u32>, LoadError> {
        if !self.p.version.is_sm51() {
            return Ok(vec![self.decl_reg(ins)?]);
        }
        let op = ins
            .operands
            .first()
            .ok_or_else(|| self.invalid("declaration has no register operand"))?;
        let (lo, hi) = match op.indices.as_slice() {
            [_, lo, hi] if lo.rel.is_none() && hi.rel.is_none() => (lo.imm, hi.imm),
            _ => return Err(self.invalid("an SM5.1 declaration needs [id][lower:upper]")),
        };
        if hi == 0xffff_ffff {
            return Err(self.unsupported("unbounded resource ranges are not executed yet"));
        }
        if hi < lo || hi - lo >= 128 {
            return Err(self.invalid(format!("register range {lo}:{hi} is empty or too long")));
        }
        let space = self.raw(ins, space_at)?;
        if space != 0 {
            return Err(self.unsupported(format!("register space {space} (only space 0 is bound)")));
        }
        Ok((lo as u32..=hi as u32).collect())
    }

    /// Record a t#/u# declaration for each of `slots`.
    fn push_buffer_decl(
        &mut self,
        ins: &Instruction,
        uav: bool,
        slots: Vec<u32>,
        kind: BufferDeclKind,
    ) -> Result<(), LoadError> {
        let limit = if uav { 64 } else { 128 };
        for slot in slots {
            if slot >= limit {
                return Err(
                    self.invalid(format!("slot {slot} is past the last slot ({})", limit - 1))
                );
            }
            let decl = BufferDecl {
                slot,
                kind,
                globally_coherent: uav && ins.token & (1 << 16) != 0,
                token: ins.offset,
            };
            let list = if uav {
                &mut self.p.uavs
            } else {
                &mut self.p.srvs
            };
            if list.iter().any(|d| d.slot == slot) {
                return Err(self.invalid(format!("slot {slot} is declared twice")));
            }
            list.push(decl);
        }
        Ok(())
    }

    fn declaration(&mut self, ins: &Instruction) -> Result<(), LoadError> {
        use Opcode::*;
        match ins.opcode {
            DclThreadGroup => {
                if self.p.thread_group != [0; 3] {
                    return Err(self.invalid("more than one dcl_thread_group"));
                }
                let t = [self.raw(ins, 0)?, self.raw(ins, 1)?, self.raw(ins, 2)?];
                let product = t.iter().map(|&v| v as u128).product::<u128>();
                // cs_4_x: x, y ≤ 768, z = 1, x·y·z ≤ 768 (D3D11_CS_4_X_THREAD_GROUP_MAX_*;
                // MSDN "numthreads": "cs_4_x: Maximum Z 1")
                if self.p.version.major == 4
                    && !t.contains(&0)
                    && (t[0] > 768 || t[1] > 768 || t[2] > 1 || product > 768)
                {
                    return Err(self.profile(
                        format!(
                            "thread group {}x{}x{} is outside the cs_4_x limits (x, y ≤ 768, z = 1, x·y·z ≤ 768)",
                            t[0], t[1], t[2]
                        ),
                        REF_CS4_GROUP,
                    ));
                }
                let (xy, z, total) = (1024, 64, 1024);
                if t.contains(&0) || t[0] > xy || t[1] > xy || t[2] > z || product > total {
                    return Err(self.invalid(format!(
                        "thread group {}x{}x{} is outside the limits (x, y ≤ {xy}, z ≤ {z}, x·y·z ≤ {total})",
                        t[0], t[1], t[2]
                    )));
                }
                self.p.thread_group = t;
            }
            DclTemps => {
                let n = self.raw(ins, 0)?;
                if n > 4096 {
                    return Err(self.invalid(format!("dcl_temps {n} exceeds 4096")));
                }
                self.p.temps = n;
            }
            DclIndexableTemp => {
                let (reg, size, components) =
                    (self.raw(ins, 0)?, self.raw(ins, 1)?, self.raw(ins, 2)?);
                if reg >= 4096 || size > 4096 || !(1..=4).contains(&components) {
                    return Err(self.invalid("indexable temp out of range"));
                }
                self.p.indexable_temps.push(IndexableTempDecl {
                    reg,
                    size,
                    components,
                });
            }
            DclConstantBuffer => {
                let op = ins
                    .operands
                    .first()
                    .ok_or_else(|| self.invalid("no operand"))?;
                // SM5.0: cb#[size]; SM5.1: CB#[lower:upper], then size and space dwords.
                let size = if self.p.version.is_sm51() {
                    self.raw(ins, 0)?
                } else {
                    op.indices
                        .get(1)
                        .map(|i| i.imm as u32)
                        .ok_or_else(|| self.invalid("cb declaration without size"))?
                };
                for slot in self.decl_slots(ins, 1)? {
                    if slot > 14 || size > 4096 {
                        return Err(self.invalid(format!(
                            "cb{slot}[{size}] is outside cb0..cb14 / 4096 vec4"
                        )));
                    }
                    if self.p.constant_buffers.iter().any(|c| c.slot == slot) {
                        return Err(self.invalid(format!("cb{slot} is declared twice")));
                    }
                    self.p.constant_buffers.push(ConstantBufferDecl {
                        slot,
                        size_vec4: size,
                        dynamic: ins.token & (1 << 11) != 0,
                    });
                }
            }
            CustomData if (ins.token >> 11) == 3 => {
                if !self.p.icb.is_empty() {
                    return Err(self.invalid("more than one immediate constant buffer"));
                }
                if ins.raw.len() > 4096 * 4 {
                    return Err(self.invalid("immediate constant buffer exceeds 4096 vec4"));
                }
                self.p.icb = ins.raw.clone();
            }
            DclResourceRaw | DclResourceStructured | DclUavRaw | DclUavStructured => {
                let structured = matches!(ins.opcode, DclResourceStructured | DclUavStructured);
                let slots = self.decl_slots(ins, structured as usize)?;
                let kind = if structured {
                    let stride = self.raw(ins, 0)?;
                    if stride == 0 || stride % 4 != 0 || stride > 2048 {
                        return Err(self.invalid(format!(
                            "structured stride {stride} must be a nonzero multiple of 4, at most 2048"
                        )));
                    }
                    BufferDeclKind::Structured { stride }
                } else {
                    BufferDeclKind::Raw
                };
                let uav = matches!(ins.opcode, DclUavRaw | DclUavStructured);
                self.push_buffer_decl(ins, uav, slots, kind)?;
            }
            DclTgsmRaw | DclTgsmStructured => {
                let reg = self.decl_reg(ins)?;
                // (dcl_tgsm_raw in cs_4_x was refused by `check_profile`)
                let (stride, size) = if ins.opcode == DclTgsmRaw {
                    (0, self.raw(ins, 0)? as u64)
                } else {
                    let stride = self.raw(ins, 0)?;
                    let count = self.raw(ins, 1)?;
                    if stride == 0 || stride % 4 != 0 {
                        return Err(self.invalid(format!(
                            "TGSM stride {stride} must be a nonzero multiple of 4"
                        )));
                    }
                    (stride, stride as u64 * count as u64)
                };
                if reg >= 8192 {
                    return Err(self.invalid(format!("g{reg}: TGSM registers are g0 to g8191")));
                }
                if size % 4 != 0 {
                    return Err(self.invalid(format!(
                        "g{reg}: TGSM size {size} bytes must be a multiple of 4"
                    )));
                }
                if self.p.tgsm.iter().any(|t| t.reg == reg) {
                    return Err(self.invalid(format!("g{reg} is declared twice")));
                }
                self.p.tgsm.push(TgsmDecl {
                    reg,
                    stride,
                    size_bytes: size.min(u32::MAX as u64) as u32,
                });
                let total: u64 = self.p.tgsm.iter().map(|t| t.size_bytes as u64).sum();
                if self.p.version.major == 4 && total > (MAX_TGSM_BYTES / 2) as u64 {
                    return Err(self.profile(
                        format!(
                            "TGSM totals {total} bytes, over the {}-byte limit per group of cs_4_x",
                            MAX_TGSM_BYTES / 2
                        ),
                        REF_CS4_TGSM,
                    ));
                }
                let limit = MAX_TGSM_BYTES;
                if total > limit as u64 {
                    return Err(self.invalid(format!(
                        "TGSM totals {total} bytes, over the {limit}-byte limit per group"
                    )));
                }
            }
            DclResource | DclUavTyped if ins.controls() & 0x1f == 1 => {
                // Typed buffers (dimension 1): executed.
                let slots = self.decl_slots(ins, 1)?;
                let token = self.raw(ins, 0)?;
                let return_types = [0, 4, 8, 12].map(|s| ((token >> s) & 0xf) as u8);
                let uav = ins.opcode == DclUavTyped;
                self.push_buffer_decl(ins, uav, slots, BufferDeclKind::Typed { return_types })?;
            }
            DclResource | DclUavTyped => {
                use sim_mem::ViewDimension as V;
                let dimension = match ins.controls() & 0x1f {
                    2 => V::Texture1D,
                    3 => V::Texture2D,
                    4 => V::Texture2DMS,
                    5 => V::Texture3D,
                    6 => V::TextureCube,
                    7 => V::Texture1DArray,
                    8 => V::Texture2DArray,
                    9 => V::Texture2DMSArray,
                    10 => V::TextureCubeArray,
                    d => return Err(self.invalid(format!("resource dimension {d}"))),
                };
                let uav = ins.opcode == DclUavTyped;
                if uav && !dimension.allowed_for_uav() {
                    return Err(self.invalid(format!("a UAV cannot be a {}", dimension.name())));
                }
                let slots = self.decl_slots(ins, 1)?;
                let token = self.raw(ins, 0)?;
                let return_types = [0, 4, 8, 12].map(|s| ((token >> s) & 0xf) as u8);
                let limit = if uav { 64 } else { 128 };
                for slot in slots {
                    if slot >= limit {
                        return Err(self.invalid(format!(
                            "slot {slot} is past the last slot ({})",
                            limit - 1
                        )));
                    }
                    let taken = if uav {
                        self.p.uav(slot).is_some() || self.p.uav_texture(slot).is_some()
                    } else {
                        self.p.srv(slot).is_some() || self.p.srv_texture(slot).is_some()
                    };
                    if taken {
                        return Err(self.invalid(format!("slot {slot} is declared twice")));
                    }
                    let decl = TextureDecl {
                        slot,
                        dimension,
                        return_types,
                        sample_count: if dimension.is_multisampled() {
                            (ins.token >> 16) & 0x7f
                        } else {
                            0
                        },
                        globally_coherent: uav && ins.token & (1 << 16) != 0,
                        token: ins.offset,
                    };
                    if uav {
                        self.p.uav_textures.push(decl);
                    } else {
                        self.p.srv_textures.push(decl);
                    }
                }
            }
            DclSampler => {
                let mode = match ins.controls() & 0xf {
                    0 => SamplerMode::Default,
                    1 => SamplerMode::Comparison,
                    2 => SamplerMode::Mono,
                    m => return Err(self.invalid(format!("sampler mode {m}"))),
                };
                for slot in self.decl_slots(ins, 0)? {
                    if slot >= 16 {
                        return Err(self.invalid(format!("s{slot} is past the last sampler (s15)")));
                    }
                    if self.p.sampler(slot).is_some() {
                        return Err(self.invalid(format!("s{slot} is declared twice")));
                    }
                    self.p.samplers.push(SamplerDecl {
                        slot,
                        mode,
                        token: ins.offset,
                    });
                }
            }
            // Class linkage (TPF "Function Body", "Function Table", "Interface").
            DclFunctionBody => {}
            DclFunctionTable => {
                let id = self.raw(ins, 0)?;
                let bodies = ins.raw.get(2..).unwrap_or(&[]).to_vec();
                self.p.function_tables.push((id, bodies));
            }
            DclInterface => {
                let id = self.raw(ins, 0)?;
                let call_sites = self.raw(ins, 1)?;
                let array_len = self.raw(ins, 2)? >> 16;
                let first_slot = self.p.interfaces.iter().map(|i| i.array_len).sum();
                let tables = ins.raw.get(3..).unwrap_or(&[]).to_vec();
                if array_len == 0 || first_slot + array_len > 253 {
                    return Err(self.invalid("interface slots must number 1 to 253"));
                }
                self.p.interfaces.push(InterfaceDecl {
                    id,
                    array_len,
                    call_sites,
                    tables,
                    first_slot,
                });
            }
            // comments, debug info and opaque blocks carry nothing to execute (§3.3)
            DclInput | DclGlobalFlags | CustomData => {}
            op if op.info().class == Class::Decl => {
                return Err(self.invalid("declaration not valid in a compute shader"));
            }
            _ => {}
        }
        Ok(())
    }

    fn check_declarations(&mut self) -> Result<(), LoadError> {
        if self.p.thread_group == [0; 3] {
            self.at = ("program".into(), 0);
            return Err(self.invalid("no dcl_thread_group"));
        }
        let n = self
            .p
            .indexable_temps
            .iter()
            .map(|x| x.reg + 1)
            .max()
            .unwrap_or(0);
        let mut layout = vec![None; n as usize];
        let mut vec4s = self.p.temps as u64;
        for x in &self.p.indexable_temps {
            // sizes are ≤ 4096 each; the running total is checked before it can grow far
            vec4s += x.size as u64;
            if vec4s > 4096 {
                return Err(self.invalid("r# and x# together exceed 4096 vec4"));
            }
            if layout[x.reg as usize].is_some() {
                return Err(self.invalid(format!("x{} is declared twice", x.reg)));
            }
            layout[x.reg as usize] = Some((
                (vec4s - self.p.temps as u64 - x.size as u64) as u32 * 4,
                x.size,
            ));
        }
        self.p.xtemp_layout = layout;
        Ok(())
    }

    // -- operands -------------------------------------------------------

    fn src_mod(&self, class: Class, m: Modifier) -> SrcMod {
        if class == Class::Double {
            return match m {
                Modifier::None => SrcMod::None,
                Modifier::Neg => SrcMod::DNeg,
                Modifier::Abs => SrcMod::DAbs,
                Modifier::AbsNeg => SrcMod::DAbsNeg,
            };
        }
        let float = matches!(class, Class::Float | Class::Move | Class::FloatToInt);
        match (m, float) {
            (Modifier::None, _) => SrcMod::None,
            (Modifier::Neg, true) => SrcMod::FNeg,
            (Modifier::Abs, true) => SrcMod::FAbs,
            (Modifier::AbsNeg, true) => SrcMod::FAbsNeg,
            (Modifier::Neg, false) => SrcMod::INeg,
            (Modifier::Abs, false) => SrcMod::IAbs,
            (Modifier::AbsNeg, false) => SrcMod::IAbsNeg,
        }
    }

    fn rel(&self, op: &Operand) -> Result<Rel, LoadError> {
        let comp = match op.components {
            Components::Four(Selection::Select1(c)) => c,
            Components::Four(Selection::Swizzle(s)) => s[0],
            _ => 0,
        };
        match op.ty {
            OperandType::Temp => {
                let reg = op.reg().ok_or_else(|| self.invalid("bad relative index"))?;
                self.check_temp(reg)?;
                Ok(Rel::Temp { reg, comp })
            }
            OperandType::IndexableTemp => {
                let x = op.reg().ok_or_else(|| self.invalid("bad relative index"))?;
                let elem = op
                    .indices
                    .get(1)
                    .filter(|i| i.rel.is_none())
                    .map(|i| i.imm as u32)
                    .ok_or_else(|| self.unsupported("doubly relative indexing"))?;
                let (_, size) = self.xtemp(x)?;
                if elem >= size {
                    return Err(self.invalid(format!("x{x}[{elem}] is past its {size} elements")));
                }
                Ok(Rel::XTemp { x, elem, comp })
            }
            _ => Err(self.unsupported("relative index from this register type")),
        }
    }

    fn idx(&self, i: &Index) -> Result<Idx, LoadError> {
        let imm = u32::try_from(i.imm).map_err(|_| self.unsupported("64-bit index"))?;
        let rel = match &i.rel {
            Some(r) => Some(self.rel(r)?),
            None => None,
        };
        Ok(Idx { imm, rel })
    }

    fn check_temp(&self, reg: u32) -> Result<(), LoadError> {
        if reg >= self.p.temps {
            return Err(self.invalid(format!(
                "r{reg} is not declared (dcl_temps {})",
                self.p.temps
            )));
        }
        Ok(())
    }

    fn xtemp(&self, x: u32) -> Result<(u32, u32), LoadError> {
        self.p
            .xtemp_layout
            .get(x as usize)
            .copied()
            .flatten()
            .ok_or_else(|| self.invalid(format!("x{x} is not declared")))
    }

    /// `r#`: its register number, checked against `dcl_temps`.
    fn temp_reg(&self, op: &Operand) -> Result<u32, LoadError> {
        let reg = op.reg().ok_or_else(|| self.invalid("bad temp index"))?;
        self.check_temp(reg)?;
        Ok(reg)
    }

    /// `x#[index]`: the declared register and its element index.
    fn xtemp_operand(&self, op: &Operand) -> Result<(u32, Idx), LoadError> {
        let x = op.reg().ok_or_else(|| self.invalid("bad x# register"))?;
        self.xtemp(x)?;
        let index = op
            .indices
            .get(1)
            .ok_or_else(|| self.invalid("x# without an element index"))?;
        Ok((x, self.idx(index)?))
    }

    fn src(&self, op: &Operand, class: Class) -> Result<Src, LoadError> {
        let modifier = self.src_mod(class, op.modifier);
        let swz = op.swizzle();
        let kind = match op.ty {
            OperandType::Temp => SrcKind::Temp(self.temp_reg(op)?),
            OperandType::IndexableTemp => {
                let (x, index) = self.xtemp_operand(op)?;
                SrcKind::XTemp { x, index }
            }
            OperandType::Immediate32 => {
                let v = match op.imm.as_slice() {
                    [a] => [*a; 4],
                    [a, b, c, d] => [*a, *b, *c, *d],
                    _ => return Err(self.invalid("bad immediate")),
                };
                SrcKind::Imm(v)
            }
            OperandType::Immediate64 => {
                // `d(a)` or `d(a, b)`: each double as its two 32-bit halves,
                // low first, in the component pairs xy and zw that double
                // arithmetic reads (FS §22.14); one double fills both pairs
                let v = match op.imm.as_slice() {
                    [lo, hi] => [*lo, *hi, *lo, *hi],
                    [a, b, c, d] => [*a, *b, *c, *d],
                    _ => return Err(self.invalid("bad double immediate")),
                };
                SrcKind::Imm(v)
            }
            OperandType::InputThreadId => SrcKind::ThreadId,
            OperandType::InputThreadGroupId => SrcKind::GroupId,
            OperandType::InputThreadIdInGroup => SrcKind::ThreadIdInGroup,
            OperandType::InputThreadIdInGroupFlattened => SrcKind::Flattened,
            OperandType::ConstantBuffer if self.p.version.is_sm51() => {
                // CB#[slot][element] (§8)
                let slot = match op.indices.get(1) {
                    Some(Index { imm, rel: None }) => *imm as u32,
                    _ => return Err(self.unsupported("dynamically indexed constant-buffer ranges")),
                };
                if !self.p.constant_buffers.iter().any(|c| c.slot == slot) {
                    return Err(self.invalid(format!("cb{slot} is not declared")));
                }
                let index = self.idx(
                    op.indices
                        .get(2)
                        .ok_or_else(|| self.invalid("cb# without an element index"))?,
                )?;
                SrcKind::Cb { slot, index }
            }
            OperandType::ConstantBuffer => {
                let slot = op
                    .reg()
                    .ok_or_else(|| self.invalid("cb slot must be immediate"))?;
                if !self.p.constant_buffers.iter().any(|c| c.slot == slot) {
                    return Err(self.invalid(format!("cb{slot} is not declared")));
                }
                let index = self.idx(
                    op.indices
                        .get(1)
                        .ok_or_else(|| self.invalid("cb# without an element index"))?,
                )?;
                SrcKind::Cb { slot, index }
            }
            OperandType::ImmediateConstantBuffer => {
                let index = self.idx(
                    op.indices
                        .first()
                        .ok_or_else(|| self.invalid("icb without index"))?,
                )?;
                SrcKind::Icb { index }
            }
            other => {
                return Err(self.unsupported(format!(
                    "source operand {} in a compute executor",
                    other.name()
                )))
            }
        };
        Ok(Src {
            kind,
            swz,
            modifier,
        })
    }

    /// Up to `N` source operands, each read as `class_of(position)`; unused
    /// slots hold an immediate 0 that the executor never reads.
    fn sources<const N: usize>(
        &self,
        ops: &[Operand],
        class_of: impl Fn(usize) -> Class,
    ) -> Result<[Src; N], LoadError> {
        let mut src = [Src {
            kind: SrcKind::Imm([0; 4]),
            swz: [0, 1, 2, 3],
            modifier: SrcMod::None,
        }; N];
        for (i, o) in ops.iter().enumerate().take(N) {
            src[i] = self.src(o, class_of(i))?;
        }
        Ok(src)
    }

    fn dst(&self, op: &Operand) -> Result<Dst, LoadError> {
        let mask = match op.components {
            Components::Four(Selection::Mask(m)) => m,
            Components::Zero => 0,
            Components::One => 1,
            _ => return Err(self.invalid("destination must use a write mask")),
        };
        let kind = match op.ty {
            OperandType::Temp => DstKind::Temp(self.temp_reg(op)?),
            OperandType::IndexableTemp => {
                let (x, index) = self.xtemp_operand(op)?;
                DstKind::XTemp { x, index }
            }
            OperandType::Null => DstKind::Null,
            other => {
                return Err(self.invalid(format!("{} cannot be a destination here", other.name())))
            }
        };
        Ok(Dst { kind, mask })
    }

    fn res(&self, op: &Operand) -> Result<(Res, Option<BufferDeclKind>), LoadError> {
        let reg = if self.p.version.is_sm51() && op.ty != OperandType::ThreadGroupSharedMemory {
            // T#[slot]: range id, then the absolute register (§8).
            match op.indices.get(1) {
                Some(Index { imm, rel: None }) => *imm as u32,
                Some(_) => return Err(self.unsupported("dynamically indexed resource ranges")),
                None => return Err(self.invalid("an SM5.1 resource operand needs [id][slot]")),
            }
        } else {
            op.reg()
                .ok_or_else(|| self.invalid("resource register must be immediate"))?
        };
        if self.unsupported_decls.contains(&(op.ty, reg)) {
            return Err(self.unsupported(format!(
                "{}{reg}'s declaration is not supported",
                op.ty.name()
            )));
        }
        if op.ty == OperandType::Resource && self.p.srv_texture(reg).is_some() {
            return Ok((Res::SrvTexture(reg), None));
        }
        if op.ty == OperandType::UnorderedAccessView && self.p.uav_texture(reg).is_some() {
            return Ok((Res::UavTexture(reg), None));
        }
        Ok(match op.ty {
            OperandType::Resource => (
                Res::Srv(reg),
                Some(
                    self.p
                        .srv(reg)
                        .ok_or_else(|| self.invalid(format!("t{reg} is not declared")))?
                        .kind,
                ),
            ),
            OperandType::UnorderedAccessView => (
                Res::Uav(reg),
                Some(
                    self.p
                        .uav(reg)
                        .ok_or_else(|| self.invalid(format!("u{reg} is not declared")))?
                        .kind,
                ),
            ),
            OperandType::ThreadGroupSharedMemory => {
                let t = self
                    .p
                    .tgsm
                    .iter()
                    .find(|t| t.reg == reg)
                    .ok_or_else(|| self.invalid(format!("g{reg} is not declared")))?;
                let kind = if t.stride == 0 {
                    BufferDeclKind::Raw
                } else {
                    BufferDeclKind::Structured { stride: t.stride }
                };
                (Res::Tgsm(reg), Some(kind))
            }
            other => {
                return Err(self.invalid(format!(
                    "{} is not a buffer, UAV or TGSM operand",
                    other.name()
                )))
            }
        })
    }

    /// A sampler operand `s#` (SM5.1: `S#[id][slot]`): its slot, which must be declared.
    fn sampler_operand(&self, op: &Operand) -> Result<u32, LoadError> {
        if op.ty != OperandType::Sampler {
            return Err(self.invalid("expected a sampler operand s#"));
        }
        let reg = if self.p.version.is_sm51() {
            match op.indices.get(1) {
                Some(Index { imm, rel: None }) => *imm as u32,
                Some(_) => return Err(self.unsupported("dynamically indexed sampler ranges")),
                None => return Err(self.invalid("an SM5.1 sampler operand needs [id][slot]")),
            }
        } else {
            op.reg()
                .ok_or_else(|| self.invalid("sampler register must be immediate"))?
        };
        if self.unsupported_decls.contains(&(op.ty, reg)) {
            return Err(self.unsupported(format!("s{reg}'s declaration is not supported")));
        }
        if self.p.sampler(reg).is_none() {
            return Err(self.invalid(format!("s{reg} is not declared")));
        }
        Ok(reg)
    }

    /// Lower a texture instruction (`reference/sm5-compute-isa.md` §10;
    /// operand orders from FS §22.4) into a [`TexOp`].
    fn texture_instruction(&mut self, ins: &Instruction) -> Result<(), LoadError> {
        use sim_mem::ViewDimension as V;
        use Opcode as O;
        let ops = &ins.operands;
        let zero = Src {
            kind: SrcKind::Imm([0; 4]),
            swz: [0, 1, 2, 3],
            modifier: SrcMod::None,
        };
        let need = |n: usize| -> Result<(), LoadError> {
            if ops.len() < n {
                Err(self.invalid(format!("needs {n} operands")))
            } else {
                Ok(())
            }
        };
        // operand positions: resource, sampler and the rest
        let (res_at, sampler_at) = match ins.opcode {
            O::StoreUavTyped => (0, None),
            O::SampleInfo | O::SamplePos => (1, None),
            O::Gather4Po | O::Gather4PoC => (3, Some(4)),
            O::SampleL | O::SampleD | O::SampleCLz | O::Gather4 | O::Gather4C => (2, Some(3)),
            _ => (2, None),
        };
        need(res_at + 1 + sampler_at.is_some() as usize)?;
        let (res, _) = self.res(&ops[res_at])?;
        let decl = match res {
            Res::SrvTexture(t) => self.p.srv_texture(t).copied(),
            Res::UavTexture(u) => self.p.uav_texture(u).copied(),
            _ => None,
        }
        .ok_or_else(|| self.invalid("needs a texture t# or u#"))?;
        let dim = decl.dimension;
        let is_uav = matches!(res, Res::UavTexture(_));
        let sampler = match sampler_at {
            Some(i) => self.sampler_operand(&ops[i])?,
            None => 0,
        };
        let sampling = sampler_at.is_some();
        if sampling && is_uav {
            return Err(self.invalid("UAVs cannot be sampled"));
        }
        if sampling && dim.is_multisampled() {
            return Err(self.invalid("multisampled textures cannot be sampled"));
        }
        let float_rt =
            decl.return_types[0] == 5 || decl.return_types[0] == 1 || decl.return_types[0] == 2;
        let kind = match ins.opcode {
            O::Ld | O::LdUavTyped => {
                if ins.opcode == O::LdUavTyped && !is_uav {
                    return Err(self.invalid("ld_uav_typed reads a u#"));
                }
                if ins.opcode == O::Ld && is_uav {
                    return Err(self.invalid("ld reads a t#; use ld_uav_typed for a u#"));
                }
                if dim.is_cube() {
                    return Err(self.invalid("ld cannot read a cube texture"));
                }
                if dim.is_multisampled() {
                    return Err(self.invalid("ld cannot read a multisampled texture; use ldms"));
                }
                TexKind::Ld
            }
            O::LdMs => {
                if !dim.is_multisampled() {
                    return Err(self.invalid("ldms reads a texture2dms(array)"));
                }
                TexKind::LdMs
            }
            O::StoreUavTyped => TexKind::Store,
            O::SampleL => TexKind::SampleL,
            O::SampleD => TexKind::SampleD,
            O::SampleCLz => TexKind::SampleCLz,
            O::Gather4 | O::Gather4C | O::Gather4Po | O::Gather4PoC => {
                if matches!(dim, V::Texture1D | V::Texture1DArray | V::Texture3D) {
                    return Err(self.invalid("gather4 needs a 2D, 2D array or cube texture"));
                }
                let po = matches!(ins.opcode, O::Gather4Po | O::Gather4PoC);
                if po && dim.is_cube() {
                    return Err(self.invalid("gather4_po cannot read a cube texture"));
                }
                let s_op = &ops[sampler_at.unwrap_or(0)];
                TexKind::Gather {
                    channel: s_op.swizzle()[0],
                    po,
                    compare: matches!(ins.opcode, O::Gather4C | O::Gather4PoC),
                }
            }
            O::Resinfo => TexKind::Resinfo {
                mode: (ins.controls() & 3) as u8,
            },
            O::SampleInfo => TexKind::SampleInfo {
                uint: ins.controls() & 1 != 0,
            },
            O::SamplePos => TexKind::SamplePos,
            _ => return Err(self.invalid("not a texture instruction")),
        };
        if matches!(kind, TexKind::SampleCLz)
            || matches!(kind, TexKind::Gather { compare: true, .. })
        {
            let mode = self.p.sampler(sampler).map(|s| s.mode);
            if mode != Some(SamplerMode::Comparison) {
                return Err(self.invalid(format!(
                    "s{sampler} must be declared mode_comparison for a comparison instruction"
                )));
            }
        }
        if matches!(kind, TexKind::SampleL | TexKind::SampleD) && !float_rt {
            return Err(self.invalid("integer textures cannot be sampled"));
        }
        let offset = ins.extended.sample_offsets.unwrap_or([0; 3]);
        let swz = if matches!(kind, TexKind::Store) {
            [0, 1, 2, 3]
        } else {
            ops[res_at].swizzle()
        };
        // destination, address and extras per FS §22.4
        let (dst, addr, extra) = match kind {
            TexKind::Store => {
                if ops.len() < 3 {
                    return Err(self.invalid("store_uav_typed needs u#, address, value"));
                }
                let dst = Dst {
                    kind: DstKind::Null,
                    mask: 0,
                };
                (
                    dst,
                    self.src(&ops[1], Class::Int)?,
                    [self.src(&ops[2], Class::Move)?, zero],
                )
            }
            TexKind::SampleInfo { .. } => (self.dst(&ops[0])?, zero, [zero, zero]),
            _ => {
                let dst = self.dst(&ops[0])?;
                let addr_class = match kind {
                    TexKind::Ld | TexKind::LdMs | TexKind::Resinfo { .. } | TexKind::SamplePos => {
                        Class::Int
                    }
                    _ => Class::Float,
                };
                // samplepos dest, t#, sampleIndex (FS §22.4.22): the index comes last
                let addr_at = if matches!(kind, TexKind::SamplePos) {
                    2
                } else {
                    1
                };
                let addr = self.src(
                    ops.get(addr_at)
                        .ok_or_else(|| self.invalid("samplepos needs a sample index"))?,
                    addr_class,
                )?;
                let tail = |k: usize| ops.get(k);
                let mut extra = [zero, zero];
                match kind {
                    TexKind::LdMs => {
                        let o = tail(3).ok_or_else(|| self.invalid("ldms needs a sample index"))?;
                        extra[0] = self.src(o, Class::Int)?;
                    }
                    TexKind::SampleL | TexKind::SampleCLz => {
                        let o = tail(4).ok_or_else(|| self.invalid("needs a LOD or reference"))?;
                        extra[0] = self.src(o, Class::Float)?;
                    }
                    TexKind::SampleD => {
                        let (Some(x), Some(y)) = (tail(4), tail(5)) else {
                            return Err(self.invalid("sample_d needs ddx and ddy"));
                        };
                        extra = [self.src(x, Class::Float)?, self.src(y, Class::Float)?];
                    }
                    TexKind::Gather { po, compare, .. } => {
                        if po {
                            extra[0] = self.src(&ops[2], Class::Int)?;
                        }
                        if compare {
                            let at = sampler_at.unwrap_or(0) + 1;
                            let o = tail(at).ok_or_else(|| self.invalid("needs a reference"))?;
                            extra[1] = self.src(o, Class::Float)?;
                        }
                    }
                    _ => {}
                }
                (dst, addr, extra)
            }
        };
        let index = self.p.tex_ops.len() as u32;
        self.p.tex_ops.push(TexOp {
            kind,
            dst,
            addr,
            res,
            swz,
            sampler,
            offset,
            extra,
        });
        self.emit(OpKind::Texture { index }, ins.offset);
        Ok(())
    }

    fn store_count(&self, op: &Operand) -> Result<u8, LoadError> {
        match op.mask() {
            Some(0b0001) => Ok(1),
            Some(0b0011) => Ok(2),
            Some(0b0111) => Ok(3),
            Some(0b1111) => Ok(4),
            _ => Err(self.invalid("a raw/structured store mask must be .x, .xy, .xyz or .xyzw")),
        }
    }

    /// `fcall fp#[index][site]`: the interface slot and call site.
    fn interface_call(&self, ins: &Instruction) -> Result<(u32, u32), LoadError> {
        let op = ins
            .operands
            .first()
            .ok_or_else(|| self.invalid("fcall needs fp#[i][site]"))?;
        let id = op
            .reg()
            .ok_or_else(|| self.invalid("fcall needs fp#[i][site]"))?;
        let iface = self
            .p
            .interfaces
            .iter()
            .find(|i| i.id == id)
            .ok_or_else(|| self.invalid(format!("fp{id} is not declared")))?;
        let index = match op.indices.get(1) {
            Some(Index { imm, rel: None }) => *imm as u32,
            Some(_) => return Err(self.unsupported("dynamically indexed interface arrays")),
            None => 0,
        };
        let site = ins.raw.first().copied().unwrap_or(0);
        if index >= iface.array_len || site >= iface.call_sites {
            return Err(self.invalid(format!(
                "fp{id}[{index}][{site}] is outside its declaration"
            )));
        }
        Ok((iface.first_slot + index, site))
    }

    fn label_operand(&self, op: &Operand) -> Result<u32, LoadError> {
        match (op.ty, op.reg()) {
            (OperandType::Label, Some(l)) if l < CALL_RESOLVED => Ok(l),
            _ => Err(self.invalid("expected a label operand l#")),
        }
    }

    fn cond(&self, ins: &Instruction) -> Result<(Src, bool), LoadError> {
        Ok((self.src(&ins.operands[0], Class::Int)?, ins.test_nonzero()))
    }

    /// A `printf`/`errorf` (`crate::messages`): an argument whose operand
    /// selects four components (`cb0[0].xyxy`) or is a 64-bit immediate is
    /// a double, any other one word.
    fn message(&mut self, ins: &Instruction, m: crate::ir::ShaderMessage) -> Result<(), LoadError> {
        let mut args = Vec::new();
        for op in &ins.operands {
            let double = op.ty == OperandType::Immediate64
                || matches!(
                    op.components,
                    crate::ir::Components::Four(crate::ir::Selection::Swizzle(_))
                );
            args.push((self.src(op, Class::Int)?, double));
        }
        let words: usize = args.iter().map(|a| 1 + a.1 as usize).sum();
        if words > crate::messages::MAX_ARG_WORDS {
            return Err(self.invalid(format!(
                "a shader message with {words} argument words (at most {})",
                crate::messages::MAX_ARG_WORDS
            )));
        }
        let site = self.p.messages.len() as u32;
        self.p.messages.push(MessageSite {
            error: m.error,
            format: std::sync::Arc::new(crate::messages::MessageFormat::parse(
                &m.format,
                args.len(),
            )),
            args,
        });
        self.emit(OpKind::Message { site }, ins.offset);
        Ok(())
    }

    fn emit(&mut self, kind: OpKind, token: u32) -> usize {
        self.p.code.push(Op { kind, token });
        self.p.code.len() - 1
    }

    // -- instructions ---------------------------------------------------

    fn instruction(&mut self, ins: &Instruction) -> Result<(), LoadError> {
        use Opcode as O;
        let info = ins.opcode.info();
        if let Some(m) = ins.shader_message() {
            return self.message(ins, m);
        }
        if info.class == Class::Decl {
            return Ok(());
        }
        if !info.compute {
            return Err(self.invalid("not valid in a compute shader"));
        }
        let class = info.class;
        let pc = self.p.code.len();
        let t = ins.offset;
        let ops = &ins.operands;
        // the row's semantics: ALU, double and two-destination instructions
        // are lowered from it alone; the others by their own code below
        match info.sem {
            Sem::Alu(op) => {
                let dst = self.dst(&ops[0])?;
                let src: [Src; 4] = self.sources(&ops[1..], |_| class)?;
                self.emit(
                    OpKind::Alu {
                        op,
                        dst,
                        src,
                        sat: ins.saturate(),
                    },
                    t,
                );
                return Ok(());
            }
            Sem::Double(op) => {
                let dst = self.dst(&ops[0])?;
                // Sources read as doubles take double modifiers; the 32-bit
                // sources of ftod (float), itod/utod (int) and the dmovc
                // condition take the 32-bit kind.
                let src: [Src; 3] = self.sources(&ops[1..], |i| match (op, i) {
                    (DoubleOp::FromF32, _) => Class::Float,
                    (DoubleOp::FromI32 | DoubleOp::FromU32, _) | (DoubleOp::Movc, 0) => Class::Int,
                    _ => Class::Double,
                })?;
                self.emit(
                    OpKind::Double {
                        op,
                        dst,
                        src,
                        sat: ins.saturate(),
                    },
                    t,
                );
                return Ok(());
            }
            Sem::Alu2(op) => {
                let dst = [self.dst(&ops[0])?, self.dst(&ops[1])?];
                let src: [Src; 3] = self.sources(&ops[2..], |_| class)?;
                self.emit(OpKind::Alu2 { op, dst, src }, t);
                return Ok(());
            }
            Sem::Own => {}
            // (declarations returned above, and rows not valid in a
            // compute shader were refused)
            Sem::Decl | Sem::NotCompute | Sem::Reserved => {
                return Err(self.invalid("not an instruction of a compute shader"));
            }
        }
        match ins.opcode {
            O::If => {
                let (cond, nz) = self.cond(ins)?;
                self.push_block(Block::If { pc, else_pc: None })?;
                self.emit(
                    OpKind::If {
                        cond,
                        nz,
                        else_pc: None,
                        endif_pc: 0,
                    },
                    t,
                );
            }
            O::Else => {
                match self.blocks.last_mut() {
                    Some(Block::If {
                        else_pc: e @ None, ..
                    }) => *e = Some(pc),
                    _ => return Err(self.invalid("else without a matching if")),
                }
                self.emit(OpKind::Else { endif_pc: 0 }, t);
            }
            O::EndIf => {
                let Some(Block::If { pc: if_pc, else_pc }) = self.blocks.pop() else {
                    return Err(self.invalid("endif without a matching if"));
                };
                let end = pc as u32;
                if let OpKind::If {
                    else_pc: e,
                    endif_pc,
                    ..
                } = &mut self.p.code[if_pc].kind
                {
                    *e = else_pc.map(|v| v as u32);
                    *endif_pc = end;
                }
                if let Some(e) = else_pc {
                    self.p.code[e].kind = OpKind::Else { endif_pc: end };
                }
                self.emit(OpKind::EndIf, t);
            }
            O::Loop => {
                self.push_block(Block::Loop { pc })?;
                self.emit(OpKind::Loop { end_pc: 0 }, t);
            }
            O::EndLoop => {
                let Some(Block::Loop { pc: start }) = self.blocks.pop() else {
                    return Err(self.invalid("endloop without a matching loop"));
                };
                self.p.code[start].kind = OpKind::Loop { end_pc: pc as u32 };
                self.emit(
                    OpKind::EndLoop {
                        start_pc: start as u32,
                    },
                    t,
                );
            }
            O::Break | O::Breakc => {
                if !self
                    .blocks
                    .iter()
                    .any(|b| matches!(b, Block::Loop { .. } | Block::Switch { .. }))
                {
                    return Err(self.invalid("break outside a loop or switch"));
                }
                let cond = if ins.opcode == O::Breakc {
                    Some(self.cond(ins)?)
                } else {
                    None
                };
                self.emit(OpKind::Break { cond }, t);
            }
            O::Continue | O::Continuec => {
                if !self.blocks.iter().any(|b| matches!(b, Block::Loop { .. })) {
                    return Err(self.invalid("continue outside a loop"));
                }
                let cond = if ins.opcode == O::Continuec {
                    Some(self.cond(ins)?)
                } else {
                    None
                };
                self.emit(OpKind::Continue { cond }, t);
            }
            O::Ret | O::Retc => {
                let cond = if ins.opcode == O::Retc {
                    Some(self.cond(ins)?)
                } else {
                    None
                };
                self.emit(OpKind::Ret { cond }, t);
            }
            O::Switch => {
                let sel = self.src(&ops[0], Class::Int)?;
                let id = self.p.switches.len();
                self.p.switches.push(SwitchTable::default());
                self.push_block(Block::Switch { pc, id })?;
                self.emit(OpKind::Switch { sel, id: id as u32 }, t);
            }
            O::Case | O::Default => {
                let Some(Block::Switch { id, .. }) = self.blocks.last() else {
                    return Err(self.invalid("case or default outside a switch (directly)"));
                };
                let id = *id;
                let kind = if ins.opcode == O::Case {
                    let value = match ops[0].imm.as_slice() {
                        [v, ..] if ops[0].ty == OperandType::Immediate32 => *v,
                        _ => return Err(self.invalid("case needs an immediate")),
                    };
                    if self.p.switches[id].values.contains(&value) {
                        return Err(self.invalid(format!("case {value} appears twice")));
                    }
                    self.p.switches[id].values.push(value);
                    OpKind::Case { value }
                } else {
                    OpKind::Default
                };
                self.p.switches[id].labels.push(pc as u32);
                self.emit(kind, t);
            }
            O::EndSwitch => {
                let Some(Block::Switch { id, .. }) = self.blocks.pop() else {
                    return Err(self.invalid("endswitch without a matching switch"));
                };
                self.p.switches[id].labels.push(pc as u32);
                self.emit(OpKind::EndSwitch, t);
            }
            O::LdRaw | O::LdStructured => {
                let dst = self.dst(&ops[0])?;
                let src_op = ops.last().ok_or_else(|| self.invalid("missing resource"))?;
                let (res, kind) = self.res(src_op)?;
                let structured = ins.opcode == O::LdStructured;
                match (structured, kind) {
                    (true, Some(BufferDeclKind::Structured { .. }))
                    | (false, Some(BufferDeclKind::Raw)) => {} // ld_raw of a structured buffer reads it as bytes: allowed (FS §22.4.10)
                    (false, Some(BufferDeclKind::Structured { .. })) => {}
                    (_, Some(BufferDeclKind::Typed { .. })) => {
                        return Err(self
                            .invalid("raw and structured loads need a raw or structured resource"))
                    }
                    _ => return Err(self.invalid("ld_structured needs a structured resource")),
                }
                let swz = src_op.swizzle();
                let kind = if structured {
                    OpKind::LdStructured {
                        dst,
                        index: self.src(&ops[1], Class::Int)?,
                        offset: self.src(&ops[2], Class::Int)?,
                        res,
                        swz,
                    }
                } else {
                    OpKind::LdRaw {
                        dst,
                        addr: self.src(&ops[1], Class::Int)?,
                        res,
                        swz,
                    }
                };
                self.emit(kind, t);
            }
            O::StoreRaw | O::StoreStructured => {
                let (res, kind) = self.res(&ops[0])?;
                if matches!(res, Res::Srv(_)) {
                    return Err(self.invalid("cannot store to an SRV"));
                }
                let count = self.store_count(&ops[0])?;
                if matches!(kind, Some(BufferDeclKind::Typed { .. })) {
                    return Err(
                        self.invalid("raw and structured stores need a raw or structured UAV")
                    );
                }
                let kind = if ins.opcode == O::StoreStructured {
                    if !matches!(kind, Some(BufferDeclKind::Structured { .. })) {
                        return Err(self.invalid("store_structured needs a structured UAV or TGSM"));
                    }
                    OpKind::StoreStructured {
                        res,
                        count,
                        index: self.src(&ops[1], Class::Int)?,
                        offset: self.src(&ops[2], Class::Int)?,
                        value: self.src(&ops[3], Class::Move)?,
                    }
                } else {
                    OpKind::StoreRaw {
                        res,
                        count,
                        addr: self.src(&ops[1], Class::Int)?,
                        value: self.src(&ops[2], Class::Move)?,
                    }
                };
                self.emit(kind, t);
            }
            O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
            | O::AtomicCmpStore
            | O::AtomicIadd
            | O::AtomicImax
            | O::AtomicImin
            | O::AtomicUmax
            | O::AtomicUmin
            | O::ImmAtomicIadd
            | O::ImmAtomicAnd
            | O::ImmAtomicOr
            | O::ImmAtomicXor
            | O::ImmAtomicExch
            | O::ImmAtomicCmpExch
            | O::ImmAtomicImax
            | O::ImmAtomicImin
            | O::ImmAtomicUmax
            | O::ImmAtomicUmin => {
                let kind = match ins.opcode {
                    O::AtomicAnd | O::ImmAtomicAnd => AtomicKind::And,
                    O::AtomicOr | O::ImmAtomicOr => AtomicKind::Or,
                    O::AtomicXor | O::ImmAtomicXor => AtomicKind::Xor,
                    O::AtomicIadd | O::ImmAtomicIadd => AtomicKind::Add,
                    O::AtomicImax | O::ImmAtomicImax => AtomicKind::IMax,
                    O::AtomicImin | O::ImmAtomicImin => AtomicKind::IMin,
                    O::AtomicUmax | O::ImmAtomicUmax => AtomicKind::UMax,
                    O::AtomicUmin | O::ImmAtomicUmin => AtomicKind::UMin,
                    O::ImmAtomicExch => AtomicKind::Exch,
                    _ => AtomicKind::CmpExch,
                };
                let imm = info.shape == crate::isa::opcodes::Shape::Ops { dsts: 2, srcs: 2 }
                    || ins.opcode == O::ImmAtomicCmpExch;
                let (ret, rest) = if imm {
                    let d = self.dst(&ops[0])?;
                    if d.mask.count_ones() > 1 {
                        return Err(self.invalid("the returned value goes to one component"));
                    }
                    (Some(d), &ops[1..])
                } else {
                    (None, &ops[..])
                };
                let (res, decl) = self.res(&rest[0])?;
                if matches!(res, Res::Srv(_) | Res::SrvTexture(_)) {
                    return Err(self.invalid("atomics need a UAV or TGSM"));
                }
                if let Res::UavTexture(u) = res {
                    let rt = self.p.uav_texture(u).map_or(0, |d| d.return_types[0]);
                    if !matches!(rt, 3 | 4) {
                        return Err(self.invalid(
                            "atomics on a texture UAV need it declared uint or sint (an R32_UINT/R32_SINT view)",
                        ));
                    }
                }
                if let Some(BufferDeclKind::Typed { return_types }) = decl {
                    if !matches!(return_types[0], 3 | 4) {
                        return Err(self.invalid(
                            "atomics on a typed UAV need it declared uint or sint (an R32_UINT/R32_SINT view)",
                        ));
                    }
                }
                let addr = self.src(&rest[1], Class::Int)?;
                let a = self.src(&rest[2], Class::Int)?;
                let b = match rest.get(3) {
                    Some(o) => self.src(o, Class::Int)?,
                    None => a,
                };
                self.emit(
                    OpKind::Atomic {
                        kind,
                        ret,
                        res,
                        structured: matches!(decl, Some(BufferDeclKind::Structured { .. })),
                        addr,
                        a,
                        b,
                    },
                    t,
                );
            }
            O::ImmAtomicAlloc | O::ImmAtomicConsume => {
                let dst = self.dst(&ops[0])?;
                let (res, kind) = self.res(&ops[1])?;
                let Res::Uav(uav) = res else {
                    return Err(self.invalid("append/consume counters live on structured UAVs"));
                };
                if !matches!(kind, Some(BufferDeclKind::Structured { .. })) {
                    return Err(self.invalid("append/consume counters live on structured UAVs"));
                }
                self.emit(
                    OpKind::Counter {
                        dst,
                        uav,
                        alloc: ins.opcode == O::ImmAtomicAlloc,
                    },
                    t,
                );
            }
            O::Ld | O::LdUavTyped
                if matches!(
                    self.res(&ops[2])?.0,
                    Res::SrvTexture(_) | Res::UavTexture(_)
                ) =>
            {
                self.texture_instruction(ins)?;
            }
            O::StoreUavTyped if matches!(self.res(&ops[0])?.0, Res::UavTexture(_)) => {
                self.texture_instruction(ins)?;
            }
            O::LdMs
            | O::SampleL
            | O::SampleD
            | O::SampleCLz
            | O::Gather4
            | O::Gather4C
            | O::Gather4Po
            | O::Gather4PoC
            | O::Resinfo
            | O::SampleInfo
            | O::SamplePos => {
                self.texture_instruction(ins)?;
            }
            O::Ld | O::LdUavTyped => {
                let dst = self.dst(&ops[0])?;
                let (res, kind) = self.res(&ops[2])?;
                if !matches!(kind, Some(BufferDeclKind::Typed { .. })) {
                    return Err(self.invalid("needs a typed buffer or a texture"));
                }
                if ins.opcode == O::LdUavTyped && !matches!(res, Res::Uav(_)) {
                    return Err(self.invalid("ld_uav_typed reads a u#"));
                }
                let addr = self.src(&ops[1], Class::Int)?;
                let swz = ops[2].swizzle();
                self.emit(
                    OpKind::LdTyped {
                        dst,
                        addr,
                        res,
                        swz,
                    },
                    t,
                );
            }
            O::StoreUavTyped => {
                let (res, kind) = self.res(&ops[0])?;
                if !matches!(res, Res::Uav(_))
                    || !matches!(kind, Some(BufferDeclKind::Typed { .. }))
                {
                    return Err(self.invalid("store_uav_typed writes a typed u#"));
                }
                let addr = self.src(&ops[1], Class::Int)?;
                let value = self.src(&ops[2], Class::Move)?;
                self.emit(OpKind::StoreTyped { res, addr, value }, t);
            }
            O::Bufinfo => {
                let dst = self.dst(&ops[0])?;
                let (res, _) = self.res(&ops[1])?;
                if !matches!(res, Res::Srv(_) | Res::Uav(_)) {
                    return Err(self.invalid("bufinfo takes a buffer t# or u#"));
                }
                self.emit(OpKind::Bufinfo { dst, res }, t);
            }
            O::Sync => {
                let c = ins.controls();
                let (threads, tgsm, ugroup, uglobal) =
                    (c & 1 != 0, c & 2 != 0, c & 4 != 0, c & 8 != 0);
                if !(tgsm || ugroup || uglobal) {
                    return Err(self.invalid("sync needs at least one of _g, _ugroup, _uglobal"));
                }
                self.emit(OpKind::Sync { threads, uglobal }, t);
            }
            O::Nop => {
                self.emit(OpKind::Nop, t);
            }
            // Feedback loads (§16): the load itself, then a residency status.
            // sm5sim has no tiled resources, so every access is fully mapped.
            O::LdRawFeedback
            | O::LdStructuredFeedback
            | O::LdUavTypedFeedback
            | O::LdFeedback
            | O::LdMsFeedback
            | O::SampleLFeedback
            | O::SampleCLzFeedback
            | O::Gather4Feedback
            | O::Gather4CFeedback
            | O::Gather4PoFeedback
            | O::Gather4PoCFeedback => {
                let base = match ins.opcode {
                    O::LdRawFeedback => O::LdRaw,
                    O::LdStructuredFeedback => O::LdStructured,
                    O::LdUavTypedFeedback => O::LdUavTyped,
                    O::LdFeedback => O::Ld,
                    O::LdMsFeedback => O::LdMs,
                    O::SampleLFeedback => O::SampleL,
                    O::SampleCLzFeedback => O::SampleCLz,
                    O::Gather4Feedback => O::Gather4,
                    O::Gather4CFeedback => O::Gather4C,
                    O::Gather4PoFeedback => O::Gather4Po,
                    _ => O::Gather4PoC,
                };
                let mut plain = ins.clone();
                plain.opcode = base;
                plain.token = (ins.token & !0x7ff) | base as u32;
                let status = plain.operands.remove(1);
                self.instruction(&plain)?;
                let dst = self.dst(&status)?;
                let one = Src {
                    kind: SrcKind::Imm([FULLY_MAPPED; 4]),
                    swz: [0, 1, 2, 3],
                    modifier: SrcMod::None,
                };
                self.emit(
                    OpKind::Alu {
                        op: AluOp::Mov,
                        dst,
                        src: [one; 4],
                        sat: false,
                    },
                    t,
                );
            }
            O::CheckAccessFullyMapped => {
                let dst = self.dst(&ops[0])?;
                let status = self.src(&ops[1], Class::Int)?;
                let mapped = Src {
                    kind: SrcKind::Imm([FULLY_MAPPED; 4]),
                    swz: [0, 1, 2, 3],
                    modifier: SrcMod::None,
                };
                self.emit(
                    OpKind::Alu {
                        op: AluOp::Ieq,
                        dst,
                        src: [status, mapped, mapped, mapped],
                        sat: false,
                    },
                    t,
                );
            }
            O::Abort => {
                self.emit(OpKind::Abort, t);
            }
            O::DebugBreak => {
                self.emit(OpKind::DebugBreak, t);
            }
            O::Label => {
                // A subroutine starts here; blocks never span a label (FS §22.7.15).
                if !self.blocks.is_empty() {
                    return Err(self.invalid("a label inside an open if/loop/switch block"));
                }
                if ops[0].ty == OperandType::FunctionBody {
                    // `label fb#`: a class method's body, called through fcall.
                    let fb = ops[0].reg().ok_or_else(|| self.invalid("bad fb# label"))?;
                    if !self.bodies.insert(fb) {
                        return Err(self.invalid(format!("fb{fb} is defined twice")));
                    }
                    self.p.function_bodies.push((fb, pc as u32));
                } else {
                    let label = self.label_operand(&ops[0])?;
                    if self.labels.insert(label, pc as u32).is_some() {
                        return Err(self.invalid(format!("label l{label} is defined twice")));
                    }
                }
                self.emit(OpKind::Nop, t);
            }
            O::InterfaceCall => {
                let (slot, site) = self.interface_call(ins)?;
                self.emit(OpKind::InterfaceCall { slot, site }, t);
            }
            O::Call | O::Callc => {
                let (cond, target) = if ins.opcode == O::Callc {
                    (Some(self.cond(ins)?), &ops[1])
                } else {
                    (None, &ops[0])
                };
                let label = self.label_operand(target)?;
                self.calls.push((label, ins.offset));
                self.emit(OpKind::Call { label, cond }, t);
            }
            // a row whose semantics are its own code, without that code:
            // `tests/it/conformance_coverage.rs` requires a job for every
            // compute row, so such a row fails its job
            _ => {
                return Err(self.unsupported("this instruction has no lowering"));
            }
        }
        Ok(())
    }
}
