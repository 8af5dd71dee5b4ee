//! The report formats (`--format gradescope|junit|classroom`, `--format csv
//! --csv-layout markus|generic`) and the JSON Schema of `report.json`. Each
//! format is read back with a real parser and every figure in it compared
//! with the JSON report of the same run. A small folder (three students,
//! two random cases per function) keeps the module fast.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::{consumers, salgrade, stderr_of, submission};

/// A full-marks student, one with wrong answers in two functions, and one
/// that passes every case but breaks the container rule.
const STUDENTS: [&str; 3] = ["correct", "wrong_answer", "uses_containers"];

/// Copies of the fixture students: `many/` holds all three, `one/` holds
/// `wrong_answer` alone (for the single-submission formats).
fn folders() -> &'static (tempfile::TempDir, PathBuf, PathBuf) {
    static DIRS: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let root = tempfile::tempdir().unwrap();
        let many = root.path().join("many");
        let one = root.path().join("one");
        for name in STUDENTS {
            copy_student(name, &many);
        }
        copy_student("wrong_answer", &one);
        (root, many, one)
    })
}

fn copy_student(name: &str, into: &Path) {
    let dir = into.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let file = "salbLLfunctions.py";
    std::fs::copy(submission(name).join(file), dir.join(file)).unwrap();
}

/// One `grade` run writing `format` with `-o`: its bytes and the JSON
/// report the same run wrote.
fn grade(folder: &Path, format: &[&str]) -> (Vec<u8>, Value) {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("out");
    let run = salgrade()
        .args(["grade", "--cases", "2", "--format"])
        .args(format)
        .arg("-o")
        .arg(&file)
        .arg("--out-dir")
        .arg(out.path())
        .arg(folder)
        .output()
        .unwrap();
    // 0: everyone had full marks; 1: someone did not.
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{}",
        stderr_of(&run)
    );
    let report =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    (std::fs::read(&file).unwrap(), report)
}

fn students(report: &Value) -> &Vec<Value> {
    report["students"].as_array().unwrap()
}

fn functions(report: &Value) -> Vec<&str> {
    report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect()
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The points the rule took: what the functions earned minus the score.
fn deduction(s: &Value) -> f64 {
    let earned: f64 = s["functions"]
        .as_object()
        .unwrap()
        .values()
        .map(|f| num(&f["points"]))
        .sum();
    ((earned - num(&s["score"])) * 100.0).round() / 100.0
}

#[track_caller]
fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-9, "{what}: {a} != {b}");
}

/// The shrunk counterexample's expected and got of a failing function.
fn counterexample(f: &Value) -> (&str, &str) {
    let c = &f["counterexample"];
    (c["expected"].as_str().unwrap(), c["got"].as_str().unwrap())
}

#[test]
fn junit_has_a_suite_per_student_and_a_case_per_function() {
    let (xml, report) = grade(&folders().1, &["junit"]);
    let text = String::from_utf8(xml).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let suites: Vec<_> = doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), STUDENTS.len());
    for s in students(&report) {
        let name = s["student"].as_str().unwrap();
        let suite = suites
            .iter()
            .find(|n| n.attribute("name") == Some(name))
            .unwrap_or_else(|| panic!("no suite for {name}"));
        let prop = |node: &roxmltree::Node, key: &str| -> f64 {
            node.children()
                .filter(|n| n.has_tag_name("properties"))
                .flat_map(|p| p.children())
                .find(|p| p.attribute("name") == Some(key))
                .and_then(|p| p.attribute("value"))
                .unwrap_or_else(|| panic!("{name}: no property {key}"))
                .parse()
                .unwrap()
        };
        close(prop(suite, "score"), num(&s["score"]), name);
        close(prop(suite, "max_score"), num(&s["max_score"]), name);
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        // One per function, and the rule check (a48 has a rule).
        assert_eq!(cases.len(), functions(&report).len() + 1, "{name}");
        let mut failures = 0;
        for f in functions(&report) {
            let score = &s["functions"][f];
            let case = cases
                .iter()
                .find(|c| c.attribute("name") == Some(f))
                .unwrap_or_else(|| panic!("{name}: no test case {f}"));
            let of = |key: &str| prop(suite, &format!("{f}.{key}"));
            assert_eq!(of("passed"), num(&score["passed"]), "{name} {f}");
            assert_eq!(of("total"), num(&score["total"]), "{name} {f}");
            close(of("points"), num(&score["points"]), f);
            close(of("max_points"), num(&score["max_points"]), f);
            let failure = case.children().find(|n| n.has_tag_name("failure"));
            assert_eq!(
                failure.is_some(),
                score["passed"] != score["total"],
                "{name} {f}"
            );
            if let Some(failure) = failure {
                failures += 1;
                let text = failure.text().unwrap();
                let (expected, got) = counterexample(score);
                assert!(text.contains(&format!("expected: {expected}")), "{text}");
                assert!(text.contains(&format!("got: {got}")), "{text}");
                assert!(text.contains("hint: "), "{text}");
            }
        }
        let rules = cases
            .iter()
            .find(|c| c.attribute("name") == Some("rules"))
            .unwrap();
        let violations = s["violations"].as_array().unwrap().len();
        if rules.children().any(|n| n.has_tag_name("failure")) {
            failures += 1;
            assert!(violations > 0, "{name}");
        } else {
            assert_eq!(violations, 0, "{name}");
        }
        assert_eq!(
            suite
                .attribute("failures")
                .unwrap()
                .parse::<usize>()
                .unwrap(),
            failures,
            "{name}"
        );
    }
}

