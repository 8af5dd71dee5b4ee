//! One driver process: start it, put questions to it under deadlines, and end
//! it for certain.
//!
//! One event loop per session: a reader thread turns the response fd into
//! lines, two drains capture stdout and stderr, a writer thread feeds the
//! request fd (so a child that stops reading can never block the grader),
//! and the session waits on one channel with `recv_timeout`. On a deadline
//! the whole process group is killed at once: student code has nothing to
//! clean up, and a grandchild that ignores SIGTERM must not survive.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::capture::{self, Captured, Shared};
use super::cgroup::{Cgroups, CpuFormat, SessionGroup, SlotGroup};
use super::plan::{Limits, Program};
use super::protocol::{self, Message, Request};
use super::sandbox::{self, Python, SandboxKind};
use super::unix::{self, Group};
use crate::outcome::{Death, RaisedError};

/// The longest protocol line the runner accepts from a driver.
const MAX_LINE: usize = 64 * 1024 * 1024;
/// A request on its way: when it was sent, and the program's CPU clock then.
pub(crate) struct Sent {
    start: Instant,
    cpu_start: Option<Duration>,
}

/// The shortest wait between two readings of a program's CPU clock.
const MIN_WAIT: Duration = Duration::from_millis(2);
/// How long a driver that closed its channel gets to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(300);

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

/// How long a start that fails for want of a task (EAGAIN: the slot's
/// `pids` limit, or the slot uid's RLIMIT_NPROC) is retried: a dying
/// namespace's tasks are counted until they are reaped.
const SPAWN_PATIENCE: Duration = Duration::from_secs(3);

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

/// The CPU time the student's program has used, from a file kept open and
/// read from the start each time: its session cgroup's (every thread and
/// child of the session counted, the ones that exited too), or, without
/// one, the program's own `/proc/PID/schedstat` (its main thread only;
/// nanoseconds on the CPU, precise where `/proc/PID/stat` counts ticks).
struct CpuClock(std::fs::File, ClockKind);

#[derive(Clone, Copy)]
enum ClockKind {
    Schedstat,
    Cgroup(CpuFormat),
}

impl CpuClock {
    /// The clock of the program `depth` levels below `pid` (the sandbox's
    /// own processes first: bubblewrap's two, or the keeper and init of
    /// salgrade's namespaces).
    /// Also returns the processes passed on the way down.
    fn find(pid: u32, depth: usize) -> Option<(CpuClock, Vec<i32>)> {
        let mut here = pid;
        let mut inner = Vec::new();
        for level in 0..depth {
            let children =
                std::fs::read_to_string(format!("/proc/{here}/task/{here}/children")).ok()?;
            here = children.split_whitespace().next()?.parse().ok()?;
            if level + 1 < depth {
                inner.push(here as i32);
            }
        }
        let clock = std::fs::File::open(format!("/proc/{here}/schedstat")).ok()?;
        Some((CpuClock(clock, ClockKind::Schedstat), inner))
    }

    fn of_group(group: &SessionGroup) -> Option<CpuClock> {
        let (file, format) = group.cpu_file()?;
        Some(CpuClock(file, ClockKind::Cgroup(format)))
    }

    fn read(&self) -> Option<Duration> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 512];
        let n = self.0.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..n]).ok()?;
        match self.1 {
            ClockKind::Schedstat => {
                let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
                Some(Duration::from_nanos(ns))
            }
            ClockKind::Cgroup(format) => format.parse(text),
        }
    }
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
    /// The sandbox's own processes between the child and the program
    /// (bubblewrap's PID 1, or init), which come back to salgrade to be
    /// reaped when the child is killed first.
    inner: Vec<i32>,
    /// The rule check's answer, when the driver was asked to lint first.
    pub linted: Option<super::protocol::LintRun>,
    /// The session folder, removed when the session is dropped.
    dir: tempfile::TempDir,
}

impl Session {
    /// Starts a program in a fresh folder holding `files`, and waits for its
    /// first message within the import deadline; with `lint_first`, the
    /// driver's rule check comes before it (kept in `linted`).
    pub(crate) fn start(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
        lint_first: bool,
    ) -> Result<(Session, Started), SessionError> {
        Session::spawn(cfg, files, program, slot)?.await_start(cfg, lint_first)
    }

