//! Fairness under load: the sample cohort graded while two CPU-bound
//! threads compete for the machine's cores, five times over. Deadlines are
//! measured in the student process's CPU time, which the load does not
//! inflate, so no correct or slow-but-correct submission may ever time
//! out; the looping one still must. (A test, not a benchmark: it asserts
//! verdicts, never times.)

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

/// Threads that keep `n` cores busy until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start(n: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
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
    }
}
