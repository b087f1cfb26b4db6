//! Long number lists of a job file (`u32 = [...]`, `i32 = [...]`,
//! `f32 = [...]` in an `init`, `set` or `expect`), read straight from the
//! text into words.
//!
//! A TOML parser keeps a tree node of tens of bytes for every value, so a
//! 100 MB file of `1,1,1,…` would take gigabytes to parse. Before the job
//! file is parsed, each such list of at least [`MIN_BYTES`] bytes is cut out
//! of the text and replaced by a one-string list (with as many newlines, so
//! every line after it keeps its number; [`Masked::original_offset`] maps
//! a place in the parsed text back to the file), and its numbers are read
//! into 32-bit words of the kind its key names, which
//! [`super::parse_content`] takes. Parsing a job file so takes the text,
//! what is left of it to parse as TOML, and 4 bytes a listed number. The numbers follow TOML's grammar: what the fast
//! path does not recognise is parsed by `toml_edit` itself, so the lists
//! mean what they would mean to any TOML reader (docs/job-files.md, "Memory").

use std::cell::RefCell;

/// The shortest list (in bytes, brackets included) that is read in bulk;
/// shorter lists go through the TOML parser as before.
pub(super) const MIN_BYTES: usize = 1024;

/// The string that stands for a cut-out list in the parsed document,
/// followed by the list's index.
const MARKER: &str = "sm5sim-bulk-list#";

/// A list cut out of the text: its words (until taken) and its start, for
/// messages.
struct List {
    kind: Kind,
    words: Option<Vec<u32>>,
    preview: String,
    line: usize,
}

thread_local! {
    /// The lists of the job file being parsed on this thread (set by
    /// [`install`] for the duration of [`super::Job::parse`]).
    static LISTS: RefCell<Vec<List>> = const { RefCell::new(Vec::new()) };
}

/// Clears this thread's lists when the parse that installed them ends.
pub(super) struct Installed(());

impl Drop for Installed {
    fn drop(&mut self) {
        LISTS.with(|l| l.borrow_mut().clear());
    }
}

/// The job text with its long number lists cut out, and the lists.
pub(super) struct Masked {
    /// The text to parse as TOML: each long list replaced by
    /// `["sm5sim-bulk-list#N"`, its newlines and `]`.
    pub(super) text: String,
    lists: Vec<List>,
    /// For each cut: the offset in `text` just after its stand-in, and the
    /// bytes removed up to there.
    cuts: Vec<(usize, usize)>,
}

impl Masked {
    /// The byte offset in the file of `offset` in [`Masked::text`] (an
    /// offset outside the stand-ins, where TOML keys and values are).
    pub(super) fn original_offset(&self, offset: usize) -> usize {
        let i = self.cuts.partition_point(|&(end, _)| end <= offset);
        offset + if i == 0 { 0 } else { self.cuts[i - 1].1 }
    }

    /// Make the lists readable by [`take`] on this thread until the guard
    /// is dropped.
    pub(super) fn install(&mut self) -> Installed {
        let lists = std::mem::take(&mut self.lists);
        LISTS.with(|l| *l.borrow_mut() = lists);
        Installed(())
    }
}

fn out_of_memory(bytes: usize, what: &str) -> String {
    format!("cannot allocate {bytes} bytes for {what}: out of memory")
}

