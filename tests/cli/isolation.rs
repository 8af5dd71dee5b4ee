//! The hostile fixtures (`fixtures/hostile/`, one attack each) graded in one
//! cohort with two ordinary students, under each real backend: every attack
//! gets its verdict, the ordinary students are graded exactly as alone, and
//! nothing of theirs survives. Where a backend cannot promise a protection
//! the fixture is left out of that backend's cohort, and the test says why.
//! The default backend (salgrade's own namespaces) runs with bubblewrap
//! absent from PATH, once with an interpreter under a 0700 folder (pyenv
//! under /root, where there is one) and once with the system's.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::grade::{copy_dir, student};
use crate::{fixtures, processes_matching, salgrade, stderr_of};

/// The port `fixtures/hostile/network` tries on 127.0.0.1.
const PORT: u16 = 47613;
const SECRET: &str = "SALGRADE_TEST_SECRET";
const ORDINARY: &[&str] = &["correct", "wrong_answer"];

/// Counts connections to 127.0.0.1:PORT for the whole test; `None` if the
/// port is taken (then only the fixture's own verdict is checked).
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

/// One way of running the cohort: a backend (`None`: the default, with
/// nothing on PATH, so no bubblewrap) and an interpreter.
struct Leg {
    label: String,
    sandbox: Option<&'static str>,
    python: Option<PathBuf>,
}

fn grade(dir: &Path, names: &[&str], leg: &Leg) -> Value {
    let subs = dir.join(format!("subs-{}", names.len()));
    for n in names {
        let from = if ORDINARY.contains(n) {
            fixtures().join("submissions")
        } else {
            fixtures().join("hostile")
        };
        copy_dir(&from, &subs, &[n]);
    }
    let mut cmd = salgrade();
    cmd.args([
        "grade",
        "--format",
        "json",
        "--cases",
        "2",
        "--shrink-ms",
        "0",
    ])
    .args(["--import-timeout-ms", "1000"])
    .arg("--out-dir")
    .arg(dir.join(format!("out-{}", names.len())))
    .env(SECRET, "hunter2")
    .arg(&subs);
    match leg.sandbox {
        Some(backend) => {
            cmd.args(["--sandbox", backend]);
        }
        None => {
            // An empty PATH: no bubblewrap, nothing but what salgrade has.
            let empty = dir.join("empty-path");
            std::fs::create_dir_all(&empty).unwrap();
            cmd.env("PATH", &empty);
        }
    }
    if let Some(p) = &leg.python {
        cmd.arg("--python").arg(p);
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every case of `function` has `verdict` with `needle` in its detail; every
/// other case passes.
#[track_caller]
fn only(report: &Value, name: &str, function: &str, verdict: &str, needle: &str) {
    let s = student(report, name);
    for (id, (v, detail)) in crate::case_verdicts(s) {
        if function == "*" || id.starts_with(&format!("{function}/")) {
            assert_eq!(v, verdict, "{name} {id}: {detail}");
            assert!(detail.contains(needle), "{name} {id}: {detail}");
        } else {
            assert_eq!(v, "pass", "{name} {id}: {detail}");
        }
    }
}

#[track_caller]
fn all_pass(report: &Value, name: &str) {
    let s = student(report, name);
    for (id, (v, detail)) in crate::case_verdicts(s) {
        assert_eq!(v, "pass", "{name} {id}: {detail}");
    }
}

/// No process of a student is left: the grandchild's `sleep 31337`, any
/// process of a sandbox uid, and any process in a cgroup of a salgrade run
/// that has ended (a run killed with SIGKILL leaves empty folders behind,
/// which the next run removes).
/// The zombies of sandbox uids already there (left by an earlier run that
/// was SIGKILLed on purpose, until PID 1 reaps them): not this test's.
fn sandbox_zombies() -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let has = |prefix: &str, test: &dyn Fn(&str) -> bool| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(prefix))
                .and_then(|v| v.split_whitespace().next())
                .is_some_and(test)
        };
        if has("State:", &|v| v == "Z")
            && has("Uid:", &|v| {
                v.parse::<u32>()
                    .is_ok_and(|u| (2_000_000_000..2_000_009_600).contains(&u))
            })
        {
            found.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

fn assert_nothing_survives(zombies_before: &[String]) {
    assert_eq!(processes_matching("sleep 31337"), Vec::<String>::new());
    let mut sandbox_uids = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(status) = std::fs::read_to_string(e.path().join("status")) else {
            continue;
        };
        let field = |name: &str| crate::field(&status, name);
        let uid: u32 = field("Uid:").parse().unwrap_or(0);
        // Other tests grade at the same time: a zombie still parented to
        // their (live) salgrade is reaped by it when its session ends. This
        // run's salgrade has exited, so none of its processes can be one.
        let parent_is_salgrade = std::fs::read(format!("/proc/{}/cmdline", field("PPid:")))
            .is_ok_and(|c| String::from_utf8_lossy(&c).contains("salgrade"));
        let pid = e.file_name().to_string_lossy().into_owned();
        let zombie = field("State:") == "Z";
        if zombie && (parent_is_salgrade || zombies_before.contains(&pid)) {
            continue;
        }
        // A live process of a sandbox uid under a running salgrade is
        // another run's student (a test or a benchmark grading meanwhile);
        // one this run left would have been re-parented away from it.
        if (2_000_000_000..2_000_009_600).contains(&uid) && !crate::under_live_salgrade(&pid) {
            sandbox_uids.push(format!("{pid}: uid {uid}"));
        }
    }
    assert_eq!(sandbox_uids, Vec::<String>::new());
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
            for slot in std::fs::read_dir(e.path()).unwrap().flatten() {
                let procs =
                    std::fs::read_to_string(slot.path().join("cgroup.procs")).unwrap_or_default();
                assert!(
                    procs.trim().is_empty(),
                    "{} outlived its salgrade run with processes {procs}",
                    slot.path().display()
                );
            }
        }
    }
}

