//! The grading engine: puts the runner, the grading and the report model
//! together for one student, and prepares what a whole run shares (the
//! interpreter, the sandbox backend, the cases and their deadlines).
//!
//! Deadlines are calibrated: before grading anyone, the model solution and
//! the assignment's naive solution (the slowest shape it accepts) run every
//! case in the same sandbox, and each case's deadline is
//! `max(floor, multiplier x the model's CPU time, NAIVE_MULTIPLIER x the
//! naive solution's CPU time on that case)` of the student process's CPU
//! time, with a wall-time backstop of `max(wall floor, 10 x that, the same
//! multiples of their wall times)`. Deadlines follow the slowest acceptable
//! solution, not the fastest, so a correct student is never judged by how
//! quick the model happens to be. These runs also prove the harness: if
//! either solution fails a case, grading stops with an error instead of
//! marking students against a wrong expectation.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use salgrade_reference::{Case, CaseFile};

use crate::assignment::{self, Assignment};
use crate::discover::Submission;
use crate::grading::judge;
use crate::grading::lint::{self, Violation};
use crate::grading::shrink::{self, Budget, Counterexample};
use crate::grading::{self, rubric::Rubric};
use crate::outcome::RawOutcome;
use crate::report::StudentReport;
use crate::runner::{self, Deadline, Harness, Language, RunnerConfig};
use crate::verdict::{Verdict, VerdictKind};

/// The language of a submitted file, by its extension.
pub(crate) fn language_of(file: &Path) -> Option<Language> {
    Language::of_file(&file.file_name()?.to_string_lossy())
}

/// Whether a file holds nothing but white space (an empty submission is
/// said once, not as every function missing). An unreadable file is not
/// blank: reading it again reports why.
fn is_blank(file: &Path) -> bool {
    std::fs::read(file).is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace))
}

/// Whether C++ source defines a `main` of its own (a call `main(` after a
/// non-identifier character is taken as one: a warning, never a verdict).
fn defines_main(source: &str) -> bool {
    source.match_indices("main").any(|(i, _)| {
        let before = source[..i].chars().next_back();
        let after = source[i + 4..].trim_start().chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
    })
}

/// How per-case deadlines are chosen.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeadlinePolicy {
    /// The least CPU time a case gets.
    pub floor: Duration,
    pub multiplier: f64,
    /// The least wall time a case gets (the backstop).
    pub wall_floor: Duration,
}

/// The wall-time backstop is at least this many times the CPU deadline, so
/// a correct solution sharing the processor with others (a loaded machine)
/// is still judged by its CPU time.
const WALL_PER_CPU: u32 = 10;

/// A case's CPU deadline is at least this many times the naive solution's
/// CPU time on it. A loaded 2-vCPU machine (two CPU-bound processes and one
/// streaming memory beside the student) inflates a process's CPU time by
/// up to about 2x (shared hyperthreads and memory bandwidth), so 10 leaves
/// the slowest acceptable solution at least a 5x margin under such load.
pub(crate) const NAIVE_MULTIPLIER: u32 = 10;

/// What one calibration run measured on one case.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Measured {
    pub cpu: Duration,
    pub wall: Duration,
}

impl DeadlinePolicy {
    /// The deadline of a case on which the model and the naive solution
    /// used what they did.
    pub(crate) fn deadline(&self, model: Measured, naive: Measured) -> Deadline {
        let cpu = self
            .floor
            .max(model.cpu.mul_f64(self.multiplier))
            .max(naive.cpu * NAIVE_MULTIPLIER);
        Deadline {
            cpu,
            wall: self
                .wall_floor
                .max(cpu * WALL_PER_CPU)
                .max(model.wall.mul_f64(self.multiplier))
                .max(naive.wall * NAIVE_MULTIPLIER),
        }
    }
}

/// The generous deadline the model solution itself runs under.
pub(crate) const CALIBRATION_DEADLINE: Duration = Duration::from_secs(60);