/// Cut the long number lists out of `text` (see the module docs).
///
/// # Errors
/// A word of a long list that is not a number of its kind, a missing
/// value between commas (with the line and column), or no memory for the
/// copy or the words.
pub(super) fn mask(text: &str) -> Result<Masked, String> {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    out.try_reserve_exact(b.len())
        .map_err(|_| out_of_memory(b.len(), "a copy of the job file"))?;
    let mut lists = Vec::new();
    // `fields` tables (constant buffers) hold their own lists: the keys of
    // the inline tables around the cursor, and whether the current
    // [table] header names a `fields` table
    let mut inline_keys: Vec<bool> = Vec::new();
    let mut header_fields = false;
    let mut copied = 0;
    let mut cuts = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'#' => i = skip_comment(b, i),
            b'"' | b'\'' => i = skip_string(b, i),
            b'{' => {
                let key = key_before(b, i);
                inline_keys.push(key.iter().any(|k| k == "fields"));
                i += 1;
            }
            b'}' => {
                inline_keys.pop();
                i += 1;
            }
            b'[' if at_line_start(b, i) => {
                // a [table] or [[array of tables]] header
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p);
                header_fields = text[i..end]
                    .split(['.', '[', ']', ' ', '"', '\''])
                    .any(|s| s == "fields");
                i = end;
            }
            b'[' => {
                let key = key_before(b, i);
                let wanted = key
                    .last()
                    .is_some_and(|k| matches!(k.as_str(), "u32" | "i32" | "f32"))
                    && !key.iter().any(|k| k == "fields")
                    && !header_fields
                    && !inline_keys.iter().any(|&f| f);
                let cut = wanted
                    .then(|| list_end(b, i))
                    .flatten()
                    .filter(|&end| end - i >= MIN_BYTES)
                    .map(|end| (end, stand_in(&b[i..end], lists.len())));
                match cut {
                    Some((end, replacement)) => {
                        out.extend_from_slice(&b[copied..i]);
                        out.extend_from_slice(&replacement);
                        let removed =
                            cuts.last().map_or(0, |&(_, r)| r) + (end - i) - replacement.len();
                        cuts.push((out.len(), removed));
                        copied = end;
                        let kind = match key.last().map(String::as_str) {
                            Some("u32") => Kind::U32,
                            Some("i32") => Kind::I32,
                            _ => Kind::F32,
                        };
                        let (line, column) = line_column(text, i + 1);
                        let body = &text[i + 1..end - 1];
                        let words = parse_list(body, line, column, kind)?;
                        let head: String = body.trim_start().chars().take(60).collect();
                        let preview = head.split_whitespace().collect::<Vec<_>>().join(" ");
                        lists.push(List {
                            kind,
                            words: Some(words),
                            preview,
                            line,
                        });
                        i = end;
                    }
                    None => i += 1,
                }
            }
            _ => i += 1,
        }
    }
    out.extend_from_slice(&b[copied..]);
    // only ASCII replaced ASCII and whole lists (at ASCII brackets) were cut
    let text = String::from_utf8(out).map_err(|e| format!("job file: {e}"))?;
    Ok(Masked { text, lists, cuts })
}

/// What stands for the list `list` (brackets included) in the parsed
/// text: `["sm5sim-bulk-list#N"`, one newline for each of the list's, `]`.
fn stand_in(list: &[u8], index: usize) -> Vec<u8> {
    let mut out = format!("[\"{MARKER}{index}\"").into_bytes();
    out.extend(list.iter().filter(|&&c| c == b'\n'));
    out.push(b']');
    out
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |p| p + 1);
    (line, text[start..offset].chars().count() + 1)
}

fn at_line_start(b: &[u8], i: usize) -> bool {
    b[..i]
        .iter()
        .rev()
        .find(|&&c| c != b' ' && c != b'\t')
        .is_none_or(|&c| c == b'\n')
}

/// The parts of the dotted key that ends just before the `=` before `i`,
/// if `i` follows `KEY =`.
fn key_before(b: &[u8], i: usize) -> Vec<String> {
    let mut j = i;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t') {
        j -= 1;
    }
    if j == 0 || b[j - 1] != b'=' {
        return Vec::new();
    }
    let end = j - 1;
    let mut start = end;
    while start > 0
        && (b[start - 1].is_ascii_alphanumeric()
            || matches!(
                b[start - 1],
                b'_' | b'-' | b'.' | b'"' | b'\'' | b' ' | b'\t'
            ))
    {
        start -= 1;
    }
    String::from_utf8_lossy(&b[start..end])
        .split('.')
        .map(|s| s.trim().trim_matches(['"', '\'']).to_string())
        .collect()
}

fn skip_comment(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| i + p)
}

/// The index after the string starting at `i` (basic or literal, one line
/// or multi-line); at the end of the line for an unterminated one (the TOML
/// parser reports it).
fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let multi = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
    let mut j = if multi { i + 3 } else { i + 1 };
    while j < b.len() {
        let c = b[j];
        if c == b'\\' && q == b'"' {
            j += 2;
            continue;
        }
        if !multi && c == b'\n' {
            return j;
        }
        if c == q {
            if !multi {
                return j + 1;
            }
            if b.get(j + 1) == Some(&q) && b.get(j + 2) == Some(&q) {
                // up to two more quotes belong to the string
                let mut k = j + 3;
                while k < j + 5 && b.get(k) == Some(&q) {
                    k += 1;
                }
                return k;
            }
        }
        j += 1;
    }
    b.len()
}

/// The index after the `]` of a list starting at `i` that holds only
/// number-like words, commas, whitespace and comments; `None` otherwise.
fn list_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b']' => return Some(j + 1),
            b'#' => j = skip_comment(b, j),
            c if c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    b'_' | b'+' | b'-' | b'.' | b',' | b' ' | b'\t' | b'\n' | b'\r'
                ) =>
            {
                j += 1
            }
            _ => return None,
        }
    }
    None
}

/// What a list's numbers become.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    U32,
    I32,
    F32,
}

