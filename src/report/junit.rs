//! `--format junit`: JUnit XML (through `quick-junit`), so CI test viewers
//! (GitHub, GitLab, Jenkins) show a grading run as tests.
//!
//! One `<testsuite>` per student, named after the student, with properties
//! `score` and `max_score`; one `<testcase>` per graded function (class name
//! `salgrade.<assignment>`), a `<failure>` when any of its cases failed
//! (message: the verdict and the pass count; text: the counterexample and
//! the hint), an `<error>` when salgrade could not read an answer (a harness
//! error); and a test case `rules` when the assignment has a rule. Times are
//! the student code's time on the cases. Nothing depends on the clock, so the
//! same report gives the same bytes.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};

use super::{Report, plain, points};
use crate::verdict::VerdictKind;

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let mut xml = quick_junit::Report::new(format!("salgrade {}", report.assignment));
    let class = format!("salgrade.{}", report.assignment);
    for s in &report.students {
        let mut suite = TestSuite::new(s.student.clone());
        suite.add_property(Property::new("score", points(s.score)));
        suite.add_property(Property::new("max_score", points(s.max_score)));
        if let Some(file) = &s.file {
            suite.add_property(Property::new("file", file.clone()));
        }
        let mut total_ms = 0;
        for name in &report.functions {
            let Some(f) = s.functions.get(name) else {
                continue;
            };
            let harness = s
                .cases
                .iter()
                .any(|c| *c.function == **name && c.verdict.kind == VerdictKind::HarnessError);
            let status = match plain::failure(f) {
                None => TestCaseStatus::success(),
                Some(text) => {
                    let kind = if harness {
                        NonSuccessKind::Error
                    } else {
                        NonSuccessKind::Failure
                    };
                    let mut st = TestCaseStatus::non_success(kind);
                    let first = text.lines().next().unwrap_or_default().to_owned();
                    st.set_message(first);
                    if let Some(v) = f.smallest_failure.as_ref() {
                        st.set_type(v.verdict.kind.as_str());
                    }
                    st.set_description(text);
                    st
                }
            };
            let mut case = TestCase::new(name.clone(), status);
            case.set_classname(class.clone());
            case.set_assertions(f.total as usize);
            let ms = plain::wall_ms(s, name);
            total_ms += ms;
            case.set_time(Duration::from_millis(ms));
            case.add_property(Property::new("passed", f.passed.to_string()));
            case.add_property(Property::new("total", f.total.to_string()));
            case.add_property(Property::new("points", points(f.points)));
            case.add_property(Property::new("max_points", points(f.max_points)));
            suite.add_test_case(case);
        }
        if let Some(text) = plain::rule(report, s) {
            let status = if plain::rule_failed(s) {
                let mut st = TestCaseStatus::non_success(NonSuccessKind::Failure);
                st.set_message(text.lines().next().unwrap_or_default().to_owned());
                st.set_type("rule_violation");
                st.set_description(text);
                st
            } else {
                TestCaseStatus::success()
            };
            let mut case = TestCase::new(plain::RULE_TEST, status);
            case.set_classname(class.clone());
            suite.add_test_case(case);
        }
        suite.set_time(Duration::from_millis(total_ms));
        if !s.stdout.trim().is_empty() {
            suite.set_system_out(s.stdout.clone());
        }
        if !s.stderr.trim().is_empty() {
            suite.set_system_err(s.stderr.clone());
        }
        xml.add_test_suite(suite);
    }
    let mut out = Vec::new();
    xml.serialize(&mut out)?;
    Ok(out)
}
