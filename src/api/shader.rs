//! Shaders: loaded from a file or bytes, and what their declarations and
//! RDEF say of each slot.

use super::{ApiError, Slot, SlotKind, View};
use crate::compiler::{self, CompileOptions, Compiled, HlslRequest};
use sim_core::front::rdef::{CbufferDesc, InputType};
use sim_core::program::{BufferDeclKind, Program, TextureDecl};
use sim_core::LoadOptions;
use sim_mem::{ChannelKind, Format, MemError, ViewDimension};
use std::path::Path;

/// A compute shader ready to run: the program, the bytes it came from (for
/// listings), and its reflection.
#[derive(Debug, Clone)]
pub struct Shader {
    program: Program,
    bytes: Vec<u8>,
    name: String,
    compiled: Option<Compiled>,
}

/// One resource slot a shader declares ([`Shader::resources`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceInfo {
    /// its HLSL name, when the shader has RDEF
    pub name: Option<String>,
    /// its slot
    pub slot: Slot,
    /// what the shader declares there: `raw`, `structured with stride 16`,
    /// `typed`, `texture2d`, `constant (16 bytes)`
    pub declared: String,
}

impl Shader {
    /// Load a shader file: DXBC (`.dxbc`, `.cso`), an fxc listing
    /// (`.asm`), or HLSL (`.hlsl`, compiled with entry `main` and profile
    /// `cs_5_0` by the compiler [`crate::compiler::discover`] finds; see
    /// [`Shader::compile`] for other entries, profiles and defines).
    ///
    /// # Errors
    /// [`ApiError::Io`] when the file cannot be read, [`ApiError::Compile`]
    /// when HLSL does not compile (or no compiler is found),
    /// [`ApiError::Load`] when the bytes are no program sm5sim runs.
    pub fn load(path: impl AsRef<Path>) -> Result<Shader, ApiError> {
        Self::load_with(path, &LoadOptions::default(), &CompileOptions::default())
    }

