//! `--format classroom`: the result GitHub Classroom's autograding reporter
//! (`classroom-resources/autograding-grading-reporter`) reads, version 1,
//! for a run with exactly one submission:
//!
//! ```text
//! {"version": 1, "status": "pass" | "fail" | "error", "max_score": 100,
//!  "tests": [{"name": "willfinish", "status": "pass" | "fail" | "error",
//!             "score": 12.5, "message": "...", "test_code": "...",
//!             "filename": "salbLLfunctions.py", "line_no": 0,
//!             "execution_time": "0.42s"}, ...]}
//! ```
//!
//! The reporter totals the tests' `score`s against `max_score`, so a test
//! `rules` (when the assignment has a rule) carries minus the points the
//! rule took, and the scores add up to the report's score. A test's status
//! is `error` when salgrade could not read an answer (a harness error, never
//! the student's), `fail` when any case failed. The reporter reads this JSON
//! base64-encoded from an environment variable: see
//! `examples/github-classroom/`.

use serde::Serialize;

use super::{Report, plain};
use crate::verdict::VerdictKind;

#[derive(Serialize)]
struct Results {
    version: u32,
    status: &'static str,
    max_score: f64,
    tests: Vec<Test>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    status: &'static str,
    score: f64,
    message: String,
    test_code: String,
    filename: String,
    line_no: u32,
    execution_time: String,
}

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let s = plain::only_student(report, "classroom")?;
    let filename = s.file.clone().unwrap_or_default();
    let mut tests = Vec::new();
    for name in &report.functions {
        let Some(f) = s.functions.get(name) else {
            continue;
        };
        let mine = || s.cases.iter().filter(|c| *c.function == **name);
        let status = if mine().any(|c| c.verdict.kind == VerdictKind::HarnessError) {
            "error"
        } else if f.passed == f.total {
            "pass"
        } else {
            "fail"
        };
        let line = f
            .counterexample
            .as_ref()
            .and_then(|c| c.verdict.line)
            .or_else(|| f.smallest_failure.as_ref().and_then(|x| x.verdict.line));
        tests.push(Test {
            name: name.clone(),
            status,
            score: f.points,
            message: plain::failure(f).unwrap_or_else(|| plain::summary(f)),
            test_code: format!("salgrade check: {} cases of `{name}`", f.total),
            filename: filename.clone(),
            line_no: line.unwrap_or(0),
            execution_time: format!("{:.2}s", plain::wall_ms(s, name) as f64 / 1000.0),
        });
    }
    if let Some(text) = plain::rule(report, s) {
        tests.push(Test {
            name: plain::RULE_TEST.to_owned(),
            status: if plain::rule_failed(s) {
                "fail"
            } else {
                "pass"
            },
            score: plain::rule_score(s),
            message: text,
            test_code: "salgrade lint".to_owned(),
            filename: filename.clone(),
            line_no: s.violations.first().map_or(0, |v| v.line),
            execution_time: "0.00s".to_owned(),
        });
    }
    let status = if tests.iter().any(|t| t.status == "error") {
        "error"
    } else if tests.iter().all(|t| t.status == "pass") && s.full_marks() {
        "pass"
    } else {
        "fail"
    };
    let results = Results {
        version: 1,
        status,
        max_score: s.max_score,
        tests,
    };
    let mut v = serde_json::to_vec_pretty(&results)?;
    v.push(b'\n');
    Ok(v)
}