/// MarkUs's import of `--csv-layout markus` (its own rules, in
/// `consumers::markus_import`), with "Show Total" on and off: items are the
/// functions out of their points, the maximum is salgrade's, and every
/// user's total is salgrade's score, the rule's penalty included. The roster
/// maps one submission to a group of two users.
/// Reads a JUnit file as its consumers do: validates it against the xUnit
/// plugin's schema (`fixtures/consumers/junit-10.xsd`) with `xmlschema`,
/// then reads it with `junitparser`. Prints the schema's errors, or per
/// suite its name and the tests, failures and errors junitparser counts.
const JUNIT_READER: &str = r#"
import json, sys, xmlschema, junitparser
schema = xmlschema.XMLSchema(sys.argv[1])
errors = [f"{e.path}: {e.reason}" for e in schema.iter_errors(sys.argv[2])]
suites = []
for suite in junitparser.JUnitXml.fromfile(sys.argv[2]):
    cases = list(suite)
    kinds = [type(r).__name__ for c in cases for r in c.result]
    suites.append({"name": suite.name, "tests": len(cases),
                   "failures": kinds.count("Failure"), "errors": kinds.count("Error"),
                   "declared": [suite.tests, suite.failures, suite.errors]})
print(json.dumps({"schema_errors": errors, "suites": suites}))
"#;

/// The JUnit output is valid against the xUnit plugin's `junit-10.xsd`, every
/// time dorny/test-reporter reads is a number, and junitparser's counts per
/// student are the report's: a test per function and `rules`, a failure per
/// function with a failing case and per broken rule.
#[test]
fn junit_is_valid_where_it_is_validated_and_counts_match_the_report() {
    let (xml, report) = grade(&folders().1, &["junit"]);
    let text = String::from_utf8(xml).unwrap();
    assert_eq!(consumers::dorny_nan_times(&text), Vec::<String>::new());
    let Some(python) =
        consumers::python_with(&["xmlschema", "junitparser"], "the junit-10.xsd check")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("salgrade.xml");
    std::fs::write(&file, &text).unwrap();
    let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/consumers/junit-10.xsd");
    let out = std::process::Command::new(python)
        .args(["-c", JUNIT_READER])
        .arg(&xsd)
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read["schema_errors"], serde_json::json!([]), "{text}");
    let suites = read["suites"].as_array().unwrap();
    assert_eq!(suites.len(), students(&report).len());
    for s in students(&report) {
        let name = s["student"].as_str().unwrap();
        let suite = suites.iter().find(|x| x["name"] == name).unwrap();
        let fs = functions(&report);
        let failing = fs
            .iter()
            .filter(|f| s["functions"][**f]["passed"] != s["functions"][**f]["total"])
            .count();
        let rule = usize::from(!s["violations"].as_array().unwrap().is_empty());
        let want = serde_json::json!([fs.len() + 1, failing + rule, 0]);
        assert_eq!(
            serde_json::json!([suite["tests"], suite["failures"], suite["errors"]]),
            want,
            "{name}"
        );
        assert_eq!(suite["declared"], want, "{name}");
    }
}

