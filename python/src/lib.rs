//! `sm5sim._native`, the extension module behind the Python package
//! `sm5sim` (issue #33): PyO3 bindings of the by-name API
//! ([`sm5sim::api`]) with NumPy arrays in and out. The package's
//! `__init__.py` re-exports everything here; `docs/python.md` is the guide
//! and `python/sm5sim/__init__.pyi` the typed interface.
//!
//! Arrays are checked against what the shader declares at the slot they
//! are bound to (the view, and RDEF's element type) before any storage is
//! made; every refusal, ours or the API's, is an exception of the class
//! [`Error`] (a subclass per kind of [`ApiError`]) whose message is the
//! API's own.

use numpy::{
    PyArray1, PyArrayDescr, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};
use sm5sim::api::{clip, error_text, ApiError, Slot, SlotKind, TextureRegion, Value, View};
use sm5sim::sim_core::check::{CheckOptions, Finding as RFinding, Severity};
use sm5sim::sim_core::program::BufferDeclKind;
use sm5sim::sim_mem::{
    ChannelKind, Format, TextureDesc, TextureDimension, ViewDimension, ViewRange,
};
use sm5sim::sim_sched::{DispatchProfile, DispatchStats};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

create_exception!(
    sm5sim,
    Error,
    PyException,
    "Every refusal of sm5sim: the message says which shader, resource, slot or field, and what is wrong."
);
create_exception!(
    sm5sim,
    LoadError,
    Error,
    "A shader file that cannot be read, compiled or loaded."
);
create_exception!(
    sm5sim,
    UnknownNameError,
    Error,
    "A name that is neither in the shader's RDEF nor a slot name (t0, u1, cb0)."
);
create_exception!(
    sm5sim,
    BindingError,
    Error,
    "A resource or array that does not fit the slot it is bound to (kind, view, stride, dtype, shape, format)."
);
create_exception!(
    sm5sim,
    FieldError,
    Error,
    "A constant-buffer field that names no variable, or whose value does not fit it."
);
create_exception!(
    sm5sim,
    ResourceError,
    Error,
    "A resource that cannot be made, written or read as asked."
);
create_exception!(
    sm5sim,
    NotBoundError,
    Error,
    "Kernel.read of a name nothing is bound as."
);
create_exception!(
    sm5sim,
    UnboundError,
    Error,
    "A slot the shader declares with nothing bound at dispatch."
);
create_exception!(
    sm5sim,
    ShaderError,
    Error,
    "A shader that cannot run as it is (a sampler's name bound as a resource, no RDEF for fields)."
);
create_exception!(
    sm5sim,
    DispatchError,
    Error,
    "A dispatch refused (D3D's group limits, too many threads) or stopped (the watchdog)."
);

create_exception!(
    sm5sim,
    CancelledError,
    DispatchError,
    "A dispatch stopped because its CancelToken was cancelled."
);

create_exception!(
    sm5sim,
    JobError,
    Error,
    "A job file that could not be loaded (its TOML, shader or resources), with the file and key."
);

/// The exception for an API error, carrying its message.
fn api_err(e: ApiError) -> PyErr {
    let m = e.to_string();
    if e.is_cancelled() {
        return CancelledError::new_err(m);
    }
    match e {
        ApiError::Io { .. } | ApiError::Compile(_) | ApiError::Load { .. } => LoadError::new_err(m),
        ApiError::UnknownName { .. } => UnknownNameError::new_err(m),
        ApiError::Binding { .. } => BindingError::new_err(m),
        ApiError::NotBound { .. } => NotBoundError::new_err(m),
        ApiError::Unbound { .. } => UnboundError::new_err(m),
        ApiError::Field { .. } => FieldError::new_err(m),
        ApiError::Resource { .. } => ResourceError::new_err(m),
        ApiError::Shader { .. } => ShaderError::new_err(m),
        ApiError::Dispatch { .. } => DispatchError::new_err(m),
    }
}

/// A `BindingError` in the API's form: `'name' (slot): message`.
fn binding_err(name: &str, slot: Slot, message: String) -> PyErr {
    api_err(ApiError::Binding {
        name: name.to_string(),
        slot,
        message,
    })
}

/// A `ResourceError` in the API's form: `what: message`.
fn resource_err(what: String, message: String) -> PyErr {
    api_err(ApiError::Resource { what, message })
}

// ---------------------------------------------------------------------------
// NumPy helpers

fn numpy(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    PyModule::import(py, "numpy")
}

/// A NumPy dtype from anything `numpy.dtype` takes (`np.float32`, `"<u4"`, a
/// dtype, a structured description).
fn as_dtype<'py>(py: Python<'py>, d: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDescr>> {
    Ok(numpy(py)?.getattr("dtype")?.call1((d,))?.cast_into()?)
}

/// `float32`, `uint8`, `[('a', '<f4'), …]`: a dtype as messages show it.
fn dtype_name(d: &Bound<'_, PyArrayDescr>) -> String {
    d.str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `(1000, 4)`: a shape as NumPy prints it.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        s => format!(
            "({})",
            s.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `a float32 array of shape (20,)`, for messages.
fn describe_array(a: &Bound<'_, PyUntypedArray>) -> String {
    format!(
        "a {} array of shape {}",
        dtype_name(&a.dtype()),
        shape_text(a.shape())
    )
}

/// The bytes of `a` in C order (copied once; a non-contiguous array is made
/// contiguous first). Object and big-endian dtypes are refused.
fn array_bytes(a: &Bound<'_, PyUntypedArray>) -> PyResult<Vec<u8>> {
    let py = a.py();
    let d = a.dtype();
    if d.has_object() {
        return Err(PyTypeError::new_err(format!(
            "{} holds Python objects, not numbers",
            describe_array(a)
        )));
    }
    if d.is_native_byteorder() == Some(false) {
        return Err(PyTypeError::new_err(format!(
            "{} is big-endian; resources are little-endian (convert it with a.astype(a.dtype.newbyteorder('<')))",
            describe_array(a)
        )));
    }
    let np = numpy(py)?;
    let c = np.call_method1("ascontiguousarray", (a,))?;
    let flat = c
        .call_method1("reshape", (-1,))?
        .call_method1("view", (np.getattr("uint8")?,))?;
    let flat = flat.cast::<PyArray1<u8>>()?;
    let ro = flat.readonly();
    Ok(ro
        .as_slice()
        .map_err(|e| PyTypeError::new_err(e.to_string()))?
        .to_vec())
}

/// An array of `dtype` and `shape` over `bytes` (moved, not copied).
fn array_from_bytes<'py>(
    py: Python<'py>,
    bytes: Vec<u8>,
    dtype: &Bound<'py, PyArrayDescr>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let raw = PyArray1::from_vec(py, bytes);
    let shape = PyTuple::new(py, shape)?;
    raw.call_method1("view", (dtype,))?
        .call_method1("reshape", (shape,))
}

/// The NumPy dtype holding one channel of `f`, when every channel has the
/// same width (8, 16 or 32 bits): `uint8` for `R8G8B8A8_UNORM`, `float32`
/// for `R32_FLOAT`, `float16` for `R16G16_FLOAT`.
fn channel_dtype(f: Format) -> Option<&'static str> {
    let bits = f.channel_bits();
    let b = *bits.first()?;
    if bits.iter().any(|&x| x != b) || f.is_block_compressed() || f.is_subsampled() {
        return None;
    }
    Some(match (f.kind(), b) {
        (ChannelKind::Float, 32) => "<f4",
        (ChannelKind::Float, 16) => "<f2",
        (ChannelKind::Unorm | ChannelKind::Uint, 8) => "u1",
        (ChannelKind::Unorm | ChannelKind::Uint, 16) => "<u2",
        (ChannelKind::Unorm | ChannelKind::Uint, 32) => "<u4",
        (ChannelKind::Snorm | ChannelKind::Sint, 8) => "i1",
        (ChannelKind::Snorm | ChannelKind::Sint, 16) => "<i2",
        (ChannelKind::Snorm | ChannelKind::Sint, 32) => "<i4",
        _ => return None,
    })
}

/// `float32` for `<f4`: a dtype string as NumPy names it.
fn numpy_name(d: &str) -> &'static str {
    match d {
        "<f4" => "float32",
        "<f2" => "float16",
        "u1" => "uint8",
        "<u2" => "uint16",
        "<u4" => "uint32",
        "i1" => "int8",
        "<i2" => "int16",
        _ => "int32",
    }
}

/// How one element of `f` reads as an array: its dtype and channels per
/// element (a packed format such as `R10G10B10A2_UNORM` reads as one
/// unsigned word of its size).
fn format_layout(f: Format) -> (&'static str, usize) {
    match channel_dtype(f) {
        Some(d) => (d, f.channel_bits().len()),
        None => match f.size_bytes() {
            1 => ("u1", 1),
            2 => ("<u2", 1),
            8 => ("<u4", 2),
            16 => ("<u4", 4),
            _ => ("<u4", 1),
        },
    }
}

/// The DXGI format of `channels` channels of dtype `d` for a slot declared
/// with return type `ret` (1 unorm, 2 snorm, 3 sint, 4 uint, 5 float; 0
/// unknown): `uint8` × 4 is `R8G8B8A8_UNORM` where the shader reads floats
/// and `R8G8B8A8_UINT` where it reads `uint`s.
fn infer_format(d: &Bound<'_, PyArrayDescr>, channels: usize, ret: u8) -> Result<Format, String> {
    let kind = d.kind();
    let size = d.itemsize();
    let integer = matches!(ret, 3 | 4);
    let suffix = match (kind, size) {
        (b'f', 4 | 2) => "FLOAT",
        (b'u', 4) | (b'i', 4) if ret == 3 => "SINT",
        (b'u', 4) | (b'i', 4) if ret == 4 => "UINT",
        (b'u', 4) => "UINT",
        (b'i', 4) => "SINT",
        (b'u', 1 | 2) if integer => "UINT",
        (b'u', 1 | 2) => "UNORM",
        (b'i', 1 | 2) if integer => "SINT",
        (b'i', 1 | 2) => "SNORM",
        _ => "",
    };
    let bits = size * 8;
    let names = ["R", "G", "B", "A"];
    let name = if suffix.is_empty() || !(1..=4).contains(&channels) {
        None
    } else {
        let ch: String = names[..channels]
            .iter()
            .map(|c| format!("{c}{bits}"))
            .collect();
        Some(format!("{ch}_{suffix}"))
    };
    name.as_deref()
        .and_then(Format::from_name)
        .ok_or_else(|| {
            format!(
                "no DXGI format holds {channels} {} channel{}; give format= (a DXGI format name such as \"R8G8B8A8_UNORM\")",
                dtype_name(d),
                if channels == 1 { "" } else { "s" }
            )
        })
}

fn parse_format(name: &str) -> PyResult<Format> {
    Format::from_name(name).ok_or_else(|| {
        resource_err(
            "a format".into(),
            format!("'{}' is no DXGI format sm5sim knows", clip(name)),
        )
    })
}

// ---------------------------------------------------------------------------
// What a shader declares at a slot

/// A slot's declaration, as far as arrays care.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Decl {
    Constant,
    Raw,
    Structured(u32),
    /// typed buffer with this return type
    Typed(u8),
    /// texture of this dimension and return type
    Texture(ViewDimension, u8),
    /// nothing declared there
    Nothing,
}

fn decl(shader: &sm5sim::Shader, slot: Slot) -> Decl {
    let p = shader.program();
    let (buf, tex) = match slot.kind {
        SlotKind::ConstantBuffer => return Decl::Constant,
        SlotKind::Srv => (p.srv(slot.index), p.srv_texture(slot.index)),
        SlotKind::Uav => (p.uav(slot.index), p.uav_texture(slot.index)),
    };
    match (buf.map(|b| b.kind), tex) {
        (Some(BufferDeclKind::Raw), _) => Decl::Raw,
        (Some(BufferDeclKind::Structured { stride }), _) => Decl::Structured(stride),
        (Some(BufferDeclKind::Typed { return_types }), _) => Decl::Typed(return_types[0]),
        (None, Some(t)) => Decl::Texture(t.dimension, t.return_types[0]),
        (None, None) => Decl::Nothing,
    }
}

/// The RDEF type of a structured buffer's element (`float4`, a struct's
/// name) and the one scalar base type all its members share (2 int, 3
/// float, 19 uint, 39 double), when they share one.
fn element_type(shader: &sm5sim::Shader, slot: Slot) -> Option<(String, Option<u16>)> {
    let refl = shader.program().reflection.as_ref()?;
    let name = refl
        .bindings
        .iter()
        .find(|b| {
            b.bind_point == slot.index
                && b.input_type.is_structured()
                && b.input_type.is_uav() == (slot.kind == SlotKind::Uav)
        })?
        .name
        .clone();
    let var = refl.element_layout(&name)?.variables.first()?;
    fn base(t: &sm5sim::sim_core::front::rdef::TypeDesc, out: &mut Vec<u16>) {
        if t.members.is_empty() {
            out.push(t.base_type);
        }
        for (_, _, m) in &t.members {
            base(m, out);
        }
    }
    let mut bases = Vec::new();
    base(&var.ty, &mut bases);
    let shared = bases
        .first()
        .copied()
        .filter(|b| bases.iter().all(|x| x == b));
    Some((var.ty.hlsl_name(), shared))
}

/// Whether dtype `d` (kind, itemsize) holds HLSL base type `base`.
fn dtype_fits_base(d: &Bound<'_, PyArrayDescr>, base: u16) -> bool {
    match base {
        3 => d.kind() == b'f' && d.itemsize() == 4,
        39 => d.kind() == b'f' && d.itemsize() == 8,
        1 | 2 | 19 => matches!(d.kind(), b'u' | b'i') && d.itemsize() == 4,
        _ => true,
    }
}

// ---------------------------------------------------------------------------
// Shader

/// A compute shader ready to run, and its reflection.
#[pyclass(module = "sm5sim", frozen)]
struct Shader {
    inner: Arc<sm5sim::Shader>,
}

