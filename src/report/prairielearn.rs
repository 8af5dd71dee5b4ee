//! `--format prairielearn`: the `results.json` a PrairieLearn external
//! grader writes to `/grade/results/`, for a run with exactly one
//! submission. Students read it: rendered from [`Report::for_students`].
//! Pure.
//!
//! The shape written:
//!
//! ```text
//! {"succeeded": true, "gradable": true, "score": 0.8091,
//!  "message": "a48: 80.91 / 100 points on 168 cases.",
//!  "output": "<the student's feedback>",
//!  "tests": [{"name": "willfinish", "description": "...", "points": 12.72,
//!             "max_points": 25.0, "message": "...", "output": "..."}, ...]}
//! ```
//!
//! What the consumer does with it (PrairieLearn/PrairieLearn at commit
//! 88fb8556a7a1768e2082736be9095241b11238d7: `apps/grader-host/src/index.ts`
//! and `apps/prairielearn/src/lib/externalGraderLocal.ts` read the file,
//! `externalGraderCommon.ts` `makeGradingResult` and `externalGrader.ts`
//! `processGradingResult` record it, and
//! `elements/pl-external-grader-results` shows it), and how this format
//! meets it:
//!
//! - The file is read only when the container exits 0 (`grade` and
//!   `check` exit 0 in this format once it is written), and only when it
//!   is at most 1 MiB; it must then parse as JSON, which refuses NaN and
//!   Infinity. The file is kept under [`MAX_BYTES`] by cutting the longest
//!   text first, and its numbers are finite.
//! - `score` must be a finite number in [0, 1], or the submission is
//!   recorded as not gradable; a missing score counts as 0, and
//!   `score: null` breaks the results element. Here it is salgrade's score
//!   over its maximum (0 when the maximum is 0).
//! - `gradable: false` spares the student an attempt: it is written, with
//!   `format_errors`, for a file that could not be run at all (no file, a
//!   module that does not import, C++ that does not compile, none of the
//!   graded functions defined).
//! - The element shows per-test points only when every test has `points`
//!   and `max_points`: every test here has both. The function tests' points
//!   carry the rule's deduction ([`super::folded`]), so they add up to the
//!   score exactly and none is below 0 or above its maximum; `rules` is 0 of
//!   0 (shown as information).
//! - `message` and `output` are shown as text (`ansi2html`, which escapes
//!   HTML): the message is the score line and the student's warnings, the
//!   output the same feedback `--feedback` writes (without the seed, unless
//!   it is the public one).

use serde::Serialize;

use super::folded::{Folded, cents, cents_value, folded};
use super::{Report, StudentReport, feedback, plain, points};

/// The largest file written: PrairieLearn refuses one over 1 MiB; this
/// leaves room below it.
pub(crate) const MAX_BYTES: usize = 1_000_000;

#[derive(Debug, Serialize)]
struct Results {
    succeeded: bool,
    gradable: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    format_errors: Vec<String>,
    score: f64,
    message: String,
    output: String,
    tests: Vec<Test>,
}

#[derive(Debug, Serialize)]
struct Test {
    name: String,
    description: String,
    points: f64,
    max_points: f64,
    message: String,
    output: String,
}

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let s = plain::only_student(report, "prairielearn")?;
    let mut results = results(report, s);
    // The feedback first, then each test's text, until the file fits.
    let mut limit = MAX_BYTES;
    loop {
        let bytes = bytes_of(&results)?;
        if bytes.len() <= MAX_BYTES {
            return Ok(bytes);
        }
        anyhow::ensure!(limit > 100, "the PrairieLearn results do not fit in 1 MiB");
        limit /= 2;
        results.output = super::cut::shorten(&results.output, limit);
        for t in &mut results.tests {
            t.output = super::cut::shorten(&t.output, limit / 8);
            t.message = super::cut::shorten(&t.message, limit / 8);
        }
        results.message = super::cut::shorten(&results.message, limit / 8);
    }
}

