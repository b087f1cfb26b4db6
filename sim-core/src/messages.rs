//! The shader's own debugging channel: `printf`, `errorf`, `abort` and
//! `debug_break` as a dispatch reports them.
//!
//! A `printf`/`errorf` (a custom-data block of class 4,
//! `reference/dxbc-format.md` §3.3) carries a format string and up to eight
//! operands. fxc does not check the one against the others and passes each
//! argument as the bits it holds: a 32-bit operand (`r0.x`, `l(1.5)`) is one
//! word, a double (`cb0[0].xyxy`, the operand of a `double` argument) two.
//! Each conversion reads the next argument's bits as its C type, with no
//! conversion of the value (as C++ AMP documents for `direct3d_printf`,
//! which the same D3D messages carry: "there is no automatic widening or
//! narrowing type conversion"). The text follows C's `printf` (C11
//! §7.21.6.1), [`MessageFormat`] says where HLSL's arguments differ.
//!
//! A dispatch keeps the first [`Messages::limit`] records in a fixed order
//! — by `SV_GroupID` (z, then y, then x), then `SV_GroupIndex`, then each
//! thread's program order — whatever order the groups ran in, and counts
//! the rest ([`MessageLog`]); the text is formatted only for the records
//! kept.

use std::fmt::Write as _;

/// The most argument words a message holds: fxc allows 8 arguments
/// ("intrinsic functions are limited to no more than 9 parameters"), each
/// one word or a double's two.
pub const MAX_ARG_WORDS: usize = 16;

/// Records a dispatch keeps when the caller does not say
/// ([`MessageLog::new`]).
pub const DEFAULT_MESSAGE_LIMIT: usize = 1000;

/// What produced a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MessageKind {
    /// HLSL `printf`.
    Printf,
    /// HLSL `errorf`: counted as an error of the dispatch.
    Errorf,
    /// `abort`: the thread ended there.
    Abort,
    /// `debug_break`.
    DebugBreak,
}

impl MessageKind {
    /// `printf`, `errorf`, `abort` or `debug_break`.
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::Printf => "printf",
            MessageKind::Errorf => "errorf",
            MessageKind::Abort => "abort",
            MessageKind::DebugBreak => "debug_break",
        }
    }
}

/// One argument of a message: a 32-bit operand's word, or a double
/// operand's 64 bits (low word first in the operand, FS §22.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A 32-bit operand: an `int`, `uint`, `float` or `bool` (0 or
    /// 0xFFFFFFFF) as its bits.
    Word(u32),
    /// A `double` operand as its bits.
    Double(u64),
}

/// C's conversion flags (C11 §7.21.6.1 ¶6).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Flags {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
}

/// A width or precision: a number written in the format, or `*` (the next
/// argument, as an `int`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Amount {
    Given(usize),
    Arg(usize),
}

/// One conversion specification.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Spec {
    flags: Flags,
    width: Option<Amount>,
    precision: Option<Amount>,
    /// the conversion character
    conv: char,
    /// the argument it converts (`None` for `%%`)
    arg: Option<usize>,
    /// the specification as written, printed when it cannot be honoured
    text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Conv(Spec),
}

/// A `printf`/`errorf` format string parsed once, against the kinds of
/// the arguments the instruction passes (C11 §7.21.6.1).
///
/// Conversions: `d i` (signed), `u o x X` (unsigned), `c` (the low byte, as
/// a Latin-1 character), `f F e E g G a A` (floating; a 32-bit argument is
/// the `float` of its bits, widened exactly), `p` (the bits in hex after
/// `0x`, `(nil)` for 0, as glibc prints a pointer), `%%`; flags `- + space # 0`, widths and precisions as numbers or
/// `*`; length modifiers (`hh h l ll j z t L`) are read and ignored: an
/// argument's size is what the operand holds (a double's 64 bits read as a
/// `long long` by an integer conversion). Infinities print `inf`, NaNs
/// `nan` (`-nan` with the sign bit; capitals for `F E G A`), as glibc does.
///
/// What HLSL cannot honour is printed as written and listed in
/// [`MessageFormat::problems`]: `%s` (HLSL has no string arguments), `%n`
/// (a message writes nothing back; its argument is skipped), an unknown
/// conversion, a conversion past the last argument; arguments no
/// conversion reads are listed too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageFormat {
    pieces: Vec<Piece>,
    problems: Vec<String>,
}