/// One resource slot a shader declares.
#[pyclass(module = "sm5sim", frozen, get_all)]
struct ResourceInfo {
    /// its HLSL name, when the shader has RDEF
    name: Option<String>,
    /// its slot: `t0`, `u1`, `cb0`
    slot: String,
    /// `srv`, `uav` or `cbuffer`
    kind: String,
    /// what the shader declares there, in words
    declared: String,
    /// a structured buffer's stride in bytes
    stride: Option<u32>,
    /// a texture's view dimension (`texture2d`, …)
    dimension: Option<String>,
    /// a structured buffer's element type in RDEF (`float4`, a struct's name)
    element_type: Option<String>,
}

#[pymethods]
impl ResourceInfo {
    fn __repr__(&self) -> String {
        format!(
            "ResourceInfo(name={:?}, slot='{}', kind='{}', declared='{}')",
            self.name, self.slot, self.kind, self.declared
        )
    }
}

/// One variable of a constant buffer.
#[pyclass(module = "sm5sim", frozen, get_all)]
struct CbufferVariable {
    /// its HLSL name
    name: String,
    /// byte offset in the buffer
    offset: u32,
    /// size in bytes
    size: u32,
    /// its HLSL type (`float`, `uint2`, `float4x4`, a struct's name)
    r#type: String,
    /// array elements (0 when not an array)
    elements: u16,
}

#[pymethods]
impl CbufferVariable {
    fn __repr__(&self) -> String {
        format!(
            "CbufferVariable(name='{}', type='{}', offset={}, size={})",
            self.name, self.r#type, self.offset, self.size
        )
    }
}

#[pymethods]
impl Shader {
    /// Load a shader file: DXBC (.dxbc, .cso), an fxc listing (.asm) or HLSL
    /// (.hlsl, compiled by the fxc that compiler discovery finds). The GIL
    /// is released; Ctrl-C stops the load at its next phase and raises
    /// KeyboardInterrupt.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Shader> {
        let (token, load) = cancellable_load();
        let s = run_interruptible(py, &token, || {
            sm5sim::Shader::load_with(&path, &load, &Default::default())
        })?;
        Ok(Shader { inner: Arc::new(s) })
    }

    /// A shader from the bytes of a DXBC container or the text of an fxc
    /// listing; `name` stands for it in messages. As `load`, the GIL is
    /// released and Ctrl-C stops it.
    #[staticmethod]
    #[pyo3(signature = (data, name = "shader"))]
    fn from_bytes(py: Python<'_>, data: Vec<u8>, name: &str) -> PyResult<Shader> {
        let (token, load) = cancellable_load();
        let s = run_interruptible(py, &token, || sm5sim::Shader::from_bytes(data, name, &load))?;
        Ok(Shader { inner: Arc::new(s) })
    }

    /// Compile HLSL `source` (a string) with fxc and load the result:
    /// `entry` point, target `profile`, `defines` (name to value; a value
    /// of None defines the name alone), `include_dirs` searched by
    /// `#include`, and `name`, the file name the source is compiled as (it
    /// stands for the shader in messages and in fxc's). The fxc that
    /// compiler discovery finds (`fxc`, else `SM5SIM_FXC`, else PATH)
    /// compiles it; LoadError when there is none or the source does not
    /// compile (with fxc's output). The GIL is released; Ctrl-C stops the
    /// load after fxc.
    #[staticmethod]
    #[pyo3(signature = (source, *, entry = "main", profile = "cs_5_0", defines = None, include_dirs = Vec::new(), name = "shader.hlsl", fxc = None))]
    #[allow(clippy::too_many_arguments)]
    fn compile(
        py: Python<'_>,
        source: &str,
        entry: &str,
        profile: &str,
        defines: Option<std::collections::BTreeMap<String, Option<String>>>,
        include_dirs: Vec<PathBuf>,
        name: &str,
        fxc: Option<PathBuf>,
    ) -> PyResult<Shader> {
        let file = std::path::Path::new(name);
        if file.file_name() != Some(file.as_os_str())
            || file.extension().is_none_or(|e| e != "hlsl")
        {
            return Err(PyTypeError::new_err(format!(
                "name is a file name ending in .hlsl (no folders), not {:?}",
                clip(name)
            )));
        }
        let dir = TempDir::new()?;
        let path = dir.0.join(file);
        std::fs::write(&path, source)
            .map_err(|e| LoadError::new_err(format!("{}: {e}", path.display())))?;
        let req = sm5sim::compiler::HlslRequest {
            source: path,
            entry: entry.to_string(),
            profile: profile.to_string(),
            defines: defines
                .unwrap_or_default()
                .into_iter()
                .map(|(k, v)| (k, v.unwrap_or_default()))
                .collect(),
            include_dirs,
        };
        let compile = sm5sim::compiler::CompileOptions {
            fxc,
            ..Default::default()
        };
        let (token, load) = cancellable_load();
        let s = run_interruptible(py, &token, || {
            sm5sim::Shader::compile(&req, &load, &compile)
        })?;
        Ok(Shader { inner: Arc::new(s) })
    }

    /// Its name in messages (the file name).
    #[getter]
    fn name(&self) -> String {
        self.inner.name().to_string()
    }

    /// `[numthreads(x, y, z)]`.
    #[getter]
    fn thread_group(&self) -> (u32, u32, u32) {
        let [x, y, z] = self.inner.thread_group();
        (x, y, z)
    }

    /// Every t#, u# and cb# slot the shader declares, with RDEF's names.
    #[getter]
    fn resources(&self) -> Vec<ResourceInfo> {
        self.inner
            .resources()
            .into_iter()
            .map(|r| {
                let d = decl(&self.inner, r.slot);
                ResourceInfo {
                    name: r.name,
                    slot: r.slot.to_string(),
                    kind: match r.slot.kind {
                        SlotKind::Srv => "srv",
                        SlotKind::Uav => "uav",
                        SlotKind::ConstantBuffer => "cbuffer",
                    }
                    .into(),
                    declared: r.declared,
                    stride: match d {
                        Decl::Structured(s) => Some(s),
                        _ => None,
                    },
                    dimension: match d {
                        Decl::Texture(dim, _) => Some(dim.name().to_string()),
                        _ => None,
                    },
                    element_type: element_type(&self.inner, r.slot).map(|e| e.0),
                }
            })
            .collect()
    }

    /// The variables of the constant buffer called `name` (its HLSL name or
    /// `cb#`), in RDEF's order.
    fn cbuffer(&self, name: &str) -> PyResult<Vec<CbufferVariable>> {
        let (_, cb) = self.inner.cbuffer(name).map_err(api_err)?;
        Ok(cb
            .variables
            .iter()
            .map(|v| CbufferVariable {
                name: v.name.clone(),
                offset: v.offset,
                size: v.size,
                r#type: v.ty.hlsl_name(),
                elements: v.ty.elements,
            })
            .collect())
    }

    fn __repr__(&self) -> String {
        let [x, y, z] = self.inner.thread_group();
        format!("Shader('{}', numthreads({x}, {y}, {z}))", self.inner.name())
    }
}

// ---------------------------------------------------------------------------
// Resource

/// The dtype and shape an array had when it became a resource: reads give
/// them back.
struct Layout {
    dtype: Py<PyArrayDescr>,
    shape: Vec<usize>,
}

/// A buffer or texture: a handle whose copies share the storage, so that a
/// resource bound to a kernel is read back through the handle kept.
#[pyclass(module = "sm5sim", frozen)]
struct Resource {
    inner: sm5sim::Resource,
    layout: Option<Layout>,
}

impl Resource {
    fn from_array(a: &Bound<'_, PyUntypedArray>) -> PyResult<Resource> {
        let bytes = array_bytes(a)?;
        let inner = sm5sim::Resource::from_bytes(&bytes).map_err(|e| match e {
            ApiError::Resource { message, .. } => resource_err(describe_array(a), message),
            e => api_err(e),
        })?;
        Ok(Resource {
            inner,
            layout: Some(Layout {
                dtype: a.dtype().unbind(),
                shape: a.shape().to_vec(),
            }),
        })
    }

    /// A texture of `dimension` holding `a` (mip 0 of every slice), in
    /// `format` or the one inferred from the dtype, the channels and the
    /// declared return type.
    fn texture_from_array(
        a: &Bound<'_, PyUntypedArray>,
        dimension: ViewDimension,
        format: Option<Format>,
        ret: u8,
    ) -> Result<Resource, String> {
        use ViewDimension::*;
        let base = match dimension {
            Texture1D => 1,
            Texture2D | Texture1DArray => 2,
            Texture3D | Texture2DArray => 3,
            d => {
                return Err(format!(
                    "a {} is made with Resource.texture, not from an array",
                    d.name()
                ))
            }
        };
        let shape = a.shape();
        let layout = match (dimension, shape.len()) {
            (Texture1D, 1 | 2) => "[w] or [w, c]",
            (Texture2D, 2 | 3) => "[h, w] or [h, w, c]",
            (Texture1DArray, 2 | 3) => "[slices, w] or [slices, w, c]",
            (Texture2DArray, 3 | 4) => "[slices, h, w] or [slices, h, w, c]",
            (Texture3D, 3 | 4) => "[d, h, w] or [d, h, w, c]",
            _ => "",
        };
        if layout.is_empty() {
            let want = match dimension {
                Texture1D => "[w] or [w, c]",
                Texture2D => "[h, w] or [h, w, c]",
                Texture1DArray => "[slices, w] or [slices, w, c]",
                Texture2DArray => "[slices, h, w] or [slices, h, w, c]",
                _ => "[d, h, w] or [d, h, w, c]",
            };
            return Err(format!(
                "the shader declares a {}; {} does not have its shape {want}",
                dimension.name(),
                describe_array(a)
            ));
        }
        let channels = if shape.len() == base { 1 } else { shape[base] };
        let d = a.dtype();
        let format = match format {
            Some(f) => f,
            None => infer_format(&d, channels, ret)?,
        };
        let (cd, per) = format_layout(format);
        let py = a.py();
        let fits = as_dtype(py, &PyString::new(py, cd))
            .map(|x| x.is_equiv_to(&d))
            .unwrap_or(false);
        if !fits || per != channels {
            return Err(format!(
                "{} holds {channels} {} channel{} per texel; {} texels are {per} {}",
                describe_array(a),
                dtype_name(&d),
                if channels == 1 { "" } else { "s" },
                format.name(),
                numpy_name(cd)
            ));
        }
        let dim = |i: usize| u32::try_from(shape[i]).unwrap_or(u32::MAX);
        let (tex_dim, w, h, depth, slices) = match dimension {
            Texture1D => (TextureDimension::Texture1D, dim(0), 1, 1, 1),
            Texture1DArray => (TextureDimension::Texture1D, dim(1), 1, 1, dim(0)),
            Texture2D => (TextureDimension::Texture2D, dim(1), dim(0), 1, 1),
            Texture2DArray => (TextureDimension::Texture2D, dim(2), dim(1), 1, dim(0)),
            _ => (TextureDimension::Texture3D, dim(2), dim(1), dim(0), 1),
        };
        let desc = TextureDesc {
            dimension: tex_dim,
            format,
            width: w,
            height: h,
            depth,
            array_size: slices,
            mip_levels: 1,
            sample_count: 1,
        };
        let inner = sm5sim::Resource::texture(desc).map_err(|e| e.to_string())?;
        let bytes = array_bytes(a).map_err(|e| e.to_string())?;
        let per_slice = bytes.len() / slices.max(1) as usize;
        for (s, chunk) in bytes.chunks(per_slice.max(1)).enumerate() {
            inner
                .write_subresource(0, s as u32, chunk)
                .map_err(|e| e.to_string())?;
        }
        Ok(Resource {
            inner,
            layout: Some(Layout {
                dtype: d.unbind(),
                shape: shape.to_vec(),
            }),
        })
    }