fn bytes_of(results: &Results) -> anyhow::Result<Vec<u8>> {
    let finite = results.score.is_finite()
        && results
            .tests
            .iter()
            .all(|t| t.points.is_finite() && t.max_points.is_finite());
    anyhow::ensure!(finite, "a score in the PrairieLearn results is not finite");
    let mut v = serde_json::to_vec_pretty(results)?;
    v.push(b'\n');
    Ok(v)
}

fn results(report: &Report, s: &StudentReport) -> Results {
    let whole = super::whole_file::whole_file(report, s);
    let graded = report
        .functions
        .iter()
        .filter(|f| s.functions.contains_key(*f))
        .count();
    // Not gradable: nothing of the file could run, for every function.
    let format_errors: Vec<String> = whole
        .as_ref()
        .filter(|w| w.functions.len() == graded)
        .map(|w| vec![w.plain().trim_end().to_owned()])
        .unwrap_or_default();
    let score = if s.max_score > 0.0 {
        (s.score / s.max_score).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut message = format!(
        "{}: {} / {} points on {} cases.",
        report.assignment,
        points(s.score),
        points(s.max_score),
        report.case_count
    );
    for w in &s.warnings {
        message.push_str(&format!("\nwarning: {w}"));
    }
    let seed = feedback::Seed::for_audience(report.seed, false);
    Results {
        succeeded: true,
        gradable: format_errors.is_empty(),
        format_errors,
        score,
        message,
        output: feedback::render(report, s, seed, &feedback::GRADE_RUN),
        tests: tests(report, s),
    }
}

/// One test per graded function, in the report's order, then the rule's.
fn tests(report: &Report, s: &StudentReport) -> Vec<Test> {
    let mut tests = Vec::new();
    for (name, folded) in report.functions.iter().zip(folded(report, s)) {
        let (Some(f), Some(Folded { kept, taken })) = (s.functions.get(name), folded) else {
            continue;
        };
        let mut message = plain::summary(f);
        if taken > 0 {
            message.push_str(&format!(
                "; the rule's deduction took {} of these points",
                points(cents_value(taken))
            ));
        }
        tests.push(Test {
            name: name.clone(),
            description: format!("`{name}` on {} cases", f.total),
            points: cents_value(kept),
            max_points: cents_value(cents(f.max_points)),
            message,
            output: plain::function_failure(report, s, name, f).unwrap_or_default(),
        });
    }
    if let Some(text) = plain::rule(report, s) {
        let mut name = plain::RULE_TEST.to_owned();
        while report.functions.contains(&name) {
            name.push('_');
        }
        let verdict = if plain::rule_failed(s) {
            "not kept"
        } else {
            "kept"
        };
        tests.push(Test {
            name,
            description: "the handout's rule on constructs".to_owned(),
            points: 0.0,
            max_points: 0.0,
            message: format!("rule {verdict}"),
            output: text,
        });
    }
    tests
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Verdict, VerdictKind};

    #[test]
    fn a_file_that_cannot_run_is_not_gradable_and_says_why() {
        let mut v = Verdict::new(VerdictKind::ImportFailed);
        v.detail = Some("SyntaxError: invalid syntax".into());
        let report = crate::report::whole_file::tests::one_student(&v);
        let r: serde_json::Value = serde_json::from_slice(&render(&report).unwrap()).unwrap();
        assert_eq!(r["gradable"], false);
        let errors = r["format_errors"].as_array().unwrap();
        assert!(errors[0].as_str().unwrap().contains("SyntaxError"), "{r}");
        assert_eq!(r["score"], 0.0);
        let report = crate::report::whole_file::tests::one_student(&Verdict::pass());
        let r: serde_json::Value = serde_json::from_slice(&render(&report).unwrap()).unwrap();
        assert_eq!(r["gradable"], true);
        assert!(r.get("format_errors").is_none());
    }

    #[test]
    fn huge_feedback_is_cut_to_fit() {
        let mut report = crate::report::whole_file::tests::one_student(&Verdict::pass());
        report.students[0].warnings = vec!["w".repeat(3_000_000)];
        let bytes = render(&report).unwrap();
        assert!(bytes.len() <= MAX_BYTES, "{}", bytes.len());
        let r: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert!(r["score"].is_number());
    }
}
