//! HLSL source input: finding Microsoft's HLSL compiler, running it, and a
//! cache of the DXBC it produces.
//!
//! **Discovery** ([`discover`]), in order:
//! 1. an explicit path (`--fxc PATH`, [`CompileOptions::fxc`]);
//! 2. the `SM5SIM_FXC` environment variable;
//! 3. an `fxc` on `PATH` — on Windows `fxc.exe` (the Windows SDK's), elsewhere
//!    an `fxc` wrapper such as the one the repository's `tools/fxc/setup.sh`
//!    installs (Microsoft's `d3dcompiler_47.dll` under Wine).
//!
//! An explicit path or `SM5SIM_FXC` that names nothing is an error; it does
//! not fall through to `PATH`. Loading `d3dcompiler_47.dll` through the OS on
//! Windows is not implemented (this crate forbids `unsafe` and is built and
//! tested on Linux): on Windows, discovery finds `fxc.exe` on `PATH`, which
//! takes the same `-E -T -Fo -D -I -nologo` options as the wrapper.
//!
//! **Invocation**: `fxc SOURCE -nologo -E ENTRY -T PROFILE [-D N=V]... [-I DIR]... -Fo TEMP`.
//! Exit status 0 with the output file is success (what the compiler printed
//! is kept as [`Compiled::diagnostics`], e.g. warnings); anything else is
//! [`CompileError::Failed`] carrying the compiler's output as it printed it
//! (fxc writes `file(line,col): error X....`).
//!
//! **Cache**: DXBC is stored as `<key>.dxbc` under `SM5SIM_CACHE_DIR`, or the
//! platform's cache directory (`dirs::cache_dir()`) + `sm5sim/`. The key
//! ([`cache_key`]) is a SHA-256 of the source, every file it `#include`s
//! (found by [`scan_includes`]), the entry point, the profile, the defines and
//! the compiler's identity (its `--version` output, path, size and mtime, and
//! those of a `d3dcompiler_47.dll` beside it or in `bin/` beside it). The
//! `--version` answer is itself cached under `compilers/`, keyed by that
//! path/size/mtime, so a cache hit starts no compiler process at all. Writes
//! are atomic (a temporary file in the cache directory, then a rename); a
//! cache that cannot be written only costs the next run a compile.

use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The environment variable naming the compiler (after `--fxc`).
pub const ENV_FXC: &str = "SM5SIM_FXC";
/// The environment variable naming the cache directory.
pub const ENV_CACHE_DIR: &str = "SM5SIM_CACHE_DIR";
/// How deep `#include`s are followed when hashing.
pub const MAX_INCLUDE_DEPTH: usize = 32;
/// Changes whenever the key's layout or the compiler's command line changes.
const KEY_VERSION: &str = "sm5sim-hlsl-cache-v1";

/// The compiler's file name looked up on `PATH`.
#[cfg(windows)]
pub const FXC_NAME: &str = "fxc.exe";
/// The compiler's file name looked up on `PATH`.
#[cfg(not(windows))]
pub const FXC_NAME: &str = "fxc";

/// Whether a shader path names HLSL source (`.hlsl`, any case).
pub fn is_hlsl(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("hlsl"))
}

