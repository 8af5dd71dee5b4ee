//! C++ submissions: the sample cohorts of `min-throws` and `leetcode909`
//! written in C++ (`fixtures/<assignment>/cpp/`, one behaviour each), built
//! and run through the same runner as Python; a folder mixing the two
//! languages; and the hostile C++ fixtures (`fixtures/hostile-cpp/`) under
//! each real backend. Every test is skipped, saying so, where no `g++` is
//! on PATH.
//!
//! The cohorts are graded with few random cases and without shrinking (the
//! `check` test shrinks). Runs at once are safe (each claims its own block
//! of sandbox uids: `two_runs_at_once_leave_each_other_alone`); only the
//! hostile test, which looks for leftovers machine-wide, takes turns.

use std::collections::{BTreeMap, BTreeSet};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::grade::{copy_dir, student};
use crate::{fixtures, salgrade, stderr_of, stdout_of};

/// The port `fixtures/hostile-cpp/network` tries on 127.0.0.1 (not the
/// Python fixture's, whose listener `isolation.rs` keeps for its whole run).
const PORT: u16 = 47614;

/// Whether a C++ compiler is there; if not, the caller returns early.
pub(crate) fn have_cxx() -> bool {
    let found = ["g++", "c++"].iter().any(|c| {
        std::process::Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !found {
        eprintln!("note: skipping a C++ test: no `g++` or `c++` on PATH (Debian package `g++`)");
    }
    found
}

fn cpp_dir(assignment: &str) -> PathBuf {
    fixtures().join(assignment).join("cpp")
}

struct Graded {
    report: Value,
    table: String,
    stderr: String,
    /// Holds the out dir and the feedback folder.
    dir: tempfile::TempDir,
}

impl Graded {
    fn feedback(&self, name: &str) -> String {
        let path = self.dir.path().join("feedback").join(format!("{name}.md"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// Grades `folder` with few cases, no shrinking and `extra` flags; the run
/// must exit `code`.
#[track_caller]
fn grade(assignment: &str, folder: &Path, extra: &[&str], code: i32) -> Graded {
    let dir = tempfile::tempdir().unwrap();
    let run = salgrade()
        .args(["grade", "--assignment", assignment, "--cases", "4"])
        .args(["--shrink-ms", "0"])
        .args(extra)
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg("--feedback")
        .arg(dir.path().join("feedback"))
        .arg(folder)
        .output()
        .unwrap();
    let stderr = stderr_of(&run);
    assert_eq!(run.status.code(), Some(code), "{stderr}");
    let report =
        serde_json::from_slice(&std::fs::read(dir.path().join("out/report.json")).unwrap())
            .unwrap();
    Graded {
        report,
        table: stdout_of(&run),
        stderr,
        dir,
    }
}

/// Each student's verdict classes on failing cases, sorted.
fn verdicts(report: &Value) -> BTreeMap<String, Vec<String>> {
    report["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let kinds: BTreeSet<String> = failing(s)
                .map(|c| c["verdict"].as_str().unwrap().to_owned())
                .collect();
            (
                s["student"].as_str().unwrap().to_owned(),
                kinds.into_iter().collect(),
            )
        })
        .collect()
}

fn failing(s: &Value) -> impl Iterator<Item = &Value> {
    s["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] != "pass")
}

#[track_caller]
fn assert_verdicts(report: &Value, expected: &[(&str, &[&str])]) {
    let got = verdicts(report);
    let want: BTreeMap<String, Vec<String>> = expected
        .iter()
        .map(|(n, k)| ((*n).to_owned(), k.iter().map(|s| (*s).to_owned()).collect()))
        .collect();
    assert_eq!(got, want);
}

/// Every failing case of `name` has `needle` in its detail.
#[track_caller]
fn details_contain(report: &Value, name: &str, needle: &str) {
    let s = student(report, name);
    let mut any = false;
    for c in failing(s) {
        any = true;
        let detail = c["detail"].as_str().unwrap_or("");
        assert!(detail.contains(needle), "{name} {}: {detail}", c["case_id"]);
    }
    assert!(any, "{name} has no failing case");
}

/// Every failing case of `name` is one of the unreachable boards (where
/// the expected answer is -1).
#[track_caller]
fn fails_only_on_unreachable(report: &Value, name: &str) {
    for c in failing(student(report, name)) {
        let id = c["case_id"].as_str().unwrap();
        assert!(
            id.contains("unreachable") || id.contains("last-dequeued"),
            "{name} failed {id}: {c}"
        );
    }
    let smallest = &student(report, name)["functions"]["get_min_dice_throws"]["smallest_failure"];
    assert!(
        smallest["case_id"]
            .as_str()
            .is_some_and(|id| id.contains("unreachable")),
        "{smallest}"
    );
}

/// The min-throws C++ cohort, graded once (under the default sandbox, with
/// a small memory limit so the memory bomb meets it long before its
/// deadline, and a small output cap so `prints_stdout` is cut) for all the
/// tests that read it.
fn min_throws_cohort() -> &'static Graded {
    static COHORT: OnceLock<Graded> = OnceLock::new();
    COHORT.get_or_init(|| {
        grade(
            "min-throws",
            &cpp_dir("min-throws"),
            // Touching 256 MiB takes longer than the default 50 ms CPU
            // floor: a longer floor lets the memory bomb reach its limit.
            &[
                "--memory-mb",
                "256",
                "--output-cap",
                "1000",
                "--timeout-floor-ms",
                "300",
            ],
            1,
        )
    })
}

#[test]
fn check_builds_the_seeds_cpp_and_shows_its_bug_shrunk() {
    if !have_cxx() {
        return;
    }
    let check = |name: &str| {
        salgrade()
            .args(["check", "--assignment", "min-throws", "--cases", "4"])
            .arg(cpp_dir("min-throws").join(name).join("min_throws.cpp"))
            .output()
            .unwrap()
    };
    let out = check("last_dequeued");
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(text.contains("expected: -1"), "{text}");
    assert!(text.contains("Smallest failing input"), "{text}");
    let out = check("correct");
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("All cases pass."));
}

#[test]
fn each_min_throws_behaviour_gets_its_verdict() {
    if !have_cxx() {
        return;
    }
    let graded = min_throws_cohort();
    let report = &graded.report;
    assert_verdicts(
        report,
        &[
            ("aborts", &["process_died"]),
            ("correct", &[]),
            ("correct_with_main", &[]),
            ("deep_recursion", &["process_died"]),
            ("exits_midcall", &["process_died"]),
            ("infinite_loop", &["timeout"]),
            ("last_dequeued", &["wrong_answer"]),
            // RLIMIT_AS makes `new` throw std::bad_alloc (see the ignored
            // `bad_alloc_is_a_memory_limit` below).
            ("memory_bomb", &["memory_limit"]),
            ("falls_off_end", &["build_failed"]),
            ("prints_stdout", &[]),
            ("queue_without_include", &[]),
            ("reads_stdin", &[]),
            ("segfault", &["process_died"]),
            ("syntax_error", &["build_failed"]),
            ("uncaught_exception", &["exception"]),
            ("wrong_signature", &["missing_function"]),
        ],
    );
    for s in report["students"].as_array().unwrap() {
        assert!(
            s["file"].as_str().unwrap().ends_with("/min_throws.cpp"),
            "{s}"
        );
    }
    for name in [
        "last_dequeued",
        "aborts",
        "exits_midcall",
        "uncaught_exception",
    ] {
        fails_only_on_unreachable(report, name);
    }
    fails_only_on_unreachable(report, "infinite_loop");
    details_contain(report, "uncaught_exception", "std::out_of_range");
    details_contain(report, "memory_bomb", "std::bad_alloc");
    details_contain(report, "exits_midcall", "code 0");
    details_contain(report, "infinite_loop", "no answer within");
    // The recursion fails on the large boards only (thousands of cells).
    for c in failing(student(report, "deep_recursion")) {
        let id = c["case_id"].as_str().unwrap();
        assert!(id.contains("large"), "deep_recursion failed {id}: {c}");
    }
    // A `main` of the student's is tolerated and named in a warning.
    let warnings = student(report, "correct_with_main")["warnings"].to_string();
    assert!(warnings.contains("`main` is not run"), "{warnings}");
    assert!(
        graded.table.contains("correct_with_main"),
        "{}",
        graded.table
    );
}

#[test]
fn build_failures_show_the_first_compiler_error_with_file_and_line() {
    if !have_cxx() {
        return;
    }
    let graded = min_throws_cohort();
    // g++ reports the missing semicolon of line 9 at the start of line 10.
    details_contain(&graded.report, "syntax_error", "min_throws.cpp:10:");
    details_contain(&graded.report, "syntax_error", "expected");
    // A function that can fall off its end is an error, at its last line.
    details_contain(&graded.report, "falls_off_end", "min_throws.cpp:8:");
    details_contain(&graded.report, "falls_off_end", "control reaches end");
    for (name, line) in [
        ("syntax_error", "min_throws.cpp:10:"),
        ("falls_off_end", "min_throws.cpp:8:"),
    ] {
        let first = failing(student(&graded.report, name)).next().unwrap()["detail"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned();
        assert!(first.starts_with(line), "{name}: {first}");
        let fb = graded.feedback(name);
        assert!(fb.contains(&first), "{name}: {fb}");
    }
}

#[test]
fn output_is_captured_and_stdin_is_empty() {
    if !have_cxx() {
        return;
    }
    let graded = min_throws_cohort();
    let s = student(&graded.report, "prints_stdout");
    assert_eq!(s["score"], s["max_score"]);
    let stdout = s["stdout"].as_str().unwrap();
    // The cases are asked in a shuffled order, and only the first 1000
    // bytes are kept: the lines are those of whichever cases came first.
    assert!(stdout.starts_with("debug: board of "), "{stdout}");
    assert!(
        s["stderr"]
            .as_str()
            .unwrap()
            .starts_with("debug on stderr: N=")
    );
    assert!(
        graded
            .feedback("prints_stdout")
            .contains("debug: board of ")
    );
    let s = student(&graded.report, "reads_stdin");
    assert_eq!(s["score"], s["max_score"]);
}

/// Under `--sandbox rlimit` a death by signal is named.
#[test]
fn crashes_name_their_signal_under_rlimit() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&cpp_dir("min-throws"), dir.path(), &["segfault", "aborts"]);
    let graded = grade("min-throws", dir.path(), &["--sandbox", "rlimit"], 1);
    details_contain(&graded.report, "segfault", "SIGSEGV");
    details_contain(&graded.report, "aborts", "SIGABRT");
}

#[test]
fn crashes_name_their_signal_under_bwrap() {
    if !have_cxx() {
        return;
    }
    let graded = min_throws_cohort();
    details_contain(&graded.report, "segfault", "SIGSEGV");
    details_contain(&graded.report, "aborts", "SIGABRT");
    details_contain(&graded.report, "deep_recursion", "SIGSEGV");
}

#[test]
fn two_runs_at_once_leave_each_other_alone() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &cpp_dir("min-throws"),
        &dir.path().join("subs"),
        &["correct", "correct_with_main", "reads_stdin"],
    );
    let runs: Vec<_> = (0..3)
        .map(|i| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("salgrade"))
                .env("XDG_CACHE_HOME", crate::test_cache_home())
                .args(["grade", "--assignment", "min-throws", "--cases", "4"])
                .args(["--shrink-ms", "0", "--jobs", "1", "--out-dir"])
                .arg(dir.path().join(format!("out-{i}")))
                .arg(dir.path().join("subs"))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    }
}

