//! What running a student's code produced, as plain facts: the runner makes
//! these, `grading` judges them. A leaf module: it depends on nothing else
//! in salgrade, so the runner and the grading never depend on each other.

use nix::sys::signal::Signal;
use serde::{Deserialize, Serialize};

/// An exception raised by student code (or a compile-time error reported
/// like one), as the driver describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RaisedError {
    /// The exception's class name (`ValueError`, `SyntaxError`).
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub message: String,
    /// The line of the student's file where it was raised, when known.
    #[serde(default)]
    pub line: Option<u32>,
    /// The student's own frames, most recent last.
    #[serde(default)]
    pub traceback: String,
    /// The offending source line, for syntax errors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// What a call produced, as the driver reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum CallOutcome {
    /// The function returned; `answer` is the assignment adapter's
    /// description of the value, which the assignment decodes and judges.
    Returned { answer: serde_json::Value },
    /// The function raised.
    Raised {
        #[serde(flatten)]
        error: RaisedError,
    },
    /// The module has no such function.
    Missing,
}

/// The driver's reply to one call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Reply {
    pub outcome: CallOutcome,
    /// CPU time of the call itself, in milliseconds.
    #[serde(default)]
    pub cpu_ms: Option<f64>,
    /// How the call changed its input, if it did.
    #[serde(default)]
    pub input_changed: Option<String>,
}

/// How a process ended, as far as the runner could tell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Death {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    /// What the runner saw that the status does not say.
    pub note: Option<String>,
    /// The kernel killed a process of the session for the memory cgroup's limit.
    #[serde(default)]
    pub memory: bool,
}

impl Death {
    /// The signal that ended the process, when it has a name.
    pub(crate) fn named_signal(&self) -> Option<Signal> {
        self.signal.and_then(|s| Signal::try_from(s).ok())
    }

    /// Whether the process ran out of CPU time (the soft RLIMIT_CPU).
    pub(crate) fn out_of_cpu(&self) -> bool {
        self.named_signal() == Some(Signal::SIGXCPU)
    }

    pub(crate) fn describe(&self) -> String {
        let mut s = match (self.code, self.named_signal()) {
            _ if self.memory => {
                "was killed by the kernel for using more memory than allowed".to_owned()
            }
            (_, Some(Signal::SIGKILL)) => "was killed (SIGKILL)".to_owned(),
            (_, Some(Signal::SIGXCPU)) => "ran out of CPU time (SIGXCPU)".to_owned(),
            (_, Some(Signal::SIGXFSZ)) => "wrote a file larger than allowed (SIGXFSZ)".to_owned(),
            (_, Some(Signal::SIGSEGV)) => "crashed (segmentation fault, SIGSEGV)".to_owned(),
            (_, Some(Signal::SIGABRT)) => "aborted (SIGABRT)".to_owned(),
            (_, Some(sig)) => format!("was killed by {}", sig.as_str()),
            (Some(code), None) => format!("exited with code {code}"),
            (None, None) => match self.signal {
                Some(sig) => format!("was killed by signal {sig}"),
                None => "ended".to_owned(),
            },
        };
        if let Some(note) = &self.note {
            s.push_str(" (");
            s.push_str(note);
            s.push(')');
        }
        s
    }
}

/// Why no case of a submission could be put to its code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum ImportProblem {
    /// The module raised while importing (SyntaxError, ImportError, ...).
    Raised { error: RaisedError },
    /// The import did not finish within the import deadline.
    TimedOut { limit_ms: u64 },
    /// The process died while importing (`os._exit`, a crash, a kill).
    Died { death: Death },
    /// A compiled submission did not build.
    BuildFailed { failure: BuildFailure },
}

/// The raw outcome of one case: facts, no judgement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum RawOutcome {
    /// The driver answered.
    Answered {
        reply: Reply,
        wall_ms: u64,
        /// The CPU time of the student's process over the whole request
        /// (building the input and describing the result included), where
        /// the runner could read it: what CPU deadlines are measured in.
        process_cpu_us: Option<u64>,
    },
    /// The module has no such function.
    Missing,
    /// The case never ran because the module could not be imported.
    NotRun { problem: ImportProblem },
    /// No answer within `limit_ms` (twice, if `retried`), of CPU time when
    /// `cpu`, else of wall time (the backstop).
    TimedOut {
        limit_ms: u64,
        retried: bool,
        cpu: bool,
    },
    /// The process died during the call.
    Died { death: Death },
    /// Not run: the submission had used its whole budget (of CPU time when
    /// `cpu`, else of wall time), `limit_ms`, before this case.
    OverBudget { cpu: bool, limit_ms: u64 },
}

/// Why a submission did not build.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct BuildFailure {
    /// The first errors, `file:line:column: message`.
    pub errors: Vec<String>,
    /// What else happened, in words (a deadline, a signal, more errors).
    pub note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn died(code: Option<i32>, signal: Option<i32>) -> Death {
        Death {
            code,
            signal,
            note: None,
            memory: false,
        }
    }

    #[test]
    fn deaths_name_their_signal() {
        assert_eq!(
            died(None, Some(11)).describe(),
            "crashed (segmentation fault, SIGSEGV)"
        );
        assert_eq!(died(None, Some(15)).describe(), "was killed by SIGTERM");
        assert_eq!(died(Some(3), None).describe(), "exited with code 3");
        assert!(died(None, Some(24)).out_of_cpu());
    }

    #[test]
    fn a_reply_decodes_from_the_wire() {
        let r: Reply = serde_json::from_str(
            r#"{"outcome":{"kind":"raised","type":"ValueError","message":"x","line":3,"traceback":""},"cpu_ms":0.5,"input_changed":null}"#,
        )
        .unwrap();
        assert!(matches!(r.outcome, CallOutcome::Raised { ref error } if error.line == Some(3)));
    }
}
