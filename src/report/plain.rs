//! Plain-text pieces shared by the exporters that CI and course platforms
//! show to a student (gradescope, junit, classroom): one function's failure
//! and the rule check, as short text with no Markdown. Pure.

use std::fmt::Write as _;

use super::{Report, StudentReport, points};
use crate::grading::FunctionScore;

/// The name the rule check's test takes in every test-shaped format.
pub(crate) const RULE_TEST: &str = "rules";

/// `passed/total cases, points/max points` for one function.
pub(crate) fn summary(f: &FunctionScore) -> String {
    format!(
        "{}/{} cases passed, {} / {} points",
        f.passed,
        f.total,
        points(f.points),
        points(f.max_points)
    )
}

/// The most characters of one input, answer or detail shown; the JSON
/// report has them whole.
const MAX_FIELD_CHARS: usize = 2000;

/// `text` cut to [`MAX_FIELD_CHARS`], saying how much was left out (the
/// feedback's own cut, at this format's length).
fn clip(text: &str) -> String {
    super::cut::clip(text, MAX_FIELD_CHARS)
}

/// The shown failure of a function: the shrunk counterexample when there is
/// one (else the smallest failing case), with expected, got, the detail and
/// the hint. `None` when every case passed.
pub(crate) fn failure(f: &FunctionScore) -> Option<String> {
    let fail = f.smallest_failure.as_ref()?;
    let shown = f.counterexample.as_ref();
    let v = shown.map_or(&fail.verdict, |c| &c.verdict);
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", v.kind.as_str(), summary(f));
    let _ = writeln!(out, "hint: {}", f.hint.as_deref().unwrap_or(v.kind.hint()));
    match shown {
        Some(c) => {
            let _ = writeln!(
                out,
                "counterexample (shrunk from case `{}`): {}",
                c.from_case,
                clip(&c.input)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "failing case `{}`: {}",
                fail.case_id,
                clip(&fail.input)
            );
        }
    }
    if let Some(d) = shown.and_then(|c| c.drawing.as_deref()) {
        let _ = writeln!(out, "{}", d.trim_end());
    }
    if let Some(e) = &v.expected {
        let _ = writeln!(out, "expected: {}", clip(e));
    }
    if let Some(g) = &v.got {
        let _ = writeln!(out, "got: {}", clip(g));
    }
    if let Some(l) = v.line {
        let _ = writeln!(out, "line: {l}");
    }
    if let Some(d) = &v.detail {
        let _ = writeln!(out, "{}", clip(d.trim_end()));
    }
    for note in &f.notes {
        let _ = writeln!(out, "{note}");
    }
    Some(out.trim_end().to_owned())
}

/// What a test-shaped format says under one function: the whole file's
/// failure when the file failed as a whole (the same text for every
/// function, with no case: the case played no part), else the function's
/// own [`failure`]; `None` when every case passed.
pub(crate) fn function_failure(
    report: &Report,
    s: &StudentReport,
    name: &str,
    f: &FunctionScore,
) -> Option<String> {
    let fail = f.smallest_failure.as_ref()?;
    match super::whole_file::whole_file(report, s) {
        Some(w) if w.functions.contains(&name) => Some(format!(
            "{}: {}\n{}",
            fail.verdict.kind.as_str(),
            summary(f),
            w.plain()
        )),
        _ if report.hides_failure(f) => {
            let kind = f
                .counterexample
                .as_ref()
                .map_or(fail.verdict.kind, |c| c.verdict.kind);
            Some(format!(
                "{}: {}\nhint: {}\n{}",
                kind.as_str(),
                summary(f),
                kind.hint(),
                super::HIDDEN_FAILURE
            ))
        }
        _ => failure(f),
    }
}

/// What the rule check found, or `None` when the assignment has no rule.
pub(crate) fn rule(report: &Report, s: &StudentReport) -> Option<String> {
    let rule = report.rule.as_ref()?;
    let mut out = String::new();
    if s.file.is_none() {
        let _ = write!(out, "not checked: no file was graded. {rule}");
        return Some(out);
    }
    if !s.rule_checked {
        let _ = write!(out, "not checked: the file could not be parsed. {rule}");
        return Some(out);
    }
    if s.violations.is_empty() {
        let _ = write!(out, "no violation found. {rule}");
        return Some(out);
    }
    let _ = writeln!(
        out,
        "{} violation(s), -{} points. {rule}",
        s.violations.len(),
        points(s.penalty)
    );
    for v in &s.violations {
        let _ = writeln!(
            out,
            "line {}, column {}, in `{}`: {}: {}",
            v.line,
            v.column,
            v.place(),
            v.construct,
            v.source.trim()
        );
    }
    Some(out.trim_end().to_owned())
}

/// The points the rule check took: what the functions earned minus the
/// score (the score is clamped at 0, so this can be less than the penalty).
pub(crate) fn deduction(s: &StudentReport) -> f64 {
    let earned: f64 = s.functions.values().map(|f| f.points).sum();
    crate::grading::round2((earned - s.score).max(0.0))
}

/// The rule test's score: minus [`deduction`], and never `-0`.
pub(crate) fn rule_score(s: &StudentReport) -> f64 {
    let d = deduction(s);
    if d > 0.0 { -d } else { 0.0 }
}

/// Whether the rule check failed this student: a violation, or a Python
/// file (or no file at all) the checker could not read, since a rule that
/// was never checked must not show as passed. A C++ file is not checked
/// (the rule is about Python's containers), so it does not fail.
pub(crate) fn rule_failed(s: &StudentReport) -> bool {
    let python_or_none = s.file.as_deref().is_none_or(|f| f.ends_with(".py"));
    !s.violations.is_empty() || (!s.rule_checked && python_or_none)
}

/// Milliseconds the student's code took on `function`'s cases.
pub(crate) fn wall_ms(s: &StudentReport, function: &str) -> u64 {
    s.cases
        .iter()
        .filter(|c| *c.function == *function)
        .filter_map(|c| c.wall_ms)
        .sum()
}

/// The single student of a single-submission format, or why there is not one.
pub(crate) fn only_student<'a>(
    report: &'a Report,
    format: &str,
) -> anyhow::Result<&'a StudentReport> {
    match report.students.as_slice() {
        [s] => Ok(s),
        many => anyhow::bail!(
            "`--format {format}` reports one submission, but this run graded {}; use `salgrade check FILE --format {format}`, or a folder holding one submission",
            many.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_fields_are_clipped_and_say_so() {
        assert_eq!(clip("short"), "short");
        let long = "x".repeat(MAX_FIELD_CHARS + 5);
        let cut = clip(&long);
        assert!(cut.starts_with(&"x".repeat(MAX_FIELD_CHARS)));
        assert!(cut.ends_with("[... 5 more characters; the whole case is in the JSON report]"));
    }
}
