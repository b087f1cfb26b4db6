//! Values by name at a stop: HLSL locals (through fxc's `/Zi` register
//! records), registers, system values, TGSM and resource words
//! ([`Session::evaluate`]).

use super::{DebugError, Session};
use sim_core::exec::{Debugger, LastWrite, WordSpace};
use sim_core::front::debug_info::{LocalVariable, ScalarKind, VariableRegister};

/// What a value's words are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// An HLSL local or parameter of the focus thread.
    Local,
    /// A register or system value of the focus thread.
    Register,
    /// Words of the group's TGSM.
    Tgsm,
    /// Words of a resource.
    Resource,
    /// A constant-buffer variable.
    Constant,
}

/// A value: its 32-bit words (None: not available at this instruction),
/// what they hold, and where they live.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// What the words hold.
    pub kind: ScalarKind,
    /// The words (a vector's components in order).
    pub words: Vec<Option<u32>>,
    /// Where they live.
    pub place: Place,
}

impl Value {
    /// One word as its kind prints it (`?` when not available).
    pub fn word_text(&self, w: Option<u32>) -> String {
        let Some(w) = w else {
            return "?".into();
        };
        match self.kind {
            ScalarKind::Float => format!("{:?}", f32::from_bits(w)),
            ScalarKind::Int => (w as i32).to_string(),
            ScalarKind::Uint => w.to_string(),
            ScalarKind::Bool => (w != 0).to_string(),
            ScalarKind::Unknown => format!("{w:#x}"),
        }
    }