    /// Read as `dtype` (or the creation array's dtype and shape), `shape`
    /// given or flat.
    fn read_as<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        shape: Option<Vec<usize>>,
        view: Option<Decl>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if self.inner.as_texture().is_some() {
            return self.read_texture_impl(py, 0, dtype, shape, true);
        }
        let bytes = self.inner.data().to_bytes();
        let (dtype, default_shape) = match (dtype, &self.layout) {
            (Some(d), _) => (as_dtype(py, d)?, None),
            (None, Some(l)) => (l.dtype.bind(py).clone(), Some(l.shape.clone())),
            (None, None) => (as_dtype(py, &PyString::new(py, "<u4"))?, None),
        };
        let item = dtype.itemsize().max(1);
        if !bytes.len().is_multiple_of(item) {
            return Err(resource_err(
                self.inner_describe(),
                format!(
                    "{} bytes is not a whole number of {item}-byte {} elements",
                    bytes.len(),
                    dtype_name(&dtype)
                ),
            ));
        }
        let n = bytes.len() / item;
        let shape = match (shape, default_shape) {
            (Some(s), _) => s,
            (None, Some(s)) if s.iter().product::<usize>() == n => s,
            _ => match view {
                // a structure of several elements: [n, k]
                Some(Decl::Structured(stride))
                    if stride as usize > item && (stride as usize).is_multiple_of(item) =>
                {
                    vec![n / (stride as usize / item), stride as usize / item]
                }
                _ => vec![n],
            },
        };
        if shape.iter().product::<usize>() != n {
            return Err(resource_err(
                self.inner_describe(),
                format!(
                    "{n} {} elements do not make shape {}",
                    dtype_name(&dtype),
                    shape_text(&shape)
                ),
            ));
        }
        array_from_bytes(py, bytes, &dtype, &shape)
    }

    fn read_texture_impl<'py>(
        &self,
        py: Python<'py>,
        mip: u32,
        dtype: Option<&Bound<'py, PyAny>>,
        shape: Option<Vec<usize>>,
        follow_layout: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let t = self.inner.as_texture().ok_or_else(|| {
            resource_err(
                self.inner_describe(),
                "a buffer has no texels; use read".into(),
            )
        })?;
        let desc = *t.desc();
        if t.subresource_range(mip, 0).is_none() {
            return Err(resource_err(self.inner_describe(), format!("no mip {mip}")));
        }
        let slices = desc.array_size.max(1);
        let mut bytes = Vec::new();
        for s in 0..slices {
            bytes.extend(self.inner.read_subresource::<u8>(mip, s).map_err(api_err)?);
        }
        let [w, h, d] = t.mip_size(mip);
        let (cd, per) = format_layout(desc.format);
        let mut texel_shape: Vec<usize> = match desc.dimension {
            TextureDimension::Texture1D => vec![w as usize],
            TextureDimension::Texture2D => vec![h as usize, w as usize],
            TextureDimension::Texture3D => vec![d as usize, h as usize, w as usize],
        };
        if slices > 1 {
            texel_shape.insert(0, slices as usize);
        }
        texel_shape.push(per);
        let (dtype, shape) = match (dtype, shape, &self.layout) {
            (Some(dt), s, _) => (as_dtype(py, dt)?, s),
            (None, Some(s), _) => (as_dtype(py, &PyString::new(py, cd))?, Some(s)),
            (None, None, Some(l)) if mip == 0 && follow_layout => {
                (l.dtype.bind(py).clone(), Some(l.shape.clone()))
            }
            (None, None, _) => (as_dtype(py, &PyString::new(py, cd))?, Some(texel_shape)),
        };
        let item = dtype.itemsize().max(1);
        let n = bytes.len() / item;
        let shape = shape.unwrap_or_else(|| vec![n]);
        if !bytes.len().is_multiple_of(item) || shape.iter().product::<usize>() != n {
            return Err(resource_err(
                self.inner_describe(),
                format!(
                    "{} bytes of texels do not make a {} array of shape {}",
                    bytes.len(),
                    dtype_name(&dtype),
                    shape_text(&shape)
                ),
            ));
        }
        array_from_bytes(py, bytes, &dtype, &shape)
    }

    fn inner_describe(&self) -> String {
        self.inner.describe()
    }

    /// The shape of subresource (`mip`, any slice) as an array: `[w, c]`,
    /// `[h, w, c]` or `[d, h, w, c]`, and its channels' dtype.
    fn subresource_layout(&self, mip: u32, slice: u32) -> PyResult<(&'static str, Vec<usize>)> {
        let t = self.inner.as_texture().ok_or_else(|| {
            resource_err(
                self.inner_describe(),
                "a buffer has no subresources; use read and write".into(),
            )
        })?;
        let desc = *t.desc();
        if t.subresource_range(mip, slice).is_none() {
            return Err(resource_err(
                self.inner_describe(),
                format!(
                    "no subresource mip {mip} slice {slice} (it has {} mips and {} slices)",
                    desc.mip_levels,
                    desc.array_size.max(1)
                ),
            ));
        }
        let [w, h, d] = t.mip_size(mip);
        let (cd, per) = format_layout(desc.format);
        let mut shape: Vec<usize> = match desc.dimension {
            TextureDimension::Texture1D => vec![w as usize],
            TextureDimension::Texture2D => vec![h as usize, w as usize],
            TextureDimension::Texture3D => vec![d as usize, h as usize, w as usize],
        };
        shape.push(per);
        Ok((cd, shape))
    }

    /// The bytes of `a` to write as texels of this texture's format: its
    /// dtype must be the format's channel dtype (or raw bytes, `uint8`).
    fn texel_bytes(&self, a: &Bound<'_, PyUntypedArray>, cd: &str) -> PyResult<Vec<u8>> {
        let py = a.py();
        let d = a.dtype();
        let fits = |name: &str| {
            as_dtype(py, &PyString::new(py, name))
                .map(|x| x.is_equiv_to(&d))
                .unwrap_or(false)
        };
        if !fits(cd) && !fits("u1") {
            let format = self
                .inner
                .as_texture()
                .map(|t| t.desc().format.name())
                .unwrap_or("?");
            return Err(resource_err(
                self.inner_describe(),
                format!(
                    "{} does not hold {format} texels, whose channels are {} (or give their bytes as uint8)",
                    describe_array(a),
                    numpy_name(cd)
                ),
            ));
        }
        array_bytes(a)
    }
}

#[pymethods]
impl Resource {
    /// A buffer holding the bytes of `array` (C order, little-endian);
    /// reads give back its dtype and shape.
    #[staticmethod]
    fn buffer(array: &Bound<'_, PyAny>) -> PyResult<Resource> {
        let a = array_arg(array)?;
        Self::from_array(&a)
    }

    /// A zero-filled buffer of `nbytes` bytes (a multiple of 4, not 0).
    #[staticmethod]
    fn zeros(nbytes: usize) -> PyResult<Resource> {
        Ok(Resource {
            inner: sm5sim::Resource::zeroed(nbytes).map_err(api_err)?,
            layout: None,
        })
    }

    /// A texture from `array`: `[w, c]` (1D), `[h, w, c]` (2D), `[d, h, w, c]`
    /// (3D), or `[slices, …]` with `array=True`; `c` may be left out for one
    /// channel. The format is `format` (a DXGI name) or inferred from the
    /// dtype and `c` (`uint8` × 4 is `R8G8B8A8_UNORM`, `float32` × 1 is
    /// `R32_FLOAT`, `uint32` is `…_UINT`).
    #[staticmethod]
    #[pyo3(signature = (array, format = None, dimension = None))]
    fn texture(
        array: &Bound<'_, PyAny>,
        format: Option<&str>,
        dimension: Option<&str>,
    ) -> PyResult<Resource> {
        let a = array_arg(array)?;
        let format = format.map(parse_format).transpose()?;
        let dim = match dimension {
            Some(d) => ViewDimension::from_name(d).ok_or_else(|| {
                resource_err(
                    "a texture".into(),
                    format!(
                        "'{d}' is no view dimension (texture1d, texture1darray, texture2d, texture2darray, texture3d)"
                    ),
                )
            })?,
            None => match a.ndim() {
                1 => ViewDimension::Texture1D,
                2 | 3 => ViewDimension::Texture2D,
                _ => ViewDimension::Texture3D,
            },
        };
        Self::texture_from_array(&a, dim, format, 0)
            .map_err(|m| resource_err(describe_array(&a), m))
    }

    /// An empty (zeroed) texture of `format`, `width` × `height` × `depth`
    /// texels, `array_size` slices, `mip_levels` mips (0: the full chain).
    #[staticmethod]
    #[pyo3(signature = (format, width, height = 1, depth = 1, array_size = 1, mip_levels = 1))]
    fn empty_texture(
        format: &str,
        width: u32,
        height: u32,
        depth: u32,
        array_size: u32,
        mip_levels: u32,
    ) -> PyResult<Resource> {
        let format = parse_format(format)?;
        let dimension = if depth > 1 {
            TextureDimension::Texture3D
        } else if height > 1 {
            TextureDimension::Texture2D
        } else {
            TextureDimension::Texture1D
        };
        let desc = TextureDesc {
            dimension,
            format,
            width,
            height,
            depth,
            array_size,
            mip_levels,
            sample_count: 1,
        };
        Ok(Resource {
            inner: sm5sim::Resource::texture(desc).map_err(api_err)?,
            layout: None,
        })
    }

    /// The contents as an array: of `dtype` (flat, or `shape`), or of the
    /// array the resource was made from; a texture's mip 0 as
    /// `[h, w, c]` (see `read_texture`). `out`: an array to fill instead
    /// of a new one (its dtype and shape are the ones read), returned.
    #[pyo3(signature = (dtype = None, shape = None, *, out = None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        shape: Option<Vec<usize>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        read_into(dtype, shape, out, |dtype, shape| {
            self.read_as(py, dtype, shape, None)
        })
    }

    /// Mip `mip` of a texture, every slice: `[h, w, c]` for 2D, `[w, c]`
    /// 1D, `[d, h, w, c]` 3D, `[slices, …]` for arrays, in the dtype of
    /// the format's channels (`uint8` for `R8G8B8A8_UNORM`).
    #[pyo3(signature = (mip = 0))]
    fn read_texture<'py>(&self, py: Python<'py>, mip: u32) -> PyResult<Bound<'py, PyAny>> {
        self.read_texture_impl(py, mip, None, None, false)
    }

    /// Overwrite a buffer from byte `offset` on with the bytes of `array`;
    /// or a texture's mip 0, every slice, from an array shaped as
    /// `read_texture(0)` gives it (`offset` 0; `write_subresource` writes
    /// any mip and slice).
    #[pyo3(signature = (array, offset = 0))]
    fn write(&self, array: &Bound<'_, PyAny>, offset: usize) -> PyResult<()> {
        let a = array_arg(array)?;
        if let Some(t) = self.inner.as_texture() {
            if offset != 0 {
                return Err(resource_err(
                    self.inner_describe(),
                    format!("a texture is written whole (offset {offset}); write_subresource writes one mip and slice"),
                ));
            }
            let (cd, _) = self.subresource_layout(0, 0)?;
            let bytes = self.texel_bytes(&a, cd)?;
            let slices = t.desc().array_size.max(1) as usize;
            let per_slice = t.subresource_range(0, 0).map_or(0, |r| r.len());
            if bytes.len() != per_slice * slices {
                return Err(resource_err(
                    self.inner_describe(),
                    format!(
                        "{} is {} bytes; mip 0 of its {slices} slice{} is {} bytes",
                        describe_array(&a),
                        bytes.len(),
                        if slices == 1 { "" } else { "s" },
                        per_slice * slices
                    ),
                ));
            }
            for (s, chunk) in bytes.chunks(per_slice.max(1)).enumerate() {
                self.inner
                    .write_subresource(0, s as u32, chunk)
                    .map_err(api_err)?;
            }
            return Ok(());
        }
        let bytes = array_bytes(&a)?;
        self.inner.write::<u8>(offset, &bytes).map_err(api_err)
    }

    /// Subresource (`mip`, `slice`) of a texture as an array: `[h, w, c]`
    /// for 2D, `[w, c]` 1D, `[d, h, w, c]` 3D, in the dtype of the
    /// format's channels.
    #[pyo3(signature = (mip = 0, slice = 0))]
    fn read_subresource<'py>(
        &self,
        py: Python<'py>,
        mip: u32,
        slice: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (cd, shape) = self.subresource_layout(mip, slice)?;
        let bytes = self
            .inner
            .read_subresource::<u8>(mip, slice)
            .map_err(api_err)?;
        let dtype = as_dtype(py, &PyString::new(py, cd))?;
        array_from_bytes(py, bytes, &dtype, &shape)
    }

    /// Overwrite subresource (`mip`, `slice`) of a texture (`UpdateSubresource`)
    /// with `array`: as `read_subresource(mip, slice)` gives it, in the
    /// dtype of the format's channels (or its bytes as `uint8`).
    fn write_subresource(&self, mip: u32, slice: u32, array: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = array_arg(array)?;
        let (cd, _) = self.subresource_layout(mip, slice)?;
        let bytes = self.texel_bytes(&a, cd)?;
        self.inner
            .write_subresource(mip, slice, &bytes)
            .map_err(api_err)
    }

    /// `CopyResource(self, src)`: all of `src` into this resource, which is
    /// of the same kind and size (buffers of the same size; textures of the
    /// same dimension, size, mips, slices, with formats of one type group).
    /// The hidden counter is not copied.
    fn copy_from(&self, src: PyRef<'_, Resource>) -> PyResult<()> {
        self.inner.copy_from(&src.inner).map_err(api_err)
    }

    /// `CopySubresourceRegion` on buffers: `nbytes` bytes of `src` from byte
    /// `src_offset` into this buffer at byte `dst_offset` (None: the rest of
    /// `src` from `src_offset`). Any alignment; not within one buffer.
    #[pyo3(
        signature = (src, *, src_offset = 0, dst_offset = 0, nbytes = None),
        text_signature = "(self, /, src, *, src_offset=0, dst_offset=0, nbytes=None)"
    )]
    fn copy_region(
        &self,
        src: PyRef<'_, Resource>,
        src_offset: u64,
        dst_offset: u64,
        nbytes: Option<u64>,
    ) -> PyResult<()> {
        let n = nbytes.unwrap_or_else(|| (src.inner.len_bytes() as u64).saturating_sub(src_offset));
        self.inner
            .copy_region(dst_offset, &src.inner, src_offset, n)
            .map_err(api_err)
    }

    /// `CopySubresourceRegion` on textures: the box `src_box`
    /// (`((x0, y0, z0), (x1, y1, z1))`, the end excluded; None: all of it)
    /// of `src`'s subresource (`src_mip`, `src_slice`) into this texture's
    /// subresource (`dst_mip`, `dst_slice`) with its corner at texel `dst`.
    #[pyo3(
        signature = (src, *, src_mip = 0, src_slice = 0, dst_mip = 0, dst_slice = 0, src_box = None, dst = [0, 0, 0]),
        text_signature = "(self, /, src, *, src_mip=0, src_slice=0, dst_mip=0, dst_slice=0, src_box=None, dst=(0, 0, 0))"
    )]
    #[allow(clippy::too_many_arguments)]
    fn copy_texture_region(
        &self,
        src: PyRef<'_, Resource>,
        src_mip: u32,
        src_slice: u32,
        dst_mip: u32,
        dst_slice: u32,
        src_box: Option<[[u32; 3]; 2]>,
        dst: [u32; 3],
    ) -> PyResult<()> {
        let to = TextureRegion {
            mip: dst_mip,
            slice: dst_slice,
        };
        let from = TextureRegion {
            mip: src_mip,
            slice: src_slice,
        };
        self.inner
            .copy_texture_region(to, dst, &src.inner, from, src_box)
            .map_err(api_err)
    }

    /// `CopyStructureCount(self, offset, src)`: the hidden append/consume
    /// counter of buffer `src` written as a uint32 at byte `offset` (a
    /// multiple of 4) of this buffer.
    #[pyo3(signature = (src, offset = 0))]
    fn copy_structure_count(&self, src: PyRef<'_, Resource>, offset: u64) -> PyResult<()> {
        self.inner
            .copy_structure_count(offset, &src.inner)
            .map_err(api_err)
    }

    /// Size of the storage in bytes.
    #[getter]
    fn nbytes(&self) -> usize {
        self.inner.len_bytes()
    }

    /// Whether this is a texture.
    #[getter]
    fn is_texture(&self) -> bool {
        self.inner.as_texture().is_some()
    }

    /// A texture's DXGI format name; None for a buffer.
    #[getter]
    fn format(&self) -> Option<String> {
        self.inner
            .as_texture()
            .map(|t| t.desc().format.name().to_string())
    }

    /// The hidden append/consume counter of a UAV of this buffer.
    #[getter]
    fn get_counter(&self) -> u32 {
        self.inner.counter()
    }

    #[setter]
    fn set_counter(&self, value: u32) {
        self.inner.set_counter(value);
    }

    fn __repr__(&self) -> String {
        format!("Resource({})", self.inner_describe())
    }
}

