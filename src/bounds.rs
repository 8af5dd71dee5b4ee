//! How large a case may be under the run's limits, checked before anything
//! runs, and which limit to raise when the model solution fails because of
//! one. Pure: no processes, no files.
//!
//! A board's size in squares is the assignment's to say
//! ([`Assignment::squares`](crate::assignment::Assignment::squares)).

use salgrade_reference::{Case, CaseFile};

use crate::runner::RunnerConfig;
use crate::verdict::{Verdict, VerdictKind};

/// Address space one square costs, counted generously: the driver builds the
/// linked list (about 400 bytes a node in CPython, measured), and a
/// student's function may build another (`dualboard`) or keep a visited
/// mark per node.
pub(crate) const BYTES_PER_SQUARE: u64 = 1000;

/// Beyond this no memory limit helps: building and walking the lists takes
/// minutes in Python.
pub(crate) const MAX_SQUARES: u64 = 10_000_000;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub(crate) enum BoundsError {
    #[error(
        "case `{case}` has a board of {squares} squares, more than the {max} supported; use a smaller board"
    )]
    TooLarge {
        case: String,
        squares: u64,
        max: u64,
    },
    #[error(
        "case `{case}` has a board of {squares} squares, more than the {fits} that fit in `--memory-mb {memory_mb}` (about 1 KB a square); raise `--memory-mb` or use a smaller board"
    )]
    TooLargeForMemory {
        case: String,
        squares: u64,
        fits: u64,
        memory_mb: u64,
    },
}

/// The first case whose board is beyond [`MAX_SQUARES`]. Run before the
/// reference checks the expected answers, which on such a board alone
/// would take seconds.
pub(crate) fn check_size(
    file: &CaseFile,
    squares: impl Fn(&Case) -> Option<u64>,
) -> Result<(), BoundsError> {
    check(file, u64::MAX, squares)
}

/// The first case whose board is too large at all, or for `memory_mb`.
pub(crate) fn check(
    file: &CaseFile,
    memory_mb: u64,
    squares_of: impl Fn(&Case) -> Option<u64>,
) -> Result<(), BoundsError> {
    let fits = memory_mb.saturating_mul(1024 * 1024) / BYTES_PER_SQUARE;
    for case in &file.cases {
        let Some(squares) = squares_of(case) else {
            continue;
        };
        if squares > MAX_SQUARES {
            return Err(BoundsError::TooLarge {
                case: case.id.clone(),
                squares,
                max: MAX_SQUARES,
            });
        }
        if squares > fits {
            return Err(BoundsError::TooLargeForMemory {
                case: case.id.clone(),
                squares,
                fits,
                memory_mb,
            });
        }
    }
    Ok(())
}

/// Python needs about this much address space just to start.
const PYTHON_START_MB: u64 = 64;

/// Why the model solution failed a case, when a limit of this run explains
/// it, as a sentence naming the flag to raise.
pub(crate) fn limit_to_raise(
    verdict: &Verdict,
    stderr: &str,
    runner: &RunnerConfig,
) -> Option<String> {
    let memory_mb = runner.limits.memory_mb;
    let out_of_memory = verdict.kind == VerdictKind::MemoryLimit || stderr.contains("MemoryError");
    if out_of_memory {
        return Some(format!(
            "it ran out of memory under `--memory-mb {memory_mb}`: raise `--memory-mb`, or use smaller boards"
        ));
    }
    let import_ms = runner.import_timeout.as_millis();
    match verdict.kind {
        VerdictKind::ImportFailed | VerdictKind::ProcessDied if memory_mb < PYTHON_START_MB => {
            Some(format!(
                "`--memory-mb {memory_mb}` is too little for Python to start (it needs about {PYTHON_START_MB} MiB): raise `--memory-mb`"
            ))
        }
        VerdictKind::ImportFailed
            if verdict
                .detail
                .as_deref()
                .is_some_and(|d| d.contains("longer than")) =>
        {
            Some(format!(
                "importing it took longer than `--import-timeout-ms {import_ms}`: raise `--import-timeout-ms`"
            ))
        }
        VerdictKind::Timeout => Some(format!(
            "it ran out of time (the calibration deadline, or `--cpu-seconds {}`): use smaller boards, or raise `--cpu-seconds`",
            runner.limits.cpu_seconds
        )),
        _ => None,
    }
}

/// The last non-empty line of `text` (a traceback's error), cut to `max`.
pub(crate) fn last_line(text: &str, max: usize) -> String {
    let line = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    line.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(case: &Case) -> Option<u64> {
        case.input["board"]["squares"].as_u64()
    }

    fn file(squares: u64) -> CaseFile {
        serde_json::from_value(serde_json::json!({
            "assignment": "a48",
            "cases": [{"id": "w1", "function": "willfinish",
                       "input": {"board": {"squares": squares, "snadders": []}, "args": [1]},
                       "expected": {"one_of": [true]}}]
        }))
        .unwrap()
    }

    #[test]
    fn boards_are_bounded_by_memory_and_absolutely() {
        assert_eq!(check(&file(6000), 1024, squares), Ok(()));
        assert!(matches!(
            check(&file(10_000_000), 1024, squares),
            Err(BoundsError::TooLargeForMemory { .. })
        ));
        assert!(matches!(
            check(&file(1_000_000_000), 1_000_000, squares),
            Err(BoundsError::TooLarge { .. })
        ));
        let msg = check(&file(10_000_000), 1024, squares)
            .unwrap_err()
            .to_string();
        assert!(msg.contains("`w1`") && msg.contains("--memory-mb"), "{msg}");
    }

    #[test]
    fn last_line_finds_the_error() {
        assert_eq!(
            last_line("Traceback:\n  x\nMemoryError\n\n", 100),
            "MemoryError"
        );
    }
}
