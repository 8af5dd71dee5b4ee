//! The grading engine: puts the runner, the grading and the report model
//! together for one student, and prepares what a whole run shares (the
//! interpreter, the sandbox backend, the cases and their deadlines).
//!
//! Deadlines are calibrated: before grading anyone, the model solution runs
//! every case in the same sandbox, and each case's deadline is
//! `max(floor, multiplier x the model's time on that case)`. This run also
//! proves the harness: if the model solution fails a case, grading stops with
//! an error instead of marking students against a wrong expectation.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use salgrade_reference::{Case, CaseFile};

use crate::assignment::{self, Assignment, GenSettings};
use crate::discover::Submission;
use crate::grading::lint::{self, Violation};
use crate::grading::shrink::{self, Budget, Counterexample};
use crate::grading::verdict::{Verdict, VerdictKind};
use crate::grading::{self, rubric::Rubric};
use crate::report::StudentReport;
use crate::runner::cgroup::Cgroups;
use crate::runner::{self, Limits, Python, RunnerConfig, SandboxKind, sandbox};

/// How per-case deadlines are chosen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeadlinePolicy {
    pub floor: Duration,
    pub multiplier: f64,
}

/// The generous deadline the model solution itself runs under.
const CALIBRATION_DEADLINE: Duration = Duration::from_secs(60);

/// Where the cases come from.
#[derive(Debug, Clone)]
pub(crate) enum CaseSource {
    Seed(GenSettings),
    File(PathBuf),
}

/// Everything shared by the students of one run.
pub(crate) struct Engine {
    pub assignment: &'static dyn Assignment,
    pub runner: RunnerConfig,
    pub case_file: CaseFile,
    pub deadlines: Vec<Duration>,
    pub rubric: Rubric,
    /// Time per student for shrinking failures; zero turns shrinking off.
    pub shrink_budget: Duration,
}

/// Candidates one shrink search may try, whatever its time budget.
const MAX_SHRINK_TRIES: u32 = 2000;

