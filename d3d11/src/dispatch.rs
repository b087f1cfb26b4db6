//! `Dispatch` and `DispatchIndirect`: the compute stage's bindings made a
//! [`Kernel`], run with the environment's options, and what it reported —
//! errors, the checker's findings, the shader's messages, the profile —
//! written where `docs/d3d11.md` says.

use crate::config::Config;
use crate::device::Shared;
use crate::log::{calls, say};
use crate::objects::{ResourceCore, Target};
use crate::state::{Bound, CbData, CsState, ShaderData};
use sm5sim::api::{Dispatched, Kernel, View};
use sm5sim::job::SlotKind;
use std::io::Write;
use std::sync::atomic::Ordering;

/// How many groups a dispatch runs.
pub enum Groups<'a> {
    /// `Dispatch(x, y, z)`
    Direct([u32; 3]),
    /// `DispatchIndirect(args, offset)`
    Indirect(&'a ResourceCore, u32),
}

fn bind(k: &mut Kernel, slot: &str, t: &Target) -> Result<(), sm5sim::api::ApiError> {
    match t.elements {
        Some((first, count)) => k.bind_elements(slot, &t.res, Some(t.view), first, count)?,
        None => k.bind_view(slot, &t.res, t.view)?,
    };
    Ok(())
}

/// The constant buffer a shader sees: the buffer itself, or for a range
/// of `CSSetConstantBuffers1` (first constant, count; 16 bytes each) a copy
/// of those constants made at the dispatch, zeros past the buffer's end
/// (FS §7.5).
fn constants(core: &CbData, range: Option<(u32, u32)>) -> Option<sm5sim::api::Resource> {
    let whole = (core.byte_width / 16) as u32;
    match range {
        None => Some(core.res.clone()),
        Some((0, n)) if n == whole => Some(core.res.clone()),
        Some((first, n)) => {
            let mut bytes = vec![0u8; n.max(1) as usize * 16];
            let start = u64::from(first) * 16;
            let end = (start + u64::from(n) * 16).min(core.byte_width);
            if start < end {
                let b = core.res.as_buffer()?;
                b.read_bytes(start as usize, &mut bytes[..(end - start) as usize])
                    .ok()?;
            }
            sm5sim::api::Resource::from_bytes(&bytes).ok()
        }
    }
}

/// Slot `i` of `slots`, when something is bound there.
fn at<T: windows_core::Interface, D>(
    slots: &[Option<Bound<T, D>>],
    i: usize,
) -> Option<&Bound<T, D>> {
    slots.get(i).and_then(|b| b.as_ref())
}

/// The kernel the CS state makes, and the shader's name; None (logged)
/// when there is nothing to run.
fn kernel(cs: &CsState, n: u64) -> Option<(Kernel, String)> {
    let Some(shader) = cs.shader.as_ref() else {
        say(&format!(
            "Dispatch #{n}: no compute shader is set; nothing ran"
        ));
        return None;
    };
    let ShaderData { shader, name, .. } = &shader.data;
    let mut k = Kernel::new(shader.clone());
    let fail = |e: sm5sim::api::ApiError| {
        say(&format!("Dispatch #{n} ({name}): {e}; nothing ran"));
    };
    for info in shader.resources() {
        let slot = info.slot.to_string();
        let i = info.slot.index as usize;
        let target = match info.slot.kind {
            SlotKind::Srv => at(&cs.srvs, i).map(|b| b.data.clone()),
            SlotKind::Uav => at(&cs.uavs, i).map(|b| b.data.target.clone()),
            SlotKind::ConstantBuffer => at(&cs.cbs, i).and_then(|b| {
                let range = cs.cb_ranges.get(i).copied().flatten();
                Some(Target {
                    res: constants(&b.data, range)?,
                    view: View::Constant,
                    elements: None,
                })
            }),
        };
        let r = match &target {
            Some(t) => bind(&mut k, &slot, t),
            None => k.bind_null(&slot).map(|_| ()),
        };
        if let Err(e) = r {
            fail(e);
            return None;
        }
    }
    for decl in &shader.program().samplers {
        // a null sampler is the default state (CSSetSamplers)
        let desc = cs
            .samplers
            .get(decl.slot as usize)
            .and_then(|s| s.as_ref())
            .map(|s| s.data)
            .unwrap_or_default();
        if let Err(e) = k.bind_sampler(&format!("s{}", decl.slot), desc) {
            fail(e);
            return None;
        }
    }
    Some((k, name.clone()))
}