#[test]
fn csv_markus_imports_to_salgrade_scores() {
    let dir = tempfile::tempdir().unwrap();
    let roster = dir.path().join("groups.csv");
    std::fs::write(
        &roster,
        "correct,alice\nwrong_answer,bob,carol\nuses_containers,dave\n",
    )
    .unwrap();
    let (bytes, report) = grade(
        &folders().1,
        &[
            "csv",
            "--csv-layout",
            "markus",
            "--roster",
            roster.to_str().unwrap(),
        ],
    );
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.starts_with(",salb2salbLL,willfinish,whowins,dualboard,Total\n"),
        "{text}"
    );
    let users = ["alice", "bob", "carol", "dave"];
    let owner = |u: &str| match u {
        "alice" => "correct",
        "bob" | "carol" => "wrong_answer",
        _ => "uses_containers",
    };
    let fs = functions(&report);
    let by_name = |name: &str| {
        students(&report)
            .iter()
            .find(|s| s["student"] == name)
            .unwrap()
    };
    assert!(
        deduction(by_name("uses_containers")) > 0.0,
        "a penalty is tested"
    );
    for show_total in [true, false] {
        let import = consumers::markus_import(&text, &users, show_total);
        assert!(import.invalid.is_empty(), "{:?}", import.invalid);
        let items: Vec<&str> = import.items.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(items, fs, "show total {show_total}");
        let first = &students(&report)[0];
        for ((_, out_of), f) in import.items.iter().zip(&fs) {
            close(*out_of, num(&first["functions"][f]["max_points"]), f);
        }
        close(import.max_mark(), num(&first["max_score"]), "maximum");
        for u in users {
            let s = by_name(owner(u));
            let total = import.total(u).unwrap();
            close(
                (total * 100.0).round() / 100.0,
                num(&s["score"]),
                &format!("{u}'s total"),
            );
            let taken: Vec<f64> = import.grades[u]
                .iter()
                .zip(&fs)
                .map(|(g, f)| {
                    let g = g.unwrap();
                    assert!(g <= num(&s["functions"][f]["points"]) + 1e-9, "{u} {f}");
                    num(&s["functions"][f]["points"]) - g
                })
                .collect();
            // The deduction is spread over the functions that break the
            // rule, not taken from the first one (issue 35, item 12).
            let charged: std::collections::BTreeSet<&str> = s["violations"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|v| v["graded"].as_array().unwrap())
                .map(|f| f.as_str().unwrap())
                .collect();
            if charged.len() > 1 && deduction(s) > 0.0 {
                let shares: Vec<f64> = fs
                    .iter()
                    .zip(&taken)
                    .filter(|(f, _)| charged.contains(**f))
                    .map(|(_, t)| *t)
                    .collect();
                let spread = shares.iter().cloned().fold(f64::MIN, f64::max)
                    - shares.iter().cloned().fold(f64::MAX, f64::min);
                assert!(spread <= 0.011, "{u}: uneven shares {shares:?}");
            }
        }
    }
}

/// A submission the roster does not name keeps its row (which MarkUs lists
/// as invalid) and gets a warning: never a silent loss.
#[test]
fn csv_markus_warns_of_a_row_the_roster_cannot_map() {
    let (_, report) = grade(&folders().1, &["json"]);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    std::fs::write(&json, serde_json::to_vec(&report).unwrap()).unwrap();
    let roster = dir.path().join("groups.csv");
    std::fs::write(&roster, "correct,alice\nuses_containers,dave\n").unwrap();
    let out = salgrade()
        .args([
            "merge",
            "--format",
            "csv",
            "--csv-layout",
            "markus",
            "--roster",
        ])
        .arg(&roster)
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains("warning: `wrong_answer` is not in the roster"),
        "{err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let import = consumers::markus_import(&text, &["alice", "dave"], true);
    assert_eq!(import.invalid, ["wrong_answer"]);
    assert_eq!(import.grades.len(), 2);
}

#[test]
fn a_roster_without_the_markus_layout_is_a_usage_error() {
    let out = salgrade()
        .args(["grade", "--format", "csv", "--roster", "groups.csv"])
        .arg(&folders().1)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("`--roster` applies to `--format csv --csv-layout markus`"),
        "{err}"
    );
}

