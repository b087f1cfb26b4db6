//! Kernels: a shader with what is bound to it, dispatched with options.

use super::shader::{check_buffer_size, check_texture_view, rdef_texture};
use super::{
    check_buffer_view, declared_names, rdef_name, ApiError, Resource, Shader, Slot, SlotKind,
    Storage, Value, View,
};
use sim_core::check::{CheckOptions, Checker, Finding};
use sim_core::exec::StopReason;
use sim_core::program::BufferDeclKind;
use sim_mem::{Bindings, BufferView, SamplerDesc, TextureView, ViewRange};
use sim_sched::{
    dispatch_with, DispatchError, DispatchOptions, DispatchProfile, DispatchStats, Mode, Schedule,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A shader and the resources, constants and samplers bound to it: what a
/// D3D11 device context holds between `CSSetShader` and `Dispatch`.
/// Binding by name resolves the HLSL name through the shader's RDEF (or
/// takes a slot name, `t0`, `u1`, `cb0`) and checks the resource and view
/// against the shader's declaration of that slot; binding a slot again
/// replaces what was there.
#[derive(Debug, Clone)]
pub struct Kernel {
    shader: Arc<Shader>,
    bound: Vec<Bound>,
    /// slots bound to D3D11's null view ([`Kernel::bind_null`]), with the
    /// name each was bound by
    nulls: Vec<(Slot, String)>,
    samplers: Vec<(u32, String, SamplerDesc)>,
}

/// One resource bound to a slot.
#[derive(Debug, Clone)]
struct Bound {
    slot: Slot,
    /// the name it was bound by (findings and messages use it)
    name: String,
    resource: Resource,
    view: View,
    /// a buffer view's elements, first and count ([`Kernel::bind_elements`])
    elements: Option<(u64, u64)>,
}

/// How [`Kernel::dispatch`] runs: [`DispatchOptions`] (threads, warp
/// width, schedule, watchdog, profile, …) and whether to run under the
/// concurrency checker. `Options::default()` runs on every core, one warp
/// per group, no watchdog but the 60 s timeout, no profile, no check.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// the dispatch's own options ([`sim_sched::DispatchOptions`])
    pub dispatch: DispatchOptions,
    /// run under the checker with these checks ([`sim_core::check`]): the
    /// groups one after another on the calling thread (`threads` is then
    /// ignored), findings in [`Dispatched::findings`]
    pub check: Option<CheckOptions>,
}

impl Options {
    /// Worker threads; 0 = one per core.
    pub fn threads(mut self, threads: usize) -> Self {
        self.dispatch.threads = threads;
        self
    }

    /// Lanes per warp (clamped to 1 ..= threads per group;
    /// [`sim_sched::WARP_WIDTH_GROUP`], the default, is one warp per group).
    pub fn warp_width(mut self, lanes: usize) -> Self {
        self.dispatch.warp_width = lanes;
        self
    }

    /// Run the groups on the calling thread in the order, lane orders,
    /// warp widths and interleavings drawn from `seed`
    /// ([`sim_sched::Schedule::seeded`]).
    pub fn schedule(mut self, seed: u64) -> Self {
        self.dispatch.schedule = Some(Schedule::seeded(seed));
        self
    }

    /// Watchdog: the most warp-instructions the dispatch may execute.
    pub fn watchdog(mut self, max_warp_instructions: u64) -> Self {
        self.dispatch.max_warp_instructions = max_warp_instructions;
        self
    }

    /// Watchdog: the dispatch's wall-clock limit (None: none).
    pub fn timeout(mut self, limit: Option<Duration>) -> Self {
        self.dispatch.timeout = limit;
        self
    }

    /// Gather a profile ([`Dispatched::profile`]).
    pub fn profile(mut self, on: bool) -> Self {
        self.dispatch.profile = on;
        self
    }

    /// Stop the dispatch when `token` is cancelled, from another thread
    /// ([`super::CancelToken`]): it ends with an error for which
    /// [`ApiError::is_cancelled`] is true.
    pub fn cancel(mut self, token: &super::CancelToken) -> Self {
        self.dispatch.cancel = Some(token.flag());
        self
    }

    /// Keep at most `limit` of the shader's messages
    /// ([`Dispatched::messages`]; default
    /// [`sim_sched::DEFAULT_MESSAGE_LIMIT`]): the first in the dispatch's
    /// order, the rest counted.
    pub fn messages(mut self, limit: usize) -> Self {
        self.dispatch.message_limit = limit;
        self
    }

    /// Run under the concurrency checker with `checks`.
    pub fn check(mut self, checks: CheckOptions) -> Self {
        self.check = Some(checks);
        self
    }
}