#[test]
fn printed_output_is_capped() {
    if !have_cxx() {
        return;
    }
    let s = student(&min_throws_cohort().report, "prints_stdout");
    let stdout = s["stdout"].as_str().unwrap();
    assert!(stdout.len() <= 1100, "{} bytes kept", stdout.len());
}

#[test]
fn a_wrong_signature_names_the_cpp_file_and_the_expected_signature() {
    if !have_cxx() {
        return;
    }
    let graded = min_throws_cohort();
    details_contain(&graded.report, "wrong_signature", "int move[], int N");
}

#[test]
fn bad_alloc_is_a_memory_limit() {
    if !have_cxx() {
        return;
    }
    let graded = min_throws_cohort();
    assert_eq!(
        verdicts(&graded.report)["memory_bomb"],
        vec!["memory_limit".to_owned()]
    );
}

#[test]
fn each_leetcode909_behaviour_gets_its_verdict() {
    if !have_cxx() {
        return;
    }
    let graded = grade("leetcode909", &cpp_dir("leetcode909"), &[], 1);
    assert_verdicts(
        &graded.report,
        &[
            ("correct_leetcode_style", &[]),
            ("no_class", &["build_failed"]),
            ("rows_left_to_right", &["wrong_answer"]),
        ],
    );
    // The compiler's first error is shown and names what is missing. The
    // error lies only in salgrade's glue (it uses the class the file lacks),
    // and the glue's file name is never shown, so there is no `.cpp:` place
    // to point to.
    details_contain(&graded.report, "no_class", "Solution");
    let detail = failing(student(&graded.report, "no_class")).next().unwrap()["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        detail
            .lines()
            .next()
            .is_some_and(|l| l.contains("Solution")),
        "{detail}"
    );
    assert!(!detail.contains("_salgrade"), "{detail}");
    assert!(graded.feedback("no_class").contains("Solution"));
}