/// `obj` as a NumPy array (a TypeError naming what it is otherwise).
fn array_arg<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    obj.cast::<PyUntypedArray>().cloned().map_err(|_| {
        let t = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!("expected a NumPy array, not {t}"))
    })
}

// ---------------------------------------------------------------------------
// Kernel

/// A shader and the resources, constants and samplers bound to it.
#[pyclass(module = "sm5sim")]
struct Kernel {
    inner: sm5sim::Kernel,
    /// the Shader object it was made from
    shader_obj: Py<Shader>,
    /// the Resource objects bound, by slot (reads give back their arrays'
    /// dtype and shape)
    bound: Vec<(Slot, Py<Resource>)>,
}

impl Kernel {
    fn shader(&self) -> &sm5sim::Shader {
        self.inner.shader()
    }

    /// `array` as a resource fitting `name` at `slot`, checked against the
    /// declaration; and the view to bind it with when not the declared one.
    /// `a` converted by NumPy's `astype(dtype, casting=rule)` to the dtype
    /// the slot holds: a structured buffer's declared element type, or
    /// `format`'s channels; `a` itself when it is that dtype already.
    fn cast_array<'py>(
        &self,
        name: &str,
        slot: Slot,
        a: Bound<'py, PyUntypedArray>,
        format: Option<Format>,
        rule: &str,
    ) -> PyResult<Bound<'py, PyUntypedArray>> {
        let py = a.py();
        let target = match (format, decl(self.shader(), slot)) {
            (Some(f), _) => Some(format_layout(f).0),
            (None, Decl::Structured(_)) => match element_type(self.shader(), slot) {
                Some((_, Some(3))) => Some("<f4"),
                Some((_, Some(39))) => Some("<f8"),
                Some((_, Some(2))) => Some("<i4"),
                Some((_, Some(1 | 19))) => Some("<u4"),
                _ => None,
            },
            _ => None,
        };
        let Some(target) = target else {
            return Err(binding_err(
                name,
                slot,
                format!(
                    "cast needs the dtype to convert to: a structured buffer whose RDEF gives its element type, or a format; {} stays as it is without cast",
                    describe_array(&a)
                ),
            ));
        };
        let dtype = as_dtype(py, &PyString::new(py, target))?;
        if a.dtype().is_equiv_to(&dtype) {
            return Ok(a);
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("casting", rule)?;
        let converted = a
            .call_method("astype", (dtype,), Some(&kwargs))
            .map_err(|e| {
                binding_err(
                    name,
                    slot,
                    format!("{} with cast={rule:?}: {}", describe_array(&a), e.value(py)),
                )
            })?;
        Ok(converted.cast_into::<PyUntypedArray>()?)
    }

    fn resource_for(
        &self,
        name: &str,
        slot: Slot,
        a: &Bound<'_, PyUntypedArray>,
        format: Option<Format>,
    ) -> PyResult<(Resource, Option<View>)> {
        let d = a.dtype();
        let shape = a.shape();
        let err = |m: String| binding_err(name, slot, m);
        match decl(self.shader(), slot) {
            Decl::Structured(stride) => {
                let item = d.itemsize();
                // the trailing axes make one structure: [n, k] with
                // k · itemsize = stride, or any shape of stride-sized items
                let fits = if d.has_fields() {
                    item == stride as usize
                } else {
                    (1..=shape.len())
                        .any(|k| shape[k..].iter().product::<usize>() * item == stride as usize)
                };
                let elem = element_type(self.shader(), slot);
                let what = match &elem {
                    Some((t, _)) => format!("{stride}-byte {t} elements"),
                    None => format!("{stride}-byte elements"),
                };
                // a dtype that is not the element type's is said first (a
                // shape hint for the wrong dtype would lead to a second
                // refusal)
                if let Some((t, Some(base))) = &elem {
                    if !d.has_fields() && !dtype_fits_base(&d, *base) {
                        return Err(err(format!(
                            "the shader declares a structured buffer of {what}; {} does not hold {t}s: its dtype is not {} (bind(..., cast=\"same_kind\") converts it)",
                            describe_array(a),
                            match base {
                                3 => "float32",
                                39 => "float64",
                                _ => "a 32-bit integer",
                            }
                        )));
                    }
                }
                if shape.is_empty() || !fits {
                    let hint =
                        if item > 0 && (stride as usize).is_multiple_of(item) && !d.has_fields() {
                            let k = stride as usize / item;
                            if k == 1 {
                                "give shape [n]".to_string()
                            } else {
                                format!("give shape [n, {k}]")
                            }
                        } else {
                            format!(
                            "give a dtype of {stride} bytes or [n, k] with k × itemsize = {stride}"
                        )
                        };
                    return Err(err(format!(
                        "the shader declares a structured buffer of {what}; {} is not an array of them ({hint}, or a structured dtype of itemsize {stride})",
                        describe_array(a)
                    )));
                }
                Ok((Resource::from_array(a)?, None))
            }
            Decl::Typed(ret) => {
                let channels = if shape.len() >= 2 {
                    shape[1..].iter().product()
                } else {
                    1
                };
                let f = match format {
                    Some(f) => f,
                    None => infer_format(&d, channels, ret).map_err(|m| {
                        err(format!(
                            "the shader declares a typed buffer; {}: {m}",
                            describe_array(a)
                        ))
                    })?,
                };
                Ok((Resource::from_array(a)?, Some(View::Typed(f))))
            }
            Decl::Texture(dim, ret) => {
                let r = Resource::texture_from_array(a, dim, format, ret).map_err(err)?;
                Ok((r, None))
            }
            Decl::Raw | Decl::Constant | Decl::Nothing => {
                let py = a.py();
                let r = Resource::from_array(a).map_err(|e| {
                    if e.is_instance_of::<ResourceError>(py) {
                        let m = e.value(py).to_string();
                        let m = m.split_once(": ").map_or(m.clone(), |x| x.1.to_string());
                        err(format!("{}: {m}", describe_array(a)))
                    } else {
                        e
                    }
                })?;
                Ok((r, format.map(View::Typed)))
            }
        }
    }

    /// `set_constants` (`keep`) and `replace_constants`.
    fn pack_constants<'py>(
        slf: Bound<'py, Self>,
        cbuffer: &str,
        fields: &Bound<'py, PyAny>,
        keep: bool,
    ) -> PyResult<Bound<'py, Self>> {
        let what = if keep {
            "set_constants"
        } else {
            "replace_constants"
        };
        let mut values = Vec::new();
        let items = fields.call_method0("items").map_err(|_| {
            PyTypeError::new_err(format!("{what} takes a dict of field names to values"))
        })?;
        for item in items.try_iter()? {
            let (k, v): (Bound<'py, PyAny>, Bound<'py, PyAny>) = item?.extract()?;
            let k: String = k
                .extract()
                .map_err(|_| field_err(cbuffer, "", "field names are strings".into()))?;
            let v = to_value(&v, cbuffer, &k)?;
            values.push((k, v));
        }
        let pairs: Vec<(&str, Value)> = values
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        {
            let mut k = in_use(&slf)?;
            if keep {
                k.inner.set_constants(cbuffer, &pairs)
            } else {
                k.inner.replace_constants(cbuffer, &pairs)
            }
            .map_err(api_err)?;
            if let Ok(slot) = k.shader().slot(cbuffer) {
                k.bound.retain(|b| b.0 != slot);
            }
        }
        Ok(slf)
    }

    /// A texture view of `resource` at `slot`: the declared dimension, in
    /// `format` (None: the texture's), over `range` (None: all of it).
    fn texture_view(
        &self,
        name: &str,
        slot: Slot,
        resource: &sm5sim::Resource,
        format: Option<Format>,
        range: Option<ViewRange>,
    ) -> PyResult<View> {
        let err = |m: String| binding_err(name, slot, m);
        let Decl::Texture(dimension, _) = decl(self.shader(), slot) else {
            let declared = self
                .shader()
                .resources()
                .into_iter()
                .find(|r| r.slot == slot)
                .map_or("nothing".to_string(), |r| r.declared);
            return Err(err(format!(
                "mip=, mip_count=, first_slice= and slice_count= choose a texture view's subresources; {slot} is declared {declared}, not a texture"
            )));
        };
        let format = match (format, resource.as_texture()) {
            (Some(f), _) => f,
            (None, Some(t)) => t.desc().format,
            (None, None) => {
                return Err(err(format!(
                    "the shader declares a {}; a texture view needs a texture, not {}",
                    dimension.name(),
                    resource.describe()
                )))
            }
        };
        Ok(View::Texture {
            dimension,
            format,
            range: range.unwrap_or_default(),
        })
    }

    fn layout_of(&self, slot: Slot, py: Python<'_>) -> Option<Py<Resource>> {
        self.bound
            .iter()
            .find(|b| b.0 == slot)
            .map(|b| b.1.clone_ref(py))
    }
}

/// A cbuffer value from a Python object, for the variable at `path`.
fn to_value(obj: &Bound<'_, PyAny>, cbuffer: &str, path: &str) -> PyResult<Value> {
    let py = obj.py();
    let np = numpy(py)?;
    if obj.is_instance_of::<PyBool>() || obj.is_instance(&np.getattr("bool_")?)? {
        return Ok(Value::Bool(obj.is_truthy()?));
    }
    if !obj.is_instance_of::<PyFloat>() && !obj.is_instance(&np.getattr("floating")?)? {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::Int(i));
        }
    }
    if let Ok(f) = obj.extract::<f64>() {
        return Ok(Value::Float(f));
    }
    if obj.cast::<PyUntypedArray>().is_ok() {
        return to_value(&obj.call_method0("tolist")?, cbuffer, path);
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut members = Vec::new();
        for (k, v) in d.iter() {
            let k: String = k.extract().map_err(|_| {
                field_err(
                    cbuffer,
                    path,
                    "a struct's members are named by strings".into(),
                )
            })?;
            let p = format!("{path}.{k}");
            members.push((k, to_value(&v, cbuffer, &p)?));
        }
        return Ok(Value::Struct(members));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for (i, v) in obj.try_iter()?.enumerate() {
            items.push(to_value(&v?, cbuffer, &format!("{path}[{i}]"))?);
        }
        return Ok(Value::List(items));
    }
    let t = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    Err(field_err(
        cbuffer,
        path,
        format!("a {t} is no value for a cbuffer variable (give a number, a bool, a list, an array or a dict)"),
    ))
}

fn field_err(cbuffer: &str, path: &str, message: String) -> PyErr {
    api_err(ApiError::Field {
        cbuffer: cbuffer.to_string(),
        path: path.to_string(),
        message,
    })
}

/// Group counts from an int or a sequence of 1 to 3 ints.
fn groups_arg(obj: &Bound<'_, PyAny>) -> PyResult<[u32; 3]> {
    if let Ok(x) = obj.extract::<u32>() {
        return Ok([x, 1, 1]);
    }
    let v: Vec<u32> = obj.extract().map_err(|_| {
        PyTypeError::new_err(
            "groups are an int or a tuple of 1 to 3 ints from 0 to 4294967295 (x, y, z)",
        )
    })?;
    match v[..] {
        [x] => Ok([x, 1, 1]),
        [x, y] => Ok([x, y, 1]),
        [x, y, z] => Ok([x, y, z]),
        _ => Err(PyTypeError::new_err(format!(
            "groups are 1 to 3 counts (x, y, z), not {}",
            v.len()
        ))),
    }
}

/// A dispatch's options from `Kernel.dispatch`'s keyword arguments.
fn options(
    threads: usize,
    warp_width: Option<usize>,
    schedule: Option<u64>,
    watchdog: Option<u64>,
    timeout: Option<f64>,
    profile: bool,
    check: bool,
) -> PyResult<sm5sim::Options> {
    let mut o = sm5sim::Options::default().threads(threads).profile(profile);
    if let Some(w) = warp_width {
        o = o.warp_width(w);
    }
    if let Some(s) = schedule {
        o = o.schedule(s);
    }
    if let Some(n) = watchdog {
        o = o.watchdog(n);
    }
    let timeout = match timeout {
        None => None,
        Some(t) => Some(Duration::try_from_secs_f64(t).map_err(|_| {
            PyTypeError::new_err(format!(
                "timeout is a number of seconds from 0 up, or None; not {t}"
            ))
        })?),
    };
    o = o.timeout(timeout);
    if check {
        o = o.check(CheckOptions::default());
    }
    Ok(o)
}

/// A read into `out` when given (dtype and shape taken from it; NumPy's
/// `copyto` then fills it), else `read(dtype, shape)`'s new array.
fn read_into<'py>(
    dtype: Option<&Bound<'py, PyAny>>,
    shape: Option<Vec<usize>>,
    out: Option<&Bound<'py, PyAny>>,
    read: impl FnOnce(Option<&Bound<'py, PyAny>>, Option<Vec<usize>>) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let Some(out) = out else {
        return read(dtype, shape);
    };
    let a = out
        .cast::<PyUntypedArray>()
        .map_err(|_| PyTypeError::new_err("out is a NumPy array"))?;
    if dtype.is_some() || shape.is_some() {
        return Err(PyTypeError::new_err(
            "out gives the dtype and shape: pass dtype and shape, or out",
        ));
    }
    let py = out.py();
    let new = read(Some(&a.dtype().into_any()), Some(a.shape().to_vec()))?;
    numpy(py)?
        .call_method1("copyto", (out, new))
        .map_err(|e| PyTypeError::new_err(format!("out: {}", e.value(py))))?;
    Ok(out.clone())
}

