//! A common mistake as the report holds it ([`Cluster`]), and what a report
//! does with its mistakes on its own: each in one line, the shards' groups
//! combined, members in the report's order. How the groups are found is
//! `grading::clusters`, which builds on this; this module never imports it.

use std::collections::BTreeMap;

use salgrade_reference::Case;
use serde::{Deserialize, Serialize};

use crate::report::Report;
use crate::verdict::{Verdict, VerdictKind};

/// One common mistake: the students who share it and what it looks like.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Cluster {
    /// The function that fails; empty when the whole file failed to import
    /// or build.
    pub function: String,
    /// The verdict class every member gets on the board.
    pub verdict: VerdictKind,
    /// The members, in report order.
    pub students: Vec<String>,
    /// The minimal board described for a person.
    pub input: String,
    /// The board itself, when it is known (a shrunk counterexample): a
    /// case file holding it reproduces the mistake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<crate::report::schema::CaseMirror>")]
    pub case: Option<Case>,
    /// What the reference accepts, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What the members' code produced, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub got: Option<String>,
    /// The representative's detail (the exception, how it died).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The reference's explanation of the board in one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// What the verdict means, in the assignment's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The graded case the board was shrunk from (its deadline is used for
    /// the re-runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_case: Option<String>,
    /// How many groups of step 2 were merged into this one (1: none).
    pub merged: u32,
}

impl Cluster {
    /// The mistake in one line, as `grade` prints it under the table:
    /// "3 students: `whowins` answers 2 on …, expected 1 (…)".
    pub(crate) fn line(&self) -> String {
        let n = self.students.len();
        let who = format!("{n} student{}", if n == 1 { "" } else { "s" });
        let what = if self.function.is_empty() {
            "the file".to_owned()
        } else {
            format!("`{}`", self.function)
        };
        let did = match (self.verdict, &self.got) {
            (VerdictKind::WrongAnswer, Some(got)) => format!("answers {got}"),
            (VerdictKind::MissingFunction, _) => "is missing".to_owned(),
            (VerdictKind::ImportFailed | VerdictKind::BuildFailed, _) => format!(
                "{}{}",
                self.verdict.as_str().replace('_', " "),
                self.detail
                    .as_deref()
                    .map(headline)
                    .filter(|d| !d.is_empty())
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
            (kind, _) => kind.as_str().replace('_', " "),
        };
        let on = if self.function.is_empty() || self.verdict == VerdictKind::MissingFunction {
            String::new()
        } else {
            format!(" on {}", self.input)
        };
        let expected = self
            .expected
            .as_ref()
            .map(|e| format!(", expected {e}"))
            .unwrap_or_default();
        let why = self
            .explanation
            .as_ref()
            .filter(|_| self.verdict != VerdictKind::MissingFunction)
            .map(|e| format!(" ({})", e.trim_end_matches('.')))
            .unwrap_or_default();
        one_line(&format!("{who}: {what} {did}{on}{expected}{why}"), 240)
    }

    pub(crate) fn same_answer(&self, v: &Verdict) -> bool {
        v.kind == self.verdict && v.got == self.got
    }
}

/// The start of a failure's detail that names it: its first line up to
/// the first `: ` outside parentheses (`SyntaxError` of `SyntaxError:
/// expected ':'`), so a cut never leaves a parenthesis open.
fn headline(detail: &str) -> &str {
    let line = detail.lines().next().unwrap_or_default();
    let mut depth = 0usize;
    for (at, c) in line.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ':' if depth == 0 && line[at + 1..].starts_with(' ') => return &line[..at],
            _ => {}
        }
    }
    line
}

/// `text` on one line: a line break (a detail or a student's answer may
/// hold them) shown as `⏎`, a tab as a space, any other control character
/// (and a bidirectional override) as `?`. Every one-line view of student text (the table's mistakes,
/// `salgrade clusters`) escapes this way.
pub(crate) fn without_controls(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().filter(|&c| c != '\r').map(|c| match c {
        '\n' => '⏎',
        '\t' => ' ',
        c if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') => {
            '?'
        }
        c => c,
    })
}

/// [`without_controls`], at most `cap` characters.
pub(crate) fn one_line(text: &str, cap: usize) -> String {
    let mut out: String = without_controls(text).take(cap).collect();
    if text.chars().count() > cap {
        out.push('…');
    }
    out
}

/// What identifies a failure in step 2.
pub(crate) type Key = (String, VerdictKind, String, Option<String>);

/// Largest first; then by function and answer, so the order is stable.
pub(crate) fn ordered(mut groups: Vec<Cluster>) -> Vec<Cluster> {
    groups.sort_by(|a, b| {
        b.students
            .len()
            .cmp(&a.students.len())
            .then_with(|| a.function.cmp(&b.function))
            .then_with(|| a.verdict.cmp(&b.verdict))
            .then_with(|| a.got.cmp(&b.got))
            .then_with(|| a.input.cmp(&b.input))
    });
    groups
}

/// The groups of two reports of one run (shards): groups with the same
/// function, verdict, board and answer join; the rest stay apart (no
/// re-runs: the shards' students are not at hand).
pub(crate) fn combine(mine: Vec<Cluster>, theirs: Vec<Cluster>) -> Vec<Cluster> {
    let key = |g: &Cluster| -> Key {
        (
            g.function.clone(),
            g.verdict,
            g.case
                .as_ref()
                .map(|c| serde_json::to_string(&c.input).unwrap_or_default())
                .unwrap_or_else(|| g.input.clone()),
            g.got.clone(),
        )
    };
    let mut groups: Vec<Cluster> = mine;
    for g in theirs {
        match groups.iter_mut().find(|m| key(m) == key(&g)) {
            Some(m) => {
                m.students.extend(g.students);
                m.merged += g.merged;
            }
            None => groups.push(g),
        }
    }
    ordered(groups)
}

/// Keeps each group's members in the report's order of students.
pub(crate) fn in_report_order(report: &Report, groups: &mut [Cluster]) {
    let rank: BTreeMap<&str, usize> = report
        .students
        .iter()
        .enumerate()
        .map(|(i, s)| (s.student.as_str(), i))
        .collect();
    for g in groups {
        g.students
            .sort_by_key(|s| rank.get(s.as_str()).copied().unwrap_or(usize::MAX));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detail_is_named_by_its_balanced_start() {
        assert_eq!(
            headline("SyntaxError: expected ':' (line 2)\n    def f("),
            "SyntaxError"
        );
        let glue = "in salgrade's code that is compiled after your file (the cause is usually in your file: an unclosed `{`): expected '}'";
        let head = headline(glue);
        assert_eq!(
            head.matches('(').count(),
            head.matches(')').count(),
            "{head}"
        );
        assert!(head.ends_with("in your file: an unclosed `{`)"), "{head}");
        assert_eq!(headline("g.cpp:11:9: expected ';'"), "g.cpp:11:9");
    }

    #[test]
    fn line_breaks_show_as_a_return_sign() {
        let text: String = without_controls("a\r\nb\tc\u{1b}\u{202e}").collect();
        assert_eq!(text, "a⏎b c??");
    }
}
