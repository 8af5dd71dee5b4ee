//! The wire format between the runner and the programs it starts inside the
//! sandbox (the Python driver, the rule checker), typed once here. Nothing
//! else in salgrade reads or writes these lines.
//!
//! # Transport
//! Two private pipes handed to the program as file descriptors (never stdin
//! or stdout, which belong to the student's code and are only captured).
//! One JSON object per line, at most 64 MiB a line, UTF-8.
//!
//! # Messages
//! Program → runner, first and once:
//!
//! ```text
//! {"type": "ready", "protocol": 2, "runtime": "Python 3.11.7",
//!  "functions": {"willfinish": true, "whowins": false}, "forking": true}
//! {"type": "import_failed", "error": ERROR}
//! ```
//!
//! `functions` says, for each function the assignment grades, whether the
//! student's module defines it. `forking` (absent: false) says that a driver
//! started in `fork` mode is a zygote (below); it answers the calls itself,
//! as in `single` mode, when a fork would not be what a fresh process is
//! (the import left threads, open files, much memory or many files, or
//! code that would run in the zygote later). A `protocol` other than [`PROTOCOL`] is a
//! harness error (an old driver beside a new binary).
//!
//! Runner → program, then one answer each:
//!
//! ```text
//! {"type": "call", "case": ID, "function": NAME, "input": INPUT}
//!   → {"type": "result", "case": ID, "outcome": OUTCOME,
//!      "cpu_ms": F, "input_changed": null | TEXT}
//! {"type": "lint", "file": NAME, "checked": [NAME...], "exempt": [NAME...]}
//!   → {"type": "linted", "findings": [FINDING...]}
//!   | {"type": "unreadable", "error": TEXT}
//! ```
//!
//! A driver started in `fork` mode (a zygote) forks one worker from its
//! post-import state at each `resume`, the first one right after `ready`.
//! The worker copies the pages it shares with the zygote, says `forked`,
//! then reads the calls and sends the `result`s itself, while the zygote
//! only waits for its end. When the worker ends (it died, or the runner
//! killed it at a deadline) the zygote says how:
//!
//! ```text
//! {"type": "resume", "nonce": N}
//!   → {"type": "forked", "nonce": N}
//!   | {"type": "spent", "why": TEXT}
//!   ... calls and results, until the worker ends ...
//!   → {"type": "ended", "code": N | null, "signal": N | null, "note": null}
//! ```
//!
//! `code` is the worker's exit code and `signal` the signal that killed it.
//! The zygote does not know which call the worker was on, nor which it had
//! read; the runner does (the one it awaits). After an `ended` the zygote
//! reads and drops every request until `resume` (a line that begins exactly
//! as above), which the runner sends once it has killed whatever the worker
//! left in the session's cgroup, and waits for the `forked` that repeats
//! the `resume`'s random nonce before it sends again what was not
//! answered: lines a dead worker's processes wrote before the sweep
//! (a forged `forked`) cannot know it, and are dropped. An `ended` while
//! the worker still runs is forged by the worker: its case dies, as for
//! any message out of turn. `spent` says that the zygote exited
//! instead of forking: the places a student can write differ from what
//! they were after the import, or no process could start. The runner then
//! starts a new process, as without a zygote.
//!
//! `INPUT` is the case's input exactly as in the case file; the assignment's
//! adapter turns it into arguments. `OUTCOME` is
//! [`CallOutcome`](crate::outcome::CallOutcome): `{"kind": "returned",
//! "answer": ANSWER}` where `ANSWER` is the adapter's description of the
//! returned value (decoded and judged by the assignment, never here),
//! `{"kind": "raised", "type", "message", "line", "traceback"}`, or
//! `{"kind": "missing"}`. `ERROR` is a
//! [`RaisedError`](crate::outcome::RaisedError). The driver never sees the
//! expected answers.
//!
//! A line that is not one of these messages ends the program: the case gets
//! a `process_died` verdict naming the malformed line (student code that
//! finds the private descriptors can only spoil its own result).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::outcome::{CallOutcome, RaisedError, Reply};
use crate::shown;

/// The protocol version this runner speaks.
pub(crate) const PROTOCOL: u32 = 2;

