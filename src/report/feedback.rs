//! Feedback a student can act on: for each failing function the smallest
//! failing case (input, expected, got, the verdict in plain words), what the
//! submission printed, and rule violations with line numbers. The same text
//! is `--feedback DIR`'s Markdown file and `check`'s terminal report.
//!
//! Students read this, so it names the seed only when the caller says the
//! seed is public: a secret grading seed would let them generate the hidden
//! cases with `salgrade gen`. Each counterexample stays within a screen
//! (long inputs, tracebacks and walks are cut, the full case is in the JSON
//! report), and a module that cannot be imported, or a file that does not
//! compile, is explained once.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Report, StudentReport, points};
use crate::grading::shrink::Counterexample;
use crate::grading::{Failure, FunctionScore};
use crate::shown::fenced;
use crate::verdict::Verdict;
use crate::words::count;

use super::cut::{MAX_INPUT_CHARS, clip, ends};

/// The longest literal call shown; a longer one is left to the case file.
const MAX_CALL_CHARS: usize = 1500;

/// Lines of a traceback or other detail shown.
const MAX_DETAIL_LINES: usize = 12;
/// Lines of what the submission printed shown, per stream.
const MAX_PRINTED_LINES: usize = 40;
/// Characters of one printed line shown.
const MAX_PRINTED_LINE_CHARS: usize = 300;
/// Characters of one stream's printed lines shown in all.
const MAX_PRINTED_CHARS: usize = 4000;
/// Lines of the reference's explanation shown.
const MAX_EXPLANATION_LINES: usize = 12;

/// Whether the seed may be shown to whoever reads the feedback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seed {
    Show,
    /// The instructor's secret grading seed (`grade`'s feedback files).
    Hide,
    /// A seed `check` was given that is not the public one: not printed
    /// either (a CI log of `check` can reach students), but not called the
    /// instructor's.
    NotPrinted,
}

impl Seed {
    /// The public seed (and a seed the instructor opted to publish) is shown.
    pub(crate) fn for_audience(seed: Option<u64>, opted_in: bool) -> Seed {
        if opted_in || seed == Some(salgrade_reference::case::PUBLIC_SEED) {
            Seed::Show
        } else {
            Seed::Hide
        }
    }
}

/// What lets a student run a failure again, and find the rest.
#[derive(Clone, Copy)]
pub(crate) struct Again<'a> {
    /// The command that re-runs each function's shown counterexample alone
    /// (`check` writes each to a case file); `grade`'s feedback has none.
    pub reruns: &'a BTreeMap<String, String>,
    /// The student's file, when the caller has it: a call to paste then
    /// uses the student's own name for a function (an alias the adapter
    /// accepts).
    pub source: Option<&'a str>,
    /// Where the failing cases not shown are, ending the sentence "(3 more
    /// failing cases of `f` are not shown here; ...)".
    pub the_rest: &'a str,
}

/// No re-runs, no source; the rest are the instructor's to show (a
/// student has no access to the grading run's own files).
pub(crate) const GRADE_RUN: Again<'static> = Again {
    reruns: &BTreeMap::new(),
    source: None,
    the_rest: "fixing this one often fixes them too; `salgrade check` on your file shows the public cases your code fails",
};

/// The student's feedback (see [`Again`] for what `again` adds).
pub(crate) fn render(report: &Report, s: &StudentReport, seed: Seed, again: &Again<'_>) -> String {
    let mut out = String::new();
    header(&mut out, report, s, seed);
    function_list(&mut out, report, s);
    let import_failures = import_failure(&mut out, report, s);
    for f in &report.functions {
        let Some(score) = s.functions.get(f) else {
            continue;
        };
        let Some(fail) = score.smallest_failure.as_ref() else {
            continue;
        };
        if import_failures.contains(&f.as_str()) {
            continue;
        }
        failing_function(&mut out, report, s, f, score, fail, again);
    }
    violations(&mut out, report, s);
    printed(&mut out, report, s);
    out
}