/// The interpreter that lets salgrade use a uid per slot when it runs as root.
fn reachable_python() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/bin/python3");
    p.exists().then_some(p)
}

/// The real interpreter behind `python3`, if it lies below a folder others
/// may not enter (pyenv under /root).
fn private_python() -> Option<PathBuf> {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let exe = std::fs::canonicalize(String::from_utf8_lossy(&out.stdout).trim()).ok()?;
    use std::os::unix::fs::PermissionsExt;
    let hidden = exe
        .ancestors()
        .skip(1)
        .any(|d| std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 == 0));
    hidden.then_some(exe)
}

fn legs() -> Vec<Leg> {
    let mut legs = Vec::new();
    match private_python() {
        Some(p) => legs.push(Leg {
            label: format!("default, {}", p.display()),
            sandbox: None,
            python: Some(p),
        }),
        None => eprintln!(
            "note: no interpreter below a private folder here; the default backend runs with the system's only"
        ),
    }
    legs.push(Leg {
        label: "default, system python".to_owned(),
        sandbox: None,
        python: reachable_python(),
    });
    legs.push(Leg {
        label: "rlimit".to_owned(),
        sandbox: Some("rlimit"),
        python: reachable_python(),
    });
    legs
}

#[test]
fn hostile_submissions_get_fair_verdicts_and_disturb_nobody() {
    hostile_cohort(legs());
}

/// The same under bubblewrap: marked ignored, with the reason, where it
/// cannot run (the build script probes it), rather than passing unrun.
#[test]
#[cfg_attr(
    salgrade_no_bwrap,
    ignore = "bubblewrap is missing or cannot create namespaces here (.ci/run installs it)"
)]
fn hostile_submissions_get_fair_verdicts_under_bwrap() {
    assert!(
        crate::bwrap_works(),
        "bubblewrap stopped working since the build"
    );
    hostile_cohort(vec![Leg {
        label: "bwrap".to_owned(),
        sandbox: Some("bwrap"),
        python: reachable_python(),
    }]);
}

