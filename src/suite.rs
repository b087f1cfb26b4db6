//! Suites of jobs: `sm5sim run` and `sm5sim check` given several job files
//! or directories ([`find_jobs`]), one part of them on each machine of a CI
//! matrix ([`Shard`]), and their results as JUnit XML ([`junit_xml`]), the
//! form CI test reporters read.
//!
//! A job's *name* is its path relative to the current directory (or, when
//! it lies outside it and was given as an absolute path, that absolute
//! path), lexically normalised and written with `/`. Names order the suite
//! and pick each job's shard, so two machines that run the same command in
//! checkouts at different places agree on both.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// One job of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteJob {
    /// The job file, as found: the argument, or a directory argument joined
    /// with the path below it.
    pub path: PathBuf,
    /// Its name ([module docs](self)): what reports and JUnit XML call it.
    pub name: String,
}

/// The extension of job files found in directories.
pub const JOB_EXTENSION: &str = "toml";

/// The jobs that `paths` name, sorted by name, each file once.
///
/// A directory is searched recursively for files ending in `.toml`; links
/// to directories inside it are not followed (a link back up the tree
/// cannot make the walk endless), links to files are. Any other argument is
/// a job file as given, even one that does not exist: loading it reports
/// the error for that job alone. A file named twice, in any spelling
/// (through `./`, a link, a directory and by itself), is run once.
/// `cwd` is the directory names are relative to.
///
/// # Errors
/// A directory that cannot be read, with the OS error.
pub fn find_jobs(paths: &[PathBuf], cwd: &Path) -> Result<Vec<SuiteJob>, String> {
    let found =
        crate::files::expand_dirs(paths, |f| f.extension().is_some_and(|x| x == JOB_EXTENSION))?;
    let mut jobs: Vec<SuiteJob> = found
        .into_iter()
        .map(|path| SuiteJob {
            name: job_name(&path, cwd),
            path,
        })
        .collect();
    jobs.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.path.cmp(&b.path)));
    // each file once, however it was named: the first name in order is kept
    let mut seen = HashSet::new();
    jobs.retain(|j| {
        let key = j
            .path
            .canonicalize()
            .unwrap_or_else(|_| lexical(&cwd.join(&j.path)));
        seen.insert(key)
    });
    Ok(jobs)
}

/// `path` without `.` components, and with `name/..` folded (a leading
/// `..` stays).
fn lexical(path: &Path) -> PathBuf {
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                // `/..` is `/`
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(c),
            },
            c => out.push(c),
        }
    }
    out.iter().collect()
}

/// A job's name ([module docs](self)): `path` relative to `cwd`, with `/`.
pub fn job_name(path: &Path, cwd: &Path) -> String {
    let path = lexical(path);
    let relative = if path.is_absolute() {
        let cwd = lexical(cwd);
        let canonical = cwd.canonicalize().ok();
        path.strip_prefix(&cwd)
            .ok()
            .or_else(|| canonical.as_deref().and_then(|c| path.strip_prefix(c).ok()))
            .map(Path::to_path_buf)
            .unwrap_or(path)
    } else {
        path
    };
    let parts: Vec<String> = relative
        .components()
        .map(|c| match c {
            Component::RootDir => String::new(),
            c => c.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    match parts.as_slice() {
        [] => ".".into(),
        // an absolute path keeps its leading `/`
        [root] if root.is_empty() => "/".into(),
        _ => parts.join("/"),
    }
}

/// One of N disjoint parts of a suite (`--shard I/N`): the jobs at
/// positions I−1, I−1+N, I−1+2N, … of the suite sorted by name. Every job
/// is in exactly one of the N shards, and shards differ in size by at most
/// one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// I, from 1 to `count`
    pub index: usize,
    /// N, at least 1
    pub count: usize,
}

impl Shard {
    /// Parse `I/N`.
    ///
    /// # Errors
    /// A message saying what is wrong: not two numbers, N = 0, or I
    /// outside 1..=N.
    pub fn parse(text: &str) -> Result<Self, String> {
        let form = || {
            format!("{text:?} is not a shard: give I/N, the I-th of N parts (1 ≤ I ≤ N), e.g. 1/4")
        };
        let (i, n) = text.split_once('/').ok_or_else(form)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(form());
            }
            s.parse::<usize>()
                .map_err(|_| format!("{text:?}: {s} is too large for a shard number"))
        };
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 {
            return Err(format!(
                "{text:?}: the number of shards N must be at least 1"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "{text:?}: shards are numbered from 1 to {count}, so I must be between 1 and {count}"
            ));
        }
        Ok(Self { index, count })
    }

    /// The items of this shard, from items in suite order.
    pub fn select<T>(&self, items: Vec<T>) -> Vec<T> {
        items
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % self.count == self.index - 1)
            .map(|(_, t)| t)
            .collect()
    }
}

