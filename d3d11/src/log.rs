//! The DLL's own output: one line per event, prefixed `sm5sim-d3d11:`, to
//! stderr or `SM5SIM_LOG`; `once` for what would repeat at every call.

use crate::config::Config;
use std::collections::HashSet;
use std::io::Write;
use std::sync::Mutex;

static SINK: Mutex<Option<std::fs::File>> = Mutex::new(None);
static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Write `line` to the log.
pub fn say(line: &str) {
    let config = Config::get();
    let text = format!("sm5sim-d3d11: {line}\n");
    if let Some(path) = &config.log {
        let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
        if sink.is_none() {
            *sink = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .ok();
        }
        if let Some(f) = sink.as_mut() {
            let _ = f.write_all(text.as_bytes());
            return;
        }
    }
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// Write `line` the first time it comes, and never again.
pub fn once(line: &str) {
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen
        .get_or_insert_with(HashSet::new)
        .insert(line.to_string())
    {
        drop(seen);
        say(line);
    }
}

/// With `SM5SIM_CALLS=1`, log a call.
macro_rules! calls {
    ($($arg:tt)*) => {
        if $crate::config::Config::get().calls {
            $crate::log::say(&format!($($arg)*));
        }
    };
}
pub(crate) use calls;
