//! One submission's run: its preparation (a C++ build), and the case loop
//! that puts each case to a kept driver process, retries a first timeout,
//! gives up on a function that only dies, and boots a spare.

use std::collections::BTreeMap;

use super::budget::{Spending, Tokens};
use super::capture::Captured;
use super::launch::{DRIVER_NAME, Prepared, SpareBooter, launch, python_files};
use super::lint::{self, LintAsk};
use super::protocol::{LintRun, Message, Request};
use super::sandbox::SandboxKind;
use super::session::{CallEnd, RunnerConfig, Session, SessionError, SessionFile, Started};
use super::{Deadline, Harness, cxx, unix};
use crate::outcome::{ImportProblem, RawOutcome};
use salgrade_reference::Case;

/// Deaths of a function's calls, none answered, after which its remaining
/// cases are not run (the verdict stays that of the last death).
const MAX_DEATHS: u32 = 3;

/// One submission's cases, put one at a time to a driver process that is
/// kept between cases (and replaced after a timeout or a death). Shrinking
/// uses the same process for the cases it makes up as it goes. A C++
/// submission is built once, here; a restart runs the same program again.
pub(crate) struct SubmissionRunner<'a> {
    cfg: &'a RunnerConfig,
    prepared: Prepared<'a>,
    slot: usize,
    current: Option<Ready>,
    broken: Option<ImportProblem>,
    /// Per function: how many of its calls killed the process, and whether
    /// one ever answered. After [`MAX_DEATHS`] deaths and no answer the
    /// function's remaining cases get the last death without a run: a
    /// slow import and a crash in every call must not hold a slot for
    /// minutes.
    deaths: BTreeMap<String, (u32, bool)>,
    /// The death the given-up functions' remaining cases get.
    last_death: BTreeMap<String, crate::outcome::Death>,
    timeout_confirmed: bool,
    /// A case of the submission has timed out or ended its process: it is
    /// likely to again, and a spare boots while its cases run.
    failed: bool,
    stdout: Captured,
    stderr: Captured,
    /// The compiler's warnings on the student's file, for the feedback.
    build_warnings: Vec<String>,
    /// The rule check the first session's driver runs before the import
    /// (Python), as its command-line argument; cleared once asked.
    lint: Option<String>,
    linted: Option<LintRun>,
    /// A session booting while the current one runs a case, once the
    /// submission is known to time out: the next restart finds it ready
    /// (only in salgrade's namespaces, where one session's end leaves
    /// the slot's other processes alone). It is started by a thread of its
    /// own, so the case on the clock is never held up by the spawn.
    spare: Option<SpareBooter>,
    /// What the submission's processes have used of its budget.
    budget: Spending,
    /// The opaque names of requests.
    tokens: Tokens,
}