/// The index of the cut-out list `value` stands for, if it is one.
pub(super) fn index_of(value: &toml::Value) -> Option<usize> {
    match value.as_array()?.as_slice() {
        [toml::Value::String(s)] => s.strip_prefix(MARKER)?.parse().ok(),
        _ => None,
    }
}

/// The start of the list `value` stands for, as text (`[1, 2, 3…]`), for
/// messages; `None` if it is not a cut-out list.
pub(super) fn preview(value: &toml::Value) -> Option<String> {
    let index = index_of(value)?;
    LISTS.with(|l| {
        let l = l.borrow();
        Some(format!("[{}…]", l.get(index)?.preview))
    })
}

/// The words of the cut-out list `value` stands for (read as `kind`, the
/// kind of its key); `None` if it is not one.
///
/// # Errors
/// The list was taken before (each list is read once, by the one content
/// it belongs to), or `kind` is not the kind it was read as.
pub(super) fn take(value: &toml::Value, kind: Kind) -> Option<Result<Vec<u32>, String>> {
    let index = index_of(value)?;
    Some(LISTS.with(|l| {
        let mut l = l.borrow_mut();
        let list = l
            .get_mut(index)
            .ok_or_else(|| format!("{MARKER}{index} names no list of this file"))?;
        if list.kind != kind {
            return Err(format!(
                "the list at line {} was read as {:?}, not {kind:?}",
                list.line, list.kind
            ));
        }
        list.words
            .take()
            .ok_or_else(|| format!("the list at line {} was read twice", list.line))
    }))
}

fn parse_list(
    body: &str,
    first_line: usize,
    column: usize,
    kind: Kind,
) -> Result<Vec<u32>, String> {
    let b = body.as_bytes();
    let name = match kind {
        Kind::U32 => "u32",
        Kind::I32 => "i32",
        Kind::F32 => "f32",
    };
    // an upper bound on the count, for one allocation
    let bound = b.iter().filter(|&&c| c == b',').count() + 1;
    let mut words: Vec<u32> = Vec::new();
    words
        .try_reserve_exact(bound)
        .map_err(|_| out_of_memory(bound * 4, "the list's words"))?;
    let (mut line, mut line_start) = (first_line, 0usize);
    let at = |line: usize, line_start: usize, j: usize| {
        let col = String::from_utf8_lossy(&b[line_start..j]).chars().count();
        if line == first_line {
            format!("line {line}, column {}", column + col)
        } else {
            format!("line {line}, column {}", col + 1)
        }
    };
    let mut j = 0;
    let mut want_value = true;
    while j < b.len() {
        match b[j] {
            b'\n' => {
                line += 1;
                j += 1;
                line_start = j;
            }
            b' ' | b'\t' | b'\r' => j += 1,
            b'#' => j = skip_comment(b, j),
            b',' if !want_value => {
                want_value = true;
                j += 1;
            }
            b',' => {
                return Err(format!(
                    "{name}[{}] at {}: expected a value before the comma",
                    words.len(),
                    at(line, line_start, j)
                ))
            }
            _ if !want_value => {
                return Err(format!(
                    "{name}[{}] at {}: expected a comma between values",
                    words.len(),
                    at(line, line_start, j)
                ))
            }
            _ => {
                let end = b[j..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || b"_+-.".contains(c)))
                    .map_or(b.len(), |p| j + p);
                let token = &body[j..end];
                let word = number(token, kind).map_err(|m| {
                    format!(
                        "{name}[{}] at {}: {m}",
                        words.len(),
                        at(line, line_start, j)
                    )
                })?;
                words.push(word);
                want_value = false;
                j = end;
            }
        }
    }
    Ok(words)
}

enum Number {
    Int(i64),
    Float(f64),
}

/// A TOML number: plain decimal integers and floats directly, the rest
/// (hex, octal, binary, underscores, exponents, `inf`, `nan`) by `toml_edit`.
fn parse_number(token: &str) -> Option<Number> {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    let plain_int = |s: &str| {
        !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
    };
    if plain_int(digits) {
        return token.parse().ok().map(Number::Int);
    }
    if let Some((int, frac)) = digits.split_once('.') {
        if plain_int(int) && !frac.is_empty() && frac.bytes().all(|c| c.is_ascii_digit()) {
            return token.parse().ok().map(Number::Float);
        }
    }
    match token.parse::<toml_edit::Value>().ok()? {
        toml_edit::Value::Integer(i) => Some(Number::Int(*i.value())),
        toml_edit::Value::Float(f) => Some(Number::Float(*f.value())),
        _ => None,
    }
}