impl Kernel {
    /// `dispatch` and `dispatch_threads`: `groups` under `o`, cancelled by
    /// `cancel` (or Ctrl-C), telling `progress`.
    fn run_dispatch(
        &self,
        py: Python<'_>,
        groups: [u32; 3],
        o: sm5sim::Options,
        cancel: Option<PyRef<'_, CancelToken>>,
        progress: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Dispatched> {
        let token = cancel.map_or_else(sm5sim::api::CancelToken::new, |t| t.inner.clone());
        let (o, tick) = with_progress(o.cancel(&token), progress);
        let inner = &self.inner;
        let d = run_interruptible_with(py, &token, tick.as_deref(), || inner.dispatch(groups, &o))?;
        if let Some(t) = &tick {
            t(py)?;
        }
        Dispatched::from_api(py, groups, d)
    }

    /// `Kernel.read` into a new array.
    fn read_new<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        dtype: Option<&Bound<'py, PyAny>>,
        shape: Option<Vec<usize>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = self.resource(py, name)?;
        let slot = self.shader().slot(name).ok();
        let d = slot.map(|s| decl(self.shader(), s));
        let r = r.get();
        if r.layout.is_none() && dtype.is_none() && r.inner.as_texture().is_none() {
            // no array to follow: the declaration's element type
            if let (Some(s), Some(Decl::Structured(_))) = (slot, d) {
                let dt = match element_type(self.shader(), s) {
                    Some((_, Some(3))) => "<f4",
                    Some((_, Some(2))) => "<i4",
                    Some((_, Some(39))) => "<f8",
                    _ => "<u4",
                };
                let dt = PyString::new(py, dt);
                return r.read_as(py, Some(&dt.into_any()), shape, d);
            }
        }
        r.read_as(py, dtype, shape, d)
    }
}

/// A progress callback's look: calls `callback(done, total)` with the
/// groups of the dispatch finished so far and its groups.
type Tick<'a> = Box<Look<'a>>;

/// A look made with the GIL at each signal poll of
/// [`run_interruptible_with`] (a progress callback).
type Look<'a> = dyn Fn(Python<'_>) -> PyResult<()> + 'a;

/// `o` reporting its progress to `callback` (`dispatch(..., progress=)`):
/// the options with a `Progress` counter, and the look that reads it.
fn with_progress<'a>(
    mut o: sm5sim::Options,
    callback: Option<Bound<'a, PyAny>>,
) -> (sm5sim::Options, Option<Tick<'a>>) {
    let Some(callback) = callback else {
        return (o, None);
    };
    let counter = Arc::new(sm5sim::sim_sched::Progress::new());
    o.dispatch.progress = Some(counter.clone());
    let tick = move |_py: Python<'_>| {
        let s = counter.snapshot();
        callback.call1((s.done, s.groups)).map(drop)
    };
    (o, Some(Box::new(tick)))
}

/// The kernel to change, or a RuntimeError while a dispatch of it runs on
/// another thread (the GIL is released while it runs; a change under it
/// would race its reads of the bindings and constants).
fn in_use<'py>(slf: &Bound<'py, Kernel>) -> PyResult<PyRefMut<'py, Kernel>> {
    slf.try_borrow_mut().map_err(|_| {
        pyo3::exceptions::PyRuntimeError::new_err(
            "this Kernel is being dispatched on another thread: bind, set or unbind it once that dispatch returns (or use a Kernel per thread over shared Resources)",
        )
    })
}

/// A flag to stop dispatches from another thread: pass it as
/// `Kernel.dispatch(..., cancel=token)`, then call `token.cancel()` from
/// any thread; the dispatch raises `CancelledError`. It stays set until
/// `reset()`.
#[pyclass(module = "sm5sim", frozen)]
struct CancelToken {
    inner: sm5sim::api::CancelToken,
}

#[pymethods]
impl CancelToken {
    #[new]
    fn new() -> Self {
        CancelToken {
            inner: sm5sim::api::CancelToken::new(),
        }
    }

    /// Ask the dispatches watching this token to stop.
    fn cancel(&self) {
        self.inner.cancel();
    }

    /// Clear the flag, for the next dispatch.
    fn reset(&self) {
        self.inner.reset();
    }

    /// Whether `cancel()` was called since the last `reset()`.
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    fn __repr__(&self) -> String {
        format!("CancelToken(cancelled={})", self.inner.is_cancelled())
    }
}

/// Load options whose cancellation flag is a new token's: loading looks at
/// it before each phase (container or listing, decoding, lowering, debug
/// information), so that [`run_interruptible`] stops a long load.
fn cancellable_load() -> (sm5sim::api::CancelToken, sm5sim::sim_core::LoadOptions) {
    let token = sm5sim::api::CancelToken::new();
    let load = sm5sim::sim_core::LoadOptions {
        cancel: Some(token.flag()),
        ..Default::default()
    };
    (token, load)
}

/// How often a waiting dispatch looks for a signal (Ctrl-C): Python runs
/// signal handlers only on its main thread, between bytecodes, so the
/// dispatch runs on a thread of its own while this one waits, the GIL
/// released, and looks this often.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Run `work` (a dispatch or a load watching `token`) on a thread of its own while
/// this thread waits with the GIL released, looking for signals every
/// [`SIGNAL_POLL`]: on Ctrl-C (a signal handler that raises, as Python's
/// default SIGINT handler raises KeyboardInterrupt) `token` is cancelled,
/// the dispatch is awaited (it stops at its watchdog's next look), and the
/// handler's exception is raised.
fn run_interruptible<T: Send>(
    py: Python<'_>,
    token: &sm5sim::api::CancelToken,
    work: impl FnOnce() -> Result<T, ApiError> + Send,
) -> PyResult<T> {
    run_interruptible_with(py, token, None, work)
}

/// [`run_interruptible`], calling `tick` (with the GIL) at each look for
/// signals, every [`SIGNAL_POLL`]: a progress callback. An exception from
/// `tick` cancels the call as Ctrl-C does, and is raised.
fn run_interruptible_with<T: Send>(
    py: Python<'_>,
    token: &sm5sim::api::CancelToken,
    tick: Option<&Look>,
    work: impl FnOnce() -> Result<T, ApiError> + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("sm5sim-dispatch".into())
            .spawn_scoped(scope, move || {
                let _ = tx.send(work());
            });
        if spawned.is_err() {
            return Err(PyErr::new::<Error, _>(
                "cannot start the thread that runs the call",
            ));
        }
        // (a receiver is not Sync: waited on through a lock, never contended)
        let rx = std::sync::Mutex::new(rx);
        let recv = |timeout: Option<Duration>| {
            let rx = rx.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match timeout {
                Some(t) => rx.recv_timeout(t),
                None => rx
                    .recv()
                    .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
            }
        };
        loop {
            match py.detach(|| recv(Some(SIGNAL_POLL))) {
                Ok(result) => return result.map_err(api_err),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyErr::new::<Error, _>(
                        "internal error: the call's thread ended without a result",
                    ))
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    let looked = py
                        .check_signals()
                        .and_then(|()| tick.map_or(Ok(()), |t| t(py)));
                    if let Err(interrupt) = looked {
                        token.cancel();
                        // the dispatch stops at its watchdog's next look
                        let _ = py.detach(|| recv(None));
                        return Err(interrupt);
                    }
                }
            }
        }
    })
}

#[pymethods]
impl Kernel {
    /// A kernel of `shader` with nothing bound.
    #[new]
    fn new(shader: Bound<'_, Shader>) -> Kernel {
        Kernel {
            inner: sm5sim::Kernel::new(shader.get().inner.clone()),
            shader_obj: shader.unbind(),
            bound: Vec::new(),
        }
    }

    /// The shader.
    #[getter(shader)]
    fn shader_object(&self, py: Python<'_>) -> Py<Shader> {
        self.shader_obj.clone_ref(py)
    }

