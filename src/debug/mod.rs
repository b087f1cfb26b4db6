//! The debugger (`sm5sim debug`, `sm5sim dap`): a session over one
//! dispatch step of a job ([`Session`]), which runs deterministically
//! (the groups in linear order, warps in order: what `--deterministic`
//! runs) and stops at HLSL lines, instructions, `debug_break`, `errorf`,
//! checker findings and watchdog stops; at a stop it shows every lane of
//! the focus warp, its registers, the HLSL locals fxc's `/Zi` records map
//! to registers (`sim_core::front::debug_info`), TGSM by HLSL name,
//! resource words by the job's names, and who last wrote a word. [`command`] is the command language
//! of the terminal; [`dap`] the Debug Adapter Protocol server.
//!
//! The engine is `sim_core::exec::Debugger`; this module adds the job (the
//! steps before and after the debugged dispatch run as `run` runs them),
//! the stop conditions, line stepping and values by name.

pub mod command;
pub mod dap;
mod value;

use crate::job::{Job, JobError, StepReport};
use crate::Kernel;
use sim_core::check::{CheckOptions, Finding};
use sim_core::exec::{DebugOptions, Debugger, Position};
use sim_core::front::debug_info::{Frame, SourceLine, SourceMap};
use sim_core::Program;
use sim_sched::DispatchOptions;
use std::collections::BTreeSet;

pub use value::{Place, Value};

/// Why a debug session could not start or a command was refused.
#[derive(Debug, thiserror::Error)]
pub enum DebugError {
    /// The job failed in a step before the debugged one.
    #[error(transparent)]
    Job(#[from] JobError),
    /// The step asked for is not a dispatch.
    #[error("steps[{step}] is not a dispatch (the job's dispatch steps: {dispatches})")]
    NotADispatch {
        /// The step asked for.
        step: usize,
        /// The job's dispatch steps, listed.
        dispatches: String,
    },
    /// A breakpoint, thread or expression that does not name anything.
    #[error("{0}")]
    Usage(String),
}

/// Where a session stopped, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum StopReason {
    /// The session has just started: the first instruction of the first
    /// group (or of the `--thread`'s group).
    Entry,
    /// A breakpoint: its number and what it names.
    Breakpoint(usize, String),
    /// A step (an instruction or an HLSL line) completed.
    Step,
    /// A thread executed `debug_break`.
    DebugBreak,
    /// A thread executed `errorf`.
    Errorf,
    /// The checker found something new (its index in the findings).
    Finding(usize),
    /// A watched value changed: the watch, the old and the new value,
    /// and where the instruction that changed it ran (its group, warp and
    /// pc; None when a group ended in between, which starts TGSM and the
    /// registers afresh).
    Watch(String, String, String, Option<Position>),
    /// The focus thread returned.
    ThreadExited,
    /// The watchdog (instruction budget) or the checker's forward-progress
    /// test stopped the dispatch; nothing more runs.
    Stopped(String),
    /// The dispatch ran to its end (and the job's later steps ran).
    Finished,
}

/// A breakpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Breakpoint {
    /// What the user wrote (`mandelbrot.hlsl:17`, `pc 12`).
    pub spec: String,
    /// The HLSL line it resolved to, if by line.
    pub line: Option<u32>,
    /// The instructions it stops before.
    pub pcs: BTreeSet<usize>,
    /// Stop only where this holds for an active lane (`… if EXPR OP N`).
    pub condition: Option<Condition>,
}

/// A breakpoint's condition: `EXPR OP NUMBER`, EXPR as
/// [`Session::evaluate`] takes it (its first word, as a number of its
/// type), OP one of `==`, `!=`, `<`, `<=`, `>`, `>=`.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The expression.
    pub expr: String,
    /// The comparison, as written.
    pub op: String,
    /// The number compared with.
    pub value: f64,
}

impl Condition {
    /// `EXPR OP NUMBER`, or None when it is not of that form.
    fn parse(text: &str) -> Option<Condition> {
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if let Some((expr, value)) = text.split_once(op) {
                let value = value.trim();
                let value = match value.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16).ok()? as f64,
                    None => value.parse().ok()?,
                };
                return Some(Condition {
                    expr: expr.trim().to_string(),
                    op: op.to_string(),
                    value,
                });
            }
        }
        None
    }

    /// Whether it holds for `v` (its first word).
    fn holds(&self, v: &Value) -> bool {
        let Some(Some(x)) = v.as_f64().first().copied() else {
            return false;
        };
        match self.op.as_str() {
            "==" => x == self.value,
            "!=" => x != self.value,
            "<" => x < self.value,
            "<=" => x <= self.value,
            ">" => x > self.value,
            _ => x >= self.value,
        }
    }
}

/// How a session starts.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// The step to debug (None: the job's first dispatch).
    pub step: Option<usize>,
    /// Focus on this thread (`SV_DispatchThreadID`): the groups before its
    /// group run at full speed, and breakpoints stop only where it is
    /// active.
    pub thread: Option<[u32; 3]>,
    /// Lanes per warp (None: 32).
    pub warp_width: Option<usize>,
    /// Run under the concurrency checker, stopping at each new finding.
    pub break_on_findings: bool,
    /// Stop after this many warp-instructions.
    pub max_warp_instructions: Option<u64>,
}

