//! A Python submission's zygote (`--zygote auto`): one import per student,
//! a fork of a new worker only to restart. It must never change a verdict.

use std::collections::BTreeMap;
use std::path::Path;

use crate::{fixtures, salgrade, stdout_of, submission};

/// Every case's verdict of every student in `folder`, graded with the
/// zygote `mode`, on the default edge cases and 3 random cases per
/// function; and whether the header named a cgroup (no cgroup: no zygote).
fn verdicts(folder: &Path, mode: &str) -> (BTreeMap<(String, String), String>, bool) {
    let out = salgrade()
        .arg("grade")
        .arg(folder)
        .args(["--cases", "3", "--shrink-ms", "0", "--format", "json"])
        .args(["--zygote", mode])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", crate::stderr_of(&out)));
    let mut all = BTreeMap::new();
    for student in report["students"].as_array().unwrap() {
        let name = student["student"].as_str().unwrap().to_owned();
        for (case, (verdict, _)) in crate::case_verdicts(student) {
            all.insert((name.clone(), case), verdict);
        }
        let score = student["score"].to_string();
        all.insert((name, "(score)".to_owned()), score);
    }
    let cgroup = report["sandbox"].as_str().unwrap_or("").contains("cgroup");
    (all, cgroup)
}

#[test]
fn the_zygote_changes_no_verdict_of_the_sample_cohort() {
    // Every failure class of the sample cohort (loops, crashes, `os._exit`,
    // forks, memory, fake protocol lines, closed descriptors...) and the
    // state fixtures, with a zygote and without one: the same verdict on
    // every case, and the same score.
    for folder in [submission(""), fixtures().join("state")] {
        let (with, cgroup) = verdicts(&folder, "auto");
        if !cgroup {
            eprintln!("note: no cgroup here, so `auto` runs no zygote");
        }
        let (without, _) = verdicts(&folder, "off");
        assert!(
            with.len() > 100,
            "{}: {} verdicts",
            folder.display(),
            with.len()
        );
        let differ: Vec<_> = with
            .iter()
            .filter(|(k, v)| without.get(*k) != Some(*v))
            .map(|(k, v)| format!("{k:?}: {v} with, {:?} without", without.get(k)))
            .collect();
        assert!(
            differ.is_empty(),
            "{}:\n{}",
            folder.display(),
            differ.join("\n")
        );
        assert_eq!(with.len(), without.len());
    }
}