    /// [`Shader::load`] with options for loading (checksum, memory limit,
    /// cancellation) and for compiling HLSL (`fxc` path, cache).
    ///
    /// # Errors
    /// As [`Shader::load`].
    pub fn load_with(
        path: impl AsRef<Path>,
        load: &LoadOptions,
        compile: &CompileOptions,
    ) -> Result<Shader, ApiError> {
        let path = path.as_ref();
        if compiler::is_hlsl(path) {
            return Self::compile(&HlslRequest::new(path), load, compile);
        }
        let bytes = crate::files::read_input(path).map_err(|source| ApiError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_bytes(bytes, &file_name(path), load)
    }

    /// Compile HLSL as `req` asks (entry, profile, defines, include
    /// directories) and load the result.
    ///
    /// # Errors
    /// [`ApiError::Compile`] and [`ApiError::Load`].
    pub fn compile(
        req: &HlslRequest,
        load: &LoadOptions,
        compile: &CompileOptions,
    ) -> Result<Shader, ApiError> {
        let c = compiler::compile(req, compile)?;
        let mut s = Self::from_bytes(c.dxbc.clone(), &file_name(&req.source), load)?;
        s.compiled = Some(c);
        Ok(s)
    }

    /// A shader from a DXBC container or the text of an fxc listing;
    /// `name` stands for it in messages.
    ///
    /// # Errors
    /// [`ApiError::Load`].
    pub fn from_bytes(bytes: Vec<u8>, name: &str, load: &LoadOptions) -> Result<Shader, ApiError> {
        let load = crate::memory::for_program(load);
        let program = Program::from_file_bytes(&bytes, &load).map_err(|source| ApiError::Load {
            shader: name.to_string(),
            source,
        })?;
        Ok(Shader {
            program,
            bytes,
            name: name.to_string(),
            compiled: None,
        })
    }

    /// The program (declarations, decoded instructions, RDEF).
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The bytes it was loaded from (DXBC, or the listing's text).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Its name in messages (the file name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How HLSL was compiled; None for DXBC and listings.
    pub fn compiled(&self) -> Option<&Compiled> {
        self.compiled.as_ref()
    }

    /// `[numthreads(x, y, z)]`.
    pub fn thread_group(&self) -> [u32; 3] {
        self.program.thread_group
    }

    /// Bind class instances: one function table `ft#` per interface slot
    /// the shader calls through (`interface` / `class` in HLSL).
    ///
    /// # Errors
    /// [`ApiError::Shader`] when the tables do not fit the interfaces.
    pub fn bind_class_instances(&mut self, tables: &[u32]) -> Result<(), ApiError> {
        self.program
            .bind_class_instances(tables)
            .map_err(|e| ApiError::Shader {
                shader: self.name.clone(),
                message: e.to_string(),
            })
    }

    /// The slot called `name`: an HLSL name in RDEF (`"keys"`), or a slot
    /// name (`"t0"`, `"u1"`, `"cb0"`, `"b0"`).
    ///
    /// # Errors
    /// [`ApiError::UnknownName`] (listing what the shader declares), or
    /// [`ApiError::Shader`] for a sampler's name.
    pub fn slot(&self, name: &str) -> Result<Slot, ApiError> {
        match self
            .program
            .reflection
            .as_ref()
            .and_then(|r| r.binding(name))
        {
            Some(b) if b.input_type == InputType::Sampler => Err(ApiError::Shader {
                shader: self.name.clone(),
                message: format!(
                    "'{name}' is sampler s{} in the shader; bind it with Kernel::bind_sampler",
                    b.bind_point
                ),
            }),
            Some(b) => Ok(Slot {
                kind: match b.input_type {
                    InputType::CBuffer => SlotKind::ConstantBuffer,
                    t if t.is_uav() => SlotKind::Uav,
                    _ => SlotKind::Srv,
                },
                index: b.bind_point,
            }),
            None => Slot::parse(name).ok_or_else(|| ApiError::UnknownName {
                shader: self.name.clone(),
                name: name.to_string(),
                declared: declared_names(&self.program),
            }),
        }
    }

    /// The sampler slot `s#` called `name` (an RDEF name or `"s0"`).
    ///
    /// # Errors
    /// [`ApiError::UnknownName`].
    pub fn sampler_slot(&self, name: &str) -> Result<u32, ApiError> {
        let refl = self.program.reflection.as_ref();
        if let Some(b) = refl.and_then(|r| r.binding(name)) {
            if b.input_type == InputType::Sampler {
                return Ok(b.bind_point);
            }
        }
        name.trim()
            .to_ascii_lowercase()
            .strip_prefix('s')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| n < 16)
            .ok_or_else(|| ApiError::UnknownName {
                shader: self.name.clone(),
                name: name.to_string(),
                declared: "samplers are named by RDEF or s0 … s15".into(),
            })
    }

    /// The layout of the cbuffer called `name` (its HLSL name or `cb#`) and
    /// its slot.
    ///
    /// # Errors
    /// [`ApiError::UnknownName`]; [`ApiError::Binding`] when `name` is no
    /// constant buffer; [`ApiError::Shader`] without RDEF.
    pub fn cbuffer(&self, name: &str) -> Result<(u32, &CbufferDesc), ApiError> {
        let slot = self.slot(name)?;
        if slot.kind != SlotKind::ConstantBuffer {
            return Err(ApiError::Binding {
                name: name.to_string(),
                slot,
                message: "not a constant buffer".into(),
            });
        }
        let cb = self
            .program
            .reflection
            .as_ref()
            .and_then(|r| r.cbuffer_at(slot.index))
            .ok_or_else(|| ApiError::Shader {
                shader: self.name.clone(),
                message: format!(
                    "no reflection (RDEF) for {slot}: its fields have no names; set its words instead"
                ),
            })?;
        Ok((slot.index, cb))
    }

    /// The bytes constant buffer `cb#slot` holds: the larger of its
    /// declaration and its RDEF size, in whole 16-byte registers.
    pub fn constant_buffer_bytes(&self, slot: u32) -> u64 {
        constant_buffer_size(&self.program, slot)
    }

    /// Every t#, u# and cb# slot the shader declares, with RDEF's names.
    pub fn resources(&self) -> Vec<ResourceInfo> {
        let p = &self.program;
        let mut out = Vec::new();
        let mut push = |kind, index, declared: String| {
            let slot = Slot { kind, index };
            out.push(ResourceInfo {
                name: rdef_name(p, slot),
                slot,
                declared,
            });
        };
        for d in &p.srvs {
            push(SlotKind::Srv, d.slot, describe_decl(Some(d.kind)));
        }
        for d in &p.srv_textures {
            push(SlotKind::Srv, d.slot, d.dimension.name().to_string());
        }
        for d in &p.uavs {
            push(SlotKind::Uav, d.slot, describe_decl(Some(d.kind)));
        }
        for d in &p.uav_textures {
            push(SlotKind::Uav, d.slot, d.dimension.name().to_string());
        }
        for c in &p.constant_buffers {
            let bytes = constant_buffer_size(p, c.slot);
            push(
                SlotKind::ConstantBuffer,
                c.slot,
                format!("constant ({bytes} bytes)"),
            );
        }
        out.sort_by_key(|r| r.slot);
        out
    }

    /// Every slot the shader declares (t#, u#, cb#), in declaration order.
    pub(crate) fn declared_slots(&self) -> Vec<Slot> {
        let p = &self.program;
        let at = |kind| move |index| Slot { kind, index };
        p.srvs
            .iter()
            .map(|d| d.slot)
            .chain(p.srv_textures.iter().map(|d| d.slot))
            .map(at(SlotKind::Srv))
            .chain(
                p.uavs
                    .iter()
                    .map(|d| d.slot)
                    .chain(p.uav_textures.iter().map(|d| d.slot))
                    .map(at(SlotKind::Uav)),
            )
            .chain(
                p.constant_buffers
                    .iter()
                    .map(|c| c.slot)
                    .map(at(SlotKind::ConstantBuffer)),
            )
            .collect()
    }

    /// The buffer declaration at `slot`.
    pub(crate) fn buffer_decl(&self, slot: Slot) -> Option<BufferDeclKind> {
        match slot.kind {
            SlotKind::Srv => self.program.srv(slot.index).map(|d| d.kind),
            SlotKind::Uav => self.program.uav(slot.index).map(|d| d.kind),
            SlotKind::ConstantBuffer => None,
        }
    }

    /// The texture declaration at `slot`.
    pub(crate) fn texture_decl(&self, slot: Slot) -> Option<&TextureDecl> {
        match slot.kind {
            SlotKind::Srv => self.program.srv_texture(slot.index),
            SlotKind::Uav => self.program.uav_texture(slot.index),
            SlotKind::ConstantBuffer => None,
        }
    }

    /// The listing the checker's findings cite: the file itself when it is
    /// one, else what `fxc /Fc` prints for the container
    /// ([`sim_core::front::disasm::full_listing`]); and the name to cite it by.
    pub fn listing(&self) -> Option<(String, String)> {
        let bytes = &self.bytes;
        if !bytes.starts_with(b"DXBC") {
            let text = String::from_utf8(bytes.clone()).ok()?;
            return Some((text, self.name.clone()));
        }
        let container = sim_core::front::container::Container::parse(
            bytes,
            sim_core::front::container::ChecksumPolicy::Skip,
        )
        .ok()?;
        Some((
            sim_core::front::disasm::full_listing(&container, &self.program.decoded),
            "sm5sim disasm".to_string(),
        ))
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The RDEF name of the resource at `slot`.
pub(crate) fn rdef_name(program: &Program, slot: Slot) -> Option<String> {
    let refl = program.reflection.as_ref()?;
    refl.bindings
        .iter()
        .find(|b| {
            b.bind_point == slot.index
                && match slot.kind {
                    SlotKind::ConstantBuffer => b.input_type == InputType::CBuffer,
                    SlotKind::Uav => b.input_type.is_uav(),
                    SlotKind::Srv => {
                        !b.input_type.is_uav()
                            && !matches!(b.input_type, InputType::CBuffer | InputType::Sampler)
                    }
                }
        })
        .map(|b| b.name.clone())
}

/// "it declares u0 ('bins'), t0 ('keys'), cb0 ('Params')": the shader's
/// resource slots with their RDEF names, for messages about a name or slot
/// given wrongly.
pub(crate) fn declared_names(program: &Program) -> String {
    let Some(refl) = program.reflection.as_ref() else {
        return "the shader has no RDEF names; give slot = \"t0\" (or u#, cb#)".into();
    };
    let names: Vec<String> = refl
        .bindings
        .iter()
        .filter(|b| b.input_type != InputType::Sampler)
        .map(|b| {
            format!(
                "{}{} ('{}')",
                b.input_type.register_prefix(),
                b.bind_point,
                b.name
            )
        })
        .collect();
    if names.is_empty() {
        "the shader declares no resources".into()
    } else {
        format!("it declares {}", names.join(", "))
    }
}

/// Integer declarations need integer formats of the same signedness; float,
/// unorm and snorm declarations need non-integer formats (FS §5.2 view
/// compatibility). `return_type` numbers as declarations do (1 unorm, 2
/// snorm, 3 sint, 4 uint, 5 float). Errors are (key `format`, message).
pub(crate) fn check_return_type(
    return_type: u8,
    f: Format,
    slot: Slot,
) -> Result<(), (String, String)> {
    let ok = match (return_type, f.kind()) {
        (4, k) => k == ChannelKind::Uint,
        (3, k) => k == ChannelKind::Sint,
        (_, k) => !matches!(k, ChannelKind::Uint | ChannelKind::Sint),
    };
    if ok {
        return Ok(());
    }
    let t = ["", "unorm", "snorm", "sint", "uint", "float"]
        .get(return_type as usize)
        .unwrap_or(&"?");
    Err((
        "format".into(),
        format!(
            "{} does not fit {slot}, which the shader declares as {t}",
            f.name()
        ),
    ))
}

/// A buffer declaration in words: `raw`, `structured with stride 16`.
pub(crate) fn describe_decl(d: Option<BufferDeclKind>) -> String {
    match d {
        Some(BufferDeclKind::Raw) => "raw".into(),
        Some(BufferDeclKind::Structured { stride }) => format!("structured with stride {stride}"),
        Some(BufferDeclKind::Typed { .. }) => "typed (give view = \"typed\" and format)".into(),
        None => "nothing".into(),
    }
}

/// The bytes of constant buffer `cb#slot`: the larger of its declaration
/// and its RDEF size, in whole 16-byte registers.
pub(crate) fn constant_buffer_size(program: &Program, slot: u32) -> u64 {
    let declared = program
        .constant_buffers
        .iter()
        .find(|c| c.slot == slot)
        .map_or(0, |c| c.size_vec4 as u64 * 16);
    let reflected = program
        .reflection
        .as_ref()
        .and_then(|r| r.cbuffer_at(slot))
        .map_or(0, |c| (c.size as u64).div_ceil(16) * 16);
    declared.max(reflected)
}

/// What is wrong with a buffer view: the aspect (`view`, `stride`,
/// `format`, `size`, or empty for the whole) and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ViewProblem {
    pub(crate) key: &'static str,
    pub(crate) message: String,
}

/// Whether buffer view `view` of `size` bytes fits `slot`, which the shader
/// declares as `declared` (None: nothing, which any buffer view fits): the
/// one set of rules for the API's bindings and for job files.
pub(crate) fn check_buffer_view(
    slot: Slot,
    view: View,
    declared: Option<BufferDeclKind>,
) -> Result<(), ViewProblem> {
    let p = |key, message| Err(ViewProblem { key, message });
    match (slot.kind, view, declared) {
        (SlotKind::ConstantBuffer, View::Constant, _) => {}
        (SlotKind::ConstantBuffer, _, _) | (_, View::Constant, _) => {
            return p(
                "view",
                format!("constant views go with cb# slots (this is {slot})"),
            )
        }
        (_, View::Raw, Some(BufferDeclKind::Structured { stride })) => {
            return p(
                "view",
                format!("the shader declares {slot} structured with stride {stride}, not raw"),
            )
        }
        (_, View::Structured(s), Some(BufferDeclKind::Raw)) => {
            return p(
                "view",
                format!("the shader declares {slot} raw, not structured (stride {s})"),
            )
        }
        (_, View::Structured(s), Some(BufferDeclKind::Structured { stride })) if s != stride => {
            return p(
                "stride",
                format!("stride {s} differs from the shader's declared stride {stride} for {slot}"),
            )
        }
        (_, View::Typed(f), Some(BufferDeclKind::Typed { return_types })) => {
            if let Err((_, m)) = check_return_type(return_types[0], f, slot) {
                return p("format", m);
            }
        }
        (_, View::Typed(_), Some(_))
        | (_, View::Raw | View::Structured(_), Some(BufferDeclKind::Typed { .. })) => {
            return p(
                "view",
                format!("the shader declares {slot} {}", describe_decl(declared)),
            )
        }
        _ => {}
    }
    if let View::Structured(s) = view {
        if s == 0 || !s.is_multiple_of(4) || s > 2048 {
            return p("stride", MemError::BadStride(s).to_string());
        }
    }
    Ok(())
}

/// Whether a buffer of `size` bytes can be viewed as `view`: D3D11's
/// `CreateBuffer` and view rules. Problems have key `size` (or empty for
/// the 4 GiB limit).
pub(crate) fn check_buffer_size(size: u64, view: View) -> Result<(), ViewProblem> {
    let p = |key, message| Err(ViewProblem { key, message });
    if size == 0 {
        return p(
            "size",
            "a buffer of 0 bytes: D3D11 refuses a ByteWidth of 0 (ID3D11Device::CreateBuffer, D3D11_BUFFER_DESC)".into(),
        );
    }
    if !size.is_multiple_of(4) {
        return p("size", MemError::UnalignedSize(size as usize).to_string());
    }
    match view {
        View::Structured(stride) if !size.is_multiple_of(u64::from(stride)) => {
            return p(
                "size",
                format!(
                    "{size} bytes is not a whole number of {stride}-byte structures: D3D11 refuses a structured buffer whose ByteWidth is not a multiple of StructureByteStride (ID3D11Device::CreateBuffer, D3D11_BUFFER_DESC); the last {} bytes would be outside every view",
                    size % u64::from(stride)
                ),
            )
        }
        View::Typed(f) if !size.is_multiple_of(f.size_bytes() as u64) => {
            return p(
                "size",
                format!(
                    "{size} bytes is not a whole number of {}-byte {} elements: a typed view covers whole elements (D3D11_BUFFER_SRV / D3D11_BUFFER_UAV NumElements), so the last {} bytes would be outside it",
                    f.size_bytes(),
                    f.name(),
                    size % f.size_bytes() as u64
                ),
            )
        }
        _ => {}
    }
    const MAX_BYTES: u64 = 1 << 32;
    if size > MAX_BYTES {
        return p(
            "",
            format!("{size} bytes is more than the 4 GiB a view can address"),
        );
    }
    Ok(())
}

/// Whether texture view `dimension` of format `format` fits `slot`, which
/// the shader declares as `decl` (or RDEF as `rdef`: dimension and return
/// type). Problems have key `view` or `format`.
pub(crate) fn check_texture_view(
    slot: Slot,
    dimension: ViewDimension,
    format: Format,
    decl: Option<&TextureDecl>,
    rdef: Option<(ViewDimension, u8)>,
) -> Result<(), ViewProblem> {
    let p = |key, message| Err(ViewProblem { key, message });
    if slot.kind == SlotKind::ConstantBuffer {
        return p(
            "view",
            format!("textures go with t# or u# slots (this is {slot})"),
        );
    }
    if let Some(d) = decl.map(|d| d.dimension).or(rdef.map(|r| r.0)) {
        if d != dimension {
            return p(
                "view",
                format!(
                    "the shader declares {slot} as {}, not {}",
                    d.name(),
                    dimension.name()
                ),
            );
        }
    }
    if slot.kind == SlotKind::Uav && !dimension.allowed_for_uav() {
        return p(
            "view",
            format!(
                "a UAV cannot be a {} (no multisampled or cube UAVs)",
                dimension.name()
            ),
        );
    }
    let return_type = decl
        .map(|d| d.return_types[0])
        .or(rdef.map(|r| r.1))
        .filter(|&t| (1..=5).contains(&t));
    if let Some(t) = return_type {
        if let Err((_, m)) = check_return_type(t, format, slot) {
            return p("format", m);
        }
    }
    if slot.kind == SlotKind::Uav && !format.uav_storable() {
        return p(
            "format",
            format!("{} cannot be the format of a texture UAV", format.name()),
        );
    }
    Ok(())
}

/// What RDEF says of texture slot `slot`: its view dimension and return type
/// (D3D_SRV_DIMENSION; D3D_RESOURCE_RETURN_TYPE, as declarations number them),
/// when RDEF binds a texture (not a buffer) there.
pub(crate) fn rdef_texture(program: &Program, slot: Slot) -> Option<(ViewDimension, u8)> {
    let refl = program.reflection.as_ref()?;
    let prefix = match slot.kind {
        SlotKind::Srv => "t",
        SlotKind::Uav => "u",
        SlotKind::ConstantBuffer => return None,
    };
    let b = refl.resource_at(prefix, 0, slot.index)?;
    if !matches!(b.input_type, InputType::Texture | InputType::UavRwTyped) {
        return None;
    }
    use ViewDimension::*;
    let dim = match b.dimension {
        2 => Texture1D,
        3 => Texture1DArray,
        4 => Texture2D,
        5 => Texture2DArray,
        6 => Texture2DMS,
        7 => Texture2DMSArray,
        8 => Texture3D,
        9 => TextureCube,
        10 => TextureCubeArray,
        _ => return None, // buffers
    };
    Some((dim, u8::try_from(b.return_type).unwrap_or(0)))
}
