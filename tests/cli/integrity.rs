//! The third round of attacks (issue 33): only solving earns points. Each
//! attack in `fixtures/integrity/` is graded beside an honest student under
//! the default set-up, and must earn nothing that solving would not: the
//! key store, a restart that is not a fresh process, checks that trust the
//! student's interpreter, doors to its memory, case ids and an order that
//! give answers away, a request readable before its clock, restart
//! amplification, salgrade's own memory, and hidden cases shown in the
//! feedback.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::grade::{copy_dir, student};
use crate::{fixtures, salgrade, stderr_of};

fn python() -> std::path::PathBuf {
    fixtures().join("integrity/python")
}

/// Grades `names` of `fixtures/integrity/python` with `args`: the report.
fn graded(dir: &Path, names: &[&str], args: &[&str]) -> Value {
    let subs = dir.join("subs");
    copy_dir(&python(), &subs, names);
    let out = salgrade()
        .args(["grade", "--format", "json", "--shrink-ms", "0", "-j", "2"])
        .arg("--out-dir")
        .arg(dir.join("out"))
        .args(args)
        .arg(&subs)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        out.status.code(),
        stderr_of(&out)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// (passed, total) of one function of one student.
#[track_caller]
fn passed(report: &Value, name: &str, function: &str) -> (u64, u64) {
    let f = &student(report, name)["functions"][function];
    (f["passed"].as_u64().unwrap(), f["total"].as_u64().unwrap())
}

#[track_caller]
fn earns_nothing(report: &Value, name: &str, function: &str) {
    let (passed, total) = passed(report, name, function);
    assert_eq!(passed, 0, "{name}: {function} passed {passed} of {total}");
}

/// Whether student code ran with salgrade's own root (or bubblewrap's):
/// only there are `ctypes` and `/proc/self/mem` closed.
fn own_root(report: &Value) -> bool {
    let sandbox = report["sandbox"].as_str().unwrap_or_default();
    sandbox.starts_with("sandbox namespaces") || sandbox.starts_with("sandbox bwrap")
}

#[test]
fn third_round_attacks_earn_nothing_beside_an_honest_student() {
    let dir = tempfile::tempdir().unwrap();
    let report = graded(
        dir.path(),
        &[
            "honest",
            "signals_its_parent",
            "patches_builtins_all",
            "replaces_the_checks_tools",
            "replaces_json_dumps",
            "lies_with_an_always_equal_board",
            "traces_the_driver",
            "needs_ctypes",
            "needs_proc_self_mem",
            "guesses_a_constant",
            "reads_the_case_id",
            "counts_its_calls",
            "peeks_at_the_next_request",
        ],
        &["--cases", "10"],
    );
    let honest = student(&report, "honest");
    assert_eq!(honest["score"], honest["max_score"], "{honest}");

    // A restart is a new process: a mark left in the zygote is gone.
    assert_eq!(student(&report, "signals_its_parent")["score"], 0.0);

    // Checks that trusted the student's interpreter.
    earns_nothing(&report, "patches_builtins_all", "willfinish");
    // The same, with the tamper check's own tools replaced first.
    earns_nothing(&report, "replaces_the_checks_tools", "willfinish");
    assert_eq!(student(&report, "replaces_the_checks_tools")["score"], 0.0);
    earns_nothing(&report, "replaces_json_dumps", "dualboard");
    earns_nothing(&report, "lies_with_an_always_equal_board", "salb2salbLL");
    for (_, (v, _)) in crate::case_verdicts(student(&report, "lies_with_an_always_equal_board"))
        .into_iter()
        .filter(|(id, _)| id.starts_with("salb2salbLL/"))
    {
        assert_eq!(v, "changed_input");
    }
    earns_nothing(&report, "traces_the_driver", "willfinish");
    if own_root(&report) {
        assert_eq!(student(&report, "needs_ctypes")["score"], 0.0);
        assert_eq!(student(&report, "needs_proc_self_mem")["score"], 0.0);
    } else {
        eprintln!("note: no sandbox root here, so ctypes and /proc/self/mem stay open");
    }

    // Ids and order: no better than guessing.
    for f in ["willfinish", "whowins"] {
        assert_eq!(
            passed(&report, "reads_the_case_id", f),
            passed(&report, "guesses_a_constant", f),
            "{f}"
        );
    }
    let (guessed, total) = passed(&report, "guesses_a_constant", "willfinish");
    let best_guess = guessed.max(total - guessed);
    let (counted, _) = passed(&report, "counts_its_calls", "willfinish");
    assert!(
        counted <= best_guess,
        "counting calls passed {counted}, the best constant {best_guess} of {total}"
    );

    // No request is there before its clock starts.
    let peeks = student(&report, "peeks_at_the_next_request");
    let printed = peeks["stdout"].as_str().unwrap();
    assert!(printed.contains("peeked: False"), "{printed}");
    assert!(!printed.contains("peeked: True"), "{printed}");
}

#[test]
fn salgrades_own_imports_never_take_a_students_file_for_the_standard_librarys() {
    // A min-throws student's other files are given to their code. Two are
    // named like standard modules salgrade's own code imports (the tamper
    // check's `operator`, the rule checker's `ast`) and say on stderr when
    // imported; the graded file imports neither. Before, the driver
    // imported `operator` after putting the student's folder first, and
    // compared with their `is_not`.
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(
        &fixtures().join("integrity/min-throws"),
        &subs,
        &["shadows_the_standard_library"],
    );
    let out = salgrade()
        .args(["grade", "--assignment", "min-throws", "--cases", "5"])
        .args(["--format", "json", "--shrink-ms", "0"])
        .arg(&subs)
        .output()
        .unwrap();
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr_of(&out)));
    let shadows = student(&report, "shadows_the_standard_library");
    assert_eq!(shadows["score"], shadows["max_score"], "{shadows}");
    let stderr = shadows["stderr"].as_str().unwrap_or_default();
    assert!(!stderr.contains("was imported"), "{stderr}");
    // And in a48 (whose one-file rule gives no other file to the code),
    // the same `operator.py` does not blind the check either.
    let a48 = tempfile::tempdir().unwrap();
    let report = graded(
        a48.path(),
        &["shadows_the_standard_library", "honest"],
        &["--cases", "5"],
    );
    earns_nothing(&report, "shadows_the_standard_library", "willfinish");
}

