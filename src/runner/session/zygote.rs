//! A session whose driver is a zygote: it imported the student's module once
//! and forked one worker from that state, which answers case after case (see
//! the protocol's `ended` and `resume`). Here the session learns that the
//! worker ended, and stops a case at its deadline without stopping the
//! zygote: everything in the session's cgroup but the processes that were
//! there when the zygote said `ready` (the sandbox's own, the zygote, and
//! whatever the student's import left running) is killed, until nothing
//! else is left. The zygote drops every request until `resume`, and forks
//! a new worker only for what follows, so nothing of the next case can be
//! killed by mistake. Nothing in the sandbox is trusted more than before: a zygote
//! that does not say in time that a stopped worker ended, or a sweep that
//! does not empty the cgroup, ends the whole session as before.

use std::time::{Duration, Instant};

use super::{Event, Session, SessionError};
use crate::outcome::Death;
use crate::runner::cgroup::SlotGroup;
use crate::runner::protocol::{Message, Request};
use crate::runner::sandbox::SandboxKind;
use crate::runner::unix;

/// How long a zygote gets to say how a case it was told to stop ended.
/// Never a verdict: past it the whole session ends, as without a zygote.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// What the session knows of its zygote.
pub(super) struct Zygote {
    /// The host PIDs a sweep leaves alive: the session cgroup's processes
    /// when the zygote said `ready`.
    keep: Vec<i32>,
}

impl Session {
    /// Makes this session, whose driver was started in `fork` mode and has
    /// just said `ready`, a zygote session. A forking driver needs the
    /// session's own cgroup: it is the only clock of the children's CPU
    /// time and the only list of what a case left running.
    pub(crate) fn adopt_zygote(&mut self) -> Result<(), SessionError> {
        let keep = self.cpu_group.as_ref().and_then(|g| g.procs());
        match keep {
            Some(keep) if !keep.is_empty() => {
                self.zygote = Some(Zygote { keep });
                Ok(())
            }
            _ => {
                self.end();
                Err(SessionError::Cgroup(
                    "a forking driver's session has no cgroup of its own to read".to_owned(),
                ))
            }
        }
    }

    /// The driver was started as a zygote but answers the calls itself (the
    /// student's import left threads running): the slot's process cap goes
    /// back to the student's `processes` (the driver lowers its own
    /// RLIMIT_NPROC).
    pub(crate) fn zygote_declined(&mut self, processes: u64) -> Result<(), SessionError> {
        match &self.cgroup {
            Some(group) => group.cap_processes(processes).map_err(|e| {
                self.end();
                SessionError::Cgroup(e)
            }),
            None => Ok(()),
        }
    }

    /// Whether the session's process still runs (it was not ended).
    pub(crate) fn is_live(&self) -> bool {
        !self.finished
    }

    pub(crate) fn is_zygote(&self) -> bool {
        self.zygote.is_some()
    }

    /// The worker's death, from the zygote's `ended`; the zygote is
    /// brought back to a clean state (what the worker left is killed, then
    /// `resume`), or the session is ended when it cannot be.
    pub(super) fn worker_ended(&mut self, message: Message) -> Death {
        let Message::Ended { code, signal, note } = message else {
            return self.kill_with_note("sent an unexpected message".to_owned());
        };
        let death = Death {
            code,
            signal,
            note,
            memory: self.out_of_memory(),
        };
        if !self.clear_and_resume() {
            self.end();
        }
        death
    }

    /// Stops the worker running `case` at its deadline and brings the
    /// zygote back to a clean state; `false` when it could not (the caller
    /// then ends the session).
    pub(super) fn stop_case(&mut self, case: &str) -> bool {
        if !self.sweep() {
            return false;
        }
        let until = Instant::now() + STOP_GRACE;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let Ok(Event::Line(line)) = self.events.recv_timeout(left) else {
                return false;
            };
            match Message::parse(&line) {
                // The case answered too late; the worker's end follows.
                Ok(Message::Result { case: id, .. }) if id == case => {}
                Ok(Message::Ended { .. }) => return self.resume(),
                _ => return false,
            }
        }
    }

    /// Kills what an ended case left, then lets the zygote go on.
    fn clear_and_resume(&mut self) -> bool {
        self.sweep() && self.resume()
    }

    /// Kills every process of the session but those kept.
    fn sweep(&mut self) -> bool {
        let (Some(z), Some(group)) = (&self.zygote, &self.cpu_group) else {
            return false;
        };
        let Some(killed) = group.kill_all_but(&z.keep) else {
            return false;
        };
        // Outside a PID namespace a killed process's orphans come back to
        // salgrade (a subreaper) to be reaped; inside, its init reaps them.
        if self.sandbox == SandboxKind::Rlimit && !killed.is_empty() {
            unix::reap_pids(&killed);
        }
        true
    }

    fn resume(&mut self) -> bool {
        // The next worker's deaths are its own: a memory kill counted so far
        // is not one of them, as it is not for a fresh session.
        self.oom_baseline = self.cgroup.as_ref().map_or(0, SlotGroup::oom_kills);
        let line = Request::Resume.line();
        self.requests
            .as_ref()
            .is_some_and(|tx| tx.send(line).is_ok())
    }
}
