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
pub(crate) mod cgroup;
pub(crate) mod lint;
pub(crate) mod protocol;
pub(crate) mod sandbox;
pub(crate) mod session;
pub(crate) mod setup;
#[expect(
    unsafe_code,
    reason = "pre_exec, setrlimit and kill: each block has its SAFETY comment"
)]
pub(crate) mod unix;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::outcome::{ImportProblem, RawOutcome};
use capture::Captured;
pub(crate) use lint::{LintRun, lint_source};
use protocol::{Message, Request};
use salgrade_reference::Case;
pub(crate) use sandbox::{Limits, Python, SandboxKind};
use session::{CallEnd, Session, SessionFile, Started};
pub(crate) use session::{RunnerConfig, SessionError};

/// The driver's file name inside the session folder.
const DRIVER_NAME: &str = "_salgrade_driver.py";
const DRIVER_PY: &str = include_str!("driver.py");
/// The module name the assignment's adapter is imported as.
const ADAPTER_MODULE: &str = "_salgrade_adapter";
const ADAPTER_FILE: &str = "_salgrade_adapter.py";

/// What the runner needs from an assignment, and nothing more: the
/// student's file name, the files placed beside it, and the adapter the
/// generic driver loads to build inputs and describe results.
#[derive(Debug, Clone)]
pub(crate) struct Harness {
    pub student_file: &'static str,
    pub support: Vec<(&'static str, &'static str)>,
    pub adapter: &'static str,
}

/// Everything the runner learned about one submission.
#[derive(Debug, Clone)]
pub(crate) struct SubmissionRun {
    pub outcomes: Vec<RawOutcome>,
    pub stderr: Captured,
}

/// Runs `cases` against `source` (the student's file contents).
pub(crate) fn run_submission(
    cfg: &RunnerConfig,
    harness: &Harness,
    source: &[u8],
    cases: &[Case],
    deadlines: &[Duration],
    slot: usize,
) -> Result<SubmissionRun, SessionError> {
    let mut runner = SubmissionRunner::new(cfg, harness, source, slot);
    let mut outcomes = Vec::with_capacity(cases.len());
    for (case, &deadline) in cases.iter().zip(deadlines) {
        outcomes.push(runner.run(case, deadline)?);
    }
    let (_, stderr) = runner.finish();
    Ok(SubmissionRun { outcomes, stderr })
}

/// One submission's cases, put one at a time to a driver process that is
/// kept between cases (and replaced after a timeout or a death). Shrinking
/// uses the same process for the cases it makes up as it goes.
pub(crate) struct SubmissionRunner<'a> {
    cfg: &'a RunnerConfig,
    student_file: &'a str,
    files: Vec<SessionFile<'a>>,
    slot: usize,
    current: Option<Ready>,
    broken: Option<ImportProblem>,
    timeout_confirmed: bool,
    stdout: Captured,
    stderr: Captured,
}