#[test]
fn keys_are_refused_so_no_answer_passes_between_students() {
    if !crate::cxx::have_cxx() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cpp = fixtures().join("integrity/cpp");
    // The writer first, in a run of its own; then the reader, in a later run.
    let mut reports = Vec::new();
    for name in [
        "stores_answers_in_the_keyring",
        "reads_answers_from_the_keyring",
        "honest",
    ] {
        let subs = dir.path().join(name);
        copy_dir(&cpp, &subs, &[name]);
        let out = salgrade()
            .args(["grade", "--assignment", "min-throws", "--format", "json"])
            .args(["--cases", "3", "--shrink-ms", "0", "--out-dir"])
            .arg(dir.path().join(format!("out-{name}")))
            .arg(&subs)
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            stderr_of(&out)
        );
        reports.push(serde_json::from_slice::<Value>(&out.stdout).unwrap());
    }
    let writer = student(&reports[0], "stores_answers_in_the_keyring");
    assert_eq!(writer["score"], writer["max_score"]);
    let said = writer["stdout"].as_str().unwrap();
    assert!(said.contains("add_key refused"), "{said}");
    assert!(!said.contains("stored"), "{said}");
    assert_eq!(
        student(&reports[1], "reads_answers_from_the_keyring")["score"],
        0.0
    );
    let honest = student(&reports[2], "honest");
    assert_eq!(honest["score"], honest["max_score"]);
    // Nothing of theirs is left in the kernel's key store.
    let keys = std::fs::read_to_string("/proc/keys").unwrap_or_default();
    assert!(!keys.contains(" sg-"), "{keys}");
}

#[test]
fn restart_amplification_is_bounded_by_the_student_budget() {
    // A 1 s import, and an exit on every second call: nearly every case a
    // new process. The budget ends it; what it answered, it answered
    // rightly.
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let report = graded(
        dir.path(),
        &["answers_once_then_dies", "honest"],
        &["--cases", "2", "--student-wall-s", "8"],
    );
    let took = started.elapsed();
    let verdicts = crate::case_verdicts(student(&report, "answers_once_then_dies"));
    let over = verdicts
        .values()
        .filter(|(v, _)| v == "over_budget")
        .count();
    assert!(
        over > 50,
        "{over} cases over the budget of {}",
        verdicts.len()
    );
    for (v, detail) in verdicts.values() {
        assert!(
            ["pass", "process_died", "over_budget"].contains(&v.as_str()),
            "{v}: {detail}"
        );
    }
    // The budget bounds it (8 s and the last case's own deadline, beside
    // the run's own start), where the ~160 restarts took about three
    // minutes without one.
    assert!(took.as_secs() < 90, "the run took {took:?}");
    let honest = student(&report, "honest");
    assert_eq!(honest["score"], honest["max_score"]);
}