/// Everything shared by the students of one run. Only [`Engine::new`]
/// makes one, and it calibrates: no engine exists without deadlines.
/// The run's sandboxes are reaped to the last process when it ends.
impl Drop for Engine {
    fn drop(&mut self) {
        if matches!(
            self.runner.sandbox,
            runner::SandboxKind::Bwrap | runner::SandboxKind::Namespaces
        ) {
            runner::reap_leftovers();
        }
    }
}

pub(crate) struct Engine {
    pub assignment: &'static dyn Assignment,
    pub runner: RunnerConfig,
    pub case_file: CaseFile,
    pub rubric: Rubric,
    /// Time per student for shrinking failures; zero turns shrinking off.
    shrink_budget: Duration,
    /// Each language graded in this run, its harness and its deadlines
    /// (calibrated on that language's model solution).
    languages: BTreeMap<Language, Calibrated>,
}

struct Calibrated {
    harness: Harness,
    deadlines: Vec<Deadline>,
}

/// Candidates one shrink search may try, whatever its time budget.
const MAX_SHRINK_TRIES: u32 = 2000;

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
    let run = runner::lint_source(
        runner,
        rule.checked,
        rule.exempt,
        assignment.student_file(),
        source,
        slot,
    )
    .context("cannot run the rule checker")?;
    Ok(rule_findings(run))
}

/// The violations in a rule check's answer, or why there is none.
fn rule_findings(run: runner::LintRun) -> Result<Vec<Violation>, String> {
    match run {
        runner::LintRun::Findings(findings) => lint::parse_findings(findings),
        runner::LintRun::Unreadable(why) => Err(why),
    }
}

/// What every case file must get right whatever its assignment: unique ids
/// and functions the assignment grades.
fn shared_problems(assignment: &dyn Assignment, file: &CaseFile) -> Vec<String> {
    let mut problems = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for case in &file.cases {
        if !ids.insert(case.id.as_str()) {
            problems.push(format!("case `{}`: the id is used twice", case.id));
        }
        if !assignment.functions().contains(&case.function.as_str()) {
            problems.push(format!(
                "case `{}`: unknown function `{}` (expected one of {})",
                case.id,
                case.function,
                assignment.functions().join(", ")
            ));
        }
    }
    problems
}

/// Reads a case file, without checking it against an assignment yet.
pub(crate) fn read_case_file(path: &Path) -> anyhow::Result<CaseFile> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read case file `{}`", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("case file `{}` is not a valid case file", path.display()))
}

/// Checks a case file against its assignment: options, cases and every
/// expected answer re-derived by the reference.
pub(crate) fn check_case_file(
    assignment: &dyn Assignment,
    file: CaseFile,
    path: &Path,
) -> anyhow::Result<CaseFile> {
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
    crate::bounds::check_size(&file, |c| assignment.squares(c))
        .with_context(|| format!("case file `{}`", path.display()))?;
    let options = assignment
        .options(&file.options)
        .map_err(|e| anyhow::anyhow!("case file `{}`: {e}", path.display()))?;
    let file = CaseFile { options, ..file };
    if let Some(problem) = shared_problems(assignment, &file)
        .into_iter()
        .chain(assignment.check_cases(&file))
        .next()
    {
        bail!("case file `{}`: {problem}", path.display());
    }
    Ok(file)
}

impl Engine {
    /// Prepares a run: runs the model solution on every case in the same
    /// sandbox, which proves the harness and sets each case's deadline.
    /// Each of `languages` is calibrated on its own model solution.
    pub(crate) fn new(
        assignment: &'static dyn Assignment,
        runner: RunnerConfig,
        case_file: CaseFile,
        rubric: Rubric,
        policy: DeadlinePolicy,
        shrink_budget: Duration,
        languages: &[Language],
    ) -> anyhow::Result<Engine> {
        let mut calibrated = BTreeMap::new();
        for &language in languages {
            let (Some(harness), Some(model), Some(naive)) = (
                assignment.harness(language),
                assignment.model_solution(language),
                assignment.naive_solution(language),
            ) else {
                bail!(
                    "assignment `{}` takes no {} submissions",
                    assignment.id(),
                    language.name()
                );
            };
            let deadlines = calibrate(
                assignment,
                &harness,
                Solutions { model, naive },
                &runner,
                &case_file.cases,
                policy,
            )
            .with_context(|| format!("{} calibration", language.name()))?;
            calibrated.insert(language, Calibrated { harness, deadlines });
        }
        Ok(Engine {
            assignment,
            runner,
            case_file,
            rubric,
            shrink_budget,
            languages: calibrated,
        })
    }
}

