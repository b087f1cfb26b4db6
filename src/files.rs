//! Files sm5sim reads and writes.
//!
//! Inputs (shaders, job files, the files a job names) are read only when
//! they are regular files, so a device such as `/dev/zero` or a FIFO is an
//! error, not a read that never ends ([`read_input`]).
//!
//! Outputs (dumps, traces, profiles, `asm -o`, `compile -o`, the compile
//! cache) are written to a temporary file in their own directory and renamed
//! into place, so a run that is killed or fails never leaves a truncated or
//! mixed file ([`write_atomic`]); the temporary files being written are
//! known ([`remove_temp_files`], for a signal handler). An output that is
//! not a regular file (`/dev/stdout`, `/dev/null`, a FIFO, or `-` for
//! standard output) is written through, never replaced; a symbolic link is
//! followed, and the file it names replaced. Each output is checked before
//! any work starts, so that a job does not run for minutes to fail at its
//! last dump (its directory must take a new file), and never overwrites one
//! of its own inputs ([`check_output`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The temporary files being written now ([`write_atomic`]).
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Remove the temporary files [`write_atomic`] is writing now, for a
/// process about to end on a signal (INT, TERM, HUP) or a closed output;
/// the lock is kept, so no new one starts before the process exits.
pub fn remove_temp_files() {
    let mut files = TEMP_FILES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for f in files.drain(..) {
        let _ = std::fs::remove_file(f);
    }
    // held until exit: a writer that would register a new file waits
    std::mem::forget(files);
}

/// Whether `path` names standard output (`-`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` exists and is neither a regular file nor a directory (a
/// device such as `/dev/null`, a FIFO or a socket), after links.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// A name for a temporary file, unique within this process and across
/// processes: `STEM.PID.N.NANOS.tmp`.
pub fn temp_name(stem: &str) -> String {
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{stem}.{}.{n}.{nanos}.tmp", std::process::id())
}

/// Write `bytes` to `path` atomically: a temporary file beside it, then a
/// rename (POSIX `rename` replaces the target in one step), so readers see
/// the old file or the whole new one; the temporary file is removed on
/// failure. Creates `path`'s directory if needed. `-` is standard output,
/// and a path that is not a regular file (`/dev/stdout`, `/dev/null`, a
/// FIFO) is written through, not replaced; a symbolic link is followed (the
/// file it names is replaced, the link stays).
///
/// # Errors
/// The I/O error of creating, writing or renaming; `NotFound` for a link
/// to nothing.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if is_stdout(path) {
        let mut out = std::io::stdout().lock();
        return out.write_all(bytes).and_then(|()| out.flush());
    }
    if is_special(path) {
        let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
        return f.write_all(bytes).and_then(|()| f.flush());
    }
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        let target = path.canonicalize().map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("is a symbolic link to a file that cannot be reached: {e}"),
            )
        })?;
        return write_atomic(&target, bytes);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let stem = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(temp_name(&stem));
    let registered = |add: bool| {
        let mut files = TEMP_FILES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if add {
            files.push(tmp.clone());
        } else {
            files.retain(|f| f != &tmp);
        }
    };
    registered(true);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    registered(false);
    result
}

/// `path` made absolute and resolved through symbolic links as far as it
/// exists (an output file usually does not exist yet: its directory is
/// resolved and its name appended).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            dir.canonicalize()
                .map_or_else(|_| path.to_owned(), |d| d.join(name))
        }
        _ => path.to_owned(),
    }
}