/// A `-k` expression selecting jobs by name, as pytest's `-k` does:
/// words matched case-insensitively as substrings of the job's name,
/// combined with `and`, `or`, `not` and parentheses (`-k "sort and not
/// large"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keyword {
    /// a substring of the name (lower case)
    Word(String),
    /// both
    And(Box<Keyword>, Box<Keyword>),
    /// either
    Or(Box<Keyword>, Box<Keyword>),
    /// not
    Not(Box<Keyword>),
}

impl Keyword {
    /// Parse an expression.
    ///
    /// # Errors
    /// A message naming what was expected where: an empty expression, a
    /// missing operand or parenthesis, a word left over.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut tokens = Vec::new();
        let mut word = String::new();
        for c in text.chars() {
            if c.is_whitespace() || c == '(' || c == ')' {
                if !word.is_empty() {
                    tokens.push(std::mem::take(&mut word));
                }
                if c != ' ' && !c.is_whitespace() {
                    tokens.push(c.to_string());
                }
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            tokens.push(word);
        }
        let mut at = 0;
        let k = Self::or(&tokens, &mut at, text)?;
        match tokens.get(at) {
            None => Ok(k),
            Some(t) => Err(format!(
                "{text:?}: unexpected {t:?} (combine words with and, or, not)"
            )),
        }
    }

    fn or(t: &[String], at: &mut usize, text: &str) -> Result<Self, String> {
        let mut k = Self::and(t, at, text)?;
        while t.get(*at).is_some_and(|w| w == "or") {
            *at += 1;
            k = Keyword::Or(Box::new(k), Box::new(Self::and(t, at, text)?));
        }
        Ok(k)
    }

    fn and(t: &[String], at: &mut usize, text: &str) -> Result<Self, String> {
        let mut k = Self::not(t, at, text)?;
        while t.get(*at).is_some_and(|w| w == "and") {
            *at += 1;
            k = Keyword::And(Box::new(k), Box::new(Self::not(t, at, text)?));
        }
        Ok(k)
    }

    fn not(t: &[String], at: &mut usize, text: &str) -> Result<Self, String> {
        match t.get(*at).map(String::as_str) {
            Some("not") => {
                *at += 1;
                Ok(Keyword::Not(Box::new(Self::not(t, at, text)?)))
            }
            Some("(") => {
                *at += 1;
                let k = Self::or(t, at, text)?;
                if t.get(*at).map(String::as_str) != Some(")") {
                    return Err(format!("{text:?}: a ( without its )"));
                }
                *at += 1;
                Ok(k)
            }
            Some(w) if !matches!(w, "and" | "or" | ")") => {
                *at += 1;
                Ok(Keyword::Word(w.to_lowercase()))
            }
            _ => Err(format!("{text:?}: expected a word to match job names")),
        }
    }

    /// Whether the job named `name` is selected.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            Keyword::Word(w) => name.to_lowercase().contains(w.as_str()),
            Keyword::And(a, b) => a.matches(name) && b.matches(name),
            Keyword::Or(a, b) => a.matches(name) || b.matches(name),
            Keyword::Not(a) => !a.matches(name),
        }
    }
}

/// The jobs that failed or had an error when they last ran, kept between
/// runs in `DIR/lastfailed` (one name a line) for `--last-failed`, as
/// pytest keeps its cache: a job that passes or is skipped leaves the list,
/// one that fails or errs joins it, one not run keeps its place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastFailed {
    /// job names
    pub names: std::collections::BTreeSet<String>,
}

/// The folder of the suite state, in the directory the command runs in.
pub const CACHE_DIR: &str = ".sm5sim_cache";

impl LastFailed {
    /// The list kept in `dir` (empty when there is none).
    pub fn read(dir: &Path) -> Self {
        let names = std::fs::read_to_string(dir.join("lastfailed"))
            .map(|t| {
                t.lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        LastFailed { names }
    }

    /// Update with the outcomes of the jobs that ran.
    pub fn update<'a>(&mut self, results: impl IntoIterator<Item = (&'a str, Outcome)>) {
        for (name, outcome) in results {
            match outcome {
                Outcome::Failed | Outcome::Error => {
                    self.names.insert(name.to_owned());
                }
                Outcome::Passed | Outcome::Skipped => {
                    self.names.remove(name);
                }
            }
        }
    }

