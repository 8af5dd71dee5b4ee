//! The assignment seam: `salgrade assignments`, and the two assignments
//! added behind it (LeetCode 909 and minimum dice throws) graded end to end
//! with the same runner, grading and reports as A48.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::grade::student;
use crate::{fixtures, salgrade, stderr_of, stdout_of};

fn cohort_dir(assignment: &str) -> PathBuf {
    fixtures().join(assignment).join("submissions")
}

/// Grades an assignment's sample cohort; returns the report and the table.
fn grade(assignment: &str) -> (Value, String, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let feedback = out.path().join("feedback");
    let run = salgrade()
        .args([
            "grade",
            "--assignment",
            assignment,
            "--cases",
            "10",
            "--out-dir",
        ])
        .arg(out.path())
        .arg("--feedback")
        .arg(&feedback)
        .arg(cohort_dir(assignment))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["assignment"], assignment);
    (report, stdout_of(&run), out)
}

/// Each student's verdicts on failing cases, as a set of names.
fn verdicts(report: &Value) -> BTreeMap<String, Vec<String>> {
    report["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mut kinds: Vec<String> = s["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["verdict"] != "pass")
                .map(|c| c["verdict"].as_str().unwrap().to_owned())
                .collect();
            kinds.sort();
            kinds.dedup();
            (s["student"].as_str().unwrap().to_owned(), kinds)
        })
        .collect()
}

#[track_caller]
fn assert_verdicts(report: &Value, expected: &[(&str, &[&str])]) {
    let got = verdicts(report);
    for (name, kinds) in expected {
        assert_eq!(
            got.get(*name)
                .map(|k| k.iter().map(String::as_str).collect::<Vec<_>>()),
            Some(kinds.to_vec()),
            "{name}"
        );
    }
    assert_eq!(got.len(), expected.len(), "{got:?}");
}

/// Every failing student's function shows a shrunk counterexample that is
/// small and fails with the verdict of its smallest graded failure. A
/// timeout is shrunk too, but each try costs its deadline, so the search
/// may stop at its budget: only its verdict is checked.
#[track_caller]
fn counterexamples_are_small(report: &Value, max_size: impl Fn(&Value) -> bool) {
    for s in report["students"].as_array().unwrap() {
        for (f, score) in s["functions"].as_object().unwrap() {
            if score["passed"] == score["total"] {
                continue;
            }
            let c = &score["counterexample"];
            assert!(c.is_object(), "{}: {f} has no counterexample", s["student"]);
            assert_eq!(c["verdict"], score["smallest_failure"]["verdict"]);
            if c["verdict"] != "timeout" {
                assert!(max_size(&c["case"]["input"]), "{}: {c}", s["student"]);
            }
        }
    }
}

#[test]
fn three_assignments_are_listed() {
    let out = salgrade().arg("assignments").output().unwrap();
    assert!(out.status.success());
    let text = stdout_of(&out);
    for id in ["a48 (default)", "leetcode909", "min-throws"] {
        assert!(text.contains(id), "{text}");
    }
    for file in ["salbLLfunctions.py", "solution.py", "min_throws.py"] {
        assert!(text.contains(file), "{text}");
    }
}

#[test]
fn leetcode909_grades_its_sample_cohort() {
    let (report, table, out) = grade("leetcode909");
    assert_verdicts(
        &report,
        &[
            ("chains_jumps", &["wrong_answer"]),
            ("correct", &[]),
            ("correct_leetcode_style", &[]),
            ("last_distance", &["wrong_answer"]),
            ("off_by_one_label", &["wrong_answer"]),
            ("rows_left_to_right", &["wrong_answer"]),
            ("visited_before_jump", &["wrong_answer"]),
        ],
    );
    assert!(table.contains("snakesAndLadders"), "{table}");
    // Shrunk to a board of at most 4 x 4, drawn as the students see it.
    counterexamples_are_small(&report, |input| {
        input["board"]
            .as_array()
            .is_some_and(|rows| rows.len() <= 4)
    });
    let fb = std::fs::read_to_string(out.path().join("feedback/last_distance.md")).unwrap();
    assert!(fb.contains("expected: -1"), "{fb}");
    assert!(fb.contains("Square 1 is bottom left"), "{fb}");
    let s = student(&report, "correct_leetcode_style");
    assert_eq!(s["score"], s["max_score"]);
}