/// The title, the graded file, the cases' seed and options, and the
/// warnings.
fn header(out: &mut String, report: &Report, s: &StudentReport, seed: Seed) {
    let _ = writeln!(
        out,
        "# {}: {} / {}",
        s.student,
        points(s.score),
        points(s.max_score)
    );
    if let Some(file) = &s.file {
        let _ = writeln!(out, "\nGraded file: `{file}`");
    }
    let seed = match (report.seed, seed) {
        (Some(x), Seed::Show) => format!(", seed {x}"),
        (Some(_), Seed::Hide) => ", on the instructor's seed".to_owned(),
        (Some(_), Seed::NotPrinted) => {
            ", on the seed given (not printed: `--public-seed` prints it)".to_owned()
        }
        (None, _) => String::new(),
    };
    let options: Vec<String> = report
        .options
        .iter()
        .map(|(k, v)| {
            format!(
                "{k} `{}`",
                v.as_str().map_or_else(|| v.to_string(), str::to_owned)
            )
        })
        .collect();
    let options = if options.is_empty() {
        String::new()
    } else {
        format!(", {}", options.join(", "))
    };
    let _ = writeln!(
        out,
        "Cases: {} per student{seed}{options}.",
        report.case_count
    );
    for w in &s.warnings {
        let _ = writeln!(out, "\n> warning: {w}");
    }
}

/// Each function's cases passed and points.
fn function_list(out: &mut String, report: &Report, s: &StudentReport) {
    let _ = writeln!(out, "\n## Functions\n");
    for f in &report.functions {
        let Some(score) = s.functions.get(f) else {
            continue;
        };
        let mark = if score.passed == score.total {
            "passed"
        } else {
            "FAILED"
        };
        let _ = writeln!(
            out,
            "- `{f}`: {mark} {}/{} cases, {} / {} points",
            score.passed,
            score.total,
            points(score.points),
            points(score.max_points)
        );
    }
}

/// The file's failure as a whole (see [`super::whole_file`]), said once
/// for every function it stopped; returns those functions.
fn import_failure<'r>(out: &mut String, report: &'r Report, s: &'r StudentReport) -> Vec<&'r str> {
    let Some(w) = super::whole_file::whole_file(report, s) else {
        return Vec::new();
    };
    let _ = writeln!(out, "\n## {}\n", w.heading());
    if !w.nothing_graded() {
        let _ = writeln!(out, "{}.\n", crate::words::capitalise(w.hint));
    }
    let _ = writeln!(out, "No case of {} could run.", w.function_list());
    if let Some(l) = w.verdict.line {
        let _ = writeln!(out, "\n- line: {l}");
    }
    if let Some(d) = w.detail() {
        let _ = writeln!(out, "\n{}", fenced(&d, "text"));
    }
    w.functions
}

/// A failing function: its smallest failing input, what was expected and
/// given, how to re-run it, and the reference's explanation.
fn failing_function(
    out: &mut String,
    report: &Report,
    s: &StudentReport,
    f: &str,
    score: &FunctionScore,
    fail: &Failure,
    again: &Again<'_>,
) {
    let Again {
        reruns,
        source,
        the_rest,
    } = *again;
    let shown = score.counterexample.as_ref();
    let v = shown.map_or(&fail.verdict, |c| &c.verdict);
    let _ = writeln!(out, "\n## `{f}`: {}\n", v.kind.as_str().replace('_', " "));
    if report.hides_failure(score) {
        // Which function failed and why: the verdict's own words, never
        // the case's (an exception's message or a note could quote it).
        let _ = writeln!(
            out,
            "{}.\n\n{}",
            crate::words::capitalise(v.kind.hint()),
            super::HIDDEN_FAILURE
        );
        return;
    }
    let _ = writeln!(
        out,
        "{}.\n",
        crate::words::capitalise(score.hint.as_deref().unwrap_or(v.kind.hint()))
    );
    smallest_input(out, shown, fail);
    if let Some(e) = &v.expected {
        let _ = writeln!(out, "- expected: {}", clip(e, MAX_INPUT_CHARS));
    }
    if let Some(g) = &v.got {
        let _ = writeln!(out, "- got: {}", clip(g, MAX_INPUT_CHARS));
    }
    if let Some(l) = v.line {
        let _ = writeln!(out, "- line: {l}");
    }
    if let Some(command) = reruns.get(f) {
        let _ = writeln!(out, "- re-run just this case: `{command}`");
    }
    if let Some((call, fence)) = shown.and_then(|c| literal_call(report, s, &c.case, source)) {
        let _ = writeln!(out, "\nThe call, to paste:\n\n```{fence}\n{call}\n```");
    }
    if let Some(d) = &v.detail {
        let _ = writeln!(
            out,
            "\n{}",
            fenced(&ends(d.trim_end(), MAX_DETAIL_LINES), "text")
        );
    }
    explanation(out, shown, v);
    for note in &score.notes {
        let _ = writeln!(out, "\n{note}");
    }
    let failing = s
        .cases
        .iter()
        .filter(|c| *c.function == *f && !c.verdict.passed())
        .count();
    if failing > 1 {
        let _ = writeln!(
            out,
            "\n({} more failing {} of `{f}` {} not shown here; {the_rest}.)",
            failing - 1,
            if failing == 2 { "case" } else { "cases" },
            if failing == 2 { "is" } else { "are" }
        );
    }
}

