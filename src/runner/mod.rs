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
pub(crate) mod confine;
pub(crate) mod cxx;
pub(crate) mod lint;
pub(crate) mod plan;
pub(crate) mod protocol;
pub(crate) mod sandbox;
pub(crate) mod session;
pub(crate) mod setup;
pub(crate) mod toolchain;
#[expect(
    unsafe_code,
    reason = "pre_exec, setrlimit and kill: each block has its SAFETY comment"
)]
pub(crate) mod unix;

use std::collections::BTreeMap;
use std::time::Duration;

use crate::outcome::{ImportProblem, RawOutcome};
use capture::Captured;
pub(crate) use lint::{LintAsk, lint_source};
pub(crate) use plan::Limits;
pub(crate) use protocol::LintRun;
use protocol::{Message, Request};
use salgrade_reference::Case;
pub(crate) use sandbox::{Python, SandboxKind};
use session::{CallEnd, Session, SessionFile, Started};
pub(crate) use session::{RunnerConfig, SessionError};

/// How long one case may take: CPU time of the student's process, which
/// the machine's load inflates far less than wall time, and wall time as a
/// looser backstop
/// (a student that sleeps or blocks uses no CPU).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Deadline {
    pub cpu: Duration,
    pub wall: Duration,
}

/// Deaths of a function's calls, none answered, after which its remaining
/// cases are not run (the verdict stays that of the last death).
const MAX_DEATHS: u32 = 3;

/// The driver's file name inside the session folder.
const DRIVER_NAME: &str = "_salgrade_driver.py";
const DRIVER_PY: &str = include_str!("driver.py");
/// The module name the assignment's adapter is imported as.
const ADAPTER_MODULE: &str = "_salgrade_adapter";
const ADAPTER_FILE: &str = "_salgrade_adapter.py";

/// What the runner needs from an assignment for one language, and nothing
/// more.
#[derive(Debug, Clone)]
pub(crate) enum Harness {
    /// The student's file, the files placed beside it, and the adapter the
    /// generic Python driver loads to build inputs and describe results.
    Python {
        student_file: &'static str,
        support: Vec<(&'static str, &'static str)>,
        adapter: &'static str,
    },
    /// The translation units a C++ submission is built with.
    Cxx(cxx::CxxHarness),
}

impl Harness {
    /// The file name the student submits.
    pub(crate) fn student_file(&self) -> &'static str {
        match self {
            Harness::Python { student_file, .. } => student_file,
            Harness::Cxx(h) => h.student_file,
        }
    }
}

/// The languages a submission can be written in.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Language {
    /// Python 3 (`.py`).
    Python,
    /// C++20, built with g++ (`.cpp`, `.cc`, `.cxx`).
    Cpp,
}

impl Language {
    /// The language of a file, by its extension.
    pub(crate) fn of_file(name: &str) -> Option<Language> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "py" => Some(Language::Python),
            "cpp" | "cc" | "cxx" => Some(Language::Cpp),
            _ => None,
        }
    }

    /// The source file extensions of the language.
    pub(crate) fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Python => &[".py"],
            Language::Cpp => &[".cpp", ".cc", ".cxx"],
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::Cpp => "C++",
        }
    }
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
    deadlines: &[Deadline],
    slot: usize,
) -> Result<SubmissionRun, SessionError> {
    let mut runner = SubmissionRunner::new(cfg, harness, source, slot, None)?;
    let outcomes = runner.run_all(cases, deadlines)?;
    let (_, stderr) = runner.finish();
    Ok(SubmissionRun { outcomes, stderr })
}

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
    /// the slot's other processes alone).
    spare: Option<Session>,
    /// The next case's request, already sent to the current session so the
    /// driver goes on with it without waiting for salgrade (its id, and
    /// when it began: once the case before it was answered).
    queued: Option<(String, Option<session::Sent>)>,
}