/// The two solutions calibration runs, in one language.
struct Solutions {
    model: &'static str,
    naive: &'static str,
}

/// Runs the model and the naive solution on every case (side by side, in
/// slots 0 and 1, before any student uses them) and returns the deadlines.
fn calibrate(
    assignment: &dyn Assignment,
    harness: &Harness,
    solutions: Solutions,
    runner: &RunnerConfig,
    cases: &[Case],
    policy: DeadlinePolicy,
) -> anyhow::Result<Vec<Deadline>> {
    let (model, naive) = std::thread::scope(|scope| {
        let naive = scope.spawn(|| {
            measure(assignment, harness, solutions.naive, runner, cases, 1)
                .context("the naive solution")
        });
        let model = measure(assignment, harness, solutions.model, runner, cases, 0)
            .context("the model solution");
        let naive = naive
            .join()
            .unwrap_or_else(|_| Err(anyhow::anyhow!("the naive solution's run panicked")));
        (model, naive)
    });
    let (model, naive) = (model?, naive?);
    Ok(model
        .into_iter()
        .zip(naive)
        .map(|(m, n)| policy.deadline(m, n))
        .collect())
}

/// Runs a solution that must pass every case; returns what it used on each.
fn measure(
    assignment: &dyn Assignment,
    harness: &Harness,
    solution: &str,
    runner: &RunnerConfig,
    cases: &[Case],
    slot: usize,
) -> anyhow::Result<Vec<Measured>> {
    let generous = vec![
        Deadline {
            cpu: CALIBRATION_DEADLINE,
            wall: CALIBRATION_DEADLINE,
        };
        cases.len()
    ];
    let run = runner::run_submission(runner, harness, solution.as_bytes(), cases, &generous, slot)
        .context("cannot run it")?;
    let results = grading::judge_all(assignment, cases, &run.outcomes);
    if let Some((case, r)) = cases
        .iter()
        .zip(&results)
        .find(|(_, r)| !r.verdict.passed())
    {
        let stderr = run.stderr.excerpt();
        let cause =
            crate::bounds::limit_to_raise(&r.verdict, &stderr, runner).unwrap_or_else(|| {
                "either the case file is wrong or this is a salgrade bug".to_owned()
            });
        bail!(
            "it fails case `{}` ({}): {}{}{}. {}",
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
            crate::words::capitalise(&cause)
        );
    }
    Ok(run
        .outcomes
        .iter()
        .map(|o| match o {
            RawOutcome::Answered {
                wall_ms,
                process_cpu_us,
                ..
            } => {
                let wall = Duration::from_millis(*wall_ms);
                // Without a CPU clock, the wall time stands in for it.
                let cpu = process_cpu_us.map_or(wall, Duration::from_micros);
                Measured { cpu, wall }
            }
            _ => Measured::default(),
        })
        .collect())
}

