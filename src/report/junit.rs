//! `--format junit`: JUnit XML, so CI test viewers (GitHub, GitLab, Jenkins)
//! show a grading run as tests. Pure.
//!
//! The XML is valid against the strictest schema a viewer checks it with,
//! the xUnit plugin's `junit-10.xsd` (`jenkinsci/xunit-plugin`,
//! `src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/`, at
//! commit 8c515de2804b3fd591a3b0f1ff8908a1b1a41887); `tests/cli/formats.rs`
//! validates it. So `<testsuites>` has only `name`, `time`, `tests`,
//! `failures` and `errors`; a `<testcase>` has only `name`, `classname` and
//! `time`, and no `<properties>`; every `<testcase>` and `<testsuite>` has
//! a `time` (dorny/test-reporter shows a missing one as NaN).
//!
//! One `<testsuite>` per student, named after the student, with properties
//! `score`, `max_score`, `file`, and per function `FUNCTION.passed`,
//! `FUNCTION.total`, `FUNCTION.points`, `FUNCTION.max_points`; one
//! `<testcase>` per graded function (class name `salgrade.<assignment>`), a
//! `<failure>` when any of its cases failed (message: the verdict and the
//! pass count; text: the counterexample and the hint), an `<error>` when
//! salgrade could not read an answer (a harness error); and a test case
//! `rules` when the assignment has a rule (time 0: the check is not the
//! student's code running). Times are the student code's time on the cases.
//! Nothing depends on the clock, so the same report gives the same bytes.

use std::fmt::Write as _;

use super::{Report, StudentReport, plain, points};
use crate::verdict::VerdictKind;

/// A test case's outcome.
enum Outcome {
    Pass,
    /// `failure` or `error`, with its type, message and text.
    Fail {
        tag: &'static str,
        kind: String,
        text: String,
    },
}

