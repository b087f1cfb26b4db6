//! A loaded program: decoded, validated, and lowered into the pre-resolved
//! form the executor runs ("decode once, execute many").
//!
//! Validation happens here, once, so that a dispatch never meets a surprise:
//! the program type, thread-group limits (`reference/compute-model.md` §2),
//! TGSM budget (§4), register and slot ranges, structured flow control
//! (`reference/dxbc-format.md` §4: the tokens carry no targets, so blocks are
//! matched here with a stack), and the set of instructions the executor
//! supports. An instruction it cannot run yet is a [`LoadError::Unsupported`]
//! naming the mnemonic and the dword offset.
//!
//! **Profiles.** A cs_4_0 or cs_4_1 program (compute on D3D10.x hardware,
//! FS §18.7) that uses what its profile does not have is a
//! [`LoadError::Profile`] naming the instruction, its dword, the profile and
//! the rule, as D3D refuses it when the shader is created:
//!
//! | rule | source |
//! |---|---|
//! | an opcode of a later shader model: SM4.1's `gather4`, `sampleinfo`, `samplepos` in cs_4_0; in cs_4_x every SM5 opcode but the compute additions (raw and structured buffers, `dcl_tgsm_structured`, `sync`), so no atomics or append/consume, doubles, typed UAVs, `dcl_tgsm_raw`, SM5 ALU additions, `bufinfo`, `gather4_c`/`_po`, class linkage | [`crate::isa::opcodes::min_compute_model`]: TPF enumerant prefixes, FS §18.7, MSDN "Compute Shader Overview" |
//! | one UAV register, u0, raw or structured, without an append/consume counter (`_opc`) | `D3D11_CS_4_X_UAV_REGISTER_COUNT` = 1; MSDN "Compute Shaders on Downlevel Hardware" |
//! | no `enableDoublePrecisionFloatOps` / `enable11_1DoubleExtensions` flag | MSDN "Compute Shader Overview": no doubles |
//! | thread group x, y ≤ 768, z = 1, x·y·z ≤ 768 | `D3D11_CS_4_X_THREAD_GROUP_MAX_*`; MSDN "numthreads" (cs_4_x maximum Z 1) |
//! | TGSM at most 16 KiB per group | FS §18.7.2.7 |
//!
//! Not checked here: that a cs_4_x thread writes only its own TGSM region
//! (at most 256 bytes, addressed by `vThreadIDInGroupFlattened` or
//! `vThreadID`; FS §18.7.2.8–9): the address is computed at run time, so
//! no static check can decide it without refusing valid programs. The
//! dispatch rules (Z = 1, no `DispatchIndirect`) and the 256-byte alignment
//! of a raw UAV's view belong to dispatch and binding, not to the program.

use crate::analysis::ProgramInfo;
use crate::front::container::{ChecksumPolicy, Container};
use crate::front::decode::decode_program_bytes;
use crate::front::error::LoadError;
use crate::front::rdef::{parse_rdef, Reflection};
use crate::ir::lowered::{Body, MessageSite, Op, OpKind, SwitchTable, TexOp};
use crate::ir::{DecodedProgram, ShaderVersion};
use crate::isa::opcodes::Class;
use sim_mem::TgsmRegion;

/// Options for [`Program::from_dxbc`].
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Verify fxc's checksum of the container (D3D11 refuses a wrong one). Default true.
    pub verify_checksum: bool,
    /// The most bytes of memory what is loaded may take: the program
    /// (decoding, lowering and the executor's plan, estimated by
    /// [`memory`] before each phase and refused with
    /// [`LoadError::TooLarge`]), and a job's resources
    /// (`sm5sim::job::Job`, counted by `sm5sim::memory::MemoryBudget`).
    /// Default None: for the program, no limit here; sm5sim's loaders
    /// (`sm5sim::api::Shader`, jobs, the command line) put what the process
    /// may use in its place (the machine's memory, or its address-space
    /// limit when lower).
    pub max_memory: Option<u64>,
    /// Once set (e.g. by a Ctrl-C handler), loading stops at its next look:
    /// a job looks before compiling its shader and before creating each
    /// resource (`sm5sim::job::JobError::CancelledLoading`);
    /// [`Program::from_dxbc`] and [`Program::from_file_bytes`] look before
    /// each phase: parsing the container (or assembling a listing),
    /// decoding, lowering with the analyses, and reading the debug
    /// information ([`LoadError::Cancelled`]). Each phase is linear in the
    /// size of the shader: a file of 100,000 nested calls loads in well
    /// under a second. Default None.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            verify_checksum: true,
            max_memory: None,
            cancel: None,
        }
    }
}