    /// Write the list into `dir` (created, with a `.gitignore` of `*`).
    ///
    /// # Errors
    /// The I/O error.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            crate::files::write_atomic(&ignore, b"# made by sm5sim\n*\n")?;
        }
        let mut text = String::new();
        for n in &self.names {
            text.push_str(n);
            text.push('\n');
        }
        crate::files::write_atomic(&dir.join("lastfailed"), text.as_bytes())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::parse(s)
    }
}

/// How a job of a suite ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every expectation held (and, for `check`, nothing was wrong).
    Passed,
    /// An expectation failed (for `check`: also an error finding, or
    /// outputs that differ between schedules). Exit status 1.
    Failed,
    /// The job could not run to its end: a bad job file, an unreadable
    /// input, a refused or stopped dispatch. Exit status 2.
    Error,
    /// The job did not run: it says `skip = "reason"`, or its HLSL needs a
    /// compiler this machine does not have. Counts as neither a pass nor a
    /// failure (exit status 0 when nothing else failed).
    Skipped,
}

impl Outcome {
    /// `passed`, `failed` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Error => "error",
            Outcome::Skipped => "skipped",
        }
    }
}

/// One job's result, as JUnit XML reports it.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// the job's name ([module docs](self))
    pub name: String,
    /// how it ended
    pub outcome: Outcome,
    /// wall-clock time, loading included
    pub seconds: f64,
    /// one line: what failed, or the error (empty when passed)
    pub message: String,
    /// the failure's details (the first mismatches, the findings) or the
    /// whole error message
    pub details: String,
    /// everything the job reported, as `sm5sim run JOB` prints it
    pub output: String,
}

/// The counts of a suite's outcomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// jobs run
    pub jobs: usize,
    /// jobs that passed
    pub passed: usize,
    /// jobs with a failed expectation
    pub failed: usize,
    /// jobs that had an error
    pub errors: usize,
    /// jobs that did not run ([`Outcome::Skipped`])
    pub skipped: usize,
}

impl Totals {
    /// Count `outcomes`.
    pub fn of(outcomes: impl IntoIterator<Item = Outcome>) -> Self {
        let mut t = Totals::default();
        for o in outcomes {
            t.jobs += 1;
            match o {
                Outcome::Passed => t.passed += 1,
                Outcome::Failed => t.failed += 1,
                Outcome::Error => t.errors += 1,
                Outcome::Skipped => t.skipped += 1,
            }
        }
        t
    }

    /// The exit status: 0 all passed (or were skipped), 1 some failed and
    /// none had an error, 2 some had an error.
    pub fn exit_status(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

impl std::fmt::Display for Totals {
    /// `12 jobs: 10 passed, 1 failed, 1 error` (`, 2 skipped` when some
    /// were)
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural = |n: usize, one: &'static str, many: &'static str| {
            if n == 1 {
                one
            } else {
                many
            }
        };
        write!(
            f,
            "{} {}: {} passed, {} failed, {} {}",
            self.jobs,
            plural(self.jobs, "job", "jobs"),
            self.passed,
            self.failed,
            self.errors,
            plural(self.errors, "error", "errors")
        )?;
        if self.skipped > 0 {
            write!(f, ", {} skipped", self.skipped)?;
        }
        Ok(())
    }
}

/// The longest `message` attribute written; longer ones are cut (the whole
/// text is in the element's body).
const MAX_MESSAGE_CHARS: usize = 500;

/// `text` with the characters XML 1.0 cannot hold (controls other than tab,
/// newline and carriage return; U+FFFE, U+FFFF) written as `\u{…}`.
fn xml_safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\t' | '\n' | '\r') || !(c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}') {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    out
}

/// One line for a `message` attribute: the first line of `text`, at most
/// [`MAX_MESSAGE_CHARS`] characters.
fn attribute_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut s: String = line.chars().take(MAX_MESSAGE_CHARS).collect();
    if line.chars().count() > MAX_MESSAGE_CHARS {
        s.push('…');
    }
    xml_safe(&s)
}

/// The JUnit class of a job: its directory with `.` for `/`
/// (`examples/histogram/histogram.toml` → `examples.histogram`), or
/// `suite` for a job with no directory.
pub fn junit_classname(name: &str, suite: &str) -> String {
    match name.rsplit_once('/') {
        Some((dir, _)) if !dir.is_empty() => dir.trim_start_matches('/').replace('/', "."),
        _ => suite.to_string(),
    }
}