/// A watched value: its expression and its last value as text.
#[derive(Debug, Clone)]
struct Watch {
    expr: String,
    last: String,
}

/// A debug session over one dispatch step of a job, or over one dispatch
/// of a kernel: see the module docs.
pub struct Session<'j> {
    /// the job, when the session debugs a job's step
    job: Option<&'j Job>,
    kernel: &'j Kernel,
    step: usize,
    shader: String,
    cbs: Vec<(u32, Vec<u32>)>,
    engine: Option<Debugger<'j>>,
    /// the focus thread: warp and lane in the group in progress
    focus: (usize, usize),
    /// a thread the user fixed (`--thread`, `thread`): its dispatch ID
    fixed: Option<[u32; 3]>,
    breakpoints: Vec<Breakpoint>,
    watches: Vec<Watch>,
    findings_seen: usize,
    messages_seen: [u64; 4],
    /// the reports of the job's steps run so far (before and after)
    reports: Vec<StepReport>,
    ended: Option<String>,
    /// warp-instructions the session has run (not counting skipped groups)
    executed: u64,
    /// the checker's findings once the dispatch has ended
    final_findings: Vec<Finding>,
    /// how the engine was started, to start it again (reverse steps)
    restart: Restart,
}

/// What a reverse step needs to replay the dispatch: the engine's options,
/// its groups and skip, whether it checks, and the words (and hidden
/// counters) of the UAV-bound resources before the dispatch began.
struct Restart {
    debug: DebugOptions,
    groups: [u32; 3],
    skip: u64,
    check: bool,
    memory: Vec<(crate::Resource, Vec<u32>, u32)>,
}

impl std::fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("step", &self.step)
            .field("cursor", &self.cursor())
            .finish()
    }
}

/// How a line step treats calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStep {
    /// Into inlined calls (`step`, DAP `stepIn`).
    Into,
    /// Over them (`next`, DAP `next`).
    Over,
    /// Out of the current inlined function (DAP `stepOut`).
    Out,
}

impl<'j> Session<'j> {
    /// Start a session on `job`: the steps before the debugged dispatch
    /// run (as `sm5sim run` runs them, with `run_options`), then the
    /// dispatch starts under the debugger, stopped before its first
    /// instruction (of the `options.thread`'s group, the groups before it
    /// run at full speed).
    ///
    /// # Errors
    /// [`DebugError::NotADispatch`] for a step that is not a dispatch,
    /// [`DebugError::Usage`] for a thread outside the dispatch,
    /// [`DebugError::Job`] when an earlier step fails.
    pub fn start(
        job: &'j Job,
        options: &SessionOptions,
        run_options: &DispatchOptions,
    ) -> Result<Self, DebugError> {
        let dispatches: Vec<usize> = (0..job.step_count())
            .filter(|&s| matches!(job.dispatch_step(s), Ok(Some(_))))
            .collect();
        let step = match options.step {
            Some(s) => s,
            None => *dispatches.first().ok_or_else(|| DebugError::NotADispatch {
                step: 0,
                dispatches: "none".into(),
            })?,
        };
        if !dispatches.contains(&step) {
            let list: Vec<String> = dispatches.iter().map(|s| format!("steps[{s}]")).collect();
            return Err(DebugError::NotADispatch {
                step,
                dispatches: list.join(", "),
            });
        }
        let (reports, error) = job.run_range(run_options, 0..step);
        if let Some(e) = error {
            return Err(e.into());
        }
        let d = job.dispatch_step(step)?.expect("a dispatch step");
        let (shader, kernel, groups) = (d.shader, d.kernel, d.groups);
        let mut s = Self::begin(kernel, groups, options, run_options)?;
        s.job = Some(job);
        s.step = step;
        s.shader = shader.to_string();
        s.reports = reports;
        Ok(s)
    }

    /// Start a session on one dispatch of `groups` thread groups of
    /// `kernel` with its bindings as they stand (the Rust and Python APIs'
    /// session), stopped before its first instruction (of the
    /// `options.thread`'s group; `options.step` is ignored). Resources are
    /// named by the names they were bound by.
    ///
    /// # Errors
    /// [`DebugError::Usage`] for a thread outside the dispatch.
    pub fn for_kernel(
        kernel: &'j Kernel,
        groups: [u32; 3],
        options: &SessionOptions,
    ) -> Result<Self, DebugError> {
        let mut s = Self::begin(kernel, groups, options, &DispatchOptions::default())?;
        s.shader = kernel.shader().name().to_string();
        Ok(s)
    }