/// What loading a program costs in memory, at most, per unit of its size
/// (measured with heaptrack on generated shaders of 20,000–1,000,000
/// instructions: `nop`s, `iadd`s with literals, 4-component `mad`s with
/// swizzles), for [`LoadOptions::max_memory`]'s checks.
pub mod memory {
    /// Decoding a container's token stream, per dword (measured at most
    /// 170: a `nop` per dword).
    pub const DECODE_BYTES_PER_DWORD: u64 = 256;
    /// Assembling a listing, per line (measured at most 890: a
    /// 4-component `mad` with literals).
    pub const ASSEMBLE_BYTES_PER_LINE: u64 = 1024;
    /// Lowering a decoded program, its analyses and one executor plan of
    /// it (an executor shape: warp width and groups packed), per
    /// instruction (measured 1,920 for `nop`s, 2,630 for `iadd`s, 2,940
    /// for `mad`s, from the decoded program to the end of a dispatch, with
    /// the compiled tier's regions (feature `jit`: about 300 and 560 bytes
    /// of them); 2,320 and 2,380 without).
    pub const PROGRAM_BYTES_PER_INSTRUCTION: u64 = 3072;
}

impl LoadOptions {
    /// [`LoadOptions::check_memory`] before decoding the token stream
    /// `shader` (the bytes of a container's shader chunk).
    ///
    /// # Errors
    /// [`LoadError::TooLarge`].
    pub fn check_decode_memory(&self, shader: &[u8]) -> Result<(), LoadError> {
        self.check_memory(
            "decoding",
            shader.len() as u64 / 4,
            "dwords",
            memory::DECODE_BYTES_PER_DWORD,
        )
    }

    /// [`LoadError::TooLarge`] when `count` `unit`s at `per` bytes each
    /// exceed [`LoadOptions::max_memory`]: the look a load makes before
    /// `phase`.
    ///
    /// # Errors
    /// [`LoadError::TooLarge`] with the figures.
    pub fn check_memory(
        &self,
        phase: &'static str,
        count: u64,
        unit: &'static str,
        per: u64,
    ) -> Result<(), LoadError> {
        let needed = count.saturating_mul(per);
        match self.max_memory {
            Some(limit) if needed > limit => Err(LoadError::TooLarge {
                phase,
                count,
                unit,
                per,
                needed,
                limit,
            }),
            _ => Ok(()),
        }
    }

    /// [`LoadError::Cancelled`] when [`LoadOptions::cancel`] is set: the
    /// look a load makes `before` each phase.
    ///
    /// # Errors
    /// [`LoadError::Cancelled`] naming `before`.
    pub fn check_cancel(&self, before: &'static str) -> Result<(), LoadError> {
        match &self.cancel {
            Some(c) if c.load(std::sync::atomic::Ordering::Relaxed) => {
                Err(LoadError::Cancelled { before })
            }
            _ => Ok(()),
        }
    }

    /// The container checksum policy these options ask for.
    pub fn checksum_policy(&self) -> ChecksumPolicy {
        if self.verify_checksum {
            ChecksumPolicy::Verify
        } else {
            ChecksumPolicy::Skip
        }
    }
}

/// How a t# or u# was declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferDeclKind {
    /// `dcl_resource_raw` / `dcl_uav_raw`
    Raw,
    /// `dcl_resource_structured` / `dcl_uav_structured` with the stride in bytes
    Structured {
        /// bytes per structure
        stride: u32,
    },
    /// `dcl_resource_buffer` / `dcl_uav_typed_buffer`: a typed buffer whose
    /// elements convert by the bound view's DXGI format.
    Typed {
        /// declared return type of x, y, z, w (D3D10_SB_RESOURCE_RETURN_TYPE: 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float)
        return_types: [u8; 4],
    },
}

/// A declared SRV or UAV slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferDecl {
    /// Register number (t# or u#).
    pub slot: u32,
    /// Raw, structured or typed.
    pub kind: BufferDeclKind,
    /// `_glc`: globally coherent (UAVs only).
    pub globally_coherent: bool,
    /// Dword offset of the declaration.
    pub token: u32,
}