/// Runner → program.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Request<'a> {
    Call {
        case: &'a str,
        function: &'a str,
        input: &'a serde_json::Value,
    },
    Lint {
        file: &'a str,
        checked: &'a [&'a str],
        exempt: &'a [&'a str],
    },
    /// Lets a zygote that holds its calls after a failed child go on;
    /// its new worker's `forked` repeats the nonce.
    Resume { nonce: u64 },
}

/// Program → runner.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Message {
    /// `runtime` (the interpreter's version, for people reading a log) is
    /// not needed by the runner, which resolved the interpreter itself.
    Ready {
        protocol: u32,
        functions: BTreeMap<String, bool>,
        #[serde(default)]
        forking: bool,
        /// Bytes of anonymous memory a zygote's own machinery holds (set
        /// up before the student's import), which each worker copies.
        #[serde(default)]
        overhead: u64,
    },
    ImportFailed {
        error: RaisedError,
    },
    Result {
        case: String,
        #[serde(flatten)]
        reply: Reply,
    },
    Linted {
        findings: serde_json::Value,
    },
    Unreadable {
        error: String,
    },
    /// A zygote's new worker, forked at `resume`, has copied the pages it
    /// shares with the zygote and reads calls now.
    Forked {
        nonce: u64,
    },
    /// A zygote that will fork no more (the places a student writes
    /// changed since the import, or no process could start): it has
    /// exited, and the next case needs a new process.
    Spent {
        why: Option<String>,
    },
    /// A zygote's worker has ended (see the module doc).
    Ended {
        code: Option<i32>,
        signal: Option<i32>,
        note: Option<String>,
    },
}

impl Request<'_> {
    /// The request as one protocol line.
    pub(crate) fn line(&self) -> Vec<u8> {
        // Serialising these plain structs cannot fail; an empty line would
        // be answered as malformed rather than hang.
        let mut line = serde_json::to_vec(self).unwrap_or_default();
        line.push(b'\n');
        line
    }
}

impl Message {
    pub(crate) fn parse(line: &str) -> Result<Message, serde_json::Error> {
        let mut message: Message = serde_json::from_str(line)?;
        message.bound();
        Ok(message)
    }

    /// Caps and escapes every student-controlled string (exception type
    /// names, messages, tracebacks, the strings of an answer's
    /// description) as it enters salgrade, so that a 2 MiB class name
    /// costs a few kilobytes of the report and no raw control byte reaches
    /// a terminal.
    fn bound(&mut self) {
        match self {
            Message::ImportFailed { error } => error.bound(),
            Message::Result { reply, .. } => {
                match &mut reply.outcome {
                    CallOutcome::Raised { error } => error.bound(),
                    CallOutcome::Returned { answer } => bound_value(answer),
                    CallOutcome::Missing => {}
                }
                if let Some(changed) = reply.input_changed.take() {
                    reply.input_changed = Some(shown::entering(changed, MAX_STRING));
                }
            }
            Message::Unreadable { error } => {
                *error = shown::entering(std::mem::take(error), MAX_STRING);
            }
            Message::Ended { note, .. } => {
                if let Some(text) = note.take() {
                    *note = Some(shown::entering(text, MAX_STRING));
                }
            }
            Message::Spent { why } => {
                if let Some(text) = why.take() {
                    *why = Some(shown::entering(text, MAX_STRING));
                }
            }
            Message::Ready { .. } | Message::Linted { .. } | Message::Forked { .. } => {}
        }
    }
}

/// The longest student string kept (bytes), but tracebacks.
pub(crate) const MAX_STRING: usize = 2000;
/// The longest traceback kept (bytes).
pub(crate) const MAX_TRACEBACK: usize = 4000;

impl RaisedError {
    fn bound(&mut self) {
        self.kind = shown::entering(std::mem::take(&mut self.kind), 200);
        self.message = shown::entering(std::mem::take(&mut self.message), MAX_STRING);
        self.traceback = shown::entering(std::mem::take(&mut self.traceback), MAX_TRACEBACK);
        if let Some(text) = self.text.take() {
            self.text = Some(shown::entering(text, 400));
        }
    }
}