/// The smallest failing input: the shrunk counterexample (how it was
/// found, its drawing) or the smallest failing case.
fn smallest_input(out: &mut String, shown: Option<&Counterexample>, fail: &Failure) {
    match shown {
        Some(c) => {
            let origin = format!("case `{}` ({})", c.from_case, for_students(&fail.label));
            let how = match (c.shrink_steps, c.minimal) {
                (0, true) => format!("{origin}; no smaller input fails"),
                (0, false) => {
                    format!("{origin}; nothing smaller was found in the time allowed")
                }
                (k, true) => {
                    format!(
                        "shrunk from {origin} in {}; no smaller input fails",
                        count(u64::from(k), "step", "steps")
                    )
                }
                (k, false) => format!(
                    "shrunk from {origin} in {}; shrinking stopped at its time limit",
                    count(u64::from(k), "step", "steps")
                ),
            };
            let _ = writeln!(out, "Smallest failing input, {how}:\n");
            if let Some(d) = &c.drawing {
                let _ = writeln!(out, "{}\n", fenced(d.trim_end(), "text"));
            }
            let _ = writeln!(out, "- input: {}", clip(&c.input, MAX_INPUT_CHARS));
        }
        None => {
            let _ = writeln!(
                out,
                "Smallest failing case `{}` ({}):\n",
                fail.case_id,
                for_students(&fail.label)
            );
            let _ = writeln!(out, "- input: {}", clip(&fail.input, MAX_INPUT_CHARS));
        }
    }
}

/// A case's label as a student reads it: without the wrong solution the
/// case was built to expose (`(exposes chains_jumps)`), the name of one of
/// salgrade's own mutants, which tells a student nothing and reads as a
/// diagnosis of their code. The instructor's report keeps it.
fn for_students(label: &str) -> &str {
    match label.rsplit_once(" (exposes ") {
        Some((kind, bug))
            if bug.strip_suffix(')').is_some_and(|b| {
                !b.is_empty() && b.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            }) =>
        {
            kind
        }
        _ => label,
    }
}

/// What the reference does on the counterexample, unless the failure does
/// not come from the path taken.
fn explanation(out: &mut String, shown: Option<&Counterexample>, v: &Verdict) {
    // A RecursionError comes from the board's size, not from the path
    // the player takes, so the walk would not explain it.
    let recursion = v
        .detail
        .as_deref()
        .is_some_and(|d| d.contains("RecursionError"));
    if let Some(c) = shown.filter(|c| !c.explanation.is_empty() && !recursion) {
        let _ = writeln!(out, "\nWhat the reference does on this input:\n");
        for line in c.explanation.iter().take(MAX_EXPLANATION_LINES) {
            let _ = writeln!(out, "    {}", clip(line, MAX_INPUT_CHARS));
        }
        if c.explanation.len() > MAX_EXPLANATION_LINES {
            let _ = writeln!(
                out,
                "    [... {} more lines]",
                c.explanation.len() - MAX_EXPLANATION_LINES
            );
        }
    }
}

/// The rule violations and their penalty.
fn violations(out: &mut String, report: &Report, s: &StudentReport) {
    if !s.violations.is_empty() {
        let _ = writeln!(
            out,
            "\n## Rule violations (-{} points)\n",
            points(s.penalty)
        );
        if let Some(rule) = &report.rule {
            let _ = writeln!(out, "{rule}\n");
        }
        for v in &s.violations {
            let _ = writeln!(
                out,
                "- line {}, column {}, in `{}`: {}\n  `{}`",
                v.line,
                v.column,
                v.place(),
                v.construct,
                v.source.trim()
            );
        }
    }
}

/// What the student's code printed.
fn printed(out: &mut String, report: &Report, s: &StudentReport) {
    let any = !s.stdout.trim().is_empty() || !s.stderr.trim().is_empty();
    if any && report.hides_output() {
        // It ran on hidden cases, and could have printed them.
        let _ = writeln!(
            out,
            "\n## What your code printed\n\nNot shown: your code ran on the instructor's hidden cases, and what it printed could show them."
        );
        return;
    }
    if any {
        let _ = writeln!(out, "\n## What your code printed\n");
        for (name, text) in [("stdout", &s.stdout), ("stderr", &s.stderr)] {
            if !text.trim().is_empty() {
                let _ = writeln!(
                    out,
                    "{name}:\n\n{}",
                    fenced(&excerpt(text, MAX_PRINTED_LINES), "text")
                );
            }
        }
    }
}