/// A declared texture SRV (`dcl_resource_texture*`) or texture UAV
/// (`dcl_uav_typed_texture*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureDecl {
    /// Register number (t# or u#).
    pub slot: u32,
    /// The declared dimension (D3D10_SB_RESOURCE_DIMENSION).
    pub dimension: sim_mem::ViewDimension,
    /// Declared return type of x, y, z, w (1 unorm, 2 snorm, 3 sint, 4 uint, 5 float).
    pub return_types: [u8; 4],
    /// Declared sample count of a `texture2dms(array)` (0 when the shader leaves it open).
    pub sample_count: u32,
    /// `_glc`: globally coherent (UAVs only).
    pub globally_coherent: bool,
    /// Dword offset of the declaration.
    pub token: u32,
}

/// How a sampler was declared (`dcl_sampler s#, mode_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamplerMode {
    /// `mode_default`
    Default,
    /// `mode_comparison`: used by `*_c` instructions
    Comparison,
    /// `mode_mono` (a D3D10 mono-1-bit sampler; not used in compute)
    Mono,
}

/// A declared sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SamplerDecl {
    /// Register number (s#).
    pub slot: u32,
    /// Its mode.
    pub mode: SamplerMode,
    /// Dword offset of the declaration.
    pub token: u32,
}

/// A declared constant buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConstantBufferDecl {
    /// Register number (cb#).
    pub slot: u32,
    /// Declared size in vec4 elements.
    pub size_vec4: u32,
    /// `dynamicIndexed`
    pub dynamic: bool,
}

/// A declared indexable temp `x#[size], components`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexableTempDecl {
    /// Register number.
    pub reg: u32,
    /// Number of vec4 elements.
    pub size: u32,
    /// Components used (1–4).
    pub components: u32,
}

/// A declared TGSM region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TgsmDecl {
    /// Register number (g#).
    pub reg: u32,
    /// Structure stride in bytes (0 for `dcl_tgsm_raw`).
    pub stride: u32,
    /// Size in bytes.
    pub size_bytes: u32,
}

// ---------------------------------------------------------------------------
// The executable form.

/// The residency status sm5sim's feedback loads return; `check_access_fully_mapped`
/// reports it as fully mapped (any value would do, §16).
const FULLY_MAPPED: u32 = 1;

/// Label numbers are below it (a call's target holds a label number, then
/// the pc it resolves to, in the same field).
const CALL_RESOLVED: u32 = 1 << 31;

/// A compute shader ready to run: cheap to share across threads (`&Program`
/// is `Sync`), decoded once.
#[derive(Debug, Clone)]
pub struct Program {
    /// Version token.
    pub version: ShaderVersion,
    /// Every decoded instruction and declaration (what `disasm` prints).
    pub decoded: DecodedProgram,
    /// RDEF reflection, when the container has one.
    pub reflection: Option<Reflection>,
    /// The HLSL file and line of each instruction, when the container has
    /// fxc's debug information (`/Zi`: the `SPDB` chunk) and it could be
    /// read ([`crate::front::debug_info`]).
    pub source_map: Option<crate::front::debug_info::SourceMap>,
    /// Class linkage's types and interface slots, from the container's
    /// `IFCE` chunk when it has one ([`crate::front::ifce`]): what a D3D11
    /// runtime binds class instances by.
    pub class_linkage: Option<crate::front::ifce::ClassLinkage>,
    /// Why the container's `SPDB` chunk could not be read, when it could
    /// not (the program loads all the same: the debug information does not
    /// change what it computes).
    pub debug_info_error: Option<crate::front::debug_info::DebugInfoError>,
    /// `dcl_thread_group x, y, z`.
    pub thread_group: [u32; 3],
    /// `dcl_temps n`.
    pub temps: u32,
    /// Indexable temps, by register number.
    pub indexable_temps: Vec<IndexableTempDecl>,
    /// Constant buffers, in declaration order.
    pub constant_buffers: Vec<ConstantBufferDecl>,
    /// SRVs (t#), in declaration order.
    pub srvs: Vec<BufferDecl>,
    /// UAVs (u#), in declaration order.
    pub uavs: Vec<BufferDecl>,
    /// Texture SRVs (t#), in declaration order.
    pub srv_textures: Vec<TextureDecl>,
    /// Texture UAVs (u#), in declaration order.
    pub uav_textures: Vec<TextureDecl>,
    /// Samplers (s#), in declaration order.
    pub samplers: Vec<SamplerDecl>,
    /// TGSM regions, in declaration order.
    pub tgsm: Vec<TgsmDecl>,
    /// The immediate constant buffer, 4 words per vec4.
    pub icb: Vec<u32>,
    pub(crate) code: Vec<Op>,
    /// texture instructions, indexed by `OpKind::Texture`
    pub(crate) tex_ops: Vec<TexOp>,
    /// the `printf`s and `errorf`s ([`OpKind::Message`]'s sites)
    pub(crate) messages: Vec<MessageSite>,
    pub(crate) switches: Vec<SwitchTable>,
    /// word offset of each x# register's storage within a lane-major block, by register number
    pub(crate) xtemp_layout: Vec<Option<(u32, u32)>>,
    /// Function tables (`dcl_function_table ft# = {fb#, …}`): id and bodies.
    pub function_tables: Vec<(u32, Vec<u32>)>,
    /// Interfaces (`dcl_interface fp#[array][call sites] = {ft#, …}`).
    pub interfaces: Vec<InterfaceDecl>,
    /// `label fb#` → pc of the body
    pub(crate) function_bodies: Vec<(u32, u32)>,
    /// the `fcall`s: (op index, interface slot, call site), kept for rebinding
    pub(crate) interface_calls: Vec<(usize, u32, u32)>,
    /// the function table bound to each interface slot
    pub(crate) bound_tables: Vec<Option<u32>>,
    /// what the analyses know, computed when the program is lowered and
    /// again when its code changes (`bind_class_instances`)
    pub(crate) info: std::sync::Arc<ProgramInfo>,
}