    /// Waits for a started program's first message, within the import
    /// deadline counted from its start.
    pub(crate) fn await_start(
        self,
        cfg: &RunnerConfig,
        lint_first: bool,
    ) -> Result<(Session, Started), SessionError> {
        let mut session = self;
        let until = session.spawned + cfg.import_timeout;
        let mut first = session.next_message(until.saturating_duration_since(Instant::now()));
        if lint_first {
            if let Ok(line) = &first {
                match Message::parse(line)
                    .ok()
                    .and_then(super::protocol::LintRun::from_message)
                {
                    Some(run) => {
                        session.linted = Some(run);
                        first =
                            session.next_message(until.saturating_duration_since(Instant::now()));
                    }
                    None => {
                        let death = session.kill_with_note(
                            "sent no rule check before its first message".to_owned(),
                        );
                        return Ok((session, Started::Died(death)));
                    }
                }
            }
        }
        let started = match first {
            Ok(line) => match Message::parse(&line) {
                Ok(Message::Ready {
                    protocol,
                    functions,
                    ..
                }) if protocol == protocol::PROTOCOL => {
                    let depth = match cfg.sandbox {
                        SandboxKind::None | SandboxKind::Rlimit => 0,
                        SandboxKind::Namespaces | SandboxKind::Bwrap => 2,
                    };
                    if let Some((clock, inner)) = CpuClock::find(session.child.id(), depth) {
                        session.cpu.get_or_insert(clock);
                        session.inner = inner;
                    }
                    Started::Ready { functions }
                }
                Ok(Message::Ready { protocol, .. }) => {
                    session.end();
                    return Err(SessionError::Protocol(protocol));
                }
                Ok(Message::ImportFailed { error }) => {
                    session.end();
                    Started::ImportFailed(error)
                }
                Ok(_) => Started::Died(
                    session.kill_with_note("sent an answer before its first message".to_owned()),
                ),
                Err(e) => Started::Died(
                    session.kill_with_note(format!("sent a malformed first message: {e}")),
                ),
            },
            Err(Waited::TimedOut) => {
                session.end();
                Started::ImportTimedOut
            }
            Err(Waited::Died(d)) => Started::Died(d),
        };
        Ok((session, started))
    }

    /// Runs a program that speaks no protocol (a compiler) to its end, or
    /// kills it at `deadline`. `Ok(death)` says how it ended (code 0 is
    /// success); `Err(())` is the deadline.
    pub(crate) fn run_to_end(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
        deadline: Duration,
        keep: &str,
    ) -> Result<RunToEnd, SessionError> {
        let mut session = Session::spawn(cfg, files, program, slot)?;
        let ended = match session.next_message(deadline) {
            Ok(_) => Some(session.kill_with_note("wrote on the protocol channel".to_owned())),
            Err(Waited::Died(death)) => Some(death),
            Err(Waited::TimedOut) => {
                session.end();
                None
            }
        };
        let kept = std::fs::read(session.dir.path().join(keep)).ok();
        let (stdout, stderr) = session.output();
        Ok(RunToEnd {
            ended,
            kept,
            stdout,
            stderr,
        })
    }

    /// Starts a program without waiting for it (a spare boots while
    /// salgrade does other work); [`Session::await_start`] waits.
    pub(crate) fn spawn(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
    ) -> Result<Session, SessionError> {
        Session::spawn_in(cfg, files, program, slot, Beside::Nothing)
    }

    /// Starts a program beside a live session of the same submission in
    /// its slot (a spare): the slot is not emptied first.
    pub(crate) fn spawn_spare(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
    ) -> Result<Session, SessionError> {
        Session::spawn_in(cfg, files, program, slot, Beside::Live)
    }