fn hostile_cohort(legs: Vec<Leg>) {
    let _turn = crate::one_at_a_time();
    let zombies_before = sandbox_zombies();
    let connections = listener();
    let dir = tempfile::tempdir().unwrap();
    let mut ran = Vec::new();
    for (i, leg) in legs.iter().enumerate() {
        let here = dir.path().join(format!("leg-{i}"));
        std::fs::create_dir_all(&here).unwrap();
        // What this backend can promise on this machine, from its own header.
        let probe = grade(&here, ORDINARY, leg);
        let protections = probe["sandbox"].as_str().unwrap().to_owned();
        let backend = leg.label.as_str();
        let cgroup = protections.contains("cgroup");
        let own_uid = protections.contains("unprivileged uid");
        let root = std::fs::read_to_string("/proc/self/status")
            .unwrap()
            .lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
        let mut cohort: Vec<&str> = ORDINARY.to_vec();
        let mut skipped = Vec::new();
        let mut consider = |name: &'static str, why_not: Option<&str>| match why_not {
            None => cohort.push(name),
            Some(why) => skipped.push(format!("{name}: {why}")),
        };
        let namespaces =
            protections.contains("sandbox bwrap") || protections.contains("sandbox namespaces");
        if leg.sandbox.is_none() {
            // The default needs nothing installed, and as root it drops to
            // a uid per slot wherever the interpreter lives.
            assert!(
                protections.contains("sandbox namespaces"),
                "{backend}: {protections}"
            );
            if root {
                assert!(
                    protections.contains("unprivileged uid per slot"),
                    "{protections}"
                );
            }
        }
        let bounded = cgroup || own_uid || !root;
        consider("memory_bomb", None);
        consider("huge_file", None);
        consider("sleeps_at_import", None);
        consider(
            "fork_bomb",
            (!bounded).then_some("as root without a cgroup, nothing caps the process count"),
        );
        consider(
            "immortal_grandchild",
            (!(cgroup || own_uid || namespaces))
                .then_some("without a cgroup, a uid per slot or a PID namespace, a setsid grandchild escapes the group kill"),
        );
        consider(
            "kills_parent",
            (!(namespaces || own_uid)).then_some(
                "rlimit without a uid per slot runs as the grader's uid: it could kill salgrade",
            ),
        );
        consider(
            "env_secrets",
            (!(namespaces || own_uid))
                .then_some("rlimit without a uid per slot can read the grader's /proc/PID/environ"),
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

        let report = grade(&here, &cohort, leg);
        let has = |n: &str| cohort.contains(&n);
        if has("fork_bomb") {
            only(
                &report,
                "fork_bomb",
                "willfinish",
                "exception",
                "BlockingIOError",
            );
        }
        only(
            &report,
            "memory_bomb",
            "dualboard",
            "memory_limit",
            "MemoryError",
        );
        only(
            &report,
            "huge_file",
            "whowins",
            "exception",
            "File too large",
        );
        only(
            &report,
            "sleeps_at_import",
            "*",
            "import_failed",
            "took longer than 1000 ms",
        );
        for harmless in [
            "immortal_grandchild",
            "kills_parent",
            "env_secrets",
            "reads_others",
            "network",
        ] {
            if has(harmless) {
                all_pass(&report, harmless);
            }
        }
        // The ordinary students: exactly as when graded alone.
        for name in ORDINARY {
            assert_eq!(
                crate::case_verdicts(student(&report, name)),
                crate::case_verdicts(student(&probe, name)),
                "{backend}: {name} was graded differently beside the hostile fixtures"
            );
            assert_eq!(
                student(&report, name)["score"],
                student(&probe, name)["score"]
            );
        }
        assert_nothing_survives(&zombies_before);
        ran.push(backend.to_owned());
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
fn an_interrupted_run_leaves_no_student_process() {
    let _turn = crate::one_at_a_time();
    for sandbox in ["namespaces", "rlimit"] {
        interrupt_a_run(sandbox);
    }
}

fn interrupt_a_run(sandbox: &str) {
    let zombies_before = sandbox_zombies();
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    copy_dir(&fixtures().join("hostile"), &subs, &["immortal_grandchild"]);
    copy_dir(
        &fixtures().join("submissions"),
        &subs,
        &["loop_willfinish", "forks_sleeper"],
    );
    let bin = assert_cmd::cargo::cargo_bin("salgrade");
    let child = std::process::Command::new(bin)
        .args(["grade", "--sandbox", sandbox, "--jobs", "2", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(&subs)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(130) {
        assert!(err.contains("interrupted"), "{err}");
    } else {
        // The run was quick enough to finish first; nothing to interrupt.
        assert_eq!(out.status.code(), Some(1), "{err}");
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_nothing_survives(&zombies_before);
}