/// What a dispatch reported besides its effects on the bound resources.
#[derive(Debug, Clone, Default)]
pub struct Dispatched {
    /// its counters (groups, threads, warp-instructions, barriers)
    pub stats: DispatchStats,
    /// where the time went, with [`Options::profile`]
    pub profile: Option<DispatchProfile>,
    /// the checker's findings, errors first, with [`Options::check`]
    pub findings: Vec<Finding>,
    /// under the checker: why the dispatch stopped before its end (the
    /// watchdog on a hang), the findings until then kept
    pub stopped: Option<String>,
    /// wall-clock time
    pub elapsed: Duration,
    /// what the shader said: `printf`/`errorf` messages and the threads
    /// that executed `abort` or `debug_break`, in the dispatch's order
    /// (`sim_core::messages`); [`sim_sched::Messages::failed`] when an
    /// `errorf` ran
    pub messages: sim_sched::Messages,
}

impl Kernel {
    /// A kernel of `shader` with nothing bound.
    pub fn new(shader: impl Into<Arc<Shader>>) -> Kernel {
        Kernel {
            shader: shader.into(),
            bound: Vec::new(),
            nulls: Vec::new(),
            samplers: Vec::new(),
        }
    }

    /// The shader.
    pub fn shader(&self) -> &Shader {
        &self.shader
    }

    /// Bind `resource` to the slot called `name` (its HLSL name or a slot
    /// name) with the view the shader declares there: raw, structured with
    /// the declared stride, constant for `cb#`, a texture view of the
    /// declared dimension in the texture's format. A typed buffer needs
    /// [`Kernel::bind_view`] with [`View::Typed`].
    ///
    /// # Errors
    /// [`ApiError::UnknownName`]; [`ApiError::Binding`] when the shader
    /// declares nothing there, declares a typed buffer, or the resource
    /// does not fit (a buffer for a texture, a size that is not a whole
    /// number of structures, …).
    pub fn bind(&mut self, name: &str, resource: &Resource) -> Result<&mut Self, ApiError> {
        let slot = self.shader.slot(name)?;
        let view = self.default_view(name, slot, resource)?;
        self.bind_view_at(name, slot, resource, view)
    }

    /// Bind `resource` to the slot called `name` with `view` (D3D11's
    /// SRV/UAV description): a typed buffer's DXGI format, another
    /// structure stride, a range of a texture's mips and slices. A slot the
    /// shader does not declare may be bound too (it is then never read).
    ///
    /// # Errors
    /// As [`Kernel::bind`], and when `view` does not fit the declaration or
    /// the resource.
    pub fn bind_view(
        &mut self,
        name: &str,
        resource: &Resource,
        view: View,
    ) -> Result<&mut Self, ApiError> {
        let slot = self.shader.slot(name)?;
        self.bind_view_at(name, slot, resource, view)
    }

    fn default_view(&self, name: &str, slot: Slot, resource: &Resource) -> Result<View, ApiError> {
        let err = |message: String| ApiError::Binding {
            name: name.to_string(),
            slot,
            message,
        };
        if slot.kind == SlotKind::ConstantBuffer {
            return Ok(View::Constant);
        }
        let tex = self
            .shader
            .texture_decl(slot)
            .map(|d| d.dimension)
            .or_else(|| rdef_texture(self.shader.program(), slot).map(|r| r.0));
        match (self.shader.buffer_decl(slot), tex) {
            (Some(BufferDeclKind::Raw), _) => Ok(View::Raw),
            (Some(BufferDeclKind::Structured { stride }), _) => Ok(View::Structured(stride)),
            (Some(BufferDeclKind::Typed { .. }), _) => Err(err(format!(
                "the shader declares {slot} a typed buffer: bind it with bind_view and View::Typed(format)"
            ))),
            (None, Some(dimension)) => match resource.as_texture() {
                Some(t) => Ok(View::Texture {
                    dimension,
                    format: t.desc().format,
                    range: ViewRange::default(),
                }),
                None => Err(err(format!(
                    "the shader declares {slot} as a {}; bind a texture, not {}",
                    dimension.name(),
                    resource.describe()
                ))),
            },
            (None, None) => Err(err(format!(
                "the shader declares nothing at {slot}; {} (bind_view binds an undeclared slot)",
                declared_names(self.shader.program())
            ))),
        }
    }

