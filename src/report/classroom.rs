//! `--format classroom`: what GitHub Classroom's autograding reporter
//! (`classroom-resources/autograding-grading-reporter`, v1) reads, for a run
//! with exactly one submission. Pure.
//!
//! The reporter (`src/console-results.js`, `src/aggregate-results.js`,
//! `src/notify-classroom.js`, `src/helpers/test-helpers.js` at tag v1,
//! commit d13b5912daf5042ac1b71bc38bdb4a6bcd61d8ca) reads one result per
//! "runner" and does two different sums:
//!
//! - Classroom records the sum of the tests' `score`s over the sum of the
//!   `max_score`s, skipping a runner whose `max_score` is 0.
//! - The job log's "Total points" lines and table show, per runner, the
//!   tests that passed ÷ the tests × `max_score`.
//!
//! One runner cannot make these agree for a partial score, so the output
//! holds three, each made so that both sums give the same figure:
//!
//! - `salgrade`: one test per graded function and one `rules`, with their
//!   real status (`error` for a harness error, `fail` when a case failed or
//!   the rule was broken or not checked) and points; `max_score` 0, so it is
//!   information only: nothing of it is recorded or totalled. The reporter
//!   prints a test's `test_code` whatever its status (and `message` only for
//!   an error), so `test_code` holds the shrunk counterexample, expected,
//!   got and the hint.
//! - `earned`: one passing test worth the score; `max_score` the score.
//! - `missed`: one test worth 0, failing when points were missed;
//!   `max_score` the points missed.
//!
//! So the log shows score/max, Classroom records score/max, to the cent.
//! The document is one JSON object: `summary`, the student's feedback in
//! Markdown (for the log and `$GITHUB_STEP_SUMMARY`), and `runners`, each
//! runner's result, which the reporter reads base64-encoded from
//! `<RUNNER>_RESULTS`: see `examples/github-classroom/`.

use serde::Serialize;

use super::{Report, StudentReport, feedback, plain, points};
use crate::verdict::VerdictKind;

#[derive(Serialize)]
struct Document {
    summary: String,
    runners: Runners,
}

#[derive(Serialize)]
struct Runners {
    salgrade: Results,
    earned: Results,
    missed: Results,
}

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
    let tests = function_tests(report, s, &filename);
    let status = if tests.iter().any(|t| t.status == "error") {
        "error"
    } else if tests.iter().all(|t| t.status == "pass") && s.full_marks() {
        "pass"
    } else {
        "fail"
    };
    let cents = |p: f64| (p * 100.0).round() as i64;
    let missed = (cents(s.max_score) - cents(s.score)).max(0) as f64 / 100.0;
    let one = |name: String, passed: bool, score: f64, text: String| Test {
        name,
        status: if passed { "pass" } else { "fail" },
        score,
        message: text.clone(),
        test_code: text,
        filename: filename.clone(),
        line_no: 0,
        execution_time: "0.00s".to_owned(),
    };
    let earned = Results {
        version: 1,
        status,
        max_score: s.score,
        tests: vec![one(
            format!("points earned: {}", points(s.score)),
            true,
            s.score,
            format!("{} of {} points", points(s.score), points(s.max_score)),
        )],
    };
    let missed_results = Results {
        version: 1,
        status,
        max_score: missed,
        tests: vec![one(
            format!("points missed: {}", points(missed)),
            missed == 0.0,
            0.0,
            format!(
                "{} of {} points missed; the `salgrade` tests above say where",
                points(missed),
                points(s.max_score)
            ),
        )],
    };
    let seed = feedback::Seed::for_audience(report.seed, false);
    let doc = Document {
        summary: feedback::render(
            report,
            s,
            seed,
            &feedback::Again {
                the_rest: "`--format json` lists them all",
                ..feedback::GRADE_RUN
            },
        ),
        runners: Runners {
            salgrade: Results {
                version: 1,
                status,
                max_score: 0.0,
                tests,
            },
            earned,
            missed: missed_results,
        },
    };
    let mut v = serde_json::to_vec_pretty(&doc)?;
    v.push(b'\n');
    Ok(v)
}

/// One test per graded function, then `rules`.
fn function_tests(report: &Report, s: &StudentReport, filename: &str) -> Vec<Test> {
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
        let text = plain::function_failure(report, s, name, f).unwrap_or_else(|| plain::summary(f));
        tests.push(Test {
            name: name.clone(),
            status,
            score: f.points,
            message: text.clone(),
            test_code: text,
            filename: filename.to_owned(),
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
            message: text.clone(),
            test_code: text,
            filename: filename.to_owned(),
            line_no: s.violations.first().map_or(0, |v| v.line),
            execution_time: "0.00s".to_owned(),
        });
    }
    tests
}
