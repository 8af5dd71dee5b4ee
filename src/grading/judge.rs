//! Judging a raw outcome: what every assignment shares (missing functions,
//! exceptions, timeouts, deaths, import failures, a changed input), then the
//! assignment's own judgement of the answer.

use salgrade_reference::Case;

use crate::assignment::Assignment;
use crate::outcome::{CallOutcome, ImportProblem, RaisedError, RawOutcome};
use crate::verdict::{Verdict, VerdictKind};

pub(crate) fn judge(assignment: &dyn Assignment, case: &Case, outcome: &RawOutcome) -> Verdict {
    match outcome {
        RawOutcome::Answered { reply, .. } => match &reply.outcome {
            CallOutcome::Returned { answer } => {
                let verdict = assignment.judge_answer(case, answer);
                match &reply.input_changed {
                    Some(what) if verdict.passed() => {
                        Verdict::detail(VerdictKind::ChangedInput, what.clone())
                    }
                    _ => verdict,
                }
            }
            CallOutcome::Raised { error } => raised(error),
            CallOutcome::Missing => missing(assignment, case),
        },
        RawOutcome::Missing => missing(assignment, case),
        RawOutcome::NotRun { problem } => import_verdict(problem),
        RawOutcome::TimedOut {
            limit_ms,
            retried,
            cpu,
        } => Verdict::detail(
            VerdictKind::Timeout,
            format!(
                "no answer within {limit_ms} ms{}{}",
                if *cpu { " of CPU time" } else { "" },
                if *retried {
                    " (tried twice, in fresh processes)"
                } else {
                    ""
                }
            ),
        ),
        RawOutcome::OverBudget { cpu, limit_ms } => Verdict::detail(
            VerdictKind::OverBudget,
            format!(
                "not run: the submission's processes had used {} of {} s, its whole budget, on earlier cases",
                if *cpu { "CPU time" } else { "wall time" },
                limit_ms / 1000
            ),
        ),
        RawOutcome::Died { death } => Verdict::detail(
            if death.out_of_cpu() {
                VerdictKind::Timeout
            } else if death.memory {
                VerdictKind::MemoryLimit
            } else {
                VerdictKind::ProcessDied
            },
            format!("the process {}", death.describe()),
        ),
    }
}

fn missing(assignment: &dyn Assignment, case: &Case) -> Verdict {
    let mut detail = format!(
        "the file defines no `{}` with the name and parameters the handout gives",
        case.function
    );
    if let Some(signature) = assignment.signature(&case.function) {
        detail.push_str(&format!(": {signature}"));
    }
    Verdict::detail(VerdictKind::MissingFunction, detail)
}

/// An exception the student's function raised.
fn raised(error: &RaisedError) -> Verdict {
    // Python's MemoryError and C++'s std::bad_alloc: the memory limit.
    let kind = if error.kind == "MemoryError" || error.kind == "std::bad_alloc" {
        VerdictKind::MemoryLimit
    } else {
        VerdictKind::Exception
    };
    let mut detail = if error.message.is_empty() {
        error.kind.clone()
    } else {
        format!("{}: {}", error.kind, error.message)
    };
    if error.kind == "RecursionError" {
        detail.push_str(" (Python allows about 1000 nested calls; large inputs need a loop)");
    }
    if !error.traceback.is_empty() {
        detail.push('\n');
        detail.push_str(&error.traceback);
    }
    Verdict {
        line: error.line,
        ..Verdict::detail(kind, detail)
    }
}

/// The verdict for every case of a module that could not be imported.
pub(crate) fn import_verdict(problem: &ImportProblem) -> Verdict {
    match problem {
        ImportProblem::Raised { error } => {
            let mut detail = format!("{}: {}", error.kind, error.message);
            if let Some(l) = error.line {
                detail.push_str(&format!(" (line {l})"));
            }
            if let Some(src) = error.text.as_deref().filter(|t| !t.trim().is_empty()) {
                detail.push_str(&format!("\n    {}", src.trim()));
            }
            Verdict {
                line: error.line,
                ..Verdict::detail(VerdictKind::ImportFailed, detail)
            }
        }
        ImportProblem::TimedOut { limit_ms } => Verdict::detail(
            VerdictKind::ImportFailed,
            format!(
                "importing the module took longer than {limit_ms} ms (code at module level runs at import)"
            ),
        ),
        ImportProblem::Died { death } => Verdict::detail(
            VerdictKind::ImportFailed,
            format!(
                "the process {} while importing the module",
                death.describe()
            ),
        ),
        ImportProblem::BuildFailed { failure } => {
            let mut lines = failure.errors.clone();
            lines.extend(failure.note.clone());
            Verdict {
                line: failure.errors.first().and_then(|e| line_of(e)),
                ..Verdict::detail(VerdictKind::BuildFailed, lines.join("\n"))
            }
        }
    }
}

/// The line of a `file:line:column: message` diagnostic.
fn line_of(diagnostic: &str) -> Option<u32> {
    diagnostic.split(':').nth(1)?.parse().ok()
}