#[test]
fn csv_generic_is_identifier_total_and_functions() {
    let (bytes, report) = grade(&folders().1, &["csv", "--csv-layout", "generic"]);
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let head: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let fs = functions(&report);
    let mut want = vec!["identifier", "total"];
    want.extend(&fs);
    assert_eq!(head, want);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), students(&report).len());
    let mut folded = 0;
    for (row, s) in rows.iter().zip(students(&report)) {
        let name = s["student"].as_str().unwrap();
        assert_eq!(&row[0], name);
        close(row[1].parse().unwrap(), num(&s["score"]), "total");
        // The function columns add up to the total: the rule's deduction is
        // taken inside them, never below 0 (issue 35, item 12).
        let mut sum = 0.0;
        for (i, f) in fs.iter().enumerate() {
            let cell: f64 = row[i + 2].parse().unwrap();
            let points = num(&s["functions"][f]["points"]);
            assert!((0.0..=points + 1e-9).contains(&cell), "{name} {f}: {cell}");
            if deduction(s) == 0.0 {
                close(cell, points, f);
            }
            sum += cell;
        }
        close((sum * 100.0).round() / 100.0, num(&s["score"]), name);
        folded += usize::from(deduction(s) > 0.0);
    }
    assert!(folded > 0, "a deduction is tested");
}

/// The tests of a gradescope or classroom result, checked against the one
/// student of `report`: a test per function with its points, then `rules`
/// carrying minus the points the rule took, so the scores add up.
#[track_caller]
fn single_submission_tests(tests: &[Value], report: &Value, max_key: Option<&str>) {
    let s = &students(report)[0];
    let fs = functions(report);
    assert_eq!(tests.len(), fs.len() + 1);
    for (t, f) in tests.iter().zip(&fs) {
        let score = &s["functions"][f];
        assert_eq!(t["name"], *f);
        close(num(&t["score"]), num(&score["points"]), f);
        if let Some(key) = max_key {
            close(num(&t[key]), num(&score["max_points"]), f);
        }
        let text = t["output"].as_str().or(t["message"].as_str()).unwrap();
        assert!(
            text.contains(&format!(
                "{}/{} cases passed",
                score["passed"], score["total"]
            )),
            "{text}"
        );
        if score["passed"] != score["total"] {
            let (expected, got) = counterexample(score);
            assert!(text.contains(&format!("expected: {expected}")), "{text}");
            assert!(text.contains(&format!("got: {got}")), "{text}");
            assert!(text.contains("hint: "), "{text}");
        }
    }
    let rules = tests.last().unwrap();
    assert_eq!(rules["name"], "rules");
    close(num(&rules["score"]), -deduction(s), "rules");
    let sum: f64 = tests.iter().map(|t| num(&t["score"])).sum();
    close(
        (sum * 100.0).round() / 100.0,
        num(&s["score"]),
        "sum of tests",
    );
}

#[test]
fn gradescope_results_match_the_report() {
    let (bytes, report) = grade(&folders().2, &["gradescope"]);
    let results: Value = serde_json::from_slice(&bytes).unwrap();
    let s = &students(&report)[0];
    close(num(&results["score"]), num(&s["score"]), "score");
    assert!(num(&results["execution_time"]) >= 0.0);
    assert!(results["output"].is_string());
    let tests = results["tests"].as_array().unwrap();
    single_submission_tests(tests, &report, Some("max_score"));
    // Plain text everywhere: no student text is rendered as HTML.
    for key in ["output_format", "test_output_format", "test_name_format"] {
        assert_eq!(results[key], "text", "{key}");
    }
    for t in tests {
        assert_eq!(t["output_format"], "text", "{t}");
        assert_eq!(t["visibility"], "visible");
        let passed = t["name"] == "rules"
            || s["functions"][t["name"].as_str().unwrap()]["passed"]
                == s["functions"][t["name"].as_str().unwrap()]["total"];
        assert_eq!(t["status"], if passed { "passed" } else { "failed" }, "{t}");
    }
}

/// A submission without a file was never checked against the rule, so its
/// `rules` test must not pass (it said "could not be parsed" and passed).
#[test]
fn gradescope_rules_test_fails_when_there_is_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let student = dir.path().join("subs/student");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::write(student.join("notes.txt"), "no code here\n").unwrap();
    let (bytes, _) = grade(&dir.path().join("subs"), &["gradescope"]);
    let results: Value = serde_json::from_slice(&bytes).unwrap();
    let rules = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "rules")
        .unwrap();
    assert_eq!(rules["status"], "failed", "{rules}");
    assert!(
        rules["output"]
            .as_str()
            .unwrap()
            .starts_with("not checked: no file was graded."),
        "{rules}"
    );
    close(num(&results["score"]), 0.0, "score");
}