fn number(token: &str, kind: Kind) -> Result<u32, String> {
    let n = parse_number(token).ok_or_else(|| format!("'{token}' is not a TOML number"))?;
    match (kind, n) {
        (Kind::U32, Number::Int(i)) => {
            u32::try_from(i).map_err(|_| format!("{i} does not fit a u32"))
        }
        (Kind::I32, Number::Int(i)) => i32::try_from(i)
            .map(|v| v as u32)
            .map_err(|_| format!("{i} does not fit an i32")),
        (Kind::U32 | Kind::I32, Number::Float(_)) => {
            Err(format!("'{token}' is a float; this list takes integers"))
        }
        (Kind::F32, Number::Int(i)) => Ok((i as f32).to_bits()),
        (Kind::F32, Number::Float(f)) => Ok((f as f32).to_bits()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long_list(key: &str, body: &str) -> String {
        format!("x = 1\n{key} = [{body}]\ny = 2\n")
    }

    #[test]
    fn a_long_list_is_cut_out_with_every_line_kept() {
        let body = (0..600)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",\n");
        let text = long_list("init.u32", &body);
        let mut m = mask(&text).unwrap();
        assert!(m.text.len() < 700, "{}", m.text);
        assert_eq!(m.text.matches('\n').count(), text.matches('\n').count());
        assert!(m.text.ends_with("]\ny = 2\n"));
        let y = m.text.rfind('y').unwrap();
        assert_eq!(m.original_offset(y), text.rfind('y').unwrap());
        assert_eq!(m.original_offset(2), 2);
        let doc: toml::Table = m.text.parse().unwrap();
        let v = &doc["init"]["u32"];
        let _g = m.install();
        let words = take(v, Kind::U32).unwrap().unwrap();
        assert_eq!(words, (0..600).collect::<Vec<u32>>());
        assert_eq!(doc["y"].as_integer(), Some(2));
    }

    #[test]
    fn short_lists_strings_and_fields_are_left_alone() {
        let long = vec!["1"; 600].join(", ");
        for text in [
            "u32 = [1, 2, 3]\n".to_string(),
            format!("s = \"u32 = [{long}]\"\n"),
            format!("fields = {{ f32 = [{long}] }}\n"),
            format!("[a.init.fields]\nf32 = [{long}]\n"),
            format!("# u32 = [{long}]\n"),
            format!("u32 = [{long}, \"x\"]\n"),
        ] {
            assert_eq!(mask(&text).unwrap().text, text, "{text}");
        }
    }

    #[test]
    fn numbers_follow_toml() {
        let cases = [
            ("1_000", Kind::U32, Ok(1000)),
            ("0x10", Kind::U32, Ok(16)),
            ("-1", Kind::I32, Ok(u32::MAX)),
            ("-1", Kind::U32, Err(())),
            ("4294967296", Kind::U32, Err(())),
            ("01", Kind::U32, Err(())),
            ("1.5", Kind::U32, Err(())),
            ("1.5", Kind::F32, Ok(1.5f32.to_bits())),
            ("1e3", Kind::F32, Ok(1000f32.to_bits())),
            ("-inf", Kind::F32, Ok(f32::NEG_INFINITY.to_bits())),
            ("2", Kind::F32, Ok(2f32.to_bits())),
            ("1.", Kind::F32, Err(())),
            (".5", Kind::F32, Err(())),
        ];
        for (token, kind, want) in cases {
            assert_eq!(number(token, kind).map_err(|_| ()), want, "{token}");
        }
    }

    #[test]
    fn a_bad_word_is_reported_at_its_line_and_column() {
        let mut body = vec!["7"; 600].join(", ");
        body.push_str(",\n  3, x");
        let err = mask(&long_list("u32", &body)).err().unwrap();
        assert_eq!(
            err,
            "u32[601] at line 3, column 6: 'x' is not a TOML number"
        );
        let mut body = vec!["7"; 600].join(", ");
        body.push_str(",,");
        let err = mask(&long_list("u32", &body)).err().unwrap();
        assert!(err.contains("expected a value before the comma"), "{err}");
        let body = vec!["-7"; 600].join(", ");
        let err = mask(&long_list("u32", &body)).err().unwrap();
        assert_eq!(err, "u32[0] at line 2, column 8: -7 does not fit a u32");
        assert!(mask(&long_list("i32", &body)).is_ok());
    }

    #[test]
    fn a_list_is_taken_once() {
        let text = long_list("u32", &vec!["1"; 600].join(", "));
        let mut m = mask(&text).unwrap();
        let doc: toml::Table = m.text.parse().unwrap();
        let _g = m.install();
        assert_eq!(preview(&doc["u32"]).unwrap().chars().next(), Some('['));
        assert!(take(&doc["u32"], Kind::F32).unwrap().is_err());
        assert_eq!(take(&doc["u32"], Kind::U32).unwrap().unwrap().len(), 600);
        assert!(take(&doc["u32"], Kind::U32).unwrap().is_err());
    }
}
