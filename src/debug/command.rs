//! The debugger's command language (`sm5sim debug`): one command per line,
//! from a terminal or a script on stdin; each command's output is text
//! ([`run_command`]). `help` lists the commands.

use super::{ids, LineStep, Session, StopReason};
use sim_core::front::disasm::instruction_text;

/// The commands, as `help` prints them.
pub const COMMANDS: &str = "\
break FILE:LINE | LINE | pc N   stop before that HLSL line or instruction (b)
delete [N]                      remove breakpoint N (all without N)
continue                        run to the next stop (c)
step [warp]                     to the next HLSL line of the focus thread (or of any lane of
                                its warp), into inlined calls (s)
next [warp]                     to the next HLSL line, over inlined calls (n)
finish                          out of the current inlined function
stepi                           one instruction of the warp at the cursor (si)
back [N]                        go back N instructions (1 without N), by running the dispatch again
back line                       go back to where the focus thread began its line (or the line before)
print EXPR                      a value of the focus thread (p): an HLSL local (cx, dtid.x),
                                r0.x, x0[2], vThreadID, TGSM (s[3], g0[3]), a resource (name[5])
locals                          the HLSL locals and parameters of the focus thread
lanes [EXPR]                    every lane of the focus warp, with EXPR's value in each
registers                       the temps of the focus thread
thread X,Y,Z                    focus on that SV_DispatchThreadID (in the group in progress)
goto X,Y,Z                      run, with no stops, to the start of that thread's (later) group
lane N | warp N [lane M]        focus on a lane of the focus warp, or of warp N
where                           the position, the HLSL call stack and the instruction (bt)
watch EXPR                      stop when EXPR's value changes
who WORD                        who last wrote a TGSM or UAV word (s[3], g0[3], name[5], u0[5])
findings                        the checker's findings so far (with --break race)
list                            the HLSL lines around the focus thread's line
help, quit";

/// The outcome of one command: its text, and whether the session is over
/// (`quit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// What to print.
    pub text: String,
    /// `quit` was given.
    pub quit: bool,
}