#[test]
fn state_a_case_leaves_reaches_the_next_case_in_the_same_worker() {
    // `willfinish` counts its calls in a module global and answers wrongly
    // from its second call on. The zygote's worker answers case after case,
    // as one process does without a zygote (and as a grader that imports
    // once and calls many times would): only the first case passes. A
    // worker is forked afresh from the post-import state only to restart
    // (`a_restart_after_a_timeout_is_a_fork_not_a_new_import`).
    let out = salgrade()
        .args(["check", "--format", "json"])
        .arg(fixtures().join("state/leaks_a_global/salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout_of(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let functions = &report["students"][0]["functions"];
    let willfinish = &functions["willfinish"];
    assert_eq!(
        (&willfinish["passed"], &willfinish["total"]),
        (&serde_json::json!(1), &serde_json::json!(92)),
        "{willfinish}"
    );
    assert_eq!(
        functions["whowins"]["passed"],
        functions["whowins"]["total"]
    );
}

#[test]
fn a_restart_after_a_timeout_is_a_fork_not_a_new_import() {
    // The import prints one line. Without a zygote every timed-out case
    // restarted Python and the import (35 lines here); with one, only the
    // first session imports: the retry of the first timeout and every
    // later restart are forks of new workers. The verdicts are those of
    // `loop_willfinish` (33 of its 92 `willfinish` cases time out).
    let (student, cgroup) = check_state("loops_after_one_import", "auto", &[]);
    let (fresh, _) = check_state("loops_after_one_import", "off", &[]);
    for s in [&student, &fresh] {
        let willfinish = &s["functions"]["willfinish"];
        assert_eq!(
            (&willfinish["passed"], &willfinish["total"]),
            (&serde_json::json!(59), &serde_json::json!(92)),
            "{willfinish}"
        );
        assert_eq!(
            willfinish["smallest_failure"]["verdict"], "timeout",
            "{willfinish}"
        );
    }
    let imports = |s: &serde_json::Value| s["stdout"].as_str().unwrap().matches("imported").count();
    assert_eq!(imports(&fresh), 35, "{}", fresh["stdout"]);
    if !cgroup {
        eprintln!("skipped: no cgroup here, so no zygote");
        return;
    }
    assert_eq!(imports(&student), 1, "{}", student["stdout"]);
}

#[test]
fn a_function_given_up_on_costs_no_other_function_a_case() {
    // After willfinish's first deaths its cases are not run; the one queued
    // behind the last whowins-before-it used to run anyway and die on the
    // clock of the case after it (`whowins/r001` died "with code 3").
    for mode in ["off", "auto"] {
        let (student, _) = check_state("exits_in_every_willfinish", mode, &["--cases", "2"]);
        for (case, (verdict, detail)) in crate::case_verdicts(&student) {
            if case.starts_with("willfinish/") {
                assert_eq!(verdict, "process_died", "{mode} {case}: {detail}");
            } else {
                assert_eq!(verdict, "pass", "{mode} {case}: {detail}");
            }
        }
    }
}

/// The report of `check` on a state fixture, with `--zygote mode` and
/// `extra` flags, and whether the header named a cgroup.
fn check_state(fixture: &str, mode: &str, extra: &[&str]) -> (serde_json::Value, bool) {
    let out = salgrade()
        .args(["check", "--format", "json", "--zygote", mode])
        .args(extra)
        .arg(
            fixtures()
                .join("state")
                .join(fixture)
                .join("salbLLfunctions.py"),
        )
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", crate::stderr_of(&out)));
    let cgroup = report["sandbox"].as_str().unwrap_or("").contains("cgroup");
    (report["students"][0].clone(), cgroup)
}

/// Each case's verdict (and the score) of a `check` student.
fn case_verdicts_of(student: &serde_json::Value) -> BTreeMap<String, String> {
    let mut all: BTreeMap<String, String> = crate::case_verdicts(student)
        .into_iter()
        .map(|(case, (verdict, _))| (case, verdict))
        .collect();
    all.insert("(score)".to_owned(), student["score"].to_string());
    all
}

#[test]
fn a_file_a_worker_leaves_is_not_there_for_the_next_worker() {
    // `willfinish` loops on 2-square boards unless a file (in the session
    // folder or /tmp) says it has been there; the looping call leaves both
    // files. A fresh process finds neither, so each such case times out,
    // the retry of the first too. A new worker forked in the same session
    // found the files and passed (100 against 75 on a marker version):
    // the zygote now compares the places a student writes with what they
    // were after the import, and leaves the restart to a new process when
    // they differ.
    let (with, cgroup) = check_state("leaves_itself_a_file", "auto", &[]);
    let (without, _) = check_state("leaves_itself_a_file", "off", &[]);
    let (with, without) = (case_verdicts_of(&with), case_verdicts_of(&without));
    let timeouts = without.values().filter(|v| *v == "timeout").count();
    assert!(timeouts >= 2, "{without:?}");
    assert_eq!(with, without, "cgroup: {cgroup}");
}

#[test]
fn a_worker_copies_the_zygotes_pages_before_its_first_case() {
    // The first `willfinish` call reads every entry of a 500,000-integer
    // table built at import, and prints the minor page faults it took. A
    // fresh process takes next to none; a worker that still shared the
    // table's pages with its zygote would copy each on the case's CPU clock
    // (about 5,000 faults: 30 ms against 8 ms on a bigger table, enough
    // to time a case out).
    let faults = |s: &serde_json::Value| -> u64 {
        let out = s["stdout"].as_str().unwrap_or("");
        out.split_whitespace()
            .skip_while(|w| *w != "faults")
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no fault count in {out:?}"))
    };
    let (with, cgroup) = check_state("sums_a_table_built_at_import", "auto", &[]);
    let (without, _) = check_state("sums_a_table_built_at_import", "off", &[]);
    assert!(faults(&without) < 500, "{}", without["stdout"]);
    assert!(
        faults(&with) < 500,
        "a worker copied the zygote's pages during a case (cgroup: {cgroup}): {}",
        with["stdout"]
    );
    assert_eq!(case_verdicts_of(&with), case_verdicts_of(&without));
}

#[test]
fn a_worker_has_the_memory_a_fresh_process_has() {
    // 50 MiB of the import's, then 48 MiB more in `willfinish`, under a
    // 140 MiB limit: a fresh process passes. The worker's copy of the
    // zygote's pages is counted a second time by the memory cgroup, so the
    // slot's limit holds them on top; `whowins` (100 MiB more) is over the
    // limit either way.
    let flags = ["--memory-mb", "140"];
    let (with, cgroup) = check_state("fills_memory_near_the_limit", "auto", &flags);
    let (without, _) = check_state("fills_memory_near_the_limit", "off", &flags);
    let (with, without) = (case_verdicts_of(&with), case_verdicts_of(&without));
    assert_eq!(without["willfinish/e001"], "pass", "{without:?}");
    assert_ne!(without["whowins/e001"], "pass", "{without:?}");
    assert_eq!(with, without, "cgroup: {cgroup}");
}

#[test]
fn a_students_file_named_like_a_module_of_the_zygotes_is_not_imported_by_it() {
    // A leetcode909 submission with a file of its own named `array.py`
    // (not valid Python; never imported by the solution) beside it. The
    // zygote takes the modules it needs before the session folder is on
    // `sys.path`, and hides them from the student's import: every case
    // passes, as without a zygote (the zygote once imported this file and
    // died before its first case: 0 against 25).
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        fixtures().join("leetcode909/submissions/correct/solution.py"),
        dir.path().join("solution.py"),
    )
    .unwrap();
    std::fs::write(dir.path().join("array.py"), "this is not python (\n").unwrap();
    std::fs::write(dir.path().join("struct.py"), "raise SystemExit(5)\n").unwrap();
    let score = |mode: &str| {
        let out = salgrade()
            .args(["check", "--format", "json", "--assignment", "leetcode909"])
            .args(["--zygote", mode])
            .arg(dir.path().join("solution.py"))
            .output()
            .unwrap();
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", crate::stderr_of(&out)));
        report["students"][0]["score"].clone()
    };
    let without = score("off");
    assert_eq!(without, serde_json::json!(25.0));
    assert_eq!(score("auto"), without);
}