/// Everything that can go wrong compiling HLSL; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// No compiler was found anywhere (see the module docs for the order).
    #[error("{source_path}: no HLSL compiler found. {}", how_to_get_one())]
    NoCompiler {
        /// the HLSL file that needed one
        source_path: PathBuf,
    },
    /// `--fxc` or `SM5SIM_FXC` names a file that is not there.
    #[error("{origin} names {}, which is not an executable file", path.display())]
    CompilerNotFound {
        /// the path given
        path: PathBuf,
        /// where it was given: `--fxc` or `SM5SIM_FXC`
        origin: &'static str,
    },
    /// A source or include file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// the file
        path: PathBuf,
        /// the OS error
        source: std::io::Error,
    },
    /// The compiler ran longer than its time limit ([`ENV_TIMEOUT`]) and was
    /// killed.
    #[error("{}: the HLSL compiler {} did not finish within {seconds} s and was stopped (set {ENV_TIMEOUT} to allow longer)", source_path.display(), compiler.display())]
    TimedOut {
        /// the HLSL file
        source_path: PathBuf,
        /// the compiler
        compiler: PathBuf,
        /// the limit, in seconds
        seconds: u64,
    },
    /// The compiler could not be started.
    #[error("{}: cannot run the HLSL compiler {}: {source}", source_path.display(), compiler.display())]
    Spawn {
        /// the HLSL file
        source_path: PathBuf,
        /// the compiler
        compiler: PathBuf,
        /// the OS error
        source: std::io::Error,
    },
    /// The compiler ran and failed (compile errors, or a broken installation).
    /// `output` is what it printed, as it printed it.
    #[error("{}\n{output}", self.summary())]
    Failed {
        /// the HLSL file
        source_path: PathBuf,
        /// the compiler
        compiler: PathBuf,
        /// its exit status (None: killed by a signal)
        status: Option<i32>,
        /// its stderr (or stdout where stderr was empty), unchanged
        output: String,
    },
    /// The compiler reported success but wrote no DXBC.
    #[error("{}: the HLSL compiler {} exited with status 0 but wrote no output", source_path.display(), compiler.display())]
    NoOutput {
        /// the HLSL file
        source_path: PathBuf,
        /// the compiler
        compiler: PathBuf,
    },
    /// Writing the compiled DXBC failed.
    #[error("{}: {source}", path.display())]
    Write {
        /// the file
        path: PathBuf,
        /// the OS error
        source: std::io::Error,
    },
}

impl CompileError {
    /// One line saying what failed; for [`CompileError::Failed`] without the
    /// compiler's output (which the caller prints as is).
    pub fn summary(&self) -> String {
        match self {
            CompileError::Failed {
                source_path,
                compiler,
                status,
                ..
            } => format!(
                "{}: HLSL compilation failed ({} {})",
                source_path.display(),
                compiler.display(),
                match status {
                    Some(s) => format!("exited with status {s}"),
                    None => "was killed by a signal".into(),
                }
            ),
            other => other.to_string(),
        }
    }
}

/// The repository's script that installs an `fxc` on Linux
/// (`tools/fxc/setup.sh DIR`, see `tools/fxc/README.md`), as a path relative
/// to the root of an sm5sim checkout.
pub const SETUP_SCRIPT: &str = "tools/fxc/setup.sh";

/// The advice given when no compiler is found: the three places searched
/// and, on Linux, the repository's setup script (with its absolute path when
/// this binary was built from a checkout that still has it), what it
/// installs and how long it takes.
pub fn how_to_get_one() -> String {
    #[cfg(windows)]
    {
        "Pass --fxc PATH, set SM5SIM_FXC=PATH, or put fxc.exe (Windows SDK) on PATH; \
         or compile the shader elsewhere and name the .dxbc (or an .asm listing) in the job."
            .to_string()
    }
    #[cfg(not(windows))]
    {
        let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SETUP_SCRIPT);
        let script = if here.is_file() {
            here.display().to_string()
        } else {
            format!("{SETUP_SCRIPT} (in the sm5sim repository)")
        };
        format!(
            "Pass --fxc PATH, set SM5SIM_FXC=PATH, or put an `fxc` on PATH. \
             To get one, run `{script} DIR` (needs root for apt-get): it installs Wine and \
             mingw-w64 from Debian's packages (about 200 MB to download, 1.2 GB installed), \
             takes Microsoft's d3dcompiler_47.dll from a PyPI wheel and writes DIR/fxc, \
             in under a minute on a fresh machine; then pass --fxc DIR/fxc. \
             Or compile the shader elsewhere and name the .dxbc (or an .asm listing) in the job."
        )
    }
}

/// How to find the compiler and whether to use the cache.
#[derive(Debug, Clone, Default)]
pub struct CompileOptions {
    /// `--fxc PATH`: this compiler, before `SM5SIM_FXC` and `PATH`.
    pub fxc: Option<PathBuf>,
    /// `--no-cache`: neither read nor write the cache.
    pub no_cache: bool,
}

/// One HLSL compilation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HlslRequest {
    /// the source file
    pub source: PathBuf,
    /// entry point (default `main`)
    pub entry: String,
    /// target profile (default `cs_5_0`)
    pub profile: String,
    /// `-D NAME=VALUE`, in name order
    pub defines: BTreeMap<String, String>,
    /// `-I DIR`, in order
    pub include_dirs: Vec<PathBuf>,
}

