//! Suppressions: findings the user has said are intended. Two sources:
//!
//! - **Rules** given to [`Checker::set_allow`] (a job file's
//!   `[check] allow = [{ kind = "out-of-bounds", resource = "keys" }]`):
//!   a kind, and optionally the resource, by slot (`u0`, `g1`) or name.
//! - **Markers** in the HLSL source (compiled with `/Zi`, whose `SPDB`
//!   chunk carries the files' text): a comment `sm5sim: allow(KIND, …)` on
//!   the line of either access of a finding, or alone on the line above
//!   it.
//!
//! A suppressed finding is kept apart ([`Checker::suppressed`]) with the
//! rule or marker that silenced it, counted, and never reported as an
//! error or warning.

use crate::check::{Checker, Finding, FindingKind, HashMap};
use crate::Program;
/// A rule that suppresses findings ([`Checker::set_allow`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allow {
    /// The kind of finding it suppresses.
    pub kind: FindingKind,
    /// Only findings on this resource: a slot (`u0`, `t1`, `g0`) or the
    /// name the report gives it (the job's or the HLSL name); `None`: any.
    pub resource: Option<String>,
}

/// A finding that a rule or a marker suppressed.
#[derive(Debug, Clone)]
pub struct Suppressed {
    /// The finding, as it would have been reported.
    pub finding: Finding,
    /// What suppressed it: `allow kind = "benign" (job file)`, or the
    /// marker's `file:line`.
    pub by: String,
}

/// The text that starts a marker in an HLSL comment.
pub const MARKER: &str = "sm5sim: allow(";

/// The kinds a marker in `line` names, as a mask over
/// [`FindingKind::ALL`]'s indices; `Err` names a kind it does not know.
/// `Ok(0)` when the line has no marker.
pub(super) fn marker_kinds(line: &str) -> Result<u32, String> {
    let Some(comment) = line.find("//").map(|i| &line[i..]) else {
        return Ok(0);
    };
    let Some(start) = comment.find(MARKER) else {
        return Ok(0);
    };
    let rest = &comment[start + MARKER.len()..];
    let Some(end) = rest.find(')') else {
        return Err(format!("'{MARKER}' without its ')'"));
    };
    let mut mask = 0;
    for name in rest[..end].split(',').map(str::trim) {
        match FindingKind::ALL.iter().position(|k| k.name() == name) {
            Some(i) => mask |= 1 << i,
            None => {
                return Err(format!(
                    "'{name}' is not a kind of finding (they are: {})",
                    FindingKind::ALL.map(FindingKind::name).join(", ")
                ))
            }
        }
    }
    Ok(mask)
}

/// Each instruction's marker kinds (by pc; empty without source text),
/// and the markers that could not be read, as `file:line: why`.
pub(super) fn source_marks(program: &Program) -> (Vec<u32>, Vec<String>) {
    let Some(map) = program.source_map.as_ref() else {
        return (Vec::new(), Vec::new());
    };
    let mut problems = Vec::new();
    let mut seen = HashMap::new();
    let mut kinds_at = |at: crate::front::debug_info::SourceLine| -> u32 {
        *seen.entry(at).or_insert_with(|| {
            let Some(file) = map.files.get(at.file) else {
                return 0;
            };
            let mut mask = 0;
            // the line itself, and a comment alone on the line above
            let above = at.line.checked_sub(1).and_then(|l| file.line_text(l));
            let lines = [
                (at.line, file.line_text(at.line)),
                (
                    at.line.saturating_sub(1),
                    above.filter(|l| l.trim_start().starts_with("//")),
                ),
            ];
            for (n, text) in lines {
                match text.map(marker_kinds) {
                    Some(Ok(m)) => mask |= m,
                    Some(Err(why)) => {
                        problems.push(format!("{}:{n}: {why}", file.base_name()));
                    }
                    None => {}
                }
            }
            mask
        })
    };
    let marks = program
        .code
        .iter()
        .map(|op| map.line_at(op.token).map_or(0, &mut kinds_at))
        .collect();
    problems.sort();
    problems.dedup();
    (marks, problems)
}

impl Checker {
    /// Suppress the findings these rules match, from now on (each report
    /// then counts them apart: [`Checker::suppressed`]).
    pub fn set_allow(&mut self, rules: Vec<Allow>) {
        self.allow = rules;
    }

    /// The findings suppressed so far, with what suppressed each.
    pub fn suppressed(&self) -> &[Suppressed] {
        &self.suppressed
    }

    /// The markers in the HLSL source that could not be read (an unknown
    /// kind, a missing `)`), as `file:line: why`: they suppress nothing.
    pub fn marker_problems(&self) -> &[String] {
        &self.marker_problems
    }

    /// What suppresses `f`, if anything: a rule, else a marker on the line
    /// of one of its accesses.
    pub(super) fn suppression(&self, f: &Finding) -> Option<String> {
        let resource_is = |r: &str| {
            f.resource
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case(r))
                || f.resource_name.as_deref() == Some(r)
        };
        if let Some(rule) = self
            .allow
            .iter()
            .find(|a| a.kind == f.kind && a.resource.as_deref().is_none_or(resource_is))
        {
            return Some(match &rule.resource {
                Some(r) => format!("allow kind = \"{}\", resource = \"{r}\"", f.kind),
                None => format!("allow kind = \"{}\"", f.kind),
            });
        }
        let bit = 1u32 << FindingKind::ALL.iter().position(|&k| k == f.kind)?;
        [Some(&f.first), f.second.as_ref()]
            .into_iter()
            .flatten()
            .find(|a| {
                self.marks
                    .get(a.site.pc as usize)
                    .is_some_and(|m| m & bit != 0)
            })
            .map(|a| {
                let at = a.site.hlsl.as_deref().unwrap_or("the HLSL source");
                format!("{MARKER}{}) at {at}", f.kind)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_names_kinds_and_an_unknown_kind_is_said() {
        let bit = |k: FindingKind| 1u32 << FindingKind::ALL.iter().position(|&x| x == k).unwrap();
        assert_eq!(marker_kinds("x = keys[i]; // fine"), Ok(0));
        assert_eq!(
            marker_kinds("x = keys[i]; // sm5sim: allow(out-of-bounds)"),
            Ok(bit(FindingKind::OutOfBounds))
        );
        assert_eq!(
            marker_kinds("  // sm5sim: allow(raw, benign) read of a stale value is fine"),
            Ok(bit(FindingKind::Raw) | bit(FindingKind::Benign))
        );
        // not in a comment: no marker
        assert_eq!(marker_kinds("s = \"sm5sim: allow(raw)\";"), Ok(0));
        let e = marker_kinds("// sm5sim: allow(races)").unwrap_err();
        assert!(
            e.contains("'races' is not a kind") && e.contains("forward-progress"),
            "{e}"
        );
        assert!(marker_kinds("// sm5sim: allow(raw").is_err());
    }
}