/// GitHub Classroom's reporter (its own rules, in
/// `consumers::classroom_reporter`) run on `--format classroom` for a
/// student with full marks, one with partial credit, one with a rule
/// penalty and one without a file: the job log's total and table equal what
/// Classroom records, which is salgrade's score out of its maximum, and the
/// log and the step summary hold each failing function's counterexample.
#[test]
fn classroom_log_and_record_are_salgrade_score() {
    let dir = tempfile::tempdir().unwrap();
    let mut folders = Vec::new();
    for name in STUDENTS {
        let folder = dir.path().join(format!("only-{name}"));
        copy_student(name, &folder);
        folders.push(folder);
    }
    let empty = dir.path().join("only-nofile/student");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("notes.txt"), "no code here\n").unwrap();
    folders.push(dir.path().join("only-nofile"));
    for folder in folders {
        let (bytes, report) = grade(&folder, &["classroom"]);
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        let s = &students(&report)[0];
        let name = s["student"].as_str().unwrap();
        let runners: Vec<(&str, &Value)> = ["salgrade", "earned", "missed"]
            .into_iter()
            .map(|r| (r, &doc["runners"][r]))
            .collect();
        for (r, results) in &runners {
            assert_eq!(results["version"], 1, "{r}");
            for t in results["tests"].as_array().unwrap() {
                for key in [
                    "status",
                    "message",
                    "test_code",
                    "filename",
                    "execution_time",
                ] {
                    assert!(t[key].is_string(), "{key} in {t}");
                }
                assert!(t["line_no"].is_u64(), "{t}");
            }
        }
        let run = consumers::classroom_reporter(&runners);
        let (total, max) = run.recorded.unwrap_or((0.0, 0.0));
        assert_eq!((total, max), run.table_total, "{name}: {}", run.log);
        close(total, num(&s["score"]), &format!("{name}: recorded total"));
        close(
            max,
            num(&s["max_score"]),
            &format!("{name}: recorded maximum"),
        );
        let salgrade_tests = doc["runners"]["salgrade"]["tests"].as_array().unwrap();
        if s["file"].is_string() {
            single_submission_tests(salgrade_tests, &report, None);
        }
        let summary = doc["summary"].as_str().unwrap();
        for f in functions(&report) {
            let score = &s["functions"][f];
            if score["passed"] != score["total"] && score["counterexample"].is_object() {
                let (expected, got) = counterexample(score);
                for (what, text) in [("log", run.log.as_str()), ("summary", summary)] {
                    assert!(
                        text.contains(expected) && text.contains(got),
                        "{name} {f} {what}: {text}"
                    );
                }
                assert!(
                    run.log.contains(&format!("expected: {expected}")),
                    "{}",
                    run.log
                );
            }
        }
        let rules = salgrade_tests
            .iter()
            .find(|t| t["name"] == "rules")
            .unwrap();
        let broken = !s["violations"].as_array().unwrap().is_empty() || !s["file"].is_string();
        assert_eq!(
            rules["status"],
            if broken { "fail" } else { "pass" },
            "{name}"
        );
    }
}

#[test]
fn check_offers_every_format_and_keeps_its_text_by_default() {
    let file = submission("uses_containers").join("salbLLfunctions.py");
    let run = |format: Option<&str>| {
        let mut cmd = salgrade();
        cmd.args(["check", "--cases", "2"]);
        if let Some(f) = format {
            cmd.args(["--format", f]);
        }
        let out = cmd.arg(&file).output().unwrap();
        // Every case passes, but the rule is broken.
        assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
        out.stdout
    };
    let report: Value = serde_json::from_slice(&run(Some("json"))).unwrap();
    let classroom: Value = serde_json::from_slice(&run(Some("classroom"))).unwrap();
    let classroom = &classroom["runners"]["salgrade"];
    assert_eq!(classroom["status"], "fail");
    single_submission_tests(classroom["tests"].as_array().unwrap(), &report, None);
    let rules = classroom["tests"].as_array().unwrap().last().unwrap();
    assert_eq!(rules["status"], "fail");
    close(num(&rules["score"]), -15.0, "the rule's penalty");
    let gradescope: Value = serde_json::from_slice(&run(Some("gradescope"))).unwrap();
    single_submission_tests(gradescope["tests"].as_array().unwrap(), &report, None);
    let junit = String::from_utf8(run(Some("junit"))).unwrap();
    roxmltree::Document::parse(&junit).unwrap();
    let text = String::from_utf8(run(None)).unwrap();
    assert!(text.contains("## Rule violations"), "{text}");
}