    /// Bind a NumPy array (copied into a new resource) or a Resource
    /// (shared, not copied) to the slot called `name` (its HLSL name or
    /// `t0`, `u1`, `cb0`); None binds D3D11's null view (`bind_null`). The
    /// array's dtype and shape are checked against the declaration: a
    /// structured buffer takes `[n, k]` with `k · itemsize` = the stride, or
    /// a dtype (structured or not) whose itemsize is the stride; a texture
    /// takes `[h, w, c]` (2D); a typed buffer takes `[n]` or `[n, c]`, its
    /// format `format` or inferred. `mip`, `mip_count`, `first_slice` and
    /// `slice_count` bind a texture view of those mips and slices (None:
    /// from the first, or all the rest). `first_element` and `elements`
    /// bind a buffer view of those elements only (D3D11's `FirstElement`
    /// and `NumElements`: 32-bit words of a raw view, structures, typed
    /// elements). `cast` (NumPy's casting rule: "no", "equiv", "safe",
    /// "same_kind" or "unsafe") converts an array whose dtype is not the
    /// declared one first: to the element type a structured buffer
    /// declares (float32 for `float4`), or to the channels of `format`
    /// (TypeError from NumPy when the rule forbids it). Returns the kernel.
    #[pyo3(
        signature = (name, value, format = None, *, mip = None, mip_count = None, first_slice = None, slice_count = None, first_element = None, elements = None, cast = None),
        text_signature = "(self, /, name, value, format=None, *, mip=None, mip_count=None, first_slice=None, slice_count=None, first_element=None, elements=None, cast=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn bind<'py>(
        slf: Bound<'py, Self>,
        name: &str,
        value: Option<&Bound<'py, PyAny>>,
        format: Option<&str>,
        mip: Option<u32>,
        mip_count: Option<u32>,
        first_slice: Option<u32>,
        slice_count: Option<u32>,
        first_element: Option<u64>,
        elements: Option<u64>,
        cast: Option<&str>,
    ) -> PyResult<Bound<'py, Self>> {
        let py = slf.py();
        const RULES: [&str; 5] = ["no", "equiv", "safe", "same_kind", "unsafe"];
        if let Some(c) = cast.filter(|c| !RULES.contains(c)) {
            return Err(PyTypeError::new_err(format!(
                "cast is one of NumPy's casting rules ({}), not {:?}",
                RULES.join(", "),
                clip(c)
            )));
        }
        let element_range = match (first_element, elements) {
            (None, None) => None,
            (f, Some(n)) => Some((f.unwrap_or(0), n)),
            (Some(_), None) => {
                return Err(PyTypeError::new_err(
                    "first_element needs elements (NumElements), the range's length",
                ))
            }
        };
        let ranged =
            mip.is_some() || mip_count.is_some() || first_slice.is_some() || slice_count.is_some();
        let range = ranged.then(|| ViewRange {
            first_mip: mip.unwrap_or(0),
            mip_count,
            first_slice: first_slice.unwrap_or(0),
            slice_count,
        });
        let Some(value) = value else {
            if ranged || format.is_some() || element_range.is_some() {
                return Err(PyTypeError::new_err(
                    "the null view (value None) takes no format, mip, slice or element range",
                ));
            }
            return Self::bind_null(slf, name);
        };
        let format = format.map(parse_format).transpose()?;
        {
            let mut k = in_use(&slf)?;
            let slot = k.shader().slot(name).map_err(api_err)?;
            let (res, view) = if let Ok(r) = value.cast::<Resource>() {
                let inner = &r.get().inner;
                let view = match (format, inner.as_texture()) {
                    (Some(f), None) => Some(View::Typed(f)),
                    (Some(_), Some(_)) => Some(k.texture_view(name, slot, inner, format, range)?),
                    (None, _) => None,
                };
                (r.clone().unbind(), view)
            } else {
                let a = array_arg(value).map_err(|_| {
                    let t = value
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default();
                    PyTypeError::new_err(format!(
                        "bind takes a NumPy array, an sm5sim.Resource or None, not {t}"
                    ))
                })?;
                let a = match cast {
                    Some(rule) => k.cast_array(name, slot, a, format, rule)?,
                    None => a,
                };
                let (r, view) = k.resource_for(name, slot, &a, format)?;
                (Py::new(py, r)?, view)
            };
            let inner = res.get().inner.clone();
            let view = match range {
                Some(range) => Some(k.texture_view(name, slot, &inner, format, Some(range))?),
                None => view,
            };
            match (element_range, view) {
                (Some((first, n)), v) => k.inner.bind_elements(name, &inner, v, first, n),
                (None, Some(v)) => k.inner.bind_view(name, &inner, v),
                (None, None) => k.inner.bind(name, &inner),
            }
            .map_err(api_err)?;
            k.bound.retain(|b| b.0 != slot);
            k.bound.push((slot, res));
        }
        Ok(slf)
    }

    /// Bind D3D11's null view to the slot called `name`: loads read 0,
    /// stores and atomics are dropped, the counter reads 0 (as
    /// `CSSetUnorderedAccessViews` / `CSSetShaderResources` with a null
    /// view). The slot counts as bound. Returns the kernel.
    fn bind_null<'py>(slf: Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, Self>> {
        {
            let mut k = in_use(&slf)?;
            let slot = k.shader().slot(name).map_err(api_err)?;
            k.inner.bind_null(name).map_err(api_err)?;
            k.bound.retain(|b| b.0 != slot);
        }
        Ok(slf)
    }

    /// Bind default sampler state (D3D11's defaults: linear filtering,
    /// clamp addressing) to the sampler called `name` (its RDEF name or
    /// `s0` … `s15`). Returns the kernel.
    fn bind_sampler<'py>(slf: Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, Self>> {
        in_use(&slf)?
            .inner
            .bind_sampler(name, Default::default())
            .map_err(api_err)?;
        Ok(slf)
    }

    /// Set the variables `fields` of the constant buffer called `cbuffer`
    /// (a dict of variable names to values in their HLSL shape: a number, a
    /// bool, a list or array for a vector, matrix rows or an array, a dict
    /// for a struct). The variables not given keep their values (0 at
    /// first), as an `UpdateSubresource` of those variables would leave
    /// them; `replace_constants` zeroes them. Returns the kernel.
    fn set_constants<'py>(
        slf: Bound<'py, Self>,
        cbuffer: &str,
        fields: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        Self::pack_constants(slf, cbuffer, fields, true)
    }

    /// `set_constants` with every variable not given set to 0: the whole
    /// buffer replaced. Returns the kernel.
    fn replace_constants<'py>(
        slf: Bound<'py, Self>,
        cbuffer: &str,
        fields: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, Self>> {
        Self::pack_constants(slf, cbuffer, fields, false)
    }

    /// Set the constant buffer called `cbuffer` to these 32-bit words.
    /// Returns the kernel.
    fn set_constant_words<'py>(
        slf: Bound<'py, Self>,
        cbuffer: &str,
        words: Vec<u32>,
    ) -> PyResult<Bound<'py, Self>> {
        {
            let mut k = in_use(&slf)?;
            k.inner
                .set_constant_words(cbuffer, &words)
                .map_err(api_err)?;
            if let Ok(slot) = k.shader().slot(cbuffer) {
                k.bound.retain(|b| b.0 != slot);
            }
        }
        Ok(slf)
    }

    /// The Resource bound at `name`.
    fn resource(&self, py: Python<'_>, name: &str) -> PyResult<Py<Resource>> {
        let r = match self.inner.resource(name) {
            Some(r) => r.clone(),
            None => {
                return Err(api_err(self.inner.read::<u32>(name).err().unwrap_or_else(
                    || ApiError::NotBound {
                        name: name.to_string(),
                        bound: String::new(),
                    },
                )))
            }
        };
        if let Ok(slot) = self.shader().slot(name) {
            if let Some(p) = self.layout_of(slot, py) {
                if p.get().inner.same(&r) {
                    return Ok(p);
                }
            }
        }
        Py::new(
            py,
            Resource {
                inner: r,
                layout: None,
            },
        )
    }

    /// What is bound at `name` as an array: with the dtype and shape of
    /// the array bound there (or, for a resource, how the shader declares
    /// it: `[n, k]` for a structured buffer of k-element structures,
    /// `[h, w, c]` for a 2D texture), or as `dtype` and `shape`.
    /// `out`: an array to fill instead of a new one (its dtype and shape
    /// are the ones read), returned.
    #[pyo3(signature = (name, dtype = None, shape = None, *, out = None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        dtype: Option<&Bound<'py, PyAny>>,
        shape: Option<Vec<usize>>,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        read_into(dtype, shape, out, |dtype, shape| {
            self.read_new(py, name, dtype, shape)
        })
    }
    /// Unbind `name`; False when nothing was bound there.
    fn unbind(&mut self, name: &str) -> bool {
        if let Ok(slot) = self.shader().slot(name) {
            self.bound.retain(|b| b.0 != slot);
        }
        self.inner.unbind(name)
    }

    /// A debug session over a dispatch of `groups` (as `dispatch` takes
    /// them) with the bindings as they stand: stopped before the first
    /// instruction (of `thread`'s group: the groups before it run first at
    /// full speed). `break_at`: breakpoints (`"file.hlsl:17"`, `"17"`,
    /// `"pc 12"`), a string or a list; `thread`: an `SV_DispatchThreadID`
    /// to focus on; `warp_width`: lanes per warp; `check`: run under the
    /// concurrency checker, stopping at each new finding; `watchdog`: the
    /// most warp-instructions. The dispatch changes the bound resources
    /// as it runs (docs/debugging.md).
    #[pyo3(
        signature = (groups, *, break_at = None, thread = None, warp_width = 32, check = false, watchdog = None),
        text_signature = "(self, /, groups, *, break_at=None, thread=None, warp_width=32, check=False, watchdog=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn debug(
        &self,
        groups: &Bound<'_, PyAny>,
        break_at: Option<&Bound<'_, PyAny>>,
        thread: Option<(u32, u32, u32)>,
        warp_width: usize,
        check: bool,
        watchdog: Option<u64>,
    ) -> PyResult<Debugger> {
        let groups = groups_arg(groups)?;
        let breaks: Vec<String> = match break_at {
            None => Vec::new(),
            Some(b) => match b.extract::<String>() {
                Ok(one) => vec![one],
                Err(_) => b.extract::<Vec<String>>()?,
            },
        };
        let options = sm5sim::debug::SessionOptions {
            step: None,
            thread: thread.map(|(x, y, z)| [x, y, z]),
            warp_width: Some(warp_width),
            break_on_findings: check,
            max_warp_instructions: watchdog,
        };
        let cell = DebugCell::try_new(self.inner.clone(), |k| {
            let mut s = sm5sim::debug::Session::for_kernel(k, groups, &options)?;
            for b in &breaks {
                s.add_breakpoint(b)?;
            }
            Ok::<_, sm5sim::debug::DebugError>(s)
        })
        .map_err(debug_err)?;
        Ok(Debugger { cell })
    }

    /// Run `Dispatch(x, y, z)` (`groups`: an int or a tuple of 1 to 3), the
    /// GIL released. `threads`: workers (0: one per core); `warp_width`:
    /// lanes per warp (None: one warp per group); `schedule`: a seed for a
    /// seeded schedule on the calling thread; `watchdog`: the most
    /// warp-instructions; `timeout`: seconds (None: no limit); `profile`:
    /// gather a Profile; `check`: run under the concurrency checker;
    /// `cancel`: a CancelToken another thread may cancel (CancelledError);
    /// `progress`: a callable `progress(done, total)` called on this
    /// thread every 50 ms while the dispatch runs, and once at its end,
    /// with the groups finished and the dispatch's groups (an exception
    /// it raises stops the dispatch and is raised); `messages`: how many
    /// of the shader's printf/errorf/abort/debug_break messages
    /// `Dispatched.messages` keeps (the first, in order). Ctrl-C stops the
    /// dispatch and raises KeyboardInterrupt.
    #[pyo3(
        signature = (groups, *, threads = 0, warp_width = None, schedule = None, watchdog = None, timeout = Some(60.0), profile = false, check = false, cancel = None, progress = None, messages = 1000),
        text_signature = "(self, /, groups, *, threads=0, warp_width=None, schedule=None, watchdog=None, timeout=60.0, profile=False, check=False, cancel=None, progress=None, messages=1000)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn dispatch(
        &self,
        py: Python<'_>,
        groups: &Bound<'_, PyAny>,
        threads: usize,
        warp_width: Option<usize>,
        schedule: Option<u64>,
        watchdog: Option<u64>,
        timeout: Option<f64>,
        profile: bool,
        check: bool,
        cancel: Option<PyRef<'_, CancelToken>>,
        progress: Option<Bound<'_, PyAny>>,
        messages: usize,
    ) -> PyResult<Dispatched> {
        let groups = groups_arg(groups)?;
        let o = options(
            threads, warp_width, schedule, watchdog, timeout, profile, check,
        )?
        .messages(messages);
        self.run_dispatch(py, groups, o, cancel, progress)
    }

    /// Run enough thread groups to cover `counts` threads (an int or 1 to
    /// 3 ints, x, y, z): each count divided by the shader's thread group
    /// size, rounded up (`(1000,)` threads of groups of 64 is 16 groups).
    /// The threads past a count run too, as on a GPU: the shader decides
    /// what they do (a bounds check on SV_DispatchThreadID). The options
    /// are `dispatch`'s.
    #[pyo3(
        signature = (counts, *, threads = 0, warp_width = None, schedule = None, watchdog = None, timeout = Some(60.0), profile = false, check = false, cancel = None, progress = None, messages = 1000),
        text_signature = "(self, /, counts, *, threads=0, warp_width=None, schedule=None, watchdog=None, timeout=60.0, profile=False, check=False, cancel=None, progress=None, messages=1000)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn dispatch_threads(
        &self,
        py: Python<'_>,
        counts: &Bound<'_, PyAny>,
        threads: usize,
        warp_width: Option<usize>,
        schedule: Option<u64>,
        watchdog: Option<u64>,
        timeout: Option<f64>,
        profile: bool,
        check: bool,
        cancel: Option<PyRef<'_, CancelToken>>,
        progress: Option<Bound<'_, PyAny>>,
        messages: usize,
    ) -> PyResult<Dispatched> {
        let counts = groups_arg(counts).map_err(|_| {
            PyTypeError::new_err(
                "counts are an int or a tuple of 1 to 3 thread counts from 0 to 4294967295 (x, y, z)",
            )
        })?;
        let size = self.inner.shader().program().thread_group;
        let groups = std::array::from_fn(|i| counts[i].div_ceil(size[i].max(1)));
        let o = options(
            threads, warp_width, schedule, watchdog, timeout, profile, check,
        )?
        .messages(messages);
        self.run_dispatch(py, groups, o, cancel, progress)
    }

    /// Run `DispatchIndirect(args, offset)`: the group counts are the three
    /// uint32s at byte `offset` (a multiple of 4) of the buffer `args`
    /// (a Resource, as an earlier dispatch or copy left it), read when the
    /// dispatch starts; the options are `dispatch`'s.
    #[pyo3(
        signature = (args, offset = 0, *, threads = 0, warp_width = None, schedule = None, watchdog = None, timeout = Some(60.0), profile = false, check = false, cancel = None, progress = None, messages = 1000),
        text_signature = "(self, /, args, offset=0, *, threads=0, warp_width=None, schedule=None, watchdog=None, timeout=60.0, profile=False, check=False, cancel=None, progress=None, messages=1000)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn dispatch_indirect(
        &self,
        py: Python<'_>,
        args: PyRef<'_, Resource>,
        offset: u64,
        threads: usize,
        warp_width: Option<usize>,
        schedule: Option<u64>,
        watchdog: Option<u64>,
        timeout: Option<f64>,
        profile: bool,
        check: bool,
        cancel: Option<PyRef<'_, CancelToken>>,
        progress: Option<Bound<'_, PyAny>>,
        messages: usize,
    ) -> PyResult<Dispatched> {
        let token = cancel.map_or_else(sm5sim::api::CancelToken::new, |t| t.inner.clone());
        let o = options(
            threads, warp_width, schedule, watchdog, timeout, profile, check,
        )?
        .cancel(&token)
        .messages(messages);
        let (o, tick) = with_progress(o, progress);
        let inner = &self.inner;
        let args = &args.inner;
        let (groups, d) = run_interruptible_with(py, &token, tick.as_deref(), || {
            let groups = inner.indirect_groups(args, offset)?;
            inner.dispatch(groups, &o).map(|d| (groups, d))
        })?;
        if let Some(t) = &tick {
            t(py)?;
        }
        Dispatched::from_api(py, groups, d)
    }

    /// The group counts `dispatch_indirect(args, offset)` would run: the
    /// three uint32s at byte `offset` of `args`, checked as it checks them.
    #[pyo3(signature = (args, offset = 0))]
    fn indirect_groups(&self, args: PyRef<'_, Resource>, offset: u64) -> PyResult<(u32, u32, u32)> {
        let [x, y, z] = self
            .inner
            .indirect_groups(&args.inner, offset)
            .map_err(api_err)?;
        Ok((x, y, z))
    }

    /// The SRVs that read as null in a dispatch because what they view is
    /// also bound as a UAV (D3D11's runtime unbinds them): for each, the
    /// SRV's slot and name, then the UAV's.
    fn srv_uav_hazards(&self) -> Vec<((String, String), (String, String))> {
        self.inner
            .srv_uav_hazards()
            .into_iter()
            .map(|((s, sn), (u, un))| ((s.to_string(), sn), (u.to_string(), un)))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("Kernel('{}')", self.shader().name())
    }
}

// ---------------------------------------------------------------------------
// What a dispatch reports

/// A dispatch's counters.
#[pyclass(module = "sm5sim", frozen, get_all)]
#[derive(Clone)]
struct Stats {
    /// thread groups run
    groups: u64,
    /// threads run
    threads: u64,
    /// warp-instructions executed
    warp_instructions: u64,
    /// group barriers completed
    barriers: u64,
    /// threads ended by `abort`
    aborted_threads: u64,
    /// `debug_break` instructions executed
    debug_breaks: u64,
}

impl From<&DispatchStats> for Stats {
    fn from(s: &DispatchStats) -> Self {
        Stats {
            groups: s.groups,
            threads: s.threads,
            warp_instructions: s.warp_instructions,
            barriers: s.barriers,
            aborted_threads: s.aborted_threads,
            debug_breaks: s.debug_breaks,
        }
    }
}

#[pymethods]
impl Stats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(groups={}, threads={}, warp_instructions={}, barriers={})",
            self.groups, self.threads, self.warp_instructions, self.barriers
        )
    }
}

/// Where a dispatch's time went (docs/profiling.md).
#[pyclass(module = "sm5sim", frozen, get_all)]
struct Profile {
    /// wall time of the dispatch in seconds
    wall_seconds: f64,
    /// warp-instructions executed
    warp_instructions: u64,
    /// lane-instructions executed (active lanes summed)
    lane_instructions: u64,
    /// lane-instructions over lane slots
    simd_efficiency: f64,
    /// lane-instructions per opcode mnemonic, most executed first
    opcodes: Vec<(String, u64)>,
    /// atomics executed
    atomics: u64,
    /// compare-exchanges executed
    compare_exchanges: u64,
    /// failed compare-exchanges (retries)
    cas_retries: u64,
    /// groupshared bytes read
    tgsm_bytes_read: u64,
    /// groupshared bytes written
    tgsm_bytes_written: u64,
    /// UAV bytes read
    uav_bytes_read: u64,
    /// UAV bytes written
    uav_bytes_written: u64,
    /// SRV bytes read
    srv_bytes_read: u64,
    /// seconds each worker spent running groups
    worker_busy_seconds: Vec<f64>,
}

impl From<&DispatchProfile> for Profile {
    fn from(p: &DispatchProfile) -> Self {
        let e = &p.exec;
        Profile {
            wall_seconds: p.wall.as_secs_f64(),
            warp_instructions: e.warp_instructions,
            lane_instructions: e.active_lanes,
            simd_efficiency: e.simd_efficiency(),
            opcodes: p.by_opcode.clone(),
            atomics: e.atomics,
            compare_exchanges: e.compare_exchanges,
            cas_retries: e.cas_failures,
            tgsm_bytes_read: e.tgsm_read,
            tgsm_bytes_written: e.tgsm_written,
            uav_bytes_read: e.uav_read,
            uav_bytes_written: e.uav_written,
            srv_bytes_read: e.srv_read,
            worker_busy_seconds: p.worker_busy.iter().map(Duration::as_secs_f64).collect(),
        }
    }
}

