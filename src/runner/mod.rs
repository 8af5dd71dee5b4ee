//! The sandboxed runner: runs one submission's cases in driver processes and
//! returns raw facts per case. It judges nothing (that is `grading`), and it
//! is the only part of salgrade that starts processes.
//!
//! One process serves a whole submission. When a case times out or the
//! process dies, the process group is killed, the case gets its outcome, and
//! a fresh process carries on with the next case, so one broken function
//! never costs the others their marks. The first timeout of a submission is
//! retried once in a fresh process before it is believed.

pub(crate) mod capture;
pub(crate) mod lint;
pub(crate) mod sandbox;
pub(crate) mod session;
pub(crate) mod unix;

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::assignment::Assignment;
use capture::Captured;
pub(crate) use lint::{ContainerRule, LintRun, lint_source};
use salgrade_reference::Case;
pub(crate) use sandbox::{Limits, Python, SandboxKind};
use session::{CallEnd, Session, SessionFile, Started};
pub(crate) use session::{Death, RunnerConfig, SessionError};

/// The driver's file name inside the session folder.
const DRIVER_NAME: &str = "_salgrade_driver.py";
const DRIVER_PY: &str = include_str!("driver.py");

/// Why no case of a submission could be put to its code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum ImportProblem {
    /// The module raised while importing (SyntaxError, ImportError, ...).
    Raised { error: serde_json::Value },
    /// The import did not finish within the import deadline.
    TimedOut { limit_ms: u64 },
    /// The process died while importing (`os._exit`, a crash, a kill).
    Died { death: Death },
}

/// The raw outcome of one case: facts, no judgement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum RawOutcome {
    /// The driver answered; `message` is its `result` line.
    Answered {
        message: serde_json::Value,
        wall_ms: u64,
    },
    /// The module has no such function.
    Missing,
    /// The case never ran because the module could not be imported.
    NotRun { problem: ImportProblem },
    /// No answer within `limit_ms` (twice, if `retried`).
    TimedOut { limit_ms: u64, retried: bool },
    /// The process died during the call.
    Died { death: Death },
}

/// Everything the runner learned about one submission.
#[derive(Debug, Clone)]
pub(crate) struct SubmissionRun {
    pub outcomes: Vec<RawOutcome>,
    pub stdout: Captured,
    pub stderr: Captured,
}

/// Runs `cases` against `source` (the student's file contents).
pub(crate) fn run_submission(
    cfg: &RunnerConfig,
    assignment: &dyn Assignment,
    source: &[u8],
    cases: &[Case],
    deadlines: &[Duration],
    slot: usize,
) -> Result<SubmissionRun, SessionError> {
    unix::become_subreaper();
    let support = assignment.support_files();
    let mut files: Vec<SessionFile<'_>> = support
        .iter()
        .map(|(name, text)| SessionFile {
            name,
            contents: text.as_bytes(),
        })
        .collect();
    files.push(SessionFile {
        name: assignment.student_file(),
        contents: source,
    });
    files.push(SessionFile {
        name: DRIVER_NAME,
        contents: DRIVER_PY.as_bytes(),
    });

    let mut run = SubmissionRun {
        outcomes: Vec::with_capacity(cases.len()),
        stdout: Captured::default(),
        stderr: Captured::default(),
    };
    let mut current: Option<(Session, BTreeMap<String, bool>)> = None;
    let mut broken: Option<ImportProblem> = None;
    let mut timeout_confirmed = false;

    for (case, &deadline) in cases.iter().zip(deadlines) {
        if let Some(problem) = &broken {
            run.outcomes.push(RawOutcome::NotRun {
                problem: problem.clone(),
            });
            continue;
        }
        let mut attempt = 0;
        let outcome = loop {
            attempt += 1;
            if current.is_none() {
                match start(cfg, &files, slot, &mut run)? {
                    Ok(ready) => current = Some(ready),
                    Err(problem) => {
                        broken = Some(problem.clone());
                        break RawOutcome::NotRun { problem };
                    }
                }
            }
            let Some((session, functions)) = current.as_mut() else {
                unreachable!("started above")
            };
            if !functions.get(&case.function).copied().unwrap_or(false) {
                break RawOutcome::Missing;
            }
            let request = assignment.request(case);
            match session.call(&request, deadline) {
                CallEnd::Answered { message, wall } => {
                    break RawOutcome::Answered {
                        message,
                        wall_ms: wall.as_millis() as u64,
                    };
                }
                CallEnd::TimedOut => {
                    finish(&mut current, &mut run, cfg.output_cap);
                    if timeout_confirmed || attempt > 1 {
                        timeout_confirmed = true;
                        break RawOutcome::TimedOut {
                            limit_ms: deadline.as_millis() as u64,
                            retried: attempt > 1,
                        };
                    }
                }
                CallEnd::Died(death) => {
                    finish(&mut current, &mut run, cfg.output_cap);
                    break RawOutcome::Died { death };
                }
            }
        };
        run.outcomes.push(outcome);
    }
    finish(&mut current, &mut run, cfg.output_cap);
    Ok(run)
}

type Ready = (Session, BTreeMap<String, bool>);

fn start(
    cfg: &RunnerConfig,
    files: &[SessionFile<'_>],
    slot: usize,
    run: &mut SubmissionRun,
) -> Result<Result<Ready, ImportProblem>, SessionError> {
    let (mut session, started) = Session::start(cfg, files, DRIVER_NAME, slot)?;
    let problem = match started {
        Started::Ready { functions } => return Ok(Ok((session, functions))),
        Started::ImportFailed(error) => ImportProblem::Raised { error },
        Started::ImportTimedOut => ImportProblem::TimedOut {
            limit_ms: cfg.import_timeout.as_millis() as u64,
        },
        Started::Died(death) => ImportProblem::Died { death },
    };
    session.end();
    collect_output(&session, run, cfg.output_cap);
    Ok(Err(problem))
}

fn finish(current: &mut Option<Ready>, run: &mut SubmissionRun, cap: usize) {
    if let Some((mut session, _)) = current.take() {
        session.end();
        collect_output(&session, run, cap);
    }
}

fn collect_output(session: &Session, run: &mut SubmissionRun, cap: usize) {
    let (out, err) = session.output();
    run.stdout.append(&out, cap);
    run.stderr.append(&err, cap);
}
