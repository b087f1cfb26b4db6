//! A job's steps resolved against the job: each `[[steps]]` table, read by
//! serde into a [`StepSpec`] (its [`StepKind`] and payload,
//! `schema.rs`), becomes a [`Step`] whose every name is an index into the
//! job's shaders, kernels and resources, and whose every size was checked
//! as the runtime checks it (`docs/job-files.md`, "Steps").

use crate::api::{ApiError, Kernel};
use crate::job::device::{self, JobShader};
use crate::job::resources::{
    check_content, check_content_words, content_key, expect_range, parse_check, parse_content,
    take_u32, value_text, KeyErr,
};
use crate::job::schema::{Content, StepKind, StepSpec};
use crate::job::textures::{take_subresource, texture_writes};
use crate::job::{
    png_target, read_png, Check, JobResource, PngTarget, Sampler, SlotKind, Subresource, View,
};
use sim_core::program::Program;
use std::path::Path;

/// The group counts of a dispatch step.
#[derive(Debug, Clone, Copy)]
pub(super) enum Groups {
    /// `dispatch = [x, y, z]`
    Direct([u32; 3]),
    /// `dispatch_indirect = { args, offset }`: read when the step runs
    Indirect { args: usize, offset: u64 },
}

/// A copy step's command.
#[derive(Debug, Clone, Copy)]
pub(super) enum CopyCommand {
    /// `copy = { from, to }`: CopyResource
    Resource { from: usize, to: usize },
    /// `copy_region` on buffers: bytes
    Bytes {
        from: usize,
        to: usize,
        src_offset: u64,
        dst_offset: u64,
        bytes: u64,
    },
    /// `copy_region` on textures
    Texels {
        from: usize,
        to: usize,
        src: crate::api::TextureRegion,
        dst: crate::api::TextureRegion,
        src_box: Option<[[u32; 3]; 2]>,
        at: [u32; 3],
    },
    /// `copy_structure_count = { from, to, offset }`
    StructureCount { from: usize, to: usize, offset: u64 },
}

#[derive(Debug, Clone)]
pub(super) enum Step {
    Dispatch {
        groups: Groups,
        /// index in `Job::kernels`
        kernel: usize,
        /// index in `Job::shaders`
        shader: usize,
    },
    Set {
        resource: usize,
        content: Option<Box<Content>>,
        sub: Option<Subresource>,
        counter: Option<u32>,
        /// the shader whose layout `fields` take
        layout: usize,
    },
    Copy(CopyCommand),
    Expect(Expect),
}

#[derive(Debug, Clone)]
pub(super) struct Expect {
    pub(super) resource: usize,
    /// a texture's subresource (`mip`, `slice`): compared alone
    pub(super) sub: Option<Subresource>,
    /// the shader whose layout `fields` and `.npy` dtypes take
    pub(super) layout: usize,
    pub(super) check: Check,
    pub(super) text: String,
    /// `first`/`count` given: the words compared (else the whole resource)
    pub(super) words: Option<std::ops::Range<usize>>,
}

/// What resolving a job's steps reads (the job's shaders, resources and
/// samplers) and builds up (each dispatch's kernel, which resources some
/// dispatch binds as a UAV, warnings).
pub(super) struct Resolve<'a> {
    /// whether the job has `[shaders]`
    pub(super) several: bool,
    pub(super) shaders: &'a [JobShader],
    pub(super) resources: &'a [JobResource],
    pub(super) samplers: &'a [Sampler],
    /// the job file's directory (data files are relative to it)
    pub(super) base: &'a Path,
    /// the dispatch steps' kernels (a single-shader job's one kernel is
    /// there already)
    pub(super) kernels: &'a mut Vec<Kernel>,
    /// per resource: whether a dispatch binds it at a `u#` slot
    pub(super) uav_bound: &'a mut [bool],
    pub(super) warnings: &'a mut Vec<String>,
}