/// The case as code to paste, in the language of the student's file, and
/// that language's Markdown name; none when the assignment cannot write it
/// or it is too long to paste.
fn literal_call(
    report: &Report,
    s: &StudentReport,
    case: &salgrade_reference::Case,
    source: Option<&str>,
) -> Option<(String, &'static str)> {
    let assignment = crate::assignment::by_id(&report.assignment).ok()?;
    let (call, fence) =
        crate::assignment::literal_call_for(assignment, case, s.file.as_deref(), source)?;
    (call.chars().count() <= MAX_CALL_CHARS).then_some((call, fence))
}

/// The start of what a submission printed: at most `max_lines` lines of
/// at most [`MAX_PRINTED_LINE_CHARS`] characters each, and
/// [`MAX_PRINTED_CHARS`] in all, saying how much was left out.
fn excerpt(text: &str, max_lines: usize) -> String {
    let text = text.trim_end();
    let mut out = Vec::new();
    let mut shown = 0usize;
    for line in text.lines().take(max_lines) {
        let n = line.chars().count();
        let room = MAX_PRINTED_CHARS.saturating_sub(shown);
        if room == 0 {
            break;
        }
        let keep = n.min(MAX_PRINTED_LINE_CHARS).min(room);
        let mut kept: String = line.chars().take(keep).collect();
        if keep < n {
            kept.push_str(&format!(" [... {} more characters]", n - keep));
        }
        shown += keep;
        out.push(kept);
    }
    let total_lines = text.lines().count();
    if out.len() < total_lines {
        let rest: usize = text
            .lines()
            .skip(out.len())
            .map(|l| l.chars().count())
            .sum();
        out.push(format!(
            "[... {} more lines ({} characters) not shown]",
            total_lines - out.len(),
            rest
        ));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_to_a_screen() {
        let long = "x".repeat(900);
        let c = clip(&long, MAX_INPUT_CHARS);
        assert!(c.starts_with(&"x".repeat(300)) && c.contains("600 more characters"));
        let tb: Vec<String> = (0..1000).map(|i| format!("line {i}")).collect();
        let e = ends(&tb.join("\n"), MAX_DETAIL_LINES);
        assert_eq!(e.lines().count(), MAX_DETAIL_LINES + 1);
        assert!(e.starts_with("line 0") && e.ends_with("line 999"), "{e}");
    }

    #[test]
    fn printed_output_is_cut_per_line_and_in_all_saying_how_much() {
        let spam = format!("{}\n", "y".repeat(65_536)).repeat(60);
        let shown = excerpt(&spam, MAX_PRINTED_LINES);
        assert!(
            shown.chars().count() < MAX_PRINTED_CHARS + 2000,
            "{}",
            shown.len()
        );
        assert!(
            shown
                .lines()
                .all(|l| l.chars().count() <= MAX_PRINTED_LINE_CHARS + 40)
        );
        assert!(shown.contains("[... 65236 more characters]"), "{shown}");
        assert!(shown.ends_with("not shown]"), "{shown}");
        assert_eq!(excerpt("a\nb\n", 40), "a\nb");
    }

    #[test]
    fn a_label_loses_the_mutant_it_exposes_and_nothing_else() {
        assert_eq!(
            for_students("no-chain: a ladder lands on a snake's head (exposes chains_jumps)"),
            "no-chain: a ladder lands on a snake's head"
        );
        assert_eq!(
            for_students("random/small: 12 squares"),
            "random/small: 12 squares"
        );
        assert_eq!(
            for_students("mine (exposes a bug in x)"),
            "mine (exposes a bug in x)"
        );
        assert_eq!(for_students(""), "");
    }

    #[test]
    fn the_public_seed_is_shown_a_secret_one_only_when_opted_in() {
        assert_eq!(Seed::for_audience(Some(1), false), Seed::Show);
        assert_eq!(Seed::for_audience(Some(7), false), Seed::Hide);
        assert_eq!(Seed::for_audience(Some(7), true), Seed::Show);
    }

    #[test]
    fn a_whole_file_failure_is_said_once_under_no_case() {
        use crate::report::whole_file::tests::{build_failed, no_class_game, one_student};
        let report = one_student(&build_failed());
        let text = render(&report, &report.students[0], Seed::Hide, &GRADE_RUN);
        assert_eq!(text.matches("before 'pos_'").count(), 1, "{text}");
        let report = no_class_game();
        let text = render(&report, &report.students[0], Seed::Hide, &GRADE_RUN);
        assert_eq!(text.matches("no class `Game`").count(), 1, "{text}");
        assert!(!text.contains("invalid/construction"), "{text}");
    }
}