/// A declared interface (class linkage, FS §7.15 and TPF "Interface Declaration").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceDecl {
    /// fp# register.
    pub id: u32,
    /// Array length: the interface slots it occupies.
    pub array_len: u32,
    /// Number of call sites (entries of each function table it may use).
    pub call_sites: u32,
    /// The function tables a class instance bound here may use.
    pub tables: Vec<u32>,
    /// Its first interface slot.
    pub first_slot: u32,
}

impl Program {
    /// Load a DXBC container (`.dxbc`/`.cso` bytes).
    ///
    /// # Errors
    /// [`LoadError`] naming the byte or dword offset: a malformed container or
    /// RDEF, a malformed token stream, a program that is not a compute shader
    /// or breaks a limit, or an instruction the executor does not support yet.
    /// It looks at [`LoadOptions::cancel`] before each phase.
    pub fn from_dxbc(bytes: &[u8], options: &LoadOptions) -> Result<Self, LoadError> {
        let (decoded, reflection) = Self::decode_with_reflection(bytes, options)?;
        options.check_cancel("lowering")?;
        Self::check_program_memory(&decoded, options)?;
        let mut p = Self::from_decoded(decoded, reflection)?;
        options.check_cancel("reading the debug information")?;
        p.read_debug_info(bytes, options);
        Ok(p)
    }

    /// [`LoadOptions::check_memory`] before lowering `decoded` (and
    /// planning it for one executor shape): what [`Program::from_dxbc`]
    /// and [`Program::from_file_bytes`] look at after decoding.
    ///
    /// # Errors
    /// [`LoadError::TooLarge`].
    pub fn check_program_memory(
        decoded: &DecodedProgram,
        options: &LoadOptions,
    ) -> Result<(), LoadError> {
        options.check_memory(
            "lowering and planning",
            decoded.instructions.len() as u64,
            "instructions",
            memory::PROGRAM_BYTES_PER_INSTRUCTION,
        )
    }

    /// Attach the debug information of the container `bytes` (already
    /// parsed once without error), if it has an `SPDB` chunk.
    fn read_debug_info(&mut self, bytes: &[u8], options: &LoadOptions) {
        let Ok(container) = Container::parse(bytes, options.checksum_policy()) else {
            return;
        };
        if let Some(c) = container.chunk(b"IFCE") {
            // a chunk that cannot be read leaves the linkage unknown: binding
            // by class name then says so
            self.class_linkage = crate::front::ifce::ClassLinkage::parse(c.data).ok();
        }
        if let Some(c) = container.chunk(b"SPDB") {
            match crate::front::debug_info::SourceMap::from_spdb(c.data) {
                Ok(map) => self.source_map = Some(map),
                Err(e) => self.debug_info_error = Some(e),
            }
        }
    }

