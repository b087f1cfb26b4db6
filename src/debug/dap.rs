//! `sm5sim dap`: a Debug Adapter Protocol server over stdio (the protocol:
//! <https://microsoft.github.io/debug-adapter-protocol/specification>),
//! so that an editor (VS Code, or any DAP client) steps through a shader
//! with the same [`Session`] `sm5sim debug` drives.
//!
//! Messages are framed as the protocol's base protocol says: a
//! `Content-Length: N` header, a blank line, then N bytes of JSON. The
//! requests served: `initialize`, `launch` (arguments: `program`, the job
//! file; `step`, `thread` (`[x, y, z]` or `"x,y,z"`), `warpWidth`,
//! `breakOnRace`, `stopOnEntry`, `maxInstructions`), `setBreakpoints` (by
//! HLSL line, with a `condition` `EXPR OP NUMBER`), `setExceptionBreakpoints` (filter `race`: stop at each new
//! checker finding), `configurationDone` (the dispatch starts then),
//! `threads` (the threads of the group in progress, id = `SV_GroupIndex` +
//! 1), `stackTrace` (the HLSL call stack), `scopes` and `variables`
//! (Locals, Registers, Groupshared, Lanes), `source` (the HLSL text the
//! debug information carries), `evaluate` ([`Session::evaluate`]),
//! `continue`, `next`, `stepIn`, `stepOut`, `stepBack` (to where the
//! thread began its HLSL line, by running the dispatch again), `disconnect`. Others are
//! answered with `success: false` and a message.
//!
//! The messages are written with `serde_json` values: the DAP types crates
//! looked at did not fit (see `docs/debugging.md`).

use super::{resolve_breakpoint, DebugError, LineStep, Session, SessionOptions, StopReason};
use crate::job::Job;
use serde_json::{json, Value as Json};
use sim_core::front::debug_info::SourceMap;
use sim_core::LoadOptions;
use sim_sched::DispatchOptions;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Variables references of the scopes.
const LOCALS: i64 = 1;
const REGISTERS: i64 = 2;
const GROUPSHARED: i64 = 3;
const LANES: i64 = 4;

/// The message channel: framed JSON in, framed JSON out, with the
/// adapter's sequence numbers.
struct Channel<R, W> {
    input: R,
    output: W,
    seq: i64,
}