/// Finds the real interpreter behind `python3` (or `explicit`), once.
pub(crate) fn resolve_python(explicit: Option<&Path>) -> anyhow::Result<Python> {
    let program = explicit
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("python3"));
    let out = Command::new(&program)
        .args(["-I", "-S", "-c", "import sys; print(sys.executable); print(sys.base_prefix); print(sys.version.split()[0])"])
        .output()
        .with_context(|| format!("cannot run `{}`: install Python 3 or pass `--python PATH`", program.display()))?;
    if !out.status.success() {
        bail!(
            "`{}` failed to report its version: {}",
            program.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let (Some(exe), Some(prefix), Some(version)) = (lines.next(), lines.next(), lines.next())
    else {
        bail!(
            "`{}` did not report its executable and version",
            program.display()
        );
    };
    if !version.starts_with('3') {
        bail!(
            "`{}` is Python {version}; salgrade needs Python 3",
            program.display()
        );
    }
    Ok(Python {
        executable: PathBuf::from(exe),
        prefix: PathBuf::from(prefix),
        version: version.to_owned(),
    })
}

/// The backend to use: the requested one, or bubblewrap where it works and
/// rlimit otherwise (with a note to say so once).
pub(crate) fn choose_sandbox(
    requested: Option<SandboxKind>,
) -> anyhow::Result<(SandboxKind, Option<String>)> {
    match requested {
        Some(SandboxKind::Bwrap) if !sandbox::bwrap_works() => bail!(
            "`--sandbox bwrap` was asked for, but bubblewrap (`bwrap`) is not installed or cannot create namespaces here; install the Debian package `bubblewrap` or choose `--sandbox rlimit`"
        ),
        Some(kind) => Ok((kind, None)),
        None if sandbox::bwrap_works() => Ok((SandboxKind::Bwrap, None)),
        None => Ok((
            SandboxKind::Rlimit,
            Some("bubblewrap (`bwrap`) is not available here, so student code runs with resource limits only (`--sandbox rlimit`); see the README's security model".to_owned()),
        )),
    }
}

/// Checks `source` against the assignment's container rule, in the sandbox.
/// `Ok(Err(why))` when the file cannot be checked (a syntax error); no rule
/// means no violations.
pub(crate) fn check_rule(
    runner: &RunnerConfig,
    assignment: &dyn Assignment,
    source: &[u8],
    slot: usize,
) -> anyhow::Result<Result<Vec<Violation>, String>> {
    let Some(rule) = assignment.container_rule() else {
        return Ok(Ok(Vec::new()));
    };
    let run = runner::lint_source(runner, &rule, assignment.student_file(), source, slot)
        .context("cannot run the rule checker")?;
    Ok(match run {
        runner::LintRun::Findings(findings) => lint::parse_findings(findings),
        runner::LintRun::Unreadable(why) => Err(why),
    })
}

/// The protections beyond the backend itself, decided once per run.
pub(crate) struct Isolation {
    pub cgroups: Option<Arc<Cgroups>>,
    pub drop_privileges: bool,
    /// What is missing here and what that means, for the user.
    pub notes: Vec<String>,
}

/// Sets up the per-slot cgroups and decides on the per-slot uid.
pub(crate) fn isolation(kind: SandboxKind, python: &Python, limits: &Limits) -> Isolation {
    let mut notes = Vec::new();
    if kind == SandboxKind::None {
        return Isolation {
            cgroups: None,
            drop_privileges: false,
            notes: vec!["`--sandbox none` runs student code without limits or isolation; use it for debugging only".to_owned()],
        };
    }
    let root = runner::unix::is_root();
    let cgroups = match Cgroups::create(limits.processes, limits.memory_mb * 1024 * 1024) {
        Ok(c) => Some(Arc::new(c)),
        Err(why) => {
            notes.push(if root {
                format!("no writable cgroup ({why}): as root, a student's process count is not capped (RLIMIT_NPROC does not bind root); see the README's security model")
            } else {
                format!("no writable cgroup ({why}): processes are capped per user by RLIMIT_NPROC only, and memory per process only")
            });
            None
        }
    };
    runner::kill_on_interrupt(cgroups.as_ref().map(Arc::downgrade));
    let drop_privileges = sandbox::can_drop(kind, python);
    if root && !drop_privileges {
        notes.push(format!(
            "student code runs as root{}: the interpreter `{}` is not reachable by an unprivileged user; install Python outside /root (or pass `--python /usr/bin/python3`) for a uid per slot",
            if kind == SandboxKind::Bwrap { " mapped into a user namespace" } else { "" },
            python.executable.display()
        ));
    }
    Isolation {
        cgroups,
        drop_privileges,
        notes,
    }
}

fn capitalise_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// Reads and checks a case file.
pub(crate) fn load_case_file(assignment: &dyn Assignment, path: &Path) -> anyhow::Result<CaseFile> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read case file `{}`", path.display()))?;
    let file: CaseFile = serde_json::from_str(&text)
        .with_context(|| format!("case file `{}` is not a valid case file", path.display()))?;
    if file.assignment != assignment.id() {
        bail!(
            "case file `{}` is for assignment `{}`, not `{}`",
            path.display(),
            file.assignment,
            assignment.id()
        );
    }
    if file.cases.is_empty() {
        bail!("case file `{}` has no cases", path.display());
    }
    crate::bounds::check_size(&file).with_context(|| format!("case file `{}`", path.display()))?;
    if let Some(problem) = assignment.check_cases(&file).first() {
        bail!("case file `{}`: {problem}", path.display());
    }
    Ok(file)
}

pub(crate) fn load_cases(
    assignment: &dyn Assignment,
    source: &CaseSource,
) -> anyhow::Result<CaseFile> {
    match source {
        CaseSource::Seed(settings) => Ok(assignment.generate(*settings)),
        CaseSource::File(path) => load_case_file(assignment, path),
    }
}

impl Engine {
    /// Runs the model solution on every case and sets the deadlines.
    pub(crate) fn calibrate(&mut self, policy: DeadlinePolicy) -> anyhow::Result<()> {
        let cases = &self.case_file.cases;
        let generous = vec![CALIBRATION_DEADLINE; cases.len()];
        let run = runner::run_submission(
            &self.runner,
            self.assignment,
            self.assignment.model_solution().as_bytes(),
            cases,
            &generous,
            0,
        )
        .context("cannot run the model solution")?;
        let results = grading::judge_all(self.assignment, cases, &run.outcomes);
        if let Some((case, r)) = cases
            .iter()
            .zip(&results)
            .find(|(_, r)| !r.verdict.passed())
        {
            let stderr = run.stderr.excerpt();
            let cause = crate::bounds::limit_to_raise(&r.verdict, &stderr, &self.runner)
                .unwrap_or_else(|| {
                    "either the case file is wrong or this is a salgrade bug".to_owned()
                });
            bail!(
                "the model solution fails case `{}` ({}): {}{}{}. {}",
                case.id,
                r.verdict.kind.as_str(),
                crate::bounds::last_line(r.verdict.detail.as_deref().unwrap_or_default(), 200),
                r.verdict
                    .got
                    .as_ref()
                    .map(|g| format!(", got {g}"))
                    .unwrap_or_default(),
                Some(crate::bounds::last_line(&stderr, 200))
                    .filter(|e| !e.is_empty())
                    .map(|e| format!("; its stderr ends: {e}"))
                    .unwrap_or_default(),
                capitalise_first(&cause)
            );
        }
        self.deadlines = run
            .outcomes
            .iter()
            .map(|o| {
                let model = match o {
                    runner::RawOutcome::Answered { wall_ms, .. } => Duration::from_millis(*wall_ms),
                    _ => Duration::ZERO,
                };
                policy.floor.max(model.mul_f64(policy.multiplier))
            })
            .collect();
        Ok(())
    }

