//! Speed without shortcuts (issue 39): what salgrade does to be fast (the
//! calibration kept between runs, a failing student's next process started
//! ahead, its own Python files compiled once) never changes a verdict, and a kept calibration never gives a
//! case less time than the fresh one it was kept from.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::{fixtures, salgrade, stderr_of};

/// Every case's verdict kind of every student in `folder` (and each
/// student's score), graded on `assignment`'s default edge cases and 2
/// random cases per function with `extra` flags, the calibration kept in
/// `cache`.
fn verdicts(
    folder: &Path,
    assignment: &str,
    cache: &Path,
    extra: &[&str],
) -> BTreeMap<(String, String), String> {
    let out = salgrade()
        .env("XDG_CACHE_HOME", cache)
        .args(["grade", "--assignment", assignment])
        .args(["--cases", "2", "--shrink-ms", "0", "--format", "json"])
        // The same in every run: `sleeps_at_import` waits for it, four
        // times per folder.
        .args(["--import-timeout-ms", "1000"])
        .args(extra)
        .arg(folder)
        .output()
        .unwrap();
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr_of(&out)));
    let mut all = BTreeMap::new();
    for student in report["students"].as_array().unwrap() {
        let name = student["student"].as_str().unwrap().to_owned();
        for (case, (verdict, _)) in crate::case_verdicts(student) {
            all.insert((name.clone(), case), verdict);
        }
        all.insert((name, "(score)".to_owned()), student["score"].to_string());
    }
    all
}

#[test]
fn no_optimisation_changes_a_verdict() {
    // The sample cohort (every failure class), the hostile ones and the
    // mutant library, graded with every optimisation off (a fresh
    // calibration, which is kept; no process started ahead; salgrade's
    // Python files as sources only), then with the kept calibration and
    // each of the others off in turn, then with all of them (the defaults).
    let cache = tempfile::tempdir().unwrap();
    let folders = [
        // The first "on" run calibrates and keeps it; the later ones use
        // what was kept.
        (fixtures().join("mutants/a48"), "a48"),
        (fixtures().join("hostile"), "a48"),
        (fixtures().join("submissions"), "a48"),
    ];
    for (folder, assignment) in &folders {
        let off = verdicts(
            folder,
            assignment,
            cache.path(),
            &[
                "--calibration",
                "fresh",
                "--spare",
                "off",
                "--python-bytecode",
                "off",
            ],
        );
        assert!(
            off.len() > 100,
            "{}: {} verdicts",
            folder.display(),
            off.len()
        );
        for extra in [&["--spare", "off"][..], &["--python-bytecode", "off"], &[]] {
            let on = verdicts(folder, assignment, cache.path(), extra);
            let differ: Vec<String> = off
                .iter()
                .filter(|(k, v)| on.get(*k) != Some(*v))
                .map(|(k, v)| format!("{k:?}: {v} with all off, {:?} with {extra:?}", on.get(k)))
                .collect();
            assert!(
                differ.is_empty(),
                "{}:\n{}",
                folder.display(),
                differ.join("\n")
            );
            assert_eq!(off.len(), on.len());
        }
    }
}

/// The CPU deadline of every case `loop_willfinish` timed out on, in ms,
/// as its verdicts say ("no answer within 1800 ms of CPU time").
fn timeout_limits(cache: &Path, calibration: &str) -> BTreeMap<String, u64> {
    let out = salgrade()
        .env("XDG_CACHE_HOME", cache)
        .args([
            "check",
            "--format",
            "json",
            "--shrink-ms",
            "0",
            "--calibration",
        ])
        .arg(calibration)
        .arg(fixtures().join("submissions/loop_willfinish/salbLLfunctions.py"))
        .output()
        .unwrap();
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr_of(&out)));
    crate::case_verdicts(&report["students"][0])
        .into_iter()
        .filter(|(_, (v, _))| v == "timeout")
        .filter_map(|(id, (_, detail))| {
            let ms = detail
                .strip_prefix("no answer within ")?
                .split(' ')
                .next()?
                .parse()
                .ok()?;
            Some((id, ms))
        })
        .collect()
}

#[test]
fn a_kept_calibration_gives_no_case_less_time_than_a_fresh_one() {
    let cache = tempfile::tempdir().unwrap();
    // The first run calibrates and keeps it; the second uses what was kept,
    // checked against the machine as it is now.
    let fresh = timeout_limits(cache.path(), "cached");
    assert!(
        std::fs::read_dir(cache.path().join("salgrade/calibration"))
            .is_ok_and(|mut d| d.next().is_some()),
        "nothing kept"
    );
    let kept = timeout_limits(cache.path(), "cached");
    assert!(fresh.len() > 10, "{fresh:?}");
    assert_eq!(fresh.len(), kept.len(), "{fresh:?}\n{kept:?}");
    for (id, ms) in &fresh {
        let kept_ms = kept.get(id).copied().unwrap_or(0);
        assert!(
            kept_ms >= *ms,
            "{id}: {kept_ms} ms from the kept calibration, {ms} ms from the fresh one"
        );
    }
}
