//! A failure of the whole file rather than of one function: a file that
//! does not build, a module that cannot be imported, no file at all, or a
//! file that defines none of the graded functions (a misnamed class). Every
//! function then fails the same way on its first case, so the case says
//! nothing: each format says the failure once, in the student's words, and
//! never under a "failing case". Pure.

use std::fmt::Write as _;

use super::{Report, StudentReport};
use crate::verdict::{Verdict, VerdictKind};

/// How the detail of a submission that was never run begins (see the
/// engine's grading of a submission with a problem).
pub(crate) const NOTHING_GRADED: &str = "nothing was graded: ";

/// Lines of the failure's detail (compiler errors, a traceback) shown.
const MAX_DETAIL_LINES: usize = 12;

/// The one failure that stopped the functions in [`WholeFile::functions`].
#[derive(Debug)]
pub(crate) struct WholeFile<'r> {
    pub verdict: &'r Verdict,
    /// The functions it stopped, in the report's order.
    pub functions: Vec<&'r str>,
    /// What it means, in the assignment's words when they are the same for
    /// every function.
    pub hint: &'r str,
}

/// The whole-file failure of `s`, if its file failed as a whole.
pub(crate) fn whole_file<'r>(report: &'r Report, s: &'r StudentReport) -> Option<WholeFile<'r>> {
    let shown = |f: &String| {
        s.functions
            .get(f)
            .and_then(|x| x.smallest_failure.as_ref().map(|fail| (x, fail)))
    };
    let stopped: Vec<&str> = report
        .functions
        .iter()
        .filter(|f| {
            shown(f).is_some_and(|(_, x)| {
                matches!(
                    x.verdict.kind,
                    VerdictKind::ImportFailed | VerdictKind::BuildFailed
                )
            })
        })
        .map(String::as_str)
        .collect();
    if let Some(first) = stopped.first() {
        let verdict = &s.functions[*first].smallest_failure.as_ref()?.verdict;
        return Some(WholeFile {
            verdict,
            hint: verdict.kind.hint(),
            functions: stopped,
        });
    }
    // No graded function defined at all (a class under another name): one
    // missing file-level name, not one per function. A file missing only
    // some functions is told per function.
    let graded: Vec<&String> = report
        .functions
        .iter()
        .filter(|f| s.functions.contains_key(*f))
        .collect();
    let missing = graded.len() > 1
        && graded.iter().all(|f| {
            shown(f).is_some_and(|(score, x)| {
                score.passed == 0 && x.verdict.kind == VerdictKind::MissingFunction
            })
        });
    if !missing {
        return None;
    }
    let scores: Vec<_> = graded.iter().filter_map(|f| shown(f)).collect();
    let (first, fail) = scores.first()?;
    let same_hint = scores.iter().all(|(x, _)| x.hint == first.hint);
    Some(WholeFile {
        verdict: &fail.verdict,
        hint: first
            .hint
            .as_deref()
            .filter(|_| same_hint)
            .unwrap_or("the file defines none of the functions the handout asks for"),
        functions: graded.into_iter().map(String::as_str).collect(),
    })
}