impl HlslRequest {
    /// `source` with entry `main`, profile `cs_5_0`, no defines or include dirs.
    pub fn new(source: impl Into<PathBuf>) -> Self {
        Self {
            source: source.into(),
            entry: "main".into(),
            profile: "cs_5_0".into(),
            defines: BTreeMap::new(),
            include_dirs: Vec::new(),
        }
    }
}

/// Where a compiler was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `--fxc PATH`
    Flag,
    /// `SM5SIM_FXC`
    Env,
    /// a directory on `PATH`
    Path,
}

/// A compiler that was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiler {
    /// the executable
    pub path: PathBuf,
    /// where it was found
    pub origin: Origin,
}

/// The result of [`compile`].
#[derive(Debug, Clone)]
pub struct Compiled {
    /// the HLSL file
    pub source: PathBuf,
    /// the DXBC container
    pub dxbc: Vec<u8>,
    /// the compiler used
    pub compiler: PathBuf,
    /// the cache key (None with `--no-cache`)
    pub key: Option<String>,
    /// the cache file the DXBC came from or went to (None when not cached)
    pub cache_file: Option<PathBuf>,
    /// true when the DXBC came from the cache (no compiler ran)
    pub cached: bool,
    /// what the compiler printed on success (warnings), replayed from the cache on a hit
    pub diagnostics: String,
    /// time spent compiling (zero on a cache hit)
    pub compile_time: Duration,
}

// ---------------------------------------------------------------------------
// Discovery

/// Find the compiler from this process's environment: `explicit` (`--fxc`),
/// then `SM5SIM_FXC`, then `PATH`. `Ok(None)` when there is none.
///
/// # Errors
/// [`CompileError::CompilerNotFound`] when `--fxc` or `SM5SIM_FXC` names nothing.
pub fn discover(explicit: Option<&Path>) -> Result<Option<Compiler>, CompileError> {
    discover_in(
        explicit,
        std::env::var_os(ENV_FXC).as_deref(),
        std::env::var_os("PATH").as_deref(),
    )
}

/// [`discover`] with the environment given: `env_fxc` is `SM5SIM_FXC`'s value,
/// `path_var` is `PATH`'s. An empty `SM5SIM_FXC` counts as unset. A bare name
/// (no directory) given to `--fxc` or `SM5SIM_FXC` that is not a file here is
/// looked up on `PATH`.
///
/// # Errors
/// As [`discover`].
pub fn discover_in(
    explicit: Option<&Path>,
    env_fxc: Option<&OsStr>,
    path_var: Option<&OsStr>,
) -> Result<Option<Compiler>, CompileError> {
    let named = |p: &Path, origin: Origin, label: &'static str| {
        if is_executable(p) {
            return Ok(Compiler {
                path: p.to_owned(),
                origin,
            });
        }
        let bare = p.components().count() == 1 && !p.is_absolute();
        if bare {
            if let Some(found) = path_var.and_then(|v| search_path(v, p.as_os_str())) {
                return Ok(Compiler {
                    path: found,
                    origin,
                });
            }
        }
        Err(CompileError::CompilerNotFound {
            path: p.to_owned(),
            origin: label,
        })
    };
    if let Some(p) = explicit {
        return named(p, Origin::Flag, "--fxc").map(Some);
    }
    if let Some(v) = env_fxc.filter(|v| !v.is_empty()) {
        return named(Path::new(v), Origin::Env, "SM5SIM_FXC").map(Some);
    }
    Ok(path_var
        .and_then(|v| search_path(v, OsStr::new(FXC_NAME)))
        .map(|path| Compiler {
            path,
            origin: Origin::Path,
        }))
}

fn search_path(path_var: &OsStr, name: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path_var)
        .filter(|d| !d.as_os_str().is_empty())
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

// ---------------------------------------------------------------------------
// Includes and the cache key

/// One `#include` met while scanning, in the order met (depth first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    /// the name as written between quotes or angle brackets
    pub name: String,
    /// the file it resolved to, if any
    pub resolved: Option<PathBuf>,
    /// the file's bytes (None when unresolved, unreadable, or already met)
    pub contents: Option<Vec<u8>>,
}