/// Run one command line on `session` and return what it prints.
pub fn run_command(session: &mut Session<'_>, line: &str) -> Output {
    let line = line.trim();
    let (cmd, arg) = match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    };
    let text = match cmd {
        "" => String::new(),
        "quit" | "q" | "exit" => {
            return Output {
                text: String::new(),
                quit: true,
            }
        }
        "help" | "h" => COMMANDS.to_string(),
        "break" | "b" => match session.add_breakpoint(arg) {
            Ok(n) => {
                let b = &session.breakpoints()[n];
                let pcs: Vec<String> = b.pcs.iter().map(|p| p.to_string()).collect();
                let line = match b.line {
                    Some(l) => format!(" (line {l})"),
                    None => String::new(),
                };
                format!("breakpoint {n} at {}{line}: pc {}", b.spec, pcs.join(", "))
            }
            Err(e) => format!("error: {e}"),
        },
        "delete" | "d" => {
            if arg.is_empty() {
                session.breakpoints.clear();
                "deleted every breakpoint".into()
            } else {
                match arg.parse::<usize>() {
                    Ok(n) if n < session.breakpoints.len() => {
                        session.breakpoints.remove(n);
                        format!("deleted breakpoint {n}")
                    }
                    _ => format!("error: no breakpoint {arg}"),
                }
            }
        }
        "continue" | "c" => {
            let r = session.resume();
            stop_text(session, &r)
        }
        "step" | "s" | "next" | "n" if arg.is_empty() || arg == "warp" => {
            let how = match cmd {
                "step" | "s" => LineStep::Into,
                _ => LineStep::Over,
            };
            let r = session.step_line_of(how, arg == "warp");
            stop_text(session, &r)
        }
        "finish" => {
            let r = session.step_line(LineStep::Out);
            stop_text(session, &r)
        }
        "stepi" | "si" => {
            let r = session.step_instruction();
            stop_text(session, &r)
        }
        "back" if arg == "line" => match session.step_back_line() {
            Ok(r) => stop_text(session, &r).replacen("stepped", "went back", 1),
            Err(e) => format!("error: {e}"),
        },
        "back" => {
            let n = if arg.is_empty() { Ok(1) } else { arg.parse::<u64>() };
            match n {
                Ok(n) => match session.step_back(n) {
                    Ok(r) => stop_text(session, &r).replacen("stepped", "went back", 1),
                    Err(e) => format!("error: {e}"),
                },
                Err(_) => "error: back N wants a number of instructions".into(),
            }
        }
        "print" | "p" => match session.evaluate(arg) {
            Ok(v) => format!("{arg} = {v}"),
            Err(e) => format!("error: {e}"),
        },
        "locals" => {
            let locals = session.locals();
            if locals.is_empty() {
                "no HLSL locals here (the shader has no /Zi information, or none is in scope)"
                    .into()
            } else {
                let lines: Vec<String> = locals.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                lines.join("\n")
            }
        }
        "lanes" => lanes_text(session, arg),
        "registers" | "regs" => registers_text(session),
        "thread" | "t" => match thread_arg(arg) {
            Some(t) => select(session, t),
            None => "error: thread X,Y,Z (an SV_DispatchThreadID)".into(),
        },
        "goto" => match thread_arg(arg) {
            Some(t) => match session.run_to_thread(t) {
                Ok(r) => stop_text(session, &r).replacen("stepped", "ran to its group", 1),
                Err(e) => format!("error: {e}"),
            },
            None => "error: goto X,Y,Z (an SV_DispatchThreadID)".into(),
        },
        "lane" | "warp" => {
            let nums: Vec<&str> = arg.split_whitespace().collect();
            let parsed = match (cmd, &nums[..]) {
                ("lane", [l]) => l.parse().ok().map(|l| (None, l)),
                ("warp", [w]) => w.parse().ok().map(|w| (Some(w), 0)),
                ("warp", [w, "lane", l]) => w
                    .parse()
                    .ok()
                    .zip(l.parse().ok())
                    .map(|(w, l)| (Some(w), l)),
                _ => None,
            };
            match parsed {
                Some((w, l)) => match session.select_lane(w, l) {
                    Ok(()) => position_text(session),
                    Err(e) => format!("error: {e}"),
                },
                None => "error: lane N, warp N, or warp N lane M".into(),
            }
        }
        "where" | "bt" => where_text(session),
        "watch" => match session.add_watch(arg) {
            Ok(v) => format!("watching {arg} = {v}"),
            Err(e) => format!("error: {e}"),
        },
        "who" => match session.last_write(arg) {
            Ok(Some(w)) => {
                let prog = session.program();
                let tg = prog.thread_group;
                let t = [w.thread % tg[0], w.thread / tg[0] % tg[1], w.thread / (tg[0] * tg[1])];
                let line = prog.hlsl_line(w.pc);
                let line = line.map_or(String::new(), |(f, l)| format!(" ({f}:{l})"));
                let what = match w.value {
                    Some(v) => format!("stored {v:#x}"),
                    None => "an atomic".to_string(),
                };
                format!(
                    "{arg}: last written by group {} thread {} [{}] at pc {}{line}: {}; {what}",
                    ids(w.group),
                    ids(t),
                    w.thread,
                    w.pc,
                    instruction_at(session, w.pc as usize)
                )
            }
            Ok(None) => format!(
                "{arg}: not written since the session's first stepped group began (groups skipped with --thread are not recorded)"
            ),
            Err(e) => format!("error: {e}"),
        },
        "findings" => {
            let f: Vec<String> = session.findings().iter().map(|f| f.to_string()).collect();
            if f.is_empty() {
                "no findings (the checker runs with --break race)".into()
            } else {
                f.join("\n")
            }
        }
        "list" | "l" => list_text(session),
        other => format!("error: unknown command `{other}` (help lists them)"),
    };
    Output { text, quit: false }
}

/// `X,Y,Z` (or `X Y Z`; missing components 0).
fn thread_arg(arg: &str) -> Option<[u32; 3]> {
    let parts: Vec<Option<u32>> = (arg.split([',', ' ']))
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse().ok())
        .collect();
    match parts[..] {
        [Some(x)] => Some([x, 0, 0]),
        [Some(x), Some(y)] => Some([x, y, 0]),
        [Some(x), Some(y), Some(z)] => Some([x, y, z]),
        _ => None,
    }
}

fn select(session: &mut Session<'_>, t: [u32; 3]) -> String {
    match session.select_thread(t) {
        Ok(()) => position_text(session),
        Err(e) => format!("error: {e}"),
    }
}

/// What a stop prints: why, then where.
pub fn stop_text(session: &Session<'_>, reason: &StopReason) -> String {
    let why = match reason {
        StopReason::Entry => "stopped at the dispatch's start".to_string(),
        StopReason::Breakpoint(n, spec) => format!("stopped at breakpoint {n} ({spec})"),
        StopReason::Step => "stepped".to_string(),
        StopReason::DebugBreak => "stopped after a debug_break".to_string(),
        StopReason::Errorf => "stopped after an errorf".to_string(),
        StopReason::Finding(i) => {
            let f = &session.findings()[*i];
            format!("stopped at a checker finding:\n{f}")
        }
        StopReason::Watch(expr, old, new, Some(by)) => {
            let line = session.program().hlsl_line(by.pc as u32);
            let line = line.map_or(String::new(), |(f, l)| format!(" ({f}:{l})"));
            format!(
                "stopped: {expr} changed from {old} to {new}, by warp {} at pc {}{line}: {}",
                by.warp,
                by.pc,
                instruction_at(session, by.pc)
            )
        }
        StopReason::Watch(expr, old, new, None) => {
            format!("stopped: {expr} changed from {old} to {new} as a group ended (the next starts afresh)")
        }
        StopReason::ThreadExited => "the focus thread returned".to_string(),
        StopReason::Stopped(why) => return format!("the dispatch stopped: {why}"),
        StopReason::Finished => {
            return "the dispatch ran to its end (and the job's later steps ran)".to_string()
        }
    };
    format!("{why}\n{}", position_text(session))
}

