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
/// How long a zygote gets to fork a worker that copies its pages (a fork
/// refused for want of a task is retried for up to 3 s, while a killed
/// case's processes are reaped). Never a verdict either, and off every
/// case's clock: past it the next case gets a new process.
const FORK_GRACE: Duration = Duration::from_secs(5);
/// The most memory a zygote's worker is given beyond the run's limit for
/// the pages it copies from the zygote (the driver declines to fork above
/// 64 MiB resident).
const MAX_COPIED: u64 = 80 * 1024 * 1024;
/// The most of the zygote's own machinery (`ctypes` for the pre-copy)
/// added to that: a few hundred KiB in fact.
const MAX_OVERHEAD: u64 = 4 * 1024 * 1024;

/// What the session knows of its zygote.
pub(super) struct Zygote {
    /// The host PIDs a sweep leaves alive: the session cgroup's processes
    /// when the zygote said `ready`.
    keep: Vec<i32>,
    /// The zygote itself has gone (its channel closed): killed by the
    /// student's code, not by salgrade.
    lost: bool,
    /// The host PIDs of the running worker (the processes the session
    /// held beyond `keep` when it said `forked`, before any student code).
    worker: Vec<i32>,
    /// Makes each `resume`'s nonce.
    nonces: std::collections::hash_map::RandomState,
    resumes: u64,
}

impl Session {
    /// Makes this session, whose driver was started in `fork` mode and has
    /// just said `ready`, a zygote session, and has it fork its first
    /// worker. A forking driver needs the session's own cgroup: it is the
    /// only clock of the children's CPU time and the only list of what a
    /// case left running. `Ok(false)`: no worker came (the session is
    /// ended; the submission goes on without a zygote).
    pub(crate) fn adopt_zygote(&mut self, overhead: u64) -> Result<bool, SessionError> {
        // Read before the first worker exists, which must never be kept.
        let keep = self.cpu_group.as_ref().and_then(|g| g.procs());
        match keep {
            Some(keep) if !keep.is_empty() => {
                self.zygote = Some(Zygote {
                    keep,
                    lost: false,
                    worker: Vec::new(),
                    nonces: std::collections::hash_map::RandomState::new(),
                    resumes: 0,
                });
            }
            _ => {
                self.end();
                return Err(SessionError::Cgroup(
                    "a forking driver's session has no cgroup of its own to read".to_owned(),
                ));
            }
        }
        // The worker copies every page it shares with the zygote, which
        // the memory cgroup then counts twice: the slot's limit holds the
        // zygote's own pages on top (for the copy, what the zygote holds
        // now), so the worker has what a fresh process that imported the
        // file would.
        let zygote = self
            .cgroup
            .as_ref()
            .and_then(SlotGroup::anonymous_memory)
            .unwrap_or(0);
        self.extend_memory(zygote)?;
        if !self.resume() {
            self.end();
            return Ok(false);
        }
        // Then exactly: the zygote and the worker now hold the same pages
        // (the worker copied all it shared), about half of the slot's each;
        // and the worker holds the zygote's machinery (`overhead`), which a
        // fresh process would not: both go on top of the run's limit.
        let both = self
            .cgroup
            .as_ref()
            .and_then(SlotGroup::anonymous_memory)
            .unwrap_or(0);
        let extra = (both / 2).max(zygote) + overhead.min(MAX_OVERHEAD);
        self.extend_memory(extra)?;
        Ok(true)
    }

    /// Sets the slot's memory limit to the run's plus `extra` (at most
    /// [`MAX_COPIED`]); the session is ended when it cannot be.
    fn extend_memory(&mut self, extra: u64) -> Result<(), SessionError> {
        let Some(group) = &self.cgroup else {
            return Ok(());
        };
        group.extend_memory(extra.min(MAX_COPIED)).map_err(|e| {
            self.end();
            SessionError::Cgroup(e)
        })
    }

    /// Whether this session's zygote was killed by the student's code (its
    /// channel closed), rather than ended by salgrade.
    pub(crate) fn zygote_lost(&self) -> bool {
        self.zygote.as_ref().is_some_and(|z| z.lost)
    }

    /// Whether this session's zygote is stopped (a signal from the
    /// student's code: SIGSTOP, SIGTSTP...).
    pub(super) fn zygote_stopped(&self) -> bool {
        let Some(pid) = self.program.filter(|_| self.zygote.is_some()) else {
            return false;
        };
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            // The state follows the command's closing parenthesis.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .is_some_and(|state| state == "T" || state == "t")
        })
    }

    /// Whether a process of the current worker is still in the session.
    fn worker_runs(&self) -> bool {
        let (Some(z), Some(group)) = (&self.zygote, &self.cpu_group) else {
            return false;
        };
        group
            .procs()
            .is_some_and(|procs| procs.iter().any(|p| z.worker.contains(p)))
    }

    /// Notes that the channel of this session's zygote closed.
    pub(super) fn note_zygote_lost(&mut self) {
        if let Some(z) = &mut self.zygote {
            z.lost = true;
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
        if self.worker_runs() {
            // Only the zygote says `ended`, once its worker is gone: this
            // one came from the worker's own code.
            return self.kill_with_note(
                "sent a malformed answer: said that its process ended while it runs".to_owned(),
            );
        }
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

    /// Lets the zygote fork its next worker, and waits until that worker
    /// has copied its pages and reads calls; `false` when none will (the
    /// zygote is spent, or said anything else, or nothing in time).
    fn resume(&mut self) -> bool {
        use std::hash::BuildHasher;
        // The next worker's deaths are its own: a memory kill counted so far
        // is not one of them, as it is not for a fresh session.
        self.oom_baseline = self.cgroup.as_ref().map_or(0, SlotGroup::oom_kills);
        let Some(z) = &mut self.zygote else {
            return false;
        };
        z.resumes += 1;
        let nonce = z.nonces.hash_one((z.resumes, Instant::now()));
        let line = Request::Resume { nonce }.line();
        let sent = self
            .requests
            .as_ref()
            .is_some_and(|tx| tx.send(line).is_ok());
        if !sent {
            return false;
        }
        let until = Instant::now() + FORK_GRACE;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let Ok(Event::Line(line)) = self.events.recv_timeout(left) else {
                return false;
            };
            match Message::parse(&line) {
                Ok(Message::Forked { nonce: n }) if n == nonce => break,
                Ok(Message::Spent { .. }) => return false,
                // What a dead worker's processes wrote before the sweep.
                _ => {}
            }
        }
        let (Some(z), Some(group)) = (&mut self.zygote, &self.cpu_group) else {
            return false;
        };
        let Some(procs) = group.procs() else {
            return false;
        };
        z.worker = procs.into_iter().filter(|p| !z.keep.contains(p)).collect();
        true
    }
}