/// The names `#include "..."` / `#include <...>` in `text`, in order. A
/// simple line scan: includes inside `/* */` comments or disabled `#if`
/// blocks are also returned, which only makes the cache key depend on more
/// files; a macro as the name (`#include FILE`) is not followed.
pub fn include_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start();
        let close = match rest.chars().next() {
            Some('"') => '"',
            Some('<') => '>',
            _ => continue,
        };
        if let Some(end) = rest[1..].find(close) {
            names.push(rest[1..1 + end].to_string());
        }
    }
    names
}

/// Every file `source` includes, recursively (up to [`MAX_INCLUDE_DEPTH`]),
/// resolved as the fxc wrapper's include handler does: an absolute name as
/// is; otherwise the including file's directory, then (for nested includes)
/// the main source's directory, then `include_dirs` in order.
pub fn scan_includes(source: &Path, text: &[u8], include_dirs: &[PathBuf]) -> Vec<Include> {
    let main_dir = source.parent().unwrap_or(Path::new("")).to_owned();
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    scan_into(
        text,
        &main_dir,
        &main_dir,
        include_dirs,
        0,
        &mut seen,
        &mut out,
    );
    out
}

fn scan_into(
    text: &[u8],
    dir: &Path,
    main_dir: &Path,
    include_dirs: &[PathBuf],
    depth: usize,
    seen: &mut HashSet<PathBuf>,
    out: &mut Vec<Include>,
) {
    if depth >= MAX_INCLUDE_DEPTH {
        return;
    }
    for name in include_names(&String::from_utf8_lossy(text)) {
        let n = Path::new(&name);
        let candidates: Vec<PathBuf> = if n.is_absolute() {
            vec![n.to_owned()]
        } else {
            let mut c = vec![dir.join(n)];
            if depth > 0 {
                c.push(main_dir.join(n));
            }
            c.extend(include_dirs.iter().map(|d| d.join(n)));
            c
        };
        let resolved = candidates.into_iter().find(|p| p.is_file());
        let mut include = Include {
            name,
            resolved: resolved.clone(),
            contents: None,
        };
        let mut nested = None;
        if let Some(p) = resolved {
            let canonical = p.canonicalize().unwrap_or_else(|_| p.clone());
            if seen.insert(canonical) {
                if let Ok(bytes) = std::fs::read(&p) {
                    nested = Some((p.parent().unwrap_or(Path::new("")).to_owned(), bytes));
                }
            }
        }
        if let Some((sub_dir, bytes)) = nested {
            include.contents = Some(bytes.clone());
            out.push(include);
            scan_into(
                &bytes,
                &sub_dir,
                main_dir,
                include_dirs,
                depth + 1,
                seen,
                out,
            );
        } else {
            out.push(include);
        }
    }
}

/// The cache key: SHA-256 (hex) of the source, its includes (name and
/// contents), entry, profile, defines and the compiler's identity.
pub fn cache_key(
    req: &HlslRequest,
    source: &[u8],
    includes: &[Include],
    compiler_identity: &str,
) -> String {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(KEY_VERSION.as_bytes());
    field(compiler_identity.as_bytes());
    field(req.entry.as_bytes());
    field(req.profile.as_bytes());
    field(&(req.defines.len() as u64).to_le_bytes());
    for (k, v) in &req.defines {
        field(k.as_bytes());
        field(v.as_bytes());
    }
    field(source);
    for inc in includes {
        field(inc.name.as_bytes());
        match (&inc.resolved, &inc.contents) {
            (_, Some(c)) => {
                field(b"file");
                field(c);
            }
            (Some(_), None) => field(b"seen"),
            (None, None) => field(b"missing"),
        }
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---------------------------------------------------------------------------
// The cache

/// The cache directory: `SM5SIM_CACHE_DIR`, else the platform's cache
/// directory + `sm5sim/`; None when neither is known.
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os(ENV_CACHE_DIR) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => dirs::cache_dir().map(|d| d.join("sm5sim")),
    }
}

use crate::files::{temp_name, write_atomic};