    fn spawn_in(
        cfg: &RunnerConfig,
        files: &[SessionFile<'_>],
        program: &Program<'_>,
        slot: usize,
        beside: Beside,
    ) -> Result<Session, SessionError> {
        let dir = session_folder(files)?;
        let (req_read, req_write) = pipe()?;
        let (resp_read, resp_write) = pipe()?;
        let mut launch = sandbox::launch(cfg.sandbox, program, dir.path(), slot, cfg.uids.base);
        let Groups {
            cgroup,
            cpu_group,
            join,
        } = join_groups(cfg, slot, beside)?;
        let oom_baseline = cgroup.as_ref().map_or(0, SlotGroup::oom_kills);
        // The folder stays 0700: only the identity the student runs as (the
        // slot's uid, or salgrade's own) may enter it, so concurrently graded
        // students cannot read each other's files.
        if let Some(id) = launch.identity {
            chown_tree(dir.path(), id.uid, id.gid);
        }
        unix::prepare(
            &mut launch.command,
            &req_read,
            &resp_write,
            launch.limits,
            launch.identity,
            [join.first(), join.get(1), join.get(2)],
            launch.confine.take(),
        );
        launch
            .command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_patiently(&mut launch.command, cgroup.as_ref())?;
        drop(req_read);
        drop(resp_write);
        let group = Group(child.id() as i32);
        group.register();

        let (tx, events) = mpsc::channel();
        spawn_reader(resp_read, tx);
        let (req_tx, req_rx) = mpsc::channel::<Vec<u8>>();
        spawn_writer(req_write, req_rx);
        let (stdout, _) = capture::drain(
            child.stdout.take().expect("stdout is piped"),
            cfg.output_cap,
        );
        let (stderr, _) = capture::drain(
            child.stderr.take().expect("stderr is piped"),
            cfg.output_cap,
        );

        Ok(Session {
            child,
            group,
            requests: Some(req_tx),
            events,
            stdout,
            stderr,
            sweep_uid: launch.sweep_uid,
            sandbox: cfg.sandbox,
            cgroup,
            cpu: cpu_group.as_ref().and_then(CpuClock::of_group),
            cpu_group,
            cgroups: cfg.cgroups.clone(),
            oom_baseline,
            finished: false,
            spawned: Instant::now(),
            inner: Vec::new(),
            linted: None,
            dir,
        })
    }

    /// Sends one request and waits for its answer until the program has
    /// used `deadline.cpu` of CPU time, or `deadline.wall` has passed.
    /// Without a CPU clock only the wall time counts.
    pub(crate) fn call(&mut self, request: &Request<'_>, deadline: super::Deadline) -> CallEnd {
        match self.send(request) {
            Ok(sent) => self.wait(sent, deadline),
            Err(death) => CallEnd::Died(death),
        }
    }

    /// Sends one request; [`Session::wait`] then waits for its answer.
    /// `Err`: the program stopped reading requests.
    pub(crate) fn send(&mut self, request: &Request<'_>) -> Result<Sent, Death> {
        let line = request.line();
        let sent = Sent {
            start: Instant::now(),
            cpu_start: self.cpu.as_ref().and_then(CpuClock::read),
        };
        if let Some(tx) = &self.requests {
            if tx.send(line).is_err() {
                return Err(self.kill_with_note("stopped reading requests".to_owned()));
            }
        }
        Ok(sent)
    }

    /// A request sent earlier, whose case begins now: the program has just
    /// answered the one before it and goes on with this one.
    pub(crate) fn begun_now(&self) -> Sent {
        Sent {
            start: Instant::now(),
            cpu_start: self.cpu.as_ref().and_then(CpuClock::read),
        }
    }

    /// Waits for the answer to the request `sent`, until the program has
    /// used `deadline.cpu` of CPU time or `deadline.wall` has passed.
    pub(crate) fn wait(&mut self, sent: Sent, deadline: super::Deadline) -> CallEnd {
        let Sent { start, cpu_start } = sent;
        let used = |session: &Session| {
            let now = session.cpu.as_ref().and_then(CpuClock::read)?;
            Some(now.saturating_sub(cpu_start?))
        };
        // A single-threaded program cannot use CPU time faster than wall
        // time, so waiting for the CPU time left never waits past it by
        // more than what the program did not get of the processor.
        let mut wait = if cpu_start.is_some() {
            deadline.cpu.min(deadline.wall)
        } else {
            deadline.wall
        };
        loop {
            match self.next_message(wait) {
                Ok(text) => {
                    return match Message::parse(&text) {
                        Ok(message) => {
                            let (wall, cpu) = (start.elapsed(), used(self));
                            // Work spread over threads or children can pass
                            // the CPU deadline between two readings. Only
                            // tasks in parallel use CPU time faster than
                            // wall time, so an answer that did both is a
                            // timeout; a single thread's is never judged so.
                            if cpu.is_some_and(|c| c > deadline.cpu && c > wall) {
                                self.end();
                                return CallEnd::TimedOut { cpu: true };
                            }
                            CallEnd::Answered { message, wall, cpu }
                        }
                        Err(e) => CallEnd::Died(
                            self.kill_with_note(format!("sent a malformed answer: {e}")),
                        ),
                    };
                }
                Err(Waited::Died(d)) => return CallEnd::Died(d),
                Err(Waited::TimedOut) => {
                    let wall_left = deadline.wall.saturating_sub(start.elapsed());
                    let cpu = used(self);
                    let over_cpu = cpu.is_some_and(|c| c >= deadline.cpu);
                    if wall_left.is_zero() || over_cpu {
                        self.end();
                        return CallEnd::TimedOut { cpu: over_cpu };
                    }
                    wait = match cpu {
                        Some(c) => (deadline.cpu - c).max(MIN_WAIT).min(wall_left),
                        None => wall_left,
                    };
                }
            }
        }
    }

    fn next_message(&mut self, timeout: Duration) -> Result<String, Waited> {
        match self.events.recv_timeout(timeout) {
            Ok(Event::Line(line)) => Ok(line),
            Ok(Event::TooLong) => Err(Waited::Died(
                self.kill_with_note("sent an oversized protocol line".to_owned()),
            )),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                Err(Waited::Died(self.reap_after_close()))
            }
            Err(RecvTimeoutError::Timeout) => Err(Waited::TimedOut),
        }
    }

