//! Fairness under load: the sample cohort graded while two CPU-bound
//! threads and a memory-streaming one compete for the machine, five times
//! over, and each assignment's naive solution (the slowest it accepts)
//! graded three times likewise. Deadlines are measured in the student
//! process's CPU time and follow the naive solution with a wide margin, so
//! no correct or slow-but-correct submission may ever time out, and every
//! run gives every student the same verdicts; the looping one still times
//! out. (A test, not a benchmark: it asserts verdicts, never times.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;

use crate::grade::student;
use crate::{fixtures, salgrade, stderr_of};

/// Every correct variant in the sample cohort, the slow one included.
const CORRECT: &[&str] = &[
    "correct",
    "correct_helpers",
    "correct_separate_reading",
    "correct_slow",
    "closes_fds",
    "fake_protocol",
];
const RUNS: usize = 5;

/// Threads that keep `n` cores busy, and one that streams memory (copying
/// buffers far larger than a cache, so it competes for memory bandwidth),
/// until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start(n: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let streamer = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let from = vec![1u8; 64 << 20];
                let mut to = vec![0u8; 64 << 20];
                while !stop.load(Ordering::Relaxed) {
                    to.copy_from_slice(&from);
                    std::hint::black_box(&mut to);
                }
            })
        };
        let threads = (0..n)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x: u64 = 1;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        }
                        std::hint::black_box(x);
                    }
                })
            })
            .chain([streamer])
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[test]
fn no_correct_submission_times_out_while_the_machine_is_loaded() {
    let _turn = crate::one_at_a_time();
    let out_dir = tempfile::tempdir().unwrap();
    let _load = Load::start(2);
    let mut first: Option<Vec<(String, String, String)>> = None;
    for run in 0..RUNS {
        let out = salgrade()
            .args([
                "grade",
                "--format",
                "json",
                "--cases",
                "0",
                "--shrink-ms",
                "0",
            ])
            .arg("--out-dir")
            .arg(out_dir.path().join(format!("run-{run}")))
            .arg(fixtures().join("submissions"))
            .timeout(Duration::from_secs(180))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        for name in CORRECT {
            for (id, (verdict, detail)) in crate::case_verdicts(student(&report, name)) {
                assert_eq!(
                    verdict, "pass",
                    "run {run}: {name} {id} under load: {detail}"
                );
            }
        }
        let looping = crate::case_verdicts(student(&report, "loop_willfinish"));
        assert!(
            looping.values().any(|(v, _)| v == "timeout"),
            "run {run}: the looping willfinish was not timed out"
        );
        let verdicts = every_verdict(&report);
        match &first {
            None => first = Some(verdicts),
            Some(first) => assert_eq!(first, &verdicts, "run {run} differs from run 0"),
        }
    }
}

/// Every (student, case, verdict) of a report, in order.
fn every_verdict(report: &Value) -> Vec<(String, String, String)> {
    report["students"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            let name = s["student"].as_str().unwrap().to_owned();
            crate::case_verdicts(s)
                .into_iter()
                .map(move |(id, (verdict, _))| (name.clone(), id, verdict))
        })
        .collect()
}

/// Each assignment's naive Python solution, and its file name.
const NAIVE: &[(&str, &str, &str)] = &[
    (
        "a48",
        "salbLLfunctions.py",
        "reference/python/a48/naive/salbLLfunctions.py",
    ),
    (
        "leetcode909",
        "solution.py",
        "reference/python/leetcode909/naive/solution.py",
    ),
    (
        "min-throws",
        "min_throws.py",
        "reference/python/min_throws/naive/min_throws.py",
    ),
    (
        "game",
        "snakes_game.py",
        "reference/python/game/naive/snakes_game.py",
    ),
];

/// The property deadlines are built on: the slowest acceptable solution
/// of each assignment passes every case of the default case set, three
/// times (three students), while the machine is loaded. The C++ naive
/// solutions are not graded here (each C++ student costs a build of
/// several seconds); every C++ run's calibration requires its naive
/// solution to pass every case.
#[test]
fn every_naive_solution_passes_every_case_under_load() {
    let _turn = crate::one_at_a_time();
    let _load = Load::start(2);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (assignment, file, naive) in NAIVE {
        let folder = tempfile::tempdir().unwrap();
        let students = folder.path().join("students");
        for copy in ["one", "two", "three"] {
            std::fs::create_dir_all(students.join(copy)).unwrap();
            std::fs::copy(root.join(naive), students.join(copy).join(file)).unwrap();
        }
        let out = salgrade()
            .args([
                "grade",
                "--format",
                "json",
                "--shrink-ms",
                "0",
                "--cases",
                "10",
            ])
            .args(["--assignment", assignment])
            .arg("--out-dir")
            .arg(folder.path().join("out"))
            .arg(&students)
            .timeout(Duration::from_secs(300))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{naive}: {}", stderr_of(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        for copy in ["one", "two", "three"] {
            for (id, (verdict, detail)) in crate::case_verdicts(student(&report, copy)) {
                assert_eq!(
                    verdict, "pass",
                    "{naive} ({copy}) {id} under load: {detail}"
                );
            }
        }
    }
}