/// What identifies a compiler installation without running it: its path,
/// size and mtime, and those of a `d3dcompiler_47.dll` beside it or in `bin/`.
fn compiler_stamp(path: &Path) -> String {
    let stat = |p: &Path| -> Option<String> {
        let m = std::fs::metadata(p).ok()?;
        let mtime = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        Some(format!("{} {} {mtime}", p.display(), m.len()))
    };
    let exe = path.canonicalize().unwrap_or_else(|_| path.to_owned());
    let mut parts = vec![stat(&exe).unwrap_or_else(|| exe.display().to_string())];
    if let Some(dir) = exe.parent() {
        for dll in [
            dir.join("d3dcompiler_47.dll"),
            dir.join("bin").join("d3dcompiler_47.dll"),
        ] {
            parts.extend(stat(&dll));
        }
    }
    parts.join("\n")
}

/// The compiler's identity for the cache key: its stamp and `--version`
/// output, the latter remembered under `cache/compilers/` so that later runs
/// start no process. A compiler without `--version` (fxc.exe) is identified
/// by its stamp alone.
fn compiler_identity(compiler: &Path, cache: &Path) -> String {
    let stamp = compiler_stamp(compiler);
    let mut h = Sha256::new();
    h.update(stamp.as_bytes());
    let memo = cache
        .join("compilers")
        .join(format!("{}.version", &hex(&h.finalize())[..32]));
    let version = match std::fs::read_to_string(&memo) {
        Ok(v) => v,
        Err(_) => {
            let v = output_within(
                Command::new(compiler).arg("--version").stdin(Stdio::null()),
                compiler_timeout(),
            )
            .ok()
            .flatten()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
            if let Err(e) = write_atomic(&memo, v.as_bytes()) {
                tracing::warn!("cannot write {}: {e}", memo.display());
            }
            v
        }
    };
    format!("{stamp}\nversion: {version}")
}

// ---------------------------------------------------------------------------
// Compiling

/// Compile `req` to DXBC: from the cache when the key is there, else by
/// running the compiler [`discover`] finds (and storing the result).
///
/// # Errors
/// [`CompileError`]s naming the file: no compiler, an unreadable source,
/// compile errors (with the compiler's output as is), I/O.
pub fn compile(req: &HlslRequest, options: &CompileOptions) -> Result<Compiled, CompileError> {
    let source = crate::files::read_input_at_most(&req.source, crate::files::MAX_TEXT_BYTES)
        .map_err(|source| CompileError::Read {
            path: req.source.clone(),
            source,
        })?;
    let compiler = discover(options.fxc.as_deref())?.ok_or_else(|| CompileError::NoCompiler {
        source_path: req.source.clone(),
    })?;
    let cache = if options.no_cache { None } else { cache_dir() };
    let key = cache.as_ref().map(|dir| {
        let includes = scan_includes(&req.source, &source, &req.include_dirs);
        let identity = compiler_identity(&compiler.path, dir);
        cache_key(req, &source, &includes, &identity)
    });
    let entry = cache
        .as_ref()
        .zip(key.as_ref())
        .map(|(dir, key)| dir.join(format!("{key}.dxbc")));
    if let Some(file) = &entry {
        if let Ok(dxbc) = std::fs::read(file) {
            if dxbc.starts_with(b"DXBC") {
                tracing::info!("{}: DXBC from {}", req.source.display(), file.display());
                let diagnostics =
                    std::fs::read_to_string(file.with_extension("log")).unwrap_or_default();
                return Ok(Compiled {
                    source: req.source.clone(),
                    dxbc,
                    compiler: compiler.path,
                    key,
                    cache_file: entry,
                    cached: true,
                    diagnostics,
                    compile_time: Duration::ZERO,
                });
            }
        }
    }

    let start = Instant::now();
    let (dxbc, diagnostics) = run_compiler(&compiler.path, req)?;
    let compile_time = start.elapsed();
    tracing::info!(
        "{}: compiled with {} in {:.3} s",
        req.source.display(),
        compiler.path.display(),
        compile_time.as_secs_f64()
    );
    let mut stored = None;
    if let Some(file) = &entry {
        // The log first: a .dxbc present means its log is too.
        let log = file.with_extension("log");
        let r = if diagnostics.is_empty() {
            let _ = std::fs::remove_file(&log);
            Ok(())
        } else {
            write_atomic(&log, diagnostics.as_bytes())
        };
        match r.and_then(|()| write_atomic(file, &dxbc)) {
            Ok(()) => stored = Some(file.clone()),
            Err(e) => tracing::warn!("cannot write the cache entry {}: {e}", file.display()),
        }
    }
    Ok(Compiled {
        source: req.source.clone(),
        dxbc,
        compiler: compiler.path,
        key,
        cache_file: stored,
        cached: false,
        diagnostics,
        compile_time,
    })
}

