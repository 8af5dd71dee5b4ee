//! One driver process: start it, put questions to it under deadlines, and end
//! it for certain.
//!
//! One event loop per session: a reader thread turns the response fd into
//! lines, two drains capture stdout and stderr, a writer thread feeds the
//! request fd (so a child that stops reading can never block the grader),
//! and the session waits on one channel with `recv_timeout`. On a deadline
//! the whole process group is killed at once: student code has nothing to
//! clean up, and a grandchild that ignores SIGTERM must not survive.
//!
//! This file holds the session's types; `spawn` starts one, `running`
//! talks to it and ends it, and `clock` reads its CPU time.

mod clock;
mod running;
mod spawn;

use std::collections::BTreeMap;
use std::process::Child;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

use super::capture::{Captured, Shared};
use super::cgroup::{Cgroups, SessionGroup, SlotGroup};
use super::plan::Limits;
use super::protocol::{self, Message};
use super::sandbox::{self, Python, SandboxKind};
use super::unix::{self, Group};
use crate::outcome::{Death, RaisedError};
use clock::CpuClock;

/// A harness failure (not the student's): the session could not be run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionError {
    #[error("cannot create the sandbox folder")]
    TempDir(#[source] std::io::Error),
    #[error("cannot write `{name}` into the sandbox folder")]
    WriteFile {
        name: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot create the protocol pipes")]
    Pipe(#[source] std::io::Error),
    #[error("cannot put the student's processes in their cgroup: {0}")]
    Cgroup(String),
    #[error(
        "the sandboxed program speaks protocol {0}, this salgrade speaks {v}; reinstall salgrade",
        v = protocol::PROTOCOL
    )]
    Protocol(u32),
    #[error("no C++ compiler was set up for this run (a salgrade bug)")]
    NoCompiler,
    #[error("nothing to run for this submission (a salgrade bug)")]
    NothingToRun,
    #[error("cannot start `{program}`")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    /// The student's own processes still fill the slot's task limit, so no
    /// new process of theirs could start: the student's failure, not the
    /// run's (see [`SessionError::is_students`]).
    #[error(
        "could not start a new process: the submission's {tasks} processes and threads still fill its limit"
    )]
    SlotFull { tasks: u64 },
}

impl SessionError {
    /// Whether the failure is confined to the student's own session, so
    /// that it becomes their verdict and the run goes on.
    pub(crate) fn is_students(&self) -> bool {
        matches!(self, SessionError::SlotFull { .. })
    }
}

/// How starting a session went.
#[derive(Debug)]
pub(crate) enum Started {
    Ready { functions: BTreeMap<String, bool> },
    ImportFailed(RaisedError),
    ImportTimedOut,
    Died(Death),
}

/// How a run to the end went: how it ended (`None` at the deadline), the
/// file asked for if it was made, and what it printed.
pub(crate) struct RunToEnd {
    pub ended: Option<Death>,
    pub kept: Option<Vec<u8>>,
    pub stdout: Captured,
    pub stderr: Captured,
}

/// How one call ended.
#[derive(Debug)]
pub(crate) enum CallEnd {
    /// `cpu`: the process's CPU time over the call, where it could be read.
    Answered {
        message: Message,
        wall: Duration,
        cpu: Option<Duration>,
    },
    /// Over the CPU deadline (`cpu`), or the wall-time backstop.
    TimedOut {
        cpu: bool,
    },
    Died(Death),
}

enum Event {
    Line(String),
    TooLong,
    Closed,
}

/// Everything needed to run drivers, fixed for a whole grading run.
#[derive(Debug, Clone)]
pub(crate) struct RunnerConfig {
    pub python: Python,
    /// The C++ compiler, when a C++ submission is to be graded.
    pub cxx: Option<super::toolchain::Cxx>,
    /// The deadline and limits of a C++ build.
    pub build: super::toolchain::BuildSettings,
    pub sandbox: SandboxKind,
    pub limits: Limits,
    pub import_timeout: Duration,
    /// Bytes of stdout (and again of stderr) kept per submission.
    pub output_cap: usize,
    /// Per-slot pids and memory cgroups, where a writable hierarchy exists.
    pub cgroups: Option<std::sync::Arc<Cgroups>>,
    /// Run Python student code as an unprivileged uid per slot (only as
    /// root, and only where that uid can reach the interpreter).
    pub drop_privileges: bool,
    /// Build and run compiled student code as an unprivileged uid per slot
    /// (only as root; the compiler and the program are reachable by anyone).
    pub drop_compiled: bool,
    /// This run's block of sandbox uids (slot `i` runs as its base + `i`).
    pub uids: std::sync::Arc<sandbox::UidBlock>,
    /// The most one submission's processes may use in all.
    pub budget: super::StudentBudget,
    /// Whether a failing submission's next process starts ahead.
    pub spare: bool,
    /// Whether sessions get salgrade's own Python files as bytecode
    /// compiled once (`bytecode.rs`), not only as sources, and whether a
    /// session waits for the run's compile to end.
    pub bytecode: super::bytecode::Use,
}