impl<R: BufRead, W: Write> Channel<R, W> {
    /// The next message, or None at the end of the input.
    fn read(&mut self) -> std::io::Result<Option<Json>> {
        let mut length = None;
        loop {
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            let line = line.trim_end();
            if line.is_empty() {
                if length.is_some() {
                    break;
                }
                continue;
            }
            if let Some((k, v)) = line.split_once(':') {
                if k.trim().eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse::<usize>().ok();
                }
            }
        }
        let mut body = vec![0; length.unwrap_or(0)];
        self.input.read_exact(&mut body)?;
        serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    fn send(&mut self, mut message: Json) -> std::io::Result<()> {
        self.seq += 1;
        message["seq"] = json!(self.seq);
        let text = message.to_string();
        write!(self.output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
        self.output.flush()
    }

    fn respond(&mut self, request: &Json, body: Json) -> std::io::Result<()> {
        self.send(json!({
            "type": "response",
            "request_seq": request["seq"],
            "command": request["command"],
            "success": true,
            "body": body,
        }))
    }

    fn refuse(&mut self, request: &Json, message: &str) -> std::io::Result<()> {
        self.send(json!({
            "type": "response",
            "request_seq": request["seq"],
            "command": request["command"],
            "success": false,
            "message": message,
            "body": { "error": { "id": 1, "format": message } },
        }))
    }

    fn event(&mut self, event: &str, body: Json) -> std::io::Result<()> {
        self.send(json!({ "type": "event", "event": event, "body": body }))
    }
}

/// What `launch` asked for.
#[derive(Debug, Default)]
struct Launch {
    options: SessionOptions,
    stop_on_entry: bool,
}

fn launch_options(args: &Json) -> Result<(PathBuf, Launch), String> {
    let program = args["program"]
        .as_str()
        .ok_or("launch: `program` (the job file) is missing")?;
    let thread = match &args["thread"] {
        Json::Null => None,
        Json::Array(a) if a.len() <= 3 && !a.is_empty() => {
            let mut t = [0u32; 3];
            for (o, v) in t.iter_mut().zip(a) {
                *o = v
                    .as_u64()
                    .and_then(|v| u32::try_from(v).ok())
                    .ok_or("launch: `thread` wants [x, y, z]")?;
            }
            Some(t)
        }
        Json::String(s) => {
            let parts: Result<Vec<u32>, _> = s.split(',').map(|p| p.trim().parse()).collect();
            match parts.as_deref() {
                Ok([x]) => Some([*x, 0, 0]),
                Ok([x, y]) => Some([*x, *y, 0]),
                Ok([x, y, z]) => Some([*x, *y, *z]),
                _ => return Err("launch: `thread` wants \"x,y,z\"".into()),
            }
        }
        _ => return Err("launch: `thread` wants [x, y, z]".into()),
    };
    let number = |k: &str| args[k].as_u64();
    Ok((
        PathBuf::from(program),
        Launch {
            options: SessionOptions {
                step: number("step").map(|s| s as usize),
                thread,
                warp_width: number("warpWidth").map(|w| w as usize),
                break_on_findings: args["breakOnRace"].as_bool().unwrap_or(false),
                max_warp_instructions: number("maxInstructions"),
            },
            stop_on_entry: args["stopOnEntry"].as_bool().unwrap_or(false),
        },
    ))
}

/// Serve one debug session: messages from `input`, replies to `output`,
/// until `disconnect` or the end of the input.
///
/// # Errors
/// An I/O error of the channel, or a message that is not JSON.
pub fn serve(input: impl BufRead, output: impl Write) -> std::io::Result<()> {
    let mut io = Channel {
        input,
        output,
        seq: 0,
    };
    // before `launch`: the breakpoints asked for, by file
    let mut pending: BTreeMap<String, Vec<LineBreak>> = BTreeMap::new();
    let mut race = false;
    while let Some(request) = io.read()? {
        let args = &request["arguments"];
        match request["command"].as_str().unwrap_or("") {
            "initialize" => {
                io.respond(&request, capabilities())?;
                io.event("initialized", json!({}))?;
            }
            "setBreakpoints" => {
                let (file, lines) = breakpoint_args(args);
                let body: Vec<Json> = (lines.iter())
                    .map(|(l, _)| json!({ "verified": false, "line": l, "message": "the job is not launched yet" }))
                    .collect();
                pending.insert(file, lines);
                io.respond(&request, json!({ "breakpoints": body }))?;
            }
            "setExceptionBreakpoints" => {
                race = exception_filters(args);
                io.respond(&request, json!({}))?;
            }
            "launch" => {
                let (path, mut launch) = match launch_options(args) {
                    Ok(l) => l,
                    Err(e) => {
                        io.refuse(&request, &e)?;
                        continue;
                    }
                };
                launch.options.break_on_findings |= race;
                let job = match Job::load(&path, &LoadOptions::default()) {
                    Ok(j) => j,
                    Err(e) => {
                        io.refuse(&request, &e.to_string())?;
                        continue;
                    }
                };
                io.respond(&request, json!({}))?;
                return Debuggee {
                    job: &job,
                    launch,
                    pending,
                    session: None,
                    cwd: std::env::current_dir().unwrap_or_default(),
                }
                .serve(&mut io);
            }
            "disconnect" => {
                io.respond(&request, json!({}))?;
                return Ok(());
            }
            other => io.refuse(&request, &format!("`{other}` before `launch`"))?,
        }
    }
    Ok(())
}

fn capabilities() -> Json {
    json!({
        "supportsConfigurationDoneRequest": true,
        "supportsEvaluateForHovers": true,
        "supportsSteppingGranularity": false,
        "supportsStepBack": true,
        "supportsConditionalBreakpoints": true,
        "exceptionBreakpointFilters": [{
            "filter": "race",
            "label": "Checker findings (races, out-of-bounds, barriers)",
            "default": false,
        }],
    })
}

/// A requested breakpoint: its line and condition.
type LineBreak = (i64, Option<String>);

/// (the source's path or name, the lines and conditions) of
/// `setBreakpoints`.
fn breakpoint_args(args: &Json) -> (String, Vec<LineBreak>) {
    let source = &args["source"];
    let file = source["path"]
        .as_str()
        .or_else(|| source["name"].as_str())
        .unwrap_or("")
        .to_string();
    let mut lines: Vec<LineBreak> = args["breakpoints"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|b| {
                    let c = b["condition"].as_str().filter(|c| !c.trim().is_empty());
                    Some((b["line"].as_i64()?, c.map(str::to_string)))
                })
                .collect()
        })
        .unwrap_or_default();
    if lines.is_empty() {
        if let Some(a) = args["lines"].as_array() {
            lines = a
                .iter()
                .filter_map(Json::as_i64)
                .map(|l| (l, None))
                .collect();
        }
    }
    (file, lines)
}