/// The exit code of `command` and its peak resident memory in KiB, as
/// the kernel counts it for a child of a small Python process. (A child
/// of this test process would count this process's memory too: a forked
/// child's high-water mark survives its exec, and the test binary holds
/// hundreds of MiB while the other tests run.)
fn peak_kib(command: Command) -> (i32, i64) {
    const MEASURE: &str = "import resource, subprocess, sys\n\
        r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n\
        print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let out = Command::new("python3")
        .args(["-c", MEASURE])
        .arg(command.get_program())
        .args(command.get_args())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut words = text
        .split_whitespace()
        .map(|w| w.parse::<i64>().unwrap_or(-1));
    let code = words.next().unwrap_or(-1);
    let kib = words.next().unwrap_or(-1);
    assert!(kib > 0, "{text}{}", String::from_utf8_lossy(&out.stderr));
    (code as i32, kib)
}

#[test]
fn protocol_lines_beyond_an_answer_are_never_held() {
    // Every call of whowins writes 2 MiB result lines on the driver's
    // channel: salgrade reads no line longer than an answer can be, so its
    // own memory stays near what grading two students needs.
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&python(), &subs, &["writes_huge_protocol_lines", "honest"]);
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("salgrade"));
    command
        .args(["grade", "--cases", "3", "--shrink-ms", "0", "-j", "2"])
        .args(["--student-wall-s", "30", "--format", "json", "-o"])
        .arg(dir.path().join("report.json"))
        .arg("--out-dir")
        .arg(dir.path().join("out"))
        .arg(&subs);
    let (status, kib) = peak_kib(command);
    assert!((0..=1).contains(&status), "status {status}");
    assert!(kib < 200 * 1024, "salgrade held {} MiB", kib / 1024);
    let report: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("report.json")).unwrap()).unwrap();
    let verdicts = crate::case_verdicts(student(&report, "writes_huge_protocol_lines"));
    // Every one, the first call of each new process too (its line was
    // once read under the cap of the handshake, 16 MiB, and taken as the
    // answer).
    let whowins: Vec<_> = verdicts
        .iter()
        .filter(|(id, _)| id.starts_with("whowins/"))
        .collect();
    assert!(!whowins.is_empty());
    assert!(
        whowins
            .iter()
            .all(|(_, (v, d))| v == "process_died" && d.contains("oversized protocol line")),
        "{whowins:?}"
    );
}

/// The feedback file of `name` from a run with `args`.
fn feedback_of(dir: &Path, name: &str, args: &[&str]) -> String {
    let subs = dir.join("subs");
    copy_dir(&python(), &subs, &[name, "honest"]);
    let feedback = dir.join("feedback");
    let out = salgrade()
        .args([
            "grade",
            "--cases",
            "10",
            "--shrink-ms",
            "2000",
            "--feedback",
        ])
        .arg(&feedback)
        .arg("--out-dir")
        .arg(dir.join("out"))
        .args(args)
        .arg(&subs)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        stderr_of(&out)
    );
    std::fs::read_to_string(feedback.join(format!("{name}.md"))).unwrap()
}

#[test]
fn hidden_cases_stay_hidden_from_students_on_a_secret_seed() {
    let dir = tempfile::tempdir().unwrap();
    let seed = dir.path().join("seed");
    std::fs::write(&seed, "4242\n").unwrap();
    let seed = seed.to_str().unwrap();
    let name = "shows_itself_the_hidden_cases";
    let leak = regex_lite_leak();
    // The default for a secret seed: which function failed and why.
    let hidden = feedback_of(&dir.path().join("hide"), name, &["--seed-file", seed]);
    assert!(hidden.contains("## `willfinish`: wrong answer"), "{hidden}");
    assert!(hidden.contains("hidden cases"), "{hidden}");
    assert!(!leak(&hidden), "{hidden}");
    assert!(!hidden.contains("- input:"), "{hidden}");
    // The instructor may choose to show them.
    let shown = feedback_of(
        &dir.path().join("show"),
        name,
        &["--seed-file", seed, "--hidden-cases", "show"],
    );
    assert!(shown.contains("- input:"), "{shown}");
    assert!(leak(&shown), "{shown}");
    // On the public seed every case is public.
    let public = feedback_of(&dir.path().join("public"), name, &[]);
    assert!(!public.contains("hidden cases"), "{public}");

    // `check`, which students run (in CI too), follows the same rule in
    // every format it prints.
    for format in [None, Some("json"), Some("gradescope")] {
        let mut command = salgrade();
        command
            .args([
                "check",
                "--cases",
                "10",
                "--shrink-ms",
                "0",
                "--seed-file",
                seed,
            ])
            .arg(python().join(name).join("salbLLfunctions.py"));
        if let Some(f) = format {
            command.args(["--format", f]);
        }
        let out = command.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!leak(&text), "{format:?}: {text}");
    }
}

/// Whether `text` holds a board the fixture printed (`leaked squares N`).
fn regex_lite_leak() -> impl Fn(&str) -> bool {
    |text: &str| {
        text.match_indices("leaked squares ")
            .any(|(i, m)| text[i + m.len()..].starts_with(|c: char| c.is_ascii_digit()))
    }
}
