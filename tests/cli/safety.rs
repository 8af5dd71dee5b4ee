//! Nothing lost, nothing leaked (issue 11): one test per defect class.
//! Runs use the edge cases only (`--cases 0`) and no shrinking, to be quick.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{fixtures, salgrade, stderr_of, stdout_of, submission};

fn model() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("reference/python/a48/salbLLfunctions.py")
}

fn sample(name: &str) -> PathBuf {
    submission(name).join("salbLLfunctions.py")
}

#[track_caller]
fn put(to: &Path, from: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

/// `salgrade grade` on `subs`, quick, writing into `out`.
fn grade(subs: &Path, out: &Path) -> assert_cmd::Command {
    let mut c = salgrade();
    c.args(["grade", "--cases", "0", "--shrink-ms", "0", "--out-dir"])
        .arg(out)
        .arg(subs);
    c
}

#[track_caller]
fn report_in(out: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap()
}

fn students(report: &Value) -> Vec<&Value> {
    report["students"].as_array().unwrap().iter().collect()
}

#[test]
fn submissions_that_map_to_one_student_keep_their_own_rows() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    put(&subs.join("alice/salbLLfunctions.py"), &model());
    put(&subs.join("alice.py"), &sample("wrong_type"));
    put(&subs.join("Bob.py"), &model());
    put(&subs.join("bob.py"), &sample("open_list"));
    put(&subs.join("a b.py"), &model());
    put(&subs.join("a_b.py"), &sample("wrong_type"));
    let (out, feedback) = (t.path().join("out"), t.path().join("feedback"));
    let run = grade(&subs, &out)
        .arg("--feedback")
        .arg(&feedback)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report = report_in(&out);
    let rows = students(&report);
    assert_eq!(rows.len(), 6, "{report:#}");
    let mut ids: Vec<String> = rows
        .iter()
        .map(|s| s["student"].as_str().unwrap().to_lowercase())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(
        ids.len(),
        6,
        "identifiers are unique, ignoring case: {ids:?}"
    );
    // Each file's own score survives: three full marks, three not.
    let full = rows.iter().filter(|s| s["score"] == s["max_score"]).count();
    assert_eq!(full, 3, "{report:#}");
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("`alice.py`")),
        "{warnings:?}"
    );
    assert!(stdout_of(&run).contains("Warnings:"), "{}", stdout_of(&run));
    assert!(stderr_of(&run).contains("map to the same student"));
    // One feedback file per row, distinct even on a case-insensitive disk.
    let mut files: Vec<String> = std::fs::read_dir(&feedback)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_lowercase())
        .filter(|name| name.ends_with(".md"))
        .collect();
    files.sort();
    files.dedup();
    assert_eq!(files.len(), 6, "{files:?}");
    // The same folder gives the same identifiers on a second run.
    let again = grade(&subs, &t.path().join("again")).output().unwrap();
    assert_eq!(stdout_of(&again), stdout_of(&run));
}