    /// The session's dispatch started (no job).
    fn begin(
        kernel: &'j Kernel,
        groups: [u32; 3],
        options: &SessionOptions,
        run_options: &DispatchOptions,
    ) -> Result<Self, DebugError> {
        let program = kernel.shader().program();
        let skip = match options.thread {
            Some(t) => group_of_thread(t, program.thread_group, groups)?.1,
            None => 0,
        };
        let checker = options
            .break_on_findings
            .then(|| kernel.checker(CheckOptions::default()));
        let debug = DebugOptions {
            warp_width: options.warp_width.unwrap_or(32),
            fast_paths: run_options.fast_paths,
            max_warp_instructions: options.max_warp_instructions,
        };
        let cbs = kernel.constant_words();
        // the UAVs' words before the dispatch, to replay it from
        let memory = (kernel.uav_resources().into_iter())
            .map(|r| {
                let words = r.data().to_words();
                let counter = r.data().counter().load(sim_mem::sync::Ordering::Relaxed);
                (r, words, counter)
            })
            .collect();
        let engine = {
            let b = kernel.bindings(&cbs);
            Debugger::start(program, &b, groups, &debug, checker, skip)
        };
        let mut s = Session {
            job: None,
            kernel,
            step: 0,
            shader: String::new(),
            cbs,
            engine: None,
            focus: (0, 0),
            fixed: options.thread,
            breakpoints: Vec::new(),
            watches: Vec::new(),
            findings_seen: 0,
            messages_seen: [0; 4],
            reports: Vec::new(),
            ended: None,
            executed: 0,
            final_findings: Vec::new(),
            restart: Restart {
                debug,
                groups,
                skip,
                check: options.break_on_findings,
                memory,
            },
        };
        match engine {
            Ok(e) => s.engine = Some(e),
            Err(r) => s.ended = Some(r.to_string()),
        }
        s.refocus();
        Ok(s)
    }