/// The environment variable with the compiler's time limit in seconds
/// (default [`DEFAULT_TIMEOUT_SECONDS`]); a compiler still running then is
/// killed.
pub const ENV_TIMEOUT: &str = "SM5SIM_FXC_TIMEOUT";

/// How long a compile may take unless [`ENV_TIMEOUT`] says otherwise.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 300;

fn compiler_timeout() -> Duration {
    let seconds = std::env::var(ENV_TIMEOUT)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(DEFAULT_TIMEOUT_SECONDS);
    Duration::from_secs(seconds)
}

/// Run `cmd` to completion with its output captured, as `Command::output`
/// does, but for at most `limit`: `Ok(None)` when it was still running then
/// (it is killed; processes it started that keep its pipes open are left to
/// finish on their own, unread).
fn output_within(
    cmd: &mut Command,
    limit: Duration,
) -> std::io::Result<Option<std::process::Output>> {
    use std::io::Read;
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ok(Some(std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }))
}

fn run_compiler(compiler: &Path, req: &HlslRequest) -> Result<(Vec<u8>, String), CompileError> {
    let out = std::env::temp_dir().join(temp_name("sm5sim-fxc.dxbc"));
    let mut cmd = Command::new(compiler);
    cmd.arg(&req.source)
        .arg("-nologo")
        .arg("-E")
        .arg(&req.entry)
        .arg("-T")
        .arg(&req.profile);
    for (k, v) in &req.defines {
        let mut d = OsString::from(k);
        d.push("=");
        d.push(v);
        cmd.arg("-D").arg(d);
    }
    for d in &req.include_dirs {
        cmd.arg("-I").arg(d);
    }
    cmd.arg("-Fo").arg(&out).stdin(Stdio::null());
    tracing::debug!("running {cmd:?}");
    let limit = compiler_timeout();
    let output = output_within(&mut cmd, limit)
        .map_err(|source| CompileError::Spawn {
            source_path: req.source.clone(),
            compiler: compiler.to_owned(),
            source,
        })?
        .ok_or_else(|| {
            let _ = std::fs::remove_file(&out);
            CompileError::TimedOut {
                source_path: req.source.clone(),
                compiler: compiler.to_owned(),
                seconds: limit.as_secs(),
            }
        })?;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let printed = if output.stderr.is_empty() {
        text(&output.stdout)
    } else {
        text(&output.stderr)
    };
    let dxbc = std::fs::read(&out);
    let _ = std::fs::remove_file(&out);
    if !output.status.success() {
        return Err(CompileError::Failed {
            source_path: req.source.clone(),
            compiler: compiler.to_owned(),
            status: output.status.code(),
            output: printed,
        });
    }
    let dxbc = dxbc.map_err(|_| CompileError::NoOutput {
        source_path: req.source.clone(),
        compiler: compiler.to_owned(),
    })?;
    // fxc.exe prints "compilation object save succeeded" on stdout; keep only stderr.
    Ok((dxbc, text(&output.stderr)))
}