    /// The words as numbers, floats by their value (for tests and
    /// evaluation): None where a word is not available.
    pub fn as_f64(&self) -> Vec<Option<f64>> {
        self.words
            .iter()
            .map(|w| {
                w.map(|w| match self.kind {
                    ScalarKind::Float => f64::from(f32::from_bits(w)),
                    ScalarKind::Int => f64::from(w as i32),
                    _ => f64::from(w),
                })
            })
            .collect()
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.words[..] {
            [] => f.write_str("<in no register>"),
            [one] => f.write_str(&self.word_text(*one)),
            words => {
                let parts: Vec<String> = words.iter().map(|w| self.word_text(*w)).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}

const COMPONENTS: &str = "xyzw";

/// `.xyz` → [0, 1, 2].
fn swizzle(s: &str) -> Option<Vec<u32>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    s.chars()
        .map(|c| COMPONENTS.find(c).map(|i| i as u32))
        .collect()
}

/// `name[i]` → (name, i).
fn indexed(s: &str) -> Option<(&str, u64)> {
    let (name, rest) = s.split_once('[')?;
    let i = rest.strip_suffix(']')?.trim().parse().ok()?;
    Some((name.trim(), i))
}

impl Session<'_> {
    /// The value of `expr` for the focus thread at its warp's next
    /// instruction. `expr` is one of:
    /// - an HLSL local or parameter, whole or components (`cx`, `dtid`,
    ///   `dtid.xy`): from the registers fxc's records place it in there
    ///   (`?` for a piece no register holds at that instruction);
    /// - a temp `r3` / `r3.xz`, an indexable temp `x0[5]` / `x0[5].y`;
    /// - `vThreadID`, `vThreadGroupID`, `vThreadIDInGroup`,
    ///   `vThreadIDInGroupFlattened` (and their components);
    /// - a groupshared variable by its HLSL name and dword index (`s[3]`:
    ///   the variable's dword 3), or a TGSM register's dword (`g0[3]`);
    /// - a job resource by name and dword index (`iterations[5]`);
    /// - a constant-buffer variable by its HLSL name (`width`), a scalar
    ///   or vector, as its buffer holds it for this dispatch.
    ///
    /// # Errors
    /// [`DebugError::Usage`] when it names nothing, or the dispatch has
    /// ended (for all but resources).
    pub fn evaluate(&self, expr: &str) -> Result<Value, DebugError> {
        let expr = expr.trim();
        let unknown = || DebugError::Usage(format!("`{expr}` names nothing here: {}", HELP));
        // resources: whether the dispatch runs or not
        if let Some((name, i)) = indexed(expr) {
            if let Some(r) = self.resource_named(name) {
                let w = usize::try_from(i).ok().and_then(|i| r.data().load(i));
                if w.is_none() {
                    return Err(DebugError::Usage(format!(
                        "{name}[{i}]: the resource has {} dwords",
                        r.data().len_words()
                    )));
                }
                return Ok(Value {
                    kind: ScalarKind::Unknown,
                    words: vec![w],
                    place: Place::Resource,
                });
            }
        }
        let e = self.running()?;
        let (warp, lane) = self.focus;
        let (base, comps) = match expr.split_once('.') {
            Some((b, c)) => (b, Some(swizzle(c).ok_or_else(unknown)?)),
            None => (expr, None),
        };
        let pick = |words: Vec<Option<u32>>, kind, place| -> Result<Value, DebugError> {
            let words = match &comps {
                Some(cs) => cs
                    .iter()
                    .map(|&c| words.get(c as usize).copied().ok_or_else(unknown))
                    .collect::<Result<_, _>>()?,
                None => words,
            };
            Ok(Value { kind, words, place })
        };
        // registers
        if let Some(n) = base.strip_prefix('r').and_then(|n| n.parse::<u32>().ok()) {
            if n >= self.program().temps {
                return Err(DebugError::Usage(format!(
                    "r{n}: the shader declares {} temps",
                    self.program().temps
                )));
            }
            let words = (0..4).map(|c| e.temp(warp, lane, n, c)).collect();
            return pick(words, ScalarKind::Unknown, Place::Register);
        }
        if let Some((x, i)) = indexed(base) {
            if let Some(n) = x.strip_prefix('x').and_then(|n| n.parse::<u32>().ok()) {
                let words: Vec<Option<u32>> = (0..4)
                    .map(|c| e.indexable_temp(warp, lane, n, i as u32, c))
                    .collect();
                if words[0].is_none() {
                    return Err(DebugError::Usage(format!("{base}: no such element")));
                }
                return pick(words, ScalarKind::Unknown, Place::Register);
            }
            return self.tgsm_word(e, x, i).ok_or_else(unknown);
        }
        let state = e.lane(warp, lane).ok_or_else(unknown)?;
        let system = match base {
            "vThreadID" => Some(state.dispatch_thread.to_vec()),
            "vThreadGroupID" => e.cursor().map(|p| p.group.to_vec()),
            "vThreadIDInGroup" => Some(state.thread.to_vec()),
            "vThreadIDInGroupFlattened" => Some(vec![state.index]),
            _ => None,
        };
        if let Some(s) = system {
            let words = s.into_iter().map(Some).collect();
            return pick(words, ScalarKind::Uint, Place::Register);
        }
        if let Some(local) = self.local_named(base) {
            return pick(self.local_words(local), local.kind, Place::Local);
        }
        let (kind, words) = self.constant(base).ok_or_else(unknown)?;
        pick(words, kind, Place::Constant)
    }

    /// A constant-buffer variable by its HLSL name (a scalar or a vector:
    /// RDEF's layout), as its buffer holds it for this dispatch.
    fn constant(&self, name: &str) -> Option<(ScalarKind, Vec<Option<u32>>)> {
        use sim_core::front::rdef::InputType;
        let r = self.program().reflection.as_ref()?;
        let (cb, v) = (r.cbuffers.iter().filter(|c| c.kind == 0))
            .find_map(|c| Some((c, c.variables.iter().find(|v| v.name == name)?)))?;
        if v.ty.class > 1 || v.ty.elements > 0 {
            return None;
        }
        let slot = (r.bindings.iter())
            .find(|b| b.name == cb.name && b.input_type == InputType::CBuffer)?
            .bind_point;
        let words = &self.cbs.iter().find(|(s, _)| *s == slot)?.1;
        let kind = match v.ty.base_type {
            1 => ScalarKind::Bool,
            2 => ScalarKind::Int,
            3 => ScalarKind::Float,
            19 => ScalarKind::Uint,
            _ => ScalarKind::Unknown,
        };
        let first = v.offset as usize / 4;
        let n = usize::from(v.ty.columns.max(1));
        Some((
            kind,
            (first..first + n).map(|i| words.get(i).copied()).collect(),
        ))
    }

    /// [`Session::evaluate`] for lane `lane` of warp `warp` of the group
    /// in progress instead of the focus thread (the focus does not move).
    ///
    /// # Errors
    /// As [`Session::evaluate`].
    pub fn evaluate_in(
        &mut self,
        warp: usize,
        lane: usize,
        expr: &str,
    ) -> Result<Value, DebugError> {
        let keep = std::mem::replace(&mut self.focus, (warp, lane));
        let v = self.evaluate(expr);
        self.focus = keep;
        v
    }

    /// A groupshared variable's (by HLSL name) or a `g#` register's dword
    /// `i`.
    fn tgsm_word(&self, e: &Debugger<'_>, name: &str, i: u64) -> Option<Value> {
        let (slot, offset) = match name.strip_prefix('g').and_then(|n| n.parse::<u32>().ok()) {
            Some(g) => (g, 0),
            None => {
                let map = self.source_map()?;
                let v = map.groupshared.iter().find(|v| v.name == name)?;
                (v.slot, v.offset / 4)
            }
        };
        let (_, words) = e.tgsm().region(slot)?;
        let w = words
            .get(usize::try_from(i).ok()? + offset as usize)
            .copied();
        w.map(|w| Value {
            kind: ScalarKind::Unknown,
            words: vec![Some(w)],
            place: Place::Tgsm,
        })
    }

    /// The local `name` of the innermost frame that has one (else of any
    /// function).
    fn local_named(&self, name: &str) -> Option<&LocalVariable> {
        let map = self.source_map()?;
        let frames = self.frames();
        let candidates = || map.locals.iter().filter(|v| v.name == name);
        frames
            .iter()
            .find_map(|f| candidates().find(|v| v.function == f.function && v.depth == f.depth))
            .or_else(|| candidates().next())
    }

    /// The words of `local` for the focus thread at its warp's next
    /// instruction.
    fn local_words(&self, local: &LocalVariable) -> Vec<Option<u32>> {
        let Some(e) = self.engine.as_ref() else {
            return Vec::new();
        };
        let (warp, lane) = self.focus;
        let prog = self.program();
        let Some(token) = self.focus_pc().and_then(|pc| prog.token_of(pc)) else {
            return vec![None; (local.size / 4) as usize];
        };
        let state = e.lane(warp, lane);
        (0..local.size.div_ceil(4))
            .map(|k| {
                let p = local
                    .pieces
                    .iter()
                    .find(|p| p.offset == 4 * k && p.live_at(token))?;
                match p.register {
                    VariableRegister::Temp { reg, comp } => e.temp(warp, lane, reg, comp),
                    VariableRegister::IndexableTemp {
                        array,
                        element,
                        comp,
                    } => e.indexable_temp(warp, lane, array, element, comp),
                    VariableRegister::Input { operand_type, comp } => {
                        let s = state?;
                        let c = comp.min(2) as usize;
                        match operand_type {
                            32 => Some(s.dispatch_thread[c]),
                            33 => e.cursor().map(|p| p.group[c]),
                            34 => Some(s.thread[c]),
                            // 36: vThreadIDInGroupFlattened
                            _ => Some(s.index),
                        }
                    }
                }
            })
            .collect()
    }

    /// The locals and parameters of the focus thread's frames, innermost
    /// first, each with its value (`?` components where no register holds
    /// them at this instruction).
    pub fn locals(&self) -> Vec<(String, Value)> {
        let Some(map) = self.source_map() else {
            return Vec::new();
        };
        let mut out: Vec<(String, Value)> = Vec::new();
        for f in self.frames() {
            for v in (map.locals.iter()).filter(|v| v.function == f.function && v.depth == f.depth)
            {
                if out.iter().any(|(n, _)| *n == v.name) {
                    continue;
                }
                let value = Value {
                    kind: v.kind,
                    words: self.local_words(v),
                    place: Place::Local,
                };
                out.push((v.name.clone(), value));
            }
        }
        out
    }
}

impl Session<'_> {
    /// Who last wrote the word `expr` names: a groupshared variable or
    /// TGSM register by dword (`s[3]`, `g0[3]`), a job resource by dword
    /// (`iterations[5]`, the dword of the buffer) or a UAV by dword
    /// (`u0[5]`, the dword of the view). The record covers the
    /// instructions run since the session's first stepped group began
    /// (`None` when none of them wrote the word).
    ///
    /// # Errors
    /// [`DebugError::Usage`] when `expr` names no word of TGSM or of a
    /// UAV, or the dispatch has ended.
    pub fn last_write(&self, expr: &str) -> Result<Option<LastWrite>, DebugError> {
        let e = self.running()?;
        let bad = || {
            DebugError::Usage(format!(
                "`{expr}`: want a TGSM word (s[3], g0[3]) or a UAV word (name[5], u0[5])"
            ))
        };
        let (name, i) = indexed(expr.trim()).ok_or_else(bad)?;
        let i = usize::try_from(i).map_err(|_| bad())?;
        if let Some(g) = name.strip_prefix('g').and_then(|n| n.parse::<u32>().ok()) {
            return Ok(e.last_write(WordSpace::Tgsm(g), i));
        }
        if let Some(u) = name.strip_prefix('u').and_then(|n| n.parse::<u32>().ok()) {
            return Ok(e.last_write(WordSpace::Uav(u), i));
        }
        if let Some(v) =
            (self.source_map()).and_then(|m| m.groupshared.iter().find(|v| v.name == name))
        {
            return Ok(e.last_write(WordSpace::Tgsm(v.slot), v.offset as usize / 4 + i));
        }
        let r = self.resource_named(name).ok_or_else(bad)?;
        let slots = self.kernel.uav_slots_of(r);
        if slots.is_empty() {
            return Err(DebugError::Usage(format!(
                "`{name}` is not bound as a UAV of this dispatch: nothing in it writes it"
            )));
        }
        // the latest write through any of its views
        let writes = slots.iter().filter_map(|&(u, first)| {
            let word = (i as u64).checked_sub(first)?;
            e.last_write(WordSpace::Uav(u), usize::try_from(word).ok()?)
        });
        Ok(writes.last())
    }
}

/// What [`Session::evaluate`] takes, in a line.
pub const HELP: &str = "an HLSL local (cx, dtid.x), a register (r0.x, x0[2]), vThreadID, a groupshared variable or g# by dword (s[3], g0[3]), a resource by dword (name[5]), or a cbuffer variable (width)";