/// `group (0, 0, 0) warp 0 lane 3 thread (3, 0, 0) pc 12 mandelbrot.hlsl:17` and the line's text.
pub fn position_text(session: &Session<'_>) -> String {
    let Some(e) = session.engine() else {
        return "the dispatch is not running".into();
    };
    let Some(at) = e.cursor() else {
        return "the dispatch has ended".into();
    };
    let (warp, lane) = session.focus();
    let state = e.lane(warp, lane);
    let thread = state.map_or("?".into(), |s| ids(s.dispatch_thread));
    let active = match state {
        Some(s) if s.active => "",
        Some(s) if s.alive => " (inactive here)",
        _ => " (returned)",
    };
    let pc = e.warp_pc(warp).unwrap_or(at.pc);
    let mut out = format!(
        "group {} warp {warp} lane {lane} thread {thread}{active} pc {pc}",
        ids(at.group)
    );
    if let Some(f) = session.frames().first() {
        let map = session.source_map().expect("frames come from the map");
        let text = map.files[f.at.file]
            .line_text(f.at.line)
            .unwrap_or("")
            .trim();
        out += &format!(" {}\n  {:>4} | {text}", map.describe(f.at), f.at.line);
    } else {
        out += &format!("\n  {}", instruction_at(session, pc));
    }
    out
}

/// The instruction at `pc` as the disassembler prints it.
fn instruction_at(session: &Session<'_>, pc: usize) -> String {
    let prog = session.program();
    let Some(token) = prog.token_of(pc) else {
        return String::new();
    };
    (prog.decoded.instructions.iter())
        .find(|i| i.offset == token)
        .map_or_else(String::new, |i| instruction_text(&prog.decoded, i))
}

fn where_text(session: &Session<'_>) -> String {
    let mut out = position_text(session);
    let Some(pc) = session.focus_pc() else {
        return out;
    };
    if let Some(map) = session.source_map() {
        for (k, f) in session.frames().iter().enumerate() {
            out += &format!("\n#{k} {} at {}", f.function, map.describe(f.at));
        }
    }
    out += &format!("\npc {pc}: {}", instruction_at(session, pc));
    out
}

fn lanes_text(session: &mut Session<'_>, expr: &str) -> String {
    let Some(e) = session.engine() else {
        return "the dispatch is not running".into();
    };
    let (warp, lane) = session.focus();
    let width = e.warp_width();
    let states: Vec<_> = (0..width)
        .filter_map(|l| e.lane(warp, l).map(|s| (l, s)))
        .collect();
    let mut out = format!("warp {warp}: lane, thread (SV_DispatchThreadID), state");
    if !expr.is_empty() {
        out += &format!(", {expr}");
    }
    for (l, s) in states {
        if !s.exists {
            continue;
        }
        let state = match (s.active, s.alive) {
            (true, _) => "active",
            (false, true) => "inactive",
            _ => "returned",
        };
        let mark = if l == lane { '*' } else { ' ' };
        out += &format!("\n{mark}{l:>3} {} {state}", ids(s.dispatch_thread));
        if !expr.is_empty() {
            match session.evaluate_in(warp, l, expr) {
                Ok(v) => out += &format!(" {v}"),
                Err(e) => return format!("error: {e}"),
            }
        }
    }
    out
}

fn registers_text(session: &Session<'_>) -> String {
    let temps = session.program().temps;
    let mut lines = Vec::new();
    for r in 0..temps {
        match session.evaluate(&format!("r{r}")) {
            Ok(v) => lines.push(format!("r{r} = {v}")),
            Err(e) => return format!("error: {e}"),
        }
    }
    if lines.is_empty() {
        "no temps".into()
    } else {
        lines.join("\n")
    }
}

fn list_text(session: &Session<'_>) -> String {
    let (Some(map), Some(f)) = (session.source_map(), session.frames().first().cloned()) else {
        return "no HLSL lines here".into();
    };
    let file = &map.files[f.at.file];
    let from = f.at.line.saturating_sub(4).max(1);
    let lines: Vec<String> = (from..f.at.line + 5)
        .filter_map(|l| {
            let text = file.line_text(l)?;
            let mark = if l == f.at.line { '>' } else { ' ' };
            Some(format!("{mark}{l:>4} | {text}"))
        })
        .collect();
    lines.join("\n")
}