#[test]
fn a_mixed_folder_is_one_table_each_in_its_language() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &fixtures().join("min-throws/submissions"),
        dir.path(),
        &["correct"],
    );
    std::fs::rename(dir.path().join("correct"), dir.path().join("py_correct")).unwrap();
    copy_dir(
        &cpp_dir("min-throws"),
        dir.path(),
        &["correct", "last_dequeued"],
    );
    let graded = grade("min-throws", dir.path(), &[], 1);
    assert_verdicts(
        &graded.report,
        &[
            ("correct", &[]),
            ("last_dequeued", &["wrong_answer"]),
            ("py_correct", &[]),
        ],
    );
    let file = |name: &str| {
        student(&graded.report, name)["file"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(file("py_correct").ends_with(".py"));
    assert!(file("correct").ends_with(".cpp"));
    assert!(file("last_dequeued").ends_with(".cpp"));
    // One table: one header, a row each (the common mistakes under it
    // name the function again).
    let table = graded
        .table
        .split("Common mistakes")
        .next()
        .unwrap_or_default();
    assert_eq!(
        table.matches("get_min_dice_throws").count(),
        1,
        "{}",
        graded.table
    );
    for name in ["py_correct", "correct", "last_dequeued"] {
        assert!(graded.table.contains(name), "{}", graded.table);
    }
}

#[test]
fn a_folder_with_both_languages_is_python_unless_told() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both");
    std::fs::create_dir(&both).unwrap();
    // The C++ file has the seed's bug, the Python file none: the verdict
    // shows which one was graded.
    std::fs::copy(
        fixtures().join("min-throws/submissions/correct/min_throws.py"),
        both.join("min_throws.py"),
    )
    .unwrap();
    std::fs::copy(
        cpp_dir("min-throws").join("last_dequeued/min_throws.cpp"),
        both.join("min_throws.cpp"),
    )
    .unwrap();
    let graded = grade("min-throws", dir.path(), &[], 0);
    let s = student(&graded.report, "both");
    assert!(
        s["file"].as_str().unwrap().ends_with("min_throws.py"),
        "{s}"
    );
    let warnings = s["warnings"].to_string();
    assert!(
        warnings.contains("min_throws.py") && warnings.contains("min_throws.cpp"),
        "{warnings}"
    );
    assert!(warnings.contains("--language"), "{warnings}");

    let graded = grade("min-throws", dir.path(), &["--language", "cpp"], 1);
    let s = student(&graded.report, "both");
    assert!(
        s["file"].as_str().unwrap().ends_with("min_throws.cpp"),
        "{s}"
    );
    assert_eq!(
        verdicts(&graded.report)["both"],
        vec!["wrong_answer".to_owned()]
    );
    let warnings = s["warnings"].to_string();
    assert!(!warnings.contains("min_throws.py"), "{warnings}");
    assert!(!graded.stderr.contains("both `"), "{}", graded.stderr);
}