    /// Shrinks each function's smallest failure against the same student
    /// process, within the per-student budget. Never scored.
    fn shrink_failures(
        &self,
        runner: &mut runner::SubmissionRunner<'_>,
        results: &[grading::CaseResult],
    ) -> Vec<Counterexample> {
        if self.shrink_budget.is_zero() {
            return Vec::new();
        }
        let cases = &self.case_file.cases;
        let starts: Vec<usize> = self
            .assignment
            .functions()
            .iter()
            .filter_map(|f| grading::smallest_failing(self.assignment, cases, results, f))
            .filter(|&i| shrink::worth_shrinking(results[i].verdict.kind))
            .collect();
        let end = Instant::now() + self.shrink_budget;
        let mut found = Vec::new();
        for (n, &i) in starts.iter().enumerate() {
            let (result, case, deadline) = (&results[i], &cases[i], self.deadlines[i]);
            // Each function gets an equal share of what is left, so one slow
            // search cannot starve the others.
            let left = end.saturating_duration_since(Instant::now());
            let budget = Budget {
                until: Instant::now() + left / (starts.len() - n) as u32,
                max_tries: MAX_SHRINK_TRIES,
            };
            let mut oracle = |candidate: &Case| {
                let outcome = runner.run(candidate, deadline).ok()?;
                Some(assignment::judge(self.assignment, candidate, &outcome))
            };
            found.push(shrink::shrink(
                self.assignment,
                self.case_file.reading,
                case,
                &result.verdict,
                budget,
                &mut oracle,
            ));
        }
        found
    }

    /// Grades one student. Student failures are results; only harness
    /// failures (cannot create a folder, cannot start Python) are errors.
    pub(crate) fn grade(
        &self,
        sub: &Submission,
        root: &Path,
        slot: usize,
    ) -> anyhow::Result<StudentReport> {
        let cases = &self.case_file.cases;
        let rel = sub
            .file
            .as_ref()
            .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string());
        let mut warnings = sub.warnings.clone();
        let (mut stdout, mut stderr) = (String::new(), String::new());
        let mut violations = Vec::new();
        let mut rule_checked = false;
        let mut counterexamples = Vec::new();
        let results = match (&sub.file, &sub.problem) {
            (Some(file), None) => {
                let source = std::fs::read(file)
                    .with_context(|| format!("cannot read `{}`", file.display()))?;
                match check_rule(&self.runner, self.assignment, &source, slot)? {
                    Ok(found) => {
                        violations = found;
                        rule_checked = true;
                    }
                    Err(why) => warnings.push(format!("the rule check was skipped: {why}")),
                }
                let mut runner =
                    runner::SubmissionRunner::new(&self.runner, self.assignment, &source, slot);
                let context = || format!("cannot grade `{}`", file.display());
                let mut outcomes = Vec::with_capacity(cases.len());
                for (case, &deadline) in cases.iter().zip(&self.deadlines) {
                    outcomes.push(runner.run(case, deadline).with_context(context)?);
                }
                let results = grading::judge_all(self.assignment, cases, &outcomes);
                counterexamples = self.shrink_failures(&mut runner, &results);
                let (out, err) = runner.finish();
                stdout = out.excerpt();
                stderr = err.excerpt();
                results
            }
            (_, problem) => {
                let why = problem
                    .clone()
                    .unwrap_or_else(|| "no file to grade".to_owned());
                warnings.push(why.clone());
                let verdict = Verdict::detail(
                    VerdictKind::ImportFailed,
                    format!("nothing was graded: {why}"),
                );
                cases
                    .iter()
                    .map(|c| grading::CaseResult {
                        case_id: c.id.clone(),
                        function: c.function.clone(),
                        verdict: verdict.clone(),
                        wall_ms: None,
                        cpu_ms: None,
                    })
                    .collect()
            }
        };
        let offending = lint::offending_functions(&violations).len();
        let mut tally = grading::score(self.assignment, &self.rubric, cases, &results, offending);
        for c in counterexamples {
            if let Some(f) = tally.functions.get_mut(&c.case.function) {
                f.counterexample = Some(c);
            }
        }
        Ok(StudentReport {
            student: sub.student.clone(),
            file: rel,
            score: tally.score,
            max_score: tally.max_score,
            functions: tally.functions,
            cases: results,
            penalty: tally.penalty,
            violations,
            rule_checked,
            warnings,
            stdout,
            stderr,
        })
    }
}