impl MessageFormat {
    /// Parse `format` for an instruction passing `args` arguments.
    pub fn parse(format: &str, args: usize) -> MessageFormat {
        let mut pieces = Vec::new();
        let mut problems = Vec::new();
        let mut text = String::new();
        let mut next = 0usize;
        let chars: Vec<char> = format.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            if c != '%' {
                text.push(c);
                continue;
            }
            let start = i - 1;
            let mut flags = Flags::default();
            while let Some(&f) = chars.get(i) {
                match f {
                    '-' => flags.left = true,
                    '+' => flags.plus = true,
                    ' ' => flags.space = true,
                    '#' => flags.alt = true,
                    '0' => flags.zero = true,
                    _ => break,
                }
                i += 1;
            }
            let amount = |i: &mut usize, next: &mut usize| -> Option<Amount> {
                if chars.get(*i) == Some(&'*') {
                    *i += 1;
                    *next += 1;
                    return Some(Amount::Arg(*next - 1));
                }
                let s = *i;
                while chars.get(*i).is_some_and(|c| c.is_ascii_digit()) {
                    *i += 1;
                }
                (*i > s).then(|| {
                    let digits: String = chars[s..*i].iter().collect();
                    Amount::Given(digits.parse().unwrap_or(usize::MAX).min(MAX_FIELD))
                })
            };
            let width = amount(&mut i, &mut next);
            let precision = if chars.get(i) == Some(&'.') {
                i += 1;
                Some(amount(&mut i, &mut next).unwrap_or(Amount::Given(0)))
            } else {
                None
            };
            while chars
                .get(i)
                .is_some_and(|c| matches!(c, 'h' | 'l' | 'j' | 'z' | 't' | 'L' | 'q' | 'I'))
            {
                // MSVC's `I32` and `I64` sizes
                if chars[i] == 'I'
                    && matches!(chars.get(i + 1..i + 3), Some(['3', '2'] | ['6', '4']))
                {
                    i += 2;
                }
                i += 1;
            }
            let Some(&conv) = chars.get(i) else {
                let written: String = chars[start..].iter().collect();
                problems.push(format!(
                    "`{written}` at the end of the format has no conversion character"
                ));
                text.push_str(&written);
                break;
            };
            i += 1;
            let written: String = chars[start..i].iter().collect();
            if conv == '%' {
                text.push('%');
                continue;
            }
            let known = matches!(
                conv,
                'd' | 'i'
                    | 'u'
                    | 'o'
                    | 'x'
                    | 'X'
                    | 'c'
                    | 'f'
                    | 'F'
                    | 'e'
                    | 'E'
                    | 'g'
                    | 'G'
                    | 'a'
                    | 'A'
                    | 'p'
            );
            let arg = (known || conv == 'n' || conv == 's').then(|| {
                next += 1;
                next - 1
            });
            let mut honoured = known;
            match conv {
                's' => problems.push(format!(
                    "`{written}`: HLSL has no string arguments; printed as written"
                )),
                'n' => problems.push(format!(
                    "`{written}`: a shader message writes nothing back; printed as written"
                )),
                _ if !known => problems.push(format!(
                    "`{written}`: `{conv}` is not a conversion of C's printf; printed as written"
                )),
                _ => {}
            }
            let needs = [width, precision]
                .iter()
                .filter_map(|a| match a {
                    Some(Amount::Arg(k)) => Some(*k),
                    _ => None,
                })
                .chain(arg)
                .max();
            if let Some(k) = needs.filter(|&k| k >= args) {
                if honoured {
                    problems.push(format!(
                        "`{written}` reads argument {} but the instruction passes {args}; printed as written",
                        k + 1
                    ));
                }
                honoured = false;
            }
            if !honoured {
                text.push_str(&written);
                continue;
            }
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Conv(Spec {
                flags,
                width,
                precision,
                conv,
                arg,
                text: written,
            }));
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        if next < args {
            problems.push(format!(
                "{} of the {args} arguments are not read by any conversion",
                args - next
            ));
        }
        MessageFormat { pieces, problems }
    }

    /// What the format asks that HLSL's arguments cannot give (see the type's
    /// documentation), one sentence each, in the order of the format.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The message `args` make, by C's rules (C11 §7.21.6.1). An argument
    /// the format reads and `args` lacks prints its specification as
    /// written.
    pub fn format(&self, args: &[Arg]) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Conv(spec) => {
                    if !spec.render(args, &mut out) {
                        out.push_str(&spec.text);
                    }
                }
            }
        }
        out
    }
}