    /// Decode a DXBC container only as far as the token stream, without the
    /// executor's validation: what `sm5sim disasm` needs.
    ///
    /// # Errors
    /// As [`Program::from_dxbc`], less the validation errors.
    pub fn decode_only(bytes: &[u8], options: &LoadOptions) -> Result<DecodedProgram, LoadError> {
        let container = Container::parse(bytes, options.checksum_policy())?;
        let shader = container.shader_chunk()?;
        options.check_decode_memory(shader.data)?;
        decode_program_bytes(shader.data, shader.data_offset)
    }

    /// Load a shader file's bytes, whatever its form: a DXBC container
    /// (`.dxbc`/`.cso`, recognised by its `DXBC` magic) or an fxc listing
    /// (`.asm` text, assembled in memory; `reference/asm-syntax.md`).
    ///
    /// # Errors
    /// As [`Program::from_dxbc`], or [`LoadError::Asm`] for a listing that
    /// does not assemble.
    pub fn from_file_bytes(bytes: &[u8], options: &LoadOptions) -> Result<Self, LoadError> {
        let (decoded, reflection) = Self::decode_file_bytes(bytes, options)?;
        options.check_cancel("lowering")?;
        Self::check_program_memory(&decoded, options)?;
        let mut p = Self::from_decoded(decoded, reflection)?;
        if bytes.starts_with(b"DXBC") {
            options.check_cancel("reading the debug information")?;
            p.read_debug_info(bytes, options);
        }
        Ok(p)
    }

    /// An fxc listing, assembled and loaded, with the reflection its
    /// comment header describes
    /// ([`crate::front::listing_reflection::reflection_from_listing`]; none when the
    /// header has no resource bindings).
    ///
    /// # Errors
    /// [`LoadError::Asm`] with line and column (of the code or of a
    /// malformed header line), or as [`Program::from_decoded`].
    pub fn from_listing(text: &str) -> Result<Self, LoadError> {
        let decoded = crate::front::asm::assemble(text).map_err(LoadError::Asm)?;
        let reflection = crate::front::listing_reflection::reflection_from_listing(text)
            .map_err(LoadError::Asm)?;
        Self::from_decoded(decoded, reflection)
    }