impl Resolve<'_> {
    /// Step `spec` resolved: one arm per [`StepKind`].
    ///
    /// # Errors
    /// The key at fault (`steps[i].KIND.KEY`) and why.
    pub(super) fn step(&mut self, i: usize, spec: StepSpec) -> Result<Step, KeyErr> {
        let StepSpec {
            key,
            kind,
            shader,
            bind,
        } = spec;
        let kkey = format!("{key}.{}", kind.key());
        let name = kind.key();
        match kind {
            StepKind::Dispatch(groups) => {
                self.dispatch(i, &key, &kkey, Groups::Direct(groups), shader, bind)
            }
            StepKind::DispatchIndirect(t) => {
                let groups = self.indirect_groups(&kkey, t)?;
                self.dispatch(i, &key, &kkey, groups, shader, bind)
            }
            StepKind::Set(t) => self.set_or_expect(&kkey, t, false),
            StepKind::Expect(t) => self.set_or_expect(&kkey, t, true),
            StepKind::Copy(t) | StepKind::CopyRegion(t) | StepKind::CopyStructureCount(t) => {
                parse_copy(name, t, &kkey, self.resources, &|k, n| self.find(k, n)).map(Step::Copy)
            }
        }
    }

    /// The resource called `name` (in a single-shader job also by slot,
    /// `u0`), for key `key`.
    fn find(&self, key: &str, name: &str) -> Result<usize, KeyErr> {
        let several = self.several;
        self.resources
            .iter()
            .position(|r| {
                r.name == name || (!several && r.slot.to_string() == name.to_ascii_lowercase())
            })
            .ok_or_else(|| (key.into(), format!("no resource named '{name}'")))
    }

    fn shader_index(&self, name: &str) -> Option<usize> {
        self.shaders.iter().position(|s| s.name == name)
    }

    fn shader_names(&self) -> String {
        let names: Vec<&str> = self.shaders.iter().map(|s| s.name.as_str()).collect();
        names.join(", ")
    }

    /// `dispatch_indirect = { args, offset }`'s payload.
    fn indirect_groups(&self, kkey: &str, mut t: toml::Table) -> Result<Groups, KeyErr> {
        let resources = self.resources;
        let args = match t.remove("args") {
            Some(toml::Value::String(s)) => self.find(&format!("{kkey}.args"), &s)?,
            _ => {
                return Err((
                    kkey.into(),
                    "needs args = \"NAME\", the buffer holding the three group counts".into(),
                ))
            }
        };
        let offset = take_u32(&mut t, "offset")
            .map_err(|m| (format!("{kkey}.offset"), m))?
            .unwrap_or(0);
        if let Some(k) = t.keys().next() {
            return Err((
                format!("{kkey}.{k}"),
                "dispatch_indirect takes args and offset".into(),
            ));
        }
        if !resources[args].indirect_args {
            return Err((
                format!("{kkey}.args"),
                format!(
                    "'{}' is not created for indirect arguments; give indirect_args = true on [resources.{}] (D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS)",
                    resources[args].name, resources[args].name
                ),
            ));
        }
        Ok(Groups::Indirect {
            args,
            offset: u64::from(offset),
        })
    }

    /// A dispatch of `groups`: in a job with `[shaders]`, of the shader
    /// `shader` names with what `bind` binds (its own kernel); else of the
    /// job's one kernel.
    fn dispatch(
        &mut self,
        i: usize,
        key: &str,
        kkey: &str,
        groups: Groups,
        shader: Option<toml::Value>,
        bind: Option<toml::Value>,
    ) -> Result<Step, KeyErr> {
        let (kernel, shader) = if self.several {
            let s = match shader {
                Some(toml::Value::String(n)) => self.shader_index(&n).ok_or_else(|| {
                    (
                        format!("{key}.shader"),
                        format!(
                            "no shader named '{n}' (the job's shaders: {})",
                            self.shader_names()
                        ),
                    )
                })?,
                _ => {
                    return Err((
                        key.into(),
                        format!(
                            "a dispatch of a job with [shaders] names its shader: shader = \"NAME\" (one of {})",
                            self.shader_names()
                        ),
                    ))
                }
            };
            let k = device::step_kernel(
                i,
                &self.shaders[s],
                bind.as_ref(),
                self.resources,
                self.samplers,
                self.uav_bound,
                self.warnings,
            )?;
            self.kernels.push(k);
            (self.kernels.len() - 1, s)
        } else {
            (0, 0)
        };
        if let Groups::Indirect { args, offset } = groups {
            self.kernels[kernel]
                .indirect_groups(&self.resources[args].storage, offset)
                .map_err(|e| (kkey.to_owned(), e.to_string()))?;
        }
        Ok(Step::Dispatch {
            groups,
            kernel,
            shader,
        })
    }

    /// `set` (`expect` false) or `expect`: what both take (`resource`, a
    /// layout's `shader`, `counter`, a texture's `mip`/`slice`), then the
    /// contents to write or the check to make.
    fn set_or_expect(&self, key: &str, mut t: toml::Table, expect: bool) -> Result<Step, KeyErr> {
        let (several, base) = (self.several, self.base);
        let value = toml::Value::Table(t.clone());
        let rname = match t.remove("resource") {
            Some(toml::Value::String(s)) => s,
            _ => return Err((key.into(), "needs resource = \"NAME\"".into())),
        };
        let ri = self.find(key, &rname)?;
        let r = &self.resources[ri];
        let named_layout = t.contains_key("shader");
        let layout = match t.remove("shader") {
            None => r.layout,
            Some(toml::Value::String(n)) if several => {
                let s = self.shader_index(&n).ok_or_else(|| {
                    (
                        format!("{key}.shader"),
                        format!(
                            "no shader named '{n}' (the job's shaders: {})",
                            self.shader_names()
                        ),
                    )
                })?;
                if (self.shaders[s].shader.program().reflection.as_ref())
                    .and_then(|refl| refl.binding(&rname))
                    .is_none()
                {
                    return Err((
                        format!("{key}.shader"),
                        format!("shader '{n}' declares nothing called '{rname}'; its layout cannot be used"),
                    ));
                }
                s
            }
            Some(_) => {
                return Err((
                    format!("{key}.shader"),
                    if several {
                        "expected a shader's key in [shaders]".into()
                    } else {
                        "shader belongs to jobs with [shaders]; this job has one shader".into()
                    },
                ))
            }
        };
        let program = self.shaders[layout].shader.program();
        if several && t.contains_key("fields") && !named_layout {
            device::check_unambiguous_layout(&rname, self.shaders).map_err(|m| (key.into(), m))?;
        }
        let counter = take_u32(&mut t, "counter").map_err(|m| (key.into(), m))?;
        if counter.is_some() && r.texture().is_some() {
            return Err((
                key.into(),
                format!("'{rname}' is a texture; only buffer UAVs have a counter"),
            ));
        }
        if counter.is_some() && r.slot.kind != SlotKind::Uav && !r.uav {
            // D3D11_BUFFER_UAV_FLAG_APPEND/COUNTER: a UAV's flag
            return Err((
                format!("{key}.counter"),
                format!(
                    "'{rname}' is bound as {}, not as a UAV; only a structured buffer's UAV has a hidden counter",
                    r.slot
                ),
            ));
        }
        if counter.is_some() && !matches!(r.view, View::Structured(_)) {
            return Err((
                format!("{key}.counter"),
                format!(
                    "'{rname}' is not a structured buffer; D3D11 gives a hidden counter (D3D11_BUFFER_UAV_FLAG_APPEND or _COUNTER) to structured buffers' UAVs only"
                ),
            ));
        }
        let sub = if r.texture().is_some() {
            take_subresource(&mut t).map_err(|m| (key.into(), m))?
        } else {
            None
        };
        if expect {
            let e = parse_expect(key, &rname, &value, t, counter, sub, r, program, base)?;
            return Ok(Step::Expect(Expect {
                resource: ri,
                layout,
                ..e
            }));
        }
        let content = if t.is_empty() {
            None
        } else {
            let c = parse_content(t).map_err(|m| (key.into(), m))?;
            if r.texture().is_some() {
                texture_writes(&c, sub, r, program, base).map_err(|m| (key.into(), m))?;
            } else {
                check_content(&c, r, program, base, true).map_err(|m| content_key(key, m))?;
            }
            Some(Box::new(c))
        };
        if content.is_none() && counter.is_none() {
            return Err((key.into(), "set needs contents or counter".into()));
        }
        Ok(Step::Set {
            resource: ri,
            content,
            sub,
            counter,
            layout,
        })
    }
}