    /// The channel closed: usually the process exited (`os._exit`, a crash,
    /// a kill by the kernel). Give it a moment to finish, then make sure.
    fn reap_after_close(&mut self) -> Death {
        let until = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.end();
                    let (code, signal) = match (status.code(), status.signal()) {
                        // bubblewrap exits with 128 + N when the program it
                        // runs is killed by signal N: say which signal.
                        (Some(c), None)
                            if self.sandbox == SandboxKind::Bwrap && c > 128 && c < 160 =>
                        {
                            (None, Some(c - 128))
                        }
                        other => other,
                    };
                    return Death {
                        code,
                        signal,
                        note: None,
                        memory: self.out_of_memory(),
                    };
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => return self.kill_with_note("closed its channel to the grader".to_owned()),
            }
        }
    }

    fn kill_with_note(&mut self, note: String) -> Death {
        self.end();
        Death {
            code: None,
            signal: None,
            note: Some(note),
            memory: self.out_of_memory(),
        }
    }

    /// Whether the memory cgroup killed something since the session started.
    fn out_of_memory(&self) -> bool {
        self.cgroup
            .as_ref()
            .is_some_and(|g| g.oom_kills() > self.oom_baseline)
    }

    /// Kills the group (and the slot's uid when there is one), reaps the
    /// child, and closes the request channel. Idempotent.
    pub(crate) fn end(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        self.requests = None;
        // The cgroup first, while every process is still listed in it: one
        // killed by the group kill would leave the list before it is read,
        // and kill_all reaps only the orphans it saw.
        // In salgrade's namespaces nothing escapes the PID namespace, which
        // dies with its init: the slot's cgroup is left alone, so a spare
        // session booting in it survives this one's end.
        if let Some(group) = &self.cgroup {
            if self.sandbox != SandboxKind::Namespaces {
                group.kill_all(Some(self.child.id()));
            }
        }
        self.group.kill();
        self.group.unregister();
        if let Some(uid) = self.sweep_uid {
            unix::kill_all_of(uid);
        }
        let _ = self.child.wait();
        self.group.reap();
        if let Some(uid) = self.sweep_uid {
            unix::reap_orphans(unix::Orphans::OfUid(uid));
        }
        if matches!(self.sandbox, SandboxKind::Bwrap | SandboxKind::Namespaces) {
            if self.inner.is_empty() {
                unix::reap_orphans(unix::Orphans::SandboxZombies);
            } else {
                // Known since the program was found: no need to scan /proc.
                unix::reap_pids(&self.inner);
            }
        }
        if let (Some(group), Some(cgroups)) = (self.cpu_group.take(), &self.cgroups) {
            cgroups.release(group);
        }
    }

    /// What the student printed so far. Call after [`Session::end`] to have it all.
    pub(crate) fn output(&self) -> (Captured, Captured) {
        // The drains finish once every writer of the pipes is gone; a short
        // wait lets them catch up with the last bytes after a kill.
        let settle = Instant::now() + Duration::from_millis(200);
        let draining = |s: &Shared| std::sync::Arc::strong_count(s) > 1;
        while Instant::now() < settle && (draining(&self.stdout) || draining(&self.stderr)) {
            std::thread::sleep(Duration::from_millis(2));
        }
        let get = |s: &Shared| s.lock().map(|c| c.clone()).unwrap_or_default();
        (get(&self.stdout), get(&self.stderr))
    }
}