fn exception_filters(args: &Json) -> bool {
    args["filters"]
        .as_array()
        .is_some_and(|f| f.iter().any(|f| f.as_str() == Some("race")))
}

/// A launched job: its session once `configurationDone` starts it.
struct Debuggee<'j> {
    job: &'j Job,
    launch: Launch,
    pending: BTreeMap<String, Vec<LineBreak>>,
    session: Option<Session<'j>>,
    cwd: PathBuf,
}

impl<'j> Debuggee<'j> {
    fn serve<R: BufRead, W: Write>(mut self, io: &mut Channel<R, W>) -> std::io::Result<()> {
        while let Some(request) = io.read()? {
            let args = request["arguments"].clone();
            let command = request["command"].as_str().unwrap_or("").to_string();
            let outcome = self.handle(io, &request, &command, &args);
            match outcome {
                Ok(Handled::Done) => {}
                Ok(Handled::Quit) => return Ok(()),
                Err(Failure::Io(e)) => return Err(e),
                Err(Failure::Refused(m)) => io.refuse(&request, &m)?,
            }
        }
        Ok(())
    }

    fn handle<R: BufRead, W: Write>(
        &mut self,
        io: &mut Channel<R, W>,
        request: &Json,
        command: &str,
        args: &Json,
    ) -> Result<Handled, Failure> {
        match command {
            "setBreakpoints" => {
                let (file, lines) = breakpoint_args(args);
                let body = self.set_breakpoints(&file, &lines);
                io.respond(request, json!({ "breakpoints": body }))?;
            }
            "setExceptionBreakpoints" => {
                if self.session.is_none() {
                    self.launch.options.break_on_findings |= exception_filters(args);
                }
                io.respond(request, json!({}))?;
            }
            "configurationDone" => {
                let session =
                    Session::start(self.job, &self.launch.options, &DispatchOptions::default())
                        .map_err(|e| Failure::Refused(e.to_string()))?;
                self.session = Some(session);
                let pending = std::mem::take(&mut self.pending);
                for (file, lines) in pending {
                    self.set_breakpoints(&file, &lines);
                }
                io.respond(request, json!({}))?;
                if self.launch.stop_on_entry {
                    self.report(io, StopReason::Entry)?;
                } else {
                    let r = self.session_mut()?.resume();
                    self.report(io, r)?;
                }
            }
            "threads" => {
                let threads = self.threads();
                io.respond(request, json!({ "threads": threads }))?;
            }
            "stackTrace" => {
                self.focus_thread(args)?;
                let frames = self.stack_frames();
                let n = frames.len();
                io.respond(request, json!({ "stackFrames": frames, "totalFrames": n }))?;
            }
            "scopes" => {
                let scope = |name: &str, r: i64| json!({ "name": name, "variablesReference": r, "expensive": false });
                io.respond(
                    request,
                    json!({ "scopes": [
                        scope("Locals", LOCALS),
                        scope("Registers", REGISTERS),
                        scope("Groupshared", GROUPSHARED),
                        scope("Lanes", LANES),
                    ]}),
                )?;
            }
            "variables" => {
                let vars = self.variables(args["variablesReference"].as_i64().unwrap_or(0))?;
                io.respond(request, json!({ "variables": vars }))?;
            }
            "evaluate" => {
                let expr = args["expression"].as_str().unwrap_or("");
                let v = self
                    .session()?
                    .evaluate(expr)
                    .map_err(|e| Failure::Refused(e.to_string()))?;
                io.respond(
                    request,
                    json!({ "result": v.to_string(), "variablesReference": 0 }),
                )?;
            }
            "source" => {
                let r = args["sourceReference"]
                    .as_i64()
                    .or_else(|| args["source"]["sourceReference"].as_i64())
                    .unwrap_or(0);
                let text = self
                    .source_map()
                    .and_then(|m| m.files.get((r - 1).max(0) as usize))
                    .and_then(|f| f.text.clone())
                    .ok_or_else(|| Failure::Refused(format!("no source {r}")))?;
                io.respond(request, json!({ "content": text }))?;
            }
            "stepBack" => {
                self.focus_thread(args)?;
                let r = self.session_mut()?.step_back_line()?;
                io.respond(request, json!({}))?;
                self.report(io, r)?;
            }
            "continue" | "next" | "stepIn" | "stepOut" => {
                self.focus_thread(args)?;
                let session = self.session_mut()?;
                if command == "continue" {
                    io.respond(request, json!({ "allThreadsContinued": true }))?;
                } else {
                    io.respond(request, json!({}))?;
                }
                let r = match command {
                    "continue" => session.resume(),
                    "next" => session.step_line(LineStep::Over),
                    "stepIn" => session.step_line(LineStep::Into),
                    _ => session.step_line(LineStep::Out),
                };
                self.report(io, r)?;
            }
            "disconnect" | "terminate" => {
                io.respond(request, json!({}))?;
                return Ok(Handled::Quit);
            }
            other => return Err(Failure::Refused(format!("`{other}` is not supported"))),
        }
        Ok(Handled::Done)
    }