    pub(crate) fn bind_view_at(
        &mut self,
        name: &str,
        slot: Slot,
        resource: &Resource,
        view: View,
    ) -> Result<&mut Self, ApiError> {
        let err = |message: String| ApiError::Binding {
            name: name.to_string(),
            slot,
            message,
        };
        match (view, resource.storage()) {
            (
                View::Texture {
                    dimension,
                    format,
                    range,
                },
                Storage::Texture(t),
            ) => {
                if let Some(b) = self.shader.buffer_decl(slot) {
                    return Err(err(format!(
                        "the shader declares {slot} as a {} buffer, not a texture",
                        super::describe_decl(Some(b))
                    )));
                }
                let rdef = rdef_texture(self.shader.program(), slot);
                check_texture_view(
                    slot,
                    dimension,
                    format,
                    self.shader.texture_decl(slot),
                    rdef,
                )
                .map_err(|p| err(p.message))?;
                let v = if slot.kind == SlotKind::Uav {
                    TextureView::uav(t, dimension, format, range)
                } else {
                    TextureView::srv(t, dimension, format, range)
                };
                v.map_err(|e| err(e.to_string()))?;
            }
            (View::Texture { .. }, Storage::Buffer(_)) => {
                return Err(err(format!(
                    "a texture view needs a texture, not {}",
                    resource.describe()
                )))
            }
            (_, Storage::Texture(_)) => {
                return Err(err(format!(
                    "{} needs a texture view (View::Texture)",
                    resource.describe()
                )))
            }
            (_, Storage::Buffer(b)) => {
                if let Some(d) = self.shader.texture_decl(slot) {
                    return Err(err(format!(
                        "the shader declares {slot} as a {}; bind a texture, not {}",
                        d.dimension.name(),
                        resource.describe()
                    )));
                }
                check_buffer_view(slot, view, self.shader.buffer_decl(slot))
                    .map_err(|p| err(p.message))?;
                if let View::Typed(f) = view {
                    if !f.buffer_viewable() {
                        return Err(err(super::typed_format(f.name()).err().unwrap_or_default()));
                    }
                }
                check_buffer_size(b.len_bytes() as u64, view).map_err(|p| err(p.message))?;
            }
        }
        self.attach(name, slot, resource, view);
        Ok(self)
    }

    /// Bind without checking (the job layer checks first, with its own
    /// messages naming TOML keys).
    pub(crate) fn attach(&mut self, name: &str, slot: Slot, resource: &Resource, view: View) {
        self.bound.retain(|b| b.slot != slot);
        self.nulls.retain(|n| n.0 != slot);
        self.bound.push(Bound {
            slot,
            name: name.to_string(),
            resource: resource.clone(),
            view,
            elements: None,
        });
    }

    /// Bind `resource` to the slot called `name` with `view` (None: the view
    /// [`Kernel::bind`] takes) restricted to
    /// its elements `first .. first + count`, as D3D11's SRV and UAV
    /// descriptions' `FirstElement` and `NumElements` select them (an
    /// element: a 32-bit word of a raw view, a structure, a typed element).
    /// The shader sees the range alone: its bounds, `bufinfo`, element 0 at
    /// `first`.
    ///
    /// # Errors
    /// As [`Kernel::bind_view`]; [`ApiError::Binding`] for a texture or
    /// constant-buffer view, a range not inside the buffer, or a typed
    /// range that does not start and end on 32-bit words.
    pub fn bind_elements(
        &mut self,
        name: &str,
        resource: &Resource,
        view: Option<View>,
        first: u64,
        count: u64,
    ) -> Result<&mut Self, ApiError> {
        let slot = self.shader.slot(name)?;
        let view = match view {
            Some(v) => v,
            None => self.default_view(name, slot, resource)?,
        };
        self.bind_elements_at(name, slot, resource, view, (first, count))
    }

    pub(crate) fn bind_elements_at(
        &mut self,
        name: &str,
        slot: Slot,
        resource: &Resource,
        view: View,
        (first, count): (u64, u64),
    ) -> Result<&mut Self, ApiError> {
        let err = |message: String| ApiError::Binding {
            name: name.to_string(),
            slot,
            message,
        };
        let whole = match (view, resource.as_buffer()) {
            (View::Raw, Some(buffer)) => BufferView::raw(buffer),
            (View::Structured(stride), Some(buffer)) => {
                BufferView::structured(buffer, stride).map_err(|e| err(e.to_string()))?
            }
            (View::Typed(f), Some(buffer)) => BufferView::typed(buffer, f),
            _ => {
                return Err(err(
                    "element ranges are for raw, structured and typed buffer views".into(),
                ))
            }
        };
        let all = u64::from(whole.bufinfo());
        let all = if view == View::Raw { all / 4 } else { all };
        whole.elements(first, count).map_err(|_| {
            err(format!(
                "elements {first}..{} are not a range of the view's {all} elements{}",
                first.saturating_add(count),
                if matches!(view, View::Typed(_)) {
                    " whose bytes start and end on 32-bit words"
                } else {
                    ""
                }
            ))
        })?;
        self.bind_view_at(name, slot, resource, view)?;
        if let Some(b) = self.bound.iter_mut().find(|b| b.slot == slot) {
            b.elements = Some((first, count));
        }
        Ok(self)
    }