#[test]
fn min_throws_grades_its_sample_cohort() {
    let (report, _, out) = grade("min-throws");
    assert_verdicts(
        &report,
        &[
            ("allows_overshoot", &["exception"]),
            ("camel_case_only", &[]),
            ("chains_jumps", &["wrong_answer"]),
            ("correct", &[]),
            ("dfs_recursion", &["exception", "timeout"]),
            ("ignores_snakes", &["wrong_answer"]),
            ("last_dequeued", &["wrong_answer"]),
        ],
    );
    counterexamples_are_small(&report, |input| {
        input["move"].as_array().is_some_and(|m| m.len() <= 16)
    });
    let fb = std::fs::read_to_string(out.path().join("feedback/last_dequeued.md")).unwrap();
    assert!(fb.contains("expected: -1"), "{fb}");
}

#[test]
fn the_seed_examples_are_case_files_the_model_and_students_run() {
    for (assignment, file, student) in [
        (
            "leetcode909",
            "leetcode909/seed-examples.json",
            "leetcode909/submissions/correct/solution.py",
        ),
        (
            "min-throws",
            "min-throws/seed-example.json",
            "min-throws/submissions/correct/min_throws.py",
        ),
    ] {
        // The case file names its assignment: no `--assignment` needed.
        let out = salgrade()
            .args(["check", "--cases-file"])
            .arg(fixtures().join(file))
            .arg(fixtures().join(student))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{assignment}: {}",
            stderr_of(&out)
        );
        assert!(stdout_of(&out).contains("All cases pass."));
    }
}

#[test]
fn the_seeds_own_bug_is_shown_on_a_small_unreachable_board() {
    let out = salgrade()
        .args(["check", "--assignment", "min-throws"])
        .arg(cohort_dir("min-throws").join("last_dequeued/min_throws.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(text.contains("expected: -1"), "{text}");
    assert!(text.contains("Smallest failing input"), "{text}");
}

/// Every global of LeetCode's Python 3 runtime (its public dump) resolves
/// in a solution's module, shadowed as there; a solution that calls bare
/// `ceil` and `deque`, accepted on LeetCode, passes here too.
#[test]
fn leetcode_runtime_names_resolve_as_on_leetcode() {
    for name in ["every_global", "bare_ceil"] {
        let out = salgrade()
            .args(["check", "--assignment", "leetcode909"])
            .arg(
                fixtures()
                    .join("leetcode909/leetcode_runtime")
                    .join(name)
                    .join("solution.py"),
            )
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}{}",
            stdout_of(&out),
            stderr_of(&out)
        );
    }
}

#[test]
fn ref_answers_each_assignments_questions() {
    let ask = |args: &[&str]| {
        let out = salgrade().arg("ref").args(args).output().unwrap();
        (out.status.code(), stdout_of(&out), stderr_of(&out))
    };
    let board = r#"{"board": [[-1,-1],[-1,3]]}"#;
    let (code, text, err) = ask(&["-a", "leetcode909", "answer", "--board-json", board]);
    assert_eq!((code, text.trim()), (Some(0), "1"), "{err}");
    let (code, text, _) = ask(&["-a", "leetcode909", "draw", "--board-json", board]);
    assert_eq!(code, Some(0));
    assert!(text.contains("2→3"), "{text}");
    let (code, text, _) = ask(&[
        "-a",
        "min-throws",
        "answer",
        "--board-json",
        r#"{"move": [-1,-1,-1]}"#,
    ]);
    assert_eq!((code, text.trim()), (Some(0), "1"));
    // Unknown questions and assignments are one line naming what exists.
    let (code, _, err) = ask(&["-a", "min-throws", "whowins", "--board-json", "{}"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("`answer`") && err.trim().lines().count() == 1,
        "{err}"
    );
    let (code, _, err) = ask(&["-a", "nope", "answer", "--board-json", "{}"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown assignment `nope`") && err.contains("`leetcode909`"),
        "{err}"
    );
    // An invalid board names its problem.
    let (code, _, err) = ask(&[
        "-a",
        "leetcode909",
        "answer",
        "--board-json",
        r#"{"board": [[-1,9],[-1,-1]]}"#,
    ]);
    assert_eq!(code, Some(2));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn options_belong_to_their_assignment() {
    let out = salgrade()
        .args(["gen", "-a", "leetcode909", "--option", "reading=counts"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("takes no options"),
        "{}",
        stderr_of(&out)
    );
    let out = salgrade()
        .args(["gen", "--option", "reading=sideways"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("sideways"), "{}", stderr_of(&out));
    // A case file carries its own options: asking for others is refused.
    let out = salgrade()
        .args([
            "check",
            "--option",
            "reading=counts",
            "--cases-file",
            "c.json",
            "x.py",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("cannot be used with"),
        "{}",
        stderr_of(&out)
    );
    let out = salgrade()
        .args(["gen", "--option", "reading=counts", "--cases", "0"])
        .output()
        .unwrap();
    let file: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(file["options"]["reading"], "counts");
}
