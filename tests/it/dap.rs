//! `sm5sim dap`: the Debug Adapter Protocol server driven by a scripted
//! client (framed JSON messages in, responses and events out) on the fxc
//! `/Zi` builds of `tests/debug_info/`: a breakpoint on an HLSL line stops
//! there, the locals there are the shader's formula's, `next` follows HLSL
//! lines, another thread's stack shows its values, the race filter stops
//! at the racing access naming both threads, and the session ends with
//! `terminated`.

use crate::debug::mandelbrot;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Client {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
    seq: i64,
    /// events read while waiting for a response
    events: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sm5sim"))
            .arg("dap")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Client {
            child,
            to,
            from,
            seq: 0,
            events: Vec::new(),
        }
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.from.read_line(&mut line).unwrap() > 0,
                "the server closed"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (k, v) = line.split_once(':').unwrap();
            assert_eq!(k, "Content-Length");
            length = v.trim().parse().unwrap();
        }
        let mut body = vec![0; length];
        self.from.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// Send a request; its response (events before it are kept).
    fn request(&mut self, command: &str, arguments: Value) -> Value {
        self.seq += 1;
        let text = json!({ "seq": self.seq, "type": "request", "command": command, "arguments": arguments })
            .to_string();
        write!(self.to, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
        self.to.flush().unwrap();
        loop {
            let m = self.read();
            match m["type"].as_str() {
                Some("response") => {
                    assert_eq!(m["request_seq"], self.seq, "{m}");
                    assert_eq!(m["command"], command, "{m}");
                    return m;
                }
                _ => self.events.push(m),
            }
        }
    }

    /// The next event named `name` (earlier ones of other names are dropped).
    fn event(&mut self, name: &str) -> Value {
        loop {
            let m = if self.events.is_empty() {
                self.read()
            } else {
                self.events.remove(0)
            };
            if m["type"] == "event" && m["event"] == name {
                return m;
            }
        }
    }

    fn body(&mut self, command: &str, arguments: Value) -> Value {
        let r = self.request(command, arguments);
        assert_eq!(r["success"], true, "{command}: {r}");
        r["body"].clone()
    }

    /// The top frame's line and the locals, for `thread`.
    fn top(&mut self, thread: i64) -> (i64, Value) {
        let st = self.body("stackTrace", json!({ "threadId": thread }));
        let line = st["stackFrames"][0]["line"].as_i64().unwrap();
        let vars = self.body("variables", json!({ "variablesReference": 1 }));
        (line, vars["variables"].clone())
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn local(vars: &Value, name: &str) -> String {
    vars.as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {vars}"))["value"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn an_editor_breaks_on_an_hlsl_line_and_steps_by_lines() {
    let mut c = Client::start();
    let caps = c.body(
        "initialize",
        json!({ "adapterID": "sm5sim", "linesStartAt1": true }),
    );
    assert_eq!(caps["supportsConfigurationDoneRequest"], true);
    assert_eq!(caps["exceptionBreakpointFilters"][0]["filter"], "race");
    assert_eq!(caps["supportsStepBack"], true);
    assert_eq!(caps["supportsConditionalBreakpoints"], true);
    c.event("initialized");
    c.body(
        "launch",
        json!({ "program": "tests/debug_info/mandelbrot.toml", "thread": [300, 256, 0] }),
    );
    let hlsl = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/mandelbrot/mandelbrot.hlsl");
    let bps = c.body(
        "setBreakpoints",
        json!({ "source": { "path": hlsl }, "breakpoints": [{ "line": 17 }, { "line": 400 }] }),
    );
    assert_eq!(bps["breakpoints"][0]["line"], 17, "{bps}");
    c.body("setExceptionBreakpoints", json!({ "filters": [] }));
    c.body("configurationDone", json!({}));
    let stop = c.event("stopped");
    assert_eq!(stop["body"]["reason"], "breakpoint", "{stop}");
    // thread 300,256 is SV_GroupIndex 4 of group (37, 32): id 5
    assert_eq!(stop["body"]["threadId"], 5, "{stop}");
    let threads = c.body("threads", json!({}));
    assert_eq!(threads["threads"].as_array().unwrap().len(), 64);
    assert_eq!(
        threads["threads"][4]["name"],
        "thread (300, 256, 0) warp 0 lane 4"
    );
    let st = c.body("stackTrace", json!({ "threadId": 5 }));
    let frame = &st["stackFrames"][0];
    assert_eq!(frame["name"], "main");
    assert_eq!(frame["line"], 17);
    assert_eq!(
        Path::new(frame["source"]["path"].as_str().unwrap()),
        hlsl.canonicalize().unwrap()
    );
    let scopes = c.body("scopes", json!({ "frameId": 0 }));
    let names: Vec<&str> = (scopes["scopes"].as_array().unwrap().iter())
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Locals", "Registers", "Groupshared", "Lanes"]);
    // two more stops: the locals of the third iteration
    for _ in 0..2 {
        c.body("continue", json!({ "threadId": 5 }));
        assert_eq!(c.event("stopped")["body"]["reason"], "breakpoint");
    }
    let (line, vars) = c.top(5);
    assert_eq!(line, 17);
    let (cx, cy, zx, zy) = mandelbrot(300, 256, 2);
    assert_eq!(local(&vars, "cx").parse::<f32>().unwrap(), cx);
    assert_eq!(local(&vars, "cy").parse::<f32>().unwrap(), cy);
    assert_eq!(local(&vars, "zx").parse::<f32>().unwrap(), zx);
    assert_eq!(local(&vars, "zy").parse::<f32>().unwrap(), zy);
    assert_eq!(local(&vars, "i"), "2");
    assert_eq!(local(&vars, "dtid"), "(300, 256, 0)");
    // next follows the loop's lines
    let mut lines = Vec::new();
    for _ in 0..5 {
        c.body("next", json!({ "threadId": 5 }));
        let s = c.event("stopped");
        assert_eq!(s["body"]["reason"], "step", "{s}");
        lines.push(c.top(5).0);
    }
    assert_eq!(lines, [18, 20, 21, 15, 17]);
    // a step back: to the loop's test of the same pass, with i as it was
    let caps_back = c.body("stepBack", json!({ "threadId": 5 }));
    assert_eq!(caps_back, json!({}));
    assert_eq!(c.event("stopped")["body"]["reason"], "step");
    let (line, vars) = c.top(5);
    assert_eq!((line, local(&vars, "i")), (15, "3".to_string()));
    // another thread's frame: its own values (lane 6: thread 302, 256)
    let (_, vars) = c.top(7);
    assert_eq!(local(&vars, "dtid"), "(302, 256, 0)");
    assert_eq!(
        local(&vars, "cx").parse::<f32>().unwrap(),
        mandelbrot(302, 256, 0).0
    );
    let v = c.body("evaluate", json!({ "expression": "cx", "frameId": 0 }));
    assert_eq!(
        v["result"].as_str().unwrap().parse::<f32>().unwrap(),
        mandelbrot(302, 256, 0).0
    );
    let lanes = c.body("variables", json!({ "variablesReference": 4 }));
    assert_eq!(lanes["variables"].as_array().unwrap().len(), 32);
    let bad = c.request("evaluate", json!({ "expression": "nothing" }));
    assert_eq!(bad["success"], false);
    assert!(bad["message"].as_str().unwrap().contains("names nothing"));
    // a conditional breakpoint: the pass where i is 10
    c.body(
        "setBreakpoints",
        json!({ "source": { "path": hlsl }, "breakpoints": [{ "line": 17, "condition": "i == 10" }] }),
    );
    c.body("continue", json!({ "threadId": 7 }));
    assert_eq!(c.event("stopped")["body"]["reason"], "breakpoint");
    let (line, vars) = c.top(7);
    assert_eq!((line, local(&vars, "i")), (17, "10".to_string()));
    // clearing the breakpoints and continuing runs the dispatch to its end
    c.body(
        "setBreakpoints",
        json!({ "source": { "path": hlsl }, "breakpoints": [] }),
    );
    c.body("continue", json!({ "threadId": 7 }));
    let exited = c.event("exited");
    assert_eq!(exited["body"]["exitCode"], 0, "the job's expectations hold");
    c.event("terminated");
    c.body("disconnect", json!({}));
}

#[test]
fn the_race_filter_stops_at_the_racing_access_naming_both_threads() {
    let mut c = Client::start();
    c.body("initialize", json!({ "adapterID": "sm5sim" }));
    c.body("launch", json!({ "program": "tests/debug_info/race.toml" }));
    c.body("setExceptionBreakpoints", json!({ "filters": ["race"] }));
    c.body("configurationDone", json!({}));
    let stop = c.event("stopped");
    let body = &stop["body"];
    assert_eq!(body["reason"], "exception", "{stop}");
    let text = body["text"].as_str().unwrap();
    assert!(body["description"]
        .as_str()
        .unwrap()
        .starts_with("error[raw] g0[1] ('s')"));
    assert!(text.contains("race.hlsl:14: store_structured"), "{text}");
    assert!(text.contains("race.hlsl:15: ld_structured"), "{text}");
    assert!(text.contains("group (0, 0, 0) thread (1, 0, 0)"), "{text}");
    assert!(text.contains("group (0, 0, 0) thread (0, 0, 0)"), "{text}");
    // the reading thread (0) has the focus, at line 15
    assert_eq!(body["threadId"], 1);
    let (line, vars) = c.top(1);
    assert_eq!(line, 15);
    assert_eq!(local(&vars, "t"), "0");
    let shared = c.body("variables", json!({ "variablesReference": 3 }));
    let s = &shared["variables"][0];
    assert_eq!(s["name"], "s");
    assert!(
        s["value"].as_str().unwrap().starts_with("[1, 4, 7, 10,"),
        "{s}"
    );
    c.body("disconnect", json!({}));
}

#[test]
fn requests_out_of_turn_are_refused_with_a_message() {
    let mut c = Client::start();
    let r = c.request("threads", json!({}));
    assert_eq!(r["success"], false);
    let r = c.request("launch", json!({}));
    assert_eq!(r["success"], false);
    assert!(r["message"].as_str().unwrap().contains("`program`"), "{r}");
    let r = c.request("launch", json!({ "program": "no/such.toml" }));
    assert_eq!(r["success"], false);
    c.body(
        "launch",
        json!({ "program": "tests/debug_info/mandelbrot.toml" }),
    );
    let r = c.request("next", json!({ "threadId": 1 }));
    assert_eq!(r["success"], false);
    assert!(
        r["message"].as_str().unwrap().contains("configurationDone"),
        "{r}"
    );
    c.body("disconnect", json!({}));
}

/// The VS Code extension of `tools/vscode/` declares the `sm5sim` debug
/// type, running `sm5sim dap`, with breakpoints in HLSL, and its launch
/// attributes are the ones the server reads (docs/debugging.md).
#[test]
fn the_vscode_extension_runs_this_server() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/vscode/package.json");
    let p: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let d = &p["contributes"]["debuggers"][0];
    assert_eq!(d["type"], "sm5sim");
    assert_eq!(d["program"], "sm5sim");
    assert_eq!(d["args"], json!(["dap"]));
    assert_eq!(p["contributes"]["breakpoints"][0]["language"], "hlsl");
    let props = d["configurationAttributes"]["launch"]["properties"]
        .as_object()
        .unwrap();
    let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "breakOnRace",
            "maxInstructions",
            "program",
            "step",
            "stopOnEntry",
            "thread",
            "warpWidth"
        ]
    );
}