#[test]
fn single_submission_formats_refuse_a_folder_of_several() {
    for format in ["gradescope", "classroom"] {
        let out = salgrade()
            .args(["grade", "--format", format])
            .arg(&folders().1)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = stderr_of(&out);
        assert!(
            err.contains(&format!("`--format {format}` reports one submission"))
                && err.contains("holds 3"),
            "{err}"
        );
        assert!(!err.contains("grading "), "refused before grading: {err}");
    }
}

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/report.schema.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[track_caller]
fn assert_valid(report: &Value) {
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_sample_cohort_report_follows_the_schema() {
    let report = &crate::grade::cohort().report;
    assert_valid(report);
    // And the schema is not one that accepts anything.
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let mut broken = report.clone();
    broken["students"][0]["cases"][0]["verdict"] = "no_such_verdict".into();
    assert!(!validator.is_valid(&broken));
    let mut broken = report.clone();
    broken["students"][0]
        .as_object_mut()
        .unwrap()
        .remove("score");
    assert!(!validator.is_valid(&broken));
}

#[test]
fn a_csv_layout_without_csv_is_a_usage_error() {
    let out = salgrade()
        .args(["grade", "--format", "junit", "--csv-layout", "markus"])
        .arg(&folders().1)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("`--csv-layout` applies to `--format csv`, not `--format junit`"),
        "{err}"
    );
}

/// `salgrade merge` of `report` (a `report.json`) into `format`: stdout.
pub(crate) fn merged(dir: &Path, report: &Value, format: &[&str]) -> Vec<u8> {
    let path = dir.join("report.json");
    std::fs::write(&path, serde_json::to_vec(report).unwrap()).unwrap();
    let run = salgrade()
        .args(["merge", "--format"])
        .args(format)
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        matches!(run.status.code(), Some(0 | 1)),
        "{}",
        stderr_of(&run)
    );
    run.stdout
}

/// Every consumer's own rules on the sample cohort's report (all 21
/// submissions of `fixtures/submissions`, rendered by `merge`): MarkUs's
/// totals, the Classroom reporter's log and record, JUnit's counts and
/// times, and Gradescope's score are salgrade's, student by student.
#[test]
fn every_consumer_reproduces_the_sample_cohort_scores() {
    let report = &crate::grade::cohort().report;
    let dir = tempfile::tempdir().unwrap();
    let all = students(report);
    let names: Vec<&str> = all.iter().map(|s| s["student"].as_str().unwrap()).collect();

    let sheet = String::from_utf8(merged(
        dir.path(),
        report,
        &["csv", "--csv-layout", "markus"],
    ))
    .unwrap();
    for show_total in [true, false] {
        let import = consumers::markus_import(&sheet, &names, show_total);
        assert!(import.invalid.is_empty(), "{:?}", import.invalid);
        for s in all {
            let name = s["student"].as_str().unwrap();
            let total = import.total(name).unwrap_or(0.0);
            close((total * 100.0).round() / 100.0, num(&s["score"]), name);
            close(import.max_mark(), num(&s["max_score"]), name);
        }
    }

    let xml = String::from_utf8(merged(dir.path(), report, &["junit"])).unwrap();
    assert_eq!(consumers::dorny_nan_times(&xml), Vec::<String>::new());
    if let Some(python) = consumers::python_with(
        &["xmlschema", "junitparser"],
        "the cohort's junit-10.xsd check",
    ) {
        let file = dir.path().join("cohort.xml");
        std::fs::write(&file, &xml).unwrap();
        let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/consumers/junit-10.xsd");
        let out = std::process::Command::new(python)
            .args(["-c", JUNIT_READER])
            .arg(&xsd)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let read: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(read["schema_errors"], serde_json::json!([]));
        assert_eq!(read["suites"].as_array().unwrap().len(), all.len());
    }
    let doc = roxmltree::Document::parse(&xml).unwrap();
    for s in all {
        let name = s["student"].as_str().unwrap();
        let suite = doc
            .descendants()
            .find(|n| n.has_tag_name("testsuite") && n.attribute("name") == Some(name))
            .unwrap();
        let failing = functions(report)
            .iter()
            .filter(|f| s["functions"][**f]["passed"] != s["functions"][**f]["total"])
            .count();
        let bad_rule = !s["violations"].as_array().unwrap().is_empty()
            || (s["rule_checked"] == false
                && s["file"].as_str().is_none_or(|f| f.ends_with(".py")));
        let errors: usize = suite.attribute("errors").unwrap().parse().unwrap();
        let failures: usize = suite.attribute("failures").unwrap().parse().unwrap();
        assert_eq!(failures + errors, failing + usize::from(bad_rule), "{name}");
    }

    for s in all {
        let name = s["student"].as_str().unwrap();
        let mut one = report.clone();
        one["students"] = serde_json::json!([s]);
        let doc: Value = serde_json::from_slice(&merged(dir.path(), &one, &["classroom"])).unwrap();
        let runners: Vec<(&str, &Value)> = ["salgrade", "earned", "missed"]
            .into_iter()
            .map(|r| (r, &doc["runners"][r]))
            .collect();
        let run = consumers::classroom_reporter(&runners);
        let recorded = run.recorded.unwrap_or((0.0, 0.0));
        assert_eq!(recorded, run.table_total, "{name}: {}", run.log);
        close(recorded.0, num(&s["score"]), name);
        close(recorded.1, num(&s["max_score"]), name);

        let results: Value =
            serde_json::from_slice(&merged(dir.path(), &one, &["gradescope"])).unwrap();
        close(num(&results["score"]), num(&s["score"]), name);
        let sum: f64 = results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| num(&t["score"]))
            .sum();
        close((sum * 100.0).round() / 100.0, num(&s["score"]), name);
    }
}

