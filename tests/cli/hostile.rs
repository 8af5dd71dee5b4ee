//! The second round of hostile submissions (issue 23): each attack in its
//! own folder under `fixtures/hostile/`, graded together in one run beside
//! an honest student, under the default set-up (salgrade's namespaces).
//! The run must finish with a report for everyone, the honest student must
//! keep full marks, and no secret of the grader may reach a report.

use std::path::Path;

use serde_json::Value;

use crate::grade::{copy_dir, student};
use crate::{fixtures, salgrade, stderr_of};

/// The seed of the graded run: a secret the students must never see.
const SEED: &str = "7318240563";
/// What salgrade's parent left open on fd 9, readable only by root.
const INHERITED: &str = "INHERITED-SECRET-5d1f";

/// The attacks of this round, one folder each.
const ATTACKS: &[&str] = &["fills_task_limit", "reads_init"];

/// A small case file: the first `per_function` cases of each function.
fn small_cases(dir: &Path, per_function: usize) -> std::path::PathBuf {
    let out = salgrade()
        .args(["gen", "--cases", "0", "--seed", SEED])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let mut file: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut kept: Vec<Value> = Vec::new();
    for case in file["cases"].as_array().unwrap() {
        let f = case["function"].as_str().unwrap();
        if kept.iter().filter(|c| c["function"] == f).count() < per_function {
            kept.push(case.clone());
        }
    }
    file["cases"] = Value::Array(kept);
    // The path names the seed: a grader's command line that reached a
    // student would show it.
    let path = dir.join(format!("cases-{SEED}.json"));
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    path
}

/// A copy of the system's interpreter below a folder only root may enter:
/// salgrade then runs Python as root mapped into a user namespace (no uid
/// per slot), the mode in which the sandbox's PID 1 is most exposed.
/// `None` when not root or there is no `/usr/bin/python3`.
fn private_interpreter(dir: &Path) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let root = crate::field(&crate::status_of("self")?, "Uid:") == "0";
    let real = std::fs::canonicalize("/usr/bin/python3").ok()?;
    if !root {
        return None;
    }
    let private = dir.join("private");
    std::fs::create_dir_all(private.join("bin")).ok()?;
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).ok()?;
    let copy = private.join("bin/python3");
    std::fs::copy(real, &copy).ok()?;
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o700)).ok()?;
    Some(copy)
}

/// Each case's verdict of `function` (every function with `"*"`).
fn verdicts(report: &Value, name: &str, function: &str) -> Vec<(String, String)> {
    crate::case_verdicts(student(report, name))
        .into_iter()
        .filter(|(id, _)| function == "*" || id.starts_with(&format!("{function}/")))
        .map(|(_, v)| v)
        .collect()
}

#[test]
fn second_round_attacks_are_graded_beside_an_honest_student() {
    let _turn = crate::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("hostile"), &subs, ATTACKS);
    copy_dir(&fixtures().join("submissions"), &subs, &["correct"]);
    let cases = small_cases(dir.path(), 3);
    let out_dir = dir.path().join("out");
    let feedback = dir.path().join("feedback");
    let mut cmd = salgrade();
    cmd.env("SALGRADE_TEST_SECRET", INHERITED).args([
        "grade",
        "--format",
        "json",
        "--shrink-ms",
        "0",
        "--jobs",
        "2",
    ]);
    match private_interpreter(dir.path()) {
        Some(python) => {
            cmd.arg("--python").arg(python);
        }
        None => eprintln!("note: not root: Python runs as the slot's own user"),
    }
    let out = cmd
        .arg("--cases-file")
        .arg(&cases)
        .arg("--out-dir")
        .arg(&out_dir)
        .arg("--feedback")
        .arg(&feedback)
        .arg(&subs)
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {stderr}",
        out.status.code()
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();

    // The honest student, graded beside every attack: full marks.
    assert_eq!(student(&report, "correct")["score"], 100.0, "{stderr}");

    // 1: the slot's task limit filled, then a spin: willfinish fails (its
    // restarts find the slot emptied), everything else passes.
    for (v, detail) in verdicts(&report, "fills_task_limit", "willfinish") {
        assert_ne!(v, "pass", "{detail}");
        assert_ne!(v, "harness_error", "{detail}");
    }
    for f in ["salb2salbLL", "whowins", "dualboard"] {
        for (v, detail) in verdicts(&report, "fills_task_limit", f) {
            assert_eq!(v, "pass", "{f}: {detail}");
        }
    }

    // 2, 3: the sandbox's PID 1 is a fresh image with nothing of the
    // grader: its command line is its role, its environment empty, and
    // its memory holds no grader argument.
    for (v, detail) in verdicts(&report, "reads_init", "whowins") {
        assert_eq!(v, "exception", "{detail}");
        assert!(
            detail.contains("cmdline=salgrade-sandbox-init "),
            "{detail}"
        );
        assert!(
            !detail.contains("--seed") && !detail.contains("cases-"),
            "{detail}"
        );
    }

    // No secret of the grader in anything a student can be shown.
    let mut shown: String = report["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    for e in walkdir::WalkDir::new(&feedback).into_iter().flatten() {
        if e.file_type().is_file() {
            shown.push_str(&String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()));
        }
    }
    for secret in [SEED, INHERITED] {
        assert!(!shown.contains(secret), "`{secret}` reached a report");
    }
}