impl<'a> SubmissionRunner<'a> {
    pub(crate) fn new(
        cfg: &'a RunnerConfig,
        harness: &Harness,
        source: &'a [u8],
        slot: usize,
    ) -> SubmissionRunner<'a> {
        unix::become_subreaper();
        let mut files: Vec<SessionFile<'a>> = harness
            .support
            .iter()
            .map(|&(name, text)| SessionFile {
                name,
                contents: text.as_bytes(),
            })
            .collect();
        files.push(SessionFile {
            name: harness.student_file,
            contents: source,
        });
        files.push(SessionFile {
            name: DRIVER_NAME,
            contents: DRIVER_PY.as_bytes(),
        });
        files.push(SessionFile {
            name: ADAPTER_FILE,
            contents: harness.adapter.as_bytes(),
        });
        SubmissionRunner {
            cfg,
            student_file: harness.student_file,
            files,
            slot,
            current: None,
            broken: None,
            timeout_confirmed: false,
            stdout: Captured::default(),
            stderr: Captured::default(),
        }
    }

    /// Puts one case to the submission. The first timeout of a submission is
    /// retried once in a fresh process before it is believed.
    pub(crate) fn run(
        &mut self,
        case: &Case,
        deadline: Duration,
    ) -> Result<RawOutcome, SessionError> {
        if let Some(problem) = &self.broken {
            return Ok(RawOutcome::NotRun {
                problem: problem.clone(),
            });
        }
        let mut attempt = 0;
        loop {
            attempt += 1;
            if self.current.is_none() {
                match self.start()? {
                    Ok(ready) => self.current = Some(ready),
                    Err(problem) => {
                        self.broken = Some(problem.clone());
                        return Ok(RawOutcome::NotRun { problem });
                    }
                }
            }
            let Some((session, functions)) = self.current.as_mut() else {
                unreachable!("started above")
            };
            if !functions.get(&case.function).copied().unwrap_or(false) {
                return Ok(RawOutcome::Missing);
            }
            let request = Request::Call {
                case: &case.id,
                function: &case.function,
                input: &case.input,
            };
            match session.call(&request, deadline) {
                CallEnd::Answered {
                    message: Message::Result { case: id, reply },
                    wall,
                } if id == case.id => {
                    return Ok(RawOutcome::Answered {
                        reply,
                        wall_ms: wall.as_millis() as u64,
                    });
                }
                CallEnd::Answered { message, .. } => {
                    let note = format!("answered out of turn: {message:?}");
                    self.end_session();
                    return Ok(RawOutcome::Died {
                        death: crate::outcome::Death {
                            code: None,
                            signal: None,
                            note: Some(note.chars().take(200).collect()),
                            memory: false,
                        },
                    });
                }
                CallEnd::TimedOut => {
                    self.end_session();
                    if self.timeout_confirmed || attempt > 1 {
                        self.timeout_confirmed = true;
                        return Ok(RawOutcome::TimedOut {
                            limit_ms: deadline.as_millis() as u64,
                            retried: attempt > 1,
                        });
                    }
                }
                CallEnd::Died(death) => {
                    self.end_session();
                    return Ok(RawOutcome::Died { death });
                }
            }
        }
    }

    /// Ends the process and returns what the submission printed.
    pub(crate) fn finish(mut self) -> (Captured, Captured) {
        self.end_session();
        (
            std::mem::take(&mut self.stdout),
            std::mem::take(&mut self.stderr),
        )
    }

    fn start(&mut self) -> Result<Result<Ready, ImportProblem>, SessionError> {
        let entry = [DRIVER_NAME, self.student_file, ADAPTER_MODULE];
        let (mut session, started) = Session::start(self.cfg, &self.files, &entry, self.slot)?;
        let problem = match started {
            Started::Ready { functions } => return Ok(Ok((session, functions))),
            Started::ImportFailed(error) => ImportProblem::Raised { error },
            Started::ImportTimedOut => ImportProblem::TimedOut {
                limit_ms: self.cfg.import_timeout.as_millis() as u64,
            },
            Started::Died(death) => ImportProblem::Died { death },
        };
        session.end();
        self.collect_output(&session);
        Ok(Err(problem))
    }

    fn end_session(&mut self) {
        if let Some((mut session, _)) = self.current.take() {
            session.end();
            self.collect_output(&session);
        }
    }

    fn collect_output(&mut self, session: &Session) {
        let (out, err) = session.output();
        self.stdout.append(&out, self.cfg.output_cap);
        self.stderr.append(&err, self.cfg.output_cap);
    }
}

type Ready = (Session, BTreeMap<String, bool>);

/// What an interrupted command adds to the message, e.g. how `grade`
/// resumes; commands without a journal leave it unset.
pub(crate) static INTERRUPT_NOTE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// On SIGINT, SIGTERM or SIGHUP (Ctrl-C, a CI cancel, a closed terminal),
/// kills every student process before salgrade exits: they sit in their own
/// process groups, so the terminal's signal does not reach them. Every live
/// session's group is killed, and with cgroups everything in them (which
/// also catches a grandchild that called `setsid`). Finished students are
/// already in the journal (`--resume`).
pub(crate) fn kill_on_interrupt(cgroups: Option<std::sync::Weak<cgroup::Cgroups>>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            unix::Group::kill_all_live();
            if let Some(cgroups) = cgroups.as_ref().and_then(std::sync::Weak::upgrade) {
                cgroups.shut_down();
            }
            eprintln!(
                "\ninterrupted: every student process was killed{}",
                INTERRUPT_NOTE.get().map(String::as_str).unwrap_or("")
            );
            std::process::exit(128 + signal);
        }
    });
}