/// Compile `req` and write the DXBC to `output` (`sm5sim compile`).
///
/// # Errors
/// As [`compile`], or [`CompileError::Write`].
pub fn compile_to_file(
    req: &HlslRequest,
    options: &CompileOptions,
    output: &Path,
) -> Result<Compiled, CompileError> {
    let c = compile(req, options)?;
    write_atomic(output, &c.dxbc).map_err(|source| CompileError::Write {
        path: output.to_owned(),
        source,
    })?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines_are_found() {
        let text = "#include \"a.hlsli\"\n  #  include <b/c.h>\n// #include \"d.h\"\n#define X\n#include MACRO\n#includex\n";
        assert_eq!(include_names(text), ["a.hlsli", "b/c.h"]);
        assert_eq!(include_names("#if 0\n#include \"e.h\"\n#endif"), ["e.h"]);
    }

    #[test]
    fn includes_resolve_like_the_wrapper_recursively_and_stop_at_cycles() {
        let dir = std::env::temp_dir().join(temp_name("sm5sim-includes"));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::create_dir_all(dir.join("inc/sub")).unwrap();
        std::fs::write(dir.join("src/local.h"), "// local\n").unwrap();
        // a.h is found through the include dir; its "sub/b.h" beside it;
        // b.h's "local.h" through the main source's directory; c.h loops back.
        std::fs::write(dir.join("inc/a.h"), "#include \"sub/b.h\"\n").unwrap();
        std::fs::write(
            dir.join("inc/sub/b.h"),
            "#include \"local.h\"\n#include <c.h>\n",
        )
        .unwrap();
        std::fs::write(dir.join("inc/c.h"), "#include \"a.h\"\n").unwrap();
        let src = dir.join("src/x.hlsl");
        let text = b"#include \"a.h\"\n#include \"missing.h\"\n";
        let found = scan_includes(&src, text, &[dir.join("inc")]);
        let names: Vec<_> = found
            .iter()
            .map(|i| (i.name.as_str(), i.resolved.is_some(), i.contents.is_some()))
            .collect();
        assert_eq!(
            names,
            [
                ("a.h", true, true),
                ("sub/b.h", true, true),
                ("local.h", true, true),
                ("c.h", true, true),
                ("a.h", true, false),
                ("missing.h", false, false),
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn key_depends_on_every_input() {
        let req = HlslRequest::new("x.hlsl");
        let base = cache_key(&req, b"src", &[], "fxc 1");
        assert_eq!(base, cache_key(&req, b"src", &[], "fxc 1"));
        assert_eq!(base.len(), 64);
        assert_ne!(base, cache_key(&req, b"src2", &[], "fxc 1"));
        assert_ne!(base, cache_key(&req, b"src", &[], "fxc 2"));
        let mut r = req.clone();
        r.entry = "other".into();
        assert_ne!(base, cache_key(&r, b"src", &[], "fxc 1"));
        let mut r = req.clone();
        r.profile = "cs_5_1".into();
        assert_ne!(base, cache_key(&r, b"src", &[], "fxc 1"));
        let mut r = req.clone();
        r.defines.insert("N".into(), "1".into());
        let n1 = cache_key(&r, b"src", &[], "fxc 1");
        assert_ne!(base, n1);
        r.defines.insert("N".into(), "2".into());
        assert_ne!(n1, cache_key(&r, b"src", &[], "fxc 1"));
        // The source path itself does not matter, only contents.
        let moved = HlslRequest::new("elsewhere/x.hlsl");
        assert_eq!(base, cache_key(&moved, b"src", &[], "fxc 1"));
        let inc = |c: &[u8]| Include {
            name: "a.h".into(),
            resolved: Some("a.h".into()),
            contents: Some(c.to_vec()),
        };
        let a = cache_key(&req, b"src", &[inc(b"1")], "fxc 1");
        assert_ne!(base, a);
        assert_ne!(a, cache_key(&req, b"src", &[inc(b"2")], "fxc 1"));
    }

    #[test]
    fn discovery_without_anything_finds_nothing() {
        let empty = std::env::temp_dir().join(temp_name("sm5sim-empty"));
        std::fs::create_dir_all(&empty).unwrap();
        assert_eq!(
            discover_in(None, None, Some(empty.as_os_str())).unwrap(),
            None
        );
        assert_eq!(discover_in(None, Some(OsStr::new("")), None).unwrap(), None);
        let missing = empty.join("nope");
        assert!(matches!(
            discover_in(Some(&missing), None, None),
            Err(CompileError::CompilerNotFound {
                origin: "--fxc",
                ..
            })
        ));
        assert!(matches!(
            discover_in(None, Some(missing.as_os_str()), None),
            Err(CompileError::CompilerNotFound {
                origin: "SM5SIM_FXC",
                ..
            })
        ));
        let _ = std::fs::remove_dir(&empty);
    }
}
