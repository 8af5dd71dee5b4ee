//! The running session: its first message, calls under CPU and wall
//! deadlines, the event loop's waits, and its certain end.

use std::os::unix::process::ExitStatusExt;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::clock::{CpuClock, CpuReading};
use super::{CallEnd, Event, RunToEnd, RunnerConfig, Session, SessionError, SessionFile, Started};
use crate::outcome::Death;
use crate::runner::Deadline;
use crate::runner::capture::{Captured, Shared};
use crate::runner::plan::Program;
use crate::runner::protocol::{self, Message, Request};
use crate::runner::sandbox::SandboxKind;
use crate::runner::unix;

/// A request on its way: when it was sent, and the program's CPU clock then.
pub(crate) struct Sent {
    start: Instant,
    cpu_start: Option<CpuReading>,
}

/// The shortest wait between two readings of a program's CPU clock (the
/// clocks of a running program move at the scheduler's tick, 4 ms at
/// `HZ=250`: reading more often finds nothing new).
const MIN_WAIT: Duration = Duration::from_millis(2);
/// The length of an answer line beyond [`ANSWER_PER_BYTE`] times its
/// request's: a raised error's capped strings, and a wrong list of up to
/// about 65,000 squares each with a snake or ladder, whatever the input.
const ANSWER_SLACK: usize = 1024 * 1024;
/// How many bytes of answer each byte of a request allows: a returned
/// list is described square by square, in fewer bytes than the request
/// gives them.
const ANSWER_PER_BYTE: usize = 16;
/// How long the end of a session waits for the sandbox's own processes to
/// exit (as long as the reaps after it wait).
const REAP_PATIENCE: Duration = Duration::from_millis(200);
/// How long a driver that closed its channel gets to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(300);

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
                    .and_then(protocol::LintRun::from_message)
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
                }) if protocol == protocol::PROTOCOL => {
                    let depth = match cfg.sandbox {
                        SandboxKind::None | SandboxKind::Rlimit => 0,
                        SandboxKind::Namespaces | SandboxKind::Bwrap => 2,
                    };
                    if let Some((clock, program, inner)) = CpuClock::find(session.child.id(), depth)
                    {
                        // A session cgroup's count holds the program's
                        // (every thread, and every child): only schedstat,
                        // its main thread's, needs the process clock beside it.
                        session
                            .cpu
                            .get_or_insert_with(|| clock.with_program(program));
                        session.inner_exits =
                            inner.iter().filter_map(|&p| unix::pidfd(p)).collect();
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

    /// Sends one request and waits for its answer until the program has
    /// used `deadline.cpu` of CPU time, or `deadline.wall` has passed.
    /// Without a CPU clock only the wall time counts.
    pub(crate) fn call(&mut self, request: &Request<'_>, deadline: Deadline) -> CallEnd {
        match self.send(request) {
            Ok(sent) => self.wait(sent, deadline),
            Err(death) => CallEnd::Died(death),
        }
    }

    /// Sends one request; [`Session::wait`] then waits for its answer (a rule
    /// check's may be as long as a first line).
    /// `Err`: the program stopped reading requests. An honest answer is
    /// never much longer than its question (the adapters describe what is
    /// returned in the input's terms, and cap every string), so the answer
    /// may be [`ANSWER_SLACK`] plus [`ANSWER_PER_BYTE`] times the request's
    /// length: what a student's process writes beyond that is never held.
    pub(crate) fn send(&mut self, request: &Request<'_>) -> Result<Sent, Death> {
        let line = request.line();
        let cap = match request {
            // The rule checker's findings on a very large file (the
            // checker reads the file; no student code runs in its process).
            Request::Lint { .. } => super::spawn::FIRST_LINE_CAP,
            Request::Call { .. } => {
                ANSWER_SLACK.saturating_add(line.len().saturating_mul(ANSWER_PER_BYTE))
            }
        };
        self.line_cap
            .store(cap, std::sync::atomic::Ordering::Relaxed);
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

    /// Waits for the answer to the request `sent`, until the
    /// program has used `deadline.cpu` of CPU time or `deadline.wall` has
    /// passed.
    pub(crate) fn wait(&mut self, sent: Sent, deadline: Deadline) -> CallEnd {
        let Sent { start, cpu_start } = sent;
        let used = |session: &Session| {
            let now = session.cpu.as_ref().and_then(CpuClock::read)?;
            Some(now.since(&cpu_start?))
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
                    let message = match Message::parse(&text) {
                        Ok(message) => message,
                        Err(e) => {
                            return CallEnd::Died(
                                self.kill_with_note(format!("sent a malformed answer: {e}")),
                            );
                        }
                    };
                    let (wall, cpu) = (start.elapsed(), used(self));
                    // Work spread over threads or children can pass the
                    // CPU deadline between two readings. Only tasks in
                    // parallel use CPU time faster than wall time, so an
                    // answer that did both is a timeout; a single
                    // thread's is never judged so.
                    if cpu.is_some_and(|c| c > deadline.cpu && c > wall) {
                        self.end();
                        return CallEnd::TimedOut { cpu: true };
                    }
                    return CallEnd::Answered { message, wall, cpu };
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

    pub(super) fn kill_with_note(&mut self, note: String) -> Death {
        self.end();
        Death {
            code: None,
            signal: None,
            note: Some(note),
            memory: self.out_of_memory(),
        }
    }

    /// Whether the memory cgroup killed something since the session started.
    pub(super) fn out_of_memory(&self) -> bool {
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
        self.cpu_at_end = self
            .cpu
            .as_ref()
            .and_then(CpuClock::read)
            .map(|r| r.whole());
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
        // The sandbox's PID 1 exits once everything in its namespace has:
        // woken at that moment, the reaps below find it at once (they
        // poll every few milliseconds).
        unix::await_exits(&self.inner_exits, REAP_PATIENCE);
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

    /// The CPU time the session's program has used (all of it once the
    /// session has ended); zero where no clock could be read.
    pub(crate) fn cpu_used(&self) -> Duration {
        let now = if self.finished {
            self.cpu_at_end
        } else {
            self.cpu
                .as_ref()
                .and_then(CpuClock::read)
                .map(|r| r.whole())
        };
        now.unwrap_or_default()
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

enum Waited {
    TimedOut,
    Died(Death),
}