    /// Bind D3D11's null view to the slot called `name` (its HLSL name or a
    /// slot name), as `CSSetUnorderedAccessViews` / `CSSetShaderResources`
    /// / `CSSetConstantBuffers` with a null pointer: loads, `bufinfo` and
    /// `resinfo` read 0, stores and atomics are dropped (an `imm_atomic_*`
    /// returns 0), the hidden counter reads 0, constant buffer reads are 0
    /// (`reference/sm5-compute-isa.md` §14; FS §7.5, §7.18). A slot bound
    /// so counts as bound for [`Kernel::dispatch`].
    ///
    /// # Errors
    /// [`ApiError::UnknownName`].
    pub fn bind_null(&mut self, name: &str) -> Result<&mut Self, ApiError> {
        let slot = self.shader.slot(name)?;
        self.attach_null(name, slot);
        Ok(self)
    }

    /// Whether something (a resource or the null view) is bound at `slot`.
    pub fn is_bound(&self, slot: Slot) -> bool {
        self.bound.iter().any(|b| b.slot == slot) || self.nulls.iter().any(|n| n.0 == slot)
    }

    /// Name `checker`'s UAVs by the names they are bound by in this kernel
    /// (a checker that several dispatches share, each with its bindings).
    pub fn name_resources(&self, checker: &mut Checker) {
        for b in &self.bound {
            if b.slot.kind == SlotKind::Uav {
                checker.set_resource_name(&b.slot.to_string(), &b.name);
            }
        }
    }

    pub(crate) fn attach_null(&mut self, name: &str, slot: Slot) {
        self.bound.retain(|b| b.slot != slot);
        self.nulls.retain(|n| n.0 != slot);
        self.nulls.push((slot, name.to_string()));
    }

    /// Bind sampler state `desc` to the sampler called `name` (its RDEF
    /// name or `s0` … `s15`).
    ///
    /// # Errors
    /// [`ApiError::UnknownName`].
    pub fn bind_sampler(&mut self, name: &str, desc: SamplerDesc) -> Result<&mut Self, ApiError> {
        let slot = self.shader.sampler_slot(name)?;
        self.attach_sampler(name, slot, desc);
        Ok(self)
    }

    pub(crate) fn attach_sampler(&mut self, name: &str, slot: u32, desc: SamplerDesc) {
        self.samplers.retain(|s| s.0 != slot);
        self.samplers.push((slot, name.to_string(), desc));
    }

    /// Set the variables `fields` of the constant buffer called `cbuffer`
    /// (its HLSL name or `cb#`), each placed by HLSL's packing rules at the
    /// offset RDEF gives its variable ([`crate::cbuffer`]). The variables
    /// not given keep the values they have in what is bound there (0 when
    /// nothing is, or after [`Kernel::replace_constants`]'s zeroes), as an
    /// `UpdateSubresource` of those variables would. The new contents go
    /// into a fresh buffer, as large as the shader declares it (or as what
    /// was bound, if larger), bound in place of what was bound there; a
    /// resource the caller bound there is not written.
    ///
    /// # Errors
    /// [`ApiError::Field`] naming the first field that is no variable of the
    /// cbuffer or whose value does not fit it; [`ApiError::UnknownName`],
    /// [`ApiError::Binding`] or [`ApiError::Shader`] as
    /// [`Shader::cbuffer`].
    pub fn set_constants(
        &mut self,
        cbuffer: &str,
        fields: &[(&str, Value)],
    ) -> Result<&mut Self, ApiError> {
        self.pack_constants(cbuffer, fields, true)
    }

    /// [`Kernel::set_constants`] with every variable not given set to 0:
    /// the whole buffer replaced.
    ///
    /// # Errors
    /// As [`Kernel::set_constants`].
    pub fn replace_constants(
        &mut self,
        cbuffer: &str,
        fields: &[(&str, Value)],
    ) -> Result<&mut Self, ApiError> {
        self.pack_constants(cbuffer, fields, false)
    }