/// An `expect` step's table (`t`, `resource`, `counter` and, for a
/// texture, `mip`/`slice` taken out) checked against resource `r`.
#[allow(clippy::too_many_arguments)]
fn parse_expect(
    key: &str,
    rname: &str,
    value: &toml::Value,
    mut t: toml::Table,
    counter: Option<u32>,
    sub: Option<Subresource>,
    r: &JobResource,
    program: &Program,
    base: &Path,
) -> Result<Expect, KeyErr> {
    let e = |k: String, m: String| (k, m);
    let text = format!("{rname} {}", value_text(value));
    let first = take_u32(&mut t, "first").map_err(|m| e(key.into(), m))?;
    let count = take_u32(&mut t, "count").map_err(|m| e(key.into(), m))?;
    let words = if first.is_some() || count.is_some() {
        Some(expect_range(r, first, count).map_err(|(k, m)| e(format!("{key}.{k}"), m))?)
    } else {
        None
    };
    let check = parse_check(t, counter).map_err(|m| e(key.into(), m))?;
    // a tolerance compares 32-bit floats: a .npy file's dtype must be one
    if let Check::Words { content, ulps, abs } = &check {
        if let Some(f) = content.file.as_ref().filter(|f| crate::npy::is_npy(f)) {
            if *ulps > 0 || abs.is_some() {
                let arr = crate::npy::read(&base.join(f)).map_err(|m| e(key.into(), m))?;
                if arr.layout.descr != "<f4" {
                    return Err(e(
                        key.into(),
                        format!(
                            "ulps and abs compare 32-bit floats, and {} holds {}; compare it exactly",
                            f.display(),
                            crate::npy::dtype_name(&arr.layout.descr)
                        ),
                    ));
                }
            }
        }
    }
    let range_key = format!("{key}.{}", if first.is_some() { "first" } else { "count" });
    if words.is_some() && matches!(check, Check::Counter(_) | Check::Png { .. }) {
        return Err(e(
            range_key,
            "first and count select elements for word and sum/min/max checks, not for counter or png".into(),
        ));
    }
    let whole_form = match &check {
        Check::Words { content, .. } if content.fields.is_some() => Some("fields"),
        Check::Words { content, .. }
            if content.file.as_ref().is_some_and(|f| crate::npy::is_npy(f)) =>
        {
            Some("a .npy file")
        }
        _ => None,
    };
    if let (Some(_), Some(form)) = (&words, whole_form) {
        return Err(e(
            range_key,
            format!("{form} is compared with the whole resource; drop first and count"),
        ));
    }
    if let Some(s) = sub {
        match &check {
            Check::Words { content, .. } => {
                texture_writes(content, Some(s), r, program, base).map_err(|m| e(key.into(), m))?;
            }
            _ => {
                return Err(e(
                    key.into(),
                    "mip and slice select a subresource for contents forms (u32, file, fill_texel, …), not for sums, counters or png".into(),
                ))
            }
        }
    } else {
        match &check {
            Check::Words { content, .. } => {
                let n = words.as_ref().map_or(r.data().len_words(), |w| w.len());
                check_content_words(content, r, n, program, base)
                    .map_err(|m| content_key(key, m))?;
            }
            Check::Png { path, .. } => {
                let (width, height) = png_target(r).map_err(|m| e(key.into(), m))?;
                let target = PngTarget {
                    width,
                    height,
                    what: format!("'{rname}' (mip 0)"),
                    named: Some(path.clone()),
                };
                read_png(&base.join(path), Some(&target))
                    .map_err(|m| e(format!("{key}.png"), m))?;
            }
            _ => {}
        }
    }
    Ok(Expect {
        resource: 0,
        sub,
        layout: 0,
        check,
        text,
        words,
    })
}

