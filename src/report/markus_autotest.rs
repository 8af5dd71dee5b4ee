//! `--format markus`: the test results a MarkUs autotester "custom" tester
//! reads from its test script's stdout, for a run with exactly one
//! submission. Students read them: rendered from [`Report::for_students`].
//! Pure.
//!
//! The wire format, one JSON object per line and nothing else:
//!
//! ```text
//! {"name":"willfinish","output":"...","marks_earned":12.72,"marks_total":25.0,"status":"partial","time":31}
//! ```
//!
//! What the consumer does with it (MarkUsProject/markus-autotesting
//! `server/autotest_server/__init__.py` and `utils.py` at commit
//! 9396b956b8edc5b651b56d11326397f625683829; MarkUsProject/Markus
//! `app/models/test_run.rb`, `test_result.rb`, `submission.rb` at commit
//! 4401041cde7e11b738f9949e122ea9d287840c47), and how this format meets it:
//!
//! - The server decodes stdout as a sequence of JSON values
//!   (`loads_partial_json`); any text that is not a JSON object marks the
//!   whole output "malformed" and MarkUs shows it raw. So every line here
//!   is one object, and a test script prints nothing else on stdout.
//! - An object holding `annotations`, `tags`, `extra_marks` or
//!   `overall_comment` is that record, not a test: tests here have none of
//!   these keys. `extra_marks` would be added again on every re-run, so the
//!   rule's deduction is not one: it is folded into the function tests
//!   ([`super::folded`]), which never go below 0.
//! - MarkUs stores each test through validations, and a test that fails
//!   one is dropped (with its marks): a blank or repeated `name`, a
//!   `status` not in `pass`, `partial`, `fail`, `error`, `error_all`, a
//!   missing, non-numeric or negative `marks_earned` or `marks_total`, a
//!   `time` that is not a whole number ≥ 0 or null, an `output` that is not
//!   a string. Here: one test per graded function under its own name, then
//!   `rules` (renamed if a function is called that), marks as numbers of
//!   hundredths, `time` the whole milliseconds the student's code ran (the
//!   `rules` test's is null).
//! - NaN or Infinity would make the results unreadable to MarkUs (its JSON
//!   parser refuses them) and lose the whole run: the marks are finite by
//!   construction, and rendering refuses a non-finite one.
//! - A criterion's mark is the group's `marks_earned` over its
//!   `marks_total`, times the criterion's maximum: the function tests add
//!   up to salgrade's score and maximum exactly (the `rules` test is 0 of
//!   0), so a criterion out of salgrade's maximum gets salgrade's score.
//! - When the script times out MarkUs keeps what was printed and marks the
//!   criterion from those tests alone. salgrade writes this output whole,
//!   once every test is known: the example script (`examples/markus/`)
//!   writes it to a file and prints that file only at the end.
//!
//! The student's feedback (the same text as `--feedback`) goes to a file
//! MarkUs lists as a feedback file (`feedback_file_names`); each test's
//! `output` holds that function's failure in plain text.

use serde::Serialize;

use super::folded::{Folded, cents_value, folded};
use super::{Report, StudentReport, plain, points};
use crate::verdict::VerdictKind;

/// One MarkUs test result.
#[derive(Debug, Serialize)]
struct Test {
    name: String,
    output: String,
    marks_earned: f64,
    marks_total: f64,
    status: &'static str,
    time: Option<u64>,
}

/// The statuses MarkUs accepts.
const STATUSES: [&str; 5] = ["pass", "partial", "fail", "error", "error_all"];

/// The most characters of one test's `output`: MarkUs keeps it all in its
/// database and shows it in a table cell.
const MAX_OUTPUT_CHARS: usize = 20_000;

pub(crate) fn render(report: &Report) -> anyhow::Result<Vec<u8>> {
    let s = plain::only_student(report, "markus")?;
    let mut out = Vec::new();
    for t in tests(report, s) {
        anyhow::ensure!(
            t.marks_earned.is_finite() && t.marks_total.is_finite(),
            "`{}`'s marks are not finite numbers ({} of {})",
            t.name,
            t.marks_earned,
            t.marks_total
        );
        debug_assert!(STATUSES.contains(&t.status));
        let mut ser = serde_json::Serializer::with_formatter(&mut out, AsciiOnly);
        t.serialize(&mut ser)?;
        out.push(b'\n');
    }
    Ok(out)
}

/// Compact JSON with every character past ASCII written as a `\uXXXX`
/// escape. The autotester reads the script's stdout as text in its own
/// locale's encoding; on a server whose locale is not UTF-8, a raw UTF-8
/// byte from a student's output or file name would fail that decoding and
/// lose every test of the run. Escaped, the text reads the same in any
/// ASCII-compatible encoding, and every JSON parser restores it.
struct AsciiOnly;

