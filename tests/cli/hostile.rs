//! The second round of hostile submissions (issue 23): each attack in its
//! own folder under `fixtures/hostile/`, graded together in one run beside
//! an honest student, under the default set-up (salgrade's namespaces).
//! The run must finish with a report for everyone, the honest student must
//! keep full marks, and no secret of the grader may reach a report.

use std::path::Path;

use serde_json::Value;

use crate::grade::{copy_dir, student};
use crate::{fixtures, salgrade, stderr_of};

/// A graded run: its report, its feedback and what it printed.
struct Run {
    report: Value,
    /// Everything a student can be shown: their report entries and
    /// their feedback files.
    shown: String,
    stderr: String,
}

/// Grades `subs` as salgrade's parent would start it with a secret file
/// (mode 0600) open on fd 9, and the secret in its environment.
fn run(dir: &Path, subs: &Path, args: &[&str], python: Option<&Path>) -> Run {
    use std::os::unix::fs::PermissionsExt;
    let secret = dir.join("secret");
    std::fs::write(&secret, INHERITED).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    let out_dir = dir.join("out");
    let feedback = dir.join("feedback");
    let _ = std::fs::remove_dir_all(&feedback);
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c")
        .arg(r#"exec "$0" "$@" 9<"$SECRET_FILE""#)
        .arg(assert_cmd::cargo::cargo_bin("salgrade"))
        .env("SECRET_FILE", &secret)
        .env("SALGRADE_TEST_SECRET", INHERITED)
        .env_remove("RUST_LOG")
        .env("XDG_CACHE_HOME", crate::test_cache_home())
        .args([
            "grade",
            "--format",
            "json",
            "--shrink-ms",
            "0",
            "--jobs",
            "2",
        ])
        .args(args);
    if let Some(python) = python {
        cmd.arg("--python").arg(python);
    }
    let out = cmd
        .arg("--out-dir")
        .arg(&out_dir)
        .arg("--feedback")
        .arg(&feedback)
        .arg(subs)
        .output()
        .unwrap();
    let stderr = stderr_of(&out);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {stderr}",
        out.status.code()
    );
    // 11: what reaches the instructor's terminal (the table, the progress
    // lines, the notes) holds no raw control byte but newline and tab.
    let terminal = [&out.stdout[..], &out.stderr[..]].concat();
    let raw = String::from_utf8_lossy(&terminal)
        .chars()
        .find(|&c| c.is_control() && c != '\n' && c != '\t');
    assert_eq!(raw, None, "a raw control character reached the terminal");
    let report: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).unwrap()).unwrap();
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
    Run {
        report,
        shown,
        stderr,
    }
}

/// No secret of the grader in anything a student can be shown.
#[track_caller]
fn assert_no_secret(run: &Run) {
    for secret in [SEED, INHERITED] {
        assert!(!run.shown.contains(secret), "`{secret}` reached a student");
    }
}

/// The seed of the graded run: a secret the students must never see.
const SEED: &str = "7318240563";
/// What salgrade's parent left open on fd 9, readable only by root.
const INHERITED: &str = "INHERITED-SECRET-5d1f";

/// The attacks of this round, one folder each.
const ATTACKS: &[&str] = &[
    "fills_task_limit",
    "reads_init",
    "reads_inherited_fd",
    "cpu_elsewhere",
    "fills_disk",
    "injects_terminal",
    "huge_names",
    "blames_the_grader",
    "dies_every_call",
    "evades_container_rule",
    "patches_the_checks",
];
/// The C++ attacks (on `min-throws`), graded in a second run.
const CPP_ATTACKS: &[&str] = &["reads_inherited_fd", "spins_threads", "cpu_in_thread"];

/// The folder `injects_terminal` is graded under.
const INJECTING_NAME: &str = "injects_terminal\x1b]0;owned\x07\nname";

/// A small case file: the first `per_function` cases of each function.
fn small_cases(dir: &Path, per_function: usize) -> std::path::PathBuf {
    small_cases_of("a48", dir, per_function)
}