impl RunnerConfig {
    /// The protections in force, in one line for the run's header.
    pub(crate) fn protections(&self) -> String {
        let mut parts = vec![format!(
            "sandbox {}",
            match self.sandbox {
                SandboxKind::None => "none",
                SandboxKind::Rlimit => "rlimit",
                SandboxKind::Namespaces =>
                    "namespaces (PID, network, mount, IPC, UTS; a fresh read-only root)",
                SandboxKind::Bwrap => "bwrap",
            }
        )];
        if let Some(c) = &self.cgroups {
            parts.push(c.describe());
        }
        if self.sandbox != SandboxKind::None && super::syscalls::filters().is_some() {
            parts.push(format!(
                "a system-call filter ({} calls denied, among them the key store)",
                super::syscalls::denied_names().count()
            ));
        }
        match self.sandbox {
            SandboxKind::Namespaces | SandboxKind::Bwrap => {
                parts.push("no ctypes, a read-only /proc".to_owned());
            }
            SandboxKind::Rlimit => {
                parts.push("ctypes and /proc/self/mem reachable (no mount namespace)".to_owned())
            }
            SandboxKind::None => {}
        }
        match (
            self.drop_privileges,
            self.drop_compiled && self.cxx.is_some(),
        ) {
            (true, _) => parts.push("an unprivileged uid per slot".to_owned()),
            (false, true) => parts.push("an unprivileged uid per slot for C++".to_owned()),
            (false, false) => {}
        }
        if !self.drop_privileges
            && unix::is_root()
            && matches!(self.sandbox, SandboxKind::Namespaces | SandboxKind::Bwrap)
        {
            parts.push("Python as root in a user namespace".to_owned());
        }
        if let Some(cxx) = &self.cxx {
            parts.push(format!("C++: {}", cxx.version));
        }
        parts.join(", ")
    }
}

/// A file placed in the session folder.
pub(crate) struct SessionFile<'a> {
    pub name: &'a str,
    pub contents: &'a [u8],
    /// Mode 0700 instead of 0600 (a compiled program).
    pub executable: bool,
}

impl<'a> SessionFile<'a> {
    pub(crate) fn text(name: &'a str, contents: &'a [u8]) -> SessionFile<'a> {
        SessionFile {
            name,
            contents,
            executable: false,
        }
    }
}

pub(crate) struct Session {
    child: Child,
    group: Group,
    requests: Option<Sender<Vec<u8>>>,
    events: Receiver<Event>,
    /// The longest line the reader accepts now (see [`Session::send`]).
    line_cap: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    stdout: Shared,
    stderr: Shared,
    sweep_uid: Option<u32>,
    sandbox: SandboxKind,
    cgroup: Option<SlotGroup>,
    /// The session's own cgroup, its CPU clock (returned to `cgroups` at
    /// the end).
    cpu_group: Option<SessionGroup>,
    cgroups: Option<std::sync::Arc<Cgroups>>,
    oom_baseline: u64,
    finished: bool,
    spawned: Instant,
    /// The program's CPU clock, found once it is ready.
    cpu: Option<CpuClock>,
    /// What the clock said as the session ended.
    cpu_at_end: Option<Duration>,
    /// The sandbox's own processes between the child and the program
    /// (bubblewrap's PID 1, or init), which come back to salgrade to be
    /// reaped when the child is killed first.
    inner: Vec<i32>,
    /// Pidfds of `inner`, opened while they were surely alive: the end of
    /// the session waits on them instead of polling.
    inner_exits: Vec<std::os::fd::OwnedFd>,
    /// The rule check's answer, when the driver was asked to lint first.
    pub linted: Option<super::protocol::LintRun>,
    /// The session folder, removed when the session is dropped.
    dir: tempfile::TempDir,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.end();
    }
}