    fn session(&self) -> Result<&Session<'j>, Failure> {
        self.session.as_ref().ok_or_else(|| {
            Failure::Refused("the dispatch has not started (configurationDone)".into())
        })
    }

    fn session_mut(&mut self) -> Result<&mut Session<'j>, Failure> {
        self.session.as_mut().ok_or_else(|| {
            Failure::Refused("the dispatch has not started (configurationDone)".into())
        })
    }

    /// The debugged step's program.
    fn program(&self) -> Option<&'j sim_core::Program> {
        let step = match self.launch.options.step {
            Some(s) => s,
            None => (0..self.job.step_count())
                .find(|&s| matches!(self.job.dispatch_step(s), Ok(Some(_))))?,
        };
        let d = self.job.dispatch_step(step).ok()??;
        Some(d.kernel.shader().program())
    }

    fn source_map(&self) -> Option<&'j SourceMap> {
        self.program()?.source_map.as_ref()
    }

    /// Replace the breakpoints of `file` with `lines`; each one's
    /// `Breakpoint` object.
    fn set_breakpoints(&mut self, file: &str, lines: &[LineBreak]) -> Vec<Json> {
        let base = Path::new(file)
            .file_name()
            .map_or(file.to_string(), |b| b.to_string_lossy().into_owned());
        let Some(program) = self.program() else {
            return Vec::new();
        };
        if let Some(s) = self.session.as_mut() {
            s.clear_breakpoints_in(Some(&base));
        } else {
            self.pending.insert(file.to_string(), lines.to_vec());
        }
        lines
            .iter()
            .map(|(l, condition)| {
                let l = *l;
                let spec = match condition {
                    Some(c) => format!("{base}:{l} if {c}"),
                    None => format!("{base}:{l}"),
                };
                let resolved = resolve_breakpoint(program, &spec);
                if let (Ok(_), Some(s)) = (&resolved, self.session.as_mut()) {
                    // (resolved just now: it cannot fail)
                    let _ = s.add_breakpoint(&spec);
                }
                match resolved {
                    Ok(b) => json!({ "verified": true, "line": b.line.map_or(l, i64::from) }),
                    Err(e) => json!({ "verified": false, "line": l, "message": e.to_string() }),
                }
            })
            .collect()
    }

    /// Focus on the `threadId` of a request (`SV_GroupIndex` + 1).
    fn focus_thread(&mut self, args: &Json) -> Result<(), Failure> {
        let Some(id) = args["threadId"].as_i64() else {
            return Ok(());
        };
        let Some(session) = self.session.as_mut() else {
            return Ok(());
        };
        let Some(e) = session.engine() else {
            return Ok(());
        };
        let index =
            u32::try_from(id - 1).map_err(|_| Failure::Refused(format!("no thread {id}")))?;
        let (warp, lane) = e
            .lane_of(index)
            .ok_or_else(|| Failure::Refused(format!("no thread {id} in the group")))?;
        if session.focus() != (warp, lane) {
            session
                .select_lane(Some(warp), lane)
                .map_err(|e| Failure::Refused(e.to_string()))?;
        }
        Ok(())
    }

    fn threads(&self) -> Vec<Json> {
        let Some(e) = self.session.as_ref().and_then(|s| s.engine()) else {
            return vec![json!({ "id": 1, "name": "(not running)" })];
        };
        let mut out = Vec::new();
        for warp in 0..e.warp_count() {
            for lane in 0..e.warp_width() {
                let Some(s) = e.lane(warp, lane).filter(|s| s.exists) else {
                    continue;
                };
                let t = s.dispatch_thread;
                out.push((
                    s.index,
                    json!({
                        "id": i64::from(s.index) + 1,
                        "name": format!("thread ({}, {}, {}) warp {warp} lane {lane}", t[0], t[1], t[2]),
                    }),
                ));
            }
        }
        out.sort_by_key(|(i, _)| *i);
        out.into_iter().map(|(_, j)| j).collect()
    }

    /// The DAP `Source` of file `file` of the map: a local file when one is
    /// found (the recorded name, or its trailing parts under the working or
    /// the job's directory), else the text the debug information carries,
    /// by reference.
    fn source(&self, map: &SourceMap, file: usize) -> Json {
        let f = &map.files[file];
        let name = f.base_name().to_string();
        let parts: Vec<&str> = f
            .name
            .split(['\\', '/'])
            .filter(|p| !p.is_empty())
            .collect();
        let job_dir = self
            .job
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let found = (0..parts.len()).find_map(|k| {
            let tail: PathBuf = parts[k..].iter().collect();
            [self.cwd.join(&tail), job_dir.join(&tail)]
                .into_iter()
                .find(|p| p.is_file())
        });
        match found {
            Some(p) => json!({ "name": name, "path": p.canonicalize().unwrap_or(p) }),
            None => json!({ "name": name, "sourceReference": file + 1 }),
        }
    }

    fn stack_frames(&self) -> Vec<Json> {
        let Some(session) = self.session.as_ref() else {
            return Vec::new();
        };
        let frames = session.frames();
        match session.source_map() {
            Some(map) if !frames.is_empty() => frames
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    json!({
                        "id": k,
                        "name": f.function,
                        "source": self.source(map, f.at.file),
                        "line": f.at.line,
                        "column": 1,
                    })
                })
                .collect(),
            _ => {
                let pc = session.focus_pc().unwrap_or(0);
                vec![json!({ "id": 0, "name": format!("pc {pc}"), "line": 0, "column": 0 })]
            }
        }
    }

    fn variables(&mut self, reference: i64) -> Result<Vec<Json>, Failure> {
        let session = self.session()?;
        let var = |name: String, value: String| json!({ "name": name, "value": value, "variablesReference": 0 });
        let out = match reference {
            LOCALS => (session.locals().into_iter())
                .map(|(n, v)| var(n, v.to_string()))
                .collect(),
            REGISTERS => (0..session.program().temps)
                .filter_map(|r| {
                    let v = session.evaluate(&format!("r{r}")).ok()?;
                    Some(var(format!("r{r}"), v.to_string()))
                })
                .collect(),
            GROUPSHARED => {
                let Some(e) = session.engine() else {
                    return Ok(Vec::new());
                };
                let named: Vec<(String, u32, u32)> = match session.source_map() {
                    Some(m) if !m.groupshared.is_empty() => (m.groupshared.iter())
                        .map(|v| (v.name.clone(), v.slot, v.offset / 4))
                        .collect(),
                    _ => (0..16).map(|g| (format!("g{g}"), g, 0)).collect(),
                };
                named
                    .into_iter()
                    .filter_map(|(name, slot, first)| {
                        let (_, words) = e.tgsm().region(slot)?;
                        let shown: Vec<String> = (words.iter().skip(first as usize).take(64))
                            .map(|w| w.to_string())
                            .collect();
                        let more = if words.len() > first as usize + 64 {
                            ", …"
                        } else {
                            ""
                        };
                        Some(var(name, format!("[{}{more}]", shown.join(", "))))
                    })
                    .collect()
            }
            LANES => {
                let Some(e) = session.engine() else {
                    return Ok(Vec::new());
                };
                let (warp, _) = session.focus();
                (0..e.warp_width())
                    .filter_map(|l| {
                        let s = e.lane(warp, l).filter(|s| s.exists)?;
                        let state = match (s.active, s.alive) {
                            (true, _) => "active",
                            (false, true) => "inactive",
                            _ => "returned",
                        };
                        let t = s.dispatch_thread;
                        Some(var(
                            format!("lane {l}"),
                            format!("thread ({}, {}, {}) {state}", t[0], t[1], t[2]),
                        ))
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        Ok(out)
    }

    /// Tell the client where the session stopped (or that it ended).
    fn report<R: BufRead, W: Write>(
        &mut self,
        io: &mut Channel<R, W>,
        stop: StopReason,
    ) -> std::io::Result<()> {
        let Some(session) = self.session.as_ref() else {
            return Ok(());
        };
        let text = super::command::stop_text(session, &stop);
        let (reason, description) = match &stop {
            StopReason::Entry => ("entry", "the dispatch's start".to_string()),
            StopReason::Breakpoint(_, spec) => ("breakpoint", format!("breakpoint at {spec}")),
            StopReason::Step => ("step", "step".to_string()),
            StopReason::ThreadExited => ("step", "the thread returned".to_string()),
            StopReason::DebugBreak => ("exception", "debug_break".to_string()),
            StopReason::Errorf => ("exception", "errorf".to_string()),
            StopReason::Finding(i) => (
                "exception",
                session.findings()[*i]
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string(),
            ),
            StopReason::Watch(expr, ..) => ("data breakpoint", format!("{expr} changed")),
            StopReason::Stopped(_) | StopReason::Finished => {
                io.event(
                    "output",
                    json!({ "category": "console", "output": format!("{text}\n") }),
                )?;
                let passed = session.reports().iter().all(|r| r.passed());
                io.event("exited", json!({ "exitCode": if passed { 0 } else { 1 } }))?;
                return io.event("terminated", json!({}));
            }
        };
        let thread = session
            .engine()
            .and_then(|e| {
                let (w, l) = session.focus();
                e.lane(w, l)
            })
            .map_or(1, |s| i64::from(s.index) + 1);
        io.event(
            "stopped",
            json!({
                "reason": reason,
                "description": description,
                "text": text,
                "threadId": thread,
                "allThreadsStopped": true,
            }),
        )
    }
}

/// How a request went.
enum Handled {
    Done,
    Quit,
}

/// Why a request failed.
enum Failure {
    Io(std::io::Error),
    Refused(String),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<DebugError> for Failure {
    fn from(e: DebugError) -> Self {
        Failure::Refused(e.to_string())
    }
}
