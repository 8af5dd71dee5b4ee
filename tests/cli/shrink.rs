use std::path::Path;

use serde_json::{Value, json};

use crate::grade::{cohort, copy_dir, student};
use crate::{fixtures, salgrade, stderr_of, stdout_of};

fn squares(case: &Value) -> u64 {
    case["input"]["board"]["squares"].as_u64().unwrap()
}

fn size(case: &Value) -> (u64, usize, u64) {
    let input = &case["input"];
    (
        squares(case),
        input["board"]["snadders"].as_array().unwrap().len(),
        input["args"]
            .as_array()
            .map(|a| a.iter().map(|x| x.as_u64().unwrap()).sum())
            .unwrap_or(0),
    )
}

/// Grades `name` alone on `cases` (a case file's JSON) and returns its report.
fn grade_alone(name: &str, cases: &Value, shrink_ms: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("submissions"), &subs, &[name]);
    let file = dir.path().join("cases.json");
    std::fs::write(&file, serde_json::to_vec(cases).unwrap()).unwrap();
    let out = salgrade()
        .args([
            "grade",
            "--format",
            "json",
            "--shrink-ms",
            shrink_ms,
            "--cases-file",
        ])
        .arg(&file)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(2), "{}", stderr_of(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    student(&report, name).clone()
}

/// Every counterexample in the cohort: (student, function, counterexample, smallest graded failure).
fn counterexamples() -> Vec<(String, String, Value, Value)> {
    let mut found = Vec::new();
    for s in cohort().report["students"].as_array().unwrap() {
        for (f, score) in s["functions"].as_object().unwrap() {
            if let Some(c) = score.get("counterexample") {
                found.push((
                    s["student"].as_str().unwrap().to_owned(),
                    f.clone(),
                    c.clone(),
                    score["smallest_failure"].clone(),
                ));
            }
        }
    }
    found
}

#[test]
fn every_buggy_fixture_is_shown_on_a_small_board() {
    let found = counterexamples();
    let names: std::collections::BTreeSet<&str> = found.iter().map(|(s, ..)| s.as_str()).collect();
    for buggy in [
        "loop_willfinish",
        "exit_whowins",
        "memory_hog",
        "edits_input",
        "shares_input",
        "open_list",
        "wrong_type",
        "wrong_answer",
        "recursion",
    ] {
        assert!(names.contains(buggy), "{buggy} has no counterexample");
    }
    for (name, function, c, smallest) in &found {
        assert_eq!(
            c["verdict"], smallest["verdict"],
            "{name} {function}: same verdict class"
        );
        assert!(
            c["explanation"].as_array().is_some_and(|e| !e.is_empty()),
            "{name} {function}"
        );
        if name == "recursion" {
            // Python's recursion limit is the bug: only boards of about a
            // thousand squares show it, but shrinking still makes it smaller.
            // (How far it gets depends on the time budget and the machine's load.)
            assert!(squares(&c["case"]) >= 900, "{name} {function}: {c:#}");
            let from = &smallest["input"];
            assert!(from.as_str().is_some(), "{name} {function}");
            continue;
        }
        assert!(squares(&c["case"]) <= 12, "{name} {function}: {c:#}");
        assert!(
            c["drawing"].as_str().is_some_and(|d| d.contains('*')),
            "{name} {function}"
        );
    }
}

#[test]
fn a_shown_counterexample_fails_again_when_run_alone() {
    for (name, function, c, _) in counterexamples() {
        if ![
            "wrong_answer",
            "edits_input",
            "loop_willfinish",
            "shares_input",
        ]
        .contains(&name.as_str())
        {
            continue;
        }
        let file =
            json!({"assignment": "a48", "options": {"reading": "either"}, "cases": [c["case"]]});
        let s = grade_alone(&name, &file, "0");
        assert_eq!(
            s["cases"][0]["verdict"], c["verdict"],
            "{name} {function}: {s:#}"
        );
    }
}

#[test]
fn a_large_failing_case_shrinks_to_a_small_one_that_still_fails() {
    // Only the large random cases of a seed: the smallest graded failure is big.
    let out = salgrade().args(["gen", "--seed", "1"]).output().unwrap();
    let mut file: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = file["cases"].as_array_mut().unwrap();
    cases.retain(|c| {
        let n = squares(c);
        (c["function"] == "willfinish" || c["function"] == "whowins") && n > 50 && n < 400
    });
    assert!(cases.len() > 10);
    let s = grade_alone("wrong_answer", &file, "3000");
    for function in ["willfinish", "whowins"] {
        let score = &s["functions"][function];
        let c = &score["counterexample"];
        let from = file["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == c["from_case"])
            .unwrap();
        assert!(squares(from) > 50);
        assert!(squares(&c["case"]) <= 12, "{c:#}");
        assert!(size(&c["case"]) < size(from), "{c:#}");
        assert!(c["shrink_steps"].as_u64().unwrap() > 0);
        assert_eq!(
            c["case"]["label"],
            format!("shrunk from {}", c["from_case"].as_str().unwrap())
        );
        // Not scored: the function's totals are the graded cases only.
        assert_eq!(
            score["total"].as_u64().unwrap() as usize,
            file["cases"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|x| x["function"] == function)
                .count()
        );
        // And it still fails on its own.
        let again =
            json!({"assignment": "a48", "options": {"reading": "either"}, "cases": [c["case"]]});
        let alone = grade_alone("wrong_answer", &again, "0");
        assert_eq!(alone["cases"][0]["verdict"], "wrong_answer", "{alone:#}");
    }
}

#[test]
fn check_shows_the_walk_and_the_drawing_and_shrinking_can_be_turned_off() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/submissions/wrong_answer/salbLLfunctions.py");
    let out = salgrade()
        .args(["check", "--cases", "2"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout_of(&out);
    for needle in [
        "Smallest failing input",
        "What the reference does on this input:",
        "move 1 (the start, a move of 2 from square 2, the last square)",
        "| 1  | 2* |",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let out = salgrade()
        .args(["check", "--cases", "2", "--shrink-ms", "0"])
        .arg(&file)
        .output()
        .unwrap();
    let text = stdout_of(&out);
    assert!(
        text.contains("Smallest failing case") && !text.contains("What the reference does"),
        "{text}"
    );
}