    fn pack_constants(
        &mut self,
        cbuffer: &str,
        fields: &[(&str, Value)],
        keep: bool,
    ) -> Result<&mut Self, ApiError> {
        let (slot, cb) = self.shader.cbuffer(cbuffer)?;
        let table: toml::Table = fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_toml()))
            .collect();
        if table.len() != fields.len() {
            let mut seen = std::collections::BTreeSet::new();
            let dup = fields.iter().find(|(k, _)| !seen.insert(*k)).map(|f| f.0);
            return Err(ApiError::Field {
                cbuffer: cb.name.clone(),
                path: dup.unwrap_or_default().to_string(),
                message: "given twice".into(),
            });
        }
        let n = (self.shader.constant_buffer_bytes(slot) / 4) as usize;
        let mut current = vec![0u32; n];
        let at = Slot {
            kind: SlotKind::ConstantBuffer,
            index: slot,
        };
        if let Some(b) = self.bound.iter().find(|b| b.slot == at).filter(|_| keep) {
            let words = b.resource.data().to_words();
            current.resize(n.max(words.len()), 0);
            current[..words.len()].copy_from_slice(&words);
        }
        let words =
            crate::cbuffer::pack_fields_over(&table, cb, current).map_err(|e| ApiError::Field {
                cbuffer: cb.name.clone(),
                path: e.path,
                message: e.message,
            })?;
        let name = cb.name.clone();
        self.set_words_at(&name, slot, &words)
    }

    /// Set the constant buffer called `cbuffer` to these 32-bit words (as
    /// `UpdateSubresource` would; registers are 4 words).
    ///
    /// # Errors
    /// [`ApiError::UnknownName`], [`ApiError::Binding`] when `cbuffer` is no
    /// constant buffer, [`ApiError::Resource`] for no words.
    pub fn set_constant_words(
        &mut self,
        cbuffer: &str,
        words: &[u32],
    ) -> Result<&mut Self, ApiError> {
        let slot = self.shader.slot(cbuffer)?;
        if slot.kind != SlotKind::ConstantBuffer {
            return Err(ApiError::Binding {
                name: cbuffer.to_string(),
                slot,
                message: "not a constant buffer".into(),
            });
        }
        self.set_words_at(cbuffer, slot.index, words)
    }

    fn set_words_at(
        &mut self,
        name: &str,
        slot: u32,
        words: &[u32],
    ) -> Result<&mut Self, ApiError> {
        let r = Resource::from_slice(words)?;
        let slot = Slot {
            kind: SlotKind::ConstantBuffer,
            index: slot,
        };
        self.attach(name, slot, &r, View::Constant);
        Ok(self)
    }

    /// The resource bound to the slot called `name` (the name it was bound
    /// by, its HLSL name, or its slot).
    pub fn resource(&self, name: &str) -> Option<&Resource> {
        self.find(name).map(|b| &b.resource)
    }

    fn find(&self, name: &str) -> Option<&Bound> {
        self.bound.iter().find(|b| b.name == name).or_else(|| {
            let slot = self.shader.slot(name).ok()?;
            self.bound.iter().find(|b| b.slot == slot)
        })
    }

    /// The resource bound at `name` read back as elements of `T`
    /// ([`Resource::read`]).
    ///
    /// # Errors
    /// [`ApiError::NotBound`] when nothing is bound there, and as
    /// [`Resource::read`].
    pub fn read<T: super::Element>(&self, name: &str) -> Result<Vec<T>, ApiError> {
        self.resource(name)
            .ok_or_else(|| ApiError::NotBound {
                name: name.to_string(),
                bound: self.bound_names(),
            })?
            .read()
    }

    fn bound_names(&self) -> String {
        if self.bound.is_empty() {
            return "nothing is bound".into();
        }
        let names: Vec<String> = self
            .bound
            .iter()
            .map(|b| format!("{} ('{}')", b.slot, super::clip(&b.name)))
            .collect();
        format!("bound: {}", names.join(", "))
    }

    /// Unbind the slot called `name`; false when nothing was bound there.
    pub fn unbind(&mut self, name: &str) -> bool {
        let null = self.nulls.iter().find(|n| n.1 == name).map(|n| n.0);
        let Some(slot) = self.find(name).map(|b| b.slot).or(null).or_else(|| {
            let slot = self.shader.slot(name).ok()?;
            self.nulls.iter().any(|n| n.0 == slot).then_some(slot)
        }) else {
            return false;
        };
        self.bound.retain(|b| b.slot != slot);
        self.nulls.retain(|n| n.0 != slot);
        true
    }

    /// Run `Dispatch(groups[0], groups[1], groups[2])`. The bound
    /// resources hold the results when it returns (read them through the
    /// handles, or [`Kernel::read`]).
    ///
    /// # Errors
    /// [`ApiError::Unbound`] for a declared slot with nothing bound (or
    /// [`ApiError::Shader`] for a sampler), [`ApiError::Dispatch`] when
    /// D3D's limits refuse the group counts, the threads asked for are too
    /// many, or the watchdog stops the dispatch (under the checker, a stop
    /// is [`Dispatched::stopped`] instead, with the findings until then);
    /// [`ApiError::Dispatch`] for which [`ApiError::is_cancelled`] is true
    /// when [`Options::cancel`]'s token stops it, checked or not.
    pub fn dispatch(&self, groups: [u32; 3], options: &Options) -> Result<Dispatched, ApiError> {
        self.check_bound()?;
        let start = Instant::now();
        let err = |source| ApiError::Dispatch { groups, source };
        match options.check {
            None => {
                let d = self.run(groups, &options.dispatch, None).map_err(err)?;
                Ok(Dispatched {
                    stats: d.stats,
                    profile: d.profile,
                    elapsed: start.elapsed(),
                    messages: d.messages,
                    ..Default::default()
                })
            }
            Some(checks) => {
                let mut checker = self.checker(checks);
                let (d, stopped) = match self.run(groups, &options.dispatch, Some(&mut checker)) {
                    Ok(d) => (d, None),
                    // a watchdog stop is the checker's result (the findings
                    // until then); a cancellation is the caller's, an error
                    Err(DispatchError::Runaway(r)) if r.reason != StopReason::Cancelled => {
                        (Default::default(), Some(err(r.into()).to_string()))
                    }
                    Err(e) => return Err(err(e)),
                };
                Ok(Dispatched {
                    stats: d.stats,
                    profile: d.profile,
                    findings: checker.into_findings(),
                    stopped,
                    elapsed: start.elapsed(),
                    messages: d.messages,
                })
            }
        }
    }

    /// `DispatchIndirect(args, offset)`: the three `uint` group counts
    /// (x, y, z) at byte `offset` of buffer `args`, read when the dispatch
    /// starts ([`Kernel::indirect_groups`]), then as [`Kernel::dispatch`].
    /// A count of 0 runs nothing (FS §18.6.5).
    ///
    /// # Errors
    /// As [`Kernel::indirect_groups`] and [`Kernel::dispatch`] (a count
    /// over 65535 is [`ApiError::Dispatch`]).
    pub fn dispatch_indirect(
        &self,
        args: &Resource,
        offset: u64,
        options: &Options,
    ) -> Result<Dispatched, ApiError> {
        let groups = self.indirect_groups(args, offset)?;
        self.dispatch(groups, options)
    }

    /// The group counts `DispatchIndirect(args, offset)` runs: three
    /// `uint`s at byte `offset` of `args` (`reference/compute-model.md`;
    /// FS §18.6.5).
    ///
    /// # Errors
    /// [`ApiError::Resource`] when `args` is a texture, `offset` is not a
    /// multiple of 4, or the 12 bytes are not inside `args` (D3D leaves
    /// these undefined); [`ApiError::Binding`] when `args` is bound as a
    /// UAV of this kernel (the runtime cannot use a buffer as arguments
    /// while a UAV of the same dispatch writes it); [`ApiError::Shader`]
    /// for a cs_4_x shader, which has no `DispatchIndirect` (FS §18.7.2.1).
    pub fn indirect_groups(&self, args: &Resource, offset: u64) -> Result<[u32; 3], ApiError> {
        let err = |message: String| ApiError::Resource {
            what: format!("the indirect arguments, {}", args.describe()),
            message,
        };
        let Some(buffer) = args.as_buffer() else {
            return Err(err(
                "DispatchIndirect reads its arguments from a buffer".into()
            ));
        };
        if !offset.is_multiple_of(4) {
            return Err(err(format!(
                "the offset {offset} is not a multiple of 4 (AlignedByteOffsetForArgs)"
            )));
        }
        if offset
            .checked_add(12)
            .is_none_or(|end| end > buffer.len_bytes() as u64)
        {
            return Err(err(format!(
                "three uints at byte {offset} are not inside its {} bytes",
                buffer.len_bytes()
            )));
        }
        if self.shader.program().version.major == 4 {
            return Err(ApiError::Shader {
                shader: self.shader.name().to_string(),
                message:
                    "a cs_4_x shader cannot be dispatched indirectly (FS §18.7.2.1); use cs_5_0"
                        .into(),
            });
        }
        if let Some(b) =
            (self.bound.iter()).find(|b| b.slot.kind == SlotKind::Uav && b.resource.same(args))
        {
            return Err(ApiError::Binding {
                name: b.name.clone(),
                slot: b.slot,
                message: "the indirect argument buffer is bound as a UAV of the same dispatch, which D3D11 does not allow; write the arguments in an earlier dispatch".into(),
            });
        }
        let at = (offset / 4) as usize;
        let word = |i: usize| buffer.load(at + i).unwrap_or(0);
        Ok([word(0), word(1), word(2)])
    }

    /// Every slot and sampler the shader declares is bound.
    ///
    /// # Errors
    /// As [`Kernel::dispatch`].
    pub fn check_bound(&self) -> Result<(), ApiError> {
        for slot in self.shader.declared_slots() {
            if !self.bound.iter().any(|b| b.slot == slot) && !self.nulls.iter().any(|n| n.0 == slot)
            {
                return Err(ApiError::Unbound {
                    slot,
                    name: rdef_name(self.shader.program(), slot),
                });
            }
        }
        for decl in &self.shader.program().samplers {
            if !self.samplers.iter().any(|s| s.0 == decl.slot) {
                return Err(ApiError::Shader {
                    shader: self.shader.name().to_string(),
                    message: format!(
                        "the shader declares sampler s{} but none is bound there",
                        decl.slot
                    ),
                });
            }
        }
        if let Some(slot) = self.shader.program().unbound_interface_slot() {
            return Err(ApiError::Shader {
                shader: self.shader.name().to_string(),
                message: format!(
                    "interface slot {slot} has no class instance bound (Shader::bind_class_instances)"
                ),
            });
        }
        Ok(())
    }

    /// A checker for this kernel's dispatches: its findings cite the
    /// shader's listing ([`Shader::listing`]) and the UAVs by the names
    /// they were bound by. Pass it to [`Kernel::run`] for each dispatch to
    /// gather findings across several.
    pub fn checker(&self, checks: CheckOptions) -> Checker {
        let mut checker = Checker::new(self.shader.program(), checks);
        if let Some((listing, name)) = self.shader.listing() {
            checker.set_listing(&listing);
            checker.set_listing_name(&name);
        }
        for b in &self.bound {
            if b.slot.kind == SlotKind::Uav {
                checker.set_resource_name(&b.slot.to_string(), &b.name);
            }
        }
        checker
    }

    /// Run one dispatch with `options` as they are, under `checker` when
    /// given (what [`Kernel::dispatch`] does after its checks; the job layer
    /// calls it for each of its dispatches). Constant buffers are read from
    /// their resources now.
    ///
    /// # Errors
    /// [`DispatchError`] as [`sim_sched::dispatch_with`].
    pub fn run(
        &self,
        groups: [u32; 3],
        options: &DispatchOptions,
        checker: Option<&mut Checker>,
    ) -> Result<sim_sched::Dispatched, DispatchError> {
        let cbs = self.constant_words();
        let bindings = self.bindings(&cbs);
        let mode = match checker {
            Some(c) => Mode::Checked(c),
            None => options.mode(),
        };
        dispatch_with(self.shader.program(), &bindings, groups, options, mode)
    }

    /// The SRVs that read as null in a dispatch because what they view is
    /// also bound as a UAV of it, as D3D11's runtime unbinds an SRV whose
    /// subresources a UAV binding also holds (the UAV wins; for textures,
    /// when their mip and slice ranges overlap): for each, its slot and
    /// name and the UAV's. [`Kernel::dispatch`] and [`Kernel::run`] run
    /// them as null views.
    pub fn srv_uav_hazards(&self) -> Vec<((Slot, String), (Slot, String))> {
        let mut out = Vec::new();
        for srv in self.bound.iter().filter(|b| b.slot.kind == SlotKind::Srv) {
            let uav = self.bound.iter().find(|u| {
                u.slot.kind == SlotKind::Uav
                    && u.resource.same(&srv.resource)
                    && views_overlap(&srv.view, &u.view, &srv.resource)
            });
            if let Some(u) = uav {
                out.push(((srv.slot, srv.name.clone()), (u.slot, u.name.clone())));
            }
        }
        out
    }

    /// The resources bound as UAVs (each once).
    pub(crate) fn uav_resources(&self) -> Vec<Resource> {
        let mut out: Vec<Resource> = Vec::new();
        for b in self.bound.iter().filter(|b| b.slot.kind == SlotKind::Uav) {
            if !out.iter().any(|r| r.same(&b.resource)) {
                out.push(b.resource.clone());
            }
        }
        out
    }

    /// The resource bound by the name `name` (its first binding).
    pub(crate) fn bound_named(&self, name: &str) -> Option<&Resource> {
        (self.bound.iter())
            .find(|b| b.name == name)
            .map(|b| &b.resource)
    }

    /// The UAV slots (`u#`) a view of `resource` is bound to, with the
    /// first element of the view (its dword offset in the buffer, for a
    /// raw or structured view of a buffer; 0 for a whole buffer).
    pub(crate) fn uav_slots_of(&self, resource: &Resource) -> Vec<(u32, u64)> {
        (self.bound.iter())
            .filter(|b| b.slot.kind == SlotKind::Uav && b.resource.same(resource))
            .map(|b| {
                let stride = match b.view {
                    View::Structured(s) => u64::from(s) / 4,
                    _ => 1,
                };
                (
                    b.slot.index,
                    b.elements.map_or(0, |(first, _)| first * stride),
                )
            })
            .collect()
    }

    /// The constant buffers' words as their resources hold them now, by
    /// slot (what [`Kernel::bindings`] takes).
    pub(crate) fn constant_words(&self) -> Vec<(u32, Vec<u32>)> {
        self.bound
            .iter()
            .filter(|b| b.view == View::Constant)
            .map(|b| (b.slot.index, b.resource.data().to_words()))
            .collect()
    }

    /// The bindings of a dispatch: every bound view, sampler and constant
    /// buffer (`cbs`: slot and words). An SRV that a UAV of the same
    /// subresources displaces ([`Kernel::srv_uav_hazards`]) is left null.
    pub(crate) fn bindings<'a>(&'a self, cbs: &'a [(u32, Vec<u32>)]) -> Bindings<'a> {
        let hazards = self.srv_uav_hazards();
        fn put<T: Clone>(list: &mut Vec<Option<T>>, i: usize, v: T) {
            if list.len() <= i {
                list.resize(i + 1, None);
            }
            list[i] = Some(v);
        }
        let mut b = Bindings::default();
        for r in &self.bound {
            if hazards.iter().any(|h| h.0 .0 == r.slot) {
                continue;
            }
            let i = r.slot.index as usize;
            let uav = r.slot.kind == SlotKind::Uav;
            let view = match (r.view, r.resource.storage()) {
                (View::Raw, Storage::Buffer(buf)) => BufferView::raw(buf),
                (View::Structured(stride), Storage::Buffer(buf)) => {
                    match BufferView::structured(buf, stride) {
                        Ok(v) => v,
                        Err(_) => continue, // strides are checked when bound
                    }
                }
                (View::Typed(f), Storage::Buffer(buf)) => BufferView::typed(buf, f),
                (
                    View::Texture {
                        dimension,
                        format,
                        range,
                    },
                    Storage::Texture(t),
                ) => {
                    let v = if uav {
                        TextureView::uav(t, dimension, format, range)
                    } else {
                        TextureView::srv(t, dimension, format, range)
                    };
                    // views are checked when bound
                    if let Ok(v) = v {
                        put(
                            if uav {
                                &mut b.uav_textures
                            } else {
                                &mut b.srv_textures
                            },
                            i,
                            v,
                        );
                    }
                    continue;
                }
                _ => continue,
            };
            let view = match r.elements {
                None => view,
                Some((first, count)) => match view.elements(first, count) {
                    Ok(v) => v,
                    Err(_) => continue, // ranges are checked when bound
                },
            };
            put(if uav { &mut b.uavs } else { &mut b.srvs }, i, view);
        }
        for s in &self.samplers {
            put(&mut b.samplers, s.0 as usize, s.2);
        }
        for (slot, words) in cbs {
            let i = *slot as usize;
            if b.constant_buffers.len() <= i {
                b.constant_buffers.resize(i + 1, None);
            }
            b.constant_buffers[i] = Some(words);
        }
        b
    }
}