/// A fresh session folder holding `files`.
fn session_folder(files: &[SessionFile<'_>]) -> Result<tempfile::TempDir, SessionError> {
    let dir = tempfile::Builder::new()
        .prefix("salgrade-")
        .tempdir()
        .map_err(SessionError::TempDir)?;
    write_files(dir.path(), files)?;
    Ok(dir)
}

/// Writes the session's `files` into its folder `dir`.
fn write_files(dir: &Path, files: &[SessionFile<'_>]) -> Result<(), SessionError> {
    use std::os::unix::fs::PermissionsExt;
    for f in files {
        let path = dir.join(f.name);
        let write = || {
            std::fs::write(&path, f.contents).and_then(|()| {
                let mode = if f.executable { 0o700 } else { 0o600 };
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
            })
        };
        let written = if f.executable {
            unix::writing_program(write)
        } else {
            write()
        };
        written.map_err(|source| SessionError::WriteFile {
            name: f.name.to_owned(),
            source,
        })?;
    }
    Ok(())
}

/// A session's cgroups, and the descriptors its child joins them through.
struct Groups {
    cgroup: Option<SlotGroup>,
    cpu_group: Option<SessionGroup>,
    join: Vec<OwnedFd>,
}

/// The slot's cgroup (emptied unless something runs beside the session),
/// the session's own CPU cgroup, and the descriptors the child joins them
/// through; none outside a sandbox or without cgroups.
fn join_groups(cfg: &RunnerConfig, slot: usize, beside: Beside) -> Result<Groups, SessionError> {
    let cgroup = match &cfg.cgroups {
        Some(c) if cfg.sandbox != SandboxKind::None => {
            Some(c.slot(slot).map_err(SessionError::Cgroup)?)
        }
        _ => None,
    };
    let mut join = match &cgroup {
        Some(g) => g.join_fds().map_err(SessionError::Cgroup)?,
        None => Vec::new(),
    };
    // The session's own cgroup last: on v2 it lies below the slot's, and
    // a process is where it was written last.
    let cpu_group = match &cfg.cgroups {
        Some(c) if cgroup.is_some() => c.session(slot),
        _ => None,
    };
    if let Some(g) = &cpu_group {
        join.push(g.join_fd().map_err(SessionError::Cgroup)?);
    }
    if let (Some(group), Beside::Nothing) = (&cgroup, beside) {
        group.empty();
    }
    Ok(Groups {
        cgroup,
        cpu_group,
        join,
    })
}

impl Drop for Session {
    fn drop(&mut self) {
        self.end();
    }
}

enum Waited {
    TimedOut,
    Died(Death),
}

/// What else of the submission may be running in the slot when a session
/// starts.
#[derive(Clone, Copy)]
enum Beside {
    Nothing,
    Live,
}

/// Spawns `command`, waiting and retrying while the system refuses a new
/// task (EAGAIN). A refusal that outlasts [`SPAWN_PATIENCE`] while the
/// slot's cgroup still holds tasks is the student's (their own processes
/// fill it); otherwise it is the harness's.
fn spawn_patiently(
    command: &mut std::process::Command,
    cgroup: Option<&SlotGroup>,
) -> Result<Child, SessionError> {
    let until = Instant::now() + SPAWN_PATIENCE;
    let mut pause = Duration::from_millis(5);
    loop {
        // Never while a program file is being written (see `unix::forking`).
        match unix::forking(|| command.spawn()) {
            Ok(child) => return Ok(child),
            Err(e) if e.raw_os_error() == Some(nix::libc::EAGAIN) && Instant::now() < until => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(200));
            }
            Err(source) => {
                let tasks = cgroup.and_then(SlotGroup::tasks).unwrap_or(0);
                if source.raw_os_error() == Some(nix::libc::EAGAIN) && tasks > 0 {
                    return Err(SessionError::SlotFull { tasks });
                }
                let program = command.get_program().to_string_lossy().into_owned();
                return Err(SessionError::Spawn { program, source });
            }
        }
    }
}

fn pipe() -> Result<(OwnedFd, OwnedFd), SessionError> {
    let (r, w) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| SessionError::Pipe(e.into()))?;
    let r = unix::lift_fd(r).map_err(SessionError::Pipe)?;
    let w = unix::lift_fd(w).map_err(SessionError::Pipe)?;
    Ok((r, w))
}

fn spawn_reader(fd: OwnedFd, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let mut reader = BufReader::with_capacity(1 << 16, std::fs::File::from(fd));
        loop {
            let mut line = Vec::new();
            let read = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line);
            match read {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::Closed);
                    return;
                }
                Ok(_) if line.len() > MAX_LINE => {
                    let _ = tx.send(Event::TooLong);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                    if tx.send(Event::Line(text)).is_err() {
                        return;
                    }
                }
            }
        }
    });
}

fn spawn_writer(fd: OwnedFd, rx: Receiver<Vec<u8>>) {
    std::thread::spawn(move || {
        let mut file = std::fs::File::from(fd);
        for line in rx {
            if file.write_all(&line).is_err() {
                return;
            }
        }
    });
}

fn chown_tree(dir: &Path, uid: u32, gid: u32) {
    let _ = std::os::unix::fs::chown(dir, Some(uid), Some(gid));
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let _ = std::os::unix::fs::chown(e.path(), Some(uid), Some(gid));
        }
    }
}