struct Case {
    name: String,
    ms: u64,
    outcome: Outcome,
}

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let class = format!("salgrade.{}", report.assignment);
    let suites: Vec<(&StudentReport, Vec<Case>)> = report
        .students
        .iter()
        .map(|s| (s, cases(report, s)))
        .collect();
    let count = |tag: &str| {
        suites
            .iter()
            .flat_map(|(_, cs)| cs)
            .filter(|c| matches!(&c.outcome, Outcome::Fail { tag: t, .. } if *t == tag))
            .count()
    };
    let tests: usize = suites.iter().map(|(_, cs)| cs.len()).sum();
    let all_ms: u64 = suites.iter().flat_map(|(_, cs)| cs).map(|c| c.ms).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{}\" errors=\"{}\" time=\"{}\">",
        attr(&format!("salgrade {}", report.assignment)),
        count("failure"),
        count("error"),
        seconds(all_ms)
    );
    for (s, cs) in &suites {
        let failures = cs
            .iter()
            .filter(|c| matches!(&c.outcome, Outcome::Fail { tag: "failure", .. }))
            .count();
        let errors = cs
            .iter()
            .filter(|c| matches!(&c.outcome, Outcome::Fail { tag: "error", .. }))
            .count();
        let _ = writeln!(
            x,
            "    <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"0\" time=\"{}\">",
            attr(&s.student),
            cs.len(),
            seconds(cs.iter().map(|c| c.ms).sum())
        );
        properties(&mut x, report, s);
        for c in cs {
            testcase(&mut x, c, &class);
        }
        if !s.stdout.trim().is_empty() {
            let _ = writeln!(
                x,
                "        <system-out>{}</system-out>",
                text_node(&s.stdout)
            );
        }
        if !s.stderr.trim().is_empty() {
            let _ = writeln!(
                x,
                "        <system-err>{}</system-err>",
                text_node(&s.stderr)
            );
        }
        x.push_str("    </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    Ok(x.into_bytes())
}

/// A student's score, file and per-function tallies as `<properties>`.
fn properties(x: &mut String, report: &Report, s: &StudentReport) {
    x.push_str("        <properties>\n");
    let mut props = vec![
        ("score".to_owned(), points(s.score)),
        ("max_score".to_owned(), points(s.max_score)),
    ];
    if let Some(file) = &s.file {
        props.push(("file".to_owned(), file.clone()));
    }
    for name in &report.functions {
        if let Some(f) = s.functions.get(name) {
            props.push((format!("{name}.passed"), f.passed.to_string()));
            props.push((format!("{name}.total"), f.total.to_string()));
            props.push((format!("{name}.points"), points(f.points)));
            props.push((format!("{name}.max_points"), points(f.max_points)));
        }
    }
    for (k, v) in props {
        let _ = writeln!(
            x,
            "            <property name=\"{}\" value=\"{}\"/>",
            attr(&k),
            attr(&v)
        );
    }
    x.push_str("        </properties>\n");
}

/// One `<testcase>`, with its failure or error when it has one.
fn testcase(x: &mut String, c: &Case, class: &str) {
    let head = format!(
        "        <testcase name=\"{}\" classname=\"{}\" time=\"{}\"",
        attr(&c.name),
        attr(class),
        seconds(c.ms)
    );
    match &c.outcome {
        Outcome::Pass => {
            let _ = writeln!(x, "{head}/>");
        }
        Outcome::Fail { tag, kind, text } => {
            let message = text.lines().next().unwrap_or_default();
            let _ = writeln!(
                x,
                "{head}>\n            <{tag} type=\"{}\" message=\"{}\">{}</{tag}>\n        </testcase>",
                attr(kind),
                attr(message),
                text_node(text)
            );
        }
    }
}

/// A student's test cases: one per graded function, then `rules`.
fn cases(report: &Report, s: &StudentReport) -> Vec<Case> {
    let mut out = Vec::new();
    for name in &report.functions {
        let Some(f) = s.functions.get(name) else {
            continue;
        };
        let harness = s
            .cases
            .iter()
            .any(|c| *c.function == **name && c.verdict.kind == VerdictKind::HarnessError);
        let outcome = match plain::function_failure(report, s, name, f) {
            None => Outcome::Pass,
            Some(text) => Outcome::Fail {
                tag: if harness { "error" } else { "failure" },
                kind: f
                    .smallest_failure
                    .as_ref()
                    .map(|v| v.verdict.kind.as_str().to_owned())
                    .unwrap_or_default(),
                text,
            },
        };
        out.push(Case {
            name: name.clone(),
            ms: plain::wall_ms(s, name),
            outcome,
        });
    }
    if let Some(text) = plain::rule(report, s) {
        let outcome = if plain::rule_failed(s) {
            Outcome::Fail {
                tag: "failure",
                kind: "rule_violation".to_owned(),
                text,
            }
        } else {
            Outcome::Pass
        };
        out.push(Case {
            name: plain::RULE_TEST.to_owned(),
            ms: 0,
            outcome,
        });
    }
    out
}

/// Milliseconds as the schema's `SUREFIRE_TIME`: seconds, three decimals.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// Text XML 1.0 can hold: `&`, `<`, `>` escaped, and each character XML
/// cannot carry at all (most control characters, which a student's output
/// may hold) shown as `\u{..}`.
fn text_node(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' => out.push(c),
            '\r' => out.push_str("&#13;"),
            c if xml_char(c) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// An attribute value: as [`text_node`], with quotes, tabs and line breaks
/// escaped too (a parser would fold them into spaces).
fn attr(text: &str) -> String {
    text_node(text)
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
        .replace('\t', "&#9;")
        .replace('\n', "&#10;")
}

/// Whether XML 1.0 allows `c` in a document (its `Char` production).
fn xml_char(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_that_xml_cannot_hold_is_shown_escaped() {
        assert_eq!(text_node("a<b & \u{1b}[31m"), "a&lt;b &amp; \\u{1b}[31m");
        assert_eq!(attr("say \"hi\"\n"), "say &quot;hi&quot;&#10;");
        assert_eq!(seconds(1234), "1.234");
        assert_eq!(seconds(7), "0.007");
    }
}