impl WholeFile<'_> {
    /// Whether there was no file to run (missing, empty, a symlink).
    pub(crate) fn nothing_graded(&self) -> bool {
        self.verdict
            .detail
            .as_deref()
            .is_some_and(|d| d.starts_with(NOTHING_GRADED))
    }

    /// The heading the failure is told under.
    pub(crate) fn heading(&self) -> &'static str {
        if self.nothing_graded() {
            "Nothing was graded"
        } else {
            match self.verdict.kind {
                VerdictKind::BuildFailed => "Your file did not compile",
                VerdictKind::ImportFailed => "The module could not be imported",
                _ => "Your file defines none of the graded functions",
            }
        }
    }

    /// The functions as `` `a`, `b` ``.
    pub(crate) fn function_list(&self) -> String {
        crate::words::code_list(&self.functions)
    }

    /// The detail worth showing: the compiler's or the interpreter's
    /// errors, cut to a screen. A missing function's detail names one
    /// function, so it is left out when every function is missing.
    pub(crate) fn detail(&self) -> Option<String> {
        if self.verdict.kind == VerdictKind::MissingFunction {
            return None;
        }
        self.verdict
            .detail
            .as_deref()
            .map(|d| super::cut::ends(d.trim_end(), MAX_DETAIL_LINES))
    }

    /// The whole failure as plain text (no Markdown), for the test-shaped
    /// formats: the heading and hint, the functions it stopped, the line
    /// and the detail.
    pub(crate) fn plain(&self) -> String {
        let mut out = String::new();
        if self.nothing_graded() {
            let _ = writeln!(out, "{}.", self.heading());
        } else if self.verdict.kind == VerdictKind::MissingFunction {
            let _ = writeln!(
                out,
                "{}. {}.",
                self.heading(),
                crate::words::capitalise(self.hint)
            );
        } else {
            let _ = writeln!(out, "{}.", crate::words::capitalise(self.hint));
        }
        let _ = writeln!(out, "No case of {} could run.", self.function_list());
        if let Some(l) = self.verdict.line {
            let _ = writeln!(out, "line: {l}");
        }
        if let Some(d) = self.detail() {
            let _ = writeln!(out, "{d}");
        }
        out.trim_end().to_owned()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::grading::{Failure, FunctionScore};
    use crate::report::{Format, Report, csv::CsvLayout, render};

    /// A report of one student whose every function failed with `verdict`
    /// on a different, unrelated first case.
    pub(crate) fn one_student(verdict: &Verdict) -> Report {
        let functions = ["Game", "move", "play"];
        let cases = [
            "invalid/construction-3",
            "random/board-16",
            "edge/rolls-run-out-1",
        ];
        let scores: BTreeMap<String, FunctionScore> = functions
            .iter()
            .zip(cases)
            .map(|(f, case)| {
                (
                    (*f).to_owned(),
                    FunctionScore {
                        passed: 0,
                        total: 5,
                        points: 0.0,
                        max_points: 25.0,
                        smallest_failure: Some(Failure {
                            case_id: case.to_owned(),
                            label: format!("{case}: board 1 square"),
                            input: format!("input of {case}"),
                            verdict: verdict.clone(),
                        }),
                        counterexample: None,
                        hint: None,
                        notes: vec![],
                    },
                )
            })
            .collect();
        Report {
            hidden_cases: Vec::new(),
            salgrade_version: "0".into(),
            assignment: "game".into(),
            seed: Some(1),
            options: Default::default(),
            case_count: 15,
            functions: functions.iter().map(|f| (*f).to_owned()).collect(),
            sandbox: "rlimit".into(),
            rule: None,
            warnings: vec![],
            shard: None,
            settings: None,
            students: vec![StudentReport {
                file: Some("g1/snakes_game.cpp".into()),
                max_score: 75.0,
                functions: scores,
                ..StudentReport::named("g1")
            }],
            clusters: vec![],
        }
    }

    pub(crate) fn build_failed() -> Verdict {
        Verdict {
            line: Some(11),
            ..Verdict::detail(
                VerdictKind::BuildFailed,
                "snakes_game.cpp:11:9: expected ',' or ';' before 'pos_'",
            )
        }
    }

    fn text(report: &Report, format: Format) -> String {
        let bytes = render(report, format, CsvLayout::default()).unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_build_failure_is_said_without_a_case_in_every_format() {
        let report = one_student(&build_failed());
        for format in [Format::Gradescope, Format::Junit, Format::Classroom] {
            let out = text(&report, format);
            for case in [
                "invalid/construction",
                "random/board",
                "edge/rolls",
                "failing case",
            ] {
                assert!(!out.contains(case), "{format:?} names `{case}`:\n{out}");
            }
            assert!(
                out.contains("No case of `Game`, `move`, `play` could run."),
                "{out}"
            );
        }
        // Gradescope's and JUnit's rows say the same one message.
        let json: serde_json::Value =
            serde_json::from_str(&text(&report, Format::Gradescope)).unwrap();
        let outputs: Vec<String> = json["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let o = t["output"].as_str().unwrap();
                o.split_once('\n').unwrap().1.to_owned()
            })
            .collect();
        assert!(outputs.windows(2).all(|w| w[0] == w[1]), "{outputs:?}");
        // HTML says it once (the feedback: `feedback`'s tests).
        let html = text(&report, Format::Html);
        assert_eq!(html.matches("before &#39;pos_&#39;").count(), 1, "{html}");
        assert!(!html.contains("board 1 square"), "{html}");
    }

    /// A game file whose class has another name: no graded function.
    pub(crate) fn no_class_game() -> Report {
        let mut report = one_student(&Verdict::detail(
            VerdictKind::MissingFunction,
            "the file defines no `move` with the name and parameters the handout gives",
        ));
        for f in report.students[0].functions.values_mut() {
            f.hint = Some("the module has no class `Game` with this method".into());
        }
        report
    }

    #[test]
    fn a_file_defining_no_graded_function_is_told_once() {
        let mut report = no_class_game();
        let s = &report.students[0];
        let w = whole_file(&report, s).unwrap();
        assert_eq!(w.functions, ["Game", "move", "play"]);
        // One function present is a per-function story.
        report.students[0].functions.get_mut("move").unwrap().passed = 3;
        assert!(whole_file(&report, &report.students[0]).is_none());
    }
}