    /// The program debugged.
    pub fn program(&self) -> &'j Program {
        self.kernel.shader().program()
    }

    /// The debugged step's index and shader name.
    pub fn step(&self) -> (usize, &str) {
        (self.step, &self.shader)
    }

    /// The job, when the session debugs a job's step.
    pub fn job(&self) -> Option<&'j Job> {
        self.job
    }

    /// A resource by name: the job's, else one the kernel binds by that
    /// name.
    pub(crate) fn resource_named(&self, name: &str) -> Option<&'j crate::Resource> {
        match self.job.and_then(|j| j.resource(name)) {
            Some(r) => Some(&r.storage),
            None => self.kernel.bound_named(name),
        }
    }

    /// The engine, while the dispatch runs.
    pub fn engine(&self) -> Option<&Debugger<'j>> {
        self.engine.as_ref()
    }

    /// The reports of the job's steps run so far.
    pub fn reports(&self) -> &[StepReport] {
        &self.reports
    }

    /// The next instruction the dispatch runs.
    pub fn cursor(&self) -> Option<Position> {
        self.engine.as_ref()?.cursor()
    }

    /// The focus thread's warp and lane.
    pub fn focus(&self) -> (usize, usize) {
        self.focus
    }

    /// Why the dispatch stopped for good, when the watchdog stopped it.
    pub fn ended(&self) -> Option<&str> {
        self.ended.as_deref()
    }

    /// Point the focus at the fixed thread (when in the group in
    /// progress), else keep it, else the cursor's warp's first active lane.
    fn refocus(&mut self) {
        let Some(e) = &self.engine else { return };
        let Some(at) = e.cursor() else { return };
        if let Some(t) = self.fixed {
            let tg = self.program().thread_group;
            let g: [u32; 3] = std::array::from_fn(|c| t[c] / tg[c].max(1));
            if g == at.group {
                let tig: [u32; 3] = std::array::from_fn(|c| t[c] % tg[c].max(1));
                let flat = tig[0] + tg[0] * (tig[1] + tg[1] * tig[2]);
                if let Some(f) = e.lane_of(flat) {
                    self.focus = f;
                    return;
                }
            }
        }
        let lane = (0..e.warp_width())
            .find(|&l| e.lane(at.warp, l).is_some_and(|s| s.active))
            .unwrap_or(0);
        self.focus = (at.warp, lane);
    }

    /// Run forward, with no stops, to the start of the group of thread
    /// `t` (`SV_DispatchThreadID`), a group after the one in progress, and
    /// focus on `t` there; later breakpoints stop only where it is active.
    /// The groups between run in warps of the session's width, a warp at a
    /// time in large quanta, recorded for `who`.
    ///
    /// # Errors
    /// [`DebugError::Usage`] for a thread outside the dispatch or in a group
    /// already begun (go back with a new session and `--thread`), or when
    /// the dispatch is stopped on the way.
    pub fn run_to_thread(&mut self, t: [u32; 3]) -> Result<StopReason, DebugError> {
        let e = self.running()?;
        let (g, target) = group_of_thread(t, self.program().thread_group, e.groups())?;
        if target <= e.group_index() {
            return Err(DebugError::Usage(format!(
                "thread {} is in group {}, which has begun; start a session with --thread {},{},{} to stop at its start",
                ids(t),
                ids(g),
                t[0],
                t[1],
                t[2]
            )));
        }
        let cbs = self.cbs.clone();
        let b = self.kernel.bindings(&cbs);
        while let Some(e) = self.engine.as_mut().filter(|e| e.group_index() < target) {
            if e.finished() {
                break;
            }
            match e.run_quantum(&b, RESUME_QUANTUM) {
                Ok(r) => self.executed += r.instructions,
                Err(r) => {
                    let text = r.to_string();
                    self.ended = Some(text.clone());
                    return Ok(StopReason::Stopped(text));
                }
            }
        }
        if let Some(e) = &self.engine {
            self.findings_seen = e.findings().len();
            self.messages_seen = e.message_counts();
        }
        self.fixed = Some(t);
        self.refocus();
        Ok(StopReason::Step)
    }

    /// Focus on the thread `t` (`SV_DispatchThreadID`), which must be in
    /// the group in progress; later breakpoints stop only where it is
    /// active.
    ///
    /// # Errors
    /// [`DebugError::Usage`] when it is not in the group in progress.
    pub fn select_thread(&mut self, t: [u32; 3]) -> Result<(), DebugError> {
        let e = self.running()?;
        let at = e.cursor().expect("running");
        let tg = self.program().thread_group;
        let g: [u32; 3] = std::array::from_fn(|c| t[c] / tg[c].max(1));
        if g != at.group {
            return Err(DebugError::Usage(format!(
                "thread {} is in group {}, not in the group in progress {}; start a session with --thread {},{},{} to stop in its group",
                ids(t),
                ids(g),
                ids(at.group),
                t[0],
                t[1],
                t[2]
            )));
        }
        self.fixed = Some(t);
        self.refocus();
        Ok(())
    }

    /// Focus on lane `lane` of warp `warp` (None: the focus warp).
    ///
    /// # Errors
    /// [`DebugError::Usage`] past the group's warps or lanes, or a lane
    /// that runs no thread.
    pub fn select_lane(&mut self, warp: Option<usize>, lane: usize) -> Result<(), DebugError> {
        let e = self.running()?;
        let warp = warp.unwrap_or(self.focus.0);
        let state = e.lane(warp, lane).filter(|s| s.exists).ok_or_else(|| {
            DebugError::Usage(format!(
                "no thread in lane {lane} of warp {warp} ({} warps of {} lanes)",
                e.warp_count(),
                e.warp_width()
            ))
        })?;
        self.fixed = Some(state.dispatch_thread);
        self.focus = (warp, lane);
        Ok(())
    }

    fn running(&self) -> Result<&Debugger<'j>, DebugError> {
        match &self.engine {
            Some(e) if !e.finished() => Ok(e),
            _ => Err(DebugError::Usage("the dispatch is not running".into())),
        }
    }

    /// Add a breakpoint: `FILE:LINE` (an HLSL line; a line with no
    /// instruction moves to the next that has one), `LINE` (in the entry
    /// point's file), or `pc N` (an instruction index, as `sm5sim disasm`
    /// numbers them with `--pc`). Returns its number.
    ///
    /// # Errors
    /// [`DebugError::Usage`] when it names no instruction, or a line
    /// without `/Zi` debug information.
    pub fn add_breakpoint(&mut self, spec: &str) -> Result<usize, DebugError> {
        let bp = self.resolve_breakpoint(spec)?;
        self.breakpoints.push(bp);
        Ok(self.breakpoints.len() - 1)
    }

    /// The breakpoints.
    pub fn breakpoints(&self) -> &[Breakpoint] {
        &self.breakpoints
    }

    /// Remove every breakpoint whose spec names a line of file `file`
    /// (DAP's setBreakpoints replaces a file's set).
    pub fn clear_breakpoints_in(&mut self, file: Option<&str>) {
        let Some(map) = self.program().source_map.as_ref() else {
            self.breakpoints.clear();
            return;
        };
        let f = file.and_then(|f| map.file_named(f));
        self.breakpoints.retain(|b| {
            let (bf, _) = split_line_spec(&b.spec, map);
            f.is_some() && bf != f
        });
    }

    fn resolve_breakpoint(&self, spec: &str) -> Result<Breakpoint, DebugError> {
        resolve_breakpoint(self.program(), spec)
    }

    /// Watch an expression ([`Session::evaluate`]): a run stops when its
    /// value (for the focus thread) changes.
    ///
    /// # Errors
    /// As [`Session::evaluate`].
    pub fn add_watch(&mut self, expr: &str) -> Result<String, DebugError> {
        let v = self.evaluate(expr)?.to_string();
        self.watches.push(Watch {
            expr: expr.trim().to_string(),
            last: v.clone(),
        });
        Ok(v)
    }

    /// Run until a stop: a breakpoint, a new finding, a `debug_break`, an
    /// `errorf`, a watch, or the end (then the job's later steps run).
    pub fn resume(&mut self) -> StopReason {
        // with nothing to stop at between instructions, quanta of many
        // instructions (a warp runs until it parks, finishes or runs
        // them out)
        let checking = self.engine.as_ref().is_some_and(|e| e.under_checker());
        let fine = !self.breakpoints.is_empty()
            || !self.watches.is_empty()
            || checking
            || self.program().has_message_instructions();
        let quantum = if fine { 1 } else { RESUME_QUANTUM };
        self.run_until(quantum, false, |_, _| false)
    }

    /// Run one instruction of the warp at the cursor.
    pub fn step_instruction(&mut self) -> StopReason {
        self.run_until(1, false, |_, _| true)
    }

    /// Run until the focus thread is active at another HLSL line (without
    /// `/Zi`: at another instruction), into, over or out of inlined calls;
    /// other warps run as the schedule has them.
    pub fn step_line(&mut self, how: LineStep) -> StopReason {
        self.step_line_of(how, false)
    }

    /// [`Session::step_line`] for the focus thread (`whole_warp` false), or
    /// for the focus warp: until any of its lanes is active at another
    /// line (the focus thread may be inactive there).
    pub fn step_line_of(&mut self, how: LineStep, whole_warp: bool) -> StopReason {
        let (fw, fl) = self.focus;
        let Some(e) = &self.engine else {
            // (the dispatch has ended: what is left to run after it)
            return self.run_until(1, false, |_, _| true);
        };
        let prog = self.program();
        let map = prog.source_map.as_ref();
        let at_pc = move |pc: usize| -> Option<(SourceLine, usize)> {
            map?.line_and_depth(prog.token_of(pc)?)
        };
        let start_pc = e.warp_pc(fw).unwrap_or(0);
        let (start_line, depth) = match at_pc(start_pc) {
            Some((l, d)) => (Some(l), d),
            None => (None, 0),
        };
        self.run_until(1, !whole_warp, move |e: &Debugger<'_>, at: Position| {
            let active = match whole_warp {
                true => (0..e.warp_width()).any(|l| e.lane(fw, l).is_some_and(|s| s.active)),
                false => e.lane(fw, fl).is_some_and(|s| s.active),
            };
            if at.warp != fw || !active {
                return false;
            }
            if map.is_none() {
                return at.pc != start_pc;
            }
            let Some((line, now)) = at_pc(at.pc) else {
                return false;
            };
            match how {
                LineStep::Into => Some(line) != start_line,
                LineStep::Over => now <= depth && Some(line) != start_line,
                LineStep::Out => now < depth,
            }
        })
    }

    /// Run `quantum` instructions at a time (1: instruction by
    /// instruction) until `done(engine, cursor)` or another stop (with
    /// `exits`, the focus thread returning is one). The first instruction
    /// always runs.
    fn run_until(
        &mut self,
        quantum: u32,
        exits: bool,
        mut done: impl FnMut(&Debugger<'j>, Position) -> bool,
    ) -> StopReason {
        let kernel = self.kernel;
        let cbs = self.cbs.clone();
        let b = kernel.bindings(&cbs);
        let (fw, fl) = self.focus;
        let Some(engine) = self.engine.as_ref() else {
            // the dispatch ended at a stop of the checker: the job's later
            // steps have not run yet
            if self.ended.is_none() {
                return self.finish_dispatch();
            }
            return self.end_reason();
        };
        let focus_thread = engine.lane(fw, fl).map(|s| s.dispatch_thread);
        let focus_group = engine.cursor().map(|p| p.group);
        loop {
            let engine = self.engine.as_mut().expect("running");
            let ran = match engine.run_quantum(&b, quantum) {
                Ok(r) => {
                    self.executed += r.instructions;
                    r
                }
                Err(r) => {
                    let text = r.to_string();
                    self.ended = Some(text.clone());
                    return StopReason::Stopped(text);
                }
            };
            let engine = self.engine.as_ref().expect("running");
            let counts = engine.message_counts();
            let seen = std::mem::replace(&mut self.messages_seen, counts);
            let found = engine.findings().len();
            let Some(at) = engine.cursor() else {
                if found > self.findings_seen {
                    let i = self.findings_seen;
                    self.findings_seen = found;
                    return StopReason::Finding(i);
                }
                return self.finish_dispatch();
            };
            let focus = engine.lane(fw, fl);
            let finished_step = done(engine, at);
            if found > self.findings_seen {
                let i = self.findings_seen;
                self.findings_seen = found;
                self.refocus_on_finding(i);
                return StopReason::Finding(i);
            }
            if counts[1] > seen[1] {
                self.refocus();
                return StopReason::Errorf;
            }
            if counts[3] > seen[3] {
                self.refocus();
                return StopReason::DebugBreak;
            }
            // the focus thread returned (in the group it was in)
            if let (Some(t), Some(g), true) = (focus_thread, focus_group, exits) {
                let same = focus.is_some_and(|s| s.dispatch_thread == t);
                let gone = g == at.group && same && !focus.is_some_and(|s| s.alive);
                let left = g != at.group && ran.group_ended;
                if (gone && ran.from.warp == fw) || left {
                    self.refocus();
                    return StopReason::ThreadExited;
                }
            }
            if finished_step {
                return StopReason::Step;
            }
            if let Some(i) = self.breakpoint_at(at) {
                let spec = self.breakpoints[i].spec.clone();
                return StopReason::Breakpoint(i, spec);
            }
            let by = (!ran.group_ended).then_some(ran.from);
            if let Some(stop) = self.watch_changed(by) {
                return stop;
            }
        }
    }

    /// Go back `n` warp-instructions (in the schedule's order: the last
    /// `n` the session ran, whichever warps ran them), by running the
    /// dispatch again from its start to that point: the UAVs' words and
    /// hidden counters are put back as they were before the dispatch, the
    /// engine starts again, and runs (in quanta, with no stops) as many
    /// instructions as the session had run less `n`. The run is
    /// deterministic, so every register, TGSM and UAV word is as it was
    /// then. The focus, breakpoints and watches stay.
    ///
    /// # Errors
    /// [`DebugError::Usage`] once the dispatch has ended or was stopped.
    pub fn step_back(&mut self, n: u64) -> Result<StopReason, DebugError> {
        let target = self.executed.saturating_sub(n);
        self.replay(target, None)?;
        Ok(StopReason::Step)
    }

    /// Go back to where the focus thread last began an HLSL line (the start
    /// of the line it is in, or of the line before when it is at a start),
    /// by running the dispatch again ([`Session::step_back`]) twice: once
    /// one instruction at a time to find that point, once to it. Without
    /// `/Zi` information, one instruction of the focus warp back.
    ///
    /// # Errors
    /// As [`Session::step_back`]; also when the focus thread began no line
    /// earlier in this session.
    pub fn step_back_line(&mut self) -> Result<StopReason, DebugError> {
        let (fw, fl) = self.focus;
        let prog = self.program();
        let map = prog.source_map.as_ref();
        let now = self.executed;
        let mut last_line = None;
        let mut mark = None;
        let mut note = |e: &Debugger<'j>, count: u64| {
            let Some(at) = e.cursor() else { return };
            if at.warp != fw || !e.lane(fw, fl).is_some_and(|s| s.active) || count >= now {
                return;
            }
            let line = match map {
                Some(m) => prog.token_of(at.pc).and_then(|t| m.line_at(t)),
                // without lines, each instruction is a line of its own
                None => Some(SourceLine {
                    file: 0,
                    line: at.pc as u32,
                }),
            };
            if line.is_some() && (line != last_line || map.is_none()) {
                mark = Some(count);
            }
            if line.is_some() {
                last_line = line;
            }
        };
        self.replay(now, Some(&mut note))?;
        let Some(to) = mark else {
            return Err(DebugError::Usage(
                "the focus thread began no line earlier in this session".into(),
            ));
        };
        self.replay(to, None)?;
        Ok(StopReason::Step)
    }

    /// Run the dispatch again from its start to `target` warp-instructions
    /// (see [`Session::step_back`]); with `watch`, one instruction at a
    /// time, calling it before each with the engine and the count run so
    /// far.
    fn replay(
        &mut self,
        target: u64,
        mut watch: Option<&mut ReplayWatch<'_, 'j>>,
    ) -> Result<(), DebugError> {
        if self.engine.as_ref().is_none_or(|e| e.finished()) {
            return Err(DebugError::Usage(
                "the dispatch has ended: there is nothing to go back into".into(),
            ));
        }
        for (r, words, counter) in &self.restart.memory {
            // (the words were read from this resource: they fit)
            let _ = r.data().write_words(0, words);
            (r.data().counter()).store(*counter, sim_mem::sync::Ordering::Relaxed);
        }
        let kernel = self.kernel;
        let cbs = self.cbs.clone();
        let b = kernel.bindings(&cbs);
        let checker = (self.restart.check).then(|| kernel.checker(CheckOptions::default()));
        let r = &self.restart;
        let mut engine = Debugger::start(self.program(), &b, r.groups, &r.debug, checker, r.skip)
            .map_err(|e| DebugError::Usage(format!("the replay stopped: {e}")))?;
        let mut executed = 0;
        while executed < target && !engine.finished() {
            // one instruction at a time only when watched
            let q = match watch.as_mut() {
                Some(w) => {
                    w(&engine, executed);
                    1
                }
                None => (target - executed).min(u64::from(RESUME_QUANTUM)) as u32,
            };
            let ran = engine
                .run_quantum(&b, q)
                .map_err(|e| DebugError::Usage(format!("the replay stopped: {e}")))?;
            executed += ran.instructions;
        }
        self.executed = executed;
        self.findings_seen = engine.findings().len();
        self.messages_seen = engine.message_counts();
        self.engine = Some(engine);
        for i in 0..self.watches.len() {
            let expr = self.watches[i].expr.clone();
            self.watches[i].last = match self.evaluate(&expr) {
                Ok(v) => v.to_string(),
                Err(e) => e.to_string(),
            };
        }
        Ok(())
    }

    /// Warp-instructions the session has run (the groups skipped at its
    /// start not counted): where [`Session::step_back`] counts back from.
    pub fn executed(&self) -> u64 {
        self.executed
    }

    /// The breakpoint the cursor is at: its pc is one of a breakpoint's,
    /// and the fixed thread (or, with none fixed, any lane) is active.
    /// With a condition, it must hold for one of those lanes. The focus
    /// moves to the (first) lane it stops for.
    fn breakpoint_at(&mut self, at: Position) -> Option<usize> {
        if !self.breakpoints.iter().any(|b| b.pcs.contains(&at.pc)) {
            return None;
        }
        let e = self.engine.as_ref()?;
        let fixed = self.fixed;
        let lanes: Vec<usize> = (0..e.warp_width())
            .filter(|&l| {
                e.lane(at.warp, l)
                    .is_some_and(|s| s.active && fixed.is_none_or(|t| s.dispatch_thread == t))
            })
            .collect();
        if lanes.is_empty() {
            return None;
        }
        let candidates: Vec<(usize, Option<Condition>)> = (self.breakpoints.iter().enumerate())
            .filter(|(_, b)| b.pcs.contains(&at.pc))
            .map(|(i, b)| (i, b.condition.clone()))
            .collect();
        let keep = self.focus;
        for (i, condition) in candidates {
            for &l in &lanes {
                self.focus = (at.warp, l);
                let holds = match &condition {
                    None => true,
                    Some(c) => self.evaluate(&c.expr).is_ok_and(|v| c.holds(&v)),
                };
                if holds {
                    return Some(i);
                }
            }
        }
        self.focus = keep;
        None
    }

    fn watch_changed(&mut self, by: Option<Position>) -> Option<StopReason> {
        for i in 0..self.watches.len() {
            let now = match self.evaluate(&self.watches[i].expr.clone()) {
                Ok(v) => v.to_string(),
                Err(e) => e.to_string(),
            };
            if now != self.watches[i].last {
                let old = std::mem::replace(&mut self.watches[i].last, now.clone());
                let expr = self.watches[i].expr.clone();
                return Some(StopReason::Watch(expr, old, now, by));
            }
        }
        None
    }

    /// Focus on the thread of a finding's second access (else its first)
    /// when it is in the group in progress.
    fn refocus_on_finding(&mut self, i: usize) {
        let Some(e) = &self.engine else { return };
        let Some(f) = e.findings().get(i) else { return };
        let a = f.second.as_ref().unwrap_or(&f.first);
        if e.cursor().is_some_and(|p| p.group == a.thread.group) {
            if let Some(focus) = e.lane_of(a.thread.index) {
                self.focus = focus;
                return;
            }
        }
        self.refocus();
    }

    /// The findings so far (empty without `break_on_findings`).
    pub fn findings(&self) -> &[Finding] {
        match &self.engine {
            Some(e) => e.findings(),
            None => &self.final_findings,
        }
    }

    /// The dispatch ended: the job's later steps run.
    fn finish_dispatch(&mut self) -> StopReason {
        if let Some(e) = self.engine.take() {
            // the checker's dispatch ends: what it finds only then
            // (across groups) is a stop of its own
            if let Some(c) = e.finish() {
                self.final_findings = c.findings().to_vec();
                if self.final_findings.len() > self.findings_seen {
                    let i = self.findings_seen;
                    self.findings_seen = self.final_findings.len();
                    return StopReason::Finding(i);
                }
            }
        }
        let Some(job) = self.job else {
            self.ended = Some("finished".into());
            return StopReason::Finished;
        };
        let options = DispatchOptions::default();
        let (reports, error) = job.run_range(&options, self.step + 1..job.step_count());
        self.reports.extend(reports);
        match error {
            Some(e) => {
                let text = format!("a later step failed: {e}");
                self.ended = Some(text.clone());
                StopReason::Stopped(text)
            }
            None => {
                self.ended = Some("finished".into());
                StopReason::Finished
            }
        }
    }

    fn end_reason(&self) -> StopReason {
        match self.ended.as_deref() {
            Some("finished") | None => StopReason::Finished,
            Some(t) => StopReason::Stopped(t.to_string()),
        }
    }

    /// The HLSL call stack of the focus thread, innermost first (empty
    /// without `/Zi` information).
    pub fn frames(&self) -> Vec<Frame> {
        let prog = self.program();
        let (Some(map), Some(pc)) = (prog.source_map.as_ref(), self.focus_pc()) else {
            return Vec::new();
        };
        prog.token_of(pc)
            .map_or_else(Vec::new, |t| map.frames_at(t))
    }

    /// The focus warp's next instruction.
    pub fn focus_pc(&self) -> Option<usize> {
        self.engine.as_ref()?.warp_pc(self.focus.0)
    }

    /// The source map, when the shader has `/Zi` information.
    pub fn source_map(&self) -> Option<&'j SourceMap> {
        self.program().source_map.as_ref()
    }
}