#[pymethods]
impl Profile {
    /// The profile as a dict (JSON-ready).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("wall_seconds", self.wall_seconds)?;
        d.set_item("warp_instructions", self.warp_instructions)?;
        d.set_item("lane_instructions", self.lane_instructions)?;
        d.set_item("simd_efficiency", self.simd_efficiency)?;
        d.set_item("opcodes", self.opcodes.clone())?;
        d.set_item("atomics", self.atomics)?;
        d.set_item("compare_exchanges", self.compare_exchanges)?;
        d.set_item("cas_retries", self.cas_retries)?;
        d.set_item("tgsm_bytes_read", self.tgsm_bytes_read)?;
        d.set_item("tgsm_bytes_written", self.tgsm_bytes_written)?;
        d.set_item("uav_bytes_read", self.uav_bytes_read)?;
        d.set_item("uav_bytes_written", self.uav_bytes_written)?;
        d.set_item("srv_bytes_read", self.srv_bytes_read)?;
        d.set_item("worker_busy_seconds", self.worker_busy_seconds.clone())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Profile(wall_seconds={:.6}, warp_instructions={}, simd_efficiency={:.3})",
            self.wall_seconds, self.warp_instructions, self.simd_efficiency
        )
    }
}

/// One finding of the concurrency checker (docs/checking.md).
#[pyclass(module = "sm5sim", frozen, get_all)]
struct Finding {
    /// what was found: `raw`, `war`, `waw`, `cross-group-rmw`, …
    kind: String,
    /// `error` or `warning`
    severity: String,
    /// the kind in words
    description: String,
    /// the memory: `u0`, `g0`; None for barrier findings
    resource: Option<String>,
    /// its name (the name it was bound by, or RDEF's)
    resource_name: Option<String>,
    /// byte offset of the word within the view or region
    byte_offset: Option<u64>,
    /// where that is as the shader indexes it (`[i]`, `[i].b`)
    element: Option<String>,
    /// how many times it occurred
    count: u64,
    /// for write-write races: both wrote the same value
    benign: bool,
    /// more about it
    note: Option<String>,
    /// the finding as the command line prints it (several lines)
    text: String,
}

impl From<&RFinding> for Finding {
    fn from(f: &RFinding) -> Self {
        Finding {
            kind: f.kind.name().to_string(),
            severity: match f.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            }
            .into(),
            description: f.kind.description().to_string(),
            resource: f.resource.clone(),
            resource_name: f.resource_name.clone(),
            byte_offset: f.byte_offset,
            element: f.element.clone(),
            count: f.count,
            benign: f.benign,
            note: f.note.clone(),
            text: f.to_string(),
        }
    }
}

#[pymethods]
impl Finding {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding(kind='{}', severity='{}', resource={:?}, resource_name={:?}, count={})",
            self.kind, self.severity, self.resource, self.resource_name, self.count
        )
    }
}

/// One `printf`, `errorf`, `abort` or `debug_break` of a dispatch's
/// threads (`sim_core::messages`).
#[pyclass(module = "sm5sim", frozen, get_all)]
struct Message {
    /// "printf", "errorf", "abort" or "debug_break"
    kind: &'static str,
    /// SV_GroupID
    group: (u32, u32, u32),
    /// SV_GroupThreadID
    thread: (u32, u32, u32),
    /// SV_DispatchThreadID
    dispatch_thread: (u32, u32, u32),
    /// the instruction's index in the program
    pc: u32,
    /// the formatted text (printf/errorf), or the kind's name
    text: String,
    /// the HLSL file and line, with /Zi
    file: Option<String>,
    line: Option<u32>,
}

impl From<&sm5sim::sim_sched::Message> for Message {
    fn from(m: &sm5sim::sim_sched::Message) -> Self {
        let t = |v: [u32; 3]| (v[0], v[1], v[2]);
        Message {
            kind: m.kind.name(),
            group: t(m.group),
            thread: t(m.thread),
            dispatch_thread: t(m.dispatch_thread),
            pc: m.pc,
            text: m.text.clone(),
            file: m.line.as_ref().map(|l| l.0.clone()),
            line: m.line.as_ref().map(|l| l.1),
        }
    }
}

#[pymethods]
impl Message {
    fn __repr__(&self) -> String {
        format!(
            "Message(kind='{}', group={:?}, thread={:?}, text={:?})",
            self.kind, self.group, self.thread, self.text
        )
    }
}

/// What a dispatch reported besides its effects on the bound resources.
#[pyclass(module = "sm5sim", frozen, get_all)]
struct Dispatched {
    /// the group counts (x, y, z)
    groups: (u32, u32, u32),
    /// its counters
    stats: Stats,
    /// where the time went, with profile=True
    profile: Option<Py<Profile>>,
    /// the checker's findings, errors first, with check=True
    findings: Vec<Py<Finding>>,
    /// under the checker: why the dispatch stopped before its end
    stopped: Option<String>,
    /// wall-clock seconds of the dispatch
    elapsed: f64,
    /// the shader's messages, the first `messages=` (1000) in order
    /// (SV_GroupID, SV_GroupIndex, program order)
    messages: Vec<Py<Message>>,
    /// how many messages there were past those kept
    messages_not_kept: u64,
    /// the first errorf, kept even past the limit
    first_error: Option<Py<Message>>,
}

impl Dispatched {
    fn from_api(py: Python<'_>, g: [u32; 3], d: sm5sim::api::Dispatched) -> PyResult<Self> {
        Ok(Dispatched {
            groups: (g[0], g[1], g[2]),
            stats: Stats::from(&d.stats),
            profile: d
                .profile
                .as_ref()
                .map(|p| Py::new(py, Profile::from(p)))
                .transpose()?,
            findings: d
                .findings
                .iter()
                .map(|f| Py::new(py, Finding::from(f)))
                .collect::<PyResult<_>>()?,
            stopped: d.stopped,
            elapsed: d.elapsed.as_secs_f64(),
            messages: (d.messages.list.iter())
                .map(|m| Py::new(py, Message::from(m)))
                .collect::<PyResult<_>>()?,
            messages_not_kept: d.messages.dropped(),
            first_error: (d.messages.first_error.as_ref())
                .map(|m| Py::new(py, Message::from(m)))
                .transpose()?,
        })
    }
}

#[pymethods]
impl Dispatched {
    /// The error findings.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<Py<Finding>> {
        self.findings
            .iter()
            .filter(|f| f.get().severity == "error")
            .map(|f| f.clone_ref(py))
            .collect()
    }

    /// The checker's report as text: a summary line, then each finding as
    /// the command line prints it.
    fn report(&self) -> String {
        let errors = self
            .findings
            .iter()
            .filter(|f| f.get().severity == "error")
            .count();
        let warnings = self.findings.len() - errors;
        let mut out = format!(
            "Dispatch({}, {}, {}): {errors} error{}, {warnings} warning{}\n",
            self.groups.0,
            self.groups.1,
            self.groups.2,
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        );
        if let Some(s) = &self.stopped {
            out.push_str(&format!("stopped: {s}\n"));
        }
        for f in &self.findings {
            out.push_str(&f.get().text);
            out.push('\n');
        }
        out
    }

    fn __repr__(&self) -> String {
        format!(
            "Dispatched(groups={:?}, elapsed={:.6}, findings={})",
            self.groups,
            self.elapsed,
            self.findings.len()
        )
    }
}

/// A temporary directory of this process, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> PyResult<Self> {
        let dir = std::env::temp_dir().join(sm5sim::files::temp_name("sm5sim-py-compile"));
        std::fs::create_dir_all(&dir)
            .map_err(|e| LoadError::new_err(format!("{}: {e}", dir.display())))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One step of a job file and its outcome (`JobResult.steps`).
#[pyclass(module = "sm5sim", frozen, get_all)]
struct JobStep {
    /// its place among the job's steps, from 0
    index: usize,
    /// `dispatch`, `copy`, `set` or `expect`
    kind: String,
    /// False for an expectation with elements that differ
    passed: bool,
    /// how many 32-bit elements differ from the expectation (0 otherwise)
    mismatches: usize,
    /// the step as `sm5sim run` prints it (its line; the first differing
    /// elements of a failed expectation)
    text: String,
    /// a dispatch's shader messages (printf/errorf/abort/debug_break), the
    /// first 1000 in order; empty for other steps (an errorf fails the step)
    messages: Vec<Py<Message>>,
}

#[pymethods]
impl JobStep {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "JobStep(index={}, kind='{}', passed={})",
            self.index,
            self.kind,
            if self.passed { "True" } else { "False" }
        )
    }
}

/// What `run_job` did with a job file.
#[pyclass(module = "sm5sim", frozen, get_all)]
struct JobResult {
    /// the job file
    path: PathBuf,
    /// why the job did not run (`skip = "…"` in the file, or HLSL with no
    /// compiler installed); None when it ran
    skipped: Option<String>,
    /// the steps that ran, in order (those before an error, when one stopped the run)
    steps: Vec<Py<JobStep>>,
    /// with check=True: the checker's findings, errors first
    findings: Vec<Py<Finding>>,
    /// the error that stopped the run after it began (a dispatch refused or
    /// stopped by its watchdog), with its causes
    error: Option<String>,
    /// the job's warnings (unused keys, …)
    warnings: Vec<String>,
    /// whether it ran under the concurrency checker
    checked: bool,
}

#[pymethods]
impl JobResult {
    /// Ran, every expectation held, no error stopped it, and (with
    /// check=True) the checker found no error.
    #[getter]
    fn passed(&self) -> bool {
        self.skipped.is_none()
            && self.error.is_none()
            && self.steps.iter().all(|s| s.get().passed)
            && self.findings.iter().all(|f| f.get().severity != "error")
    }

    /// The error findings (check=True).
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<Py<Finding>> {
        self.findings
            .iter()
            .filter(|f| f.get().severity == "error")
            .map(|f| f.clone_ref(py))
            .collect()
    }

    /// The job's report as `sm5sim run` (or `check`) prints it: its
    /// warnings, each step, the findings, the error, and a verdict line.
    fn report(&self) -> String {
        if let Some(r) = &self.skipped {
            return format!("skipped: {r}\n");
        }
        let mut out: String = self
            .warnings
            .iter()
            .map(|w| format!("warning: {w}\n"))
            .collect();
        for s in &self.steps {
            out.push_str(&s.get().text);
        }
        for f in &self.findings {
            out.push_str(&f.get().text);
            out.push('\n');
        }
        if let Some(e) = &self.error {
            out.push_str(&format!("error: {e}\n"));
        }
        let failed = self.steps.iter().filter(|s| !s.get().passed).count();
        let errors = self
            .findings
            .iter()
            .filter(|f| f.get().severity == "error")
            .count();
        out.push_str(&match (&self.error, failed, errors) {
            (Some(_), ..) => "ERROR\n".to_string(),
            (None, 0, 0) => "PASSED\n".to_string(),
            (None, f, e) => format!(
                "FAILED ({f} expectation(s) failed{})\n",
                if self.checked {
                    format!(", {e} checker error(s)")
                } else {
                    String::new()
                }
            ),
        });
        out
    }

    fn __repr__(&self) -> String {
        format!(
            "JobResult(path={:?}, passed={}, skipped={:?}, steps={})",
            self.path.display().to_string(),
            if self.passed() { "True" } else { "False" },
            self.skipped,
            self.steps.len()
        )
    }
}

/// What a job did, before it becomes Python objects.
enum JobRun {
    Skipped(String),
    Ran {
        steps: Vec<sm5sim::job::StepReport>,
        findings: Vec<RFinding>,
        error: Option<String>,
        warnings: Vec<String>,
    },
}

/// Run a job file (the TOML `sm5sim run` runs; docs/job-files.md) and
/// return what each step did: the expectations' outcomes, and with
/// `check=True` the concurrency checker's findings (`sm5sim check`). A
/// job marked `skip = "reason"`, or whose HLSL needs a compiler that is not
/// installed, is skipped (`JobResult.skipped`). `threads`: worker threads
/// (0: one per core); `timeout`: seconds per dispatch (None: no limit);
/// `fxc`: the HLSL compiler, before `SM5SIM_FXC` and PATH. Raises JobError
/// when the job cannot be loaded. The GIL is released; Ctrl-C stops the
/// job and raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(
    signature = (path, *, check = false, threads = 0, timeout = Some(60.0), fxc = None),
    text_signature = "(path, *, check=False, threads=0, timeout=60.0, fxc=None)"
)]
fn run_job(
    py: Python<'_>,
    path: PathBuf,
    check: bool,
    threads: usize,
    timeout: Option<f64>,
    fxc: Option<PathBuf>,
) -> PyResult<JobResult> {
    use sm5sim::compiler::CompileError;
    use sm5sim::job::{Job, JobError as RJobError};
    let o = options(threads, None, None, None, timeout, false, false)?;
    let (token, load) = cancellable_load();
    let compile = sm5sim::compiler::CompileOptions {
        fxc,
        ..Default::default()
    };
    let mut dispatch = o.dispatch.clone();
    dispatch.cancel = Some(token.flag());
    dispatch.warp_width = sm5sim::sim_sched::WARP_WIDTH_GROUP;
    let run = run_interruptible(py, &token, || {
        let job = || -> Result<JobRun, String> {
            if let Some(reason) = sm5sim::job::skip_reason(&path).map_err(|e| error_text(&e))? {
                return Ok(JobRun::Skipped(reason));
            }
            let job = match Job::load_with(&path, &load, &compile) {
                Ok(j) => j,
                Err(RJobError::Compile(CompileError::NoCompiler { source_path })) => {
                    return Ok(JobRun::Skipped(format!(
                        "{} needs an HLSL compiler, and none is installed (tools/fxc/setup.sh)",
                        source_path.display()
                    )))
                }
                Err(e) => return Err(error_text(&e)),
            };
            let warnings = job.warnings.clone();
            if check {
                return match job.run_checked(&dispatch, CheckOptions::default()) {
                    Ok(r) => Ok(JobRun::Ran {
                        steps: r.steps,
                        findings: r.findings,
                        error: r.stopped,
                        warnings,
                    }),
                    Err(e) => Err(error_text(&e)),
                };
            }
            let (steps, error) = job.run_partial(&dispatch);
            Ok(JobRun::Ran {
                steps,
                findings: Vec::new(),
                error: error.map(|e| error_text(&e)),
                warnings,
            })
        };
        Ok::<_, ApiError>(job())
    })?;
    if token.is_cancelled() {
        // (Ctrl-C raised above; a cancel by anything else is an error too)
        return Err(CancelledError::new_err("the job was cancelled"));
    }
    let run = run.map_err(JobError::new_err)?;
    let (steps, findings, error, warnings, skipped) = match run {
        JobRun::Skipped(r) => (Vec::new(), Vec::new(), None, Vec::new(), Some(r)),
        JobRun::Ran {
            steps,
            findings,
            error,
            warnings,
        } => (steps, findings, error, warnings, None),
    };
    use sm5sim::job::StepReport as R;
    Ok(JobResult {
        path,
        skipped,
        steps: steps
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let (kind, mismatches) = match r {
                    R::Dispatch { .. } => ("dispatch", 0),
                    R::Copy { .. } => ("copy", 0),
                    R::Set { .. } => ("set", 0),
                    R::Expect { mismatches, .. } => ("expect", *mismatches),
                };
                Py::new(
                    py,
                    JobStep {
                        index: i,
                        kind: kind.into(),
                        passed: r.passed(),
                        mismatches,
                        text: r.text(i),
                        messages: match r {
                            R::Dispatch { messages, .. } => (messages.list.iter())
                                .map(|m| Py::new(py, Message::from(m)))
                                .collect::<PyResult<_>>()?,
                            _ => Vec::new(),
                        },
                    },
                )
            })
            .collect::<PyResult<_>>()?,
        findings: findings
            .iter()
            .map(|f| Py::new(py, Finding::from(f)))
            .collect::<PyResult<_>>()?,
        error,
        warnings: warnings.iter().map(|w| w.to_string()).collect(),
        checked: check,
    })
}