/// Whether SRV view `srv` and UAV view `uav` of `resource` see a common
/// subresource: always for a buffer; for a texture, when their mips and
/// slices overlap, as each view resolves its range (an unset count: the
/// rest of an array, one slice of a non-array view, six faces of a cube; a
/// UAV sees one mip); a 3D texture's UAV slices are depth slices of its one
/// array slice, so only mips count there.
fn views_overlap(srv: &View, uav: &View, resource: &Resource) -> bool {
    let Some(t) = resource.as_texture() else {
        return true;
    };
    let span = |v: &View, is_uav: bool| {
        let View::Texture {
            dimension,
            format,
            range,
        } = *v
        else {
            return None;
        };
        let tv = if is_uav {
            TextureView::uav(t, dimension, format, range)
        } else {
            TextureView::srv(t, dimension, format, range)
        };
        let tv = tv.ok()?;
        let mips = if is_uav { 1 } else { tv.mip_count() };
        Some((
            range.first_mip..range.first_mip.saturating_add(mips),
            range.first_slice..range.first_slice.saturating_add(tv.slice_count()),
        ))
    };
    // (views that do not resolve were refused when bound)
    let (Some((sm, ss)), Some((um, us))) = (span(srv, false), span(uav, true)) else {
        return true;
    };
    let overlap =
        |x: &std::ops::Range<u32>, y: &std::ops::Range<u32>| x.start < y.end && y.start < x.end;
    let slices = t.desc().dimension == sim_mem::TextureDimension::Texture3D || overlap(&ss, &us);
    overlap(&sm, &um) && slices
}
