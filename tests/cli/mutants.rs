//! The generator against a library of plausible wrong solutions: every
//! mutant under `fixtures/mutants/<assignment>/` (one bug each, written for
//! salgrade, in Python or, where the assignment takes it, C++) must fail at
//! least one case of its assignment's default case set. One `grade` run per
//! assignment grades its whole folder, the four runs side by side; without
//! a C++ compiler the C++ mutants are left out (with a note).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::grade::copy_dir;
use crate::{fixtures, salgrade, stderr_of};

/// Each assignment, and the fewest mutants its library must hold.
const LIBRARIES: &[(&str, usize)] = &[
    ("a48", 8),
    ("leetcode909", 12),
    ("min-throws", 12),
    ("game", 8),
];

/// The library's folder for `assignment`, or, without a C++ compiler, a
/// copy of it without the C++ mutants.
fn library(assignment: &str, copies: &Path) -> PathBuf {
    let folder = fixtures().join("mutants").join(assignment);
    let is_cpp = |name: &str| {
        std::fs::read_dir(folder.join(name))
            .unwrap()
            .any(|f| f.unwrap().path().extension().is_some_and(|e| e == "cpp"))
    };
    let names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    if !names.iter().any(|n| is_cpp(n)) || crate::cxx::have_cxx() {
        return folder;
    }
    let python: Vec<&str> = names
        .iter()
        .filter(|n| !is_cpp(n))
        .map(String::as_str)
        .collect();
    let copy = copies.join(assignment);
    copy_dir(&folder, &copy, &python);
    copy
}

#[test]
fn every_mutant_fails_a_default_case() {
    let out_dir = tempfile::tempdir().unwrap();
    let copies = tempfile::tempdir().unwrap();
    let runs: Vec<_> = LIBRARIES
        .iter()
        .map(|&(assignment, least)| {
            let out = out_dir.path().join(assignment);
            let folder = library(assignment, copies.path());
            std::thread::spawn(move || {
                let run = salgrade()
                    .args(["grade", "--format", "json", "--shrink-ms", "0"])
                    .args(["--assignment", assignment])
                    .arg("--out-dir")
                    .arg(out)
                    .arg(folder)
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
