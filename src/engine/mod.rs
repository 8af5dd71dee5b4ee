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

mod cache;
mod prepare;
mod student;

#[cfg(test)]
pub(crate) use cache::Measured;
#[cfg(test)]
pub(crate) use prepare::CALIBRATION_DEADLINE;
pub(crate) use prepare::DeadlinePolicy;

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
    /// The order the cases are asked in (see `CaseFile::asking_order`).
    order: Vec<usize>,
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
    let text = crate::input::read_text(path)
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
        let siblings = self.sibling_files(file, &sub.siblings, &mut Vec::new());
        let Ok(mut runner) = runner::SubmissionRunner::with_siblings(
            &self.runner,
            &calibrated.harness,
            &source,
            &siblings,
            slot,
            None,
        ) else {
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

    /// The student's other files beside `file` (see
    /// [`crate::discover::siblings`]) that the run is given, as (name,
    /// contents); each one left out is said in `warnings`, with why.
    ///
    /// Python: the `.py` files, so `from helpers import cell` works as it
    /// did for the student (a course may hand in a whole folder, as MarkUs
    /// and Gradescope do); never a file of the course's or salgrade's
    /// (the runner keeps theirs), and none for an assignment with a
    /// container rule, whose check reads the graded file alone (a helper
    /// module would be a way around it). C++: none; the build compiles
    /// the one file.
    pub(crate) fn sibling_files(
        &self,
        file: &Path,
        siblings: &[crate::discover::siblings::Sibling],
        warnings: &mut Vec<String>,
    ) -> Vec<(String, Vec<u8>)> {
        use crate::discover::siblings::{MAX_SIBLING_BYTES, MAX_SIBLINGS};
        let name_of = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let graded = name_of(file);
        let python = language_of(file) == Some(Language::Python);
        let usable: Vec<&crate::discover::siblings::Sibling> = siblings
            .iter()
            .filter(|s| python == s.name.ends_with(".py"))
            .collect();
        if usable.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = usable.iter().map(|s| s.name.clone()).collect();
        if !python {
            warnings.push(format!(
                "only `{graded}` is compiled: {} beside it {} not (a C++ submission is one file; put what it includes into it)",
                crate::words::code_list(&names),
                if names.len() == 1 { "is" } else { "are" }
            ));
            return Vec::new();
        }
        if self.assignment.container_rule().is_some() {
            warnings.push(format!(
                "only `{graded}` is used: {} beside it {} not given to your code, since the handout's rule is checked on that one file (put your helpers into it)",
                crate::words::code_list(&names),
                if names.len() == 1 { "is" } else { "are" }
            ));
            return Vec::new();
        }
        let mut given = Vec::new();
        let mut left_out = Vec::new();
        for sibling in usable {
            let (path, name) = (&sibling.path, sibling.name.clone());
            let size = std::fs::symlink_metadata(path)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map(|m| m.len());
            match size {
                _ if given.len() >= MAX_SIBLINGS => {
                    left_out.push(format!("`{name}` (more than {MAX_SIBLINGS} files)"));
                }
                Some(size) if size <= MAX_SIBLING_BYTES => match std::fs::read(path) {
                    Ok(bytes) => given.push((name, bytes)),
                    Err(e) => left_out.push(format!("`{name}` (cannot be read: {e})")),
                },
                Some(_) => left_out.push(format!(
                    "`{name}` (larger than {} KiB)",
                    MAX_SIBLING_BYTES / 1024
                )),
                None => left_out.push(format!("`{name}` (not a regular file)")),
            }
        }
        if !left_out.is_empty() {
            warnings.push(format!(
                "not given to your code beside `{graded}`: {}",
                left_out.join(", ")
            ));
        }
        given
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
