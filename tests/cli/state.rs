//! How a submission's cases share its processes: one process answers case
//! after case (state a call leaves reaches the next, as in one program),
//! and every restart after a timeout or a death is a new process and a new
//! import, never a copy of one that ran the student's code.

use std::collections::BTreeMap;

use crate::{fixtures, salgrade, stdout_of};

/// The report of `check` on a state fixture, with `extra` flags.
fn check_state(fixture: &str, extra: &[&str]) -> serde_json::Value {
    let out = salgrade()
        .args(["check", "--format", "json"])
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
    report["students"][0].clone()
}

#[test]
fn state_a_case_leaves_reaches_the_next_case_in_the_same_process() {
    // `willfinish` counts its calls in a module global and answers wrongly
    // from its second call on: only its first case (whichever the shuffled
    // order asks first) passes.
    let out = salgrade()
        .args(["check", "--format", "json"])
        .arg(fixtures().join("state/leaks_a_global/salbLLfunctions.py"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout_of(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let functions = &report["students"][0]["functions"];
    let willfinish = &functions["willfinish"];
    assert!(willfinish["passed"].as_u64().unwrap() <= 1, "{willfinish}");
    assert_eq!(
        functions["whowins"]["passed"],
        functions["whowins"]["total"]
    );
}

#[test]
fn every_restart_is_a_new_process_and_a_new_import() {
    // The import prints one line. Each of the 33 looping `willfinish` cases
    // ends its process, and the first timeout is tried twice: 35 imports.
    let student = check_state("loops_after_one_import", &[]);
    let willfinish = &student["functions"]["willfinish"];
    assert_eq!(
        (&willfinish["passed"], &willfinish["total"]),
        (&serde_json::json!(59), &serde_json::json!(92)),
        "{willfinish}"
    );
    let imports = student["stdout"]
        .as_str()
        .unwrap()
        .matches("imported")
        .count();
    assert_eq!(imports, 35, "{}", student["stdout"]);
}

#[test]
fn a_function_given_up_on_costs_no_other_function_a_case() {
    // After willfinish's first three deaths its cases are not run, and no
    // other function's case is charged with them.
    let student = check_state("exits_in_every_willfinish", &["--cases", "2"]);
    let verdicts: BTreeMap<String, (String, String)> = crate::case_verdicts(&student);
    for (case, (verdict, detail)) in verdicts {
        if case.starts_with("willfinish/") {
            assert_eq!(verdict, "process_died", "{case}: {detail}");
        } else {
            assert_eq!(verdict, "pass", "{case}: {detail}");
        }
    }
}

#[test]
fn a_file_a_process_leaves_is_not_there_for_the_next_one() {
    // `willfinish` loops on 2-square boards unless a file (in the session
    // folder or /tmp) says it has been there; the looping call leaves both
    // files. A new process finds neither, so each such case times out.
    let student = check_state("leaves_itself_a_file", &["--cases", "2"]);
    let verdicts = crate::case_verdicts(&student);
    assert!(
        verdicts
            .iter()
            .any(|(id, (v, _))| id.starts_with("willfinish/") && v == "timeout"),
        "{verdicts:?}"
    );
}