impl<'a> SubmissionRunner<'a> {
    /// Prepares a submission; for C++ this builds it, in the sandbox. A
    /// failed build is the student's: every case then gets `build_failed`.
    pub(crate) fn new(
        cfg: &'a RunnerConfig,
        harness: &'a Harness,
        source: &'a [u8],
        slot: usize,
        lint: Option<LintAsk<'_>>,
    ) -> Result<SubmissionRunner<'a>, SessionError> {
        SubmissionRunner::with_siblings(cfg, harness, source, &[], slot, lint)
    }

    /// [`SubmissionRunner::new`], with the student's own other files (name,
    /// contents) put beside the graded one, so a file that imports its
    /// helper module runs as it did for the student. Python only; a
    /// sibling never replaces a file of salgrade's or of the course's (a
    /// name already given, in any case, or one starting `_salgrade`).
    pub(crate) fn with_siblings(
        cfg: &'a RunnerConfig,
        harness: &'a Harness,
        source: &'a [u8],
        siblings: &'a [(String, Vec<u8>)],
        slot: usize,
        lint: Option<LintAsk<'_>>,
    ) -> Result<SubmissionRunner<'a>, SessionError> {
        unix::become_subreaper();
        let mut runner = SubmissionRunner {
            cfg,
            prepared: Prepared::Nothing,
            slot,
            current: None,
            broken: None,
            timeout_confirmed: false,
            failed: false,
            deaths: BTreeMap::new(),
            last_death: BTreeMap::new(),
            stdout: Captured::default(),
            stderr: Captured::default(),
            build_warnings: Vec::new(),
            lint: None,
            linted: None,
            spare: None,
            budget: Spending::new(cfg.budget),
            tokens: Tokens::new(),
        };
        match harness {
            Harness::Python {
                student_file,
                support,
                adapter,
            } => {
                // salgrade's own files (the rule checker only when it
                // runs), then the student's. All are compiled at once,
                // the checker too, so a run compiles once.
                let all = python_files(support, adapter);
                let compiled = cfg.bytecode.pycs(&cfg.python, &all);
                if let Some(ask) = lint {
                    runner.lint = Some(ask.argument(student_file));
                }
                let used = |name: &str| lint.is_some() || name != lint::CHECKER_NAME;
                let mut files: Vec<SessionFile<'a>> = Vec::new();
                let mut driver = DRIVER_NAME;
                for (&(name, text), pyc) in all.iter().zip(&compiled).filter(|((n, _), _)| used(n))
                {
                    files.push(SessionFile::text(name, text.as_bytes()));
                    if let Some(pyc) = pyc {
                        files.push(SessionFile::text(pyc.module_file, pyc.bytes));
                        if name == DRIVER_NAME {
                            driver = pyc.module_file;
                        }
                    }
                }
                files.push(SessionFile::text(student_file, source));
                for (name, contents) in siblings {
                    let taken = files.iter().any(|f| f.name.eq_ignore_ascii_case(name));
                    if !taken && !name.to_ascii_lowercase().starts_with("_salgrade") {
                        files.push(SessionFile::text(name, contents));
                    }
                }
                runner.prepared = Prepared::Python {
                    student_file,
                    driver,
                    files,
                };
            }
            Harness::Cxx(h) => runner.build_cxx(h, source)?,
        }
        Ok(runner)
    }

    /// Builds a C++ submission in the sandbox: the program to run, or the
    /// reason nothing can (a failed build, or a compiler the student's code
    /// killed).
    fn build_cxx(&mut self, h: &cxx::CxxHarness, source: &[u8]) -> Result<(), SessionError> {
        let Some(compiler) = &self.cfg.cxx else {
            return Err(SessionError::NoCompiler);
        };
        let built = match cxx::build(self.cfg, compiler, h, source, self.slot) {
            Err(e) if e.is_students() => {
                self.broken = Some(ImportProblem::Died {
                    death: crate::outcome::Death {
                        code: None,
                        signal: None,
                        note: Some(e.to_string()),
                        memory: false,
                    },
                });
                return Ok(());
            }
            other => other?,
        };
        match built {
            Ok(built) => {
                self.build_warnings = built.warnings;
                self.prepared = Prepared::Compiled {
                    program: built.program,
                };
            }
            Err(failure) => self.broken = Some(ImportProblem::BuildFailed { failure }),
        }
        Ok(())
    }

    /// The rule check's answer, if a session ran it (the first one does,
    /// when asked, unless it died before).
    pub(crate) fn linted(&self) -> Option<&LintRun> {
        self.linted.as_ref()
    }

    /// The compiler's warnings on the student's file (C++ only).
    pub(crate) fn build_warnings(&self) -> &[String] {
        &self.build_warnings
    }

    /// Puts every case to the submission, each under its deadline, in the
    /// order `order` gives (a permutation of the cases' indices: a
    /// submission must not learn a case from where it comes); the outcomes
    /// come back in the cases' own order.
    pub(crate) fn run_all(
        &mut self,
        cases: &[Case],
        deadlines: &[Deadline],
        order: &[usize],
    ) -> Result<Vec<RawOutcome>, SessionError> {
        debug_assert_eq!(order.len(), cases.len());
        let mut outcomes: Vec<Option<RawOutcome>> = vec![None; cases.len()];
        for &i in order {
            outcomes[i] = Some(self.run(&cases[i], deadlines[i])?);
        }
        // An index the order missed (never, for a permutation) is run last.
        for (i, slot) in outcomes.iter_mut().enumerate() {
            if slot.is_none() {
                *slot = Some(self.run(&cases[i], deadlines[i])?);
            }
        }
        Ok(outcomes.into_iter().flatten().collect())
    }

    /// Puts one case to the submission. The first timeout of a submission is
    /// retried once in a fresh process before it is believed. The request
    /// names the case by a token that means nothing outside this runner,
    /// and is sent only once the case before it was answered: nothing of a
    /// case reaches the student's process before its clock starts.
    pub(crate) fn run(
        &mut self,
        case: &Case,
        deadline: Deadline,
    ) -> Result<RawOutcome, SessionError> {
        if let Some(problem) = &self.broken {
            return Ok(RawOutcome::NotRun {
                problem: problem.clone(),
            });
        }
        if let Some(death) = self.given_up(&case.function) {
            return Ok(RawOutcome::Died { death });
        }
        let running = self
            .current
            .as_ref()
            .map_or(std::time::Duration::ZERO, |(s, _)| s.cpu_used());
        if let Some(spent) = self.budget.spent(running) {
            self.end_all();
            return Ok(spent);
        }
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            if let Some(problem) = self.ensure_started()? {
                return Ok(RawOutcome::NotRun { problem });
            }
            let Some((session, functions)) = self.current.as_mut() else {
                unreachable!("started above")
            };
            if !functions.get(&case.function).copied().unwrap_or(false) {
                return Ok(RawOutcome::Missing);
            }
            let token = self.tokens.next();
            let request = Request::Call {
                case: &token,
                function: &case.function,
                input: &case.input,
            };
            let sent = session.send(&request);
            self.boot_spare();
            let Some((session, _)) = self.current.as_mut() else {
                unreachable!("started above")
            };
            let ended = match sent {
                Ok(sent) => session.wait(sent, deadline),
                Err(death) => CallEnd::Died(death),
            };
            match ended {
                CallEnd::Answered {
                    message: Message::Result { case: id, reply },
                    wall,
                    cpu,
                } if id == token => {
                    self.deaths.entry(case.function.clone()).or_default().1 = true;
                    return Ok(RawOutcome::Answered {
                        reply,
                        wall_ms: wall.as_millis() as u64,
                        process_cpu_us: cpu.map(|c| c.as_micros() as u64),
                    });
                }
                CallEnd::Answered { message, .. } => return Ok(self.out_of_turn(&message)),
                CallEnd::TimedOut { cpu } => {
                    if let Some(outcome) = self.timed_out(cpu, deadline, attempt) {
                        return Ok(outcome);
                    }
                }
                CallEnd::Died(death) => return Ok(self.died(&case.function, death)),
            }
        }
    }

    /// The session overran `deadline` on try `attempt`, and was ended: the
    /// timeout is believed (`Some`) unless it is the submission's first,
    /// which is retried once in a fresh process.
    fn timed_out(&mut self, cpu: bool, deadline: Deadline, attempt: u32) -> Option<RawOutcome> {
        self.end_session();
        self.failed = true;
        if !(self.timeout_confirmed || attempt > 1) {
            return None;
        }
        self.timeout_confirmed = true;
        let limit = if cpu { deadline.cpu } else { deadline.wall };
        Some(RawOutcome::TimedOut {
            limit_ms: limit.as_millis() as u64,
            retried: attempt > 1,
            cpu,
        })
    }

    /// Starts the first session now, before any case is asked (its
    /// problem, if it cannot start, is what every case then gets).
    pub(crate) fn start_now(&mut self) -> Result<(), SessionError> {
        if self.broken.is_none() {
            self.ensure_started()?;
        }
        Ok(())
    }

    /// Starts a session when none runs; the problem, when none can.
    fn ensure_started(&mut self) -> Result<Option<ImportProblem>, SessionError> {
        if self.current.is_none() {
            match self.start()? {
                Ok(ready) => self.current = Some(ready),
                Err(problem) => {
                    self.broken = Some(problem.clone());
                    return Ok(Some(problem));
                }
            }
        }
        Ok(None)
    }

    /// A submission that timed out or died is likely to again: its next
    /// process (a new exec and a new import, never one that ran a case)
    /// boots while this case runs, so a restart costs no wait.
    fn boot_spare(&mut self) {
        if self.failed
            && self.cfg.spare
            && self.cfg.sandbox == SandboxKind::Namespaces
            && !self.spare.as_ref().is_some_and(SpareBooter::pending)
        {
            // A spare that cannot start (the running session fills the
            // slot, or anything else) is simply not there: the next start
            // is an ordinary one, which says what is wrong if something is.
            if self.spare.is_none() {
                self.spare = SpareBooter::new(self.cfg, &self.prepared, self.slot);
            }
            if let Some(booter) = self.spare.as_mut() {
                booter.boot();
            }
        }
    }

    /// The session answered another case than the one asked: it is ended,
    /// and the case died.
    fn out_of_turn(&mut self, message: &Message) -> RawOutcome {
        let note = format!("answered out of turn: {message:?}");
        self.end_session();
        RawOutcome::Died {
            death: crate::outcome::Death {
                code: None,
                signal: None,
                note: Some(note.chars().take(200).collect()),
                memory: false,
            },
        }
    }

    /// The session died on a case of `function`: it is ended, and the
    /// death counted towards giving up on that function.
    fn died(&mut self, function: &str, death: crate::outcome::Death) -> RawOutcome {
        self.end_session();
        self.failed = true;
        let (died, answered) = self.deaths.entry(function.to_owned()).or_default();
        *died += 1;
        if !*answered && *died >= MAX_DEATHS {
            self.last_death.insert(function.to_owned(), death.clone());
        }
        RawOutcome::Died { death }
    }

    /// The death a function's remaining cases get without a run, once it
    /// has killed its process [`MAX_DEATHS`] times and never answered.
    fn given_up(&self, function: &str) -> Option<crate::outcome::Death> {
        let death = self.last_death.get(function)?;
        let mut death = death.clone();
        let why = format!(
            "not run: each of the first {MAX_DEATHS} calls of `{function}` ended its process, and none answered"
        );
        death.note = Some(match death.note {
            Some(note) => format!("{note}; {why}"),
            None => why,
        });
        Some(death)
    }

    /// Ends the process and returns what the submission printed.
    pub(crate) fn finish(mut self) -> (Captured, Captured) {
        self.end_all();
        (
            std::mem::take(&mut self.stdout),
            std::mem::take(&mut self.stderr),
        )
    }

    fn start(&mut self) -> Result<Result<Ready, ImportProblem>, SessionError> {
        let lint = self.lint.take();
        let booted = match self.take_spare() {
            Some(spare) => Some(spare),
            None => match launch(self.cfg, &self.prepared, self.slot, lint.as_deref(), false) {
                Ok(booted) => booted,
                Err(e) if e.is_students() => {
                    return Ok(Err(ImportProblem::Died {
                        death: crate::outcome::Death {
                            code: None,
                            signal: None,
                            note: Some(e.to_string()),
                            memory: false,
                        },
                    }));
                }
                Err(e) => return Err(e),
            },
        };
        let Some(booted) = booted else {
            return Err(SessionError::NothingToRun);
        };
        let (mut session, started) = booted.await_start(self.cfg, lint.is_some())?;
        if let Some(run) = session.linted.take() {
            self.linted = Some(run);
        }
        let problem = match started {
            Started::Ready { functions } => return Ok(Ok((session, functions))),
            Started::ImportFailed(error) => ImportProblem::Raised { error },
            Started::ImportTimedOut => ImportProblem::TimedOut {
                limit_ms: self.cfg.import_timeout.as_millis() as u64,
            },
            Started::Died(death) => ImportProblem::Died { death },
        };
        session.end();
        self.budget.charge(&session);
        self.collect_output(&session);
        Ok(Err(problem))
    }

    fn end_session(&mut self) {
        if let Some((mut session, _)) = self.current.take() {
            session.end();
            self.budget.charge(&session);
            self.collect_output(&session);
        }
    }

    /// Ends the current session and any spare.
    fn end_all(&mut self) {
        self.end_session();
        if let Some(mut spare) = self.take_spare() {
            spare.end();
            self.budget.charge(&spare);
        }
    }

    /// The spare, once its thread has started it (or failed to).
    fn take_spare(&mut self) -> Option<Session> {
        self.spare.as_mut()?.take()
    }

    fn collect_output(&mut self, session: &Session) {
        let (out, err) = session.output();
        self.stdout.append(&out, self.cfg.output_cap);
        self.stderr.append(&err, self.cfg.output_cap);
    }
}

type Ready = (Session, BTreeMap<String, bool>);