/// [`small_cases`] of `assignment`.
fn small_cases_of(assignment: &str, dir: &Path, per_function: usize) -> std::path::PathBuf {
    let out = salgrade()
        .args([
            "gen",
            "--assignment",
            assignment,
            "--cases",
            "0",
            "--seed",
            SEED,
        ])
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
    // A folder name that would set the window title and break a line.
    std::fs::rename(subs.join("injects_terminal"), subs.join(INJECTING_NAME)).unwrap();
    let cases = small_cases(dir.path(), 5);
    let python = private_interpreter(dir.path());
    if python.is_none() {
        eprintln!("note: not root: Python runs as the slot's own user");
    }
    let cases_arg = cases.to_string_lossy().into_owned();
    let graded = run(
        dir.path(),
        &subs,
        &["--cases-file", &cases_arg],
        python.as_deref(),
    );
    let (report, stderr) = (&graded.report, &graded.stderr);

    // The honest student, graded beside every attack: full marks.
    assert_eq!(student(report, "correct")["score"], 100.0, "{stderr}");

    // 1: the slot's task limit filled, then a spin: willfinish fails (its
    // restarts find the slot emptied), everything else passes.
    for (v, detail) in verdicts(report, "fills_task_limit", "willfinish") {
        assert_ne!(v, "pass", "{detail}");
        assert_ne!(v, "harness_error", "{detail}");
    }
    for f in ["salb2salbLL", "whowins", "dualboard"] {
        for (v, detail) in verdicts(report, "fills_task_limit", f) {
            assert_eq!(v, "pass", "{f}: {detail}");
        }
    }

    // 2, 3: the sandbox's PID 1 is a fresh image with nothing of the
    // grader: its command line is its role, its environment empty, and
    // its memory holds no grader argument.
    for (v, detail) in verdicts(report, "reads_init", "whowins") {
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

    // 4: nothing salgrade inherited reaches the program.
    for (v, detail) in verdicts(report, "reads_inherited_fd", "*") {
        assert_eq!(v, "pass", "{detail}");
    }

    // 6: CPU time burnt in a worker thread (willfinish) or a forked child
    // (whowins) counts: both time out; the rest passes.
    for f in ["willfinish", "whowins"] {
        for (v, detail) in verdicts(report, "cpu_elsewhere", f) {
            assert_eq!(v, "timeout", "{f}: {detail}");
        }
    }
    for f in ["salb2salbLL", "dualboard"] {
        for (v, detail) in verdicts(report, "cpu_elsewhere", f) {
            assert_eq!(v, "pass", "{f}: {detail}");
        }
    }

    // 7: the folder's writes fill the session's own scratch space: the
    // student's `No space left on device`, never the host's disk.
    for (v, detail) in verdicts(report, "fills_disk", "whowins") {
        assert_eq!(v, "exception", "{detail}");
        assert!(detail.contains("No space left on device"), "{detail}");
    }

    // 5: a 2 MiB class name and message are capped (by the driver, and
    // again where they enter salgrade).
    for (v, detail) in verdicts(report, "huge_names", "whowins") {
        assert_eq!(v, "exception", "{detail}");
        assert!(detail.len() < 8 * 1024, "{} bytes", detail.len());
        assert!(detail.starts_with("EEEE"), "{}", &detail[..200]);
    }

    // 8: after three deaths and no answer, whowins's remaining cases get
    // the same verdict without a run (and without a 1 s import each).
    // The cases are asked in a shuffled order: three of them ran.
    let died = verdicts(report, "dies_every_call", "whowins");
    assert!(died.len() > 3, "{died:?}");
    for (v, detail) in &died {
        assert_eq!(v, "process_died", "{detail}");
    }
    let ran = died.iter().filter(|(_, d)| !d.contains("not run")).count();
    assert_eq!(ran, 3, "{died:?}");

    // 10: the container rule sees through aliases, a subclass and its
    // method, and reports `eval` as code it cannot check.
    let found: Vec<String> = student(report, "evades_container_rule")["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["construct"].as_str().unwrap_or_default().to_owned())
        .collect();
    for needle in [
        "through `Bag`",
        "through `table`",
        "subclass of list",
        "method list.append",
        "cannot be checked",
    ] {
        assert!(
            found.iter().any(|c| c.contains(needle)),
            "{needle}: {found:?}"
        );
    }

    // 9: patching the input-mutation check through `sys.modules` is
    // detected; the dualboard answers are not trusted.
    for (v, detail) in verdicts(report, "patches_the_checks", "dualboard") {
        assert_eq!(v, "exception", "{detail}");
        assert!(detail.contains("TamperingError"), "{detail}");
    }

    // 12: an answer whose description cannot be decoded is the student's.
    for (v, detail) in verdicts(report, "blames_the_grader", "willfinish") {
        assert_eq!(v, "wrong_type", "{detail}");
    }

    // 11: the folder's name is escaped everywhere (one line), its printed
    // escape sequences and its exception message too, and the feedback's
    // code fence outlasts the message's own backticks.
    let name = r"injects_terminal\x1b]0;owned\x07\x0aname";
    for (v, detail) in verdicts(report, name, "whowins") {
        assert_eq!(v, "exception", "{detail}");
        assert!(detail.contains(r"\x1b[2J"), "{detail}");
    }
    assert!(graded.shown.contains("````text\nValueError: done\n```\n"));
    let raw = graded
        .shown
        .chars()
        .find(|&c| c.is_control() && c != '\n' && c != '\t');
    assert_eq!(
        raw, None,
        "a raw control character reached a report or feedback"
    );

    assert_no_secret(&graded);
}

#[test]
fn second_round_cpp_attacks_are_graded_beside_an_honest_student() {
    if !crate::cxx::have_cxx() {
        return;
    }
    let _turn = crate::one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("hostile-cpp"), &subs, CPP_ATTACKS);
    copy_dir(&fixtures().join("min-throws/cpp"), &subs, &["correct"]);
    let cases = small_cases_of("min-throws", dir.path(), 4);
    let cases_arg = cases.to_string_lossy().into_owned();
    let graded = run(
        dir.path(),
        &subs,
        &["--assignment", "min-throws", "--cases-file", &cases_arg],
        None,
    );
    let (report, stderr) = (&graded.report, &graded.stderr);
    assert_eq!(
        student(report, "correct")["score"],
        student(report, "correct")["max_score"],
        "{stderr}"
    );
    // 4: neither the compiler (its `#include "/proc/self/fd/9"`) nor the
    // program finds fd 9 open: it builds, and every case passes.
    for (v, detail) in verdicts(report, "reads_inherited_fd", "*") {
        assert_eq!(v, "pass", "{detail}");
    }
    // 1: 40 spinning threads per call, more than the slot's task limit:
    // each case times out, and the run goes on.
    // 6: 0.3 s of CPU in a `std::thread` the caller joins: a timeout.
    for name in ["spins_threads", "cpu_in_thread"] {
        for (v, detail) in verdicts(report, name, "*") {
            assert_eq!(v, "timeout", "{name}: {detail}");
        }
    }
    assert_no_secret(&graded);
}

/// Also noticed in issue 23: an interpreter reached through a symbolic
/// link in a folder only root may enter still runs as the slot's uid.
#[test]
fn an_interpreter_linked_from_a_private_folder_runs_as_the_slot_uid() {
    use std::os::unix::fs::PermissionsExt;
    let root = crate::status_of("self").is_some_and(|s| crate::field(&s, "Uid:") == "0");
    let Ok(real) = std::fs::canonicalize("/usr/bin/python3") else {
        return;
    };
    if !root {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let private = dir.path().join("private");
    std::fs::create_dir_all(&private).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::os::unix::fs::symlink(real, private.join("python3")).unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("submissions"), &subs, &["correct"]);
    let cases = small_cases(dir.path(), 1);
    let out = salgrade()
        .args(["grade", "--format", "json", "--shrink-ms", "0", "--python"])
        .arg(private.join("python3"))
        .arg("--cases-file")
        .arg(&cases)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sandbox = report["sandbox"].as_str().unwrap_or_default();
    assert!(
        sandbox.contains("an unprivileged uid per slot"),
        "{sandbox}"
    );
}
