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
//! {"type": "ready", "protocol": 3, "runtime": "Python 3.11.7",
//!  "functions": {"willfinish": true, "whowins": false}}
//! {"type": "import_failed", "error": ERROR}
//! ```
//!
//! `functions` says, for each function the assignment grades, whether the
//! student's module defines it. A `protocol` other than [`PROTOCOL`] is a
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
            Message::Ready { .. } | Message::Linted { .. } => {}
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
}