/// Check, before anything runs, that `path` can be written as an output:
/// `-` (standard output) and devices or FIFOs always can (they are written
/// through); otherwise its directory exists and takes a new file (one is
/// created there and removed), it is not a directory itself nor a link to
/// nothing, and it is none of `inputs` (the files the run reads: a job
/// file, its shader, the files its contents name), links followed.
///
/// # Errors
/// A message naming `what` (`--dump bins=x.npy`, `-o`) and why.
pub fn check_output(what: &str, path: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    if is_stdout(path) || is_special(path) {
        return Ok(());
    }
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
        && path.canonicalize().is_err()
    {
        return Err(format!(
            "{what}: {} is a symbolic link to a file that does not exist (links are followed)",
            path.display()
        ));
    }
    let out = resolved(path);
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "{what}: the directory {} does not exist",
            dir.display()
        ));
    }
    if path.is_dir() {
        return Err(format!("{what}: {} is a directory", path.display()));
    }
    if let Some(input) = inputs.iter().find(|i| resolved(i) == out) {
        return Err(format!(
            "{what}: {} is one of this run's inputs ({}); write the output elsewhere",
            path.display(),
            input.display()
        ));
    }
    // the directory must take the temporary file the output is written to
    let probe = dir.join(temp_name(".sm5sim-probe"));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(format!(
            "{what}: cannot write in the directory {}: {e}",
            dir.display()
        )),
    }
}

/// Check that no two outputs of one run go to the same file.
///
/// # Errors
/// A message naming both.
pub fn check_distinct(outputs: &[(String, PathBuf)]) -> Result<(), String> {
    for (i, (a, pa)) in outputs.iter().enumerate() {
        for (b, pb) in &outputs[i + 1..] {
            if resolved(pa) == resolved(pb) {
                return Err(format!("{a} and {b} both write {}", pa.display()));
            }
        }
    }
    Ok(())
}

/// The largest input file read: a 4 GiB resource's contents (the most a
/// view addresses) with room for a header (`.npy`) or a PNG that
/// compresses badly.
pub const MAX_INPUT_BYTES: u64 = (4 << 30) + (64 << 20);

/// The largest text input read (job files, listings, HLSL): 256 MiB.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// Read the whole of `path`, which must be a regular file (or a link to
/// one) of at most [`MAX_INPUT_BYTES`]: a directory, a device such as
/// `/dev/zero`, a FIFO or a larger file is refused before reading, since
/// reading it would not end, would mean nothing, or could not fit.
///
/// # Errors
/// The OS error (`OutOfMemory` when the allocator refuses the file's bytes),
/// or `InvalidInput` naming what `path` is.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    read_input_at_most(path, MAX_INPUT_BYTES)
}

/// [`read_input`] with a size limit of `max` bytes.
///
/// # Errors
/// As [`read_input`].
pub fn read_input_at_most(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("is {what}; give a file"),
        ));
    }
    if meta.len() > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "is {} bytes, more than the {max} an input of this kind may be",
                meta.len()
            ),
        ));
    }
    std::fs::read(path)
}

/// [`read_input`] as UTF-8 text, of at most [`MAX_TEXT_BYTES`].
///
/// # Errors
/// As [`read_input`], or `InvalidData` for text that is not UTF-8.
pub fn read_input_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_input_at_most(path, MAX_TEXT_BYTES)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The files `paths` name: an argument that is not a directory as given
/// (even one that does not exist: its reader reports that), and every file
/// below a directory argument whose path `wanted` accepts, in walk order.
/// Links to directories inside a directory are not followed, so a link
/// back up the tree cannot make the walk endless; links to files are, when
/// they lead to a file.
///
/// # Errors
/// A directory that cannot be read, with the OS error.
pub fn expand_dirs(
    paths: &[PathBuf],
    wanted: impl Fn(&Path) -> bool,
) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for p in paths {
        if !p.is_dir() {
            found.push(p.clone());
            continue;
        }
        let mut stack = vec![p.clone()];
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir)
                .map_err(|e| format!("reading the directory {}: {e}", dir.display()))?;
            for e in entries {
                let e = e.map_err(|e| format!("reading the directory {}: {e}", dir.display()))?;
                let f = e.path();
                // file_type() does not follow links: a link is never a directory here
                let kind = e
                    .file_type()
                    .map_err(|e| format!("reading {}: {e}", f.display()))?;
                if kind.is_dir() {
                    stack.push(f);
                } else if wanted(&f) && (!kind.is_symlink() || f.is_file()) {
                    found.push(f);
                }
            }
        }
    }
    Ok(found)
}