    /// Decode a shader file's bytes, a container or a listing (see
    /// [`Program::from_file_bytes`]), without the executor's validation.
    ///
    /// # Errors
    /// As [`Program::from_file_bytes`], less the validation errors.
    pub fn decode_file_bytes(
        bytes: &[u8],
        options: &LoadOptions,
    ) -> Result<(DecodedProgram, Option<Reflection>), LoadError> {
        if bytes.starts_with(b"DXBC") {
            return Self::decode_with_reflection(bytes, options);
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                options.check_cancel("assembling the listing")?;
                options.check_memory(
                    "assembling",
                    text.lines().count() as u64,
                    "listing lines",
                    memory::ASSEMBLE_BYTES_PER_LINE,
                )?;
                Ok((
                    crate::front::asm::assemble(text).map_err(LoadError::Asm)?,
                    crate::front::listing_reflection::reflection_from_listing(text)
                        .map_err(LoadError::Asm)?,
                ))
            }
            // Neither a listing nor a container: report it as a container.
            Err(_) => Self::decode_with_reflection(bytes, options),
        }
    }

    /// Decode a DXBC container's token stream and its RDEF reflection (when
    /// present), without the executor's validation.
    ///
    /// # Errors
    /// As [`Program::decode_only`], plus a malformed RDEF chunk.
    pub fn decode_with_reflection(
        bytes: &[u8],
        options: &LoadOptions,
    ) -> Result<(DecodedProgram, Option<Reflection>), LoadError> {
        options.check_cancel("parsing the container")?;
        let container = Container::parse(bytes, options.checksum_policy())?;
        let shader = container.shader_chunk()?;
        options.check_cancel("decoding")?;
        options.check_decode_memory(shader.data)?;
        let decoded = decode_program_bytes(shader.data, shader.data_offset)?;
        let reflection = match container.chunk(b"RDEF") {
            Some(c) => Some(parse_rdef(c.data)?),
            None => None,
        };
        Ok((decoded, reflection))
    }

    /// Validate and lower a decoded program.
    ///
    /// # Errors
    /// As [`Program::from_dxbc`].
    pub fn from_decoded(
        decoded: DecodedProgram,
        reflection: Option<Reflection>,
    ) -> Result<Self, LoadError> {
        Lowering::run(decoded, reflection, None)
    }

    /// Every instruction and declaration of `decoded` that the executor cannot
    /// run yet, as [`LoadError::Unsupported`] errors in token order; empty when
    /// the program would load. (`sm5sim info` prints this list.)
    ///
    /// # Errors
    /// The first [`LoadError::Invalid`] or [`LoadError::Profile`]: a program
    /// that breaks a rule of the format, the compute model or its profile
    /// cannot be surveyed further.
    pub fn survey(
        decoded: &DecodedProgram,
        reflection: Option<Reflection>,
    ) -> Result<Vec<LoadError>, LoadError> {
        let mut found = Vec::new();
        Lowering::run(decoded.clone(), reflection, Some(&mut found))?;
        Ok(found)
    }

    /// Bind a class instance to every interface slot, as D3D's `SetShader`
    /// does with class instances: `tables[slot]` is the function table
    /// (`ft#`) of the instance's class for that slot, one of the tables its
    /// `dcl_interface` lists. Each `fcall` then calls the body its table holds
    /// for that call site.
    ///
    /// # Errors
    /// [`LoadError::Invalid`] when the count or a table does not fit the
    /// declarations; nothing is bound then.
    pub fn bind_class_instances(&mut self, tables: &[u32]) -> Result<(), LoadError> {
        let err = |what: String| LoadError::Invalid {
            mnemonic: "fcall".into(),
            token: 0,
            what,
        };
        if tables.len() != self.bound_tables.len() {
            return Err(err(format!(
                "the shader has {} interface slots, {} class instances given",
                self.bound_tables.len(),
                tables.len()
            )));
        }
        for iface in &self.interfaces {
            for k in 0..iface.array_len {
                let t = tables[(iface.first_slot + k) as usize];
                if !iface.tables.contains(&t) {
                    return Err(err(format!(
                        "ft{t} is not a table of fp{} (it has {:?})",
                        iface.id, iface.tables
                    )));
                }
            }
        }
        let mut code = self.code.clone();
        for &(i, slot, site) in &self.interface_calls {
            let table = tables[slot as usize];
            let body = self
                .function_tables
                .iter()
                .find(|(id, _)| *id == table)
                .and_then(|(_, bodies)| bodies.get(site as usize))
                .ok_or_else(|| err(format!("ft{table} has no entry for call site {site}")))?;
            let pc = self
                .function_bodies
                .iter()
                .find(|(b, _)| b == body)
                .map(|&(_, pc)| pc)
                .ok_or_else(|| err(format!("fb{body} has no label")))?;
            code[i].kind = OpKind::Call {
                label: pc,
                cond: None,
            };
        }
        self.code = code;
        self.info = std::sync::Arc::new(ProgramInfo::new(self.body()));
        self.bound_tables = tables.iter().map(|&t| Some(t)).collect();
        Ok(())
    }

    /// The first interface slot without a bound class instance, if any; such
    /// a program cannot be dispatched.
    pub fn unbound_interface_slot(&self) -> Option<u32> {
        self.bound_tables
            .iter()
            .position(|t| t.is_none())
            .map(|s| s as u32)
    }

    /// What the analyses know of the program ([`ProgramInfo`]), computed
    /// once when it was loaded.
    pub(crate) fn info(&self) -> &ProgramInfo {
        &self.info
    }

    /// The parsed format of the `printf`/`errorf` at `pc` (an instruction
    /// index, as [`crate::messages::Message::pc`]), or `None` when the
    /// instruction there is not one.
    pub fn message_format(&self, pc: u32) -> Option<crate::messages::MessageFormatRef> {
        match self.code.get(pc as usize)?.kind {
            OpKind::Message { site } => Some(self.messages.get(site as usize)?.format.clone()),
            _ => None,
        }
    }

    /// Each `printf`/`errorf` whose format asks what its arguments cannot
    /// give ([`crate::messages::MessageFormat::problems`]): its pc and the
    /// problems, in program order.
    pub fn message_problems(&self) -> Vec<(u32, Vec<String>)> {
        (0..self.code.len() as u32)
            .filter_map(|pc| {
                let f = self.message_format(pc)?;
                (!f.problems().is_empty()).then(|| (pc, f.problems().to_vec()))
            })
            .collect()
    }

    /// The HLSL file (base name) and line of the instruction at `pc`, when
    /// the program carries fxc's debug information (`/Zi`) and a record
    /// covers it.
    pub fn hlsl_line(&self, pc: u32) -> Option<(String, u32)> {
        let map = self.source_map.as_ref()?;
        let at = map.line_at(self.code.get(pc as usize)?.token)?;
        Some((map.files.get(at.file)?.base_name().to_string(), at.line))
    }

    /// The records of `log`, made by this program, formatted
    /// ([`crate::messages::MessageLog::finish`] with its formats,
    /// HLSL lines and thread-group size).
    pub fn messages_of(&self, log: crate::messages::MessageLog) -> crate::messages::Messages {
        log.finish(
            |pc| self.message_format(pc),
            |pc| self.hlsl_line(pc),
            self.thread_group,
        )
    }

    /// Whether the program has a `printf` or `errorf`.
    pub fn has_messages(&self) -> bool {
        !self.messages.is_empty()
    }

    /// Whether the program has a `debug_break`, `abort`, `printf` or
    /// `errorf` (an instruction that makes a message record).
    pub fn has_message_instructions(&self) -> bool {
        self.has_messages()
            || (self.code.iter()).any(|op| {
                matches!(
                    op.kind,
                    crate::ir::lowered::OpKind::DebugBreak | crate::ir::lowered::OpKind::Abort
                )
            })
    }

    /// The lowered code the analyses read.
    pub(crate) fn body(&self) -> Body<'_> {
        Body {
            code: &self.code,
            tex_ops: &self.tex_ops,
            temps: self.temps,
            thread_group: self.thread_group,
            function_bodies: &self.function_bodies,
            messages: &self.messages,
        }
    }

    /// The UAV slots (u#) whose hidden counter the program increments
    /// (`imm_atomic_alloc`) or decrements (`imm_atomic_consume`), ascending:
    /// append and consume buffers, whose elements' order depends on the
    /// schedule (FS §22.17.17–18).
    pub fn counter_uavs(&self) -> Vec<u32> {
        let mut slots: Vec<u32> = self
            .code
            .iter()
            .filter_map(|op| match op.kind {
                crate::ir::lowered::OpKind::Counter { uav, .. } => Some(uav),
                _ => None,
            })
            .collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    }

    /// Threads per group: x·y·z.
    pub fn threads_per_group(&self) -> u32 {
        self.thread_group.iter().product()
    }

    /// The TGSM regions indexed by g# number, for a [`sim_mem::Tgsm`] arena.
    pub fn tgsm_regions(&self) -> Vec<Option<TgsmRegion>> {
        let n = self.tgsm.iter().map(|t| t.reg + 1).max().unwrap_or(0);
        let mut out = vec![None; n as usize];
        let mut base = 0usize;
        for t in &self.tgsm {
            out[t.reg as usize] = Some(TgsmRegion {
                base_word: base,
                size_bytes: t.size_bytes,
                stride: t.stride,
            });
            base += t.size_bytes as usize / 4;
        }
        out
    }

    /// Number of executable instructions after lowering.
    pub fn instruction_count(&self) -> usize {
        self.code.len()
    }

    /// The dword offset in the token stream (the version token at 0) of
    /// the instruction at `pc` (the executor's index), which the listing,
    /// the checker's sites and the debug information's line records use.
    pub fn token_of(&self, pc: usize) -> Option<u32> {
        self.code.get(pc).map(|op| op.token)
    }

    /// The declaration of SRV slot `t#`.
    pub fn srv(&self, slot: u32) -> Option<&BufferDecl> {
        self.srvs.iter().find(|d| d.slot == slot)
    }

    /// The declaration of UAV slot `u#`.
    pub fn uav(&self, slot: u32) -> Option<&BufferDecl> {
        self.uavs.iter().find(|d| d.slot == slot)
    }

    /// The declaration of texture SRV slot `t#`.
    pub fn srv_texture(&self, slot: u32) -> Option<&TextureDecl> {
        self.srv_textures.iter().find(|d| d.slot == slot)
    }

    /// The declaration of texture UAV slot `u#`.
    pub fn uav_texture(&self, slot: u32) -> Option<&TextureDecl> {
        self.uav_textures.iter().find(|d| d.slot == slot)
    }

    /// The declaration of sampler slot `s#`.
    pub fn sampler(&self, slot: u32) -> Option<&SamplerDecl> {
        self.samplers.iter().find(|d| d.slot == slot)
    }
}

mod lower;
use lower::Lowering;
pub use lower::MAX_FLOW_NESTING;
