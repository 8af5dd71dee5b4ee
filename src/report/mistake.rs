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
    /// A function's timeouts are one group whatever the board (see
    /// `grading::clusters`): each member's own smallest board that timed
    /// out, in words, by student, so no member is shown another's board.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub boards: BTreeMap<String, String>,
    /// Whether a member's counterexample was cut short by `--shrink-ms`
    /// (see the counterexample's `timing_dependent`): the groups can then
    /// differ between runs, though no grade does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timing_dependent: bool,
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
            (VerdictKind::ImportFailed, _)
                if self
                    .detail
                    .as_deref()
                    .is_some_and(|d| d.starts_with(super::whole_file::NOTHING_GRADED)) =>
            {
                // One member's own words; a group's with their paths left out.
                let why = self
                    .detail
                    .as_deref()
                    .and_then(|d| d.strip_prefix(super::whole_file::NOTHING_GRADED))
                    .unwrap_or_default();
                let why = if n == 1 {
                    first_clause(why).to_owned()
                } else {
                    first_clause(&without_code_spans(why)).to_owned()
                };
                format!("could not be graded ({why})")
            }
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
        let own_boards = self.verdict == VerdictKind::Timeout && self.boards.len() > 1;
        let on = if self.function.is_empty() || self.verdict == VerdictKind::MissingFunction {
            String::new()
        } else if own_boards {
            format!(
                ", each on their own smallest board ({})",
                self.boards
                    .iter()
                    .map(|(who, board)| format!("{who}: {board}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
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
            .filter(|_| self.verdict != VerdictKind::MissingFunction && !own_boards)
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

/// Whether a verdict fails a whole file (nothing in it could run), which
/// is one failure for the file, not one per function.
pub(crate) fn fails_whole_file(kind: VerdictKind) -> bool {
    matches!(kind, VerdictKind::ImportFailed | VerdictKind::BuildFailed)
}

/// What a whole file's failure is grouped by: its cause, never a board.
/// An exception's name (`SyntaxError`, `TabError`, `EOFError` of their
/// tracebacks), or, when nothing was graded, why (an empty file, no file
/// of the wanted name, one that cannot be read) with the student's own
/// paths left out, so two students with the same cause share a group and
/// two causes never do.
pub(crate) fn whole_file_cause(detail: Option<&str>) -> String {
    let detail = detail.unwrap_or_default();
    match detail.strip_prefix(super::whole_file::NOTHING_GRADED) {
        Some(why) => format!(
            "{}{}",
            super::whole_file::NOTHING_GRADED,
            first_clause(&without_code_spans(why))
        ),
        None => detail.split(':').next().unwrap_or_default().to_owned(),
    }
}

/// `text` with each code span (`` `alice/x.py` ``) as `…`.
fn without_code_spans(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    if parts.len() % 2 == 0 {
        return text.to_owned();
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| if i % 2 == 1 { "…" } else { p })
        .collect()
}

/// The start of `text` up to its first `:` or `;` outside parentheses
/// (what follows is advice, the same for every cause).
fn first_clause(text: &str) -> &str {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ':' | ';' if depth == 0 => return text[..at].trim_end(),
            _ => {}
        }
    }
    text.trim_end()
}

/// The key a report's group was formed under (see
/// `grading::clusters::failures_of`), as far as the report holds it: a
/// whole file's cause, one function's timeouts together, else the board
/// (the case when the report has it) and the answer.
pub(crate) fn key_of(g: &Cluster) -> Key {
    let board = if g.function.is_empty() && fails_whole_file(g.verdict) {
        whole_file_cause(g.detail.as_deref())
    } else if g.verdict == VerdictKind::Timeout {
        String::new()
    } else {
        g.case
            .as_ref()
            .map(|c| serde_json::to_string(&c.input).unwrap_or_default())
            .unwrap_or_else(|| g.input.clone())
    };
    (g.function.clone(), g.verdict, board, g.got.clone())
}

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

/// The groups of two reports of one run (shards): groups with the key one
/// run would have given them ([`key_of`]: function, verdict, board and
/// answer, or a whole file's cause) join; the rest stay apart (no re-runs:
/// the shards' students are not at hand). Joining two groups of one key is
/// not a merge of step 3 (no one ran the other's board), so `merged` stays
/// the larger of the two.
pub(crate) fn combine(mine: Vec<Cluster>, theirs: Vec<Cluster>) -> Vec<Cluster> {
    let mut groups: Vec<Cluster> = mine;
    for g in theirs {
        match groups.iter_mut().find(|m| key_of(m) == key_of(&g)) {
            Some(m) => {
                m.students.extend(g.students);
                m.merged = m.merged.max(g.merged);
                m.boards.extend(g.boards);
                m.timing_dependent |= g.timing_dependent;
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

    fn whole_file(student: &str, detail: &str) -> Cluster {
        Cluster {
            function: String::new(),
            verdict: VerdictKind::ImportFailed,
            students: vec![student.to_owned()],
            input: String::new(),
            case: None,
            expected: None,
            got: None,
            detail: Some(detail.to_owned()),
            explanation: None,
            hint: None,
            from_case: None,
            merged: 1,
            boards: BTreeMap::new(),
            timing_dependent: false,
        }
    }

    #[test]
    fn shards_whole_file_failures_join_by_cause_only() {
        let empty = |who: &str| {
            whole_file(
                who,
                &format!(
                    "nothing was graded: your file `{who}/x.py` is empty: submit the file with your code in it"
                ),
            )
        };
        let mine = vec![
            empty("a"),
            whole_file("b", "TabError: inconsistent use of tabs (line 3)"),
            whole_file(
                "c",
                "nothing was graded: no `x.py` and no Python file in the student's folder or up to 2 folders below it",
            ),
        ];
        let theirs = vec![
            empty("d"),
            whole_file("e", "EOFError: EOF when reading a line"),
            whole_file("f", "SyntaxError: expected ':' (line 2)"),
            whole_file("g", "TabError: inconsistent use of tabs (line 9)"),
        ];
        let combined = combine(mine, theirs);
        let groups: Vec<Vec<&str>> = combined
            .iter()
            .map(|g| g.students.iter().map(String::as_str).collect())
            .collect();
        assert_eq!(
            groups,
            [
                vec!["a", "d"],
                vec!["b", "g"],
                vec!["c"],
                vec!["e"],
                vec!["f"]
            ]
        );
        assert!(combined.iter().all(|g| g.merged == 1));
        assert_eq!(
            combined[0].line(),
            "2 students: the file could not be graded (your file … is empty)"
        );
    }

    #[test]
    fn line_breaks_show_as_a_return_sign() {
        let text: String = without_controls("a\r\nb\tc\u{1b}\u{202e}").collect();
        assert_eq!(text, "a⏎b c??");
    }
}