/// A breakpoint of `prog` ([`Session::add_breakpoint`] says what `spec`
/// may be).
///
/// # Errors
/// [`DebugError::Usage`] when it names no instruction, or a line of a
/// shader without `/Zi` debug information.
pub fn resolve_breakpoint(prog: &Program, spec: &str) -> Result<Breakpoint, DebugError> {
    let whole = spec.trim();
    let (spec, condition) = match whole.split_once(" if ") {
        Some((at, c)) => {
            let c = Condition::parse(c).ok_or_else(|| {
                DebugError::Usage(format!(
                    "`{whole}`: the condition wants EXPR OP NUMBER (OP: == != < <= > >=)"
                ))
            })?;
            (at.trim(), Some(c))
        }
        None => (whole, None),
    };
    let mut b = resolve_location(prog, spec)?;
    b.spec = whole.to_string();
    b.condition = condition;
    Ok(b)
}

/// [`resolve_breakpoint`] without a condition.
fn resolve_location(prog: &Program, spec: &str) -> Result<Breakpoint, DebugError> {
    if let Some(n) = spec.strip_prefix("pc").map(str::trim) {
        let pc: usize = n
            .parse()
            .map_err(|_| DebugError::Usage(format!("`{spec}`: pc N wants a number")))?;
        if pc >= prog.instruction_count() {
            return Err(DebugError::Usage(format!(
                "pc {pc}: the program has {} instructions",
                prog.instruction_count()
            )));
        }
        return Ok(Breakpoint {
            spec: spec.into(),
            line: None,
            pcs: BTreeSet::from([pc]),
            condition: None,
        });
    }
    let map = prog.source_map.as_ref().ok_or_else(|| {
        DebugError::Usage(format!(
            "`{spec}`: the shader has no HLSL lines (compile it with fxc /Zi); break at `pc N` instead"
        ))
    })?;
    let (file, line) = split_line_spec(spec, map);
    let (Some(file), Some(line)) = (file, line) else {
        let names: Vec<&str> = map.files.iter().map(|f| f.base_name()).collect();
        return Err(DebugError::Usage(format!(
            "`{spec}`: want FILE:LINE or LINE (files: {})",
            names.join(", ")
        )));
    };
    // the first line at or after `line` that starts instructions
    let starts = line_starts(prog, map, file);
    let (at, pcs) = starts
        .range(line..)
        .next()
        .map(|(l, p)| (*l, p.clone()))
        .ok_or_else(|| {
            DebugError::Usage(format!(
                "`{spec}`: no instruction comes from {}:{line} or a later line",
                map.files[file].base_name()
            ))
        })?;
    Ok(Breakpoint {
        spec: spec.into(),
        line: Some(at),
        pcs,
        condition: None,
    })
}

