//! Verdicts: what happened on one case, as data (never an error). A leaf
//! module: assignments make verdicts, grading and reports read them.

use serde::{Deserialize, Serialize};

/// The class of a case's outcome. docs/verdicts-and-deadlines.md lists them with their meaning.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub(crate) enum VerdictKind {
    Pass,
    WrongAnswer,
    InvalidStructure,
    ChangedInput,
    SharesInput,
    WrongType,
    Exception,
    Timeout,
    /// Not run: the submission had used up its whole time budget.
    OverBudget,
    MemoryLimit,
    ProcessDied,
    MissingFunction,
    ImportFailed,
    /// A compiled submission did not build (its first errors in the detail).
    BuildFailed,
    /// salgrade could not read an answer: a bug of ours, never the student's.
    HarnessError,
}

impl VerdictKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            VerdictKind::Pass => "pass",
            VerdictKind::WrongAnswer => "wrong_answer",
            VerdictKind::InvalidStructure => "invalid_structure",
            VerdictKind::ChangedInput => "changed_input",
            VerdictKind::SharesInput => "shares_input",
            VerdictKind::WrongType => "wrong_type",
            VerdictKind::Exception => "exception",
            VerdictKind::Timeout => "timeout",
            VerdictKind::OverBudget => "over_budget",
            VerdictKind::MemoryLimit => "memory_limit",
            VerdictKind::ProcessDied => "process_died",
            VerdictKind::MissingFunction => "missing_function",
            VerdictKind::ImportFailed => "import_failed",
            VerdictKind::BuildFailed => "build_failed",
            VerdictKind::HarnessError => "harness_error",
        }
    }

    /// One line a student can act on.
    pub(crate) fn hint(self) -> &'static str {
        match self {
            VerdictKind::Pass => "correct",
            VerdictKind::WrongAnswer => {
                "your function returned a different answer from the reference"
            }
            VerdictKind::InvalidStructure => {
                "the value you returned does not have the structure the handout asks for"
            }
            VerdictKind::ChangedInput => "your function must leave its input as it found it",
            VerdictKind::SharesInput => {
                "the value you returned must be built anew, not share parts of the input"
            }
            VerdictKind::WrongType => {
                "the value returned has the wrong type (see the rules for what is accepted)"
            }
            VerdictKind::Exception => "your function raised an exception",
            VerdictKind::Timeout => {
                "your function did not return in time: look for a loop that never ends"
            }
            VerdictKind::OverBudget => {
                "not run: your code had used up its whole time budget on earlier cases; fix the cases that time out or end the process first"
            }
            VerdictKind::MemoryLimit => "your function used more memory than allowed",
            VerdictKind::ProcessDied => {
                "the process running your code ended during the call (an exit, a crash or a signal)"
            }
            VerdictKind::MissingFunction => "the module does not define this function",
            VerdictKind::ImportFailed => {
                "the module could not be imported, so nothing in it could be run"
            }
            VerdictKind::BuildFailed => {
                "the file did not compile, so nothing in it could be run: fix the first error shown"
            }
            VerdictKind::HarnessError => {
                "salgrade could not read your function's answer: this is a salgrade bug, not yours; please report it"
            }
        }
    }
}

/// The judgement of one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub(crate) struct Verdict {
    #[serde(rename = "verdict")]
    pub kind: VerdictKind,
    /// What was accepted, in words (for wrong answers and types).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What the student's code produced, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub got: Option<String>,
    /// Anything else: the exception, the structural defect, how it died.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// A line of the student's file, when one is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl Verdict {
    pub(crate) fn new(kind: VerdictKind) -> Verdict {
        Verdict {
            kind,
            expected: None,
            got: None,
            detail: None,
            line: None,
        }
    }

    pub(crate) fn pass() -> Verdict {
        Verdict::new(VerdictKind::Pass)
    }

    pub(crate) fn detail(kind: VerdictKind, detail: impl Into<String>) -> Verdict {
        Verdict {
            detail: Some(detail.into()),
            ..Verdict::new(kind)
        }
    }

    pub(crate) fn wrong(
        kind: VerdictKind,
        expected: impl Into<String>,
        got: impl Into<String>,
    ) -> Verdict {
        Verdict {
            expected: Some(expected.into()),
            got: Some(got.into()),
            ..Verdict::new(kind)
        }
    }

    /// A failure of salgrade itself, reported as such on the case.
    pub(crate) fn harness(detail: impl Into<String>) -> Verdict {
        Verdict::detail(VerdictKind::HarnessError, detail)
    }

    pub(crate) fn passed(&self) -> bool {
        self.kind == VerdictKind::Pass
    }
}

/// The verdict on an answer whose description, made in the student's own
/// process, cannot be decoded: the value defeated the description (a type
/// whose `__name__` is not a string), so it is the student's `wrong_type`,
/// never `harness_error`, whatever the value was.
pub(crate) fn undescribable_answer(e: &serde_json::Error) -> Verdict {
    Verdict::detail(
        VerdictKind::WrongType,
        format!("your function returned a value whose type could not be described ({e})"),
    )
}