/// The longest string of an answer's description kept (bytes): far beyond
/// any answer an assignment judges, so that capping never changes a
/// verdict, and still bounded.
pub(crate) const MAX_ANSWER_STRING: usize = 64 * 1024;

/// Caps and escapes every string in an answer's description.
fn bound_value(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(s) => *s = shown::entering(std::mem::take(s), MAX_ANSWER_STRING),
        serde_json::Value::Array(items) => items.iter_mut().for_each(bound_value),
        serde_json::Value::Object(map) => map.values_mut().for_each(bound_value),
        _ => {}
    }
}

/// How checking one file went.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LintRun {
    /// The checker's `findings` array (possibly empty).
    Findings(serde_json::Value),
    /// The file could not be checked (a syntax error, most often).
    Unreadable(String),
}

impl LintRun {
    /// The checker's answer, from its message; `None` for any other message.
    pub(crate) fn from_message(message: Message) -> Option<LintRun> {
        match message {
            Message::Linted { findings } => Some(LintRun::Findings(findings)),
            Message::Unreadable { error } => Some(LintRun::Unreadable(error)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_one_line_of_json() {
        let input = serde_json::json!({"move": [-1, -1]});
        let line = Request::Call {
            case: "c/1",
            function: "f",
            input: &input,
        }
        .line();
        assert_eq!(
            String::from_utf8(line).unwrap(),
            "{\"type\":\"call\",\"case\":\"c/1\",\"function\":\"f\",\"input\":{\"move\":[-1,-1]}}\n"
        );
    }

    #[test]
    fn messages_decode_and_reject_strangers() {
        let m = Message::parse(r#"{"type":"result","case":"a","outcome":{"kind":"returned","answer":{"v":1}},"cpu_ms":1.5,"input_changed":null}"#).unwrap();
        assert!(
            matches!(m, Message::Result { reply, .. } if matches!(reply.outcome, CallOutcome::Returned { .. }))
        );
        assert!(Message::parse(r#"{"type":"result","case":"a"}"#).is_err());
        assert!(Message::parse(r#"{"type":"hello"}"#).is_err());
        assert!(Message::parse(r#"{"type":"ready","protocol":2,"functions":{"f":true}}"#).is_ok());
    }

    #[test]
    fn a_zygotes_fork_and_its_end_decode() {
        assert!(matches!(
            Message::parse(r#"{"type":"forked","nonce":42}"#),
            Ok(Message::Forked { nonce: 42 })
        ));
        assert!(Message::parse(r#"{"type":"forked"}"#).is_err());
        let long = "y".repeat(50_000);
        let Ok(Message::Spent { why: Some(why) }) =
            Message::parse(&format!(r#"{{"type":"spent","why":"{long}"}}"#))
        else {
            panic!("not a spent zygote")
        };
        assert!(why.len() < MAX_STRING + 100);
        let ready =
            r#"{"type":"ready","protocol":2,"functions":{},"forking":true,"overhead":4096}"#;
        assert!(matches!(
            Message::parse(ready),
            Ok(Message::Ready {
                forking: true,
                overhead: 4096,
                ..
            })
        ));
    }

    #[test]
    fn a_zygotes_end_of_case_decodes_with_its_note_bounded() {
        let long = format!(r"\u001b{}", "x".repeat(50_000));
        let line = format!(r#"{{"type":"ended","code":null,"signal":9,"note":"{long}"}}"#);
        let Ok(Message::Ended {
            code,
            signal,
            note: Some(note),
        }) = Message::parse(&line)
        else {
            panic!("not an end of case")
        };
        assert_eq!((code, signal), (None, Some(9)));
        assert!(
            note.len() < MAX_STRING + 100 && !note.contains('\u{1b}'),
            "{note}"
        );
        assert_eq!(
            String::from_utf8(Request::Resume { nonce: 7 }.line()).unwrap(),
            "{\"type\":\"resume\",\"nonce\":7}\n"
        );
        // The zygote tells a call from `resume` by this prefix alone.
        let input = serde_json::json!({"board": [1, 2]});
        let call = Request::Call {
            case: "a",
            function: "f",
            input: &input,
        };
        assert!(call.line().starts_with(br#"{"type":"call""#));
    }
}