#[test]
fn cc_and_cxx_files_are_found_inferred_and_built_like_cpp() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    let source = cpp_dir("min-throws").join("correct/min_throws.cpp");
    std::fs::create_dir_all(subs.join("ann")).unwrap();
    std::fs::copy(&source, subs.join("ann/min_throws.cc")).unwrap();
    // A Canvas flat download's name, with the other extension.
    std::fs::copy(&source, subs.join("bob_12_34_min_throws.cxx")).unwrap();
    // No `--assignment`: the names alone say it is min-throws.
    let run = salgrade()
        .args(["grade", "--cases", "4", "--shrink-ms", "0", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    let stderr = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("assignment `min-throws`"), "{stderr}");
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out/report.json")).unwrap())
            .unwrap();
    assert_verdicts(&report, &[("ann", &[]), ("bob_12", &[])]);
    let run = salgrade()
        .args(["check", "--cases", "4", "--shrink-ms", "0"])
        .arg(subs.join("ann/min_throws.cc"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    assert!(
        stdout_of(&run).contains("All cases pass"),
        "{}",
        stdout_of(&run)
    );
}

#[test]
fn a_model_solution_that_cannot_be_built_blames_the_toolchain() {
    let Some(gcc) = ["/usr/bin/gcc", "/usr/bin/cc"]
        .into_iter()
        .find(|c| Path::new(c).exists())
    else {
        eprintln!("note: skipping: no C compiler driver to pass as `--cxx`");
        return;
    };
    if !have_cxx() {
        return;
    }
    let run = salgrade()
        .args(["check", "--cases", "0", "--cxx", gcc])
        .arg(cpp_dir("min-throws").join("correct/min_throws.cpp"))
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot be built with")
            && err.contains("undefined reference")
            && err.contains("pass `--cxx` a C++ compiler")
            && !err.contains("salgrade bug"),
        "{err}"
    );
}

#[test]
fn a_cpp_file_named_otherwise_is_inferred_by_what_it_defines() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = cpp_dir("min-throws").join("correct/min_throws.cpp");
    let file = dir.path().join("MinThrows (2).cpp");
    std::fs::copy(&source, &file).unwrap();
    let run = salgrade()
        .args(["check", "--cases", "2", "--shrink-ms", "0"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("assignment `min-throws`, inferred from the functions"),
        "{err}"
    );
    // A folder of such files, graded without `--assignment`.
    let subs = dir.path().join("subs");
    std::fs::create_dir_all(subs.join("ann")).unwrap();
    std::fs::copy(&source, subs.join("ann/MinThrows.cpp")).unwrap();
    let run = salgrade()
        .args(["grade", "--cases", "2", "--shrink-ms", "0", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr_of(&run));
    // A C++ file checked as a Python-only assignment names those that take C++.
    let run = salgrade()
        .args(["check", "-a", "a48", "--cases", "0"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("`--assignment min-throws`"), "{err}");
}

// ---------------------------------------------------------------------------
// Hostile C++ submissions.

/// The ordinary students graded beside the attacks (C++ and Python).
const ORDINARY: &[&str] = &["correct", "last_dequeued", "py_correct"];
/// Counts connections to 127.0.0.1:PORT for the rest of the test binary's
/// life; `None` if the port is taken.
fn listener() -> Option<Arc<AtomicUsize>> {
    // One listener for the whole test binary: the tests that use it take
    // turns, and a second bind of the port would find it taken.
    static LISTENER: std::sync::OnceLock<Option<Arc<AtomicUsize>>> = std::sync::OnceLock::new();
    LISTENER.get_or_init(listen).clone()
}

fn listen() -> Option<Arc<AtomicUsize>> {
    let listener = match TcpListener::bind(("127.0.0.1", PORT)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("note: port {PORT} is busy ({e}); the network check relies on the fixture");
            return None;
        }
    };
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            if stream.is_ok() {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    Some(count)
}

/// A folder holding the ordinary students and `hostile`.
fn hostile_folder(dir: &Path, hostile: &[&str]) -> PathBuf {
    let subs = dir.join(format!("subs-{}", hostile.len()));
    copy_dir(&cpp_dir("min-throws"), &subs, &["correct", "last_dequeued"]);
    copy_dir(
        &fixtures().join("min-throws/submissions"),
        &subs,
        &["correct"],
    );
    std::fs::create_dir_all(subs.join("py_correct")).unwrap();
    std::fs::rename(
        subs.join("correct/min_throws.py"),
        subs.join("py_correct/min_throws.py"),
    )
    .unwrap();
    copy_dir(&fixtures().join("hostile-cpp"), &subs, hostile);
    subs
}

fn grade_hostile(dir: &Path, hostile: &[&str], sandbox: &str) -> Value {
    let subs = hostile_folder(dir, hostile);
    let out = salgrade()
        .args(["grade", "--assignment", "min-throws", "--format", "json"])
        .args(["--cases", "2", "--shrink-ms", "0", "--sandbox", sandbox])
        // No hostile fixture loops: a long floor only lets the memory bomb
        // reach its limit whatever the machine's load.
        .args(["--timeout-floor-ms", "5000"])
        // The bomb writes 256 MiB before its second block meets the limit
        // (at the default 1024 it wrote about 1 GiB on each of its 30
        // cases: 20 s of the kernel's time per grade); the ordinary
        // students need a small part of it.
        .args(["--memory-mb", "512"])
        .arg("--out-dir")
        .arg(dir.join(format!("out-{}", hostile.len())))
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every case of `name` has one of `allowed` verdicts, and at least one
/// has the first with `needle` in its detail.
#[track_caller]
fn stopped(report: &Value, name: &str, allowed: &[&str], needle: &str) {
    let all = crate::case_verdicts(student(report, name));
    for (id, (v, detail)) in &all {
        assert!(allowed.contains(&v.as_str()), "{name} {id}: {v} {detail}");
    }
    assert!(
        all.values()
            .any(|(v, d)| v == allowed[0] && d.contains(needle)),
        "{name}: {all:?}"
    );
}

#[track_caller]
fn all_pass(report: &Value, name: &str) {
    let s = student(report, name);
    for (id, (v, detail)) in crate::case_verdicts(s) {
        assert_eq!(v, "pass", "{name} {id}: {detail}");
    }
    assert_eq!(s["stdout"], "", "{name} printed what it found");
}

/// Processes of a sandbox uid (2000000000 + slot) that are not zombies of a live
/// salgrade, and processes left in the cgroup of a salgrade run that has
/// ended. (The same checks as `isolation.rs`, kept here so that file stays
/// as it is.)
fn leftovers(zombies_before: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        let Some(status) = crate::status_of(&pid) else {
            continue;
        };
        let uid: u32 = crate::field(&status, "Uid:").parse().unwrap_or(0);
        let prog = std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
            let argv0 = c.split(|b| *b == 0).next().unwrap_or_default();
            argv0 == b"prog" || argv0.ends_with(b"/prog")
        });
        if !(2_000_000_000..2_000_009_600).contains(&uid) && !prog {
            continue;
        }
        // Tests grading at the same time have students of their own (with
        // the same uids); theirs have a live salgrade above them. This
        // run's salgrade has exited, so none of its processes has one.
        if crate::under_live_salgrade(&pid) {
            continue;
        }
        if crate::field(&status, "State:") == "Z" && zombies_before.contains(&pid) {
            continue;
        }
        found.push(format!(
            "{pid}: uid {uid} state {}",
            crate::field(&status, "State:")
        ));
    }
    for hierarchy in [
        "/sys/fs/cgroup/pids",
        "/sys/fs/cgroup/memory",
        "/sys/fs/cgroup",
    ] {
        let Ok(entries) = std::fs::read_dir(hierarchy) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(pid) = name.strip_prefix("salgrade-") else {
                continue;
            };
            if Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            for slot in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
                let procs =
                    std::fs::read_to_string(slot.path().join("cgroup.procs")).unwrap_or_default();
                if !procs.trim().is_empty() {
                    found.push(format!("{}: {}", slot.path().display(), procs.trim()));
                }
            }
        }
    }
    found
}