/// Without a roster, rows are keyed by submission names, which MarkUs
/// rejects unless they are user names: said once, before any grading.
#[test]
fn csv_markus_without_a_roster_says_how_rows_are_keyed() {
    let out = salgrade()
        .args([
            "grade",
            "--format",
            "csv",
            "--csv-layout",
            "markus",
            "--cases",
            "0",
        ])
        .args(["--out-dir"])
        .arg(tempfile::tempdir().unwrap().path())
        .arg(&folders().1)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    let note = err
        .find("note: without `--roster`")
        .unwrap_or_else(|| panic!("{err}"));
    assert!(note < err.find("grading ").unwrap(), "{err}");
}

#[test]
fn the_output_files_extension_sets_the_format_and_a_mismatch_is_refused() {
    let (_, many, _) = folders();
    let out = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        salgrade()
            .current_dir(out.path())
            .args(["grade", "--cases", "0", "--shrink-ms", "0"])
            .args(args)
            .arg(many)
            .output()
            .unwrap()
    };
    for (file, starts) in [
        ("grades.csv", "student,"),
        ("report.json", "{"),
        ("cohort.html", "<!DOCTYPE html>"),
        ("grades.md", "|"),
        ("salgrade.xml", "<?xml"),
    ] {
        let done = run(&["-o", file]);
        assert_eq!(done.status.code(), Some(1), "{file}: {}", stderr_of(&done));
        let text = std::fs::read_to_string(out.path().join(file)).unwrap();
        assert!(text.starts_with(starts), "{file}: {text}");
    }
    let merged = salgrade()
        .current_dir(out.path())
        .args(["merge", "salgrade-out/report.json", "-o", "merged.csv"])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(1), "{}", stderr_of(&merged));
    let text = std::fs::read_to_string(out.path().join("merged.csv")).unwrap();
    assert!(text.starts_with("student,"), "{text}");
    // A format the name contradicts is refused before anything is graded.
    let refused = run(&["--format", "json", "-o", "grades.csv"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr_of(&refused)
            .contains("`-o grades.csv` is named as CSV, but `--format json` writes JSON"),
        "{}",
        stderr_of(&refused)
    );
    // The earlier run's file is left as it was.
    let kept = std::fs::read_to_string(out.path().join("grades.csv")).unwrap();
    assert!(kept.starts_with("student,"), "{kept}");
    let generated = salgrade()
        .current_dir(out.path())
        .args(["gen", "-o", "cases.csv"])
        .output()
        .unwrap();
    assert_eq!(generated.status.code(), Some(2));
    assert!(
        stderr_of(&generated).contains("name it `cases.json`"),
        "{}",
        stderr_of(&generated)
    );
}