/// The widest field or longest precision honoured (a larger one is cut to
/// it), so that a format cannot make a message of gigabytes.
const MAX_FIELD: usize = 4096;

impl Arg {
    fn as_i64(self) -> i64 {
        match self {
            Arg::Word(w) => w as i32 as i64,
            Arg::Double(d) => d as i64,
        }
    }
    fn as_u64(self) -> u64 {
        match self {
            Arg::Word(w) => w as u64,
            Arg::Double(d) => d,
        }
    }
    fn as_f64(self) -> f64 {
        match self {
            Arg::Word(w) => f32::from_bits(w) as f64,
            Arg::Double(d) => f64::from_bits(d),
        }
    }
}

impl Spec {
    /// Append this conversion of `args` to `out`; false when an argument
    /// it reads is missing.
    fn render(&self, args: &[Arg], out: &mut String) -> bool {
        let mut flags = self.flags;
        let width = match self.width {
            None => 0,
            Some(Amount::Given(n)) => n,
            Some(Amount::Arg(k)) => {
                let Some(a) = args.get(k) else { return false };
                let v = a.as_i64() as i32;
                // a negative width is the `-` flag and its magnitude (¶5)
                if v < 0 {
                    flags.left = true;
                }
                (v.unsigned_abs() as usize).min(MAX_FIELD)
            }
        };
        let precision = match self.precision {
            None => None,
            Some(Amount::Given(n)) => Some(n),
            // a negative precision is taken as if it were omitted (¶5)
            Some(Amount::Arg(k)) => {
                let Some(a) = args.get(k) else { return false };
                let v = a.as_i64() as i32;
                (v >= 0).then_some((v as usize).min(MAX_FIELD))
            }
        };
        let Some(arg) = self.arg.and_then(|k| args.get(k)).copied() else {
            return false;
        };
        let (sign, body, zero_pad) = match self.conv {
            'd' | 'i' => {
                let v = arg.as_i64();
                let digits = integer_digits(v.unsigned_abs(), 10, false, precision);
                (sign_of(v < 0, flags), digits, precision.is_none())
            }
            'u' | 'o' | 'x' | 'X' => {
                let v = arg.as_u64();
                let (radix, upper) = match self.conv {
                    'u' => (10, false),
                    'o' => (8, false),
                    'x' => (16, false),
                    _ => (16, true),
                };
                let mut digits = integer_digits(v, radix, upper, precision);
                let mut prefix = String::new();
                if flags.alt && radix == 8 && !digits.starts_with('0') {
                    digits.insert(0, '0');
                } else if flags.alt && radix == 16 && v != 0 {
                    prefix.push_str(if upper { "0X" } else { "0x" });
                }
                (prefix, digits, precision.is_none())
            }
            // glibc: `0x` and the hex digits, `(nil)` for 0
            'p' => match arg.as_u64() {
                0 => (String::new(), "(nil)".to_string(), false),
                v => ("0x".to_string(), format!("{v:x}"), false),
            },
            'c' => {
                let byte = (arg.as_u64() & 0xff) as u8;
                (String::new(), (byte as char).to_string(), false)
            }
            conv => {
                let v = arg.as_f64();
                let upper = conv.is_ascii_uppercase();
                let sign = sign_of(v.is_sign_negative(), flags);
                if !v.is_finite() {
                    let word = if v.is_nan() { "nan" } else { "inf" };
                    let word = if upper {
                        word.to_ascii_uppercase()
                    } else {
                        word.to_string()
                    };
                    (sign, word, false)
                } else {
                    let body = match conv.to_ascii_lowercase() {
                        'f' => fixed(v.abs(), precision.unwrap_or(6), flags.alt),
                        'e' => exponent(v.abs(), precision.unwrap_or(6), flags.alt, upper),
                        'g' => general(v.abs(), precision.unwrap_or(6), flags.alt, upper),
                        _ => hex_float(v.abs(), precision, flags.alt, upper),
                    };
                    (sign, body, true)
                }
            }
        };
        let len = sign.chars().count() + body.chars().count();
        let pad = width.saturating_sub(len);
        if flags.left {
            out.push_str(&sign);
            out.push_str(&body);
            out.extend(std::iter::repeat_n(' ', pad));
        } else if flags.zero && zero_pad {
            out.push_str(&sign);
            // a hex float's zeros go after its `0x`
            let (head, tail) = match body.strip_prefix("0x").or(body.strip_prefix("0X")) {
                Some(t) => body.split_at(body.len() - t.len()),
                None => ("", body.as_str()),
            };
            out.push_str(head);
            out.extend(std::iter::repeat_n('0', pad));
            out.push_str(tail);
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(&sign);
            out.push_str(&body);
        }
        true
    }
}

