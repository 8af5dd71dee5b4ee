//! A session whose driver is a zygote: it imported the student's module once
//! and runs each case in a child forked from that state (see the protocol's
//! `ended` and `resume`). Here the session learns how each child ended, and
//! stops a case at its deadline without stopping the zygote: everything in
//! the session's cgroup but the processes that were there when the zygote
//! said `ready` (the sandbox's own, the zygote, and whatever the student's
//! import left running) is killed, until nothing else is left. The zygote
//! holds further calls until `resume`, so nothing of the next case can be
//! killed by mistake. Nothing in the sandbox is trusted more than before:
//! a zygote that does not say in time how a stopped case ended, or a sweep
//! that does not empty the cgroup, ends the whole session as before.

use std::time::{Duration, Instant};

use super::{Event, Session, SessionError};
use crate::outcome::Death;
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
    /// The case that answered and whose `ended` is still to come.
    owed: Option<String>,
}

/// What an `ended` read while waiting for a case says.
pub(super) enum EndedCase {
    /// The case before it ended; wait on.
    Earlier,
    /// The awaited case ended without answering.
    This(Death),
    /// The zygote could not be brought back to a clean state, or named a
    /// case it was not running: the session has ended.
    Broken(Death),
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
                self.zygote = Some(Zygote { keep, owed: None });
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

    /// Whether the session's process still runs (it was not ended).
    pub(crate) fn is_live(&self) -> bool {
        !self.finished
    }

    pub(crate) fn is_zygote(&self) -> bool {
        self.zygote.is_some()
    }

    /// Notes that `case` answered: its child's `ended` comes next.
    pub(super) fn answered(&mut self, case: &str) {
        if let Some(z) = &mut self.zygote {
            z.owed = Some(case.to_owned());
        }
    }

    /// Whether the zygote went away between two cases: the case before
    /// answered and its `ended` never came, so the case awaited was never
    /// forked and its process did not fail.
    pub(super) fn lost_between_cases(&self) -> bool {
        self.zygote.as_ref().is_some_and(|z| z.owed.is_some())
    }

    /// An `ended` read while waiting for `case`.
    pub(super) fn case_ended(&mut self, message: Message, case: &str) -> EndedCase {
        let Message::Ended {
            case: id,
            code,
            signal,
            note,
            held,
        } = message
        else {
            return EndedCase::Broken(self.kill_with_note("sent an unexpected message".to_owned()));
        };
        let owed = self.zygote.as_mut().and_then(|z| z.owed.take());
        let earlier = owed.as_deref() == Some(id.as_str());
        if !earlier && id != case {
            return EndedCase::Broken(
                self.kill_with_note(format!("said that a case it was not running ended: {id}")),
            );
        }
        let death = Death {
            code,
            signal,
            note,
            memory: self.out_of_memory(),
        };
        if held && !self.clear_and_resume() {
            self.end();
            return EndedCase::Broken(death);
        }
        if earlier {
            EndedCase::Earlier
        } else {
            EndedCase::This(death)
        }
    }

    /// Stops the running `case` at its deadline and brings the zygote back
    /// to a clean state; `false` when it could not (the caller then ends
    /// the session).
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
                // The case answered too late; its end follows.
                Ok(Message::Result { case: id, .. }) if id == case => {}
                Ok(Message::Ended { case: id, held, .. }) if id == case => {
                    // Not held: the child exited by itself as it was being
                    // killed, and the zygote may already have forked the
                    // next case, which the sweep may have killed.
                    return held && self.resume();
                }
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
        let line = Request::Resume.line();
        self.requests
            .as_ref()
            .is_some_and(|tx| tx.send(line).is_ok())
    }
}