/// A copy step (`kind`: copy, copy_region or copy_structure_count; `t` its
/// table),
/// checked as the runtime checks it (every size is known at load).
fn parse_copy(
    kind: &str,
    mut t: toml::Table,
    key: &str,
    resources: &[JobResource],
    find: &dyn Fn(&str, &str) -> Result<usize, KeyErr>,
) -> Result<CopyCommand, KeyErr> {
    let e = |k: &str, m: String| {
        (
            if k.is_empty() {
                key.to_string()
            } else {
                format!("{key}.{k}")
            },
            m,
        )
    };
    let mut take_name = |k: &str| -> Result<usize, KeyErr> {
        match t.remove(k) {
            Some(toml::Value::String(s)) => find(&format!("{key}.{k}"), &s),
            _ => Err(e("", format!("needs {k} = \"NAME\""))),
        }
    };
    let from = take_name("from")?;
    let to = take_name("to")?;
    let (src, dst) = (&resources[from].storage, &resources[to].storage);
    let api = |k: &str, r: Result<(), ApiError>| r.map_err(|err| e(k, err.to_string()));
    let u = |t: &mut toml::Table, k: &str| take_u32(t, k).map_err(|m| e(k, m));
    let copy = match kind {
        "copy" => {
            api("", dst.check_copy_from(src))?;
            CopyCommand::Resource { from, to }
        }
        "copy_structure_count" => {
            let offset = u64::from(u(&mut t, "offset")?.unwrap_or(0));
            if !matches!(resources[from].view, View::Structured(_)) {
                return Err(e(
                    "from",
                    format!(
                        "'{}' is not a structured buffer; only a structured buffer's UAV has a hidden counter (append/consume, D3D11_BUFFER_UAV_FLAG_APPEND or COUNTER)",
                        resources[from].name
                    ),
                ));
            }
            api("offset", dst.check_copy_structure_count(offset, src))?;
            CopyCommand::StructureCount { from, to, offset }
        }
        _ if src.as_texture().is_some() || dst.as_texture().is_some() => {
            let sub = |t: &mut toml::Table, k: &str| u(t, k).map(|v| v.unwrap_or(0));
            let src_r = crate::api::TextureRegion {
                mip: sub(&mut t, "src_mip")?,
                slice: sub(&mut t, "src_slice")?,
            };
            let dst_r = crate::api::TextureRegion {
                mip: sub(&mut t, "dst_mip")?,
                slice: sub(&mut t, "dst_slice")?,
            };
            let list =
                |t: &mut toml::Table, k: &str, n: usize| -> Result<Option<Vec<u32>>, KeyErr> {
                    match t.remove(k) {
                        None => Ok(None),
                        Some(v) => {
                            let l: Vec<u32> = v.try_into().map_err(|_| {
                                e(k, format!("expected a list of {n} non-negative integers"))
                            })?;
                            if l.len() != n {
                                return Err(e(k, format!("expected {n} values, got {}", l.len())));
                            }
                            Ok(Some(l))
                        }
                    }
                };
            let src_box =
                list(&mut t, "src_box", 6)?.map(|b| [[b[0], b[1], b[2]], [b[3], b[4], b[5]]]);
            let at = list(&mut t, "dst", 3)?.map_or([0; 3], |d| [d[0], d[1], d[2]]);
            if let Some(k) = t.keys().next() {
                return Err(e(
                    k,
                    "copy_region on textures takes from, to, src_mip, src_slice, dst_mip, dst_slice, src_box = [x0, y0, z0, x1, y1, z1] and dst = [x, y, z]".into(),
                ));
            }
            api(
                "",
                dst.check_copy_texture_region(dst_r, at, src, src_r, src_box),
            )?;
            CopyCommand::Texels {
                from,
                to,
                src: src_r,
                dst: dst_r,
                src_box,
                at,
            }
        }
        _ => {
            let src_offset = u64::from(u(&mut t, "src_offset")?.unwrap_or(0));
            let dst_offset = u64::from(u(&mut t, "dst_offset")?.unwrap_or(0));
            let bytes = match u(&mut t, "bytes")? {
                Some(b) => u64::from(b),
                None => return Err(e("", "needs bytes = N (the box's width in bytes)".into())),
            };
            api(
                "",
                dst.check_copy_region(dst_offset, src, src_offset, bytes),
            )?;
            CopyCommand::Bytes {
                from,
                to,
                src_offset,
                dst_offset,
                bytes,
            }
        }
    };
    if let Some(k) = t.keys().next() {
        return Err(e(k, format!("unknown key '{k}' for {kind}")));
    }
    Ok(copy)
}