// ---------------------------------------------------------------------------
// Debugger

/// `Session` with its lifetime as a type constructor (`self_cell`).
type SessionOf<'a> = sm5sim::debug::Session<'a>;

self_cell::self_cell!(
    /// A kernel (a clone of the Python one's, sharing its resources) and a
    /// debug session over it.
    struct DebugCell {
        owner: sm5sim::Kernel,
        #[not_covariant]
        dependent: SessionOf,
    }
);

/// A dispatch under the debugger (`Kernel.debug`): stopped before its first
/// instruction; run it with `resume`, `step`, `next`, `finish`, `stepi`;
/// look at values with `value`, `locals`, `lanes`, `where`, `who`.
/// docs/debugging.md describes the session.
#[pyclass(module = "sm5sim", unsendable)]
struct Debugger {
    cell: DebugCell,
}

fn debug_err(e: sm5sim::debug::DebugError) -> PyErr {
    Error::new_err(e.to_string())
}

/// A value as Python sees it: a float, int or bool per word (None where
/// no register holds it), a tuple for a vector.
fn value_py(py: Python<'_>, v: &sm5sim::debug::Value) -> PyResult<Py<PyAny>> {
    use sm5sim::sim_core::front::debug_info::ScalarKind;
    let word = |w: Option<u32>| -> PyResult<Py<PyAny>> {
        let Some(w) = w else {
            return Ok(py.None());
        };
        Ok(match v.kind {
            ScalarKind::Float => f32::from_bits(w).into_pyobject(py)?.into_any().unbind(),
            ScalarKind::Int => (w as i32).into_pyobject(py)?.into_any().unbind(),
            ScalarKind::Bool => PyBool::new(py, w != 0).to_owned().into_any().unbind(),
            _ => w.into_pyobject(py)?.into_any().unbind(),
        })
    };
    match &v.words[..] {
        [one] => word(*one),
        words => {
            let items: Vec<Py<PyAny>> = words.iter().map(|w| word(*w)).collect::<PyResult<_>>()?;
            Ok(PyTuple::new(py, items)?.into_any().unbind())
        }
    }
}

/// A stop as a dict: `reason`, `text` (what `sm5sim debug` prints), and
/// where the focus thread is.
fn stop_py<'py>(
    py: Python<'py>,
    s: &sm5sim::debug::Session<'_>,
    r: &sm5sim::debug::StopReason,
) -> PyResult<Bound<'py, PyDict>> {
    use sm5sim::debug::StopReason;
    let reason = match r {
        StopReason::Entry => "entry",
        StopReason::Breakpoint(..) => "breakpoint",
        StopReason::Step => "step",
        StopReason::DebugBreak => "debug_break",
        StopReason::Errorf => "errorf",
        StopReason::Finding(_) => "finding",
        StopReason::Watch(..) => "watch",
        StopReason::ThreadExited => "thread_exited",
        StopReason::Stopped(_) => "stopped",
        StopReason::Finished => "finished",
    };
    let d = where_py(py, s)?;
    d.set_item("reason", reason)?;
    d.set_item("text", sm5sim::debug::command::stop_text(s, r))?;
    Ok(d)
}

/// Where the focus thread is: group, warp, lane, thread
/// (`SV_DispatchThreadID`), pc, and with `/Zi` file, line and the call
/// stack's functions (None where not running).
fn where_py<'py>(py: Python<'py>, s: &sm5sim::debug::Session<'_>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (warp, lane) = s.focus();
    let running = s
        .engine()
        .and_then(|e| Some((e.cursor()?, e.lane(warp, lane)?)));
    match running {
        Some((at, state)) => {
            d.set_item("group", (at.group[0], at.group[1], at.group[2]))?;
            d.set_item("warp", warp)?;
            d.set_item("lane", lane)?;
            let t = state.dispatch_thread;
            d.set_item("thread", (t[0], t[1], t[2]))?;
            d.set_item("active", state.active)?;
            d.set_item("pc", s.focus_pc())?;
        }
        None => {
            for k in ["group", "warp", "lane", "thread", "active", "pc"] {
                d.set_item(k, py.None())?;
            }
        }
    }
    let frames = s.frames();
    match (s.source_map(), frames.first()) {
        (Some(map), Some(f)) => {
            d.set_item("file", map.files[f.at.file].base_name())?;
            d.set_item("line", f.at.line)?;
        }
        _ => {
            d.set_item("file", py.None())?;
            d.set_item("line", py.None())?;
        }
    }
    let functions: Vec<&str> = frames.iter().map(|f| f.function.as_str()).collect();
    d.set_item("functions", functions)?;
    Ok(d)
}

#[pymethods]
impl Debugger {
    /// Add a breakpoint (`"file.hlsl:17"`, `"17"`, `"pc 12"`); its number.
    fn break_at(&mut self, spec: &str) -> PyResult<usize> {
        self.cell
            .with_dependent_mut(|_, s| s.add_breakpoint(spec))
            .map_err(debug_err)
    }

    /// Run to the next stop (a breakpoint, a finding, a watch, a
    /// debug_break or errorf, or the end); the stop as a dict.
    fn resume<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.resume();
            stop_py(py, s, &r)
        })
    }

    /// Run to the focus thread's next HLSL line, into inlined calls.
    fn step<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.step_line(sm5sim::debug::LineStep::Into);
            stop_py(py, s, &r)
        })
    }

    /// Run to the focus thread's next HLSL line, over inlined calls.
    fn next<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.step_line(sm5sim::debug::LineStep::Over);
            stop_py(py, s, &r)
        })
    }

    /// Run out of the current inlined function.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.step_line(sm5sim::debug::LineStep::Out);
            stop_py(py, s, &r)
        })
    }

    /// Run one instruction of the warp at the cursor.
    fn stepi<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.step_instruction();
            stop_py(py, s, &r)
        })
    }

    /// Go back `n` warp-instructions, by running the dispatch again from
    /// its start (deterministic: every value is as it was then).
    #[pyo3(signature = (n = 1))]
    fn back<'py>(&mut self, py: Python<'py>, n: u64) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.step_back(n).map_err(debug_err)?;
            stop_py(py, s, &r)
        })
    }

    /// Go back to where the focus thread began its HLSL line (or the line
    /// before, when it is at a line's start).
    fn back_line<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            let r = s.step_back_line().map_err(debug_err)?;
            stop_py(py, s, &r)
        })
    }

    /// Where the focus thread is (a dict).
    fn r#where<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent(|_, s| where_py(py, s))
    }

    /// The value of `expr` for the focus thread: an HLSL local (`"cx"`,
    /// `"dtid.x"`), a register (`"r0.x"`), a system value, TGSM (`"s[3]"`)
    /// or a resource's dword (`"name[5]"`).
    fn value(&self, py: Python<'_>, expr: &str) -> PyResult<Py<PyAny>> {
        self.cell.with_dependent(|_, s| {
            let v = s.evaluate(expr).map_err(debug_err)?;
            value_py(py, &v)
        })
    }

    /// The HLSL locals and parameters of `thread` (an
    /// `SV_DispatchThreadID` in the group in progress; None: the focus
    /// thread, which `thread` then becomes), by name.
    #[pyo3(signature = (thread = None))]
    fn locals<'py>(
        &mut self,
        py: Python<'py>,
        thread: Option<(u32, u32, u32)>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.cell.with_dependent_mut(|_, s| {
            if let Some((x, y, z)) = thread {
                s.select_thread([x, y, z]).map_err(debug_err)?;
            }
            let d = PyDict::new(py);
            for (name, v) in s.locals() {
                d.set_item(name, value_py(py, &v)?)?;
            }
            Ok(d)
        })
    }

    /// Every lane of the focus warp: a dict per lane with `lane`,
    /// `thread`, `active`, `alive`, and `value` (`expr`'s, when given).
    #[pyo3(signature = (expr = None))]
    fn lanes<'py>(&mut self, py: Python<'py>, expr: Option<&str>) -> PyResult<Bound<'py, PyList>> {
        self.cell.with_dependent_mut(|_, s| {
            let out = PyList::empty(py);
            let Some(e) = s.engine() else {
                return Ok(out);
            };
            let (warp, _) = s.focus();
            let states: Vec<_> = (0..e.warp_width())
                .filter_map(|l| e.lane(warp, l).filter(|st| st.exists).map(|st| (l, st)))
                .collect();
            for (l, st) in states {
                let d = PyDict::new(py);
                d.set_item("lane", l)?;
                let t = st.dispatch_thread;
                d.set_item("thread", (t[0], t[1], t[2]))?;
                d.set_item("active", st.active)?;
                d.set_item("alive", st.alive)?;
                if let Some(expr) = expr {
                    let v = s.evaluate_in(warp, l, expr).map_err(debug_err)?;
                    d.set_item("value", value_py(py, &v)?)?;
                }
                out.append(d)?;
            }
            Ok(out)
        })
    }

    /// Focus on the thread with this `SV_DispatchThreadID` (in the group
    /// in progress).
    fn select_thread(&mut self, thread: (u32, u32, u32)) -> PyResult<()> {
        self.cell
            .with_dependent_mut(|_, s| s.select_thread([thread.0, thread.1, thread.2]))
            .map_err(debug_err)
    }

    /// Who last wrote a TGSM or UAV word (`"s[3]"`, `"g0[3]"`,
    /// `"name[5]"`, `"u0[5]"`): a dict with `group`, `thread` (its
    /// `SV_GroupIndex`), `pc`, `line` and `value` (None for an atomic), or
    /// None when no stepped instruction wrote it.
    fn who<'py>(&self, py: Python<'py>, word: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.cell.with_dependent(|_, s| {
            let Some(w) = s.last_write(word).map_err(debug_err)? else {
                return Ok(None);
            };
            let d = PyDict::new(py);
            d.set_item("group", (w.group[0], w.group[1], w.group[2]))?;
            d.set_item("thread", w.thread)?;
            d.set_item("pc", w.pc)?;
            d.set_item("line", s.program().hlsl_line(w.pc).map(|(_, l)| l))?;
            d.set_item("value", w.value)?;
            Ok(Some(d))
        })
    }

    /// The checker's findings so far (with `check=True`).
    #[getter]
    fn findings(&self, py: Python<'_>) -> PyResult<Vec<Py<Finding>>> {
        self.cell.with_dependent(|_, s| {
            (s.findings().iter())
                .map(|f| Py::new(py, Finding::from(f)))
                .collect()
        })
    }

    /// Whether the dispatch has ended (ran to its end, or was stopped).
    #[getter]
    fn finished(&self) -> bool {
        self.cell.with_dependent(|_, s| s.cursor().is_none())
    }
}

/// The module: the classes and exceptions above.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Shader>()?;
    m.add_class::<ResourceInfo>()?;
    m.add_class::<CbufferVariable>()?;
    m.add_class::<Resource>()?;
    m.add_class::<Kernel>()?;
    m.add_class::<Dispatched>()?;
    m.add_class::<Stats>()?;
    m.add_class::<Profile>()?;
    m.add_class::<Finding>()?;
    m.add_class::<Message>()?;
    m.add_class::<CancelToken>()?;
    m.add_class::<Debugger>()?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("LoadError", py.get_type::<LoadError>())?;
    m.add("UnknownNameError", py.get_type::<UnknownNameError>())?;
    m.add("BindingError", py.get_type::<BindingError>())?;
    m.add("FieldError", py.get_type::<FieldError>())?;
    m.add("ResourceError", py.get_type::<ResourceError>())?;
    m.add("NotBoundError", py.get_type::<NotBoundError>())?;
    m.add("UnboundError", py.get_type::<UnboundError>())?;
    m.add("ShaderError", py.get_type::<ShaderError>())?;
    m.add("DispatchError", py.get_type::<DispatchError>())?;
    m.add("CancelledError", py.get_type::<CancelledError>())?;
    m.add("JobError", py.get_type::<JobError>())?;
    m.add_class::<JobStep>()?;
    m.add_class::<JobResult>()?;
    m.add_function(wrap_pyfunction!(run_job, m)?)?;
    Ok(())
}