/// Zombies of sandbox uids already there before the test (left by another
/// test that SIGKILLs salgrade on purpose, until PID 1 reaps them).
fn sandbox_zombies() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let zombie = status
            .lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'));
        let sandbox_uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<u32>().ok())
            .is_some_and(|u| (2_000_000_000..2_000_009_600).contains(&u));
        if zombie && sandbox_uid {
            found.insert(e.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

#[test]
fn hostile_cpp_submissions_are_stopped_and_disturb_nobody() {
    hostile_cpp(&["namespaces", "rlimit"]);
}

/// The same under bubblewrap: marked ignored, with the reason, where it
/// cannot run (the build script probes it), rather than passing unrun.
#[test]
#[cfg_attr(
    salgrade_no_bwrap,
    ignore = "bubblewrap is missing or cannot create namespaces here (.ci/run installs it)"
)]
fn hostile_cpp_submissions_are_stopped_under_bwrap() {
    assert!(
        crate::bwrap_works(),
        "bubblewrap stopped working since the build"
    );
    hostile_cpp(&["bwrap"]);
}

fn hostile_cpp(backends: &[&str]) {
    if !have_cxx() {
        return;
    }
    let _turn = crate::one_at_a_time();
    let zombies_before = sandbox_zombies();
    let connections = listener();
    let dir = tempfile::tempdir().unwrap();
    let mut ran = Vec::new();
    for &backend in backends {
        let here = dir.path().join(backend);
        std::fs::create_dir_all(&here).unwrap();
        let alone = grade_hostile(&here, &[], backend);
        let protections = alone["sandbox"].as_str().unwrap().to_owned();
        let cgroup = protections.contains("cgroup");
        let own_uid = protections.contains("unprivileged uid");
        let root = std::fs::read_to_string("/proc/self/status")
            .unwrap()
            .lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
        let namespaces = backend != "rlimit";
        let mut cohort = vec!["memory_bomb", "huge_file"];
        let mut skipped = Vec::new();
        let mut consider = |name: &'static str, why_not: Option<&str>| match why_not {
            None => cohort.push(name),
            Some(why) => skipped.push(format!("{name}: {why}")),
        };
        consider(
            "fork_bomb",
            (!(cgroup || own_uid || !root))
                .then_some("as root without a cgroup, nothing caps the process count"),
        );
        consider(
            "kills_parent",
            (!(namespaces || own_uid)).then_some(
                "rlimit without a uid per slot runs as the grader's uid: it could kill salgrade",
            ),
        );
        consider(
            "reads_others",
            (!namespaces)
                .then_some("rlimit has no mount namespace: files others may read stay readable"),
        );
        consider(
            "network",
            (!namespaces).then_some("rlimit has no network namespace"),
        );
        for s in &skipped {
            eprintln!("note: {backend} ({protections}) cannot promise {s}");
        }

        let report = grade_hostile(&here, &cohort, backend);
        let has = |n: &str| cohort.contains(&n);
        if has("fork_bomb") {
            stopped(
                &report,
                "fork_bomb",
                &["exception", "process_died"],
                "Resource temporarily unavailable",
            );
        }
        stopped(
            &report,
            "memory_bomb",
            &["memory_limit", "process_died"],
            "std::bad_alloc",
        );
        // SIGXFSZ ends the process, named under every backend.
        stopped(&report, "huge_file", &["process_died"], "SIGXFSZ");
        for harmless in ["kills_parent", "reads_others", "network"] {
            if has(harmless) {
                all_pass(&report, harmless);
            }
        }
        for name in ORDINARY {
            assert_eq!(
                crate::case_verdicts(student(&report, name)),
                crate::case_verdicts(student(&alone, name)),
                "{backend}: {name} was graded differently beside the hostile fixtures"
            );
            assert_eq!(
                student(&report, name)["score"],
                student(&alone, name)["score"]
            );
        }
        assert_eq!(
            leftovers(&zombies_before),
            Vec::<String>::new(),
            "{backend}"
        );
        ran.push(backend);
    }
    if let Some(count) = connections {
        assert_eq!(
            count.load(Ordering::SeqCst),
            0,
            "a student reached 127.0.0.1:{PORT}"
        );
    }
    assert!(!ran.is_empty(), "no backend could run");
}