#[test]
fn a_failed_run_leaves_previous_outputs_intact() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    put(&subs.join("ann.py"), &model());
    let (out, feedback) = (t.path().join("out"), t.path().join("feedback"));
    let grades = t.path().join("grades.csv");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&feedback).unwrap();
    let previous = [
        (grades.clone(), "last week's grades\n"),
        (out.join("report.json"), "last week's report\n"),
        (feedback.join("ann.md"), "last week's feedback\n"),
    ];
    for (p, text) in &previous {
        std::fs::write(p, text).unwrap();
    }
    let fails = |extra: &[&str]| {
        let run = grade(&subs, &out)
            .args(["--format", "csv", "-o"])
            .arg(&grades)
            .arg("--feedback")
            .arg(&feedback)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{}", stderr_of(&run));
        for (p, text) in &previous {
            assert_eq!(
                &std::fs::read_to_string(p).unwrap(),
                text,
                "{}",
                p.display()
            );
        }
        stderr_of(&run)
    };
    // A missing interpreter, and a case file that does not exist, fail after
    // the outputs were opened.
    fails(&["--python", "/no/such/python3"]);
    fails(&["--cases-file", "/no/such/cases.json"]);
    let leftovers: Vec<_> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // An unwritable place fails before any grading.
    let run = grade(&subs, &out)
        .arg("-o")
        .arg(t.path().join("no/such/folder/grades.csv"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(
        !stderr_of(&run).contains("grading 1"),
        "{}",
        stderr_of(&run)
    );

    // A run that succeeds replaces all three.
    let ok = grade(&subs, &out)
        .args(["--format", "csv", "-o"])
        .arg(&grades)
        .arg("--feedback")
        .arg(&feedback)
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0), "{}", stderr_of(&ok));
    assert!(
        std::fs::read_to_string(&grades)
            .unwrap()
            .starts_with("student,")
    );
    assert!(
        std::fs::read_to_string(feedback.join("ann.md"))
            .unwrap()
            .starts_with("# ann")
    );
    report_in(&out);

    // `gen -o` too: a refused run does not touch the file.
    let cases = t.path().join("cases.json");
    std::fs::write(&cases, "mine\n").unwrap();
    let run = salgrade()
        .args(["gen", "-o"])
        .arg(&cases)
        .arg(t.path().join("no/such/folder/x"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&cases).unwrap(), "mine\n");
}

#[test]
fn resume_regrades_a_submission_that_changed() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    put(&subs.join("ann.py"), &model());
    put(&subs.join("bob.py"), &model());
    let out = t.path().join("out");
    let fresh = grade(&subs, &out).arg("--resume").output().unwrap();
    assert!(
        stderr_of(&fresh).contains("no journal") && stderr_of(&fresh).contains("starts fresh"),
        "{}",
        stderr_of(&fresh)
    );
    assert_eq!(fresh.status.code(), Some(0));

    put(&subs.join("bob.py"), &sample("wrong_type"));
    let resumed = grade(&subs, &out).arg("--resume").output().unwrap();
    let err = stderr_of(&resumed);
    assert!(err.contains("1 student(s) already graded"), "{err}");
    assert!(
        err.contains("again because their submission changed") && err.contains("bob"),
        "{err}"
    );
    assert_eq!(resumed.status.code(), Some(1), "bob's new file fails");
    let report = report_in(&out);
    let bob = students(&report)
        .into_iter()
        .find(|s| s["student"] == "bob")
        .unwrap();
    assert_ne!(bob["score"], bob["max_score"], "{bob:#}");
}