impl Engine {
    /// Shrinks each function's smallest failure against the same student
    /// process, within the per-student budget. Never scored.
    fn shrink_failures(
        &self,
        runner: &mut runner::SubmissionRunner<'_>,
        deadlines: &[Deadline],
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
            let (result, case, deadline) = (&results[i], &cases[i], deadlines[i]);
            // Each function gets an equal share of what is left, so one slow
            // search cannot starve the others.
            let left = end.saturating_duration_since(Instant::now());
            let budget = Budget {
                until: Instant::now() + left / (starts.len() - n) as u32,
                max_tries: MAX_SHRINK_TRIES,
            };
            let mut oracle = |candidate: &Case| {
                let outcome = runner.run(candidate, deadline).ok()?;
                Some(judge::judge(self.assignment, candidate, &outcome))
            };
            found.push(shrink::shrink(
                self.assignment,
                &self.case_file.options,
                case,
                &result.verdict,
                budget,
                &mut oracle,
            ));
        }
        found
    }

    /// Runs `boards` (shrunk cases, each with the id of the graded case it
    /// came from, whose deadline it gets) on one student's file and judges
    /// each; `None` where the run could not be made. Never scored: this is
    /// how common mistakes are compared (see `grading::clusters`).
    pub(crate) fn rerun(
        &self,
        sub: &Submission,
        slot: usize,
        boards: &[(&Case, &str)],
    ) -> Vec<Option<Verdict>> {
        let none = || vec![None; boards.len()];
        let (Some(file), None) = (&sub.file, &sub.problem) else {
            return none();
        };
        let Some(calibrated) = language_of(file).and_then(|l| self.languages.get(&l)) else {
            return none();
        };
        let Ok(source) = std::fs::read(file) else {
            return none();
        };
        let Ok(mut runner) =
            runner::SubmissionRunner::new(&self.runner, &calibrated.harness, &source, slot, None)
        else {
            return none();
        };
        let cases = &self.case_file.cases;
        let verdicts = boards
            .iter()
            .map(|(case, from)| {
                let i = cases.iter().position(|c| c.id == *from)?;
                let outcome = runner.run(case, calibrated.deadlines[i]).ok()?;
                Some(judge::judge(self.assignment, case, &outcome))
            })
            .collect();
        drop(runner.finish());
        verdicts
    }

    /// Grades one student. Student failures are results; only harness
    /// failures (cannot create a folder, cannot start Python) are errors.
    /// Whether a recorded result (a journal entry) is one this run could
    /// have produced: its cases are this run's, in order, and its scores are
    /// what its verdicts earn under the rubric. A hand-edited score, or a
    /// verdict changed without its score, fails here, naming the mismatch.
    pub(crate) fn adds_up(&self, s: &StudentReport) -> Result<(), String> {
        let cases = &self.case_file.cases;
        let same_cases = s.cases.len() == cases.len()
            && s.cases
                .iter()
                .zip(cases)
                .all(|(r, c)| *r.case_id == *c.id && *r.function == *c.function);
        if !same_cases {
            return Err(format!(
                "its {} case results are not this run's {} cases",
                s.cases.len(),
                cases.len()
            ));
        }
        let offending = lint::offending_functions(&s.violations).len();
        let tally = grading::score(self.assignment, &self.rubric, cases, &s.cases, offending);
        let mut wrong = Vec::new();
        for (what, recorded, earned) in [
            ("score", s.score, tally.score),
            ("maximum", s.max_score, tally.max_score),
            ("penalty", s.penalty, tally.penalty),
        ] {
            if recorded != earned {
                wrong.push(format!("{what} {recorded} where its cases earn {earned}"));
            }
        }
        for (f, earned) in &tally.functions {
            let recorded = s.functions.get(f);
            let agrees = recorded.is_some_and(|r| {
                (r.passed, r.total, r.points, r.max_points)
                    == (
                        earned.passed,
                        earned.total,
                        earned.points,
                        earned.max_points,
                    )
            });
            if !agrees {
                wrong.push(format!("`{f}`'s tally is not what its cases earn"));
            }
        }
        if s.functions.len() != tally.functions.len() {
            wrong.push("its functions are not this assignment's".to_owned());
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(format!("it does not add up: {}", wrong.join("; ")))
        }
    }

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
        let problem = sub.problem.clone().or_else(|| {
            let file = sub.file.as_deref()?;
            is_blank(file).then(|| {
                format!(
                    "your file `{}` is empty: submit the file with your code in it",
                    rel.as_deref().unwrap_or_default()
                )
            })
        });
        let results = match (&sub.file, &problem) {
            (Some(file), None) => {
                let source = std::fs::read(file)
                    .with_context(|| format!("cannot read `{}`", file.display()))?;
                let context = || format!("cannot grade `{}`", file.display());
                let language = language_of(file);
                let calibrated =
                    language
                        .and_then(|l| self.languages.get(&l))
                        .with_context(|| {
                            format!(
                                "`{}` is not in a language this run grades (a salgrade bug)",
                                file.display()
                            )
                        })?;
                let rule = self.assignment.container_rule();
                let python = language == Some(Language::Python);
                if !python {
                    rule_checked = self.assignment.container_rule().is_none();
                    if defines_main(&String::from_utf8_lossy(&source)) {
                        warnings.push(
                            "your `main` is not run: the harness's `main` calls your functions"
                                .to_owned(),
                        );
                    }
                }
                // The first session's driver checks the rule before it
                // imports the file (one process start, not two).
                let ask = rule.filter(|_| python).map(|r| runner::LintAsk {
                    checked: r.checked,
                    exempt: r.exempt,
                });
                let mut runner = runner::SubmissionRunner::new(
                    &self.runner,
                    &calibrated.harness,
                    &source,
                    slot,
                    ask,
                )
                .with_context(context)?;
                warnings.extend(
                    runner
                        .build_warnings()
                        .iter()
                        .map(|w| format!("compiler warning: {w}")),
                );
                let outcomes = runner
                    .run_all(cases, &calibrated.deadlines)
                    .with_context(context)?;
                if python {
                    // A driver that died before its check (or no case at
                    // all) leaves it to the checker on its own.
                    let checked = match runner.linted() {
                        Some(run) if rule.is_some() => rule_findings(run.clone()),
                        _ => check_rule(&self.runner, self.assignment, &source, slot)?,
                    };
                    match checked {
                        Ok(found) => {
                            violations = found;
                            rule_checked = true;
                        }
                        Err(why) => warnings.push(format!("the rule check was skipped: {why}")),
                    }
                }
                let results = grading::judge_all(self.assignment, cases, &outcomes);
                counterexamples =
                    self.shrink_failures(&mut runner, &calibrated.deadlines, &results);
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
                    format!("{}{why}", crate::report::feedback::NOTHING_GRADED),
                );
                cases
                    .iter()
                    .map(|c| grading::CaseResult {
                        case_id: grading::shared(&c.id),
                        function: grading::shared(&c.function),
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
        for (name, f) in &mut tally.functions {
            let shown = f
                .counterexample
                .as_ref()
                .map(|c| &c.verdict)
                .or(f.smallest_failure.as_ref().map(|s| &s.verdict));
            if let Some(v) = shown {
                f.hint = Some(assignment::hint(self.assignment, v.kind).to_owned());
                f.notes = self.assignment.notes(name, v);
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

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: DeadlinePolicy = DeadlinePolicy {
        floor: Duration::from_millis(50),
        multiplier: 25.0,
        wall_floor: Duration::from_secs(1),
    };

    fn ms(cpu: u64, wall: u64) -> Measured {
        Measured {
            cpu: Duration::from_millis(cpu),
            wall: Duration::from_millis(wall),
        }
    }

    #[test]
    fn the_naive_solution_sets_the_deadline_where_it_is_slow() {
        // The dualboard: the model needs 4 ms, the naive one 114 ms.
        let d = POLICY.deadline(ms(4, 5), ms(114, 120));
        assert_eq!(d.cpu, Duration::from_millis(1140));
        assert_eq!(d.wall, Duration::from_millis(11_400));
    }

    #[test]
    fn small_cases_stay_at_the_floor() {
        let d = POLICY.deadline(ms(0, 1), ms(2, 3));
        assert_eq!(d.cpu, Duration::from_millis(50));
        assert_eq!(d.wall, Duration::from_secs(1));
    }

    #[test]
    fn the_model_still_counts_where_it_is_the_slower() {
        let d = POLICY.deadline(ms(10, 10), ms(5, 5));
        assert_eq!(d.cpu, Duration::from_millis(250));
    }
}