/// Run a dispatch of the CS state of `shared`.
pub fn dispatch(shared: &Shared, groups: Groups) {
    let n = shared.dispatches.fetch_add(1, Ordering::Relaxed) + 1;
    let made = {
        let cs = shared.cs.lock().unwrap_or_else(|e| e.into_inner());
        kernel(&cs, n)
    };
    let Some((k, name)) = made else { return };
    let config = Config::get();
    let options = config.options();
    // DispatchIndirect reads its group counts once, then dispatches them
    let counts = match groups {
        Groups::Direct(g) => g,
        Groups::Indirect(args, offset) => match k.indirect_groups(&args.res, u64::from(offset)) {
            Ok(g) => g,
            Err(e) => {
                say(&format!("Dispatch #{n} ({name}): {e}; nothing ran"));
                return;
            }
        },
    };
    let result = k.dispatch(counts, &options);
    let place = format!(
        "Dispatch #{n} ({name}, {}x{}x{} groups)",
        counts[0], counts[1], counts[2]
    );
    calls!("{place}");
    match result {
        // a stopped dispatch's writes until the stop stay, as a GPU's would
        Err(
            e @ sm5sim::api::ApiError::Dispatch {
                source: sim_sched::DispatchError::Runaway(_),
                ..
            },
        ) => say(&format!("{place}: {e}; its writes until then stay")),
        Err(e) => say(&format!("{place}: {e}; nothing ran")),
        Ok(d) => report(shared, config, &place, n, &k, counts, &d),
    }
}

fn report(
    shared: &Shared,
    config: &Config,
    place: &str,
    n: u64,
    k: &Kernel,
    groups: [u32; 3],
    d: &Dispatched,
) {
    shared
        .cs_invocations
        .fetch_add(d.stats.threads, Ordering::Relaxed);
    if config.messages {
        for m in &d.messages.list {
            say(&format!("{place}: {}", m.line_text()));
        }
        if d.messages.dropped() > 0 {
            say(&format!(
                "{place}: {} more messages not kept",
                d.messages.dropped()
            ));
        }
    }
    if config.check {
        let mut lines: Vec<String> = d.findings.iter().map(|f| format!("{place}: {f}")).collect();
        if let Some(s) = &d.stopped {
            lines.push(format!("{place}: stopped: {s}"));
        }
        match &config.check_log {
            Some(path) => {
                let written = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut f| lines.iter().try_for_each(|l| writeln!(f, "{l}")));
                if let Err(e) = written {
                    say(&format!("SM5SIM_CHECK_LOG {}: {e}", path.display()));
                }
            }
            None => lines.iter().for_each(|l| say(l)),
        }
    }
    if let (Some(path), Some(p)) = (&config.trace, &d.profile) {
        let mut all = shared.traced.lock().unwrap_or_else(|e| e.into_inner());
        all.push((place.to_string(), n as usize, groups, d.stats, p.clone()));
        let dispatches: Vec<_> = all
            .iter()
            .map(
                |(name, step, groups, stats, profile)| sm5sim::profile::TracedDispatch {
                    name: name.clone(),
                    step: *step,
                    groups: *groups,
                    stats,
                    profile,
                },
            )
            .collect();
        if let Err(e) = std::fs::write(path, sm5sim::profile::chrome_trace(&dispatches)) {
            say(&format!("SM5SIM_TRACE {}: {e}", path.display()));
        }
    }
    if let (Some(path), Some(p)) = (&config.profile, &d.profile) {
        let mut all = shared.profile.lock().unwrap_or_else(|e| e.into_inner());
        let mut entry = sm5sim::profile::profile_json(
            n as usize,
            groups,
            &d.stats,
            p,
            Some(k.shader().program()),
        );
        entry["shader"] = serde_json::Value::String(place.to_string());
        all.push(entry);
        let text = serde_json::to_string_pretty(&serde_json::json!({ "dispatches": *all }))
            .unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            say(&format!("SM5SIM_PROFILE {}: {e}", path.display()));
        }
    }
}