/// FNV-1a over parts, as salgrade's journal checksums them.
fn fnv(parts: &[&[u8]]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[test]
fn resume_checks_every_journal_record_and_says_what_it_dropped() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    put(&subs.join("ann.py"), &sample("wrong_type"));
    put(&subs.join("bob.py"), &sample("wrong_type"));
    put(&subs.join("cat.py"), &sample("wrong_type"));
    let out = t.path().join("out");
    let first = grade(&subs, &out)
        .args(["--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(first.status.code(), Some(1), "{}", stderr_of(&first));
    let journal = out.join("journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let fp = header["fingerprint"].as_str().unwrap().to_owned();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let (mut ann, mut bob) = (None, None);
    for (i, l) in lines.iter().enumerate().skip(1) {
        if l.contains("\"student\":\"ann\"") {
            ann = Some(i);
        } else if l.contains("\"student\":\"bob\"") {
            bob = Some(i);
        }
    }
    let edit = |line: &str| {
        let (_, json) = line.split_once(' ').unwrap();
        let mut v: Value = serde_json::from_str(json).unwrap();
        v["score"] = serde_json::json!(1e9);
        serde_json::to_string(&v).unwrap()
    };
    // ann: score edited, checksum left: the checksum catches it.
    let (a, b) = (ann.unwrap(), bob.unwrap());
    let (sum, _) = lines[a].split_once(' ').unwrap();
    lines[a] = format!("{sum} {}", edit(&lines[a]));
    // bob: score edited and the checksum recomputed: the cases catch it.
    let json = edit(&lines[b]);
    lines[b] = format!(
        "{} {json}",
        fnv(&[b"entry", fp.as_bytes(), json.as_bytes()])
    );
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();

    let resumed = grade(&subs, &out)
        .args(["--resume", "--format", "csv"])
        .output()
        .unwrap();
    let err = stderr_of(&resumed);
    assert!(
        err.contains("checksum does not match its content (student `ann`)"),
        "{err}"
    );
    assert!(
        err.contains("journal entry of `bob`: it does not add up: score 1000000000"),
        "{err}"
    );
    assert!(err.contains("1 student(s) already graded"), "{err}");
    assert!(
        !stdout_of(&resumed).contains("1000000000"),
        "{}",
        stdout_of(&resumed)
    );
    assert_eq!(stdout_of(&resumed), stdout_of(&first));

    // Random bytes where the journal was: refused and left as they are,
    // with `--resume` or without.
    let junk = [0x9fu8, 0x00, 0xff, b'\n', 0x12, 0x34];
    std::fs::write(&journal, junk).unwrap();
    for resume in [true, false] {
        let mut run = grade(&subs, &out);
        if resume {
            run.arg("--resume");
        }
        let run = run.output().unwrap();
        assert_eq!(run.status.code(), Some(2), "{}", stderr_of(&run));
        assert!(
            stderr_of(&run).contains("is not a salgrade journal"),
            "{}",
            stderr_of(&run)
        );
        assert_eq!(std::fs::read(&journal).unwrap(), junk);
    }
}

#[test]
fn symlinks_are_never_followed_in_any_layout() {
    let t = tempfile::tempdir().unwrap();
    let secret = t.path().join("outside");
    std::fs::create_dir_all(&secret).unwrap();
    // Valid Python holding a marker: if it were read, the marker would show.
    let marker = "SECRET_MARKER_4711";
    std::fs::write(
        secret.join("salbLLfunctions.py"),
        format!("print('{marker}')\nraise SystemExit('{marker}')\n"),
    )
    .unwrap();
    let subs = t.path().join("subs");
    std::fs::create_dir_all(&subs).unwrap();
    use std::os::unix::fs::symlink;
    // Flat layout: `NAME.py` a link (to a file outside, and to /etc/passwd).
    symlink(secret.join("salbLLfunctions.py"), subs.join("mallory.py")).unwrap();
    symlink("/etc/passwd", subs.join("eve.py")).unwrap();
    // Folder layout: the student folder is a link.
    symlink(&secret, subs.join("trudy")).unwrap();
    // Folder layout: the file in a real folder is a link.
    std::fs::create_dir_all(subs.join("oscar/a1")).unwrap();
    symlink(
        secret.join("salbLLfunctions.py"),
        subs.join("oscar/a1/salbLLfunctions.py"),
    )
    .unwrap();
    // Repository layout: a folder inside the repository is a link.
    std::fs::create_dir_all(subs.join("peggy")).unwrap();
    symlink(&secret, subs.join("peggy/src")).unwrap();
    put(&subs.join("ann.py"), &model());
    let (out, feedback) = (t.path().join("out"), t.path().join("feedback"));
    let run = grade(&subs, &out)
        .arg("--feedback")
        .arg(&feedback)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
    let report = report_in(&out);
    let text = serde_json::to_string(&report).unwrap();
    assert!(
        !text.contains(marker) && !text.contains("root:x:0"),
        "{text}"
    );
    for name in ["eve", "mallory", "oscar", "peggy", "trudy"] {
        let s = students(&report)
            .into_iter()
            .find(|s| s["student"] == name)
            .unwrap_or_else(|| panic!("{name} is listed"));
        assert_eq!(s["score"], 0.0, "{s:#}");
        let why = s["warnings"].to_string();
        assert!(why.contains("symbolic link"), "{name}: {why}");
        let fb = std::fs::read_to_string(feedback.join(format!("{name}.md"))).unwrap();
        assert!(!fb.contains(marker) && !fb.contains("root:x:0"), "{fb}");
    }
    let ann = students(&report)
        .into_iter()
        .find(|s| s["student"] == "ann")
        .unwrap();
    assert_eq!(ann["score"], ann["max_score"]);
}

#[test]
fn a_secret_seed_stays_out_of_student_facing_output() {
    let t = tempfile::tempdir().unwrap();
    let subs = t.path().join("subs");
    put(&subs.join("ann.py"), &sample("wrong_answer"));
    let secret = "982451653";
    let run_with = |extra: &[&str]| {
        let (out, feedback) = (t.path().join("out"), t.path().join("feedback"));
        let _ = std::fs::remove_dir_all(&feedback);
        let run = salgrade()
            .args([
                "grade",
                "--cases",
                "1",
                "--shrink-ms",
                "0",
                "--seed",
                secret,
            ])
            .args(extra)
            .arg("--out-dir")
            .arg(&out)
            .arg("--feedback")
            .arg(&feedback)
            .arg(&subs)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{}", stderr_of(&run));
        let fb = std::fs::read_to_string(feedback.join("ann.md")).unwrap();
        (fb, report_in(&out))
    };
    let (fb, report) = run_with(&[]);
    assert!(!fb.contains(secret), "{fb}");
    assert!(fb.contains("instructor's seed"), "{fb}");
    assert_eq!(
        report["seed"].to_string(),
        secret,
        "the instructor's report keeps it"
    );
    let (fb, _) = run_with(&["--public-seed"]);
    assert!(fb.contains(secret), "{fb}");

    let check = salgrade()
        .args([
            "check",
            "--cases",
            "1",
            "--shrink-ms",
            "0",
            "--seed",
            secret,
        ])
        .arg(sample("wrong_answer"))
        .output()
        .unwrap();
    assert!(!stdout_of(&check).contains(secret), "{}", stdout_of(&check));
    // The public seed is no secret.
    let public = salgrade()
        .args(["check", "--cases", "0", "--shrink-ms", "0"])
        .arg(sample("wrong_answer"))
        .output()
        .unwrap();
    assert!(
        stdout_of(&public).contains("seed 1,"),
        "{}",
        stdout_of(&public)
    );
}

/// A case file with willfinish cases only, from the handout's boards.
fn willfinish_only(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(fixtures().join("boards/handout.json")).unwrap();
    let mut file: Value = serde_json::from_str(&text).unwrap();
    file["cases"]
        .as_array_mut()
        .unwrap()
        .retain(|c| c["function"] == "willfinish");
    assert!(!file["cases"].as_array().unwrap().is_empty());
    let path = dir.join("willfinish.json");
    std::fs::write(&path, serde_json::to_vec(&file).unwrap()).unwrap();
    path
}

#[test]
fn a_partial_case_file_counts_only_what_it_asks() {
    let t = tempfile::tempdir().unwrap();
    let cases = willfinish_only(t.path());
    let check = |file: &Path| {
        salgrade()
            .args(["check", "--shrink-ms", "0", "--cases-file"])
            .arg(&cases)
            .arg(file)
            .output()
            .unwrap()
    };
    let ok = check(&model());
    let text = stdout_of(&ok);
    assert_eq!(ok.status.code(), Some(0), "{text}");
    assert!(text.contains("All cases pass."), "{text}");
    assert!(
        text.contains("not tested: `salb2salbLL`, `whowins`, `dualboard`"),
        "{text}"
    );
    assert!(!text.contains("0/0"), "{text}");
    assert!(
        text.contains("/ 25"),
        "out of willfinish's points only: {text}"
    );
    let bad = check(&sample("wrong_type"));
    assert_eq!(bad.status.code(), Some(1), "{}", stdout_of(&bad));

    let subs = t.path().join("subs");
    put(&subs.join("ann.py"), &model());
    put(&subs.join("bob.py"), &sample("wrong_type"));
    let out = t.path().join("out");
    let grade = salgrade()
        .args(["grade", "--shrink-ms", "0", "--cases-file"])
        .arg(&cases)
        .arg("--out-dir")
        .arg(&out)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(grade.status.code(), Some(1), "bob fails willfinish");
    let table = stdout_of(&grade);
    assert!(
        table.contains("not tested: `salb2salbLL`, `whowins`, `dualboard`"),
        "{table}"
    );
    assert!(
        !table.contains("dualboard  "),
        "no column for an untested function: {table}"
    );
    let report = report_in(&out);
    let ann = students(&report)
        .into_iter()
        .find(|s| s["student"] == "ann")
        .unwrap();
    assert_eq!(ann["max_score"], 25.0, "{ann:#}");
    assert_eq!(ann["score"], 25.0, "{ann:#}");
    assert_eq!(report["functions"], serde_json::json!(["willfinish"]));
    // Everyone passing what was asked exits 0.
    std::fs::remove_file(subs.join("bob.py")).unwrap();
    let grade = salgrade()
        .args(["grade", "--shrink-ms", "0", "--cases-file"])
        .arg(&cases)
        .arg("--out-dir")
        .arg(&out)
        .arg(&subs)
        .output()
        .unwrap();
    assert_eq!(grade.status.code(), Some(0), "{}", stderr_of(&grade));
}

#[test]
fn oversized_boards_are_refused_up_front() {
    let t = tempfile::tempdir().unwrap();
    let big = |squares: u64| {
        let path = t.path().join(format!("big{squares}.json"));
        let file = serde_json::json!({
            "assignment": "a48",
            "cases": [{"id": "willfinish/huge", "function": "willfinish", "label": "huge",
                       "input": {"board": {"squares": squares, "snadders": []}, "args": [1]},
                       "expected": {"one_of": [true]}}]
        });
        std::fs::write(&path, file.to_string()).unwrap();
        path
    };
    for (squares, memory, says) in [
        (10_000_000u64, "1024", "raise `--memory-mb`"),
        (1_000_000_000, "1000000", "more than the 10000000 supported"),
    ] {
        let start = std::time::Instant::now();
        let run = salgrade()
            .args(["check", "--memory-mb", memory, "--cases-file"])
            .arg(big(squares))
            .arg(model())
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2));
        let err = stderr_of(&run);
        let line = err.lines().last().unwrap();
        assert!(
            line.contains("`willfinish/huge`") && line.contains(says) && line.contains("big"),
            "{err}"
        );
        // Refused before any Python runs (the model would take seconds).
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }
    // A limit too small for the model solution is named, even when a
    // calibration of the same cases under the default limit is kept.
    let kept = salgrade()
        .args(["check", "--cases", "0"])
        .arg(model())
        .output()
        .unwrap();
    assert_eq!(kept.status.code(), Some(0), "{}", stderr_of(&kept));
    let run = salgrade()
        .args(["check", "--cases", "0", "--import-timeout-ms", "1"])
        .arg(model())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = stderr_of(&run);
    assert!(err.contains("raise `--import-timeout-ms`"), "{err}");
    assert!(!err.contains("salgrade bug"), "{err}");
}

#[test]
fn nonsensical_flag_values_are_refused_in_one_line() {
    for args in [
        &["check", "--timeout-floor-ms", "0"][..],
        &["check", "--memory-mb", "0"],
        &["check", "--import-timeout-ms", "0"],
        &["check", "--cpu-seconds", "0"],
        &["check", "--file-size-mb", "0"],
        &["check", "--cases", "1000000"],
        &["gen", "--cases", "1000000"],
        &["grade", "--jobs", "0"],
    ] {
        let mut cmd = salgrade();
        cmd.args(args);
        if args[0] != "gen" {
            cmd.arg("x.py");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr_of(&out);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("error: invalid value") && first.contains(args[1]),
            "{args:?}: {err}"
        );
    }
}
