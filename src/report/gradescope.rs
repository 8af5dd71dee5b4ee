//! `--format gradescope`: the `results.json` Gradescope's autograder reads
//! from `/autograder/results/`, for a run with exactly one submission.
//!
//! The shape written (Gradescope's autograder specification):
//!
//! ```text
//! {"score": 61.5, "execution_time": 2.31, "output": "...",
//!  "tests": [{"name": "willfinish", "score": 12.5, "max_score": 25,
//!             "status": "failed", "output": "...", "visibility": "visible"}, ...]}
//! ```
//!
//! One test per graded function, in the report's order, and one named
//! `rules` when the assignment has a rule on constructs: it has
//! `max_score` 0 and a `score` of minus the points the rule took, so the
//! tests' scores add up to the top-level `score` (which Gradescope uses as
//! the total when present). A failing function's `output` holds the shrunk
//! counterexample (input, expected, got) and the hint. `execution_time` is
//! the seconds the student's code took on the cases, not salgrade's own time.
//! Every output is `output_format` `text`, so no student-chosen text is
//! rendered as HTML or Markdown. The `rules` test fails when the rule could
//! not be checked (no file, or a Python file that does not parse): a rule
//! never checked does not show as passed. The seed is never written:
//! students see this file.

use serde::Serialize;

use super::{Report, plain};
use crate::grading::round2;

#[derive(Serialize)]
struct Results {
    score: f64,
    execution_time: f64,
    output: String,
    output_format: &'static str,
    test_output_format: &'static str,
    test_name_format: &'static str,
    tests: Vec<Test>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    output_format: &'static str,
    visibility: &'static str,
}

/// Gradescope's plain-text rendering: every output holds student-chosen
/// text (answers, printed output, source lines), and any other format
/// (`simple_format`, the default, `html`, `md`) would render some of it as
/// markup.
const TEXT: &str = "text";

fn status(passed: bool) -> &'static str {
    if passed { "passed" } else { "failed" }
}

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let s = plain::only_student(report, "gradescope")?;
    let mut tests = Vec::new();
    for name in &report.functions {
        let Some(f) = s.functions.get(name) else {
            continue;
        };
        tests.push(Test {
            name: name.clone(),
            score: f.points,
            max_score: f.max_points,
            status: status(f.passed == f.total),
            output: plain::function_failure(report, s, name, f)
                .unwrap_or_else(|| plain::summary(f)),
            output_format: TEXT,
            visibility: "visible",
        });
    }
    if let Some(text) = plain::rule(report, s) {
        tests.push(Test {
            name: plain::RULE_TEST.to_owned(),
            score: plain::rule_score(s),
            max_score: 0.0,
            status: status(!plain::rule_failed(s)),
            output: text,
            output_format: TEXT,
            visibility: "visible",
        });
    }
    let ms: u64 = s.cases.iter().filter_map(|c| c.wall_ms).sum();
    let mut output = format!(
        "{}: {} / {} points on {} cases.",
        report.assignment,
        super::points(s.score),
        super::points(s.max_score),
        report.case_count
    );
    for w in &s.warnings {
        output.push_str(&format!("\nwarning: {w}"));
    }
    let results = Results {
        score: s.score,
        execution_time: round2(ms as f64 / 1000.0),
        output,
        output_format: TEXT,
        test_output_format: TEXT,
        test_name_format: TEXT,
        tests,
    };
    let mut v = serde_json::to_vec_pretty(&results)?;
    v.push(b'\n');
    Ok(v)
}