/// `-`, `+` (flag `+`), ` ` (flag space) or nothing.
fn sign_of(negative: bool, flags: Flags) -> String {
    match (negative, flags.plus, flags.space) {
        (true, _, _) => "-".into(),
        (false, true, _) => "+".into(),
        (false, false, true) => " ".into(),
        _ => String::new(),
    }
}

/// `v`'s digits with at least `precision` of them (default 1; precision 0
/// and value 0 give no digits, ¶8).
fn integer_digits(v: u64, radix: u32, upper: bool, precision: Option<usize>) -> String {
    let min = precision.unwrap_or(1);
    if v == 0 && min == 0 {
        return String::new();
    }
    let mut s = match radix {
        8 => format!("{v:o}"),
        16 if upper => format!("{v:X}"),
        16 => format!("{v:x}"),
        _ => v.to_string(),
    };
    if s.len() < min {
        s.insert_str(0, &"0".repeat(min - s.len()));
    }
    s
}

/// `%f`: exactly rounded to `precision` decimals (Rust's formatting rounds
/// the exact binary value half to even, as glibc does).
fn fixed(v: f64, precision: usize, alt: bool) -> String {
    let mut s = format!("{v:.precision$}");
    if alt && precision == 0 {
        s.push('.');
    }
    s
}