/// `FILE:LINE` or `LINE` as (file index, line).
fn split_line_spec(spec: &str, map: &SourceMap) -> (Option<usize>, Option<u32>) {
    match spec.rsplit_once(':') {
        Some((f, l)) => (map.file_named(f.trim()), l.trim().parse().ok()),
        // the entry point's file: the first file named
        None => ((!map.files.is_empty()).then_some(0), spec.parse().ok()),
    }
}

/// The instructions that start a run of each line of file `file`: an
/// instruction whose line (innermost) is that line, after one whose line
/// differs (or the first).
pub fn line_starts(
    prog: &Program,
    map: &SourceMap,
    file: usize,
) -> std::collections::BTreeMap<u32, BTreeSet<usize>> {
    let mut out: std::collections::BTreeMap<u32, BTreeSet<usize>> = Default::default();
    let mut prev = None;
    for pc in 0..prog.instruction_count() {
        let at = prog.token_of(pc).and_then(|t| map.line_at(t));
        if let Some(a) = at {
            if a.file == file && prev != at {
                out.entry(a.line).or_default().insert(pc);
            }
        }
        prev = at;
    }
    out
}

/// What a replay calls before each instruction: the engine and the count
/// of instructions run so far ([`Session::step_back_line`]).
type ReplayWatch<'w, 'j> = dyn FnMut(&Debugger<'j>, u64) + 'w;

/// The instructions a warp runs at a time in [`Session::resume`] when
/// nothing can stop it between two of them.
const RESUME_QUANTUM: u32 = 1 << 16;

/// The group of thread `t` (`SV_DispatchThreadID`) in a dispatch of
/// `groups` groups of `tg` threads, and its linear index (x fastest).
///
/// # Errors
/// [`DebugError::Usage`] for a thread outside the dispatch.
fn group_of_thread(
    t: [u32; 3],
    tg: [u32; 3],
    groups: [u32; 3],
) -> Result<([u32; 3], u64), DebugError> {
    let g: [u32; 3] = std::array::from_fn(|c| t[c] / tg[c].max(1));
    if (0..3).any(|c| g[c] >= groups[c]) {
        return Err(DebugError::Usage(format!(
            "thread {} is outside the dispatch ({} groups of {} threads)",
            ids(t),
            ids(groups),
            ids(tg)
        )));
    }
    let [x, y, _] = groups.map(u64::from);
    Ok((
        g,
        u64::from(g[0]) + x * (u64::from(g[1]) + y * u64::from(g[2])),
    ))
}

/// `x y z` (for messages).
pub(crate) fn ids(v: [u32; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}