impl serde_json::ser::Formatter for AsciiOnly {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut rest = fragment;
        while let Some(at) = rest.find(|c: char| !c.is_ascii()) {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

/// One test per graded function, in the report's order, then the rule's.
fn tests(report: &Report, s: &StudentReport) -> Vec<Test> {
    let mut tests = Vec::new();
    for (name, folded) in report.functions.iter().zip(folded(report, s)) {
        let (Some(f), Some(Folded { kept, taken })) = (s.functions.get(name), folded) else {
            continue;
        };
        let harness = s
            .cases
            .iter()
            .any(|c| *c.function == **name && c.verdict.kind == VerdictKind::HarnessError);
        let max = super::folded::cents(f.max_points);
        let status = if harness {
            "error"
        } else if f.passed == f.total && kept >= max {
            "pass"
        } else if kept > 0 {
            "partial"
        } else {
            "fail"
        };
        let mut output =
            plain::function_failure(report, s, name, f).unwrap_or_else(|| plain::summary(f));
        if taken > 0 {
            output.push_str(&format!(
                "\nThe rule's deduction took {} of these points (see `{}`).",
                points(cents_value(taken)),
                rule_name(report)
            ));
        }
        tests.push(Test {
            name: name.clone(),
            output: super::cut::shorten(&output, MAX_OUTPUT_CHARS),
            marks_earned: cents_value(kept),
            marks_total: cents_value(max),
            status,
            time: Some(plain::wall_ms(s, name)),
        });
    }
    if let Some(text) = plain::rule(report, s) {
        let taken = taken_from(report, s);
        let output = if taken.is_empty() {
            text
        } else {
            format!("{text}\nTaken from: {}.", taken.join(", "))
        };
        tests.push(Test {
            name: rule_name(report),
            output: super::cut::shorten(&output, MAX_OUTPUT_CHARS),
            marks_earned: 0.0,
            marks_total: 0.0,
            status: if plain::rule_failed(s) {
                "fail"
            } else {
                "pass"
            },
            time: None,
        });
    }
    tests
}

/// The rule test's name, different from every function's.
fn rule_name(report: &Report) -> String {
    let mut name = plain::RULE_TEST.to_owned();
    while report.functions.contains(&name) {
        name.push('_');
    }
    name
}

/// `willfinish 2.5, whowins 2.5`: the points the deduction took, by function.
fn taken_from(report: &Report, s: &StudentReport) -> Vec<String> {
    report
        .functions
        .iter()
        .zip(folded(report, s))
        .filter_map(|(name, f)| {
            f.filter(|f| f.taken > 0)
                .map(|f| format!("`{name}` {}", points(cents_value(f.taken))))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Verdict;

    #[test]
    fn every_line_is_one_test_object_with_valid_fields() {
        let report = crate::report::whole_file::tests::one_student(&Verdict::pass());
        let bytes = render(&report).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let mut names = std::collections::BTreeSet::new();
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let name = v["name"].as_str().unwrap();
            assert!(!name.trim().is_empty() && names.insert(name.to_owned()));
            assert!(STATUSES.contains(&v["status"].as_str().unwrap()));
            assert!(v["marks_earned"].as_f64().unwrap() >= 0.0);
            assert!(v["marks_total"].as_f64().unwrap() >= 0.0);
            assert!(v["time"].is_null() || v["time"].is_u64(), "{line}");
            assert!(v["output"].is_string());
        }
        assert_eq!(names.len(), report.functions.len());
    }

    #[test]
    fn the_output_is_ascii_and_reads_back_the_same() {
        let mut report = crate::report::whole_file::tests::one_student(&Verdict::pass());
        report.rule = Some("Pas de listes \u{e9}t\u{e9} \u{1f40d} \"q\"\n".into());
        let bytes = render(&report).unwrap();
        assert!(bytes.is_ascii(), "{}", String::from_utf8_lossy(&bytes));
        let text = String::from_utf8(bytes).unwrap();
        let found = text.lines().any(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            v["output"]
                .as_str()
                .unwrap()
                .contains("Pas de listes \u{e9}t\u{e9} \u{1f40d} \"q\"")
        });
        assert!(found, "{text}");
    }

    #[test]
    fn the_rule_test_never_takes_a_function_name() {
        let mut report = crate::report::whole_file::tests::one_student(&Verdict::pass());
        report.functions.push("rules".into());
        report.rule = Some("No lists.".into());
        assert_eq!(rule_name(&report), "rules_");
    }
}