/// What every session of a submission starts from.
enum Prepared<'a> {
    Python {
        student_file: &'a str,
        files: Vec<SessionFile<'a>>,
    },
    /// The built program, written afresh for each session (a student's
    /// program may delete or change files in its folder).
    Compiled { program: Vec<u8> },
    /// Nothing can run (the build failed): `broken` says why.
    Nothing,
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
        unix::become_subreaper();
        let mut runner = SubmissionRunner {
            cfg,
            prepared: Prepared::Nothing,
            slot,
            current: None,
            broken: None,
            timeout_confirmed: false,
            deaths: BTreeMap::new(),
            last_death: BTreeMap::new(),
            stdout: Captured::default(),
            stderr: Captured::default(),
            build_warnings: Vec::new(),
            lint: None,
            linted: None,
            spare: None,
            queued: None,
        };
        match harness {
            Harness::Python {
                student_file,
                support,
                adapter,
            } => {
                let mut files: Vec<SessionFile<'a>> = support
                    .iter()
                    .map(|&(name, text)| SessionFile::text(name, text.as_bytes()))
                    .collect();
                files.push(SessionFile::text(student_file, source));
                files.push(SessionFile::text(DRIVER_NAME, DRIVER_PY.as_bytes()));
                files.push(SessionFile::text(ADAPTER_FILE, adapter.as_bytes()));
                if let Some(ask) = lint {
                    files.push(SessionFile::text(
                        lint::CHECKER_NAME,
                        lint::CHECKER_PY.as_bytes(),
                    ));
                    runner.lint = Some(ask.argument(student_file));
                }
                runner.prepared = Prepared::Python {
                    student_file,
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

    /// Puts every case to the submission, each under its deadline.
    pub(crate) fn run_all(
        &mut self,
        cases: &[Case],
        deadlines: &[Deadline],
    ) -> Result<Vec<RawOutcome>, SessionError> {
        let mut outcomes = Vec::with_capacity(cases.len());
        for (i, (case, &deadline)) in cases.iter().zip(deadlines).enumerate() {
            outcomes.push(self.run_before(case, deadline, cases.get(i + 1))?);
        }
        Ok(outcomes)
    }

    /// Puts one case to the submission. The first timeout of a submission is
    /// retried once in a fresh process before it is believed.
    pub(crate) fn run(
        &mut self,
        case: &Case,
        deadline: Deadline,
    ) -> Result<RawOutcome, SessionError> {
        self.run_before(case, deadline, None)
    }

    /// Puts one case, and sends `next`'s request behind it: the two travel
    /// together, and the driver begins `next` as soon as it has answered,
    /// instead of waiting for salgrade to read the answer and write again.
    fn run_before(
        &mut self,
        case: &Case,
        deadline: Deadline,
        next: Option<&Case>,
    ) -> Result<RawOutcome, SessionError> {
        if let Some(problem) = &self.broken {
            return Ok(RawOutcome::NotRun {
                problem: problem.clone(),
            });
        }
        if let Some(death) = self.given_up(&case.function) {
            return Ok(RawOutcome::Died { death });
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
            let request = Request::Call {
                case: &case.id,
                function: &case.function,
                input: &case.input,
            };
            let sent = match self.queued.take() {
                Some((id, Some(begun))) if id == case.id => Ok(begun),
                _ => session.send(&request),
            };
            if let (Ok(_), Some(next)) = (&sent, next) {
                if send_ahead(session, functions, next) {
                    self.queued = Some((next.id.clone(), None));
                }
            }
            self.boot_spare()?;
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
                } if id == case.id => {
                    if let Some((_, begun)) = &mut self.queued {
                        *begun = Some(session.begun_now());
                    }
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

    /// The session overran `deadline` on try `attempt`: it is ended, and
    /// the timeout believed (`Some`) unless it is the submission's first,
    /// which is retried once in a fresh process.
    fn timed_out(&mut self, cpu: bool, deadline: Deadline, attempt: u32) -> Option<RawOutcome> {
        self.end_session();
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

    /// A submission that timed out is likely to again: its next process
    /// boots while this case runs.
    fn boot_spare(&mut self) -> Result<(), SessionError> {
        if self.timeout_confirmed
            && self.spare.is_none()
            && self.cfg.sandbox == SandboxKind::Namespaces
        {
            // A spare that cannot start (the running session fills the
            // slot) is simply not there.
            self.spare = match launch(self.cfg, &self.prepared, self.slot, None, true) {
                Ok(spare) => spare,
                Err(e) if e.is_students() => None,
                Err(e) => return Err(e),
            };
        }
        Ok(())
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
        let booted = match self.spare.take() {
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
        self.collect_output(&session);
        Ok(Err(problem))
    }

    fn end_session(&mut self) {
        // A request queued behind the failed case went with its process.
        self.queued = None;
        if let Some((mut session, _)) = self.current.take() {
            session.end();
            self.collect_output(&session);
        }
    }

    /// Ends the current session and any spare.
    fn end_all(&mut self) {
        self.end_session();
        if let Some(mut spare) = self.spare.take() {
            spare.end();
        }
    }

    fn collect_output(&mut self, session: &Session) {
        let (out, err) = session.output();
        self.stdout.append(&out, self.cfg.output_cap);
        self.stderr.append(&err, self.cfg.output_cap);
    }
}

type Ready = (Session, BTreeMap<String, bool>);

/// Sends `next`'s request behind the current one, if the submission has
/// its function; whether it went.
fn send_ahead(session: &mut Session, functions: &BTreeMap<String, bool>, next: &Case) -> bool {
    if !functions.get(&next.function).copied().unwrap_or(false) {
        return false;
    }
    let ahead = Request::Call {
        case: &next.id,
        function: &next.function,
        input: &next.input,
    };
    session.send(&ahead).is_ok()
}

/// Starts a session of the prepared submission (without waiting for it);
/// `None` when nothing can run. `lint`: the rule check the driver runs first;
/// `spare`: it starts beside the submission's running session.
fn launch(
    cfg: &RunnerConfig,
    prepared: &Prepared<'_>,
    slot: usize,
    lint: Option<&str>,
    spare: bool,
) -> Result<Option<Session>, SessionError> {
    let spawn = if spare {
        Session::spawn_spare
    } else {
        Session::spawn
    };
    let session = match prepared {
        Prepared::Python {
            student_file,
            files,
        } => {
            let mut args = vec![*student_file, ADAPTER_MODULE];
            args.extend(lint);
            let program = cfg
                .python
                .program(DRIVER_NAME, &args, cfg.limits, cfg.drop_privileges);
            spawn(cfg, files, &program, slot)?
        }
        Prepared::Compiled { program } => {
            let files = [SessionFile {
                name: cxx::PROGRAM_NAME,
                contents: program,
                executable: true,
            }];
            spawn(cfg, &files, &cxx::program(cfg), slot)?
        }
        Prepared::Nothing => return Ok(None),
    };
    Ok(Some(session))
}

/// What an interrupted command adds to the message, e.g. how `grade`
/// resumes; commands without a journal leave it unset.
pub(crate) static INTERRUPT_NOTE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Reaps what a run's sandboxes left: a bubblewrap sandbox's PID 1 is
/// re-parented to salgrade a moment after the session that ran it ended,
/// and a session's own sweep can miss it. Called once a run is done, so no
/// zombie outlives salgrade (PID 1 of a container may never reap it).
pub(crate) fn reap_leftovers() {
    let until = std::time::Instant::now() + Duration::from_millis(500);
    loop {
        unix::reap_orphans(unix::Orphans::SandboxZombies);
        if !unix::has_sandbox_children() || std::time::Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// On SIGINT, SIGTERM or SIGHUP (Ctrl-C, a CI cancel, a closed terminal),
/// kills every student process before salgrade exits: they sit in their own
/// process groups, so the terminal's signal does not reach them. Every live
/// session's group is killed, and with cgroups everything in them (which
/// also catches a grandchild that called `setsid`). Finished students are
/// already in the journal (`--resume`).
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a signal is being handled (the run is ending).
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Waits for the interrupt handler to end the process.
pub(crate) fn wait_for_interrupt_exit() -> ! {
    loop {
        std::thread::park();
    }
}

pub(crate) fn kill_on_interrupt(cgroups: Option<std::sync::Weak<cgroup::Cgroups>>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            unix::Group::kill_all_live();
            if let Some(cgroups) = cgroups.as_ref().and_then(std::sync::Weak::upgrade) {
                cgroups.shut_down();
            }
            // The killed sandboxes' PID 1s come back to salgrade to be
            // reaped; exiting first would leave them to the machine's PID 1.
            reap_leftovers();
            eprintln!(
                "\ninterrupted: every student process was killed{}",
                INTERRUPT_NOTE.get().map(String::as_str).unwrap_or("")
            );
            std::process::exit(128 + signal);
        }
    });
}