/// `%e`: `d.ddde±dd`, at least two exponent digits.
fn exponent(v: f64, precision: usize, alt: bool, upper: bool) -> String {
    let s = format!("{v:.precision$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut m = mantissa.to_string();
    if alt && precision == 0 {
        m.push('.');
    }
    let e = if upper { 'E' } else { 'e' };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{m}{e}{sign}{:02}", exp.unsigned_abs())
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`
/// (¶8).
fn general(v: f64, precision: usize, alt: bool, upper: bool) -> String {
    let p = precision.max(1);
    // the exponent after rounding to p significant digits
    let probe = format!("{v:.prec$e}", prec = p - 1);
    let x: i64 = probe
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut s = if (p as i64) > x && x >= -4 {
        fixed(v, (p as i64 - 1 - x) as usize, alt)
    } else {
        exponent(v, p - 1, alt, upper)
    };
    if !alt {
        let (mantissa, exp) = match s.find(['e', 'E']) {
            Some(k) => (s[..k].to_string(), s[k..].to_string()),
            None => (s.clone(), String::new()),
        };
        let mantissa = if mantissa.contains('.') {
            mantissa.trim_end_matches('0').trim_end_matches('.')
        } else {
            &mantissa
        };
        s = format!("{mantissa}{exp}");
    }
    s
}

/// `%a`: `0x1.hhhp±d` (normal), `0x0.hhhp-1022` (subnormal), `0x0p+0`;
/// without a precision, as many hex digits as the value needs; with one,
/// rounded half to even.
fn hex_float(v: f64, precision: Option<usize>, alt: bool, upper: bool) -> String {
    let bits = v.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (lead, exp) = match (raw_exp, frac) {
        (0, 0) => (0u64, 0i64),
        (0, _) => (0, -1022),
        _ => (1, raw_exp - 1023),
    };
    // the leading digit and the 13 fraction digits as one number, so that
    // rounding carries into the leading digit (`%.0a` of 1.5 is `0x2p+0`)
    let whole = lead << 52 | frac;
    let (lead, digits) = match precision {
        None => {
            let (mut mant, mut n) = (frac, 13);
            while n > 0 && mant & 0xf == 0 {
                mant >>= 4;
                n -= 1;
            }
            match n {
                0 => (lead, String::new()),
                n => (lead, format!("{mant:0n$x}")),
            }
        }
        Some(p) if p >= 13 => (lead, format!("{frac:013x}{}", "0".repeat(p - 13))),
        Some(p) => {
            let drop = 4 * (13 - p) as u32;
            let rest = whole & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            let mut kept = whole >> drop;
            if rest > half || (rest == half && kept & 1 == 1) {
                kept += 1;
            }
            let lead = kept >> (4 * p);
            match p {
                0 => (lead, String::new()),
                p => (lead, format!("{:0p$x}", kept & ((1u64 << (4 * p)) - 1))),
            }
        }
    };
    let point = if digits.is_empty() && !alt { "" } else { "." };
    let sign = if exp < 0 { '-' } else { '+' };
    let s = format!("0x{lead}{point}{digits}p{sign}{}", exp.unsigned_abs());
    if upper {
        s.to_ascii_uppercase()
    } else {
        s
    }
}

/// A record as the executor makes it, before its text is formatted: its
/// place in the dispatch's order and the argument bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawMessage {
    /// The order key: `SV_GroupID` (z, y, x), `SV_GroupIndex`, then the
    /// executor's sequence number within the group (each thread's program
    /// order).
    pub key: ([u32; 3], u32, u64),
    /// What made it.
    pub kind: MessageKind,
    /// The instruction's index in the program.
    pub pc: u32,
    /// Argument words used (`args[..len]`).
    pub len: u8,
    /// Which argument words start a double (bit k: words k and k+1).
    pub doubles: u16,
    /// The argument words.
    pub args: [u32; MAX_ARG_WORDS],
}

impl RawMessage {
    /// `SV_GroupID` of the thread.
    pub fn group(&self) -> [u32; 3] {
        let [z, y, x] = self.key.0;
        [x, y, z]
    }

    /// The arguments, doubles joined.
    pub fn arguments(&self) -> Vec<Arg> {
        let mut out = Vec::new();
        let mut k = 0;
        while k < self.len as usize {
            if self.doubles & (1 << k) != 0 && k + 1 < self.len as usize {
                out.push(Arg::Double(
                    self.args[k] as u64 | (self.args[k + 1] as u64) << 32,
                ));
                k += 2;
            } else {
                out.push(Arg::Word(self.args[k]));
                k += 1;
            }
        }
        out
    }
}

/// A bounded, ordered collection of records (see the module docs): the
/// first `limit` by [`RawMessage::key`], however many are added and in
/// whatever order, and the counts of all of them. Memory: at most twice
/// `limit` records between two [`MessageLog::add`]s' trims.
#[derive(Debug, Clone)]
pub struct MessageLog {
    limit: usize,
    kept: Vec<RawMessage>,
    /// records added per kind: printf, errorf, abort, debug_break
    counts: [u64; 4],
    /// the first `errorf`, by key (kept whatever the limit)
    first_error: Option<RawMessage>,
    /// once `limit` records were kept: the last of them; a later record
    /// past it can never be among the first `limit`
    cutoff: Option<Key>,
}

/// [`RawMessage::key`].
type Key = ([u32; 3], u32, u64);

impl Default for MessageLog {
    fn default() -> Self {
        MessageLog::new(DEFAULT_MESSAGE_LIMIT)
    }
}

impl MessageLog {
    /// An empty log keeping at most `limit` records.
    pub fn new(limit: usize) -> MessageLog {
        MessageLog {
            limit,
            kept: Vec::new(),
            counts: [0; 4],
            first_error: None,
            cutoff: None,
        }
    }

    /// How many records it keeps.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Records added, kept or not, by kind: printf, errorf, abort,
    /// debug_break (the order of [`MessageKind`]).
    pub fn counts(&self) -> [u64; 4] {
        self.counts
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// Add one record.
    pub fn add(&mut self, m: RawMessage) {
        self.counts[m.kind as usize] += 1;
        if m.kind == MessageKind::Errorf && self.first_error.is_none_or(|f| m.key < f.key) {
            self.first_error = Some(m);
        }
        self.keep(m);
    }

    fn keep(&mut self, m: RawMessage) {
        if self.limit == 0 || self.cutoff.is_some_and(|c| m.key > c) {
            return;
        }
        self.kept.push(m);
        if self.kept.len() >= self.limit.saturating_mul(2) {
            self.trim();
        }
    }

    fn trim(&mut self) {
        self.kept.sort_by_key(|m| m.key);
        self.kept.truncate(self.limit);
        if self.kept.len() == self.limit {
            self.cutoff = self.kept.last().map(|m| m.key);
        }
    }

    /// Move every record of `other` into this log.
    pub fn merge(&mut self, other: &mut MessageLog) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        if let Some(e) = other.first_error.take() {
            if self.first_error.is_none_or(|f| e.key < f.key) {
                self.first_error = Some(e);
            }
        }
        other.counts = [0; 4];
        for m in std::mem::take(&mut other.kept) {
            self.keep(m);
        }
        other.cutoff = None;
    }

    /// The records, formatted: `format` and `line` by pc (the program's
    /// parsed formats and, with `/Zi`, HLSL lines), `group_size` (threads
    /// per group, x y z). `Program::messages_of` passes its own.
    pub fn finish(
        mut self,
        format: impl Fn(u32) -> Option<MessageFormatRef>,
        line: impl Fn(u32) -> Option<(String, u32)>,
        group_size: [u32; 3],
    ) -> Messages {
        self.trim();
        let make = |m: &RawMessage| {
            let text = match m.kind {
                MessageKind::Printf | MessageKind::Errorf => match format(m.pc) {
                    Some(f) => f.format(&m.arguments()),
                    None => String::new(),
                },
                MessageKind::Abort => "abort".into(),
                MessageKind::DebugBreak => "debug_break".into(),
            };
            let group = m.group();
            let flat = m.key.1;
            let [sx, sy, _] = group_size.map(|s| s.max(1));
            let thread = [flat % sx, flat / sx % sy, flat / (sx * sy)];
            Message {
                kind: m.kind,
                group,
                thread,
                dispatch_thread: std::array::from_fn(|c| {
                    group[c].wrapping_mul(group_size[c]).wrapping_add(thread[c])
                }),
                pc: m.pc,
                text,
                line: line(m.pc),
            }
        };
        Messages {
            list: self.kept.iter().map(make).collect(),
            printf: self.counts[0],
            errorf: self.counts[1],
            aborts: self.counts[2],
            debug_breaks: self.counts[3],
            first_error: self.first_error.as_ref().map(make),
            limit: self.limit,
        }
    }
}

/// A program's parsed format, as [`MessageLog::finish`] asks for it.
pub type MessageFormatRef = std::sync::Arc<MessageFormat>;

/// One message of a dispatch (see the module docs for the order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// What made it.
    pub kind: MessageKind,
    /// `SV_GroupID` of the thread.
    pub group: [u32; 3],
    /// `SV_GroupThreadID` of the thread.
    pub thread: [u32; 3],
    /// `SV_DispatchThreadID` of the thread.
    pub dispatch_thread: [u32; 3],
    /// The instruction's index in the program (`disasm`'s order, from 0).
    pub pc: u32,
    /// The formatted text (`printf`/`errorf`), or the kind's name.
    pub text: String,
    /// The HLSL file and line, when the shader was built with `/Zi` and
    /// the caller filled it in.
    pub line: Option<(String, u32)>,
}

impl Message {
    /// `group (gx,gy,gz) thread (tx,ty,tz)`: where it came from.
    pub fn place(&self) -> String {
        let [gx, gy, gz] = self.group;
        let [tx, ty, tz] = self.thread;
        format!("group ({gx},{gy},{gz}) thread ({tx},{ty},{tz})")
    }

    /// One line: `[group (0,0,0) thread (1,0,0)] text`, with `errorf: `,
    /// `abort` or `debug_break` marking what is not a printf, and `
    /// (file.hlsl:18)` when the line is known.
    pub fn line_text(&self) -> String {
        let mut s = format!("[{}] ", self.place());
        match self.kind {
            MessageKind::Printf => {}
            MessageKind::Errorf => s.push_str("errorf: "),
            MessageKind::Abort | MessageKind::DebugBreak => {}
        }
        s.push_str(&self.text);
        if let Some((file, line)) = &self.line {
            let _ = write!(s, " ({file}:{line})");
        }
        s
    }
}

/// What a dispatch's shader said: the records kept, in order, and how many
/// there were of each kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Messages {
    /// The first [`Messages::limit`] records (module docs' order).
    pub list: Vec<Message>,
    /// `printf`s executed, per thread.
    pub printf: u64,
    /// `errorf`s executed, per thread.
    pub errorf: u64,
    /// Threads that executed `abort`.
    pub aborts: u64,
    /// `debug_break`s executed, per thread.
    pub debug_breaks: u64,
    /// The first `errorf` in the order, kept even past the limit.
    pub first_error: Option<Message>,
    /// How many records were kept at most.
    pub limit: usize,
}

