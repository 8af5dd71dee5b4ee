//! The sandboxed runner: runs one submission's cases in driver processes and
//! returns raw facts per case. It judges nothing (that is `grading`), and it
//! is the only part of salgrade that starts processes.
//!
//! One process serves a whole submission, case after case. A case that
//! times out or dies is killed with everything its process started, and a
//! new process (a new exec and a new import: nothing a student's code could
//! have touched is reused) carries on with the next case, so one broken
//! function never costs the others their marks. The first timeout of a
//! submission is retried once in a new process before it is believed, and
//! a submission's processes share one total budget (`budget`).

mod budget;
pub(crate) mod bytecode;
pub(crate) mod capture;
pub(crate) mod cgroup;
pub(crate) mod confine;
pub(crate) mod cxx;
mod interrupt;
mod launch;
pub(crate) use launch::python_files;
pub(crate) mod lint;
pub(crate) mod plan;
pub(crate) mod protocol;
pub(crate) mod sandbox;
pub(crate) mod session;
pub(crate) mod setup;
mod submission;
pub(crate) mod syscalls;
pub(crate) mod toolchain;
#[expect(
    unsafe_code,
    reason = "pre_exec, setrlimit and kill: each block has its SAFETY comment"
)]
pub(crate) mod unix;

use std::time::Duration;

use crate::outcome::RawOutcome;
pub(crate) use budget::StudentBudget;
use capture::Captured;
pub(crate) use interrupt::{
    INTERRUPT_NOTE, interrupted, kill_on_interrupt, reap_leftovers, wait_for_interrupt_exit,
};
pub(crate) use lint::{LintAsk, lint_source};
pub(crate) use plan::Limits;
pub(crate) use protocol::LintRun;
use salgrade_reference::Case;
pub(crate) use sandbox::{Python, SandboxKind};
pub(crate) use session::{RunnerConfig, SessionError};
pub(crate) use submission::SubmissionRunner;

/// How long one case may take: CPU time of the student's process, which
/// the machine's load inflates far less than wall time, and wall time as a
/// looser backstop
/// (a student that sleeps or blocks uses no CPU).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deadline {
    pub cpu: Duration,
    pub wall: Duration,
}

/// What the runner needs from an assignment for one language, and nothing
/// more.
#[derive(Debug, Clone)]
pub(crate) enum Harness {
    /// The student's file, the files placed beside it, and the adapter the
    /// generic Python driver loads to build inputs and describe results.
    Python {
        student_file: &'static str,
        support: Vec<(&'static str, &'static str)>,
        adapter: &'static str,
    },
    /// The translation units a C++ submission is built with.
    Cxx(cxx::CxxHarness),
}

impl Harness {
    /// The file name the student submits.
    pub(crate) fn student_file(&self) -> &'static str {
        match self {
            Harness::Python { student_file, .. } => student_file,
            Harness::Cxx(h) => h.student_file,
        }
    }
}

/// The languages a submission can be written in.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Language {
    /// Python 3 (`.py`).
    Python,
    /// C++20, built with g++ (`.cpp`, `.cc`, `.cxx`).
    Cpp,
}

impl Language {
    /// The language of a file, by its extension.
    pub(crate) fn of_file(name: &str) -> Option<Language> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "py" => Some(Language::Python),
            "cpp" | "cc" | "cxx" => Some(Language::Cpp),
            _ => None,
        }
    }

    /// The source file extensions of the language.
    pub(crate) fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Python => &[".py"],
            Language::Cpp => &[".cpp", ".cc", ".cxx"],
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Cpp => "C++",
        }
    }
}

/// Everything the runner learned about one submission.
#[derive(Debug, Clone)]
pub(crate) struct SubmissionRun {
    pub outcomes: Vec<RawOutcome>,
    pub stderr: Captured,
}

/// Runs `cases` against `source` (a solution of salgrade's own: the model
/// or the naive one), in the order `order` gives, without a budget.
pub(crate) fn run_solution(
    cfg: &RunnerConfig,
    harness: &Harness,
    source: &[u8],
    cases: &[Case],
    deadlines: &[Deadline],
    order: &[usize],
    slot: usize,
) -> Result<SubmissionRun, SessionError> {
    // Calibration measures cases, not starts: its sessions never wait for
    // the run's compile of salgrade's Python files (a solution made while
    // the compile is under way runs from its sources, as before bytecode).
    let cfg = RunnerConfig {
        budget: StudentBudget::UNLIMITED,
        bytecode: match cfg.bytecode {
            bytecode::Use::Waiting => bytecode::Use::IfReady,
            other => other,
        },
        ..cfg.clone()
    };
    let mut runner = SubmissionRunner::new(&cfg, harness, source, slot, None)?;
    // The session starts beside the compile; its cases, which are
    // measured, never run beside it.
    if !cases.is_empty() {
        runner.start_now()?;
        bytecode::settled();
    }
    let outcomes = runner.run_all(cases, deadlines, order)?;
    let (_, stderr) = runner.finish();
    Ok(SubmissionRun { outcomes, stderr })
}