#[test]
fn a_game_that_does_not_compile_is_said_once_with_the_students_line_first() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("snakes_game.cpp");
    let source = std::fs::read_to_string(cpp_dir("game").join("correct/snakes_game.cpp")).unwrap();
    // The class's closing brace and semicolon gone: the error runs on into
    // salgrade's glue, compiled after the file.
    let cut = source.rfind("};").expect("the class ends with `};`");
    std::fs::write(&file, format!("{}{}", &source[..cut], &source[cut + 2..])).unwrap();
    let out = salgrade()
        .args(["check", "--cases", "0"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let text = crate::stdout_of(&out);
    assert_eq!(
        text.matches("## Your file did not compile").count(),
        1,
        "{text}"
    );
    assert!(!text.contains("_salgrade"), "{text}");
    assert!(!text.contains("Smallest failing"), "{text}");
    let detail = text.split("```text\n").nth(1).unwrap_or_default();
    assert!(detail.starts_with("snakes_game.cpp:"), "{text}");
}

/// The lines of a build log (`SALGRADE_BUILD_LOG`), each a JSON object.
fn build_log(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// How each build of a log went: (`prelude` or `whole`, built).
fn builds(log: &[Value]) -> Vec<(String, bool)> {
    log.iter()
        .filter(|l| l.get("build").is_some())
        .map(|l| (l["how"].as_str().unwrap().to_owned(), l["built"] == true))
        .collect()
}

#[test]
fn the_prelude_is_compiled_once_kept_in_the_cache_and_rebuilt_when_corrupt() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(
        &cpp_dir("min-throws"),
        &subs,
        // A wrong student and one that does not compile: the model is the
        // correct build already.
        &["last_dequeued", "syntax_error"],
    );
    let cache = dir.path().join("cache");
    let run = |n: usize| -> Vec<Value> {
        let log = dir.path().join(format!("log-{n}.jsonl"));
        let out = salgrade()
            .env("XDG_CACHE_HOME", &cache)
            .env("SALGRADE_BUILD_LOG", &log)
            .args(["grade", "--assignment", "min-throws", "--cases", "4"])
            // Calibrated afresh each time, so the model and the naive
            // solution are built in every run, not only in the first.
            .args(["--calibration", "fresh", "--shrink-ms", "0", "--out-dir"])
            .arg(dir.path().join(format!("out-{n}")))
            .arg(&subs)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
        build_log(&log)
    };
    let prelude = |log: &[Value]| -> Vec<String> {
        log.iter()
            .filter_map(|l| l["prelude"].as_str().map(str::to_owned))
            .collect()
    };
    // The first run compiles the prelude once, stores it, and builds the
    // model, the naive solution and the student that compiles against it;
    // the student that does not compile is built whole, as before.
    let first = run(1);
    assert_eq!(prelude(&first), ["stored"], "{first:?}");
    let mut got = builds(&first);
    got.sort();
    let prelude_built = ("prelude".to_owned(), true);
    assert_eq!(
        got,
        [
            prelude_built.clone(),
            prelude_built.clone(),
            prelude_built.clone(),
            ("whole".to_owned(), false),
        ],
        "{first:?}"
    );
    assert!(
        !first.iter().any(|l| l.get("pch_rejected").is_some()),
        "g++ rejected the precompiled header: {first:?}"
    );
    // The student built whole had tried the prelude and failed both ways:
    // a whole build that succeeds after a failed one against the prelude
    // would mean the prelude is broken (as it was under bwrap once).
    let whole: Vec<&Value> = first.iter().filter(|l| l["how"] == "whole").collect();
    assert_eq!(whole.len(), 1, "{first:?}");
    assert_eq!(whole[0]["tried_prelude"], true, "{first:?}");
    assert_eq!(whole[0]["built"], false, "{first:?}");
    // The second run finds it whole.
    let second = run(2);
    assert_eq!(prelude(&second), ["cached"], "{second:?}");
    assert_eq!(
        builds(&second)
            .iter()
            .filter(|b| **b == prelude_built)
            .count(),
        3
    );
    // A cut-short header is found out and compiled again, never used.
    let entries: Vec<PathBuf> = std::fs::read_dir(cache.join("salgrade/cxx-prelude"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let gch = entries[0].join("_salgrade_prelude.hpp.gch");
    let bytes = std::fs::read(&gch).unwrap();
    std::fs::write(&gch, &bytes[..bytes.len() / 2]).unwrap();
    let third = run(3);
    assert_eq!(prelude(&third), ["rebuilt"], "{third:?}");
    assert_eq!(
        builds(&third)
            .iter()
            .filter(|b| **b == prelude_built)
            .count(),
        3
    );
    // (Two compilations of the header differ by a few bytes: not compared.)
    assert!(std::fs::metadata(&gch).unwrap().len() > bytes.len() as u64 / 2);
    // The three runs graded alike.
    let verdicts_of = |n: usize| {
        let report: Value = serde_json::from_slice(
            &std::fs::read(dir.path().join(format!("out-{n}/report.json"))).unwrap(),
        )
        .unwrap();
        verdicts(&report)
    };
    assert_eq!(verdicts_of(1), verdicts_of(2));
    assert_eq!(verdicts_of(1), verdicts_of(3));
}

#[test]
fn built_whole_the_cohort_gets_the_same_verdicts_details_and_warnings() {
    if !have_cxx() {
        return;
    }
    // The students whose build says something: errors, a warning, an
    // include they rely on, a missing function.
    let names = [
        "syntax_error",
        "falls_off_end",
        "correct_with_main",
        "queue_without_include",
        "wrong_signature",
    ];
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&cpp_dir("min-throws"), dir.path(), &names);
    let whole = grade(
        "min-throws",
        dir.path(),
        &[
            "--memory-mb",
            "256",
            "--output-cap",
            "1000",
            "--timeout-floor-ms",
            "300",
            "--cxx-prelude",
            "off",
        ],
        1,
    );
    let with_prelude = &min_throws_cohort().report;
    let seen = |s: &Value| {
        let cases: Vec<(Value, Value, Value)> = s["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["case_id"].clone(),
                    c["verdict"].clone(),
                    c["detail"].clone(),
                )
            })
            .collect();
        (cases, s["warnings"].clone(), s["score"].clone())
    };
    for name in names {
        assert_eq!(
            seen(student(&whole.report, name)),
            seen(student(with_prelude, name)),
            "{name}"
        );
    }
}

#[test]
fn a_game_file_builds_as_plain_gxx_builds_it_with_no_include_lent() {
    if !have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(cpp_dir("game").join("correct/snakes_game.cpp")).unwrap();
    let without: String = source
        .lines()
        .filter(|l| l.trim() != "#include <map>")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, source, "the fixture includes <map>");
    let file = dir.path().join("snakes_game.cpp");
    std::fs::write(&file, &without).unwrap();
    // Plain g++ refuses it...
    let plain = std::process::Command::new("g++")
        .args(["-std=c++20", "-fsyntax-only"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!plain.status.success(), "plain g++ built it");
    // ...and so does salgrade, saying what g++ says.
    let run = salgrade()
        .current_dir(dir.path())
        .args([
            "check",
            "--cases",
            "0",
            "--shrink-ms",
            "0",
            "--format",
            "json",
            "snakes_game.cpp",
        ])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    let text = report.to_string();
    assert!(
        text.contains("build_failed") && text.contains("std::map"),
        "{text}"
    );
}
