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
//!
//! Preparation (the deadline policy and calibration, [`Engine::new`]) is in
//! `prepare`; grading one student ([`Engine::grade`]) in `student`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use salgrade_reference::{Case, CaseFile};

use crate::assignment::Assignment;
use crate::discover::Submission;
use crate::grading::judge;
use crate::grading::lint::{self, Violation};
use crate::grading::{self, rubric::Rubric};
use crate::report::StudentReport;
use crate::runner::{self, Deadline, Harness, Language, RunnerConfig};
use crate::verdict::Verdict;

mod prepare;
mod student;

pub(crate) use prepare::DeadlinePolicy;
#[cfg(test)]
pub(crate) use prepare::{CALIBRATION_DEADLINE, Measured};

/// The language of a submitted file, by its extension.
pub(crate) fn language_of(file: &Path) -> Option<Language> {
    Language::of_file(&file.file_name()?.to_string_lossy())
}

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
}