impl Messages {
    /// All records, of every kind.
    pub fn total(&self) -> u64 {
        self.printf + self.errorf + self.aborts + self.debug_breaks
    }

    /// Records not kept ([`Messages::total`] less the list).
    pub fn dropped(&self) -> u64 {
        self.total().saturating_sub(self.list.len() as u64)
    }

    /// Whether the shader reported an error: an `errorf` ran (an `abort`
    /// ends its thread and is a warning, as before messages were run).
    pub fn failed(&self) -> bool {
        self.errorf > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(format: &str, args: &[Arg]) -> String {
        MessageFormat::parse(format, args.len()).format(args)
    }
    fn w(v: i32) -> Arg {
        Arg::Word(v as u32)
    }
    fn fl(v: f32) -> Arg {
        Arg::Word(v.to_bits())
    }

    #[test]
    fn c_rules() {
        assert_eq!(f("%d %i %u", &[w(-5), w(7), w(-1)]), "-5 7 4294967295");
        assert_eq!(
            f("%x %X %o %#x %#o %#X", &[w(255); 6]),
            "ff FF 377 0xff 0377 0XFF"
        );
        assert_eq!(
            f(
                "[%-5d][%+d][% d][%05d][%.3d]",
                &[w(1), w(2), w(3), w(-4), w(5)]
            ),
            "[1    ][+2][ 3][-0004][005]"
        );
        assert_eq!(
            f(
                "[%*d][%-*d][%.*f]",
                &[w(4), w(7), w(-3), w(8), w(2), fl(1.005)]
            ),
            "[   7][8  ][1.00]"
        );
        assert_eq!(f("%f %e %g", &[fl(1.5); 3]), "1.500000 1.500000e+00 1.5");
        assert_eq!(
            f(
                "%g %g %g %G",
                &[fl(1e-5), fl(123456.0), fl(1234567.0), fl(1e-10)]
            ),
            "1e-05 123456 1.23457e+06 1E-10"
        );
        assert_eq!(
            f("%#g %#.0f %#.0e", &[fl(1.0), fl(2.0), fl(3.0)]),
            "1.00000 2. 3.e+00"
        );
        assert_eq!(
            f("%.0f %.0f %.1f", &[fl(0.5), fl(1.5), fl(0.25)]),
            "0 2 0.2"
        );
        assert_eq!(
            f(
                "%f %F %e %E",
                &[
                    fl(f32::INFINITY),
                    fl(f32::NEG_INFINITY),
                    fl(f32::NAN),
                    fl(-f32::NAN)
                ]
            ),
            "inf -INF nan -NAN"
        );
        assert_eq!(
            f(
                "%a %A %.1a %a %a",
                &[fl(1.0), fl(-0.5), fl(1.96875), fl(0.0), Arg::Double(1u64)]
            ),
            "0x1p+0 -0X1P-1 0x2.0p+0 0x0p+0 0x0.0000000000001p-1022"
        );
        assert_eq!(
            f("%c%c %5c|%-3c|", &[w(72), w(105), w(65), w(66)]),
            "Hi     A|B  |"
        );
        assert_eq!(
            f("%p %p %8p", &[w(0x1234), w(0), w(0xab)]),
            "0x1234 (nil)     0xab"
        );
        // rounding carries into the leading hex digit, half to even
        assert_eq!(
            f("%.0a %.0a %.1a", &[fl(1.5), fl(1.25), fl(1.03125)]),
            "0x2p+0 0x1p+0 0x1.0p+0"
        );
        assert_eq!(f("100%% %.0d|%.0x|", &[w(0), w(0)]), "100% ||");
        assert_eq!(
            f(
                "%010.3f|%-10.2e|%+.2g",
                &[fl(-2.71875), fl(12345.0), fl(0.0001)]
            ),
            "-00002.719|1.23e+04  |+0.0001"
        );
        // a double's 64 bits: as a double by %f, as a long long by %d
        assert_eq!(
            f(
                "%f %lld",
                &[Arg::Double(2.25f64.to_bits()), Arg::Double(u64::MAX)]
            ),
            "2.250000 -1"
        );
        // bits are not converted: an int read by %f, a float read by %d
        assert_eq!(f("%d %f", &[fl(1.5), w(3)]), "1069547520 0.000000");
        assert_eq!(
            f("%hhd %ld %lu %zu", &[w(7), w(-2), w(9), w(1)]),
            "7 -2 9 1"
        );
    }

    #[test]
    fn what_hlsl_cannot_honour_is_printed_as_written_and_named() {
        let m = MessageFormat::parse("s=%s n=%n k=%k d=%d e=%5.2", 2);
        assert_eq!(m.format(&[w(1), w(2)]), "s=%s n=%n k=%k d=%d e=%5.2");
        let p = m.problems().join("\n");
        assert!(p.contains("`%s`: HLSL has no string arguments"), "{p}");
        assert!(
            p.contains("`%n`: a shader message writes nothing back"),
            "{p}"
        );
        assert!(p.contains("`%k`: `k` is not a conversion"), "{p}");
        assert!(
            p.contains("`%d` reads argument 3 but the instruction passes 2"),
            "{p}"
        );
        assert!(p.contains("`%5.2` at the end of the format"), "{p}");
        let extra = MessageFormat::parse("%d", 3);
        assert_eq!(
            extra.problems(),
            ["2 of the 3 arguments are not read by any conversion"]
        );
        assert!(MessageFormat::parse("%d %% %f", 2).problems().is_empty());
        // a huge width is cut, not allocated
        assert_eq!(f("%999999999d", &[w(1)]).len(), MAX_FIELD);
    }

    fn raw(group: [u32; 3], flat: u32, seq: u64, kind: MessageKind) -> RawMessage {
        let [x, y, z] = group;
        RawMessage {
            key: ([z, y, x], flat, seq),
            kind,
            pc: 0,
            len: 1,
            doubles: 0,
            args: [flat; MAX_ARG_WORDS],
        }
    }

    #[test]
    fn the_log_keeps_the_first_records_in_order_whatever_the_arrival() {
        let mut all = Vec::new();
        for z in 0..2 {
            for x in 0..5 {
                for t in 0..4 {
                    for s in 0..3 {
                        all.push(raw([x, 0, z], t, s, MessageKind::Printf));
                    }
                }
            }
        }
        all.push(raw([4, 0, 1], 3, 9, MessageKind::Errorf));
        all.push(raw([1, 0, 1], 2, 9, MessageKind::Abort));
        let mut sorted = all.clone();
        sorted.sort_by_key(|m| m.key);
        for limit in [0, 1, 7, 50, 1000] {
            // arrival: reversed, in two logs merged
            let (mut a, mut b) = (MessageLog::new(limit), MessageLog::new(limit));
            for (k, m) in all.iter().rev().enumerate() {
                if k % 3 == 0 {
                    a.add(*m)
                } else {
                    b.add(*m)
                }
            }
            a.merge(&mut b);
            let fmt = std::sync::Arc::new(MessageFormat::parse("%u", 1));
            let done = a.finish(|_| Some(fmt.clone()), |_| None, [4, 1, 1]);
            let want: Vec<_> = (sorted.iter().take(limit))
                .map(|m| (m.group(), m.key.1, m.kind))
                .collect();
            let got: Vec<_> = (done.list.iter())
                .map(|m| (m.group, m.thread[0], m.kind))
                .collect();
            assert_eq!(got, want, "limit {limit}");
            assert_eq!((done.printf, done.errorf, done.aborts), (120, 1, 1));
            assert_eq!(done.dropped(), 122 - done.list.len() as u64);
            let e = done.first_error.expect("first error kept past the limit");
            assert_eq!(
                (e.kind, e.group, e.thread),
                (MessageKind::Errorf, [4, 0, 1], [3, 0, 0])
            );
        }
    }
}
