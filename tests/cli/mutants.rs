//! The generator against a library of plausible wrong solutions: every
//! mutant under `fixtures/mutants/<assignment>/` (one bug each, written for
//! salgrade) must fail at least one case of its assignment's default case
//! set. One `grade` run per assignment grades its whole folder, the four
//! runs side by side.

use std::time::Duration;

use serde_json::Value;

use crate::{fixtures, salgrade, stderr_of};

/// Each assignment, and the fewest mutants its library must hold.
const LIBRARIES: &[(&str, usize)] = &[
    ("a48", 8),
    ("leetcode909", 12),
    ("min-throws", 12),
    ("game", 8),
];

#[test]
fn every_mutant_fails_a_default_case() {
    let out_dir = tempfile::tempdir().unwrap();
    let runs: Vec<_> = LIBRARIES
        .iter()
        .map(|&(assignment, least)| {
            let out = out_dir.path().join(assignment);
            std::thread::spawn(move || {
                let run = salgrade()
                    .args(["grade", "--format", "json", "--shrink-ms", "0"])
                    .args(["--assignment", assignment])
                    .arg("--out-dir")
                    .arg(out)
                    .arg(fixtures().join("mutants").join(assignment))
                    .timeout(Duration::from_secs(300))
                    .output()
                    .unwrap();
                (assignment, least, run)
            })
        })
        .collect();
    for run in runs {
        let (assignment, least, run) = run.join().unwrap();
        assert_eq!(
            run.status.code(),
            Some(1),
            "{assignment}: {}",
            stderr_of(&run)
        );
        let report: Value = serde_json::from_slice(&run.stdout).unwrap();
        let students = report["students"].as_array().unwrap();
        assert!(
            students.len() >= least,
            "{assignment}: {} mutants, fewer than {least}",
            students.len()
        );
        for s in students {
            let name = s["student"].as_str().unwrap();
            let failed = crate::case_verdicts(s)
                .values()
                .filter(|(verdict, _)| verdict != "pass")
                .count();
            assert!(
                failed > 0,
                "{assignment}: the mutant `{name}` passes every default case"
            );
        }
    }
}