/// A suite's results as JUnit XML in the Ant/Surefire form CI test
/// reporters read: `<testsuites>` holding one `<testsuite name=suite>`,
/// one `<testcase>` per job (`name` = the job's name, `classname` =
/// [`junit_classname`], `file`, `time` in seconds) with a `<failure>` or an
/// `<error>` (a one-line `message`, the details as its text) and the job's
/// report as `<system-out>`. Text is escaped; characters XML cannot hold
/// are written as `\u{…}`.
pub fn junit_xml(suite: &str, cases: &[CaseResult], seconds: f64) -> String {
    junit_document(suite, cases, seconds).unwrap_or_else(|e| {
        // writing to a Vec does not fail; keep a valid document if it ever does
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites><!-- {} --></testsuites>\n",
            xml_safe(&e.to_string()).replace("--", "- -")
        )
    })
}

fn junit_document(suite: &str, cases: &[CaseResult], seconds: f64) -> std::io::Result<String> {
    use quick_xml::events::{BytesDecl, BytesText, Event};
    let totals = Totals::of(cases.iter().map(|c| c.outcome));
    let (tests, failures, errors, skipped) = (
        totals.jobs.to_string(),
        totals.failed.to_string(),
        totals.errors.to_string(),
        totals.skipped.to_string(),
    );
    let time = format!("{seconds:.3}");
    let suite = xml_safe(suite);
    let mut w = quick_xml::Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    w.create_element("testsuites")
        .with_attributes([
            ("name", suite.as_str()),
            ("tests", tests.as_str()),
            ("failures", failures.as_str()),
            ("errors", errors.as_str()),
            ("time", time.as_str()),
        ])
        .write_inner_content(|w| {
            w.create_element("testsuite")
                .with_attributes([
                    ("name", suite.as_str()),
                    ("tests", tests.as_str()),
                    ("failures", failures.as_str()),
                    ("errors", errors.as_str()),
                    ("skipped", skipped.as_str()),
                    ("time", time.as_str()),
                ])
                .write_inner_content(|w| {
                    for c in cases {
                        let name = xml_safe(&c.name);
                        let classname = junit_classname(&name, &suite);
                        let time = format!("{:.3}", c.seconds);
                        w.create_element("testcase")
                            .with_attributes([
                                ("name", name.as_str()),
                                ("classname", classname.as_str()),
                                ("file", name.as_str()),
                                ("time", time.as_str()),
                            ])
                            .write_inner_content(|w| {
                                let kind = match c.outcome {
                                    Outcome::Passed => None,
                                    Outcome::Failed => Some(("failure", "expectation")),
                                    Outcome::Error => Some(("error", "error")),
                                    Outcome::Skipped => {
                                        let message = attribute_line(&c.message);
                                        w.create_element("skipped")
                                            .with_attribute(("message", message.as_str()))
                                            .write_empty()?;
                                        None
                                    }
                                };
                                if let Some((element, kind)) = kind {
                                    let message = attribute_line(&c.message);
                                    w.create_element(element)
                                        .with_attributes([
                                            ("message", message.as_str()),
                                            ("type", kind),
                                        ])
                                        .write_text_content(BytesText::new(&xml_safe(
                                            &c.details,
                                        )))?;
                                }
                                if !c.output.is_empty() {
                                    w.create_element("system-out")
                                        .write_text_content(BytesText::new(&xml_safe(&c.output)))?;
                                }
                                Ok(())
                            })?;
                    }
                    Ok(())
                })?;
            Ok(())
        })?;
    let mut text = String::from_utf8(w.into_inner()).map_err(std::io::Error::other)?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_expressions_select_as_pytest_does() {
        let k = Keyword::parse("sort and not (large or Huge)").unwrap();
        assert!(k.matches("examples/bitonic_sort/bitonic_sort.toml"));
        assert!(!k.matches("examples/sort_large.toml"));
        assert!(!k.matches("examples/SORT_huge.toml"));
        assert!(!k.matches("examples/scan/scan.toml"));
        assert!(Keyword::parse("scan or reduce")
            .unwrap()
            .matches("x/reduce.toml"));
        for bad in ["", "and", "a and", "(a", "a b", "a )"] {
            assert!(Keyword::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn last_failed_keeps_what_did_not_run() {
        let dir = std::env::temp_dir().join(format!("sm5sim-lf-{}", std::process::id()));
        let mut lf = LastFailed::default();
        lf.update([
            ("a", Outcome::Failed),
            ("b", Outcome::Error),
            ("c", Outcome::Passed),
        ]);
        lf.write(&dir).unwrap();
        let mut again = LastFailed::read(&dir);
        assert_eq!(again, lf);
        again.update([("a", Outcome::Passed)]);
        assert_eq!(again.names.iter().collect::<Vec<_>>(), ["b"]);
        assert!(std::fs::read_to_string(dir.join(".gitignore"))
            .unwrap()
            .contains('*'));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn shards_parse_and_refuse_what_is_not_one() {
        assert_eq!(Shard::parse("1/2"), Ok(Shard { index: 1, count: 2 }));
        assert_eq!(Shard::parse("3/3"), Ok(Shard { index: 3, count: 3 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard { index: 1, count: 1 }));
        for (bad, says) in [
            ("0/2", "numbered from 1 to 2"),
            ("3/2", "between 1 and 2"),
            ("1/0", "at least 1"),
            ("x", "not a shard"),
            ("1/", "not a shard"),
            ("/2", "not a shard"),
            ("-1/2", "not a shard"),
            ("1/2/3", "not a shard"),
            ("1.5/2", "not a shard"),
            ("1/99999999999999999999999", "too large"),
        ] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn shards_are_disjoint_and_cover_the_suite() {
        let items: Vec<usize> = (0..23).collect();
        for n in 1..=7 {
            let mut all = Vec::new();
            for i in 1..=n {
                let part = Shard { index: i, count: n }.select(items.clone());
                assert!(part.len() >= 23 / n && part.len() <= 23 / n + 1);
                all.extend(part);
            }
            all.sort();
            assert_eq!(all, items, "{n} shards");
        }
    }

    #[test]
    fn names_are_relative_to_the_current_directory_with_slashes() {
        let cwd = Path::new("/work/checkout");
        assert_eq!(
            job_name(Path::new("examples/a.toml"), cwd),
            "examples/a.toml"
        );
        assert_eq!(
            job_name(Path::new("./examples/./a.toml"), cwd),
            "examples/a.toml"
        );
        assert_eq!(
            job_name(Path::new("examples/x/../a.toml"), cwd),
            "examples/a.toml"
        );
        assert_eq!(
            job_name(Path::new("../other/a.toml"), cwd),
            "../other/a.toml"
        );
        assert_eq!(
            job_name(Path::new("/work/checkout/examples/a.toml"), cwd),
            "examples/a.toml"
        );
        assert_eq!(
            job_name(Path::new("/elsewhere/a.toml"), cwd),
            "/elsewhere/a.toml"
        );
    }

    #[test]
    fn totals_read_as_a_summary_and_give_the_exit_status() {
        use Outcome::*;
        let t = Totals::of([Passed, Passed, Failed, Error]);
        assert_eq!(t.to_string(), "4 jobs: 2 passed, 1 failed, 1 error");
        assert_eq!(t.exit_status(), 2);
        let t = Totals::of([Passed, Skipped, Skipped]);
        assert_eq!(
            t.to_string(),
            "3 jobs: 1 passed, 0 failed, 0 errors, 2 skipped"
        );
        assert_eq!(t.exit_status(), 0);
        assert_eq!(Totals::of([Passed, Failed]).exit_status(), 1);
        assert_eq!(
            Totals::of([Passed]).to_string(),
            "1 job: 1 passed, 0 failed, 0 errors"
        );
        assert_eq!(Totals::of([]).exit_status(), 0);
    }

    #[test]
    fn junit_escapes_text_and_drops_nothing() {
        let case = |name: &str, outcome, message: &str| CaseResult {
            name: name.into(),
            outcome,
            seconds: 0.25,
            message: message.into(),
            details: format!("{message}\n  <&> \"quoted\" ]]> \u{1}"),
            output: "step 0: ok".into(),
        };
        let xml = junit_xml(
            "sm5sim run",
            &[
                case("a/b/ok.toml", Outcome::Passed, ""),
                case(
                    "a/fail & <x>.toml",
                    Outcome::Failed,
                    "expect \"bins\": <3> differ",
                ),
                case("err.toml", Outcome::Error, "bad\u{1b}[0m key"),
            ],
            1.0,
        );
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
            "{xml}"
        );
        assert!(
            xml.contains("tests=\"3\" failures=\"1\" errors=\"1\""),
            "{xml}"
        );
        assert!(
            xml.contains("name=\"a/fail &amp; &lt;x&gt;.toml\""),
            "{xml}"
        );
        assert!(xml.contains("classname=\"a.b\""), "{xml}");
        assert!(xml.contains("classname=\"sm5sim run\""), "{xml}");
        assert!(
            xml.contains("message=\"expect &quot;bins&quot;: &lt;3&gt; differ\""),
            "{xml}"
        );
        assert!(xml.contains("bad\\u{1b}[0m key"), "{xml}");
        assert!(!xml.contains('\u{1}') && !xml.contains('\u{1b}'), "{xml}");
    }
}
