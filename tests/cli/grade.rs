use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

use crate::{fixtures, processes_matching, salgrade, stderr_of, stdout_of};

/// Few random cases keep the suite fast; the edge catalogue still runs whole.
const CASES: &str = "4";

pub(crate) struct Cohort {
    pub table: String,
    pub report: Value,
    pub feedback: tempfile::TempDir,
}

/// The sample cohort, graded once for all the tests that read it.
pub(crate) fn cohort() -> &'static Cohort {
    static COHORT: OnceLock<Cohort> = OnceLock::new();
    COHORT.get_or_init(|| {
        let out = tempfile::tempdir().unwrap();
        let feedback = tempfile::tempdir().unwrap();
        let run = salgrade()
            .args(["grade", "--cases", CASES, "--out-dir"])
            .arg(out.path())
            .arg("--feedback")
            .arg(feedback.path())
            .arg(fixtures().join("submissions"))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
        let report =
            serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap())
                .unwrap();
        Cohort {
            table: stdout_of(&run),
            report,
            feedback,
        }
    })
}

pub(crate) fn student<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["student"] == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

fn failing(s: &Value) -> Vec<&Value> {
    s["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] != "pass")
        .collect()
}

/// `name`'s failing cases are all in `function` with `verdict`; every other
/// function has full marks.
#[track_caller]
fn fails_only(name: &str, function: &str, verdict: &str) {
    let s = student(&cohort().report, name);
    let failing = failing(s);
    assert!(!failing.is_empty(), "{name} should fail {function}");
    for c in &failing {
        assert_eq!(c["function"], function, "{name}: {c}");
        assert_eq!(c["verdict"], verdict, "{name}: {c}");
    }
    for (f, score) in s["functions"].as_object().unwrap() {
        if f != function {
            assert_eq!(
                score["passed"], score["total"],
                "{name}: {f} should be graded in full"
            );
        }
    }
}

#[test]
fn the_table_is_pinned() {
    insta::assert_snapshot!("cohort_table", cohort().table);
}

#[test]
fn correct_submissions_get_full_marks() {
    for name in [
        "correct",
        "correct_separate_reading",
        "correct_slow",
        "correct_helpers",
        "closes_fds",
        "fake_protocol",
        "forks_sleeper",
        "near_miss_name",
    ] {
        let s = student(&cohort().report, name);
        assert_eq!(s["score"], s["max_score"], "{name}: {s:#}");
    }
    let near = student(&cohort().report, "near_miss_name");
    assert!(
        near["warnings"][0]
            .as_str()
            .unwrap()
            .contains("should be named"),
        "{near:#}"
    );
}

/// More workers than cores, and than the 64 descriptors a student process
/// may hold: every student gets the score the default run gives.
#[test]
fn many_jobs_grade_like_few() {
    let out = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args(["grade", "--cases", CASES, "--jobs", "8", "--out-dir"])
        .arg(out.path())
        .arg(fixtures().join("submissions"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    let scores = |r: &Value| -> Vec<(String, String)> {
        let mut v: Vec<_> = r["students"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["student"].to_string(), s["score"].to_string()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(scores(&report), scores(&cohort().report));
}

/// The default `--jobs` on a machine with many cores: `SALGRADE_JOBS`
/// stands in for the core count (which a test cannot raise), far above the
/// students, who then all run at once, with the shared cohort's scores.
#[test]
fn the_default_jobs_on_a_many_core_machine_grade_like_few() {
    let out = tempfile::tempdir().unwrap();
    let subs = tempfile::tempdir().unwrap();
    let names = [
        "correct",
        "wrong_answer",
        "wrong_type",
        "open_list",
        "closes_fds",
        "syntax_error",
    ];
    copy_dir(&fixtures().join("submissions"), subs.path(), &names);
    let run = salgrade()
        .env("SALGRADE_JOBS", "64")
        .args(["grade", "--cases", CASES, "--shrink-ms", "0", "--out-dir"])
        .arg(out.path())
        .arg(subs.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.path().join("report.json")).unwrap()).unwrap();
    let scores = |r: &Value| -> Vec<(String, String)> {
        let mut v: Vec<_> = r["students"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| names.contains(&s["student"].as_str().unwrap_or_default()))
            .map(|s| (s["student"].to_string(), s["score"].to_string()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(scores(&report).len(), names.len());
    assert_eq!(scores(&report), scores(&cohort().report));
    let bad = salgrade()
        .env("SALGRADE_JOBS", "0")
        .arg("grade")
        .arg(fixtures().join("submissions"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{}", stderr_of(&bad));
}

#[test]
fn each_failure_class_gets_its_verdict() {
    fails_only("loop_willfinish", "willfinish", "timeout");
    fails_only("exit_whowins", "whowins", "process_died");
    fails_only("memory_hog", "dualboard", "memory_limit");
    fails_only("missing_dualboard", "dualboard", "missing_function");
    fails_only("edits_input", "dualboard", "changed_input");
    fails_only("shares_input", "dualboard", "shares_input");
    fails_only("open_list", "salb2salbLL", "invalid_structure");
    fails_only("wrong_type", "willfinish", "wrong_type");
}

#[test]
fn rule_violations_cost_the_rubric_penalty_and_are_explained() {
    let s = student(&cohort().report, "uses_containers");
    assert!(failing(s).is_empty(), "every answer is right: {s:#}");
    assert_eq!(s["penalty"], 15.0);
    assert_eq!(s["score"], 85.0);
    let violations = s["violations"].as_array().unwrap();
    assert!(violations.iter().any(|v| v["construct"] == "`set()` call"
        && v["line"] == 21
        && v["graded"] == serde_json::json!(["willfinish", "whowins"])));
    let clean = student(&cohort().report, "correct_helpers");
    assert_eq!(clean["violations"], serde_json::json!([]));
    let text =
        std::fs::read_to_string(cohort().feedback.path().join("uses_containers.md")).unwrap();
    assert!(
        text.contains("## Rule violations (-15 points)")
            && text.contains(
                "line 21, column 12, in `finish_move (reached from willfinish, whowins)`"
            ),
        "{text}"
    );
}

#[test]
fn a_rubric_can_turn_the_penalty_off() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("submissions"), &subs, &["uses_containers"]);
    let rubric = dir.path().join("rubric.toml");
    std::fs::write(&rubric, "[penalties]\nrule_violation_cap = 0\n").unwrap();
    let out = salgrade()
        .args(["grade", "--cases", "1", "--format", "json", "--rubric"])
        .arg(&rubric)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = student(&report, "uses_containers");
    assert_eq!(s["penalty"], 0.0, "{}", stderr_of(&out));
    assert_eq!(s["score"], 100.0);
    assert!(!s["violations"].as_array().unwrap().is_empty());
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn import_failures_name_the_reason() {
    let s = student(&cohort().report, "syntax_error");
    assert_eq!(s["score"], 0.0);
    let case = &s["cases"][0];
    assert_eq!(case["verdict"], "import_failed");
    assert_eq!(case["line"], 49, "{case}");
    assert!(
        case["detail"].as_str().unwrap().starts_with("SyntaxError"),
        "{case}"
    );
    let empty = student(&cohort().report, "empty_folder");
    assert_eq!(empty["score"], 0.0);
    assert!(
        empty["warnings"][0]
            .as_str()
            .unwrap()
            .contains("no `salbLLfunctions.py`"),
        "{empty}"
    );
}

#[test]
fn recursion_shows_on_large_boards_only() {
    let s = student(&cohort().report, "recursion");
    let failing = failing(s);
    assert!(!failing.is_empty());
    for c in failing {
        assert_eq!(c["verdict"], "exception");
        assert!(
            c["detail"].as_str().unwrap().contains("RecursionError"),
            "{c}"
        );
    }
}

#[test]
fn json_report_follows_the_documented_schema() {
    let r = &cohort().report;
    for s in r["students"].as_array().unwrap() {
        assert!(s["student"].is_string());
        assert!(s["score"].is_number() && s["max_score"].is_number());
        assert!(s["warnings"].is_array());
        for f in ["salb2salbLL", "willfinish", "whowins", "dualboard"] {
            let fs = &s["functions"][f];
            assert!(
                fs["passed"].is_u64() && fs["total"].is_u64() && fs["points"].is_number(),
                "{fs}"
            );
        }
        for c in s["cases"].as_array().unwrap() {
            assert!(
                c["case_id"].is_string() && c["function"].is_string() && c["verdict"].is_string(),
                "{c}"
            );
        }
    }
}

#[test]
fn feedback_files_show_the_smallest_failure() {
    let text = std::fs::read_to_string(cohort().feedback.path().join("wrong_type.md")).unwrap();
    assert!(text.contains("## `willfinish`: wrong type"), "{text}");
    assert!(
        text.contains("- expected: True or False (a bool)"),
        "{text}"
    );
    assert!(
        text.contains("(a int)") || text.contains("(an int)"),
        "{text}"
    );
}

#[test]
fn no_student_process_survives_grading() {
    let _ = cohort();
    // Drivers under a salgrade still running belong to tests grading now.
    let left: Vec<String> = processes_matching("_salgrade_driver")
        .into_iter()
        .filter(|p| {
            let pid = p.split(':').next().unwrap_or_default();
            !crate::under_live_salgrade(pid)
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

pub(crate) fn copy_dir(from: &Path, to: &Path, names: &[&str]) {
    for n in names {
        let dest = to.join(n);
        std::fs::create_dir_all(&dest).unwrap();
        for e in std::fs::read_dir(from.join(n)).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), dest.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn csv_has_one_row_per_student() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &fixtures().join("submissions"),
        dir.path(),
        &["correct", "wrong_type", "open_list"],
    );
    let out = salgrade()
        .args(["grade", "--cases", "2", "--format", "csv", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(dir.path())
        .output()
        .unwrap();
    let mut rdr = csv::Reader::from_reader(out.stdout.as_slice());
    let headers = rdr.headers().unwrap().clone();
    assert_eq!(&headers[0], "student");
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let names: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(names, ["correct", "open_list", "wrong_type"]);
    assert_eq!(
        &rows[0][headers.iter().position(|h| h == "total").unwrap()],
        "100"
    );
}

#[test]
fn killed_midway_and_resumed_gives_the_same_table() {
    let _turn = crate::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(
        &fixtures().join("submissions"),
        &subs,
        &[
            "correct",
            "wrong_type",
            "open_list",
            "exit_whowins",
            "syntax_error",
            "missing_dualboard",
        ],
    );
    let args = |out: &Path| {
        let mut c = salgrade();
        c.args(["grade", "--cases", "2", "--jobs", "1", "--out-dir"])
            .arg(out)
            .arg(&subs);
        c
    };
    let whole = args(&dir.path().join("whole")).output().unwrap();

    let out = dir.path().join("killed");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("salgrade"))
        .args(["grade", "--cases", "2", "--jobs", "1", "--out-dir"])
        .arg(&out)
        .arg(&subs)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = out.join("journal.jsonl");
    // Wait for two finished students (header + 2 lines), then SIGKILL.
    loop {
        let lines = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 3 {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("grading ended before it could be killed: {status}");
        }
        std::thread::yield_now();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = std::fs::read_to_string(&journal).unwrap().lines().count() - 1;
    assert!(kept < 6, "the kill came too late to test anything");

    let resumed = args(&out).arg("--resume").output().unwrap();
    assert!(
        stderr_of(&resumed).contains("resuming"),
        "{}",
        stderr_of(&resumed)
    );
    assert_eq!(stdout_of(&resumed), stdout_of(&whole));
    assert_eq!(resumed.status.code(), whole.status.code());
}

#[test]
fn an_empty_folder_is_a_setup_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = salgrade().arg("grade").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("holds no submissions"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn a_bad_rubric_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let rubric = dir.path().join("rubric.toml");
    std::fs::write(&rubric, "[points]\nwillfinsh = 10\n").unwrap();
    let out = salgrade()
        .args(["grade", "--rubric"])
        .arg(&rubric)
        .arg(fixtures().join("submissions"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains("rubric.toml") && err.contains("willfinsh"),
        "{err}"
    );
}

#[test]
fn a_game_cohort_is_graded_as_the_game_without_being_told() {
    let out = tempfile::tempdir().unwrap();
    let subs = tempfile::tempdir().unwrap();
    let from = fixtures().join("game/submissions/correct");
    std::fs::create_dir(subs.path().join("alice")).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), subs.path().join("alice").join(e.file_name())).unwrap();
    }
    let run = salgrade()
        .args(["grade", "--cases", "0", "--shrink-ms", "0", "--out-dir"])
        .arg(out.path())
        .arg(subs.path())
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("note: assignment `game`, inferred from the file name `alice/snakes_game.py`"),
        "{err}"
    );
    // A second student with another assignment's file: the folder is refused.
    std::fs::create_dir(subs.path().join("bob")).unwrap();
    std::fs::write(subs.path().join("bob/solution.py"), "").unwrap();
    let run = salgrade()
        .args(["grade", "--cases", "0", "--out-dir"])
        .arg(out.path())
        .arg(subs.path())
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("different assignments")
            && err.contains("`game` (`alice/snakes_game.py`)")
            && err.contains("`leetcode909` (`bob/solution.py`)"),
        "{err}"
    );
}

#[test]
fn salgrades_own_output_is_skipped_on_the_next_run() {
    let subs = tempfile::tempdir().unwrap();
    let alice = subs.path().join("alice");
    std::fs::create_dir(&alice).unwrap();
    std::fs::copy(
        crate::submission("correct").join("salbLLfunctions.py"),
        alice.join("salbLLfunctions.py"),
    )
    .unwrap();
    for _ in 0..2 {
        let run = salgrade()
            .current_dir(subs.path())
            .args(["grade", ".", "--cases", "0", "--shrink-ms", "0"])
            .args(["--feedback", "feedback", "--format", "csv"])
            .output()
            .unwrap();
        let err = stderr_of(&run);
        assert_eq!(run.status.code(), Some(0), "{err}");
        let csv = stdout_of(&run);
        assert_eq!(csv.lines().count(), 2, "only alice is a student: {csv}");
    }
    let run = salgrade()
        .current_dir(subs.path())
        .args(["grade", ".", "--cases", "0", "--shrink-ms", "0"])
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert!(
        err.contains("note: skipped `feedback`: it is salgrade's own output")
            && err.contains("note: skipped `salgrade-out`"),
        "{err}"
    );
}

#[test]
fn grading_a_file_suggests_check() {
    let file = crate::submission("correct").join("salbLLfunctions.py");
    let run = salgrade().arg("grade").arg(&file).output().unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is a file, not a folder of submissions")
            && err.contains("run `salgrade check "),
        "{err}"
    );
}

#[test]
fn an_output_inside_a_submission_is_refused_before_anything_is_written() {
    let subs = tempfile::tempdir().unwrap();
    let code = std::fs::read(crate::submission("correct").join("salbLLfunctions.py")).unwrap();
    std::fs::write(subs.path().join("amy.py"), &code).unwrap();
    std::fs::create_dir(subs.path().join("bo")).unwrap();
    std::fs::write(subs.path().join("bo/salbLLfunctions.py"), &code).unwrap();
    let out = tempfile::tempdir().unwrap();
    let amy = subs.path().join("amy.py");
    let refused = [
        vec!["-o".to_owned(), amy.display().to_string()],
        vec![
            "--feedback".to_owned(),
            subs.path().join("bo/fb").display().to_string(),
        ],
        vec![
            "-o".to_owned(),
            format!("{}/bo/../amy.py", subs.path().display()),
        ],
    ];
    for flags in refused {
        let run = salgrade()
            .args(["grade", "-a", "a48", "--cases", "0", "--format", "csv"])
            .args(&flags)
            .arg("--out-dir")
            .arg(out.path())
            .arg(subs.path())
            .output()
            .unwrap();
        let err = stderr_of(&run);
        assert_eq!(run.status.code(), Some(2), "{flags:?}: {err}");
        assert_eq!(
            err.trim().lines().last().map(|l| l.starts_with("error: ")),
            Some(true),
            "{err}"
        );
        assert!(err.contains("inside the submission"), "{err}");
    }
    assert_eq!(std::fs::read(&amy).unwrap(), code, "amy's code is intact");
    assert!(!subs.path().join("bo/fb").exists());
}

#[test]
fn an_export_wrapped_in_one_more_folder_is_refused_with_the_folder_to_grade() {
    let subs = tempfile::tempdir().unwrap();
    for name in ["ann", "ben", "cat"] {
        let dir = subs.path().join("A2").join(name).join("a2");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("solution.py"), "").unwrap();
    }
    let run = salgrade()
        .args(["grade", "--cases", "0"])
        .arg(subs.path())
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    let wanted = format!("salgrade grade {}", subs.path().join("A2").display());
    assert!(
        err.contains("holds 3 student folders") && err.contains(&wanted),
        "{err}"
    );
}

/// The helper module `IMPORTS_ITS_HELPER` imports.
const HELPER: &str = "def cell(s, n):\n    r, c = divmod(s - 1, n)\n    return n - 1 - r, (c if r % 2 == 0 else n - 1 - c)\n";

/// A LeetCode 909 solution whose square-to-cell helper is in its own module.
const IMPORTS_ITS_HELPER: &str = "from collections import deque
from helpers import cell
class Solution:
    def snakesAndLadders(self, board):
        n = len(board); dist = {1: 0}; q = deque([1])
        while q:
            s = q.popleft()
            if s == n * n: return dist[s]
            for k in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(k, n)
                d = board[r][c] if board[r][c] != -1 else k
                if d not in dist:
                    dist[d] = dist[s] + 1; q.append(d)
        return -1
";

#[test]
fn a_students_own_helper_module_is_given_beside_the_file() {
    let subs = tempfile::tempdir().unwrap();
    let bob = subs.path().join("bob");
    std::fs::create_dir(&bob).unwrap();
    std::fs::write(bob.join("solution.py"), IMPORTS_ITS_HELPER).unwrap();
    std::fs::write(bob.join("helpers.py"), HELPER).unwrap();
    // A file named as salgrade's own never replaces it.
    std::fs::write(bob.join("_salgrade_values.py"), "raise SystemExit(3)\n").unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args([
            "grade",
            "--cases",
            "5",
            "--shrink-ms",
            "0",
            "--format",
            "csv",
        ])
        .arg("--out-dir")
        .arg(out.path())
        .arg(subs.path())
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}\n{}", stdout_of(&run));
    // `check` gives the file's neighbours too.
    let run = salgrade()
        .args(["check", "--cases", "5", "--shrink-ms", "0"])
        .arg(bob.join("solution.py"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stdout_of(&run));
}

/// A Canvas download renames every upload (`smithbob_123_4568_helpers.py`):
/// the helper is given under the name the student uploaded, the latest
/// upload of that name, and an older one is said, not used.
#[test]
fn a_canvas_students_helper_upload_is_given_under_its_uploaded_name() {
    let subs = tempfile::tempdir().unwrap();
    let d = subs.path();
    std::fs::write(d.join("smithbob_123_4567_solution.py"), IMPORTS_ITS_HELPER).unwrap();
    std::fs::write(
        d.join("smithbob_123_4560_helpers.py"),
        "raise SystemExit(3)\n",
    )
    .unwrap();
    std::fs::write(d.join("smithbob_123_4568_helpers-1.py"), HELPER).unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args([
            "grade",
            "--cases",
            "5",
            "--shrink-ms",
            "0",
            "--format",
            "json",
        ])
        .arg("--out-dir")
        .arg(out.path())
        .arg(d)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let bob = &report["students"][0];
    assert_eq!(bob["student"], "smithbob_123");
    let warnings = bob["warnings"].to_string();
    assert!(
        warnings.contains("`smithbob_123_4560_helpers.py` was also submitted under the same name"),
        "{warnings}"
    );
}

#[test]
fn an_a48_helper_module_is_not_given_and_the_feedback_says_why() {
    let subs = tempfile::tempdir().unwrap();
    let ann = subs.path().join("ann");
    std::fs::create_dir(&ann).unwrap();
    std::fs::copy(
        crate::submission("correct").join("salbLLfunctions.py"),
        ann.join("salbLLfunctions.py"),
    )
    .unwrap();
    std::fs::write(ann.join("helpers.py"), "def f():\n    return [1]\n").unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args(["grade", "--cases", "0", "--shrink-ms", "0", "--out-dir"])
        .arg(out.path())
        .arg(subs.path())
        .output()
        .unwrap();
    let table = stdout_of(&run);
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    assert!(
        table.contains("only `salbLLfunctions.py` is used: `helpers.py`")
            && table.contains("rule is checked on that one file"),
        "{table}"
    );
}

#[test]
fn a_bad_salgrade_jobs_variable_is_named() {
    for value in ["", "many"] {
        let run = salgrade()
            .env("SALGRADE_JOBS", value)
            .arg("grade")
            .arg(fixtures().join("submissions"))
            .output()
            .unwrap();
        let err = stderr_of(&run);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(
            err.contains("environment variable `SALGRADE_JOBS`") && err.lines().count() == 1,
            "{err}"
        );
    }
}

#[test]
fn help_says_what_the_commands_do_without_an_assignment_and_which_files() {
    let help = |cmd: &str| stdout_of(&salgrade().args([cmd, "--help"]).output().unwrap());
    for cmd in ["check", "grade", "lint"] {
        let text = help(cmd);
        assert!(
            !text.contains("default `a48`. A case file"),
            "{cmd}: {text}"
        );
        assert!(text.contains("infer it"), "{cmd}: {text}");
    }
    assert!(help("check").contains("snakes_game.py"));
    assert!(help("grade").contains("`bob.cpp`"));
}

#[test]
fn an_old_copy_deeper_in_the_folder_is_not_graded() {
    let subs = tempfile::tempdir().unwrap();
    let ann = subs.path().join("ann");
    std::fs::create_dir_all(ann.join("backup")).unwrap();
    std::fs::copy(
        crate::submission("correct").join("salbLLfunctions.py"),
        ann.join("salbLLfunctions.py"),
    )
    .unwrap();
    std::fs::copy(
        crate::submission("wrong_answer").join("salbLLfunctions.py"),
        ann.join("backup/salbLLfunctions.py"),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args(["grade", "--cases", "0", "--shrink-ms", "0", "--out-dir"])
        .arg(out.path())
        .arg(subs.path())
        .output()
        .unwrap();
    let table = stdout_of(&run);
    assert_eq!(run.status.code(), Some(0), "{table}{}", stderr_of(&run));
    assert!(
        table.contains("not `backup/salbLLfunctions.py` deeper"),
        "{table}"
    );
}

/// `cmd` run as an unprivileged user when the tests run as root (root
/// reads any file, whatever its permissions), else as it is; `None` when
/// root has no `setpriv` to drop to one.
fn as_unprivileged(
    salgrade_args: &[&std::ffi::OsStr],
    cache: &Path,
) -> Option<std::process::Output> {
    let bin = assert_cmd::cargo::cargo_bin("salgrade");
    let mut cmd = if nix::unistd::geteuid().is_root() {
        if std::process::Command::new("setpriv")
            .arg("--version")
            .output()
            .is_err()
        {
            return None;
        }
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin);
        c
    } else {
        std::process::Command::new(bin)
    };
    cmd.args(salgrade_args)
        .env("XDG_CACHE_HOME", cache)
        .env("HOME", cache);
    Some(cmd.output().unwrap())
}

#[test]
fn an_unreadable_file_or_folder_is_that_students_row_and_the_rest_are_graded() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let open = |p: &Path, mode| std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
    open(t.path(), 0o777).unwrap();
    let subs = t.path().join("subs");
    copy_dir(&fixtures().join("submissions"), &subs, &["correct"]);
    for name in ["bob", "carol"] {
        std::fs::create_dir(subs.join(name)).unwrap();
        std::fs::copy(
            subs.join("correct/salbLLfunctions.py"),
            subs.join(name).join("salbLLfunctions.py"),
        )
        .unwrap();
    }
    for e in walkdir::WalkDir::new(&subs) {
        let e = e.unwrap();
        open(e.path(), if e.file_type().is_dir() { 0o755 } else { 0o644 }).unwrap();
    }
    open(&subs.join("bob/salbLLfunctions.py"), 0o000).unwrap();
    open(&subs.join("carol"), 0o000).unwrap();
    let out = t.path().join("out");
    let args: Vec<&std::ffi::OsStr> = [
        "grade".as_ref(),
        "--cases".as_ref(),
        "0".as_ref(),
        "--shrink-ms".as_ref(),
        "0".as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
        "--out-dir".as_ref(),
        out.as_os_str(),
        subs.as_os_str(),
    ]
    .to_vec();
    let Some(run) = as_unprivileged(&args, t.path()) else {
        eprintln!("skipped: running as root without `setpriv`");
        return;
    };
    open(&subs.join("carol"), 0o755).unwrap();
    let csv = stdout_of(&run);
    assert_eq!(run.status.code(), Some(1), "{csv}{}", stderr_of(&run));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 4, "{csv}");
    assert!(
        rows[1].starts_with("bob,") && rows[1].contains("permission denied"),
        "{csv}"
    );
    assert!(
        rows[2].starts_with("carol,") && rows[2].contains("permission denied"),
        "{csv}"
    );
    assert!(rows[3].starts_with("correct,"), "{csv}");
}

#[test]
fn a_piped_table_keeps_each_row_and_mistake_on_one_line_whatever_columns_says() {
    let subs = tempfile::tempdir().unwrap();
    let long = [
        "alexandra_konstantinopoulou_the_third",
        "bartholomew_featherstonehaugh_jr",
    ];
    for name in long {
        std::fs::create_dir(subs.path().join(name)).unwrap();
        std::fs::copy(
            crate::submission("wrong_answer").join("salbLLfunctions.py"),
            subs.path().join(name).join("salbLLfunctions.py"),
        )
        .unwrap();
    }
    for columns in ["40", "200"] {
        let out = tempfile::tempdir().unwrap();
        let run = salgrade()
            .env("COLUMNS", columns)
            .args(["grade", "--cases", "0", "--shrink-ms", "0", "--out-dir"])
            .arg(out.path())
            .arg(subs.path())
            .output()
            .unwrap();
        let table = stdout_of(&run);
        for name in long {
            let row = table.lines().find(|l| l.starts_with(name));
            assert!(
                row.is_some_and(|r| r.ends_with("80.60")),
                "COLUMNS={columns}:\n{table}"
            );
        }
        let mistakes: Vec<&str> = table
            .lines()
            .skip_while(|l| *l != "Common mistakes:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(
            !mistakes.is_empty() && mistakes.iter().all(|l| l.starts_with("- ")),
            "COLUMNS={columns}:\n{table}"
        );
    }
}

#[test]
fn ctrl_c_leaves_no_temporary_file_beside_the_outputs() {
    let _turn = crate::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(
        &fixtures().join("submissions"),
        &subs,
        &[
            "correct",
            "wrong_type",
            "open_list",
            "exit_whowins",
            "wrong_answer",
        ],
    );
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("salgrade"))
        .current_dir(dir.path())
        .env("XDG_CACHE_HOME", crate::test_cache_home())
        .args(["grade", "--cases", "2", "--jobs", "1", "-o", "grades.csv"])
        .args(["--feedback", "feedback", "--out-dir"])
        .arg(&out)
        .arg(&subs)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = out.join("journal.jsonl");
    loop {
        let lines = std::fs::read_to_string(&journal)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 2 {
            break;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("grading ended before it could be interrupted: {status}");
        }
        std::thread::yield_now();
    }
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status}");
    let left: Vec<String> = walkdir::WalkDir::new(dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.path().display().to_string())
        .filter(|p| p.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn an_earlier_runs_feedback_files_are_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("submissions"), &subs, &["correct"]);
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).unwrap();
    std::fs::write(feedback.join("zed.md"), "an old student's feedback\n").unwrap();
    let run = salgrade()
        .args(["grade", "--cases", "0", "--shrink-ms", "0", "--feedback"])
        .arg(&feedback)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("also holds 1 feedback file(s) this run did not write (`zed.md`)"),
        "{err}"
    );
    assert!(feedback.join("correct.md").is_file() && feedback.join("zed.md").is_file());
}
